/* SPDX-License-Identifier: MIT */
/* The command line as a user meets it: the real binary, run as a child.
 * Bad input must give exactly one line on stderr, exit code 2, nothing on
 * stdout and no output file. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "gs_sysmem.h"

static const char *binary;
static char tmpdir[256];
/* Input files for `gridstride check`, in a folder of their own. */
static char indir[256], empty_src[300], binary_src[300], text_src[300], helper_src[300],
    int_n_src[300], broken_src[300];

struct result {
    int code;
    char out[65536];
    char err[8192];
};

static void read_all(int fd, char *buf, size_t size)
{
    size_t len = 0;
    ssize_t r;
    while ((r = read(fd, buf + len, size - 1 - len)) > 0 && len + 1 < size)
        len += (size_t)r;
    buf[len] = '\0';
}

/* Start the binary with the given arguments (NULL-terminated); stdout goes
 * to a temporary file (never a pipe: a long report cannot block the child),
 * stderr to a pipe. */
static pid_t start(const char *const *args, char *out_path, int *err_fd)
{
    int err[2];
    const char *argv[32] = {binary};
    int n = 1;
    for (; args[n - 1]; ++n)
        argv[n] = args[n - 1];
    argv[n] = NULL;
    strcpy(out_path, "/tmp/gs_test_cli_stdout.XXXXXX");
    int out = mkstemp(out_path);
    assert_true(out >= 0);
    assert_int_equal(pipe(err), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(out, 1);
        dup2(err[1], 2);
        close(err[0]);
        unsetenv("GRIDSTRIDE_REQUIRE");
        execv(binary, (char *const *)argv);
        _exit(127);
    }
    close(out);
    close(err[1]);
    *err_fd = err[0];
    return pid;
}

static int finish(pid_t pid)
{
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static void run(struct result *res, const char *const *args)
{
    char out_path[64];
    int err_fd;
    pid_t pid = start(args, out_path, &err_fd);
    read_all(err_fd, res->err, sizeof res->err);
    close(err_fd);
    res->code = finish(pid);
    int fd = open(out_path, O_RDONLY);
    assert_true(fd >= 0);
    read_all(fd, res->out, sizeof res->out);
    close(fd);
    unlink(out_path);
}

static int count_lines(const char *s)
{
    int n = 0;
    for (; *s; ++s)
        n += *s == '\n';
    return n;
}

static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

static int dir_entries(const char *dir)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "test -z \"$(ls -A '%s')\"", dir);
    return system(cmd) == 0 ? 0 : 1;
}

/* One bad command line: exit 2, one line naming `needle`, no output file. */
static void expect_usage_error(const char *needle, const char *const *args)
{
    struct result *r = calloc(1, sizeof *r);
    char out_path[300];
    snprintf(out_path, sizeof out_path, "%s/report.txt", tmpdir);
    run(r, args);
    if (r->code != 2 || count_lines(r->err) != 1 || !strstr(r->err, needle))
        fail_msg("expected exit 2 and one line with '%s'; got exit %d, stderr:\n%s", needle,
                 r->code, r->err);
    assert_string_equal(r->out, "");
    assert_false(exists(out_path));
    assert_int_equal(dir_entries(tmpdir), 0);
    free(r);
}

#define BAD(name, needle, ...)                                                                 \
    static void name(void **state)                                                             \
    {                                                                                          \
        (void)state;                                                                           \
        char out_path[300];                                                                    \
        snprintf(out_path, sizeof out_path, "%s/report.txt", tmpdir);                          \
        const char *args[] = {__VA_ARGS__, "--output", out_path, NULL};                        \
        expect_usage_error(needle, args);                                                      \
    }

BAD(negative_size, "--sizes", "--backend", "host", "--sizes", "-1")
BAD(non_numeric_size, "not a whole number", "--backend", "host", "--sizes", "12abc")
BAD(overflowing_size, "out of range", "--backend", "host", "--sizes", "99999999999999999999999")
BAD(unallocatable_size, "choose a smaller n with --sizes", "--backend", "host", "--sizes", "1099511627776")
BAD(zero_block, "--block", "--backend", "host", "--block", "0")
BAD(block_above_device_limit, "beyond every selected device", "--backend", "host", "--block", "2048")
/* every backend, some perhaps without a device: still one line */
BAD(block_above_limit_all_backends, "beyond every selected device", "--block", "1048576")
BAD(grid_above_every_device, "beyond every selected device", "--backend", "host", "--grid",
    "1048577")
/* 2^32 + 5 elements: three buffers of 17,179,873,300 bytes (51.5 GB), refused
 * before anything is allocated where this machine cannot hold them (CI's
 * 24 GB), with the bytes needed in the one line. Where it can, the run would
 * be real, and long: skipped. */
