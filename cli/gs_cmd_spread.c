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
#include <stdlib.h>
#include <string.h>

#include "gs_commands.h"
#include "gs_device.h"
#include "gs_output.h"
#include "gs_registry.h"
#include "gs_run.h"
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
static int none_available(struct gs_spread *const *runs, int nruns, struct gs_err *e)
{
    char why[sizeof e->msg], backends[128];
    size_t len = 0;
    why[0] = '\0';
    for (int i = 0; i < nruns && len < sizeof why; ++i)
        len += (size_t)snprintf(why + len, sizeof why - len, "%s%s (%s): not available: %s",
                                i ? ", nor on " : "", runs[i]->dev->backend->name,
                                runs[i]->dev->name, runs[i]->why);
    recording_backends(backends, sizeof backends);
    if (backends[0])
        return gs_err_set(e, GS_USAGE, "bandwidth --spread: %s; run it with --backend %s on a "
                                       "device that records them", why, backends);
    return gs_err_set(e, GS_USAGE, "bandwidth --spread: %s; no backend of this build records "
                                   "per-unit finish times (README.md, \"One wave is not "
                                   "enough\")", why);
}

int gs_cmd_spread(const struct gs_cli *cli, struct gs_session *s, const char *command,
                  struct gs_err *e)
{
    struct gs_spread *runs = calloc(GS_MAX_DEVICES, sizeof *runs);
    struct gs_spread *probed[GS_MAX_DEVICES];
    const struct gs_spread *done[GS_MAX_DEVICES];
    struct gs_device *measured[GS_MAX_DEVICES];
    struct gs_outputs out = {0};
    struct gs_str text = {0}, chart = {0}, js = {0};
    struct gs_stderr_progress prog;
    const struct gs_progress progress = {gs_stderr_progress, &prog};
    struct gs_err skipped = {0};
    int nruns = 0, nmeasured = 0, code = 2, wrong = 0;

    if (!runs) {
        gs_err_set(e, GS_NOMEM, "out of memory");
        return 2;
    }
    for (int i = 0; i < s->ndevs && nruns < GS_MAX_DEVICES; ++i) {
        struct gs_device *d = s->devs[i];
        if (strcmp(cli->backend, "all") == 0 && gs_registry_is_reference(d->backend))
            continue;
        gs_spread_probe(d, &runs[nruns]);
        probed[nruns] = &runs[nruns];
        done[nruns] = &runs[nruns];
        if (runs[nruns].available) {
            struct gs_err why = {0};
            if (gs_check_limits(d, cli->block ? cli->block : GS_DEFAULT_BLOCK, 0, NULL, 0,
                                &why) != GS_OK) {
                gs_session_note(s, "bandwidth --spread: %s skipped: %s", d->backend->name,
                                why.msg);
                if (!skipped.msg[0])
                    skipped = why;
                continue;
            }
            measured[nmeasured++] = d;
        }
        ++nruns;
    }
    if (nruns == 0 && skipped.msg[0]) {
        gs_err_set(e, GS_USAGE, "%s", skipped.msg);
        goto done;
    }
    if (nruns == 0) {
        gs_err_set(e, GS_NO_DEVICE, "bandwidth --spread: no GPU API backend has a device; name "
                                    "a --backend with one");
        goto done;
    }
    if (nmeasured == 0) {
        if (skipped.msg[0]) /* a device that could, refused by --block */
            gs_err_set(e, GS_USAGE, "%s", skipped.msg);
        else
            none_available(probed, nruns, e);
        goto done;
    }
    struct gs_spread_plan plan = {0};
    if (gs_bandwidth_choose_n(cli, measured, nmeasured, GS_SPREAD_DEFAULT_BYTES, &plan.n, e) !=
        GS_OK)
        goto done;
    plan.block = cli->block;
    plan.reps = cli->reps;
    plan.progress = cli->quiet ? NULL : &progress;
    if (gs_outputs_add_report(&out, cli->output, cli->svg, cli->json, e) != GS_OK)
        goto done;
    gs_stderr_progress_start(&prog);
    for (int i = 0; i < nruns; ++i) {
        if (!runs[i].available)
            continue;
        struct gs_device *d = runs[i].dev;
        if (gs_spread_run(d, &plan, &runs[i], e) != GS_OK) {
            char msg[sizeof e->msg];
            gs_strlcpy(msg, e->msg, sizeof msg);
            gs_err_set(e, e->status, "%s device %s: %s", d->backend->name, d->name, msg);
            goto done;
        }
        wrong += runs[i].wrong;
    }
    char date[32];
    gs_utc_now(date, sizeof date);
    const struct gs_spread_report_in in = {done, nruns, GS_VERSION_STRING, command, date,
                                           GS_TOOLKIT};
    gs_spread_report(&in, cli->format, &text);
    if (cli->svg)
        gs_spread_svg(&in, &chart);
    if (cli->json)
        gs_spread_report(&in, GS_FMT_JSON, &js);
    if (gs_outputs_commit_report(&out, &text, cli->svg ? &chart : NULL, cli->json ? &js : NULL,
                                 e) != GS_OK)
        goto done;
    code = wrong ? 1 : 0;
done:
    gs_outputs_abort(&out);
    gs_str_free(&text);
    gs_str_free(&js);
    gs_str_free(&chart);
    for (int i = 0; i < nruns; ++i)
        gs_spread_free(&runs[i]);
    free(runs);
    return code;
}
