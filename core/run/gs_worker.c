/* SPDX-License-Identifier: MIT */
/* check's parent (gs_worker.h): the worker started, told what to run and
 * judged; the worker's side is gs_worker_serve.c, their messages
 * gs_worker_msg.h. */
#define _GNU_SOURCE /* memfd_create */

#include "gs_worker.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "gs_counters_run.h"
#include "gs_device.h"
#include "gs_plan_run.h"
#include "gs_proc.h"
#include "gs_sysmem.h"
#include "gs_user.h"
#include "gs_verify.h"
#include "gs_verify_pool.h"
#include "gs_worker_msg.h"

/* ---- the parent ---------------------------------------------------------- */

struct iso {
    struct gs_device *dev;
    const struct gs_user_source *src;
    struct gs_check_run *run;
    double timeout_s; /* per launch, seconds (a fraction allowed) */
    /* On a CPU device without --timeout: seconds per element or thread of the
     * suite's own loop, measured here (calibrate); a case's deadline is
     * GS_WORKER_CPU_FACTOR times that for its n + T, plus a second. 0: none. */
    double cpu_s_per_item;
    unsigned build_timeout_s;
    const struct gs_worker_opts *o;
    struct gs_child c;
    int live;
    int shm_fd;
    float *shm;
    uint64_t shm_bytes, max_n;
    char dir[PATH_MAX];   /* the build's folder, and the kernel's TMPDIR */
    char rtdir[PATH_MAX]; /* the worker's TMPDIR from its start (its runtime's files) */
    uint32_t seq;
    uint64_t printed;
    int sandbox;
    int adopted; /* x->c is a prestarted worker not yet told its device */
    struct gs_pool *pool; /* this process's threads for the outputs (or NULL) */
    struct gs_counters_job *counters; /* ncu beside the cases (or NULL): its output drained */
};

enum { RX_OK, RX_TIMEOUT, RX_LOST };

/* Workers started before the parent opened its own APIs. */
static struct {
    const struct gs_backend *b;
    struct gs_child c;
    int shm_fd;
    char rtdir[PATH_MAX];
} prestarted[8];
static int nprestarted;

/* A worker of b, with a private folder of its own as TMPDIR from its start:
 * what its runtime leaves there when it is killed (NVIDIA's driver leaves a
 * file) goes when the parent removes rtdir. */
/* Whether b's worker is confined to its files (Landlock): the host backend
 * and the CPU runtimes. Not CUDA, nor any backend on a machine with a GPU's
 * device nodes: what NVIDIA's and AMD's drivers open, map and write is not
 * listed here, and nothing here was tried on them. */
static int confine_files(const struct gs_backend *b)
{
    static const char *const gpu_nodes[] = {"/dev/nvidiactl", "/dev/kfd", "/dev/dri"};
    if (strcmp(b->name, "host") == 0)
        return 1;
    if (strcmp(b->name, "cuda") == 0)
        return 0;
    for (size_t i = 0; i < sizeof gpu_nodes / sizeof gpu_nodes[0]; ++i)
        if (access(gpu_nodes[i], F_OK) == 0)
            return 0;
    return 1;
}

static int spawn_worker(const struct gs_backend *b, int shm_fd, struct gs_child *c, char *rtdir,
                        size_t rtdir_size, struct gs_err *e)
{
    int rc = gs_proc_private_dir(rtdir, rtdir_size, -1, e);
    if (rc != GS_OK) {
        rtdir[0] = '\0';
        return rc;
    }
    /* A confined worker is a user of its own from exec on, before its
     * runtime starts a thread or writes a file. */
    const struct gs_proc_limits lim = {.tmpdir = rtdir, .isolate = 1,
                                       .confine_files = confine_files(b),
                                       .drop_privileges = confine_files(b)};
    char *argv[] = {"gridstride", GS_WORKER_COMMAND, (char *)b->name, NULL};
    rc = gs_proc_spawn(NULL, argv, shm_fd, &lim, c, e);
    if (rc != GS_OK) {
        gs_proc_remove_dir(rtdir);
        rtdir[0] = '\0';
    }
    return rc;
}

int gs_worker_prestart_build(const struct gs_backend *b, const struct gs_user_source *src,
                             const char *selector, struct gs_err *e)
{
    const int rc = gs_worker_prestart(b, e);
    /* A text larger than the channel holds would wait here for the worker;
     * a confined worker builds only once it is another user under its
     * filter (HELLO). */
    if (rc != GS_OK || !src || strlen(src->text) > (64u << 10) || nprestarted == 0 ||
        confine_files(b) ||
        prestarted[nprestarted - 1].b != b)
        return rc;
    struct msg_prebuild pb;
    memset(&pb, 0, sizeof pb);
    gs_strlcpy(pb.selector, selector ? selector : "", sizeof pb.selector);
    pb.dialect = (int)src->dialect;
    const char *strs[] = {src->path, src->entry, src->text};
    /* Not sent: the worker builds at HELLO, as it would have. */
    gs_wk_send(prestarted[nprestarted - 1].c.chan, MSG_PREBUILD, 0, &pb, sizeof pb, strs, 3);
    return GS_OK;
}

int gs_worker_prestart(const struct gs_backend *b, struct gs_err *e)
{
    if (nprestarted == (int)(sizeof prestarted / sizeof prestarted[0]))
        return GS_OK;
    gs_proc_install_cleanup();
    const int fd = gs_proc_shm_create("gridstride-check");
    if (fd < 0)
        return gs_err_set(e, GS_NOMEM, "shared memory for a worker: %s", strerror(errno));
    const int rc = spawn_worker(b, fd, &prestarted[nprestarted].c, prestarted[nprestarted].rtdir,
                                sizeof prestarted[nprestarted].rtdir, e);
    if (rc != GS_OK) {
        close(fd);
        return rc;
    }
    prestarted[nprestarted].b = b;
    prestarted[nprestarted++].shm_fd = fd;
    return GS_OK;
}

void gs_worker_prestart_end(void)
{
    for (int i = 0; i < nprestarted; ++i)
        if (prestarted[i].b) {
            gs_proc_kill(&prestarted[i].c, NULL);
            close(prestarted[i].shm_fd);
            gs_proc_remove_dir(prestarted[i].rtdir);
            prestarted[i].b = NULL;
        }
    nprestarted = 0;
}

static pthread_mutex_t prestarted_mu = PTHREAD_MUTEX_INITIALIZER; /* devices side by side */

/* A prestarted worker of b, handed over with its shared memory and its
 * TMPDIR; 0 if none. */
static int adopt(const struct gs_backend *b, struct gs_child *c, int *shm_fd, char *rtdir,
                 size_t rtdir_size)
{
    int found = 0;
    pthread_mutex_lock(&prestarted_mu);
    for (int i = 0; !found && i < nprestarted; ++i)
        if (prestarted[i].b == b) {
            *c = prestarted[i].c;
            *shm_fd = prestarted[i].shm_fd;
            gs_strlcpy(rtdir, prestarted[i].rtdir, rtdir_size);
            prestarted[i].b = NULL;
            found = 1;
        }
    pthread_mutex_unlock(&prestarted_mu);
    return found;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Read n bytes from the worker before `deadline` seconds since t0, draining
 * what it prints meanwhile. */
static int rx(struct iso *x, void *buf, size_t n, double t0, double deadline,
              const struct gs_check_case *c)
{
    char *p = buf;
    unsigned told = 0;
    atomic_int *cancel = x->o ? x->o->cancel : NULL;
    while (n) {
        const double left = t0 + deadline - now_s();
        if (left <= 0)
            return RX_TIMEOUT;
        if (cancel && atomic_load(cancel))
            return RX_LOST;
        struct pollfd fds[2] = {{x->c.chan, POLLIN, 0}, {x->c.out, POLLIN, 0}};
        const int ms = cancel ? 20 : left > 1.0 ? 1000 : (int)(left * 1000) + 1;
        const int r = poll(fds, x->c.out >= 0 ? 2 : 1, ms);
        if (r < 0 && errno != EINTR)
            return RX_LOST;
        if (x->c.out >= 0 && (fds[1].revents & (POLLIN | POLLHUP | POLLERR)) &&
            gs_proc_drain(&x->c) == 0) {
            close(x->c.out);
            x->c.out = -1;
        }
        if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
            const ssize_t got = read(x->c.chan, p, n);
            if (got < 0 && (errno == EINTR || errno == EAGAIN))
                continue;
            if (got <= 0)
                return RX_LOST;
            p += got;
            n -= (size_t)got;
        }
        const unsigned ran = (unsigned)(now_s() - t0);
        if (x->o && x->o->waiting && ran > told && ran >= 1) {
            told = ran;
            x->o->waiting(x->o->ctx, x->dev, c, ran, deadline);
        }
    }
    return RX_OK;
}

