/* SPDX-License-Identifier: MIT */
/* `gridstride compare FILE.json...`: its help and the command (its options
 * are parsed in gs_cli.c). The comparison itself is core/report/gs_compare.c. */
#include "gs_compare.h"
#include "gs_fleet.h"
#include "gs_driver.h"
#include "gs_output.h"

static void compare_usage(struct gs_str *o)
{
    gs_str_printf(o,
        "usage: gridstride compare [--output FILE] FILE.json [FILE.json ...]\n"
        "       gridstride compare --fleet [--k K] [--output FILE] FILE.json...\n\n"
        "Puts results files side by side: the JSON of `gridstride --format json` (tables) or of\n"
        "`gridstride bandwidth --json`, from any machine and any version of gridstride that\n"
        "writes the same schema (gridstride-results, version 1). All files must be of one mode.\n"
        "  tables     a column group per device, each with its own G and T; a row is flagged\n"
        "             'differs' when devices' outcomes differ (one refuses what another runs,\n"
        "             one is wrong where another is not)\n"
        "  bandwidth  a group per run: GB/s and its ratio to the first run; a row is flagged\n"
        "             when it verified on one run and was wrong on another\n"
        "A reference file, the course's T4 table: docs/reference/t4-seed002.json.\n\n"
        "--fleet: the files of many nodes (any number, tables and bandwidth runs), a node's\n"
        "files named NODE.table.json and NODE.bandwidth.json: one row per node and GPU, each\n"
        "metric's median and spread among its peers (same backend and device), and each GPU\n"
        "more than K interquartile ranges below its peers' first quartile flagged LOW and\n"
        "named (SHOC's rule; --k K, default 1.5). Options come before the files. Exit 1 when\n"
        "a GPU failed a prediction or a bandwidth row, or was flagged.\n\n"
        "options:\n"
        "  --output FILE          write the comparison to FILE instead of stdout\n"
        "  --fleet                the fleet report (first, before the other options)\n"
        "  --k K                  --fleet: flag below Q1 - K x IQR of the peers (default 1.5)\n"
        "  --help                 this help\n\n"
        "exit status: 0 no row differs in outcome (--fleet: no GPU failed or flagged); 1 some\n"
        "row differs (--fleet: a GPU failed or was flagged); 2 bad usage, or a file that\n"
        "cannot be read, is not JSON or has an unknown schema\n");
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

/* compare --fleet: every node's file read and analysed before the output
 * is opened; exit 1 when a GPU failed a prediction or was flagged. */
static int fleet_plan(struct gs_job *j, struct gs_err *e)
{
    struct compare_ctx *c = j->ctx;
    const struct gs_cli *cli = j->cli;
    struct gs_fleet fleet;
    struct gs_err why = {0};
    int rc = gs_output_not_input(cli->output, "--output", (const char *const *)cli->fleet_files,
                                 cli->nfleet_files, e);
    gs_fleet_init(&fleet, cli->fleet_k);
    for (int i = 0; rc == GS_OK && i < cli->nfleet_files; ++i)
        if ((rc = gs_fleet_add_file(&fleet, cli->fleet_files[i], &why)) != GS_OK)
            gs_err_set(e, rc, "compare --fleet: %s: %s", cli->fleet_files[i], why.msg);
    if (rc == GS_OK && (rc = gs_fleet_analyse(&fleet, &why)) != GS_OK)
        gs_err_set(e, rc, "compare --fleet: %s", why.msg);
    if (rc == GS_OK) {
        gs_fleet_report(&fleet, &c->text);
        c->differ = fleet.failed_gpus || fleet.flagged_gpus;
    }
    gs_fleet_free(&fleet);
    return rc;
}

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
    if (j->cli->fleet)
        return fleet_plan(j, e);
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
