/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE /* pipe2 */

#include "gs_counters_run.h"

#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gs_device.h"
#include "gs_io.h"
#include "gs_proc.h"
#include "gs_select.h"
#include "gs_str.h"
#include "gs_verify.h"
#include "gs_verify_pool.h"
#include "gs_workspace.h"

#define LOG_MAX (4u << 20) /* no CSV of two kernels is larger */

/* ---- finding ncu --------------------------------------------------------- */

static int executable(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

int gs_counters_find_ncu(const char *given, char *path, size_t size, char *why, size_t why_size)
{
    if (given) {
        /* Absolute: ncu starts in the pass's private folder. */
        char abs[PATH_MAX];
        if (executable(given) && realpath(given, abs) && strlen(abs) < size) {
            snprintf(path, size, "%s", abs);
            return 1;
        }
        snprintf(why, why_size, "--ncu %.300s is not an executable file; give the path of "
                 "Nsight Compute's ncu", given);
        return 0;
    }
    const char *env = getenv("PATH");
    char dirs[4096];
    snprintf(dirs, sizeof dirs, "%s", env ? env : "");
    char *save = NULL;
    for (char *d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
        char p[PATH_MAX];
        if (*d && snprintf(p, sizeof p, "%s/ncu", d) < (int)sizeof p && executable(p) &&
            strlen(p) < size) {
            snprintf(path, size, "%s", p);
            return 1;
        }
    }
    if (executable("/usr/local/cuda/bin/ncu")) {
        snprintf(path, size, "/usr/local/cuda/bin/ncu");
        return 1;
    }
    glob_t g;
    int found = 0;
    if (glob("/opt/nvidia/nsight-compute/*/ncu", 0, NULL, &g) == 0) {
        /* glob sorts: the last is the newest version. */
        for (size_t i = g.gl_pathc; i-- > 0 && !found;)
            if (executable(g.gl_pathv[i]) && strlen(g.gl_pathv[i]) < size) {
                snprintf(path, size, "%s", g.gl_pathv[i]);
                found = 1;
            }
        globfree(&g);
    }
    if (!found)
        snprintf(why, why_size, "not read: Nsight Compute (ncu) not found on PATH, in "
                 "/usr/local/cuda/bin or /opt/nvidia/nsight-compute; give --ncu PATH to read "
                 "the kernel's memory requests and sectors");
    return found;
}

/* ---- running ncu --------------------------------------------------------- */

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Wait for a child of gs_proc_spawn until it exits or deadline_s pass
 * (then its group is killed: *timed_out), draining what it prints. */
static void wait_child(struct gs_child *c, double deadline_s, int *status, int *timed_out)
{
    const double t0 = now_s();
    *status = 0;
    *timed_out = 0;
    for (;;) {
        int st = 0;
        const pid_t r = waitpid(c->pid, &st, WNOHANG);
        if (r == c->pid) {
            /* Anything it left running in its group goes with it. */
            kill(-c->pid, SIGKILL);
            gs_proc_kill(c, NULL); /* its bookkeeping; the wait finds it reaped */
            *status = st;
            return;
        }
        if (now_s() - t0 >= deadline_s) {
            *timed_out = 1;
            gs_proc_kill(c, status);
            return;
        }
        struct pollfd p = {c->out, POLLIN, 0};
        if (c->out >= 0 && poll(&p, 1, 50) > 0 && gs_proc_drain(c) == 0) {
            close(c->out);
            c->out = -1;
        } else if (c->out < 0) {
            const struct timespec t = {0, 50 * 1000 * 1000};
            nanosleep(&t, NULL);
        }
    }
}

static int spawn_child(const char *exe, char *const argv[], const char *cwd, struct gs_child *c,
                       struct gs_err *e)
{
    struct gs_proc_limits lim;
    memset(&lim, 0, sizeof lim);
    lim.cwd = cwd; /* no CPU-time limit: ncu's threads may add up faster than the
                      wall clock, whose deadline ends it */
    gs_proc_install_cleanup();
    return gs_proc_spawn(exe, argv, -1, &lim, c, e);
}

int gs_counters_spawn(const char *ncu, char *const argv[], const char *cwd, double deadline_s,
                      int *status, int *timed_out, struct gs_err *e)
{
    struct gs_child c;
    *status = 0;
    *timed_out = 0;
    const int rc = spawn_child(ncu, argv, cwd, &c, e);
    if (rc == GS_OK)
        wait_child(&c, deadline_s, status, timed_out);
    return rc;
}

/* A file's text, at most max bytes; NULL when it cannot be read. */
static char *slurp(const char *path, size_t max, size_t *len)
{
    const int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    char *buf = malloc(max + 1);
    const ssize_t got = buf ? gs_read_full(fd, buf, max) : -1;
    close(fd);
    if (got < 0) {
        free(buf);
        return NULL;
    }
    buf[got] = '\0';
    *len = (size_t)got;
    return buf;
}

static int write_file(const char *path, const void *data, size_t len)
{
    const int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0)
        return -1;
    const int rc = gs_write_full(fd, data, len, 0);
    return close(fd) != 0 ? -1 : rc;
}

