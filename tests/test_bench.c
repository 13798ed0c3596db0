/* SPDX-License-Identifier: MIT */
/* The bandwidth benchmark's harness on one backend's device (ctest runs it
 * once per GPU backend: test_bench <backend>): every row verified before it
 * is timed, and timed by the device. A small size: a test of the harness,
 * not a measurement. Device choice and skips as in test_conformance. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gs_bench.h"
#include "gs_registry.h"
#include "gs_resource.h"
#include "gs_test_log.h"

#define SKIP_CODE 77

static struct gs_device *dev;

static void every_row_verifies_and_is_timed(void **state)
{
    (void)state;
    static struct gs_bench b;
    struct gs_err e = {0};
    const struct gs_bench_plan plan = {1u << 20, 5, 1, 0, 0, NULL, NULL};
    if (gs_bench_run(dev, &plan, &b, &e) != GS_OK)
        fail_msg("gs_bench_run: %s", e.msg);
    assert_true(b.nrows > 0);
    for (int i = 0; i < b.nrows; ++i) {
        const struct gs_bench_row *r = &b.rows[i];
        if (!r->verified)
            fail_msg("%s: %s", r->label, r->wrong);
        assert_true(r->min_ms > 0 && r->min_ms <= r->med_ms && r->med_ms <= r->max_ms);
        assert_true(r->min_ms <= r->mean_ms && r->mean_ms <= r->max_ms && r->stddev_ms >= 0);
        assert_true(r->gbps > 0);
        assert_true(r->pct_best > 0 && (r->is_copy || r->pct_best <= 100.0));
        for (unsigned k = 0; k < plan.reps; ++k) /* the raw samples are the timed ones */
            assert_true(r->samples_ms[k] >= r->min_ms && r->samples_ms[k] <= r->max_ms);
    }
    assert_int_equal(b.wrong_rows, 0);
    assert_true(b.best_row >= 0);
    assert_true(b.rows[b.best_row].pct_best == 100.0);
    gs_bench_free(&b);
}

/* The waves axis: data-sized grids give 4, 2 and 1 trips a thread (up to
 * the rounding of the last block), and the best launch is one of them or of
 * the multiples of G. */
static void waves_are_sized_to_the_data(void **state)
{
    (void)state;
    static struct gs_bench b;
    struct gs_err e = {0};
    const struct gs_bench_plan plan = {1u << 20, 5, 0, 0, 0, NULL, NULL};
    if (gs_bench_run(dev, &plan, &b, &e) != GS_OK)
        fail_msg("gs_bench_run: %s", e.msg);
    int data_sized = 0;
    for (int i = 0; i < b.nrows; ++i) {
        const struct gs_bench_row *r = &b.rows[i];
        if (r->group != GS_BG_WAVES || !strstr(r->label, "trip"))
            continue;
        const double want = strstr(r->label, "4 trips") ? 4 : strstr(r->label, "2 trips") ? 2 : 1;
        if (r->trips > want + 1e-9 || r->trips < want * 0.99)
            fail_msg("%s: %.4f trips a thread, not %.0f", r->label, r->trips, want);
        ++data_sized;
    }
    assert_int_equal(data_sized, 9); /* three kernels x three sizes */
    assert_true(gs_bench_best_wave(&b, GS_K_ADD_WARP_X4) >= 0);
    gs_bench_free(&b);
}

int main(int argc, char **argv)
{
    struct gs_opened opened;
    struct gs_err e = {0};
    char why[300];
    if (argc != 2 || !gs_registry_find(argv[1])) {
        fprintf(stderr, "usage: test_bench BACKEND (a compiled-in backend)\n");
        return 2;
    }
    if (gs_require_check(&e) != GS_OK) { /* a bad requirement fails, never skips */
        fprintf(stderr, "FAIL: %s\n", e.msg);
        return 1;
    }
    gs_open_backend(gs_registry_find(argv[1]), &opened);
    if (opened.status != GS_OK) {
        const int required = gs_backend_required(argv[1]);
        fprintf(stderr, "%s: %s\n", required ? "FAIL" : "SKIP", opened.err.msg);
        return required ? 1 : SKIP_CODE;
    }
    if (gs_resource_test_device(&opened, &dev, why, sizeof why, &e) != GS_OK) {
        fprintf(stderr, "FAIL: %s\n", e.msg);
        gs_close_backend(&opened);
        return 1;
    }
    gs_test_log_device("bench", dev, why);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_row_verifies_and_is_timed),
        cmocka_unit_test(waves_are_sized_to_the_data),
    };
    const int failed = cmocka_run_group_tests_name(argv[1], tests, NULL, NULL);
    gs_test_log_end("bench", dev);
    gs_close_backend(&opened);
    return failed;
}
