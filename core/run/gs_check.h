/* SPDX-License-Identifier: MIT */
/* `gridstride check`: a user's kernel through the suite's own harness.
 *
 * Seed 002's exercise: the harness owns the buffers and the launch; the
 * user's kernel computes out[i] = a[i] + b[i] for i < n, under any grid. It
 * runs at the course's ten sizes on the device grid, at n = 611 under its four
 * launch shapes, and at the sizes of a Tesla T4's grid (160 x 256), each
 * launch poisoned, verified bit for bit and diagnosed by the same code as
 * the suite's own kernels (gs_checked_launch, gs_verify, gs_diagnosis). */
#ifndef GS_CHECK_H
#define GS_CHECK_H

#include "gs_counters.h"
#include "gs_speed.h"
#include "gs_table.h"
#include "gs_verify.h"

#define GS_T4_GRID 160u  /* the course's T4: 4 blocks per SM x 40 SMs */
#define GS_T4_BLOCK 256u

enum gs_check_section {
    GS_CHK_SIZES,  /* each size on the device grid */
    GS_CHK_SHAPES, /* n = GS_SHAPE_N under each launch shape */
    GS_CHK_T4      /* each size for a T4's T, on a T4's grid */
};

/* How a case ended: id, short name (JSON, CSV, examples' expect lines),
 * words for reports. */
#define GS_CHECK_CLASS_LIST(X)                                                 \
    X(OK, "ok", "ok")                                                          \
    X(SHORT_GRID, "short-grid", "short grid")                                  \
    X(UNWRITTEN, "unwritten", "elements never written")                       \
    X(UNWRITTEN_TAIL, "unwritten-tail", "the loop stops early")                \
    X(INT_WRAP, "int-wrap", "int index wraps at 2^31")                         \
    X(INDEX_WRAP, "index-wrap", "32-bit index wraps at 2^32")                  \
    X(PAST_END, "past-end", "wrote past the end")                              \
    X(BEFORE_START, "before-start", "wrote before the start")                  \
    X(ACCUMULATES, "accumulates", "accumulates into out (+=)")                 \
    X(WRONG_VALUE, "wrong-value", "wrong value")                               \
    X(REFUSED, "refused", "launch refused")                                    \
    X(FAULTED, "faulted", "faulted")                                           \
    X(DID_NOT_FINISH, "did-not-finish", "did not finish")                      \
    X(NOT_RUN, "not-run", "not run")                                           \
    /* Outcomes of the whole file, never of a case: the JSON's "verdict". */   \
    X(COMPILE_ERROR, "compile-error", "compile error")                         \
    X(BAD_SIGNATURE, "bad-signature", "bad signature")                         \
    X(FILE_REFUSED, "file-refused", "file refused")                            \
    X(BAD_USAGE, "bad-usage", "bad usage")                                     \
    X(ERROR, "error", "the harness failed")

enum gs_check_class {
#define GS_CHECK_CLASS_ENUM(id, name, words) GS_CHECK_##id,
    GS_CHECK_CLASS_LIST(GS_CHECK_CLASS_ENUM)
#undef GS_CHECK_CLASS_ENUM
    GS_CHECK_CLASSES
};

const char *gs_check_class_name(enum gs_check_class c);  /* "short-grid" */
const char *gs_check_class_words(enum gs_check_class c); /* "short grid" */

struct gs_check_case {
    enum gs_check_section section;
    struct gs_launch launch; /* buffers and kernel are cleared once it has run */
    struct gs_launch_result got;
    struct gs_verdict verdict;
    enum gs_check_class cls;
    char why[640]; /* FAULTED: the API's error; DID_NOT_FINISH, NOT_RUN: why */
    double wall_s;   /* how long it took in its worker, launch and copy (0: not run) */
    double expect_s; /* before it runs: its expected time from a right case that ran (0: none):
                        the same n on another grid, or a smaller n on the same launch scaled
                        by n */
    uint64_t expect_n, expect_grid; /* that case's n and grid */
};

