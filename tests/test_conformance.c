/* SPDX-License-Identifier: MIT */
/* One conformance body, run over every compiled-in backend (ctest runs it
 * once per backend: test_conformance <backend>). A backend without a usable
 * device exits with 77, which ctest reports as skipped, unless
 * GRIDSTRIDE_REQUIRE names it: then the absence is a failure. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gs_defaults.h"
#include "gs_device.h"
#include "gs_registry.h"
#include "gs_resource.h"
#include "gs_select.h"
#include "gs_test_log.h"
#include "gs_table.h"
#include "gs_model.h"
#include "gs_workspace.h"


static struct gs_opened opened;
static struct gs_device *dev;

static struct gs_table_plan default_plan(uint64_t *sizes, struct gs_shape *shapes, uint64_t grid)
{
    struct gs_table_plan p = {0};
    uint64_t G = grid;
    char rule[200];
    struct gs_err e = {0};
    p.block = GS_DEFAULT_BLOCK;
    p.grid = grid;
    p.columns = (1u << GS_COLUMNS) - 1;
    if (!G)
        assert_int_equal(gs_dev_grid(dev, GS_K_ADD_GS, p.block, &G, rule, sizeof rule, &e), GS_OK);
    p.nsizes = gs_default_sizes(G * p.block, sizes);
    p.sizes = sizes;
    p.nshapes = gs_default_shapes(0, p.block, shapes);
    p.shapes = shapes;
    return p;
}

static struct gs_table *run_plan(const struct gs_table_plan *p)
{
    struct gs_table *t = NULL;
    struct gs_err e = {0};
    const int rc = gs_table_run(dev, p, &t, &e);
    if (rc != GS_OK)
        fail_msg("gs_table_run: %s", e.msg);
    for (int i = 0; i < t->ncases; ++i) {
        const struct gs_case *c = &t->cases[i];
        /* A deviation passes (README: the implementation, not the kernels),
         * and is shown. */
        if (!c->held || c->deviation)
            print_error("%s case %d (%s n=%llu global=%llu, %s): %s (model: %s)\n",
                        c->held ? "DEVIATION" : "FAILED", i,
                        gs_column_letter(c->column), (unsigned long long)c->launch.n,
                        (unsigned long long)c->launch.global, dev->api_version, c->mismatch,
                        c->pred.why);
    }
    return t;
}

static void default_table_holds_every_prediction(void **state)
{
    (void)state;
    uint64_t sizes[GS_MAX_SIZES];
    struct gs_shape shapes[GS_MAX_SHAPES];
    struct gs_table_plan p = default_plan(sizes, shapes, 0);
    struct gs_table *t = run_plan(&p);
    assert_int_equal(t->failed, 0);
    /* The lecture's facts, observed, not only predicted, on the threads that
     * ran: T itself, unless the runtime granted fewer than were asked. */
    const uint64_t ran = t->granted_grid * t->granted_block;
    for (int i = 0; i < t->ncases; ++i) {
        const struct gs_case *c = &t->cases[i];
        const enum gs_outcome seen = gs_observed(&c->got, &c->verdict);
        if (c->column == GS_COL_C && c->got.accepted && c->launch.global > 0)
            assert_int_equal(seen, GS_OUT_OK);
        if (c->section == GS_SEC_SIZES && c->column == GS_COL_B && c->launch.n > ran) {
            assert_int_equal(seen, GS_OUT_WRONG);
            assert_int_equal(c->verdict.first_wrong, ran);
            assert_true(c->verdict.diag == GS_DIAG_SHORT_GRID);
        }
    }
    gs_table_free(t);
}

