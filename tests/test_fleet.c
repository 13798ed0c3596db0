/* SPDX-License-Identifier: MIT */
/* compare --fleet (core/report/gs_fleet.c) on made-up files of 64 nodes,
 * written by the test: each node a table file and a bandwidth file of one
 * GPU, node17's GPU slow on every metric, node33's table with one
 * prediction that did not hold. The report must name both, exit 1, give
 * the quartiles the rule says, and say nothing of the 62 others. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "gs_cli.h"
#include "gs_driver.h"
#include "gs_fleet.h"

#define NODES 64
#define SLOW 17
#define FAILED 33

static char dir[256];
static char paths[2 * NODES + 2][320];
static char *files[2 * NODES + 2];
static int nfiles;

/* Node i's value of a metric: base + i, so the quartiles are known; the
 * slow node's is 60 % of base. */
static double value(int node, double base)
{
    return node == SLOW ? 0.6 * base : base + node;
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    assert_int_equal(fputs(text, f) >= 0, 1);
    assert_int_equal(fclose(f), 0);
}

static void table_file(int node, const char *path)
{
    char text[2048];
    snprintf(text, sizeof text,
             "{\"schema\": \"gridstride-results\", \"schema_version\": 1, \"mode\": \"table\",\n"
             " \"tool\": \"gridstride\", \"version\": \"0.1.0\", \"date\": \"2026-12-01\",\n"
             " \"cases\": 3, \"failed\": %d, \"held\": %s,\n"
             " \"devices\": [{\"backend\": \"cuda\", \"device\": \"NVIDIA H200\", \"id\": \"0\",\n"
             "   \"G\": 1056, \"T\": 270336, \"failed\": %d, \"cases\": [\n"
             "   {\"section\": \"sizes\", \"column\": \"A\", \"n\": 0, \"observed\": {\"outcome\": "
             "\"refused\"}, \"held\": true},\n"
             "   {\"section\": \"sizes\", \"column\": \"B\", \"n\": 611, \"observed\": {\"outcome\": "
             "\"ok\"}, \"held\": true},\n"
             "   {\"section\": \"sizes\", \"column\": \"C\", \"n\": 611, \"observed\": {\"outcome\": "
             "\"%s\"%s}, \"held\": %s}]}]}\n",
             node == FAILED, node == FAILED ? "false" : "true", node == FAILED,
             node == FAILED ? "wrong" : "ok", node == FAILED ? ", \"first_wrong\": 40960" : "",
             node == FAILED ? "false" : "true");
    write_file(path, text);
}

static void bandwidth_file(int node, const char *path)
{
    char text[2048];
    snprintf(text, sizeof text,
             "{\"schema\": \"gridstride-results\", \"schema_version\": 1, \"mode\": "
             "\"bandwidth\",\n \"tool\": \"gridstride\", \"version\": \"0.1.0\",\n"
             " \"runs\": [{\"backend\": \"cuda\", \"device\": \"NVIDIA H200\", \"id\": \"0\", "
             "\"n\": 1073741824, \"rows\": [\n"
             "  {\"variant\": \"device-to-device copy (the API's own)\", \"kernel\": \"api-copy\", "
             "\"verified\": true, \"gbps\": %.3f},\n"
             "  {\"variant\": \"add, grid-stride\", \"kernel\": \"grid-stride\", \"verified\": true, "
             "\"gbps\": %.3f},\n"
             "  {\"variant\": \"add, float4 (16 bytes)\", \"kernel\": \"grid-stride-float4\", "
             "\"verified\": true, \"gbps\": %.3f},\n"
             "  {\"variant\": \"copy, float4 (16 bytes)\", \"kernel\": \"copy-float4\", "
             "\"verified\": true, \"gbps\": %.3f},\n"
             "  {\"variant\": \"copy, one chunk per thread\", \"kernel\": \"copy-chunked\", "
             "\"verified\": true, \"gbps\": %.3f}]}]}\n",
             value(node, 4200), value(node, 3500), value(node, 4000), value(node, 9000),
             value(node, 370));
    write_file(path, text);
}

