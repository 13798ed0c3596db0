/* SPDX-License-Identifier: MIT */
/* `gridstride bandwidth --sweep`: the sweep of core/run/gs_sweep.h on each device
 * the bandwidth mode selected, up to the size it chose, instead of the row
 * table. Progress on stderr; the report, --svg and --json through
 * gs_output.h, whole or not at all. */
#include <stdio.h>
#include <time.h>

#include "gs_commands.h"
#include "gs_output.h"
#include "gs_results.h"
#include "gs_run.h"
#include "gs_sweep_report.h"

/* 19 sizes x 3 variants x (50 + 5) launches: on a GPU the verification of
 * the largest sizes costs more than every timed launch together. */
#define GS_SWEEP_DEFAULT_REPS 50u
#define GS_SWEEP_WARMUP 5u

struct progress {
    struct timespec start;
    int quiet;
};

/* stderr only, and only once the run has taken more than a second. */
static void show_progress(void *ctx, const char *backend, int size, int sizes, uint64_t n)
{
    const struct progress *p = ctx;
    if (!p->quiet && gs_seconds_since(&p->start) >= 1.0)
        fprintf(stderr, "bandwidth --sweep: %s %d/%d n = %llu done\n", backend, size, sizes,
                (unsigned long long)n);
}

static int write_reports(const struct gs_cli *cli, struct gs_outputs *out,
                         const struct gs_sweep_report_in *in, struct gs_err *e)
{
    struct gs_str text = {0}, chart = {0}, js = {0};
    gs_sweep_report(in, cli->format, &text);
    if (cli->svg)
        gs_sweep_svg(in, &chart);
    if (cli->json)
        gs_sweep_report(in, GS_FMT_JSON, &js);
    const int rc = gs_outputs_commit_report(out, &text, cli->svg ? &chart : NULL,
                                            cli->json ? &js : NULL, e);
    gs_str_free(&text);
    gs_str_free(&chart);
    gs_str_free(&js);
    return rc;
}

int gs_cmd_sweep(const struct gs_cli *cli, struct gs_device *const *devs, int ndevs,
                 uint64_t max_n, const char *command, struct gs_err *e)
{
    static struct gs_sweep runs[GS_MAX_DEVICES];
    const struct gs_sweep *done[GS_MAX_DEVICES];
    struct gs_outputs out = {0};
    struct progress prog = {.quiet = cli->quiet};
    int nruns = 0, wrong = 0, code = 2;
    const struct gs_sweep_plan plan = {max_n, cli->reps ? cli->reps : GS_SWEEP_DEFAULT_REPS,
                                       GS_SWEEP_WARMUP, cli->block, cli->grid, show_progress,
                                       &prog};

    if (gs_outputs_add_report(&out, cli->output, cli->svg, cli->json, e) != GS_OK) {
        gs_outputs_abort(&out);
        return 2;
    }
    clock_gettime(CLOCK_MONOTONIC, &prog.start);
    for (int i = 0; i < ndevs; ++i) {
        const int rc = gs_sweep_run(devs[i], &plan, &runs[nruns], e);
        if (rc != GS_OK) {
            char msg[sizeof e->msg];
            gs_strlcpy(msg, e->msg, sizeof msg);
            gs_err_set(e, rc, "%s device %s: %s", devs[i]->backend->name, devs[i]->name, msg);
            gs_sweep_free(&runs[nruns]);
            goto done;
        }
        wrong += runs[nruns].wrong_points;
        done[nruns] = &runs[nruns];
        ++nruns;
    }
    char date[32];
    gs_utc_now(date, sizeof date);
    const struct gs_sweep_report_in in = {done, nruns, GS_VERSION_STRING, command, date,
                                          GS_TOOLKIT};
    if (write_reports(cli, &out, &in, e) == GS_OK)
        code = wrong ? 1 : 0;
done:
    gs_outputs_abort(&out);
    for (int i = 0; i < nruns; ++i)
        gs_sweep_free(&runs[i]);
    return code;
}
