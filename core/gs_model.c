#include "gs_model.h"

#include <stdio.h>

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

void gs_predict(const struct gs_device *dev, const struct gs_launch *l,
                struct gs_prediction *p)
{
    char why[160];
    const struct gs_kernel_info *k = gs_kernel_info(l->kernel);

    *p = (struct gs_prediction){0};
    if (!gs_dev_predicts_accept(dev, l, why, sizeof why)) {
        p->outcome = GS_OUT_REFUSED;
        snprintf(p->why, sizeof p->why, "%s should refuse: %s", dev->backend->name, why);
        return;
    }
    /* An API rule that let the launch through is part of the prediction. */
    char api[200] = "";
    if (why[0])
        snprintf(api, sizeof api, "%s: %s; ", dev->backend->name, why);
    const uint64_t covered = coverage(k, l);
    if (covered < l->n) {
        p->outcome = GS_OUT_WRONG;
        p->first_wrong = covered;
        p->wrong = l->n - covered;
        snprintf(p->why, sizeof p->why,
                 "%s%s on %llu threads writes the first %llu of %llu elements only", api, k->name,
                 (unsigned long long)l->global, (unsigned long long)covered,
                 (unsigned long long)l->n);
        return;
    }
    p->outcome = GS_OUT_OK;
    snprintf(p->why, sizeof p->why, "%s%s on %llu threads covers all %llu elements", api, k->name,
             (unsigned long long)l->global, (unsigned long long)l->n);
}

enum gs_outcome gs_observed(const struct gs_launch_result *r, const struct gs_verdict *v)
{
    if (!r->accepted)
        return GS_OUT_REFUSED;
    return v->diag == 0 ? GS_OUT_OK : GS_OUT_WRONG;
}

int gs_prediction_holds(const struct gs_prediction *p, const struct gs_launch_result *r,
                        const struct gs_verdict *v, char *why, unsigned why_size)
{
    const enum gs_outcome seen = gs_observed(r, v);
    if (why_size)
        why[0] = '\0';
    if (seen != p->outcome) {
        snprintf(why, why_size, "predicted %s, observed %s", outcome_name(p->outcome),
                 outcome_name(seen));
        return 0;
    }
    if (seen == GS_OUT_WRONG && (v->first_wrong != p->first_wrong || v->wrong != p->wrong ||
                                 v->unwritten != v->wrong || v->guard_hits != 0)) {
        snprintf(why, why_size,
                 "predicted %llu unwritten from index %llu, observed %llu wrong (%llu unwritten) "
                 "from index %llu, %llu guard elements overwritten",
                 (unsigned long long)p->wrong, (unsigned long long)p->first_wrong,
                 (unsigned long long)v->wrong, (unsigned long long)v->unwritten,
                 (unsigned long long)v->first_wrong, (unsigned long long)v->guard_hits);
        return 0;
    }
    if (seen == GS_OUT_REFUSED && (v->unwritten != v->n || v->guard_hits != 0)) {
        snprintf(why, why_size, "the API refused the launch, yet %llu elements were written",
                 (unsigned long long)(v->n - v->unwritten + v->guard_hits));
        return 0;
    }
    return 1;
}
