/* SPDX-License-Identifier: MIT */
#include "gs_model.h"

#include <stdio.h>

#include "gs_device.h"

/* Trips the suite waits for: a GPU does about 10^11 simple trips a second,
 * a CPU device one thread at a time about 10^9. Both budgets are seconds. */
#define GS_GPU_TRIP_BUDGET (1ull << 38)
#define GS_CPU_TRIP_BUDGET (1ull << 32)

const char *gs_outcome_name(enum gs_outcome o)
{
    static const char *const names[] = {"ok", "wrong", "refused", "not launched", "undefined"};
    return names[o];
}

uint64_t gs_model_stride(unsigned bits, uint64_t T)
{
    return bits >= 64 ? T : T & ((1ull << bits) - 1);
}

/* F(x) = sum of ceil(j / s) for j = 1..x, in 128 bits. */
static unsigned __int128 ceil_sum(uint64_t x, uint64_t s)
{
    const unsigned __int128 q = x / s, r = x % s;
    return (unsigned __int128)s * q * (q + 1) / 2 + r * (q + 1);
}

uint64_t gs_model_trips(uint64_t n, uint64_t T, uint64_t s)
{
    const uint64_t m = T < n ? T : n; /* threads that enter the loop */
    if (m == 0)
        return 0;
    if (s == 0)
        return UINT64_MAX;
    /* thread t takes ceil((n - t) / s) trips: j = n - t runs over n - m + 1 .. n */
    const unsigned __int128 trips = ceil_sum(n, s) - ceil_sum(n - m, s);
    return trips > UINT64_MAX ? UINT64_MAX : (uint64_t)trips;
}

unsigned gs_model_t_bits(const struct gs_device *dev)
{
    const struct gs_grid_probe *p = gs_dev_probed(dev);
    if (p && p->status == GS_OK && p->prelude_T != p->global)
        return 32;
    return 64;
}

uint64_t gs_model_trip_budget(const struct gs_device *dev)
{
    return dev->is_gpu ? GS_GPU_TRIP_BUDGET : GS_CPU_TRIP_BUDGET;
}

#define GS_2_31 (1ull << 31)
#define GS_2_32 (1ull << 32)

static uint64_t min_u64(uint64_t a, uint64_t b)
{
    return a < b ? a : b;
}

/* The stride a grid-stride loop steps by on dev: T as its prelude computes
 * it, or T mod 2^32 for the kernel that leaves out the cast. */
static uint64_t loop_stride(const struct gs_kernel_info *k, const struct gs_launch *l,
                            unsigned t_bits)
{
    return gs_model_stride(k->rule == GS_RULE_STRIDE32 ? 32 : t_bits, l->global);
}

static int steps_by_t(const struct gs_kernel_info *k)
{
    return (k->rule == GS_RULE_ANY && k->param != GS_PARAM_CHUNK) || k->rule == GS_RULE_STRIDE32;
}

/* The first element the launch leaves unwritten (every rule's unwritten
 * elements are a tail), or n when it writes them all. */
static uint64_t covered_prefix(const struct gs_kernel_info *k, const struct gs_launch *l)
{
    const uint64_t T = l->global, n = l->n;
    if (T == 0)
        return 0;
    switch (k->rule) {
    case GS_RULE_COVER:
        return min_u64(n, T);
    case GS_RULE_INDEX32: /* a 32-bit index reaches below 2^32 only */
        return min_u64(n, min_u64(T, GS_2_32));
    case GS_RULE_INT_LOOP: /* an int index reaches below 2^31 only */
        return min_u64(n, GS_2_31);
    case GS_RULE_TILE:
        return (l->param && l->grid > UINT64_MAX / l->param) ? n
                                                             : min_u64(n, l->grid * l->param);
    case GS_RULE_ROWS: {
        const uint64_t rows = l->grid_y ? l->grid_y : 1;
        return (l->param && rows > UINT64_MAX / l->param) ? n : min_u64(n, rows * l->param);
    }
    default:
        if (k->param == GS_PARAM_CHUNK)
            return (l->param && T > UINT64_MAX / l->param) ? n : min_u64(n, T * l->param);
        return n;
    }
}

