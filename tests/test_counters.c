/* SPDX-License-Identifier: MIT */
/* check's hardware counters (core/run/gs_counters.h): ncu's CSV parsed from
 * a real H200 record (tests/counters/ncu_h200_n2p24.csv: n = 2^24 floats,
 * gs = grid-stride <<<1056,256>>>, chunk = one chunk per thread, bstride =
 * block-stride <<<64,256>>>), the rule on those values and on made-up ones,
 * and ncu's run (gs_counters_run.h) with a stand-in script: found through
 * --ncu, its log read and its stdout never, killed at the deadline, its
 * permission error said in one line; and the whole pass with that stand-in
 * running this build's counters worker on OpenCL (skipped without PoCL).
 *
 * usage: test_counters FIXTURE_DIR [GRIDSTRIDE] */
#define _GNU_SOURCE /* realpath, setenv */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "gs_check.h"
#include "gs_counters.h"
#include "gs_counters_report.h"
#include "gs_counters_run.h"
#include "gs_proc.h"

#define N (1ull << 24)

static const char *fixtures;
static const char *gridstride; /* the program, for the stand-in ncu; NULL: not given */

static char *read_text(const char *name, size_t *len)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", fixtures, name);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    char *buf = malloc(1u << 20);
    assert_non_null(buf);
    *len = fread(buf, 1, (1u << 20) - 1, f);
    buf[*len] = '\0';
    fclose(f);
    return buf;
}

static void parse_probe(struct gs_counters_kernel *k, int *nk)
{
    size_t len = 0;
    char why[300];
    char *text = read_text("ncu_h200_n2p24.csv", &len);
    assert_int_equal(gs_counters_parse_csv(text, len, k, GS_COUNTERS_MAX_KERNELS, nk, why,
                                           sizeof why),
                     GS_OK);
    free(text);
}

/* The real CSV: three kernels, their launches, and every value with its
 * thousands separators gone. */
static void real_csv_parses(void **state)
{
    struct gs_counters_kernel k[GS_COUNTERS_MAX_KERNELS];
    int nk = 0;
    (void)state;
    parse_probe(k, &nk);
    assert_int_equal(nk, 3);
    assert_true(gs_counters_name_is(k[0].name, "gs"));
    assert_true(gs_counters_name_is(k[1].name, "chunk"));
    assert_true(gs_counters_name_is(k[2].name, "bstride"));
    assert_false(gs_counters_name_is(k[0].name, "g"));
    assert_int_equal(k[0].grid, 1056);
    assert_int_equal(k[0].block, 256);
    assert_int_equal(k[2].grid, 64);
    assert_int_equal(k[0].ld_req, 1048576);
    assert_int_equal(k[0].ld_sec, 4194304);
    assert_int_equal(k[0].st_req, N / 32);
    assert_int_equal(k[0].st_sec, 2097152);
    assert_int_equal(k[0].dram_read, 134226688);
    assert_int_equal(k[0].time_ns, 56352);
    assert_int_equal(k[1].st_req, 524349);
    assert_int_equal(k[1].st_sec, 16777216);
    assert_int_equal(k[2].st_req, 33538304);
    assert_int_equal(k[2].ld_sec, 268306432);
    for (int i = 0; i < 3; ++i)
        assert_int_equal(k[i].have, GS_CTR_NEEDED | GS_CTR_DRAM_RD | GS_CTR_DRAM_WR | GS_CTR_TIME);
}

static void judge_as(struct gs_counters *c, const struct gs_counters_kernel *user,
                     const struct gs_counters_kernel *suite, uint64_t grid)
{
    memset(c, 0, sizeof *c);
    c->state = GS_CTRS_READ;
    c->n = N;
    c->grid = grid;
    c->block = 256;
    c->user = *user;
    c->suite = *suite;
    gs_counters_judge(c);
}

/* The rule on the H200's values: the grid-stride loop is coalesced, the
 * chunked kernel's lanes are C = ceil(2^24 / (1056 * 256)) = 63 elements
 * apart at 32 sectors a request, the block stride stores each element 64
 * times on its 64 blocks. */
