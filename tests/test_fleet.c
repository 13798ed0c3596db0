/* SPDX-License-Identifier: MIT */
/* compare --fleet (core/report/gs_fleet.c).
 *
 * The rule at scale, on made-up files of 64 nodes written by the test: each
 * node a table file and a bandwidth file of one GPU, node17's GPU slow on
 * every metric, node33's table with one prediction that did not hold. The
 * report must name both, exit 1, give the quartiles the rule says, and say
 * nothing of the 62 others.
 *
 * The rule against false alarms, on files derived from a real run (argv[1],
 * docs/results/h200-bandwidth.json: the CUDA run of one H200): each GPU's
 * file is that run with every GB/s multiplied by the GPU's factor, written
 * under the name the ReFrame tests give it, <node>.cuda<index>.bandwidth.json.
 * The factors stand for the run-to-run noise of identical GPUs (a few %)
 * and for a slow GPU. */
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
#include "gs_json_read.h"
#include "gs_json_write.h"

#define NODES 64
#define SLOW 17
#define FAILED 33

static const char *real_run; /* docs/results/h200-bandwidth.json, from argv */
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
    /* The IQR (32.5) is under the floor, 5 % of the median (201.625): the
     * spread is the floor, the fence Q1 - 1.5 x 201.625. */
    assert_true(grp->floored[GS_FLEET_BEST_ADD]);
    assert_true(grp->spread[GS_FLEET_BEST_ADD] == 0.05 * 4032.5);
    assert_true(grp->fence[GS_FLEET_BEST_ADD] == 4015.75 - 1.5 * (0.05 * 4032.5));

    struct gs_str text = {0};
    gs_fleet_report(&f, &text);
    assert_false(text.failed);
    assert_non_null(strstr(text.data, "fleet: 128 files, 64 nodes, 64 GPUs in 1 group"));
    assert_non_null(strstr(text.data, "LOW node17 cuda 0 (NVIDIA H200): best add 2400.0 GB/s, "
                                      "below the fence 3713.3 = Q1 4015.8 - 1.5 x S 201.6 (the "
                                      "floor); median 4032.5, Q3 4048.2, 64 peers"));
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
    assert_int_equal(gs_fleet_add_file(&f, files[1], &e), GS_OK);
    assert_int_equal(gs_fleet_add_file(&f, files[0], &e), GS_OK);
    assert_int_equal(gs_fleet_analyse(&f, &e), GS_USAGE);
    assert_non_null(strstr(e.msg, "both give node node01's cuda device 0"));
    gs_fleet_free(&f);
}

/* ---- the rule against false alarms, on a real run's figures ------------------ */

/* Node `node`'s GPU `index`: the real CUDA run with every GB/s times factor,
 * written as <node>.cuda<index>.bandwidth.json; the path in `path`. */
static void derived_file(const char *sub, const char *node, int index, double factor,
                         char *path, size_t size)
{
    struct gs_json *root = NULL;
    struct gs_err e = {0};
    struct gs_str text = {0};
    struct gs_jw w;
    char id[16];
    assert_int_equal(gs_json_read_file(real_run, &root, &e), GS_OK);
    const struct gs_json *run = NULL;
    for (const struct gs_json *r = gs_json_get(root, "runs")->child; r; r = r->next)
        if (strcmp(gs_json_str(r, "backend", ""), "cuda") == 0)
            run = r;
    assert_non_null(run);
    uint64_t n = 0;
    assert_true(gs_json_u64(run, "n", &n));
    snprintf(id, sizeof id, "%d", index);
    gs_jw_init(&w, &text);
    gs_jw_object(&w, NULL);
    gs_jw_str(&w, "schema", gs_json_str(root, "schema", ""));
    gs_jw_u64(&w, "schema_version", 1);
    gs_jw_str(&w, "mode", gs_json_str(root, "mode", ""));
    gs_jw_str(&w, "tool", gs_json_str(root, "tool", ""));
    gs_jw_str(&w, "version", gs_json_str(root, "version", ""));
    gs_jw_str(&w, "date", gs_json_str(root, "date", ""));
    gs_jw_array(&w, "runs");
    gs_jw_object(&w, NULL);
    gs_jw_str(&w, "backend", "cuda");
    gs_jw_str(&w, "device", gs_json_str(run, "device", ""));
    gs_jw_str(&w, "id", id);
    gs_jw_str(&w, "driver_version", gs_json_str(run, "driver_version", ""));
    gs_jw_u64(&w, "n", n);
    gs_jw_array(&w, "rows");
    for (const struct gs_json *r = gs_json_get(run, "rows")->child; r; r = r->next) {
        double gbps = 0;
        assert_true(gs_json_num(r, "gbps", &gbps));
        gs_jw_object(&w, NULL);
        gs_jw_str(&w, "variant", gs_json_str(r, "variant", ""));
        gs_jw_str(&w, "kernel", gs_json_str(r, "kernel", ""));
        gs_jw_bool(&w, "verified", gs_json_bool(r, "verified", 0));
        gs_jw_fixed(&w, "gbps", 3, gbps * factor);
        gs_jw_end(&w, "");
    }
    gs_jw_end(&w, "");
    gs_jw_end(&w, "");
    gs_jw_end(&w, "");
    gs_jw_end(&w, "\n");
    assert_false(text.failed);
    gs_json_free(root);
    snprintf(path, size, "%s/%s", dir, sub);
    mkdir(path, 0700);
    snprintf(path, size, "%s/%s/%s.cuda%d.bandwidth.json", dir, sub, node, index);
    write_file(path, text.data);
    gs_str_free(&text);
}

