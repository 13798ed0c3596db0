/* SPDX-License-Identifier: MIT */
/* A small pool of worker threads for the host-side work that scales with n:
 * generating inputs and comparing every element with the reference. One job
 * at a time, split into parts that the workers take in turn; the caller can
 * start a job and go on (read the next chunk) before it waits for it. */
#ifndef GS_PARALLEL_H
#define GS_PARALLEL_H

#include "gs_status.h"

struct gs_pool;

typedef void (*gs_part_fn)(void *ctx, unsigned part);

/* threads == 0: one per processor online (at most 64). */
int gs_pool_open(struct gs_pool **pool, unsigned threads, struct gs_err *e);
void gs_pool_close(struct gs_pool *pool);
unsigned gs_pool_threads(const struct gs_pool *pool);

/* Run fn(ctx, part) for every part in [0, parts) on the workers, and return
 * at once; the previous job must have been waited for. */
void gs_pool_start(struct gs_pool *pool, gs_part_fn fn, void *ctx, unsigned parts);
/* Block until every part of the started job is done (no-op when none). */
void gs_pool_wait(struct gs_pool *pool);
/* gs_pool_start then gs_pool_wait. */
void gs_pool_run(struct gs_pool *pool, gs_part_fn fn, void *ctx, unsigned parts);

#endif
