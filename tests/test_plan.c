/* SPDX-License-Identifier: MIT */
/* Sizes, shapes and the parsers behind --sizes and --shape. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "gs_check.h"
#include "gs_defaults.h"
#include "gs_parse.h"

static void default_sizes_are_seed_002s(void **state)
{
    (void)state;
    uint64_t v[GS_MAX_SIZES];
    const uint64_t want[] = {0, 1, 31, 32, 611, 1024, 1025, 40960, 40961, 4194304};
    int n = gs_default_sizes(40960, v);
    assert_int_equal(n, 10);
    for (int i = 0; i < n; ++i)
        assert_int_equal(v[i], want[i]);
}

static void default_sizes_deduplicate_and_sort(void **state)
{
    (void)state;
    uint64_t v[GS_MAX_SIZES];
    /* T = 1024 coincides with a fixed size, T + 1 with another. */
    int n = gs_default_sizes(1024, v);
    assert_int_equal(n, 8);
    for (int i = 1; i < n; ++i)
        assert_true(v[i - 1] < v[i]);
    /* A T above 4194304 sorts after it. */
    n = gs_default_sizes(270336 * 16, v);
    assert_int_equal(v[n - 1], 270336ull * 16 + 1);
}

static void sizes_merge_unions(void **state)
{
    (void)state;
    uint64_t v[GS_MAX_SIZES], w[GS_MAX_SIZES];
    int n = gs_default_sizes(2048, v);
    int k = gs_default_sizes(270336, w);
    n = gs_sizes_merge(v, n, w, k);
    assert_int_equal(n, 12);
    assert_int_equal(v[7], 2048);
    assert_int_equal(v[10], 270337);
}

/* check --sizes traps: 2^31 + 5 and 2^32 + 5 join the device grid's sizes
 * (the T4 section keeps the course's), and each names its trap. */
static void check_trap_sizes_join_the_device_grid(void **state)
{
    (void)state;
    struct gs_check_plan plan = {0};
    assert_int_equal(gs_check_max_n(&plan, 2048), 4194304);
    plan.traps = 1;
    assert_int_equal(gs_check_max_n(&plan, 2048), (1ull << 32) + 5);
    const uint64_t mine[] = {611};
    plan.sizes = mine;
    plan.nsizes = 1;
    assert_int_equal(gs_check_max_n(&plan, 2048), (1ull << 32) + 5);
    assert_non_null(strstr(gs_check_size_trap((1ull << 31) + 5), "int"));
    assert_non_null(strstr(gs_check_size_trap((1ull << 32) + 5), "32-bit"));
    assert_string_equal(gs_check_size_trap(611), "");
}

static void parse_sizes_accepts_lists(void **state)
{
    (void)state;
    uint64_t v[GS_MAX_SIZES];
    int n = 0;
    struct gs_err e = {0};
    assert_int_equal(gs_parse_sizes("611,0,4194304,611", v, &n, &e), GS_OK);
    assert_int_equal(n, 3);
    assert_int_equal(v[0], 0);
    assert_int_equal(v[2], 4194304);
}

static void parse_sizes_rejects_bad_input(void **state)
{
    (void)state;
    const char *bad[] = {"-1", "abc", "1e6", "12a", "", ",", "1,,2", "1,", " 5",
                         "99999999999999999999999", "1099511627777"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        uint64_t v[GS_MAX_SIZES];
        int n = 0;
        struct gs_err e = {0};
        assert_int_equal(gs_parse_sizes(bad[i], v, &n, &e), GS_USAGE);
        assert_true(e.msg[0] != '\0');
    }
}

/* One rule for every comma list: entries in order, and a stray comma (or an
 * empty list) refused with a message naming the option. */
static void split_list_refuses_every_empty_entry(void **state)
{
    (void)state;
    char buf[64], *items[4];
    int n = 0;
    struct gs_err e = {0};
    assert_int_equal(gs_split_list("a,bb,c", "--x", "x", buf, sizeof buf, items, 4, &n, &e), GS_OK);
    assert_int_equal(n, 3);
    assert_string_equal(items[0], "a");
    assert_string_equal(items[1], "bb");
    assert_string_equal(items[2], "c");
    const char *bad[] = {"", ",", "a,", ",a", "a,,b", "a,b,"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        assert_int_equal(gs_split_list(bad[i], "--x", "x", buf, sizeof buf, items, 4, &n, &e),
                         GS_USAGE);
        assert_non_null(strstr(e.msg, "--x: "));
    }
    assert_int_equal(gs_split_list("a,b,c,d,e", "--x", "x", buf, sizeof buf, items, 4, &n, &e),
                     GS_USAGE);
    assert_non_null(strstr(e.msg, "more than 4"));
}

static void parse_shape_accepts_gxb(void **state)
{
    (void)state;
    struct gs_shape s;
    struct gs_err e = {0};
    assert_int_equal(gs_parse_shape("10000x32", &s, &e), GS_OK);
    assert_int_equal(s.grid, 10000);
    assert_int_equal(s.block, 32);
}

static void parse_shape_rejects_malformed(void **state)
{
    (void)state;
    const char *bad[] = {"160", "x256", "160x", "0x256", "160x0", "axb", "160x256x2", "-1x32",
                         "160X256", ""};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        struct gs_shape s;
        struct gs_err e = {0};
        assert_int_equal(gs_parse_shape(bad[i], &s, &e), GS_USAGE);
    }
}

static void default_shapes_are_seed_002s(void **state)
{
    (void)state;
    struct gs_shape s[GS_MAX_SHAPES];
    assert_int_equal(gs_default_shapes(160, 256, s), 4);
    assert_int_equal(s[0].grid, 1);
    assert_int_equal(s[0].block, 1);
    assert_int_equal(s[1].block, 256);
    assert_int_equal(s[2].grid, 160);
    assert_int_equal(s[3].grid, 10000);
    assert_int_equal(s[3].block, 32);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(default_sizes_are_seed_002s),
        cmocka_unit_test(default_sizes_deduplicate_and_sort),
        cmocka_unit_test(sizes_merge_unions),
        cmocka_unit_test(parse_sizes_accepts_lists),
        cmocka_unit_test(check_trap_sizes_join_the_device_grid),
        cmocka_unit_test(parse_sizes_rejects_bad_input),
        cmocka_unit_test(split_list_refuses_every_empty_entry),
        cmocka_unit_test(parse_shape_accepts_gxb),
        cmocka_unit_test(parse_shape_rejects_malformed),
        cmocka_unit_test(default_shapes_are_seed_002s),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