/* A whole message of `type` and (for cases) sequence number: RX_LOST also for
 * one that is not (a kernel that wrote to the channel). */
static int rx_msg(struct iso *x, uint32_t type, uint32_t seq, char **body, uint32_t *len,
                  double t0, double deadline, const struct gs_check_case *c, int *malformed)
{
    struct msg_head h;
    *body = NULL;
    *malformed = 0;
    int r = rx(x, &h, sizeof h, t0, deadline, c);
    if (r != RX_OK)
        return r;
    if (h.magic != WK_MAGIC || h.type != type || h.seq != seq || h.len > WK_MAX_PAYLOAD) {
        *malformed = 1;
        return RX_LOST;
    }
    char *b = malloc((size_t)h.len + 1);
    if (!b)
        return RX_LOST;
    r = rx(x, b, h.len, t0, deadline, c);
    if (r != RX_OK) {
        free(b);
        return r;
    }
    b[h.len] = '\0';
    *body = b;
    *len = h.len;
    return RX_OK;
}

/* How a worker ends: killed now; asked to quit, then killed if it lingers;
 * or killed now and reaped with its folders later (opts->defer_exit). */
enum end_how { END_KILL, END_POLITE, END_LATER };

static void end_worker(struct iso *x, enum end_how how, int *status)
{
    if (!x->live && x->c.pid == 0)
        return;
    if (how == END_POLITE && x->c.chan >= 0)
        gs_wk_send(x->c.chan, MSG_QUIT, 0, NULL, 0, NULL, 0);
    if (how == END_POLITE)
        gs_proc_finish(&x->c, 0, status);
    else if (how == END_KILL)
        gs_proc_kill(&x->c, status);
    else
        gs_proc_kill_later(&x->c, x->dir, x->rtdir);
    x->printed += x->c.output_total;
    x->c.output_total = 0;
    x->live = 0;
    if (how != END_LATER) {
        gs_proc_remove_dir(x->dir);
        gs_proc_remove_dir(x->rtdir);
    }
    x->dir[0] = x->rtdir[0] = '\0';
}

static void lost_words(struct iso *x, int status, int malformed, const char *when, char *why,
                       size_t size)
{
    char words[400];
    if (malformed)
        snprintf(words, sizeof words, "the kernel's process sent an answer that is not one "
                                      "(the kernel wrote to the harness's channel?)");
    else
        gs_proc_status_words(status, words, sizeof words);
    (void)x;
    snprintf(why, size, "%s%s", when, words);
}

/* The limits of one worker: address space only where the runtime does not
 * reserve it by the terabyte (the reference backend, in this process). */
static void limits_for(const struct iso *x, struct gs_proc_limits *lim)
{
    memset(lim, 0, sizeof *lim);
    const uint64_t cpu = (uint64_t)x->build_timeout_s + (uint64_t)ceil(x->timeout_s) *
                         (uint64_t)(x->run->ncases + 1) + 30;
    lim->cpu_s = cpu > 86400 ? 86400u : (unsigned)cpu;
    if (x->sandbox) {
        lim->as_bytes = (4ull << 30) + 4 * x->shm_bytes;
        lim->fsize = 256ull << 20; /* the compiler's files; 0 once the kernel loads */
        lim->nproc = 256;          /* the compiler's processes; none once the kernel loads */
        lim->drop_privileges = 1;
    } else {
        lim->fsize = 1ull << 30; /* an OpenCL or CUDA runtime's kernel cache */
        if (!x->dev->is_gpu) {
            const uint64_t total = gs_host_total_memory();
            lim->data_bytes = total > (8ull << 30) ? total / 2 : (4ull << 30);
            /* A CPU runtime (PoCL) runs the kernel in the worker's threads:
             * a user of its own, the runtime's filter; its processes are
             * the linker it starts. */
            lim->drop_privileges = confine_files(x->dev->backend);
            lim->nproc = 64;
        }
    }
}

/* Start a worker and build: GS_OK and live; or the build's own status
 * (e filled, run->build too on the first build); or *lost with cls and why. */
static int start(struct iso *x, int first, enum gs_check_class *lost_cls, char *why,
                 size_t why_size, struct gs_err *e)
{
    struct gs_proc_limits lim;
    limits_for(x, &lim);
    *lost_cls = GS_CHECK_OK;
    int rc = GS_OK;
    if (!x->adopted)
        rc = spawn_worker(x->dev->backend, x->shm_fd, &x->c, x->rtdir, sizeof x->rtdir, e);
    x->adopted = 0;
    if (rc != GS_OK)
        return rc;
    x->live = 1;
    /* Its user is its own (gs_proc_worker_uid), and so is its build folder,
     * made inside its private folder (reachable through descriptor 5). */
    lim.uid = gs_proc_worker_uid(x->c.pid);
    const long owner = lim.drop_privileges && geteuid() == 0 ? (long)lim.uid : -1;
    rc = gs_proc_private_dir_in(x->rtdir, x->dir, sizeof x->dir, owner, e);
    if (rc != GS_OK) {
        x->dir[0] = '\0';
        end_worker(x, END_KILL, NULL);
        return rc;
    }
    struct msg_hello hello;
    memset(&hello, 0, sizeof hello);
    gs_strlcpy(hello.device_id, x->dev->id, sizeof hello.device_id);
    hello.max_n = x->max_n;
    hello.shm_bytes = x->shm_bytes;
    hello.dialect = (int)x->src->dialect;
    hello.sandbox = x->sandbox;
    hello.runtime_filter = !x->sandbox && !x->dev->is_gpu;
    hello.lim = lim;
    hello.lim.cwd = NULL;
    /* A worker that gave up root reaches its folder as its working directory
     * only: TMPDIR's own folder may be closed to its user. */
    char cwd[PATH_MAX];
    const char *base = strrchr(x->dir, '/');
    snprintf(cwd, sizeof cwd, "%s/%.200s", GS_PROC_WORKER_DIR, base ? base + 1 : x->dir);
    /* ...nor the folders above its own: it enters its build folder through
     * its descriptor 5 (its private folder, where the build folder is). */
    const char *strs[] = {x->src->path, x->src->entry, x->src->text, owner >= 0 ? "." : x->dir,
                          owner >= 0 ? cwd : x->dir};
    const double t0 = now_s();
    char *body = NULL;
    uint32_t len = 0;
    int malformed = 0, status = 0;
    int r = gs_wk_send(x->c.chan, MSG_HELLO, 0, &hello, sizeof hello, strs, 5) == 0 ? RX_OK
                                                                                 : RX_LOST;
    /* While the worker builds: the speed pass's part of the shared memory
     * poisoned here, so that its pages exist before the first timed
     * read-back (made then, they cost the first row half a second on an
     * H200: a fault a page). */
    if (r == RX_OK && first && x->run->speed.n)
        gs_poison_readback(x->pool, x->shm, x->run->speed.n);
    if (r == RX_OK)
        r = rx_msg(x, MSG_BUILT, 0, &body, &len, t0, x->build_timeout_s, NULL, &malformed);
    if (r == RX_OK && len < sizeof(struct msg_built)) {
        r = RX_LOST;
        malformed = 1;
    }
    if (r != RX_OK) {
        free(body);
        end_worker(x, END_KILL, &status);
        if (r == RX_TIMEOUT) {
            *lost_cls = GS_CHECK_DID_NOT_FINISH;
            snprintf(why, why_size, "the build and load of the file did not finish in %u s "
                                    "(a constructor that never returns?)", x->build_timeout_s);
        } else {
            *lost_cls = GS_CHECK_FAULTED;
            lost_words(x, status, malformed, "while the file was built and loaded: ", why,
                       why_size);
        }
        return GS_OK;
    }
    struct msg_built b;
    memcpy(&b, body, sizeof b);
    b.compiler[sizeof b.compiler - 1] = '\0';
    b.msg[sizeof b.msg - 1] = '\0';
    if (first) {
        gs_strlcpy(x->run->build.compiler, b.compiler, sizeof x->run->build.compiler);
        const char *log = gs_wk_string_at(body, len, sizeof b, 0);
        free(x->run->build.log);
        /* The worker's bytes: only the messages about the user's file. */
        x->run->build.log = gs_user_own_log(*log ? strdup(log) : NULL, x->src->path);
    }
    free(body);
    if (b.status != GS_OK) {
        end_worker(x, END_POLITE, NULL);
        return gs_err_set(e, b.status, "%s", b.msg);
    }
    return GS_OK;
}

