/* SPDX-License-Identifier: MIT */
/* `gridstride bandwidth` and its mode `bandwidth --sweep`, on the same
 * devices and sizes:
 *   the rows   the benchmark of core/run/gs_bench.h on each selected device;
 *              --type double runs the double build on the devices that
 *              have it;
 *   --sweep    the sweep of core/run/gs_sweep.h, up to the size the rows
 *              would use, instead of the rows.
 * Without --backend it measures the GPU APIs only; the host backend runs
 * when named (it is a reference, not a memory system worth timing). */
#include <stdio.h>
#include <string.h>

#include "gs_bench.h"
#include "gs_bench_report.h"
#include "gs_driver.h"
#include "gs_plan_run.h"
#include "gs_registry.h"
#include "gs_run.h"
#include "gs_sweep.h"
#include "gs_sweep_report.h"

/* GPUs: far beyond any L2, and launches of milliseconds. Measured on the
 * H200 (docs/results/h200-bandwidth.md): with 1 GiB buffers an add takes
 * 0.74 ms and its best row is 0.5 to 1% below the same kernel on 4 GiB
 * (2.9 ms), where the first wave's ramp-up and the last one's tail weigh a
 * quarter as much. Less when the device has less memory, and on a CPU
 * device the size of core/run/gs_cpu_size.h (gs_plan_bandwidth_n). */
#define GS_BENCH_DEFAULT_BYTES (4ull << 30)
#define GS_BENCH_DEFAULT_REPS 20u
#define GS_BENCH_WARMUP 3u
/* 19 sizes x 3 variants x (50 + 5) launches: on a GPU the verification of
 * the largest sizes costs more than every timed launch together. */
#define GS_SWEEP_DEFAULT_REPS 50u
#define GS_SWEEP_WARMUP 5u

/* The devices with a device timer (not the reference unless named), and
 * of those the ones whose limits take --block and --grid and that can run
 * the --type: the others are left out with a note, since one API's limit
 * must not stop the others. None left is bad usage. */
static int bandwidth_select(struct gs_job *j, struct gs_err *e)
{
    const struct gs_cli *cli = j->cli;
    struct gs_err first = {0};
    char unmeasured[400] = "";
    int measured = 0, kept = 0;
    for (int i = 0; i < j->ndevs; ++i) {
        struct gs_device *d = j->devs[i];
        if (d->no_bandwidth[0] || !(d->caps & GS_CAP_TIMING)) {
            snprintf(unmeasured, sizeof unmeasured, "bandwidth: %s %s is not measured: %s",
                     d->backend->name, d->name,
                     d->no_bandwidth[0] ? d->no_bandwidth : "its launches have no device timer");
            gs_session_note(&j->s, "%s", unmeasured);
            continue;
        }
        if (strcmp(cli->backend, "all") != 0 || !gs_registry_is_reference(d->backend))
            j->devs[measured++] = d;
    }
    if (measured == 0 && unmeasured[0])
        return gs_err_set(e, GS_USAGE, "%s", unmeasured);
    if (measured == 0) {
        const char *reference = "";
        for (int i = 0; gs_registry_known[i].name; ++i)
            if (gs_registry_known[i].reference)
                reference = gs_registry_known[i].name;
        return gs_err_set(e, GS_NO_DEVICE, "bandwidth: no GPU API backend has a device; name "
                                           "--backend %s to time the CPU reference", reference);
    }
    for (int i = 0; i < measured; ++i) {
        struct gs_err why = {0};
        if (gs_plan_bench_device(j->devs[i], cli->block, cli->grid, cli->type, &why) == GS_OK) {
            j->devs[kept++] = j->devs[i];
            continue;
        }
        if (!first.msg[0])
            first = why;
        gs_session_note(&j->s, "bandwidth: %s skipped: %s", j->devs[i]->backend->name, why.msg);
    }
    j->ndevs = kept;
    if (kept == 0)
        return gs_err_set(e, GS_USAGE, "%s", first.msg);
    return GS_OK;
}

/* ---- the modes ------------------------------------------------------------ */

/* The size the rows would use, for the rows and for --sweep alike. */
static int bandwidth_plan(struct gs_job *j, struct gs_err *e)
{
    const struct gs_cli *cli = j->cli;
    uint64_t n = 0;
    char cpu_size[320];
    const int rc = gs_plan_bandwidth_n(j->devs, j->ndevs, cli->type, cli->bw_bytes,
                                       GS_BENCH_DEFAULT_BYTES, &n, cpu_size, sizeof cpu_size, e);
    if (rc == GS_OK && cpu_size[0] && !cli->quiet)
        fprintf(stderr, "bandwidth: a CPU device: %s\n", cpu_size);
    if (cli->mode == GS_MODE_SWEEP)
        *(struct gs_sweep_plan *)j->ctx = (struct gs_sweep_plan){
            n, cli->reps ? cli->reps : GS_SWEEP_DEFAULT_REPS, GS_SWEEP_WARMUP, cli->block,
            cli->grid, j->progress};
    else
        *(struct gs_bench_plan *)j->ctx = (struct gs_bench_plan){
            n, cli->reps ? cli->reps : GS_BENCH_DEFAULT_REPS, GS_BENCH_WARMUP, cli->block,
            cli->grid, j->progress, cli->type, 0};
    return rc;
}

GS_DEFINE_ENGINE_RUN(bench)
GS_DEFINE_ENGINE_FREE(bench, wrong_rows)
GS_DEFINE_ENGINE_RENDER(bench)
GS_DEFINE_ENGINE_RUN(sweep)
GS_DEFINE_ENGINE_FREE(sweep, wrong_points)
GS_DEFINE_ENGINE_RENDER(sweep)

/* A mode of bandwidth: the same devices and size, its own engine. */
#define BANDWIDTH_MODE(engine, label)                                                          \
    {                                                                                          \
        .name = label,                                                                         \
        .ctx_size = sizeof(struct gs_##engine##_plan), .run_size = sizeof(struct gs_##engine),  \
        .select = bandwidth_select, .plan = bandwidth_plan, .run = engine##_run,               \
        .free_run = engine##_free, .failures = engine##_failures, .render = engine##_render,   \
    }

const struct gs_command gs_bandwidth_command = BANDWIDTH_MODE(bench, "bandwidth");
const struct gs_command gs_sweep_command = BANDWIDTH_MODE(sweep, "bandwidth --sweep");
