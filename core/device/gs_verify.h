/* SPDX-License-Identifier: MIT */
/* The NaN-fill verifier: the harness the course describes.
 *
 * Before every launch the output is poisoned with a NaN and a guard region
 * past its end with a second, distinct NaN; inputs are never zero and differ
 * per element, so an element no thread wrote, a thread that wrote the wrong
 * element, and a write past the end are all visible. Comparisons are
 * bit-exact: every input sum is an integer below 2^24, exact in fp32, and
 * the same integers are exact in double (a launch's gs_launch.type).
 *
 * Elements are floats or doubles (enum gs_type). The poison is filled as a
 * 32-bit word, so a double element is two poison words; both patterns are
 * chosen so that the word and the word twice over are quiet NaNs, as float
 * and as double (tests/test_verify.c checks it). Every function that takes
 * a struct gs_launch reads its elements as l->type; the others say. */
#ifndef GS_VERIFY_H
#define GS_VERIFY_H

#include <stdint.h>

#include "gs_backend.h"

#define GS_POISON_BITS 0x7FF8BAD0u /* quiet NaN: "never written" */
#define GS_GUARD_BITS 0x7FF8DEADu  /* quiet NaN: the guard past the end */
/* The same words as one double each: quiet NaNs too (exponent 0x7FF, the
 * quiet bit set). A float pattern whose top 12 bits are not 0x7FF, such as
 * 0x7FC0xxxx, would be a large finite double. */
#define GS_POISON_BITS64 (((uint64_t)GS_POISON_BITS << 32) | GS_POISON_BITS)
#define GS_GUARD_BITS64 (((uint64_t)GS_GUARD_BITS << 32) | GS_GUARD_BITS)
#define GS_GUARD_ELEMS 1024u       /* guard elements after the last output */
#define GS_FRONT_ELEMS GS_GUARD_ELEMS /* guard elements before the first (gs_buf.front) */
/* The finite poison of an accumulation check (gs_verify_accumulate): -2^22
 * as a float. No expected value is negative, and poison + any expected value
 * (below 3 x 2^22) is an integer of magnitude below 2^24: exact in fp32, so
 * `out[i] += a[i] + b[i]` leaves exactly poison + expected. */
#define GS_FINITE_POISON_BITS 0xCA800000u
#define GS_FINITE_POISON (-4194304.0f)
#define GS_LISTED 10               /* wrong indices listed in a verdict */

/* Inputs: a[i] = 1 + (i + sa) mod (2^22 - 3), b[i] = 1 + 2 * (((i + sb) * 40503) mod
 * (2^22 - 5)), with the offsets sa and sb of the inputs' seed (0 and 0 unless
 * gs_inputs_set_seed says otherwise). a alone is distinct for every i below
 * 4,194,301; a + b < 2^24, so the expected value of every element has a
 * closed form that no kernel computes. */
void gs_fill_inputs(float *a, float *b, uint64_t n);
/* The seed of the inputs, in this process: 0 (the suite's table) unless
 * set. check's parent draws one at random for its run and tells its workers
 * with each launch, after the user's code is loaded, so that a file cannot
 * write the expected values without reading the inputs. Set it while no
 * other thread fills or compares. */
void gs_inputs_set_seed(uint64_t seed);
uint64_t gs_inputs_seed(void);
/* Elements [first, first + count) of a and b (either may be NULL), written
 * from a[0] and b[0]. */
void gs_fill_inputs_at(float *a, float *b, uint64_t first, uint64_t count);
/* ref[i] = a[i] + b[i] (GS_OP_ADD) or a[i] (GS_OP_COPY). */
void gs_fill_expected(enum gs_op op, const float *a, const float *b, float *ref, uint64_t n);
/* The expected value of element i, from the closed form. */
float gs_expected_at(enum gs_op op, uint64_t i);
/* out[0, n) = poison NaN, out[n, n + GS_GUARD_ELEMS) = guard NaN. */
void gs_poison(float *out, uint64_t n);

