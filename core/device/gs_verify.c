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

/* The seed's offsets, each below its counter's period, so that i + offset
 * never wraps and the counters step on from any element as from 0. */
static uint64_t inputs_seed;
static uint32_t shift_a, shift_b;

void gs_inputs_set_seed(uint64_t seed)
{
    inputs_seed = seed;
    shift_a = (uint32_t)(seed % GS_A_PERIOD);
    shift_b = (uint32_t)(seed / GS_A_PERIOD % GS_B_PERIOD);
}

uint64_t gs_inputs_seed(void)
{
    return inputs_seed;
}

/* The inputs' counters at element i. */
static void residues_at(uint64_t i, uint32_t *ia, uint32_t *ib)
{
    *ia = (uint32_t)((i % GS_A_PERIOD + shift_a) % GS_A_PERIOD);
    *ib = (uint32_t)((i % GS_B_PERIOD + shift_b) % GS_B_PERIOD * GS_B_STEP % GS_B_PERIOD);
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

/* The bulk loops (inputs, the closed-form comparison) run GS_LANES elements
 * side by side in vectors (GCC's and Clang's vector extension: GS_VEC lanes
 * of 32 bits, what an x86-64 core's SSE2 or an AArch64 core's NEON computes
 * in one instruction): lane j holds the counters of element first + j and
 * steps GS_LANES elements at a time, so that every lane does the same
 * add-compare-subtract, GS_NVEC vectors of them in independent chains, and
 * no element depends on the one before it. Stepping i by GS_LANES adds
 * GS_LANES to ia and GS_LANES x GS_B_STEP mod GS_B_PERIOD to ib; both steps
 * are below their period, so one conditional subtraction keeps each counter
 * in range. The counters stay below 2^23: signed 32-bit lanes hold them, and
 * 1 + ia + 1 + 2 ib < 2^24 converts to float or double exactly. */
typedef int32_t gs_v4i __attribute__((vector_size(16)));
typedef uint32_t gs_v4u __attribute__((vector_size(16)));
typedef float gs_v4f __attribute__((vector_size(16)));
typedef int64_t gs_v4l __attribute__((vector_size(32)));
typedef uint64_t gs_v4q __attribute__((vector_size(32)));
typedef double gs_v4d __attribute__((vector_size(32)));
#define GS_VEC 4u                    /* lanes a vector */
#define GS_NVEC 4u                   /* vectors a row */
#define GS_LANES (GS_VEC * GS_NVEC) /* elements a row */
#define GS_LANE_STEP_A ((int32_t)GS_LANES)
#define GS_LANE_STEP_B ((int32_t)((uint64_t)GS_LANES * GS_B_STEP % GS_B_PERIOD))

/* Vector v's lane l is element first + GS_VEC x v + l of the row. */
struct lanes {
    gs_v4i a[GS_NVEC], b[GS_NVEC];
};

static void lanes_at(uint64_t first, struct lanes *s)
{
    int32_t a[GS_LANES], b[GS_LANES];
    for (unsigned j = 0; j < GS_LANES; ++j) {
        uint32_t ia, ib;
        residues_at(first + j, &ia, &ib);
        a[j] = (int32_t)ia;
        b[j] = (int32_t)ib;
    }
    memcpy(s->a, a, sizeof a);
    memcpy(s->b, b, sizeof b);
}

/* Counters c one row on: + step, less period where that reached it. */
static gs_v4i lane_step(gs_v4i c, int32_t step, int32_t period)
{
    c += step;
    return c - ((c >= period) & period);
}

static gs_v4i step_a(gs_v4i c)
{
    return lane_step(c, GS_LANE_STEP_A, (int32_t)GS_A_PERIOD);
}

static gs_v4i step_b(gs_v4i c)
{
    return lane_step(c, GS_LANE_STEP_B, (int32_t)GS_B_PERIOD);
}

/* dst[0, rows) (rows a multiple of GS_LANES) = 1 + mul x c in type T (its
 * vector V), c one input's counters from c0, stepped by step. */
#define GS_FILL_LANES(T, V, dst, rows, c0, mul, step)                                          \
    do {                                                                                       \
        gs_v4i c[GS_NVEC];                                                                     \
        memcpy(c, (c0), sizeof c);                                                             \
        for (uint64_t k = 0; k < (rows); k += GS_LANES)                                        \
            for (unsigned v = 0; v < GS_NVEC; ++v) {                                           \
                const V x = __builtin_convertvector(1 + (mul) * c[v], V);                      \
                memcpy((dst) + k + GS_VEC * v, &x, sizeof x);                                  \
                c[v] = step(c[v]);                                                             \
            }                                                                                  \
    } while (0)

/* Elements first .. first + count - 1 of a and b (either may be NULL), in
 * type T (its vector V): a[i] = 1 + ia, b[i] = 1 + 2 ib; each in lanes
 * while a whole row of them fits, then one element at a time. */
#define GS_FILL_INPUTS(T, V, a, b, first, count)                                               \
    do {                                                                                       \
        const uint64_t rows = (count) / GS_LANES * GS_LANES;                                   \
        if (rows) {                                                                            \
            struct lanes s;                                                                    \
            lanes_at(first, &s);                                                               \
            if (a)                                                                             \
                GS_FILL_LANES(T, V, a, rows, s.a, 1, step_a);                                  \
            if (b)                                                                             \
                GS_FILL_LANES(T, V, b, rows, s.b, 2, step_b);                                  \
        }                                                                                      \
        uint32_t ia, ib;                                                                       \
        residues_at((first) + rows, &ia, &ib);                                                 \
        for (uint64_t i = rows; i < (count); ++i) {                                            \
            if (a)                                                                             \
                (a)[i] = (T)(1u + ia);                                                         \
            if (b)                                                                             \
                (b)[i] = (T)(1u + 2u * ib);                                                    \
            GS_NEXT_RESIDUES(ia, ib);                                                          \
        }                                                                                      \
    } while (0)

void gs_fill_inputs_at(float *a, float *b, uint64_t first, uint64_t count)
{
    GS_FILL_INPUTS(float, gs_v4f, a, b, first, count);
}

void gs_fill_inputs(float *a, float *b, uint64_t n)
{
    gs_fill_inputs_at(a, b, 0, n);
}

/* The same integers as doubles: exact. */
void gs_fill_inputs_f64_at(double *a, double *b, uint64_t first, uint64_t count)
{
    GS_FILL_INPUTS(double, gs_v4d, a, b, first, count);
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

/* Elements per block of the comparison's fast pass: a multiple of
 * GS_LANES, small enough that a block with a wrong element costs little to
 * walk again. */
#define GS_VERIFY_BLOCK 4096u

/* The two passes in lanes over one block of `len` elements of type T (its
 * vector V, its bits in a vector U, a comparison's result in a vector M)
 * from o, a multiple of GS_LANES, the lanes s at its first element and
 * stepped past it. add is all ones for GS_OP_ADD (a + b) and 0 for
 * GS_OP_COPY (a), so that one loop without a branch serves both.
 *
 * GS_DIFFER_BLOCK: the OR of every element's bits XOR its closed form's,
 * non-zero when any element is wrong: the pass every block takes, one
 * accumulator a vector.
 *
 * GS_COUNT_BLOCK: how many elements differ, and how many of those hold the
 * poison (never an expected value); a comparison's lane is -1 where it
 * holds, so the counts go down by it.
 *
 * Both take the vector of the lanes' counters VI, of VW lanes (GS_LANES / VW
 * vectors a row), and step them in the loop itself (GS_VSTEP), so that the
 * same text compiles to 4-lane vectors anywhere and to 8-lane ones in a
 * function built for AVX2 (below). */
/* How far ahead of the element it compares the loop asks for memory (a
 * cache line at a time): the comparison reads a staging area that the API
 * has just written, from memory, and computes too much per byte for the
 * core's own prefetcher to run far enough ahead on its own. */
#define GS_PREFETCH_BYTES 4096
#define GS_VSTEP(c, step, period)                                                              \
    do {                                                                                       \
        (c) += (step);                                                                         \
        (c) -= ((c) >= (period)) & (period);                                                   \
    } while (0)
#define GS_LANE_VALUE(V, v) __builtin_convertvector(1 + la[v] + ((add) & (1 + 2 * lb[v])), V)
#define GS_LANES_LOOP(VI, VW, U, o, len, s, BODY)                                              \
    do {                                                                                       \
        VI la[GS_LANES / (VW)], lb[GS_LANES / (VW)];                                           \
        memcpy(la, (s)->a, sizeof la);                                                         \
        memcpy(lb, (s)->b, sizeof lb);                                                         \
        for (uint64_t k = 0; k < (len); k += GS_LANES)                                         \
            for (unsigned v = 0; v < GS_LANES / (VW); ++v) {                                   \
                U got;                                                                         \
                const char *at = (o) + sizeof got * (k / (VW) + v);                            \
                if (v % (64 / sizeof got) == 0)                                                \
                    __builtin_prefetch(at + GS_PREFETCH_BYTES);                                \
                memcpy(&got, at, sizeof got);                                                  \
                BODY;                                                                          \
                GS_VSTEP(la[v], GS_LANE_STEP_A, (int32_t)GS_A_PERIOD);                         \
                GS_VSTEP(lb[v], GS_LANE_STEP_B, (int32_t)GS_B_PERIOD);                         \
            }                                                                                  \
        memcpy((s)->a, la, sizeof la);                                                         \
        memcpy((s)->b, lb, sizeof lb);                                                         \
    } while (0)

#define GS_DIFFER_BLOCK(VI, VW, V, U, o, len, add, s)                                          \
    do {                                                                                       \
        U acc[GS_LANES / (VW)] = {{0}};                                                        \
        GS_LANES_LOOP(VI, VW, U, o, len, s, {                                                  \
            const V value = GS_LANE_VALUE(V, v);                                               \
            U want;                                                                            \
            memcpy(&want, &value, sizeof want);                                                \
            acc[v] |= got ^ want;                                                              \
        });                                                                                    \
        for (unsigned v = 1; v < GS_LANES / (VW); ++v)                                         \
            acc[0] |= acc[v];                                                                  \
        for (unsigned l = 0; l < (VW); ++l)                                                    \
            differ |= acc[0][l] != 0;                                                          \
    } while (0)

#define GS_COUNT_BLOCK(VI, VW, V, U, M, poison, o, len, add, s, wrong, unwritten)              \
    do {                                                                                       \
        M nw[GS_LANES / (VW)] = {{0}}, nu[GS_LANES / (VW)] = {{0}};                            \
        GS_LANES_LOOP(VI, VW, U, o, len, s, {                                                  \
            const V value = GS_LANE_VALUE(V, v);                                               \
            U want;                                                                            \
            memcpy(&want, &value, sizeof want);                                                \
            nw[v] -= got != want;                                                              \
            nu[v] -= got == (poison);                                                          \
        });                                                                                    \
        for (unsigned v = 0; v < GS_LANES / (VW); ++v)                                         \
            for (unsigned l = 0; l < (VW); ++l) {                                              \
                *(wrong) += (uint64_t)nw[v][l];                                                \
                *(unwritten) += (uint64_t)nu[v][l];                                            \
            }                                                                                  \
    } while (0)

/* On x86-64, the float passes also built for AVX2 (8 lanes an instruction:
 * twice the elements a cycle of the 4-lane build, which the baseline
 * x86-64 target, SSE2, cannot exceed) and taken where the processor has it
 * (__builtin_cpu_supports: the CPU and the operating system's saving of
 * its registers). Same text, same results; the 4-lane build elsewhere. */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define GS_AVX2_PASSES 1
typedef int32_t gs_v8i __attribute__((vector_size(32)));
typedef uint32_t gs_v8u __attribute__((vector_size(32)));
typedef float gs_v8f __attribute__((vector_size(32)));

__attribute__((target("avx2"))) static int differ_f32_avx2(const char *o, uint64_t len,
                                                           int32_t add, struct lanes *s)
{
    int differ = 0;
    GS_DIFFER_BLOCK(gs_v8i, 8u, gs_v8f, gs_v8u, o, len, add, s);
    return differ;
}

__attribute__((target("avx2"))) static void count_f32_avx2(const char *o, uint64_t len,
                                                           int32_t add, struct lanes *s,
                                                           uint64_t *wrong,
                                                           uint64_t *unwritten)
{
    GS_COUNT_BLOCK(gs_v8i, 8u, gs_v8f, gs_v8u, gs_v8i, (uint32_t)GS_POISON_BITS, o, len, add, s,
                   wrong, unwritten);
}

static int have_avx2(void)
{
    return __builtin_cpu_supports("avx2");
}
#else
#define GS_AVX2_PASSES 0
#endif

/* Whether any element of the block differs from the closed form. */
static int differ_block(unsigned size, const char *o, uint64_t len, int32_t add,
                        struct lanes *s)
{
    int differ = 0;
#if GS_AVX2_PASSES
    if (size == 4 && have_avx2())
        return differ_f32_avx2(o, len, add, s);
#endif
    if (size == 8)
        GS_DIFFER_BLOCK(gs_v4i, GS_VEC, gs_v4d, gs_v4q, o, len, add, s);
    else
        GS_DIFFER_BLOCK(gs_v4i, GS_VEC, gs_v4f, gs_v4u, o, len, add, s);
    return differ;
}

/* The block's wrong and unwritten elements, added to the counts. */
static void count_block(unsigned size, const char *o, uint64_t len, int32_t add,
                        struct lanes *s, uint64_t *wrong, uint64_t *unwritten)
{
#if GS_AVX2_PASSES
    if (size == 4 && have_avx2()) {
        count_f32_avx2(o, len, add, s, wrong, unwritten);
        return;
    }
#endif
    if (size == 8)
        GS_COUNT_BLOCK(gs_v4i, GS_VEC, gs_v4d, gs_v4q, gs_v4l, GS_POISON_BITS64, o, len, add, s,
                       wrong, unwritten);
    else
        GS_COUNT_BLOCK(gs_v4i, GS_VEC, gs_v4f, gs_v4u, gs_v4i, (uint32_t)GS_POISON_BITS, o, len,
                       add, s, wrong, unwritten);
}

/* Elements [from, from + len) of out (elements first + from on), one at a
 * time: every wrong one noted, in index order. */
static void note_span(unsigned size, const char *o, enum gs_op op, uint64_t first, uint64_t from,
                      uint64_t len, struct gs_vpart *p)
{
    const uint64_t poison = size == 8 ? GS_POISON_BITS64 : GS_POISON_BITS;
    uint32_t ia, ib;
    residues_at(first + from, &ia, &ib);
    for (uint64_t i = from; i < from + len; ++i) {
        const uint64_t got = element_bits(o, size, i);
        const uint64_t want = size == 8 ? expected_bits64(op, ia, ib) : expected_bits(op, ia, ib);
        if (got != want)
            note_wrong(p, first + i, got, want, got == poison);
        GS_NEXT_RESIDUES(ia, ib);
    }
}

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
    /* The hot loop of a multi-GiB verification, a block at a time, in
     * lanes: a pass that learns whether the block holds a wrong element;
     * for such a block, while the part lists fewer than GS_LISTED, the
     * one-at-a-time pass that notes each (the same elements, in the same
     * order); once the list is full, a pass that counts the block's wrong
     * and unwritten elements, which is all a wrong element past the listed
     * ones adds. Wrong elements come in runs (a short grid's tail): after a
     * block that held one, the counting pass alone, so that a block of them
     * costs one pass, as a right one does. The short last block takes the
     * one-at-a-time pass. */
    const char *o = out;
    const int32_t add = op == GS_OP_COPY ? 0 : -1;
    const uint64_t blocks = count / GS_VERIFY_BLOCK * GS_VERIFY_BLOCK;
    int run = 0; /* the last block held a wrong element */
    struct lanes s;
    if (blocks)
        lanes_at(first, &s);
    for (uint64_t base = 0; base < blocks; base += GS_VERIFY_BLOCK) {
        const char *block = o + size * base;
        uint64_t wrong = 0, unwritten = 0;
        if (run && p->listed >= GS_LISTED) {
            count_block(size, block, GS_VERIFY_BLOCK, add, &s, &wrong, &unwritten);
            p->wrong += wrong;
            p->unwritten += unwritten;
            run = wrong != 0;
            continue;
        }
        struct lanes at = s;
        run = differ_block(size, block, GS_VERIFY_BLOCK, add, &s);
        if (!run)
            continue;
        if (p->listed < GS_LISTED) {
            note_span(size, o, op, first, base, GS_VERIFY_BLOCK, p);
        } else {
            count_block(size, block, GS_VERIFY_BLOCK, add, &at, &wrong, &unwritten);
            p->wrong += wrong;
            p->unwritten += unwritten;
        }
    }
    note_span(size, o, op, first, blocks, count - blocks, p);
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

void gs_verify_front(const struct gs_launch *l, const void *front, struct gs_verdict *v)
{
    const unsigned size = gs_type_size(l->type);
    const uint64_t want = size == 8 ? GS_GUARD_BITS64 : GS_GUARD_BITS;
    for (uint64_t g = 0; g < GS_FRONT_ELEMS; ++g) {
        if (element_bits(front, size, g) == want)
            continue;
        ++v->front_hits;
        v->front_nearest = GS_FRONT_ELEMS - g; /* the last one seen is the nearest */
    }
    if (v->front_hits > 0)
        v->diag |= GS_DIAG_BEFORE_START;
}

void gs_verify_accumulate(const struct gs_launch *l, const float *out, struct gs_verdict *v)
{
    const struct gs_kernel_info *k = gs_kernel_info(l->kernel);
    const enum gs_op op = k ? k->op : GS_OP_ADD;
    uint32_t ia, ib;
    residues_at(0, &ia, &ib);
    for (uint64_t i = 0; i < l->n; ++i) {
        const float want = float_of(expected_bits(op, ia, ib));
        if (bits_of(out[i]) == bits_of(GS_FINITE_POISON + want)) {
            if (v->accumulated++ == 0)
                v->first_accumulated = i;
        }
        GS_NEXT_RESIDUES(ia, ib);
    }
    if (v->accumulated == 0)
        return;
    /* Every wrong element of the first run was accumulated into: what that
     * run took for holes, a tail or wrong values (NaN + x is NaN, a GPU's
     * canonical one or the poison itself) is this one cause. */
    if (v->accumulated == v->wrong)
        v->diag &= GS_DIAG_BEFORE_START | GS_DIAG_PAST_END;
    v->diag |= GS_DIAG_ACCUMULATES;
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

/* Counters scanned at a time for a wrong one: a long run that holds one
 * stops within this many. */
#define GS_COUNT_SCAN 4096u

void gs_count_span(const uint32_t *counters, uint64_t first, uint64_t count, gs_count_fn want,
                   const void *ctx, struct gs_count_verdict *p)
{
    const uint64_t end = first + count;
    *p = (struct gs_count_verdict){0};
    for (uint64_t i = first; i < end;) {
        uint64_t expect;
        uint64_t to = want(ctx, i, end, &expect);
        if (to <= i || to > end) /* a run of nothing or past the span: one element */
            to = i + 1;
        const uint32_t *c = counters + (i - first);
        const uint64_t len = to - i;
        /* A run whose counters all read the prediction: one scan, no
         * branch an element; one that does not: element by element. */
        uint32_t differ = expect > UINT32_MAX;
        const uint32_t x = GS_COUNT_BASE + (uint32_t)expect;
        for (uint64_t k = 0; !differ && k < len; k += GS_COUNT_SCAN) {
            const uint64_t stop = len - k < GS_COUNT_SCAN ? len : k + GS_COUNT_SCAN;
            for (uint64_t m = k; m < stop; ++m)
                differ |= c[m] ^ x;
        }
        p->predicted_total += expect * len;
        if (expect > p->predicted_max)
            p->predicted_max = expect;
        if (!differ) {
            p->total += expect * len;
            if (expect > p->max)
                p->max = expect;
        }
        for (uint64_t k = 0; differ && k < len; ++k) {
            const uint64_t got = (uint32_t)(c[k] - GS_COUNT_BASE);
            p->total += got;
            if (got > p->max)
                p->max = got;
            if (got == expect)
                continue;
            if (p->mismatched++ == 0)
                p->first_mismatch = i + k;
            if (p->listed < GS_LISTED)
                p->list[p->listed++] = (struct gs_count_wrong){i + k, got, expect};
        }
        i = to;
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

int gs_verdict_clean(const struct gs_verdict *v)
{
    return v->diag == 0 && v->wrong == 0 && v->unwritten == 0 && v->guard_hits == 0 &&
           v->front_hits == 0 && v->accumulated == 0;
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
                 "%llu element%s only (use a grid-stride loop, or more blocks)",
                 (unsigned long long)v->threads, (unsigned long long)v->threads,
                 v->threads == 1 ? "" : "s");
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
                 "unwritten tail: elements from index %llu on were never written; the launch "
                 "wrote the first %llu of %llu elements",
                 (unsigned long long)v->first_wrong, (unsigned long long)v->first_wrong,
                 (unsigned long long)v->n);
        append(buf, size, part);
    }
    if (v->diag & GS_DIAG_ACCUMULATES) {
        snprintf(part, sizeof part,
                 "accumulates into out (+=): on a second run with out poisoned by a finite "
                 "value, %llu element%s read that value + a[i] + b[i], the first at %llu: out "
                 "is not zero and not yours to read; write out[i] = a[i] + b[i]",
                 (unsigned long long)v->accumulated, v->accumulated == 1 ? "" : "s",
                 (unsigned long long)v->first_accumulated);
        append(buf, size, part);
    }
    if (v->diag & GS_DIAG_BEFORE_START) {
        snprintf(part, sizeof part,
                 "wrote before the start: %llu guard element%s before out[0] overwritten, the "
                 "nearest at index -%llu",
                 (unsigned long long)v->front_hits, v->front_hits == 1 ? "" : "s",
                 (unsigned long long)v->front_nearest);
        append(buf, size, part);
    }
    if (v->diag & GS_DIAG_HOLES) {
        snprintf(part, sizeof part, "holes: %llu element%s never written",
                 (unsigned long long)v->unwritten, v->unwritten == 1 ? "" : "s");
        append(buf, size, part);
    }
    if (v->diag & GS_DIAG_WRONG_VALUES) {
        snprintf(part, sizeof part, "wrong values: %llu elements written with the wrong value",
                 (unsigned long long)(v->wrong - v->unwritten));
        append(buf, size, part);
    }
    if (v->diag & GS_DIAG_PAST_END) {
        snprintf(part, sizeof part,
                 "wrote past the end: %llu guard element%s overwritten, the first at n + %llu",
                 (unsigned long long)v->guard_hits, v->guard_hits == 1 ? "" : "s",
                 (unsigned long long)v->first_guard);
        append(buf, size, part);
    }
}
