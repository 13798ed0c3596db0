/* SPDX-License-Identifier: MIT */
/* The prediction model, and that a disagreement in either direction fails. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "test_util.h"

#include "gs_device.h"
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

    /* predicted refused, the API accepted, and the output is not what
     * coverage predicts either: a failure, not a deviation */
    p.outcome = GS_OUT_REFUSED;
    p.if_accepted = GS_OUT_WRONG;
    p.if_first_wrong = 40960;
    p.if_wrong = 1;
    v = (struct gs_verdict){0};
    assert_int_equal(gs_prediction_holds(&p, &r, &v, why, sizeof why), GS_FAILED);
    assert_non_null(strstr(why, "predicted refused, observed ok"));

    /* predicted accepted, the API refused */
    p.outcome = GS_OUT_OK;
    r.accepted = 0;
    assert_false(gs_prediction_holds(&p, &r, &v, why, sizeof why));
}

/* A driver that accepts what its own report forbids, and computes exactly
 * what coverage predicts, is a deviation: shown, not failed. */
static void accepted_beyond_the_report_is_a_deviation(void **state)
{
    (void)state;
    struct gs_prediction p = {0};
    struct gs_launch_result r = {0};
    struct gs_verdict v = {0};
    char why[240];
    p.outcome = GS_OUT_REFUSED;
    p.if_accepted = GS_OUT_OK;
    r.accepted = 1;
    assert_int_equal(gs_prediction_holds(&p, &r, &v, why, sizeof why), GS_DEVIATION);
    assert_non_null(strstr(why, "deviation"));
    /* the same launch refused, as predicted: held */
    r.accepted = 0;
    v.n = v.unwritten = 5;
    assert_int_equal(gs_prediction_holds(&p, &r, &v, why, sizeof why), GS_HELD);
    /* accepted, but a short grid where coverage said every element: failed */
    r.accepted = 1;
    v.diag = GS_DIAG_SHORT_GRID;
    v.wrong = v.unwritten = 1;
    assert_int_equal(gs_prediction_holds(&p, &r, &v, why, sizeof why), GS_FAILED);
}

/* ---- the arithmetic past 2^31 and 2^32, on each backend's rule ---------- */

static int fake_accepts(const struct gs_device *dev, const struct gs_launch *l, char *why,
                        unsigned why_size)
{
    (void)dev;
    (void)l;
    (void)why;
    (void)why_size;
    return GS_ACCEPTS;
}

/* A GPU that takes any launch, whose kernels compute T in `bits` bits as
 * the grid probe would report it. Only the members gs_predict reaches. */
static const struct gs_backend fake = {.name = "fake",
                                       .predicts_accept = fake_accepts};

static struct gs_device fake_gpu(unsigned bits)
{
    static struct gs_device_core cores[2]; /* the core's state: one per width */
    struct gs_device d = {0};
    d.backend = &fake;
    d.is_gpu = 1;
    d.core = &cores[bits == 64];
    *d.core = (struct gs_device_core){0};
    d.core->probed = 1;
    d.core->probe.status = GS_OK;
    d.core->probe.global = (1ull << 32) + 256;
    d.core->probe.prelude_T = bits == 64 ? d.core->probe.global : d.core->probe.global & 0xffffffffu;
    return d;
}

static uint64_t brute_trips(uint64_t n, uint64_t T, uint64_t s)
{
    uint64_t trips = 0;
    for (uint64_t t = 0; t < T && t < n; ++t)
        for (uint64_t i = t; i < n; i += s)
            ++trips;
    return trips;
}

static void trip_count_is_exact(void **state)
{
    (void)state;
    const uint64_t cases[][3] = {{611, 768, 768}, {611, 256, 256}, {1000, 7, 3},
                                 {4096, 1024, 1024}, {4097, 1024, 16}, {5, 1, 1}, {0, 4, 4}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i)
        assert_int_equal(gs_model_trips(cases[i][0], cases[i][1], cases[i][2]),
                         brute_trips(cases[i][0], cases[i][1], cases[i][2]));
    assert_int_equal(gs_model_trips(10, 4, 0), UINT64_MAX);
    assert_int_equal(gs_model_trips(0, 4, 0), 0);
    /* a correct grid-stride loop takes exactly n trips at any T */
    assert_int_equal(gs_model_trips(4294967301ull, 270336, 270336), 4294967301ull);
    assert_int_equal(gs_model_trips(4294967301ull, (1ull << 32) + 256, (1ull << 32) + 256),
                     4294967301ull);
}

