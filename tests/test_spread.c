/* SPDX-License-Identifier: MIT */
/* `bandwidth --spread`'s arithmetic on timelines made by hand, and its
 * reports (text, JSON, SVG) on the template backend's pretend clock
 * (GRIDSTRIDE_STUB=timeline): what they say must be what the numbers say. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gs_json_read.h"
#include "gs_select.h"
#include "gs_spread_report.h"

extern const struct gs_backend gs_backend_stub;

static struct gs_timeline *timeline_of(unsigned n, const uint64_t *start, const uint64_t *end,
                                       const unsigned *blocks)
{
    struct gs_timeline *t = calloc(1, sizeof *t);
    assert_non_null(t);
    t->nunits = n;
    for (unsigned i = 0; i < n; ++i)
        t->unit[i] = (struct gs_timeline_unit){10 + i, blocks[i], start[i], end[i]};
    t->ms = 0.05;
    return t;
}

static void near(double got, double want)
{
    if (got < want - 1e-9 || got > want + 1e-9)
        fail_msg("got %.9f, want %.9f", got, want);
}

/* Four units, finishing at 30, 10, 40 and 20 us: the span is 40 us, the
 * first unit to finish idles 30 us, the median finish is (20 + 30) / 2, so
 * the median unit idles 15 us. */
static void idle_times_of_an_even_count(void **state)
{
    (void)state;
    const uint64_t start[] = {0, 2000, 1000, 500}, end[] = {30000, 10000, 40000, 20000};
    const unsigned blocks[] = {8, 8, 9, 7};
    struct gs_timeline *t = timeline_of(4, start, end, blocks);
    struct gs_spread_stats s;
    unsigned order[4];
    gs_spread_stats_of(t, &s, order);
    assert_int_equal(s.units, 4);
    near(s.span_us, 40.0);
    near(s.first_finish_us, 10.0);
    near(s.first_idle_us, 30.0);
    near(s.median_finish_us, 25.0);
    near(s.median_idle_us, 15.0);
    near(s.start_skew_us, 2.0);
    near(s.clock_step_ns, 500.0); /* 0, 500, 1000, 2000, 10000, ...: the smallest gap */
    near(s.event_ms, 0.05);
    assert_int_equal(s.blocks_min, 7);
    assert_int_equal(s.blocks_max, 9);
    const unsigned want[] = {1, 3, 0, 2};
    assert_memory_equal(order, want, sizeof want);
    free(t);
}

/* An odd count's median is the middle unit; times count from the first
 * start, wherever the clock began. */
static void idle_times_of_an_odd_count_from_any_origin(void **state)
{
    (void)state;
    const uint64_t start[] = {7000, 7000, 7100}, end[] = {12000, 8000, 10000};
    const unsigned blocks[] = {1, 1, 1};
    struct gs_timeline *t = timeline_of(3, start, end, blocks);
    struct gs_spread_stats s;
    gs_spread_stats_of(t, &s, NULL);
    near(s.span_us, 5.0);
    near(s.first_idle_us, 4.0);
    near(s.median_finish_us, 3.0);
    near(s.median_idle_us, 2.0);
    near(s.start_skew_us, 0.1);
    free(t);
}

/* Ties in finish time keep the units in id order; one unit idles 0. */
static void one_unit_and_ties(void **state)
{
    (void)state;
    const uint64_t start[] = {0, 0, 0}, end[] = {5000, 5000, 5000};
    const unsigned blocks[] = {2, 2, 2};
    struct gs_timeline *t = timeline_of(3, start, end, blocks);
    struct gs_spread_stats s;
    unsigned order[3];
    gs_spread_stats_of(t, &s, order);
    near(s.first_idle_us, 0.0);
    near(s.median_idle_us, 0.0);
    near(s.clock_step_ns, 5000.0);
    assert_int_equal(order[0], 0);
    assert_int_equal(order[2], 2);
    t->nunits = 1;
    gs_spread_stats_of(t, &s, NULL);
    assert_int_equal(s.units, 1);
    near(s.first_idle_us, 0.0);
    free(t);
}

/* ---- the reports, on the stub's pretend clock ------------------------------ */

struct fixture {
    struct gs_opened stub, plain;
    struct gs_spread runs[2];
    const struct gs_spread *done[2];
    struct gs_spread_report_in in;
};

static int setup(void **state)
{
    struct fixture *f = calloc(1, sizeof *f);
    struct gs_err e = {0};
    const struct gs_spread_plan p = {32768, 0, 0, NULL};
    *state = f;
    /* The pretend clock is there while GRIDSTRIDE_STUB says so. */
    setenv("GRIDSTRIDE_STUB", "timeline", 1);
    gs_open_backend(&gs_backend_stub, &f->stub);
    const int rc = f->stub.status == GS_OK ? gs_spread_run(f->stub.devs[0], &p, &f->runs[0], &e)
                                           : f->stub.status;
    unsetenv("GRIDSTRIDE_STUB");
    gs_open_backend(&gs_backend_stub, &f->plain); /* no clock: not available */
    if (rc != GS_OK || f->plain.status != GS_OK ||
        gs_spread_run(f->plain.devs[0], &p, &f->runs[1], &e) != GS_OK) {
        print_error("setup: %s\n", e.msg);
        return -1;
    }
    f->done[0] = &f->runs[0];
    f->done[1] = &f->runs[1];
    f->in = (struct gs_spread_report_in){f->done, 2, "0.0", "gridstride bandwidth --spread",
                                         "2026-01-01T00:00:00Z", "test", 0};
    return 0;
}

