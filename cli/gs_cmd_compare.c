/* SPDX-License-Identifier: MIT */
/* `gridstride compare FILE.json...` (its options and help are in gs_cli.c). The
 * comparison itself is core/report/gs_compare.c. */
#include "gs_compare.h"
#include "gs_driver.h"
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
};

/* Every file is read and checked before the output is opened: bad input
 * leaves no output file behind. */
static int compare_plan(struct gs_job *j, struct gs_err *e)
{
    struct compare_ctx *c = j->ctx;
    const int rc = load_all(j->cli, c->files, e);
    if (rc != GS_OK)
        return rc;
    gs_utc_now(j->date, sizeof j->date);
    struct gs_compare_options opt = {j->cli->tolerance, 0, GS_VERSION_STRING, j->command,
                                     j->date, GS_TOOLKIT};
    int status = gs_compare_run(c->files, j->cli->nfiles, &opt, &c->text, &c->verdict, e);
    opt.json = 1;
    if (status == GS_OK && (j->cli->format == GS_FMT_JSON || j->cli->json))
        status = gs_compare_run(c->files, j->cli->nfiles, &opt, &c->json, &c->verdict, e);
    return status;
}

static void compare_render(const struct gs_job *j, enum gs_format f, int chart,
                           struct gs_str *out)
{
    const struct compare_ctx *c = j->ctx;
    const struct gs_str *s = f == GS_FMT_JSON ? &c->json : &c->text;
    (void)chart;
    gs_str_printf(out, "%s", s->data ? s->data : "");
}

static int compare_failed(const struct gs_job *j)
{
    const struct compare_ctx *c = j->ctx;
    /* A CI gate: a failed prediction, a wrong row or a slow one; not the
     * documented differences between APIs whose predictions held. */
    return c->verdict.not_held + c->verdict.wrong + c->verdict.slow;
}

static void compare_release(struct gs_job *j)
{
    struct compare_ctx *c = j->ctx;
    gs_job_text_release(j);
    gs_str_free(&c->json);
    for (int i = 0; i < j->cli->nfiles; ++i)
        gs_compare_free(&c->files[i]);
}

const struct gs_command gs_compare_command = {
    .name = "compare", .flags = GS_CMD_NO_SESSION, .ctx_size = sizeof(struct compare_ctx),
    .plan = compare_plan, .failed = compare_failed, .render = compare_render,
    .release = compare_release,
};
