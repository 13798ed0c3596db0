/* SPDX-License-Identifier: MIT */
/* `gridstride compare`: files of other machines and versions side by side,
 * rows that differ in outcome flagged, bandwidth ratios, and every kind of
 * bad file refused in one line (exit 2) with no output file left behind. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "gs_bench_report.h"
#include "gs_driver.h"
#include "gs_compare.h"
#include "gs_registry.h"
#include "gs_results.h"
#include "gs_select.h"
#include "gs_table_report.h"

static const char *reference; /* docs/reference/t4-seed002.json, from argv */
static char dir[64];

static const char head[] = "\"schema\": \"gridstride-results\", \"schema_version\": 1, ";

/* A table file with one device (G, T) and the given cases. */
static const char *table_file(const char *name, const char *device, const char *cases)
{
    static char path[2][128];
    static int k;
    char *p = path[k++ % 2];
    snprintf(p, sizeof path[0], "%s/%s", dir, name);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fprintf(f, "{%s\"mode\": \"table\", \"tool\": \"gridstride\", \"version\": \"9.9\", "
               "\"devices\": [{\"backend\": \"cuda\", \"device\": \"%s\", \"id\": \"0\", "
               "\"G\": 160, \"T\": 40960, \"cases\": [%s]}]}\n",
            head, device, cases);
    fclose(f);
    return p;
}

static const char *raw_file(const char *name, const char *text)
{
    static char p[128];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return p;
}

/* ---- the writers against the description (gs_results.h) ---------------------------- */

/* Every member obj has of the objects in `objects` is of its listed type,
 * every required one is there; seen[] counts what was met. */
static void members_as_described(const struct gs_json *obj, unsigned objects, int *seen)
{
    assert_non_null(obj);
    assert_int_equal(obj->type, GS_JSON_OBJECT);
    for (int m = 0; m < GS_RESULTS_NMEMBERS; ++m) {
        const struct gs_results_member_info *f = &gs_results_members[m];
        if (!(objects >> f->object & 1u))
            continue;
        const struct gs_json *v = gs_json_get(obj, f->key);
        if (!v && f->required)
            fail_msg("\"%s\" is required and not written", f->key);
        if (v && !gs_results_is(v, f->type))
            fail_msg("\"%s\" is written, but not %s", f->key, gs_results_type_words(f->type));
        seen[m] += v != NULL;
    }
}

/* Members no writer of mode `table` or bandwidth writes: a results file
 * made by hand says so, and each mode has the other's list. */
static int written_by_neither(int m, int table)
{
    return m == GS_RM_RECONSTRUCTED || m == (table ? GS_RM_RUNS : GS_RM_DEVICES);
}

static void all_seen(const int *seen, unsigned objects, int table)
{
    for (int m = 0; m < GS_RESULTS_NMEMBERS; ++m)
        if ((objects >> gs_results_members[m].object & 1u) && !written_by_neither(m, table) &&
            !seen[m])
            fail_msg("the description lists \"%s\", which the %s writer never writes",
                     gs_results_members[m].key, table ? "table" : "bandwidth");
}

/* A table's or a bandwidth run's JSON holds every member gs_results.h
 * lists for its objects, each of its type, and compare loads it. */
static void written_as_described(const struct gs_str *text, const char *name, int table)
{
    const unsigned group = 1u << GS_RO_DEVICE | 1u << (table ? GS_RO_TABLE_DEVICE : GS_RO_RUN);
    const unsigned item = 1u << (table ? GS_RO_CASE : GS_RO_ROW);
    int seen[GS_RESULTS_NMEMBERS] = {0};
    struct gs_json *root = NULL;
    struct gs_err e = {0};
    assert_false(text->failed);
    assert_int_equal(gs_json_parse(text->data, text->len, &root, &e), GS_OK);
    members_as_described(root, 1u << GS_RO_HEADER, seen);
    const struct gs_json *groups = gs_json_get(root, table ? GS_RK(DEVICES) : GS_RK(RUNS));
    assert_non_null(groups);
    for (int g = 0; g < groups->count; ++g) {
        const struct gs_json *grp = gs_json_at(groups, g);
        members_as_described(grp, group, seen);
        const struct gs_json *items =
            gs_json_get(grp, table ? GS_RK(TABLE_CASES) : GS_RK(RUN_ROWS));
        for (int k = 0; k < items->count; ++k) {
            members_as_described(gs_json_at(items, k), item, seen);
            if (table)
                members_as_described(gs_json_get(gs_json_at(items, k), GS_RK(CASE_OBSERVED)),
                                     1u << GS_RO_OBSERVED, seen);
        }
    }
    all_seen(seen, 1u << GS_RO_HEADER | group | item | (table ? 1u << GS_RO_OBSERVED : 0), table);
    gs_json_free(root);

    const char *path = raw_file(name, text->data);
    struct gs_compare_file f;
    if (gs_compare_load(path, &f, &e) != GS_OK)
        fail_msg("compare refuses what the writer wrote: %s", e.msg);
    gs_compare_free(&f);
}

