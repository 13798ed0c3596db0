/* SPDX-License-Identifier: MIT */
/* check's speed rules on made-up timings (core/run/gs_speed.h): the floor
 * that no kernel can beat, the statistics, and the verdict in the lesson's
 * words; and the words of a made-up count of who wrote what
 * (gs_check_work_judge); the turns of devices whose timed sections must
 * not overlap (gs_turns.h), on threads that finish in the wrong order.
 * Nothing here is timed. */
#include <pthread.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "gs_check.h"
#include "gs_speed.h"
#include "gs_turns.h"

#define H200_PEAK 4800000000000ull /* bytes per second */
#define N (1ull << 28)             /* 1 GiB of floats per buffer */
#define ADD_BYTES (12 * N)

/* 3.2 GB in 0.5 ms would be 6.4 TB/s: above a peak of 4.8 TB/s. */
static void under_the_peak_is_impossible(void **state)
{
    char why[300];
    (void)state;
    const double floor_ms = (double)ADD_BYTES / (double)H200_PEAK * 1e3; /* 0.671 ms */
    assert_int_equal(gs_speed_floor(ADD_BYTES, floor_ms * 0.99, H200_PEAK, 0, 0.25, why,
                                    sizeof why),
                     GS_FLOOR_PEAK);
    assert_non_null(strstr(why, "impossible"));
    assert_non_null(strstr(why, "peak of 4800 GB/s"));
    assert_int_equal(gs_speed_floor(ADD_BYTES, floor_ms * 1.01, H200_PEAK, 0, 0.25, why,
                                    sizeof why),
                     GS_FLOOR_OK);
    assert_string_equal(why, "");
    /* A zero or negative time is never a fast kernel. */
    assert_int_equal(gs_speed_floor(ADD_BYTES, 0.0, 0, 0, 0.25, why, sizeof why), GS_FLOOR_PEAK);
    assert_int_equal(gs_speed_floor(ADD_BYTES, -1.0, H200_PEAK, 0, 0.25, NULL, 0), GS_FLOOR_PEAK);
}

/* The copy rule: more than 25% above the API's own copy is impossible, up to
 * it is not; without a peak the copy rule still holds. */
static void far_above_the_copy_is_impossible(void **state)
{
    char why[300];
    (void)state;
    const double copy_gbps = 3000.0;
    const double ms_at = (double)ADD_BYTES / (copy_gbps * 1.25 * 1e9) * 1e3;
    assert_int_equal(gs_speed_floor(ADD_BYTES, ms_at * 0.98, 0, copy_gbps, 0.25, why, sizeof why),
                     GS_FLOOR_COPY);
    assert_non_null(strstr(why, "25% above the API's own copy at its fastest (3000.0 GB/s)"));
    assert_int_equal(gs_speed_floor(ADD_BYTES, ms_at * 1.02, 0, copy_gbps, 0.25, why, sizeof why),
                     GS_FLOOR_OK);
    /* No copy and no peak: nothing to compare with, the time stands. */
    assert_int_equal(gs_speed_floor(ADD_BYTES, 1e-6, 0, 0, 0.25, why, sizeof why), GS_FLOOR_OK);
}

static void stats_of_samples(void **state)
{
    struct gs_speed_row r;
    (void)state;
    memset(&r, 0, sizeof r);
    r.bytes = 1200000000ull;
    const double s[] = {1.2, 1.0, 1.1, 5.0};
    memcpy(r.samples_ms, s, sizeof s);
    r.nsamples = 4;
    gs_speed_stats(&r);
    assert_true(r.min_ms == 1.0 && r.max_ms == 5.0);
    assert_true(r.med_ms > 1.149 && r.med_ms < 1.151); /* (1.1 + 1.2) / 2 */
    assert_true(r.gbps > 1043 && r.gbps < 1044);       /* 1.2 GB / 1.15 ms */
    assert_true(r.spread_pct > 347 && r.spread_pct < 348);
}

