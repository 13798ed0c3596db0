/* SPDX-License-Identifier: MIT */
/* `gridstride bandwidth --sweep`.
 *
 *   test_sweep crossover   the crossover rule on made-up medians, and the
 *                          report's sentences and JSON built from it; no
 *                          device.
 *   test_sweep BACKEND     on that backend's device: a launch over the first
 *                          n elements of a larger workspace is verified
 *                          against fresh poison and a guard right after n;
 *                          a short sweep verifies and times every point.
 *                          Exit 77 (skipped) without a device, unless
 *                          GRIDSTRIDE_REQUIRE names the backend. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include <cmocka.h>

#include "gs_device.h"
#include "gs_parse.h"
#include "gs_sweep.h"
#include "gs_sweep_report.h"
#include "gs_test_log.h"
#include "test_util.h"
#include "gs_workspace.h"

#define TOL GS_SWEEP_TOLERANCE

/* ---- the rule, on made-up medians ---------------------------------------- */

static void crossover_is_where_the_tail_keeps_up(void **state)
{
    (void)state;
    /* slower by far at 0..2; within 2% at 3 and 4; faster at 5 */
    const double base[] = {2, 2, 2, 4, 8, 16}, cand[] = {5, 4, 3, 4.05, 8.1, 15};
    const struct gs_crossover x = gs_sweep_crossover(base, cand, 6, TOL);
    assert_int_equal(x.kind, GS_XO_FOUND);
    assert_int_equal(x.index, 3);
}

static void a_dip_before_a_slower_size_is_not_the_crossover(void **state)
{
    (void)state;
    /* faster at 0 and 1, 50% slower at 2, then equal: the crossover is 3,
     * not the first size that was fast */
    const double base[] = {2, 2, 2, 2, 2}, cand[] = {1, 1, 3, 2, 2};
    const struct gs_crossover x = gs_sweep_crossover(base, cand, 5, TOL);
    assert_int_equal(x.kind, GS_XO_FOUND);
    assert_int_equal(x.index, 3);
}

static void the_tolerance_is_two_percent(void **state)
{
    (void)state;
    const double base[] = {100, 100};
    const double inside[] = {110, 101.9}, outside[] = {110, 102.1};
    const struct gs_crossover in = gs_sweep_crossover(base, inside, 2, TOL);
    const struct gs_crossover out = gs_sweep_crossover(base, outside, 2, TOL);
    assert_int_equal(in.kind, GS_XO_FOUND);
    assert_int_equal(in.index, 1);
    assert_int_equal(out.kind, GS_XO_NONE);
    assert_int_equal(out.index, -1);
}

static void as_fast_everywhere_is_index_zero(void **state)
{
    (void)state;
    const double base[] = {3, 4, 5}, cand[] = {3.05, 2, 5};
    const struct gs_crossover x = gs_sweep_crossover(base, cand, 3, TOL);
    assert_int_equal(x.kind, GS_XO_FOUND);
    assert_int_equal(x.index, 0);
}

static void slower_at_the_largest_n_is_no_crossover(void **state)
{
    (void)state;
    const double base[] = {2, 2, 2, 2}, cand[] = {1, 1, 1, 2.5};
    const struct gs_crossover x = gs_sweep_crossover(base, cand, 4, TOL);
    assert_int_equal(x.kind, GS_XO_NONE);
    assert_int_equal(x.index, -1);
}

static void a_missing_median_leaves_it_uncomputed(void **state)
{
    (void)state;
    const double base[] = {2, 2, 2}, nan_cand[] = {2, NAN, 2}, neg_base[] = {2, -1, 2};
    const double cand[] = {2, 2, 2};
    assert_int_equal(gs_sweep_crossover(base, nan_cand, 3, TOL).kind, GS_XO_INCOMPLETE);
    assert_int_equal(gs_sweep_crossover(neg_base, cand, 3, TOL).kind, GS_XO_INCOMPLETE);
    assert_int_equal(gs_sweep_crossover(base, cand, 0, TOL).kind, GS_XO_INCOMPLETE);
    assert_int_equal(gs_sweep_crossover(base, nan_cand, 3, TOL).index, -1);
}

