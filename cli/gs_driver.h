/* SPDX-License-Identifier: MIT */
/* The one loop every command goes through, and the descriptor that says
 * what a command does at each of its steps:
 *
 *   prepare (before any backend opens: read an input, or finish alone)
 *   -> the session: backends opened, devices chosen by --backend/--device
 *   -> select: the devices this command runs on (notes for those left out)
 *   -> plan: the plan and its preflight (bad usage before anything runs)
 *   -> every output opened (an unwritable path fails before the work)
 *   -> run: each device in turn (or side by side: GS_CMD_PARALLEL), progress
 *      on stderr; settle: each outcome in the devices' order
 *   -> finish: what needs every device's result
 *   -> the report in --format, the --svg chart, the --json copy
 *   -> every output committed whole
 *   -> exit code: 0, 1 when `failed` says so, 2 on any error (e's line);
 *      after a run, the session's notes on stderr.
 *
 * Every hook may be NULL: then the step does nothing (select keeps every
 * device of the session). A command file defines one descriptor and its
 * hooks, and calls no other command file. */
#ifndef GS_DRIVER_H
#define GS_DRIVER_H

#include <stddef.h>
#include <time.h>

#include "gs_cli.h"
#include "gs_progress.h"
#include "gs_session.h"

/* The version, from CMake's project(). */
#ifndef GS_VERSION
#error "GS_VERSION must be defined by the build"
#endif
#define GS_VERSION_STRING GS_VERSION

struct gs_job;

/* A file the suite ships, named by its place in the source tree
 * ("examples/grid_stride.gs", "docs/reference/t4-seed002.json"), into buf:
 * that path in the current folder (a checkout's top); else where an install
 * put it, relative to the running program, <bin>/../share/gridstride/ with a
 * leading "docs/" dropped (cmake/gs_install.cmake); else the checkout above
 * a build folder at its top (<build>/../). 0 when none is a regular file. */
int gs_data_file(const char *rel, char *buf, size_t size);

/* The columns a text report is written to: --width; else COLUMNS when it
 * is set (40 or more); else, on a terminal (stdout, no --output), its width,
 * at most 100; else 80, so that a file or a pipe gets the same text whatever
 * the terminal. Every text report is wrapped to it (gs_text_wrap) as it is
 * written. */
unsigned gs_job_width(const struct gs_job *j);

/* Descriptor flags. */
#define GS_CMD_NO_SESSION 0x1u /* opens no backend (compare) */
#define GS_CMD_NO_DEVICES 0x2u /* opens the backends, chooses no device (--list) */
/* Runs kernels in check's workers (check, pitfalls): its TMPDIR is a fresh
 * private folder while it runs, removed after its backends close, so that
 * what a GPU runtime leaves in TMPDIR, in this process or in a worker killed
 * at its deadline (NVIDIA's leaves a file), goes with it. */
#define GS_CMD_PRIVATE_TMPDIR 0x4u
/* Runs its devices side by side, each in a thread of its own; the command
 * keeps what must not overlap apart (check: gs_turns.h), and `settle` takes
 * the results in the devices' order, as if they had run one after another. */
#define GS_CMD_PARALLEL 0x8u

/* Its text is not a report to wrap (the lecture's HTML, CTest's JSON). */
#define GS_CMD_NO_WRAP 0x10u

/* A run hook's answer for a device it leaves out (its slot is reused). */
#define GS_DRIVE_SKIP (-1)

struct gs_command {
    const char *name; /* its progress lines' prefix: "bandwidth", "bandwidth --sweep" */
    unsigned flags;
    size_t ctx_size; /* the command's own state, zeroed: j->ctx */
    size_t run_size; /* one device's result: a slot of j->runs */
    /* Statuses of a run error that already say which device (bit 1 << status);
     * the others get "backend device name: " in front. */
    unsigned bare_errors;
    int (*prepare)(struct gs_job *j, struct gs_err *e);
    /* Under --backend all, after prepare: 1 to open backend b (NULL: every
     * one), so that a command opens no API it cannot use (check: only the
     * backends that build the file's dialect). */
    int (*opens)(const struct gs_job *j, const struct gs_backend *b);
    int (*select)(struct gs_job *j, struct gs_err *e);
    int (*plan)(struct gs_job *j, struct gs_err *e);
    /* Device j->devs[i] into slot `run`: GS_OK, GS_DRIVE_SKIP, or an error
     * (the slot is freed either way when it is not kept). */
    int (*run)(struct gs_job *j, int i, void *run, struct gs_err *e);
    /* After device i's run returned rc, in the devices' order (under
     * GS_CMD_PARALLEL, once every run has ended): what the command does with
     * the outcome that must not happen in a run's thread (messages, notes);
     * returns the status that counts. NULL: rc. A failure ends the job
     * there, and the results of the devices after it are dropped. */
    int (*settle)(struct gs_job *j, int i, void *run, int rc, struct gs_err *e);
    void (*free_run)(void *run);
    int (*finish)(struct gs_job *j, struct gs_err *e);
    /* How failures count: exit 1 when a kept run has failures, or when
     * failed says so of the whole job. */
    int (*failures)(const void *run);
    int (*failed)(const struct gs_job *j);
    /* The report in format f, or with chart set the --svg picture. */
    void (*render)(const struct gs_job *j, enum gs_format f, int chart, struct gs_str *out);
    /* After a step failed with `status` (exit 2; e holds its line), before
     * release: a command that owes a report for every outcome writes it
     * (check's JSON verdict). */
    void (*failure)(struct gs_job *j, int status, const struct gs_err *e);
    void (*release)(struct gs_job *j); /* frees what ctx holds */
};

