/* SPDX-License-Identifier: MIT */
/* The JSON reader: what it accepts, what it refuses and where it says the
 * text went wrong; every prefix and many corruptions of a real report must
 * be answered without a crash (run it under the ci-sanitize preset). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "gs_json_read.h"
#include "gs_json_write.h"

static struct gs_json *parse_ok(const char *text)
{
    struct gs_json *v = NULL;
    struct gs_err e = {0};
    const int rc = gs_json_parse(text, strlen(text), &v, &e);
    if (rc != GS_OK)
        fail_msg("refused %s: %s", text, e.msg);
    return v;
}

/* Refused, at the given line and column. */
static void refused_at(const char *text, int line, int col)
{
    struct gs_json *v = NULL;
    struct gs_err e = {0};
    char where[64];
    assert_int_equal(gs_json_parse(text, strlen(text), &v, &e), GS_USAGE);
    assert_null(v);
    snprintf(where, sizeof where, "line %d, column %d: ", line, col);
    if (strncmp(e.msg, where, strlen(where)) != 0)
        fail_msg("%s: expected '%s...', got '%s'", text, where, e.msg);
    assert_null(strchr(e.msg, '\n'));
}

static void objects_arrays_and_lookups(void **state)
{
    (void)state;
    struct gs_json *v = parse_ok(" {\"a\": [1, 2.5, -3, true, false, null], \"b\": {\"c\": \"d\"},"
                                 "\n \"e\": [], \"f\": {}} ");
    assert_int_equal(v->type, GS_JSON_OBJECT);
    assert_int_equal(v->count, 4);
    const struct gs_json *a = gs_json_get(v, "a");
    assert_int_equal(a->count, 6);
    assert_true(gs_json_at(a, 0)->is_u64);
    assert_int_equal(gs_json_at(a, 0)->u64, 1);
    assert_false(gs_json_at(a, 1)->is_u64);
    assert_true(gs_json_at(a, 1)->num == 2.5);
    assert_false(gs_json_at(a, 2)->is_u64);
    assert_true(gs_json_at(a, 2)->num == -3);
    assert_int_equal(gs_json_at(a, 3)->type, GS_JSON_TRUE);
    assert_int_equal(gs_json_at(a, 5)->type, GS_JSON_NULL);
    assert_null(gs_json_at(a, 6));
    assert_string_equal(gs_json_str(gs_json_get(v, "b"), "c", NULL), "d");
    assert_null(gs_json_get(v, "missing"));
    assert_null(gs_json_get(a, "a")); /* an array has no members */
    assert_string_equal(gs_json_str(v, "a", "fallback"), "fallback");
    assert_int_equal(gs_json_get(v, "e")->count, 0);
    assert_int_equal(gs_json_bool(a, "x", -1), -1);
    gs_json_free(v);
}

/* Sizes past 2^53 must survive exactly: n = 2^64 - 1 is a legal size. */
static void integers_are_exact(void **state)
{
    (void)state;
    struct gs_json *v = parse_ok("{\"max\": 18446744073709551615, \"odd\": 9007199254740993, "
                                 "\"over\": 18446744073709551616, \"zero\": 0, \"exp\": 1e3}");
    uint64_t u = 0;
    assert_true(gs_json_u64(v, "max", &u));
    assert_true(u == UINT64_MAX);
    assert_true(gs_json_u64(v, "odd", &u));
    assert_true(u == 9007199254740993ull);
    assert_false(gs_json_u64(v, "over", &u)); /* beyond uint64_t: a double only */
    double d = 0;
    assert_true(gs_json_num(v, "over", &d));
    assert_true(gs_json_u64(v, "zero", &u) && u == 0);
    assert_false(gs_json_u64(v, "exp", &u)); /* written as a real number */
    gs_json_free(v);
}

static void strings_decode_escapes_and_utf8(void **state)
{
    (void)state;
    struct gs_json *v = parse_ok("[\"q\\\"b\\\\s\\/\\b\\f\\n\\r\\t\", \"\\u00e9\\u20ac\", "
                                 "\"\\ud83d\\ude00\", \"caf\xc3\xa9 \xe2\x82\xac\"]");
    assert_string_equal(gs_json_at(v, 0)->str, "q\"b\\s/\b\f\n\r\t");
    assert_string_equal(gs_json_at(v, 1)->str, "\xc3\xa9\xe2\x82\xac");
    assert_string_equal(gs_json_at(v, 2)->str, "\xf0\x9f\x98\x80");
    assert_string_equal(gs_json_at(v, 3)->str, "caf\xc3\xa9 \xe2\x82\xac");
    gs_json_free(v);
    v = parse_ok("\xEF\xBB\xBF{}"); /* a byte order mark */
    assert_int_equal(v->type, GS_JSON_OBJECT);
    gs_json_free(v);
}