/* The fleet of files[0..n) analysed; the report in *text. */
static void derived_fleet(struct gs_fleet *f, char (*made)[320], int n, struct gs_str *text)
{
    struct gs_err e = {0};
    gs_fleet_init(f, GS_FLEET_DEFAULT_K);
    for (int i = 0; i < n; ++i)
        if (gs_fleet_add_file(f, made[i], &e) != GS_OK)
            fail_msg("%s", e.msg);
    assert_int_equal(gs_fleet_analyse(f, &e), GS_OK);
    memset(text, 0, sizeof *text);
    gs_fleet_report(f, text);
    assert_false(text->failed);
}

static void remove_files(char (*made)[320], int n, const char *sub)
{
    char d[320];
    for (int i = 0; i < n; ++i)
        unlink(made[i]);
    snprintf(d, sizeof d, "%s/%s", dir, sub);
    rmdir(d);
}

/* Four identical nodes, as the four-node emulation gave them: within 3 % of
 * each other, one 3 % below the rest. Tukey's fence alone sits inside that
 * noise (Q1 - 1.5 IQR = 0.9925 x the run here) and flagged it; the floor
 * on the spread keeps the fence out of the noise: no flag. */
static void four_identical_nodes(void **state)
{
    (void)state;
    static const double factor[4] = {1.0, 1.0, 0.97, 1.0};
    char made[4][320], node[8];
    for (int i = 0; i < 4; ++i) {
        snprintf(node, sizeof node, "n%d", i + 1);
        derived_file("four", node, 0, factor[i], made[i], sizeof made[i]);
    }
    struct gs_fleet f;
    struct gs_str text;
    derived_fleet(&f, made, 4, &text);
    assert_int_equal(f.ngpus, 4);
    assert_int_equal(f.ngroups, 1);
    assert_int_equal(f.groups[0].n[GS_FLEET_BEST_ADD], GS_FLEET_MIN_PEERS); /* judged */
    assert_true(f.groups[0].floored[GS_FLEET_BEST_ADD]);
    /* Without the floor this fence would flag n3: the case the floor is for. */
    const double q1 = f.groups[0].q1[GS_FLEET_BEST_ADD];
    const double iqr = f.groups[0].q3[GS_FLEET_BEST_ADD] - q1;
    assert_true(f.gpus[2].gbps[GS_FLEET_BEST_ADD] < q1 - GS_FLEET_DEFAULT_K * iqr);
    assert_int_equal(f.flagged_gpus, 0);
    assert_non_null(strstr(text.data, "every GPU held its predictions and none is below its "
                                      "peers"));
    assert_null(strstr(text.data, "\nLOW "));
    gs_str_free(&text);
    gs_fleet_free(&f);
    remove_files(made, 4, "four");
}

/* Sixteen nodes within 2 % of each other, n7 20 % slow: n7 alone is flagged,
 * on every metric, each flag with its numbers. */
