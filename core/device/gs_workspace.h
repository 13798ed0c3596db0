/* SPDX-License-Identifier: MIT */
/* The buffers of a run and the one verified launch that everything uses.
 *
 * A workspace holds the three device buffers (a, b, out; n + GS_GUARD_ELEMS
 * elements each, floats or doubles: its type), two staging areas of host
 * memory that the API moves at full
 * speed (page-locked where the backend has it), and a pool of host threads
 * (one a core, less the core of the thread that drives the copies, on a host
 * of more than two). The host never holds a whole array: inputs are
 * generated chunk by chunk from their closed form, on the pool's threads
 * while the previous chunk uploads, and uploaded once, and every launch's
 * output is read back chunk by chunk and compared, on the pool's threads,
 * with the closed form of the expected result while the next chunk arrives
 * (gs_verify.c computes both in vector lanes, faster than a PCIe link
 * moves them, so that the copies, not the host, set the pace). The
 * comparison stays on the host and no kernel under test computes the
 * reference.
 * The table, the benchmark and the conformance tests all work in one. */
#ifndef GS_WORKSPACE_H
#define GS_WORKSPACE_H

#include "gs_backend.h"
#include "gs_progress.h"
#include "gs_verify.h"

struct gs_pool;
struct gs_verify_jobs;

/* What the workspace's bulk transfers took: the inputs' upload and every
 * chunked read-back, bytes and seconds inside the API's calls; and where
 * the rest of a run's time went, phase by phase (wall seconds of the
 * calling thread). */
struct gs_copy_rate {
    uint64_t up_bytes, down_bytes; /* host to device, device to host */
    double up_s, down_s;
    /* Seconds the transfers waited for the host's own work: the upload for
     * the inputs' generation (the first chunk, then the next chunk's where it
     * took longer than the upload before it), the read-back for the
     * previous chunk's comparison (and the last chunk's). Near 0: the host
     * keeps up with the API's copies. */
    double inputs_wait_s, verify_wait_s;
    double poison_s; /* the output poisoned (or counters set) and the fill proved */
    double launch_s; /* the launches, from the call to the device's completion */
};

struct gs_workspace {
    struct gs_device *dev;
    uint64_t n;                    /* the largest n it serves */
    struct gs_buf *da, *db, *dout; /* gs_buffer_bytes_of(n, type) bytes each */
    enum gs_type type;             /* of its elements: every launch in it has this type */
    unsigned elem;                 /* bytes of one element: 4 or 8 */
    void *stage[2];                /* staging areas of stage_elems elements */
    void *stage_handle[2];
    int stage_pinned[2];
    uint64_t stage_elems;
    struct gs_pool *pool;
    struct gs_verify_jobs *jobs;   /* the comparison's per-thread results */
    int filled_on_device;          /* poison by the API's fill (else uploaded) */
    uint64_t inputs_seed;          /* the inputs' seed (gs_inputs_set_seed) a and b hold */
    uint64_t inputs_n;             /* ... in their first inputs_n elements */
    struct gs_copy_rate copies;    /* measured on the way, never reset */
    /* Long host-side work (more than a few chunks) is told here as phases
     * (gs_progress.h) labelled with `label`; may be NULL. */
    const struct gs_progress *progress;
    char label[400];               /* what is running, for progress */
};

/* One line on the copy rates of c ("host to device 51.0 GB/s (17.2 GB), device
 * to host ..."), into buf; 0 (and buf empty) when less than min_bytes moved
 * in all, so that small runs say nothing. */
int gs_copy_rate_line(const struct gs_copy_rate *c, uint64_t min_bytes, char *buf, size_t size);

/* Bytes of one device buffer for n elements: the front guard, n and the
 * guard past them (GS_FRONT_ELEMS + n + GS_GUARD_ELEMS floats). */
uint64_t gs_buffer_bytes(uint64_t n);
/* The same for elements of `type`. */
uint64_t gs_buffer_bytes_of(uint64_t n, enum gs_type type);

/* Allocate the buffers for sizes up to n and upload the inputs. On failure
 * nothing is held. progress may be NULL. Elements are floats. */
int gs_workspace_open(struct gs_workspace *w, struct gs_device *dev, uint64_t n,
                      const struct gs_progress *progress, struct gs_err *e);
/* The same with elements of `type`; a double workspace needs a device
 * that runs the double build (gs_dev_has_f64), else GS_UNSUPPORTED says why. */
int gs_workspace_open_as(struct gs_workspace *w, struct gs_device *dev, uint64_t n,
                         enum gs_type type, const struct gs_progress *progress,
                         struct gs_err *e);
void gs_workspace_close(struct gs_workspace *w);

/* The inputs of `seed` (gs_inputs_set_seed) in a and b, for a launch over
 * n elements: set in this process, and the first n (and the guard) uploaded
 * again where the workspace holds another seed's there. */
int gs_workspace_reseed(struct gs_workspace *w, uint64_t seed, uint64_t n, struct gs_err *e);

/* Point l's buffers at the workspace's. */
void gs_workspace_bind(const struct gs_workspace *w, struct gs_launch *l);

/* Poison out[0, n) and the guard after it, and prove it by reading a sample
 * back (an API fill that silently did nothing would leave the last case's
 * correct results in place). */
int gs_workspace_poison(struct gs_workspace *w, uint64_t n, struct gs_err *e);
/* The same with GS_FINITE_POISON in out[0, n) (float workspaces): the
 * second run of gs_verify_accumulate. */
int gs_workspace_poison_finite(struct gs_workspace *w, uint64_t n, struct gs_err *e);
/* Read out back and compare all of l->n elements and the guard with the
 * closed form of l's operation. */
int gs_workspace_verify(struct gs_workspace *w, const struct gs_launch *l, struct gs_verdict *v,
                        struct gs_err *e);

/* One verified launch: poison, launch, read back, compare. l's buffers must
 * be the workspace's, l->n <= w->n and l->type the workspace's type. A
 * refused launch is a result in *got; errors are environment failures. */
int gs_checked_launch(struct gs_workspace *w, const struct gs_launch *l,
                      struct gs_launch_result *got, struct gs_verdict *v, struct gs_err *e);

/* The count build of launch l (kernels/gs_kernels.h), in a float
 * workspace (counters are 32-bit words): out's counters start
 * at GS_COUNT_BASE, the launch adds one per write, and every element's count
 * is compared with want(want_ctx, i). No comparison when the API refuses. */
int gs_checked_count(struct gs_workspace *w, const struct gs_launch *l, gs_count_fn want,
                     const void *want_ctx, struct gs_launch_result *got,
                     struct gs_count_verdict *cv, struct gs_err *e);

/* The trace build of launch l (kernels/gs_kernels.h), in a float workspace
 * opened for GS_TRACE_WORDS x l->n elements or more: every word of out starts at
 * GS_TRACE_EMPTY (proved like any poison), the launch records each element,
 * and the l->n records (GS_TRACE_WORDS words each) are read back into
 * `words`; *guard_hits counts the guard words past them that changed. No
 * read-back when the API refuses. */
int gs_checked_trace(struct gs_workspace *w, const struct gs_launch *l, uint32_t *words,
                     struct gs_launch_result *got, uint64_t *guard_hits, struct gs_err *e);

#endif