/* What to run: the same for every device of one invocation. */
struct gs_check_plan {
    unsigned block;                /* 0: GS_DEFAULT_BLOCK */
    uint64_t grid;                 /* 0: the device grid */
    const uint64_t *sizes;         /* NULL: the course's ten sizes for each grid's T */
    int nsizes;
    int traps;                     /* on the device grid also the traps' sizes (GS_CHECK_TRAP_N) */
    const struct gs_shape *shapes; /* NULL: the course's four shapes */
    int nshapes;
    int no_speed;     /* --no-speed: no timing after the cases */
    double min_speed; /* --min-speed: a ratio below it fails; 0: none */
    int no_counters;  /* --no-counters: no hardware counters (gs_counters_run.h) */
    int counters;     /* --counters: read them also for an as-fast kernel, and under --no-speed */
    const char *ncu;  /* --ncu: Nsight Compute's ncu; NULL: looked for */
    uint64_t counters_n; /* the counted launch's n; 0: GS_COUNTERS_N (the command's;
                            the tests count fewer on their CPU stand-in) */
};

/* Who wrote what (gs_dev_user_count): once every case is right, where the
 * backend can run one thread of a launch alone (the host, .gs files). */
enum gs_work_class { GS_WORK_NOT_COUNTED, GS_WORK_ONCE, GS_WORK_REPEATED, GS_WORK_BLOCK_STRIDE };

struct gs_check_work {
    enum gs_work_class cls;
    char why[400];               /* not counted: why */
    uint64_t n, grid, block;     /* the counted launch */
    uint32_t min, max;           /* writers per element */
    uint64_t total;              /* writes of all elements */
    int64_t first_repeated;      /* the first element written more than once, or -1 */
    uint32_t repeated_count, first_writer, last_writer; /* its writers */
    char words[500];             /* the verdict in the lesson's words */
    char rule[300];
    int on_host;                 /* a .gs text counted on the host backend for another */
    uint32_t *count_of, *first_of; /* n each, once counted (check --svg); freed with the run */
};

/* The class and words of a count (pure): elements 0..n-1 with count[],
 * first[] and last[] as user_count() leaves them. */
void gs_check_work_judge(struct gs_check_work *w, const uint32_t *count, const uint32_t *first,
                         const uint32_t *last);
const char *gs_work_class_name(enum gs_work_class c); /* "once", "block-stride" */

struct gs_check_run {
    struct gs_device *dev;
    struct gs_build_info build; /* how the kernel was built, and the compiler's log */
    unsigned block;
    uint64_t grid, threads; /* G and T of the device grid */
    char grid_rule[200];
    int ncases;
    struct gs_check_case *cases;
    /* On a CPU device the T4's section stops at its T + 1 (the tail past T
     * is its lesson; there n = 4194304 on 160 blocks would cost a kernel
     * that works per block 160 times the grid-stride loop's work, for
     * nothing the device grid's case does not show): the sizes left out of
     * it, in words ("" when none; --sizes runs every size on it). */
    char t4_left_out[160];
    /* The sizes added to the seed's ten on the device grid, in words, with
     * why ("" under --sizes): gs_check_added_sizes. */
    char sizes_added[240];
    int count[GS_CHECK_CLASSES];
    int smallest; /* the failing case with the smallest n (then T), or -1 */
    struct gs_speed speed; /* timed once every case is right (gs_speed.h) */
    struct gs_check_work work; /* counted once every case is right */
    struct gs_counters counters; /* read once every case is right (gs_counters_run.h) */
    /* Where the wall time went, measured in this process (seconds, a phase
     * that did not run takes next to none): the first worker's start and
     * build, the cases (with any fresh worker they needed), the count in the
     * device's worker, the speed pass, the counters pass. */
    struct {
        double build_s, cases_s, count_s, speed_s, counters_s;
    } elapsed;
};

