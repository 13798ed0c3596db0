/* SPDX-License-Identifier: MIT */
/* The bandwidth benchmark's harness on one backend's device (ctest runs it
 * once per GPU backend: test_bench <backend>): every row verified before it
 * is timed, and timed by the device. A small size: a test of the harness,
 * not a measurement. Device choice and skips as in test_conformance. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gs_bench.h"
#include "gs_device.h"
#include "gs_registry.h"
#include "gs_resource.h"
#include "gs_test_log.h"

#define SKIP_CODE 77

static struct gs_device *dev;

/* The whole float run at 2^18, made once for the three tests that read it
 * (another run would verify and time the same 36 rows again). */
static const struct gs_bench_plan full_plan = {1u << 18, 5, 1, 0, 0, NULL, GS_TYPE_FLOAT, 0};
static struct gs_bench full;
static struct gs_err full_err;
static int full_status = -1;

static int run_full(void **state)
{
    (void)state;
    full_status = gs_bench_run(dev, &full_plan, &full, &full_err);
    return 0; /* a failed run fails the tests that read it, with its message */
}

static int free_full(void **state)
{
    (void)state;
    gs_bench_free(&full);
    return 0;
}

static const struct gs_bench *full_run(void)
{
    if (full_status != GS_OK)
        fail_msg("gs_bench_run: %s", full_err.msg);
    return &full;
}

static void every_row_verifies_and_is_timed(void **state)
{
    (void)state;
    const struct gs_bench *b = full_run();
    assert_true(b->nrows > 0);
    for (int i = 0; i < b->nrows; ++i) {
        const struct gs_bench_row *r = &b->rows[i];
        if (!r->verified)
            fail_msg("%s: %s", r->label, r->wrong);
        assert_true(r->min_ms > 0 && r->min_ms <= r->med_ms && r->med_ms <= r->max_ms);
        assert_true(r->min_ms <= r->mean_ms && r->mean_ms <= r->max_ms && r->stddev_ms >= 0);
        assert_true(r->gbps > 0);
        assert_true(r->pct_best > 0 && (r->is_copy || r->pct_best <= 100.0));
        for (unsigned k = 0; k < full_plan.reps; ++k) /* the raw samples are the timed ones */
            assert_true(r->samples_ms[k] >= r->min_ms && r->samples_ms[k] <= r->max_ms);
    }
    assert_int_equal(b->wrong_rows, 0);
    assert_true(b->best_row >= 0);
    assert_true(b->rows[b->best_row].pct_best == 100.0);
}

/* A plan's groups: the lecture's (the API's copy, the access patterns) run
 * those rows only, in their order, verified and timed, and the coalescing
 * ratios come from them as from the whole run. */
static void groups_run_their_rows_only(void **state)
{
    (void)state;
    static struct gs_bench b;
    struct gs_err e = {0};
    const struct gs_bench_plan plan = {1u << 18, 5, 0, 0, 0, NULL, GS_TYPE_FLOAT,
                                       (1u << GS_BG_CEILING) | (1u << GS_BG_ACCESS)};
    if (gs_bench_run(dev, &plan, &b, &e) != GS_OK)
        fail_msg("gs_bench_run: %s", e.msg);
    assert_int_equal(b.nrows, 8);
    assert_true(b.rows[0].is_copy && b.rows[0].group == GS_BG_CEILING);
    for (int i = 1; i < b.nrows; ++i) {
        assert_int_equal(b.rows[i].group, GS_BG_ACCESS);
        if (!b.rows[i].verified)
            fail_msg("%s: %s", b.rows[i].label, b.rows[i].wrong);
        assert_true(b.rows[i].gbps > 0);
    }
    assert_true(b.copy_gbps > 0 && b.chunked_ratio > 0 && b.stride32_ratio > 0);
    assert_int_equal(b.wrong_rows, 0);
    gs_bench_free(&b);
}

/* The waves axis: data-sized grids give 4, 2 and 1 trips a thread (up to
 * the rounding of the last block), and the best launch is one of them or of
 * the multiples of G. */