static void rule_on_the_h200s_values(void **state)
{
    struct gs_counters_kernel k[GS_COUNTERS_MAX_KERNELS];
    struct gs_counters c;
    int nk = 0;
    (void)state;
    parse_probe(k, &nk);
    judge_as(&c, &k[0], &k[0], 1056);
    assert_int_equal(c.cls, GS_CTRS_COALESCED);
    assert_true(c.ld_spr == 4.0 && c.st_spr == 4.0 && c.st_per_elem == 1.0);
    assert_false(gs_counters_lesson(&c));
    assert_non_null(strstr(c.words, "coalesced"));

    judge_as(&c, &k[1], &k[0], 1056);
    assert_int_equal(c.cls, GS_CTRS_SCATTERED);
    assert_int_equal(c.chunk, 63);
    assert_string_equal(c.words, "right, but 32 sectors per request where 4 is the minimum: the "
                                 "warp's lanes are 63 elements apart (one chunk per thread)");
    assert_true(gs_counters_lesson(&c));
    assert_true(c.suite_st_spr == 4.0);

    judge_as(&c, &k[2], &k[0], 64);
    assert_int_equal(c.cls, GS_CTRS_REPEATED);
    assert_string_equal(c.words, "right, but every element stored 64 times: the loop steps by "
                                 "the block, not the grid (pitfall 1)");
    assert_non_null(strstr(c.rule, "n/32"));
}

/* Made-up values at the rule's edges. */
static void rule_on_made_up_values(void **state)
{
    struct gs_counters_kernel u, s;
    struct gs_counters c;
    (void)state;
    memset(&s, 0, sizeof s);
    s.have = GS_CTR_NEEDED;
    s.ld_req = 2 * N / 32;
    s.ld_sec = 4 * s.ld_req;
    s.st_req = N / 32;
    s.st_sec = 4 * s.st_req;
    u = s;
    /* Twice the store requests on a grid of 1056: repeated, not pitfall 1. */
    u.st_req = 2 * N / 32;
    judge_as(&c, &u, &s, 1056);
    assert_int_equal(c.cls, GS_CTRS_REPEATED);
    assert_non_null(strstr(c.words, "stored 2 times"));
    assert_null(strstr(c.words, "pitfall 1"));
    /* 1.4 times: under the threshold, and 4 sectors: coalesced. */
    u.st_req = N / 32 * 14 / 10;
    u.st_sec = 4 * u.st_req;
    judge_as(&c, &u, &s, 1056);
    assert_int_equal(c.cls, GS_CTRS_COALESCED);
    /* 8 sectors per load request: scattered, but not a chunk's 32. */
    u = s;
    u.ld_sec = 8 * u.ld_req;
    judge_as(&c, &u, &s, 1056);
    assert_int_equal(c.cls, GS_CTRS_SCATTERED);
    assert_non_null(strstr(c.words, "8.0 sectors per request of its loads"));
    /* 5.9 sectors: still under 6. */
    u.ld_sec = u.ld_req * 59 / 10;
    judge_as(&c, &u, &s, 1056);
    assert_int_equal(c.cls, GS_CTRS_COALESCED);
    /* No store counts: nothing to judge, said so. */
    u.have = GS_CTR_LD_REQ | GS_CTR_LD_SEC;
    judge_as(&c, &u, &s, 1056);
    assert_int_equal(c.cls, GS_CTRS_OTHER);
}

/* What is not ncu's CSV is refused; ncu's own error is kept; units scale. */
static void csv_edges(void **state)
{
    struct gs_counters_kernel k[4];
    char why[300];
    int nk = 0;
    (void)state;
    const char *bad = "\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Value\"\n\"0\",\"x\",\"m";
    assert_int_equal(gs_counters_parse_csv(bad, strlen(bad), k, 4, &nk, why, sizeof why), GS_IO);
    const char *nohead = "\"a\",\"b\"\n";
    assert_int_equal(gs_counters_parse_csv(nohead, strlen(nohead), k, 4, &nk, why, sizeof why),
                     GS_IO);
    const char *err = "==PROF== Connected to process 1\n==ERROR== ERR_NVGPUCTRPERM - The user "
                      "does not have permission\n";
    assert_int_equal(gs_counters_parse_csv(err, strlen(err), k, 4, &nk, why, sizeof why), GS_OK);
    assert_int_equal(nk, 0);
    assert_string_equal(why, "ERR_NVGPUCTRPERM - The user does not have permission");
    const char *units = "\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\r\n"
                        "\"3\",\"ns::solve<float>(float *)\",\"dram__bytes_read.sum\",\"Mbyte\","
                        "\"1.5\"\r\n"
                        "\"3\",\"ns::solve<float>(float *)\",\"gpu__time_duration.sum\","
                        "\"usecond\",\"56.35\"\r\n";
    assert_int_equal(gs_counters_parse_csv(units, strlen(units), k, 4, &nk, why, sizeof why),
                     GS_OK);
    assert_int_equal(nk, 1);
    assert_true(gs_counters_name_is(k[0].name, "solve"));
    assert_int_equal(k[0].dram_read, 1500000);
    assert_int_equal(k[0].time_ns, 56350);
    /* A buffer that ends inside a line, with no NUL after it: read within len
     * (a sanitizer build catches a read past it). */
    static const char cut[] = "==ERR";
    char *exact = malloc(sizeof cut - 1);
    assert_non_null(exact);
    memcpy(exact, cut, sizeof cut - 1);
    assert_int_equal(gs_counters_parse_csv(exact, sizeof cut - 1, k, 4, &nk, why, sizeof why),
                     GS_OK);
    assert_int_equal(nk, 0);
    free(exact);
    char v[32];
    assert_true(gs_counters_ncu_version("Version 2025.3.1.0 (build 1)", v, sizeof v));
    assert_string_equal(v, "2025.3.1");
    assert_false(gs_counters_ncu_version("no version here", v, sizeof v));
}

