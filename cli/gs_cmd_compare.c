/* SPDX-License-Identifier: MIT */
/* `gridstride compare FILE.json...`: its options, and the command. The
 * comparison itself is core/report/gs_compare.c. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gs_commands.h"
#include "gs_compare.h"
#include "gs_fleet.h"
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

/* compare --fleet [--k K] [--output FILE] FILE...: options, then the files. */
static int fleet_parse(int argc, char **argv, struct gs_cli *c, struct gs_err *e)
{
    int i = 3;
    c->fleet = 1;
    c->fleet_k = GS_FLEET_DEFAULT_K;
    for (; i < argc && argv[i][0] == '-' && argv[i][1] != '\0'; ++i) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0) {
            c->compare_help = 1;
        } else if (strcmp(a, "--k") == 0 || strncmp(a, "--k=", 4) == 0) {
            const char *v = a[3] == '=' ? a + 4 : (i + 1 < argc ? argv[++i] : NULL);
            char *end = NULL;
            const double k = v ? strtod(v, &end) : 0;
            if (!v || !*v || *end || !isfinite(k) || k <= 0 || k > 100)
                return gs_err_set(e, GS_USAGE, "compare --fleet: --k needs a number above 0 "
                                               "and at most 100 (interquartile ranges), such "
                                               "as 1.5 or 3");
            c->fleet_k = k;
        } else if (strcmp(a, "--output") == 0 || strncmp(a, "--output=", 9) == 0) {
            const char *v = a[8] == '=' ? a + 9 : (i + 1 < argc ? argv[++i] : NULL);
            if (c->output)
                return gs_err_set(e, GS_USAGE, "compare: --output given twice; give it once");
            if (!v || !*v)
                return gs_err_set(e, GS_USAGE, "compare: --output needs a file name; give one "
                                               "after --output");
            c->output = v;
        } else {
            return gs_err_set(e, GS_USAGE, "compare --fleet: unknown option '%.*s%s'; see "
                                           "gridstride compare --help", GS_ECHO(a));
        }
    }
    c->fleet_files = argv + i;
    c->nfleet_files = argc - i;
    for (; i < argc; ++i)
        if (argv[i][0] == '-' && argv[i][1] != '\0')
            return gs_err_set(e, GS_USAGE, "compare --fleet: '%.*s%s' after the files; give "
                                           "the options before the files", GS_ECHO(argv[i]));
    if (!c->compare_help && c->nfleet_files == 0)
        return gs_err_set(e, GS_USAGE, "compare --fleet: give the nodes' results files (JSON); "
                                       "see gridstride compare --help");
    return GS_OK;
}

int gs_compare_parse(int argc, char **argv, struct gs_cli *c, struct gs_err *e)
{
    memset(c, 0, sizeof *c);
    c->mode = GS_MODE_COMPARE;
    if (argc > 2 && strcmp(argv[2], "--fleet") == 0)
        return fleet_parse(argc, argv, c, e);
    for (int i = 2; i < argc; ++i) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0) {
            c->compare_help = 1;
        } else if (strcmp(a, "--output") == 0 || strncmp(a, "--output=", 9) == 0) {
            const char *v = a[8] == '=' ? a + 9 : (i + 1 < argc ? argv[++i] : NULL);
            if (c->output)
                return gs_err_set(e, GS_USAGE, "compare: --output given twice; give it once");
            if (!v || !*v)
                return gs_err_set(e, GS_USAGE, "compare: --output needs a file name; give one "
                                               "after --output");
            c->output = v;
        } else if (strcmp(a, "--fleet") == 0) {
            return gs_err_set(e, GS_USAGE, "compare: --fleet comes first: gridstride compare "
                                           "--fleet [--k K] [--output FILE] FILE...");
        } else if (a[0] == '-' && a[1] != '\0') {
            return gs_err_set(e, GS_USAGE, "compare: unknown option '%.*s%s'; see gridstride "
                                           "compare --help", GS_ECHO(a));
        } else if (c->nfiles == GS_MAX_COMPARE) {
            return gs_err_set(e, GS_USAGE, "compare: more than %d files; compare at most %d at "
                                           "a time", GS_MAX_COMPARE, GS_MAX_COMPARE);
        } else {
            c->files[c->nfiles++] = a;
        }
    }
    if (!c->compare_help && c->nfiles == 0)
        return gs_err_set(e, GS_USAGE, "compare: give one or more results files (JSON); see "
                                       "gridstride compare --help");
    return GS_OK;
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

/* compare --fleet: every file read before the output is opened. */
static int cmd_fleet(const struct gs_cli *cli, struct gs_err *e)
{
    struct gs_fleet fleet;
    struct gs_outputs out = {0};
    struct gs_str text = {0};
    struct gs_err why = {0};
    int code = 2, rc = GS_OK;
    gs_fleet_init(&fleet, cli->fleet_k);
    for (int i = 0; rc == GS_OK && i < cli->nfleet_files; ++i)
        if ((rc = gs_fleet_add_file(&fleet, cli->fleet_files[i], &why)) != GS_OK)
            gs_err_set(e, rc, "compare --fleet: %s: %s", cli->fleet_files[i], why.msg);
    if (rc == GS_OK && (rc = gs_fleet_analyse(&fleet, &why)) != GS_OK)
        gs_err_set(e, rc, "compare --fleet: %s", why.msg);
    if (rc == GS_OK) {
        gs_fleet_report(&fleet, &text);
        const struct gs_str *texts[] = {&text};
        if (gs_outputs_add(&out, cli->output, "--output", e) == GS_OK &&
            gs_outputs_commit(&out, texts, e) == GS_OK)
            code = fleet.failed_gpus || fleet.flagged_gpus ? 1 : 0;
    }
    gs_outputs_abort(&out);
    gs_str_free(&text);
    gs_fleet_free(&fleet);
    return code;
}

int gs_cmd_compare(const struct gs_cli *cli, struct gs_err *e)
{
    struct gs_compare_file files[GS_MAX_COMPARE] = {{0}};
    struct gs_outputs out = {0};
    struct gs_str text = {0};
    int differ = 0, code = 2;
    if (cli->compare_help) {
        compare_usage(&text);
        const struct gs_str *texts[] = {&text};
        if (gs_outputs_add(&out, NULL, "stdout", e) == GS_OK &&
            gs_outputs_commit(&out, texts, e) == GS_OK)
            code = 0;
        gs_str_free(&text);
        return code;
    }
    if (cli->fleet)
        return cmd_fleet(cli, e);
    /* Every file is read and checked before the output is opened: bad
     * input leaves no output file behind. */
    if (load_all(cli, files, e) == GS_OK &&
        gs_compare_report(files, cli->nfiles, &text, &differ, e) == GS_OK &&
        gs_outputs_add(&out, cli->output, "--output", e) == GS_OK) {
        const struct gs_str *texts[] = {&text};
        if (gs_outputs_commit(&out, texts, e) == GS_OK)
            code = differ ? 1 : 0;
    }
    gs_outputs_abort(&out);
    gs_str_free(&text);
    for (int i = 0; i < cli->nfiles; ++i)
        gs_compare_free(&files[i]);
    return code;
}
