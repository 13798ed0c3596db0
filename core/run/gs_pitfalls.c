/* SPDX-License-Identifier: MIT */
#include "gs_pitfalls.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "gs_device.h"
#include "gs_memory.h"
#include "gs_parse.h"
#include "gs_plan_run.h"
#include "gs_registry.h"
#include "gs_worker.h"

extern const char gs_barrier_text[]; /* kernels/gs_barrier.gs, embedded */
extern const char gs_literal_text[]; /* kernels/gs_literal_*.gs around gs_pitfalls.h */

#define GS_2_31 (1ull << 31)
#define GS_2_32 (1ull << 32)
#define GS_TRAP_N 4194304ull /* seed 002's largest size */
#define GS_ROW_WIDTH 32ull
#define GS_TILE 4096ull

static const struct gs_trap_info trap_table[GS_TRAPS] = {
    [GS_TRAP_BLOCK_STRIDE] =
        {"block-stride", "Stepping by the block, not the grid",
         "for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x)",
         "always: every block walks the array from its own start",
         "A plain map still ends right, so a test of the values passes while element i is "
         "written min(grid, i / B + 1) times. Anything that accumulates is wrong by a factor "
         "that changes with the grid: the count build adds one per write, and its totals "
         "differ between the two grids."},
    [GS_TRAP_STRIDE32] =
        {"stride-32bit", "The stride without the cast",
         "for (size_t i = tid; i < n; i += blockDim.x * gridDim.x)  /* unsigned int product */",
         "grids of 2^32 threads or more: the product wraps to T mod 2^32",
         "Seed 001 says the wrapped stride 'silently skips elements'. With a 64-bit index it "
         "skips nothing: a stride s below T writes element i floor(i / s) + 1 times. At "
         "T = 2^32 the stride is 0 and the loop never ends; at T = 2^32 + 256 it takes about "
         "2^55 trips. Neither is launched. The arithmetic is unsigned, so defined: the kernel "
         "is the course's text, and its rows are the literal code's, predicted."},
    [GS_TRAP_INDEX32] =
        {"index-32bit", "Day 5's index line without the cast",
         "const unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;  if (i < n) ...",
         "n > 2^32 with the grid sized to n",
         "Threads from 2^32 on compute i mod 2^32 and write the front of the array again; "
         "elements from 2^32 on stay unwritten. OpenCL's get_global_id(0) is 64-bit and right "
         "there: the trap is the arithmetic, written the same way in every API. Unsigned, so "
         "defined: the kernel is the course's text, predicted."},
    [GS_TRAP_INT_LOOP] =
        {"int-loop", "Seed 001's int loop",
         "for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)  /* int "
         "stride */",
         "n > 2^31",
         "Past 2^31 - 1 the index wraps negative; against an unsigned 64-bit n it converts to a "
         "huge value and the loop ends, so nothing from 2^31 on is written. With a signed "
         "64-bit n the negative index passes i < n and the kernel writes before the buffer: "
         "predicted, never launched. Those rows wrap by definition (GS_INT_ADD_WRAP); the "
         "course's own text (i += stride in int) overflows, which is undefined: a compiler "
         "may assume it never happens and carry i in 64 bits, and then every element is "
         "right; another compiler, or the same one at another optimisation, wraps. Its "
         "literal rows record what each compiler's code did here; they are not predicted."},
    [GS_TRAP_BLOCK_COUNT] =
        {"int-block-count", "The tutorial's block count",
         "int blocks = (n + 255) / 256;  /* int n */  kernel<<<blocks, 256>>>(...)",
         "n within 255 of 2^31 - 1",
         "At n = 2^31 - 1 the sum overflows and the count comes out -8388607; as a CUDA grid "
         "(unsigned int) that is 4286578689 blocks, which CUDA refuses. The suite never sends "
         "such a grid to a CPU device or to OpenCL."},
    [GS_TRAP_Y_GRID] =
        {"y-grid", "One block per output row, along y",
         "kernel<<<dim3(1, rows), 32>>>(...)  /* row = blockIdx.y */",
         "rows > 65535",
         "CUDA's y and z grids stop at 65,535 blocks; OpenCL sets no limit along y but its "
         "size_t, so the two APIs part at 65,536 rows."},
    [GS_TRAP_TILE] =
        {"tile-loop", "A block-local tile loop on a short grid",
         "for (size_t i = blockIdx.x * tile + threadIdx.x; i < (blockIdx.x + 1) * tile; i += "
         "blockDim.x)",
         "a grid with fewer blocks than tiles",
         "Each block covers its own tile only, so with fewer blocks than tiles the tail is never "
         "processed: a short grid at grid x tile."},
    [GS_TRAP_EARLY_RETURN] =
        {"early-return", "Seed 002's early return above a barrier",
         "if (i >= n) return;  ...  __syncthreads();",
         "a ragged n: threads of the last block return before the barrier",
         "The course says the block hangs. CUDA and OpenCL leave a barrier that not every "
         "thread of the block reaches undefined, so nothing is predicted: the kernel "
         "(kernels/gs_barrier.gs) is built by the API's run-time compiler and every launch runs "
         "in check's worker under a deadline, killed there if it hangs (the next launch gets a "
         "fresh worker and context); the run records whether the block completed, hung or "
         "faulted. On PoCL the work-items that returned ran the code after the barrier anyway "
         "and wrote past the end."},
};