/* The counters worker's values, as CUPTI's range profiler leaves them
 * (the H200's counts of the chunked kernel and the suite's loop at
 * n = 2^24): parsed into the two kernels; the worker's own error kept;
 * what is not such a file refused, one line saying why. */
static void worker_values(void **state)
{
    (void)state;
    static const char ok[] =
        "source CUPTI 13.0 range profiler\n"
        "range 0 l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum 1048698\n"
        "range 0 l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum 33554432\n"
        "range 0 l1tex__t_requests_pipe_lsu_mem_global_op_st.sum 524349\n"
        "range 0 l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum 16777216\n"
        "range 0 dram__bytes_read.sum 2302768384\n"
        "range 0 gpu__time_duration.sum 1453056.0000000002\n"
        "range 1 l1tex__t_requests_pipe_lsu_mem_global_op_st.sum 524288\n"
        "range 1 some__other_metric.sum 7\n";
    struct gs_counters_kernel k[GS_COUNTERS_MAX_KERNELS];
    char source[64], why[300];
    int nk = -1;
    assert_int_equal(gs_counters_parse_values(ok, sizeof ok - 1, k, GS_COUNTERS_MAX_KERNELS, &nk,
                                              source, sizeof source, why, sizeof why), GS_OK);
    assert_int_equal(nk, 2);
    assert_string_equal(source, "CUPTI 13.0 range profiler");
    assert_int_equal(k[0].ld_req, 1048698);
    assert_int_equal(k[0].ld_sec, 33554432);
    assert_int_equal(k[0].st_req, 524349);
    assert_int_equal(k[0].st_sec, 16777216);
    assert_int_equal(k[0].dram_read, 2302768384ull);
    assert_int_equal(k[0].time_ns, 1453056);
    assert_int_equal(k[0].have & GS_CTR_NEEDED, GS_CTR_NEEDED);
    assert_int_equal(k[1].have, GS_CTR_ST_REQ);
    static const char err[] = "source CUPTI 13.0 range profiler\nerror CUPTI: "
                              "cuptiProfilerInitialize returned 35 (insufficient privileges)\n";
    assert_int_equal(gs_counters_parse_values(err, sizeof err - 1, k, GS_COUNTERS_MAX_KERNELS,
                                              &nk, source, sizeof source, why, sizeof why),
                     GS_API);
    assert_non_null(strstr(why, "insufficient privileges"));
    static const char *const bad[] = {
        "range 0 l1tex__t_requests_pipe_lsu_mem_global_op_st.sum -1\n",
        "range 0 l1tex__t_requests_pipe_lsu_mem_global_op_st.sum nan\n",
        "range 9 l1tex__t_requests_pipe_lsu_mem_global_op_st.sum 1\n",
        "range 0 l1tex__t_requests_pipe_lsu_mem_global_op_st.sum 1 extra\n",
        "ranges: 2\n",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        assert_int_equal(gs_counters_parse_values(bad[i], strlen(bad[i]), k, 8, &nk, source,
                                                  sizeof source, why, sizeof why), GS_IO);
        assert_non_null(strstr(why, "line 1"));
    }
}

/* The stand-in ncu through --ncu: its log is read, its stdout (a forged
 * row) never; at the deadline its group is killed; its error is one line. */
