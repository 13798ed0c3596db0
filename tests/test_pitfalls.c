/* SPDX-License-Identifier: MIT */
/* The pitfalls, run for real on one backend (ctest runs it once per
 * backend, like the conformance body): the traps that fit any machine
 * (block stride, tile loop, the y grid) predicted, launched and verified,
 * values and writes per element; the ones that need 2^31 elements or more
 * must be skipped with a reason or not launched, never silently dropped.
 * Independently of the model, the expected counts are recomputed here by
 * brute force over the threads. Exit 77 (skipped) without a device, unless
 * GRIDSTRIDE_REQUIRE names the backend.
 *
 *   test_pitfalls BACKEND [PART]
 *
 * PART picks what runs, so that ctest runs the parts side by side: "small"
 * (block stride, tile loop, y grid, the early return), or one of the big traps by its --traps
 * name (stride-32bit, index-32bit, int-loop, int-block-count); without it,
 * everything. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gs_device.h"
#include "gs_memory.h"
#include "gs_pitfalls.h"
#include "gs_registry.h"
#include "gs_resource.h"
#include "gs_test_log.h"
#include "gs_select.h"


static struct gs_opened opened;
static struct gs_device *dev;

static struct gs_pitfalls *run(unsigned traps)
{
    struct gs_pitfalls *p = calloc(1, sizeof *p);
    const struct gs_pitfalls_plan plan = {traps, NULL, 0, 0};
    struct gs_err e = {0};
    assert_non_null(p);
    if (gs_pitfalls_run(dev, &plan, p, &e) != GS_OK)
        fail_msg("gs_pitfalls_run: %s", e.msg);
    for (int i = 0; i < p->ncases; ++i) {
        const struct gs_trap_case *c = &p->cases[i];
        if (!c->held || !c->counts_held)
            print_error("%s %s: %s (counts: %llu mismatched from %llu)\n",
                        gs_trap_info(c->trap)->name, c->label, c->mismatch,
                        (unsigned long long)c->counts.mismatched,
                        (unsigned long long)c->counts.first_mismatch);
    }
    return p;
}

/* All writes under the block stride, by walking every thread's loop: thread
 * t of block b runs i = b*B + t, b*B + t + B, ... while i < n, so it makes
 * ceil((n - (b*B + t)) / B) trips. Over the threads, not over the elements:
 * grid x B steps, where elements x grid took seconds on a GPU's grid (1056
 * blocks on an H200: 6.6e9 steps for the two cases). */
static uint64_t block_stride_writes(uint64_t n, uint64_t grid, uint64_t B)
{
    uint64_t w = 0;
    for (uint64_t b = 0; b < grid; ++b)
        for (uint64_t t = 0; t < B; ++t) {
            const uint64_t start = b * B + t;
            if (start < n)
                w += (n - start + B - 1) / B;
        }
    return w;
}

static void block_stride_writes_each_element_once_per_block_below_it(void **state)
{
    (void)state;
    struct gs_pitfalls *p = run(1u << GS_TRAP_BLOCK_STRIDE);
    assert_int_equal(p->failed, 0);
    int counted = 0;
    uint64_t totals[2] = {0, 0};
    for (int i = 0; i < p->ncases; ++i) {
        const struct gs_trap_case *c = &p->cases[i];
        if (c->skipped || !c->got.accepted)
            continue;
        assert_int_equal(c->verdict.diag, 0); /* the plain map is right */
        assert_true(c->got_count.accepted);
        const uint64_t want = block_stride_writes(c->launch.n, c->launch.grid, c->launch.block);
        assert_int_equal(c->counts.total, want);
        assert_int_equal(c->counts.max, c->launch.grid);
        if (counted < 2)
            totals[counted] = c->counts.total;
        ++counted;
    }
    assert_int_equal(counted, 2);
    assert_true(totals[0] != totals[1]); /* wrong by a factor that changes with the grid */
    free(p);
}

static void tile_loop_on_a_short_grid_leaves_the_tail(void **state)
{
    (void)state;
    struct gs_pitfalls *p = run(1u << GS_TRAP_TILE);
    assert_int_equal(p->failed, 0);
    assert_int_equal(p->ncases, 2);
    const struct gs_trap_case *short_grid = &p->cases[0], *full = &p->cases[1];
    assert_int_equal(gs_observed(&short_grid->got, &short_grid->verdict), GS_OUT_WRONG);
    assert_int_equal(short_grid->verdict.first_wrong, short_grid->launch.grid * 4096);
    assert_true(short_grid->verdict.diag & GS_DIAG_TAIL);
    assert_int_equal(gs_observed(&full->got, &full->verdict), GS_OUT_OK);
    free(p);
}

/* 65535 rows run everywhere; past it, whatever the API does must be what
 * the model predicted from the device (the host follows CUDA and refuses). */