static struct gs_speed_row *row(struct gs_speed *s, enum gs_speed_who who, uint64_t grid,
                                double ms)
{
    struct gs_speed_row *r = &s->rows[s->nrows++];
    memset(r, 0, sizeof *r);
    r->who = who;
    r->n = N;
    r->grid = grid;
    r->block = 256;
    r->bytes = who == GS_SPD_COPY ? 8 * N : 12 * N;
    r->state = GS_SPD_TIMED;
    for (int i = 0; i < GS_SPEED_REPS; ++i)
        r->samples_ms[i] = ms;
    r->nsamples = GS_SPEED_REPS;
    gs_speed_stats(r);
    return r;
}

/* An H200-like run: copy, the suite's loop, the user's kernel at `user_ms`. */
static void h200(struct gs_speed *s, double user_ms, double min_speed)
{
    memset(s, 0, sizeof *s);
    s->measured = 1;
    s->n = N;
    s->block = 256;
    s->grid = 528;
    s->min_speed = min_speed;
    row(s, GS_SPD_COPY, 1, (double)(8 * N) / 3.9e12 * 1e3);
    row(s, GS_SPD_SUITE_GS, 528, (double)ADD_BYTES / 3.58e12 * 1e3);
    row(s, GS_SPD_USER, 528, user_ms);
}

/* A copy slowed by another job on the GPU for most of its launches (median
 * 1.95 TB/s, fastest 3.9): a kernel at the loop's 3.58 TB/s is as fast, not
 * impossible, since the rule takes the copy at its fastest; 5 TB/s stays
 * impossible (more than 25% above 3.9). */
static void a_slowed_copy_makes_no_right_kernel_impossible(void **state)
{
    struct gs_speed s;
    (void)state;
    const double loop_ms = (double)ADD_BYTES / 3.58e12 * 1e3;
    h200(&s, loop_ms, 0);
    struct gs_speed_row *copy = &s.rows[0];
    for (int i = 0; i < GS_SPEED_REPS; ++i)
        copy->samples_ms[i] = (double)(8 * N) / (i < 8 ? 3.9e12 : 1.95e12) * 1e3;
    gs_speed_stats(copy);
    assert_true(copy->gbps < 2000.0); /* its median: slowed */
    gs_speed_judge(&s, H200_PEAK, 1);
    assert_int_equal(s.cls, GS_SPEED_AS_FAST);
    assert_int_equal(s.rows[2].state, GS_SPD_TIMED);
    /* The user's row at 5 TB/s. */
    for (int i = 0; i < GS_SPEED_REPS; ++i)
        s.rows[2].samples_ms[i] = (double)ADD_BYTES / 5.0e12 * 1e3;
    s.rows[2].state = GS_SPD_TIMED;
    gs_speed_stats(&s.rows[2]);
    gs_speed_judge(&s, 0, 1);
    assert_int_equal(s.rows[2].state, GS_SPD_IMPOSSIBLE);
    assert_non_null(strstr(s.rows[2].why, "at its fastest (3900.0 GB/s)"));
}