static void waves_are_sized_to_the_data(void **state)
{
    (void)state;
    const struct gs_bench *b = full_run();
    int data_sized = 0;
    for (int i = 0; i < b->nrows; ++i) {
        const struct gs_bench_row *r = &b->rows[i];
        if (r->group != GS_BG_WAVES || !strstr(r->label, "trip"))
            continue;
        const double want = strstr(r->label, "4 trips") ? 4 : strstr(r->label, "2 trips") ? 2 : 1;
        if (r->trips > want + 1e-9 || r->trips < want * 0.99)
            fail_msg("%s: %.4f trips a thread, not %.0f", r->label, r->trips, want);
        ++data_sized;
    }
    assert_int_equal(data_sized, 9); /* three kernels x three sizes */
    assert_true(gs_bench_best_wave(b, GS_K_ADD_WARP_X4) >= 0);
}

/* `--type double`: every row, each a kernel's double build, verified
 * before it is timed, and every byte count twice the float run's for the
 * same n (the API's copy included); the trips count elements, as in float.
 * On a device without the double build the benchmark is refused with the
 * reason. */
static void every_row_verifies_in_double(void **state)
{
    (void)state;
    static struct gs_bench d;
    struct gs_err e = {0};
    char why[200];
    struct gs_bench_plan pd = full_plan;
    pd.type = GS_TYPE_DOUBLE;
    if (!gs_dev_has_f64(dev, why, sizeof why)) {
        assert_int_equal(gs_bench_run(dev, &pd, &d, &e), GS_UNSUPPORTED);
        assert_non_null(strstr(e.msg, why));
        gs_bench_free(&d);
        print_message("no double build on %s: %s\n", dev->name, why);
        skip();
    }
    if (gs_bench_run(dev, &pd, &d, &e) != GS_OK)
        fail_msg("gs_bench_run (double): %s", e.msg);
    const struct gs_bench *f = full_run(); /* the float run, same n */
    assert_int_equal(d.type, GS_TYPE_DOUBLE);
    assert_int_equal(d.nrows, f->nrows);
    for (int i = 0; i < d.nrows; ++i) {
        const struct gs_bench_row *r = &d.rows[i];
        if (!r->verified)
            fail_msg("%s: %s", r->label, r->wrong);
        assert_int_equal(r->launch.type, GS_TYPE_DOUBLE);
        assert_true(r->gbps > 0);
        assert_int_equal(r->bytes, 2 * f->rows[i].bytes);
        assert_int_equal(r->inflight, 2 * f->rows[i].inflight);
        assert_true(r->trips == f->rows[i].trips);
        assert_true(r->launch.grid == f->rows[i].launch.grid);
    }
    assert_non_null(strstr(d.rows[8].label, "double4 (32 bytes)"));
    assert_int_equal(d.wrong_rows, 0);
    gs_bench_free(&d);
}

int main(int argc, char **argv)
{
    struct gs_opened opened;
    struct gs_err e = {0};
    char why[300];
    if (argc != 2 || !gs_registry_find(argv[1])) {
        fprintf(stderr, "usage: test_bench BACKEND (a compiled-in backend)\n");
        return 2;
    }
    if (gs_require_check(&e) != GS_OK) { /* a bad requirement fails, never skips */
        fprintf(stderr, "FAIL: %s\n", e.msg);
        return 1;
    }
    gs_open_backend(gs_registry_find(argv[1]), &opened);
    if (opened.status != GS_OK) {
        const int required = gs_backend_required(argv[1]);
        fprintf(stderr, "%s: %s\n", required ? "FAIL" : "SKIP", opened.err.msg);
        return required ? 1 : SKIP_CODE;
    }
    if (gs_resource_test_device(&opened, &dev, why, sizeof why, &e) != GS_OK) {
        fprintf(stderr, "FAIL: %s\n", e.msg);
        gs_close_backend(&opened);
        return 1;
    }
    gs_test_log_device("bench", dev, why);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_row_verifies_and_is_timed),
        cmocka_unit_test(groups_run_their_rows_only),
        cmocka_unit_test(waves_are_sized_to_the_data),
        cmocka_unit_test(every_row_verifies_in_double),
    };
    const int failed = cmocka_run_group_tests_name(argv[1], tests, run_full, free_full);
    gs_test_log_end("bench", dev);
    gs_close_backend(&opened);
    return failed;
}
