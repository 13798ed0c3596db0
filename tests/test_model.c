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

    /* predicted refused, the API accepted */
    p.outcome = GS_OUT_REFUSED;
    v = (struct gs_verdict){0};
    assert_false(gs_prediction_holds(&p, &r, &v, why, sizeof why));
    assert_non_null(strstr(why, "predicted refused, observed ok"));

    /* predicted accepted, the API refused */
    p.outcome = GS_OUT_OK;
    r.accepted = 0;
    assert_false(gs_prediction_holds(&p, &r, &v, why, sizeof why));
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
        cmocka_unit_test(refused_launch_must_leave_output_untouched),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