static void malformed_text_is_refused_where_it_breaks(void **state)
{
    (void)state;
    refused_at("", 1, 1);
    refused_at("   ", 1, 4);
    refused_at("{", 1, 2);
    refused_at("{\"a\": 1,}", 1, 9);
    refused_at("[1, 2,]", 1, 7);
    refused_at("{\"a\" 1}", 1, 6);
    refused_at("{\"a\": 1 \"b\": 2}", 1, 9);
    refused_at("{a: 1}", 1, 2);
    refused_at("{\"a\": 1, \"a\": 2}", 1, 10);
    refused_at("[01]", 1, 2);
    refused_at("[1.]", 1, 4);
    refused_at("[1e]", 1, 4);
    refused_at("[-]", 1, 3);
    refused_at("[+1]", 1, 2);
    refused_at("[1e999]", 1, 2);
    refused_at("[tru]", 1, 2);
    refused_at("[NaN]", 1, 2);
    refused_at("{} {}", 1, 4);
    refused_at("{}\n\n  x", 3, 3);
    refused_at("// comment\n{}", 1, 1);
    refused_at("[\"tab\there\"]", 1, 6);
    refused_at("[\"open", 1, 7);
    refused_at("[\"\\x\"]", 1, 4);
    refused_at("[\"\\u12\"]", 1, 7);
    refused_at("[\"\\ude00\"]", 1, 9);
    refused_at("[\"\\ud83d\"]", 1, 9);
    refused_at("[\"\\ud83d\\u0041\"]", 1, 15);
    refused_at("[\"\\u0000\"]", 1, 9);
    refused_at("[\"\xc3\"]", 1, 3);     /* truncated sequence */
    refused_at("[\"\xc0\xaf\"]", 1, 3); /* overlong */
    refused_at("[\"\xed\xa0\x80\"]", 1, 3); /* an encoded surrogate */
    refused_at("[\"\xff\"]", 1, 3);
}

static void nul_bytes_and_depth_are_refused(void **state)
{
    (void)state;
    struct gs_json *v = NULL;
    struct gs_err e = {0};
    assert_int_equal(gs_json_parse("[1,\0 2]", 7, &v, &e), GS_USAGE);
    assert_non_null(strstr(e.msg, "line 1, column 4"));
    char deep[2 * GS_JSON_MAX_DEPTH + 8];
    int n = 0;
    for (int i = 0; i < GS_JSON_MAX_DEPTH; ++i)
        deep[n++] = '[';
    for (int i = 0; i < GS_JSON_MAX_DEPTH; ++i)
        deep[n++] = ']';
    deep[n] = '\0';
    v = parse_ok(deep); /* exactly the limit: accepted */
    gs_json_free(v);
    memmove(deep + 1, deep, (size_t)n + 1);
    deep[0] = '[';
    deep[n + 1] = ']';
    deep[n + 2] = '\0';
    assert_int_equal(gs_json_parse(deep, strlen(deep), &v, &e), GS_USAGE);
    assert_null(v);
}

static const char report[] =
    "{\"schema\": \"gridstride-results\", \"schema_version\": 1, \"mode\": \"table\",\n"
    " \"devices\": [{\"backend\": \"cuda\", \"G\": 160, \"T\": 40960, \"cases\": [\n"
    "  {\"section\": \"sizes\", \"column\": \"B\", \"n\": 40961, \"observed\": {\"outcome\": "
    "\"wrong\", \"first_wrong\": 40960}, \"held\": true, \"r\": -1.5e-3}]}]}\n";

