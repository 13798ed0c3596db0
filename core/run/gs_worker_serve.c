/* SPDX-License-Identifier: MIT */
/* check's worker process (gs_worker.h): the user's code is built and run
 * here, never in the process that gives the verdict. */
#define _DEFAULT_SOURCE /* madvise */
#include "gs_worker.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "gs_device.h"
#include "gs_proc.h"
#include "gs_seccomp.h"
#include "gs_select.h"
#include "gs_verify.h"
#include "gs_verify_pool.h"
#include "gs_worker_msg.h"
#include "gs_workspace.h"

/* ---- the worker ---------------------------------------------------------- */

static int sandbox_hook(void *ctx, char *why, unsigned why_size)
{
    (void)ctx;
    const struct rlimit none = {0, 0};
    setrlimit(RLIMIT_FSIZE, &none); /* the compiler has written its last file */
    const int own_fds[] = {1, 2, WK_CHAN};
    return gs_seccomp_install(GS_SECCOMP_LOADER, own_fds, 3, why, why_size);
}

static void send_built(int status, const char *compiler, const char *msg, const char *log)
{
    struct msg_built b;
    memset(&b, 0, sizeof b);
    b.status = status;
    gs_strlcpy(b.compiler, compiler ? compiler : "", sizeof b.compiler);
    gs_strlcpy(b.msg, msg ? msg : "", sizeof b.msg);
    const char *strs[] = {log ? log : ""};
    gs_wk_send(WK_CHAN, MSG_BUILT, 0, &b, sizeof b, strs, 1);
}

/* The launch a case message asks for: the user's kernel in the suite's
 * grid-stride slot, bound by the caller. */
static struct gs_launch case_launch(const struct msg_case *mc)
{
    struct gs_launch l = gs_launch_1d(GS_K_ADD_GS, mc->n, mc->grid, mc->block);
    l.global = mc->global;
    return l;
}

static void serve_case(struct gs_device *dev, struct gs_workspace *w, struct gs_user_kernel *k,
                       void *shm, uint64_t shm_bytes, const struct msg_case *mc, uint32_t seq)
{
    struct msg_done d;
    struct gs_err e = {0};
    struct gs_launch l = case_launch(mc);
    memset(&d, 0, sizeof d);
    const uint64_t bytes = gs_buffer_bytes(l.n);
    if (l.n > w->n || bytes > shm_bytes) {
        d.status = gs_err_set(&e, GS_USAGE, "a case of n = %llu in a worker for %llu",
                              (unsigned long long)l.n, (unsigned long long)w->n);
    } else {
        gs_workspace_bind(w, &l);
        l.user = k;
        d.phase = PHASE_POISON;
        d.status = gs_workspace_reseed(w, mc->inputs, l.n, &e);
        if (d.status == GS_OK)
            d.status = mc->finite ? gs_workspace_poison_finite(w, l.n, &e)
                                  : gs_workspace_poison(w, l.n, &e);
        if (d.status == GS_OK) {
            d.phase = PHASE_LAUNCH;
            d.status = gs_dev_launch(dev, &l, 0, &d.r, &e);
        }
        /* check's read-back layout (gs_verify_pool.h): out and the guard
         * past it, then the guard before it. */
        if (d.status == GS_OK) {
            d.phase = PHASE_READ;
            d.status = gs_dev_read(dev, w->dout, 0, shm, gs_readback_view_bytes(l.n), &e);
        }
        if (d.status == GS_OK)
            d.status = gs_dev_front_read(dev, w->dout, gs_readback_front(shm, l.n), &e);
    }
    gs_strlcpy(d.msg, e.msg, sizeof d.msg);
    gs_wk_send(WK_CHAN, MSG_DONE, seq, &d, sizeof d, NULL, 0);
}

/* The pages of a large read-back mapped in one call, before the API copies
 * into them, rather than one fault at a time: on an H200 the first timed
 * row's read-back of 1 GiB took 0.71 s against 0.15 s for the next rows;
 * with this and the parent's poison while the worker builds, 0.27 s.
 * Where the kernel lacks MADV_POPULATE_WRITE (before Linux 5.14), or the
 * pages are mapped already, nothing changes but the time. */
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif
#define LARGE_SHM (64ull << 20)
static uint64_t populated;

