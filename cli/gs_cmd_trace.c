/* SPDX-License-Identifier: MIT */
/* `gridstride trace`: core/run/gs_trace.h on every selected device, the maps
 * compared with the model and with each other, reported for a terminal (or
 * as JSON) and drawn with --svg. A device that cannot run the trace (no
 * trace build, or a block or grid beyond its limits) is left out with a
 * note; none left is bad usage. */
#include <stdlib.h>

#include "gs_commands.h"
#include "gs_sysmem.h"
#include "gs_output.h"
#include "gs_trace_report.h"

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

/* The devices that can run the plan's launch; the others get a note. */
static int usable(struct gs_session *s, const struct gs_trace_plan *p, struct gs_device **devs,
                  int *ndevs, struct gs_err *e)
{
    struct gs_err first = {0};
    *ndevs = 0;
    for (int i = 0; i < s->ndevs; ++i) {
        struct gs_device *d = s->devs[i];
        struct gs_err why = {0};
        if (!(d->caps & GS_CAP_TRACE))
            gs_err_set(&why, GS_USAGE, "the %s backend has no trace build on %s; choose another --backend",
                       d->backend->name, d->name);
        else
            gs_check_limits(d, (unsigned)p->block, p->grid, NULL, 0, &why);
        if (!why.msg[0]) {
            devs[(*ndevs)++] = d;
            continue;
        }
        if (!first.msg[0])
            first = why;
        gs_session_note(s, "trace: %s skipped: %s", d->backend->name, why.msg);
    }
    if (*ndevs == 0)
        return gs_err_set(e, GS_USAGE, "%s",
                          first.msg[0] ? first.msg
                                       : "trace: no selected device can run it; choose another "
                                         "--backend or --device");
    return GS_OK;
}

/* Every map is held at once, to be compared and drawn: they must fit half
 * of this machine's available memory. */
static int maps_fit(const struct gs_trace_plan *p, int ndevs, struct gs_err *e)
{
    const uint64_t need = p->n * sizeof(struct gs_trace_cell) * (uint64_t)p->nkernels * ndevs;
    const uint64_t avail = gs_host_available_memory();
    if (avail && need > avail / 2)
        return gs_err_set(e, GS_USAGE, "--n %llu: %d kernels on %d devices make maps of %llu "
                                       "bytes, more than half of this machine's %llu available; "
                                       "choose a smaller --n or fewer --kernels",
                          (unsigned long long)p->n, p->nkernels, ndevs,
                          (unsigned long long)need, (unsigned long long)avail);
    return GS_OK;
}

int gs_cmd_trace(const struct gs_cli *cli, struct gs_session *s, const char *command,
                 struct gs_err *e)
{
    struct gs_trace *runs = calloc((size_t)s->ndevs, sizeof *runs);
    const struct gs_trace *done[GS_MAX_DEVICES];
    struct gs_trace_agreement agree[GS_KERNEL_COUNT];
    struct gs_device *devs[GS_MAX_DEVICES];
    struct gs_outputs out = {0};
    struct gs_str text = {0}, picture = {0};
    struct gs_stderr_progress prog;
    const struct gs_progress progress = {gs_stderr_progress, &prog};
    struct gs_trace_plan plan;
    int code = 2, ndevs = 0, nruns = 0, failed = 0;

    if (!runs) {
        gs_err_set(e, GS_NOMEM, "out of memory");
        return 2;
    }
    plan_of(cli, &progress, &plan);
    if (gs_trace_plan_check(&plan, e) != GS_OK || usable(s, &plan, devs, &ndevs, e) != GS_OK ||
        maps_fit(&plan, ndevs, e) != GS_OK ||
        gs_outputs_add(&out, cli->output, "--output", e) != GS_OK ||
        (cli->svg && gs_outputs_add(&out, cli->svg, "--svg", e) != GS_OK))
        goto done;
    gs_stderr_progress_start(&prog);
    for (int i = 0; i < ndevs; ++i, ++nruns) {
        if (gs_trace_run(devs[i], &plan, &runs[i], e) != GS_OK) {
            char msg[sizeof e->msg];
            gs_strlcpy(msg, e->msg, sizeof msg);
            gs_err_set(e, e->status, "%s device %s: %s", devs[i]->backend->name, devs[i]->name,
                       msg);
            ++nruns; /* its cells are freed below */
            goto done;
        }
        done[i] = &runs[i];
        failed += runs[i].failed;
    }
    const int agreed = gs_trace_agree(done, nruns, agree);
    const struct gs_trace_report_in in = {done, nruns, agree, agreed, GS_VERSION_STRING, command};
    gs_trace_report(&in, cli->format, &text);
    if (cli->svg)
        gs_trace_svg(&in, &picture);
    const struct gs_str *texts[] = {&text, &picture};
    if (gs_outputs_commit(&out, texts, e) != GS_OK)
        goto done;
    code = failed || !agreed ? 1 : 0;
done:
    gs_outputs_abort(&out);
    gs_str_free(&text);
    gs_str_free(&picture);
    for (int i = 0; i < nruns; ++i)
        gs_trace_free(&runs[i]);
    free(runs);
    return code;
}
