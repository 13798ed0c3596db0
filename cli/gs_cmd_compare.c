/* SPDX-License-Identifier: MIT */
/* `gridstride compare FILE.json...` and `compare --fleet FILE.json...` (their
 * options and help are in gs_cli.c). The comparison itself is
 * core/report/gs_compare.c, the fleet report core/report/gs_fleet.c. */
#include <string.h>

#include "gs_compare.h"
#include "gs_driver.h"
#include "gs_fleet.h"
#include "gs_output.h"
#include "gs_run.h"

static int load_all(const struct gs_cli *cli, struct gs_compare_file *files, struct gs_err *e)
{
    for (int i = 0; i < cli->nfiles; ++i) {
        struct gs_err why = {0};
        const int rc = gs_compare_load(cli->files[i], &files[i], &why);
        if (rc != GS_OK)
            return gs_err_set(e, rc, "compare: %.*s%s: %s", GS_ECHO(cli->files[i]), why.msg);
    }
    return GS_OK;
}

struct compare_ctx {
    struct gs_str text; /* first: gs_job_text_release */
    struct gs_str json; /* the same comparison as JSON (--format json, --json FILE) */
    struct gs_compare_file files[GS_MAX_COMPARE];
    struct gs_compare_verdict verdict;
    int fleet_failed; /* --fleet: GPUs that failed a prediction or were flagged */
};

/* compare --fleet: every node's file read and analysed before the output
 * is opened; exit 1 when a GPU failed a prediction or was flagged. */
static int fleet_plan(struct gs_job *j, struct gs_err *e)
{
    struct compare_ctx *c = j->ctx;
    const struct gs_cli *cli = j->cli;
    struct gs_fleet fleet;
    struct gs_err why = {0};
    int rc = gs_output_not_input(cli->output, "--output", (const char *const *)cli->files,
                                 cli->nfiles, e);
    gs_fleet_init(&fleet, cli->fleet_k);
    for (int i = 0; rc == GS_OK && i < cli->nfiles; ++i)
        if ((rc = gs_fleet_add_file(&fleet, cli->files[i], &why)) != GS_OK)
            gs_err_set(e, rc, "compare --fleet: %.*s%s: %s", GS_ECHO(cli->files[i]),
                       why.msg);
    if (rc == GS_OK && (rc = gs_fleet_analyse(&fleet, &why)) != GS_OK)
        gs_err_set(e, rc, "compare --fleet: %s", why.msg);
    if (rc == GS_OK) {
        gs_fleet_report(&fleet, &c->text);
        c->fleet_failed = fleet.failed_gpus + fleet.flagged_gpus;
    }
    gs_fleet_free(&fleet);
    return rc;
}

/* Every file is read and checked before the output is opened: bad input
 * leaves no output file behind, and no output names an input. */
static int compare_plan(struct gs_job *j, struct gs_err *e)
{
    struct compare_ctx *c = j->ctx;
    const struct gs_cli *cli = j->cli;
    if (cli->fleet)
        return fleet_plan(j, e);
    const char *const *inputs = (const char *const *)cli->files;
    int rc = gs_output_not_input(cli->output, "--output", inputs, cli->nfiles, e);
    if (rc == GS_OK)
        rc = gs_output_not_input(cli->json, "--json", inputs, cli->nfiles, e);
    if (rc == GS_OK)
        rc = load_all(cli, c->files, e);
    if (rc != GS_OK)
        return rc;
    gs_utc_now(j->date, sizeof j->date);
    struct gs_compare_options opt = {cli->tolerance, 0, GS_VERSION_STRING, j->command,
                                     j->date, GS_TOOLKIT, gs_job_width(j)};
    int status = gs_compare_run(c->files, cli->nfiles, &opt, &c->text, &c->verdict, e);
    opt.json = 1;
    if (status == GS_OK && (cli->format == GS_FMT_JSON || cli->json))
        status = gs_compare_run(c->files, cli->nfiles, &opt, &c->json, &c->verdict, e);
    return status;
}

static void compare_render(const struct gs_job *j, enum gs_format f, int chart,
                           struct gs_str *out)
{
    const struct compare_ctx *c = j->ctx;
    const struct gs_str *s = f == GS_FMT_JSON && !j->cli->fleet ? &c->json : &c->text;
    const struct gs_compare_verdict *v = &c->verdict;
    (void)chart;
    /* The text starts with its answer: the gate's, from the comparison's
     * verdict (its closing lines say the same in full). */
    if (f == GS_FMT_TEXT && !j->cli->fleet) {
        const int table = strcmp(c->files[0].mode, "table") == 0;
        if (v->not_held + v->wrong + v->slow == 0 && table)
            gs_str_printf(out, "compare: passed: every case held its device's prediction (%d "
                               "row%s differ%s)\n",
                          v->differ, v->differ == 1 ? "" : "s", v->differ == 1 ? "s" : "");
        else if (v->not_held + v->wrong + v->slow == 0)
            gs_str_printf(out, "compare: passed: every row verified, none slower than the "
                               "tolerance\n");
        else if (table)
            gs_str_printf(out, "compare: FAILED: %d case%s did not hold the prediction\n",
                          v->not_held, v->not_held == 1 ? "" : "s");
        else
            gs_str_printf(out, "compare: FAILED: %d row%s wrong, %d slower than the tolerance\n",
                          v->wrong, v->wrong == 1 ? "" : "s", v->slow);
    }
    gs_str_printf(out, "%s", s->data ? s->data : "");
}

static int compare_failed(const struct gs_job *j)
{
    const struct compare_ctx *c = j->ctx;
    /* A CI gate: a failed prediction, a wrong row, a slow one or an outcome
     * that changed on the same device; not the documented differences
     * between APIs whose predictions held. */
    return c->verdict.not_held + c->verdict.wrong + c->verdict.slow + c->verdict.changed +
           c->fleet_failed;
}

static void compare_release(struct gs_job *j)
{
    struct compare_ctx *c = j->ctx;
    gs_job_text_release(j);
    gs_str_free(&c->json);
    for (int i = 0; !j->cli->fleet && i < j->cli->nfiles; ++i) /* --fleet reads its own */
        gs_compare_free(&c->files[i]);
}

const struct gs_command gs_compare_command = {
    .name = "compare", .flags = GS_CMD_NO_SESSION, .ctx_size = sizeof(struct compare_ctx),
    .plan = compare_plan, .failed = compare_failed, .render = compare_render,
    .release = compare_release,
};