static void populate(void *shm, uint64_t bytes)
{
    if (bytes <= populated || bytes < LARGE_SHM)
        return;
    if (madvise(shm, (size_t)bytes, MADV_POPULATE_WRITE) == 0)
        populated = bytes;
}

/* The shared memory of a speed pass (1 GiB and more), made ready while the
 * kernel builds and the cases run, in a thread of its own, joined before
 * the first timed row: its pages mapped, and page-locked where the backend
 * can (gs_dev_pin), so that each timed row's read-back of 1 GiB moves at
 * the bus's speed (on an H200, 20 ms against 77 ms into pageable memory;
 * the pin itself takes about 70 ms). The cases read back into the same
 * memory meanwhile (the API copies into pages being locked, a few KiB).
 * Never in a worker that gets the system-call filter (the user's code loads
 * into it: no thread may run beside it); there the read-back maps the pages
 * itself. */
struct prep {
    struct gs_device *dev;
    void *shm;
    uint64_t bytes;
    int pinned;
    pthread_t thread;
    int started;
};

static void *prep_shm(void *arg)
{
    struct prep *p = arg;
    struct gs_err e = {0};
    populate(p->shm, p->bytes);
    p->pinned = gs_dev_pin(p->dev, p->shm, p->bytes, &e) == GS_OK;
    return NULL;
}

static void prep_start(struct prep *p, struct gs_device *dev, void *shm, uint64_t bytes,
                       int sandbox)
{
    memset(p, 0, sizeof *p);
    p->dev = dev;
    p->shm = shm;
    p->bytes = bytes;
    if (dev && !sandbox && bytes >= LARGE_SHM)
        p->started = pthread_create(&p->thread, NULL, prep_shm, p) == 0;
}

static void prep_join(struct prep *p)
{
    if (p->started)
        pthread_join(p->thread, NULL);
    p->started = 0;
}

static void serve_speed(struct gs_device *dev, struct gs_workspace *w, struct gs_user_kernel *k,
                        void *shm, uint64_t shm_bytes, const struct msg_speed *ms, uint32_t seq)
{
    struct msg_speed_done d;
    struct gs_err e = {0};
    struct gs_launch l = gs_launch_1d(ms->who == GS_SPD_SUITE_MONO ? GS_K_ADD_MONO : GS_K_ADD_GS,
                                      ms->n, ms->grid, ms->block);
    memset(&d, 0, sizeof d);
    const uint64_t bytes = gs_buffer_bytes(l.n);
    unsigned total = ms->warmup + ms->reps;
    if (l.n > w->n || bytes > shm_bytes || ms->reps > GS_SPEED_MAX_REPS) {
        d.status = gs_err_set(&e, GS_USAGE, "a timed row of n = %llu in a worker for %llu",
                              (unsigned long long)l.n, (unsigned long long)w->n);
        total = 0;
    }
    gs_workspace_bind(w, &l);
    l.user = ms->who == GS_SPD_USER ? k : NULL;
    if (d.status == GS_OK) {
        d.phase = PHASE_POISON;
        d.status = gs_workspace_reseed(w, ms->inputs, l.n, &e);
    }
    for (unsigned i = 0; d.status == GS_OK && i < total; ++i) {
        struct gs_launch_result r = {0};
        double t = 0;
        d.phase = PHASE_POISON;
        d.status = gs_workspace_poison(w, l.n, &e);
        if (d.status != GS_OK)
            break;
        d.phase = PHASE_LAUNCH;
        if (ms->who == GS_SPD_COPY) {
            d.status = gs_dev_copy(dev, w->dout, w->da, l.n * sizeof(float), &t, &e);
        } else {
            d.status = gs_dev_launch(dev, &l, 1, &r, &e);
            if (d.status == GS_OK && !r.accepted) {
                gs_strlcpy(d.api_error, r.api_error, sizeof d.api_error);
                d.status = gs_err_set(&e, GS_API, "the launch was refused: %s: %s", r.api_error,
                                      r.api_message);
            }
            t = r.ms;
        }
        for (unsigned s = 0; d.status == GS_OK && l.user && l.n && s < SPEED_SAMPLES; ++s) {
            uint64_t h = ms->seed ^ ((uint64_t)i << 32 | s);
            h = (h ^ (h >> 31)) * 0x9E3779B97F4A7C15ull;
            const uint64_t at = s == 0 ? l.n - 1 : (h ^ (h >> 29)) % l.n;
            float got = 0, want = gs_expected_at(GS_OP_ADD, at);
            d.phase = PHASE_READ;
            d.status = gs_dev_read(dev, w->dout, at * sizeof(float), &got, sizeof got, &e);
            if (d.status == GS_OK && memcmp(&got, &want, sizeof got) != 0) {
                d.sample_wrong = 1;
                gs_err_set(&e, GS_OK, "launch %u of %u left out[%llu] = %g, not %g", i + 1,
                           total, (unsigned long long)at, (double)got, (double)want);
                break;
            }
        }
        if (d.status != GS_OK || d.sample_wrong)
            break;
        if (i == 0 && ms->limit_ms > 0 && t > ms->limit_ms) {
            d.samples_ms[0] = t;
            d.nsamples = 1;
            d.stopped = 1;
            break;
        }
        if (i >= ms->warmup)
            d.samples_ms[d.nsamples++] = t;
    }
    if (d.status == GS_OK && ms->read_back) {
        populate(shm, bytes);
        d.phase = PHASE_READ;
        d.status = gs_dev_read(dev, w->dout, 0, shm, gs_readback_view_bytes(l.n), &e);
        if (d.status == GS_OK)
            d.status = gs_dev_front_read(dev, w->dout, gs_readback_front(shm, l.n), &e);
    }
    gs_strlcpy(d.msg, e.msg, sizeof d.msg);
    gs_wk_send(WK_CHAN, MSG_SPEED_DONE, seq, &d, sizeof d, NULL, 0);
}

