#include "gs_output.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Temporary files still open, so that an interrupted run (Ctrl-C, a CI
 * timeout) removes them too: no partial file is ever left behind. */
#define GS_MAX_PENDING 4
static char *volatile pending[GS_MAX_PENDING];

static void remove_pending_and_die(int sig)
{
    for (int i = 0; i < GS_MAX_PENDING; ++i)
        if (pending[i])
            unlink(pending[i]); /* async-signal-safe */
    signal(sig, SIG_DFL);
    raise(sig);
}

static void track(struct gs_outfile *f, int on)
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
            pending[i] = f->tmp;
            return;
        }
        if (!on && pending[i] == f->tmp)
            pending[i] = NULL;
    }
}

int gs_outfile_open(struct gs_outfile *f, const char *path, const char *what, struct gs_err *e)
{
    struct stat st;
    memset(f, 0, sizeof *f);
    f->fd = -1;
    f->path = path;
    if (!path)
        return GS_OK;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return gs_err_set(e, GS_USAGE, "%s: '%s' is a directory; give a file name", what, path);
    if (snprintf(f->tmp, sizeof f->tmp, "%s.tmp.XXXXXX", path) >= (int)sizeof f->tmp)
        return gs_err_set(e, GS_USAGE, "%s: path too long", what);
    f->fd = mkstemp(f->tmp);
    if (f->fd < 0) {
        const int err = errno;
        f->tmp[0] = '\0';
        return gs_err_set(e, GS_IO, "%s: cannot write '%s': %s; choose a writable path", what,
                          path, strerror(err));
    }
    track(f, 1);
    return GS_OK;
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

int gs_outfile_commit(struct gs_outfile *f, const struct gs_str *s, const char *what,
                      struct gs_err *e)
{
    if (s->failed) {
        gs_outfile_abort(f);
        return gs_err_set(e, GS_NOMEM, "out of memory while building the report");
    }
    const char *text = s->data ? s->data : "";
    if (!f->path) {
        if (fwrite(text, 1, s->len, stdout) != s->len || fflush(stdout) != 0)
            return gs_err_set(e, GS_IO, "cannot write to standard output: %s", strerror(errno));
        return GS_OK;
    }
    if (write_all(f->fd, text, s->len) != 0 || fsync(f->fd) != 0) {
        const int err = errno;
        gs_outfile_abort(f);
        return gs_err_set(e, GS_IO, "%s: cannot write '%s': %s", what, f->path, strerror(err));
    }
    /* mkstemp creates 0600; a report is an ordinary file. */
    mode_t mask = umask(0);
    umask(mask);
    fchmod(f->fd, 0666 & ~mask);
    close(f->fd);
    f->fd = -1;
    if (rename(f->tmp, f->path) != 0) {
        const int err = errno;
        gs_outfile_abort(f);
        return gs_err_set(e, GS_IO, "%s: cannot create '%s': %s", what, f->path, strerror(err));
    }
    track(f, 0);
    f->tmp[0] = '\0';
    return GS_OK;
}

void gs_outfile_abort(struct gs_outfile *f)
{
    if (f->fd >= 0)
        close(f->fd);
    f->fd = -1;
    if (f->tmp[0])
        unlink(f->tmp);
    track(f, 0);
    f->tmp[0] = '\0';
}