static int setup(void **state)
{
    (void)state;
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/gs_fleet_XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir))
        return -1;
    nfiles = 0;
    for (int i = 1; i <= NODES; ++i) {
        snprintf(paths[nfiles], sizeof paths[nfiles], "%s/node%02d.table.json", dir, i);
        table_file(i, paths[nfiles]);
        files[nfiles] = paths[nfiles];
        ++nfiles;
        snprintf(paths[nfiles], sizeof paths[nfiles], "%s/node%02d.bandwidth.json", dir, i);
        bandwidth_file(i, paths[nfiles]);
        files[nfiles] = paths[nfiles];
        ++nfiles;
    }
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    for (int i = 0; i < nfiles; ++i)
        unlink(paths[i]);
    char report[320];
    snprintf(report, sizeof report, "%s/report.txt", dir);
    unlink(report);
    snprintf(report, sizeof report, "%s/good.txt", dir);
    unlink(report);
    rmdir(dir);
    return 0;
}

static void load(struct gs_fleet *f, double k, int skip_a, int skip_b)
{
    struct gs_err e = {0};
    gs_fleet_init(f, k);
    for (int i = 0; i < nfiles; ++i) {
        char node[64];
        gs_fleet_node_of(files[i], node, sizeof node);
        if ((skip_a && atoi(node + 4) == skip_a) || (skip_b && atoi(node + 4) == skip_b))
            continue;
        assert_int_equal(gs_fleet_add_file(f, files[i], &e), GS_OK);
    }
    assert_int_equal(gs_fleet_analyse(f, &e), GS_OK);
}

static const struct gs_fleet_gpu *gpu(const struct gs_fleet *f, const char *node)
{
    for (int i = 0; i < f->ngpus; ++i)
        if (strcmp(f->gpus[i].node, node) == 0)
            return &f->gpus[i];
    fail_msg("no GPU of %s", node);
    return NULL;
}

static void node_names(void **state)
{
    (void)state;
    char node[64];
    gs_fleet_node_of("/a/b/nid001.table.json", node, sizeof node);
    assert_string_equal(node, "nid001");
    gs_fleet_node_of("vm.bandwidth.json", node, sizeof node);
    assert_string_equal(node, "vm");
    gs_fleet_node_of("dir.d/results", node, sizeof node);
    assert_string_equal(node, "results");
}