const struct gs_trap_info *gs_trap_info(enum gs_trap t)
{
    return (unsigned)t < GS_TRAPS ? &trap_table[t] : NULL;
}

int gs_parse_traps(const char *s, unsigned *mask, struct gs_err *e)
{
    char buf[256], *items[2 * GS_TRAPS];
    int n = 0;
    *mask = 0;
    if (strcmp(s, "all") == 0) {
        *mask = (1u << GS_TRAPS) - 1;
        return GS_OK;
    }
    int rc = gs_split_list(s, "--traps", "a comma list of traps, or all", buf, sizeof buf, items,
                           2 * GS_TRAPS, &n, e);
    for (int i = 0; i < n && rc == GS_OK; ++i) {
        int found = -1;
        for (int k = 0; k < GS_TRAPS; ++k)
            if (strcmp(items[i], trap_table[k].name) == 0)
                found = k;
        if (found < 0)
            return gs_err_set(e, GS_USAGE,
                              "--traps: unknown trap '%.*s%s'; use block-stride, stride-32bit, "
                              "index-32bit, int-loop, int-block-count, y-grid, tile-loop, "
                              "early-return or all",
                              GS_ECHO(items[i]));
        *mask |= 1u << found;
    }
    return rc;
}

/* ---- the cases ----------------------------------------------------------- */

static struct gs_trap_case *add(struct gs_pitfalls *p, enum gs_trap t, enum gs_kernel_id k,
                                uint64_t n, uint64_t grid, uint64_t block, const char *fmt, ...)
{
    struct gs_trap_case *c = &p->cases[p->ncases++];
    va_list ap;
    memset(c, 0, sizeof *c);
    c->trap = t;
    c->launch = gs_launch_1d(k, n, grid, block);
    va_start(ap, fmt);
    vsnprintf(c->label, sizeof c->label, fmt, ap);
    va_end(ap);
    return c;
}

/* The tutorial's int arithmetic, with the two's-complement wrap written in
 * defined operations: (n + 255) / 256 in int, then CUDA's dim3 conversion
 * to unsigned int. */
static uint64_t int_block_count(int32_t n, int32_t *as_int)
{
    *as_int = (int32_t)((uint32_t)n + 255u) / 256;
    return (uint32_t)*as_int;
}

/* Whether dev's kernels are C built by the suite's C compiler (the host and
 * OpenMP backends): there the literal text is built at -O0 as well. */
static int gcc_kernels(const struct gs_device *dev)
{
    return strcmp(dev->backend->name, "host") == 0 || strcmp(dev->backend->name, "openmp") == 0;
}

/* The compiler that built the literal kernel on dev, in words. */
static const char *literal_compiler(const struct gs_device *dev, int o0)
{
    const char *b = dev->backend->name;
    if (strcmp(b, "cuda") == 0)
        return "nvcc -O3 (the suite's build)";
    if (strcmp(b, "opencl") == 0)
        return "the OpenCL driver's default";
#if defined(__clang__)
    if (gcc_kernels(dev)) /* the preludes' GS_OPT_*: optnone, else the build's level */
        return o0 ? "Clang optnone" : "Clang at the build's level";
#else
    if (gcc_kernels(dev))
        return o0 ? "GCC -O0" : "GCC -O2";
#endif
    return "the backend's own build";
}

