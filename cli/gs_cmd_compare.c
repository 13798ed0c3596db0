/* SPDX-License-Identifier: MIT */
/* `gridstride compare FILE.json...`: its options, and the command. The
 * comparison itself is core/report/gs_compare.c. */
#include <string.h>

#include "gs_commands.h"
#include "gs_compare.h"
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

int gs_compare_parse(int argc, char **argv, struct gs_cli *c, struct gs_err *e)
{
    memset(c, 0, sizeof *c);
    c->mode = GS_MODE_COMPARE;
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
    /* Every file is read and checked before the output is opened: bad
     * input leaves no output file behind. */
    if (gs_output_not_input(cli->output, "--output", cli->files, cli->nfiles, e) == GS_OK &&
        load_all(cli, files, e) == GS_OK &&
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