static void y_grid_ceiling_is_predicted(void **state)
{
    (void)state;
    struct gs_pitfalls *p = run(1u << GS_TRAP_Y_GRID);
    assert_int_equal(p->failed, 0);
    for (int i = 0; i < p->ncases; ++i) {
        const struct gs_trap_case *c = &p->cases[i];
        if (c->skipped)
            continue;
        if (c->launch.grid_y <= 65535)
            assert_int_equal(gs_observed(&c->got, &c->verdict), GS_OUT_OK);
        else if (strcmp(dev->backend->name, "host") == 0)
            assert_int_equal(gs_observed(&c->got, &c->verdict), GS_OUT_REFUSED);
    }
    free(p);
}

/* The traps that need 2^31 elements or more (test_pitfalls BACKEND TRAP runs one). */
#define BIG_TRAPS                                                                              \
    ((1u << GS_TRAP_STRIDE32) | (1u << GS_TRAP_INDEX32) | (1u << GS_TRAP_INT_LOOP) |             \
     (1u << GS_TRAP_BLOCK_COUNT))
static unsigned big_traps = BIG_TRAPS;

/* The int loop's literal text: -O0 beside the usual level where the kernels
 * are C built by GCC, NVRTC's build beside nvcc's on CUDA (skipped here: it
 * runs in check's worker, which a test is not). */
static int gcc_built(void)
{
    return strcmp(dev->backend->name, "host") == 0 || strcmp(dev->backend->name, "openmp") == 0;
}

/* The cases of a big trap (its launches) on this device. */
static int big_cases(unsigned traps)
{
    const int cuda = strcmp(dev->backend->name, "cuda") == 0;
    int n = 0;
    n += traps & (1u << GS_TRAP_STRIDE32) ? 3 : 0;
    n += traps & (1u << GS_TRAP_INDEX32) ? 1 : 0;
    n += traps & (1u << GS_TRAP_INT_LOOP) ? 2 + 1 + gcc_built() + cuda : 0;
    n += traps & (1u << GS_TRAP_BLOCK_COUNT) ? 1 : 0;
    return n;
}

/* The traps at 2^31 and 2^32 on a machine that cannot hold them: every
 * case accounted for, with a reason; none silently dropped. With
 * GRIDSTRIDE_PITFALLS_ALL=1 none may be skipped for want of free memory
 * (a device's largest buffer is its own limit, as the template's is). */
static void big_traps_are_skipped_or_not_launched_with_a_reason(void **state)
{
    (void)state;
    /* A machine that holds them all (a GPU server's run, scripts/gpu-ctest.sh)
     * says so: there a case skipped for memory fails, not passes. */
    const char *all = getenv("GRIDSTRIDE_PITFALLS_ALL");
    const int all_sizes = all && strcmp(all, "1") == 0;
    struct gs_pitfalls *p = run(big_traps);
    char copies[300];
    if (gs_copy_rate_line(&p->copies, 1ull << 30, copies, sizeof copies))
        printf("%s\n", copies); /* where the time went: the record's floor beside its time */
    assert_int_equal(p->failed, 0);
    assert_int_equal(p->ncases, big_cases(big_traps));
    int literal = 0;
    for (int i = 0; i < p->ncases; ++i) {
        const struct gs_trap_case *c = &p->cases[i];
        if (c->skipped)
            assert_true(c->skip_why[0] != '\0');
        if (c->skipped && all_sizes && strncmp(c->skip_why, "needs ", 6) == 0 &&
            gs_buffer_bytes(c->launch.n) <= dev->max_alloc) /* memory free, not a device limit */
            fail_msg("%s %s: skipped (%s); GRIDSTRIDE_PITFALLS_ALL=1 demands every trap at its "
                     "size", gs_trap_info(c->trap)->name, c->label, c->skip_why);
        else if (c->pred.outcome == GS_OUT_NOT_LAUNCHED)
            assert_true(c->got.not_sent && c->pred.why[0] != '\0');
        /* the stride that wraps to 0 is never launched anywhere */
        if (c->trap == GS_TRAP_STRIDE32 && c->launch.global == (1ull << 32))
            assert_int_equal(c->pred.outcome, GS_OUT_NOT_LAUNCHED);
        if (c->launch.kernel == GS_K_ADD_INT_LOOP_SIGNED)
            assert_int_equal(c->pred.outcome, GS_OUT_NOT_LAUNCHED);
        /* the literal text: recorded, never predicted, never a failure */
        if (c->launch.kernel == GS_K_ADD_INT_LOOP_LITERAL ||
            c->launch.kernel == GS_K_ADD_INT_LOOP_LITERAL_O0) {
            ++literal;
            assert_true(c->literal);
            assert_int_equal(c->pred.outcome, GS_OUT_UNDEFINED);
            assert_non_null(strstr(c->pred.why, "undefined: recorded, not predicted"));
            assert_true(c->held && c->counts_held);
            assert_non_null(strstr(c->label, "literal text"));
        }
    }
    assert_int_equal(literal, big_traps & (1u << GS_TRAP_INT_LOOP) ? 1 + gcc_built() : 0);
    free(p);
}

