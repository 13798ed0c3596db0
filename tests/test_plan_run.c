/* SPDX-License-Identifier: MIT */
/* The planning of core/run/gs_plan_run.h on pretend devices, without the
 * binary and without launching: the table's shapes and the union of its
 * sizes, G found once per device, the preflight's refusals, check's
 * devices for a dialect, and bandwidth's size per buffer. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "gs_device.h"
#include "gs_plan_run.h"

/* ---- a pretend backend: 4 blocks per compute unit, counted ------------------ */

static int grid_queries;

static int four_per_unit(struct gs_device *dev, enum gs_kernel_id kernel, unsigned block,
                         unsigned *blocks, char *rule, unsigned rule_size, struct gs_err *e)
{
    (void)dev;
    (void)kernel;
    (void)block;
    (void)e;
    ++grid_queries;
    *blocks = 4;
    snprintf(rule, rule_size, "4 blocks per unit");
    return GS_OK;
}

static int no_build(struct gs_device *dev, const struct gs_user_source *src,
                    struct gs_user_kernel **k, struct gs_build_info *info, struct gs_err *e)
{
    (void)dev;
    (void)src;
    (void)k;
    (void)info;
    return gs_err_set(e, GS_UNSUPPORTED, "not in this test");
}

static int no_launch(struct gs_device *dev, const struct gs_launch *l, int timed,
                     struct gs_launch_result *r, struct gs_err *e)
{
    (void)dev;
    (void)l;
    (void)timed;
    (void)r;
    return gs_err_set(e, GS_UNSUPPORTED, "not in this test");
}

static void no_free(struct gs_device *dev, struct gs_user_kernel *k)
{
    (void)dev;
    (void)k;
}

static const struct gs_backend pretend = {
    .name = "pretend",
    .blocks_per_unit = four_per_unit,
    .user_dialects = 1u << GS_DIALECT_OPENCL,
    .user_build = no_build,
    .user_launch = no_launch,
    .user_free = no_free,
};

/* Builds nothing: the same, without user kernels. */
static const struct gs_backend plain = {
    .name = "plain",
    .blocks_per_unit = four_per_unit,
    .user_dialects = 1u << GS_DIALECT_OPENCL,
};

/* A GPU of `units` compute units, blocks up to `max_block`, 16 GiB of
 * memory and buffers of up to 4 GiB (no free-memory query: the size). */
static void gpu(struct gs_device *d, const struct gs_backend *b, const char *name,
                unsigned units, unsigned max_block)
{
    memset(d, 0, sizeof *d);
    d->backend = b;
    snprintf(d->name, sizeof d->name, "%s", name);
    d->is_gpu = 1;
    d->compute_units = units;
    d->max_block = max_block;
    d->max_block_device = max_block;
    d->max_grid = 2147483647ull;
    d->global_mem = 16ull << 30;
    d->max_alloc = 4ull << 30;
}

/* What every test plans on: devices dev[] (devs[] points at them), each
 * one's G, the table's plan and the error; reset before each test. */
#define MAX_DEVS 29
static struct gs_device dev[MAX_DEVS];
static struct gs_device *devs[MAX_DEVS];
static struct gs_grid_choice grids[MAX_DEVS];
static struct gs_table_setup setup;
static struct gs_err e;

static int reset(void **state)
{
    (void)state;
    memset(dev, 0, sizeof dev);
    memset(grids, 0, sizeof grids);
    memset(&e, 0, sizeof e);
    for (int i = 0; i < MAX_DEVS; ++i)
        devs[i] = &dev[i];
    grid_queries = 0;
    return 0;
}

static int has(const uint64_t *v, int n, uint64_t x)
{
    for (int i = 0; i < n; ++i)
        if (v[i] == x)
            return 1;
    return 0;
}

/* ---- the table ------------------------------------------------------------------ */