struct gs_job {
    const struct gs_command *cmd;
    const struct gs_cli *cli;
    const char *command; /* the command line, for reports */
    char date[32];       /* UTC, when the runs ended */
    struct gs_session s;
    struct gs_device *devs[GS_MAX_DEVICES]; /* those select kept */
    int ndevs;
    unsigned char *runs;                    /* GS_MAX_DEVICES slots of run_size bytes */
    const void *done[GS_MAX_DEVICES];       /* the slots kept, in order */
    int ndone;
    void *ctx;
    const struct gs_progress *progress; /* to stderr; NULL under --quiet */
    const char *output;                 /* the report's path (NULL: stdout) */
    int finished;                       /* prepare did everything: exit with `code` */
    int code;
};

/* Slot i of j->runs (select may fill slots before the runs, as spread's probe). */
void *gs_job_slot(const struct gs_job *j, int i);

/* Device i moved 1 GiB or more through the workspace: the host-device copy
 * rate it measured and its time by phase, one line on stderr (its floor
 * beside its time). */
struct gs_copy_rate;
void gs_job_note_copies(const struct gs_job *j, int i, const struct gs_copy_rate *c);

/* The whole command: its exit code; e holds the line of an exit 2. */
int gs_drive(const struct gs_command *c, const struct gs_cli *cli, const char *command,
             struct gs_err *e);

/* The descriptor of the command the command line names (its mode). */
const struct gs_command *gs_command_of(const struct gs_cli *cli);

/* The commands, one descriptor each (gs_cmd_*.c). */
extern const struct gs_command gs_table_command, gs_list_command, gs_resources_command,
    gs_bandwidth_command, gs_sweep_command, gs_spread_command, gs_pitfalls_command,
    gs_trace_command, gs_check_command, gs_compare_command,
    gs_lecture_command;

/* Hooks for an engine of core/run named by the pattern gs_<engine>_run,
 * struct gs_<engine>, struct gs_<engine>_plan, gs_<engine>_free,
 * gs_<engine>_report and gs_<engine>_svg:
 *   GS_DEFINE_ENGINE_RUN(engine): <engine>_run, gs_<engine>_run on the plan
 *       that starts the command's ctx;
 *   GS_DEFINE_ENGINE_FREE(engine, member): <engine>_free, and
 *       <engine>_failures, the run's `member`;
 *   GS_DEFINE_ENGINE_RENDER(engine): <engine>_render, for a report input of
 *       {runs, nruns, version, command, date, toolkit}. */
#define GS_DEFINE_ENGINE_RUN(engine)                                                           \
    static int engine##_run(struct gs_job *j, int i, void *run, struct gs_err *e)              \
    {                                                                                          \
        return gs_##engine##_run(j->devs[i], (const struct gs_##engine##_plan *)j->ctx, run, e); \
    }
#define GS_DEFINE_ENGINE_FREE(engine, member)                                                  \
    static void engine##_free(void *run) { gs_##engine##_free(run); }                          \
    static int engine##_failures(const void *run)                                              \
    {                                                                                          \
        return ((const struct gs_##engine *)run)->member;                                      \
    }
#define GS_DEFINE_ENGINE_RENDER(engine)                                                        \
    static void engine##_render(const struct gs_job *j, enum gs_format f, int chart,           \
                                struct gs_str *out)                                            \
    {                                                                                          \
        const struct gs_##engine *runs[GS_MAX_DEVICES];                                        \
        for (int i = 0; i < j->ndone; ++i)                                                     \
            runs[i] = j->done[i];                                                              \
        const struct gs_##engine##_report_in in = {                                            \
            runs, j->ndone, GS_VERSION_STRING, j->command, j->date, GS_TOOLKIT, gs_job_width(j)}; \
        if (chart)                                                                             \
            gs_##engine##_svg(&in, out);                                                       \
        else                                                                                   \
            gs_##engine##_report(&in, f, out);                                                 \
    }

/* A command whose report is a text made before the output opens: its ctx
 * starts with that struct gs_str; render copies it, release frees it. */
void gs_job_text_render(const struct gs_job *j, enum gs_format f, int chart, struct gs_str *out);
void gs_job_text_release(struct gs_job *j);

/* Seconds on CLOCK_MONOTONIC since t0. */
double gs_seconds_since(const struct timespec *t0);

#endif