/* `ncu --version` into dir/version.txt (its own output, no profiled
 * process), started beside the counted run and read when it has ended. */
static int version_start(const char *ncu, const char *dir, struct gs_child *c)
{
    char log[PATH_MAX], sh[] = "/bin/sh", dash_c[] = "-c", script[] = "exec \"$0\" --version >\"$1\"";
    if (snprintf(log, sizeof log, "%s/version.txt", dir) >= (int)sizeof log)
        return 0;
    char *argv[] = {sh, dash_c, script, (char *)ncu, log, NULL};
    struct gs_err ignored = {0};
    return spawn_child("/bin/sh", argv, dir, c, &ignored) == GS_OK;
}

static void version_read(const char *dir, struct gs_child *c, char *source, size_t size)
{
    int status = 0, timed_out = 0;
    snprintf(source, size, "ncu (version unknown)");
    wait_child(c, 30, &status, &timed_out);
    char log[PATH_MAX];
    if (timed_out || snprintf(log, sizeof log, "%s/version.txt", dir) >= (int)sizeof log)
        return;
    size_t len = 0;
    char *text = slurp(log, 1u << 16, &len);
    char v[48];
    if (text && gs_counters_ncu_version(text, v, sizeof v))
        snprintf(source, size, "ncu %s", v);
    free(text);
}

/* ---- the pass (the parent) ----------------------------------------------- */

/* The counters worker's exit statuses: how far it came. */
enum { CW_OK = 0, CW_USAGE = 2, CW_OPEN = 3, CW_BUILD = 4, CW_LAUNCH = 5, CW_WRITE = 6,
       CW_NO_GO = 7, CW_COUNT = 8 };


static void not_read(struct gs_counters *c, const char *fmt, const char *arg)
{
    c->state = GS_CTRS_NOT_READ;
    c->cls = GS_CTRS_NONE;
    snprintf(c->why, sizeof c->why, fmt, arg);
}

/* How far the counted launch's process came (its exit status, through
 * ncu, which returns the application's), or ncu's own status in words. */
static void exit_words(int status, char *buf, size_t size)
{
    static const char *const stages[] = {
        [CW_USAGE] = "its arguments were refused", [CW_OPEN] = "the device did not open",
        [CW_BUILD] = "the build failed", [CW_LAUNCH] = "a launch failed",
        [CW_WRITE] = "its output could not be written",
        [CW_NO_GO] = "it was not let launch", [CW_COUNT] = "the profiler failed"};
    if (WIFEXITED(status) && WEXITSTATUS(status) >= CW_USAGE && WEXITSTATUS(status) <= CW_COUNT) {
        snprintf(buf, size, "exit status %d: %s", WEXITSTATUS(status),
                 stages[WEXITSTATUS(status)]);
        return;
    }
    char words[300];
    gs_proc_status_words(status, words, sizeof words);
    snprintf(buf, size, "%s", words);
}

/* The user's kernel and the suite's, as a reader found them (`who` read
 * them): taken when the user's has the global requests and sectors. */
static void use_pair(struct gs_counters *c, const struct gs_counters_kernel *user,
                     const struct gs_counters_kernel *suite, const char *entry, const char *who)
{
    if ((user->have & GS_CTR_NEEDED) != GS_CTR_NEEDED) {
        snprintf(c->why, sizeof c->why, "not read: %s gave no global request and sector "
                 "counts for %.100s (metric names of another GPU generation?)", who, entry);
        return;
    }
    c->user = *user;
    c->suite = *suite;
    c->state = GS_CTRS_READ;
}

/* What ncu's exit left: the kernels picked, or why not. */
static void read_log(struct gs_counters *c, const char *log, const char *entry, int status)
{
    struct gs_counters_kernel k[GS_COUNTERS_MAX_KERNELS];
    char why[400];
    size_t len = 0;
    int nk = 0;
    char *text = slurp(log, LOG_MAX, &len);
    char words[320];
    exit_words(status, words, sizeof words);
    if (!text) {
        snprintf(c->why, sizeof c->why, "not read: ncu wrote no log (%.300s)", words);
        return;
    }
    const int rc = gs_counters_parse_csv(text, len, k, GS_COUNTERS_MAX_KERNELS, &nk, why,
                                         sizeof why);
    free(text);
    if (rc != GS_OK || nk == 0) {
        snprintf(c->why, sizeof c->why, "not read: ncu: %.300s (%.150s)",
                 why[0] ? why : "no kernel profiled", words);
        return;
    }
    const struct gs_counters_kernel *user = NULL, *suite = NULL;
    for (int i = 0; i < nk; ++i) {
        if (!user && gs_counters_name_is(k[i].name, entry))
            user = &k[i];
        else if (!suite && gs_counters_name_is(k[i].name, GS_COUNTERS_SUITE_KERNEL))
            suite = &k[i];
    }
    if (!user || !suite) {
        snprintf(c->why, sizeof c->why, "not read: ncu's log has %d kernels but not both %.100s "
                 "and the suite's " GS_COUNTERS_SUITE_KERNEL, nk, entry);
        return;
    }
    use_pair(c, user, suite, entry, "ncu");
}