static void not_run_from(struct gs_check_run *r, int first, const char *why)
{
    for (int i = first; i < r->ncases; ++i) {
        r->cases[i].cls = GS_CHECK_NOT_RUN;
        gs_strlcpy(r->cases[i].why, why, sizeof r->cases[i].why);
    }
}

/* How long case i should take, before it runs, from the right cases that
 * took at least 10 ms: the same n and block on another grid, as long (the
 * work of a kernel that is right under any grid does not grow with the
 * grid); else the largest smaller n on the same launch, scaled by n. The
 * watchdog says it instead of guessing. */
static void expect_case(struct gs_check_run *r, int i)
{
    struct gs_check_case *c = &r->cases[i];
    const struct gs_check_case *same_n = NULL, *smaller = NULL;
    c->expect_s = 0;
    c->expect_n = c->expect_grid = 0;
    for (int j = 0; j < r->ncases; ++j) {
        const struct gs_check_case *p = &r->cases[j];
        if (j == i || p->wall_s < 0.01 || p->cls != GS_CHECK_OK ||
            p->launch.block != c->launch.block)
            continue;
        if (p->launch.n == c->launch.n && p->launch.grid != c->launch.grid &&
            (!same_n || p->wall_s > same_n->wall_s))
            same_n = p;
        if (p->launch.n < c->launch.n && p->launch.grid == c->launch.grid &&
            (!smaller || p->launch.n > smaller->launch.n))
            smaller = p;
    }
    if (same_n) {
        c->expect_s = same_n->wall_s;
        c->expect_n = same_n->launch.n;
        c->expect_grid = same_n->launch.grid;
    } else if (smaller) {
        c->expect_s = smaller->wall_s * (double)c->launch.n / (double)smaller->launch.n;
        c->expect_n = smaller->launch.n;
        c->expect_grid = smaller->launch.grid;
    }
}

/* A case's deadline: --timeout, or on a CPU device the suite's own loop's
 * time at its n and T (calibrate) times GS_WORKER_CPU_FACTOR plus a second,
 * so that a kernel that never ends is stopped in seconds, never past the
 * fixed deadline. */
static double case_deadline(const struct iso *x, const struct gs_check_case *c)
{
    if (x->cpu_s_per_item <= 0)
        return x->timeout_s;
    const double d = GS_WORKER_CPU_FACTOR * x->cpu_s_per_item *
                         (double)(c->launch.n + c->launch.global) + 1.0;
    return d < x->timeout_s ? d : x->timeout_s;
}

/* On a CPU device without --timeout: one untimed launch of the suite's
 * grid-stride loop at the largest n on the device grid, timed here around
 * the whole exchange (the worker's clock is not trusted; the poison it
 * includes only makes the deadline longer). A launch that does not come
 * back leaves the fixed deadline. */
static void calibrate(struct iso *x)
{
    const struct gs_check_run *r = x->run;
    uint64_t n = 0;
    for (int i = 0; i < r->ncases; ++i)
        if (r->cases[i].section == GS_CHK_SIZES && r->cases[i].launch.n > n)
            n = r->cases[i].launch.n;
    if (x->dev->is_gpu || (x->o && x->o->timeout_s > 0) || n == 0)
        return;
    const struct msg_speed ms = {(uint32_t)GS_SPD_SUITE_GS, 0, 1, 0, n, r->grid, r->block, 0, 0,
                                 gs_inputs_seed()};
    const uint32_t seq = ++x->seq;
    char *body = NULL;
    uint32_t len = 0;
    int malformed = 0;
    const double t0 = now_s();
    const int rc = gs_wk_send(x->c.chan, MSG_SPEED, seq, &ms, sizeof ms, NULL, 0) == 0
                       ? rx_msg(x, MSG_SPEED_DONE, seq, &body, &len, t0, x->timeout_s, NULL,
                                &malformed)
                       : RX_LOST;
    const double took = now_s() - t0;
    struct msg_speed_done d;
    if (rc == RX_OK && len == sizeof d) {
        memcpy(&d, body, sizeof d);
        if (d.status == GS_OK)
            x->cpu_s_per_item = took / (double)(n + r->threads);
    }
    free(body);
    if (rc != RX_OK)
        end_worker(x, END_KILL, NULL);
}

/* One exchange of a case with the worker: RX_OK with its answer in *d, or
 * the worker was lost (killed here: *lost, and the class in c). */
static int exchange_case(struct iso *x, struct gs_check_case *c, int finite,
                         struct msg_done *d, int *lost)
{
    const struct msg_case mc = {c->launch.n, c->launch.grid, c->launch.block, c->launch.global,
                                gs_inputs_seed(), (uint32_t)finite, 0};
    const uint32_t seq = ++x->seq;
    char *body = NULL;
    uint32_t len = 0;
    int malformed = 0, status = 0;
    gs_poison_readback(x->pool, x->shm, c->launch.n); /* an answer before the copy shows
                                                          poison, never a pass */
    gs_counters_drain(x->counters);
    const double deadline = case_deadline(x, c);
    const double t0 = now_s();
    int r = gs_wk_send(x->c.chan, MSG_CASE, seq, &mc, sizeof mc, NULL, 0) == 0
                ? rx_msg(x, MSG_DONE, seq, &body, &len, t0, deadline, c, &malformed)
                : RX_LOST;
    if (r == RX_OK && len != sizeof(struct msg_done)) {
        r = RX_LOST;
        malformed = 1;
    }
    if (r != RX_OK) {
        free(body);
        end_worker(x, END_KILL, &status);
        *lost = 1;
        if (r == RX_TIMEOUT && deadline < x->timeout_s) {
            c->cls = GS_CHECK_DID_NOT_FINISH;
            snprintf(c->why, sizeof c->why, "did not finish in %.3g s (%d x the suite's own "
                     "loop at this n and T, plus 1 s; --timeout sets a deadline); its process "
                     "was killed: a step of 0? a loop that never ends?", deadline,
                     GS_WORKER_CPU_FACTOR);
        } else if (r == RX_TIMEOUT) {
            c->cls = GS_CHECK_DID_NOT_FINISH;
            snprintf(c->why, sizeof c->why, "did not finish in %g s (--timeout); its process "
                     "was killed: a step of 0? a loop that never ends?", x->timeout_s);
        } else {
            c->cls = GS_CHECK_FAULTED;
            lost_words(x, status, malformed, "", c->why, sizeof c->why);
        }
        return r;
    }
    if (!finite)
        c->wall_s = now_s() - t0;
    memcpy(d, body, sizeof *d);
    free(body);
    d->msg[sizeof d->msg - 1] = '\0';
    d->r.api_error[sizeof d->r.api_error - 1] = '\0';
    d->r.api_message[sizeof d->r.api_message - 1] = '\0';
    return RX_OK;
}

