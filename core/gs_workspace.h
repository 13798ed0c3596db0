/* The buffers of a run, on the host and on the device: inputs a and b
 * (filled once, written to the device once), the host's reference results
 * and a host copy of the output for verification. The table, the benchmark
 * and the conformance tests all work in one. */
#ifndef GS_WORKSPACE_H
#define GS_WORKSPACE_H

#include "gs_backend.h"

struct gs_workspace {
    struct gs_device *dev;
    uint64_t n;        /* the largest n it serves */
    float *a, *b;      /* inputs, n + GS_GUARD_ELEMS elements */
    float *sum;        /* a + b, the reference of GS_OP_ADD */
    float *out;        /* where results are read back */
    struct gs_buf *da, *db, *dout; /* each gs_table_buffer_bytes(n) */
};

/* Allocate and fill everything for sizes up to n. On failure nothing is held. */
int gs_workspace_open(struct gs_workspace *w, struct gs_device *dev, uint64_t n,
                      struct gs_err *e);
void gs_workspace_close(struct gs_workspace *w);

/* Point l's buffers at the workspace's. */
void gs_workspace_bind(const struct gs_workspace *w, struct gs_launch *l);
/* The reference result for the kernel's operation: a + b, or a for a copy. */
const float *gs_workspace_ref(const struct gs_workspace *w, enum gs_kernel_id k);

#endif
