/* SPDX-License-Identifier: MIT */
#include "gs_speed.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *x, const void *y)
{
    const double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

void gs_speed_stats(struct gs_speed_row *r)
{
    double s[GS_SPEED_MAX_REPS];
    const int n = r->nsamples < GS_SPEED_MAX_REPS ? r->nsamples : GS_SPEED_MAX_REPS;
    if (n <= 0)
        return;
    memcpy(s, r->samples_ms, (size_t)n * sizeof *s);
    qsort(s, (size_t)n, sizeof *s, cmp_double);
    r->min_ms = s[0];
    r->max_ms = s[n - 1];
    r->med_ms = n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
    r->spread_pct = r->med_ms > 0 ? 100.0 * (r->max_ms - r->min_ms) / r->med_ms : 0;
    r->gbps = r->med_ms > 0 ? (double)r->bytes / (r->med_ms * 1e-3) / 1e9 : 0;
}

enum gs_floor gs_speed_floor(uint64_t bytes, double ms, uint64_t peak_bytes_per_s,
                             double copy_gbps, double margin, char *why, size_t why_size)
{
    const double floor_ms = peak_bytes_per_s ? (double)bytes / (double)peak_bytes_per_s * 1e3
                                             : 0;
    const double gbps = ms > 0 ? (double)bytes / (ms * 1e-3) / 1e9 : 0;
    if (why && why_size)
        why[0] = '\0';
    if (!(ms > 0) || !isfinite(ms)) {
        if (why && why_size)
            snprintf(why, why_size, "impossible: %g ms for %llu bytes is not a time; the timed "
                                    "launch did not produce the output",
                     ms, (unsigned long long)bytes);
        return GS_FLOOR_PEAK;
    }
    if (peak_bytes_per_s && ms < floor_ms) {
        if (why && why_size)
            snprintf(why, why_size, "impossible: %.4g ms for %llu bytes is under the floor of "
                                    "%.4g ms that the device's peak of %.0f GB/s allows; the "
                                    "timed launch did not produce the output",
                     ms, (unsigned long long)bytes, floor_ms, (double)peak_bytes_per_s / 1e9);
        return GS_FLOOR_PEAK;
    }
    if (copy_gbps > 0 && gbps > copy_gbps * (1.0 + margin)) {
        if (why && why_size)
            snprintf(why, why_size, "impossible: %.1f GB/s is more than %.0f%% above the API's "
                                    "own copy at its fastest (%.1f GB/s); the timed launch did "
                                    "not produce the output", gbps, margin * 100, copy_gbps);
        return GS_FLOOR_COPY;
    }
    return GS_FLOOR_OK;
}

uint64_t gs_speed_cpu_peak(unsigned cpus)
{
    return (uint64_t)(cpus ? cpus : 1) * GS_SPEED_CPU_CORE_BYTES_PER_S;
}

int gs_speed_samples_valid(const double *ms, int n, char *why, size_t why_size)
{
    for (int i = 0; i < n; ++i)
        if (!(ms[i] > 0) || !isfinite(ms[i])) {
            snprintf(why, why_size, "impossible: launch %d's time, %g ms, is not a time; the "
                                    "timed launches did not produce the output", i + 1, ms[i]);
            return 0;
        }
    return 1;
}

static const char *const class_names[] = {"not-measured", "as-fast",    "slower",
                                          "too-slow",     "impossible", "wrong"};

const char *gs_speed_class_name(enum gs_speed_class c)
{
    return (unsigned)c < sizeof class_names / sizeof class_names[0] ? class_names[c] : "?";
}

const struct gs_speed_row *gs_speed_find_at(const struct gs_speed *s, enum gs_speed_who who,
                                            uint64_t grid, uint64_t n)
{
    for (int i = 0; i < s->nrows; ++i)
        if (s->rows[i].who == who && (grid == 0 || s->rows[i].grid == grid) &&
            s->rows[i].n == n)
            return &s->rows[i];
    return NULL;
}

const struct gs_speed_row *gs_speed_find(const struct gs_speed *s, enum gs_speed_who who,
                                         uint64_t grid)
{
    return gs_speed_find_at(s, who, grid, s->n);
}

uint64_t gs_speed_blocks_n(uint64_t n, double first_ms, uint64_t grid, uint64_t block)
{
    if (first_ms <= GS_SPEED_BLOCKS_MS || n == 0)
        return n;
    const double want = (double)n * GS_SPEED_BLOCKS_MS / first_ms;
    const uint64_t floor_n = GS_SPEED_BLOCKS_MIN_PER_THREAD * grid * block;
    uint64_t m = want < 1 ? 1 : (uint64_t)want;
    if (m < floor_n)
        m = floor_n;
    return m < n ? m : n;
}

/* The lesson's reading of a slow kernel, by device kind. */
static const char *why_slow(int is_gpu)
{
    return is_gpu ? "the times alone do not say why; the lesson's two mistakes that cost this "
                    "much are a loop that steps by the block, not the grid (each element "
                    "written many times: pitfall 1), and one contiguous chunk per thread (a "
                    "warp's lanes are a chunk apart: 8x the sectors of a coalesced loop); the "
                    "work count, the blocks rule and a .cu kernel's hardware counters tell them "
                    "apart"
                  : "on a CPU the coalescing lesson does not apply (one chunk per thread is "
                    "fast here: each core streams its own chunk); a right kernel this much "
                    "slower does more work than the loop, and the times alone do not say what: "
                    "the work count and the blocks rule say whether it steps by the block";
}

void gs_speed_judge(struct gs_speed *s, uint64_t peak_bytes_per_s, int is_gpu)
{
    /* The copy at its fastest launch: another job on the GPU that slows some
     * of its launches (ctest runs the untimed GPU tests beside the timed ones)
     * must not make a right kernel's median look impossible. */
    const struct gs_speed_row *copy = gs_speed_find(s, GS_SPD_COPY, 0);
    const double copy_gbps = copy && copy->state == GS_SPD_TIMED && copy->min_ms > 0
                                 ? (double)copy->bytes / (copy->min_ms * 1e-3) / 1e9
                                 : 0;
    snprintf(s->rule, sizeof s->rule,
             "ratio = the kernel's GB/s on grid G over the suite's grid-stride loop's on the "
             "same launch (medians of %d); as fast from %.0f%%, or when the two rows' times "
             "overlap (within noise); a first launch over %.0fx the "
             "loop's is not repeated (too slow); a time under bytes / peak, or (on a GPU) more "
             "than %.0f%% above the API's copy at its fastest, is impossible",
             GS_SPEED_REPS, GS_SPEED_FAST_RATIO * 100, GS_SPEED_SLOW_FACTOR,
             GS_SPEED_COPY_MARGIN * 100);
    for (int i = 0; i < s->nrows; ++i) {
        struct gs_speed_row *r = &s->rows[i];
        if (r->state != GS_SPD_TIMED || r->who == GS_SPD_COPY)
            continue;
        char why[sizeof r->why];
        if (gs_speed_floor(r->bytes, r->med_ms, peak_bytes_per_s, is_gpu ? copy_gbps : 0,
                           GS_SPEED_COPY_MARGIN, why, sizeof why) != GS_FLOOR_OK) {
            r->state = GS_SPD_IMPOSSIBLE;
            memcpy(r->why, why, sizeof why);
        }
    }
    s->ratio = 0;
    s->below_min = 0;
    if (!s->measured) {
        s->cls = GS_SPEED_NONE;
        return;
    }
    const struct gs_speed_row *user = gs_speed_find(s, GS_SPD_USER, s->grid);
    const struct gs_speed_row *loop = gs_speed_find(s, GS_SPD_SUITE_GS, s->grid);
    /* Any user row that is wrong or impossible decides. */
    for (int i = 0; i < s->nrows; ++i) {
        const struct gs_speed_row *r = &s->rows[i];
        if (r->who == GS_SPD_USER && (r->state == GS_SPD_WRONG || r->state == GS_SPD_IMPOSSIBLE)) {
            s->cls = r->state == GS_SPD_WRONG ? GS_SPEED_WRONG : GS_SPEED_IMPOSSIBLE;
            snprintf(s->words, sizeof s->words, "%s at n = %llu <<<%llu, %llu>>>: %s",
                     s->cls == GS_SPEED_WRONG ? "wrong when timed" : "impossible time",
                     (unsigned long long)r->n, (unsigned long long)r->grid,
                     (unsigned long long)r->block, r->why);
            s->below_min = 1;
            return;
        }
    }
    if (!user || !loop || loop->state != GS_SPD_TIMED ||
        (user->state != GS_SPD_TIMED && user->state != GS_SPD_TOO_SLOW)) {
        s->cls = GS_SPEED_NONE;
        snprintf(s->words, sizeof s->words, "not measured: %s",
                 user && user->why[0] ? user->why
                 : loop && loop->why[0] ? loop->why
                                        : "the kernel or the suite's loop has no time on grid G");
        return;
    }
    if (user->state == GS_SPD_TOO_SLOW) {
        s->cls = GS_SPEED_TOO_SLOW;
        s->ratio = user->nsamples > 0 && user->samples_ms[0] > 0
                       ? loop->med_ms / user->samples_ms[0]
                       : loop->med_ms / user->limit_ms;
        snprintf(s->words, sizeof s->words,
                 "right, but at least %.0fx slower than the suite's grid-stride loop on the "
                 "same launch (%s %.4g ms against its %.4g ms): %s",
                 1.0 / s->ratio, user->nsamples ? "one launch took" : "one launch ran past",
                 user->nsamples ? user->samples_ms[0] : user->limit_ms, loop->med_ms,
                 why_slow(is_gpu));
    } else {
        s->ratio = loop->gbps > 0 ? user->gbps / loop->gbps : 0;
        /* A gap inside the measured spread names nothing: the two rows' times
         * overlap (the kernel's fastest launch no faster than the loop's
         * slowest, or the other way round). */
        const int noise = s->ratio < GS_SPEED_FAST_RATIO && user->min_ms > 0 &&
                          loop->max_ms > 0 && user->min_ms <= loop->max_ms;
        if (s->ratio >= GS_SPEED_FAST_RATIO || noise) {
            s->cls = GS_SPEED_AS_FAST;
            snprintf(s->words, sizeof s->words, "%.1f GB/s, %.1f%% of the suite's grid-stride "
                                                "loop (%.1f GB/s) on the same launch%s",
                     user->gbps, 100 * s->ratio, loop->gbps,
                     noise ? ": within noise (its times overlap the loop's)" : "");
            if (!is_gpu && s->ratio >= GS_SPEED_CPU_FAST_RATIO) {
                const size_t len = strlen(s->words);
                snprintf(s->words + len, sizeof s->words - len,
                         "; faster than the loop here: on a CPU a thread that walks its own "
                         "contiguous chunk streams it, and if that is this kernel's pattern, "
                         "on a GPU it is the uncoalesced one (seed 002: about 7x slower)");
            }
        } else {
            s->cls = GS_SPEED_SLOWER;
            snprintf(s->words, sizeof s->words,
                     "right, but %.1fx slower than the suite's grid-stride loop on the same "
                     "launch (%.1f against %.1f GB/s): %s",
                     1.0 / s->ratio, user->gbps, loop->gbps, why_slow(is_gpu));
        }
    }
    s->below_min = s->min_speed > 0 && s->ratio < s->min_speed;
}

/* A row's time: its median, or the one launch of a row too slow to repeat. */
static double row_ms(const struct gs_speed_row *r)
{
    if (!r)
        return 0;
    if (r->state == GS_SPD_TIMED)
        return r->med_ms;
    if (r->state == GS_SPD_TOO_SLOW && r->nsamples > 0)
        return r->samples_ms[0];
    return 0;
}

void gs_speed_blocks(struct gs_speed *s)
{
    const uint64_t g2 = GS_SPEED_BLOCK_FACTOR * s->grid;
    s->blocks_judged = s->per_block = 0;
    s->blocks_growth = s->loop_growth = 0;
    snprintf(s->blocks_rule, sizeof s->blocks_rule,
             "at fixed n, the kernel's time on %dG blocks over its time on G; at least %.3gx, "
             "clear of its spread, while the suite's grid-stride loop's grows by at most "
             "%.3gx and the kernel on G is at least %.3gx slower than the loop: work per block "
             "(the loop steps by the block, not the grid)", GS_SPEED_BLOCK_FACTOR,
             GS_SPEED_BLOCK_GROWTH, GS_SPEED_LOOP_GROWTH, GS_SPEED_BLOCK_SLOWER);
    const uint64_t bn = s->blocks_n ? s->blocks_n : s->n;
    const double u1 = row_ms(gs_speed_find_at(s, GS_SPD_USER, s->grid, bn));
    const double u2 = row_ms(gs_speed_find_at(s, GS_SPD_USER, g2, bn));
    const double l1 = row_ms(gs_speed_find_at(s, GS_SPD_SUITE_GS, s->grid, bn));
    const double l2 = row_ms(gs_speed_find_at(s, GS_SPD_SUITE_GS, g2, bn));
    if (!s->measured || s->grid == 0 || u1 <= 0 || u2 <= 0 || l1 <= 0 || l2 <= 0) {
        snprintf(s->blocks_words, sizeof s->blocks_words,
                 "not read: the kernel and the suite's loop need a time on G and on %dG blocks",
                 GS_SPEED_BLOCK_FACTOR);
        return;
    }
    s->blocks_judged = 1;
    s->blocks_growth = u2 / u1;
    s->loop_growth = l2 / l1;
    /* Work per block is G times the loop's work on G: the kernel is slower
     * than the loop there too (one chunk per thread, whose time can also grow
     * with more, shorter chunks on a CPU, is not), and its growth stands
     * clear of its own spread (its fastest launch on 4G slower than its
     * slowest on G). */
    const struct gs_speed_row *r1 = gs_speed_find_at(s, GS_SPD_USER, s->grid, bn);
    const struct gs_speed_row *r2 = gs_speed_find_at(s, GS_SPD_USER, g2, bn);
    const int spread_known = r1->state == GS_SPD_TIMED && r2->state == GS_SPD_TIMED &&
                             r1->max_ms > 0 && r2->min_ms > 0;
    const int clear = !spread_known || r2->min_ms > r1->max_ms;
    s->per_block = s->blocks_growth >= GS_SPEED_BLOCK_GROWTH &&
                   s->loop_growth <= GS_SPEED_LOOP_GROWTH && u1 >= GS_SPEED_BLOCK_SLOWER * l1 &&
                   clear;
    if (s->per_block)
        snprintf(s->blocks_words, sizeof s->blocks_words,
                 "its time grows with the number of blocks at fixed n (at n = %llu: %.4g ms on "
                 "<<<%llu, %llu>>>, %.4g ms on <<<%llu, %llu>>>: %.1fx, while the suite's "
                 "loop's grows %.2fx): it does work per block: the loop steps by the block, "
                 "not the grid (pitfall 1)",
                 (unsigned long long)bn, u1, (unsigned long long)s->grid,
                 (unsigned long long)s->block, u2,
                 (unsigned long long)g2, (unsigned long long)s->block, s->blocks_growth,
                 s->loop_growth);
    else
        snprintf(s->blocks_words, sizeof s->blocks_words,
                 "no work per block read from the times: %.2fx on %dG blocks against G at n = "
                 "%llu (the suite's loop: %.2fx)", s->blocks_growth, GS_SPEED_BLOCK_FACTOR,
                 (unsigned long long)bn, s->loop_growth);
}
