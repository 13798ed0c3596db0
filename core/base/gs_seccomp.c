/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE /* CLONE_THREAD */

#include "gs_seccomp.h"

#include <stdio.h>
#include <string.h>

#include "gs_status.h"

#ifdef GS_HAVE_SECCOMP
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <seccomp.h>
#include <unistd.h>

int gs_seccomp_available(void)
{
    return 1;
}

/* Allowed with no condition. Names unknown to this architecture are skipped. */
static const char *const allowed[] = {
    "read", "pread64", "readv", "preadv", "lseek", "close", "fstat", "newfstatat", "stat",
    "lstat", "statx", "fstatfs", "access", "faccessat", "faccessat2", "readlink", "readlinkat",
    "getdents64", "mmap", "mprotect", "munmap", "mremap", "madvise", "brk", "futex",
    "futex_waitv", "set_robust_list", "get_robust_list", "rseq", "set_tid_address",
    "clock_gettime", "clock_getres", "clock_nanosleep", "nanosleep", "gettimeofday", "time",
    "sched_yield", "sched_getaffinity", "getpid", "gettid", "getppid", "getuid", "geteuid",
    "getgid", "getegid", "getrlimit", "getrandom", "uname", "rt_sigaction",
    "rt_sigprocmask", "rt_sigreturn", "rt_sigtimedwait", "sigaltstack", "exit", "exit_group",
    "poll", "ppoll", "restart_syscall", "membarrier", "arch_prctl", "fcntl", "dup",
};

/* Also allowed in a RUNTIME worker (found by running the PoCL rows under
 * strace -f): PoCL writes its kernel cache and temporary files, starts the
 * system linker with posix_spawn at the build and at a launch of a new
 * work-group size, waits for it, and pins its threads; the linker, which
 * inherits the filter, reads, writes and chmods its output. */
static const char *const runtime_allowed[] = {
    "write", "writev", "pwrite64", "pwritev", "mkdir", "mkdirat", "rename", "renameat",
    "renameat2", "unlink", "unlinkat", "rmdir", "fsync", "fdatasync", "ftruncate", "chmod",
    "fchmod", "fchmodat", "umask", "getcwd", "getrusage", "sysinfo", "pipe2", "dup2", "dup3",
    "wait4", "waitid", "execve", "sched_setaffinity", "close_range", "getpgrp", "lstat",
};

/* Killed: the calls that would let a kernel out of its box. */
static const char *const killed[] = {
    "execveat", "fork", "vfork", "ptrace", "socket", "socketpair", "connect",
    "bind", "listen", "accept", "accept4", "process_vm_writev", "process_vm_readv",
    "pidfd_open", "pidfd_send_signal", "setuid", "setgid", "setresuid", "setresgid",
    "init_module", "finit_module", "mount", "umount2", "chroot", "pivot_root",
    "unshare", "setns", "keyctl", "bpf", "perf_event_open", "userfaultfd",
    "io_uring_setup", "memfd_create",
};

static int rule(scmp_filter_ctx f, uint32_t action, const char *name, unsigned n,
                const struct scmp_arg_cmp *args)
{
    const int nr = seccomp_syscall_resolve_name(name);
    if (nr == __NR_SCMP_ERROR)
        return 0; /* not on this architecture */
    return seccomp_rule_add_array(f, action, nr, n, args);
}

/* A comparison of the first argument, every field set: libseccomp's SCMP_A0
 * leaves datum_b to the compound literal, which GCC 13's
 * -Wmissing-field-initializers reports (a warning, an error under GS_WERROR). */
static struct scmp_arg_cmp arg0(enum scmp_compare op, scmp_datum_t a, scmp_datum_t b)
{
    struct scmp_arg_cmp c;
    memset(&c, 0, sizeof c);
    c.arg = 0;
    c.op = op;
    c.datum_a = a;
    c.datum_b = b;
    return c;
}