/* ---- the report, from made-up points -------------------------------------- */

static const struct gs_backend fake_backend = {.name = "fake"};

/* Six sizes, 2^10 .. 2^15: the loop on G costs 3 to 3.5 us more up to 2^12 and is
 * as fast from 2^13; the fitted grid is as fast everywhere but at 2^15. */
static void made_up_sweep(struct gs_device *d, struct gs_sweep *s)
{
    static const double mono[] = {2, 2, 2.5, 4, 7, 13}, on_g[] = {5, 5, 6, 4.05, 6.9, 13};
    static const double fit[] = {2, 2, 2.5, 4, 7, 14};
    static double samples[6][3][1];
    memset(d, 0, sizeof *d);
    memset(s, 0, sizeof *s);
    d->backend = &fake_backend;
    gs_strlcpy(d->name, "made-up device", sizeof d->name);
    s->dev = d;
    s->block = 256;
    s->grid = 1056;
    s->threads = 1056 * 256;
    s->reps = 1;
    s->nsizes = 6;
    for (int k = 0; k < 6; ++k) {
        const double *us[3] = {mono, on_g, fit};
        s->n[k] = 1ull << (10 + k);
        for (int v = 0; v < GS_SWEEP_VARIANTS; ++v) {
            struct gs_sweep_point *p = &s->pts[k][v];
            p->launch.kernel = v == GS_SV_MONO ? GS_K_ADD_MONO : GS_K_ADD_GS;
            p->verified = 1;
            p->med_us = p->min_us = p->max_us = p->mean_us = us[v][k];
            samples[k][v][0] = us[v][k];
            p->samples_us = samples[k][v];
        }
    }
    gs_sweep_crossovers(s);
}

static void report_states_the_crossover_from_the_data(void **state)
{
    (void)state;
    struct gs_device d;
    static struct gs_sweep s;
    made_up_sweep(&d, &s);
    assert_int_equal(s.xo[GS_SV_GS_G].kind, GS_XO_FOUND);
    assert_int_equal(s.xo[GS_SV_GS_G].index, 3);
    assert_int_equal(s.xo[GS_SV_GS_FIT].kind, GS_XO_NONE);
    const struct gs_sweep *runs[] = {&s};
    const struct gs_sweep_report_in in = {runs, 1, "0", "gridstride bandwidth --sweep", "", "", 0};
    struct gs_str text = {0}, js = {0};
    gs_sweep_report(&in, GS_FMT_TEXT, &text);
    gs_sweep_report(&in, GS_FMT_JSON, &js);
    assert_false(text.failed || js.failed);
    /* 6 - 2.5 = 3.5 us at 2^12 is the largest excess below 2^13 */
    assert_non_null(strstr(text.data, "below n = 2^13 grid-stride on G costs up to 3.5 us more"));
    assert_non_null(strstr(text.data, "(most at n = 2^12; at n = 2^10: 5.0 against 2.0 us)"));
    assert_non_null(strstr(text.data, "from n = 2^13 on it is within 2% of it or faster"));
    assert_non_null(strstr(text.data, "min(G, ceil(n/B)) is more than 2% slower than the "
                                      "monolithic kernel at the largest n of the sweep (14.0 "
                                      "against 13.0 us at n = 2^15)"));
    assert_non_null(strstr(js.data, "\"mode\": \"bandwidth-sweep\""));
    assert_non_null(strstr(js.data, "\"variant\": \"grid-stride-G\", \"kernel\": \"grid-stride\", "
                                    "\"grid_rule\": \"G\", \"crossover\": \"found\", "
                                    "\"crossover_n\": 8192"));
    assert_non_null(strstr(js.data, "\"crossover\": \"none\", \"crossover_n\": null"));
    gs_str_free(&text);
    gs_str_free(&js);
}