/* Elements a case's accumulation check runs on at the most: the seed's
 * sizes and the added ones; not the traps' 2^31 and 2^32. */
#define GS_ACCUMULATE_MAX_N (1ull << 24)

/* A case with wrong elements runs once more on a finite poison
 * (gs_verify_accumulate): an element that then reads poison + expected was
 * accumulated into, which the NaN cannot show (NaN + x is NaN). A second run
 * that does not come back keeps the first verdict. */
static void accumulation_check(struct iso *x, struct gs_check_case *c, int *lost)
{
    struct gs_check_case again = *c;
    struct msg_done d;
    if (c->verdict.wrong == 0 || c->launch.n > GS_ACCUMULATE_MAX_N)
        return;
    if (exchange_case(x, &again, 1, &d, lost) != RX_OK)
        return;
    if (d.status != GS_OK) { /* a fault this time: the context may be dead */
        end_worker(x, END_KILL, NULL);
        *lost = 1;
        return;
    }
    if (!d.r.accepted)
        return;
    gs_verify_accumulate(&c->launch, x->shm, &c->verdict);
    c->cls = gs_check_classify(&c->got, &c->verdict);
}

/* Run case i in the worker and class it. *lost: the worker is gone (a
 * fault or a deadline): the next case needs a fresh one. GS_OK when the
 * case has its class, whatever it is (did not finish, faulted: ended by
 * the worker); other statuses are the harness's own failures. */
static int run_case(struct iso *x, int i, int *lost, struct gs_err *e)
{
    struct gs_check_case *c = &x->run->cases[i];
    struct msg_done d;
    *lost = 0;
    expect_case(x->run, i);
    if (exchange_case(x, c, 0, &d, lost) != RX_OK)
        return GS_OK;
    if (d.status == GS_OK) {
        c->got = d.r;
        gs_verify_readback(x->pool, x->shm, &c->launch, &c->verdict);
        c->cls = gs_check_classify(&c->got, &c->verdict);
        if (c->cls != GS_CHECK_OK && c->got.accepted)
            accumulation_check(x, c, lost);
        return GS_OK;
    }
    if (d.phase == PHASE_POISON)
        return gs_err_set(e, d.status, "%s", d.msg);
    /* The launch or the copy after it failed: the kernel faulted, whatever
     * name the API gives it (CL_INVALID_COMMAND_QUEUE after a crash). The
     * context may refuse every later call: the next case gets a new one. */
    c->cls = GS_CHECK_FAULTED;
    snprintf(c->why, sizeof c->why, "the kernel faulted: the API reports %.560s", d.msg);
    end_worker(x, END_KILL, NULL);
    *lost = 1;
    return GS_OK;
}

static int run_all(struct iso *x, struct gs_err *e)
{
    enum gs_check_class cls;
    char why[640];
    const double t0 = now_s();
    int rc = start(x, 1, &cls, why, sizeof why, e);
    x->run->elapsed.build_s = now_s() - t0;
    if (rc != GS_OK)
        return rc;
    if (cls != GS_CHECK_OK) {
        /* The file itself crashed or hung the worker before any case: each
         * fresh worker would do the same. */
        for (int i = 0; i < x->run->ncases; ++i) {
            x->run->cases[i].cls = cls;
            gs_strlcpy(x->run->cases[i].why, why, sizeof x->run->cases[i].why);
        }
        return GS_OK;
    }
    calibrate(x);
    int lost_in_row = 0;
    for (int i = 0; rc == GS_OK && i < x->run->ncases; ++i) {
        int lost = 0;
        if (!x->live) {
            rc = start(x, 0, &cls, why, sizeof why, e);
            if (rc != GS_OK)
                break;
            if (cls != GS_CHECK_OK) {
                x->run->cases[i].cls = cls;
                gs_strlcpy(x->run->cases[i].why, why, sizeof x->run->cases[i].why);
                lost = 1;
            }
        }
        if (!lost)
            rc = run_case(x, i, &lost, e);
        lost_in_row = lost ? lost_in_row + 1 : 0;
        if (rc == GS_OK && lost_in_row >= GS_WORKER_MAX_LOST && i + 1 < x->run->ncases) {
            snprintf(why, sizeof why, "%d cases in a row ended the kernel's process; the "
                     "other cases of this device are not run", lost_in_row);
            not_run_from(x->run, i + 1, why);
            break;
        }
    }
    return rc;
}

/* MSG_SETTLE: the worker's background work done before the turns. A worker
 * that does not answer in the build's deadline is ended (the speed pass
 * starts a fresh one). */
static void settle(struct iso *x)
{
    const uint32_t seq = ++x->seq;
    char *body = NULL;
    uint32_t len = 0;
    int malformed = 0;
    const struct msg_settle ms = {gs_inputs_seed(), x->run->speed.n};
    const int r = gs_wk_send(x->c.chan, MSG_SETTLE, seq, &ms, sizeof ms, NULL, 0) == 0
                      ? rx_msg(x, MSG_SETTLED, seq, &body, &len, now_s(), x->build_timeout_s,
                               NULL, &malformed)
                      : RX_LOST;
    free(body);
    if (r != RX_OK)
        end_worker(x, END_KILL, NULL);
}

/* ---- the speed pass (gs_speed.h) --------------------------------------- */

static struct gs_speed_row *speed_add(struct gs_speed *s, enum gs_speed_who who, uint64_t grid,
                                     uint64_t n)
{
    struct gs_speed_row *r = &s->rows[s->nrows++];
    memset(r, 0, sizeof *r);
    r->who = who;
    r->n = n;
    r->grid = grid;
    r->block = who == GS_SPD_COPY ? 1 : s->block;
    r->bytes = (who == GS_SPD_COPY ? 8 : 12) * n; /* floats: read + written */
    r->state = GS_SPD_NOT_TIMED;
    return r;
}

/* The size of the speed pass on dev: 1 GiB per buffer on a GPU where it
 * fits, the bandwidth command's cache-leaving CPU size elsewhere. 0 and
 * why when there is none. */
static uint64_t speed_n(struct gs_device *dev, char *why, size_t size)
{
    struct gs_err e = {0};
    uint64_t n = 0;
    struct gs_device *devs[1] = {dev};
    if (gs_plan_bandwidth_n(devs, 1, GS_TYPE_FLOAT, 0, GS_SPEED_GPU_BYTES, &n, why, size, &e) !=
        GS_OK) {
        gs_strlcpy(why, e.msg, size);
        return 0;
    }
    if (dev->is_gpu) {
        snprintf(why, size, "%llu MiB per buffer (%s)", (unsigned long long)(n * 4 >> 20),
                 n * 4 >= GS_SPEED_GPU_BYTES ? "1 GiB: at least 4x the last-level cache of "
                                               "the course's GPUs"
                                             : "as much as the device's memory allows, under "
                                               "1 GiB");
    } else if (n * 4 > GS_SPEED_CPU_BYTES) {
        n = GS_SPEED_CPU_BYTES / 4;
        snprintf(why, size, "256 KiB per buffer on a CPU device, so that check stays fast; it may "
                            "stay in the cache: a CPU's figures say what the kernel's work "
                            "costs beside the suite's loop, not the memory's speed");
    }
    return n;
}

/* One row in the live worker. GS_OK when the row has a state (*lost: it
 * ended the worker); other statuses are the harness's own failures. */
