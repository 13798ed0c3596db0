/* SPDX-License-Identifier: MIT */
/* check's verdicts are sound: every diagnosis has a failing class, and
 * generated outputs with random damage (verdict_oracle.c) get the class,
 * the counts and the first wrong index of an oracle written apart from
 * gs_verify. GS_VERDICT_CASES sets how many (default 100000; the long form,
 * fuzz_verdict, runs millions). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "gs_check.h"
#include "verdict_oracle.h"

/* Each GS_DIAG_* bit alone, and every pair, is a failing class: no path
 * from a diagnosis to ok. */
static void every_diagnosis_fails(void **state)
{
    (void)state;
    const struct gs_launch_result got = {.accepted = 1};
    for (unsigned bit = 1; bit & GS_DIAG_ALL; bit <<= 1) {
        const enum gs_check_class c = gs_check_diag_class(bit);
        assert_true(c < GS_CHECK_CLASSES);
        assert_int_not_equal(c, GS_CHECK_OK);
        for (unsigned other = 1; other & GS_DIAG_ALL; other <<= 1) {
            struct gs_verdict v = {0};
            v.diag = bit | other;
            assert_int_not_equal(gs_check_classify(&got, &v), GS_CHECK_OK);
        }
    }
    assert_int_equal(gs_check_diag_class(0), GS_CHECK_CLASSES);
    assert_int_equal(gs_check_diag_class(GS_DIAG_ALL + 1u), GS_CHECK_CLASSES);
    /* Counts without a bit still fail. */
    struct gs_verdict v = {0};
    v.wrong = 1;
    assert_int_not_equal(gs_check_classify(&got, &v), GS_CHECK_OK);
    v = (struct gs_verdict){0};
    v.front_hits = 1;
    assert_int_not_equal(gs_check_classify(&got, &v), GS_CHECK_OK);
}

static void generated_outputs_agree_with_the_oracle(void **state)
{
    (void)state;
    const char *env = getenv("GS_VERDICT_CASES");
    const unsigned long long cases = env ? strtoull(env, NULL, 10) : 100000ull;
    const uint64_t base = 0x6772696473747269ull; /* fixed: a failure names its seed */
    char why[600];
    unsigned long long failed = 0;
    for (unsigned long long k = 0; k < cases; ++k) {
        if (gs_oracle_case(base + k, why, sizeof why) == 0)
            continue;
        if (failed++ < 5)
            print_error("%s\n", why);
    }
    print_message("%llu generated outputs, %llu disagreed with the oracle\n", cases, failed);
    assert_int_equal(failed, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_diagnosis_fails),
        cmocka_unit_test(generated_outputs_agree_with_the_oracle),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
