/* SPDX-License-Identifier: MIT */
#include "verdict_oracle.h"

#include <stdio.h>
#include <string.h>

#include "gs_check.h"
#include "gs_device.h"
#include "gs_verify.h"

#define MAX_N 12000u /* past gs_verify's 4096-element blocks, so its lanes run too */
#define CANON_NAN 0x7FFFFFFFu  /* a GPU's NaN of an operation on a NaN */
#define NEG_NAN 0xFFC00000u    /* x86's default NaN */

static uint64_t next(uint64_t *s) /* splitmix64 */
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static uint64_t below(uint64_t *s, uint64_t n)
{
    return n ? next(s) % n : 0;
}

static uint32_t bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static void put(float *p, uint32_t u)
{
    memcpy(p, &u, sizeof u);
}

/* front[FRONT] | out[n] | guard[GUARD], and the second run's out */
static float mem[GS_FRONT_ELEMS + MAX_N + GS_GUARD_ELEMS], again[MAX_N];
static float a[MAX_N], b[MAX_N], want[MAX_N];

enum { D_PREFIX, D_TAIL, D_TAIL_AT_T, D_HOLES, D_STRIDE, D_VALUE, D_NAN, D_BACK, D_FRONT,
       D_ACCUMULATE, D_KINDS };

struct scene {
    uint64_t n, grid, block, T;
    int accumulate; /* the second run exists */
};

static void damage(uint64_t *s, const struct scene *sc, float *out, int kind)
{
    const uint64_t n = sc->n;
    switch (kind) {
    case D_PREFIX:
        for (uint64_t i = 0, k = below(s, n + 1); i < k; ++i)
            put(&out[i], GS_POISON_BITS);
        break;
    case D_TAIL:
        for (uint64_t i = below(s, n + 1); i < n; ++i)
            put(&out[i], GS_POISON_BITS);
        break;
    case D_TAIL_AT_T:
        for (uint64_t i = sc->T; i < n; ++i)
            put(&out[i], GS_POISON_BITS);
        break;
    case D_HOLES:
        for (uint64_t k = below(s, 6) + 1; n && k > 0; --k)
            put(&out[below(s, n)], GS_POISON_BITS);
        break;
    case D_STRIDE: {
        const uint64_t step = below(s, 64) + 2, from = below(s, step);
        for (uint64_t i = from; i < n; i += step)
            put(&out[i], GS_POISON_BITS);
        break;
    }
    case D_VALUE:
        for (uint64_t k = below(s, 3) + 1; n && k > 0; --k) {
            const uint64_t i = below(s, n);
            const uint32_t how = (uint32_t)below(s, 3);
            put(&out[i], how == 0 ? bits(want[i]) + 1u /* one ulp */
                         : how == 1 ? bits(0.0f)
                                    : bits(want[i] * 2.0f));
        }
        break;
    case D_NAN:
        for (uint64_t k = below(s, 3) + 1; n && k > 0; --k)
            put(&out[below(s, n)], below(s, 2) ? CANON_NAN : NEG_NAN);
        break;
    case D_BACK:
        put(&out[n + below(s, GS_GUARD_ELEMS)], bits(1.0f));
        break;
    case D_FRONT:
        put(&out[-1 - (int64_t)below(s, GS_FRONT_ELEMS)], bits(1.0f));
        break;
    default:
        break;
    }
}

/* The oracle's class: a plain loop over the elements and the guards. */
struct oracle {
    enum gs_check_class cls;
    uint64_t wrong, unwritten, first, front_hits, back_hits, accumulated;
};

static void oracle_of(const struct scene *sc, const float *out, const float *second,
                      struct oracle *o)
{
    const uint64_t n = sc->n;
    memset(o, 0, sizeof *o);
    for (uint64_t g = 0; g < GS_FRONT_ELEMS; ++g)
        o->front_hits += bits(out[-1 - (int64_t)g]) != GS_GUARD_BITS;
    for (uint64_t g = 0; g < GS_GUARD_ELEMS; ++g)
        o->back_hits += bits(out[n + g]) != GS_GUARD_BITS;
    uint64_t last_written = 0; /* 1 + the last index not unwritten */
    for (uint64_t i = 0; i < n; ++i) {
        const uint32_t got = bits(out[i]);
        if (got != GS_POISON_BITS)
            last_written = i + 1;
        if (got == bits(want[i]))
            continue;
        if (o->wrong++ == 0)
            o->first = i;
        o->unwritten += got == GS_POISON_BITS;
        if (second && bits(second[i]) == bits(GS_FINITE_POISON + want[i]))
            ++o->accumulated;
    }
    const int tail = o->wrong > 0 && o->wrong == o->unwritten && last_written <= o->first;
    if (o->front_hits)
        o->cls = GS_CHECK_BEFORE_START;
    else if (o->back_hits)
        o->cls = GS_CHECK_PAST_END;
    else if (o->accumulated)
        o->cls = GS_CHECK_ACCUMULATES;
    else if (o->wrong > o->unwritten)
        o->cls = GS_CHECK_WRONG_VALUE;
    else if (tail && o->first == sc->T)
        o->cls = GS_CHECK_SHORT_GRID;
    else if (tail && o->first > 0)
        o->cls = GS_CHECK_UNWRITTEN_TAIL;
    else if (o->wrong)
        o->cls = GS_CHECK_UNWRITTEN;
    else
        o->cls = GS_CHECK_OK;
}