static void stride_wraps_only_in_32_bits(void **state)
{
    (void)state;
    assert_int_equal(gs_model_stride(64, 1ull << 32), 1ull << 32);
    assert_int_equal(gs_model_stride(32, 1ull << 32), 0);
    assert_int_equal(gs_model_stride(32, (1ull << 32) + 256), 256);
    assert_int_equal(gs_model_stride(32, 1ull << 31), 1ull << 31);
    /* 16,777,216 blocks of 256 (T = 2^32) and 16,777,217 (2^32 + 256), as
     * measured for a product without the cast on the H200 */
    assert_int_equal(gs_model_stride(32, 16777216ull * 256), 0);
    assert_int_equal(gs_model_stride(32, 16777217ull * 256), 256);
}

/* Each backend's rule for T: host and CUDA compute it in 64 bits from
 * their launch arguments (no probe: 64); OpenCL's prelude is proved by the
 * probe (64 when right); a driver on which it came back wrong gets 32. */
static void backends_t_width(void **state)
{
    (void)state;
    struct gs_device right = fake_gpu(64), wrapped = fake_gpu(32);
    assert_int_equal(gs_model_t_bits(host.devs[0]), 64);
    assert_int_equal(gs_model_t_bits(&right), 64);
    assert_int_equal(gs_model_t_bits(&wrapped), 32);
    right.core->probe.status = GS_UNSUPPORTED; /* a CPU device, not probed */
    assert_int_equal(gs_model_t_bits(&right), 64);
}

/* The rule: a launch the model says cannot finish is never made. */
static void endless_launch_is_predicted_not_launched(void **state)
{
    (void)state;
    struct gs_device right = fake_gpu(64), wrapped = fake_gpu(32);
    struct gs_prediction p;
    const uint64_t n = (1ull << 32) + 5;
    /* T = 2^32: 16,777,216 blocks of 256 */
    struct gs_launch l = launch_of(GS_K_ADD_GS, n, 16777216, 256);
    gs_predict(&right, &l, &p);
    assert_int_equal(p.outcome, GS_OUT_OK);
    gs_predict(&wrapped, &l, &p);
    assert_int_equal(p.outcome, GS_OUT_NOT_LAUNCHED);
    assert_non_null(strstr(p.why, "would not terminate"));
    /* T = 2^32 + 256: a stride of 256 on 2^32 threads, about 2^55 trips */
    l = launch_of(GS_K_ADD_GS, n, 16777217, 256);
    gs_predict(&right, &l, &p);
    assert_int_equal(p.outcome, GS_OUT_OK);
    gs_predict(&wrapped, &l, &p);
    assert_int_equal(p.outcome, GS_OUT_NOT_LAUNCHED);
    assert_non_null(strstr(p.why, "would not finish"));
    /* T = 2^31: nothing wraps */
    l = launch_of(GS_K_ADD_GS, n, 8388608, 256);
    gs_predict(&wrapped, &l, &p);
    assert_int_equal(p.outcome, GS_OUT_OK);
    /* the monolithic kernel has no loop: it always finishes */
    l = launch_of(GS_K_ADD_MONO, n, 16777216, 256);
    gs_predict(&wrapped, &l, &p);
    assert_int_equal(p.outcome, GS_OUT_WRONG);
    assert_int_equal(p.first_wrong, 1ull << 32);
    assert_int_equal(p.wrong, 5);
}

/* The pitfalls' per-element counts, against a walk over the threads that
 * could write element i, at the sizes where each trap bites. */
static uint64_t writers_stepping(uint64_t i, uint64_t T, uint64_t s)
{
    uint64_t w = 0; /* threads t = i, i - s, i - 2s, ... that exist (t < T) */
    for (uint64_t t = i;; t -= s) {
        w += t < T;
        if (t < s)
            break;
    }
    return w;
}