/* The table's and bandwidth's JSON, from runs on the host backend. */
static void the_writers_write_what_the_description_lists(void **state)
{
    (void)state;
    struct gs_opened o;
    struct gs_err e = {0};
    struct gs_str text = {0};
    const struct gs_run_info run = {"9.9", "test", "2026-01-01T00:00:00Z", "cc"};
    gs_open_backend(gs_registry_find("host"), &o);
    assert_int_equal(o.status, GS_OK);

    uint64_t sizes[] = {0, 611, 4097};
    const struct gs_shape shapes[] = {{1, 1}, {0, 256}};
    const struct gs_table_plan plan = {GS_DEFAULT_BLOCK, 0, sizes, 3, shapes, 2, 0xFu, NULL};
    struct gs_table *t;
    assert_int_equal(gs_table_run(o.devs[0], &plan, &t, &e), GS_OK);
    const struct gs_table_report_in tin = {(const struct gs_table *const *)&t, 1, &plan,
                                           run.version, run.command, run.date, run.toolkit, 0, 0};
    gs_table_report(&tin, GS_FMT_JSON, &text);
    written_as_described(&text, "written-table.json", 1);
    gs_str_free(&text);
    gs_table_free(t);

    const struct gs_bench_plan bplan = {.n = 1u << 16, .reps = 5, .warmup = 1,
                                        .block = GS_DEFAULT_BLOCK, .type = GS_TYPE_FLOAT};
    static struct gs_bench b;
    assert_int_equal(gs_bench_run(o.devs[0], &bplan, &b, &e), GS_OK);
    const struct gs_bench *runs[] = {&b};
    const struct gs_bench_report_in bin = {runs, 1, run.version, run.command, run.date,
                                           run.toolkit, 0};
    memset(&text, 0, sizeof text);
    gs_bench_report(&bin, GS_FMT_JSON, &text);
    written_as_described(&text, "written-bandwidth.json", 0);
    gs_str_free(&text);
    gs_bench_free(&b);
    gs_close_backend(&o);
}

#define CASE(sec, col, n, outcome, held)                                                      \
    "{\"section\": \"" sec "\", \"column\": \"" col "\", \"n\": " #n ", \"observed\": "       \
    "{\"outcome\": \"" outcome "\"}, \"held\": " held "}"

static int compare_files(const char *a, const char *b, struct gs_str *out, int *differ,
                         struct gs_err *e)
{
    struct gs_compare_file f[2];
    int rc = gs_compare_load(a, &f[0], e);
    if (rc != GS_OK)
        return rc;
    if ((rc = gs_compare_load(b, &f[1], e)) == GS_OK) {
        rc = gs_compare_report(f, 2, out, differ, e);
        gs_compare_free(&f[1]);
    }
    gs_compare_free(&f[0]);
    return rc;
}

static struct gs_str report;

/* Compare two files that must both load; the text in `report`, and the
 * count of rows that differ returned. */
static int compare_ok(const char *a, const char *b)
{
    struct gs_err e = {0};
    int differ = -1;
    gs_str_free(&report);
    memset(&report, 0, sizeof report);
    if (compare_files(a, b, &report, &differ, &e) != GS_OK)
        fail_msg("%s", e.msg);
    return differ;
}

/* Whether the first line of text that contains `at` also contains needle. */
static int line_has(const char *text, const char *at, const char *needle)
{
    static char line[4096];
    const char *p = strstr(text, at);
    if (!p)
        return 0;
    while (p != text && p[-1] != '\n')
        --p;
    const size_t n = strcspn(p, "\n");
    snprintf(line, sizeof line, "%.*s", (int)n, p);
    return strstr(line, needle) != NULL;
}

static void the_reference_reads_and_matches_itself(void **state)
{
    (void)state;
    assert_int_equal(compare_ok(reference, reference), 0);
    const struct gs_str out = report;
    assert_non_null(strstr(out.data, "RECONSTRUCTED"));
    /* Seed 002's B column: wrong@40960 from n = 40961 on, on both sides. */
    assert_true(line_has(out.data, "       40961 ",
                         "|             ok   wrong@40960            ok "
                         "|             ok   wrong@40960            ok |"));
}

