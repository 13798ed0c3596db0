/* SPDX-License-Identifier: MIT */
/* The system-call filter of the host backend's worker (libseccomp), installed
 * before the compiled kernel is loaded, so that its constructors already run
 * under it. Allowed: what the dynamic loader and a kernel need (reading
 * files, memory maps, the clock, futexes, threads, signals to itself) and
 * writes to the worker's own descriptors. Killed (SIGSYS): starting programs
 * (execve, fork, vfork, clone without CLONE_THREAD), sockets, ptrace, signals
 * to other processes. Everything else fails with EPERM: opening a file for
 * writing, unlink, rename, writes to any other descriptor. */
#ifndef GS_SECCOMP_H
#define GS_SECCOMP_H

/* 1 when this build has the filter (libseccomp was found). */
int gs_seccomp_available(void);
/* The filter's two forms. LOADER: a process that loads user code with the
 * dynamic loader (the host backend): no files written, no processes, writes
 * to its own descriptors only. RUNTIME: a CPU driver that compiles and runs
 * the user's kernel in its own threads (PoCL): as LOADER, but files may be
 * written (Landlock keeps them in the worker's folder) and the linker PoCL
 * starts may run (posix_spawn's clone(CLONE_VM | CLONE_VFORK), execve);
 * fork, sockets and the rest of the killed list stay killed. Both: every
 * thread of the process gets it (SECCOMP_FILTER_FLAG_TSYNC), a system call
 * of another architecture (i386's int 0x80, x32's numbers) kills the
 * process, and ioctl's terminal requests (type 'T': TIOCSTI, TIOCLINUX,
 * TCGETS...) fail with EPERM. */
enum gs_seccomp_profile { GS_SECCOMP_LOADER, GS_SECCOMP_RUNTIME };
/* Install the filter; with LOADER writes are allowed on the `nfds`
 * descriptors in fds only. GS_OK, or GS_UNSUPPORTED/GS_API with why. */
int gs_seccomp_install(enum gs_seccomp_profile profile, const int *fds, int nfds, char *why,
                       unsigned why_size);

#endif
