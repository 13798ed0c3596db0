/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE /* pipe2, close_range, setgroups, strsignal */

#include "gs_proc.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <grp.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include <pthread.h>

#include "gs_str.h"

/* ---- what the signal handler cleans up ----------------------------------- */

#define TRACK_PIDS 64
#define TRACK_DIRS 16

static volatile pid_t tracked_pid[TRACK_PIDS];
static char tracked_dir[TRACK_DIRS][PATH_MAX];
static volatile sig_atomic_t tracked_dir_used[TRACK_DIRS];

/* Threads that start and end workers side by side (check's devices) take
 * this for the tables; the signal handler only reads them. */
static pthread_mutex_t track_mu = PTHREAD_MUTEX_INITIALIZER;

static void track_pid(pid_t pid, int add)
{
    pthread_mutex_lock(&track_mu);
    for (int i = 0; i < TRACK_PIDS; ++i)
        if (add ? tracked_pid[i] == 0 : tracked_pid[i] == pid) {
            tracked_pid[i] = add ? pid : 0;
            break;
        }
    pthread_mutex_unlock(&track_mu);
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    remove(path);
    return 0;
}

static void remove_tree(const char *path)
{
    nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS);
    rmdir(path);
}

void gs_proc_remove_dir(const char *path)
{
    if (!path || !*path)
        return;
    remove_tree(path);
    pthread_mutex_lock(&track_mu);
    for (int i = 0; i < TRACK_DIRS; ++i)
        if (tracked_dir_used[i] && strcmp(tracked_dir[i], path) == 0)
            tracked_dir_used[i] = 0;
    pthread_mutex_unlock(&track_mu);
}

int gs_proc_private_dir(char *path, size_t size, long owner, struct gs_err *e)
{
    const char *tmp = getenv("TMPDIR");
    if (!tmp || !*tmp)
        tmp = "/tmp";
    if ((size_t)snprintf(path, size, "%s/gridstride-XXXXXX", tmp) >= size)
        return gs_err_set(e, GS_USAGE, "TMPDIR is too long (%zu bytes); point it at a shorter "
                                       "folder", strlen(tmp));
    if (!mkdtemp(path))
        return gs_err_set(e, GS_IO, "cannot create a private folder under TMPDIR %s: %s; point "
                                    "TMPDIR at a writable folder", tmp, strerror(errno));
    if (owner >= 0 && chown(path, (uid_t)owner, (gid_t)owner) != 0) {
        const int err = errno;
        rmdir(path);
        return gs_err_set(e, GS_IO, "cannot give %s to user %ld: %s", path, owner, strerror(err));
    }
    pthread_mutex_lock(&track_mu);
    for (int i = 0; i < TRACK_DIRS; ++i)
        if (!tracked_dir_used[i] && strlen(path) < sizeof tracked_dir[i]) {
            gs_strlcpy(tracked_dir[i], path, sizeof tracked_dir[i]);
            tracked_dir_used[i] = 1;
            break;
        }
    pthread_mutex_unlock(&track_mu);
    return GS_OK;
}

/* SIGKILL to a worker's process group and to the worker (async-signal-safe). */
static void kill_worker(pid_t pid)
{
    kill(-pid, SIGKILL);
    kill(pid, SIGKILL);
}