static void t4_grid_reproduces_seed_002_column_b(void **state)
{
    (void)state;
    uint64_t sizes[GS_MAX_SIZES];
    struct gs_shape shapes[GS_MAX_SHAPES];
    struct gs_table_plan p = default_plan(sizes, shapes, 160);
    struct gs_table *t = run_plan(&p);
    assert_int_equal(t->failed, 0);
    assert_int_equal(t->threads, 40960);
    /* 40960 where the API runs the grid it is asked for; else what ran. */
    const uint64_t ran = t->granted_grid * t->granted_block;
    for (int r = 0; r < p.nsizes; ++r) {
        const struct gs_case *b = gs_table_find(t, GS_SEC_SIZES, GS_COL_B, r);
        const struct gs_case *c = gs_table_find(t, GS_SEC_SIZES, GS_COL_C, r);
        assert_non_null(b);
        assert_int_equal(gs_observed(&c->got, &c->verdict), GS_OUT_OK);
        if (sizes[r] <= ran) {
            assert_int_equal(gs_observed(&b->got, &b->verdict), GS_OUT_OK);
        } else {
            assert_int_equal(gs_observed(&b->got, &b->verdict), GS_OUT_WRONG);
            assert_int_equal(b->verdict.first_wrong, ran);
        }
    }
    gs_table_free(t);
}

/* The zero-block launch of column A at n = 0: whatever the API does, it
 * must be what the backend predicted from the device, and a refusal must
 * carry the API's own error name. */
static void zero_block_launch_matches_the_api_rule(void **state)
{
    (void)state;
    uint64_t sizes[] = {0};
    struct gs_table_plan p = {GS_DEFAULT_BLOCK, 0, sizes, 1, NULL, 0, 1u << GS_COL_A, NULL};
    struct gs_table *t = run_plan(&p);
    const struct gs_case *a = gs_table_find(t, GS_SEC_SIZES, GS_COL_A, 0);
    assert_int_equal(a->launch.grid, 0);
    assert_true(a->held);
    if (!a->got.accepted)
        assert_true(a->got.api_error[0] != '\0');
    gs_table_free(t);
}

static void workspace_open_as(struct gs_workspace *w, uint64_t n, enum gs_type type)
{
    struct gs_err e = {0};
    if (gs_workspace_open_as(w, dev, n, type, NULL, &e) != GS_OK)
        fail_msg("gs_workspace_open_as(%s): %s", gs_type_name(type), e.msg);
}

static void workspace_open(struct gs_workspace *w, uint64_t n)
{
    workspace_open_as(w, n, GS_TYPE_FLOAT);
}

/* A launch of grid x block as it will run: where the API's runtime lowers
 * the shape it is asked for, grid, block and global are its grant. */
static struct gs_launch launch_on(const struct gs_workspace *w, enum gs_kernel_id k,
                                  uint64_t grid, uint64_t block)
{
    struct gs_launch l = {0};
    struct gs_err e = {0};
    l.kernel = k;
    l.n = w->n;
    l.grid = grid;
    l.block = block;
    l.global = grid * block;
    l.type = w->type;
    gs_workspace_bind(w, &l);
    if (gs_dev_grant(dev, &l, &e) != GS_OK)
        fail_msg("gs_dev_grant: %s", e.msg);
    return l;
}

static void refused_launch_does_not_poison_the_next(void **state)
{
    (void)state;
    struct gs_workspace x;
    struct gs_launch_result r;
    struct gs_verdict v;
    struct gs_err e = {0};
    workspace_open(&x, 611);
    /* A block of 2^20 threads is beyond every GPU API's block limit;
     * OpenMP's thread_limit is only an upper bound, so there it is a grid
     * of zero teams, which OpenMP cannot be asked for. */
    char why[160];
    struct gs_launch bad = launch_on(&x, GS_K_ADD_GS, 1, 1u << 20);
    if (gs_dev_predicts_accept(dev, &bad, why, sizeof why) == GS_ACCEPTS)
        bad = launch_on(&x, GS_K_ADD_GS, 0, 256);
    assert_int_equal(gs_dev_predicts_accept(dev, &bad, why, sizeof why), GS_REFUSES);
    assert_int_equal(gs_checked_launch(&x, &bad, &r, &v, &e), GS_OK);
    assert_false(r.accepted);
    assert_true(r.api_error[0] != '\0');
    assert_int_equal(v.unwritten, x.n);
    struct gs_launch good = launch_on(&x, GS_K_ADD_GS, 3, 256);
    assert_int_equal(gs_checked_launch(&x, &good, &r, &v, &e), GS_OK);
    assert_true(r.accepted);
    assert_int_equal(v.diag, 0);
    gs_workspace_close(&x);
}