/* What the worker's own profiler left (gs_counters_parse_values): range 0
 * is the user's launch, range 1 the suite's loop, in the order launched. */
static void read_values(struct gs_counters *c, const char *path, const char *entry, int status)
{
    struct gs_counters_kernel k[GS_COUNTERS_MAX_KERNELS];
    char why[400], source[sizeof c->source], words[320];
    size_t len = 0;
    int nk = 0;
    char *text = slurp(path, LOG_MAX, &len);
    exit_words(status, words, sizeof words);
    if (!text) {
        snprintf(c->why, sizeof c->why, "not read: the counters worker wrote no values (%.300s)",
                 words);
        return;
    }
    const int rc = gs_counters_parse_values(text, len, k, GS_COUNTERS_MAX_KERNELS, &nk, source,
                                            sizeof source, why, sizeof why);
    free(text);
    if (source[0])
        gs_strlcpy(c->source, source, sizeof c->source);
    if (rc == GS_API) {
        snprintf(c->why, sizeof c->why, "not read: %.420s", why);
        return;
    }
    if (rc != GS_OK || !(WIFEXITED(status) && WEXITSTATUS(status) == CW_OK)) {
        snprintf(c->why, sizeof c->why, "not read: %.300s (%.150s)",
                 rc != GS_OK ? why : "the counters worker did not finish", words);
        return;
    }
    if (nk != 2) {
        snprintf(c->why, sizeof c->why, "not read: the profiler gave %d ranges for the 2 "
                 "launches", nk);
        return;
    }
    for (int i = 0; i < 2; ++i) {
        k[i].id = i;
        k[i].grid = c->grid;
        k[i].block = c->block;
    }
    gs_strlcpy(k[0].name, entry, sizeof k[0].name);
    gs_strlcpy(k[1].name, GS_COUNTERS_SUITE_KERNEL, sizeof k[1].name);
    use_pair(c, &k[0], &k[1], entry, "the profiler");
}

/* The user's raw output of the counted launch, verified here: counts of a
 * launch that did not compute out = a + b are not the kernel's. */
static int output_right(struct gs_counters *c, const char *path, char *why, size_t size)
{
    const uint64_t bytes = gs_buffer_bytes(c->n);
    size_t len = 0;
    float *out = (float *)slurp(path, (size_t)bytes, &len);
    if (!out || len != bytes) {
        free(out);
        snprintf(why, size, "the counted launch left no output (its process ended before it "
                 "was read back)");
        return 0;
    }
    const struct gs_launch l = gs_launch_1d(GS_K_ADD_GS, c->n, c->grid, c->block);
    struct gs_verdict v;
    gs_verify_readback(NULL, out, &l, &v);
    free(out);
    if (!gs_verdict_clean(&v)) {
        char diag[300];
        gs_diagnosis(&v, diag, sizeof diag);
        snprintf(why, size, "the counted launch's output is wrong: %s", diag);
        return 0;
    }
    return 1;
}

struct gs_counters_job {
    struct gs_child ncu, version; /* ncu: ncu around the worker, or the worker alone (api) */
    int api;                      /* the backend's own profiler reads them in the worker */
    int have_version;
    int go_fd;   /* the FIFO the worker waits on: this process's end, read and write */
    int done_fd; /* the FIFO it says its launches ended on */
    int launched; /* let go, and its launches ended (or ncu did) */
    int ready;    /* said it is ready, or will never be */
    int defer_exit;
    const struct gs_backend *backend;
    const char *text; /* the file (the caller's), to match a prestarted job with its run */
    uint64_t n;       /* the counted launch's n, on the worker's command line */
    double start_at;
    double go_at;
    double deadline_s;
    const char *entry;
    char dir[PATH_MAX], outf[PATH_MAX + 16], logf[PATH_MAX + 16];
};

/* Who the job's process is, for its lines. */
static const char *who(const struct gs_counters_job *j)
{
    return j->api ? "the counters worker" : "ncu";
}

/* The job's process ended now: reaped later with the job's folder under
 * defer_exit (gs_proc_kill_later), else reaped here. */
static void job_stop(struct gs_counters_job *j)
{
    if (j->ncu.pid > 0 && j->defer_exit) {
        gs_proc_kill_later(&j->ncu, j->dir, NULL);
        j->dir[0] = '\0';
    } else if (j->ncu.pid > 0) {
        gs_proc_kill(&j->ncu, NULL);
    }
}

static void job_free(struct gs_counters_job *j)
{
    job_stop(j);
    if (j->have_version && j->version.pid > 0)
        gs_proc_kill(&j->version, NULL);
    if (j->go_fd >= 0)
        close(j->go_fd);
    if (j->done_fd >= 0)
        close(j->done_fd);
    gs_proc_remove_dir(j->dir);
    free(j);
}

