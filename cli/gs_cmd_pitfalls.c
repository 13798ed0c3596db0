/* SPDX-License-Identifier: MIT */
/* `gridstride pitfalls`: the traps of core/run/gs_pitfalls.h on every selected
 * device, side by side. Each trap sets its own sizes and grids; a case
 * that a device cannot hold (memory) or express is reported skipped, with
 * the reason, never dropped. */
#include "gs_driver.h"
#include "gs_pitfalls_report.h"
#include "gs_run.h"

static int pitfalls_plan(struct gs_job *j, struct gs_err *e)
{
    struct gs_pitfalls_plan *plan = j->ctx;
    (void)e;
    /* This program is check's worker too: the early-return trap runs there. */
    *plan = (struct gs_pitfalls_plan){j->cli->traps, j->progress, 1, j->cli->timeout};
    return GS_OK;
}

/* One device; the traps at 2^31 and 2^32 also say what their copies cost. */
static int pitfalls_run(struct gs_job *j, int i, void *run, struct gs_err *e)
{
    struct gs_pitfalls *p = run;
    const int rc = gs_pitfalls_run(j->devs[i], j->ctx, p, e);
    if (rc == GS_OK)
        gs_job_note_copies(j, i, &p->copies);
    return rc;
}

static int pitfalls_failures(const void *run)
{
    return ((const struct gs_pitfalls *)run)->failed;
}

static void pitfalls_report(const struct gs_job *j, enum gs_format f, int chart,
                            struct gs_str *out)
{
    const struct gs_pitfalls *runs[GS_MAX_DEVICES];
    (void)chart;
    for (int i = 0; i < j->ndone; ++i)
        runs[i] = j->done[i];
    const struct gs_pitfalls_report_in in = {runs,       j->ndone, GS_VERSION_STRING,
                                             j->command, j->date,  GS_TOOLKIT};
    gs_pitfalls_report(&in, f, out);
}

const struct gs_command gs_pitfalls_command = {
    .name = "pitfalls", .flags = GS_CMD_PRIVATE_TMPDIR, .ctx_size = sizeof(struct gs_pitfalls_plan),
    .run_size = sizeof(struct gs_pitfalls), .plan = pitfalls_plan, .run = pitfalls_run,
    .failures = pitfalls_failures, .render = pitfalls_report,
};
