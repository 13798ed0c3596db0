/* SPDX-License-Identifier: MIT */
/* `gridstride check` with the user's code out of the verdict's process.
 *
 * The parent (the process that prints the verdict) never loads or runs the
 * user's code. For each backend device it starts a worker, a second copy of
 * this program in a hidden mode, with only its channel and one shared memory
 * object open (core/base/gs_proc.h): the worker opens the same backend and
 * device, builds the file once, and for each case the parent sends, poisons
 * the output, launches, and copies the raw output with the guard past its
 * end into shared memory, answering with the API's status only. The parent
 * poisons the shared memory before every case, verifies the raw data with
 * the suite's verifier (gs_verify) and classifies; nothing the worker says
 * about correctness is used.
 *
 * A launch that runs past its deadline, or a worker that dies (a signal, an
 * exit, an answer that is not one), ends that case ("did not finish",
 * "faulted", in words), the worker's whole process group is killed, and the
 * next case gets a fresh worker (a GPU a fresh context). After
 * GS_WORKER_MAX_LOST cases in a row lost their worker, the device's other
 * cases are not run: a kernel that never ends is not waited for 24 times. */
#ifndef GS_WORKER_H
#define GS_WORKER_H

#include <stdatomic.h>

#include "gs_check.h"
#include "gs_turns.h"

#define GS_WORKER_COMMAND "__check-worker" /* the hidden mode; --help never lists it */
#define GS_WORKER_TIMEOUT_S 10u           /* per launch, on a GPU */
#define GS_WORKER_CPU_TIMEOUT_S 120u      /* per launch, on a CPU device (PoCL, host): a
                                             slow kernel at n = 2^22 (block_stride.cl, 2^22 x 160
                                             stores) takes a minute under load */
#define GS_WORKER_CPU_FACTOR 100          /* a CPU case's deadline without --timeout: this
                                             many times the suite's own loop at its n and T,
                                             plus a second (at most the CPU timeout) */
#define GS_WORKER_BUILD_TIMEOUT_S 60u     /* the worker's start and the build */
#define GS_WORKER_MAX_LOST 2

struct gs_worker_opts {
    double timeout_s;         /* per launch, seconds (a fraction allowed); 0:
                                 GS_WORKER_TIMEOUT_S on a GPU,
                                 GS_WORKER_CPU_TIMEOUT_S on a CPU device */
    unsigned build_timeout_s; /* 0: GS_WORKER_BUILD_TIMEOUT_S */
    /* Told about once a second while a launch (c) or the build (c NULL)
     * runs: how long it has run and its deadline. May be NULL. */
    void (*waiting)(void *ctx, const struct gs_device *dev, const struct gs_check_case *c,
                    unsigned seconds, double deadline);
    void *ctx;
    /* 1 for a backend that loads user code into its own process (the host
     * backend's dlopen): its worker gets the system-call filter, the
     * unprivileged user and the address-space limit. NULL: none does. */
    int (*loads_in_process)(const struct gs_backend *b);
    /* A .gs text on a backend that does not count writes: counted on this
     * device of the host backend, in a worker of its own that starts beside
     * the build and the cases, kept once they are all right (else dropped),
     * before the timed section; NULL: not counted, count_why says why (NULL:
     * nothing to say). */
    struct gs_device *count_on;
    const char *count_why;
    /* Set by another thread: every wait on the worker ends at once, as if
     * it were lost (a count beside the cases, not wanted after all). */
    atomic_int *cancel;
    /* 1: once no timed launch follows (the last turn), the worker that timed
     * and the counters worker are killed and reaped later
     * (gs_proc_kill_later): the caller calls gs_proc_reap_later() before it
     * ends (the CLI's driver does, after the backends close). */
    int defer_exit;
    /* Devices that run side by side: this one is `turn` (gs_turns.h). */
    struct gs_turns *turns;
    int turn;
};

/* Build src on dev and run every case of plan on the device grid g, with the
 * build and every launch in a worker process; this process poisons the
 * output, judges it and classifies. GS_OK: *run holds the results, also when
 * cases failed, faulted or did not finish; GS_BUILD, GS_USAGE,
 * GS_UNSUPPORTED: as user_build() says, with run->build filled; other
 * errors are environment failures. GS_OK also when the file crashed or hung the worker while it was built and
 * loaded (a constructor): every case is then faulted or did not finish.
 * *printed counts the bytes the workers wrote on stdout and stderr (a
 * kernel's printf), which never reach this process's own streams. */
int gs_check_device_isolated(struct gs_device *dev, const struct gs_grid_choice *g,
                             const struct gs_user_source *src, const struct gs_check_plan *plan,
                             const struct gs_worker_opts *opts, struct gs_check_run *run,
                             uint64_t *printed, struct gs_err *e);

/* Start a worker for backend b now, so that it opens its API while this
 * process opens its own: the first gs_check_device_isolated of a device of b
 * adopts it. GS_OK or why not (check then starts one when it needs it).
 * gs_worker_prestart_end() ends those no device adopted. */
int gs_worker_prestart(const struct gs_backend *b, struct gs_err *e);
/* The same, and the worker builds src at once on the first device that
 * `selector` (--device, NULL: any) picks of b, while this process opens its
 * own APIs; the first gs_check_device_isolated of that device on the same
 * file takes the build as it is. Only for a backend that does not load user
 * code in its own process (the reference's worker builds once its limits
 * and filter are in place). */
int gs_worker_prestart_build(const struct gs_backend *b, const struct gs_user_source *src,
                             const char *selector, struct gs_err *e);
void gs_worker_prestart_end(void);

/* The worker's side, on descriptors 3 (the channel) and 4 (shared memory):
 * serves one device of backend b until the parent says quit or goes away.
 * Returns the process's exit status. */
int gs_worker_serve(const struct gs_backend *b);

/* `check --compile-only`: backend b's run-time compiler (user_compile) for
 * target, in a worker of its own (gs_worker_compile.c): a session, user,
 * environment and Landlock rules of its own as every worker, the runtime's
 * system-call filter, GS_COMPILE_AS_BYTES of address space and
 * deadline_s seconds (0: GS_COMPILE_TIMEOUT_S), then killed (GS_BUILD with why). The
 * compiler's name and log come back in info. */
#define GS_COMPILE_COMMAND "__check-compile" /* the hidden mode; --help never lists it */
#define GS_COMPILE_TIMEOUT_S 60
#define GS_COMPILE_AS_BYTES (4ull << 30)
int gs_compile_isolated(const struct gs_backend *b, const struct gs_user_source *src,
                        const char *target, double deadline_s, struct gs_build_info *info,
                        struct gs_err *e);
/* The worker's side: one compilation asked on its channel (fd 3). */
int gs_compile_serve(const struct gs_backend *b);

#endif
