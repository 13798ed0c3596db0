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

#include "gs_io.h"

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

/* Signals that end a run with temporaries pending: a terminal's Ctrl-C and
 * Ctrl-\, a CI timeout, a hangup, and a pipe whose reader has gone (the run
 * still dies of SIGPIPE, as any filter in a pipeline does). A signal the
 * caller ignores (nohup's SIGHUP) stays ignored. */
static const int pending_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE};

static void install_handlers(void)
{
    for (size_t i = 0; i < sizeof pending_signals / sizeof pending_signals[0]; ++i) {
        struct sigaction old, sa;
        if (sigaction(pending_signals[i], NULL, &old) != 0 || old.sa_handler == SIG_IGN)
            continue;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = remove_pending_and_die;
        sigfillset(&sa.sa_mask); /* one handler at a time */
        sigaction(pending_signals[i], &sa, NULL);
    }
}

static void track(char *tmp, int on)
{
    for (int i = 0; i < GS_MAX_PENDING; ++i) {
        if (on && !pending[i]) {
            pending[i] = tmp;
            return;
        }
        if (!on && pending[i] == tmp)
            pending[i] = NULL;
    }
}

/* What to do about a failed write, by its cause. */
static const char *io_fix(int err)
{
    switch (err) {
    case ENOSPC: return "the device is full: free space there, or choose another path";
    case EROFS: return "a read-only file system: choose a writable path";
    case ENAMETOOLONG: return "choose a shorter path";
    case EACCES:
    case EPERM: return "no permission to write there: choose a writable path";
    default: return "choose a writable path";
    }
}

/* Follow a symbolic link; classify what the path names. A link the kernel
 * resolves to no path (/dev/stdout on a pipe) names what it opens. */
static int resolve(struct gs_outfile *f, const char *path, struct gs_err *e)
{
    struct stat st;
    const int link = lstat(path, &st) == 0 && S_ISLNK(st.st_mode);
    char *target = link ? realpath(path, NULL) : NULL;
    const int err = errno;
    if (link && !target && (stat(path, &st) != 0 || S_ISREG(st.st_mode) || S_ISDIR(st.st_mode)))
        return gs_err_set(e, GS_IO, "%s: cannot follow the link '%.*s%s': %s; give a file name",
                          f->what, GS_ECHO(path), strerror(err));
    if (strlen(target ? target : path) >= sizeof f->path) {
        free(target);
        return gs_err_set(e, GS_USAGE, "%s: path too long; give one shorter than %zu bytes",
                          f->what, sizeof f->path);
    }
    gs_strlcpy(f->path, target ? target : path, sizeof f->path);
    free(target);
    if (stat(f->path, &st) != 0)
        return GS_OK;
    if (S_ISDIR(st.st_mode))
        return gs_err_set(e, GS_USAGE, "%s: '%.*s%s' is a directory; give a file name", f->what,
                          GS_ECHO(path));
    f->in_place = !S_ISREG(st.st_mode);
    f->exists = 1;
    f->dev = st.st_dev;
    f->ino = st.st_ino;
    f->mode = st.st_mode & 07777;
    return GS_OK;
}

/* Whether two outputs name one file: the same inode when it exists, else
 * the same name in the same (resolved) directory. */
static int same_file(const struct gs_outfile *a, const struct gs_outfile *b)
{
    char da[PATH_MAX], db[PATH_MAX];
    if (!a->path[0] || !b->path[0] || a->exists != b->exists)
        return 0;
    if (a->exists)
        return a->dev == b->dev && a->ino == b->ino;
    const char *na = strrchr(a->path, '/'), *nb = strrchr(b->path, '/');
    if (strcmp(na ? na + 1 : a->path, nb ? nb + 1 : b->path) != 0)
        return 0;
    snprintf(da, sizeof da, "%.*s", na ? (int)(na - a->path) + 1 : 1, na ? a->path : ".");
    snprintf(db, sizeof db, "%.*s", nb ? (int)(nb - b->path) + 1 : 1, nb ? b->path : ".");
    char *ra = realpath(da, NULL), *rb = realpath(db, NULL);
    const int same = ra && rb ? strcmp(ra, rb) == 0 : strcmp(da, db) == 0;
    free(ra);
    free(rb);
    return same;
}

