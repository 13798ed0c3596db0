/* SPDX-License-Identifier: MIT */
/* What check's parent and its worker (gs_worker.h) say to each other: the
 * descriptors the worker gets, the messages on the channel and their
 * framing. Private to core/run/gs_worker*.c. */
#ifndef GS_WORKER_MSG_H
#define GS_WORKER_MSG_H

#include <stddef.h>
#include <stdint.h>

#include "gs_device.h"
#include "gs_proc.h"
#include "gs_speed.h"

#define WK_MAGIC 0x4B575347u /* "GSWK" */
#define WK_CHAN 3
#define WK_SHM 4
#define WK_MAX_PAYLOAD (8u << 20)

enum { MSG_HELLO = 1, MSG_BUILT, MSG_CASE, MSG_DONE, MSG_QUIT, MSG_SPEED, MSG_SPEED_DONE, MSG_COUNT,
       MSG_PREBUILD, MSG_SETTLE, MSG_SETTLED };

/* MSG_SETTLE (parent to worker): before the timed section waits for its
 * turn, finish what the worker does in the background (the speed pass's
 * memory mapped and pinned) and upload the speed pass's inputs of the run's
 * seed (as msg_case's), so that none of it runs beside another device's
 * timed launches; answered by MSG_SETTLED, no body. */
struct msg_settle {
    uint64_t inputs, n;
};

struct msg_head {
    uint32_t magic, type, seq, len;
};

/* Parent to worker, then the path, entry, text and TMPDIR, each NUL-ended. */
struct msg_hello {
    char device_id[32];
    uint64_t max_n;
    uint64_t shm_bytes;
    int dialect;
    int sandbox; /* install the load hook: the backend loads user code in its process */
    int runtime_filter; /* a CPU runtime's worker (PoCL): its filter (GS_SECCOMP_RUNTIME)
                           with the limits, before the build */
    struct gs_proc_limits lim; /* applied by the worker before the build (cwd: the 5th string) */
};

/* Parent to a prestarted worker, before HELLO: build the file now, on the
 * first device `selector` picks (as the parent's --device does), while the
 * parent opens its own APIs; then the path, entry and text, each NUL-ended.
 * HELLO then finds the kernel built when it names that device and the same
 * file (never for a worker whose backend loads user code in its process:
 * there the build waits for HELLO's limits and filter). */
struct msg_prebuild {
    char selector[128];
    int dialect;
};

/* Worker to parent, then the compiler's log, NUL-ended. */
struct msg_built {
    int status;
    char compiler[256];
    char msg[640];
};

/* inputs: the seed of the inputs (gs_inputs_set_seed), the parent's secret
 * for its run, told with each launch, never before the user's code is
 * loaded: a file's code cannot compute the expected values from the index
 * alone. */
struct msg_case {
    uint64_t n, grid, block, global;
    uint64_t inputs; /* the run's secret input seed (gs_inputs_seed) */
    uint32_t finite; /* 1: poison out with GS_FINITE_POISON (the accumulation check) */
    uint32_t pad;
};

enum { PHASE_POISON, PHASE_LAUNCH, PHASE_READ };

/* One timed row (gs_speed.h): warmup + reps launches of `who`, each on a
 * poisoned output; the first one stops the row when it runs past limit_ms
 * (0: never); read_back copies the last output into shared memory. */
struct msg_speed {
    uint32_t who, warmup, reps, read_back;
    uint64_t n, grid, block;
    double limit_ms;
    uint64_t seed; /* where the user's launches are sampled (SPEED_SAMPLES a launch) */
    uint64_t inputs; /* the inputs' seed, as msg_case's */
};

/* Elements of each of the user's timed launches read back and compared with
 * the closed form, at places the parent's seed chooses: a kernel that skips
 * the work of some launches leaves poison there. (Only the last launch's
 * whole output is compared, by the parent.) */
#define SPEED_SAMPLES 8

struct msg_speed_done {
    int status;
    int phase;
    int nsamples;
    int stopped; /* the first launch ran past limit_ms: samples_ms[0] is its time */
    int sample_wrong; /* a sampled element of a timed launch was not a + b (msg says which) */
    double samples_ms[GS_SPEED_MAX_REPS];
    char api_error[64];
    char msg[640];
};

struct msg_done {
    int status;
    int phase; /* where a non-OK status came from */
    struct gs_launch_result r;
    char msg[640];
};

/* A message: its head, `len` bytes of body, then nstrs NUL-ended strings.
 * 0, or -1 when the channel failed or it is too large. */
int gs_wk_send(int fd, uint32_t type, uint32_t seq, const void *body, size_t len,
               const char *const *strs, int nstrs);
/* A message's payload (malloc'd, NUL-ended one past len), or NULL. */
char *gs_wk_read(int fd, struct msg_head *h);
/* The i-th NUL-ended string after a fixed part of `fixed` bytes, or "". */
const char *gs_wk_string_at(const char *body, size_t len, size_t fixed, int index);

#endif