/* The count of who writes what (gs_dev_user_count) into shared memory:
 * count, first and last writer, n 32-bit words each; answered as a case. */
static void serve_count(struct gs_device *dev, struct gs_workspace *w, struct gs_user_kernel *k,
                        void *shm, uint64_t shm_bytes, const struct msg_case *mc, uint32_t seq)
{
    struct msg_done d;
    struct gs_err e = {0};
    struct gs_launch l = case_launch(mc);
    memset(&d, 0, sizeof d);
    d.phase = PHASE_LAUNCH;
    if (l.n > w->n || 12 * l.n > shm_bytes) {
        d.phase = PHASE_POISON;
        d.status = gs_err_set(&e, GS_USAGE, "a count of n = %llu in a worker for %llu",
                              (unsigned long long)l.n, (unsigned long long)w->n);
    } else {
        gs_workspace_bind(w, &l);
        l.user = k;
        uint32_t *words = shm;
        d.status = gs_workspace_reseed(w, mc->inputs, l.n, &e);
        if (d.status == GS_OK)
            d.status = gs_dev_user_count(dev, &l, words, words + l.n, words + 2 * l.n, &e);
    }
    gs_strlcpy(d.msg, e.msg, sizeof d.msg);
    gs_wk_send(WK_CHAN, MSG_DONE, seq, &d, sizeof d, NULL, 0);
}

/* MSG_PREBUILD's build, kept for HELLO (gs_worker_msg.h). */
struct prebuilt {
    int done;
    struct gs_device *dev;
    struct gs_user_kernel *k;
    struct gs_build_info info;
    int rc;
    struct gs_err e;
    char *body; /* the message: the source's strings point into it */
    uint32_t len;
    struct msg_prebuild pb;
};