static void one_slow_one_failed(void **state)
{
    (void)state;
    struct gs_fleet f;
    load(&f, GS_FLEET_DEFAULT_K, 0, 0);
    assert_int_equal(f.nfiles, 2 * NODES);
    assert_int_equal(f.ngpus, NODES); /* a table and a run make one row */
    assert_int_equal(f.ngroups, 1);
    assert_int_equal(f.failed_gpus, 1);
    assert_int_equal(f.flagged_gpus, 1);
    /* Natural order: node01 first, node64 last. */
    assert_string_equal(f.gpus[0].node, "node01");
    assert_string_equal(f.gpus[NODES - 1].node, "node64");
    for (int i = 0; i < f.ngpus; ++i) {
        const struct gs_fleet_gpu *g = &f.gpus[i];
        const int n = atoi(g->node + 4);
        assert_int_equal(g->flagged, n == SLOW ? (1u << GS_FLEET_METRICS) - 1 : 0);
        assert_int_equal(g->failed, n == FAILED);
        assert_int_equal(g->cases, 3);
        assert_non_null(g->table_file);
        assert_non_null(g->bandwidth_file);
    }
    /* The best add is the faster of the two adds, never a copy (9000). */
    const struct gs_fleet_gpu *g1 = gpu(&f, "node01");
    assert_true(g1->gbps[GS_FLEET_BEST_ADD] == 4001.0);
    assert_true(g1->gbps[GS_FLEET_GRIDSTRIDE_ADD] == 3501.0);
    assert_true(g1->gbps[GS_FLEET_CHUNKED_COPY] == 371.0);
    assert_true(g1->gbps[GS_FLEET_API_COPY] == 4201.0);
    /* Sorted best adds: 2400 (the slow one), 4001..4016, 4018..4064.
     * Median: (v[31] + v[32]) / 2 = (4032 + 4033) / 2; Q1 at 15.75, Q3 at
     * 47.25; the fence Q1 - 1.5 IQR. */
    const struct gs_fleet_group *grp = &f.groups[0];
    assert_int_equal(grp->n[GS_FLEET_BEST_ADD], NODES);
    assert_true(grp->median[GS_FLEET_BEST_ADD] == 4032.5);
    assert_true(grp->q1[GS_FLEET_BEST_ADD] == 4015.75);
    assert_true(grp->q3[GS_FLEET_BEST_ADD] == 4048.25);
    assert_true(grp->fence[GS_FLEET_BEST_ADD] == 4015.75 - 1.5 * 32.5);

    struct gs_str text = {0};
    gs_fleet_report(&f, &text);
    assert_false(text.failed);
    assert_non_null(strstr(text.data, "fleet: 128 files, 64 nodes, 64 GPUs in 1 group"));
    assert_non_null(strstr(text.data, "LOW node17 cuda 0 (NVIDIA H200): best add 2400.0 GB/s, "
                                      "below the fence 3967.0 (median 4032.5, IQR 32.5, of 64 "
                                      "peers)"));
    assert_non_null(strstr(text.data, "FAILED node33 cuda 0 (NVIDIA H200): 1 of 3 predictions "
                                      "did not hold"));
    assert_non_null(strstr(text.data, "1/3 FAILED"));
    assert_non_null(strstr(text.data, "2400.0 LOW"));
    assert_non_null(strstr(text.data, "1 GPU failed, 1 GPU flagged"));
    /* No other node is named in a verdict line. */
    int verdicts = 0;
    for (const char *p = text.data; (p = strstr(p, "\nLOW ")) != NULL; ++p)
        ++verdicts;
    assert_int_equal(verdicts, GS_FLEET_METRICS); /* node17, once per metric */
    assert_null(strstr(text.data, "\nFAILED node17"));
    gs_str_free(&text);
    gs_fleet_free(&f);
}

/* k so wide that no GPU is below the fence: the failed prediction alone. */
static void wide_k_flags_nothing(void **state)
{
    (void)state;
    struct gs_fleet f;
    load(&f, 100, 0, 0);
    assert_int_equal(f.flagged_gpus, 0);
    assert_int_equal(f.failed_gpus, 1);
    gs_fleet_free(&f);
}

/* Without the two odd nodes every GPU passes. */
static void healthy_fleet(void **state)
{
    (void)state;
    struct gs_fleet f;
    load(&f, GS_FLEET_DEFAULT_K, SLOW, FAILED);
    assert_int_equal(f.ngpus, NODES - 2);
    assert_int_equal(f.flagged_gpus, 0);
    assert_int_equal(f.failed_gpus, 0);
    struct gs_str text = {0};
    gs_fleet_report(&f, &text);
    assert_non_null(strstr(text.data, "every GPU held its predictions and none is below its "
                                      "peers"));
    gs_str_free(&text);
    gs_fleet_free(&f);
}

static void duplicate_gpu_refused(void **state)
{
    (void)state;
    struct gs_fleet f;
    struct gs_err e = {0};
    gs_fleet_init(&f, GS_FLEET_DEFAULT_K);
    assert_int_equal(gs_fleet_add_file(&f, files[0], &e), GS_OK);
    assert_int_equal(gs_fleet_add_file(&f, files[0], &e), GS_USAGE);
    assert_non_null(strstr(e.msg, "both give node node01's cuda device 0"));
    gs_fleet_free(&f);
}

