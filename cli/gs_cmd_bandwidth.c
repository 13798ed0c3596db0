/* SPDX-License-Identifier: MIT */
/* `gridstride bandwidth`: the benchmark of core/run/gs_bench.h on each selected
 * device. Without --backend it measures the GPU APIs only; the host backend
 * runs when named (it is a reference, not a memory system worth timing).
 * --type double runs the double build on the devices that have it. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "gs_bench.h"
#include "gs_commands.h"
#include "gs_cpu_size.h"
#include "gs_device.h"
#include "gs_output.h"
#include "gs_memory.h"
#include "gs_registry.h"
#include "gs_plan.h"
#include "gs_run.h"

/* GPUs: far beyond any L2, and launches of milliseconds. Measured on the
 * H200 (docs/results/h200-bandwidth.md): with 1 GiB buffers an add takes
 * 0.74 ms and its best row is 0.5 to 1% below the same kernel on 4 GiB
 * (2.9 ms), where the first wave's ramp-up and the last one's tail weigh a
 * quarter as much. Less when the device has less memory (choose_n), and on a
 * CPU device the size of core/run/gs_cpu_size.h. */
#define GS_BENCH_DEFAULT_BYTES (4ull << 30)
#define GS_BENCH_DEFAULT_REPS 20u
#define GS_BENCH_WARMUP 3u

struct progress {
    struct timespec start;
    int quiet;
};

/* stderr only, and only once the run has taken more than a second. */
static void show_progress(void *ctx, const char *backend, int row, int rows,
                          const struct gs_bench_row *r)
{
    struct progress *p = ctx;
    if (p->quiet || gs_seconds_since(&p->start) < 1.0)
        return;
    if (r->verified)
        fprintf(stderr, "bandwidth: %s %d/%d %s: %.1f GB/s\n", backend, row, rows, r->label,
                r->gbps);
    else
        fprintf(stderr, "bandwidth: %s %d/%d %s: WRONG\n", backend, row, rows, r->label);
}

/* The largest n that fits every device (and this machine, for a CPU
 * device), capped at `gpu_bytes` per buffer (less with a CPU device); n
 * counts elements of cli->type. */
int gs_bandwidth_choose_n(const struct gs_cli *cli, struct gs_device *const *devs, int ndevs,
                          uint64_t gpu_bytes, uint64_t *n, struct gs_err *e)
{
    const unsigned elem = gs_type_size(cli->type);
    uint64_t cap = UINT64_MAX;
    const char *limit = "";
    for (int i = 0; i < ndevs; ++i) {
        const uint64_t fit = gs_memory_max_n_of(devs[i], UINT64_MAX / elem, cli->type) * elem;
        if (fit < cap) {
            cap = fit;
            limit = devs[i]->name;
        }
    }
    if (cli->bw_bytes) {
        if (cli->bw_bytes > cap)
            return gs_err_set(e, GS_USAGE,
                              "--bytes: %llu bytes per buffer do not fit %s (at most %llu); "
                              "choose a smaller size",
                              (unsigned long long)cli->bw_bytes, limit, (unsigned long long)cap);
        if (cli->bw_bytes < 4096)
            return gs_err_set(e, GS_USAGE, "--bytes: too small; give at least 4KiB per buffer");
        *n = cli->bw_bytes / elem;
        return GS_OK;
    }
    uint64_t want = gpu_bytes;
    char cpu_size[320] = "";
    for (int i = 0; i < ndevs; ++i)
        if (!devs[i]->is_gpu)
            want = gs_cpu_bench_bytes(devs[i]->compute_units, cpu_size, sizeof cpu_size);
    if (cpu_size[0] && !cli->quiet)
        fprintf(stderr, "bandwidth: a CPU device: %s\n", cpu_size);
    *n = (want < cap ? want : cap) / elem;
    if (*n < 1024)
        return gs_err_set(e, GS_USAGE, "bandwidth: %s has too little memory for a run; free some, "
                                       "or choose another --device", limit);
    return GS_OK;
}

/* --type double on a device without the double build: why, as one line
 * naming the problem, then the fix. */
static int no_double(const struct gs_device *d, struct gs_err *e)
{
    char why[200];
    if (gs_dev_has_f64(d, why, sizeof why))
        return GS_OK;
    return gs_err_set(e, GS_USAGE, "--type double: %s device %s cannot run double (%s); run "
                                   "--type float, or choose a device with double precision",
                      d->backend->name, d->name, why);
}

/* Devices whose limits refuse --block or --grid, or that cannot run the
 * --type, are left out with a note: one API's limit must not stop the
 * others. None left is bad usage. */