static int speed_row(struct iso *x, struct gs_speed_row *r, double limit_ms, double deadline,
                     int *lost, struct gs_err *e)
{
    const int user = r->who == GS_SPD_USER;
    const struct msg_speed ms = {(uint32_t)r->who, GS_SPEED_WARMUP, GS_SPEED_REPS,
                                 (uint32_t)user, r->n, r->grid, r->block, limit_ms,
                                 (uint64_t)(now_s() * 1e9) ^ ((uint64_t)getpid() << 40),
                                 gs_inputs_seed()};
    struct gs_check_case shown;
    memset(&shown, 0, sizeof shown);
    shown.launch.n = r->n;
    shown.launch.grid = r->grid;
    shown.launch.block = r->block;
    const uint32_t seq = ++x->seq;
    char *body = NULL;
    uint32_t len = 0;
    int malformed = 0, status = 0;
    *lost = 0;
    if (user)
        gs_poison_readback(x->pool, x->shm, r->n);
    const double t0 = now_s();
    int rx_rc = gs_wk_send(x->c.chan, MSG_SPEED, seq, &ms, sizeof ms, NULL, 0) == 0
                    ? rx_msg(x, MSG_SPEED_DONE, seq, &body, &len, t0, deadline,
                             user ? &shown : NULL, &malformed)
                    : RX_LOST;
    if (rx_rc == RX_OK && len != sizeof(struct msg_speed_done)) {
        rx_rc = RX_LOST;
        malformed = 1;
    }
    if (rx_rc != RX_OK) {
        free(body);
        end_worker(x, END_KILL, &status);
        *lost = 1;
        if (rx_rc == RX_TIMEOUT && user) {
            r->state = GS_SPD_TOO_SLOW;
            r->limit_ms = deadline * 1e3;
            snprintf(r->why, sizeof r->why, "its launches ran past %g s and were stopped",
                     deadline);
        } else if (rx_rc == RX_TIMEOUT) {
            snprintf(r->why, sizeof r->why, "the suite's launches ran past %g s", deadline);
        } else {
            char words[400];
            lost_words(x, status, malformed, "", words, sizeof words);
            r->state = user ? GS_SPD_WRONG : GS_SPD_NOT_TIMED;
            snprintf(r->why, sizeof r->why, "its process ended while timed: %.360s", words);
        }
        return GS_OK;
    }
    struct msg_speed_done d;
    memcpy(&d, body, sizeof d);
    free(body);
    d.msg[sizeof d.msg - 1] = '\0';
    if (d.status != GS_OK) {
        if (d.phase == PHASE_POISON)
            return gs_err_set(e, d.status, "%s", d.msg);
        r->state = user ? GS_SPD_WRONG : GS_SPD_NOT_TIMED;
        gs_strlcpy(r->why, d.msg, sizeof r->why);
        end_worker(x, END_KILL, NULL);
        *lost = 1;
        return GS_OK;
    }
    if (d.sample_wrong) {
        r->state = user ? GS_SPD_WRONG : GS_SPD_NOT_TIMED;
        snprintf(r->why, sizeof r->why, "a timed launch's output is wrong: %.360s", d.msg);
        return GS_OK;
    }
    r->nsamples = d.nsamples < 0 ? 0 : d.nsamples > GS_SPEED_MAX_REPS ? GS_SPEED_MAX_REPS
                                                                       : d.nsamples;
    memcpy(r->samples_ms, d.samples_ms, sizeof r->samples_ms);
    if (!gs_speed_samples_valid(r->samples_ms, r->nsamples, r->why, sizeof r->why)) {
        /* The worker's times are untrusted: a NaN or a negative time is no
         * measurement, and is not reported as one. */
        r->state = user ? GS_SPD_IMPOSSIBLE : GS_SPD_NOT_TIMED;
        r->nsamples = 0;
        memset(r->samples_ms, 0, sizeof r->samples_ms);
        return GS_OK;
    }
    if (d.stopped) {
        r->state = GS_SPD_TOO_SLOW;
        r->limit_ms = limit_ms;
        snprintf(r->why, sizeof r->why, "its first launch took %.4g ms, over the limit of "
                 "%.4g ms; not repeated", r->samples_ms[0], limit_ms);
    } else if (r->nsamples > 0) {
        r->state = GS_SPD_TIMED;
        gs_speed_stats(r);
    } else {
        snprintf(r->why, sizeof r->why, "no sample came back");
    }
    if (user) {
        /* The worker's word is not taken: its last output, verified here. */
        const struct gs_launch l = gs_launch_1d(GS_K_ADD_GS, r->n, r->grid, r->block);
        struct gs_verdict v;
        gs_verify_readback(x->pool, x->shm, &l, &v);
        if (!gs_verdict_clean(&v)) {
            char diag[300];
            gs_diagnosis(&v, diag, sizeof diag);
            r->state = GS_SPD_WRONG;
            snprintf(r->why, sizeof r->why, "the output of its timed launches is wrong: %s",
                     diag);
        }
    }
    return GS_OK;
}

/* Start again after a row ended the worker: 1 when live. */
static int speed_restart(struct iso *x, struct gs_speed_row *r, struct gs_err *e, int *rc)
{
    enum gs_check_class cls;
    char why[640];
    if (x->live)
        return 1;
    *rc = start(x, 0, &cls, why, sizeof why, e);
    if (*rc == GS_OK && cls != GS_CHECK_OK)
        snprintf(r->why, sizeof r->why, "a fresh worker could not start: %.360s", why);
    return *rc == GS_OK && cls == GS_CHECK_OK;
}

static double med_of(const struct gs_speed_row *r)
{
    return r && r->state == GS_SPD_TIMED ? r->med_ms : 0;
}

/* Time one row. ref: the suite's loop on the same launch, for a user's row
 * (its limit); g_row: the user's row on G at the same n, for its row on 4G. */
static int speed_time(struct iso *x, struct gs_speed_row *r, const struct gs_speed_row *ref,
                      const struct gs_speed_row *g_row, struct gs_err *e)
{
    char why[160];
    int rc = GS_OK, lost = 0;
    const struct gs_launch l = gs_launch_1d(
        r->who == GS_SPD_SUITE_MONO ? GS_K_ADD_MONO : GS_K_ADD_GS, r->n, r->grid, r->block);
    if (r->who != GS_SPD_COPY &&
        gs_dev_predicts_accept(x->dev, &l, why, sizeof why) != GS_ACCEPTS) {
        snprintf(r->why, sizeof r->why, "%s does not take <<<%llu, %llu>>>: %s",
                 x->dev->backend->name, (unsigned long long)r->grid,
                 (unsigned long long)r->block, why);
        return GS_OK;
    }
    if (!speed_restart(x, r, e, &rc))
        return rc;
    double limit = 0;
    double deadline = x->timeout_s;
    /* On 4G a kernel too slow on G is launched once, to read its growth. */
    const int once = r->who == GS_SPD_USER && g_row && g_row->state == GS_SPD_TOO_SLOW;
    if (once) {
        if (g_row->nsamples == 0) {
            snprintf(r->why, sizeof r->why, "too slow on grid G already");
            return GS_OK;
        }
        limit = 1e-9;
        const double need = 2.0 + (GS_SPEED_BLOCK_FACTOR + 2.0) * g_row->samples_ms[0] / 1e3;
        deadline = need < x->timeout_s ? floor(need) + 1 : x->timeout_s;
    } else if (r->who == GS_SPD_USER) {
        limit = med_of(ref) > 0 ? GS_SPEED_SLOW_FACTOR * med_of(ref) : 0;
        /* Room for every launch at the limit, and for the read-back. */
        const double need = 2.0 + 1.5 * limit * (GS_SPEED_WARMUP + GS_SPEED_REPS + 1) / 1e3;
        if (limit > 0 && need < deadline)
            deadline = floor(need) + 1;
    }
    gs_counters_drain(x->counters);
    const double t0 = now_s();
    rc = speed_row(x, r, limit, deadline, &lost, e);
    r->wall_s = now_s() - t0;
    if (once && rc == GS_OK && r->state == GS_SPD_TOO_SLOW && r->nsamples > 0)
        snprintf(r->why, sizeof r->why, "launched once (%.4g ms), as the kernel is too slow on "
                 "grid G to repeat", r->samples_ms[0]);
    return rc;
}