int gs_seccomp_install(enum gs_seccomp_profile profile, const int *fds, int nfds, char *why,
                       unsigned why_size)
{
    const int runtime = profile == GS_SECCOMP_RUNTIME;
    scmp_filter_ctx f = seccomp_init(SCMP_ACT_ERRNO(EPERM));
    int rc = f ? 0 : -ENOMEM;
    const pid_t self = getpid();
    /* Every thread, those started before included (the host backend's pool,
     * PoCL's device threads); a foreign architecture's call kills the whole
     * process at once, not one thread that the others then wait for. */
    if (rc == 0)
        rc = seccomp_attr_set(f, SCMP_FLTATR_CTL_TSYNC, 1);
    if (rc == 0)
        rc = seccomp_attr_set(f, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS);
    for (size_t i = 0; rc == 0 && i < sizeof allowed / sizeof allowed[0]; ++i)
        rc = rule(f, SCMP_ACT_ALLOW, allowed[i], 0, NULL);
    for (size_t i = 0; rc == 0 && runtime && i < sizeof runtime_allowed / sizeof runtime_allowed[0];
         ++i)
        rc = rule(f, SCMP_ACT_ALLOW, runtime_allowed[i], 0, NULL);
    for (size_t i = 0; rc == 0 && i < sizeof killed / sizeof killed[0]; ++i)
        rc = rule(f, SCMP_ACT_KILL_PROCESS, killed[i], 0, NULL);
    if (rc == 0 && !runtime)
        rc = rule(f, SCMP_ACT_KILL_PROCESS, "execve", 0, NULL);
    /* ioctl: never a terminal's request (type 'T', 0x54nn: TIOCSTI pushes
     * input into a terminal, TIOCLINUX, TIOCSCTTY...). A request passes when
     * its type byte is another one and its upper 32 bits are clear (the
     * kernel reads the request as 32 bits: 0x1_0000_5412 would be TIOCSTI);
     * every other ioctl takes the default, EPERM. One rule a type, as
     * libseccomp has no masked "not equal" and lets an unconditional rule
     * cover a conditional one. */
    for (unsigned type = 0; rc == 0 && type < 256; ++type) {
        if (type == 0x54)
            continue;
        const struct scmp_arg_cmp other = {1, SCMP_CMP_MASKED_EQ, 0xFFFFFFFF0000FF00ull,
                                           (scmp_datum_t)type << 8};
        rc = rule(f, SCMP_ACT_ALLOW, "ioctl", 1, &other);
    }
    /* Files open for reading only (LOADER). */
    const struct scmp_arg_cmp ro_open = SCMP_A2(SCMP_CMP_MASKED_EQ, O_ACCMODE | O_CREAT | O_TRUNC, 0);
    const struct scmp_arg_cmp ro_open_old = SCMP_A1(SCMP_CMP_MASKED_EQ, O_ACCMODE | O_CREAT | O_TRUNC, 0);
    if (rc == 0)
        rc = rule(f, SCMP_ACT_ALLOW, "openat", runtime ? 0 : 1, &ro_open);
    if (rc == 0)
        rc = rule(f, SCMP_ACT_ALLOW, "open", runtime ? 0 : 1, &ro_open_old);
    /* Threads, never processes (LOADER); RUNTIME also posix_spawn's child,
     * which shares the memory until it runs the linker. clone3 hides its
     * flags in memory the filter cannot read: ENOSYS makes the C library
     * fall back to clone. */
    const struct scmp_arg_cmp thread = arg0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, CLONE_THREAD);
    const struct scmp_arg_cmp no_thread = arg0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, 0);
    const struct scmp_arg_cmp spawn = arg0(SCMP_CMP_MASKED_EQ, CLONE_THREAD | CLONE_VM | CLONE_VFORK,
                                           CLONE_VM | CLONE_VFORK);
    if (rc == 0)
        rc = rule(f, SCMP_ACT_ALLOW, "clone", 1, &thread);
    if (rc == 0 && runtime)
        rc = rule(f, SCMP_ACT_ALLOW, "clone", 1, &spawn);
    else if (rc == 0)
        rc = rule(f, SCMP_ACT_KILL_PROCESS, "clone", 1, &no_thread);
    if (rc == 0)
        rc = rule(f, SCMP_ACT_ERRNO(ENOSYS), "clone3", 0, NULL);
    /* Signals to itself only (abort, raise). */
    const struct scmp_arg_cmp to_self = arg0(SCMP_CMP_EQ, (scmp_datum_t)self, 0);
    const struct scmp_arg_cmp to_other = arg0(SCMP_CMP_NE, (scmp_datum_t)self, 0);
    if (rc == 0)
        rc = rule(f, SCMP_ACT_ALLOW, "kill", 1, &to_self);
    if (rc == 0)
        rc = rule(f, SCMP_ACT_KILL_PROCESS, "kill", 1, &to_other);
    /* Its own limits only (pid 0: itself), never another process's. */
    const struct scmp_arg_cmp own = arg0(SCMP_CMP_EQ, 0, 0);
    if (rc == 0)
        rc = rule(f, SCMP_ACT_ALLOW, "prlimit64", 1, &own);
    if (rc == 0)
        rc = rule(f, SCMP_ACT_ALLOW, "tgkill", 1, &to_self);
    if (rc == 0)
        rc = rule(f, SCMP_ACT_KILL_PROCESS, "tgkill", 1, &to_other);
    /* Writes to its own descriptors only (LOADER). */
    for (int i = 0; rc == 0 && i < nfds; ++i) {
        const struct scmp_arg_cmp fd = arg0(SCMP_CMP_EQ, (scmp_datum_t)fds[i], 0);
        if (!runtime)
            rc = rule(f, SCMP_ACT_ALLOW, "write", 1, &fd);
        if (rc == 0 && !runtime)
            rc = rule(f, SCMP_ACT_ALLOW, "writev", 1, &fd);
        if (rc == 0)
            rc = rule(f, SCMP_ACT_ALLOW, "sendmsg", 1, &fd);
        if (rc == 0)
            rc = rule(f, SCMP_ACT_ALLOW, "sendto", 1, &fd);
    }
    if (rc == 0)
        rc = seccomp_load(f);
    if (f)
        seccomp_release(f);
    if (rc != 0) {
        snprintf(why, why_size, "the system-call filter could not be installed: %s",
                 strerror(rc < 0 ? -rc : ESRCH));
        return GS_API;
    }
    return GS_OK;
}

#else

int gs_seccomp_available(void)
{
    return 0;
}

int gs_seccomp_install(enum gs_seccomp_profile profile, const int *fds, int nfds, char *why,
                       unsigned why_size)
{
    (void)profile;
    (void)fds;
    (void)nfds;
    snprintf(why, why_size, "this build has no system-call filter (libseccomp was not found "
                            "when it was configured); install libseccomp-dev and rebuild");
    return GS_UNSUPPORTED;
}

#endif
