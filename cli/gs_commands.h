/* SPDX-License-Identifier: MIT */
/* The commands of the CLI. Each returns an exit code (0, 1 or 2) and writes
 * a one-line message into e when it returns 2. */
#ifndef GS_COMMANDS_H
#define GS_COMMANDS_H

#include <time.h>

#include "gs_check.h"
#include "gs_cli.h"
#include "gs_session.h"

int gs_cmd_table(const struct gs_cli *cli, struct gs_session *s, const char *command,
                 struct gs_err *e);
int gs_cmd_list(const struct gs_cli *cli, struct gs_session *s, struct gs_err *e);
/* `gridstride compare`: no backend is opened. */
int gs_cmd_compare(const struct gs_cli *cli, struct gs_err *e);
/* --list --format ctest-resources: CTest's resource spec of the GPUs. */
int gs_cmd_ctest_resources(const struct gs_cli *cli, struct gs_session *s, struct gs_err *e);
int gs_cmd_bandwidth(const struct gs_cli *cli, struct gs_session *s, const char *command,
                     struct gs_err *e);
/* `gridstride bandwidth --sweep` on the devices and up to the size (floats
 * per buffer) that the bandwidth mode chose (gs_cmd_sweep.c). */
int gs_cmd_sweep(const struct gs_cli *cli, struct gs_device *const *devs, int ndevs,
                 uint64_t max_n, const char *command, struct gs_err *e);
/* `gridstride bandwidth --spread`: per-SM finish times (core/run/gs_spread.h). */
int gs_cmd_spread(const struct gs_cli *cli, struct gs_session *s, const char *command,
                  struct gs_err *e);
/* bandwidth's floats per buffer for these devices: --bytes, else gpu_bytes
 * (64 MiB with a CPU device among them), less where that does not fit. */
int gs_bandwidth_choose_n(const struct gs_cli *cli, struct gs_device *const *devs, int ndevs,
                          uint64_t gpu_bytes, uint64_t *n, struct gs_err *e);
int gs_cmd_pitfalls(const struct gs_cli *cli, struct gs_session *s, const char *command,
                    struct gs_err *e);
int gs_cmd_trace(const struct gs_cli *cli, struct gs_session *s, const char *command,
                 struct gs_err *e);

/* Seconds on CLOCK_MONOTONIC since t0. */
double gs_seconds_since(const struct timespec *t0);
/* Progress of long runs on stderr: nothing in the first second, then at
 * most a line a second. fn/ctx for a struct gs_progress. */
struct gs_stderr_progress {
    struct timespec start, last;
};
void gs_stderr_progress_start(struct gs_stderr_progress *p);
void gs_stderr_progress(void *ctx, const char *label, const char *phase, uint64_t done,
                        uint64_t total);
/* `gridstride check FILE`: opens its own session, with the backends that can
 * build FILE's dialect; compiler logs and notes go to stderr. */
int gs_cmd_check(const struct gs_cli *cli, const char *command, struct gs_err *e);
/* check --format json when no case was judged: the verdict object of
 * core/report/gs_check_report.h, into output (NULL or unwritable: stdout). */
struct gs_user_source;
void gs_check_usage_json(const struct gs_user_source *src, enum gs_check_class cls,
                         const char *msg, const char *command, const char *output);
/* main's bad usage, when the command line is check's with --format json. */
void gs_check_parse_error_json(int argc, char **argv, const char *msg);
/* check's hidden worker mode (gs_check_worker.c): the process's exit status. */
int gs_check_worker_main(int argc, char **argv);

/* The version, from CMake's project(). */
#ifndef GS_VERSION
#error "GS_VERSION must be defined by the build"
#endif
#define GS_VERSION_STRING GS_VERSION

/* Device limits the command line must respect (block, grid, shapes),
 * checked before any launch: GS_USAGE with a message naming the option. */
int gs_check_limits(const struct gs_device *d, unsigned block, uint64_t grid,
                    const struct gs_shape *shapes, int nshapes, struct gs_err *e);

#endif