uint64_t gs_model_count_run(const struct gs_launch *l, unsigned t_bits, uint64_t i,
                            uint64_t end, uint64_t *count)
{
    const struct gs_kernel_info *k = gs_kernel_info(l->kernel);
    const uint64_t T = l->global;
    const uint64_t prefix = k ? covered_prefix(k, l) : 0;
    *count = 0;
    if (i >= prefix) /* past the covered prefix: unwritten */
        return end;
    end = min_u64(end, prefix);
    if (k->rule == GS_RULE_INDEX32) {
        /* threads i, i + 2^32, ... below T: d / 2^32 + 1 for d = T - 1 - i,
         * the same while d stays above its multiple of 2^32 */
        const uint64_t d = T - 1 - i;
        *count = (d >> 32) + 1;
        return min_u64(end, T - ((d >> 32) << 32));
    }
    const int block = k->rule == GS_RULE_BLOCK_STRIDE;
    if (!block && !steps_by_t(k)) {
        *count = 1;
        return end;
    }
    /* In runs of one quotient q = i / s, each cut where the value changes:
     *   the block stride (s = B): every block b <= q, at most the grid;
     *   a stride s over T threads: the threads t <= i with t = i mod s,
     *   t < T; below T, q + 1; from T on (T - 1 = Q s + R), Q + 1 where
     *   r = i mod s <= R, Q where it is larger, 0 where it passes T - 1 (a
     *   stride above T). */
    const uint64_t s = block ? l->block : loop_stride(k, l, t_bits);
    if (s == 0) /* never launched */
        return end;
    const uint64_t q = i / s, r = i % s, Q = (T - 1) / s, R = (T - 1) % s;
    uint64_t to = min_u64(end, i + (s - r));
    if (block) {
        *count = min_u64(l->grid, q + 1);
    } else if (i < T) {
        to = min_u64(to, T);
        *count = q + 1;
    } else if (r <= R) {
        to = min_u64(to, i + (R - r) + 1);
        *count = Q + 1;
    } else if (r <= T - 1) {
        to = min_u64(to, i + (T - 1 - r) + 1);
        *count = Q;
    }
    return to;
}

uint64_t gs_model_count(const struct gs_launch *l, unsigned t_bits, uint64_t i)
{
    uint64_t count;
    gs_model_count_run(l, t_bits, i, i + 1, &count);
    return count;
}

/* Loop trips of all threads, by the kernel's rule: what the launch costs. */
static uint64_t total_trips(const struct gs_kernel_info *k, const struct gs_launch *l,
                            unsigned t_bits)
{
    if (steps_by_t(k))
        return gs_model_trips(l->n, l->global, loop_stride(k, l, t_bits));
    if (k->rule == GS_RULE_UNDEFINED) /* at most the widened loop's: every element once */
        return gs_model_trips(l->n, l->global, l->global);
    if (k->rule == GS_RULE_BLOCK_STRIDE && l->block) {
        /* block b is a grid-stride loop of B threads over n - bB elements */
        const unsigned __int128 m = min_u64(l->grid, l->n / l->block + (l->n % l->block != 0));
        const unsigned __int128 t = m * l->n - (unsigned __int128)l->block * m * (m - 1) / 2;
        return t > UINT64_MAX ? UINT64_MAX : (uint64_t)t;
    }
    return min_u64(l->n, l->global) + l->grid; /* one pass at most */
}

/* Whether the launch can finish, and can run safely at all. */
static int cannot_finish(const struct gs_device *dev, const struct gs_kernel_info *k,
                         const struct gs_launch *l, char *why, unsigned size)
{
    const unsigned bits = gs_model_t_bits(dev);
    if (k->rule == GS_RULE_INT_LOOP_SIGNED && l->n > 0 &&
        (unsigned __int128)l->n + l->global > GS_2_31) {
        snprintf(why, size,
                 "would write before the buffer: an index past 2^31 - 1 wraps negative, and "
                 "with a signed n it passes i < n (n = %llu, T = %llu)",
                 (unsigned long long)l->n, (unsigned long long)l->global);
        return 1;
    }
    if ((k->rule == GS_RULE_INT_LOOP || k->rule == GS_RULE_INT_LOOP_SIGNED ||
         k->rule == GS_RULE_UNDEFINED) &&
        l->global >= GS_2_31) {
        snprintf(why, size,
                 "T = %llu >= 2^31: the int stride is negative, a loop the suite does not "
                 "launch", (unsigned long long)l->global);
        return 1;
    }
    if (steps_by_t(k) && l->n > 0 && l->global > 0 && loop_stride(k, l, bits) == 0) {
        snprintf(why, size,
                 "would not terminate: the loop steps by T mod 2^32 = 0 at T = %llu%s",
                 (unsigned long long)l->global,
                 k->rule == GS_RULE_STRIDE32 ? " (the product without the cast)"
                                             : " (the grid probe measured this device's T in "
                                               "32 bits)");
        return 1;
    }
    const uint64_t trips = total_trips(k, l, bits);
    if (trips > gs_model_trip_budget(dev)) {
        snprintf(why, size,
                 "would not finish in time: %llu%s loop trips for %llu elements (the suite "
                 "waits for %llu on this device)",
                 (unsigned long long)trips, trips == UINT64_MAX ? "+" : "",
                 (unsigned long long)l->n, (unsigned long long)gs_model_trip_budget(dev));
        return 1;
    }
    return 0;
}

