/* SPDX-License-Identifier: MIT */
/* `gridstride check`'s entry points besides its descriptor: its JSON verdict
 * for a command line that does not parse (an autograder gets JSON for every
 * outcome), and the hidden worker mode in which a user's kernel is built and
 * run (gs_check_worker.c). */
#ifndef GS_CHECK_CMD_H
#define GS_CHECK_CMD_H

/* main's bad usage, when the command line is check's with --format json. */
void gs_check_parse_error_json(int argc, char **argv, const char *msg);
/* check's hidden worker mode (gs_check_worker.c): the process's exit status. */
int gs_check_worker_main(int argc, char **argv);
/* check --compile-only's worker (gs_check_worker.c): the exit status. */
int gs_check_compile_main(int argc, char **argv);
/* check's counters worker, run by Nsight Compute (core/run/gs_counters_run.h). */
int gs_check_counters_main(int argc, char **argv);

#endif