/* The rows in the order each needs the one before: the API's copy, the
 * suite's loop and monolithic add, the user's kernel on G; then work per
 * block (the loop and the kernel on 4G blocks, at a smaller n when the
 * kernel is too slow on G: gs_speed_blocks_n), then the kernel on the grid
 * sized to n. */
static int speed_pass(struct iso *x, struct gs_err *e)
{
    struct gs_speed *s = &x->run->speed;
    const uint64_t n = s->n, g = s->grid, g4 = GS_SPEED_BLOCK_FACTOR * s->grid;
    const uint64_t gn = (n + s->block - 1) / s->block; /* the grid sized to n */
    struct gs_speed_row *copy = speed_add(s, GS_SPD_COPY, 1, n);
    struct gs_speed_row *loop_g = speed_add(s, GS_SPD_SUITE_GS, g, n);
    struct gs_speed_row *loop_n = speed_add(s, GS_SPD_SUITE_GS, gn, n);
    struct gs_speed_row *mono = speed_add(s, GS_SPD_SUITE_MONO, gn, n);
    struct gs_speed_row *user_g = speed_add(s, GS_SPD_USER, g, n);
    int rc = speed_time(x, copy, NULL, NULL, e);
    if (rc == GS_OK)
        rc = speed_time(x, loop_g, NULL, NULL, e);
    if (rc == GS_OK)
        rc = speed_time(x, loop_n, NULL, NULL, e);
    if (rc == GS_OK)
        rc = speed_time(x, mono, NULL, NULL, e);
    if (rc == GS_OK)
        rc = speed_time(x, user_g, loop_g, NULL, e);
    /* Work per block at fixed n (gs_speed_blocks). */
    const int slow = user_g->state == GS_SPD_TOO_SLOW && user_g->nsamples > 0;
    s->blocks_n = slow ? gs_speed_blocks_n(n, user_g->samples_ms[0], g, s->block) : n;
    struct gs_speed_row *bl_g = loop_g, *bu_g = user_g;
    if (s->blocks_n != n) {
        bl_g = speed_add(s, GS_SPD_SUITE_GS, g, s->blocks_n);
        bu_g = speed_add(s, GS_SPD_USER, g, s->blocks_n);
    }
    struct gs_speed_row *bl_4 = speed_add(s, GS_SPD_SUITE_GS, g4, s->blocks_n);
    struct gs_speed_row *bu_4 = speed_add(s, GS_SPD_USER, g4, s->blocks_n);
    if (rc == GS_OK && bl_g != loop_g)
        rc = speed_time(x, bl_g, NULL, NULL, e);
    if (rc == GS_OK)
        rc = speed_time(x, bl_4, NULL, NULL, e);
    if (rc == GS_OK && bu_g != user_g)
        rc = speed_time(x, bu_g, bl_g, NULL, e);
    if (rc == GS_OK)
        rc = speed_time(x, bu_4, bl_4, bu_g, e);
    struct gs_speed_row *user_n = speed_add(s, GS_SPD_USER, gn, n);
    if (rc == GS_OK && user_g->state == GS_SPD_TOO_SLOW)
        snprintf(user_n->why, sizeof user_n->why, "too slow on grid G already");
    else if (rc == GS_OK)
        rc = speed_time(x, user_n, loop_n, NULL, e);
    if (rc == GS_OK) {
        s->measured = 1;
        /* A CPU device gets a floor too (its driver gives no peak). */
        gs_speed_judge(s,
                       x->dev->peak_bytes_per_s || x->dev->is_gpu
                           ? x->dev->peak_bytes_per_s
                           : gs_speed_cpu_peak(gs_host_cpus()),
                       x->dev->is_gpu);
        gs_speed_blocks(s);
    }
    return rc;
}

/* Who writes what, where the backend counts it: in the live worker, its
 * answer read from the shared memory (the worker's word, like its times:
 * the count runs the user's code). */
static int count_pass(struct iso *x, struct gs_err *e)
{
    struct gs_check_work *w = &x->run->work;
    const uint64_t T = x->run->threads;
    const struct msg_case mc = {w->n, w->grid, w->block, w->grid * w->block, gs_inputs_seed(), 0, 0};
    struct gs_check_case shown;
    memset(&shown, 0, sizeof shown);
    shown.launch.n = w->n;
    shown.launch.grid = w->grid;
    shown.launch.block = w->block;
    const uint32_t seq = ++x->seq;
    char *body = NULL;
    uint32_t len = 0;
    int malformed = 0, status = 0;
    (void)T;
    memset(x->shm, 0xFF, (size_t)(12 * w->n)); /* no count before the answer */
    const double t0 = now_s();
    int r = gs_wk_send(x->c.chan, MSG_COUNT, seq, &mc, sizeof mc, NULL, 0) == 0
                ? rx_msg(x, MSG_DONE, seq, &body, &len, t0, x->timeout_s, &shown, &malformed)
                : RX_LOST;
    if (r == RX_OK && len != sizeof(struct msg_done)) {
        r = RX_LOST;
        malformed = 1;
    }
    if (r != RX_OK) {
        char words[400];
        free(body);
        end_worker(x, END_KILL, &status);
        if (r == RX_TIMEOUT)
            snprintf(w->why, sizeof w->why, "not counted: one thread at a time ran past %g s",
                     x->timeout_s);
        else {
            lost_words(x, status, malformed, "", words, sizeof words);
            snprintf(w->why, sizeof w->why, "not counted: its process ended: %.300s", words);
        }
        return GS_OK;
    }
    struct msg_done d;
    memcpy(&d, body, sizeof d);
    free(body);
    d.msg[sizeof d.msg - 1] = '\0';
    if (d.status != GS_OK) {
        if (d.phase == PHASE_POISON)
            return gs_err_set(e, d.status, "%s", d.msg);
        snprintf(w->why, sizeof w->why, "not counted: %.380s", d.msg);
        end_worker(x, END_KILL, NULL);
        return GS_OK;
    }
    const uint32_t *words = (const uint32_t *)x->shm;
    gs_check_work_judge(w, words, words + w->n, words + 2 * w->n);
    /* Who wrote each element, for check --svg. */
    free(w->count_of);
    free(w->first_of);
    w->count_of = malloc((size_t)w->n * sizeof *w->count_of);
    w->first_of = malloc((size_t)w->n * sizeof *w->first_of);
    if (!w->count_of || !w->first_of) {
        free(w->count_of);
        free(w->first_of);
        w->count_of = w->first_of = NULL;
        return gs_err_set(e, GS_NOMEM, "out of memory keeping the count of %llu elements",
                          (unsigned long long)w->n);
    }
    memcpy(w->count_of, words, (size_t)w->n * sizeof *w->count_of);
    memcpy(w->first_of, words + w->n, (size_t)w->n * sizeof *w->first_of);
    return GS_OK;
}

/* The counted launch: the device grid, at n = 2T (every block's start and
 * past it, so that a block stride shows on every element it repeats), at
 * most 2^26 thread-elements of work (each thread runs on a poisoned output
 * scanned whole) and what the shared memory holds. */