/* The same in double: inputs, expected values and the poison. */
void gs_fill_inputs_f64_at(double *a, double *b, uint64_t first, uint64_t count);
double gs_expected_f64_at(enum gs_op op, uint64_t i);
/* out[0, n) and the guard after it, as n + GS_GUARD_ELEMS elements of
 * `type`, filled word by word as the device fill does. */
void gs_poison_as(enum gs_type type, void *out, uint64_t n);

/* Who should have written element i under this kernel and launch. Where
 * several threads write it (the pitfalls), the lowest-numbered one. */
struct gs_owner {
    int launched;    /* 0: the launch has no thread for it (block >= grid) */
    uint64_t block;  /* blockIdx.x of the owning thread (blockIdx.y for one block per row) */
    uint64_t thread; /* threadIdx.x */
    uint64_t pass;   /* grid-stride pass (or step within a chunk) */
    uint64_t writer; /* the thread's linear global index, blockIdx.y x T + its index along x
                        (T the launch's threads along x), as the trace build records it */
    uint64_t store;  /* how many stores that thread made before this one, as the trace build
                        counts them: the pass, except in float4's scalar tail, whose stores
                        follow the thread's vector stores */
};
void gs_owner_of(const struct gs_launch *l, uint64_t i, struct gs_owner *o);

struct gs_wrong {
    uint64_t index;
    int unwritten; /* still the poison NaN */
    uint64_t got_bits, want_bits; /* the element's bits: a float's in the low 32 */
    struct gs_owner owner;
};

enum gs_diag {
    GS_DIAG_SHORT_GRID = 1u << 0,   /* exactly the elements >= T are unwritten */
    GS_DIAG_HOLES = 1u << 1,        /* other elements left unwritten */
    GS_DIAG_WRONG_VALUES = 1u << 2, /* written with the wrong value */
    GS_DIAG_PAST_END = 1u << 3,     /* the guard past the end was overwritten */
    GS_DIAG_INDEX_WRAP = 1u << 4,   /* exactly the elements >= 2^32 are unwritten */
    GS_DIAG_INT_WRAP = 1u << 5,     /* exactly the elements >= 2^31 are unwritten */
    GS_DIAG_TAIL = 1u << 6,         /* exactly a tail is unwritten, from another index */
    GS_DIAG_BEFORE_START = 1u << 7, /* the guard before the start was overwritten */
    GS_DIAG_ACCUMULATES = 1u << 8,  /* on a finite poison, elements read poison + expected */
    GS_DIAG_ALL = (1u << 9) - 1u    /* every bit above: a classifier must map each */
};

struct gs_verdict {
    uint64_t n;
    uint64_t threads;     /* T of the launch */
    uint64_t wrong;       /* elements that differ from the reference */
    uint64_t unwritten;   /* of those, still poison */
    uint64_t first_wrong; /* valid when wrong > 0 */
    uint64_t guard_hits;  /* guard elements overwritten */
    uint64_t first_guard; /* offset past n of the first */
    uint64_t front_hits;  /* guard elements before the start overwritten (gs_verify_front) */
    uint64_t front_nearest; /* the overwritten one nearest the start: index -front_nearest */
    uint64_t accumulated;   /* elements that read poison + expected (gs_verify_accumulate) */
    uint64_t first_accumulated;
    unsigned diag;        /* GS_DIAG_* bits; 0 when everything is right */
    int listed;
    struct gs_wrong list[GS_LISTED];
};

/* Compare out[0, n + GS_GUARD_ELEMS) with ref[0, n) and the guard; ref NULL
 * means the closed form. Elements of l->type. */
void gs_verify(const void *out, const void *ref, const struct gs_launch *l,
               struct gs_verdict *v);

/* The same comparison over an output that arrives in pieces, compared on
 * several threads: gs_verify_span fills one part (and touches nothing
 * else, so parts can run at once); gs_verify_merge adds parts to the verdict
 * in increasing index order, which keeps the first wrong index and the
 * listed ones exactly those of a single pass. */
struct gs_vpart {
    uint64_t wrong, unwritten, first_wrong;
    int listed;
    struct gs_wrong list[GS_LISTED];
};
void gs_verify_begin(const struct gs_launch *l, struct gs_verdict *v);
/* Compare out[0, count), which holds elements [first, first + count), with
 * ref[0, count) (NULL: the closed form of the kernel's operation); floats. */
