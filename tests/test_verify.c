/* SPDX-License-Identifier: MIT */
/* The NaN-fill verifier on synthetic outputs: no backend involved. Each test
 * builds the output a kernel would leave and checks the harness's diagnosis. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "test_util.h"

#include "gs_report_kit.h"
#include "gs_verify.h"
#include "gs_verify_pool.h"

/* The kernels themselves, as the host backend compiles them: the owner map
 * is checked against what they really do. */
#include "gs_host_kernels.h"

/* Run one thread <<<l.grid, l.block>>>[b, t] of l's kernel. */
static void run_host_thread(const struct gs_launch *l, uint64_t b, uint64_t t, const float *a,
                            const float *bb, float *out)
{
    const struct gs_host_thread th = {(unsigned)b, (unsigned)l->block, (unsigned)l->grid,
                                      (unsigned)t, 0};
    gs_host_kernels[l->kernel](&th, a, bb, out, l->n, l->param);
}

struct fixture {
    uint64_t n;
    float *a, *b, *ref, *out;
};

static struct fixture make(uint64_t n)
{
    struct fixture f = {n, NULL, NULL, NULL, NULL};
    const size_t bytes = (n + GS_GUARD_ELEMS) * sizeof(float);
    f.a = malloc(bytes);
    f.b = malloc(bytes);
    f.ref = malloc(bytes);
    f.out = malloc(bytes);
    assert_non_null(f.a);
    assert_non_null(f.out);
    gs_fill_inputs(f.a, f.b, n);
    gs_fill_expected(GS_OP_ADD, f.a, f.b, f.ref, n);
    gs_poison(f.out, n);
    return f;
}

static void drop(struct fixture *f)
{
    free(f->a);
    free(f->b);
    free(f->ref);
    free(f->out);
}

static void inputs_are_nonzero_distinct_and_exact(void **state)
{
    (void)state;
    struct fixture f = make(4194304);
    for (uint64_t i = 0; i < f.n; ++i) {
        assert_true(f.a[i] != 0.0f && f.b[i] != 0.0f);
        /* integers below 2^24: the fp32 sum is exact */
        assert_true(f.ref[i] < 16777216.0f);
        assert_true(f.ref[i] == floorf(f.ref[i]));
    }
    /* a is distinct within any 4,194,301 consecutive elements */
    unsigned char *seen = calloc(4194302, 1);
    assert_non_null(seen);
    for (uint64_t i = 0; i < 4194301; ++i) {
        const uint32_t v = (uint32_t)f.a[i];
        assert_true(v >= 1 && v <= 4194301);
        assert_int_equal(seen[v], 0);
        seen[v] = 1;
    }
    free(seen);
    drop(&f);
}

static void poison_is_nan_and_guard_distinct(void **state)
{
    (void)state;
    struct fixture f = make(100);
    uint32_t p, g;
    memcpy(&p, &f.out[0], 4);
    memcpy(&g, &f.out[100], 4);
    assert_true(isnan(f.out[0]) && isnan(f.out[100]));
    assert_int_equal(p, GS_POISON_BITS);
    assert_int_equal(g, GS_GUARD_BITS);
    drop(&f);
}

static void correct_output_is_ok(void **state)
{
    (void)state;
    struct fixture f = make(611);
    struct gs_launch l = launch_of(GS_K_ADD_GS, 611, 1, 256);
    struct gs_verdict v;
    memcpy(f.out, f.ref, 611 * sizeof(float));
    gs_verify(f.out, f.ref, &l, &v);
    assert_int_equal(v.diag, 0);
    assert_int_equal(v.wrong, 0);
    drop(&f);
}

static void untouched_output_fails_even_where_reference_would_be_zero(void **state)
{
    (void)state;
    /* The reason for NaN and not zero: a kernel that writes nothing must fail. */
    struct fixture f = make(32);
    struct gs_launch l = launch_of(GS_K_ADD_GS, 32, 1, 32);
    struct gs_verdict v;
    gs_verify(f.out, f.ref, &l, &v);
    assert_int_equal(v.wrong, 32);
    assert_int_equal(v.unwritten, 32);
    assert_int_equal(v.first_wrong, 0);
    assert_true(v.diag & GS_DIAG_HOLES);
    drop(&f);
}

static void short_grid_is_diagnosed(void **state)
{
    (void)state;
    const uint64_t n = 4194304, G = 160, B = 256, T = G * B;
    struct fixture f = make(n);
    struct gs_launch l = launch_of(GS_K_ADD_MONO, n, G, B);
    struct gs_verdict v;
    char text[640];
    memcpy(f.out, f.ref, T * sizeof(float));
    gs_verify(f.out, f.ref, &l, &v);
    assert_int_equal(v.diag, GS_DIAG_SHORT_GRID);
    assert_int_equal(v.first_wrong, T);
    assert_int_equal(v.wrong, n - T);
    assert_int_equal(v.listed, GS_LISTED);
    for (int i = 0; i < GS_LISTED; ++i) {
        assert_int_equal(v.list[i].index, T + (uint64_t)i);
        assert_true(v.list[i].unwritten);
        assert_int_equal(v.list[i].owner.block, 160);
        assert_int_equal(v.list[i].owner.thread, (uint64_t)i);
        assert_false(v.list[i].owner.launched);
    }
    gs_diagnosis(&v, text, sizeof text);
    assert_non_null(strstr(text, "short grid: every wrong index is >= T = 40960"));
    assert_non_null(strstr(text, "the first 40960 elements only"));
    drop(&f);
}