static void a_wrong_point_is_named_and_leaves_no_crossover(void **state)
{
    (void)state;
    struct gs_device d;
    static struct gs_sweep s;
    made_up_sweep(&d, &s);
    s.pts[4][GS_SV_GS_G].verified = 0;
    gs_strlcpy(s.pts[4][GS_SV_GS_G].wrong, "made-up wrong values", sizeof s.pts[4][0].wrong);
    gs_sweep_crossovers(&s);
    assert_int_equal(s.xo[GS_SV_GS_G].kind, GS_XO_INCOMPLETE);
    const struct gs_sweep *runs[] = {&s};
    const struct gs_sweep_report_in in = {runs, 1, "0", "gridstride bandwidth --sweep", "", "", 0};
    struct gs_str text = {0}, svg = {0};
    gs_sweep_report(&in, GS_FMT_TEXT, &text);
    gs_sweep_svg(&in, &svg);
    assert_non_null(strstr(text.data, "WRONG: fake grid-stride on G at n = 2^14: made-up wrong "
                                      "values (not timed)"));
    assert_non_null(strstr(text.data, "grid-stride on G: no crossover computed"));
    assert_non_null(strstr(svg.data, "<svg"));
    assert_non_null(strstr(svg.data, "</svg>"));
    gs_str_free(&text);
    gs_str_free(&svg);
}

/* ---- on a device ----------------------------------------------------------- */

static struct gs_device *dev;

/* launch_of (test_util.h) with w's buffers bound. */
static struct gs_launch bound_launch(const struct gs_workspace *w, enum gs_kernel_id k,
                                     uint64_t n, uint64_t grid, uint64_t block)
{
    struct gs_launch l = launch_of(k, n, grid, block);
    gs_workspace_bind(w, &l);
    return l;
}

/* The sweep's one workspace: after a right launch over all of it, a
 * launch over its first n elements must be judged on fresh poison over
 * [0, n) and a fresh guard at n, never on the results left behind. */
static void smaller_n_is_verified_on_fresh_poison(void **state)
{
    (void)state;
    struct gs_workspace w;
    struct gs_launch_result r;
    struct gs_verdict v;
    struct gs_err e = {0};
    const uint64_t big = 1u << 14, n = 1u << 12;
    if (gs_workspace_open(&w, dev, big, NULL, &e) != GS_OK)
        fail_msg("gs_workspace_open: %s", e.msg);
    struct gs_launch all = bound_launch(&w, GS_K_ADD_GS, big, 4, 256);
    assert_int_equal(gs_checked_launch(&w, &all, &r, &v, &e), GS_OK);
    assert_true(r.accepted);
    assert_int_equal(v.diag, 0);
    /* one block short: the last 256 of the n elements stay poison */
    struct gs_launch short_grid = bound_launch(&w, GS_K_ADD_MONO, n, n / 256 - 1, 256);
    assert_int_equal(gs_checked_launch(&w, &short_grid, &r, &v, &e), GS_OK);
    assert_true(r.accepted);
    assert_int_equal(v.unwritten, 256);
    assert_int_equal(v.first_wrong, n - 256);
    assert_int_equal(v.guard_hits, 0);
    /* right: the guard after n holds guard bits, not the earlier results */
    struct gs_launch right = bound_launch(&w, GS_K_ADD_MONO, n, n / 256, 256);
    assert_int_equal(gs_checked_launch(&w, &right, &r, &v, &e), GS_OK);
    assert_int_equal(v.diag, 0);
    assert_int_equal(v.guard_hits, 0);
    gs_workspace_close(&w);
}