static void fake_ncu_runs(void **state)
{
    char ncu[4096], found[4096], why[500], dir[4096], log[4200], csv[4200];
    (void)state;
    snprintf(ncu, sizeof ncu, "%s/fake_ncu.sh", fixtures);
    assert_true(gs_counters_find_ncu(ncu, found, sizeof found, why, sizeof why));
    assert_true(found[0] == '/' && strstr(found, "fake_ncu.sh")); /* made absolute */
    snprintf(ncu, sizeof ncu, "%s", found);
    assert_false(gs_counters_find_ncu("/nonexistent/ncu", found, sizeof found, why, sizeof why));
    assert_non_null(strstr(why, "--ncu /nonexistent/ncu is not an executable file"));
    struct gs_err e = {0};
    assert_int_equal(gs_proc_private_dir(dir, sizeof dir, -1, &e), GS_OK);
    snprintf(log, sizeof log, "%s/ncu.csv", dir);
    snprintf(csv, sizeof csv, "%s/ncu_h200_n2p24.csv", fixtures);
    setenv("GS_FAKE_NCU_CSV", csv, 1);
    char *argv[] = {"ncu", "--csv", "--log-file", log, "./app", NULL};
    int status = -1, timed_out = -1;
    unsetenv("GS_FAKE_NCU_MODE");
    assert_int_equal(gs_counters_spawn(ncu, argv, dir, 20, &status, &timed_out, &e), GS_OK);
    assert_int_equal(timed_out, 0);
    assert_int_equal(status, 0);
    FILE *f = fopen(log, "rb");
    assert_non_null(f);
    static char text[1u << 16];
    const size_t len = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    struct gs_counters_kernel k[GS_COUNTERS_MAX_KERNELS];
    int nk = 0;
    assert_int_equal(gs_counters_parse_csv(text, len, k, GS_COUNTERS_MAX_KERNELS, &nk, why,
                                           sizeof why),
                     GS_OK);
    assert_int_equal(nk, 3); /* the forged row on stdout is not among them */
    assert_int_equal(k[0].st_req, N / 32);

    setenv("GS_FAKE_NCU_MODE", "sleep", 1);
    const time_t t0 = time(NULL);
    assert_int_equal(gs_counters_spawn(ncu, argv, dir, 0.3, &status, &timed_out, &e), GS_OK);
    assert_int_equal(timed_out, 1);
    assert_true(time(NULL) - t0 < 10);

    setenv("GS_FAKE_NCU_MODE", "perm", 1);
    assert_int_equal(gs_counters_spawn(ncu, argv, dir, 20, &status, &timed_out, &e), GS_OK);
    assert_int_equal(timed_out, 0);
    assert_int_not_equal(status, 0);
    f = fopen(log, "rb");
    assert_non_null(f);
    const size_t plen = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    assert_int_equal(gs_counters_parse_csv(text, plen, k, GS_COUNTERS_MAX_KERNELS, &nk, why,
                                           sizeof why),
                     GS_OK);
    assert_int_equal(nk, 0);
    assert_non_null(strstr(why, "ERR_NVGPUCTRPERM"));
    unsetenv("GS_FAKE_NCU_MODE");
    gs_proc_remove_dir(dir);
}

/* The whole pass (gs_counters_pass) on a CUDA device it is told it has,
 * with the stand-in ncu, which runs this build's counters worker on OpenCL
 * (PoCL) in place of the CUDA one and writes the CSV of a kernel named
 * solve beside the suite's loop: the log read, the output verified here,
 * the rule applied; a wrong output not used; a timeout, ncu's permission
 * error, --no-counters and another backend each said in one line. The
 * counted launch is of PASS_N floats (the plan's counters_n), not the
 * command's GS_COUNTERS_N: on a CPU a launch of 2^24 floats on 8 blocks
 * costs a second, and the stand-in's CSV holds the values of a launch of
 * PASS_N. */