static void holes_are_not_a_short_grid(void **state)
{
    (void)state;
    struct fixture f = make(1025);
    struct gs_launch l = launch_of(GS_K_ADD_GS, 1025, 4, 256);
    struct gs_verdict v;
    memcpy(f.out, f.ref, 1025 * sizeof(float));
    uint32_t poison = GS_POISON_BITS;
    memcpy(&f.out[7], &poison, 4);
    memcpy(&f.out[700], &poison, 4);
    gs_verify(f.out, f.ref, &l, &v);
    assert_int_equal(v.diag, GS_DIAG_HOLES);
    assert_int_equal(v.unwritten, 2);
    assert_int_equal(v.first_wrong, 7);
    /* grid-stride ownership: element 700 of T = 1024 is thread 700, pass 0 */
    assert_int_equal(v.list[1].owner.block, 2);
    assert_int_equal(v.list[1].owner.thread, 188);
    assert_int_equal(v.list[1].owner.pass, 0);
    drop(&f);
}

static void wrong_values_are_diagnosed(void **state)
{
    (void)state;
    struct fixture f = make(611);
    struct gs_launch l = launch_of(GS_K_ADD_GS, 611, 1, 1);
    struct gs_verdict v;
    memcpy(f.out, f.ref, 611 * sizeof(float));
    f.out[42] = f.ref[42] * 2.0f; /* an accumulating kernel run twice */
    gs_verify(f.out, f.ref, &l, &v);
    assert_int_equal(v.diag, GS_DIAG_WRONG_VALUES);
    assert_int_equal(v.wrong, 1);
    assert_false(v.list[0].unwritten);
    /* <<<1, 1>>>: thread 0 writes element 42 on pass 42 */
    assert_int_equal(v.list[0].owner.pass, 42);
    drop(&f);
}

static void writes_past_the_end_are_caught(void **state)
{
    (void)state;
    struct fixture f = make(611);
    struct gs_launch l = launch_of(GS_K_ADD_GS, 611, 3, 256);
    struct gs_verdict v;
    char text[640];
    memcpy(f.out, f.ref, 611 * sizeof(float));
    f.out[611 + 100] = 1.0f;
    gs_verify(f.out, f.ref, &l, &v);
    assert_int_equal(v.diag, GS_DIAG_PAST_END);
    assert_int_equal(v.guard_hits, 1);
    assert_int_equal(v.first_guard, 100);
    gs_diagnosis(&v, text, sizeof text);
    assert_non_null(strstr(text, "wrote past the end"));
    drop(&f);
}

static void chunked_owner_is_thread_and_step(void **state)
{
    (void)state;
    struct gs_launch l = launch_of(GS_K_ADD_CHUNKED, 1000, 1, 256);
    struct gs_owner o;
    l.param = 4; /* ceil(1000 / 256) */
    gs_owner_of(&l, 999, &o);
    assert_int_equal(o.thread, 249);
    assert_int_equal(o.pass, 3);
    assert_true(o.launched);
}

/* The verifier's owner map must agree with the kernel itself: run the host
 * kernel of kernels/gs_kernels.h thread by thread on a small grid (so that
 * passes matter) and check that each element it writes is the one the
 * verifier attributes to that block, thread and pass. */
