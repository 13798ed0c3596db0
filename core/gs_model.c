#include "gs_model.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "gs_device.h"

static const char *outcome_name(enum gs_outcome o)
{
    return o == GS_OUT_OK ? "ok" : o == GS_OUT_WRONG ? "wrong" : "refused";
}

/* How many leading elements a launch of T threads writes, by the kernel's
 * rule: one per thread, C per thread, or all of them once any thread runs. */
static uint64_t coverage(const struct gs_kernel_info *k, const struct gs_launch *l)
{
    const uint64_t T = l->global;
    if (T == 0)
        return 0;
    if (k->rule == GS_RULE_COVER)
        return T;
    if (k->param == GS_PARAM_CHUNK)
        return (l->param && T > UINT64_MAX / l->param) ? UINT64_MAX : T * l->param;
    return UINT64_MAX;
}

/* Append to a fixed buffer. A rule too long for the buffer is cut: the
 * outcome, not its wording, is the prediction. */
static void append(char *buf, size_t size, const char *fmt, ...)
{
    const size_t len = strlen(buf);
    va_list ap;
    if (len + 1 >= size)
        return;
    va_start(ap, fmt);
    vsnprintf(buf + len, size - len, fmt, ap);
    va_end(ap);
}

void gs_predict(const struct gs_device *dev, const struct gs_launch *l,
                struct gs_prediction *p)
{
    char rule[160];
    const struct gs_kernel_info *k = gs_kernel_info(l->kernel);
    const uint64_t covered = coverage(k, l);
    const int accepts = gs_dev_predicts_accept(dev, l, rule, sizeof rule);

    *p = (struct gs_prediction){0};
    /* What the launch computes once an API runs it, refused or not: a
     * deviation is judged against it (gs_prediction_holds). */
    p->as_run.outcome = covered < l->n ? GS_OUT_WRONG : GS_OUT_OK;
    p->as_run.first_wrong = covered < l->n ? covered : 0;
    p->as_run.wrong = covered < l->n ? l->n - covered : 0;
    if (!accepts) {
        p->outcome = GS_OUT_REFUSED;
        append(p->why, sizeof p->why, "%s should refuse: %s", dev->backend->name, rule);
        return;
    }
    p->outcome = p->as_run.outcome;
    p->first_wrong = p->as_run.first_wrong;
    p->wrong = p->as_run.wrong;
    /* An API rule that let the launch through is part of the prediction. */
    if (rule[0])
        append(p->why, sizeof p->why, "%s: %s; ", dev->backend->name, rule);
    if (covered < l->n)
        append(p->why, sizeof p->why,
               "%s on %llu threads writes the first %llu of %llu elements only", k->name,
               (unsigned long long)l->global, (unsigned long long)covered,
               (unsigned long long)l->n);
    else
        append(p->why, sizeof p->why, "%s on %llu threads covers all %llu elements", k->name,
               (unsigned long long)l->global, (unsigned long long)l->n);
}

enum gs_outcome gs_observed(const struct gs_launch_result *r, const struct gs_verdict *v)
{
    if (!r->accepted)
        return GS_OUT_REFUSED;
    return v->diag == 0 ? GS_OUT_OK : GS_OUT_WRONG;
}

/* The API ran a launch its claimed version refuses, and the buffers hold
 * exactly what that launch computes: every element the kernel owns right,
 * the others untouched, the guard intact. */
static int ran_as_predicted(const struct gs_prediction *p, const struct gs_launch_result *r,
                            const struct gs_verdict *v)
{
    const enum gs_outcome seen = gs_observed(r, v);
    return p->outcome == GS_OUT_REFUSED && r->accepted && seen == p->as_run.outcome &&
           v->guard_hits == 0 && v->wrong == p->as_run.wrong && v->unwritten == v->wrong &&
           (seen == GS_OUT_OK || v->first_wrong == p->as_run.first_wrong);
}

int gs_prediction_holds(const struct gs_prediction *p, const struct gs_launch_result *r,
                        const struct gs_verdict *v, char *why, unsigned why_size)
{
    const enum gs_outcome seen = gs_observed(r, v);
    if (why_size)
        why[0] = '\0';
    if (ran_as_predicted(p, r, v)) {
        snprintf(why, why_size, "the API ran, correctly, a launch that the version it claims "
                                "refuses: a deviation of the implementation, not of the kernel");
        return GS_HELD_DEVIATION;
    }
    if (seen != p->outcome) {
        snprintf(why, why_size, "predicted %s, observed %s", outcome_name(p->outcome),
                 outcome_name(seen));
        return GS_HELD_NO;
    }
    if (seen == GS_OUT_WRONG && (v->first_wrong != p->first_wrong || v->wrong != p->wrong ||
                                 v->unwritten != v->wrong || v->guard_hits != 0)) {
        snprintf(why, why_size,
                 "predicted %llu unwritten from index %llu, observed %llu wrong (%llu unwritten) "
                 "from index %llu, %llu guard elements overwritten",
                 (unsigned long long)p->wrong, (unsigned long long)p->first_wrong,
                 (unsigned long long)v->wrong, (unsigned long long)v->unwritten,
                 (unsigned long long)v->first_wrong, (unsigned long long)v->guard_hits);
        return GS_HELD_NO;
    }
    if (seen == GS_OUT_REFUSED && (v->unwritten != v->n || v->guard_hits != 0)) {
        snprintf(why, why_size, "the API refused the launch, yet %llu elements were written",
                 (unsigned long long)(v->n - v->unwritten + v->guard_hits));
        return GS_HELD_NO;
    }
    return GS_HELD_YES;
}