#define PASS_N (1ull << 20)
static void pass_end_to_end(void **state)
{
    (void)state;
    if (!gridstride)
        skip();
    char probe[4200];
    snprintf(probe, sizeof probe, "\"%s\" --list --backend opencl > /dev/null 2>&1", gridstride);
    if (system(probe) != 0)
        skip(); /* no OpenCL device: the worker cannot stand in */
    static const struct gs_backend cuda = {.name = "cuda"};
    static struct gs_device dev;
    static struct gs_check_run run;
    memset(&dev, 0, sizeof dev);
    dev.backend = &cuda;
    dev.is_gpu = 1;
    snprintf(dev.id, sizeof dev.id, "0");
    memset(&run, 0, sizeof run);
    run.dev = &dev;
    run.grid = 8;
    run.block = 256;
    struct gs_check_plan plan;
    memset(&plan, 0, sizeof plan);
    plan.counters_n = PASS_N;
    char ncu[4200], csv[4200], kernel[4200], wrong[4200];
    snprintf(ncu, sizeof ncu, "%s/fake_ncu.sh", fixtures);
    snprintf(csv, sizeof csv, "%s/ncu_solve_pair.csv", fixtures);
    snprintf(kernel, sizeof kernel, "%s/../../examples/grid_stride.cl", fixtures);
    snprintf(wrong, sizeof wrong, "%s/../../examples/monolithic.cl", fixtures);
    plan.ncu = ncu;
    const struct gs_user_source src = {"k.cu", "/* the stand-in runs the .cl */", "solve",
                                       GS_DIALECT_CUDA};
    struct gs_err e = {0};
    setenv("GS_FAKE_NCU_CSV", csv, 1);
    setenv("GS_FAKE_NCU_GRIDSTRIDE", gridstride, 1);
    setenv("GS_FAKE_NCU_KERNEL", kernel, 1);
    setenv("GS_FAKE_NCU_MODE", "run", 1);
    assert_int_equal(gs_counters_pass(&dev, &src, &plan, &run, 60, 10, &e), GS_OK);
    const struct gs_counters *c = &run.counters;
    if (c->state != GS_CTRS_READ)
        fprintf(stderr, "counters: %s\n", c->why);
    assert_int_equal(c->state, GS_CTRS_READ);
    assert_string_equal(c->source, "ncu 2025.3.1");
    assert_int_equal(c->n, PASS_N);
    assert_int_equal(c->cls, GS_CTRS_SCATTERED);
    assert_int_equal(c->chunk, PASS_N / 2048);
    assert_non_null(strstr(c->words, "the warp's lanes are 512 elements apart"));
    assert_int_equal(c->user.st_req, 32772);
    assert_int_equal(c->suite.st_req, PASS_N / 32);

    /* Started, then not let launch (the speed pass found the kernel as fast
     * as the loop): the line says why; killed at once, reaped later, its
     * folder gone then. */
    struct gs_counters_job *job = NULL;
    assert_int_equal(gs_counters_start(&dev, &src, &plan, &run, 60, 10, 1, &job, &e), GS_OK);
    assert_non_null(job);
    assert_int_equal(gs_counters_launch(job, 0, "as fast as the loop", &run), GS_OK);
    assert_int_equal(gs_counters_finish(job, 1, &run, &e), GS_OK);
    assert_int_equal(c->state, GS_CTRS_NOT_READ);
    assert_string_equal(c->why, "not read: as fast as the loop");
    gs_proc_reap_later();
    /* Let launch before the rest (--counters), finished later: read. */
    job = NULL;
    assert_int_equal(gs_counters_start(&dev, &src, &plan, &run, 60, 10, 0, &job, &e), GS_OK);
    assert_int_equal(gs_counters_launch(job, 1, NULL, &run), GS_OK);
    assert_int_equal(gs_counters_finish(job, 1, &run, &e), GS_OK);
    assert_int_equal(c->state, GS_CTRS_READ);
    assert_int_equal(c->cls, GS_CTRS_SCATTERED);

    /* The counted launch's output is wrong: its counts are not used. */
    setenv("GS_FAKE_NCU_KERNEL", wrong, 1);
    assert_int_equal(gs_counters_pass(&dev, &src, &plan, &run, 60, 10, &e), GS_OK);
    assert_int_equal(c->state, GS_CTRS_NOT_READ);
    assert_non_null(strstr(c->why, "not used: the counted launch's output is wrong"));

    setenv("GS_FAKE_NCU_MODE", "sleep", 1);
    /* No build's wait, and twice 0.15 s of --timeout: stopped 0.3 s after the go. */
    assert_int_equal(gs_counters_pass(&dev, &src, &plan, &run, 0, 0.15, &e), GS_OK);
    assert_int_equal(c->state, GS_CTRS_NOT_READ);
    assert_non_null(strstr(c->why, "not read: ncu ran past 0.3 s"));

    setenv("GS_FAKE_NCU_MODE", "perm", 1);
    assert_int_equal(gs_counters_pass(&dev, &src, &plan, &run, 60, 10, &e), GS_OK);
    assert_non_null(strstr(c->why, "not read: ncu: ERR_NVGPUCTRPERM"));
    /* --no-speed with --counters: ncu still runs (what it answers, here its
     * permission error, is read), where --no-speed alone stops it (below). */
    memset(&run.counters, 0, sizeof run.counters);
    plan.no_speed = 1;
    plan.counters = 1;
    assert_int_equal(gs_counters_pass(&dev, &src, &plan, &run, 60, 10, &e), GS_OK);
    assert_non_null(strstr(c->why, "not read: ncu: ERR_NVGPUCTRPERM"));
    plan.no_speed = 0;
    plan.counters = 0;
    unsetenv("GS_FAKE_NCU_MODE");

    /* No --ncu and none installed (where none is): the one line that says so. */
    char found[4096], why[500];
    plan.ncu = NULL;
    if (!gs_counters_find_ncu(NULL, found, sizeof found, why, sizeof why)) {
        assert_int_equal(gs_counters_pass(&dev, &src, &plan, &run, 60, 10, &e), GS_OK);
        assert_non_null(strstr(c->why, "not read: Nsight Compute (ncu) not found"));
    }
    plan.ncu = ncu;

    plan.no_counters = 1;
    assert_int_equal(gs_counters_pass(&dev, &src, &plan, &run, 60, 10, &e), GS_OK);
    assert_string_equal(c->why, "not read (--no-counters)");
    plan.no_counters = 0;
    plan.no_speed = 1;
    assert_int_equal(gs_counters_pass(&dev, &src, &plan, &run, 60, 10, &e), GS_OK);
    assert_string_equal(c->why, "not read (--no-speed)");
    plan.no_speed = 0;
    const struct gs_user_source gs = {"k.gs", "", "solve", GS_DIALECT_PORTABLE};
    assert_int_equal(gs_counters_pass(&dev, &gs, &plan, &run, 60, 10, &e), GS_OK);
    assert_non_null(strstr(c->why, "reads a .cu kernel"));
    static const struct gs_backend opencl = {.name = "opencl"};
    dev.backend = &opencl;
    assert_int_equal(gs_counters_pass(&dev, &src, &plan, &run, 60, 10, &e), GS_OK);
    assert_string_equal(c->why, ""); /* the report says why, by the device's API */
}