static void pitfall_counts_match_a_walk_over_the_threads(void **state)
{
    (void)state;
    const uint64_t T = (1ull << 32) + (1ull << 30), s = 1ull << 30;
    struct gs_launch l = launch_of(GS_K_ADD_STRIDE32, T, T / 256, 256);
    const uint64_t probes[] = {0, 1, s - 1, s, 3 * s + 7, (1ull << 32) - 1, (1ull << 32), T - 1};
    for (size_t k = 0; k < sizeof probes / sizeof probes[0]; ++k)
        assert_int_equal(gs_model_count(&l, 64, probes[k]), writers_stepping(probes[k], T, s));
    assert_int_equal(gs_model_count(&l, 64, T - 1), 5);

    /* the 32-bit index at T = 2^32 + 256: threads i and i + 2^32 */
    l = launch_of(GS_K_ADD_INDEX32, (1ull << 32) + 5, 16777217, 256);
    assert_int_equal(gs_model_count(&l, 64, 0), 2);
    assert_int_equal(gs_model_count(&l, 64, 255), 2);
    assert_int_equal(gs_model_count(&l, 64, 256), 1);
    assert_int_equal(gs_model_count(&l, 64, (1ull << 32) - 1), 1);
    assert_int_equal(gs_model_count(&l, 64, 1ull << 32), 0);

    /* the int loop stops at 2^31 */
    l = launch_of(GS_K_ADD_INT_LOOP, (1ull << 31) + 5, 1056, 256);
    assert_int_equal(gs_model_count(&l, 64, (1ull << 31) - 1), 1);
    assert_int_equal(gs_model_count(&l, 64, 1ull << 31), 0);
    struct gs_prediction p;
    struct gs_device gpu = fake_gpu(64);
    gs_predict(&gpu, &l, &p);
    assert_int_equal(p.outcome, GS_OUT_WRONG);
    assert_int_equal(p.first_wrong, 1ull << 31);
    assert_int_equal(p.wrong, 5);

    /* the block stride: every block b <= i / B */
    l = launch_of(GS_K_ADD_BLOCK_STRIDE, 4194304, 1056, 256);
    for (uint64_t i = 0; i < 4194304; i += 4099) {
        uint64_t w = 0;
        for (uint64_t b = 0; b < 1056; ++b)
            w += b * 256 <= i;
        assert_int_equal(gs_model_count(&l, 64, i), w);
    }
    /* a wrapped grid-stride prelude over-covers like the missing cast */
    l = launch_of(GS_K_ADD_GS, T, T / 256, 256);
    assert_int_equal(gs_model_count(&l, 32, T - 1), 5);
    assert_int_equal(gs_model_count(&l, 64, T - 1), 1);
}

/* The runs the count build is checked with hold for every element in
 * them: each element of a run has the count the model gives it alone, for
 * every kernel of the catalogue, on launches of every rule (the traps' near
 * 2^32 too), from starts on and between the rules' boundaries (T, the
 * covered prefix, a block, a stride); every run is one element or more and
 * ends within its bound. The counts themselves are checked against walks
 * over the threads above and against each backend's count build
 * (test_conformance). */
static void count_runs_equal_count_of_each_element(void **state)
{
    (void)state;
    const uint64_t big = (1ull << 32) + (1ull << 30);
    const struct {
        uint64_t n, grid, block, param;
    } shapes[] = {
        {611, 3, 256, 0},          {40961, 160, 256, 7},    {4194304, 8, 256, 4096},
        {1000, 1, 256, 64},        {big, big / 256, 256, 0}, {(1ull << 32) + 5, 16777217, 256, 0},
        {(1ull << 31) + 5, 1056, 256, 0}, {5000, 0, 256, 0}, {(1ull << 32) + 5, (1ull << 32) / 256 + 1, 256, 0},
    };
    for (int k = 0; k < GS_KERNEL_COUNT; ++k)
        for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s)
            for (unsigned bits = 32; bits <= 64; bits += 32) {
                struct gs_launch l = launch_of((enum gs_kernel_id)k, shapes[s].n, shapes[s].grid,
                                               shapes[s].block);
                l.param = shapes[s].param;
                const uint64_t T = l.global, n = l.n;
                const uint64_t starts[] = {0, 1, 255, T > 700 ? T - 700 : 0, T, n > 3000 ? n - 3000 : 0,
                                           (1ull << 31) - 17, (1ull << 32) - 300, (1ull << 30) - 5,
                                           T > (1ull << 32) ? T - (1ull << 32) - 9 : 0};
                for (size_t f = 0; f < sizeof starts / sizeof starts[0]; ++f) {
                    const uint64_t first = starts[f];
                    if (first >= n)
                        continue;
                    const uint64_t end = n - first < 3000 ? n : first + 3000;
                    for (uint64_t i = first; i < end;) {
                        uint64_t count;
                        const uint64_t to = gs_model_count_run(&l, bits, i, end, &count);
                        if (to <= i || to > end)
                            fail_msg("kernel %d, n %llu: the run from %llu ends at %llu (bound %llu)",
                                     k, (unsigned long long)n, (unsigned long long)i,
                                     (unsigned long long)to, (unsigned long long)end);
                        for (; i < to; ++i)
                            if (count != gs_model_count(&l, bits, i))
                                fail_msg("kernel %d, n %llu, T %llu, %u bits: element %llu: run "
                                         "%llu, element %llu", k, (unsigned long long)n,
                                         (unsigned long long)T, bits, (unsigned long long)i,
                                         (unsigned long long)count,
                                         (unsigned long long)gs_model_count(&l, bits, i));
                    }
                }
            }
}

/* Seed 001's signed form writes before the buffer once n + T passes 2^31:
 * predicted, never launched. Below that it is an ordinary loop. */
