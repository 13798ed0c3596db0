/* SPDX-License-Identifier: MIT */
/* check's counters pass (gs_counters.h): a worker that builds the user's
 * .cu kernel and launches it once on grid G at GS_COUNTERS_N floats, then
 * the suite's grid-stride add on the same launch, its counters read by the
 * backend's own profiler in the worker (the backend's counters member:
 * CUPTI for CUDA), or with --ncu PATH (or where the backend has none) by
 * Nsight Compute (ncu) around it.
 *
 * The parent creates a private folder (gs_proc_private_dir) and in it the
 * kernel's source, the file the values go to (the worker's values file, or
 * ncu's CSV: --csv --log-file) and the
 * path the worker writes the user's raw output to. ncu and the worker run in
 * their own process group under a deadline; at the deadline the whole group
 * is killed. What the profiled process prints (a kernel's printf) goes to a
 * pipe that is drained and dropped, never parsed: the counts come from the
 * log file alone, and the user's output is verified here, bit for bit.
 *
 * Library code: nothing here prints or exits. */
#ifndef GS_COUNTERS_RUN_H
#define GS_COUNTERS_RUN_H

#include "gs_check.h"
#include "gs_counters.h"

#define GS_COUNTERS_COMMAND "__check-counters" /* the hidden worker mode */

/* Where ncu is: `given` (--ncu) when not NULL, else ncu on PATH, else
 * /usr/local/cuda/bin/ncu, else the newest /opt/nvidia/nsight-compute/ * /ncu.
 * 1 with path filled; 0 with why (one line) otherwise. */
int gs_counters_find_ncu(const char *given, char *path, size_t size, char *why, size_t why_size);

/* Run `ncu ARGS... -- APP_ARGV...` (ncu's own options first, then the
 * application) in a new process group, its output drained and dropped,
 * until it exits or deadline_s pass (then its group is killed: *timed_out).
 * *status: its wait status. GS_OK when it ran (whatever it returned). */
int gs_counters_spawn(const char *ncu, char *const argv[], const char *cwd, double deadline_s,
                      int *status, int *timed_out, struct gs_err *e);

/* Start the counters worker for src now, before this process opens its
 * APIs, where gs_counters_start will want it (b is CUDA with a profiler of
 * its own, src a .cu file, and plan neither leaves the counters out nor
 * names --ncu): it opens its API and builds src on the first device
 * `selector` (--device) picks while the parent opens its own, and
 * gs_counters_start takes it for the same file, telling it the run's device
 * (built again there if it is another). gs_counters_prestart_end ends one
 * not taken; src stays the caller's until then. GS_OK or why not
 * (gs_counters_start then starts its own). */
int gs_counters_prestart(const struct gs_backend *b, const struct gs_user_source *src,
                         const struct gs_check_plan *plan, const char *selector,
                         struct gs_err *e);
void gs_counters_prestart_end(void);

/* The pass for one device, in steps around the cases and the speed pass, so
 * that the worker's start (the device's, the build's, the profiler's; with
 * ncu, ncu's own too: about 2 s on an H200) runs beside the build and the
 * cases, while nothing of it runs beside the speed pass's timed launches:
 * gs_counters_ready waits for it before them, and its launches come after.
 *
 * gs_counters_start, before the cases: for the CUDA backend, a .cu file,
 * no --no-counters, and the speed pass or --counters, starts ncu around the worker, which
 * opens the device, builds the file and waits on a FIFO in the private
 * folder; *job is NULL when the pass does not run (run->counters says why,
 * or nothing for another API).
 *
 * gs_counters_launch, never beside the speed pass's timed launches: with go,
 * lets the worker launch and waits until it says its launches ended, or ncu
 * ended, or the deadline passed (then ncu's group is stopped there), so that ncu's own work after them (its
 * report, its exit) can run beside what follows; without go, ends ncu's
 * group, and the counters' line says why_not (NULL: they are read once every
 * case is right). Called before the speed pass under --counters, after it
 * otherwise (the speed verdict decides: an as-fast kernel is not profiled).
 *
 * defer_exit: the worker is killed as soon as its values are written (the
 * backend's profiler writes its exit status on the FIFO after them), or
 * when it is not let go, and reaped later (gs_proc_kill_later; the caller
 * calls gs_proc_reap_later()); else it is reaped as it ends.
 *
 * gs_counters_finish, after the speed pass (it launches first when
 * gs_counters_launch was not called): waits for ncu, at most
 * build_timeout_s + 2 * timeout_s from the go (the check --timeout rules:
 * the start and build, then the profiled launches), reads its log and sets
 * run->counters (read, or why not in one line). Frees the job. All return
 * GS_OK also when the counters could not be read; other statuses are the
 * harness's own failures. */
struct gs_counters_job;
int gs_counters_start(struct gs_device *dev, const struct gs_user_source *src,
                      const struct gs_check_plan *plan, struct gs_check_run *run,
                      unsigned build_timeout_s, double timeout_s, int defer_exit,
                      struct gs_counters_job **job, struct gs_err *e);
int gs_counters_launch(struct gs_counters_job *job, int go, const char *why_not,
                       struct gs_check_run *run);
/* Before the timed section: wait until the worker is ready for the go (its
 * context, build and profiler made ready, so that none of that runs beside a
 * timed launch), it ended, or build_timeout_s passed since its start. */
void gs_counters_ready(struct gs_counters_job *job, unsigned build_timeout_s);
/* What ncu and its worker printed so far, read and dropped without waiting,
 * so that its pipe never fills while the cases and the speed pass run. */
void gs_counters_drain(struct gs_counters_job *job);
int gs_counters_finish(struct gs_counters_job *job, int go, struct gs_check_run *run,
                       struct gs_err *e);
/* Both steps at once, for a run whose cases have all run (go: all right). */
int gs_counters_pass(struct gs_device *dev, const struct gs_user_source *src,
                     const struct gs_check_plan *plan, struct gs_check_run *run,
                     unsigned build_timeout_s, double timeout_s, struct gs_err *e);

/* The worker mode GS_COUNTERS_COMMAND, run by ncu: argv as the pass builds
 * it, b the backend argv[2] names (NULL: none). Returns the process's exit status (0: both launches ran and the
 * user's output was written). */
int gs_counters_worker(const struct gs_backend *b, int argc, char **argv);

#endif