static void verdicts_in_words(void **state)
{
    struct gs_speed s;
    (void)state;
    const double loop_ms = (double)ADD_BYTES / 3.58e12 * 1e3;
    /* The same time as the loop: as fast, 100%. */
    h200(&s, loop_ms, 0.8);
    gs_speed_judge(&s, H200_PEAK, 1);
    assert_int_equal(s.cls, GS_SPEED_AS_FAST);
    assert_non_null(strstr(s.words, "100.0% of the suite's grid-stride loop"));
    assert_int_equal(s.below_min, 0);
    /* 7.7x slower: slower, below --min-speed 0.8, the GPU's two mistakes named. */
    h200(&s, loop_ms * 7.7, 0.8);
    gs_speed_judge(&s, H200_PEAK, 1);
    assert_int_equal(s.cls, GS_SPEED_SLOWER);
    assert_non_null(strstr(s.words, "7.7x slower"));
    assert_non_null(strstr(s.words, "one contiguous chunk per thread"));
    assert_int_equal(s.below_min, 1);
    /* On a CPU the coalescing lesson is said not to apply. */
    h200(&s, loop_ms * 3, 0);
    gs_speed_judge(&s, 0, 0);
    assert_int_equal(s.cls, GS_SPEED_SLOWER);
    assert_non_null(strstr(s.words, "on a CPU the coalescing lesson does not apply"));
    assert_int_equal(s.below_min, 0);
    /* Faster than the peak allows: impossible, never fast, and it fails. */
    h200(&s, loop_ms / 2, 0);
    gs_speed_judge(&s, H200_PEAK, 1);
    assert_int_equal(s.cls, GS_SPEED_IMPOSSIBLE);
    assert_int_equal(s.rows[2].state, GS_SPD_IMPOSSIBLE);
    assert_non_null(strstr(s.words, "impossible"));
    assert_int_equal(s.below_min, 1);
    /* Without a known peak the copy still bounds it, on a GPU. */
    h200(&s, loop_ms / 2, 0);
    gs_speed_judge(&s, 0, 1);
    assert_int_equal(s.cls, GS_SPEED_IMPOSSIBLE);
    /* A first launch over the limit: too slow, with at least the factor. */
    h200(&s, loop_ms, 0);
    s.rows[2].state = GS_SPD_TOO_SLOW;
    s.rows[2].nsamples = 1;
    s.rows[2].samples_ms[0] = loop_ms * 400;
    gs_speed_judge(&s, H200_PEAK, 1);
    assert_int_equal(s.cls, GS_SPEED_TOO_SLOW);
    assert_non_null(strstr(s.words, "at least 400x slower"));
    /* Not measured stays not measured. */
    memset(&s, 0, sizeof s);
    gs_speed_judge(&s, H200_PEAK, 1);
    assert_int_equal(s.cls, GS_SPEED_NONE);
    assert_string_equal(gs_speed_class_name(s.cls), "not-measured");
}

/* Work per block at fixed n, from made-up times: the block stride's time
 * grows 4x on 4G while the loop's stays; a grid-stride loop's stays with it;
 * a loop that slows down too says nothing; a row too slow to repeat counts
 * with its one launch; without the 4G rows nothing is read. */
static void work_per_block_from_times(void **state)
{
    struct gs_speed s;
    (void)state;
    const double loop_ms = (double)ADD_BYTES / 3.58e12 * 1e3;
    h200(&s, loop_ms * 8, 0);
    gs_speed_blocks(&s);
    assert_int_equal(s.blocks_judged, 0);
    assert_int_equal(s.per_block, 0);
    assert_non_null(strstr(s.blocks_words, "not read"));
    row(&s, GS_SPD_SUITE_GS, 4 * 528, loop_ms * 1.02);
    row(&s, GS_SPD_USER, 4 * 528, loop_ms * 32);
    gs_speed_blocks(&s);
    assert_int_equal(s.blocks_judged, 1);
    assert_int_equal(s.per_block, 1);
    assert_non_null(strstr(s.blocks_words, "the loop steps by the block, not the grid (pitfall 1)"));
    assert_non_null(strstr(s.blocks_words, "4.0x"));
    /* At the threshold and just under it. */
    s.rows[4].med_ms = loop_ms * 8 * GS_SPEED_BLOCK_GROWTH * 1.01;
    gs_speed_blocks(&s);
    assert_int_equal(s.per_block, 1);
    s.rows[4].med_ms = loop_ms * 8 * GS_SPEED_BLOCK_GROWTH * 0.99;
    gs_speed_blocks(&s);
    assert_int_equal(s.per_block, 0);
    assert_non_null(strstr(s.blocks_words, "no work per block"));
    /* The loop itself slowed as much (a loaded machine): no verdict by rule. */
    s.rows[4].med_ms = loop_ms * 32;
    s.rows[3].med_ms = loop_ms * 4;
    gs_speed_blocks(&s);
    assert_int_equal(s.per_block, 0);
    /* A grid-stride kernel: the same time on 4G. */
    s.rows[3].med_ms = loop_ms;
    s.rows[4].med_ms = loop_ms * 8;
    gs_speed_blocks(&s);
    assert_int_equal(s.per_block, 0);
    /* Too slow to repeat on both: the one launch's times. */
    s.rows[2].state = s.rows[4].state = GS_SPD_TOO_SLOW;
    s.rows[2].nsamples = s.rows[4].nsamples = 1;
    s.rows[2].samples_ms[0] = loop_ms * 400;
    s.rows[4].samples_ms[0] = loop_ms * 1600;
    gs_speed_blocks(&s);
    assert_int_equal(s.per_block, 1);
    s.rows[4].nsamples = 0; /* it ran past its deadline: no time */
    gs_speed_blocks(&s);
    assert_int_equal(s.blocks_judged, 0);
}