/* Every proper prefix of a report is incomplete, so refused; none crashes. */
static void every_prefix_is_refused(void **state)
{
    (void)state;
    const size_t len = strlen(report);
    for (size_t n = 0; n < len; ++n) {
        struct gs_json *v = NULL;
        struct gs_err e = {0};
        const int rc = gs_json_parse(report, n, &v, &e);
        /* Up to the closing brace every prefix is incomplete. */
        if (n < len - 1) {
            if (rc != GS_USAGE)
                fail_msg("prefix of %zu bytes accepted", n);
            assert_non_null(strstr(e.msg, "line "));
        }
        gs_json_free(v);
    }
}

/* Each byte replaced by each of a set of troublemakers: an answer either
 * way, never a crash, and a refusal always says where. */
static void corrupted_reports_never_crash(void **state)
{
    (void)state;
    static const char bad[] = "\"\\{}[],:0-e.\x80\xff\n a";
    const size_t len = strlen(report);
    char text[sizeof report];
    int refused = 0;
    for (size_t i = 0; i < len; ++i)
        for (size_t b = 0; b < sizeof bad - 1; ++b) {
            memcpy(text, report, len);
            text[i] = bad[b];
            struct gs_json *v = NULL;
            struct gs_err e = {0};
            const int rc = gs_json_parse(text, len, &v, &e);
            if (rc != GS_OK) {
                assert_int_equal(rc, GS_USAGE);
                assert_non_null(strstr(e.msg, "line "));
                ++refused;
            }
            gs_json_free(v);
        }
    assert_true(refused > 0);
}

static void files_missing_empty_and_valid(void **state)
{
    (void)state;
    char path[] = "/tmp/gs_test_json.XXXXXX";
    struct gs_json *v = NULL;
    struct gs_err e = {0};
    const int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    assert_non_null(f);
    fclose(f);
    assert_int_equal(gs_json_read_file(path, &v, &e), GS_USAGE); /* empty */
    f = fopen(path, "w");
    fputs(report, f);
    fclose(f);
    assert_int_equal(gs_json_read_file(path, &v, &e), GS_OK);
    assert_string_equal(gs_json_str(v, "mode", ""), "table");
    gs_json_free(v);
    unlink(path);
    assert_int_equal(gs_json_read_file(path, &v, &e), GS_IO);
    assert_null(v);
}

/* ---- the writer ------------------------------------------------------------ */

static void the_writer_places_commas_and_layout(void **state)
{
    (void)state;
    struct gs_str o = {0};
    struct gs_jw w;
    gs_jw_init(&w, &o);
    gs_jw_object(&w, NULL);
    gs_jw_space(&w, "\n  ");
    gs_jw_str(&w, "a", "x");
    gs_jw_u64(&w, "b", UINT64_MAX);
    gs_jw_int(&w, "c", -3);
    gs_jw_space(&w, "\n  ");
    gs_jw_fixed(&w, "d", 3, 2.5);
    gs_jw_fixed(&w, "e", 0, 2.5e9);
    gs_jw_bool(&w, "f", 7);
    gs_jw_null(&w, "g");
    gs_jw_array(&w, "empty");
    gs_jw_end(&w, "");
    gs_jw_array(&w, "tight");
    gs_jw_item_space(&w, "");
    for (int i = 0; i < 3; ++i)
        gs_jw_int(&w, NULL, i);
    gs_jw_end(&w, "");
    gs_jw_space(&w, "\n  ");
    gs_jw_array(&w, "rows");
    for (int i = 0; i < 2; ++i) {
        gs_jw_space(&w, "\n    ");
        gs_jw_object(&w, NULL);
        gs_jw_int(&w, "i", i);
        gs_jw_bool(&w, "odd", i & 1);
        gs_jw_end(&w, "");
    }
    gs_jw_end(&w, "\n  ");
    gs_jw_end(&w, "\n");
    assert_false(o.failed);
    assert_string_equal(o.data, "{\n  \"a\": \"x\", \"b\": 18446744073709551615, \"c\": -3,\n"
                                "  \"d\": 2.500, \"e\": 2500000000, \"f\": true, \"g\": null, "
                                "\"empty\": [], \"tight\": [0,1,2],\n  \"rows\": [\n"
                                "    {\"i\": 0, \"odd\": false},\n    {\"i\": 1, \"odd\": true}\n"
                                "  ]\n}\n");
    struct gs_json *v = parse_ok(o.data);
    uint64_t u = 0;
    assert_true(gs_json_u64(v, "b", &u) && u == UINT64_MAX);
    assert_int_equal(gs_json_get(v, "rows")->count, 2);
    gs_json_free(v);
    gs_str_free(&o);
}

