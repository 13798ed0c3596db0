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

/* check's read-back of one launch (gs_worker.h): out[0, n), the guard past
 * it (GS_GUARD_ELEMS), then the guard that stood before out[0]
 * (GS_FRONT_ELEMS): gs_buffer_bytes(n) bytes of floats in all. The first
 * poisons all three (the front with the guard's bits), the second verifies
 * all three. */
void gs_poison_readback(struct gs_pool *pool, float *out, uint64_t n);
void gs_verify_readback(struct gs_pool *pool, const float *out, const struct gs_launch *l,
                        struct gs_verdict *v);
static inline float *gs_readback_front(void *out, uint64_t n)
{
    return (float *)out + n + GS_GUARD_ELEMS;
}
static inline uint64_t gs_readback_view_bytes(uint64_t n)
{
    return (n + GS_GUARD_ELEMS) * sizeof(float);
}

#endif
