/* SPDX-License-Identifier: MIT */
/* `gridstride bandwidth --sweep`: what the grid-stride loop costs at small n.
 *
 * One vector add, timed one launch at a time at n = 2^10, 2^11, ... floats
 * (up to 2^28, or less when the plan's max_n is smaller), three ways:
 *   monolithic          GS_K_ADD_MONO on ceil(n / B) blocks;
 *   grid-stride on G    GS_K_ADD_GS on the device grid G at every n;
 *   grid-stride on fit  GS_K_ADD_GS on min(G, ceil(n / B)) blocks.
 * Every (n, variant) is verified once on a poisoned output before it is
 * timed; a wrong one gets no numbers. One workspace serves every size: it
 * is opened at the largest n and each launch covers the first n elements
 * (the poison, the guard and the comparison follow launch.n).
 *
 * The crossover of a variant against monolithic: the smallest n of the
 * sweep from which the variant's median is within GS_SWEEP_TOLERANCE of
 * monolithic's (or below it) at that n and at every larger n of the sweep. */
#ifndef GS_SWEEP_H
#define GS_SWEEP_H

#include "gs_backend.h"
#include "gs_progress.h"

#define GS_SWEEP_MIN_LOG2 10
#define GS_SWEEP_MAX_LOG2 28
#define GS_SWEEP_MAX_SIZES (GS_SWEEP_MAX_LOG2 - GS_SWEEP_MIN_LOG2 + 1)
#define GS_SWEEP_TOLERANCE 0.02 /* "as fast": at most 2% slower */

enum gs_sweep_variant { GS_SV_MONO, GS_SV_GS_G, GS_SV_GS_FIT, GS_SWEEP_VARIANTS };

/* "monolithic", "grid-stride on G", "grid-stride on min(G, ceil(n/B))". */
const char *gs_sweep_variant_label(enum gs_sweep_variant v);
/* For JSON and CSV: "monolithic", "grid-stride-G", "grid-stride-fit". */
const char *gs_sweep_variant_id(enum gs_sweep_variant v);
/* The variant's grid as a rule: "ceil(n / B)", "G", "min(G, ceil(n / B))". */
const char *gs_sweep_variant_grid_rule(enum gs_sweep_variant v);

/* One variant at one size. */
struct gs_sweep_point {
    struct gs_launch launch; /* buffers bound only while it runs */
    int verified;            /* 1: right before timing, and timed */
    char wrong[320];         /* when !verified: what was wrong (then no numbers) */
    double med_us, min_us, max_us, mean_us, sd_us; /* sd: sample (n - 1) */
    double gbps;             /* bytes read + written / median / 1e9 */
    double *samples_us;      /* reps of them, in the order they were taken */
};

struct gs_sweep_plan {
    uint64_t max_n;  /* the largest size wanted: the sweep's top is the largest
                        power of two <= min(max_n, 2^GS_SWEEP_MAX_LOG2), >= 2^10 */
    unsigned reps;   /* timed repetitions per point, at least 1 */
    unsigned warmup; /* untimed launches before them */
    unsigned block;  /* B; 0: GS_DEFAULT_BLOCK */
    uint64_t grid;   /* G; 0: the device's (gs_dev_grid) */
    /* Told after each size (a step: the backend, size of sizes, "n = N
     * done"); may be NULL. */
    const struct gs_progress *progress;
};

/* Where a variant's crossover against monolithic lies (gs_sweep_crossover). */
enum gs_crossover_kind {
    GS_XO_FOUND,     /* index: the first size of the crossover */
    GS_XO_NONE,      /* slower than monolithic beyond the tolerance at the largest n */
    GS_XO_INCOMPLETE /* a size lacks a time (a wrong point): not computed */
};

struct gs_crossover {
    enum gs_crossover_kind kind;
    int index; /* GS_XO_FOUND: the size index; else -1 */
};

struct gs_sweep {
    struct gs_device *dev;
    uint64_t grid, threads; /* G and G x B */
    unsigned block, reps, warmup;
    char grid_rule[200];
    int nsizes;
    uint64_t n[GS_SWEEP_MAX_SIZES];
    struct gs_sweep_point pts[GS_SWEEP_MAX_SIZES][GS_SWEEP_VARIANTS];
    char stopped[400];     /* sizes above n[nsizes - 1] left out, and why; "" if none */
    int wrong_points;      /* points that failed verification */
    struct gs_crossover xo[GS_SWEEP_VARIANTS]; /* against monolithic; [GS_SV_MONO] unused */
    double *samples;       /* every point's samples (owned; gs_sweep_free) */
};

/* Run the sweep on dev into *s (zeroed first; release with gs_sweep_free,
 * also after a failure). Sizes above which the device would refuse a
 * variant's launch are left out, and s->stopped says why; when even 2^10
 * cannot run, GS_USAGE. */
int gs_sweep_run(struct gs_device *dev, const struct gs_sweep_plan *plan, struct gs_sweep *s,
                 struct gs_err *e);
void gs_sweep_free(struct gs_sweep *s);

/* The crossover of `cand` against `base` (medians at count sizes of
 * ascending n): the smallest index k such that, at every index j >= k,
 * cand[j] <= (1 + tol) * base[j]. A median that is NaN or negative is
 * missing: then GS_XO_INCOMPLETE (and for count == 0). GS_XO_NONE when the
 * largest size already fails. Pure: no device, no state. */
struct gs_crossover gs_sweep_crossover(const double *base, const double *cand, int count,
                                       double tol);
/* The first size index from which "grid-stride on fit" is the same launch
 * as "grid-stride on G" (min(G, ceil(n / B)) = G: n > (G - 1) x B): their
 * lines coincide from there on. -1 when no size of the sweep gets there. */
int gs_sweep_same_launch_from(const struct gs_sweep *s);
/* s->xo of each grid-stride variant from s's points (gs_sweep_run calls it;
 * a point that is not verified is a missing median). */
void gs_sweep_crossovers(struct gs_sweep *s);

#endif
