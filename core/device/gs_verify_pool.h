/* SPDX-License-Identifier: MIT */
/* A whole output in this process's memory, poisoned and verified on every
 * core (gs_parallel): the same results as gs_poison and gs_verify, which do
 * it on one thread. check's parent uses it for the speed pass's outputs of
 * 1 GiB, which one thread takes a second to poison and verify. */
#ifndef GS_VERIFY_POOL_H
#define GS_VERIFY_POOL_H

#include "gs_parallel.h"
#include "gs_verify.h"

/* out[0, n) = the poison, the guard after it, as gs_poison: floats only (the
 * check's outputs); gs_poison_as poisons other types. */
void gs_poison_pool(struct gs_pool *pool, float *out, uint64_t n);
/* The verdict of gs_verify(out, NULL, l, v): the closed form, of l->type. */
void gs_verify_pool(struct gs_pool *pool, const void *out, const struct gs_launch *l,
                    struct gs_verdict *v);

#endif
