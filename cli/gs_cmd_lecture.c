/* SPDX-License-Identifier: MIT */
/* `gridstride lecture`: the lesson, run on the devices present, as one
 * self-contained HTML deck (core/report/gs_lecture.h).
 *
 * On each device: the table at the seed's sizes on its G and on a T4's grid
 * (G = 160), seed 000's trace, the bandwidth rows and the sweep (small
 * buffers on a CPU device; the reference backend only when named, as in
 * `bandwidth`), the spread where the device records per-unit finish times,
 * and every pitfall (the reference backend's only when it is named or alone,
 * as `bandwidth` times it). Then one real `gridstride check` of the suite's
 * example kernel, run as a child process of this same program with a time
 * limit, so that the exercise slide shows the report a student gets.
 * Exit status: 0 every prediction held and every result verified; 1
 * otherwise (the deck is written either way, and says where); 2 bad usage. */
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gs_driver.h"
#include "gs_lecture.h"
#include "gs_plan_run.h"
#include "gs_registry.h"
#include "gs_run.h"

/* The T4 of the course: 40 SMs x 4 blocks of 256. */
#define LECTURE_T4_GRID 160u
/* Bandwidth on a CPU device: 4 MiB buffers and 5 repetitions keep the
 * default run within a minute on two cores; on a GPU, 256 MiB and 10: four
 * times an H200's L2 and more, and a quarter of the verification's time at
 * 1 GiB, which on a GPU costs more than the timed launches. */
#define LECTURE_CPU_BYTES (4ull << 20)
#define LECTURE_GPU_BYTES (256ull << 20)
#define LECTURE_CPU_REPS 5u
#define LECTURE_GPU_REPS 10u
#define LECTURE_WARMUP 2u
/* The exercise's check: seconds before it is stopped. */
#define LECTURE_CHECK_SECONDS 90

struct lecture_ctx {
    struct gs_table_setup setup, t4;
    struct gs_grid_choice grids[GS_MAX_DEVICES], t4_grids[GS_MAX_DEVICES];
    struct gs_trace_plan trace;
    struct gs_trace_agreement agree[GS_KERNEL_COUNT];
    int agreed;
    struct gs_lecture_check check;
    struct timespec start;
};

/* The deck's folder takes a file, before anything runs: the one line
 * names --html (the output itself is opened by the driver). */
static int html_writable(const char *path, struct gs_err *e)
{
    char dir[1024];
    if (!path)
        return GS_OK;
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else
        snprintf(dir, sizeof dir, "%.*s", slash == path ? 1 : (int)(slash - path), path);
    if (access(dir, W_OK) != 0)
        return gs_err_set(e, GS_USAGE, "--html: cannot write '%.*s%s' (%s: %s); choose a "
                                       "writable path, or --html - for stdout",
                          GS_ECHO(path), dir, strerror(errno));
    return GS_OK;
}

static int lecture_plan(struct gs_job *j, struct gs_err *e)
{
    static const enum gs_kernel_id seed[] = {GS_K_ADD_MONO, GS_K_ADD_GS, GS_K_ADD_CHUNKED};
    struct lecture_ctx *c = j->ctx;
    const struct gs_table_request req = {0, 0, (1u << GS_COLUMNS) - 1, NULL, 0, NULL, 0};
    const struct gs_table_request t4 = {0, LECTURE_T4_GRID, (1u << GS_COLUMNS) - 1, NULL, 0,
                                        NULL, 0};
    clock_gettime(CLOCK_MONOTONIC, &c->start);
    if (html_writable(j->output, e) != GS_OK)
        return e->status;
    if (gs_plan_table(j->devs, j->ndevs, &req, &c->setup, c->grids, e) != GS_OK ||
        gs_plan_table(j->devs, j->ndevs, &t4, &c->t4, c->t4_grids, e) != GS_OK)
        return e->status;
    c->setup.plan.progress = j->progress;
    c->t4.plan.progress = j->progress;
    c->trace = (struct gs_trace_plan){.grid = GS_TRACE_DEFAULT_GRID, .block = GS_DEFAULT_BLOCK,
                                      .n = GS_TRACE_DEFAULT_N, .progress = j->progress};
    for (size_t k = 0; k < sizeof seed / sizeof seed[0]; ++k)
        c->trace.kernels[c->trace.nkernels++] = seed[k];
    if (gs_trace_plan_check(&c->trace, e) != GS_OK)
        return e->status;
    return gs_plan_trace_maps(&c->trace, j->ndevs, e);
}

