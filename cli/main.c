/* SPDX-License-Identifier: MIT */
/* gridstride: set the allocator's thresholds, parse, dispatch, map errors to
 * exit codes. Nothing else. */
#include <stdio.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "gs_check_cmd.h"
#include "gs_counters_run.h"
#include "gs_driver.h"
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
    char command[2048];

#if defined(__GLIBC__)
    /* A run's host buffers (n = 2^22 floats: 16 MiB each, and PoCL's device
     * buffers on a CPU) come from the heap and go back to it when freed,
     * rather than to the kernel at every free and zero-filled anew at the
     * next case: glibc's own threshold stops growing at 32 MiB. Larger
     * allocations (the big-n runs' gigabytes) are still mapped and unmapped
     * each time, and at most 256 MiB of freed heap is kept. */
    mallopt(M_MMAP_THRESHOLD, 64 << 20);
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
#endif
    if (argc > 1 && strcmp(argv[1], GS_WORKER_COMMAND) == 0)
        return gs_check_worker_main(argc, argv);
    if (argc > 1 && strcmp(argv[1], GS_COMPILE_COMMAND) == 0)
        return gs_check_compile_main(argc, argv);
    if (argc > 1 && strcmp(argv[1], GS_COUNTERS_COMMAND) == 0)
        return gs_check_counters_main(argc, argv);
    join_args(argc, argv, command, sizeof command); /* before the parse gathers compare's files */
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
            gs_cli_version(GS_VERSION_STRING, &text);
        fputs(text.data ? text.data : "", stdout);
        gs_str_free(&text);
        return 0;
    }
    const int code = gs_drive(gs_command_of(&cli), &cli, command, &e);
    /* Bad usage gets its one line. */
    if (code == 2)
        fprintf(stderr, "gridstride: %s\n", e.msg);
    return code;
}
