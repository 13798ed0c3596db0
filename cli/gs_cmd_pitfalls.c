/* SPDX-License-Identifier: MIT */
/* `gridstride pitfalls`: the traps of core/run/gs_pitfalls.h on every selected
 * device, side by side. Each trap sets its own sizes and grids; a case
 * that a device cannot hold (memory) or express is reported skipped, with
 * the reason, never dropped. */
#include <stdlib.h>

#include "gs_commands.h"
#include "gs_output.h"
#include "gs_pitfalls_report.h"

int gs_cmd_pitfalls(const struct gs_cli *cli, struct gs_session *s, const char *command,
                    struct gs_err *e)
{
    struct gs_pitfalls *runs = calloc((size_t)s->ndevs, sizeof *runs);
    const struct gs_pitfalls *done[GS_MAX_DEVICES];
    struct gs_outputs out = {0};
    struct gs_str text = {0};
    struct gs_stderr_progress prog;
    const struct gs_progress progress = {gs_stderr_progress, &prog};
    const struct gs_pitfalls_plan plan = {cli->traps, &progress};
    int code = 2, failed = 0;

    if (!runs) {
        gs_err_set(e, GS_NOMEM, "out of memory");
        return 2;
    }
    if (gs_outputs_add(&out, cli->output, "--output", e) != GS_OK)
        goto done;
    gs_stderr_progress_start(&prog);
    for (int i = 0; i < s->ndevs; ++i) {
        if (gs_pitfalls_run(s->devs[i], &plan, &runs[i], e) != GS_OK) {
            char msg[sizeof e->msg];
            gs_strlcpy(msg, e->msg, sizeof msg);
            gs_err_set(e, e->status, "%s device %s: %s", s->devs[i]->backend->name,
                       s->devs[i]->name, msg);
            goto done;
        }
        done[i] = &runs[i];
        failed += runs[i].failed;
    }
    const struct gs_pitfalls_report_in in = {done, s->ndevs, GS_VERSION_STRING, command};
    gs_pitfalls_report(&in, cli->format, &text);
    const struct gs_str *texts[] = {&text};
    if (gs_outputs_commit(&out, texts, e) != GS_OK)
        goto done;
    code = failed ? 1 : 0;
done:
    gs_outputs_abort(&out);
    gs_str_free(&text);
    free(runs);
    return code;
}