/* One device refuses the empty launch that another runs; sizes only one
 * device has are shown as "-" and are not differences. */
static void differing_outcomes_are_flagged(void **state)
{
    (void)state;
    const char *a = table_file("a.json", "GPU A",
                               CASE("sizes", "A", 0, "refused", "true") ","
                               CASE("sizes", "B", 0, "ok", "true") ","
                               CASE("sizes", "B", 5, "ok", "true"));
    char a_path[128];
    snprintf(a_path, sizeof a_path, "%s", a);
    const char *b = table_file("b.json", "GPU B",
                               CASE("sizes", "A", 0, "ok", "false") ","
                               CASE("sizes", "B", 0, "ok", "true") ","
                               CASE("sizes", "B", 7, "ok", "true"));
    assert_int_equal(compare_ok(a_path, b), 1);
    const struct gs_str out = report;
    assert_true(line_has(out.data, "           0 ", "differs: A"));
    assert_true(line_has(out.data, "           5 ", "-"));
    assert_false(line_has(out.data, "           5 ", "differs"));
    assert_non_null(strstr(out.data, "  sizes 0 A: refused on 1; ok on 2\n"));
    assert_true(line_has(out.data, "           0 ", "ok*")); /* did not hold */
    assert_non_null(strstr(out.data, "1 case did not hold its own device's prediction"));
}

static void bandwidth_ratios_and_wrong_rows(void **state)
{
    (void)state;
    char a[128];
    snprintf(a, sizeof a, "%s",
             raw_file("bw1.json",
                      "{\"schema\": \"gridstride-results\", \"schema_version\": 1, \"mode\": "
                      "\"bandwidth\", \"runs\": [{\"backend\": \"cuda\", \"device\": \"X\", "
                      "\"id\": \"0\", \"n\": 1024, \"rows\": [{\"variant\": \"copy\", "
                      "\"verified\": true, \"gbps\": 200.0}, {\"variant\": \"add\", \"verified\": "
                      "true, \"gbps\": 80}]}]}"));
    const char *b = raw_file("bw2.json",
                             "{\"schema\": \"gridstride-results\", \"schema_version\": 1, "
                             "\"mode\": \"bandwidth\", \"runs\": [{\"backend\": \"opencl\", "
                             "\"device\": \"Y\", \"id\": \"0:0\", \"n\": 1024, \"rows\": "
                             "[{\"variant\": \"copy\", \"verified\": true, \"gbps\": 50}, "
                             "{\"variant\": \"add\", \"verified\": false, \"wrong\": \"x\"}]}]}");
    assert_int_equal(compare_ok(a, b), 1);
    const struct gs_str out = report;
    assert_true(line_has(out.data, "copy ", "0.25x"));
    assert_true(line_has(out.data, "add ", "WRONG"));
    assert_non_null(strstr(out.data, "  add: WRONG on 2\n"));
    assert_null(strstr(out.data, "different sizes"));
}

/* gs_compare_run of two files that must load: the verdict, the text in `report`. */
static struct gs_compare_verdict verdict_of(const char *a, const char *b, double tolerance)
{
    struct gs_compare_file f[2];
    struct gs_compare_verdict v = {-1, -1, -1, -1, -1};
    struct gs_err e = {0};
    const struct gs_compare_options opt = {tolerance, 0, NULL, NULL, NULL, NULL, 0};
    gs_str_free(&report);
    memset(&report, 0, sizeof report);
    if (gs_compare_load(a, &f[0], &e) != GS_OK)
        fail_msg("%s", e.msg);
    if (gs_compare_load(b, &f[1], &e) != GS_OK)
        fail_msg("%s", e.msg);
    if (gs_compare_run(f, 2, &opt, &report, &v, &e) != GS_OK)
        fail_msg("%s", e.msg);
    gs_compare_free(&f[0]);
    gs_compare_free(&f[1]);
    return v;
}

/* The CI gate: devices that differ where each held its own prediction (CUDA
 * refuses n = 0, OpenCL 3.0 runs it) pass; a case that did not hold fails. */
