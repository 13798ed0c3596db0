/* SPDX-License-Identifier: MIT */
/* Processes that run a user's code for `gridstride check`: starting a worker
 * with only its channel, resource limits and its own process group; killing
 * the whole group; private temporary folders that are removed on every exit
 * path, SIGINT and SIGTERM included; and the hook a backend calls just before
 * it loads user code into its own process (the sandbox's last step).
 *
 * Library code: nothing here prints or exits, except the signal handler,
 * which kills what is tracked, removes the tracked folders and re-raises. */
#ifndef GS_PROC_H
#define GS_PROC_H

#include <stdint.h>
#include <sys/types.h>

#include "gs_status.h"

/* The uid and gid a worker started as root takes: one of its own, never
 * shared with another worker alive at the same time (a parallel grading run
 * included), GS_PROC_UID_BASE + its process id. Process ids stay below
 * 2^22 (PID_MAX_LIMIT), so the range is [0x60000000, 0x60400000): above the
 * ranges distributions hand out (system users, users from 1000, systemd's
 * dynamic users, the 65536-wide subordinate ranges from 100000 of
 * /etc/subuid), and below 2^31. No file on the machine belongs to it but
 * the worker's private folders. */
#define GS_PROC_UID_BASE 0x60000000u
#define GS_PROC_UID_SPAN 0x400000u
unsigned gs_proc_worker_uid(pid_t pid);
/* A worker's private folder as the worker names it (descriptor 5). */
#define GS_PROC_WORKER_DIR "/proc/self/fd/5"

/* Limits set in the worker before it execs. 0: leave that limit as it is. */
struct gs_proc_limits {
    uint64_t as_bytes;   /* RLIMIT_AS: address space (the host worker only: GPU runtimes
                            reserve far more address space than they use) */
    uint64_t data_bytes; /* RLIMIT_DATA */
    uint64_t fsize;      /* RLIMIT_FSIZE in bytes; UINT64_MAX: set 0 */
    unsigned cpu_s;      /* RLIMIT_CPU, a backstop behind the parent's deadlines */
    unsigned nproc;      /* RLIMIT_NPROC */
    int drop_privileges; /* as root: become uid/gid `uid` (0 at a spawn: the child's
                            own, gs_proc_worker_uid) */
    unsigned uid;
    int isolate;         /* a worker of check: a new session, an empty environment but
                            the list in gs_proc.c, no network and its own System V IPC
                            (as root), RLIMIT_NPROC below */
    int confine_files;   /* with isolate: Landlock, from exec on (gs_proc.c says what
                            it may reach) */
    const char *cwd;     /* the folder it starts in (entered before privileges are
                            dropped, so that it need not be reachable by their user) */
    const char *tmpdir;  /* its TMPDIR from exec on (NULL: this process's): what a
                            runtime leaves there when the child is killed is then in
                            a folder the parent removes */
};

struct gs_child {
    pid_t pid;   /* 0: none */
    int chan;    /* the parent's end of the channel (a socket pair) */
    int out;     /* read end of the pipe that holds the worker's stdout and stderr */
    char output[4096]; /* the first bytes the worker printed (a kernel's printf) */
    size_t output_len;
    uint64_t output_total; /* bytes it printed in all */
};

/* Start `exe` (NULL: this program, /proc/self/exe) with argv, in a new process
 * group (with lim->isolate a new session: no controlling terminal), with
 * PR_SET_NO_NEW_PRIVS, a SIGKILL when this process dies, RLIMIT_CORE 0 and
 * `lim`; its fd 3 is the channel and fd 4 is `shm_fd` (-1: none); with
 * lim->isolate fd 5 is its TMPDIR folder (O_PATH), named /proc/self/fd/5 in
 * its environment, so that it stays reachable once it is another user
 * however closed the folders above it are; stdin is /dev/null, stdout and
 * stderr the pipe c->out; every other descriptor is closed. */
int gs_proc_spawn(const char *exe, char *const argv[], int shm_fd, const struct gs_proc_limits *lim,
                  struct gs_child *c, struct gs_err *e);