/* Whether `bandwidth` would time d in this run, and why not. */
static int benched(const struct gs_job *j, const struct gs_device *d, char *why, size_t size)
{
    struct gs_err e = {0};
    if (d->no_bandwidth[0] || !(d->caps & GS_CAP_TIMING)) {
        snprintf(why, size, "not measured: %s",
                 d->no_bandwidth[0] ? d->no_bandwidth : "its launches have no device timer");
        return 0;
    }
    if (strcmp(j->cli->backend, "all") == 0 && gs_registry_is_reference(d->backend)) {
        snprintf(why, size, "the %s backend is the reference, timed only when named "
                            "(--backend %s)", d->backend->name, d->backend->name);
        return 0;
    }
    if (gs_plan_bench_device(d, 0, 0, GS_TYPE_FLOAT, &e) != GS_OK) {
        snprintf(why, size, "%.600s", e.msg);
        return 0;
    }
    return 1;
}

/* The timed parts: rows, sweep and spread on the same buffers' size. An
 * error of one says why on its slide; the rest of the lesson runs. */
static void lecture_timed(struct gs_job *j, struct gs_device *dev, struct gs_lecture_device *d)
{
    struct gs_err e = {0};
    uint64_t n = 0;
    const unsigned reps = dev->is_gpu ? LECTURE_GPU_REPS : LECTURE_CPU_REPS;
    if (!benched(j, dev, d->no_bench, sizeof d->no_bench))
        return;
    if (gs_plan_bandwidth_n(&dev, 1, GS_TYPE_FLOAT, dev->is_gpu ? 0 : LECTURE_CPU_BYTES,
                            LECTURE_GPU_BYTES, &n, NULL, 0, &e) != GS_OK) {
        snprintf(d->no_bench, sizeof d->no_bench, "%.600s", e.msg);
        return;
    }
    d->bench_bytes = n * sizeof(float);
    /* Slide 5 shows the API's copy and three access patterns: those rows only. */
    const struct gs_bench_plan bp = {.n = n,
                                     .reps = reps,
                                     .warmup = LECTURE_WARMUP,
                                     .progress = j->progress,
                                     .type = GS_TYPE_FLOAT,
                                     .groups = (1u << GS_BG_CEILING) | (1u << GS_BG_ACCESS)};
    d->has_bench = 1;
    if (gs_bench_run(dev, &bp, &d->bench, &e) != GS_OK) {
        snprintf(d->no_bench, sizeof d->no_bench, "the benchmark failed: %.150s", e.msg);
        gs_bench_free(&d->bench);
        d->has_bench = 0;
        return;
    }
    const struct gs_sweep_plan sp = {n, reps, LECTURE_WARMUP, 0, 0, j->progress};
    d->has_sweep = 1;
    if (gs_sweep_run(dev, &sp, &d->sweep, &e) != GS_OK) {
        gs_sweep_free(&d->sweep);
        d->has_sweep = 0;
        snprintf(d->sweep.stopped, sizeof d->sweep.stopped, "the sweep failed: %.150s", e.msg);
    }
    gs_spread_probe(dev, &d->spread);
    if (d->spread.available) {
        const struct gs_spread_plan pp = {n, 0, 0, j->progress};
        d->has_spread = 1;
        if (gs_spread_run(dev, &pp, &d->spread, &e) != GS_OK) {
            gs_spread_free(&d->spread);
            d->has_spread = 0;
            d->spread.available = 0;
            snprintf(d->spread.why, sizeof d->spread.why, "the spread failed: %.150s", e.msg);
        }
    }
}

/* The reference backend's pitfalls are the API devices' lesson run again,
 * on a CPU (a block's threads in turn): they run when it is named, or when it is
 * the only backend with a device. */
static int reference_stands_aside(const struct gs_job *j, const struct gs_device *dev)
{
    if (strcmp(j->cli->backend, "all") != 0 || !gs_registry_is_reference(dev->backend))
        return 0;
    for (int i = 0; i < j->ndevs; ++i)
        if (!gs_registry_is_reference(j->devs[i]->backend))
            return 1;
    return 0;
}