static void one_slow_of_sixteen(void **state)
{
    (void)state;
    char made[16][320], node[8];
    for (int i = 0; i < 16; ++i) {
        snprintf(node, sizeof node, "n%d", i + 1);
        const double factor = i + 1 == 7 ? 0.8 : 0.99 + 0.02 * (i % 5) / 4.0;
        derived_file("sixteen", node, 0, factor, made[i], sizeof made[i]);
    }
    struct gs_fleet f;
    struct gs_str text;
    derived_fleet(&f, made, 16, &text);
    assert_int_equal(f.ngpus, 16);
    assert_int_equal(f.flagged_gpus, 1);
    for (int i = 0; i < f.ngpus; ++i)
        assert_int_equal(f.gpus[i].flagged,
                         strcmp(f.gpus[i].node, "n7") == 0 ? (1u << GS_FLEET_METRICS) - 1 : 0);
    /* The flag's numbers are the group's: value, fence, Q1, spread, median, Q3. */
    const struct gs_fleet_group *grp = &f.groups[0];
    const struct gs_fleet_gpu *slow = gpu(&f, "n7");
    char line[512];
    snprintf(line, sizeof line, "LOW n7 cuda 0 (NVIDIA H200): best add %.1f GB/s, below the "
                                "fence %.1f = Q1 %.1f - 1.5 x S %.1f (the floor); median %.1f, "
                                "Q3 %.1f, 16 peers\n", slow->gbps[GS_FLEET_BEST_ADD],
             grp->fence[GS_FLEET_BEST_ADD], grp->q1[GS_FLEET_BEST_ADD],
             grp->spread[GS_FLEET_BEST_ADD], grp->median[GS_FLEET_BEST_ADD],
             grp->q3[GS_FLEET_BEST_ADD]);
    assert_non_null(strstr(text.data, line));
    /* 0.8 of the real run's best add (4409.4 GB/s on that H200). */
    assert_true(slow->gbps[GS_FLEET_BEST_ADD] > 3527.0 && slow->gbps[GS_FLEET_BEST_ADD] < 3528.0);
    assert_true(grp->fence[GS_FLEET_BEST_ADD] > slow->gbps[GS_FLEET_BEST_ADD]);
    assert_non_null(strstr(text.data, "0 GPUs failed, 1 GPU flagged"));
    gs_str_free(&text);
    gs_fleet_free(&f);
    remove_files(made, 16, "sixteen");
}

/* Eight nodes of two GPUs each, one file per GPU: the GPUs of one node are
 * rows apart, and n3's GPU 1, 25 % slow, is flagged while its GPU 0 is not. */
static void two_gpus_of_one_node_differ(void **state)
{
    (void)state;
    char made[16][320], node[8];
    for (int i = 0; i < 16; ++i) {
        snprintf(node, sizeof node, "n%d", i / 2 + 1);
        const double factor = i == 5 ? 0.75 : 1.0 - 0.01 * (i % 3);
        derived_file("pairs", node, i % 2, factor, made[i], sizeof made[i]);
    }
    struct gs_fleet f;
    struct gs_str text;
    derived_fleet(&f, made, 16, &text);
    assert_int_equal(f.nfiles, 16);
    assert_int_equal(f.ngpus, 16);
    assert_int_equal(f.ngroups, 1);
    assert_int_equal(f.flagged_gpus, 1);
    /* Node order, then the id: n3 0 before n3 1. */
    assert_string_equal(f.gpus[4].node, "n3");
    assert_string_equal(f.gpus[4].id, "0");
    assert_string_equal(f.gpus[5].node, "n3");
    assert_string_equal(f.gpus[5].id, "1");
    assert_int_equal(f.gpus[4].flagged, 0);
    assert_int_equal(f.gpus[5].flagged, (1u << GS_FLEET_METRICS) - 1);
    assert_non_null(strstr(text.data, "LOW n3 cuda 1 (NVIDIA H200): best add "));
    assert_null(strstr(text.data, "LOW n3 cuda 0"));
    assert_non_null(strstr(text.data, "fleet: 16 files, 8 nodes, 16 GPUs in 1 group"));
    gs_str_free(&text);
    gs_fleet_free(&f);
    remove_files(made, 16, "pairs");
}

/* Three nodes, one 30 % slow: too few peers to judge, and the report says so. */
static void too_few_peers_said(void **state)
{
    (void)state;
    char made[3][320], node[8];
    for (int i = 0; i < 3; ++i) {
        snprintf(node, sizeof node, "n%d", i + 1);
        derived_file("three", node, 0, i == 1 ? 0.7 : 1.0, made[i], sizeof made[i]);
    }
    struct gs_fleet f;
    struct gs_str text;
    derived_fleet(&f, made, 3, &text);
    assert_int_equal(f.flagged_gpus, 0);
    assert_non_null(strstr(text.data, "too few GPUs with bandwidth figures to judge (3, 4 or "
                                      "more are needed); none flagged"));
    gs_str_free(&text);
    gs_fleet_free(&f);
    remove_files(made, 3, "three");
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

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(node_names),
        cmocka_unit_test(one_slow_one_failed),
        cmocka_unit_test(wide_k_flags_nothing),
        cmocka_unit_test(healthy_fleet),
        cmocka_unit_test(duplicate_gpu_refused),
        cmocka_unit_test(four_identical_nodes),
        cmocka_unit_test(one_slow_of_sixteen),
        cmocka_unit_test(two_gpus_of_one_node_differ),
        cmocka_unit_test(too_few_peers_said),
        cmocka_unit_test(command_exit_codes),
    };
    if (argc < 2) {
        fprintf(stderr, "usage: test_fleet H200-BANDWIDTH.json\n");
        return 2;
    }
    real_run = argv[1];
    return cmocka_run_group_tests(tests, setup, teardown);
}