static void signed_int_loop_is_never_launched_past_2_31(void **state)
{
    (void)state;
    struct gs_device gpu = fake_gpu(64);
    struct gs_prediction p;
    struct gs_launch l = launch_of(GS_K_ADD_INT_LOOP_SIGNED, (1ull << 31) + 5, 1056, 256);
    gs_predict(&gpu, &l, &p);
    assert_int_equal(p.outcome, GS_OUT_NOT_LAUNCHED);
    assert_non_null(strstr(p.why, "before the buffer"));
    l = launch_of(GS_K_ADD_INT_LOOP_SIGNED, 1000000, 1056, 256);
    gs_predict(&gpu, &l, &p);
    assert_int_equal(p.outcome, GS_OUT_OK);
}

/* The course's literal int loop: undefined past 2^31, so never predicted,
 * and whatever it wrote holds; T >= 2^31 is still never launched. */
static void literal_int_loop_is_recorded_not_predicted(void **state)
{
    (void)state;
    struct gs_device gpu = fake_gpu(64);
    struct gs_prediction p;
    struct gs_launch_result r = {0};
    struct gs_verdict v = {0};
    char why[240] = "x";
    int held = 0, deviation = 1;
    struct gs_launch l = launch_of(GS_K_ADD_INT_LOOP_LITERAL, (1ull << 31) + 5, 1056, 256);
    gs_predict(&gpu, &l, &p);
    assert_int_equal(p.outcome, GS_OUT_UNDEFINED);
    assert_string_equal(gs_outcome_name(p.outcome), "undefined");
    assert_non_null(strstr(p.why, "undefined: recorded, not predicted"));
    r.accepted = 1;
    v.diag = 1; /* wrong from 2^31 on: still not a failure */
    v.first_wrong = 1ull << 31;
    gs_judge(&p, &r, &v, &held, &deviation, why, sizeof why);
    assert_true(held);
    assert_false(deviation);
    assert_string_equal(why, "");
    l = launch_of(GS_K_ADD_INT_LOOP_LITERAL_O0, (1ull << 31) + 5, 1ull << 23, 256);
    gs_predict(&gpu, &l, &p);
    assert_int_equal(p.outcome, GS_OUT_NOT_LAUNCHED);
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

/* A runtime that lowers the launch (OpenMP): the model predicts from the
 * grant measured before the launch, and the prediction fails when the
 * launch reports that it ran another grid, even with the output right. */
static void granted_launch_is_predicted_from_its_grant(void **state)
{
    (void)state;
    struct gs_prediction p;
    struct gs_launch l = launch_of(GS_K_ADD_MONO, 611, 3, 28);
    l.asked_grid = 3;
    l.asked_block = 256;
    gs_predict(host.devs[0], &l, &p);
    assert_int_equal(p.outcome, GS_OUT_WRONG);
    assert_int_equal(p.first_wrong, 84);
    assert_non_null(strstr(p.why, "grants 3 x 28 for <<<3, 256>>>"));
    char shape[96], why[240];
    gs_launch_shape(&l, shape, sizeof shape);
    assert_string_equal(shape, "<<<3, 256>>> granted 3 x 28");

    struct gs_launch_result r = {0};
    struct gs_verdict v = {0};
    r.accepted = 1;
    r.granted_grid = 3;
    r.granted_block = 28;
    v.n = 611;
    v.diag = GS_DIAG_SHORT_GRID;
    v.first_wrong = 84;
    v.wrong = v.unwritten = 611 - 84;
    assert_int_equal(gs_prediction_holds(&p, &r, &v, why, sizeof why), GS_HELD);
    r.granted_block = 32; /* the runtime ran 96 threads: no longer what was predicted */
    assert_int_equal(gs_prediction_holds(&p, &r, &v, why, sizeof why), GS_FAILED);
    assert_non_null(strstr(why, "ran 3 x 32, not the 3 x 28"));

    /* A backend without grant() runs what it is asked: nothing changes. */
    struct gs_err e = {0};
    struct gs_launch asked = launch_of(GS_K_ADD_MONO, 611, 3, 256);
    assert_int_equal(gs_dev_grant(host.devs[0], &asked, &e), GS_OK);
    assert_int_equal(asked.grid, 3);
    assert_int_equal(asked.block, 256);
    assert_int_equal(asked.asked_grid, 0);
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
        cmocka_unit_test(accepted_beyond_the_report_is_a_deviation),
        cmocka_unit_test(trip_count_is_exact),
        cmocka_unit_test(stride_wraps_only_in_32_bits),
        cmocka_unit_test(backends_t_width),
        cmocka_unit_test(endless_launch_is_predicted_not_launched),
        cmocka_unit_test(pitfall_counts_match_a_walk_over_the_threads),
        cmocka_unit_test(count_runs_equal_count_of_each_element),
        cmocka_unit_test(signed_int_loop_is_never_launched_past_2_31),
        cmocka_unit_test(literal_int_loop_is_recorded_not_predicted),
        cmocka_unit_test(granted_launch_is_predicted_from_its_grant),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