/* A kernel too slow on G has its growth read at a smaller n: about
 * GS_SPEED_BLOCKS_MS on G there, never under the floor of elements per
 * thread, never above n; the rule then reads the four rows at that n, not
 * the pass's. */
static void work_per_block_at_a_smaller_n(void **state)
{
    (void)state;
    const uint64_t n = 1ull << 28, G = 1056, B = 256;
    /* 420 ms on G at n: 40 ms at about n / 10.5. */
    const uint64_t m = gs_speed_blocks_n(n, 420.0, G, B);
    assert_true(m > n / 11 && m < n / 10);
    assert_int_equal(gs_speed_blocks_n(n, 30.0, G, B), n);        /* cheap already */
    assert_int_equal(gs_speed_blocks_n(n, 1e6, G, B), 16 * G * B); /* the floor */
    assert_int_equal(gs_speed_blocks_n(1000, 1e6, G, B), 1000);    /* never above n */
    struct gs_speed s;
    const double loop_ms = (double)ADD_BYTES / 3.58e12 * 1e3;
    h200(&s, loop_ms * 400, 0);
    s.rows[2].state = GS_SPD_TOO_SLOW;
    s.rows[2].nsamples = 1;
    /* At the pass's n a 4G row that would say "no work per block"... */
    row(&s, GS_SPD_SUITE_GS, 4 * 528, loop_ms);
    row(&s, GS_SPD_USER, 4 * 528, loop_ms * 400);
    /* ...and at a smaller n the four rows that say it does. */
    s.blocks_n = N / 8;
    struct gs_speed_row *r[4] = {
        row(&s, GS_SPD_SUITE_GS, 528, loop_ms / 8), row(&s, GS_SPD_SUITE_GS, 4 * 528, loop_ms / 8),
        row(&s, GS_SPD_USER, 528, loop_ms * 50), row(&s, GS_SPD_USER, 4 * 528, loop_ms * 200)};
    for (int i = 0; i < 4; ++i)
        r[i]->n = N / 8;
    gs_speed_blocks(&s);
    assert_int_equal(s.blocks_judged, 1);
    assert_int_equal(s.per_block, 1);
    assert_non_null(strstr(s.blocks_words, "at n = "));
    /* The verdict on G still comes from the pass's n. */
    gs_speed_judge(&s, H200_PEAK, 1);
    assert_int_equal(s.cls, GS_SPEED_TOO_SLOW);
    assert_non_null(strstr(s.words, "at least 400x slower"));
    /* Without the smaller n's rows nothing is read there. */
    s.nrows -= 4;
    gs_speed_blocks(&s);
    assert_int_equal(s.blocks_judged, 0);
}

/* Who wrote what, as the host's count leaves it, made up: a block stride
 * of B = 4 over 2 blocks (element i by thread i, and by thread i - 4 for
 * i >= 4), then the same elements each by one thread. */
static void work_in_words(void **state)
{
    enum { n = 8 };
    uint32_t count[n], first[n], last[n];
    struct gs_check_work w;
    (void)state;
    for (unsigned i = 0; i < n; ++i) {
        count[i] = i >= 4 ? 2 : 1;
        first[i] = i >= 4 ? i - 4 : i;
        last[i] = i;
    }
    memset(&w, 0, sizeof w);
    w.n = n;
    w.grid = 2;
    w.block = 4;
    gs_check_work_judge(&w, count, first, last);
    assert_int_equal(w.cls, GS_WORK_BLOCK_STRIDE);
    assert_int_equal(w.min, 1);
    assert_int_equal(w.max, 2);
    assert_int_equal(w.total, 12);
    assert_int_equal(w.first_repeated, 4);
    assert_int_equal(w.first_writer, 0);
    assert_int_equal(w.last_writer, 4);
    assert_non_null(strstr(w.words, "steps by the block, not the grid (pitfall 1)"));
    assert_string_equal(gs_work_class_name(w.cls), "block-stride");
    /* Writers 3 apart with blocks of 4: repeated, not the block stride. */
    first[4] = 1;
    gs_check_work_judge(&w, count, first, last);
    assert_int_equal(w.cls, GS_WORK_REPEATED);
    /* Each element once. */
    for (unsigned i = 0; i < n; ++i)
        count[i] = 1, first[i] = last[i] = i;
    gs_check_work_judge(&w, count, first, last);
    assert_int_equal(w.cls, GS_WORK_ONCE);
    assert_int_equal(w.first_repeated, -1);
    assert_int_equal(w.total, n);
    assert_null(strstr(w.words, "chunk"));
    /* Each once, by one contiguous chunk per thread (T = 4, C = 2): the
     * count names the pattern, and what it costs on a GPU. */
    w.grid = 1;
    for (unsigned i = 0; i < n; ++i)
        first[i] = last[i] = i / 2;
    gs_check_work_judge(&w, count, first, last);
    assert_int_equal(w.cls, GS_WORK_ONCE);
    assert_non_null(strstr(w.words, "one contiguous chunk of 2 elements per thread"));
    assert_non_null(strstr(w.words, "on a GPU this is the uncoalesced pattern"));
}