static void prebuild(struct gs_opened *o, struct prebuilt *p, char *body, uint32_t len)
{
    memset(p, 0, sizeof *p);
    p->body = body;
    p->len = len;
    memcpy(&p->pb, body, sizeof p->pb);
    p->pb.selector[sizeof p->pb.selector - 1] = '\0';
    const struct gs_user_source src = {
        .path = gs_wk_string_at(body, len, sizeof p->pb, 0),
        .entry = gs_wk_string_at(body, len, sizeof p->pb, 1),
        .text = gs_wk_string_at(body, len, sizeof p->pb, 2),
        .dialect = (enum gs_dialect)p->pb.dialect,
    };
    struct gs_device *dev = NULL;
    int n = 0;
    if (o->status != GS_OK ||
        gs_select_devices(o, p->pb.selector[0] ? p->pb.selector : NULL, &dev, 1, &n, &p->e) !=
            GS_OK ||
        n < 1)
        return; /* HELLO builds, and says why not */
    p->dev = dev;
    p->rc = gs_dev_user_build(p->dev, &src, &p->k, &p->info, &p->e);
    p->done = 1;
}

/* The prebuilt kernel when HELLO asks for the same device and file. */
static int prebuilt_fits(const struct prebuilt *p, const struct gs_device *dev,
                         const struct gs_user_source *src)
{
    return p->done && p->dev == dev && p->pb.dialect == (int)src->dialect &&
           strcmp(gs_wk_string_at(p->body, p->len, sizeof p->pb, 0), src->path) == 0 &&
           strcmp(gs_wk_string_at(p->body, p->len, sizeof p->pb, 1), src->entry) == 0 &&
           strcmp(gs_wk_string_at(p->body, p->len, sizeof p->pb, 2), src->text) == 0;
}

static void prebuilt_free(struct prebuilt *p, struct gs_user_kernel *keep)
{
    if (p->done && p->k && p->k != keep)
        gs_dev_user_free(p->dev, p->k);
    gs_build_info_free(&p->info);
    free(p->body);
    memset(p, 0, sizeof *p);
}