void gs_verify_span(const float *out, const float *ref, enum gs_op op, uint64_t first,
                    uint64_t count, struct gs_vpart *p);
/* The same over elements of `type`. */
void gs_verify_span_as(enum gs_type type, const void *out, const void *ref, enum gs_op op,
                       uint64_t first, uint64_t count, struct gs_vpart *p);
void gs_verify_merge(const struct gs_launch *l, const struct gs_vpart *p, struct gs_verdict *v);
/* guard[0, GS_GUARD_ELEMS): the elements past n, of l->type. Then the
 * diagnosis. */
void gs_verify_end(const struct gs_launch *l, const void *guard, struct gs_verdict *v);

/* front[0, GS_FRONT_ELEMS): the guard before element 0 (front[GS_FRONT_ELEMS
 * - 1] is index -1), of l->type, poisoned with the guard's bits. Counts the
 * overwritten ones and sets GS_DIAG_BEFORE_START. */
void gs_verify_front(const struct gs_launch *l, const void *front, struct gs_verdict *v);

/* A second run of a launch whose verdict has unwritten elements, on an
 * output poisoned with GS_FINITE_POISON instead of the NaN (floats only):
 * an element that reads poison + expected was accumulated into (`+=`), not
 * left unwritten; one that reads the poison was not written. Counts the
 * accumulated ones into v and sets GS_DIAG_ACCUMULATES when there are any;
 * when they are all of v's wrong elements, the first run's other value
 * bits (holes, tail, wrong values) were this one cause and are cleared.
 * out holds elements [0, l->n). */
void gs_verify_accumulate(const struct gs_launch *l, const float *out, struct gs_verdict *v);

/* ---- the count build's output: a 32-bit counter per element ---- */

/* Counters start here, not at 0: an element that a failed fill left at 0
 * cannot pass for "written 0 times". Count = counter - base. */
#define GS_COUNT_BASE 0x40000000u

struct gs_count_wrong {
    uint64_t index;
    uint64_t got, want; /* writes observed and predicted */
};

/* The writes per element against the model's prediction for every element. */
struct gs_count_verdict {
    uint64_t n;
    uint64_t mismatched;     /* elements whose count differs from the prediction */
    uint64_t first_mismatch; /* valid when mismatched > 0 */
    uint64_t total, predicted_total; /* writes in all */
    uint64_t max, predicted_max;     /* the most writes of one element */
    uint64_t guard_hits;
    int listed;
    struct gs_count_wrong list[GS_LISTED];
};

/* Predicted writes of element i into *count; returns the end of the run of
 * elements from i on that share it (i < the end <= `end`). ctx is the
 * caller's. */
typedef uint64_t (*gs_count_fn)(const void *ctx, uint64_t i, uint64_t end, uint64_t *count);

void gs_count_begin(uint64_t n, struct gs_count_verdict *v);
/* counters[0, count) hold elements [first, first + count); p must be a
 * zeroed verdict of its own (one per thread), merged in index order. */
void gs_count_span(const uint32_t *counters, uint64_t first, uint64_t count, gs_count_fn want,
                   const void *ctx, struct gs_count_verdict *p);
void gs_count_merge(const struct gs_count_verdict *p, struct gs_count_verdict *v);
void gs_count_end(const float *guard, struct gs_count_verdict *v);

/* ---- the trace build's output: a record of four 32-bit words per element ---- */

#define GS_TRACE_WORDS 4u          /* count, fence, and a 64-bit key: writer x 2^32 + pass */
#define GS_TRACE_EMPTY 0xFFFFFFFFu /* every word before the launch: the key's maximum, so
                                      that the kernels' atomic minimum keeps the lowest
                                      writer; the count word then reads count - 1 */

/* 1 when nothing of the verdict differs: no wrong element, no guard element
 * on either side overwritten, no diagnosis. */
int gs_verdict_clean(const struct gs_verdict *v);

/* One line in words: "ok", or the diagnosis the course's harness gives. */
void gs_diagnosis(const struct gs_verdict *v, char *buf, unsigned size);

#endif