/* Every kernel the suite ships, benchmark variants included, is correct
 * under a small odd launch on an odd size: no partial tile, vector or chunk
 * is lost, and nothing is written past the end. */
static void catalogue_is_correct_on_a_small_grid(enum gs_type type)
{
    struct gs_workspace x;
    struct gs_err e = {0};
    workspace_open_as(&x, 32 * 32 * 3 + 7, type);
    for (int k = 0; k < GS_KERNEL_COUNT; ++k) {
        const struct gs_kernel_info *info = gs_kernel_info((enum gs_kernel_id)k);
        if (info->rule != GS_RULE_ANY)
            continue;
        struct gs_launch l = launch_on(&x, info->id, 3, 64);
        l.param = info->param == GS_PARAM_CHUNK ? (x.n + l.global - 1) / l.global
                  : info->param == GS_PARAM_STRIDE ? 32 : 0;
        struct gs_launch_result r;
        struct gs_verdict v;
        assert_int_equal(gs_checked_launch(&x, &l, &r, &v, &e), GS_OK);
        if (!r.accepted || v.diag != 0)
            fail_msg("%s (%s): accepted=%d, %llu wrong from %llu, guard %llu", info->name,
                     gs_type_name(type), r.accepted, (unsigned long long)v.wrong,
                     (unsigned long long)v.first_wrong, (unsigned long long)v.guard_hits);
    }
    gs_workspace_close(&x);
}

static void every_catalogue_kernel_is_correct_on_a_small_grid(void **state)
{
    (void)state;
    catalogue_is_correct_on_a_small_grid(GS_TYPE_FLOAT);
}

/* The double build (`gridstride bandwidth --type double`) on a device that
 * has it; on one without, the core refuses it with the reason. */
static int has_f64(void)
{
    char why[200];
    if (gs_dev_has_f64(dev, why, sizeof why))
        return 1;
    print_message("no double build on %s: %s\n", dev->name, why);
    return 0;
}

static void every_catalogue_kernel_is_correct_in_double(void **state)
{
    (void)state;
    if (!has_f64()) {
        struct gs_workspace x;
        struct gs_err e = {0};
        assert_int_equal(gs_workspace_open_as(&x, dev, 1000, GS_TYPE_DOUBLE, NULL, &e),
                         GS_UNSUPPORTED);
        assert_non_null(strstr(e.msg, "cannot run double"));
        skip();
    }
    catalogue_is_correct_on_a_small_grid(GS_TYPE_DOUBLE);
}

/* The double inputs of a workspace larger than one 64 MiB staging area
 * (8 Mi doubles) are uploaded in two chunks: read back across the seam and
 * at the end, they are the closed form's. No kernel runs, so the test costs
 * a simulated device (oclgrind) nothing. */
static void double_inputs_upload_in_chunks(void **state)
{
    (void)state;
    struct gs_workspace x;
    struct gs_err e = {0};
    const uint64_t n = (8ull << 20) + 4099, at[] = {(8ull << 20) - 500, n - 1000};
    static double got[1000], want[1000];
    if (!has_f64())
        skip();
    workspace_open_as(&x, n, GS_TYPE_DOUBLE);
    assert_true(x.stage_elems < n); /* so the upload took two chunks */
    for (int k = 0; k < 2; ++k)
        for (int buf = 0; buf < 2; ++buf) {
            assert_int_equal(gs_dev_read(dev, buf ? x.db : x.da, at[k] * 8, got, sizeof got, &e),
                             GS_OK);
            gs_fill_inputs_f64_at(buf ? NULL : want, buf ? want : NULL, at[k], 1000);
            assert_memory_equal(got, want, sizeof got);
        }
    gs_workspace_close(&x);
}