static void documented_differences_pass_the_gate(void **state)
{
    (void)state;
    char a[128];
    snprintf(a, sizeof a, "%s", table_file("cuda.json", "GPU A",
                                           CASE("sizes", "A", 0, "refused", "true")));
    const char *b = table_file("opencl.json", "GPU B", CASE("sizes", "A", 0, "ok", "true"));
    struct gs_compare_verdict v = verdict_of(a, b, 0);
    assert_int_equal(v.differ, 1);
    assert_int_equal(v.not_held, 0);
    assert_non_null(strstr(report.data, "not a failure: exit 0"));
    snprintf(a, sizeof a, "%s", table_file("held.json", "GPU A",
                                           CASE("sizes", "A", 0, "refused", "true")));
    b = table_file("failed.json", "GPU B", CASE("sizes", "A", 0, "ok", "false"));
    v = verdict_of(a, b, 0);
    assert_int_equal(v.not_held, 1);
    assert_null(strstr(report.data, "not a failure"));
}

#define BW_FILE(device, gbps)                                                                  \
    "{\"schema\": \"gridstride-results\", \"schema_version\": 1, \"mode\": \"bandwidth\", "      \
    "\"runs\": [{\"backend\": \"cuda\", \"device\": \"" device "\", \"id\": \"0\", \"n\": 1024, "   \
    "\"rows\": [{\"variant\": \"copy\", \"verified\": true, \"gbps\": " gbps "}]}]}"

/* A bandwidth row more than the tolerance below the first file's run of the
 * same device fails; within it, or against another device's run... */
static void slow_rows_fail_the_gate(void **state)
{
    (void)state;
    char a[128];
    snprintf(a, sizeof a, "%s", raw_file("ref.json", BW_FILE("H200", "200.0")));
    const char *b = raw_file("now.json", BW_FILE("H200", "170.0"));
    assert_int_equal(verdict_of(a, b, 0).slow, 1); /* 15% below, default 10% */
    assert_non_null(strstr(report.data, "copy: 170.0 GB/s on 2, 15% below 200.0 on 1"));
    assert_int_equal(verdict_of(a, b, 0.2).slow, 0);
    assert_non_null(strstr(report.data, "no row more than 20% below the reference"));
    b = raw_file("now.json", BW_FILE("H200", "195.0"));
    assert_int_equal(verdict_of(a, b, 0).slow, 0);
    assert_int_equal(verdict_of(a, b, 0).wrong, 0);
}

/* More rows than a fixed table would hold, each found by its key: 3000 sizes
 * on one device against the same sizes shifted on another. */
static void many_rows_compare(void **state)
{
    (void)state;
    struct gs_str cases = {0};
    for (int i = 0; i < 3000; ++i)
        gs_str_printf(&cases, "%s" CASE("sizes", "C", %d, "ok", "true"), i ? "," : "", 3000 - i);
    char a[128];
    snprintf(a, sizeof a, "%s", table_file("many-a.json", "GPU A", cases.data));
    gs_str_free(&cases);
    memset(&cases, 0, sizeof cases);
    for (int i = 0; i < 3000; ++i)
        gs_str_printf(&cases, "%s" CASE("sizes", "C", %d, "%s", "true"), i ? "," : "", i + 2,
                      i == 0 ? "wrong\", \"first_wrong\": 1, \"x\": \"" : "ok");
    const char *b = table_file("many-b.json", "GPU B", cases.data);
    gs_str_free(&cases);
    const struct gs_compare_verdict v = verdict_of(a, b, 0);
    assert_int_equal(v.differ, 1); /* n = 2: ok on A, wrong on B */
    assert_true(line_has(report.data, "        3001 ", "-"));
    assert_true(line_has(report.data, "           1 ", "ok"));
    assert_true(line_has(report.data, "           2 ", "differs: C"));
    /* sizes ascending */
    assert_true(strstr(report.data, "\n           1 ") < strstr(report.data, "\n        3001 "));
}

/* Each bad file: GS_USAGE or GS_IO, one line, naming nothing else. */
static void refused(const char *name, const char *text)
{
    struct gs_compare_file f;
    struct gs_err e = {0};
    const char *p = text ? raw_file(name, text) : name;
    const int rc = gs_compare_load(p, &f, &e);
    if (rc != GS_USAGE && rc != GS_IO)
        fail_msg("%s accepted (%d)", name, rc);
    assert_true(e.msg[0] != '\0');
    assert_null(strchr(e.msg, '\n'));
}

