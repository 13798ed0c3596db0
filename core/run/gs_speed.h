/* SPDX-License-Identifier: MIT */
/* How fast a user's kernel is, beside the suite's own loop (`gridstride check`).
 *
 * When every correctness case of check is right, the worker that built the
 * kernel times it at a size that leaves the caches (gs_speed_bytes), on the
 * device grid G and on a grid sized to n, with the backend's device timer:
 * GS_SPEED_WARMUP launches, then the median of GS_SPEED_REPS, each launch on a
 * poisoned output. The suite's own grid-stride add (on the same two
 * launches), its monolithic add (grid sized to n) and the API's own
 * device-to-device copy are timed the same way, by the same worker on the
 * same buffers. The user's last timed output is verified in the parent
 * (gs_verify); the worker's times are untrusted, so no time may beat the
 * floor (gs_speed_floor).
 *
 * This file is the pure part: the statistics, the floor rule and the verdict
 * in the lesson's words, from numbers only (no I/O), so that they are tested
 * on made-up timings (tests/test_speed.c). */
#ifndef GS_SPEED_H
#define GS_SPEED_H

#include <stddef.h>
#include <stdint.h>

#define GS_SPEED_REPS 20
#define GS_SPEED_WARMUP 3
#define GS_SPEED_MAX_REPS 32
#define GS_SPEED_GPU_BYTES (1ull << 30) /* per buffer on a GPU: > 4x any L2 the course meets */
/* Per buffer on a CPU device (the host backend, PoCL), at most: check stays
 * under a second there (the host runs a user kernel in one thread; a
 * block-stride kernel does G times the work), and the figures say what the
 * kernel's work costs, not the memory's speed: the three buffers (768 KiB)
 * may stay in a CPU's L2 or L3 cache. */
#define GS_SPEED_CPU_BYTES (1ull << 18)
/* A kernel faster than the API's own copy by more than this fraction is
 * impossible: the copy reads and writes at the device's practical limit. */
#define GS_SPEED_COPY_MARGIN 0.25
/* A first launch slower than this many times the suite's loop on the same
 * launch is not repeated: the kernel is "at least this much slower". */
#define GS_SPEED_SLOW_FACTOR 20.0
/* At least this fraction of the suite's loop is "as fast"; below, slower. */
#define GS_SPEED_FAST_RATIO 0.9

enum gs_speed_who { GS_SPD_COPY, GS_SPD_SUITE_GS, GS_SPD_SUITE_MONO, GS_SPD_USER };

enum gs_speed_state {
    GS_SPD_TIMED,      /* median of the reps */
    GS_SPD_TOO_SLOW,   /* the first launch ran past the limit: not repeated (one sample or none) */
    GS_SPD_NOT_TIMED,  /* why says why */
    GS_SPD_WRONG,      /* the timed output was wrong (why: the diagnosis) */
    GS_SPD_IMPOSSIBLE  /* faster than the floor (why: which rule) */
};

struct gs_speed_row {
    enum gs_speed_who who;
    uint64_t n, grid, block;
    uint64_t bytes; /* moved per launch: read + written */
    enum gs_speed_state state;
    int nsamples;
    double samples_ms[GS_SPEED_MAX_REPS];
    double med_ms, min_ms, max_ms;
    double spread_pct; /* (max - min) / median x 100 */
    double gbps;       /* bytes / median / 1e9 */
    double limit_ms;   /* TOO_SLOW: the limit its first launch passed */
    double wall_s;     /* the row's wall time in check's parent: its launches, their
                          poisons and samples, the read-back and the verification */
    char why[400];
};

/* What the floor rule found. */
enum gs_floor { GS_FLOOR_OK, GS_FLOOR_PEAK, GS_FLOOR_COPY };

/* The floor no kernel can beat: `bytes` moved in `ms` is impossible when ms
 * is not a positive finite time (NaN, 0, negative, infinite: the worker's
 * word, where the user's code runs), when ms < bytes / peak
 * (peak_bytes_per_s 0: unknown, rule not applied), or when the rate is above
 * copy_gbps x (1 + margin) (copy_gbps 0: no copy measured). why (may be
 * NULL) gets one sentence naming the rule and the numbers. */
enum gs_floor gs_speed_floor(uint64_t bytes, double ms, uint64_t peak_bytes_per_s,
                             double copy_gbps, double margin, char *why, size_t why_size);

/* A CPU device's peak for the floor, which its driver does not give: no core
 * moves more than 1 TB/s, even within its first-level cache (two 64-byte
 * loads and a store a cycle at 5 GHz is 0.96 TB/s), so `cpus` cores move at
 * most cpus TB/s; a time under that is not a time. */
#define GS_SPEED_CPU_CORE_BYTES_PER_S 1000000000000ull
uint64_t gs_speed_cpu_peak(unsigned cpus);

/* 1 when every one of n samples (from the worker) is a positive finite
 * time; else 0, with why naming the first that is not. */
int gs_speed_samples_valid(const double *ms, int n, char *why, size_t why_size);

