/* SPDX-License-Identifier: MIT */
/* The default size of `bandwidth` on a CPU device (core/run/gs_cpu_size.h):
 * 4 x the last-level cache, capped per core, a power of two, and a sentence
 * that names the size and the rule that chose it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "gs_cpu_size.h"
#include "gs_sysmem.h"

#define MiB (1ull << 20)

static void four_times_a_small_llc(void **state)
{
    (void)state;
    char why[320];
    /* A laptop: 8 cores, 12 MiB L3: 48 MiB wanted, 32 MiB allowed. */
    assert_int_equal(gs_cpu_bench_bytes_for(12 * MiB, 3, 8, why, sizeof why), 32 * MiB);
    /* 16 cores: 48 MiB fits under 64 MiB, rounded down to 32 MiB. */
    assert_int_equal(gs_cpu_bench_bytes_for(12 * MiB, 3, 16, why, sizeof why), 32 * MiB);
    assert_non_null(strstr(why, "32 MiB per buffer: 4 x the last-level cache (L3, 12 MiB)"));
    /* 4 MiB L2 only, 64 cores: exactly 16 MiB. */
    assert_int_equal(gs_cpu_bench_bytes_for(4 * MiB, 2, 64, why, sizeof why), 16 * MiB);
    assert_non_null(strstr(why, "(L2, 4 MiB)"));
}

static void capped_per_core_and_says_so(void **state)
{
    (void)state;
    char why[320];
    /* 2 cores of a 480 MiB L3 (a VM on a server): 1.9 GiB would take
     * minutes; 4 MiB per core is 8 MiB. */
    assert_int_equal(gs_cpu_bench_bytes_for(480 * MiB, 3, 2, why, sizeof why), 8 * MiB);
    assert_non_null(strstr(why, "8 MiB per buffer"));
    assert_non_null(strstr(why, "1920 MiB"));
    assert_non_null(strstr(why, "4 MiB per core x 2 cores"));
}

static void floor_and_unknown_cache(void **state)
{
    (void)state;
    char why[320];
    /* A tiny cache: never below 1 MiB. */
    assert_int_equal(gs_cpu_bench_bytes_for(64 * 1024, 2, 4, why, sizeof why), 1 * MiB);
    /* No cache size: the old 64 MiB, capped per core. */
    assert_int_equal(gs_cpu_bench_bytes_for(0, 0, 1, why, sizeof why), 4 * MiB);
    assert_non_null(strstr(why, "unknown"));
    assert_int_equal(gs_cpu_bench_bytes_for(0, 0, 64, NULL, 0), 64 * MiB);
    /* 0 units counts as one. */
    assert_int_equal(gs_cpu_bench_bytes_for(480 * MiB, 3, 0, NULL, 0), 4 * MiB);
}

/* This machine's answer: a power of two within the bounds, and the cache
 * the sentence names is the one gs_host_llc reads. */
static void this_machine(void **state)
{
    (void)state;
    char why[320];
    uint64_t llc = 0;
    unsigned level = 0;
    const unsigned cpus = gs_host_cpus();
    const int known = gs_host_llc(&llc, &level);
    const uint64_t b = gs_cpu_bench_bytes(cpus, why, sizeof why);
    assert_true(b >= 1 * MiB && b <= 4 * MiB * cpus);
    assert_int_equal(b & (b - 1), 0);
    assert_int_equal(b, gs_cpu_bench_bytes_for(llc, level, cpus, NULL, 0));
    if (known)
        assert_true(level >= 1 && llc > 0);
    print_message("this machine: %s\n", why);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(four_times_a_small_llc),
        cmocka_unit_test(capped_per_core_and_says_so),
        cmocka_unit_test(floor_and_unknown_cache),
        cmocka_unit_test(this_machine),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