static void bad_files_are_refused(void **state)
{
    (void)state;
    refused("/nonexistent/results.json", NULL);
    refused("empty.json", "");
    refused("notjson.json", "gridstride 0.1.0\n");
    refused("truncated.json", "{\"schema\": \"gridstride-results\", \"schema_version\": 1,");
    refused("array.json", "[1, 2]");
    refused("noschema.json", "{\"tool\": \"gridstride\", \"mode\": \"bandwidth\", \"runs\": []}");
    refused("other.json", "{\"schema\": \"something-else\", \"schema_version\": 1}");
    refused("v2.json", "{\"schema\": \"gridstride-results\", \"schema_version\": 2, "
                       "\"mode\": \"table\", \"devices\": []}");
    refused("vstr.json", "{\"schema\": \"gridstride-results\", \"schema_version\": \"1\", "
                         "\"mode\": \"table\", \"devices\": []}");
    refused("mode.json", "{\"schema\": \"gridstride-results\", \"schema_version\": 1, "
                         "\"mode\": \"pitfalls\", \"devices\": []}");
    refused("nodevices.json", "{\"schema\": \"gridstride-results\", \"schema_version\": 1, "
                              "\"mode\": \"table\", \"devices\": []}");
    refused("nocases.json", "{\"schema\": \"gridstride-results\", \"schema_version\": 1, "
                            "\"mode\": \"table\", \"devices\": [{\"backend\": \"cuda\", "
                            "\"device\": \"X\", \"id\": \"0\", \"G\": 1, \"T\": 1}]}");
    refused(table_file("badword.json", "X", CASE("sizes", "A", 0, "fine", "true")), NULL);
    refused(table_file("badcol.json", "X", CASE("sizes", "E", 0, "ok", "true")), NULL);
    refused(table_file("nofirst.json", "X", CASE("sizes", "B", 9, "wrong", "true")), NULL);
    refused(table_file("noshape.json", "X", CASE("shapes", "C", 611, "ok", "true")), NULL);
}

/* The command: bad input is exit 2 with nothing written to --output; a
 * table and a bandwidth file together are bad input too. */
static void the_command_leaves_no_output_on_bad_input(void **state)
{
    (void)state;
    char out_path[128], bw[128];
    snprintf(out_path, sizeof out_path, "%s/out.txt", dir);
    snprintf(bw, sizeof bw, "%s/bw1.json", dir);
    const char *bad = raw_file("bad.json", "{\"schema\": ");
    const char *runs[][6] = {
        {"gridstride", "compare", "--output", out_path, reference, bad},
        {"gridstride", "compare", "--output", out_path, reference, bw},
    };
    for (int i = 0; i < 2; ++i) {
        struct gs_cli cli;
        struct gs_err e = {0};
        unlink(out_path);
        assert_int_equal(gs_cli_parse(6, (char **)runs[i], &cli, &e), GS_OK);
        assert_int_equal(gs_drive(&gs_compare_command, &cli, "test", &e), 2);
        assert_null(strchr(e.msg, '\n'));
        assert_int_equal(access(out_path, F_OK), -1);
    }
    const char *ok[] = {"gridstride", "compare", "--output", out_path, reference};
    struct gs_cli cli;
    struct gs_err e = {0};
    assert_int_equal(gs_cli_parse(5, (char **)ok, &cli, &e), GS_OK);
    assert_int_equal(gs_drive(&gs_compare_command, &cli, "test", &e), 0);
    assert_int_equal(access(out_path, F_OK), 0);
    const char *usage[][4] = {{"gridstride", "compare", NULL, NULL},
                              {"gridstride", "compare", "--bogus", "x.json"},
                              {"gridstride", "compare", "--output", NULL}};
    const int argc[] = {2, 4, 3};
    for (int i = 0; i < 3; ++i)
        assert_int_equal(gs_cli_parse(argc[i], (char **)usage[i], &cli, &e), GS_USAGE);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_compare docs/reference/t4-seed002.json\n");
        return 2;
    }
    reference = argv[1];
    snprintf(dir, sizeof dir, "/tmp/gs_test_compare.XXXXXX");
    if (!mkdtemp(dir))
        return 2;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_reference_reads_and_matches_itself),
        cmocka_unit_test(differing_outcomes_are_flagged),
        cmocka_unit_test(bandwidth_ratios_and_wrong_rows),
        cmocka_unit_test(documented_differences_pass_the_gate),
        cmocka_unit_test(slow_rows_fail_the_gate),
        cmocka_unit_test(many_rows_compare),
        cmocka_unit_test(bad_files_are_refused),
        cmocka_unit_test(the_command_leaves_no_output_on_bad_input),
        cmocka_unit_test(the_writers_write_what_the_description_lists),
    };
    const int failed = cmocka_run_group_tests(tests, NULL, NULL);
    gs_str_free(&report);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return failed;
}
