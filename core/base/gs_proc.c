/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE /* pipe2, close_range, setgroups, strsignal, unshare, memfd_create */

#include "gs_proc.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <grp.h>
#include <sched.h>
#include <sys/mman.h>
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

#include "gs_io.h"
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
    return gs_proc_private_dir_in(NULL, path, size, owner, e);
}

int gs_proc_private_dir_in(const char *base, char *path, size_t size, long owner,
                           struct gs_err *e)
{
    const char *tmp = base ? base : getenv("TMPDIR");
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
 * async-signal-safe calls). A worker of check (lim->isolate) gets an empty
 * one plus what the APIs need, and nothing else of the grader's: PATH (the
 * system's folders only), TMPDIR, HOME, XDG_CACHE_HOME and POCL_CACHE_DIR
 * (its private folder, /proc/self/fd/5: PoCL's kernel cache and a driver's
 * files stay there and go with it), and, when the caller has them, the
 * variables that choose a runtime or a device (keep_vars). Another child
 * (ncu) inherits this process's, TMPDIR replaced when one is given. In a
 * sanitizer build ASAN_OPTIONS is extended so that AddressSanitizer leaves
 * SIGSEGV, SIGBUS, SIGFPE and SIGILL alone there: a user's kernel that
 * faults then ends the worker by its signal, as in every other build, and
 * check says "faulted" in the same words. (ASan still checks the worker's
 * own code; it cannot see into the user's, which is built without it.)
 * envp NULL: the child inherits this process's. Its strings are freed with
 * it (child_env_free). */
extern char **environ;
#define WORKER_DIR_FD 5
#define WORKER_DIR GS_PROC_WORKER_DIR
/* The OpenCL loader's folder of drivers (OCL_ICD_VENDORS) when the caller
 * names one: opened here and named through the descriptor, as the folders
 * above it may be closed to the worker's user. */
#define WORKER_ICD_FD 6
#define WORKER_ICD "OCL_ICD_VENDORS=/proc/self/fd/6"
/* The folder of the suite's own built kernels (gs_cache_dir), read only:
 * an OpenCL worker loads the suite's program from there instead of building
 * it again (seconds on PoCL), and can write nothing there. */
#define WORKER_CACHE_FD 7
#define WORKER_CACHE "GRIDSTRIDE_CACHE=/proc/self/fd/7"
static const char *const fixed_vars[] = {
    "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
    "TMPDIR=" WORKER_DIR,
    "HOME=" WORKER_DIR,
    "XDG_CACHE_HOME=" WORKER_DIR,
    "POCL_CACHE_DIR=" WORKER_DIR,
};
/* Passed on when set: the OpenCL loader's and PoCL's choice of driver and
 * device, CUDA's choice of device, OpenMP's offload settings, the C
 * compiler the host backend runs, the library path a runtime is found on. */
static const char *const keep_vars[] = {
    "LD_LIBRARY_PATH", "OCL_ICD_VENDORS", "OCL_ICD_FILENAMES", "POCL_DEVICES",
    "CUDA_VISIBLE_DEVICES", "CUDA_DEVICE_ORDER", "OMP_TARGET_OFFLOAD", "OMP_PROC_BIND",
    "OMP_NUM_THREADS", "CC", "GRIDSTRIDE_CC",
};
#define NFIXED (sizeof fixed_vars / sizeof fixed_vars[0])
#define NKEEP (sizeof keep_vars / sizeof keep_vars[0])

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

/* NAME=VALUE of environ whose name is `name`, or NULL. */
static char *env_entry(const char *name)
{
    const size_t n = strlen(name);
    for (char **v = environ; *v; ++v)
        if (strncmp(*v, name, n) == 0 && (*v)[n] == '=')
            return *v;
    return NULL;
}

static int child_env(const char *tmpdir, int isolate, int icd_fd, int cache_fd,
                     struct child_env *ce)
{
    memset(ce, 0, sizeof *ce);
#ifdef GS_PROC_ASAN
    const char *asan = "handle_segv=0:handle_sigbus=0:handle_sigfpe=0:handle_sigill=0";
#else
    const char *asan = NULL;
#endif
    if (!tmpdir && !asan && !isolate)
        return 0;
    size_t n = 0;
    for (char **v = environ; *v; ++v)
        ++n;
    ce->envp = malloc((n + NFIXED + 4) * sizeof *ce->envp);
    if (!ce->envp)
        return -1;
    if (tmpdir && !isolate) {
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
    if (isolate) {
        for (size_t i = 0; i < NFIXED; ++i)
            ce->envp[k++] = (char *)fixed_vars[i];
        for (size_t i = 0; i < NKEEP; ++i)
            if (env_entry(keep_vars[i]))
                ce->envp[k++] = icd_fd >= 0 && strcmp(keep_vars[i], "OCL_ICD_VENDORS") == 0
                                    ? (char *)WORKER_ICD : env_entry(keep_vars[i]);
        ce->envp[k++] = cache_fd >= 0 ? (char *)WORKER_CACHE : (char *)"GRIDSTRIDE_CACHE=off";
    } else {
        for (char **v = environ; *v; ++v)
            if (!(ce->tmp_var && strncmp(*v, "TMPDIR=", 7) == 0) &&
                !(ce->asan_var && strncmp(*v, "ASAN_OPTIONS=", 13) == 0))
                ce->envp[k++] = *v;
    }
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

/* ---- Landlock: what a confined worker may reach -------------------------- */

/* The kernel's interface (include/uapi/linux/landlock.h), written out so that
 * the rights of later ABIs than the build machine's headers know are used
 * where the running kernel has them. */
#ifndef __NR_landlock_create_ruleset
#define __NR_landlock_create_ruleset 444
#define __NR_landlock_add_rule 445
#define __NR_landlock_restrict_self 446
#endif
#define LL_CREATE_RULESET_VERSION (1u << 0)
#define LL_RULE_PATH_BENEATH 1
#define LL_EXECUTE (1ull << 0)
#define LL_WRITE_FILE (1ull << 1)
#define LL_READ_FILE (1ull << 2)
#define LL_READ_DIR (1ull << 3)
#define LL_ABI1_ALL ((1ull << 13) - 1) /* EXECUTE .. MAKE_SYM */
#define LL_REFER (1ull << 13)           /* ABI 2 */
#define LL_TRUNCATE (1ull << 14)        /* ABI 3 */
#define LL_IOCTL_DEV (1ull << 15)       /* ABI 5 */
#define LL_NET_ALL 3ull                 /* ABI 4: bind and connect TCP */
#define LL_SCOPE_ALL 3ull               /* ABI 6: abstract unix sockets, signals */
struct ll_ruleset_attr {
    uint64_t handled_access_fs;
    uint64_t handled_access_net;
    uint64_t scoped;
};
struct ll_path_beneath {
    uint64_t allowed_access;
    int32_t parent_fd;
} __attribute__((packed));

int gs_proc_landlock_abi(void)
{
    const long abi = syscall(__NR_landlock_create_ruleset, NULL, 0, LL_CREATE_RULESET_VERSION);
    return abi > 0 ? (int)abi : 0;
}

/* One rule: `access` beneath (or on) path, narrowed to what the path is. */
static void ll_allow(int ruleset, const char *path, uint64_t access, uint64_t handled)
{
    const int fd = open(path, O_PATH | O_CLOEXEC);
    if (fd < 0)
        return;
    struct stat st;
    if (fstat(fd, &st) == 0 && !S_ISDIR(st.st_mode))
        access &= LL_EXECUTE | LL_WRITE_FILE | LL_READ_FILE | LL_TRUNCATE | LL_IOCTL_DEV;
    struct ll_path_beneath pb = {access & handled, fd};
    if (pb.allowed_access)
        syscall(__NR_landlock_add_rule, ruleset, LL_RULE_PATH_BENEATH, &pb, 0);
    close(fd);
}

/* In the child before exec (system calls only): files readable in the
 * system's folders, written only beneath dir_fd (its private folder);
 * programs run from the system's folders (the compiler, PoCL's linker);
 * no TCP; signals and abstract sockets only within its own domain. The
 * exe (this program, maybe outside those folders) is readable and runs.
 * A kernel without Landlock leaves the child as it is: the parent says so
 * (gs_proc_isolation_gaps). */
static void ll_confine(int dir_fd, const char *exe, const char *cc, int icd_fd, int cache_fd)
{
    const int abi = gs_proc_landlock_abi();
    if (abi < 1)
        return;
    uint64_t handled = LL_ABI1_ALL;
    if (abi >= 2)
        handled |= LL_REFER;
    if (abi >= 3)
        handled |= LL_TRUNCATE;
    if (abi >= 5)
        handled |= LL_IOCTL_DEV;
    struct ll_ruleset_attr attr = {handled, abi >= 4 ? LL_NET_ALL : 0, abi >= 6 ? LL_SCOPE_ALL : 0};
    const size_t size = abi >= 6 ? sizeof attr : abi >= 4 ? 2 * sizeof(uint64_t) : sizeof(uint64_t);
    const int rs = (int)syscall(__NR_landlock_create_ruleset, &attr, size, 0);
    if (rs < 0)
        return;
    const uint64_t ro = LL_READ_FILE | LL_READ_DIR | LL_EXECUTE;
    static const char *const system_dirs[] = {"/usr", "/lib", "/lib64", "/lib32", "/bin",
                                              "/sbin", "/etc", "/opt", "/proc", "/sys"};
    for (size_t i = 0; i < sizeof system_dirs / sizeof system_dirs[0]; ++i)
        ll_allow(rs, system_dirs[i], ro, handled);
    ll_allow(rs, "/dev/null", LL_READ_FILE | LL_WRITE_FILE, handled);
    ll_allow(rs, "/dev/zero", LL_READ_FILE, handled);
    ll_allow(rs, "/dev/urandom", LL_READ_FILE, handled);
    ll_allow(rs, "/dev/random", LL_READ_FILE, handled);
    ll_allow(rs, exe, LL_READ_FILE | LL_EXECUTE, handled);
    if (cc[0])
        ll_allow(rs, cc, LL_READ_FILE | LL_EXECUTE, handled);
    if (icd_fd >= 0) {
        struct ll_path_beneath drivers = {(LL_READ_FILE | LL_READ_DIR) & handled, icd_fd};
        syscall(__NR_landlock_add_rule, rs, LL_RULE_PATH_BENEATH, &drivers, 0);
    }
    if (cache_fd >= 0) {
        struct ll_path_beneath cache = {(LL_READ_FILE | LL_READ_DIR) & handled, cache_fd};
        syscall(__NR_landlock_add_rule, rs, LL_RULE_PATH_BENEATH, &cache, 0);
    }
    /* Everything but IOCTL_DEV beneath its own folder. */
    struct ll_path_beneath own = {handled & ~LL_IOCTL_DEV, dir_fd};
    syscall(__NR_landlock_add_rule, rs, LL_RULE_PATH_BENEATH, &own, 0);
    syscall(__NR_landlock_restrict_self, rs, 0);
    close(rs);
}

/* The folders' descriptors a spawn opened for its child (-1: not opened). */
static void close_folders(int dir_fd, int icd_fd, int cache_fd)
{
    const int fds[] = {dir_fd, icd_fd, cache_fd};
    for (size_t i = 0; i < sizeof fds / sizeof fds[0]; ++i)
        if (fds[i] >= 0)
            close(fds[i]);
}

/* The C compiler the grader named (GRIDSTRIDE_CC, else CC: its first word,
 * when it is an absolute path), which a confined worker may read and run
 * wherever it is; "" when none is named so (the compiler is then looked for
 * in the system's folders). */
static void compiler_path(char *cc, size_t size)
{
    const char *v = getenv("GRIDSTRIDE_CC");
    if (!v || !*v)
        v = getenv("CC");
    cc[0] = '\0';
    if (!v || v[0] != '/')
        return;
    const size_t len = strcspn(v, " \t");
    if (len < size) {
        memcpy(cc, v, len);
        cc[len] = '\0';
    }
}

/* In the child, between fork and exec: async-signal-safe calls only. */
static void child_setup(const char *exe, const char *cc, char *const argv[], char *const envp[],
                        int chan,
                        int shm_fd, int out, const struct gs_proc_limits *lim, pid_t parent,
                        int dir_fd, int icd_fd, int cache_fd)
{
    /* A worker of check: a session of its own, so that it has no
     * controlling terminal (a TIOCSTI on /dev/tty finds none), and no
     * process of the grader's group or session is its. */
    if (lim->isolate)
        setsid();
    else
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
    const int hi_dir = dir_fd >= 0 ? fcntl(dir_fd, F_DUPFD, 10) : -1;
    const int hi_icd = dir_fd >= 0 && icd_fd >= 0 ? fcntl(icd_fd, F_DUPFD, 10) : -1;
    const int hi_cache = dir_fd >= 0 && cache_fd >= 0 ? fcntl(cache_fd, F_DUPFD, 10) : -1;
    if (hi_chan < 0 || hi_out < 0 || hi_nul < 0 || (shm_fd >= 0 && hi_shm < 0) ||
        (dir_fd >= 0 && hi_dir < 0) || (dir_fd >= 0 && icd_fd >= 0 && hi_icd < 0) ||
        (dir_fd >= 0 && cache_fd >= 0 && hi_cache < 0))
        _exit(127);
    if (dup2(hi_nul, 0) < 0 || dup2(hi_out, 1) < 0 || dup2(hi_out, 2) < 0 ||
        dup2(hi_chan, 3) < 0 || (hi_shm >= 0 && dup2(hi_shm, 4) < 0) ||
        (hi_dir >= 0 && dup2(hi_dir, WORKER_DIR_FD) < 0) ||
        (hi_icd >= 0 && dup2(hi_icd, WORKER_ICD_FD) < 0) ||
        (hi_cache >= 0 && dup2(hi_cache, WORKER_CACHE_FD) < 0))
        _exit(127);
    /* Nothing open but the numbers just set: a gap below the highest one
     * (no driver folder beside a cache) is closed too. */
    if (hi_cache >= 0 && hi_icd < 0)
        close(WORKER_ICD_FD);
    close_from(hi_cache >= 0 ? WORKER_CACHE_FD + 1
               : hi_icd >= 0 ? WORKER_ICD_FD + 1
               : hi_dir >= 0 ? WORKER_DIR_FD + 1
               : hi_shm >= 0 ? 5
                             : 4);
    signal(SIGPIPE, SIG_DFL);
    set_limit(RLIMIT_CORE, 0); /* a fault is reported, not dumped */
    set_memory_limits(lim);
    if (lim->fsize)
        set_limit(RLIMIT_FSIZE, lim->fsize == UINT64_MAX ? 0 : lim->fsize);
    if (lim->cpu_s)
        set_limit(RLIMIT_CPU, lim->cpu_s);
    if (lim->cwd && chdir(lim->cwd) != 0)
        _exit(127);
    if (hi_dir >= 0 && !lim->cwd && fchdir(WORKER_DIR_FD) != 0)
        _exit(127);
#ifdef __linux__
    /* As root: no network (a fresh namespace has no interface up, not even
     * loopback) and System V IPC of its own. Where the kernel or a
     * container refuses, the worker runs without them; check says so
     * (gs_proc_isolation_gaps). */
    if (lim->isolate && geteuid() == 0)
        unshare(CLONE_NEWNET | CLONE_NEWIPC);
#endif
    if (lim->drop_privileges && geteuid() == 0) {
        /* Before exec, so that no thread of a runtime ever runs as root;
         * its private folder becomes its user's. */
        const unsigned uid = lim->uid ? lim->uid : gs_proc_worker_uid(getpid());
        if (hi_dir >= 0)
            fchownat(WORKER_DIR_FD, "", uid, uid, AT_EMPTY_PATH);
        if (setgroups(0, NULL) != 0 || setgid(uid) != 0 || setuid(uid) != 0)
            _exit(126);
        prctl(PR_SET_PDEATHSIG, SIGKILL); /* setuid cleared it */
        if (getppid() != parent)
            _exit(127);
    }
    if (lim->nproc)
        set_limit(RLIMIT_NPROC, lim->nproc);
#ifdef __linux__
    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
    if (lim->isolate && lim->confine_files && hi_dir >= 0)
        ll_confine(WORKER_DIR_FD, exe, cc, hi_icd >= 0 ? WORKER_ICD_FD : -1,
                   hi_cache >= 0 ? WORKER_CACHE_FD : -1);
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
    const int dir_fd = lim->isolate && lim->tmpdir
                           ? open(lim->tmpdir, O_PATH | O_DIRECTORY | O_CLOEXEC) : -1;
    const char *icd = getenv("OCL_ICD_VENDORS");
    const int icd_fd = dir_fd >= 0 && icd && *icd
                           ? open(icd, O_PATH | O_DIRECTORY | O_CLOEXEC) : -1;
    char cache[PATH_MAX], cc[PATH_MAX];
    compiler_path(cc, sizeof cc);
    const int cache_fd = dir_fd >= 0 && gs_cache_dir(cache, sizeof cache)
                             ? open(cache, O_PATH | O_DIRECTORY | O_CLOEXEC) : -1;
    if ((lim->isolate && lim->tmpdir && dir_fd < 0) ||
        child_env(lim->tmpdir, lim->isolate && dir_fd >= 0, icd_fd, cache_fd, &ce) != 0) {
        const int err = errno;
        close(sv[0]);
        close(sv[1]);
        close(po[0]);
        close(po[1]);
        close_folders(dir_fd, icd_fd, cache_fd);
        return gs_err_set(e, GS_NOMEM, "starting a worker: %s", strerror(err));
    }
    const pid_t parent = getpid();
    const pid_t pid = fork();
    if (pid == 0)
        child_setup(exe, cc, argv, ce.envp, sv[1], shm_fd, po[1], lim, parent, dir_fd, icd_fd,
                    cache_fd);
    const int err = errno;
    child_env_free(&ce);
    close_folders(dir_fd, icd_fd, cache_fd);
    close(sv[1]);
    close(po[1]);
    if (pid < 0) {
        close(sv[0]);
        close(po[0]);
        return gs_err_set(e, GS_IO, "fork for a worker: %s", strerror(err));
    }
    /* Also here, so that a kill right away reaches the group; not for a
     * worker in a session of its own (setsid() fails in a group leader;
     * kill_worker() signals the pid too). */
    if (!lim->isolate)
        setpgid(pid, pid);
    track_pid(pid, 1);
    fcntl(po[0], F_SETFL, fcntl(po[0], F_GETFL) | O_NONBLOCK);
    c->pid = pid;
    c->chan = sv[0];
    c->out = po[0];
    return GS_OK;
}

static pid_t first_parent;

void gs_proc_worker_begin(void)
{
    first_parent = getppid();
}

unsigned gs_proc_worker_uid(pid_t pid)
{
    return GS_PROC_UID_BASE + (unsigned)pid % GS_PROC_UID_SPAN;
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
    if (lim->drop_privileges && geteuid() == 0) {
        if (setgroups(0, NULL) != 0 || setgid(lim->uid) != 0 || setuid(lim->uid) != 0)
            return gs_err_set(e, GS_IO, "the worker cannot give up root: %s", strerror(errno));
    }
#ifdef __linux__
    /* A change of user clears the death signal: set again, then checked,
     * as the parent may have died before. */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (first_parent && getppid() != first_parent)
        _exit(127);
#endif
    if (lim->nproc)
        set_limit(RLIMIT_NPROC, lim->nproc);
    return GS_OK;
}

/* ---- shared memory ------------------------------------------------------- */

int gs_proc_shm_create(const char *name)
{
    return memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
}

int gs_proc_shm_seal(int fd, uint64_t bytes)
{
    if (ftruncate(fd, (off_t)bytes) != 0)
        return -1;
    return fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL);
}

/* ---- what this machine gives ----------------------------------------------- */

void gs_proc_isolation_gaps(char *buf, unsigned size)
{
    char gaps[400] = "";
    if (geteuid() != 0) {
        gs_strlcpy(gaps, "not run as root: the workers keep this user (no user of their own) "
                         "and share the network", sizeof gaps);
    } else {
        const pid_t pid = fork();
        int st = -1;
        if (pid == 0)
            _exit(unshare(CLONE_NEWNET | CLONE_NEWIPC) == 0 ? 0 : 1);
        if (pid > 0)
            while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
                ;
        if (!(pid > 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0))
            gs_strlcpy(gaps, "no network or IPC namespace (the kernel or a container refuses "
                             "unshare): the workers share the network", sizeof gaps);
    }
    if (gs_proc_landlock_abi() < 1) {
        const size_t used = strlen(gaps);
        snprintf(gaps + used, sizeof gaps - used, "%sno Landlock in this kernel: the workers "
                                                  "read and write what their user may",
                 used ? "; " : "");
    }
    if (*gaps)
        snprintf(buf, size, "the sandbox is weaker here: %s", gaps);
    else if (size)
        buf[0] = '\0';
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