static void owner_map_matches_the_kernels(void **state)
{
    (void)state;
    const enum gs_kernel_id kernels[] = {
        GS_K_ADD_GS,      GS_K_ADD_GS_X4_ALIAS, GS_K_ADD_GS_X4,    GS_K_ADD_GS_X4_LF,
        GS_K_ADD_WARP_X4, GS_K_COPY_WARP_X4,    GS_K_ADD_GS_F2,    GS_K_ADD_GS_F4,
        GS_K_COPY_GS_F4,  GS_K_ADD_CHUNKED,     GS_K_COPY_STRIDED, GS_K_ADD_MONO};
    /* 32 threads a block: T = 96, whole warps; 20: T = 60, where the
     * warp-contiguous kernels fall back to the plain loop. */
    const uint64_t blocks[] = {32, 20};
    for (size_t s = 0; s < 2; ++s)
    for (size_t k = 0; k < sizeof kernels / sizeof kernels[0]; ++k) {
        const uint64_t n = 32 * 8 * 3 + 5; /* three whole strided tiles and a tail */
        struct gs_launch l = launch_of(kernels[k], n, 3, blocks[s]);
        l.param = kernels[k] == GS_K_ADD_CHUNKED ? (n + l.global - 1) / l.global
                  : kernels[k] == GS_K_COPY_STRIDED ? 8 : 0;
        if (kernels[k] == GS_K_ADD_MONO)
            l = launch_of(kernels[k], n, (n + 31) / 32, 32);
        struct fixture f = make(n);
        for (uint64_t b = 0; b < l.grid; ++b)
            for (uint64_t t = 0; t < l.block; ++t) {
                gs_poison(f.out, n);
                run_host_thread(&l, b, t, f.a, f.b, f.out);
                /* Where index order is pass order, the k-th element a thread
                 * writes is its pass k (not so for the vector kernels, whose
                 * scalar tail comes last, and lane-strided). */
                const int ordered = kernels[k] != GS_K_ADD_GS_F2 && kernels[k] != GS_K_ADD_GS_F4 &&
                                    kernels[k] != GS_K_COPY_GS_F4 &&
                                    kernels[k] != GS_K_COPY_STRIDED;
                uint64_t nth = 0;
                for (uint64_t i = 0; i < n; ++i) {
                    uint32_t bits;
                    memcpy(&bits, &f.out[i], 4);
                    if (bits == GS_POISON_BITS)
                        continue;
                    struct gs_owner o;
                    gs_owner_of(&l, i, &o);
                    if (!o.launched || o.block != b || o.thread != t)
                        fail_msg("%s: element %llu written by <%llu, %llu>, attributed to "
                                 "<%llu, %llu>",
                                 gs_kernel_info(kernels[k])->name, (unsigned long long)i,
                                 (unsigned long long)b, (unsigned long long)t,
                                 (unsigned long long)o.block, (unsigned long long)o.thread);
                    if (ordered && o.pass != nth)
                        fail_msg("%s: element %llu is pass %llu of its thread, attributed to "
                                 "pass %llu",
                                 gs_kernel_info(kernels[k])->name, (unsigned long long)i,
                                 (unsigned long long)nth, (unsigned long long)o.pass);
                    ++nth;
                }
            }
        drop(&f);
    }
}

/* The closed form the big-n verification compares with is the same, element
 * for element, as the arrays the inputs are built from, at any offset: so a
 * chunk verified from its first index needs no array at all. */
static void closed_form_equals_the_arrays_at_any_offset(void **state)
{
    (void)state;
    const uint64_t n = 3 * 4194301ull + 17; /* past both periods, more than once */
    float *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *ref = malloc(n * sizeof *ref);
    float ca[1000], cb[1000];
    assert_non_null(a);
    assert_non_null(b);
    assert_non_null(ref);
    gs_fill_inputs(a, b, n);
    gs_fill_expected(GS_OP_ADD, a, b, ref, n);
    const uint64_t starts[] = {0, 1, 4194300, 4194301, 4194299, 8388600, n - 1000};
    for (size_t k = 0; k < sizeof starts / sizeof starts[0]; ++k) {
        gs_fill_inputs_at(ca, cb, starts[k], 1000);
        assert_memory_equal(ca, a + starts[k], sizeof ca);
        assert_memory_equal(cb, b + starts[k], sizeof cb);
        for (uint64_t i = starts[k]; i < starts[k] + 1000; ++i) {
            const float add = gs_expected_at(GS_OP_ADD, i), copy = gs_expected_at(GS_OP_COPY, i);
            assert_memory_equal(&add, &ref[i], sizeof add);
            assert_memory_equal(&copy, &a[i], sizeof copy);
        }
    }
    /* Element 2^32 + 5, as the closed form computes it from 64-bit i (of a
     * seed of 0). */
    const float far = gs_expected_at(GS_OP_ADD, (1ull << 32) + 5);
    uint32_t ia = (uint32_t)(((1ull << 32) + 5) % 4194301u);
    uint32_t ib = (uint32_t)(((1ull << 32) + 5) % 4194299u * 40503u % 4194299u);
    assert_true(gs_inputs_seed() != 0 || far == (float)(1u + ia) + (float)(1u + 2u * ib));
    free(a);
    free(b);
    free(ref);
}

/* check's secret seed (gs_inputs_set_seed): the inputs move, so that the
 * expected values of a seed of 0 are wrong, and every property above holds
 * (the tests above run again under a seed). */
static int with_seed(void **state)
{
    (void)state;
    gs_inputs_set_seed(0x9E3779B97F4A7C15ull);
    return 0;
}

static int without_seed(void **state)
{
    (void)state;
    gs_inputs_set_seed(0);
    return 0;
}

static void a_seed_moves_the_inputs(void **state)
{
    (void)state;
    enum { N = 4096 };
    static float a0[N], b0[N], a1[N], b1[N];
    gs_fill_inputs(a0, b0, N);
    const float e0 = gs_expected_at(GS_OP_ADD, 7);
    with_seed(NULL);
    assert_int_equal(gs_inputs_seed(), 0x9E3779B97F4A7C15ull);
    gs_fill_inputs(a1, b1, N);
    const float e1 = gs_expected_at(GS_OP_ADD, 7);
    without_seed(NULL);
    unsigned same = 0;
    for (unsigned i = 0; i < N; ++i)
        same += a0[i] + b0[i] == a1[i] + b1[i];
    assert_true(same < N / 100);
    assert_true(e0 != e1);
    assert_true(e1 == a1[7] + b1[7]);
}