/* The block stride's n: seed 002's largest size on a GPU. A CPU device runs
 * a block's threads one after another, each walking the whole array a
 * block's width apart, G times over; there n is GS_TRAP_N / 16, or 16 G x B
 * on a CPU of many cores: every element past the first G blocks' is still
 * written G times, as on a GPU, at a sixteenth of the cost. */
static uint64_t block_stride_n(const struct gs_pitfalls *p)
{
    if (p->dev->is_gpu)
        return GS_TRAP_N;
    const uint64_t least = 16 * p->grid * GS_DEFAULT_BLOCK;
    const uint64_t n = GS_TRAP_N / 16 > least ? GS_TRAP_N / 16 : least;
    return n < GS_TRAP_N ? n : GS_TRAP_N;
}

static void plan_cases(struct gs_pitfalls *p, unsigned traps)
{
    const uint64_t G = p->grid, B = GS_DEFAULT_BLOCK;
    if (traps & (1u << GS_TRAP_BLOCK_STRIDE)) {
        /* Two grids: the accumulating form's error changes with the grid. */
        const uint64_t n = block_stride_n(p);
        add(p, GS_TRAP_BLOCK_STRIDE, GS_K_ADD_BLOCK_STRIDE, n, G, B, "grid G = %llu",
            (unsigned long long)G)->counted = 1;
        if (G > 1)
            add(p, GS_TRAP_BLOCK_STRIDE, GS_K_ADD_BLOCK_STRIDE, n, G / 2, B,
                "grid G / 2 = %llu", (unsigned long long)(G / 2))->counted = 1;
    }
    if (traps & (1u << GS_TRAP_STRIDE32)) {
        add(p, GS_TRAP_STRIDE32, GS_K_ADD_STRIDE32, GS_2_32 + 5, GS_2_32 / B, B,
            "T = 2^32: the stride wraps to 0");
        add(p, GS_TRAP_STRIDE32, GS_K_ADD_STRIDE32, GS_2_32 + 5, GS_2_32 / B + 1, B,
            "T = 2^32 + 256: the stride wraps to 256");
        add(p, GS_TRAP_STRIDE32, GS_K_ADD_STRIDE32, GS_2_32 + (1ull << 30),
            (GS_2_32 + (1ull << 30)) / B, B, "T = n = 2^32 + 2^30: the stride wraps to 2^30")
            ->counted = 1;
    }
    if (traps & (1u << GS_TRAP_INDEX32)) {
        const uint64_t n = GS_2_32 + 5;
        add(p, GS_TRAP_INDEX32, GS_K_ADD_INDEX32, n, n / B + 1, B,
            "grid sized to n: T = 2^32 + 256")->counted = 1;
    }
    if (traps & (1u << GS_TRAP_INT_LOOP)) {
        add(p, GS_TRAP_INT_LOOP, GS_K_ADD_INT_LOOP, GS_2_31 + 5, G, B,
            "unsigned 64-bit n, grid G = %llu", (unsigned long long)G)->counted = 1;
        add(p, GS_TRAP_INT_LOOP, GS_K_ADD_INT_LOOP_SIGNED, GS_2_31 + 5, G, B,
            "signed 64-bit n, grid G = %llu", (unsigned long long)G);
        /* The seed's own text (i += stride in int), built by this API's
         * usual compiler, and at -O0 beside it where the kernels are C. */
        add(p, GS_TRAP_INT_LOOP, GS_K_ADD_INT_LOOP_LITERAL, GS_2_31 + 5, G, B,
            "literal text, %s, grid G = %llu", literal_compiler(p->dev, 0),
            (unsigned long long)G)->literal = 1;
        if (gcc_kernels(p->dev))
            add(p, GS_TRAP_INT_LOOP, GS_K_ADD_INT_LOOP_LITERAL_O0, GS_2_31 + 5, G, B,
                "literal text, %s, grid G = %llu", literal_compiler(p->dev, 1),
                (unsigned long long)G)->literal = 1;
    }
    if (traps & (1u << GS_TRAP_BLOCK_COUNT)) {
        int32_t as_int;
        const uint64_t grid = int_block_count(INT32_MAX, &as_int);
        add(p, GS_TRAP_BLOCK_COUNT, GS_K_ADD_MONO, INT32_MAX, grid, B,
            "n = 2^31 - 1: blocks = %d, as a grid %llu", (int)as_int, (unsigned long long)grid);
    }
    if (traps & (1u << GS_TRAP_Y_GRID)) {
        /* At CUDA's ceiling, one past it, and far past it: 2^20 rows on a
         * GPU; on a CPU device, which runs its work-groups in turn (PoCL:
         * 0.5 s for 2^20 rows of 32 on 2 cores), 2^17, twice the ceiling. */
        const uint64_t rows[] = {65535, 65536, p->dev->is_gpu ? 1048576 : 131072};
        for (int r = 0; r < 3; ++r) {
            struct gs_trap_case *c = add(p, GS_TRAP_Y_GRID, GS_K_ADD_ROWS,
                                         rows[r] * GS_ROW_WIDTH, 1, GS_ROW_WIDTH,
                                         "%llu rows of %llu", (unsigned long long)rows[r],
                                         (unsigned long long)GS_ROW_WIDTH);
            c->launch.grid_y = rows[r];
            c->launch.param = GS_ROW_WIDTH;
        }
    }
    if (traps & (1u << GS_TRAP_TILE)) {
        const uint64_t grids[] = {64, GS_TRAP_N / GS_TILE};
        for (int g = 0; g < 2; ++g)
            add(p, GS_TRAP_TILE, GS_K_ADD_TILE, GS_TRAP_N, grids[g], B,
                "tiles of %llu, grid %llu (%s)", (unsigned long long)GS_TILE,
                (unsigned long long)grids[g], g ? "one block per tile" : "fewer blocks than tiles")
                ->launch.param = GS_TILE;
    }
}