static int lecture_run(struct gs_job *j, int i, void *run, struct gs_err *e)
{
    struct lecture_ctx *c = j->ctx;
    struct gs_lecture_device *d = run;
    struct gs_device *dev = j->devs[i];
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    d->dev = dev;
    if (gs_table_run_at(dev, &c->setup.plan, &c->grids[i], &d->table, e) != GS_OK ||
        gs_table_run_at(dev, &c->t4.plan, &c->t4_grids[i], &d->t4, e) != GS_OK)
        return e->status;
    struct gs_err why = {0};
    if (!(dev->caps & GS_CAP_TRACE))
        snprintf(d->no_trace, sizeof d->no_trace, "the %s backend has no trace build",
                 dev->backend->name);
    else if (gs_plan_limits(dev, (unsigned)c->trace.block, c->trace.grid, NULL, 0, &why) !=
             GS_OK)
        snprintf(d->no_trace, sizeof d->no_trace, "%.600s", why.msg);
    else {
        d->has_trace = 1;
        if (gs_trace_run(dev, &c->trace, &d->trace, e) != GS_OK)
            return e->status;
    }
    lecture_timed(j, dev, d);
    if (reference_stands_aside(j, dev)) {
        snprintf(d->no_pitfalls, sizeof d->no_pitfalls, "the %s backend is the reference: its "
                 "pitfalls run when it is named (--backend %s)", dev->backend->name,
                 dev->backend->name);
    } else {
        /* Every predicted trap: the early return is recorded, not predicted,
         * and would start check's workers for a slide it has no place on. */
        const struct gs_pitfalls_plan pp = {((1u << GS_TRAPS) - 1) &
                                                ~(1u << GS_TRAP_EARLY_RETURN),
                                            j->progress, 0, 0};
        d->has_pitfalls = 1;
        if (gs_pitfalls_run(dev, &pp, &d->pitfalls, e) != GS_OK)
            return e->status;
    }
    d->seconds = gs_seconds_since(&t0);
    return GS_OK;
}

static void lecture_free(void *run)
{
    gs_lecture_device_free(run);
}

static int lecture_failures(const void *run)
{
    const struct gs_lecture_device *d = run;
    return (d->table && d->table->failed) || (d->t4 && d->t4->failed) ||
           (d->has_trace && d->trace.failed) || (d->has_bench && d->bench.wrong_rows) ||
           (d->has_sweep && d->sweep.wrong_points) || (d->has_spread && d->spread.wrong) ||
           (d->has_pitfalls && d->pitfalls.failed);
}

/* ---- the exercise: `gridstride check` as a child process -------------------- */


/* Reads the child's output until it exits or the time is up. */
static void collect(int fd, pid_t pid, struct gs_lecture_check *c)
{
    size_t len = 0;
    struct timespec t0;
    int status = 0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        const double left = LECTURE_CHECK_SECONDS - gs_seconds_since(&t0);
        if (left <= 0) {
            c->timed_out = 1;
            kill(pid, SIGKILL);
            break;
        }
        struct pollfd p = {fd, POLLIN, 0};
        const int r = poll(&p, 1, (int)(left * 1000) + 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            continue;
        char buf[4096];
        const ssize_t got = read(fd, buf, sizeof buf);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        const size_t keep = (size_t)got < sizeof c->report - 1 - len ? (size_t)got
                                                                      : sizeof c->report - 1 - len;
        memcpy(c->report + len, buf, keep);
        len += keep;
    }
    c->report[len] = '\0';
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    c->seconds = gs_seconds_since(&t0);
    c->code = !c->timed_out && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    if (c->timed_out)
        snprintf(c->why, sizeof c->why, "stopped after %d s", LECTURE_CHECK_SECONDS);
    else if (!WIFEXITED(status))
        snprintf(c->why, sizeof c->why, "ended by signal %d", WTERMSIG(status));
}