static void big_n_refused_before_allocation(void **state)
{
    (void)state;
    if (gs_host_available_memory() >= 3 * 17179873300ull) {
        print_message("this machine holds 51.5 GB: nothing to refuse\n");
        skip();
    }
    char out_path[300];
    snprintf(out_path, sizeof out_path, "%s/report.txt", tmpdir);
    const char *args[] = {"--backend", "host", "--sizes", "4294967301", "--output", out_path,
                          NULL};
    expect_usage_error("17179873300", args);
}
BAD(malformed_shape, "GRIDxBLOCK", "--backend", "host", "--shape", "160by256")
BAD(zero_grid_shape, "--shape grid", "--backend", "host", "--shape", "0x256")
BAD(unknown_backend, "unknown backend 'metal'", "--backend", "metal")
BAD(unknown_device, "matches no host device", "--backend", "host", "--device", "no-such-gpu")
BAD(empty_device, "--device: empty", "--backend", "host", "--device", "")
BAD(unknown_kernel, "unknown kernel 'warp-shuffle'", "--backend", "host", "--kernels", "warp-shuffle")
BAD(unknown_format, "unknown format 'xml'", "--backend", "host", "--format", "xml")
BAD(unknown_option, "unknown option '--colour'", "--backend", "host", "--colour")
BAD(missing_value, "--grid needs a value", "--backend", "host", "--grid")
BAD(repeated_option, "given twice", "--backend", "host", "--block", "256", "--block", "128")
BAD(bandwidth_bytes_too_large, "do not fit", "bandwidth", "--backend", "host", "--bytes", "8192GiB")
BAD(bandwidth_bytes_malformed, "not a size", "bandwidth", "--backend", "host", "--bytes", "1.5GiB")
BAD(bandwidth_too_few_reps, "--reps", "bandwidth", "--backend", "host", "--reps", "2")
BAD(table_option_in_bandwidth, "belong to the table", "bandwidth", "--backend", "host", "--sizes", "1")
BAD(bandwidth_option_in_table, "belong to 'gridstride bandwidth'", "--backend", "host", "--reps", "10")
BAD(check_missing_file, "cannot read /nonexistent/solve.cu", "check", "/nonexistent/solve.cu")
BAD(check_empty_file, "is empty", "check", empty_src)
BAD(check_binary_file, "is not source text", "check", binary_src)
BAD(check_wrong_extension, "unknown extension '.txt'", "check", text_src)
BAD(check_directory, "is a directory", "check", indir)
BAD(check_without_file, "check needs a FILE", "check", "--backend", "host")
BAD(check_bad_entry_name, "is not a kernel name", "check", helper_src, "--entry", "1x")
BAD(check_entry_not_a_kernel, "'add' is not a kernel", "check", helper_src, "--backend", "host",
    "--entry", "add")
BAD(check_entry_missing, "has no kernel named 'nothere'", "check", helper_src, "--backend", "host",
    "--entry", "nothere")
BAD(check_wrong_parameters, "does not take the contract's parameters", "check", int_n_src,
    "--backend", "host")
BAD(check_arch_without_compile_only, "--arch goes with --compile-only", "check", helper_src,
    "--arch", "sm_90")
BAD(check_option_of_table, "--kernels does not apply to 'gridstride check'", "check", helper_src,
    "--kernels", "chunked")
BAD(entry_outside_check, "--entry belongs to 'gridstride check'", "--entry", "solve")

static void unwritable_output(void **state)
{
    (void)state;
    const char *args[] = {"--backend", "host", "--output", "/nonexistent-dir/report.txt", NULL};
    struct result *r = calloc(1, sizeof *r);
    run(r, args);
    assert_int_equal(r->code, 2);
    assert_int_equal(count_lines(r->err), 1);
    assert_non_null(strstr(r->err, "cannot write '/nonexistent-dir/report.txt'"));
    assert_string_equal(r->out, "");
    free(r);
}

static void output_file_is_written_whole(void **state)
{
    (void)state;
    char out_path[300];
    snprintf(out_path, sizeof out_path, "%s/report.json", tmpdir);
    const char *args[] = {"--backend", "host", "--grid", "160", "--format", "json", "--output",
                          out_path, NULL};
    struct result *r = calloc(1, sizeof *r);
    run(r, args);
    assert_int_equal(r->code, 0);
    assert_string_equal(r->out, "");
    FILE *f = fopen(out_path, "r");
    assert_non_null(f);
    char buf[4096] = {0};
    assert_true(fread(buf, 1, sizeof buf - 1, f) > 0);
    fclose(f);
    assert_non_null(strstr(buf, "\"T\": 40960"));
    assert_non_null(strstr(buf, "\"held\": true"));
    unlink(out_path);
    assert_int_equal(dir_entries(tmpdir), 0); /* no temporary left behind */
    free(r);
}

