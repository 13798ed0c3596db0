/* The prediction model, and that a disagreement in either direction fails. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "test_util.h"

#include "gs_model.h"
#include "gs_select.h"

extern const struct gs_backend gs_backend_host;

static struct gs_opened host;

static int setup(void **state)
{
    (void)state;
    gs_open_backend(&gs_backend_host, &host);
    return host.status == GS_OK ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    gs_close_backend(&host);
    return 0;
}

static void monolithic_is_right_exactly_while_the_grid_covers_n(void **state)
{
    (void)state;
    struct gs_prediction p;
    struct gs_launch l = launch_of(GS_K_ADD_MONO, 40960, 160, 256);
    gs_predict(host.devs[0], &l, &p);
    assert_int_equal(p.outcome, GS_OUT_OK);
    l.n = 40961;
    gs_predict(host.devs[0], &l, &p);
    assert_int_equal(p.outcome, GS_OUT_WRONG);
    assert_int_equal(p.first_wrong, 40960);
    assert_int_equal(p.wrong, 1);
    l.n = 4194304;
    gs_predict(host.devs[0], &l, &p);
    assert_int_equal(p.first_wrong, 40960);
    assert_int_equal(p.wrong, 4194304 - 40960);
}

static void grid_stride_is_right_under_any_launch(void **state)
{
    (void)state;
    const uint64_t shapes[][2] = {{1, 1}, {1, 256}, {160, 256}, {10000, 32}};
    for (int i = 0; i < 4; ++i) {
        struct gs_prediction p;
        struct gs_launch l = launch_of(GS_K_ADD_GS, 4194304, shapes[i][0], shapes[i][1]);
        gs_predict(host.devs[0], &l, &p);
        assert_int_equal(p.outcome, GS_OUT_OK);
    }
}

static void chunked_is_right_when_chunks_cover_n(void **state)
{
    (void)state;
    struct gs_prediction p;
    struct gs_launch l = launch_of(GS_K_ADD_CHUNKED, 1000, 1, 256);
    l.param = 4;
    gs_predict(host.devs[0], &l, &p);
    assert_int_equal(p.outcome, GS_OUT_OK);
    l.param = 3; /* 768 elements covered */
    gs_predict(host.devs[0], &l, &p);
    assert_int_equal(p.outcome, GS_OUT_WRONG);
    assert_int_equal(p.first_wrong, 768);
}

static void zero_block_grid_is_refused_by_the_backend_rule(void **state)
{
    (void)state;
    struct gs_prediction p;
    struct gs_launch l = launch_of(GS_K_ADD_MONO, 0, 0, 256);
    gs_predict(host.devs[0], &l, &p);
    assert_int_equal(p.outcome, GS_OUT_REFUSED);
    assert_non_null(strstr(p.why, "zero blocks"));
}

static void disagreement_fails_in_both_directions(void **state)
{
    (void)state;
    struct gs_prediction p = {0};
    struct gs_launch_result r = {0};
    struct gs_verdict v = {0};
    char why[240];
    r.accepted = 1;

    /* predicted wrong at T, observed ok: the model is wrong, the run fails */
    p.outcome = GS_OUT_WRONG;
    p.first_wrong = 40960;
    p.wrong = 1;
    assert_false(gs_prediction_holds(&p, &r, &v, why, sizeof why));
    assert_non_null(strstr(why, "predicted wrong, observed ok"));

    /* predicted ok, observed wrong */
    p.outcome = GS_OUT_OK;
    v.diag = GS_DIAG_HOLES;
    v.wrong = v.unwritten = 1;
    assert_false(gs_prediction_holds(&p, &r, &v, why, sizeof why));

    /* predicted wrong at 40960, observed wrong elsewhere */
    p.outcome = GS_OUT_WRONG;
    v.diag = GS_DIAG_SHORT_GRID;
    v.first_wrong = 40000;
    assert_false(gs_prediction_holds(&p, &r, &v, why, sizeof why));
    v.first_wrong = 40960;
    assert_true(gs_prediction_holds(&p, &r, &v, why, sizeof why));

    /* predicted refused, the API accepted, and the result is not what the
     * launch computes as run (holes from 5 predicted, none observed) */
    p.outcome = GS_OUT_REFUSED;
    p.as_run.outcome = GS_OUT_WRONG;
    p.as_run.first_wrong = 5;
    p.as_run.wrong = 5;
    v = (struct gs_verdict){0};
    v.n = 10;
    assert_false(gs_prediction_holds(&p, &r, &v, why, sizeof why));
    assert_non_null(strstr(why, "predicted refused, observed ok"));

    /* predicted accepted, the API refused */
    p.outcome = GS_OUT_OK;
    r.accepted = 0;
    assert_false(gs_prediction_holds(&p, &r, &v, why, sizeof why));
}