/* ---- running them -------------------------------------------------------- */

struct count_ctx {
    const struct gs_launch *l;
    unsigned t_bits;
};

static uint64_t predicted_count(const void *ctx, uint64_t i, uint64_t end, uint64_t *count)
{
    const struct count_ctx *c = ctx;
    return gs_model_count_run(c->l, c->t_bits, i, end, count);
}

/* Predict every case, from the launch the runtime grants; those that can
 * run here are marked runnable, and the largest n among them sizes the
 * workspace (*max_n). */
static int predict_all(struct gs_pitfalls *p, uint64_t *max_n, struct gs_err *e)
{
    *max_n = 0;
    for (int i = 0; i < p->ncases; ++i) {
        struct gs_trap_case *c = &p->cases[i];
        struct gs_err why = {0};
        const int rc = gs_dev_grant(p->dev, &c->launch, e);
        if (rc != GS_OK)
            return rc;
        gs_predict(p->dev, &c->launch, &c->pred);
        if (c->pred.outcome == GS_OUT_NOT_LAUNCHED) {
            c->got.not_sent = 1;
            gs_strlcpy(c->got.api_error, "not launched", sizeof c->got.api_error);
            gs_strlcpy(c->got.api_message, c->pred.why, sizeof c->got.api_message);
            gs_verify_begin(&c->launch, &c->verdict);
            c->held = c->counts_held = 1;
            continue;
        }
        if ((c->launch.grid_y > 1 && !(p->dev->caps & GS_CAP_2D)) ||
            (c->counted && !(p->dev->caps & GS_CAP_COUNT))) {
            c->skipped = 1;
            snprintf(c->skip_why, sizeof c->skip_why, "the %s backend has no %s",
                     p->dev->backend->name, c->launch.grid_y > 1 ? "2D launches" : "count build");
        } else if (gs_memory_preflight(p->dev, c->launch.n, &why) != GS_OK) {
            char source[128];
            const uint64_t avail = gs_memory_available(p->dev, source, sizeof source);
            c->skipped = 1;
            snprintf(c->skip_why, sizeof c->skip_why,
                     "needs 3 buffers of %.1f GB (%.1f GB in all); this device has %.1f GB "
                     "(%s) and buffers of at most %.1f GB",
                     (double)gs_buffer_bytes(c->launch.n) / 1e9,
                     (double)gs_run_device_bytes(c->launch.n) / 1e9, (double)avail / 1e9, source,
                     (double)p->dev->max_alloc / 1e9);
        }
        if (c->skipped) {
            ++p->skipped;
            c->held = c->counts_held = 1;
        } else if (c->launch.n > *max_n) {
            *max_n = c->launch.n;
        }
    }
    return GS_OK;
}