/* A run stopped half way (Ctrl-C, a CI timeout) leaves no file behind, not
 * even the temporaries its outputs were being written to. */
static void interrupted_run_leaves_no_file(void **state)
{
    (void)state;
    char out_path[300], svg_path[300], stdout_path[64];
    snprintf(out_path, sizeof out_path, "%s/bw.txt", tmpdir);
    snprintf(svg_path, sizeof svg_path, "%s/bw.svg", tmpdir);
    const char *args[] = {"bandwidth", "--backend", "host", "--bytes", "64MiB", "--reps", "1000",
                          "--quiet", "--output", out_path, "--svg", svg_path, NULL};
    int err_fd;
    pid_t pid = start(args, stdout_path, &err_fd);
    /* wait until the temporaries exist, so the test is about them */
    const struct timespec tick = {0, 10000000};
    for (int i = 0; i < 200 && dir_entries(tmpdir) == 0; ++i)
        nanosleep(&tick, NULL);
    assert_int_equal(dir_entries(tmpdir), 1);
    kill(pid, SIGTERM);
    assert_int_equal(finish(pid), 128 + SIGTERM);
    close(err_fd);
    unlink(stdout_path);
    assert_int_equal(dir_entries(tmpdir), 0);
}

static void help_and_version_exit_zero(void **state)
{
    (void)state;
    struct result *r = calloc(1, sizeof *r);
    const char *help[] = {"--help", NULL};
    run(r, help);
    assert_int_equal(r->code, 0);
    assert_non_null(strstr(r->out, "usage: gridstride"));
    assert_non_null(strstr(r->out, "--sizes"));
    const char *version[] = {"--version", NULL};
    run(r, version);
    assert_int_equal(r->code, 0);
    assert_non_null(strstr(r->out, "gridstride "));
    free(r);
}

/* A file that does not compile: the compiler's own messages, pointing at
 * the file's line 3, then one line saying so; exit 2 and no report. */
static void check_compile_error_shows_the_log(void **state)
{
    (void)state;
    struct result *r = calloc(1, sizeof *r);
    char needle[320];
    const char *args[] = {"check", broken_src, "--backend", "host", NULL};
    run(r, args);
    assert_int_equal(r->code, 2);
    assert_string_equal(r->out, "");
    snprintf(needle, sizeof needle, "%s:3:", broken_src);
    if (!strstr(r->err, needle) || !strstr(r->err, "does not compile"))
        fail_msg("expected the compiler's message at %s; stderr:\n%s", needle, r->err);
    free(r);
}

static void check_help_names_the_contract(void **state)
{
    (void)state;
    struct result *r = calloc(1, sizeof *r);
    const char *args[] = {"check", "--help", NULL};
    run(r, args);
    assert_int_equal(r->code, 0);
    assert_non_null(strstr(r->out, "usage: gridstride check FILE"));
    assert_non_null(strstr(r->out, "__global__ void solve(const float *a, const float *b, float *out, size_t n)"));
    assert_non_null(strstr(r->out, "__global float *out, ulong n)"));
    assert_non_null(strstr(r->out, "--entry"));
    assert_null(strstr(r->out, "--kernels"));
    free(r);
}

static void t4_grid_table_matches_seed_002(void **state)
{
    (void)state;
    struct result *r = calloc(1, sizeof *r);
    const char *args[] = {"--backend", "host", "--grid", "160", "--format", "csv", NULL};
    run(r, args);
    assert_int_equal(r->code, 0);
    /* column B at 40961 and 4194304 is wrong from index 40960, and held */
    assert_non_null(strstr(r->out, "sizes,B,monolithic,40961,160,256,40960,0,wrong,40960,wrong,40960,1,1,0"));
    assert_non_null(strstr(r->out, "sizes,B,monolithic,4194304,160,256,40960,0,wrong,40960,wrong,40960,4153344,4153344,0"));
    assert_non_null(strstr(r->out, "sizes,C,grid-stride,4194304,160,256,40960,0,ok,0,ok,0,0,0,0"));
    free(r);
}

static void list_shows_backends_and_grids(void **state)
{
    (void)state;
    struct result *r = calloc(1, sizeof *r);
    const char *args[] = {"--list", NULL};
    run(r, args);
    assert_int_equal(r->code, 0);
    assert_non_null(strstr(r->out, "host:"));
    assert_non_null(strstr(r->out, "G = "));
    free(r);
}

static int write_input(char *path, const char *name, const char *text, size_t len)
{
    snprintf(path, 300, "%s/%s", indir, name);
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    const size_t w = fwrite(text, 1, len, f);
    return fclose(f) == 0 && w == len ? 0 : -1;
}