/* The API ran a launch that the version it claims refuses (the host follows
 * CUDA: no zero-block grid, no block above 1024), and the buffers hold
 * exactly what that launch computes: a deviation, not a failure. Anything
 * else about the result still fails. */
static void running_what_the_claimed_version_refuses_is_a_deviation(void **state)
{
    (void)state;
    struct gs_prediction p;
    struct gs_launch_result r = {0};
    struct gs_verdict v = {0};
    char why[240];
    r.accepted = 1;

    struct gs_launch empty = launch_of(GS_K_ADD_MONO, 0, 0, 256);
    gs_predict(host.devs[0], &empty, &p);
    assert_int_equal(p.outcome, GS_OUT_REFUSED);
    assert_int_equal(gs_prediction_holds(&p, &r, &v, why, sizeof why), GS_HELD_DEVIATION);
    assert_non_null(strstr(why, "deviation of the implementation"));
    v.guard_hits = 1; /* it ran, and wrote past the end */
    assert_int_equal(gs_prediction_holds(&p, &r, &v, why, sizeof why), GS_HELD_NO);

    struct gs_launch big = launch_of(GS_K_ADD_MONO, 4096, 1, 2048);
    gs_predict(host.devs[0], &big, &p);
    assert_int_equal(p.outcome, GS_OUT_REFUSED);
    assert_int_equal(p.as_run.outcome, GS_OUT_WRONG);
    assert_int_equal(p.as_run.first_wrong, 2048);
    v = (struct gs_verdict){0};
    v.n = 4096;
    v.diag = GS_DIAG_SHORT_GRID;
    v.first_wrong = 2048;
    v.wrong = v.unwritten = 2048;
    assert_int_equal(gs_prediction_holds(&p, &r, &v, why, sizeof why), GS_HELD_DEVIATION);
    v.first_wrong = 2000; /* not the elements this launch leaves unwritten */
    v.wrong = v.unwritten = 2096;
    assert_int_equal(gs_prediction_holds(&p, &r, &v, why, sizeof why), GS_HELD_NO);

    /* The other direction is no deviation: a launch the claimed version
     * must run, refused, leaves the work undone. */
    struct gs_launch fine = launch_of(GS_K_ADD_GS, 611, 3, 256);
    gs_predict(host.devs[0], &fine, &p);
    r.accepted = 0;
    v = (struct gs_verdict){0};
    v.n = v.unwritten = v.wrong = 611;
    assert_int_equal(gs_prediction_holds(&p, &r, &v, why, sizeof why), GS_HELD_NO);
}

static void refused_launch_must_leave_output_untouched(void **state)
{
    (void)state;
    struct gs_prediction p = {0};
    struct gs_launch_result r = {0};
    struct gs_verdict v = {0};
    char why[240];
    p.outcome = GS_OUT_REFUSED;
    v.n = 10;
    v.unwritten = 10;
    assert_true(gs_prediction_holds(&p, &r, &v, why, sizeof why));
    v.unwritten = 9;
    assert_false(gs_prediction_holds(&p, &r, &v, why, sizeof why));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(monolithic_is_right_exactly_while_the_grid_covers_n),
        cmocka_unit_test(grid_stride_is_right_under_any_launch),
        cmocka_unit_test(chunked_is_right_when_chunks_cover_n),
        cmocka_unit_test(zero_block_grid_is_refused_by_the_backend_rule),
        cmocka_unit_test(disagreement_fails_in_both_directions),
        cmocka_unit_test(running_what_the_claimed_version_refuses_is_a_deviation),
        cmocka_unit_test(refused_launch_must_leave_output_untouched),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