static void table_unites_every_devices_sizes(void **state)
{
    (void)state;
    gpu(&dev[0], &pretend, "forty", 40, 1024);
    gpu(&dev[1], &pretend, "big", 132, 1024);
    const struct gs_table_request req = {.columns = 0xf};
    assert_int_equal(gs_plan_table(devs, 2, &req, &setup, grids, &e), GS_OK);
    /* G once per device, and nowhere else. */
    assert_int_equal(grid_queries, 2);
    assert_int_equal(grids[0].grid, 160);
    assert_int_equal(grids[1].grid, 528);
    assert_false(grids[0].fallback);
    assert_string_equal(grids[1].rule, "4 blocks per unit");
    const struct gs_table_plan *p = &setup.plan;
    assert_int_equal(p->block, GS_DEFAULT_BLOCK);
    assert_int_equal(p->columns, 0xf);
    /* 0, 1, 31, 32, 611, 1024, 1025, 4194304 and each device's T, T+1. */
    assert_int_equal(p->nsizes, 12);
    assert_true(has(p->sizes, p->nsizes, 40960) && has(p->sizes, p->nsizes, 40961));
    assert_true(has(p->sizes, p->nsizes, 135168) && has(p->sizes, p->nsizes, 135169));
    for (int i = 1; i < p->nsizes; ++i)
        assert_true(p->sizes[i - 1] < p->sizes[i]);
    /* Seed 002's shapes, the third on each device's own G. */
    assert_int_equal(p->nshapes, 4);
    assert_ptr_equal(p->shapes, setup.shapes);
    assert_int_equal(p->shapes[2].grid, 0);
    assert_int_equal(p->shapes[2].block, GS_DEFAULT_BLOCK);
    assert_int_equal(p->shapes[3].grid, 10000);
}

static void table_keeps_the_sizes_given(void **state)
{
    (void)state;
    gpu(&dev[0], &pretend, "forty", 40, 1024);
    const uint64_t sizes[] = {0, 611, 4097};
    const struct gs_shape shapes[] = {{2, 32}};
    const struct gs_table_request req = {.block = 64, .grid = 3, .sizes = sizes, .nsizes = 3,
                                         .shapes = shapes, .nshapes = 1};
    assert_int_equal(gs_plan_table(devs, 1, &req, &setup, grids, &e), GS_OK);
    assert_int_equal(setup.plan.nsizes, 3);
    assert_int_equal(setup.plan.sizes[2], 4097);
    assert_int_equal(setup.plan.nshapes, 1);
    assert_int_equal(setup.plan.shapes[0].grid, 2);
    assert_int_equal(grids[0].grid, 3);
    assert_string_equal(grids[0].rule, "set by --grid");
}

/* A block beyond one device gives it a stand-in G that sets no rows; beyond
 * every device it is bad usage, said to be the default when it is. */
static void table_block_beyond_devices(void **state)
{
    (void)state;
    gpu(&dev[0], &pretend, "small", 10, 128);
    gpu(&dev[1], &pretend, "large", 40, 1024);
    struct gs_table_request req = {0};
    assert_int_equal(gs_plan_table(devs, 2, &req, &setup, grids, &e), GS_OK);
    assert_true(grids[0].fallback);
    assert_int_equal(grids[0].grid, 10);
    assert_int_equal(setup.plan.nsizes, 10); /* the large device's T only */
    assert_true(has(setup.plan.sizes, setup.plan.nsizes, 40960));
    assert_false(has(setup.plan.sizes, setup.plan.nsizes, 2560));
    assert_int_equal(gs_plan_table(devs, 1, &req, &setup, grids, &e), GS_USAGE);
    assert_non_null(strstr(e.msg, "block 256 (the default) is beyond every selected device"));
    req.grid = 1ull << 32;
    assert_int_equal(gs_plan_table(devs, 2, &req, &setup, grids, &e), GS_USAGE);
    assert_non_null(strstr(e.msg, "--grid 4294967296 is beyond every selected device"));
}

static void table_refuses_too_many_sizes(void **state)
{
    (void)state;
    for (int i = 0; i < MAX_DEVS; ++i)
        gpu(&dev[i], &pretend, "many", 100 + (unsigned)i, 1024);
    const struct gs_table_request req = {0};
    assert_int_equal(gs_plan_table(devs, MAX_DEVS - 1, &req, &setup, grids, &e), GS_OK);
    assert_int_equal(setup.plan.nsizes, 8 + 2 * (MAX_DEVS - 1));
    assert_int_equal(gs_plan_table(devs, MAX_DEVS, &req, &setup, grids, &e), GS_USAGE);
    assert_string_equal(e.msg, "too many distinct sizes across devices; pass --sizes");
}