#define KERNEL_HEAD "GS_KERNEL void solve(GS_THREAD_CTX GS_GLOBAL const float *a, "

static int make_inputs(void)
{
    static const char binary_text[] = {'\x7f', 'E', 'L', 'F', 2, 1, 1, 0, 0, 0};
    static const char helper[] =
        "static float add(float x, float y) { return x + y; }\n" KERNEL_HEAD
        "GS_GLOBAL const float *b, GS_GLOBAL float *out, gs_size n)\n"
        "{ for (gs_size i = GS_GLOBAL_THREAD(); i < n; i += GS_GRID_THREADS()) out[i] = add(a[i], b[i]); }\n";
    static const char int_n[] = KERNEL_HEAD "GS_GLOBAL const float *b, GS_GLOBAL float *out, int n)\n"
                                "{ (void)a; (void)b; (void)out; (void)n; }\n";
    static const char broken[] = KERNEL_HEAD "GS_GLOBAL const float *b, GS_GLOBAL float *out, gs_size n)\n"
                                 "{\n    out[0] = a[0] + c[0];\n}\n";
    snprintf(indir, sizeof indir, "/tmp/gs_test_cli_in.XXXXXX");
    if (!mkdtemp(indir))
        return -1;
    return write_input(empty_src, "empty.cl", "", 0) | write_input(binary_src, "binary.cu", binary_text, sizeof binary_text) |
           write_input(text_src, "notes.txt", "solve\n", 6) |
           write_input(helper_src, "helper.gs", helper, strlen(helper)) |
           write_input(int_n_src, "int_n.gs", int_n, strlen(int_n)) |
           write_input(broken_src, "broken.gs", broken, strlen(broken));
}

static void remove_inputs(void)
{
    const char *files[] = {empty_src, binary_src, text_src, helper_src, int_n_src, broken_src};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; ++i)
        unlink(files[i]);
    rmdir(indir);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_cli PATH-TO-gridstride\n");
        return 2;
    }
    binary = argv[1];
    snprintf(tmpdir, sizeof tmpdir, "/tmp/gs_test_cli.XXXXXX");
    if (!mkdtemp(tmpdir) || make_inputs() != 0) {
        perror("test inputs");
        return 2;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(negative_size),
        cmocka_unit_test(non_numeric_size),
        cmocka_unit_test(overflowing_size),
        cmocka_unit_test(unallocatable_size),
        cmocka_unit_test(zero_block),
        cmocka_unit_test(block_above_device_limit),
        cmocka_unit_test(block_above_limit_all_backends),
    cmocka_unit_test(grid_above_every_device),
    cmocka_unit_test(big_n_refused_before_allocation),
        cmocka_unit_test(malformed_shape),
        cmocka_unit_test(zero_grid_shape),
        cmocka_unit_test(unknown_backend),
        cmocka_unit_test(unknown_device),
        cmocka_unit_test(empty_device),
        cmocka_unit_test(unknown_kernel),
        cmocka_unit_test(unknown_format),
        cmocka_unit_test(unknown_option),
        cmocka_unit_test(missing_value),
        cmocka_unit_test(repeated_option),
        cmocka_unit_test(bandwidth_option_in_table),
        cmocka_unit_test(bandwidth_bytes_too_large),
        cmocka_unit_test(bandwidth_bytes_malformed),
        cmocka_unit_test(bandwidth_too_few_reps),
        cmocka_unit_test(table_option_in_bandwidth),
        cmocka_unit_test(unwritable_output),
        cmocka_unit_test(output_file_is_written_whole),
        cmocka_unit_test(interrupted_run_leaves_no_file),
        cmocka_unit_test(help_and_version_exit_zero),
        cmocka_unit_test(check_missing_file),
        cmocka_unit_test(check_empty_file),
        cmocka_unit_test(check_binary_file),
        cmocka_unit_test(check_wrong_extension),
        cmocka_unit_test(check_directory),
        cmocka_unit_test(check_without_file),
        cmocka_unit_test(check_bad_entry_name),
        cmocka_unit_test(check_entry_not_a_kernel),
        cmocka_unit_test(check_entry_missing),
        cmocka_unit_test(check_wrong_parameters),
        cmocka_unit_test(check_arch_without_compile_only),
        cmocka_unit_test(check_option_of_table),
        cmocka_unit_test(entry_outside_check),
        cmocka_unit_test(check_compile_error_shows_the_log),
        cmocka_unit_test(check_help_names_the_contract),
        cmocka_unit_test(t4_grid_table_matches_seed_002),
        cmocka_unit_test(list_shows_backends_and_grids),
    };
    const int failed = cmocka_run_group_tests(tests, NULL, NULL);
    rmdir(tmpdir);
    remove_inputs();
    return failed;
}