/* A job's folder, files and FIFOs, and its process: the worker alone (api),
 * or ncu around it. The worker's device, grid and block come later, as a
 * line on the go FIFO (job_params); until then it builds the file on the
 * first device `selector` picks. */
static int job_spawn(const struct gs_backend *b, const struct gs_user_source *src, int api,
                     const char *ncu, const char *selector, uint64_t count_n,
                     struct gs_counters_job **job, struct gs_err *e)
{
    char self[PATH_MAX];
    const ssize_t sl = readlink("/proc/self/exe", self, sizeof self - 1);
    if (sl <= 0)
        return gs_err_set(e, GS_IO, "cannot find this program's path for the counters pass: %s",
                          strerror(errno));
    self[sl] = '\0';
    struct gs_counters_job *j = calloc(1, sizeof *j);
    if (!j)
        return gs_err_set(e, GS_NOMEM, "out of memory");
    j->go_fd = j->done_fd = -1;
    j->start_at = now_s();
    j->api = api;
    j->backend = b;
    j->n = count_n;
    int rc = gs_proc_private_dir(j->dir, sizeof j->dir, -1, e);
    if (rc != GS_OK) {
        free(j);
        return rc;
    }
    char srcf[PATH_MAX + 16], gof[PATH_MAX + 16], donef[PATH_MAX + 16];
    snprintf(srcf, sizeof srcf, "%s/kernel.cu", j->dir);
    snprintf(gof, sizeof gof, "%s/go", j->dir);
    snprintf(donef, sizeof donef, "%s/done", j->dir);
    snprintf(j->outf, sizeof j->outf, "%s/out.bin", j->dir);
    snprintf(j->logf, sizeof j->logf, "%s/%s", j->dir, api ? "values.txt" : "ncu.csv");
    j->text = src->text;
    j->entry = src->entry;
    /* The log exists before ncu starts: its path is this process's. The
     * FIFO is open here for reading and writing, so that neither end's open
     * waits for the other, and the worker's read ends when this end closes. */
    if (write_file(srcf, src->text, strlen(src->text)) != 0 ||
        (!api && write_file(j->logf, "", 0) != 0) ||
        mkfifo(gof, 0600) != 0 || (j->go_fd = open(gof, O_RDWR | O_CLOEXEC)) < 0 ||
        mkfifo(donef, 0600) != 0 ||
        (j->done_fd = open(donef, O_RDWR | O_NONBLOCK | O_CLOEXEC)) < 0) {
        gs_err_set(e, GS_IO, "cannot write the counters pass's files in %s: %s", j->dir,
                   strerror(errno));
        job_free(j);
        return GS_IO;
    }
    char filter[256], n[32], dialect[16], device[160];
    snprintf(filter, sizeof filter, "regex:^(%s|" GS_COUNTERS_SUITE_KERNEL ")$", src->entry);
    snprintf(n, sizeof n, "%llu", (unsigned long long)count_n);
    snprintf(dialect, sizeof dialect, "%d", (int)src->dialect);
    snprintf(device, sizeof device, "?%s", selector ? selector : "");
    /* --clock-control none: ncu's default locks the GPU's clocks to base
     * while it profiles; check never changes the card's settings, and the
     * counters it reads (requests, sectors) do not depend on the clocks. */
    char *argv[] = {"ncu", "--csv", "--force-overwrite", "--log-file", j->logf, "--print-units",
                    "base", "--clock-control", "none", "--metrics", GS_COUNTERS_METRICS,
                    "--target-processes", "application-only", "--kernel-name", filter,
                    "--launch-count", "2", self, GS_COUNTERS_COMMAND,
                    (char *)b->name, device, dialect, (char *)src->entry, srcf,
                    (char *)src->path, n, "-", "-", j->outf, gof, donef, api ? j->logf : "-",
                    NULL};
    if (api) {
        /* The worker alone: argv from `self` on. */
        const int first = 17;
        argv[first] = "gridstride";
        rc = spawn_child(self, argv + first, j->dir, &j->ncu, e);
    } else {
        j->have_version = version_start(ncu, j->dir, &j->version);
        rc = spawn_child(ncu, argv, j->dir, &j->ncu, e);
    }
    if (rc != GS_OK) {
        job_free(j);
        return rc;
    }
    *job = j;
    return GS_OK;
}

/* The device, grid, block and the inputs' seed (gs_inputs_set_seed), a line
 * on the go FIFO before the go: the seed after the file's code is built. */
static int job_params(struct gs_counters_job *j, const struct gs_device *dev, uint64_t grid,
                      uint64_t block, struct gs_err *e)
{
    char line[160];
    const int len = snprintf(line, sizeof line, "%s %llu %llu %llu\n", dev->id,
                             (unsigned long long)grid, (unsigned long long)block,
                             (unsigned long long)gs_inputs_seed());
    if (len <= 0 || (size_t)len >= sizeof line || gs_write_full(j->go_fd, line, (size_t)len, 0))
        return gs_err_set(e, GS_IO, "cannot tell the counters worker its device: %s",
                          strerror(errno));
    return GS_OK;
}