/* Doubles through the streamed path: chunks far smaller than n, so that
 * the poison's proof, the read-back and the comparison each cross many
 * chunk boundaries; a short grid's first wrong index, count and listed
 * owners are those of one pass, the API's copy moves 8 bytes an element,
 * and a float launch in a double workspace is refused. */
static void double_streams_and_copies_like_float(void **state)
{
    (void)state;
    struct gs_workspace x;
    struct gs_err e = {0};
    struct gs_launch_result r;
    struct gs_verdict v;
    const uint64_t n = 100003;
    if (!has_f64())
        skip();
    workspace_open_as(&x, n, GS_TYPE_DOUBLE);
    assert_int_equal(x.elem, 8);
    x.stage_elems = 997; /* the areas hold more; using less is legal */
    struct gs_launch mono = launch_on(&x, GS_K_ADD_MONO, 40, 128);
    const uint64_t T = mono.global;
    assert_int_equal(gs_checked_launch(&x, &mono, &r, &v, &e), GS_OK);
    assert_true(r.accepted);
    assert_int_equal(v.diag, GS_DIAG_SHORT_GRID);
    assert_int_equal(v.first_wrong, T);
    assert_int_equal(v.wrong, n - T);
    for (int k = 0; k < GS_LISTED; ++k) {
        assert_int_equal(v.list[k].index, T + (uint64_t)k);
        assert_true(v.list[k].unwritten);
        assert_true(v.list[k].got_bits == GS_POISON_BITS64);
    }
    struct gs_launch f4 = launch_on(&x, GS_K_ADD_GS_F4, 40, 128);
    assert_int_equal(gs_checked_launch(&x, &f4, &r, &v, &e), GS_OK);
    assert_int_equal(v.diag, 0);
    if (dev->caps & GS_CAP_COPY) {
        double ms = 0;
        struct gs_launch copy = f4;
        copy.kernel = GS_K_COPY_GS;
        assert_int_equal(gs_workspace_poison(&x, x.n, &e), GS_OK);
        assert_int_equal(gs_dev_copy(dev, x.dout, x.da, x.n * x.elem, &ms, &e), GS_OK);
        assert_int_equal(gs_workspace_verify(&x, &copy, &v, &e), GS_OK);
        assert_int_equal(v.diag, 0);
    }
    struct gs_launch as_float = f4;
    as_float.type = GS_TYPE_FLOAT;
    assert_int_equal(gs_checked_launch(&x, &as_float, &r, &v, &e), GS_USAGE);
    assert_non_null(strstr(e.msg, "a float launch in a workspace of double elements"));
    gs_workspace_close(&x);
}

static void timed_launch_and_copy_report_device_time(void **state)
{
    (void)state;
    struct gs_workspace x;
    struct gs_err e = {0};
    struct gs_launch_result r;
    if (!(dev->caps & GS_CAP_TIMING)) {
        skip();
    }
    workspace_open(&x, 1 << 20);
    struct gs_launch l = launch_on(&x, GS_K_ADD_GS, 64, 256);
    assert_int_equal(gs_dev_launch(dev, &l, 1, &r, &e), GS_OK);
    assert_true(r.accepted);
    assert_true(r.ms > 0.0);
    if (dev->caps & GS_CAP_COPY) {
        double ms = 0;
        struct gs_verdict v;
        struct gs_launch copy = l;
        copy.kernel = GS_K_COPY_GS;
        assert_int_equal(gs_workspace_poison(&x, x.n, &e), GS_OK);
        assert_int_equal(gs_dev_copy(dev, x.dout, x.da, x.n * sizeof(float), &ms, &e), GS_OK);
        assert_true(ms > 0.0);
        assert_int_equal(gs_workspace_verify(&x, &copy, &v, &e), GS_OK);
        assert_int_equal(v.diag, 0);
    }
    gs_workspace_close(&x);
}

/* Reads and writes at an offset move exactly the bytes asked for, and the
 * API's fill writes exactly its range. */