int gs_outputs_add(struct gs_outputs *o, const char *path, const char *what, struct gs_err *e)
{
    if (o->n == GS_MAX_OUTPUTS)
        return gs_err_set(e, GS_USAGE, "too many output files; give fewer");
    struct gs_outfile *f = &o->f[o->n++];
    memset(f, 0, sizeof *f);
    f->fd = -1;
    f->what = what;
    if (!path)
        return GS_OK;
    int rc = resolve(f, path, e);
    if (rc != GS_OK)
        return rc;
    for (int i = 0; i + 1 < o->n; ++i)
        if (same_file(&o->f[i], f))
            return gs_err_set(e, GS_USAGE,
                              "%s: '%.*s%s' is also the %s file; give each output its own file",
                              what, GS_ECHO(path), o->f[i].what);
    if (f->in_place) {
        if (access(f->path, W_OK) != 0)
            return gs_err_set(e, GS_IO, "%s: cannot write '%.*s%s': %s; %s", what,
                              GS_ECHO(path), strerror(errno), io_fix(errno));
        return GS_OK;
    }
    /* Copied by hand: snprintf from one member of *f into another is what
     * gcc's -Wrestrict cannot tell from an overlap. tmp has room for path
     * (shorter than its size) and the suffix. */
    static const char suffix[] = ".tmp.XXXXXX";
    const size_t len = strlen(f->path);
    memcpy(f->tmp, f->path, len);
    memcpy(f->tmp + len, suffix, sizeof suffix);
    /* The temporary is made and listed for the handlers with their signals
     * held: a Ctrl-C between the two would leave it behind. */
    static int handlers;
    if (!handlers) {
        handlers = 1;
        install_handlers();
    }
    sigset_t held, old_mask;
    sigemptyset(&held);
    for (size_t i = 0; i < sizeof pending_signals / sizeof pending_signals[0]; ++i)
        sigaddset(&held, pending_signals[i]);
    sigprocmask(SIG_BLOCK, &held, &old_mask);
    f->fd = mkstemp(f->tmp);
    if (f->fd >= 0)
        track(f->tmp, 1);
    sigprocmask(SIG_SETMASK, &old_mask, NULL);
    if (f->fd < 0) {
        /* The report is written beside its path and renamed into place: the
         * folder must take a new file (/proc, for one, does not). */
        const int err = errno;
        const char *slash = strrchr(f->path, '/');
        char dir[96];
        snprintf(dir, sizeof dir, "%.*s", slash ? (slash == f->path ? 1 : (int)(slash - f->path)) : 1,
                 slash ? f->path : ".");
        f->tmp[0] = '\0';
        struct stat dst;
        if (stat(dir, &dst) != 0 && errno == ENOENT)
            return gs_err_set(e, GS_IO, "%s: cannot write '%.*s%s': its folder '%.*s%s' does not "
                                        "exist; create it, or choose another path", what,
                              GS_ECHO(path), GS_ECHO(dir));
        return gs_err_set(e, GS_IO, "%s: cannot write '%.*s%s': its folder '%.*s%s' takes no new "
                                    "file (%s); %s", what, GS_ECHO(path), GS_ECHO(dir),
                          strerror(err), err == ENOENT ? "choose a path in a writable folder"
                                                       : io_fix(err));
    }
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
        int bad = fd < 0 || gs_write_full(fd, text, s->len, 0) != 0;
        const int err = errno;
        if (fd >= 0)
            close(fd);
        return bad ? gs_err_set(e, GS_IO, "%s: cannot write '%.*s%s': %s; %s", f->what,
                                GS_ECHO(f->path), strerror(err), io_fix(err))
                   : GS_OK;
    }
    if (gs_write_full(f->fd, text, s->len, 0) != 0 || fsync(f->fd) != 0)
        return gs_err_set(e, GS_IO, "%s: cannot write '%.*s%s': %s; %s", f->what,
                          GS_ECHO(f->path), strerror(errno), io_fix(errno));
    /* mkstemp creates 0600: a new report is an ordinary file (0666 less the
     * umask), a rewritten one keeps the mode its owner gave it. */
    mode_t mask = umask(0);
    umask(mask);
    if (fchmod(f->fd, f->exists ? f->mode : 0666 & ~mask) != 0)
        return gs_err_set(e, GS_IO, "%s: cannot set the mode of '%.*s%s': %s", f->what,
                          GS_ECHO(f->path), strerror(errno));
    return GS_OK;
}

