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
#include <string.h>

#include <cmocka.h>

#include "gs_check.h"
#include "gs_user.h"
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

/* --compile-only's contract from the PTX NVRTC emits (as CUDA 13's NVRTC
 * writes it for compute_90): the parameters' sizes, and the one line. */
static void ptx_parameters_hold_the_contract(void **state)
{
    (void)state;
    static const char right[] =
        "//\n.version 9.0\n.target sm_90\n.address_size 64\n\n"
        "\t// .globl\t_Z5solvePKfS0_Pfm\n\n"
        ".visible .entry _Z5solvePKfS0_Pfm(\n"
        "\t.param .u64 .ptr .align 1 _Z5solvePKfS0_Pfm_param_0,\n"
        "\t.param .u64 .ptr .align 1 _Z5solvePKfS0_Pfm_param_1,\n"
        "\t.param .u64 .ptr .align 1 _Z5solvePKfS0_Pfm_param_2,\n"
        "\t.param .u64 _Z5solvePKfS0_Pfm_param_3\n)\n{\n\tret;\n}\n";
    static const char int_n[] =
        ".visible .entry _Z5solvePKfS0_Pfi(\n"
        "\t.param .u64 .ptr .align 1 _Z5solvePKfS0_Pfi_param_0,\n"
        "\t.param .u64 .ptr .align 1 _Z5solvePKfS0_Pfi_param_1,\n"
        "\t.param .u64 .ptr .align 1 _Z5solvePKfS0_Pfi_param_2,\n"
        "\t.param .u32 _Z5solvePKfS0_Pfi_param_3\n)\n{\n\tret;\n}\n";
    static const char by_value[] =
        ".visible .entry solve(\n\t.param .align 8 .b8 solve_param_0[32]\n)\n{\n}\n";
    unsigned sizes[8];
    const struct gs_user_source src = {"k.cu", "", "solve", GS_DIALECT_CUDA};
    struct gs_err e = {0};
    assert_int_equal(gs_ptx_params(right, "_Z5solvePKfS0_Pfm", sizes, 8), 4);
    for (int i = 0; i < 4; ++i)
        assert_int_equal(sizes[i], 8);
    assert_int_equal(gs_user_check_params(&src, sizes, 4, &e), GS_OK);
    assert_int_equal(gs_ptx_params(int_n, "_Z5solvePKfS0_Pfi", sizes, 8), 4);
    assert_int_equal(sizes[3], 4);
    assert_int_equal(gs_user_check_params(&src, sizes, 4, &e), GS_USAGE);
    assert_non_null(strstr(e.msg, "parameter 4 of kernel 'solve' has the wrong size"));
    assert_int_equal(gs_ptx_params(by_value, "solve", sizes, 8), 1);
    assert_int_equal(sizes[0], 32);
    assert_int_equal(gs_ptx_params(right, "_Z5solvePKfS0_Pfi", sizes, 8), -1); /* not there */
    assert_int_equal(gs_user_check_params(&src, sizes, -1, &e), GS_USAGE);
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
        cmocka_unit_test(ptx_parameters_hold_the_contract),
        cmocka_unit_test(generated_outputs_agree_with_the_oracle),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
