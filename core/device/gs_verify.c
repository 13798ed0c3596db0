/* SPDX-License-Identifier: MIT */
#include "gs_verify.h"

#include <stdio.h>
#include <string.h>

static uint32_t bits_of(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static float float_of(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static uint64_t bits64_of(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}

/* Element i of an array of `size`-byte elements, as bits (a float's in the
 * low 32): through memcpy, so any buffer of bytes may be read. */
static uint64_t element_bits(const void *base, unsigned size, uint64_t i)
{
    if (size == 8) {
        uint64_t u;
        memcpy(&u, (const char *)base + 8 * i, sizeof u);
        return u;
    }
    uint32_t u;
    memcpy(&u, (const char *)base + 4 * i, sizeof u);
    return u;
}

#define GS_A_PERIOD 4194301u /* 2^22 - 3 */
#define GS_B_PERIOD 4194299u /* 2^22 - 5 */
#define GS_B_STEP 40503u

/* The inputs' counters at element i. */
static void residues_at(uint64_t i, uint32_t *ia, uint32_t *ib)
{
    *ia = (uint32_t)(i % GS_A_PERIOD);
    *ib = (uint32_t)((i % GS_B_PERIOD) * GS_B_STEP % GS_B_PERIOD);
}

/* Counters instead of a modulo per element: this also fills multi-GiB
 * buffers. */
#define GS_NEXT_RESIDUES(ia, ib)                                                               \
    do {                                                                                       \
        if (++(ia) == GS_A_PERIOD)                                                             \
            (ia) = 0;                                                                          \
        (ib) += GS_B_STEP;                                                                     \
        if ((ib) >= GS_B_PERIOD)                                                               \
            (ib) -= GS_B_PERIOD;                                                               \
    } while (0)

/* Elements first .. first + count - 1 of a and b (either may be NULL), in
 * type T: a[i] = 1 + ia, b[i] = 1 + 2 ib. */
#define GS_FILL_INPUTS(T, a, b, first, count)                                                  \
    do {                                                                                       \
        uint32_t ia, ib;                                                                       \
        residues_at(first, &ia, &ib);                                                          \
        for (uint64_t i = 0; i < (count); ++i) {                                               \
            if (a)                                                                             \
                (a)[i] = (T)(1u + ia);                                                         \
            if (b)                                                                             \
                (b)[i] = (T)(1u + 2u * ib);                                                    \
            GS_NEXT_RESIDUES(ia, ib);                                                          \
        }                                                                                      \
    } while (0)

void gs_fill_inputs_at(float *a, float *b, uint64_t first, uint64_t count)
{
    GS_FILL_INPUTS(float, a, b, first, count);
}

void gs_fill_inputs(float *a, float *b, uint64_t n)
{
    gs_fill_inputs_at(a, b, 0, n);
}

/* The same integers as doubles: exact. */
void gs_fill_inputs_f64_at(double *a, double *b, uint64_t first, uint64_t count)
{
    GS_FILL_INPUTS(double, a, b, first, count);
}

/* a + b is an integer below 2^24, so the fp32 sum the kernels compute equals
 * the integer sum converted once. */
static uint32_t expected_bits(enum gs_op op, uint32_t ia, uint32_t ib)
{
    return bits_of(op == GS_OP_COPY ? (float)(1u + ia) : (float)(2u + ia + 2u * ib));
}

/* The same integer sum in double, exact too (and far from 2^53). */
static uint64_t expected_bits64(enum gs_op op, uint32_t ia, uint32_t ib)
{
    return bits64_of(op == GS_OP_COPY ? (double)(1u + ia) : (double)(2u + ia + 2u * ib));
}

float gs_expected_at(enum gs_op op, uint64_t i)
{
    uint32_t ia, ib;
    residues_at(i, &ia, &ib);
    return float_of(expected_bits(op, ia, ib));
}

double gs_expected_f64_at(enum gs_op op, uint64_t i)
{
    uint32_t ia, ib;
    residues_at(i, &ia, &ib);
    double d;
    const uint64_t u = expected_bits64(op, ia, ib);
    memcpy(&d, &u, sizeof d);
    return d;
}

void gs_fill_expected(enum gs_op op, const float *a, const float *b, float *ref, uint64_t n)
{
    if (op == GS_OP_COPY) {
        memcpy(ref, a, n * sizeof *ref);
        return;
    }
    for (uint64_t i = 0; i < n; ++i)
        ref[i] = a[i] + b[i];
}

void gs_poison(float *out, uint64_t n)
{
    gs_poison_as(GS_TYPE_FLOAT, out, n);
}

void gs_poison_as(enum gs_type type, void *out, uint64_t n)
{
    const uint32_t poison = GS_POISON_BITS, guard = GS_GUARD_BITS;
    const uint64_t words = gs_type_size(type) / 4;
    char *p = out;
    for (uint64_t w = 0; w < (n + GS_GUARD_ELEMS) * words; ++w)
        memcpy(p + 4 * w, w < n * words ? &poison : &guard, 4);
}

/* The grid-stride slot that touches element i in the lane-strided copy:
 * the inverse of the remap in gs_copy_lane_strided. */
static uint64_t strided_slot(uint64_t i, uint64_t n, uint64_t stride)
{
    const uint64_t span = 32 * stride;
    if (stride == 0 || i >= n - n % span)
        return i;
    const uint64_t r = i % span;
    return (i - r) + (r % stride) * 32 + r / stride;
}

/* Stores thread t makes in a vector loop over nv vectors, T threads. */
static uint64_t vector_stores(uint64_t t, uint64_t nv, uint64_t T)
{
    return t < nv ? (nv - 1 - t) / T + 1 : 0;
}

/* Elements per store of the vector kernels (a grid-stride loop over
 * vectors, then a scalar tail); 1 for every other kernel. */
static unsigned vector_width(enum gs_kernel_id k)
{
    switch (k) {
    case GS_K_ADD_GS_F2:
        return 2;
    case GS_K_ADD_GS_F4:
    case GS_K_COPY_GS_F4:
        return 4;
    default:
        return 1;
    }
}

/* The warp-contiguous x4 kernels on T threads, T a multiple of 32: element
 * i is lane i % 32 of group (tile mod T / 32), line (i / 32) % 4 of its tile
 * of 128, on the group's trip tile / (T / 32). */
static int owner_warp_x4(const struct gs_launch *l, uint64_t i, uint64_t *thread, uint64_t *pass)
{
    const uint64_t T = l->global;
    if ((l->kernel != GS_K_ADD_WARP_X4 && l->kernel != GS_K_COPY_WARP_X4) || T == 0 || T % 32)
        return 0;
    const uint64_t tile = i / 128, groups = T / 32;
    *thread = tile % groups * 32 + i % 32;
    *pass = tile / groups * 4 + i % 128 / 32;
    return 1;
}

/* The owners of the kernels whose thread is not the grid-stride slot's. */
static int owner_by_block(const struct gs_kernel_info *k, const struct gs_launch *l, uint64_t i,
                          struct gs_owner *o)
{
    const uint64_t B = l->block ? l->block : 1;
    if (k->rule == GS_RULE_TILE && l->param) {
        /* block i / tile, then a block-stride walk of its tile */
        const uint64_t in_tile = i % l->param;
        o->launched = i / l->param < l->grid;
        o->block = i / l->param;
        o->thread = in_tile % B;
        o->pass = in_tile / B;
        o->writer = o->block * B + o->thread;
    } else if (k->rule == GS_RULE_ROWS && l->param) {
        const uint64_t c = i % l->param;
        o->launched = i / l->param < (l->grid_y ? l->grid_y : 1);
        o->block = i / l->param; /* blockIdx.y */
        o->thread = c % B;
        o->pass = c / B;
        o->writer = o->block * l->global + o->thread; /* blockIdx.x is 0 */
    } else if (k->rule == GS_RULE_BLOCK_STRIDE) {
        /* its first writer: block 0 walks every element */
        o->launched = l->grid > 0;
        o->thread = i % B;
        o->pass = i / B;
        o->writer = o->thread;
    } else {
        return 0;
    }
    o->store = o->pass;
    return 1;
}

void gs_owner_of(const struct gs_launch *l, uint64_t i, struct gs_owner *o)
{
    const struct gs_kernel_info *k = gs_kernel_info(l->kernel);
    const uint64_t T = l->global;
    const uint64_t B = l->block ? l->block : 1;
    uint64_t thread = i, pass = 0, before = 0;

    *o = (struct gs_owner){0};
    if (k && owner_by_block(k, l, i, o))
        return;
    if (k && (k->rule == GS_RULE_COVER || k->rule == GS_RULE_INDEX32)) {
        thread = i;
    } else if (k && k->param == GS_PARAM_CHUNK) {
        const uint64_t C = l->param ? l->param : 1;
        thread = i / C;
        pass = i % C;
    } else if (owner_warp_x4(l, i, &thread, &pass)) {
        /* set */
    } else if (T > 0) {
        uint64_t slot = i;
        const unsigned w = vector_width(l->kernel);
        if (w > 1) {
            const uint64_t body = l->n - l->n % w;
            slot = i < body ? i / w : i - body; /* vector index, or the scalar tail's */
            if (i >= body)
                before = vector_stores(slot % T, l->n / w, T);
        } else if (k && k->param == GS_PARAM_STRIDE) {
            slot = strided_slot(i, l->n, l->param);
        }
        thread = slot % T;
        pass = slot / T;
    }
    o->launched = thread < T;
    o->block = thread / B;
    o->thread = thread % B;
    o->pass = pass;
    o->writer = thread;
    o->store = before + pass;
}

static void note_wrong(struct gs_vpart *p, uint64_t i, uint64_t got, uint64_t want,
                       int unwritten)
{
    if (p->wrong++ == 0)
        p->first_wrong = i;
    p->unwritten += unwritten;
    if (p->listed < GS_LISTED) {
        struct gs_wrong *w = &p->list[p->listed++];
        w->index = i;
        w->unwritten = unwritten;
        w->got_bits = got;
        w->want_bits = want;
    }
}

/* Elements per block of the float comparison's fast pass. */
#define GS_VERIFY_BLOCK 4096u

void gs_verify_span(const float *out, const float *ref, enum gs_op op, uint64_t first,
                    uint64_t count, struct gs_vpart *p)
{
    gs_verify_span_as(GS_TYPE_FLOAT, out, ref, op, first, count, p);
}

void gs_verify_span_as(enum gs_type type, const void *out, const void *ref, enum gs_op op,
                       uint64_t first, uint64_t count, struct gs_vpart *p)
{
    const unsigned size = gs_type_size(type);
    const uint64_t poison = size == 8 ? GS_POISON_BITS64 : GS_POISON_BITS;
    *p = (struct gs_vpart){0};
    if (ref) {
        for (uint64_t i = 0; i < count; ++i) {
            const uint64_t got = element_bits(out, size, i), want = element_bits(ref, size, i);
            if (got != want)
                note_wrong(p, first + i, got, want, got == poison);
        }
        return;
    }
    /* The hot loop of a multi-GiB verification: two counters and one
     * int-to-float conversion per element, in a loop of its own per type. */
    uint32_t ia, ib;
    residues_at(first, &ia, &ib);
    if (size == 8) {
        const char *o = out;
        for (uint64_t i = 0; i < count; ++i) {
            uint64_t got;
            memcpy(&got, o + 8 * i, sizeof got);
            const uint64_t want = expected_bits64(op, ia, ib);
            if (got != want)
                note_wrong(p, first + i, got, want, got == poison);
            GS_NEXT_RESIDUES(ia, ib);
        }
        return;
    }
    /* Floats, a block at a time: a fast pass that only learns whether the
     * block holds a wrong element, then, only for such a block, the pass
     * above that notes each one (the same elements, in the same order). The
     * fast pass walks the block's four quarters at once: four independent
     * chains of counters instead of one, which the core overlaps (the
     * counters' add-compare-subtract, not the loads, bounds the loop). */
    const char *o = out;
    int wrong_before = 0; /* the last block held a wrong element: wrong ones come in runs
                             (a short grid's tail), so go straight to the noting pass */
    for (uint64_t base = 0; base < count; base += GS_VERIFY_BLOCK) {
        const uint64_t len = count - base < GS_VERIFY_BLOCK ? count - base : GS_VERIFY_BLOCK;
        uint32_t differ = 0;
        if (len == GS_VERIFY_BLOCK && !wrong_before) {
            const uint64_t q = GS_VERIFY_BLOCK / 4;
            uint32_t a0 = ia, b0 = ib, a1, b1, a2, b2, a3, b3;
            residues_at(first + base + q, &a1, &b1);
            residues_at(first + base + 2 * q, &a2, &b2);
            residues_at(first + base + 3 * q, &a3, &b3);
            const char *o0 = o + 4 * base;
            for (uint64_t k = 0; k < q; ++k) {
                uint32_t g0, g1, g2, g3;
                memcpy(&g0, o0 + 4 * k, sizeof g0);
                memcpy(&g1, o0 + 4 * (q + k), sizeof g1);
                memcpy(&g2, o0 + 4 * (2 * q + k), sizeof g2);
                memcpy(&g3, o0 + 4 * (3 * q + k), sizeof g3);
                differ |= (g0 ^ expected_bits(op, a0, b0)) | (g1 ^ expected_bits(op, a1, b1)) |
                          (g2 ^ expected_bits(op, a2, b2)) | (g3 ^ expected_bits(op, a3, b3));
                GS_NEXT_RESIDUES(a0, b0);
                GS_NEXT_RESIDUES(a1, b1);
                GS_NEXT_RESIDUES(a2, b2);
                GS_NEXT_RESIDUES(a3, b3);
            }
        } else {
            differ = 1; /* the short last block, or after a wrong one: noting pass alone */
        }
        if (differ) {
            const uint64_t wrong0 = p->wrong;
            for (uint64_t i = base; i < base + len; ++i) {
                uint32_t got;
                memcpy(&got, o + 4 * i, sizeof got);
                const uint32_t want = expected_bits(op, ia, ib);
                if (got != want)
                    note_wrong(p, first + i, got, want, got == poison);
                GS_NEXT_RESIDUES(ia, ib);
            }
            wrong_before = p->wrong != wrong0;
        } else {
            residues_at(first + base + len, &ia, &ib);
        }
    }
}

void gs_verify_begin(const struct gs_launch *l, struct gs_verdict *v)
{
    *v = (struct gs_verdict){0};
    v->n = l->n;
    v->threads = l->global;
}

void gs_verify_merge(const struct gs_launch *l, const struct gs_vpart *p, struct gs_verdict *v)
{
    if (p->wrong == 0)
        return;
    if (v->wrong == 0)
        v->first_wrong = p->first_wrong;
    v->wrong += p->wrong;
    v->unwritten += p->unwritten;
    for (int k = 0; k < p->listed && v->listed < GS_LISTED; ++k) {
        struct gs_wrong *w = &v->list[v->listed++];
        *w = p->list[k];
        gs_owner_of(l, w->index, &w->owner);
    }
}

void gs_verify_end(const struct gs_launch *l, const void *guard, struct gs_verdict *v)
{
    const uint64_t n = l->n, value_wrong = v->wrong - v->unwritten;
    const unsigned size = gs_type_size(l->type);
    const uint64_t want = size == 8 ? GS_GUARD_BITS64 : GS_GUARD_BITS;
    for (uint64_t g = 0; g < GS_GUARD_ELEMS; ++g) {
        if (element_bits(guard, size, g) != want) {
            if (v->guard_hits++ == 0)
                v->first_guard = g;
        }
    }
    if (v->unwritten > 0) {
        /* Nothing but a tail is missing: from T on, seed 002's "short grid";
         * from 2^32 or 2^31, an index that cannot count that far. */
        const int tail = value_wrong == 0 && v->unwritten == n - v->first_wrong;
        if (tail && v->first_wrong == l->global)
            v->diag |= GS_DIAG_SHORT_GRID;
        else if (tail && v->first_wrong == (1ull << 32))
            v->diag |= GS_DIAG_INDEX_WRAP;
        else if (tail && v->first_wrong == (1ull << 31))
            v->diag |= GS_DIAG_INT_WRAP;
        else
            v->diag |= tail && v->first_wrong > 0 ? GS_DIAG_TAIL : GS_DIAG_HOLES;
    }
    if (value_wrong > 0)
        v->diag |= GS_DIAG_WRONG_VALUES;
    if (v->guard_hits > 0)
        v->diag |= GS_DIAG_PAST_END;
}

void gs_verify(const void *out, const void *ref, const struct gs_launch *l,
               struct gs_verdict *v)
{
    struct gs_vpart part;
    const struct gs_kernel_info *k = gs_kernel_info(l->kernel);
    gs_verify_begin(l, v);
    gs_verify_span_as(l->type, out, ref, k ? k->op : GS_OP_ADD, 0, l->n, &part);
    gs_verify_merge(l, &part, v);
    gs_verify_end(l, (const char *)out + l->n * gs_type_size(l->type), v);
}

void gs_count_begin(uint64_t n, struct gs_count_verdict *v)
{
    *v = (struct gs_count_verdict){0};
    v->n = n;
}

void gs_count_span(const uint32_t *counters, uint64_t first, uint64_t count, gs_count_fn want,
                   const void *ctx, struct gs_count_verdict *p)
{
    *p = (struct gs_count_verdict){0};
    for (uint64_t k = 0; k < count; ++k) {
        const uint64_t i = first + k;
        const uint64_t got = (uint32_t)(counters[k] - GS_COUNT_BASE), expect = want(ctx, i);
        p->total += got;
        p->predicted_total += expect;
        if (got > p->max)
            p->max = got;
        if (expect > p->predicted_max)
            p->predicted_max = expect;
        if (got == expect)
            continue;
        if (p->mismatched++ == 0)
            p->first_mismatch = i;
        if (p->listed < GS_LISTED)
            p->list[p->listed++] = (struct gs_count_wrong){i, got, expect};
    }
}

void gs_count_merge(const struct gs_count_verdict *p, struct gs_count_verdict *v)
{
    if (p->mismatched && v->mismatched == 0)
        v->first_mismatch = p->first_mismatch;
    v->mismatched += p->mismatched;
    v->total += p->total;
    v->predicted_total += p->predicted_total;
    if (p->max > v->max)
        v->max = p->max;
    if (p->predicted_max > v->predicted_max)
        v->predicted_max = p->predicted_max;
    for (int k = 0; k < p->listed && v->listed < GS_LISTED; ++k)
        v->list[v->listed++] = p->list[k];
}

void gs_count_end(const float *guard, struct gs_count_verdict *v)
{
    for (uint64_t g = 0; g < GS_GUARD_ELEMS; ++g)
        v->guard_hits += bits_of(guard[g]) != GS_GUARD_BITS;
}

static void append(char *buf, unsigned size, const char *text)
{
    size_t len = strlen(buf);
    if (len && len + 2 < size)
        strcat(buf, "; "), len += 2;
    if (len < size)
        snprintf(buf + len, size - len, "%s", text);
}

void gs_diagnosis(const struct gs_verdict *v, char *buf, unsigned size)
{
    char part[256];
    if (!size)
        return;
    buf[0] = '\0';
    if (v->diag == 0) {
        snprintf(buf, size, "ok");
        return;
    }
    if (v->diag & GS_DIAG_SHORT_GRID) {
        snprintf(part, sizeof part,
                 "short grid: every wrong index is >= T = %llu; the launch processed the first "
                 "%llu elements only (use a grid-stride loop, or more blocks)",
                 (unsigned long long)v->threads, (unsigned long long)v->threads);
        append(buf, size, part);
    }
    if (v->diag & GS_DIAG_INDEX_WRAP) {
        append(buf, size, "index wrap: every wrong index is >= 2^32 = 4294967296; a 32-bit index "
                          "cannot reach them, and the threads past 2^32 wrote the front again "
                          "(widen the index: (size_t)blockIdx.x * blockDim.x)");
    }
    if (v->diag & GS_DIAG_INT_WRAP) {
        append(buf, size, "int wrap: every wrong index is >= 2^31 = 2147483648; an int index "
                          "wraps negative there and the loop ends (use a 64-bit index and "
                          "stride)");
    }
    if (v->diag & GS_DIAG_TAIL) {
        snprintf(part, sizeof part,
                 "unwritten tail: every wrong index is >= %llu; the launch wrote the first "
                 "%llu elements only",
                 (unsigned long long)v->first_wrong, (unsigned long long)v->first_wrong);
        append(buf, size, part);
    }
    if (v->diag & GS_DIAG_HOLES) {
        snprintf(part, sizeof part, "holes: %llu elements never written",
                 (unsigned long long)v->unwritten);
        append(buf, size, part);
    }
    if (v->diag & GS_DIAG_WRONG_VALUES) {
        snprintf(part, sizeof part, "wrong values: %llu elements written with the wrong value",
                 (unsigned long long)(v->wrong - v->unwritten));
        append(buf, size, part);
    }
    if (v->diag & GS_DIAG_PAST_END) {
        snprintf(part, sizeof part,
                 "wrote past the end: %llu guard elements overwritten, the first at n + %llu",
                 (unsigned long long)v->guard_hits, (unsigned long long)v->first_guard);
        append(buf, size, part);
    }
}