static int run_case(struct gs_pitfalls *p, struct gs_workspace *w, struct gs_trap_case *c,
                    struct gs_err *e)
{
    snprintf(w->label, sizeof w->label, "%s %s: %s, %s", p->dev->backend->name, p->dev->name,
             gs_trap_info(c->trap)->name, c->label);
    gs_workspace_bind(w, &c->launch);
    int rc = gs_checked_launch(w, &c->launch, &c->got, &c->verdict, e);
    if (rc != GS_OK)
        return rc;
    gs_judge(&c->pred, &c->got, &c->verdict, &c->held, &c->deviation, c->mismatch,
             sizeof c->mismatch);
    c->counts_held = 1;
    if (!c->counted || !c->got.accepted)
        return GS_OK;
    const struct count_ctx ctx = {&c->launch, p->t_bits};
    rc = gs_checked_count(w, &c->launch, predicted_count, &ctx, &c->got_count, &c->counts, e);
    if (rc != GS_OK)
        return rc;
    c->counts_held = c->got_count.accepted && c->counts.mismatched == 0 &&
                     c->counts.guard_hits == 0;
    return GS_OK;
}

/* ---- the early return above a barrier: recorded in check's worker ------- */

static struct gs_trap_case *worker_skipped(struct gs_pitfalls *p, enum gs_trap trap,
                                          const char *fmt, ...)
{
    struct gs_trap_case *c = add(p, trap, GS_K_ADD_MONO, 611, 3, GS_DEFAULT_BLOCK,
                                 "three blocks: block 2 keeps 99 threads, 157 return");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->skip_why, sizeof c->skip_why, fmt, ap);
    va_end(ap);
    c->skipped = c->held = c->counts_held = 1;
    c->pred.outcome = c->pred.if_accepted = GS_OUT_UNDEFINED;
    gs_strlcpy(c->pred.why, "undefined: recorded, not predicted", sizeof c->pred.why);
    ++p->skipped;
    return c;
}

/* What one launch did, in words, from check's class of it. */
static void barrier_words(const struct gs_check_case *k, double timeout_s, char *buf,
                          size_t size)
{
    const char *words = gs_check_class_words(k->cls);
    switch (k->cls) {
    case GS_CHECK_OK:
        snprintf(buf, size, "completed: every element right");
        break;
    case GS_CHECK_DID_NOT_FINISH:
        snprintf(buf, size, "hung: killed after %g s (%.240s)", timeout_s, k->why);
        break;
    case GS_CHECK_FAULTED:
        snprintf(buf, size, "faulted: %.240s", k->why);
        break;
    case GS_CHECK_REFUSED:
        snprintf(buf, size, "refused: %.240s", k->got.api_error);
        break;
    case GS_CHECK_NOT_RUN:
        snprintf(buf, size, "not run: %.240s", k->why);
        break;
    case GS_CHECK_PAST_END:
        snprintf(buf, size,
                 "completed, and %s: %llu guard elements overwritten (the threads that "
                 "returned ran on)",
                 words, (unsigned long long)k->verdict.guard_hits);
        break;
    default:
        snprintf(buf, size, "completed, %s: %llu of %llu elements wrong, the first at %llu",
                 words, (unsigned long long)k->verdict.wrong, (unsigned long long)k->verdict.n,
                 (unsigned long long)k->verdict.first_wrong);
    }
}

/* One trap's cases built from text and run in check's worker (gs_worker.h),
 * every launch under a deadline: this process never runs the kernel. n on
 * the device grid and a T4's grid, and, with a shape, n under it. */
struct worker_trap {
    enum gs_trap trap;
    const struct gs_user_source *src;
    uint64_t n;
    const struct gs_shape *shape; /* NULL: none */
    const char *compiler;         /* how the worker builds it, for the labels */
    const char *pred;             /* the prediction's words */
    int literal;
};

static void worker_label(const struct worker_trap *t, const struct gs_check_case *r, char *buf,
                         size_t size)
{
    const uint64_t n = r->launch.n, B = r->launch.block;
    const char *where = r->section == GS_CHK_SIZES    ? "the device grid"
                        : r->section == GS_CHK_SHAPES ? "three blocks"
                                                      : "a T4's grid";
    if (t->trap == GS_TRAP_EARLY_RETURN)
        snprintf(buf, size, "%s: block %llu keeps %llu threads, %llu return", where,
                 (unsigned long long)(n / B), (unsigned long long)(n % B),
                 (unsigned long long)(B - n % B));
    else
        snprintf(buf, size, "literal text, %s, %s", t->compiler, where);
}