/* The coverage prediction, as if the API runs the launch. */
static void predict_coverage(const struct gs_kernel_info *k, const struct gs_launch *l,
                             const char *api, struct gs_prediction *p)
{
    const uint64_t covered = covered_prefix(k, l);
    if (covered < l->n) {
        p->outcome = GS_OUT_WRONG;
        p->first_wrong = covered;
        p->wrong = l->n - covered;
        snprintf(p->why, sizeof p->why,
                 "%s%s on %llu threads writes the first %llu of %llu elements only", api, k->name,
                 (unsigned long long)l->global, (unsigned long long)covered,
                 (unsigned long long)l->n);
    } else {
        p->outcome = GS_OUT_OK;
        snprintf(p->why, sizeof p->why, "%s%s on %llu threads covers all %llu elements", api,
                 k->name, (unsigned long long)l->global, (unsigned long long)l->n);
    }
    p->if_accepted = p->outcome;
    p->if_first_wrong = p->first_wrong;
    p->if_wrong = p->wrong;
}

void gs_predict(const struct gs_device *dev, const struct gs_launch *l,
                struct gs_prediction *p)
{
    char why[160], stop[200];
    const struct gs_kernel_info *k = gs_kernel_info(l->kernel);

    *p = (struct gs_prediction){0};
    p->grid = l->grid;
    p->block = l->block;
    const int accept = gs_dev_predicts_accept(dev, l, why, sizeof why);
    if (accept == GS_NOT_SENT) {
        p->outcome = p->if_accepted = GS_OUT_NOT_LAUNCHED;
        snprintf(p->why, sizeof p->why, "not sent to %s: %s", dev->backend->name, why);
        return;
    }
    if (cannot_finish(dev, k, l, stop, sizeof stop)) {
        p->outcome = p->if_accepted = GS_OUT_NOT_LAUNCHED;
        snprintf(p->why, sizeof p->why, "%s", stop);
        return;
    }
    if (k->rule == GS_RULE_UNDEFINED) {
        /* The course's literal text: what its compiler made of the overflow
         * is recorded, never predicted (kernels/gs_pitfalls.h). */
        p->outcome = p->if_accepted = GS_OUT_UNDEFINED;
        snprintf(p->why, sizeof p->why,
                 "undefined: recorded, not predicted (an int index past 2^31 - 1 is signed "
                 "overflow at n = %llu)",
                 (unsigned long long)l->n);
        return;
    }
    if (accept == GS_REFUSES) {
        predict_coverage(k, l, "", p);
        p->outcome = GS_OUT_REFUSED;
        p->first_wrong = p->wrong = 0;
        snprintf(p->why, sizeof p->why, "%s should refuse: %s", dev->backend->name, why);
        return;
    }
    /* An API rule that let the launch through, and a runtime's grant, are
     * part of the prediction. */
    char api[200] = "";
    if (why[0])
        snprintf(api, sizeof api, "%s: %s; ", dev->backend->name, why);
    else if (l->asked_grid)
        snprintf(api, sizeof api, "%s grants %llu x %llu for <<<%llu, %llu>>>; ",
                 dev->backend->name, (unsigned long long)l->grid, (unsigned long long)l->block,
                 (unsigned long long)l->asked_grid, (unsigned long long)l->asked_block);
    predict_coverage(k, l, api, p);
}