/* Spans compared separately and merged in index order give the verdict of
 * one pass: counts, first wrong index and the ten listed. */
static void spans_merge_into_the_one_pass_verdict(void **state)
{
    (void)state;
    const uint64_t n = 5000;
    struct fixture f = make(n);
    struct gs_launch l = launch_of(GS_K_ADD_MONO, n, 10, 128); /* T = 1280 */
    memcpy(f.out, f.ref, 1280 * sizeof(float));
    f.out[7] = 3.0f; /* a wrong value before the short-grid tail */
    struct gs_verdict whole, pieces;
    gs_verify(f.out, f.ref, &l, &whole);
    gs_verify_begin(&l, &pieces);
    const uint64_t cuts[] = {0, 1, 9, 1281, 1290, 4999, 5000};
    for (size_t k = 0; k + 1 < sizeof cuts / sizeof cuts[0]; ++k) {
        struct gs_vpart p;
        gs_verify_span(f.out + cuts[k], NULL, GS_OP_ADD, cuts[k], cuts[k + 1] - cuts[k], &p);
        gs_verify_merge(&l, &p, &pieces);
    }
    gs_verify_end(&l, f.out + n, &pieces);
    assert_int_equal(pieces.wrong, whole.wrong);
    assert_int_equal(pieces.unwritten, whole.unwritten);
    assert_int_equal(pieces.first_wrong, 7);
    assert_int_equal(pieces.diag, whole.diag);
    assert_int_equal(pieces.diag, GS_DIAG_HOLES | GS_DIAG_WRONG_VALUES);
    assert_int_equal(pieces.listed, GS_LISTED);
    for (int k = 0; k < GS_LISTED; ++k)
        assert_int_equal(pieces.list[k].index, whole.list[k].index);
    assert_int_equal(pieces.list[1].index, 1280);
    drop(&f);
}

/* check's parent poisons and verifies a timed output of 1 GiB on every core
 * (gs_verify_pool.h): the same bytes and the same verdict as one thread,
 * wherever the wrong elements fall, across the parts' seams. */
static void pool_verdict_is_the_one_thread_verdict(void **state)
{
    (void)state;
    const uint64_t n = 5 * (1ull << 20) + 77; /* five parts of the pool */
    const size_t bytes = (size_t)(n + GS_GUARD_ELEMS) * sizeof(float);
    float *one = malloc(bytes), *many = malloc(bytes);
    assert_non_null(one);
    assert_non_null(many);
    struct gs_pool *pool = NULL;
    struct gs_err e = {0};
    assert_int_equal(gs_pool_open(&pool, 3, &e), GS_OK);
    gs_poison(one, n);
    memset(many, 0, bytes);
    gs_poison_pool(pool, many, n);
    assert_memory_equal(one, many, bytes);
    struct gs_launch l = launch_of(GS_K_ADD_GS, n, 1056, 256);
    for (uint64_t i = 0; i < n; ++i)
        many[i] = gs_expected_at(GS_OP_ADD, i);
    struct gs_verdict v1, vp;
    gs_verify_pool(pool, many, &l, &vp);
    assert_int_equal(vp.diag, 0);
    const uint64_t wrong[] = {3, (1ull << 20) - 1, 1ull << 20, 2 * (1ull << 20) + 5, n - 1};
    for (size_t k = 0; k < sizeof wrong / sizeof wrong[0]; ++k)
        many[wrong[k]] = -1.0f;
    memcpy(&many[n + 1], &(float){1.0f}, sizeof(float)); /* a write past the end */
    gs_verify(many, NULL, &l, &v1);
    gs_verify_pool(pool, many, &l, &vp);
    assert_int_equal(vp.diag, v1.diag);
    assert_int_equal(vp.wrong, v1.wrong);
    assert_int_equal(vp.wrong, 5);
    assert_int_equal(vp.first_wrong, 3);
    assert_int_equal(vp.guard_hits, v1.guard_hits);
    assert_int_equal(vp.listed, v1.listed);
    for (int k = 0; k < v1.listed; ++k)
        assert_int_equal(vp.list[k].index, v1.list[k].index);
    gs_pool_close(pool);
    free(one);
    free(many);
}

/* ---- double (gs_launch.type) ---------------------------------------------- */

/* The device fills the poison as 32-bit words: in a double buffer each
 * element is the word twice over, which must be a NaN too, as must the
 * word itself as a float. (0x7FC0BAD0 would not do: twice over it is the
 * finite double 2.35e307.) */
