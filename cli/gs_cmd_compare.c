/* SPDX-License-Identifier: MIT */
/* `gridstride compare FILE.json...`: its help and the command (its options
 * are parsed in gs_cli.c). The comparison itself is core/report/gs_compare.c. */
#include "gs_compare.h"
#include "gs_driver.h"
#include "gs_output.h"

static void compare_usage(struct gs_str *o)
{
    gs_str_printf(o,
        "usage: gridstride compare [--output FILE] FILE.json [FILE.json ...]\n\n"
        "Puts results files side by side: the JSON of `gridstride --format json` (tables) or of\n"
        "`gridstride bandwidth --json`, from any machine and any version of gridstride that\n"
        "writes the same schema (gridstride-results, version 1). All files must be of one mode.\n"
        "  tables     a column group per device, each with its own G and T; a row is flagged\n"
        "             'differs' when devices' outcomes differ (one refuses what another runs,\n"
        "             one is wrong where another is not)\n"
        "  bandwidth  a group per run: GB/s and its ratio to the first run; a row is flagged\n"
        "             when it verified on one run and was wrong on another\n"
        "A reference file, the course's T4 table: docs/reference/t4-seed002.json.\n\n"
        "options:\n"
        "  --output FILE          write the comparison to FILE instead of stdout\n"
        "  --help                 this help\n\n"
        "exit status: 0 no row differs in outcome; 1 some row differs; 2 bad usage, or a file\n"
        "that cannot be read, is not JSON or has an unknown schema\n");
}

static int load_all(const struct gs_cli *cli, struct gs_compare_file *files, struct gs_err *e)
{
    for (int i = 0; i < cli->nfiles; ++i) {
        struct gs_err why = {0};
        const int rc = gs_compare_load(cli->files[i], &files[i], &why);
        if (rc != GS_OK)
            return gs_err_set(e, rc, "compare: %s: %s", cli->files[i], why.msg);
    }
    return GS_OK;
}

struct compare_ctx {
    struct gs_str text; /* first: gs_job_text_render */
    struct gs_compare_file files[GS_MAX_COMPARE];
    int differ;
};

/* Every file is read and checked before the output is opened: bad input
 * leaves no output file behind. The help goes to stdout. */
static int compare_plan(struct gs_job *j, struct gs_err *e)
{
    struct compare_ctx *c = j->ctx;
    if (j->cli->compare_help) {
        compare_usage(&c->text);
        j->output = NULL;
        return GS_OK;
    }
    /* Every file is read and checked before any output is opened: bad
     * input leaves no output file behind, and no output names an input. */
    int rc = gs_output_not_input(j->cli->output, "--output", j->cli->files, j->cli->nfiles, e);
    if (rc == GS_OK)
        rc = load_all(j->cli, c->files, e);
    return rc != GS_OK ? rc : gs_compare_report(c->files, j->cli->nfiles, &c->text, &c->differ, e);
}

static int compare_failed(const struct gs_job *j)
{
    const struct compare_ctx *c = j->ctx;
    return c->differ;
}

static void compare_release(struct gs_job *j)
{
    struct compare_ctx *c = j->ctx;
    gs_job_text_release(j);
    for (int i = 0; i < j->cli->nfiles; ++i)
        gs_compare_free(&c->files[i]);
}

const struct gs_command gs_compare_command = {
    .name = "compare", .flags = GS_CMD_NO_SESSION, .ctx_size = sizeof(struct compare_ctx),
    .plan = compare_plan, .failed = compare_failed, .render = gs_job_text_render,
    .release = compare_release,
};