/* The big traps among `traps` whose launched cases fit this device's
 * memory: the largest n each launches (stride-32bit's T = 2^32 cases and
 * int-block-count's grid are never sent to a CPU device). */
static unsigned cpu_big_traps_that_fit(unsigned traps)
{
    static const struct {
        enum gs_trap trap;
        uint64_t n;
    } launched[] = {
        {GS_TRAP_STRIDE32, (1ull << 32) + (1ull << 30)},
        {GS_TRAP_INDEX32, (1ull << 32) + 5},
        {GS_TRAP_INT_LOOP, (1ull << 31) + 5},
    };
    unsigned fit = 0;
    for (size_t k = 0; k < sizeof launched / sizeof launched[0]; ++k) {
        struct gs_err e = {0};
        if ((traps & (1u << launched[k].trap)) &&
            gs_memory_preflight(dev, launched[k].n, &e) == GS_OK)
            fit |= 1u << launched[k].trap;
    }
    return fit;
}

/* The early return above a barrier runs only in check's worker, which a
 * test binary is not: skipped with the reason, recorded, never a failure. */
static void early_return_is_skipped_outside_the_program(void **state)
{
    (void)state;
    struct gs_pitfalls *p = run(1u << GS_TRAP_EARLY_RETURN);
    assert_int_equal(p->failed, 0);
    assert_int_equal(p->ncases, 1);
    assert_int_equal(p->skipped, 1);
    assert_true(p->cases[0].skipped);
    assert_int_equal(p->cases[0].pred.outcome, GS_OUT_UNDEFINED);
    assert_true(p->cases[0].skip_why[0] != '\0');
    free(p);
}

int main(int argc, char **argv)
{
    const char *part = argc == 3 ? argv[2] : NULL;
    int small = 1;
    if (part) {
        struct gs_err e = {0};
        unsigned mask = 0;
        if (strcmp(part, "small") == 0) {
            big_traps = 0;
        } else if (gs_parse_traps(part, &mask, &e) == GS_OK && mask && !(mask & ~BIG_TRAPS)) {
            big_traps = mask;
            small = 0;
        } else {
            fprintf(stderr, "test_pitfalls: unknown part '%s'; name small, stride-32bit, "
                            "index-32bit, int-loop or int-block-count\n", part);
            return 2;
        }
    }
    const int early = gs_test_open("pitfalls", part ? 2 : argc, argv, &opened, &dev);
    if (early >= 0)
        return early;
    /* On a CPU device (the host reference, PoCL, OpenMP's host fallback) a big
     * trap that fits this machine's memory is computed there at 2^31 or 2^32
     * elements, which takes minutes: it runs when GRIDSTRIDE_LARGE=1 asks for
     * it (ctest -L large, scripts/gpu-ctest.sh), and is skipped with the
     * reason otherwise. Where it does not fit, its cases are skipped for
     * memory in no time, and the test checks each says so, as before. A GPU
     * runs every trap at its biting size in every run. */
    const char *large = getenv("GRIDSTRIDE_LARGE");
    if (big_traps && !dev->is_gpu && !(large && strcmp(large, "1") == 0)) {
        const unsigned bites = cpu_big_traps_that_fit(big_traps);
        if (bites && !small) {
            printf("SKIPPED: %s on %s (a CPU device): its launches fit this machine's memory "
                   "and take a minute or more there; GRIDSTRIDE_LARGE=1 runs them (ctest -L large)\n",
                   part, dev->backend->name);
            gs_close_backend(&opened);
            return GS_TEST_SKIP;
        }
        if (bites) {
            printf("the big traps are left out on %s (a CPU device): they fit this machine's "
                   "memory and take a minute or more there; GRIDSTRIDE_LARGE=1 runs them\n",
                   dev->backend->name);
            big_traps = 0;
        }
    }
    const struct CMUnitTest all[] = {
        cmocka_unit_test(block_stride_writes_each_element_once_per_block_below_it),
        cmocka_unit_test(tile_loop_on_a_short_grid_leaves_the_tail),
        cmocka_unit_test(y_grid_ceiling_is_predicted),
        cmocka_unit_test(early_return_is_skipped_outside_the_program),
        cmocka_unit_test(big_traps_are_skipped_or_not_launched_with_a_reason),
    };
    /* small: the first four; a big trap: the last; everything: all five */
    const struct CMUnitTest *tests = small ? all : all + 4;
    const size_t ntests = (small ? 4 : 0) + (big_traps ? 1 : 0);
    char name[96];
    snprintf(name, sizeof name, "%s%s%s", argv[1], part ? " " : "", part ? part : "");
    const int failed = _cmocka_run_group_tests(name, tests, ntests, NULL, NULL);
    gs_test_log_end("pitfalls", dev);
    gs_close_backend(&opened);
    return failed;
}
