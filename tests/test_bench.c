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
        assert_true(r->gbps > 0);
    }
    assert_int_equal(b.wrong_rows, 0);
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
    };
    const int failed = cmocka_run_group_tests_name(argv[1], tests, NULL, NULL);
    gs_test_log_end("bench", dev);
    gs_close_backend(&opened);
    return failed;
}
