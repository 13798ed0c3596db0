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
/* Install the filter; writes are allowed on the `nfds` descriptors in fds.
 * GS_OK, or GS_UNSUPPORTED/GS_API with why. */
int gs_seccomp_install(const int *fds, int nfds, char *why, unsigned why_size);

#endif