static const int chained_sig[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
static struct sigaction chained[4];

static void on_signal(int sig)
{
    for (int i = 0; i < TRACK_PIDS; ++i) {
        const pid_t pid = tracked_pid[i];
        if (pid > 0) {
            kill_worker(pid);
            waitpid(pid, NULL, 0);
        }
    }
    /* nftw is not async-signal-safe; this process is about to die of sig,
     * and the main thread waits in poll() or waitpid() when a worker runs. */
    for (int i = 0; i < TRACK_DIRS; ++i)
        if (tracked_dir_used[i])
            remove_tree(tracked_dir[i]);
    /* Then whatever was installed before (the CLI's removal of its output
     * temporaries), which re-raises; else die of the signal. */
    for (size_t i = 0; i < sizeof chained_sig / sizeof chained_sig[0]; ++i)
        if (chained_sig[i] == sig && chained[i].sa_handler != SIG_DFL &&
            chained[i].sa_handler != SIG_IGN && !(chained[i].sa_flags & SA_SIGINFO)) {
            sigaction(sig, &chained[i], NULL);
            chained[i].sa_handler(sig);
            break;
        }
    signal(sig, SIG_DFL);
    raise(sig);
}

void gs_proc_install_cleanup(void)
{
    struct sigaction sa, cur;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigfillset(&sa.sa_mask);
    pthread_mutex_lock(&track_mu);
    /* A signal the caller ignores (nohup's SIGHUP) stays ignored; a handler
     * installed since the last call (the output's temporaries) is chained. */
    for (size_t i = 0; i < sizeof chained_sig / sizeof chained_sig[0]; ++i)
        if (sigaction(chained_sig[i], NULL, &cur) == 0 && cur.sa_handler != SIG_IGN &&
            cur.sa_handler != on_signal) {
            chained[i] = cur;
            sigaction(chained_sig[i], &sa, NULL);
        }
    pthread_mutex_unlock(&track_mu);
}

/* ---- starting and ending a worker ---------------------------------------- */

static void close_from(int first)
{
#ifdef SYS_close_range
    if (syscall(SYS_close_range, (unsigned)first, ~0u, 0) == 0)
        return;
#endif
    const long max = sysconf(_SC_OPEN_MAX);
    for (long fd = first; fd < (max > 0 ? max : 1024); ++fd)
        close((int)fd);
}

static void set_limit(int resource, uint64_t value)
{
    const struct rlimit r = {(rlim_t)value, (rlim_t)value};
    setrlimit(resource, &r);
}

/* AddressSanitizer reserves terabytes of shadow memory when a process
 * starts, which an address-space or data limit refuses: in a sanitizer
 * build (the CI's ci-sanitize preset) the worker runs without those two,
 * under every other limit and its deadline. */
#if defined(__SANITIZE_ADDRESS__)
#define GS_PROC_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GS_PROC_ASAN 1
#endif
#endif

static void set_memory_limits(const struct gs_proc_limits *lim)
{
#ifdef GS_PROC_ASAN
    (void)lim;
#else
    if (lim->as_bytes)
        set_limit(RLIMIT_AS, lim->as_bytes);
    if (lim->data_bytes)
        set_limit(RLIMIT_DATA, lim->data_bytes);
#endif
}

/* The child's environment, made before the fork (the child may only make
 * async-signal-safe calls): this process's, with TMPDIR replaced by tmpdir
 * when one is given, and in a sanitizer build ASAN_OPTIONS extended so that
 * AddressSanitizer leaves SIGSEGV, SIGBUS, SIGFPE and SIGILL alone there: a
 * user's kernel that faults then ends the worker by its signal, as in every
 * other build, and check says "faulted" in the same words. (ASan still
 * checks the worker's own code; it cannot see into the user's, which is
 * built without it.) envp NULL: the child inherits this process's. Its
 * strings are freed with it (child_env_free). */
extern char **environ;
struct child_env {
    char **envp;
    char *tmp_var, *asan_var;
};

static void child_env_free(struct child_env *ce)
{
    free(ce->envp);
    free(ce->tmp_var);
    free(ce->asan_var);
    memset(ce, 0, sizeof *ce);
}

static int child_env(const char *tmpdir, struct child_env *ce)
{
    memset(ce, 0, sizeof *ce);
#ifdef GS_PROC_ASAN
    const char *asan = "handle_segv=0:handle_sigbus=0:handle_sigfpe=0:handle_sigill=0";
#else
    const char *asan = NULL;
#endif
    if (!tmpdir && !asan)
        return 0;
    size_t n = 0;
    for (char **v = environ; *v; ++v)
        ++n;
    ce->envp = malloc((n + 3) * sizeof *ce->envp);
    if (!ce->envp)
        return -1;
    if (tmpdir) {
        const size_t len = strlen("TMPDIR=") + strlen(tmpdir) + 1;
        if (!(ce->tmp_var = malloc(len)))
            goto fail;
        snprintf(ce->tmp_var, len, "TMPDIR=%s", tmpdir);
    }
    if (asan) {
        const char *old = getenv("ASAN_OPTIONS");
        const size_t len = strlen("ASAN_OPTIONS=") + (old ? strlen(old) + 1 : 0) + strlen(asan) + 1;
        if (!(ce->asan_var = malloc(len)))
            goto fail;
        snprintf(ce->asan_var, len, "ASAN_OPTIONS=%s%s%s", old ? old : "", old ? ":" : "", asan);
    }
    size_t k = 0;
    for (char **v = environ; *v; ++v)
        if (!(ce->tmp_var && strncmp(*v, "TMPDIR=", 7) == 0) &&
            !(ce->asan_var && strncmp(*v, "ASAN_OPTIONS=", 13) == 0))
            ce->envp[k++] = *v;
    if (ce->tmp_var)
        ce->envp[k++] = ce->tmp_var;
    if (ce->asan_var)
        ce->envp[k++] = ce->asan_var;
    ce->envp[k] = NULL;
    return 0;
fail:
    child_env_free(ce);
    return -1;
}

/* In the child, between fork and exec: async-signal-safe calls only. */
static void child_setup(const char *exe, char *const argv[], char *const envp[], int chan,
                        int shm_fd, int out, const struct gs_proc_limits *lim, pid_t parent)
{
    setpgid(0, 0);
#ifdef __linux__
    prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
    if (getppid() != parent)
        _exit(127);
    const int nul = open("/dev/null", O_RDONLY);
    const int hi_chan = fcntl(chan, F_DUPFD, 10);
    const int hi_shm = shm_fd >= 0 ? fcntl(shm_fd, F_DUPFD, 10) : -1;
    const int hi_out = fcntl(out, F_DUPFD, 10);
    const int hi_nul = nul >= 0 ? fcntl(nul, F_DUPFD, 10) : -1;
    if (hi_chan < 0 || hi_out < 0 || hi_nul < 0 || (shm_fd >= 0 && hi_shm < 0))
        _exit(127);
    if (dup2(hi_nul, 0) < 0 || dup2(hi_out, 1) < 0 || dup2(hi_out, 2) < 0 ||
        dup2(hi_chan, 3) < 0 || (hi_shm >= 0 && dup2(hi_shm, 4) < 0))
        _exit(127);
    close_from(hi_shm >= 0 ? 5 : 4);
    signal(SIGPIPE, SIG_DFL);
    set_limit(RLIMIT_CORE, 0); /* a fault is reported, not dumped */
    set_memory_limits(lim);
    if (lim->fsize)
        set_limit(RLIMIT_FSIZE, lim->fsize == UINT64_MAX ? 0 : lim->fsize);
    if (lim->cpu_s)
        set_limit(RLIMIT_CPU, lim->cpu_s);
    if (lim->cwd && chdir(lim->cwd) != 0)
        _exit(127);
    if (lim->drop_privileges && geteuid() == 0) {
        if (setgroups(0, NULL) != 0 || setgid(GS_PROC_NOBODY) != 0 || setuid(GS_PROC_NOBODY) != 0)
            _exit(126);
    }
    if (lim->nproc)
        set_limit(RLIMIT_NPROC, lim->nproc);
#ifdef __linux__
    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
#endif
    if (envp)
        execve(exe, argv, envp);
    else
        execv(exe, argv);
    _exit(127);
}

int gs_proc_spawn(const char *exe, char *const argv[], int shm_fd, const struct gs_proc_limits *lim,
                  struct gs_child *c, struct gs_err *e)
{
    int sv[2], po[2];
    memset(c, 0, sizeof *c);
    c->chan = c->out = -1;
    if (!exe)
        exe = "/proc/self/exe";
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
        return gs_err_set(e, GS_IO, "socketpair for a worker: %s", strerror(errno));
    if (pipe2(po, O_CLOEXEC) != 0) {
        const int err = errno;
        close(sv[0]);
        close(sv[1]);
        return gs_err_set(e, GS_IO, "pipe for a worker: %s", strerror(err));
    }
    struct child_env ce;
    if (child_env(lim->tmpdir, &ce) != 0) {
        close(sv[0]);
        close(sv[1]);
        close(po[0]);
        close(po[1]);
        return gs_err_set(e, GS_NOMEM, "out of memory starting a worker");
    }
    const pid_t parent = getpid();
    const pid_t pid = fork();
    if (pid == 0)
        child_setup(exe, argv, ce.envp, sv[1], shm_fd, po[1], lim, parent);
    const int err = errno;
    child_env_free(&ce);
    close(sv[1]);
    close(po[1]);
    if (pid < 0) {
        close(sv[0]);
        close(po[0]);
        return gs_err_set(e, GS_IO, "fork for a worker: %s", strerror(err));
    }
    setpgid(pid, pid); /* also here, so that a kill right away reaches the group */
    track_pid(pid, 1);
    fcntl(po[0], F_SETFL, fcntl(po[0], F_GETFL) | O_NONBLOCK);
    c->pid = pid;
    c->chan = sv[0];
    c->out = po[0];
    return GS_OK;
}

int gs_proc_apply_limits(const struct gs_proc_limits *lim, struct gs_err *e)
{
    if (lim->cwd && chdir(lim->cwd) != 0)
        return gs_err_set(e, GS_IO, "the worker cannot enter its folder: %s", strerror(errno));
    set_memory_limits(lim);
    if (lim->fsize)
        set_limit(RLIMIT_FSIZE, lim->fsize == UINT64_MAX ? 0 : lim->fsize);
    if (lim->cpu_s)
        set_limit(RLIMIT_CPU, lim->cpu_s);
    if (lim->drop_privileges && geteuid() == 0 &&
        (setgroups(0, NULL) != 0 || setgid(GS_PROC_NOBODY) != 0 || setuid(GS_PROC_NOBODY) != 0))
        return gs_err_set(e, GS_IO, "the worker cannot give up root: %s", strerror(errno));
    if (lim->nproc)
        set_limit(RLIMIT_NPROC, lim->nproc);
    return GS_OK;
}

int gs_proc_drain(struct gs_child *c)
{
    char buf[65536];
    if (c->out < 0)
        return 0;
    for (;;) {
        const ssize_t got = read(c->out, buf, sizeof buf);
        if (got == 0)
            return 0;
        if (got < 0)
            return errno == EINTR ? 1 : errno == EAGAIN ? 1 : 0;
        const size_t room = sizeof c->output - 1 - c->output_len;
        const size_t keep = (size_t)got < room ? (size_t)got : room;
        memcpy(c->output + c->output_len, buf, keep);
        c->output_len += keep;
        c->output[c->output_len] = '\0';
        c->output_total += (uint64_t)got;
    }
}

static void close_fds(struct gs_child *c)
{
    if (c->chan >= 0)
        close(c->chan);
    if (c->out >= 0) {
        gs_proc_drain(c);
        close(c->out);
    }
    c->chan = c->out = -1;
}

void gs_proc_kill(struct gs_child *c, int *status)
{
    int st = 0;
    if (c->pid > 0) {
        kill_worker(c->pid);
        while (waitpid(c->pid, &st, 0) < 0 && errno == EINTR)
            ;
        track_pid(c->pid, 0);
        c->pid = 0;
    }
    close_fds(c);
    if (status)
        *status = st;
}

/* Workers killed and not yet reaped, with their folders. */
#define LATER 8
static struct {
    pid_t pid;
    char dir[2][PATH_MAX];
} later[LATER];
static int nlater;

void gs_proc_kill_later(struct gs_child *c, const char *dir1, const char *dir2)
{
    pthread_mutex_lock(&track_mu);
    const int slot = c->pid > 0 && nlater < LATER ? nlater++ : -1;
    if (slot >= 0) {
        later[slot].pid = c->pid;
        gs_strlcpy(later[slot].dir[0], dir1 ? dir1 : "", PATH_MAX);
        gs_strlcpy(later[slot].dir[1], dir2 ? dir2 : "", PATH_MAX);
    }
    pthread_mutex_unlock(&track_mu);
    if (slot < 0) { /* full (or no process): now */
        gs_proc_kill(c, NULL);
        gs_proc_remove_dir(dir1);
        gs_proc_remove_dir(dir2);
        return;
    }
    kill_worker(c->pid);
    close_fds(c);
    c->pid = 0;
}

void gs_proc_reap_later(void)
{
    for (;;) {
        pthread_mutex_lock(&track_mu);
        const int k = nlater > 0 ? --nlater : -1;
        pid_t pid = 0;
        char dir[2][PATH_MAX];
        if (k >= 0) {
            pid = later[k].pid;
            memcpy(dir, later[k].dir, sizeof dir);
        }
        pthread_mutex_unlock(&track_mu);
        if (k < 0)
            return;
        while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
            ;
        track_pid(pid, 0);
        gs_proc_remove_dir(dir[0]);
        gs_proc_remove_dir(dir[1]);
    }
}

void gs_proc_finish(struct gs_child *c, int ms, int *status)
{
    int st = 0;
    for (int waited = 0; c->pid > 0 && waited <= ms; waited += 5) {
        const pid_t r = waitpid(c->pid, &st, WNOHANG);
        if (r == c->pid) {
            kill(-c->pid, SIGKILL); /* anything it left in its group */
            track_pid(c->pid, 0);
            c->pid = 0;
            break;
        }
        gs_proc_drain(c);
        const struct timespec t = {0, 5 * 1000 * 1000};
        nanosleep(&t, NULL);
    }
    if (c->pid > 0)
        gs_proc_kill(c, &st);
    close_fds(c);
    if (status)
        *status = st;
}

void gs_proc_status_words(int status, char *buf, unsigned size)
{
    static const struct {
        int sig;
        const char *words;
    } sigs[] = {
        {SIGSEGV, "segmentation fault (SIGSEGV): it touched memory outside its buffers"},
        {SIGBUS, "bus error (SIGBUS): it touched memory outside its buffers"},
        {SIGFPE, "arithmetic exception (SIGFPE): a division by zero?"},
        {SIGILL, "illegal instruction (SIGILL)"},
        {SIGABRT, "aborted (SIGABRT): the runtime or the kernel called abort(), or an "
                  "assertion failed (too much __local or private memory?)"},
        {SIGSYS, "a system call the sandbox forbids (SIGSYS): a kernel may not start programs, "
                 "open sockets or write files"},
        {SIGKILL, "killed (SIGKILL): out of memory, or stopped from outside"},
        {SIGXCPU, "the CPU time limit (SIGXCPU)"},
        {SIGXFSZ, "the file size limit (SIGXFSZ): it wrote a file"},
        {SIGTRAP, "a trap (SIGTRAP)"},
    };
    if (WIFSIGNALED(status)) {
        const int sig = WTERMSIG(status);
        for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; ++i)
            if (sigs[i].sig == sig) {
                snprintf(buf, size, "the kernel crashed: %s", sigs[i].words);
                return;
            }
        snprintf(buf, size, "the kernel crashed: signal %d (%s)", sig, strsignal(sig));
        return;
    }
    if (WIFEXITED(status))
        snprintf(buf, size, "the kernel's process ended with exit status %d before it "
                            "answered: the kernel's code called exit() (in a constructor or "
                            "the kernel)?", WEXITSTATUS(status));
    else
        snprintf(buf, size, "the kernel's process ended (wait status %d) before it answered",
                 status);
}

/* ---- the hook before user code loads ------------------------------------- */

static gs_proc_hook load_hook;
static void *load_hook_ctx;
static int sandboxed;

void gs_proc_set_load_hook(gs_proc_hook fn, void *ctx)
{
    load_hook = fn;
    load_hook_ctx = ctx;
}

int gs_proc_before_user_code(char *why, unsigned why_size)
{
    if (!load_hook)
        return GS_OK;
    const int rc = load_hook(load_hook_ctx, why, why_size);
    if (rc == GS_OK)
        sandboxed = 1;
    return rc;
}

int gs_proc_sandboxed(void)
{
    return sandboxed;
}

int gs_proc_in_worker(void)
{
    return load_hook != NULL;
}