/* Every control character, quotes and backslashes escaped; bytes that are
 * not UTF-8 replaced; what is written reads back as the same text. */
static void the_writer_escapes_what_json_requires(void **state)
{
    (void)state;
    char all[40];
    for (int i = 1; i < 0x20; ++i)
        all[i - 1] = (char)i;
    memcpy(all + 0x1f, "\"\\/\x7f", 5);
    struct gs_str o = {0};
    struct gs_jw w;
    gs_jw_init(&w, &o);
    gs_jw_object(&w, NULL);
    gs_jw_str(&w, "all", all);
    gs_jw_str(&w, "utf8", "\xc2\xb5s \xe2\x82\xac \xf0\x9f\x98\x80");
    /* a lone continuation byte, an overlong '/', a surrogate, a cut sequence */
    gs_jw_str(&w, "bad", "a\x80" "b\xc0\xaf" "c\xed\xa0\x80" "d\xe2\x82");
    gs_jw_str(&w, "null", NULL);
    gs_jw_end(&w, "");
    assert_false(o.failed);
    for (const char *p = o.data; *p; ++p)
        assert_true((unsigned char)*p >= 0x20 || *p == '\n');
    assert_non_null(strstr(o.data, "\\u0001\\u0002"));
    assert_non_null(strstr(o.data, "\\u001f\\\"\\\\/\x7f\""));
    struct gs_json *v = parse_ok(o.data);
    assert_string_equal(gs_json_str(v, "all", NULL), all);
    assert_string_equal(gs_json_str(v, "utf8", NULL), "\xc2\xb5s \xe2\x82\xac \xf0\x9f\x98\x80");
    assert_string_equal(gs_json_str(v, "bad", NULL),
                        "a\xef\xbf\xbd"
                        "b\xef\xbf\xbd\xef\xbf\xbd"
                        "c\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"
                        "d\xef\xbf\xbd\xef\xbf\xbd");
    assert_string_equal(gs_json_str(v, "null", NULL), "");
    gs_json_free(v);
    gs_str_free(&o);
}

/* Numbers JSON cannot hold, and misuse, never make text that is not JSON
 * without saying so. */
static void the_writer_refuses_what_is_not_json(void **state)
{
    (void)state;
    struct gs_str o = {0};
    struct gs_jw w;
    gs_jw_init(&w, &o);
    gs_jw_array(&w, NULL);
    gs_jw_fixed(&w, NULL, 2, 0.0 / 0.0);
    gs_jw_fixed(&w, NULL, 2, 1.0 / 0.0);
    gs_jw_fixed(&w, NULL, 2, -1.0 / 0.0);
    gs_jw_end(&w, "");
    assert_false(o.failed);
    assert_string_equal(o.data, "[null, null, null]\n");
    gs_str_free(&o);

    /* a member without a key, an element with one, closing what is not
     * open, nesting too deep */
    for (int k = 0; k < 4; ++k) {
        struct gs_str m = {0};
        gs_jw_init(&w, &m);
        gs_jw_object(&w, NULL);
        if (k == 0)
            gs_jw_int(&w, NULL, 1);
        if (k == 1) {
            gs_jw_array(&w, "a");
            gs_jw_int(&w, "x", 1);
        }
        if (k == 2) {
            gs_jw_end(&w, "");
            gs_jw_end(&w, "");
        }
        for (int d = 0; k == 3 && d < GS_JW_MAX_DEPTH; ++d)
            gs_jw_object(&w, "deeper");
        assert_true(m.failed);
        gs_str_free(&m);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(objects_arrays_and_lookups),
        cmocka_unit_test(integers_are_exact),
        cmocka_unit_test(strings_decode_escapes_and_utf8),
        cmocka_unit_test(malformed_text_is_refused_where_it_breaks),
        cmocka_unit_test(nul_bytes_and_depth_are_refused),
        cmocka_unit_test(every_prefix_is_refused),
        cmocka_unit_test(corrupted_reports_never_crash),
        cmocka_unit_test(files_missing_empty_and_valid),
        cmocka_unit_test(the_writer_places_commas_and_layout),
        cmocka_unit_test(the_writer_escapes_what_json_requires),
        cmocka_unit_test(the_writer_refuses_what_is_not_json),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