int gs_outputs_add_report(struct gs_outputs *o, const char *output, const char *svg,
                          const char *json, struct gs_err *e)
{
    int rc = gs_outputs_add(o, output, "--output", e);
    if (rc == GS_OK && svg)
        rc = gs_outputs_add(o, svg, "--svg", e);
    if (rc == GS_OK && json)
        rc = gs_outputs_add(o, json, "--json", e);
    return rc;
}

int gs_outputs_commit_report(struct gs_outputs *o, const struct gs_str *report,
                             const struct gs_str *chart, const struct gs_str *json,
                             struct gs_err *e)
{
    const struct gs_str *texts[GS_MAX_OUTPUTS] = {report};
    int k = 1;
    if (chart)
        texts[k++] = chart;
    if (json)
        texts[k++] = json;
    return gs_outputs_commit(o, texts, e);
}

int gs_outputs_commit(struct gs_outputs *o, const struct gs_str *const *texts, struct gs_err *e)
{
    int rc = GS_OK;
    /* Files first, stdout last: a file that cannot be written (a full disk,
     * /dev/full) fails the run before anything is printed. */
    for (int i = 0; i < o->n && rc == GS_OK; ++i)
        if (o->f[i].path[0])
            rc = write_one(&o->f[i], texts[i], e);
    for (int i = 0; i < o->n && rc == GS_OK; ++i)
        if (!o->f[i].path[0])
            rc = write_one(&o->f[i], texts[i], e);
    for (int i = 0; i < o->n && rc == GS_OK; ++i) {
        struct gs_outfile *f = &o->f[i];
        if (!f->tmp[0])
            continue;
        close(f->fd);
        f->fd = -1;
        if (rename(f->tmp, f->path) != 0)
            rc = gs_err_set(e, GS_IO, "%s: cannot create '%.*s%s': %s", f->what,
                            GS_ECHO(f->path), strerror(errno));
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

int gs_output_not_input(const char *path, const char *what, const char *const *inputs,
                        int ninputs, struct gs_err *e)
{
    struct stat so, si;
    if (!path)
        return GS_OK;
    const int out_exists = stat(path, &so) == 0;
    char *out_real = realpath(path, NULL);
    int clash = -1;
    for (int i = 0; clash < 0 && i < ninputs; ++i) {
        if (!inputs[i])
            continue;
        if (out_exists && stat(inputs[i], &si) == 0 && si.st_dev == so.st_dev &&
            si.st_ino == so.st_ino)
            clash = i;
        char *in_real = realpath(inputs[i], NULL);
        if (clash < 0 && (strcmp(path, inputs[i]) == 0 ||
                          (out_real && in_real && strcmp(out_real, in_real) == 0)))
            clash = i;
        free(in_real);
    }
    free(out_real);
    if (clash >= 0)
        return gs_err_set(e, GS_USAGE, "%s '%.*s%s' is an input of this command; give the "
                                       "output another name", what, GS_ECHO(path));
    return GS_OK;
}
