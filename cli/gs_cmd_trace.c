/* SPDX-License-Identifier: MIT */
/* `gridstride trace`: core/run/gs_trace.h on every selected device, the maps
 * compared with the model and with each other, reported for a terminal (or
 * as JSON) and drawn with --svg. A device that cannot run the trace (no
 * trace build, or a block or grid beyond its limits) is left out with a
 * note; none left is bad usage. */
#include "gs_driver.h"
#include "gs_plan_run.h"
#include "gs_trace_report.h"
#include "gs_run.h"

struct trace_ctx {
    struct gs_trace_plan plan; /* first: the engine's hooks take it */
    struct gs_trace_agreement agree[GS_KERNEL_COUNT];
    int agreed;
};

static void plan_of(const struct gs_cli *cli, const struct gs_progress *progress,
                    struct gs_trace_plan *p)
{
    static const enum gs_kernel_id seed[] = {GS_K_ADD_MONO, GS_K_ADD_GS, GS_K_ADD_CHUNKED};
    *p = (struct gs_trace_plan){0};
    p->grid = cli->grid ? cli->grid : GS_TRACE_DEFAULT_GRID;
    p->block = cli->block ? cli->block : GS_DEFAULT_BLOCK;
    p->n = cli->trace_n ? cli->trace_n : GS_TRACE_DEFAULT_N;
    p->progress = progress;
    if (cli->ntrace_kernels)
        for (int i = 0; i < cli->ntrace_kernels; ++i)
            p->kernels[p->nkernels++] = cli->trace_kernels[i];
    else
        for (size_t i = 0; i < sizeof seed / sizeof seed[0]; ++i)
            p->kernels[p->nkernels++] = seed[i];
}

/* The plan, checked; then the devices that can run its launch (the others
 * get a note). */
static int trace_select(struct gs_job *j, struct gs_err *e)
{
    struct trace_ctx *t = j->ctx;
    struct gs_err first = {0};
    int kept = 0;
    plan_of(j->cli, j->progress, &t->plan);
    if (gs_trace_plan_check(&t->plan, e) != GS_OK)
        return e->status;
    for (int i = 0; i < j->ndevs; ++i) {
        struct gs_device *d = j->devs[i];
        struct gs_err why = {0};
        if (!(d->caps & GS_CAP_TRACE))
            gs_err_set(&why, GS_USAGE, "the %s backend has no trace build on %s; choose another --backend",
                       d->backend->name, d->name);
        else
            gs_plan_limits(d, (unsigned)t->plan.block, t->plan.grid, NULL, 0, &why);
        if (!why.msg[0]) {
            j->devs[kept++] = d;
            continue;
        }
        if (!first.msg[0])
            first = why;
        gs_session_note(&j->s, "trace: %s skipped: %s", d->backend->name, why.msg);
    }
    j->ndevs = kept;
    if (kept == 0)
        return gs_err_set(e, GS_USAGE, "%s",
                          first.msg[0] ? first.msg
                                       : "trace: no selected device can run it; choose another "
                                         "--backend or --device");
    return GS_OK;
}

static int trace_plan(struct gs_job *j, struct gs_err *e)
{
    const struct trace_ctx *t = j->ctx;
    return gs_plan_trace_maps(&t->plan, j->ndevs, e);
}

GS_DEFINE_ENGINE_RUN(trace)
GS_DEFINE_ENGINE_FREE(trace, failed)

static void trace_in(const struct gs_job *j, const struct gs_trace **runs,
                     struct gs_trace_report_in *in)
{
    const struct trace_ctx *t = j->ctx;
    for (int i = 0; i < j->ndone; ++i)
        runs[i] = j->done[i];
    *in = (struct gs_trace_report_in){runs, j->ndone, t->agree, t->agreed, GS_VERSION_STRING,
                                      j->command, j->date, GS_TOOLKIT};
}

/* The maps compared with each other. */
static int trace_finish(struct gs_job *j, struct gs_err *e)
{
    struct trace_ctx *t = j->ctx;
    const struct gs_trace *runs[GS_MAX_DEVICES];
    struct gs_trace_report_in in;
    (void)e;
    trace_in(j, runs, &in);
    t->agreed = gs_trace_agree(runs, j->ndone, t->agree);
    return GS_OK;
}

static int trace_failed(const struct gs_job *j)
{
    const struct trace_ctx *t = j->ctx;
    return !t->agreed;
}

static void trace_render(const struct gs_job *j, enum gs_format f, int chart, struct gs_str *out)
{
    const struct gs_trace *runs[GS_MAX_DEVICES];
    struct gs_trace_report_in in;
    trace_in(j, runs, &in);
    if (chart)
        gs_trace_svg(&in, out);
    else
        gs_trace_report(&in, f, out);
}

const struct gs_command gs_trace_command = {
    .name = "trace", .ctx_size = sizeof(struct trace_ctx),
    .run_size = sizeof(struct gs_trace), .select = trace_select, .plan = trace_plan,
    .run = trace_run, .free_run = trace_free, .finish = trace_finish, .failures = trace_failures,
    .failed = trace_failed, .render = trace_render,
};