static int usable_devices(const struct gs_cli *cli, struct gs_session *s,
                          struct gs_device **devs, int *ndevs, struct gs_err *e)
{
    struct gs_err first = {0};
    int kept = 0;
    for (int i = 0; i < *ndevs; ++i) {
        struct gs_err why = {0};
        if (gs_check_limits(devs[i], cli->block ? cli->block : GS_DEFAULT_BLOCK, cli->grid, NULL,
                            0, &why) == GS_OK &&
            (cli->type != GS_TYPE_DOUBLE || no_double(devs[i], &why) == GS_OK)) {
            devs[kept++] = devs[i];
            continue;
        }
        if (!first.msg[0])
            first = why;
        gs_session_note(s, "bandwidth: %s skipped: %s", devs[i]->backend->name, why.msg);
    }
    *ndevs = kept;
    if (kept == 0)
        return gs_err_set(e, GS_USAGE, "%s", first.msg);
    return GS_OK;
}

int gs_cmd_bandwidth(const struct gs_cli *cli, struct gs_session *s, const char *command,
                     struct gs_err *e)
{
    static struct gs_bench runs[GS_MAX_DEVICES];
    const struct gs_bench *done[GS_MAX_DEVICES];
    struct gs_device *devs[GS_MAX_DEVICES];
    int ndevs = 0, nruns = 0, code = 2, wrong = 0;
    struct gs_outputs out = {0};
    struct gs_str text = {0}, chart = {0}, js = {0};
    struct progress prog;

    char unmeasured[400] = "";
    for (int i = 0; i < s->ndevs; ++i) {
        const struct gs_device *d = s->devs[i];
        if (d->no_bandwidth[0] || !(d->caps & GS_CAP_TIMING)) {
            snprintf(unmeasured, sizeof unmeasured, "bandwidth: %s %s is not measured: %s",
                     d->backend->name, d->name,
                     d->no_bandwidth[0] ? d->no_bandwidth : "its launches have no device timer");
            gs_session_note(s, "%s", unmeasured);
            continue;
        }
        if (strcmp(cli->backend, "all") != 0 || !gs_registry_is_reference(d->backend))
            devs[ndevs++] = s->devs[i];
    }
    if (ndevs == 0 && unmeasured[0]) {
        gs_err_set(e, GS_USAGE, "%s", unmeasured);
        return 2;
    }
    if (ndevs == 0) {
        const char *reference = "";
        for (int i = 0; gs_registry_known[i].name; ++i)
            if (gs_registry_known[i].reference)
                reference = gs_registry_known[i].name;
        gs_err_set(e, GS_NO_DEVICE, "bandwidth: no GPU API backend has a device; name "
                                    "--backend %s to time the CPU reference", reference);
        return 2;
    }
    struct gs_bench_plan plan = {0};
    if (usable_devices(cli, s, devs, &ndevs, e) != GS_OK ||
        gs_bandwidth_choose_n(cli, devs, ndevs, GS_BENCH_DEFAULT_BYTES, &plan.n, e) != GS_OK)
        return 2;
    if (cli->sweep)
        return gs_cmd_sweep(cli, devs, ndevs, plan.n, command, e);
    plan.reps = cli->reps ? cli->reps : GS_BENCH_DEFAULT_REPS;
    plan.warmup = GS_BENCH_WARMUP;
    plan.block = cli->block;
    plan.grid = cli->grid;
    plan.type = cli->type;
    plan.progress = show_progress;
    plan.progress_ctx = &prog;
    prog.quiet = cli->quiet;
    clock_gettime(CLOCK_MONOTONIC, &prog.start);

    if (gs_outputs_add_report(&out, cli->output, cli->svg, cli->json, e) != GS_OK) {
        gs_outputs_abort(&out);
        return 2;
    }
    for (int i = 0; i < ndevs; ++i) {
        if (gs_bench_run(devs[i], &plan, &runs[i], e) != GS_OK) {
            char msg[sizeof e->msg];
            gs_strlcpy(msg, e->msg, sizeof msg);
            gs_err_set(e, e->status, "%s device %s: %s", devs[i]->backend->name, devs[i]->name, msg);
            goto done;
        }
        done[nruns++] = &runs[i];
        wrong += runs[i].wrong_rows;
    }
    char date[32];
    gs_utc_now(date, sizeof date);
    const struct gs_bench_report_in in = {done, nruns, GS_VERSION_STRING, command, date,
                                          GS_TOOLKIT};
    gs_bench_report(&in, cli->format, &text);
    if (cli->svg)
        gs_bench_svg(&in, &chart);
    if (cli->json)
        gs_bench_report(&in, GS_FMT_JSON, &js);
    if (gs_outputs_commit_report(&out, &text, cli->svg ? &chart : NULL, cli->json ? &js : NULL,
                                 e) != GS_OK)
        goto done;
    code = wrong ? 1 : 0;
done:
    for (int i = 0; i < ndevs; ++i)
        gs_bench_free(&runs[i]);
    gs_outputs_abort(&out);
    gs_str_free(&text);
    gs_str_free(&js);
    gs_str_free(&chart);
    return code;
}
