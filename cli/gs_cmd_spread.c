/* SPDX-License-Identifier: MIT */
/* `gridstride bandwidth --spread`: core/run/gs_spread.h on each selected device.
 *
 * Devices are chosen as for `bandwidth` (without --backend, the GPU APIs;
 * the reference backend when named), and the size by its rule, from 1 GiB
 * per buffer on a GPU. A device whose backend cannot record
 * per-unit finish times is listed in the report as "not available: <why>";
 * when no selected device can, that is the one line of an exit 2.
 * Exit status: 0 every launch verified; 1 a launch computed a wrong result;
 * 2 bad usage, or no selected device records per-unit finish times. */
#include <stdio.h>
#include <string.h>

#include "gs_driver.h"
#include "gs_plan_run.h"
#include "gs_registry.h"
#include "gs_run.h"
#include "gs_device.h"
#include "gs_spread.h"
#include "gs_spread_report.h"

/* 1 GiB per buffer on a GPU, the size of the course's comparisons and of
 * the first measurement by hand (bandwidth's rows default to 4 GiB, where
 * the last wave's tail weighs a quarter as much: this mode shows that
 * tail). Less where it does not fit; --bytes sets it. */
#define GS_SPREAD_DEFAULT_BYTES (1ull << 30)

/* The compiled-in backends that record timelines, for the fix of a refusal. */
static void recording_backends(char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < gs_registry_count(); ++i) {
        const struct gs_backend *b = gs_registry_at(i);
        if (gs_backend_has_timeline(b) && len < size)
            len += (size_t)snprintf(buf + len, size - len, "%s%s", len ? " or " : "", b->name);
    }
}

/* No selected device can: one line naming each, and what to do. */
static int none_available(const struct gs_job *j, struct gs_err *e)
{
    char why[sizeof e->msg], backends[128];
    size_t len = 0;
    why[0] = '\0';
    for (int i = 0; i < j->ndevs && len < sizeof why; ++i) {
        const struct gs_spread *r = gs_job_slot(j, i);
        len += (size_t)snprintf(why + len, sizeof why - len, "%s%s (%s): not available: %s",
                                i ? ", nor on " : "", r->dev->backend->name, r->dev->name,
                                r->why);
    }
    recording_backends(backends, sizeof backends);
    if (backends[0])
        return gs_err_set(e, GS_USAGE, "bandwidth --spread: %s; run it with --backend %s on a "
                                       "device that records them", why, backends);
    return gs_err_set(e, GS_USAGE, "bandwidth --spread: %s; no backend of this build records "
                                   "per-unit finish times (docs/results/README.md, \"One wave "
                                   "is not enough\")", why);
}

struct spread_ctx {
    struct gs_spread_plan plan; /* first: the engine's hooks take it */
    struct gs_device *measured[GS_MAX_DEVICES]; /* those that record finish times */
    int nmeasured;
};

/* Every device but the reference (unless named) is probed into its slot;
 * one that could record but whose limits refuse --block is left out with a
 * note. */
static int spread_select(struct gs_job *j, struct gs_err *e)
{
    struct spread_ctx *c = j->ctx;
    const struct gs_cli *cli = j->cli;
    struct gs_err skipped = {0};
    int nruns = 0;
    for (int i = 0; i < j->ndevs && nruns < GS_MAX_DEVICES; ++i) {
        struct gs_device *d = j->devs[i];
        struct gs_spread *run = gs_job_slot(j, nruns);
        if (strcmp(cli->backend, "all") == 0 && gs_registry_is_reference(d->backend))
            continue;
        gs_spread_probe(d, run);
        if (run->available) {
            struct gs_err why = {0};
            if (gs_plan_limits(d, cli->block ? cli->block : GS_DEFAULT_BLOCK, 0, NULL, 0,
                               &why) != GS_OK) {
                gs_session_note(&j->s, "bandwidth --spread: %s skipped: %s", d->backend->name,
                                why.msg);
                if (!skipped.msg[0])
                    skipped = why;
                continue;
            }
            c->measured[c->nmeasured++] = d;
        }
        j->devs[nruns++] = d;
    }
    j->ndevs = nruns;
    if (nruns == 0 && skipped.msg[0])
        return gs_err_set(e, GS_USAGE, "%s", skipped.msg);
    if (nruns == 0)
        return gs_err_set(e, GS_NO_DEVICE, "bandwidth --spread: no GPU API backend has a device; "
                                           "name a --backend with one");
    if (c->nmeasured == 0) {
        if (skipped.msg[0]) /* a device that could, refused by --block */
            return gs_err_set(e, GS_USAGE, "%s", skipped.msg);
        return none_available(j, e);
    }
    return GS_OK;
}

static int spread_plan(struct gs_job *j, struct gs_err *e)
{
    struct spread_ctx *c = j->ctx;
    c->plan.block = j->cli->block;
    c->plan.reps = j->cli->reps;
    c->plan.progress = j->progress;
    return gs_plan_bandwidth_n(c->measured, c->nmeasured, j->cli->type, j->cli->bw_bytes,
                               GS_SPREAD_DEFAULT_BYTES, &c->plan.n, NULL, 0, e);
}

/* A device that cannot record stays in the report as "not available". */
static int spread_run(struct gs_job *j, int i, void *run, struct gs_err *e)
{
    const struct spread_ctx *c = j->ctx;
    struct gs_spread *s = run;
    return s->available ? gs_spread_run(j->devs[i], &c->plan, s, e) : GS_OK;
}

GS_DEFINE_ENGINE_FREE(spread, wrong)
GS_DEFINE_ENGINE_RENDER(spread)

const struct gs_command gs_spread_command = {
    .name = "bandwidth --spread",
    .ctx_size = sizeof(struct spread_ctx), .run_size = sizeof(struct gs_spread),
    .select = spread_select, .plan = spread_plan, .run = spread_run, .free_run = spread_free,
    .failures = spread_failures, .render = spread_render,
};