static void table_preflight_refuses_what_does_not_fit(void **state)
{
    (void)state;
    gpu(&dev[0], &pretend, "forty", 40, 1024);
    dev[0].global_mem = 1ull << 30;
    const uint64_t sizes[] = {1ull << 28};
    const struct gs_table_request req = {.sizes = sizes, .nsizes = 1};
    assert_int_equal(gs_plan_table(devs, 1, &req, &setup, grids, &e), GS_USAGE);
    assert_non_null(strstr(e.msg, "on pretend device forty"));
    assert_non_null(strstr(e.msg, "choose a smaller n with --sizes"));
    dev[0].global_mem = 16ull << 30;
    assert_int_equal(gs_plan_table(devs, 1, &req, &setup, grids, &e), GS_OK);
}

/* ---- limits, check, bandwidth, trace ------------------------------------------- */

static void limits_name_the_option(void **state)
{
    (void)state;
    gpu(&dev[0], &pretend, "forty", 40, 128);
    dev[0].max_grid = 65535;
    const struct gs_shape wide = {70000, 32};
    assert_int_equal(gs_plan_limits(&dev[0], 64, 0, NULL, 0, &e), GS_OK);
    assert_int_equal(gs_plan_limits(&dev[0], 256, 0, NULL, 0, &e), GS_USAGE);
    assert_string_equal(e.msg, "block 256 (the default) exceeds the largest block of pretend "
                               "device forty (128); choose --block 1 to 128");
    assert_int_equal(gs_plan_limits(&dev[0], 64, 65536, NULL, 0, &e), GS_USAGE);
    assert_non_null(strstr(e.msg, "--grid 65536 exceeds"));
    assert_int_equal(gs_plan_limits(&dev[0], 64, 0, &wide, 1, &e), GS_USAGE);
    assert_non_null(strstr(e.msg, "--shape 70000x32 is beyond pretend device forty"));
}

static void check_plans_each_devices_grid(void **state)
{
    (void)state;
    gpu(&dev[0], &pretend, "forty", 40, 1024);
    gpu(&dev[1], &pretend, "eighty", 80, 1024);
    struct gs_check_plan plan = {.block = 0};
    assert_int_equal(gs_plan_check(devs, 2, &plan, grids, &e), GS_OK);
    assert_int_equal(grid_queries, 2);
    assert_int_equal(grids[0].grid, 160);
    assert_int_equal(grids[1].grid, 320);
    /* Buffers for the largest n on the device's own T. */
    dev[1].global_mem = 1ull << 20;
    assert_int_equal(gs_plan_check(devs, 2, &plan, grids, &e), GS_USAGE);
    assert_non_null(strstr(e.msg, "device eighty"));
    const struct gs_shape tall = {1, 2048};
    plan.shapes = &tall;
    plan.nshapes = 1;
    assert_int_equal(gs_plan_check(devs, 1, &plan, grids, &e), GS_USAGE);
    assert_non_null(strstr(e.msg, "--shape 1x2048"));
}

static void check_chooses_backends_by_dialect(void **state)
{
    (void)state;
    struct gs_device *out[3] = {0};
    gpu(&dev[0], &pretend, "one", 40, 1024);
    gpu(&dev[1], &plain, "two", 40, 1024);
    gpu(&dev[2], &pretend, "three", 40, 1024);
    assert_true(gs_plan_builds_dialect(&pretend, GS_DIALECT_OPENCL));
    assert_false(gs_plan_builds_dialect(&pretend, GS_DIALECT_CUDA));
    assert_false(gs_plan_builds_dialect(&plain, GS_DIALECT_OPENCL)); /* no user_build */
    assert_int_equal(gs_backend_user_dialects(&pretend), 1u << GS_DIALECT_OPENCL);
    assert_int_equal(gs_plan_dialect_devices(devs, 3, GS_DIALECT_OPENCL, out), 2);
    assert_ptr_equal(out[0], &dev[0]);
    assert_ptr_equal(out[1], &dev[2]);
    assert_int_equal(gs_plan_dialect_devices(devs, 3, GS_DIALECT_PORTABLE, out), 0);
}

