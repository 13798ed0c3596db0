/* SPDX-License-Identifier: MIT */
/* `check --compile-only` in a worker (gs_worker.h): the run-time compiler
 * (NVRTC) parses the file in a process of its own, confined as every worker
 * is, under a deadline and a memory limit, never in the process that
 * reports. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gs_device.h"
#include "gs_proc.h"
#include "gs_seccomp.h"
#include "gs_str.h"
#include "gs_worker.h"
#include "gs_worker_msg.h"

enum { MSG_COMPILE = 100, MSG_COMPILED };

/* Parent to worker, then the path, entry, text and target, each NUL-ended. */
struct msg_compile {
    int dialect;
};

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The answer within the deadline: its body (malloc'd) in *body, or NULL
 * with *timed_out set when the deadline passed first. The worker's output
 * pipe is drained meanwhile, so that a compiler that prints much cannot
 * block on it. */
static char *answer(struct gs_child *c, double deadline_s, struct msg_head *h, int *timed_out)
{
    const double end = now_s() + deadline_s;
    *timed_out = 0;
    for (;;) {
        const double left = end - now_s();
        if (left <= 0) {
            *timed_out = 1;
            return NULL;
        }
        struct pollfd p[2] = {{c->chan, POLLIN, 0}, {c->out, POLLIN, 0}};
        const int r = poll(p, c->out >= 0 ? 2 : 1, (int)(left * 1000) + 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return NULL;
        if (c->out >= 0 && p[1].revents)
            gs_proc_drain(c);
        if (p[0].revents)
            return gs_wk_read(c->chan, h);
    }
}

int gs_compile_isolated(const struct gs_backend *b, const struct gs_user_source *src,
                        const char *target, double deadline_s, struct gs_build_info *info,
                        struct gs_err *e)
{
    if (deadline_s <= 0)
        deadline_s = GS_COMPILE_TIMEOUT_S;
    char dir[4096];
    struct gs_child c;
    int rc = gs_proc_private_dir(dir, sizeof dir, -1, e);
    if (rc != GS_OK)
        return rc;
    struct gs_proc_limits lim;
    memset(&lim, 0, sizeof lim);
    lim.as_bytes = GS_COMPILE_AS_BYTES;
    lim.cpu_s = (unsigned)deadline_s + 5;
    lim.fsize = 64ull << 20;
    lim.nproc = 64;
    lim.isolate = 1;
    lim.confine_files = 1;
    lim.drop_privileges = 1;
    lim.tmpdir = dir;
    char name[64];
    snprintf(name, sizeof name, "%s", b->name);
    char *argv[] = {(char *)"gridstride", (char *)GS_COMPILE_COMMAND, name, NULL};
    rc = gs_proc_spawn(NULL, argv, -1, &lim, &c, e);
    if (rc != GS_OK) {
        gs_proc_remove_dir(dir);
        return rc;
    }
    const struct msg_compile mc = {(int)src->dialect};
    const char *strs[] = {src->path, src->entry, src->text, target};
    struct msg_head h;
    int timed_out = 0, status = 0;
    char *body = gs_wk_send(c.chan, MSG_COMPILE, 1, &mc, sizeof mc, strs, 4) == 0
                     ? answer(&c, deadline_s, &h, &timed_out)
                     : NULL;
    if (body && h.type == MSG_COMPILED && h.len >= sizeof(struct msg_built)) {
        struct msg_built built;
        memcpy(&built, body, sizeof built);
        built.compiler[sizeof built.compiler - 1] = '\0';
        built.msg[sizeof built.msg - 1] = '\0';
        gs_strlcpy(info->compiler, built.compiler, sizeof info->compiler);
        const char *log = gs_wk_string_at(body, h.len, sizeof built, 0);
        info->log = *log ? strdup(log) : NULL;
        rc = built.status;
        if (rc != GS_OK)
            gs_err_set(e, rc, "%s", built.msg);
        gs_proc_finish(&c, 2000, &status);
    } else {
        gs_proc_kill(&c, &status);
        char words[400];
        gs_proc_status_words(status, words, sizeof words);
        rc = timed_out ? gs_err_set(e, GS_BUILD,
                                    "%s: %s's compiler did not finish in %g s for %s (a template "
                                    "or macro that never ends expanding?); its process was "
                                    "killed",
                                    src->path, b->name, deadline_s, target)
                       : gs_err_set(e, GS_BUILD,
                                    "%s: %s's compiler ended without an answer for %s: %s (past "
                                    "its %llu MiB of memory?)",
                                    src->path, b->name, target, words,
                                    (unsigned long long)(GS_COMPILE_AS_BYTES >> 20));
    }
    free(body);
    gs_proc_remove_dir(dir);
    return rc;
}

int gs_compile_serve(const struct gs_backend *b)
{
    struct msg_head h;
    gs_proc_worker_begin();
    fcntl(WK_CHAN, F_SETFD, FD_CLOEXEC);
    char *body = gs_wk_read(WK_CHAN, &h);
    if (!b || !body || h.type != MSG_COMPILE || h.len < sizeof(struct msg_compile)) {
        free(body);
        return 2;
    }
    struct msg_compile mc;
    memcpy(&mc, body, sizeof mc);
    const struct gs_user_source src = {
        .path = gs_wk_string_at(body, h.len, sizeof mc, 0),
        .entry = gs_wk_string_at(body, h.len, sizeof mc, 1),
        .text = gs_wk_string_at(body, h.len, sizeof mc, 2),
        .dialect = (enum gs_dialect)mc.dialect,
    };
    const char *target = gs_wk_string_at(body, h.len, sizeof mc, 3);
    struct gs_build_info info = {0};
    struct gs_err e = {0};
    char why[400] = "";
    const int fds[] = {1, 2, WK_CHAN};
    int rc = gs_seccomp_install(GS_SECCOMP_RUNTIME, fds, 3, why, sizeof why);
    if (rc != GS_OK)
        gs_err_set(&e, rc, "%s", why);
    else
        rc = gs_backend_user_compile(b, &src, target, &info, &e);
    struct msg_built built;
    memset(&built, 0, sizeof built);
    built.status = rc;
    gs_strlcpy(built.compiler, info.compiler, sizeof built.compiler);
    gs_strlcpy(built.msg, e.msg, sizeof built.msg);
    const char *strs[] = {info.log ? info.log : ""};
    const int sent = gs_wk_send(WK_CHAN, MSG_COMPILED, 1, &built, sizeof built, strs, 1);
    gs_build_info_free(&info);
    free(body);
    return sent == 0 ? 0 : 2;
}