int gs_oracle_case(uint64_t seed, char *why, size_t why_size)
{
    uint64_t s = seed;
    struct scene sc;
    const uint64_t size_kind = below(&s, 8);
    sc.n = size_kind < 5 ? below(&s, 700) : size_kind < 7 ? below(&s, 5000) : below(&s, MAX_N + 1);
    sc.block = (uint64_t)1 << below(&s, 9); /* 1 .. 256 */
    sc.grid = below(&s, 40) + 1;
    sc.T = sc.grid * sc.block;
    sc.accumulate = 0;
    float *out = mem + GS_FRONT_ELEMS;
    gs_fill_inputs(a, b, sc.n);
    for (uint64_t i = 0; i < sc.n; ++i)
        want[i] = a[i] + b[i];
    for (uint64_t g = 0; g < GS_FRONT_ELEMS; ++g)
        put(&mem[g], GS_GUARD_BITS);
    memcpy(out, want, sc.n * sizeof *out);
    for (uint64_t g = 0; g < GS_GUARD_ELEMS; ++g)
        put(&out[sc.n + g], GS_GUARD_BITS);
    memcpy(again, want, sc.n * sizeof *again);

    const int kinds = below(&s, 4) == 0 ? 0 : (int)below(&s, 3) + 1; /* a quarter right */
    for (int k = 0; k < kinds; ++k) {
        const int kind = (int)below(&s, D_KINDS);
        if (kind != D_ACCUMULATE) {
            damage(&s, &sc, out, kind);
            continue;
        }
        /* `+=` on some elements: NaN + x in the first run (the poison's bits
         * on a CPU, a canonical NaN on a GPU), poison + x in the second. */
        sc.accumulate = 1;
        const uint64_t from = below(&s, sc.n + 1), to = from + below(&s, sc.n - from + 1);
        const uint32_t nan = below(&s, 2) ? GS_POISON_BITS : CANON_NAN;
        for (uint64_t i = from; i < to; ++i) {
            put(&out[i], nan);
            again[i] = GS_FINITE_POISON + want[i];
        }
    }
    /* The second run sees the first's other damage too, on its own poison. */
    for (uint64_t i = 0; sc.accumulate && i < sc.n; ++i) {
        if (bits(again[i]) == bits(want[i]) && bits(out[i]) == GS_POISON_BITS)
            put(&again[i], GS_FINITE_POISON_BITS);
    }

    struct oracle o;
    oracle_of(&sc, out, sc.accumulate ? again : NULL, &o);

    struct gs_launch l = gs_launch_1d(GS_K_ADD_GS, sc.n, sc.grid, sc.block);
    l.global = sc.T;
    struct gs_verdict v;
    const struct gs_launch_result got = {.accepted = 1};
    gs_verify(out, NULL, &l, &v);
    gs_verify_front(&l, mem, &v);
    enum gs_check_class cls = gs_check_classify(&got, &v);
    if (cls != GS_CHECK_OK && sc.accumulate)
        gs_verify_accumulate(&l, again, &v);
    cls = gs_check_classify(&got, &v);

    const int differs = o.wrong || o.front_hits || o.back_hits;
    const char *bad = NULL;
    if (differs && cls == GS_CHECK_OK)
        bad = "ok for an output with a wrong element or a guard hit";
    else if (cls != o.cls)
        bad = "another class";
    else if (v.wrong != o.wrong || v.unwritten != o.unwritten)
        bad = "other counts";
    else if (o.wrong && v.first_wrong != o.first)
        bad = "another first wrong index";
    else if (v.front_hits != o.front_hits || v.guard_hits != o.back_hits)
        bad = "other guard counts";
    if (!bad)
        return 0;
    snprintf(why, why_size,
             "seed %llu: %s: n %llu <<<%llu, %llu>>>: gridstride %s (wrong %llu, unwritten %llu, "
             "first %llu, front %llu, back %llu, diag 0x%x), oracle %s (wrong %llu, unwritten "
             "%llu, first %llu, front %llu, back %llu, accumulated %llu)",
             (unsigned long long)seed, bad, (unsigned long long)sc.n,
             (unsigned long long)sc.grid, (unsigned long long)sc.block,
             gs_check_class_name(cls), (unsigned long long)v.wrong,
             (unsigned long long)v.unwritten, (unsigned long long)v.first_wrong,
             (unsigned long long)v.front_hits, (unsigned long long)v.guard_hits, v.diag,
             gs_check_class_name(o.cls), (unsigned long long)o.wrong,
             (unsigned long long)o.unwritten, (unsigned long long)o.first,
             (unsigned long long)o.front_hits, (unsigned long long)o.back_hits,
             (unsigned long long)o.accumulated);
    return 1;
}
