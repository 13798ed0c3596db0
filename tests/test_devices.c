/* SPDX-License-Identifier: MIT */
/* Several devices of one backend in one run (--device all): each gets its
 * own column group with its own G and T, and a device whose predictions
 * fail is named in the summary line. PoCL makes two CPU devices when
 * POCL_DEVICES names its driver twice, so this runs without a GPU; where
 * the OpenCL backend has fewer than two devices, or has a GPU (whose timed
 * runs belong to the GPU tests), those tests are skipped. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "gs_driver.h"
#include "gs_registry.h"
#include "gs_table_report.h"

static char out_path[64];

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    static char text[1 << 20];
    const size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    return text;
}

/* The line of text that starts with prefix, or NULL. */
static const char *line_starting(const char *text, const char *prefix)
{
    for (const char *p = text; p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
        if (strncmp(p, prefix, strlen(prefix)) == 0)
            return p;
    return NULL;
}

/* Run one gridstride command line through the CLI's own code, into out_path. */
static int run_cli(const char **args, int nargs, int *ndevs)
{
    const char *argv[32] = {"gridstride"};
    struct gs_cli cli;
    struct gs_session s;
    struct gs_err e = {0};
    int argc = 1;
    for (int i = 0; i < nargs; ++i)
        argv[argc++] = args[i];
    argv[argc++] = "--output";
    argv[argc++] = out_path;
    /* Wide enough for the devices side by side (a file gets 80 columns,
     * where the table and bandwidth put one device after another). */
    argv[argc++] = "--width";
    argv[argc++] = "1000";
    assert_int_equal(gs_cli_parse(argc, (char **)argv, &cli, &e), GS_OK);
    if (gs_session_open(&cli, 1, NULL, NULL, &s, &e) != GS_OK) {
        gs_session_close(&s);
        return -1;
    }
    /* Timed runs on a GPU belong to the GPU tests, which hold it alone
     * (RESOURCE_LOCK, resource groups); this test uses CPU devices only. */
    int gpus = 0;
    for (int i = 0; i < s.ndevs; ++i)
        gpus += s.devs[i]->is_gpu;
    *ndevs = gpus ? 0 : s.ndevs;
    gs_session_close(&s);
    int code = -2;
    if (*ndevs >= 2)
        code = gs_drive(gs_command_of(&cli), &cli, "test", &e);
    if (code == 2)
        print_error("%s\n", e.msg);
    return code;
}

static void table_on_every_opencl_device(void **state)
{
    (void)state;
    const char *args[] = {"--backend", "opencl", "--device", "all", "--sizes", "0,1,4194304"};
    int ndevs = 0;
    const int code = run_cli(args, 6, &ndevs);
    if (code < 0 || ndevs < 2)
        skip();
    assert_int_equal(code, 0);
    const char *text = slurp(out_path);
    /* A group per device, each with its own G and T, in the header. */
    const char *head = line_starting(text, "                         | opencl [");
    assert_non_null(head);
    assert_non_null(strstr(head, "opencl [0:0]: G "));
    assert_non_null(strstr(head, "opencl [0:1]: G "));
    const char *summary = strstr(text, " cases held their prediction on ");
    assert_non_null(summary);
    assert_non_null(strstr(summary, " on opencl [0:0], opencl [0:1] (3 sizes"));
}

static void bandwidth_on_every_opencl_device(void **state)
{
    (void)state;
    const char *args[] = {"bandwidth", "--backend", "opencl", "--device", "all",
                          "--bytes",   "64KiB",     "--reps",  "5",      "--quiet"};
    int ndevs = 0;
    const int code = run_cli(args, 10, &ndevs);
    if (code < 0 || ndevs < 2)
        skip();
    assert_int_equal(code, 0);
    const char *text = slurp(out_path);
    const char *head = strstr(text, "| opencl [0:0]");
    assert_non_null(head);
    assert_non_null(strstr(head, "| opencl [0:1]"));
}

/* A failed prediction names its device in the summary line. The host
 * device is run twice (two tables of one backend); the second table's
 * first case is then marked as failed, as gs_table_run marks one. */
static void a_failing_device_is_named_in_the_summary(void **state)
{
    (void)state;
    struct gs_opened o;
    struct gs_err e = {0};
    gs_open_backend(gs_registry_find("host"), &o);
    assert_int_equal(o.status, GS_OK);
    uint64_t sizes[] = {1, 611};
    const struct gs_table_plan plan = {GS_DEFAULT_BLOCK, 0, sizes, 2, NULL, 0, 1u << GS_COL_C, NULL};
    struct gs_table *t[2];
    for (int i = 0; i < 2; ++i)
        assert_int_equal(gs_table_run(o.devs[0], &plan, &t[i], &e), GS_OK);
    t[1]->cases[0].held = 0;
    t[1]->failed = 1;
    snprintf(t[1]->cases[0].mismatch, sizeof t[1]->cases[0].mismatch, "marked by the test");
    struct gs_str text = {0};
    const struct gs_table_report_in in = {(const struct gs_table *const *)t, 2, &plan, "test",
                                          "test", NULL, NULL, 0, 0};
    gs_table_report(&in, GS_FMT_TEXT, &text);
    const char *summary = line_starting(text.data, "PREDICTION FAILED");
    assert_non_null(summary);
    char want[200];
    snprintf(want, sizeof want, "on host [0] (%s):\n", o.devs[0]->name);
    assert_non_null(strstr(summary, want));
    assert_true(strstr(summary, want) < strchr(summary, '\n') + 1);
    gs_str_free(&text);
    for (int i = 0; i < 2; ++i)
        gs_table_free(t[i]);
    gs_close_backend(&o);
}

/* For a terminal: the expected wrong@T in yellow, a failed prediction in
 * red, a refusal in cyan, and nothing else coloured; without the flag no
 * escape at all. Narrower than the side-by-side table, the backends are
 * stacked: one header per table, no line wider than the table of one. */
static void a_terminal_gets_colours_and_stacked_tables(void **state)
{
    (void)state;
    struct gs_opened o;
    struct gs_err e = {0};
    gs_open_backend(gs_registry_find("host"), &o);
    assert_int_equal(o.status, GS_OK);
    struct gs_table *t[2];
    uint64_t grid = 0;
    int fallback = 0;
    char rule[200];
    const struct gs_table_plan probe = {GS_DEFAULT_BLOCK, 0, NULL, 0, NULL, 0, 0, NULL};
    assert_int_equal(gs_table_grid(o.devs[0], &probe, &grid, &fallback, rule, sizeof rule, &e),
                     GS_OK);
    uint64_t sizes[] = {0, 1, grid * GS_DEFAULT_BLOCK + 1};
    const struct gs_table_plan plan = {GS_DEFAULT_BLOCK, 0, sizes, 3, NULL, 0,
                                       (1u << GS_COLUMNS) - 1, NULL};
    for (int i = 0; i < 2; ++i)
        assert_int_equal(gs_table_run(o.devs[0], &plan, &t[i], &e), GS_OK);
    t[1]->cases[1].held = 0; /* a failed prediction, as gs_table_run marks one */
    t[1]->failed = 1;
    struct gs_str plain = {0}, colour = {0}, stacked = {0};
    struct gs_table_report_in in = {(const struct gs_table *const *)t, 2, &plan, "test",
                                    "test", NULL, NULL, 0, 0};
    gs_table_report(&in, GS_FMT_TEXT, &plain);
    assert_null(strchr(plain.data, '\033'));
    in.colour = 1;
    gs_table_report(&in, GS_FMT_TEXT, &colour);
    assert_non_null(strstr(colour.data, "\033[33mwrong@"));
    assert_non_null(strstr(colour.data, "\033[1;31m"));
    assert_non_null(strstr(colour.data, "\033[36mrefused"));
    assert_null(strstr(colour.data, "m ok"));
    in.colour = 0;
    in.width = 80;
    gs_table_report(&in, GS_FMT_TEXT, &stacked);
    int headers = 0;
    for (const char *p = stacked.data; (p = strstr(p, "blocks(A)")); ++p)
        ++headers;
    assert_int_equal(headers, 2);
    for (const char *p = stacked.data, *nl; *p; p = nl + 1) {
        nl = strchr(p, '\n');
        if (!nl)
            break;
        if (strstr(p, " | ") && strstr(p, " | ") < nl)
            assert_true(nl - p <= 24 + 3 + 4 * 14);
    }
    gs_str_free(&plain);
    gs_str_free(&colour);
    gs_str_free(&stacked);
    for (int i = 0; i < 2; ++i)
        gs_table_free(t[i]);
    gs_close_backend(&o);
}

int main(void)
{
    /* Before the OpenCL loader starts: two PoCL CPU devices. */
    setenv("POCL_DEVICES", "pthread pthread", 0);
    snprintf(out_path, sizeof out_path, "/tmp/gs_test_devices.%ld", (long)getpid());
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(table_on_every_opencl_device),
        cmocka_unit_test(bandwidth_on_every_opencl_device),
        cmocka_unit_test(a_failing_device_is_named_in_the_summary),
        cmocka_unit_test(a_terminal_gets_colours_and_stacked_tables),
    };
    const int failed = cmocka_run_group_tests(tests, NULL, NULL);
    unlink(out_path);
    return failed;
}