/* The command: parse, run, exit code, the report in --output. */
static int run_cli(int argc, char **argv, struct gs_err *e)
{
    struct gs_cli cli;
    if (gs_cli_parse(argc, argv, &cli, e) != GS_OK)
        return 2;
    return gs_drive(gs_command_of(&cli), &cli, "gridstride compare --fleet", e);
}

static void command_exit_codes(void **state)
{
    (void)state;
    char *argv[2 * NODES + 8];
    char out[320], good[320];
    struct gs_err e = {0};
    int argc = 0;
    snprintf(out, sizeof out, "%s/report.txt", dir);
    argv[argc++] = "gridstride";
    argv[argc++] = "compare";
    argv[argc++] = "--fleet";
    argv[argc++] = "--output";
    argv[argc++] = out;
    for (int i = 0; i < nfiles; ++i)
        argv[argc++] = files[i];
    assert_int_equal(run_cli(argc, argv, &e), 1);
    struct stat st;
    assert_int_equal(stat(out, &st), 0);
    assert_true(st.st_size > 0);

    /* The healthy 62: exit 0. */
    snprintf(good, sizeof good, "%s/good.txt", dir);
    argc = 0;
    argv[argc++] = "gridstride";
    argv[argc++] = "compare";
    argv[argc++] = "--fleet";
    argv[argc++] = "--output";
    argv[argc++] = good;
    for (int i = 0; i < nfiles; ++i) {
        char node[64];
        gs_fleet_node_of(files[i], node, sizeof node);
        if (atoi(node + 4) != SLOW && atoi(node + 4) != FAILED)
            argv[argc++] = files[i];
    }
    assert_int_equal(run_cli(argc, argv, &e), 0);

    /* The options are rows of the one options table: anywhere on the line,
     * --fleet too. The healthy 62 with --fleet and --k after the files: 0. */
    argv[1] = "compare";
    argc = 2;
    for (int i = 0; i < nfiles; ++i) {
        char node[64];
        gs_fleet_node_of(files[i], node, sizeof node);
        if (atoi(node + 4) != SLOW && atoi(node + 4) != FAILED)
            argv[argc++] = files[i];
    }
    argv[argc++] = "--fleet";
    argv[argc++] = "--k";
    argv[argc++] = "2";
    assert_int_equal(run_cli(argc, argv, &e), 0);

    /* Bad usage: exit 2 and one line naming the fix. */
    char *bad_k[] = {"gridstride", "compare", "--fleet", "--k", "0", files[0]};
    assert_int_equal(run_cli(6, bad_k, &e), 2);
    assert_non_null(strstr(e.msg, "--k is not a number above 0"));
    char *none[] = {"gridstride", "compare", "--fleet"};
    assert_int_equal(run_cli(3, none, &e), 2);
    assert_non_null(strstr(e.msg, "no results files"));
    char *k_alone[] = {"gridstride", "compare", "--k", "2", files[0]};
    assert_int_equal(run_cli(5, k_alone, &e), 2);
    assert_non_null(strstr(e.msg, "--k goes with --fleet; "));
    char *tolerance[] = {"gridstride", "compare", "--fleet", "--tolerance", "5%", files[0]};
    assert_int_equal(run_cli(6, tolerance, &e), 2);
    assert_non_null(strstr(e.msg, "--tolerance does not apply to compare --fleet"));
    char *k_check[] = {"gridstride", "check", "x.cu", "--k", "2"};
    assert_int_equal(run_cli(5, k_check, &e), 2);
    assert_non_null(strstr(e.msg, "--k does not apply to 'gridstride check'"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(node_names),
        cmocka_unit_test(one_slow_one_failed),
        cmocka_unit_test(wide_k_flags_nothing),
        cmocka_unit_test(healthy_fleet),
        cmocka_unit_test(duplicate_gpu_refused),
        cmocka_unit_test(command_exit_codes),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