/* The counted launch's n. */
static uint64_t counted_n(const struct gs_check_plan *plan)
{
    return plan->counters_n ? plan->counters_n : GS_COUNTERS_N;
}

/* A job started before the parent opened its APIs (gs_counters_prestart). */
static struct gs_counters_job *prestarted_job;
static pthread_mutex_t prestarted_mu = PTHREAD_MUTEX_INITIALIZER;

int gs_counters_prestart(const struct gs_backend *b, const struct gs_user_source *src,
                         const struct gs_check_plan *plan, const char *selector, struct gs_err *e)
{
    if (strcmp(b->name, "cuda") != 0 || src->dialect != GS_DIALECT_CUDA || plan->no_counters ||
        (plan->no_speed && !plan->counters) || plan->ncu || !gs_backend_has_counters(b) ||
        prestarted_job)
        return GS_OK;
    return job_spawn(b, src, 1, NULL, selector, counted_n(plan), &prestarted_job, e);
}

void gs_counters_prestart_end(void)
{
    pthread_mutex_lock(&prestarted_mu);
    struct gs_counters_job *j = prestarted_job;
    prestarted_job = NULL;
    pthread_mutex_unlock(&prestarted_mu);
    if (j)
        job_free(j);
}

/* The prestarted job, when it was started for this backend, file, entry and n. */
static struct gs_counters_job *adopt_job(const struct gs_backend *b,
                                         const struct gs_user_source *src, uint64_t n)
{
    pthread_mutex_lock(&prestarted_mu);
    struct gs_counters_job *j = prestarted_job;
    if (j && j->backend == b && j->n == n && strcmp(j->text, src->text) == 0 &&
        strcmp(j->entry, src->entry) == 0)
        prestarted_job = NULL;
    else
        j = NULL;
    pthread_mutex_unlock(&prestarted_mu);
    return j;
}

int gs_counters_start(struct gs_device *dev, const struct gs_user_source *src,
                      const struct gs_check_plan *plan, struct gs_check_run *run,
                      unsigned build_timeout_s, double timeout_s, int defer_exit,
                      struct gs_counters_job **job, struct gs_err *e)
{
    struct gs_counters *c = &run->counters;
    memset(c, 0, sizeof *c);
    *job = NULL;
    if (strcmp(dev->backend->name, "cuda") != 0 || !dev->is_gpu)
        return GS_OK; /* the report says why, by the device's API */
    if (src->dialect != GS_DIALECT_CUDA) {
        not_read(c, "not read: the counters pass reads a .cu kernel; %s", "timing only");
        return GS_OK;
    }
    if (plan->no_counters || (plan->no_speed && !plan->counters)) {
        not_read(c, "not read (%s)", plan->no_counters ? "--no-counters" : "--no-speed");
        return GS_OK;
    }
    /* The backend's own profiler (CUPTI), in the worker; Nsight Compute
     * around it when --ncu names it, or when the backend has none. */
    const int api = !plan->ncu && gs_backend_has_counters(dev->backend);
    char ncu[PATH_MAX] = "", why[500];
    if (!api && !gs_counters_find_ncu(plan->ncu, ncu, sizeof ncu, why, sizeof why)) {
        not_read(c, "%s", why);
        return GS_OK;
    }
    c->n = counted_n(plan);
    c->grid = run->grid;
    c->block = run->block;
    struct gs_counters_job *j = api ? adopt_job(dev->backend, src, c->n) : NULL;
    int rc = GS_OK;
    if (!j)
        rc = job_spawn(dev->backend, src, api, ncu, dev->id, c->n, &j, e);
    if (rc == GS_OK) {
        j->defer_exit = defer_exit;
        j->deadline_s = build_timeout_s + 2 * timeout_s;
        rc = job_params(j, dev, c->grid, c->block, e);
        if (rc != GS_OK)
            job_free(j);
    }
    if (rc == GS_OK)
        *job = j;
    return rc;
}

/* Until the worker writes one of `wants` on the done FIFO (AWAIT_SEEN, the
 * byte in *got), its process ends (AWAIT_ENDED, not reaped:
 * gs_counters_finish reaps it and says why), or the clock passes `until`
 * (AWAIT_TIMEOUT); what it prints is drained meanwhile. The worker writes
 * 'r' when it is ready for the go, 'd' when its launches have ended, and
 * (its own profiler) its exit status as a digit once its files are
 * written. */