static void bandwidth_size_per_buffer(void **state)
{
    (void)state;
    uint64_t n = 0;
    gpu(&dev[0], &pretend, "forty", 40, 1024);
    gpu(&dev[1], &pretend, "eighty", 80, 1024);
    assert_int_equal(gs_plan_bandwidth_n(devs, 2, GS_TYPE_FLOAT, 0, 1ull << 30, &n, NULL, 0, &e), GS_OK);
    assert_int_equal(n, (1ull << 30) / 4);
    assert_int_equal(gs_plan_bandwidth_n(devs, 2, GS_TYPE_DOUBLE, 1ull << 20, 0, &n, NULL, 0, &e), GS_OK);
    assert_int_equal(n, (1ull << 20) / 8);
    assert_int_equal(gs_plan_bandwidth_n(devs, 2, GS_TYPE_FLOAT, 2048, 0, &n, NULL, 0, &e), GS_USAGE);
    assert_string_equal(e.msg, "--bytes: too small; give at least 4KiB per buffer");
    /* The smallest device bounds --bytes and the default. */
    dev[1].global_mem = 3ull << 20;
    assert_int_equal(gs_plan_bandwidth_n(devs, 2, GS_TYPE_FLOAT, 1ull << 30, 0, &n, NULL, 0, &e), GS_USAGE);
    assert_non_null(strstr(e.msg, "do not fit eighty"));
    assert_int_equal(gs_plan_bandwidth_n(devs, 2, GS_TYPE_FLOAT, 0, 1ull << 30, &n, NULL, 0, &e), GS_OK);
    assert_true(n > 0 && n * 4 * 3 <= 3ull << 20);
    dev[1].global_mem = 4096;
    assert_int_equal(gs_plan_bandwidth_n(devs, 2, GS_TYPE_FLOAT, 0, 1ull << 30, &n, NULL, 0, &e), GS_USAGE);
    assert_non_null(strstr(e.msg, "eighty has too little memory"));
}

static void bandwidth_device_needs_double(void **state)
{
    (void)state;
    gpu(&dev[0], &pretend, "forty", 40, 1024);
    assert_int_equal(gs_plan_bench_device(&dev[0], 0, 0, GS_TYPE_FLOAT, &e), GS_OK);
    assert_int_equal(gs_plan_bench_device(&dev[0], 0, 0, GS_TYPE_DOUBLE, &e), GS_USAGE);
    assert_non_null(strstr(e.msg, "--type double: pretend device forty cannot run double"));
    dev[0].caps |= GS_CAP_F64;
    assert_int_equal(gs_plan_bench_device(&dev[0], 0, 0, GS_TYPE_DOUBLE, &e), GS_OK);
    assert_int_equal(gs_plan_bench_device(&dev[0], 2048, 0, GS_TYPE_DOUBLE, &e), GS_USAGE);
    assert_non_null(strstr(e.msg, "block 2048 exceeds"));
}

static void trace_maps_fit_half_the_machine(void **state)
{
    (void)state;
    struct gs_trace_plan p = {.nkernels = 3, .grid = 4, .block = 256, .n = 4096};
    assert_int_equal(gs_plan_trace_maps(&p, 2, &e), GS_OK);
    p.n = 1ull << 40; /* beyond --n's limit, to pass any machine's memory */
    assert_int_equal(gs_plan_trace_maps(&p, 2, &e), GS_USAGE);
    assert_non_null(strstr(e.msg, "choose a smaller --n or fewer --kernels"));
}

int main(void)
{
#define T(f) cmocka_unit_test_setup(f, reset)
    const struct CMUnitTest tests[] = {
        T(table_unites_every_devices_sizes),  T(table_keeps_the_sizes_given),
        T(table_block_beyond_devices),        T(table_refuses_too_many_sizes),
        T(table_preflight_refuses_what_does_not_fit), T(limits_name_the_option),
        T(check_plans_each_devices_grid),     T(check_chooses_backends_by_dialect),
        T(bandwidth_size_per_buffer),         T(bandwidth_device_needs_double),
        T(trace_maps_fit_half_the_machine),
    };
#undef T
    return cmocka_run_group_tests(tests, NULL, NULL);
}