int gs_worker_serve(const struct gs_backend *b)
{
    struct msg_head h;
    struct gs_err e = {0};
    struct gs_opened o;
    struct prebuilt pre;
    memset(&pre, 0, sizeof pre);
    gs_proc_worker_begin();
    /* The compiler the backend may start inherits neither. */
    fcntl(WK_CHAN, F_SETFD, FD_CLOEXEC);
    fcntl(WK_SHM, F_SETFD, FD_CLOEXEC);
    /* The API first, while the parent still plans (our own code only). */
    gs_open_backend(b, &o);
    char *body = gs_wk_read(WK_CHAN, &h);
    if (body && h.type == MSG_PREBUILD && h.len >= sizeof(struct msg_prebuild)) {
        prebuild(&o, &pre, body, h.len);
        body = gs_wk_read(WK_CHAN, &h);
    }
    if (!body || h.type != MSG_HELLO || h.len < sizeof(struct msg_hello)) {
        free(body);
        prebuilt_free(&pre, NULL);
        gs_close_backend(&o);
        return 2;
    }
    struct msg_hello hello;
    memcpy(&hello, body, sizeof hello);
    hello.device_id[sizeof hello.device_id - 1] = '\0';
    if ((hello.sandbox || hello.runtime_filter) && pre.body) {
        /* user code built before the limits and the filter: never */
        free(body);
        prebuilt_free(&pre, NULL);
        gs_close_backend(&o);
        return 2;
    }
    const struct gs_user_source src = {
        .path = gs_wk_string_at(body, h.len, sizeof hello, 0),
        .entry = gs_wk_string_at(body, h.len, sizeof hello, 1),
        .text = gs_wk_string_at(body, h.len, sizeof hello, 2),
        .dialect = (enum gs_dialect)hello.dialect,
    };
    const char *tmp = gs_wk_string_at(body, h.len, sizeof hello, 3);
    hello.lim.cwd = gs_wk_string_at(body, h.len, sizeof hello, 4);
    if (!*hello.lim.cwd)
        hello.lim.cwd = NULL;
    if (*tmp)
        setenv("TMPDIR", tmp, 1);
    void *shm = mmap(NULL, hello.shm_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, WK_SHM, 0);
    char why[400] = "";
    int lim_rc = shm == MAP_FAILED ? GS_NOMEM : gs_proc_apply_limits(&hello.lim, &e);
    /* A CPU runtime compiles and runs the kernel in its own threads, which
     * it started when it opened: the filter reaches them (TSYNC) before it
     * reads the file. */
    const int own_fds[] = {1, 2, WK_CHAN};
    if (lim_rc == GS_OK && hello.runtime_filter &&
        (lim_rc = gs_seccomp_install(GS_SECCOMP_RUNTIME, own_fds, 3, why, sizeof why)) != GS_OK)
        gs_err_set(&e, lim_rc, "%s", why);
    if (lim_rc != GS_OK) {
        if (shm == MAP_FAILED)
            gs_err_set(&e, GS_NOMEM, "the worker cannot map %llu bytes of shared memory: %s",
                       (unsigned long long)hello.shm_bytes, strerror(errno));
        send_built(e.status, NULL, e.msg, NULL);
        gs_close_backend(&o);
        free(body);
        return 1;
    }

    struct gs_device *dev = NULL;
    struct gs_workspace w;
    struct gs_user_kernel *k = NULL;
    struct gs_build_info info = {0};
    int nsel = 0, have_w = 0;
    int rc = o.status;
    if (rc != GS_OK)
        e = o.err;
    if (rc == GS_OK)
        rc = gs_select_devices(&o, hello.device_id, &dev, 1, &nsel, &e);
    /* The buffers before the build: nothing after the load hook allocates
     * much or starts a thread the filter would have to allow. */
    if (rc == GS_OK && (rc = gs_workspace_open(&w, dev, hello.max_n, NULL, &e)) == GS_OK)
        have_w = 1;
    struct prep prep;
    prep_start(&prep, rc == GS_OK ? dev : NULL, shm, hello.shm_bytes, hello.sandbox);
    if (rc == GS_OK && hello.sandbox)
        gs_proc_set_load_hook(sandbox_hook, NULL);
    if (rc == GS_OK && prebuilt_fits(&pre, dev, &src)) {
        k = pre.k;
        rc = pre.rc;
        if (rc != GS_OK)
            e = pre.e;
        info = pre.info;
        pre.info = (struct gs_build_info){0};
    } else if (rc == GS_OK) {
        rc = gs_dev_user_build(dev, &src, &k, &info, &e);
    }
    prebuilt_free(&pre, k);
    if (rc != GS_OK)
        prep_join(&prep);
    send_built(rc, info.compiler, rc == GS_OK ? "" : e.msg, info.log);
    gs_build_info_free(&info);
    while (rc == GS_OK) {
        struct msg_head mh;
        char *m = gs_wk_read(WK_CHAN, &mh);
        if (m && mh.type == MSG_COUNT && mh.len == sizeof(struct msg_case)) {
            struct msg_case mc;
            memcpy(&mc, m, sizeof mc);
            free(m);
            serve_count(dev, &w, k, shm, hello.shm_bytes, &mc, mh.seq);
            continue;
        }
        if (m && mh.type == MSG_SPEED && mh.len == sizeof(struct msg_speed)) {
            struct msg_speed ms;
            memcpy(&ms, m, sizeof ms);
            free(m);
            prep_join(&prep);
            serve_speed(dev, &w, k, shm, hello.shm_bytes, &ms, mh.seq);
            continue;
        }
        if (m && mh.type == MSG_SETTLE && mh.len == sizeof(struct msg_settle)) {
            struct msg_settle ms;
            memcpy(&ms, m, sizeof ms);
            free(m);
            prep_join(&prep);
            /* A failure here is the first timed row's to report. */
            gs_workspace_reseed(&w, ms.inputs, ms.n, &e);
            gs_wk_send(WK_CHAN, MSG_SETTLED, mh.seq, NULL, 0, NULL, 0);
            continue;
        }
        if (!m || mh.type != MSG_CASE || mh.len != sizeof(struct msg_case)) {
            free(m);
            break;
        }
        struct msg_case mc;
        memcpy(&mc, m, sizeof mc);
        free(m);
        serve_case(dev, &w, k, shm, hello.shm_bytes, &mc, mh.seq);
    }
    if (dev)
        gs_dev_user_free(dev, k);
    prep_join(&prep);
    if (prep.pinned)
        gs_dev_unpin(dev, shm);
    if (have_w)
        gs_workspace_close(&w);
    gs_close_backend(&o);
    munmap(shm, hello.shm_bytes);
    free(body);
    return 0;
}