/* Causes only from evidence: a gap inside the measured spread is "within
 * noise", never a slow kernel with the lesson's causes; a CPU kernel far
 * faster than the loop gets the chunk words; one chunk per thread whose time
 * grows on 4G (a CPU device's more, shorter chunks) but which is faster than
 * the loop on G is no block stride, and neither is a growth inside the
 * kernel's own spread. */
static void causes_only_from_evidence(void **state)
{
    struct gs_speed s;
    (void)state;
    const double loop_ms = (double)ADD_BYTES / 3.58e12 * 1e3;
    h200(&s, loop_ms * 1.3, 0);
    s.rows[2].min_ms = loop_ms * 0.95; /* its fastest launch beats the loop's slowest */
    s.rows[1].max_ms = loop_ms * 1.05;
    gs_speed_judge(&s, 0, 0);
    assert_int_equal(s.cls, GS_SPEED_AS_FAST);
    assert_non_null(strstr(s.words, "within noise"));
    assert_null(strstr(s.words, "pitfall"));
    h200(&s, loop_ms * 1.3, 0); /* clear of the spread: slower, no cause named on a CPU */
    gs_speed_judge(&s, 0, 0);
    assert_int_equal(s.cls, GS_SPEED_SLOWER);
    assert_null(strstr(s.words, "pitfall"));
    h200(&s, loop_ms / 8.5, 0); /* 850% of the loop on a CPU */
    gs_speed_judge(&s, 0, 0);
    assert_int_equal(s.cls, GS_SPEED_AS_FAST);
    assert_non_null(strstr(s.words, "on a GPU it is the uncoalesced one"));
    h200(&s, loop_ms / 8.5, 0);
    row(&s, GS_SPD_SUITE_GS, 4 * 528, loop_ms * 1.02);
    row(&s, GS_SPD_USER, 4 * 528, loop_ms / 8.5 * 2.5); /* grows 2.5x, still 3x the loop */
    gs_speed_blocks(&s);
    assert_int_equal(s.blocks_judged, 1);
    assert_int_equal(s.per_block, 0);
    h200(&s, loop_ms * 8, 0);
    s.rows[2].max_ms = loop_ms * 40; /* one slow launch on G */
    row(&s, GS_SPD_SUITE_GS, 4 * 528, loop_ms * 1.02);
    row(&s, GS_SPD_USER, 4 * 528, loop_ms * 32);
    gs_speed_blocks(&s);
    assert_int_equal(s.per_block, 0);
    s.rows[2].max_ms = loop_ms * 8;
    gs_speed_blocks(&s);
    assert_int_equal(s.per_block, 1);
}

/* ---- turns ---------------------------------------------------------------- */

static struct {
    pthread_mutex_t mu;
    struct gs_turns *t;
    int ready, inside, overlap, order[3], norder, early;
} tr = {.mu = PTHREAD_MUTEX_INITIALIZER};

struct dev_arg {
    int i, delay_ms, timed;
};