static void count_plan(struct iso *x, const struct gs_check_plan *plan)
{
    struct gs_check_work *w = &x->run->work;
    memset(w, 0, sizeof *w);
    w->first_repeated = -1;
    w->grid = x->run->grid;
    w->block = x->run->block;
    (void)plan;
    if (!x->dev->backend->user_count) {
        struct gs_err e = {0};
        struct gs_launch l;
        memset(&l, 0, sizeof l);
        gs_dev_user_count(x->dev, &l, NULL, NULL, NULL, &e);
        snprintf(w->why, sizeof w->why, "not counted: %.380s", e.msg);
        return;
    }
    const uint64_t T = x->run->threads;
    uint64_t n = 2 * T;
    if (n * T > (1ull << 26))
        n = (1ull << 26) / T;
    if (n < GS_SHAPE_N)
        n = GS_SHAPE_N;
    if (12 * n > gs_buffer_bytes(x->max_n))
        n = gs_buffer_bytes(x->max_n) / 12;
    if (n > x->max_n) /* the worker's buffers hold max_n elements */
        n = x->max_n;
    w->n = n;
}

/* Whether and at what size the speed pass runs, before the worker starts
 * (its buffers and the shared memory are sized for it). */
static void speed_plan(struct iso *x, const struct gs_check_plan *plan)
{
    struct gs_speed *s = &x->run->speed;
    memset(s, 0, sizeof *s);
    s->block = x->run->block;
    s->grid = x->run->grid;
    s->min_speed = plan->min_speed;
    if (plan->no_speed)
        snprintf(s->words, sizeof s->words, "not measured (--no-speed)");
    else if (!(x->dev->caps & GS_CAP_TIMING) || !(x->dev->caps & GS_CAP_COPY))
        snprintf(s->words, sizeof s->words, "not measured: %s has no device timer or copy to "
                 "time against", x->dev->backend->name);
    else
        s->n = speed_n(x->dev, s->size_rule, sizeof s->size_rule);
    if (!plan->no_speed && s->n == 0 && !s->words[0])
        snprintf(s->words, sizeof s->words, "not measured: %s", s->size_rule);
    if (s->n > x->max_n)
        x->max_n = s->n;
}

/* ---- a .gs text's count on the host backend ------------------------------ */

/* The count of who writes what of a .gs text (src) for a run on another
 * backend: the .gs dialect means the same on every backend, so its writes at
 * run's launch are counted by the host backend (host, a device of it) in a
 * worker of its own, exactly as gs_check_device_isolated counts them there.
 * GS_OK: run->work holds the count (on_host set), or why it was not counted;
 * other statuses are environment failures. */
static int count_isolated(struct gs_device *host, const struct gs_user_source *src,
                          const struct gs_worker_opts *opts, struct gs_check_run *run,
                          uint64_t *printed, struct gs_err *e)
{
    struct gs_check_run tmp;
    struct iso *x = calloc(1, sizeof *x);
    if (!x)
        return gs_err_set(e, GS_NOMEM, "out of memory");
    memset(&tmp, 0, sizeof tmp);
    tmp.dev = host;
    tmp.grid = run->grid;
    tmp.block = run->block;
    tmp.threads = run->threads;
    x->dev = host;
    x->src = src;
    x->run = &tmp;
    x->o = opts;
    x->timeout_s = opts && opts->timeout_s > 0 ? opts->timeout_s : GS_WORKER_CPU_TIMEOUT_S;
    x->build_timeout_s = opts && opts->build_timeout_s ? opts->build_timeout_s
                                                      : GS_WORKER_BUILD_TIMEOUT_S;
    x->shm_fd = -1;
    x->shm = MAP_FAILED;
    x->sandbox = opts && opts->loads_in_process && opts->loads_in_process(host->backend);
    x->max_n = 3 * GS_SHAPE_N + 3 * 2 * run->threads; /* the count's 12 n bytes, at most */
    count_plan(x, NULL);
    int rc = GS_OK;
    if (tmp.work.n) {
        x->max_n = 3 * tmp.work.n;
        x->shm_bytes = gs_buffer_bytes(x->max_n);
        x->shm_fd = gs_proc_shm_create("gridstride-count");
        if (x->shm_fd < 0 || gs_proc_shm_seal(x->shm_fd, x->shm_bytes) != 0)
            rc = gs_err_set(e, GS_NOMEM, "shared memory of %llu bytes for the count: %s",
                            (unsigned long long)x->shm_bytes, strerror(errno));
        if (rc == GS_OK) {
            x->shm = mmap(NULL, x->shm_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, x->shm_fd, 0);
            if (x->shm == MAP_FAILED)
                rc = gs_err_set(e, GS_NOMEM, "cannot map %llu bytes of shared memory: %s",
                                (unsigned long long)x->shm_bytes, strerror(errno));
        }
        enum gs_check_class cls = GS_CHECK_OK;
        char why[640];
        struct gs_err be = {0};
        int brc = GS_OK;
        if (rc == GS_OK) {
            gs_proc_install_cleanup();
            brc = start(x, 1, &cls, why, sizeof why, &be);
        }
        if (rc == GS_OK && brc != GS_OK && brc != GS_BUILD && brc != GS_USAGE &&
            brc != GS_UNSUPPORTED)
            rc = brc, *e = be;
        else if (rc == GS_OK && brc != GS_OK)
            snprintf(tmp.work.why, sizeof tmp.work.why, "not counted: the host backend did not "
                     "build it: %.340s", be.msg);
        else if (rc == GS_OK && cls != GS_CHECK_OK)
            snprintf(tmp.work.why, sizeof tmp.work.why, "not counted: on the host backend %.340s",
                     why);
        else if (rc == GS_OK)
            rc = count_pass(x, e);
        end_worker(x, END_POLITE, NULL);
    }
    if (rc == GS_OK) {
        tmp.work.on_host = 1;
        gs_check_work_take(&run->work, &tmp.work);
    }
    gs_check_run_free(&tmp);
    if (x->shm != MAP_FAILED)
        munmap(x->shm, x->shm_bytes);
    if (x->shm_fd >= 0)
        close(x->shm_fd);
    if (printed)
        *printed += x->printed;
    free(x);
    return rc;
}

/* ---- a .gs text's count beside the cases ----------------------------------- */

/* The count of a .gs text on the host backend for a device that does not
 * count (opts->count_on), in a thread of its own from before the build, so
 * that its time (the host's build of the text, about 0.1 s, and the count,
 * 0.2 s on an H200's host) is not added to the device's: it is kept when
 * every case is right, and cancelled otherwise (its worker ended at once).
 * It runs without the watchdog's lines (they are the device's launches');
 * its deadlines hold. */
struct side_count {
    struct gs_device *host;
    const struct gs_user_source *src;
    struct gs_worker_opts opts;
    struct gs_check_run tmp;
    uint64_t printed;
    int rc;
    struct gs_err e;
    atomic_int cancel;
    pthread_t thread;
    int started;
};

static void *side_count_run(void *arg)
{
    struct side_count *sc = arg;
    sc->rc = count_isolated(sc->host, sc->src, &sc->opts, &sc->tmp, &sc->printed, &sc->e);
    return NULL;
}

static void side_count_start(struct side_count *sc, const struct gs_check_run *run,
                             const struct gs_user_source *src, const struct gs_worker_opts *opts)
{
    memset(sc, 0, sizeof *sc);
    atomic_init(&sc->cancel, 0);
    if (!opts || !opts->count_on || src->dialect != GS_DIALECT_PORTABLE ||
        run->dev->backend->user_count || run->ncases == 0)
        return;
    sc->host = opts->count_on;
    sc->src = src;
    sc->opts = *opts;
    sc->opts.waiting = NULL;
    sc->opts.turns = NULL;
    sc->opts.cancel = &sc->cancel;
    sc->tmp.dev = run->dev;
    sc->tmp.grid = run->grid;
    sc->tmp.block = run->block;
    sc->tmp.threads = run->threads;
    sc->started = pthread_create(&sc->thread, NULL, side_count_run, sc) == 0;
}