static int run_in_worker(struct gs_pitfalls *p, const struct gs_pitfalls_plan *plan,
                         const struct worker_trap *t, struct gs_err *e)
{
    const uint64_t sizes[] = {t->n};
    const struct gs_check_plan cp = {.block = GS_DEFAULT_BLOCK, .sizes = sizes, .nsizes = 1,
                                     .shapes = t->shape, .nshapes = t->shape ? 1 : 0};
    const double timeout = plan->barrier_timeout_s > 0 ? plan->barrier_timeout_s
                                                     : GS_BARRIER_TIMEOUT_S;
    struct gs_device *devs[1] = {p->dev};
    struct gs_grid_choice g;
    int rc = gs_plan_check(devs, 1, &cp, &g, e);
    if (rc == GS_USAGE) { /* the device or the host cannot hold n */
        struct gs_trap_case *c = worker_skipped(p, t->trap, e->msg);
        c->launch.n = t->n;
        c->launch.grid = p->grid;
        c->launch.global = p->threads;
        c->literal = t->literal;
        snprintf(c->label, sizeof c->label, "literal text, %s", t->compiler);
        *e = (struct gs_err){0};
        return GS_OK;
    }
    if (rc != GS_OK)
        return rc;
    const struct gs_worker_opts opts = {.timeout_s = timeout,
                                        .loads_in_process = gs_registry_is_reference};
    struct gs_check_run run = {0};
    uint64_t printed = 0;
    rc = gs_check_device_isolated(p->dev, &g, t->src, &cp, &opts, &run, &printed, e);
    if (rc == GS_BUILD || rc == GS_USAGE || rc == GS_UNSUPPORTED) {
        worker_skipped(p, t->trap, "the kernel was not built: %s", e->msg);
        *e = (struct gs_err){0};
        gs_check_run_free(&run);
        return GS_OK;
    }
    for (int k = 0; rc == GS_OK && k < run.ncases && p->ncases < GS_MAX_TRAP_CASES; ++k) {
        const struct gs_check_case *r = &run.cases[k];
        if (r->launch.n != t->n)
            continue; /* the shapes' n = 611 of a trap at another n */
        char label[128];
        worker_label(t, r, label, sizeof label);
        struct gs_trap_case *c = add(p, t->trap, GS_K_ADD_MONO, r->launch.n, r->launch.grid,
                                     r->launch.block, "%s", label);
        c->got = r->got;
        c->verdict = r->verdict;
        c->held = c->counts_held = 1;
        c->literal = t->literal;
        c->pred.outcome = c->pred.if_accepted = GS_OUT_UNDEFINED;
        snprintf(c->pred.why, sizeof c->pred.why, "%s; each launch in check's worker, killed "
                 "after %g s)", t->pred, timeout);
        if (t->literal && r->cls == GS_CHECK_OK)
            snprintf(c->recorded, sizeof c->recorded,
                     "literal: right (the compiler widened the index)");
        else if (t->literal && r->cls != GS_CHECK_DID_NOT_FINISH && r->cls != GS_CHECK_FAULTED &&
                 r->cls != GS_CHECK_NOT_RUN && r->cls != GS_CHECK_REFUSED)
            snprintf(c->recorded, sizeof c->recorded,
                     "literal: wrong@%llu: %llu of %llu elements (%s)",
                     (unsigned long long)r->verdict.first_wrong,
                     (unsigned long long)r->verdict.wrong, (unsigned long long)r->verdict.n,
                     gs_check_class_words(r->cls));
        else
            barrier_words(r, timeout, c->recorded, sizeof c->recorded);
        c->recorded_class = gs_check_class_name(r->cls);
    }
    gs_check_run_free(&run);
    return rc;
}

/* The early return at n = 611 on the device grid, on <<<3, 256>>> and on a
 * T4's grid: in each, block 2 keeps 99 threads and its other 157 return
 * before the barrier. The kernel is the portable dialect's, built in the
 * worker by the API's run-time compiler. */