/* A user's kernel is built and run only in a worker process
 * (gs_check_device_isolated, gs_worker.h); this process plans and judges.
 * Free a run with gs_check_run_free() whatever the status. */
void gs_check_run_free(struct gs_check_run *run);
/* Move a count into `to`: its arrays freed first, from's handed over (from
 * keeps none). */
void gs_check_work_take(struct gs_check_work *to, struct gs_check_work *from);

/* What the isolated run (gs_worker.h) asks of the harness: the cases on
 * the G already chosen for dev (gs_plan_check; GS_OK, or why not), the
 * class of a case that ran, and the counts and smallest failing case once
 * all have run. */
int gs_check_plan_device(struct gs_device *dev, const struct gs_grid_choice *g,
                         const struct gs_check_plan *plan, struct gs_check_run *run,
                         struct gs_err *e);
/* Total: a verdict with any wrong element, any guard element overwritten or
 * any diagnosis bit is never GS_CHECK_OK. Each GS_DIAG_* bit has its class
 * (gs_check_diag_class), the most telling first. */
enum gs_check_class gs_check_classify(const struct gs_launch_result *got,
                                      const struct gs_verdict *v);
/* The class of one diagnosis bit; GS_CHECK_CLASSES for a value that is not
 * exactly one GS_DIAG_* bit. */
enum gs_check_class gs_check_diag_class(unsigned bit);
void gs_check_summarize(struct gs_check_run *run);

/* `check --sizes traps`: the sizes where the course's index traps bite, and
 * the trap each is for ("" for any other n). */
#define GS_CHECK_TRAP_SIZES {(1ull << 31) + 5, (1ull << 32) + 5}
const char *gs_check_size_trap(uint64_t n);

/* Sizes check adds on the device grid to the seed's ten (default sizes
 * only), where a loop that stops early hides from them: T - 1 (one short of
 * the grid), 2T + 1 (a third pass of one element: a loop that stops after
 * two passes) and the first prime past 3T + block / 2 (three passes and a
 * ragged last block: a loop that skips n % block). 0 when T < 2. */
#define GS_CHECK_ADDED_SIZES 3
int gs_check_added_sizes(uint64_t T, unsigned block, uint64_t out[GS_CHECK_ADDED_SIZES]);

/* The largest n the plan launches on a device grid of T threads. */
uint64_t gs_check_max_n(const struct gs_check_plan *plan, uint64_t T);

/* Which dialect a file name says: .cl, .cu, or .gs (the portable dialect).
 * GS_USAGE with a one-line fix otherwise. */
int gs_dialect_of_path(const char *path, enum gs_dialect *d, struct gs_err *e);
const char *gs_dialect_name(enum gs_dialect d); /* "OpenCL C" */

/* The text of a user kernel's file: one line naming the problem when it is
 * not plausibly source code (empty, NUL bytes, not text). */
int gs_check_source_text(const char *path, const char *text, size_t len, struct gs_err *e);

/* What a user's file may not do, whatever its dialect (the same rules for
 * .gs, .cl and .cu, since a .gs text reaches cc, PoCL's clang and NVRTC):
 * any directive but #define, #undef, the #if family, #error, #warning and
 * the loop pragmas (so no #include and kin, #line, linemarkers, #ident);
 * asm in any spelling; the attributes that pass a string to the assembler
 * (section, alias, ...) or run code at load (constructor, ...); _Pragma,
 * __has_include; token pasting (##), which could spell any of these; and
 * the bytes compilers read differently (trigraphs, a backslash with blanks
 * before a newline, a lone carriage return, non-ASCII code, raw strings,
 * digit separators). GS_USAGE with one line naming the line. */
int gs_check_source_rules(const char *path, const char *text, size_t len, enum gs_dialect d,
                          struct gs_err *e);

/* 1 when `entry` can name a kernel: a C identifier. */
int gs_entry_valid(const char *entry);

#endif