/* The closed-form comparison checks blocks in a fast pass and notes wrong
 * elements in a second one: it must give what a comparison with the arrays
 * gives (the plain loop), wherever the wrong elements fall: at a block's
 * first or last element, in a quarter's seam, in runs across blocks, in a
 * short last block, at any offset. */
static void closed_form_finds_what_the_arrays_find(void **state)
{
    (void)state;
    const uint64_t n = 3 * 4096 + 1000;
    float *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *ref = malloc(n * sizeof *ref);
    float *out = malloc(n * sizeof *out);
    /* Offsets where the closed form's index arithmetic could go wrong: 0,
     * odd ones, 2^31 and 2^32 on either side (the traps' sizes). */
    const uint64_t firsts[] = {0,          1,          4194300,          123456789,
                               (1ull << 31) - 5, (1ull << 32) - 4100, (1ull << 32) + 5};
    const int nfirsts = (int)(sizeof firsts / sizeof firsts[0]);
    /* Wrong elements: none, single ones at block and quarter edges, a run
     * across two blocks, and a poisoned tail from 5000 on. */
    const uint64_t singles[] = {0, 1023, 1024, 4095, 4096, 8191, 12287, 12288, n - 1};
    assert_non_null(a);
    assert_non_null(b);
    assert_non_null(ref);
    assert_non_null(out);
    srand(7);
    for (int q = 0; q < 2 * nfirsts; ++q) {
        const int f = q % nfirsts;
        const enum gs_op op = q < nfirsts ? GS_OP_ADD : GS_OP_COPY;
        gs_fill_inputs_at(a, b, firsts[f], n);
        gs_fill_expected(op, a, b, ref, n);
        for (int pattern = 0; pattern < 14; ++pattern) {
            memcpy(out, ref, n * sizeof *out);
            if (pattern >= 1 && pattern <= 9) {
                out[singles[pattern - 1]] += 1.0f;
            } else if (pattern == 10) {
                for (uint64_t i = 4000; i < 4200; ++i)
                    out[i] = 0.5f;
            } else if (pattern == 11) {
                const uint32_t poison = GS_POISON_BITS;
                for (uint64_t i = 5000; i < n; ++i)
                    memcpy(&out[i], &poison, sizeof poison);
            } else if (pattern >= 12) {
                for (int k = 0; k < 40; ++k)
                    out[(uint64_t)rand() % n] = -1.0f;
            }
            struct gs_vpart fast, plain;
            gs_verify_span(out, NULL, op, firsts[f], n, &fast);
            gs_verify_span(out, ref, op, firsts[f], n, &plain);
            assert_int_equal(fast.wrong, plain.wrong);
            assert_int_equal(fast.unwritten, plain.unwritten);
            assert_int_equal(fast.listed, plain.listed);
            assert_true(pattern == 0 ? fast.wrong == 0 : fast.wrong > 0);
            if (plain.wrong)
                assert_int_equal(fast.first_wrong, plain.first_wrong);
            for (int k = 0; k < plain.listed; ++k) {
                assert_int_equal(fast.list[k].index, plain.list[k].index);
                assert_int_equal(fast.list[k].got_bits, plain.list[k].got_bits);
                assert_int_equal(fast.list[k].want_bits, plain.list[k].want_bits);
            }
        }
    }
    free(a);
    free(b);
    free(ref);
    free(out);
}

static void poison_words_are_nan_as_float_and_as_double(void **state)
{
    (void)state;
    const uint32_t words[] = {GS_POISON_BITS, GS_GUARD_BITS};
    const uint64_t doubled[] = {GS_POISON_BITS64, GS_GUARD_BITS64};
    for (int k = 0; k < 2; ++k) {
        float f;
        double d;
        const uint64_t twice = ((uint64_t)words[k] << 32) | words[k];
        memcpy(&f, &words[k], sizeof f);
        memcpy(&d, &twice, sizeof d);
        assert_true(isnan(f));
        assert_true(isnan(d));
        assert_true(doubled[k] == twice);
        /* quiet NaNs: the top mantissa bit is set in either width */
        assert_true(words[k] & 0x00400000u);
        assert_true(twice & 0x0008000000000000ull);
    }
    double out[50 + GS_GUARD_ELEMS];
    gs_poison_as(GS_TYPE_DOUBLE, out, 50);
    for (int i = 0; i < 50 + (int)GS_GUARD_ELEMS; ++i) {
        uint64_t bits;
        memcpy(&bits, &out[i], sizeof bits);
        assert_true(bits == (i < 50 ? GS_POISON_BITS64 : GS_GUARD_BITS64));
        assert_true(isnan(out[i]));
    }
}

/* The double inputs and expected values are the float ones, exactly, at
 * any offset: small integers are exact in both. */