static void nap(int ms)
{
    const struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static void *device(void *p)
{
    const struct dev_arg *a = p;
    nap(a->delay_ms); /* its build, cases and count */
    pthread_mutex_lock(&tr.mu);
    ++tr.ready;
    pthread_mutex_unlock(&tr.mu);
    if (!a->timed) { /* wrong: no timed section */
        gs_turns_end(tr.t, a->i);
        return NULL;
    }
    gs_turns_ready(tr.t, a->i);
    gs_turns_wait(tr.t, a->i);
    pthread_mutex_lock(&tr.mu);
    tr.early |= tr.ready != 3;
    tr.overlap |= tr.inside++ != 0;
    tr.order[tr.norder++] = a->i;
    pthread_mutex_unlock(&tr.mu);
    nap(10); /* timed */
    pthread_mutex_lock(&tr.mu);
    --tr.inside;
    pthread_mutex_unlock(&tr.mu);
    gs_turns_end(tr.t, a->i);
    gs_turns_end(tr.t, a->i); /* again: nothing */
    return NULL;
}

/* Device 2 is ready first and device 0 last, device 1 ends without timing:
 * the timed sections run after every device is ready, one at a time, 0 then 2. */
static void turns_in_order_never_side_by_side(void **state)
{
    (void)state;
    struct gs_err e = {0};
    assert_int_equal(gs_turns_open(&tr.t, 3, &e), GS_OK);
    const struct dev_arg args[3] = {{0, 60, 1}, {1, 30, 0}, {2, 0, 1}};
    pthread_t th[3];
    for (int i = 0; i < 3; ++i)
        assert_int_equal(pthread_create(&th[i], NULL, device, (void *)&args[i]), 0);
    for (int i = 0; i < 3; ++i)
        pthread_join(th[i], NULL);
    gs_turns_close(tr.t);
    assert_int_equal(tr.norder, 2);
    assert_int_equal(tr.order[0], 0);
    assert_int_equal(tr.order[1], 2);
    assert_int_equal(tr.overlap, 0);
    assert_int_equal(tr.early, 0);
    /* One device, or none: nothing waits. */
    gs_turns_ready(NULL, 0);
    gs_turns_wait(NULL, 0);
    gs_turns_end(NULL, 0);
}

/* A CPU device is held to a floor too, and the worker's times are its
 * word: NaN, 0, a negative or an infinite time, or 1e-300 ms for the speed
 * pass's 768 KiB on two cores, is impossible; a CPU's plausible time is not. */
static void cpu_times_meet_a_floor(void **state)
{
    (void)state;
    const uint64_t bytes = 3ull * 256 * 1024, peak = gs_speed_cpu_peak(2);
    const double bad[] = {NAN, 0.0, -1.0, 1e-300, INFINITY, 1e-7};
    char why[400];
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        if (gs_speed_floor(bytes, bad[i], peak, 0, GS_SPEED_COPY_MARGIN, why, sizeof why) !=
            GS_FLOOR_PEAK) {
            print_error("%g ms was taken as a time\n", bad[i]);
            fail();
        }
        assert_non_null(strstr(why, "impossible"));
    }
    /* 768 KiB in 0.05 ms is 15.7 GB/s: a CPU does that. */
    assert_int_equal(gs_speed_floor(bytes, 0.05, peak, 0, GS_SPEED_COPY_MARGIN, why, sizeof why),
                     GS_FLOOR_OK);
    const double samples[] = {0.05, 0.06, NAN};
    assert_int_equal(gs_speed_samples_valid(samples, 2, why, sizeof why), 1);
    assert_int_equal(gs_speed_samples_valid(samples, 3, why, sizeof why), 0);
    assert_non_null(strstr(why, "launch 3"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cpu_times_meet_a_floor),
        cmocka_unit_test(under_the_peak_is_impossible),
        cmocka_unit_test(far_above_the_copy_is_impossible),
        cmocka_unit_test(a_slowed_copy_makes_no_right_kernel_impossible),
        cmocka_unit_test(stats_of_samples),
        cmocka_unit_test(verdicts_in_words),
        cmocka_unit_test(work_in_words),
        cmocka_unit_test(causes_only_from_evidence),
        cmocka_unit_test(work_per_block_from_times),
        cmocka_unit_test(work_per_block_at_a_smaller_n),
        cmocka_unit_test(turns_in_order_never_side_by_side),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