void gs_launch_shape(const struct gs_launch *l, char *buf, unsigned size)
{
    const uint64_t grid = l->asked_grid ? l->asked_grid : l->grid;
    const uint64_t block = l->asked_grid ? l->asked_block : l->block;
    if (l->grid_y > 1)
        snprintf(buf, size, "<<<(%llu, %llu), %llu>>>", (unsigned long long)grid,
                 (unsigned long long)l->grid_y, (unsigned long long)block);
    else if (l->asked_grid)
        snprintf(buf, size, "<<<%llu, %llu>>> granted %llu x %llu", (unsigned long long)grid,
                 (unsigned long long)block, (unsigned long long)l->grid,
                 (unsigned long long)l->block);
    else
        snprintf(buf, size, "<<<%llu, %llu>>>", (unsigned long long)grid,
                 (unsigned long long)block);
}

enum gs_outcome gs_observed(const struct gs_launch_result *r, const struct gs_verdict *v)
{
    if (r->not_sent)
        return GS_OUT_NOT_LAUNCHED;
    if (!r->accepted)
        return GS_OUT_REFUSED;
    return gs_verdict_clean(v) ? GS_OUT_OK : GS_OUT_WRONG;
}

/* The verdict of an accepted launch against a coverage prediction. */
static int coverage_holds(enum gs_outcome o, uint64_t first_wrong, uint64_t wrong,
                          const struct gs_verdict *v)
{
    if (o == GS_OUT_OK)
        return v->diag == 0;
    return v->diag != 0 && v->first_wrong == first_wrong && v->wrong == wrong &&
           v->unwritten == v->wrong && v->guard_hits == 0;
}

int gs_prediction_holds(const struct gs_prediction *p, const struct gs_launch_result *r,
                        const struct gs_verdict *v, char *why, unsigned why_size)
{
    const enum gs_outcome seen = gs_observed(r, v);
    if (why_size)
        why[0] = '\0';
    if (r->accepted && r->granted_grid &&
        (r->granted_grid != p->grid || r->granted_block != p->block)) {
        snprintf(why, why_size,
                 "the runtime ran %llu x %llu, not the %llu x %llu it granted before the launch",
                 (unsigned long long)r->granted_grid, (unsigned long long)r->granted_block,
                 (unsigned long long)p->grid, (unsigned long long)p->block);
        return GS_FAILED;
    }
    if (p->outcome == GS_OUT_REFUSED && r->accepted &&
        coverage_holds(p->if_accepted, p->if_first_wrong, p->if_wrong, v)) {
        snprintf(why, why_size,
                 "deviation: predicted refused from the device's own report, yet the API "
                 "accepted it and the output is exactly as coverage predicts (%s)",
                 gs_outcome_name(seen));
        return GS_DEVIATION;
    }
    if (seen != p->outcome) {
        snprintf(why, why_size, "predicted %s, observed %s", gs_outcome_name(p->outcome),
                 gs_outcome_name(seen));
        return GS_FAILED;
    }
    if (seen == GS_OUT_WRONG && !coverage_holds(p->outcome, p->first_wrong, p->wrong, v)) {
        snprintf(why, why_size,
                 "predicted %llu unwritten from index %llu, observed %llu wrong (%llu unwritten) "
                 "from index %llu, %llu guard elements overwritten",
                 (unsigned long long)p->wrong, (unsigned long long)p->first_wrong,
                 (unsigned long long)v->wrong, (unsigned long long)v->unwritten,
                 (unsigned long long)v->first_wrong, (unsigned long long)v->guard_hits);
        return GS_FAILED;
    }
    if (seen == GS_OUT_REFUSED && (v->unwritten != v->n || v->guard_hits != 0)) {
        snprintf(why, why_size, "the API refused the launch, yet %llu elements were written",
                 (unsigned long long)(v->n - v->unwritten + v->guard_hits));
        return GS_FAILED;
    }
    return GS_HELD;
}

void gs_judge(const struct gs_prediction *p, const struct gs_launch_result *r,
              const struct gs_verdict *v, int *held, int *deviation, char *why,
              unsigned why_size)
{
    if (p->outcome == GS_OUT_UNDEFINED) {
        /* Recorded, not judged: whatever the compiler's code did holds. */
        if (why_size)
            why[0] = '\0';
        *held = 1;
        *deviation = 0;
        return;
    }
    const int holds = gs_prediction_holds(p, r, v, why, why_size);
    *held = holds != GS_FAILED;
    *deviation = holds == GS_DEVIATION;
}