static void double_closed_form_is_the_float_one(void **state)
{
    (void)state;
    const uint64_t starts[] = {0, 4194300, 8388600, (1ull << 32) + 5};
    float fa[300], fb[300];
    double da[300], db[300];
    for (size_t k = 0; k < sizeof starts / sizeof starts[0]; ++k) {
        gs_fill_inputs_at(fa, fb, starts[k], 300);
        gs_fill_inputs_f64_at(da, db, starts[k], 300);
        for (int i = 0; i < 300; ++i) {
            assert_true(da[i] == (double)fa[i] && db[i] == (double)fb[i]);
            const uint64_t at = starts[k] + (uint64_t)i;
            assert_true(gs_expected_f64_at(GS_OP_ADD, at) == da[i] + db[i]);
            assert_true(gs_expected_f64_at(GS_OP_ADD, at) == (double)gs_expected_at(GS_OP_ADD, at));
            assert_true(gs_expected_f64_at(GS_OP_COPY, at) == da[i]);
        }
    }
}

/* A double output: every element right is ok; an element left unwritten,
 * one written with a wrong value, one with only its low word written and
 * one write past the end are each found, at their index, with the found
 * and wanted bits of the whole 64-bit element. */
static void double_verification_finds_each_wrong_element(void **state)
{
    (void)state;
    const uint64_t n = 3000;
    double *out = malloc((n + GS_GUARD_ELEMS) * sizeof *out);
    assert_non_null(out);
    struct gs_launch l = launch_of(GS_K_ADD_GS, n, 2, 256);
    l.type = GS_TYPE_DOUBLE;
    struct gs_verdict v;
    gs_poison_as(GS_TYPE_DOUBLE, out, n);
    gs_verify(out, NULL, &l, &v);
    assert_int_equal(v.wrong, n);
    assert_int_equal(v.unwritten, n); /* all poison: every element unwritten */
    for (uint64_t i = 0; i < n; ++i)
        out[i] = gs_expected_f64_at(GS_OP_ADD, i);
    gs_verify(out, NULL, &l, &v);
    assert_int_equal(v.diag, 0);

    const uint32_t poison = GS_POISON_BITS;
    /* 37 back to poison, both words: unwritten */
    memcpy(&out[37], &poison, 4);
    memcpy((char *)&out[37] + 4, &poison, 4);
    out[100] = 3.0; /* a wrong value */
    /* one word of 2500 poison: wrong, not unwritten */
    const double want_half = out[2500];
    memcpy((char *)&out[2500] + 4, &poison, 4);
    out[n + 9] = 1.0; /* past the end */
    gs_verify(out, NULL, &l, &v);
    assert_int_equal(v.wrong, 3);
    assert_int_equal(v.unwritten, 1);
    assert_int_equal(v.first_wrong, 37);
    assert_int_equal(v.guard_hits, 1);
    assert_int_equal(v.first_guard, 9);
    assert_int_equal(v.diag, GS_DIAG_HOLES | GS_DIAG_WRONG_VALUES | GS_DIAG_PAST_END);
    assert_int_equal(v.listed, 3);
    assert_int_equal(v.list[0].index, 37);
    assert_true(v.list[0].unwritten);
    assert_true(v.list[0].got_bits == GS_POISON_BITS64);
    assert_int_equal(v.list[1].index, 100);
    assert_false(v.list[1].unwritten);
    const double three = 3.0, want = gs_expected_f64_at(GS_OP_ADD, 100);
    uint64_t bits;
    memcpy(&bits, &three, sizeof bits);
    assert_true(v.list[1].got_bits == bits);
    memcpy(&bits, &want, sizeof bits);
    assert_true(v.list[1].want_bits == bits);
    /* grid-stride ownership as in float: element 100 of T = 512 is thread 100 */
    assert_int_equal(v.list[1].owner.block, 0);
    assert_int_equal(v.list[1].owner.thread, 100);
    assert_int_equal(v.list[2].index, 2500);
    assert_false(v.list[2].unwritten);
    memcpy(&bits, &want_half, sizeof bits);
    assert_true(v.list[2].want_bits == bits);
    assert_true(v.list[2].got_bits != bits && v.list[2].got_bits != GS_POISON_BITS64);
    free(out);
}

/* A short grid in double, compared in spans as the workspace does: the
 * first wrong index is T, as in float. */
static void double_short_grid_in_spans(void **state)
{
    (void)state;
    const uint64_t n = 5000, T = 1280;
    double *out = malloc((n + GS_GUARD_ELEMS) * sizeof *out);
    assert_non_null(out);
    struct gs_launch l = launch_of(GS_K_ADD_MONO, n, 10, 128);
    l.type = GS_TYPE_DOUBLE;
    gs_poison_as(GS_TYPE_DOUBLE, out, n);
    for (uint64_t i = 0; i < T; ++i)
        out[i] = gs_expected_f64_at(GS_OP_ADD, i);
    struct gs_verdict v;
    gs_verify_begin(&l, &v);
    const uint64_t cuts[] = {0, 3, 1279, 1281, 4000, 5000};
    for (size_t k = 0; k + 1 < sizeof cuts / sizeof cuts[0]; ++k) {
        struct gs_vpart p;
        gs_verify_span_as(GS_TYPE_DOUBLE, out + cuts[k], NULL, GS_OP_ADD, cuts[k],
                          cuts[k + 1] - cuts[k], &p);
        gs_verify_merge(&l, &p, &v);
    }
    gs_verify_end(&l, out + n, &v);
    assert_int_equal(v.diag, GS_DIAG_SHORT_GRID);
    assert_int_equal(v.first_wrong, T);
    assert_int_equal(v.wrong, n - T);
    assert_int_equal(v.list[0].index, T);
    assert_true(v.list[0].unwritten);
    free(out);
}