static int teardown(void **state)
{
    struct fixture *f = *state;
    if (!f)
        return 0;
    gs_spread_free(&f->runs[0]);
    gs_spread_free(&f->runs[1]);
    gs_close_backend(&f->stub);
    gs_close_backend(&f->plain);
    free(f);
    return 0;
}

static void text_report_says_what_the_numbers_say(void **state)
{
    struct fixture *f = *state;
    struct gs_str o = {0};
    gs_spread_report(&f->in, GS_FMT_TEXT, &o);
    assert_non_null(o.data);
    if (getenv("GS_TEST_SHOW"))
        fputs(o.data, stderr);
    /* one wave: 8.192 of 24.576 us (33.3%); median 4.096 us (16.7%) */
    assert_non_null(strstr(o.data, "8.2 (33.3%)"));
    assert_non_null(strstr(o.data, "4.1 (16.7%)"));
    /* The sentences, their line breaks undone. */
    char *flat = strdup(o.data);
    assert_non_null(flat);
    for (char *p = flat; (p = strstr(p, "\n  ")) != NULL;)
        memmove(p, p + 2, strlen(p + 2) + 1), *p = ' ';
    assert_non_null(strstr(flat, "every unit ran 4 blocks, yet the first to finish had no work "
                                 "left for 8.2 us of the 24.6 us launch (33.3%), and the median "
                                 "unit for 4.1 us (16.7%)"));
    assert_non_null(strstr(flat, "At 16 waves, with 52 to 76 blocks per unit, the first unit "
                                 "idled 0.5 us of the 20.0 us launch (2.6%, against 33.3% at one "
                                 "wave) and the median unit 0.3 us (1.3%)."));
    free(flat);
    assert_non_null(strstr(o.data, "52..76"));
    assert_non_null(strstr(o.data, "not available: the stub API's device has no per-unit clock"));
    gs_str_free(&o);
}

static void json_report_is_json_with_sorted_finish_times(void **state)
{
    struct fixture *f = *state;
    struct gs_str o = {0};
    struct gs_json *root = NULL;
    struct gs_err e = {0};
    gs_spread_report(&f->in, GS_FMT_JSON, &o);
    if (gs_json_parse(o.data, o.len, &root, &e) != GS_OK)
        fail_msg("%s\n%s", e.msg, o.data);
    assert_string_equal(gs_json_str(root, "schema", ""), "gridstride-results");
    assert_string_equal(gs_json_str(root, "mode", ""), "bandwidth-spread");
    uint64_t v = 0;
    assert_true(gs_json_u64(root, "schema_version", &v) && v == 1);
    const struct gs_json *runs = gs_json_get(root, "runs");
    assert_non_null(runs);
    assert_int_equal(runs->count, 2);
    const struct gs_json *run = gs_json_at(runs, 0), *off = gs_json_at(runs, 1);
    assert_int_equal(gs_json_bool(run, "available", 0), 1);
    assert_int_equal(gs_json_bool(off, "available", 1), 0);
    assert_non_null(strstr(gs_json_str(off, "not_available", ""), "no per-unit clock"));
    const struct gs_json *one = gs_json_at(gs_json_get(run, "launches"), 0);
    assert_true(gs_json_u64(one, "waves", &v) && v == 1);
    const struct gs_json *finish = gs_json_get(one, "finish_us");
    assert_non_null(finish);
    assert_int_equal(finish->count, 2);
    double x = 0;
    assert_true(gs_json_at(finish, 0)->num < gs_json_at(finish, 1)->num);
    near(gs_json_at(finish, 1)->num, 24.576);
    assert_true(gs_json_num(gs_json_get(one, "stats"), "first_idle_us", &x));
    near(x, 8.192);
    assert_int_equal(gs_json_get(one, "each_rep")->count, GS_SPREAD_DEFAULT_REPS);
    gs_json_free(root);
    gs_str_free(&o);
}

static void svg_draws_a_bar_per_unit_and_names_the_absent(void **state)
{
    struct fixture *f = *state;
    struct gs_str o = {0};
    gs_spread_svg(&f->in, &o);
    assert_non_null(o.data);
    assert_true(strncmp(o.data, "<svg ", 5) == 0);
    assert_non_null(strstr(o.data, "</svg>\n"));
    assert_non_null(strstr(o.data, "<title>When each SM finishes"));
    assert_non_null(strstr(o.data, "first SM idle 8.2 \xc2\xb5s (33.3%)"));
    assert_non_null(strstr(o.data, "units (SMs), sorted by finish time"));
    assert_non_null(strstr(o.data, "not available: the stub API"));
    /* two bars of units per launch: 4 in all, in the working colour */
    int bars = 0;
    for (const char *p = o.data; (p = strstr(p, "fill=\"#1f6fb4\"/>")) != NULL; ++p)
        ++bars;
    assert_int_equal(bars, 4 + 1); /* and the legend's swatch */
    gs_str_free(&o);
}

int main(void)
{
    const struct CMUnitTest arithmetic[] = {
        cmocka_unit_test(idle_times_of_an_even_count),
        cmocka_unit_test(idle_times_of_an_odd_count_from_any_origin),
        cmocka_unit_test(one_unit_and_ties),
    };
    const struct CMUnitTest reports[] = {
        cmocka_unit_test(text_report_says_what_the_numbers_say),
        cmocka_unit_test(json_report_is_json_with_sorted_finish_times),
        cmocka_unit_test(svg_draws_a_bar_per_unit_and_names_the_absent),
    };
    const int failed = cmocka_run_group_tests_name("spread arithmetic", arithmetic, NULL, NULL);
    return failed + cmocka_run_group_tests_name("spread reports", reports, setup, teardown);
}