enum { AWAIT_SEEN, AWAIT_ENDED, AWAIT_TIMEOUT };
static int await_byte(struct gs_counters_job *j, const char *wants, double until, char *got)
{
    for (;;) {
        struct pollfd p[2] = {{j->done_fd, POLLIN, 0}, {j->ncu.out, POLLIN, 0}};
        const int np = j->ncu.out >= 0 ? 2 : 1;
        if (poll(p, (nfds_t)np, 20) > 0) {
            char d;
            if ((p[0].revents & POLLIN) && read(j->done_fd, &d, 1) == 1 && d &&
                strchr(wants, d)) {
                if (got)
                    *got = d;
                return AWAIT_SEEN;
            }
            if (np == 2 && (p[1].revents & (POLLIN | POLLHUP)) && gs_proc_drain(&j->ncu) == 0) {
                close(j->ncu.out);
                j->ncu.out = -1;
            }
        }
        siginfo_t si;
        memset(&si, 0, sizeof si);
        if (waitid(P_PID, (id_t)j->ncu.pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 &&
            si.si_pid == j->ncu.pid)
            return AWAIT_ENDED;
        if (now_s() >= until)
            return AWAIT_TIMEOUT;
    }
}

int gs_counters_launch(struct gs_counters_job *j, int go, const char *why_not,
                       struct gs_check_run *run)
{
    struct gs_counters *c = &run->counters;
    if (!j || j->launched)
        return GS_OK;
    j->launched = 1;
    if (!go || gs_write_full(j->go_fd, "g", 1, 0) != 0) {
        not_read(c, "not read: %s", go     ? "the counted launch could not be started"
                                    : why_not ? why_not
                                              : "the counters are read once every case is right");
        job_stop(j);
        return GS_OK;
    }
    j->go_at = now_s();
    /* Until the worker says its launches ended, ncu ends, or the deadline. */
    if (await_byte(j, "d", j->go_at + j->deadline_s, NULL) != AWAIT_TIMEOUT)
        return GS_OK;
    /* Stopped here, so that nothing it launched runs beside what follows. */
    gs_proc_kill(&j->ncu, NULL);
    c->state = GS_CTRS_NOT_READ;
    c->cls = GS_CTRS_NONE;
    snprintf(c->why, sizeof c->why, "not read: %s ran past %g s after its launches were let go "
             "(the build's and twice --timeout) and was stopped", who(j), j->deadline_s);
    return GS_OK;
}

void gs_counters_ready(struct gs_counters_job *j, unsigned build_timeout_s)
{
    if (!j || j->ready || j->launched)
        return;
    j->ready = 1;
    /* Not ready by the build's deadline: its launches are let go, or it is
     * stopped, at gs_counters_launch, which says why. */
    await_byte(j, "r", j->start_at + build_timeout_s, NULL);
}

void gs_counters_drain(struct gs_counters_job *j)
{
    struct pollfd p = {j ? j->ncu.out : -1, POLLIN, 0};
    if (!j || j->ncu.out < 0)
        return;
    while (poll(&p, 1, 0) > 0 && (p.revents & (POLLIN | POLLHUP))) {
        if (gs_proc_drain(&j->ncu) == 0) {
            close(j->ncu.out);
            j->ncu.out = -1;
            return;
        }
    }
}

int gs_counters_finish(struct gs_counters_job *j, int go, struct gs_check_run *run,
                       struct gs_err *e)
{
    (void)e;
    struct gs_counters *c = &run->counters;
    if (!j)
        return GS_OK;
    gs_counters_launch(j, go, NULL, run);
    if (j->ncu.pid <= 0) { /* not let go, or stopped: said by gs_counters_launch */
        job_free(j);
        return GS_OK;
    }
    int status = 0, timed_out = 0;
    const double left = j->deadline_s - (now_s() - j->go_at);
    char code = 0;
    /* The profiler in the worker writes its exit status after its files:
     * then it need not be waited for. */
    if (j->api && j->defer_exit &&
        await_byte(j, "012345678", j->go_at + j->deadline_s, &code) == AWAIT_SEEN)
        status = (code - '0') << 8; /* as exit(code) */
    else
        wait_child(&j->ncu, left > 0 ? left + 1 : 0, &status, &timed_out);
    if (j->api)
        snprintf(c->source, sizeof c->source, "the CUDA backend's profiler");
    else if (j->have_version)
        version_read(j->dir, &j->version, c->source, sizeof c->source);
    else
        snprintf(c->source, sizeof c->source, "ncu (version unknown)");
    if (timed_out) {
        c->state = GS_CTRS_NOT_READ;
        snprintf(c->why, sizeof c->why, "not read: %s ran past %g s after its launches were "
                 "let go (the build's and twice --timeout) and was stopped", who(j),
                 j->deadline_s);
    } else {
        char why[500];
        if (j->api)
            read_values(c, j->logf, j->entry, status);
        else
            read_log(c, j->logf, j->entry, status);
        if (c->state == GS_CTRS_READ && !output_right(c, j->outf, why, sizeof why)) {
            c->state = GS_CTRS_NOT_READ;
            snprintf(c->why, sizeof c->why, "not used: %.480s", why);
        }
        if (c->state == GS_CTRS_READ)
            gs_counters_judge(c);
    }
    job_free(j);
    return GS_OK;
}

int gs_counters_pass(struct gs_device *dev, const struct gs_user_source *src,
                     const struct gs_check_plan *plan, struct gs_check_run *run,
                     unsigned build_timeout_s, double timeout_s, struct gs_err *e)
{
    struct gs_counters_job *j = NULL;
    int right = 1;
    for (int i = 0; i < run->ncases; ++i)
        right &= run->cases[i].cls == GS_CHECK_OK;
    const int rc = gs_counters_start(dev, src, plan, run, build_timeout_s, timeout_s, 0, &j,
                                     e);
    return rc == GS_OK ? gs_counters_finish(j, right, run, e) : rc;
}

/* ---- the worker (under ncu) ---------------------------------------------- */


static int launch_once(struct gs_device *dev, struct gs_workspace *w, struct gs_launch *l,
                       struct gs_err *e)
{
    struct gs_launch_result r = {0};
    int rc = gs_workspace_poison(w, l->n, e);
    if (rc == GS_OK)
        rc = gs_dev_launch(dev, l, 0, &r, e);
    if (rc == GS_OK && !r.accepted)
        rc = gs_err_set(e, GS_API, "refused");
    return rc;
}

/* Opened, built and ready: wait until the parent lets the launches go (a
 * byte on the FIFO), so that they never run beside the speed pass's timed
 * ones. 0 when the parent closed it instead (the pass is not wanted). */
static void tell(const char *fifo, char what);

static int go_ahead(const char *fifo, const char *done)
{
    tell(done, 'r');
    const int fd = open(fifo, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    char g = 0;
    ssize_t r;
    while ((r = read(fd, &g, 1)) < 0 && errno == EINTR)
        ;
    close(fd);
    return r == 1 && g == 'g';
}

/* A byte on the second FIFO: 'r', ready for the go; 'd', both launches
 * have ended. */
static void tell(const char *fifo, char what)
{
    const int fd = open(fifo, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd >= 0) {
        gs_write_full(fd, &what, 1, 0);
        close(fd);
    }
}

/* The counted launches, once the parent lets them go: the user's kernel
 * on a poisoned output, its output read back, then the suite's loop on the
 * same launch (poisoned again). code: how far they came (CW_*). */
struct counted {
    struct gs_device *dev;
    struct gs_workspace *w;
    struct gs_user_kernel *k;
    struct gs_launch l;
    void *out;
    const char *go, *done;
    int code;
};

static int counted_launches(void *ctx, struct gs_err *e)
{
    struct counted *x = ctx;
    if (!go_ahead(x->go, x->done)) {
        x->code = CW_NO_GO;
        return gs_err_set(e, GS_USAGE, "the counted launches were not let go");
    }
    x->code = CW_LAUNCH;
    gs_workspace_bind(x->w, &x->l);
    x->l.user = x->k;
    int rc = launch_once(x->dev, x->w, &x->l, e);
    if (rc == GS_OK) /* check's read-back layout (gs_verify_pool.h) */
        rc = gs_dev_read(x->dev, x->w->dout, 0, x->out, gs_readback_view_bytes(x->l.n), e);
    if (rc == GS_OK)
        rc = gs_dev_front_read(x->dev, x->w->dout, gs_readback_front(x->out, x->l.n), e);
    if (rc == GS_OK) {
        /* The suite's own loop on the same launch, for reference. */
        x->l.user = NULL;
        rc = launch_once(x->dev, x->w, &x->l, e);
    }
    if (rc == GS_OK)
        tell(x->done, 'd'); /* the GPU is the parent's again */
    return rc;
}

/* The backend's profiler around the counted launches; its values, or the
 * error in one line, into `path` (gs_counters_parse_values). */
static int count_with_api(struct counted *x, const char *path, struct gs_err *e)
{
    char names[] = GS_COUNTERS_METRICS, source[64] = "";
    const char *metrics[16];
    int nm = 0;
    char *save = NULL;
    for (char *m = strtok_r(names, ",", &save); m && nm < 16; m = strtok_r(NULL, ",", &save))
        metrics[nm++] = m;
    double values[GS_COUNTERS_MAX_KERNELS * 16];
    int nr = 0;
    const int rc = gs_dev_counters(x->dev, NULL, metrics, nm, counted_launches, x, values,
                                   GS_COUNTERS_MAX_KERNELS, &nr, source, sizeof source, e);
    struct gs_str t = {0};
    if (source[0])
        gs_str_printf(&t, "source %s\n", source);
    if (rc != GS_OK) {
        gs_str_printf(&t, "error %s\n", e->msg);
        if (x->code == CW_BUILD) /* it failed before the launches */
            x->code = CW_COUNT;
    }
    for (int r = 0; rc == GS_OK && r < nr; ++r)
        for (int m = 0; m < nm; ++m)
            gs_str_printf(&t, "range %d %s %.17g\n", r, metrics[m], values[r * nm + m]);
    const int w = write_file(path, t.data ? t.data : "", t.len);
    gs_str_free(&t);
    return rc != GS_OK ? rc : w == 0 ? GS_OK : gs_err_set(e, GS_IO, "cannot write %s", path);
}

/* The run's device, grid, block and inputs' seed: a line on the go FIFO
 * ("ID GRID BLOCK SEED"); 0 when it does not come (the parent closed it) or
 * is not one. */
static int read_params(const char *fifo, char *id, size_t id_size, uint64_t *grid,
                       uint64_t *block, uint64_t *seed)
{
    const int fd = open(fifo, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    char line[160];
    size_t n = 0;
    for (;;) {
        char ch;
        const ssize_t r = read(fd, &ch, 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r != 1 || ch == '\n' || n + 1 >= sizeof line)
            break;
        line[n++] = ch;
    }
    close(fd);
    line[n] = '\0';
    char fmt[32];
    unsigned long long g = 0, bl = 0, s = 0;
    snprintf(fmt, sizeof fmt, "%%%zus %%llu %%llu %%llu", id_size - 1);
    if (sscanf(line, fmt, id, &g, &bl, &s) != 4 || g == 0 || bl == 0)
        return 0;
    *grid = g;
    *block = bl;
    *seed = s;
    return 1;
}

int gs_counters_worker(const struct gs_backend *b, int argc, char **argv)
{
    /* gridstride __check-counters BACKEND ?SELECTOR DIALECT ENTRY SRC SHOWN N - - OUT GO DONE
     * VALUES: it opens the API and builds SRC on the first device SELECTOR picks, then reads
     * the run's device, grid and block as a line on the GO FIFO (built again when the device
     * is another). VALUES: where the backend's profiler writes what it read; "-" under ncu. */
    if (argc != 15 || !b || argv[3][0] != '?')
        return CW_USAGE;
    size_t len = 0;
    char *text = slurp(argv[6], 1u << 20, &len);
    if (!text)
        return CW_USAGE;
    const struct gs_user_source src = {argv[7], text, argv[5],
                                       (enum gs_dialect)strtol(argv[4], NULL, 10)};
    const int api = strcmp(argv[14], "-") != 0;
    struct counted x = {.go = argv[12], .done = argv[13], .code = CW_OPEN};
    struct gs_opened o;
    struct gs_err e = {0};
    struct gs_workspace w;
    struct gs_build_info info = {0};
    int nsel = 0, have_w = 0;
    gs_open_backend(b, &o);
    int rc = o.status;
    if (rc == GS_OK)
        rc = gs_select_devices(&o, argv[3][1] ? argv[3] + 1 : NULL, &x.dev, 1, &nsel, &e);
    if (rc == GS_OK) {
        x.code = CW_BUILD;
        rc = gs_dev_user_build(x.dev, &src, &x.k, &info, &e);
    }
    gs_build_info_free(&info);
    char id[128];
    uint64_t grid = 0, block = 0, seed = 0;
    if (rc == GS_OK && !read_params(argv[12], id, sizeof id, &grid, &block, &seed)) {
        x.code = CW_NO_GO;
        rc = GS_USAGE;
    }
    gs_inputs_set_seed(seed); /* before the workspace fills the inputs */
    struct gs_device *dev = NULL;
    if (rc == GS_OK) {
        x.code = CW_OPEN;
        rc = gs_select_devices(&o, id, &dev, 1, &nsel, &e);
    }
    if (rc == GS_OK && dev != x.dev) { /* built for another device: again */
        gs_dev_user_free(x.dev, x.k);
        x.k = NULL;
        x.dev = dev;
        x.code = CW_BUILD;
        rc = gs_dev_user_build(x.dev, &src, &x.k, &info, &e);
        gs_build_info_free(&info);
    }
    x.l = gs_launch_1d(GS_K_ADD_GS, strtoull(argv[8], NULL, 10), grid, block);
    if (rc == GS_OK) {
        x.code = CW_OPEN;
        rc = gs_workspace_open(&w, x.dev, x.l.n, NULL, &e);
        have_w = rc == GS_OK;
        if (rc == GS_OK)
            x.code = CW_BUILD; /* built and ready: the profiler's failures are CW_COUNT */
    }
    x.w = &w;
    const uint64_t bytes = gs_buffer_bytes(x.l.n);
    x.out = rc == GS_OK ? malloc((size_t)bytes) : NULL;
    if (rc == GS_OK && !x.out)
        rc = GS_NOMEM;
    if (rc == GS_OK)
        rc = api ? count_with_api(&x, argv[14], &e) : counted_launches(&x, &e);
    if (rc == GS_OK)
        x.code = write_file(argv[11], x.out, (size_t)bytes) == 0 ? CW_OK : CW_WRITE;
    if (api) /* its files are written: the parent need not wait for the end */
        tell(x.done, (char)('0' + x.code));
    free(x.out);
    if (x.dev && x.k)
        gs_dev_user_free(x.dev, x.k);
    if (have_w)
        gs_workspace_close(&w);
    gs_close_backend(&o);
    free(text);
    return x.code;
}