/* Every kernel of the catalogue that is right under any launch, in its
 * double build as the host compiles it, leaves the exact sums. */
static void double_host_kernels_compute_exact_sums(void **state)
{
    (void)state;
    const uint64_t n = 32 * 8 * 3 + 5;
    double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
    double *out = malloc((n + GS_GUARD_ELEMS) * sizeof *out);
    assert_non_null(a);
    assert_non_null(b);
    assert_non_null(out);
    gs_fill_inputs_f64_at(a, b, 0, n);
    for (int k = 0; k < GS_KERNEL_COUNT; ++k) {
        const struct gs_kernel_info *info = gs_kernel_info((enum gs_kernel_id)k);
        if (info->rule != GS_RULE_ANY)
            continue;
        struct gs_launch l = launch_of(info->id, n, 3, 32);
        l.type = GS_TYPE_DOUBLE;
        l.param = info->param == GS_PARAM_CHUNK ? (n + l.global - 1) / l.global
                  : info->param == GS_PARAM_STRIDE ? 8 : 0;
        gs_poison_as(GS_TYPE_DOUBLE, out, n);
        for (uint64_t blk = 0; blk < l.grid; ++blk)
            for (uint64_t t = 0; t < l.block; ++t) {
                const struct gs_host_thread th = {(unsigned)blk, (unsigned)l.block,
                                                  (unsigned)l.grid, (unsigned)t, 0};
                gs_host_f64_kernels[k](&th, a, b, out, l.n, l.param);
            }
        struct gs_verdict v;
        gs_verify(out, NULL, &l, &v);
        if (v.diag != 0)
            fail_msg("%s in double: %llu wrong, the first at %llu", info->name,
                     (unsigned long long)v.wrong, (unsigned long long)v.first_wrong);
    }
    free(a);
    free(b);
    free(out);
}

/* Predicted counts of the test below: element i is written i / 5000 % 3
 * times, in runs of 5000 (longer than a scan's 4096). */
static uint64_t thirds(const void *ctx, uint64_t i, uint64_t end, uint64_t *count)
{
    (void)ctx;
    *count = i / 5000 % 3;
    return (i / 5000 + 1) * 5000 < end ? (i / 5000 + 1) * 5000 : end;
}

/* The count check, run by run: every wrong counter found, the first
 * GS_LISTED listed in index order, at the runs' and scans' edges; the sums and
 * maxima of what was read and what was predicted. */
static void count_span_finds_each_wrong_counter(void **state)
{
    (void)state;
    const uint64_t n = 5 * 4096 + 77, first = 1000;
    uint32_t *c = malloc(n * sizeof *c);
    assert_non_null(c);
    uint64_t predicted = 0;
    for (uint64_t k = 0; k < n; ++k) {
        c[k] = GS_COUNT_BASE + (uint32_t)((first + k) / 5000 % 3);
        predicted += (first + k) / 5000 % 3;
    }
    const uint64_t wrong[] = {0, 4095, 4096, 3 * 4096 + 5, n - 1};
    for (size_t w = 0; w < sizeof wrong / sizeof wrong[0]; ++w)
        c[wrong[w]] += 7;
    struct gs_count_verdict v;
    gs_count_span(c, first, n, thirds, NULL, &v);
    assert_int_equal(v.mismatched, 5);
    assert_int_equal(v.first_mismatch, first);
    assert_int_equal(v.total, predicted + 5 * 7);
    assert_int_equal(v.predicted_total, predicted);
    assert_int_equal(v.predicted_max, 2);
    assert_int_equal(v.max, 9);
    assert_int_equal(v.listed, GS_LISTED < 5 ? GS_LISTED : 5);
    for (int k = 0; k < v.listed; ++k) {
        assert_int_equal(v.list[k].index, first + wrong[k]);
        assert_int_equal(v.list[k].got, (first + wrong[k]) / 5000 % 3 + 7);
        assert_int_equal(v.list[k].want, (first + wrong[k]) / 5000 % 3);
    }
    /* all right: nothing mismatched */
    for (size_t w = 0; w < sizeof wrong / sizeof wrong[0]; ++w)
        c[wrong[w]] -= 7;
    gs_count_span(c, first, n, thirds, NULL, &v);
    assert_int_equal(v.mismatched, 0);
    assert_int_equal(v.listed, 0);
    assert_int_equal(v.total, predicted);
    free(c);
}