/* Its result into run when keep (every case right), else dropped. */
static int side_count_end(struct side_count *sc, int keep, struct gs_check_run *run,
                          uint64_t *printed, struct gs_err *e)
{
    int rc = GS_OK;
    if (!sc->started)
        return rc;
    if (!keep)
        atomic_store(&sc->cancel, 1);
    pthread_join(sc->thread, NULL);
    sc->started = 0;
    if (printed)
        *printed += sc->printed;
    if (keep && sc->rc != GS_OK) {
        *e = sc->e;
        rc = sc->rc;
    } else if (keep) {
        gs_check_work_take(&run->work, &sc->tmp.work);
    }
    gs_check_run_free(&sc->tmp);
    return rc;
}

int gs_check_device_isolated(struct gs_device *dev, const struct gs_grid_choice *g,
                             const struct gs_user_source *src, const struct gs_check_plan *plan,
                             const struct gs_worker_opts *opts, struct gs_check_run *run,
                             uint64_t *printed, struct gs_err *e)
{
    struct iso *x = calloc(1, sizeof *x);
    if (!x)
        return gs_err_set(e, GS_NOMEM, "out of memory");
    int rc = gs_check_plan_device(dev, g, plan, run, e);
    /* This process's threads for poisoning and verifying the outputs of up
     * to 2^32 elements; without them, one thread gives the same verdicts. */
    struct gs_err pe = {0};
    if (gs_pool_open(&x->pool, 0, &pe) != GS_OK)
        x->pool = NULL;
    x->dev = dev;
    x->src = src;
    x->run = run;
    x->o = opts;
    x->timeout_s = opts && opts->timeout_s > 0 ? opts->timeout_s
                   : dev->is_gpu                    ? GS_WORKER_TIMEOUT_S
                                                : GS_WORKER_CPU_TIMEOUT_S;
    x->build_timeout_s = opts && opts->build_timeout_s ? opts->build_timeout_s
                                                      : GS_WORKER_BUILD_TIMEOUT_S;
    x->shm_fd = -1;
    x->shm = MAP_FAILED;
    /* The reference backend loads the compiled kernel into its own process
     * (dlopen): its worker gets the filter, the unprivileged user and the
     * address-space limit. */
    x->sandbox = opts && opts->loads_in_process && opts->loads_in_process(dev->backend);
    for (int i = 0; rc == GS_OK && i < run->ncases; ++i)
        if (run->cases[i].launch.n > x->max_n)
            x->max_n = run->cases[i].launch.n;
    if (rc == GS_OK)
        speed_plan(x, plan);
    if (rc == GS_OK)
        count_plan(x, plan);
    if (rc == GS_OK) {
        x->shm_bytes = gs_buffer_bytes(x->max_n);
        x->adopted = adopt(dev->backend, &x->c, &x->shm_fd, x->rtdir, sizeof x->rtdir);
        if (!x->adopted)
            x->shm_fd = gs_proc_shm_create("gridstride-check");
        if (x->shm_fd < 0 || gs_proc_shm_seal(x->shm_fd, x->shm_bytes) != 0)
            rc = gs_err_set(e, GS_NOMEM, "shared memory of %llu bytes for the worker: %s",
                            (unsigned long long)x->shm_bytes, strerror(errno));
    }
    if (rc == GS_OK) {
        x->shm = mmap(NULL, x->shm_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, x->shm_fd, 0);
        if (x->shm == MAP_FAILED)
            rc = gs_err_set(e, GS_NOMEM, "cannot map %llu bytes of shared memory: %s",
                            (unsigned long long)x->shm_bytes, strerror(errno));
    }
    /* The hardware counters (a .cu kernel under Nsight Compute): ncu starts
     * now, beside the cases and the speed pass; its launches run before or
     * after the speed pass, never beside it (gs_counters_run.h). */
    struct gs_counters_job *counters = NULL;
    const int defer = opts && opts->defer_exit && gs_turns_last(opts->turns, opts->turn);
    double t = now_s();
    if (rc == GS_OK)
        rc = gs_counters_start(dev, src, plan, run, x->build_timeout_s, x->timeout_s, defer,
                               &counters, e);
    x->counters = counters;
    const double counters_start_s = now_s() - t;
    struct side_count side;
    memset(&side, 0, sizeof side);
    if (rc == GS_OK)
        side_count_start(&side, run, src, opts);
    t = now_s();
    if (rc == GS_OK) {
        gs_proc_install_cleanup();
        rc = run_all(x, e);
        run->elapsed.cases_s = now_s() - t - run->elapsed.build_s;
    }
    int right = rc == GS_OK;
    for (int i = 0; right && i < run->ncases; ++i)
        right = run->cases[i].cls == GS_CHECK_OK;
    t = now_s();
    if (rc == GS_OK && run->work.n && right && x->live)
        rc = count_pass(x, e);
    else if (rc == GS_OK && run->work.n)
        snprintf(run->work.why, sizeof run->work.why,
                 "not counted: the writes are counted once every case is right");
    const int side_rc = side_count_end(&side, rc == GS_OK && right, run, printed, e);
    if (rc == GS_OK)
        rc = side_rc;
    if (rc == GS_OK && right && run->ncases && src->dialect == GS_DIALECT_PORTABLE &&
        !dev->backend->user_count && opts && !opts->count_on && opts->count_why)
        gs_strlcpy(run->work.why, opts->count_why, sizeof run->work.why);
    run->elapsed.count_s = now_s() - t;
    /* Built, cases run, counted, the worker settled and the counters worker
     * ready for its go: the timed section waits for its turn. */
    if (rc == GS_OK && right && run->speed.n && x->live)
        settle(x);
    if (rc == GS_OK && right && (run->speed.n || plan->counters))
        gs_counters_ready(counters, x->build_timeout_s);
    gs_turns_ready(opts ? opts->turns : NULL, opts ? opts->turn : 0);
    gs_turns_wait(opts ? opts->turns : NULL, opts ? opts->turn : 0);
    /* The counters explain a kernel slower than the loop: the speed verdict
     * decides whether they are read, unless --counters asks for them (then
     * they are read before the speed pass, and ncu's report runs beside it). */
    const int after_speed = !plan->counters && run->speed.n;
    t = now_s();
    if (!after_speed)
        gs_counters_launch(counters, rc == GS_OK && right, NULL, run);
    double counters_launch_s = now_s() - t;
    t = now_s();
    if (rc == GS_OK && run->speed.n && right)
        rc = speed_pass(x, e);
    else if (rc == GS_OK && run->speed.n)
        snprintf(run->speed.words, sizeof run->speed.words,
                 "not measured: a kernel is timed once every case is right");
    end_worker(x, defer ? END_LATER : END_POLITE, NULL);
    run->elapsed.speed_s = now_s() - t;
    if (after_speed) {
        const int as_fast = run->speed.measured && run->speed.cls == GS_SPEED_AS_FAST;
        t = now_s();
        gs_counters_launch(counters, rc == GS_OK && right && !as_fast,
                           as_fast ? "the kernel is as fast as the suite's loop on the same "
                                     "launch, so its loads and stores are as coalesced as the "
                                     "loop's (--counters reads them anyway)"
                                   : NULL,
                           run);
        counters_launch_s += now_s() - t;
    }
    gs_turns_end(opts ? opts->turns : NULL, opts ? opts->turn : 0);
    t = now_s();
    const int crc = gs_counters_finish(counters, rc == GS_OK && right, run, e);
    x->counters = NULL; /* freed */
    if (rc == GS_OK)
        rc = crc;
    /* Beyond the other phases: its start, and its wait after the speed pass. */
    run->elapsed.counters_s = counters_start_s + counters_launch_s + now_s() - t;
    if (rc == GS_OK)
        gs_check_summarize(run);
    if (x->pool)
        gs_pool_close(x->pool);
    if (x->shm != MAP_FAILED)
        munmap(x->shm, x->shm_bytes);
    if (x->shm_fd >= 0)
        close(x->shm_fd);
    if (printed)
        *printed += x->printed;
    free(x);
    return rc;
}