/* Median, minimum, maximum, spread and GB/s of a timed row's samples
 * (state TIMED; nsamples >= 1). */
void gs_speed_stats(struct gs_speed_row *r);

/* The speed verdict of a run. */
enum gs_speed_class {
    GS_SPEED_NONE,       /* not measured (why in words) */
    GS_SPEED_AS_FAST,    /* ratio >= GS_SPEED_FAST_RATIO */
    GS_SPEED_SLOWER,     /* ratio below it */
    GS_SPEED_TOO_SLOW,   /* too slow to repeat */
    GS_SPEED_IMPOSSIBLE, /* a time under the floor */
    GS_SPEED_WRONG       /* the timed output was wrong */
};

const char *gs_speed_class_name(enum gs_speed_class c); /* "as-fast", "slower", ... */

struct gs_speed {
    int measured; /* the pass ran (else words says why not) */
    uint64_t n, block, grid; /* the size and the device grid G */
    char size_rule[300];     /* how n was chosen */
    int nrows;
    struct gs_speed_row rows[12];
    enum gs_speed_class cls;
    double ratio;  /* user on G / the suite's loop on G; 0 when not known */
    double min_speed; /* --min-speed, 0: none */
    int below_min;    /* ratio < min_speed (exit 1) */
    char words[700];  /* the verdict in the lesson's words */
    char rule[400];   /* the rule that gave it */
    /* Work per block, read off the times at fixed n (gs_speed_blocks): the
     * user's kernel on G and on GS_SPEED_BLOCK_FACTOR x G blocks, beside the
     * suite's loop on both. */
    uint64_t blocks_n;  /* the n of those four rows: n, or GS_SPEED_BLOCKS_N's smaller n
                           for a kernel too slow on G (0: n) */
    int blocks_judged;  /* both user rows and both loop rows have a time */
    int per_block;      /* the rule holds: the loop steps by the block (pitfall 1) */
    double blocks_growth, loop_growth; /* time on 4G over time on G */
    char blocks_words[500];
    char blocks_rule[300];
};

/* The row of `who` on `grid` (0: any) at the pass's n, or NULL. */
const struct gs_speed_row *gs_speed_find(const struct gs_speed *s, enum gs_speed_who who,
                                         uint64_t grid);
/* The same at a given n. */
const struct gs_speed_row *gs_speed_find_at(const struct gs_speed *s, enum gs_speed_who who,
                                            uint64_t grid, uint64_t n);

/* Apply the floor to every timed row (peak and the copy row's rate; the copy
 * rule only on a GPU, where the API's copy runs at the memory's practical
 * limit), then the verdict: cls, ratio, words, rule, below_min. is_gpu: the
 * device is a GPU (on a CPU the coalescing lesson does not apply). */
void gs_speed_judge(struct gs_speed *s, uint64_t peak_bytes_per_s, int is_gpu);

/* Work per block at fixed n, by a rule on the times (pure; the words say why
 * when it cannot be read): a right kernel whose time on 4G blocks is at least
 * GS_SPEED_BLOCK_GROWTH x its time on G, while the suite's grid-stride loop's
 * grows by at most GS_SPEED_LOOP_GROWTH x, and which on G is at least
 * GS_SPEED_BLOCK_SLOWER x slower than the loop, its growth clear of its own
 * spread, does work per block: the loop steps by the block, not the grid
 * (pitfall 1). A row too slow to repeat counts with the time of its one
 * launch. */
#define GS_SPEED_BLOCK_FACTOR 4 /* 4G: a block stride's 4x stands clear of the noise of
                                  single launches, which 2G's 2x did not on a loaded CPU */
#define GS_SPEED_BLOCK_GROWTH 2.0
#define GS_SPEED_LOOP_GROWTH 1.25
#define GS_SPEED_BLOCK_SLOWER 2.0 /* and the kernel on G at least this much slower than the
                                     loop on G */
/* On a CPU device, an as-fast kernel at least this much faster than the loop
 * gets the words on one chunk per thread (fast here, uncoalesced on a GPU). */
#define GS_SPEED_CPU_FAST_RATIO 1.5
void gs_speed_blocks(struct gs_speed *s);

/* The n at which a kernel too slow on grid G has its work per block read:
 * its one launch on G took first_ms at n, and on 4G blocks it would take
 * about 4x that again; at a smaller n the growth is the same (work per block
 * is work at every n) and the launches cost GS_SPEED_BLOCKS_MS on G. n when
 * that is no smaller; never under GS_SPEED_BLOCKS_MIN_PER_THREAD elements
 * per thread of G (below, the suite's loop's time is its launch's overhead,
 * and its growth no longer stands for the memory's). Pure. */
#define GS_SPEED_BLOCKS_MS 40.0
#define GS_SPEED_BLOCKS_MIN_PER_THREAD 16
uint64_t gs_speed_blocks_n(uint64_t n, double first_ms, uint64_t grid, uint64_t block);

#endif