static int run_barrier(struct gs_pitfalls *p, const struct gs_pitfalls_plan *plan,
                       struct gs_err *e)
{
    static const struct gs_shape three = {3, GS_DEFAULT_BLOCK};
    static const struct gs_user_source src = {"kernels/gs_barrier.gs", gs_barrier_text,
                                              "gs_early_return_barrier", GS_DIALECT_PORTABLE};
    const struct worker_trap t = {GS_TRAP_EARLY_RETURN, &src, 611, &three, NULL,
                                  "undefined: recorded, not predicted (threads that return "
                                  "never reach the barrier",
                                  0};
    const struct gs_backend *b = p->dev->backend;
    if (!plan->isolated)
        worker_skipped(p, t.trap, "runs only in check's worker, which the gridstride program "
                                  "starts");
    else if (strcmp(b->name, "host") == 0)
        worker_skipped(p, t.trap, "the host backend runs a block's threads one after another "
                                  "and has no barrier: the trap cannot be written there");
    else if (!gs_plan_builds_dialect(b, GS_DIALECT_PORTABLE))
        worker_skipped(p, t.trap, "the %s backend builds no kernel at run time, so the trap "
                                  "would run in this process, where a hang could not be "
                                  "stopped",
                       b->name);
    else
        return run_in_worker(p, plan, &t, e);
    return GS_OK;
}

/* The int loop's literal text through CUDA's run-time compiler, NVRTC at its
 * default, at n = 2^31 + 5: the suite's own build of the same text is
 * nvcc -O3's. Only in the gridstride program (check's worker). */
static int run_literal_nvrtc(struct gs_pitfalls *p, const struct gs_pitfalls_plan *plan,
                             struct gs_err *e)
{
    static const struct gs_user_source src = {"kernels/gs_literal_entry.gs", gs_literal_text,
                                              "gs_int_loop_literal_rt", GS_DIALECT_PORTABLE};
    const struct worker_trap t = {GS_TRAP_INT_LOOP, &src, GS_2_31 + 5, NULL,
                                  "NVRTC's default",
                                  "undefined: recorded, not predicted (an int index past "
                                  "2^31 - 1 is signed overflow",
                                  1};
    if (strcmp(p->dev->backend->name, "cuda") != 0 ||
        !gs_plan_builds_dialect(p->dev->backend, GS_DIALECT_PORTABLE))
        return GS_OK;
    if (!plan->isolated) {
        struct gs_trap_case *c = worker_skipped(p, t.trap, "runs only in check's worker, which "
                                                           "the gridstride program starts");
        c->literal = 1;
        c->launch.n = t.n;
        c->launch.grid = p->grid;
        c->launch.global = p->threads;
        snprintf(c->label, sizeof c->label, "literal text, %s", t.compiler);
        return GS_OK;
    }
    return run_in_worker(p, plan, &t, e);
}

int gs_pitfalls_run(struct gs_device *dev, const struct gs_pitfalls_plan *plan,
                    struct gs_pitfalls *p, struct gs_err *e)
{
    const struct gs_grid_probe *probe;
    struct gs_workspace w = {0};
    memset(p, 0, sizeof *p);
    p->dev = dev;
    int rc = gs_dev_grid(dev, GS_K_ADD_GS, GS_DEFAULT_BLOCK, &p->grid, p->grid_rule,
                         sizeof p->grid_rule, e);
    if (rc == GS_OK)
        rc = gs_dev_probe_grid(dev, &probe, e);
    if (rc != GS_OK)
        return rc;
    p->threads = p->grid * GS_DEFAULT_BLOCK;
    p->t_bits = gs_model_t_bits(dev);
    plan_cases(p, plan->traps);
    uint64_t max_n = 0;
    if ((rc = predict_all(p, &max_n, e)) != GS_OK)
        return rc;
    if (max_n > 0 && (rc = gs_workspace_open(&w, dev, max_n, plan->progress, e)) != GS_OK)
        return rc;
    /* The literal cases last: whatever their compiler made of them cannot
     * touch a predicted case's result. */
    for (int i = 0; i < 2 * p->ncases && rc == GS_OK; ++i) {
        struct gs_trap_case *c = &p->cases[i % p->ncases];
        if (c->literal != (i >= p->ncases) || c->skipped ||
            c->pred.outcome == GS_OUT_NOT_LAUNCHED)
            continue;
        rc = run_case(p, &w, c, e);
        c->launch.a = c->launch.b = c->launch.out = NULL;
        p->failed += !c->held || !c->counts_held;
        p->deviations += c->deviation;
    }
    p->copies = w.copies;
    gs_workspace_close(&w);
    if (rc == GS_OK && (plan->traps & (1u << GS_TRAP_INT_LOOP)))
        rc = run_literal_nvrtc(p, plan, e);
    if (rc == GS_OK && (plan->traps & (1u << GS_TRAP_EARLY_RETURN)))
        rc = run_barrier(p, plan, e);
    return rc;
}
