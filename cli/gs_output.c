/* SPDX-License-Identifier: MIT */
/* realpath() is XSI. */
#define _XOPEN_SOURCE 700

#include "gs_output.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Temporaries still held, so that a signal handler can remove them. */
#define GS_MAX_PENDING 8
static char *volatile pending[GS_MAX_PENDING];

static void remove_pending_and_die(int sig)
{
    for (int i = 0; i < GS_MAX_PENDING; ++i)
        if (pending[i])
            unlink(pending[i]); /* async-signal-safe */
    signal(sig, SIG_DFL);
    raise(sig);
}

static void track(char *tmp, int on)
{
    static int handlers;
    if (!handlers) {
        handlers = 1;
        signal(SIGINT, remove_pending_and_die);
        signal(SIGTERM, remove_pending_and_die);
        signal(SIGHUP, remove_pending_and_die);
    }
    for (int i = 0; i < GS_MAX_PENDING; ++i) {
        if (on && !pending[i]) {
            pending[i] = tmp;
            return;
        }
        if (!on && pending[i] == tmp)
            pending[i] = NULL;
    }
}

static int write_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

/* Follow a symbolic link; classify what the path names. */
static int resolve(struct gs_outfile *f, const char *path, struct gs_err *e)
{
    struct stat st;
    if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
        char *target = realpath(path, NULL);
        if (!target)
            return gs_err_set(e, GS_IO, "%s: cannot follow the link '%s': %s; give a file name",
                              f->what, path, strerror(errno));
        gs_strlcpy(f->path, target, sizeof f->path);
        free(target);
    } else if (strlen(path) >= sizeof f->path) {
        return gs_err_set(e, GS_USAGE, "%s: path too long", f->what);
    } else {
        gs_strlcpy(f->path, path, sizeof f->path);
    }
    if (stat(f->path, &st) == 0) {
        if (S_ISDIR(st.st_mode))
            return gs_err_set(e, GS_USAGE, "%s: '%s' is a directory; give a file name", f->what,
                              path);
        f->in_place = !S_ISREG(st.st_mode);
    }
    return GS_OK;
}

int gs_outputs_add(struct gs_outputs *o, const char *path, const char *what, struct gs_err *e)
{
    if (o->n == GS_MAX_OUTPUTS)
        return gs_err_set(e, GS_USAGE, "too many outputs");
    struct gs_outfile *f = &o->f[o->n++];
    memset(f, 0, sizeof *f);
    f->fd = -1;
    f->what = what;
    if (!path)
        return GS_OK;
    int rc = resolve(f, path, e);
    if (rc != GS_OK)
        return rc;
    if (f->in_place) {
        if (access(f->path, W_OK) != 0)
            return gs_err_set(e, GS_IO, "%s: cannot write '%s': %s", what, path, strerror(errno));
        return GS_OK;
    }
    snprintf(f->tmp, sizeof f->tmp, "%s.tmp.XXXXXX", f->path);
    f->fd = mkstemp(f->tmp);
    if (f->fd < 0) {
        const int err = errno;
        f->tmp[0] = '\0';
        return gs_err_set(e, GS_IO, "%s: cannot write '%s': %s; choose a writable path", what,
                          path, strerror(err));
    }
    track(f->tmp, 1);
    return GS_OK;
}

static int write_one(struct gs_outfile *f, const struct gs_str *s, struct gs_err *e)
{
    const char *text = s->data ? s->data : "";
    if (s->failed)
        return gs_err_set(e, GS_NOMEM, "out of memory while building the report");
    if (!f->path[0]) {
        if (fwrite(text, 1, s->len, stdout) != s->len || fflush(stdout) != 0)
            return gs_err_set(e, GS_IO, "cannot write to standard output: %s", strerror(errno));
        return GS_OK;
    }
    if (f->in_place) {
        int fd = open(f->path, O_WRONLY | O_TRUNC);
        int bad = fd < 0 || write_all(fd, text, s->len) != 0;
        const int err = errno;
        if (fd >= 0)
            close(fd);
        return bad ? gs_err_set(e, GS_IO, "%s: cannot write '%s': %s", f->what, f->path,
                                strerror(err))
                   : GS_OK;
    }
    if (write_all(f->fd, text, s->len) != 0 || fsync(f->fd) != 0)
        return gs_err_set(e, GS_IO, "%s: cannot write '%s': %s", f->what, f->path,
                          strerror(errno));
    /* mkstemp creates 0600; a report is an ordinary file. */
    mode_t mask = umask(0);
    umask(mask);
    if (fchmod(f->fd, 0666 & ~mask) != 0)
        return gs_err_set(e, GS_IO, "%s: cannot set the mode of '%s': %s", f->what, f->path,
                          strerror(errno));
    return GS_OK;
}

int gs_outputs_commit(struct gs_outputs *o, const struct gs_str *const *texts, struct gs_err *e)
{
    int rc = GS_OK;
    for (int i = 0; i < o->n && rc == GS_OK; ++i)
        rc = write_one(&o->f[i], texts[i], e);
    for (int i = 0; i < o->n && rc == GS_OK; ++i) {
        struct gs_outfile *f = &o->f[i];
        if (!f->tmp[0])
            continue;
        close(f->fd);
        f->fd = -1;
        if (rename(f->tmp, f->path) != 0)
            rc = gs_err_set(e, GS_IO, "%s: cannot create '%s': %s", f->what, f->path,
                            strerror(errno));
        else {
            track(f->tmp, 0);
            f->tmp[0] = '\0';
        }
    }
    gs_outputs_abort(o);
    return rc;
}

void gs_outputs_abort(struct gs_outputs *o)
{
    for (int i = 0; i < o->n; ++i) {
        struct gs_outfile *f = &o->f[i];
        if (f->fd >= 0)
            close(f->fd);
        f->fd = -1;
        if (f->tmp[0]) {
            unlink(f->tmp);
            track(f->tmp, 0);
        }
        f->tmp[0] = '\0';
    }
}