/* In the worker, before any user code: enter lim->cwd, set the limits and,
 * as root with drop_privileges, become lim->uid (a worker of check is that
 * user from exec on already); then set the death signal again (a change of user clears it) and end at
 * once when the parent that started it is gone; then confine its files
 * (lim->confine_files). GS_OK or why not. */
int gs_proc_apply_limits(const struct gs_proc_limits *lim, struct gs_err *e);
/* In the worker, first thing: remember the parent that started it. */
void gs_proc_worker_begin(void);
/* The shared memory of a worker, sized and sealed (no shrink, no growth, no
 * other seal): a worker that tries to truncate it fails, so that the parent
 * never touches a page that is gone (SIGBUS). -1 and errno on failure. */
int gs_proc_shm_create(const char *name);
int gs_proc_shm_seal(int fd, uint64_t bytes);
/* What of the isolation this machine gives a worker, in one line when
 * something is missing (no namespaces, no Landlock, not root): empty when
 * everything is there. */
void gs_proc_isolation_gaps(char *buf, unsigned size);
/* Landlock's ABI version here (0: none). */
int gs_proc_landlock_abi(void);
/* Read what the worker printed into c->output (bounded; the rest is counted
 * and dropped). Returns 0 at end of file. */
int gs_proc_drain(struct gs_child *c);
/* SIGKILL the worker's whole group (compilers it started included), reap it
 * and close the descriptors. *status gets the wait status (may be NULL). */
void gs_proc_kill(struct gs_child *c, int *status);
/* Wait up to ms for the worker to end on its own (after a last message), then
 * kill its group. */
void gs_proc_finish(struct gs_child *c, int ms, int *status);
/* Kill the worker's group now and close the descriptors, but reap it, and
 * then remove the folders dir1 and dir2 (either may be NULL or empty), only
 * in gs_proc_reap_later(): a GPU worker's end (its context, its pinned and
 * device memory released) takes 0.1 to 0.2 s, which need not be waited for
 * while the caller still has work that no launch of the worker can disturb.
 * When the list is full it is reaped now. */
void gs_proc_kill_later(struct gs_child *c, const char *dir1, const char *dir2);
/* Reap every worker gs_proc_kill_later() killed and remove its folders. */
void gs_proc_reap_later(void);

/* A wait status in words a student understands: "the kernel crashed:
 * segmentation fault (SIGSEGV)", "the worker ended with exit status 0 before
 * it answered". */
void gs_proc_status_words(int status, char *buf, unsigned size);

/* A fresh folder $TMPDIR/gridstride-XXXXXX (the whole TMPDIR, any length),
 * owned by `owner` when that is not -1 (the worker's unprivileged user), and
 * tracked: the signal handler removes it. */
int gs_proc_private_dir(char *path, size_t size, long owner, struct gs_err *e);
/* The same beneath `base` (NULL: TMPDIR). */
int gs_proc_private_dir_in(const char *base, char *path, size_t size, long owner,
                           struct gs_err *e);
/* Remove a folder and everything under it, and stop tracking it. */
void gs_proc_remove_dir(const char *path);

/* SIGINT, SIGTERM, SIGHUP and SIGQUIT: kill every live worker's group, remove
 * every tracked folder, then run the handler installed before (or die of the
 * same signal). Call it again after another handler was installed. */
void gs_proc_install_cleanup(void);

/* The sandbox's last step, which a backend that loads user code into its own
 * process (dlopen) calls just before it does: no-op outside a worker. In a
 * worker it installs the system-call filter and lowers the limits; a backend
 * must not load the code when it fails (why says what failed). */
typedef int (*gs_proc_hook)(void *ctx, char *why, unsigned why_size);
void gs_proc_set_load_hook(gs_proc_hook fn, void *ctx);
int gs_proc_before_user_code(char *why, unsigned why_size);
/* 1 in a worker whose hook ran: the backend runs user code in this process
 * (it is the sandbox), without a child of its own. */
int gs_proc_sandboxed(void);
/* 1 in a worker that will call the hook (set before the build). */
int gs_proc_in_worker(void);

#endif