/* A value's bits, as the verifier records them. */
#define FLOAT_BITS(x) ((union { float f; uint32_t u; }){.f = (x)}.u)
#define DOUBLE_BITS(x) ((union { double d; uint64_t u; }){.d = (x)}.u)

/* A wrong element's row gives the value found and the value expected, in
 * the launch's type; an unwritten one says so. */
static void wrong_rows_show_found_and_expected(void **state)
{
    (void)state;
    struct gs_verdict v = {0};
    v.listed = 2;
    v.list[0] = (struct gs_wrong){.index = 7, .got_bits = FLOAT_BITS(3.0f),
                                  .want_bits = FLOAT_BITS(2.5f)};
    v.list[1] = (struct gs_wrong){.index = 8, .unwritten = 1};
    v.list[0].owner.launched = v.list[1].owner.launched = 1;
    struct gs_str o = {0};
    gs_report_wrong_list(&v, GS_TYPE_FLOAT, "", &o);
    assert_non_null(strstr(o.data, "  3, expected 2.5\n"));
    assert_non_null(strstr(o.data, "  unwritten\n"));
    assert_null(strstr(o.data, "wrong value"));
    gs_str_free(&o);
    v.listed = 1;
    v.list[0] = (struct gs_wrong){.index = 7, .got_bits = DOUBLE_BITS(0.1),
                                  .want_bits = DOUBLE_BITS(0.30000000000000004)};
    gs_report_wrong_list(&v, GS_TYPE_DOUBLE, "", &o);
    assert_non_null(strstr(o.data, "0.10000000000000001, expected 0.30000000000000004"));
    gs_str_free(&o);
}

/* The one wrapper every text report goes through: prose wraps at words
 * within the width, its continuation indented; a table row is kept whole;
 * a word wider than the width stays whole; width 0 changes nothing. */
static void text_wraps_prose_and_keeps_tables(void **state)
{
    (void)state;
    const char *text = "  speed: right, but 3.3x slower than the suite's loop on the same launch\n"
                       "  n | A | B\n"
                       "  1 | ok | wrong@1 and a long cell that runs past the width\n"
                       "/a/very/long/path/that/cannot/be/broken/anywhere/at/all end\n"
                       "short";
    struct gs_str o = {0};
    gs_text_wrap(text, 40, &o);
    assert_string_equal(o.data,
                        "  speed: right, but 3.3x slower than the\n"
                        "    suite's loop on the same launch\n"
                        "  n | A | B\n"
                        "  1 | ok | wrong@1 and a long cell that runs past the width\n"
                        "/a/very/long/path/that/cannot/be/broken/anywhere/at/all\n"
                        "  end\n"
                        "short");
    gs_str_free(&o);
    gs_text_wrap(text, 0, &o);
    assert_string_equal(o.data, text);
    gs_str_free(&o);
    /* A row of columns continues under its last column. */
    gs_text_wrap("    611  <<<1, 1>>>     short grid, from index 1 (610 of 611 wrong)\n", 60, &o);
    assert_string_equal(o.data, "    611  <<<1, 1>>>     short grid, from index 1 (610 of 611\n"
                                "                        wrong)\n");
    gs_str_free(&o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(inputs_are_nonzero_distinct_and_exact),
        cmocka_unit_test_setup_teardown(inputs_are_nonzero_distinct_and_exact, with_seed,
                                        without_seed),
        cmocka_unit_test(a_seed_moves_the_inputs),
        cmocka_unit_test(poison_is_nan_and_guard_distinct),
        cmocka_unit_test(correct_output_is_ok),
        cmocka_unit_test(untouched_output_fails_even_where_reference_would_be_zero),
        cmocka_unit_test(short_grid_is_diagnosed),
        cmocka_unit_test(holes_are_not_a_short_grid),
        cmocka_unit_test(wrong_values_are_diagnosed),
        cmocka_unit_test(writes_past_the_end_are_caught),
        cmocka_unit_test(chunked_owner_is_thread_and_step),
        cmocka_unit_test(owner_map_matches_the_kernels),
        cmocka_unit_test(closed_form_equals_the_arrays_at_any_offset),
        cmocka_unit_test_setup_teardown(closed_form_equals_the_arrays_at_any_offset, with_seed,
                                        without_seed),
        cmocka_unit_test(spans_merge_into_the_one_pass_verdict),
        cmocka_unit_test(pool_verdict_is_the_one_thread_verdict),
        cmocka_unit_test(closed_form_finds_what_the_arrays_find),
        cmocka_unit_test(poison_words_are_nan_as_float_and_as_double),
        cmocka_unit_test(double_closed_form_is_the_float_one),
        cmocka_unit_test(double_verification_finds_each_wrong_element),
        cmocka_unit_test(double_short_grid_in_spans),
        cmocka_unit_test(double_host_kernels_compute_exact_sums),
        cmocka_unit_test(count_span_finds_each_wrong_counter),
        cmocka_unit_test(wrong_rows_show_found_and_expected),
        cmocka_unit_test(text_wraps_prose_and_keeps_tables),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