static void offset_transfers_and_fill_touch_only_their_range(void **state)
{
    (void)state;
    struct gs_workspace x;
    struct gs_err e = {0};
    float in[300], back[1000];
    workspace_open(&x, 1000);
    for (int i = 0; i < 300; ++i)
        in[i] = (float)(i + 7);
    assert_int_equal(gs_workspace_poison(&x, 1000, &e), GS_OK);
    assert_int_equal(gs_dev_write(dev, x.dout, 400 * sizeof(float), in, sizeof in, &e), GS_OK);
    assert_int_equal(gs_dev_read(dev, x.dout, 0, back, sizeof back, &e), GS_OK);
    for (int i = 0; i < 1000; ++i) {
        uint32_t bits;
        memcpy(&bits, &back[i], sizeof bits);
        if (i >= 400 && i < 700)
            assert_true(back[i] == in[i - 400]);
        else
            assert_int_equal(bits, GS_POISON_BITS);
    }
    /* A read or write past the buffer is refused, not performed. */
    assert_int_not_equal(gs_dev_read(dev, x.dout, gs_buffer_bytes(1000) - 4, back, 8, &e), GS_OK);
    const int rc = gs_dev_fill32(dev, x.dout, 100 * sizeof(float), 50 * sizeof(float),
                                 0x12345678u, &e);
    if (rc != GS_UNSUPPORTED) {
        assert_int_equal(rc, GS_OK);
        assert_int_equal(gs_dev_read(dev, x.dout, 0, back, sizeof back, &e), GS_OK);
        for (int i = 90; i < 160; ++i) {
            uint32_t bits;
            memcpy(&bits, &back[i], sizeof bits);
            assert_int_equal(bits, i >= 100 && i < 150 ? 0x12345678u : GS_POISON_BITS);
        }
    }
    gs_workspace_close(&x);
}

/* The read-back and comparison work chunk by chunk on several threads: with
 * chunks far smaller than n, a short grid's first wrong index, its count and
 * the ten listed owners are exactly those of one pass over the array. */
static void chunked_verification_equals_one_pass(void **state)
{
    (void)state;
    struct gs_workspace x;
    struct gs_err e = {0};
    struct gs_launch_result r;
    struct gs_verdict v;
    workspace_open(&x, 100003);
    x.stage_elems = 997; /* the areas hold more; using less is legal */
    struct gs_launch mono = launch_on(&x, GS_K_ADD_MONO, 40, 128); /* T = 5120, or its grant */
    const uint64_t T = mono.global;
    assert_int_equal(gs_checked_launch(&x, &mono, &r, &v, &e), GS_OK);
    assert_true(r.accepted);
    assert_int_equal(v.diag, GS_DIAG_SHORT_GRID);
    assert_int_equal(v.first_wrong, T);
    assert_int_equal(v.wrong, 100003 - T);
    assert_int_equal(v.listed, GS_LISTED);
    for (int k = 0; k < GS_LISTED; ++k) {
        assert_int_equal(v.list[k].index, T + (uint64_t)k);
        assert_true(v.list[k].unwritten);
        assert_false(v.list[k].owner.launched);
    }
    struct gs_launch gs = launch_on(&x, GS_K_ADD_GS, 40, 128);
    assert_int_equal(gs_checked_launch(&x, &gs, &r, &v, &e), GS_OK);
    assert_int_equal(v.diag, 0);
    gs_workspace_close(&x);
}

static uint64_t model_count(const void *ctx, uint64_t i, uint64_t end, uint64_t *count)
{
    return gs_model_count_run(ctx, 64, i, end, count);
}

/* The count build of every kernel of the catalogue, the traps included, on
 * a small odd launch: each element written exactly as often as the model
 * says, nothing past the end. */
