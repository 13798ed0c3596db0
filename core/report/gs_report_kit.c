/* SPDX-License-Identifier: MIT */
#include "gs_report_kit.h"

#include <math.h>
#include <stdio.h>

#include "gs_device.h"

void gs_device_label(const struct gs_device *d, int qualify, char *buf, unsigned size)
{
    if (qualify)
        snprintf(buf, size, "%s [%s]", d->backend->name, d->id);
    else
        snprintf(buf, size, "%s", d->backend->name);
}

/* The grid probe's answer in one line: what the API's work-item functions
 * returned past 2^32, against the true T. */
void gs_probe_line(const struct gs_device *d, char *buf, unsigned size)
{
    const struct gs_grid_probe *p = gs_dev_probed(d);
    if (!p) {
        snprintf(buf, size, "not probed");
    } else if (p->status != GS_OK) {
        snprintf(buf, size, "not probed: %s", p->why);
    } else if (p->global_id != p->item) {
        snprintf(buf, size,
                 "%llu work-items: no work-item reported global id %llu (get_global_id(0) "
                 "is wrong past 2^32 here)",
                 (unsigned long long)p->global, (unsigned long long)p->item);
    } else {
        snprintf(buf, size,
                 "%llu work-items of %llu: get_global_size(0) = %llu (%s); get_global_id(0) "
                 "= %llu (right); groups x local = %llu (%s); the prelude's T = %llu (%s)",
                 (unsigned long long)p->global, (unsigned long long)p->local,
                 (unsigned long long)p->global_size,
                 p->global_size == p->global ? "right"
                 : p->global_size == (p->global & 0xffffffffu) ? "wrapped modulo 2^32"
                                                                : "wrong",
                 (unsigned long long)p->global_id, (unsigned long long)p->groups_x_local,
                 p->groups_x_local == p->global ? "right" : "wrong",
                 (unsigned long long)p->prelude_T,
                 p->prelude_T == p->global ? "right" : "WRONG: grid-stride launches past 2^32 "
                                                       "are not made");
    }
}

void gs_report_wrong_list(const struct gs_verdict *v, const char *indent, struct gs_str *o)
{
    gs_str_printf(o, "%s%12s %10s %8s %6s  %s\n", indent, "index", "block", "thread", "pass",
                  "found");
    for (int w = 0; w < v->listed; ++w) {
        const struct gs_wrong *x = &v->list[w];
        gs_str_printf(o, "%s%12llu %10llu %8llu %6llu  %s%s\n", indent,
                      (unsigned long long)x->index, (unsigned long long)x->owner.block,
                      (unsigned long long)x->owner.thread, (unsigned long long)x->owner.pass,
                      x->unwritten ? "unwritten" : "wrong value",
                      x->owner.launched ? "" : " (no such thread in this launch)");
    }
}


void gs_json_wrong_list(struct gs_jw *w, const struct gs_verdict *v)
{
    gs_jw_array(w, "first_wrong_indices");
    for (int i = 0; i < v->listed; ++i) {
        const struct gs_wrong *x = &v->list[i];
        gs_jw_object(w, NULL);
        gs_jw_u64(w, "index", x->index);
        gs_jw_u64(w, "block", x->owner.block);
        gs_jw_u64(w, "thread", x->owner.thread);
        gs_jw_u64(w, "pass", x->owner.pass);
        gs_jw_bool(w, "launched", x->owner.launched);
        gs_jw_bool(w, "unwritten", x->unwritten);
        gs_jw_end(w, "");
    }
    gs_jw_end(w, "");
}

void gs_json_device(struct gs_jw *w, const struct gs_device *d)
{
    gs_jw_str(w, GS_RK(BACKEND), d->backend->name);
    gs_jw_str(w, GS_RK(DEVICE), d->name);
    gs_jw_str(w, GS_RK(ID), d->id);
    gs_jw_str(w, GS_RK(PLATFORM), d->platform);
    gs_jw_str(w, GS_RK(API_VERSION), d->api_version);
    gs_jw_str(w, GS_RK(DRIVER_VERSION), d->driver_version);
    gs_jw_str(w, GS_RK(ARCH), d->arch);
}

void gs_results_device(struct gs_jw *w, const struct gs_device *d)
{
    gs_json_device(w, d);
    gs_jw_str(w, GS_RK(PCI), d->pci);
    gs_jw_u64(w, GS_RK(COMPUTE_UNITS), d->compute_units);
}

void gs_json_predicted(struct gs_jw *w, const struct gs_launch *l, const struct gs_prediction *p)
{
    if (l->asked_grid) {
        gs_jw_u64(w, "asked_grid", l->asked_grid);
        gs_jw_u64(w, "asked_block", l->asked_block);
    }
    gs_jw_object(w, "predicted");
    gs_jw_str(w, "outcome", gs_outcome_name(p->outcome));
    gs_jw_u64(w, "first_wrong", p->first_wrong);
    gs_jw_u64(w, "wrong", p->wrong);
    gs_jw_str(w, "rule", p->why);
    gs_jw_end(w, "");
}

void gs_report_rate(double v, char *buf, unsigned size)
{
    if (!(v > 0))
        snprintf(buf, size, "0");
    else if (v >= 100)
        snprintf(buf, size, "%.0f", v);
    else if (v >= 10)
        snprintf(buf, size, "%.1f", v);
    else if (v >= 1)
        snprintf(buf, size, "%.2f", v);
    else {
        const int d = (int)ceil(-log10(v)) + 2;
        snprintf(buf, size, "%.*f", d > 12 ? 12 : d, v);
    }
}

void gs_md_provenance(struct gs_str *o, const char *command)
{
    if (command)
        gs_str_printf(o, "Command: `%s`\n\n", command);
    gs_str_printf(o, "Commit: `%s`\n\n", gs_build_commit());
}