/* The report: the table when read, and the rule under --verbose only; one
 * line when not read. */
static void report_lines(void **state)
{
    struct gs_counters_kernel k[GS_COUNTERS_MAX_KERNELS];
    struct gs_counters c;
    struct gs_str o = {0};
    int nk = 0;
    (void)state;
    parse_probe(k, &nk);
    judge_as(&c, &k[1], &k[0], 1056);
    snprintf(c.source, sizeof c.source, "ncu 2025.3.1");
    gs_counters_text(&c, "fallback", 0, &o);
    assert_non_null(strstr(o.data, "counters (ncu 2025.3.1) at n = 16777216 <<<1056, 256>>>"));
    assert_non_null(strstr(o.data, "your kernel"));
    assert_non_null(strstr(o.data, "the suite's grid-stride loop"));
    assert_non_null(strstr(o.data, "32.0"));
    assert_null(strstr(o.data, "(rule: "));
    gs_str_free(&o);
    gs_counters_text(&c, "fallback", 1, &o);
    assert_non_null(strstr(o.data, "(rule: "));
    gs_str_free(&o);
    memset(&c, 0, sizeof c);
    gs_counters_text(&c, "none: OpenCL exposes no hardware counters; timing only", 1, &o);
    assert_string_equal(o.data, "  counters: none: OpenCL exposes no hardware counters; timing "
                                "only\n");
    gs_str_free(&o);
}

int main(int argc, char **argv)
{
    if (argc != 2 && argc != 3) {
        fprintf(stderr, "usage: test_counters FIXTURE_DIR [GRIDSTRIDE]\n");
        return 2;
    }
    static char gs_abs[4096];
    gridstride = argc == 3 ? (realpath(argv[2], gs_abs) ? gs_abs : argv[2]) : NULL;
    static char abs[4096];
    /* Absolute: the stand-in ncu starts in a private folder. */
    fixtures = realpath(argv[1], abs) ? abs : argv[1];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(real_csv_parses),  cmocka_unit_test(rule_on_the_h200s_values),
        cmocka_unit_test(rule_on_made_up_values), cmocka_unit_test(csv_edges),
        cmocka_unit_test(fake_ncu_runs),    cmocka_unit_test(pass_end_to_end),
        cmocka_unit_test(report_lines),     cmocka_unit_test(worker_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
