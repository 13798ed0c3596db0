/* SPDX-License-Identifier: MIT */
/* gridstride: parse, dispatch, map errors to exit codes. Nothing else. */
#include <stdio.h>
#include <string.h>

#include "gs_commands.h"
#include "gs_output.h"
#include "gs_worker.h"


/* The command line as typed, recorded in reports: one line, control
 * characters escaped like every echoed value. */
static void join_args(int argc, char **argv, char *buf, size_t size)
{
    size_t len = gs_escape_controls(buf, size, "gridstride");
    for (int i = 1; i < argc && len + 2 < size; ++i) {
        buf[len++] = ' ';
        len += gs_escape_controls(buf + len, size - len, argv[i]);
    }
}

int main(int argc, char **argv)
{
    struct gs_cli cli;
    struct gs_err e = {0};
    struct gs_session s;
    char command[2048];
    int code;

    if (argc > 1 && strcmp(argv[1], GS_WORKER_COMMAND) == 0)
        return gs_check_worker_main(argc, argv);
    if (gs_cli_parse(argc, argv, &cli, &e) != GS_OK) {
        fprintf(stderr, "gridstride: %s\n", e.msg);
        gs_check_parse_error_json(argc, argv, e.msg);
        return 2;
    }
    if (cli.mode == GS_MODE_HELP || cli.mode == GS_MODE_VERSION) {
        struct gs_str text = {0};
        if (cli.mode == GS_MODE_HELP)
            gs_cli_usage(&cli, &text);
        else
            gs_str_printf(&text, "gridstride %s\n", GS_VERSION_STRING);
        fputs(text.data ? text.data : "", stdout);
        gs_str_free(&text);
        return 0;
    }
    if (cli.mode == GS_MODE_COMPARE) {
        code = gs_cmd_compare(&cli, &e);
        if (code == 2)
            fprintf(stderr, "gridstride: %s\n", e.msg);
        return code;
    }
    join_args(argc, argv, command, sizeof command);
    if (cli.mode == GS_MODE_CHECK) {
        /* check opens the backends that can build the file, and prints its notes. */
        code = gs_cmd_check(&cli, command, &e);
        if (code == 2)
            fprintf(stderr, "gridstride: %s\n", e.msg);
        return code;
    }
    const int rc = gs_session_open(&cli, cli.mode != GS_MODE_LIST, &s, &e);
    if (rc != GS_OK) {
        fprintf(stderr, "gridstride: %s\n", e.msg);
        gs_session_close(&s);
        return 2;
    }
    switch (cli.mode) {
    case GS_MODE_LIST: code = gs_cmd_list(&cli, &s, &e); break;
    case GS_MODE_BANDWIDTH:
        code = cli.spread ? gs_cmd_spread(&cli, &s, command, &e)
                          : gs_cmd_bandwidth(&cli, &s, command, &e);
        break;
    case GS_MODE_PITFALLS: code = gs_cmd_pitfalls(&cli, &s, command, &e); break;
    case GS_MODE_TRACE: code = gs_cmd_trace(&cli, &s, command, &e); break;
    default: code = gs_cmd_table(&cli, &s, command, &e); break;
    }
    /* Bad usage gets its one line; a run also says what it skipped. */
    if (code == 2)
        fprintf(stderr, "gridstride: %s\n", e.msg);
    else
        for (int i = 0; i < s.nnotes; ++i)
            fprintf(stderr, "gridstride: note: %s\n", s.notes[i]);
    gs_session_close(&s);
    return code;
}