static void every_point_is_verified_and_timed(void **state)
{
    (void)state;
    static struct gs_sweep s;
    struct gs_err e = {0};
    const struct gs_sweep_plan plan = {(1u << 14) + 5, 5, 1, 0, 0, NULL};
    if (gs_sweep_run(dev, &plan, &s, &e) != GS_OK)
        fail_msg("gs_sweep_run: %s", e.msg);
    assert_int_equal(s.nsizes, 5); /* 2^10 .. 2^14 */
    assert_string_equal(s.stopped, "");
    for (int k = 0; k < s.nsizes; ++k) {
        const uint64_t n = 1ull << (10 + k), fit = (n + s.block - 1) / s.block;
        assert_int_equal(s.n[k], n);
        assert_int_equal(s.pts[k][GS_SV_MONO].launch.grid, fit);
        assert_int_equal(s.pts[k][GS_SV_GS_G].launch.grid, s.grid);
        assert_int_equal(s.pts[k][GS_SV_GS_FIT].launch.grid, fit < s.grid ? fit : s.grid);
        for (int v = 0; v < GS_SWEEP_VARIANTS; ++v) {
            const struct gs_sweep_point *p = &s.pts[k][v];
            if (!p->verified)
                fail_msg("n = %llu, %s: %s", (unsigned long long)n,
                         gs_sweep_variant_label((enum gs_sweep_variant)v), p->wrong);
            assert_int_equal(p->launch.n, n);
            assert_true(p->min_us > 0 && p->min_us <= p->med_us && p->med_us <= p->max_us);
            assert_true(p->min_us <= p->mean_us && p->mean_us <= p->max_us && p->sd_us >= 0);
            for (unsigned i = 0; i < s.reps; ++i)
                assert_true(p->samples_us[i] >= p->min_us && p->samples_us[i] <= p->max_us);
        }
    }
    assert_int_equal(s.wrong_points, 0);
    assert_int_not_equal(s.xo[GS_SV_GS_G].kind, GS_XO_INCOMPLETE);
    assert_int_not_equal(s.xo[GS_SV_GS_FIT].kind, GS_XO_INCOMPLETE);
    gs_sweep_free(&s);
}

/* The host runs at most 2^20 blocks: with one thread per block the
 * monolithic kernel cannot run n = 2^21, so the sweep stops at 2^20 and
 * says why. Other backends' limits lie beyond every size of the sweep. */
static void sweep_stops_below_a_size_the_device_refuses(void **state)
{
    (void)state;
    static struct gs_sweep s;
    struct gs_err e = {0};
    if (strcmp(dev->backend->name, "host") != 0)
        skip();
    const struct gs_sweep_plan plan = {1u << 22, 5, 0, 1, 0, NULL};
    if (gs_sweep_run(dev, &plan, &s, &e) != GS_OK)
        fail_msg("gs_sweep_run: %s", e.msg);
    assert_int_equal(s.n[s.nsizes - 1], 1u << 20);
    assert_non_null(strstr(s.stopped, "n = 2^21 and above not run: monolithic"));
    assert_int_equal(s.wrong_points, 0);
    gs_sweep_free(&s);
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "crossover") == 0) {
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(crossover_is_where_the_tail_keeps_up),
            cmocka_unit_test(a_dip_before_a_slower_size_is_not_the_crossover),
            cmocka_unit_test(the_tolerance_is_two_percent),
            cmocka_unit_test(as_fast_everywhere_is_index_zero),
            cmocka_unit_test(slower_at_the_largest_n_is_no_crossover),
            cmocka_unit_test(a_missing_median_leaves_it_uncomputed),
            cmocka_unit_test(report_states_the_crossover_from_the_data),
            cmocka_unit_test(a_wrong_point_is_named_and_leaves_no_crossover),
        };
        return cmocka_run_group_tests_name("crossover", tests, NULL, NULL);
    }
    struct gs_opened opened;
    const int early = gs_test_open("sweep", argc, argv, &opened, &dev);
    if (early >= 0)
        return early;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(smaller_n_is_verified_on_fresh_poison),
        cmocka_unit_test(every_point_is_verified_and_timed),
        cmocka_unit_test(sweep_stops_below_a_size_the_device_refuses),
    };
    const int failed = cmocka_run_group_tests_name(argv[1], tests, NULL, NULL);
    gs_test_log_end("sweep", dev);
    gs_close_backend(&opened);
    return failed;
}