static void count_build_matches_the_model_for_every_kernel(void **state)
{
    (void)state;
    struct gs_workspace x;
    struct gs_err e = {0};
    if (!(dev->caps & GS_CAP_COUNT))
        skip();
    workspace_open(&x, 32 * 32 * 3 + 7);
    for (int k = 0; k < GS_KERNEL_COUNT; ++k) {
        const struct gs_kernel_info *info = gs_kernel_info((enum gs_kernel_id)k);
        if (info->rule == GS_RULE_INT_LOOP_SIGNED)
            continue; /* never launched: n + T < 2^31 here, but the rule is the rule */
        struct gs_launch l = launch_on(&x, info->id, 3, 64);
        l.param = info->param == GS_PARAM_CHUNK ? (x.n + l.global - 1) / l.global
                  : info->param == GS_PARAM_STRIDE ? 32
                  : info->param == GS_PARAM_TILE ? 1000
                  : info->param == GS_PARAM_WIDTH ? 100 : 0;
        if (info->rule == GS_RULE_ROWS) {
            if (!(dev->caps & GS_CAP_2D))
                continue;
            l.grid = 1;
            l.global = l.block;
            l.grid_y = 40; /* 40 rows of 100: 4000 of the 3079 elements */
        }
        struct gs_launch_result r;
        struct gs_count_verdict v;
        assert_int_equal(gs_checked_count(&x, &l, model_count, &l, &r, &v, &e), GS_OK);
        if (!r.accepted || v.mismatched || v.guard_hits)
            fail_msg("%s: accepted=%d, %llu counts differ, the first at %llu (%llu, predicted "
                     "%llu); %llu guard words written",
                     info->name, r.accepted, (unsigned long long)v.mismatched,
                     (unsigned long long)v.first_mismatch,
                     (unsigned long long)(v.listed ? v.list[0].got : 0),
                     (unsigned long long)(v.listed ? v.list[0].want : 0),
                     (unsigned long long)v.guard_hits);
    }
    gs_workspace_close(&x);
}

/* On a GPU the grid probe launches 2^32 + 256 threads and the prelude's T
 * must come back right there (NVIDIA's get_global_size(0) does not). */
static void grid_probe_proves_the_preludes_T(void **state)
{
    (void)state;
    const struct gs_grid_probe *p;
    struct gs_err e = {0};
    assert_int_equal(gs_dev_probe_grid(dev, &p, &e), GS_OK);
    if (p->status != GS_OK) {
        print_message("grid probe not run: %s\n", p->why);
        skip();
    }
    print_message("grid probe: %llu work-items, get_global_size(0) = %llu, global id of %llu = "
                  "%llu, groups x local = %llu, prelude T = %llu\n",
                  (unsigned long long)p->global, (unsigned long long)p->global_size,
                  (unsigned long long)p->item, (unsigned long long)p->global_id,
                  (unsigned long long)p->groups_x_local, (unsigned long long)p->prelude_T);
    assert_true(p->global > (1ull << 32));
    assert_int_equal(p->global_id, p->item);
    assert_int_equal(p->groups_x_local, p->global);
    assert_int_equal(p->prelude_T, p->global);
}

int main(int argc, char **argv)
{
    const int early = gs_test_open("conformance", argc, argv, &opened, &dev);
    if (early >= 0)
        return early;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(default_table_holds_every_prediction),
        cmocka_unit_test(t4_grid_reproduces_seed_002_column_b),
        cmocka_unit_test(zero_block_launch_matches_the_api_rule),
        cmocka_unit_test(refused_launch_does_not_poison_the_next),
        cmocka_unit_test(every_catalogue_kernel_is_correct_on_a_small_grid),
        cmocka_unit_test(every_catalogue_kernel_is_correct_in_double),
        cmocka_unit_test(double_inputs_upload_in_chunks),
        cmocka_unit_test(double_streams_and_copies_like_float),
        cmocka_unit_test(timed_launch_and_copy_report_device_time),
        cmocka_unit_test(offset_transfers_and_fill_touch_only_their_range),
        cmocka_unit_test(chunked_verification_equals_one_pass),
        cmocka_unit_test(grid_probe_proves_the_preludes_T),
        cmocka_unit_test(count_build_matches_the_model_for_every_kernel),
    };
    const int failed = cmocka_run_group_tests_name(argv[1], tests, NULL, NULL);
    gs_test_log_end("conformance", dev);
    gs_close_backend(&opened);
    return failed;
}