static void lecture_check(const struct gs_cli *cli, struct gs_lecture_check *c)
{
    /* The example kernel in the portable dialect: the checkout's, or the
     * installed copy (gs_data_file). */
    char path[PATH_MAX];
    const char *file = gs_data_file("examples/grid_stride.gs", path, sizeof path) ? path : NULL;
    const char *argv[12];
    int argc = 0;
    argv[argc++] = "gridstride";
    argv[argc++] = "check";
    argv[argc++] = file ? file : "examples/grid_stride.gs";
    argv[argc++] = "--backend";
    argv[argc++] = cli->backend;
    if (cli->device) {
        argv[argc++] = "--device";
        argv[argc++] = cli->device;
    }
    argv[argc] = NULL;
    size_t len = 0;
    for (int i = 0; i < argc && len < sizeof c->command; ++i)
        len += (size_t)snprintf(c->command + len, sizeof c->command - len, "%s%s", i ? " " : "",
                                argv[i]);
    if (!file) {
        snprintf(c->why, sizeof c->why, "examples/grid_stride.gs is neither in this folder nor "
                                        "installed beside gridstride: run gridstride lecture "
                                        "from the top of the checkout, or install it");
        return;
    }
    int fds[2];
    if (pipe(fds) != 0) {
        snprintf(c->why, sizeof c->why, "pipe: %s", strerror(errno));
        return;
    }
    fflush(NULL);
    const pid_t pid = fork();
    if (pid < 0) {
        snprintf(c->why, sizeof c->why, "fork: %s", strerror(errno));
        close(fds[0]);
        close(fds[1]);
        return;
    }
    if (pid == 0) {
        const int null = open("/dev/null", O_WRONLY);
        dup2(fds[1], STDOUT_FILENO);
        if (null >= 0)
            dup2(null, STDERR_FILENO);
        close(fds[0]);
        close(fds[1]);
        execv("/proc/self/exe", (char *const *)argv);
        _exit(127);
    }
    close(fds[1]);
    c->ran = 1;
    collect(fds[0], pid, c);
    close(fds[0]);
}

/* The maps compared across APIs, the exercise run, the deck's name said. */
static int lecture_finish(struct gs_job *j, struct gs_err *e)
{
    struct lecture_ctx *c = j->ctx;
    const struct gs_trace *runs[GS_MAX_DEVICES];
    int nruns = 0;
    (void)e;
    for (int i = 0; i < j->ndone; ++i) {
        const struct gs_lecture_device *d = j->done[i];
        if (d->has_trace)
            runs[nruns++] = &d->trace;
    }
    c->agreed = nruns ? gs_trace_agree(runs, nruns, c->agree) : 1;
    struct gs_lecture_device *labelled[GS_MAX_DEVICES];
    for (int i = 0; i < j->ndone; ++i)
        labelled[i] = (struct gs_lecture_device *)j->done[i];
    gs_lecture_label(labelled, j->ndone);
    lecture_check(j->cli, &c->check);
    if (j->cli->lecture_default_name)
        gs_session_note(&j->s, "lecture: the deck is %s (name another with --html FILE, or "
                               "--html - for stdout)", j->output);
    return GS_OK;
}

static int lecture_failed(const struct gs_job *j)
{
    const struct lecture_ctx *c = j->ctx;
    return !c->agreed || (c->check.ran && c->check.code != 0);
}

static void lecture_render(const struct gs_job *j, enum gs_format f, int chart,
                           struct gs_str *out)
{
    const struct lecture_ctx *c = j->ctx;
    const struct gs_lecture_device *devs[GS_MAX_DEVICES];
    (void)f;
    (void)chart;
    for (int i = 0; i < j->ndone; ++i)
        devs[i] = j->done[i];
    const struct gs_lecture_in in = {devs,       j->ndone, c->agree, c->agreed,
                                     &c->check,  GS_VERSION_STRING, j->command,
                                     j->date,    gs_seconds_since(&c->start)};
    gs_lecture_html(&in, out);
}

const struct gs_command gs_lecture_command = {
    .name = "lecture", .flags = GS_CMD_NO_WRAP, .ctx_size = sizeof(struct lecture_ctx),
    .run_size = sizeof(struct gs_lecture_device), .plan = lecture_plan, .run = lecture_run,
    .free_run = lecture_free, .finish = lecture_finish, .failures = lecture_failures,
    .failed = lecture_failed, .render = lecture_render,
};
