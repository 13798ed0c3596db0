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
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "gs_registry.h"
#include "gs_sysmem.h"

static const char *binary;      /* gridstride */
static const char *conformance; /* test_conformance */
static char tmpdir[256];
/* Input files for `gridstride check`, in a folder of their own. */
static char indir[256], empty_src[300], binary_src[300], text_src[300], helper_src[300],
    int_n_src[300], broken_src[300], cl_src[300];
/* Where bad trace command lines are told to draw: nothing may appear there. */
static char trace_svg[300];
/* Where bad `bandwidth --spread` command lines are told to write. */
static char spread_svg[300], spread_json[300];

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

/* Start `program` with the given arguments (NULL-terminated) and `env`
 * ("NAME=value" set in the child, or NULL); its stdout goes to out_fd, its
 * stderr to a pipe. The child starts as a shell would start it: with no
 * GRIDSTRIDE_REQUIRE of ours, SIGPIPE at its default, and no core files. */
static pid_t spawn(const char *program, const char *const *args, const char *env, int out_fd,
                   int *err_fd)
{
    int err[2];
    const char *argv[32] = {program};
    int n = 1;
    for (; args[n - 1]; ++n)
        argv[n] = args[n - 1];
    argv[n] = NULL;
    assert_int_equal(pipe(err), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        const struct rlimit no_core = {0, 0};
        dup2(out_fd, 1);
        dup2(err[1], 2);
        close(err[0]);
        unsetenv("GRIDSTRIDE_REQUIRE");
        if (env) {
            char name[64];
            const char *eq = strchr(env, '=');
            snprintf(name, sizeof name, "%.*s", (int)(eq - env), env);
            setenv(name, eq + 1, 1);
        }
        signal(SIGPIPE, SIG_DFL);
        setrlimit(RLIMIT_CORE, &no_core);
        execv(program, (char *const *)argv);
        _exit(127);
    }
    close(err[1]);
    *err_fd = err[0];
    return pid;
}

/* The binary under test, its stdout to a temporary file (never a pipe: a
 * long report cannot block the child). */
static pid_t start_env(const char *const *args, const char *env, char *out_path, int *err_fd)
{
    strcpy(out_path, "/tmp/gs_test_cli_stdout.XXXXXX");
    int out = mkstemp(out_path);
    assert_true(out >= 0);
    pid_t pid = spawn(binary, args, env, out, err_fd);
    close(out);
    return pid;
}

static pid_t start(const char *const *args, char *out_path, int *err_fd)
{
    return start_env(args, NULL, out_path, err_fd);
}

static int finish(pid_t pid)
{
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static void run_env(struct result *res, const char *env, const char *const *args)
{
    char out_path[64];
    int err_fd;
    pid_t pid = start_env(args, env, out_path, &err_fd);
    read_all(err_fd, res->err, sizeof res->err);
    close(err_fd);
    res->code = finish(pid);
    int fd = open(out_path, O_RDONLY);
    assert_true(fd >= 0);
    read_all(fd, res->out, sizeof res->out);
    close(fd);
    unlink(out_path);
}

static void run(struct result *res, const char *const *args)
{
    run_env(res, NULL, args);
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

/* The next entry of d other than . and .., or NULL. */
static struct dirent *next_entry(DIR *d)
{
    struct dirent *ent;
    while ((ent = readdir(d)) != NULL)
        if (strcmp(ent->d_name, ".") != 0 && strcmp(ent->d_name, "..") != 0)
            return ent;
    return NULL;
}

/* 1 when dir has an entry (or cannot be read), else 0. */
static int dir_entries(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return 1;
    const int found = next_entry(d) != NULL;
    closedir(d);
    return found;
}

/* After each test: an empty tmpdir, so a failed test cannot fail the next. */
static int clean_tmpdir(void **state)
{
    (void)state;
    DIR *d = opendir(tmpdir);
    struct dirent *ent;
    char path[600];
    while (d && (ent = next_entry(d)) != NULL) {
        snprintf(path, sizeof path, "%s/%s", tmpdir, ent->d_name);
        unlink(path);
    }
    if (d)
        closedir(d);
    return 0;
}

/* One bad command line (with `env` set, when not NULL): exit 2, one line
 * naming `needle`, no output file. */
static void expect_usage_error_env(const char *env, const char *needle, const char *const *args)
{
    struct result *r = calloc(1, sizeof *r);
    char out_path[300];
    snprintf(out_path, sizeof out_path, "%s/report.txt", tmpdir);
    run_env(r, env, args);
    if (r->code != 2 || count_lines(r->err) != 1 || !strstr(r->err, needle))
        fail_msg("expected exit 2 and one line with '%s'; got exit %d, stderr:\n%s", needle,
                 r->code, r->err);
    assert_string_equal(r->out, "");
    assert_false(exists(out_path));
    assert_int_equal(dir_entries(tmpdir), 0);
    free(r);
}

static void expect_usage_error(const char *needle, const char *const *args)
{
    expect_usage_error_env(NULL, needle, args);
}

/* 2^32 + 5 elements: three buffers of 17,179,877,396 bytes (51.5 GB), refused
 * before anything is allocated where this machine cannot hold them (CI's
 * 24 GB), with the bytes needed in the one line. Where it can, the run would
 * be real, and long: skipped. */
static void big_n_refused_before_allocation(void **state)
{
    (void)state;
    if (gs_host_available_memory() >= 3 * 17179877396ull) {
        print_message("this machine holds 51.5 GB: nothing to refuse\n");
        skip();
    }
    char out_path[300];
    snprintf(out_path, sizeof out_path, "%s/report.txt", tmpdir);
    const char *args[] = {"--backend", "host", "--sizes", "4294967301", "--output", out_path,
                          NULL};
    expect_usage_error("17179877396", args);
}

/* check --sizes traps adds 2^31 + 5 and 2^32 + 5: where the machine cannot
 * hold 2^32 + 5 (three buffers of 17,179,877,396 bytes), one line with the
 * bytes needed, exit 2, before the file is built or anything allocated. */
static void check_sizes_traps_refused_with_the_bytes(void **state)
{
    (void)state;
    if (gs_host_available_memory() >= 3 * 17179877396ull) {
        print_message("this machine holds 51.5 GB: nothing to refuse\n");
        skip();
    }
    const char *args[] = {"check", helper_src, "--backend", "host", "--sizes", "traps", NULL};
    expect_usage_error("17179877396", args);
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    char *buf = calloc(1, 4u << 20);
    assert_non_null(buf);
    assert_true(fread(buf, 1, (4u << 20) - 1, f) > 0);
    fclose(f);
    return buf;
}

/* The bandwidth chart: lessons of at most 12 bars a chart, a title and a
 * description, and no bar of a value above zero that reads "0". */
static void bandwidth_chart_has_lessons_of_twelve_bars(void **state)
{
    (void)state;
    char svg_path[300];
    snprintf(svg_path, sizeof svg_path, "%s/bw.svg", tmpdir);
    const char *args[] = {"bandwidth", "--backend", "host", "--bytes", "256KiB", "--reps", "5",
                          "--quiet", "--svg", svg_path, NULL};
    struct result *r = calloc(1, sizeof *r);
    run(r, args);
    assert_int_equal(r->code, 0);
    char *svg = slurp(svg_path);
    assert_non_null(strstr(svg, "<title>"));
    assert_non_null(strstr(svg, "<desc>"));
    int charts = 0;
    for (char *p = strstr(svg, "<g transform="); p; ++charts) {
        char *next = strstr(p + 1, "<g transform=");
        int bars = 0;
        for (char *b = strstr(p, "<rect x=\"380\""); b && (!next || b < next);
             b = strstr(b + 1, "<rect x=\"380\"")) {
            /* the value beside the bar: a number above zero, as written */
            const char *t = strstr(b, "<text");
            assert_non_null(t);
            t = strchr(t, '>');
            assert_non_null(t);
            assert_true(strtod(t + 1, NULL) > 0);
            ++bars;
        }
        assert_in_range(bars, 1, 12);
        p = next;
    }
    assert_true(charts >= 4);
    free(svg);
    unlink(svg_path);
    free(r);
}

/* The seed's picture on the host: the report and the SVG, each whole. */
static void trace_writes_report_and_picture(void **state)
{
    (void)state;
    char out_path[300], svg_path[300];
    snprintf(out_path, sizeof out_path, "%s/trace.txt", tmpdir);
    snprintf(svg_path, sizeof svg_path, "%s/trace.svg", tmpdir);
    const char *args[] = {"trace", "--backend", "host", "--output", out_path, "--svg", svg_path,
                          NULL};
    struct result *r = calloc(1, sizeof *r);
    run(r, args);
    assert_int_equal(r->code, 0);
    assert_string_equal(r->out, "");
    char *text = slurp(out_path), *svg = slurp(svg_path);
    assert_non_null(strstr(text, "1024 of 4096 written, the first unwritten 1024"));
    assert_non_null(strstr(text, "thread 0 writes 0, 1024, 2048 and 3072"));
    assert_non_null(strstr(text, "All 3 recorded maps equal the model"));
    assert_true(strncmp(svg, "<svg ", 5) == 0);
    assert_non_null(strstr(svg, "<title id=\"title\">"));
    assert_non_null(strstr(svg, "thread 0 writes 0, 1024, 2048 and 3072"));
    /* a projector's frame, cells of 10 px at the default 4096 elements */
    assert_non_null(strstr(svg, "width=\"1920\" height=\"1080\" viewBox=\"0 0 1920 1080\""));
    assert_non_null(strstr(svg, "<pattern id=\"cells\" width=\"10.000\""));
    assert_non_null(strstr(svg, "<desc id=\"desc\">"));
    assert_true(strcmp(svg + strlen(svg) - 7, "</svg>\n") == 0);
    free(text);
    free(svg);
    unlink(out_path);
    unlink(svg_path);
    assert_int_equal(dir_entries(tmpdir), 0);
    free(r);
}

/* check FILE.gs --svg: the kernel's own index-tracer picture, from the
 * count, whole; a .cl file is refused in one line before anything runs,
 * with no file written; --svg never names the input. */
static void check_draws_the_count(void **state)
{
    (void)state;
    char svg_path[300];
    snprintf(svg_path, sizeof svg_path, "%s/check.svg", tmpdir);
    const char *args[] = {"check", helper_src, "--backend", "host", "--sizes", "1,611",
                          "--no-speed", "--svg", svg_path, NULL};
    struct result *r = calloc(1, sizeof *r);
    run(r, args);
    if (r->code != 0 || !strstr(r->out, "verdict: ok"))
        fail_msg("check --svg: exit %d\nstdout:\n%s\nstderr:\n%s", r->code, r->out, r->err);
    char *svg = slurp(svg_path);
    assert_true(strncmp(svg, "<svg ", 5) == 0);
    assert_non_null(strstr(svg, "width=\"1920\" height=\"1080\" viewBox=\"0 0 1920 1080\""));
    assert_non_null(strstr(svg, "counted on the host backend"));
    assert_non_null(strstr(svg, "every element written once"));
    assert_non_null(strstr(svg, "pass is derived"));
    assert_non_null(strstr(svg, "<desc id=\"desc\">"));
    assert_true(strcmp(svg + strlen(svg) - 7, "</svg>\n") == 0);
    free(svg);
    unlink(svg_path);
    assert_int_equal(dir_entries(tmpdir), 0);
    free(r);
    const char *cl[] = {"check", cl_src, "--svg", svg_path, NULL};
    expect_usage_error("--svg: the picture needs a .gs file", cl);
    const char *self[] = {"check", helper_src, "--backend", "host", "--svg", helper_src, NULL};
    expect_usage_error("is an input of this command", self);
}

static void newline_in_output_path(void **state)
{
    (void)state;
    const char *args[] = {"--backend", "host", "--output", "/nonexistent\ndir/r.txt", NULL};
    expect_usage_error_env(NULL, "'/nonexistent\\ndir/r.txt'", args);
}

/* A backend the project has but this build lacks, or NULL when all are in. */
static const char *backend_not_compiled_in(void)
{
    for (int i = 0; gs_registry_known[i].name; ++i)
        if (!gs_registry_known[i].backend)
            return gs_registry_known[i].name;
    return NULL;
}

static void require_backend_not_compiled_in(void **state)
{
    (void)state;
    const char *name = backend_not_compiled_in();
    char env[64], needle[128];
    if (!name)
        skip(); /* every backend is compiled in: nothing to name */
    snprintf(env, sizeof env, "GRIDSTRIDE_REQUIRE=%s", name);
    snprintf(needle, sizeof needle, "GRIDSTRIDE_REQUIRE: %s is not compiled into this build", name);
    const char *args[] = {"--backend", "host", NULL};
    expect_usage_error_env(env, needle, args);
    const char *list[] = {"--list", NULL};
    expect_usage_error_env(env, needle, list);
}

/* The same requirement fails ctest: the conformance test exits 1 (never
 * 77, skipped) with one line saying why. */
static void expect_conformance_failure(const char *env, const char *needle)
{
    struct result *r = calloc(1, sizeof *r);
    char out_path[64];
    int err_fd;
    const char *args[] = {"host", NULL};
    strcpy(out_path, "/tmp/gs_test_cli_stdout.XXXXXX");
    int out = mkstemp(out_path);
    assert_true(out >= 0);
    pid_t pid = spawn(conformance, args, env, out, &err_fd);
    close(out);
    unlink(out_path);
    read_all(err_fd, r->err, sizeof r->err);
    close(err_fd);
    r->code = finish(pid);
    if (r->code != 1 || count_lines(r->err) != 1 || !strstr(r->err, needle))
        fail_msg("%s: expected exit 1 and one line with '%s'; got exit %d, stderr:\n%s", env,
                 needle, r->code, r->err);
    free(r);
}

static void require_fails_the_conformance_test(void **state)
{
    (void)state;
    char env[64], needle[128];
    expect_conformance_failure("GRIDSTRIDE_REQUIRE=bogus", "unknown backend 'bogus'");
    const char *name = backend_not_compiled_in();
    if (!name)
        return; /* the unknown name above is the whole test in a full build */
    snprintf(env, sizeof env, "GRIDSTRIDE_REQUIRE=%s", name);
    snprintf(needle, sizeof needle, "GRIDSTRIDE_REQUIRE: %s is not compiled into this build", name);
    expect_conformance_failure(env, needle);
}

/* Two options naming one file would overwrite each other: refused before
 * the run, whether the paths are spelled alike or not. */
static void same_file_for_two_outputs(void **state)
{
    (void)state;
    char a[300], b[300];
    snprintf(a, sizeof a, "%s/report.txt", tmpdir);
    snprintf(b, sizeof b, "%s/./report.txt", tmpdir);
    const char *same[] = {"bandwidth", "--backend", "host", "--bytes", "256KiB", "--reps", "5",
                          "--quiet", "--output", a, "--json", a, NULL};
    expect_usage_error_env(NULL, "--json: '", same);
    const char *alias[] = {"bandwidth", "--backend", "host", "--bytes", "256KiB", "--reps", "5",
                           "--quiet", "--json", a, "--svg", b, NULL};
    expect_usage_error_env(NULL, "is also the --svg file", alias);
}

static mode_t mode_of(const char *path)
{
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    return st.st_mode & 07777;
}

/* A report rewritten in place keeps the file's mode (a private 0600 report
 * stays private); a new file gets the usual 0666 less the umask. */
static void rewritten_output_keeps_its_mode(void **state)
{
    (void)state;
    char path[300];
    snprintf(path, sizeof path, "%s/report.csv", tmpdir);
    const char *args[] = {"--backend", "host", "--grid", "160", "--sizes", "1", "--format", "csv",
                          "--output", path, NULL};
    struct result *r = calloc(1, sizeof *r);
    const mode_t mask = umask(0);
    umask(mask);
    run(r, args);
    assert_int_equal(r->code, 0);
    assert_int_equal(mode_of(path), 0666 & ~mask);
    assert_int_equal(chmod(path, 0600), 0);
    run(r, args);
    assert_int_equal(r->code, 0);
    assert_int_equal(mode_of(path), 0600);
    assert_int_equal(chmod(path, 0640), 0);
    run(r, args);
    assert_int_equal(mode_of(path), 0640);
    unlink(path);
    assert_int_equal(dir_entries(tmpdir), 0);
    free(r);
}

/* stdout read by a process that has gone (`| head -c 1`): the run dies of
 * SIGPIPE as any filter does, and its other outputs are neither written nor
 * left behind as temporaries. */
static void closed_stdout_pipe_leaves_no_file(void **state)
{
    (void)state;
    char svg[300];
    int out[2], err_fd;
    snprintf(svg, sizeof svg, "%s/bw.svg", tmpdir);
    const char *args[] = {"bandwidth", "--backend", "host", "--bytes", "256KiB", "--reps", "5",
                          "--quiet", "--svg", svg, NULL};
    assert_int_equal(pipe(out), 0);
    fcntl(out[0], F_SETFD, FD_CLOEXEC); /* the child must not hold the read end */
    pid_t pid = spawn(binary, args, NULL, out[1], &err_fd);
    close(out[0]); /* the reader is gone before the report is written */
    close(out[1]);
    char err[4096];
    read_all(err_fd, err, sizeof err);
    close(err_fd);
    assert_int_equal(finish(pid), 128 + SIGPIPE);
    assert_int_equal(dir_entries(tmpdir), 0);
}

/* stdout as a pipe named by path: written in place, like any device. */
static void output_to_dev_stdout_pipe(void **state)
{
    (void)state;
    int out[2], err_fd;
    char text[65536], err[4096];
    const char *args[] = {"--backend", "host", "--grid", "160", "--sizes", "1", "--format", "csv",
                          "--output", "/dev/stdout", NULL};
    assert_int_equal(pipe(out), 0);
    pid_t pid = spawn(binary, args, NULL, out[1], &err_fd);
    close(out[1]);
    read_all(out[0], text, sizeof text);
    close(out[0]);
    read_all(err_fd, err, sizeof err);
    close(err_fd);
    if (finish(pid) != 0)
        fail_msg("--output /dev/stdout on a pipe: %s", err);
    assert_non_null(strstr(text, "backend,device,"));
}

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

/* A run stopped half way (Ctrl-C, a CI timeout, a hangup, Ctrl-\) leaves no
 * file behind, not even the temporaries its outputs were being written to. */
static void interrupt_leaves_no_file(int sig)
{
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
    kill(pid, sig);
    assert_int_equal(finish(pid), 128 + sig);
    close(err_fd);
    unlink(stdout_path);
    assert_int_equal(dir_entries(tmpdir), 0);
}

#define INTERRUPTED(name, sig)                                                                 \
    static void name(void **state)                                                             \
    {                                                                                          \
        (void)state;                                                                           \
        interrupt_leaves_no_file(sig);                                                         \
    }
INTERRUPTED(sigint_leaves_no_file, SIGINT)
INTERRUPTED(sigterm_leaves_no_file, SIGTERM)
INTERRUPTED(sighup_leaves_no_file, SIGHUP)
INTERRUPTED(sigquit_leaves_no_file, SIGQUIT)

/* --type double: the same rows, each verified, over doubles; the report
 * and the JSON say so, and every byte count is the float run's twice. */
static void bandwidth_in_double_says_so(void **state)
{
    (void)state;
    char json[300];
    snprintf(json, sizeof json, "%s/bw.json", tmpdir);
    const char *args[] = {"bandwidth", "--backend", "host", "--bytes", "256KiB", "--reps", "5",
                          "--quiet", "--type", "double", "--json", json, NULL};
    struct result *r = calloc(1, sizeof *r);
    run(r, args);
    if (r->code != 0)
        fail_msg("bandwidth --type double: exit %d, stderr:\n%s", r->code, r->err);
    assert_non_null(strstr(r->out, "bandwidth: type double, n = 32768 doubles per buffer"));
    assert_non_null(strstr(r->out, "add, double4 (32 bytes)"));
    assert_null(strstr(r->out, "WRONG"));
    FILE *f = fopen(json, "r");
    assert_non_null(f);
    static char buf[1 << 16];
    const size_t got = fread(buf, 1, sizeof buf - 1, f);
    buf[got] = '\0';
    fclose(f);
    assert_non_null(strstr(buf, "\"type\": \"double\", \"n\": 32768"));
    /* the API's copy reads 256 KiB and writes 256 KiB */
    assert_non_null(strstr(buf, "\"kernel\": \"api-copy\", \"grid\": 1, \"block\": 256, "
                                "\"param\": 0, \"bytes\": 524288"));
    unlink(json);
    free(r);
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
    assert_non_null(strstr(r->out, "gridstride COMMAND --help"));
    assert_null(strstr(r->out, "--type T")); /* bandwidth's: in its own help */
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
    static const char cl_kernel[] =
        "__kernel void solve(__global const float *a, __global const float *b,\n"
        "                    __global float *out, ulong n)\n"
        "{ for (ulong i = get_global_id(0); i < n; i += get_global_size(0)) out[i] = a[i] + b[i]; }\n";
    snprintf(indir, sizeof indir, "/tmp/gs_test_cli_in.XXXXXX");
    if (!mkdtemp(indir))
        return -1;
    return write_input(empty_src, "empty.cl", "", 0) | write_input(binary_src, "binary.cu", binary_text, sizeof binary_text) |
           write_input(text_src, "notes.txt", "solve\n", 6) |
           write_input(helper_src, "helper.gs", helper, strlen(helper)) |
           write_input(int_n_src, "int_n.gs", int_n, strlen(int_n)) |
           write_input(broken_src, "broken.gs", broken, strlen(broken)) |
           write_input(cl_src, "grid.cl", cl_kernel, strlen(cl_kernel));
}

static void remove_inputs(void)
{
    const char *files[] = {empty_src, binary_src, text_src, helper_src, int_n_src, broken_src,
                           cl_src};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; ++i)
        unlink(files[i]);
    rmdir(indir);
}

/* --output - is stdout, for every command: no file named "-" appears. */
static void output_dash_is_stdout(void **state)
{
    (void)state;
    struct result *r = calloc(1, sizeof *r);
    const char *args[] = {"--backend", "host", "--sizes", "1", "--output", "-", NULL};
    const int had_dash = exists("-");
    run(r, args);
    assert_int_equal(r->code, 0);
    assert_non_null(strstr(r->out, "every result predicted"));
    if (!had_dash)
        assert_false(exists("-"));
    const char *trace[] = {"trace", "--backend", "host", "--n", "64", "--output=-", NULL};
    run(r, trace);
    assert_int_equal(r->code, 0);
    assert_non_null(strstr(r->out, "equal the model"));
    if (!had_dash)
        assert_false(exists("-"));
    free(r);
}

/* --list --format json is JSON, naming its schema. */
static void list_json_is_json(void **state)
{
    (void)state;
    struct result *r = calloc(1, sizeof *r);
    const char *args[] = {"--list", "--backend", "host", "--format", "json", NULL};
    run(r, args);
    assert_int_equal(r->code, 0);
    assert_int_equal(r->out[0], '{');
    assert_non_null(strstr(r->out, "\"schema\": \"gridstride-list\""));
    assert_non_null(strstr(r->out, "\"backend\": \"host\""));
    free(r);
}

/* --json FILE means the same for every command that writes JSON: the
 * report on stdout as asked, the JSON copy in FILE. */
static void json_copy_of_every_command(void **state)
{
    (void)state;
    struct result *r = calloc(1, sizeof *r);
    char json[300], args_file[300];
    snprintf(json, sizeof json, "%s/copy.json", tmpdir);
    snprintf(args_file, sizeof args_file, "%s", helper_src);
    const char *const cmds[][12] = {
        {"--backend", "host", "--sizes", "1", "--json", json, NULL},
        {"trace", "--backend", "host", "--n", "64", "--json", json, NULL},
        {"pitfalls", "--backend", "host", "--traps", "tile-loop", "--json", json, "--quiet", NULL},
        {"check", args_file, "--backend", "host", "--sizes", "1", "--no-speed", "--json", json,
         NULL},
    };
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; ++i) {
        unlink(json);
        run(r, cmds[i]);
        if (r->code != 0 || r->out[0] == '{' || !exists(json))
            fail_msg("case %zu: exit %d, stdout starts '%.20s', json %s", i, r->code, r->out,
                     exists(json) ? "written" : "missing");
        FILE *f = fopen(json, "r");
        assert_non_null(f);
        assert_int_equal(fgetc(f), '{');
        fclose(f);
    }
    /* compare too: the text on stdout, the JSON (its own schema) in FILE. */
    char table[300];
    snprintf(table, sizeof table, "%s/table.json", tmpdir);
    const char *make[] = {"--backend", "host", "--sizes", "1", "--format", "json", "--output",
                          table, NULL};
    run(r, make);
    assert_int_equal(r->code, 0);
    unlink(json);
    const char *cmp[] = {"compare", table, table, "--json", json, NULL};
    run(r, cmp);
    assert_int_equal(r->code, 0);
    assert_non_null(strstr(r->out, "gridstride compare: 2 files"));
    FILE *f = fopen(json, "r");
    assert_non_null(f);
    char head[200] = "";
    head[fread(head, 1, sizeof head - 1, f)] = '\0';
    fclose(f);
    assert_non_null(strstr(head, "\"schema\": \"gridstride-compare\""));
    unlink(table);
    unlink(json);
    free(r);
}

/* CC may be a command with options, as make takes it: CC="gcc -O0" builds. */
static void cc_with_options_builds(void **state)
{
    (void)state;
    struct result *r = calloc(1, sizeof *r);
    const char *args[] = {"check", helper_src, "--backend", "host", "--sizes", "1", "--no-speed",
                          NULL};
    run_env(r, "CC=gcc -O0", args);
    const int no_gcc = r->code == 2 && strstr(r->err, "no C compiler") && !exists("/usr/bin/gcc");
    if (no_gcc) {
        free(r);
        skip(); /* no gcc here */
        return;
    }
    if (r->code != 0 || !strstr(r->out, "verdict: ok"))
        fail_msg("CC=\"gcc -O0\": exit %d\nstdout:\n%s\nstderr:\n%s", r->code, r->out, r->err);
    free(r);
}

/* A skipped backend's note is one line of at most 100 columns unless
 * --verbose, which gives the whole reason. */
static void skipped_notes_are_short(void **state)
{
    (void)state;
    struct result *r = calloc(1, sizeof *r);
    const char *args[] = {"--sizes", "1", NULL};
    const char *verbose[] = {"--sizes", "1", "--verbose", NULL};
    run_env(r, "OCL_ICD_VENDORS=/nonexistent", args);
    if (r->code == 2) { /* no backend left here: nothing to note */
        free(r);
        skip();
        return;
    }
    for (const char *line = r->err; *line;) {
        const size_t len = strcspn(line, "\n");
        if (len > 100)
            fail_msg("a stderr line of %zu columns:\n%.*s", len, (int)len, line);
        line += len + (line[len] == '\n');
    }
    if (gs_registry_find("opencl")) {
        assert_non_null(strstr(r->err, "note: opencl skipped: no OpenCL platform (--verbose: why)"));
        run_env(r, "OCL_ICD_VENDORS=/nonexistent", verbose);
        assert_non_null(strstr(r->err, "OCL_ICD_VENDORS=/nonexistent, which it reads instead"));
    }
    free(r);
}

/* ---- every case, in one table -------------------------------------------- */

/* A case: a test function of its own (FN), or a bad command line (BAD,
 * BAD_ENV: with `env` set in the child) that must exit 2 with one line
 * naming `needle`, nothing on stdout and no output file; "--output FILE"
 * is added to its arguments. */
#define MAX_ARGS 16
struct cli_case {
    const char *name;
    void (*fn)(void **state);
    const char *env, *needle;
    const char *args[MAX_ARGS];
    const char *absent; /* HELP: what the help must not list */
};
#define FN(f) {#f, f, NULL, NULL, {NULL}, NULL}
#define BAD_ENV(name, env, needle, ...) {#name, NULL, env, needle, {__VA_ARGS__, NULL}, NULL}
#define BAD(name, needle, ...) BAD_ENV(name, NULL, needle, __VA_ARGS__)
/* A help (HELP): exit 0, `needle` on stdout, `absent` nowhere in it, nothing
 * on stderr. */
#define HELP(name, needle, absent, ...) {#name, help_output, NULL, needle, {__VA_ARGS__, NULL}, absent}

static void help_output(void **state);

static const struct cli_case cases[] = {
    BAD(negative_size, "--sizes", "--backend", "host", "--sizes", "-1"),
    BAD(non_numeric_size, "not a whole number", "--backend", "host", "--sizes", "12abc"),
    BAD(overflowing_size, "out of range", "--backend", "host", "--sizes", "99999999999999999999999"),
    BAD(unallocatable_size, "choose a smaller n with --sizes", "--backend", "host", "--sizes", "1099511627776"),
    BAD(zero_block, "--block", "--backend", "host", "--block", "0"),
    BAD(block_above_device_limit, "beyond every selected device", "--backend", "host", "--block", "2048"),
    /* every backend, some perhaps without a device: still one line */
    BAD(block_above_limit_all_backends, "beyond every selected device", "--block", "1048576"),
    BAD(grid_above_every_device, "beyond every selected device", "--backend", "host", "--grid",
        "1048577"),
    FN(big_n_refused_before_allocation),
    FN(check_sizes_traps_refused_with_the_bytes),
    BAD(malformed_shape, "GRIDxBLOCK", "--backend", "host", "--shape", "160by256"),
    BAD(zero_grid_shape, "--shape grid", "--backend", "host", "--shape", "0x256"),
    BAD(unknown_backend, "unknown backend 'metal'", "--backend", "metal"),
    BAD(unknown_device, "matches no host device", "--backend", "host", "--device", "no-such-gpu"),
    BAD(empty_device, "--device: empty", "--backend", "host", "--device", ""),
    BAD(unknown_kernel, "unknown kernel 'warp-shuffle'", "--backend", "host", "--kernels", "warp-shuffle"),
    BAD(unknown_format, "unknown format 'xml'", "--backend", "host", "--format", "xml"),
    BAD(unknown_option, "unknown option '--colour'", "--backend", "host", "--colour"),
    BAD(missing_value, "--grid needs a value", "--backend", "host", "--grid"),
    BAD(repeated_option, "given twice", "--backend", "host", "--block", "256", "--block", "128"),
    BAD(bandwidth_option_in_table, "--reps does not apply to 'gridstride table'; only bandwidth takes it", "--backend", "host", "--reps", "10"),
    BAD(bandwidth_bytes_too_large, "do not fit", "bandwidth", "--backend", "host", "--bytes", "8192GiB"),
    BAD(bandwidth_bytes_malformed, "not a size", "bandwidth", "--backend", "host", "--bytes", "1.5GiB"),
    BAD(bandwidth_too_few_reps, "--reps", "bandwidth", "--backend", "host", "--reps", "2"),
    BAD(table_option_in_bandwidth, "--sizes does not apply to 'gridstride bandwidth'; only table and check take it", "bandwidth", "--backend", "host", "--sizes", "1"),
    BAD(sweep_in_double, "--type double: bandwidth --sweep runs the float kernels only", "bandwidth",
        "--sweep", "--backend", "host", "--type", "double"),
    BAD(spread_in_double, "--type double: bandwidth --spread runs the float kernels only", "bandwidth",
        "--spread", "--backend", "host", "--type", "double"),
    BAD(sweep_outside_bandwidth, "--sweep does not apply to 'gridstride table'; only bandwidth takes it", "--backend", "host", "--sweep"),
    BAD(sweep_in_trace, "--sweep does not apply to 'gridstride trace'", "trace", "--backend", "host",
        "--sweep"),
    BAD(sweep_bytes_too_small, "--bytes: too small", "bandwidth", "--sweep", "--backend", "host",
        "--bytes", "2KiB"),
    BAD(sweep_bytes_too_large, "do not fit", "bandwidth", "--sweep", "--backend", "host", "--bytes",
        "8192GiB"),
    /* --type: bandwidth's alone, float or double */
    BAD(bandwidth_unknown_type, "--type: unknown type 'half'; use float or double", "bandwidth",
        "--backend", "host", "--type", "half"),
    BAD(bandwidth_type_in_capitals, "--type: unknown type 'DOUBLE'", "bandwidth", "--backend", "host",
        "--type=DOUBLE"),
    BAD(bandwidth_type_empty, "--type: unknown type ''", "bandwidth", "--backend", "host", "--type="),
    BAD(type_in_table, "--type does not apply to 'gridstride table'; only bandwidth takes it", "--backend", "host",
        "--type", "double"),
    BAD(sizes_traps_in_table, "--sizes traps: only check takes it", "--backend", "host",
        "--sizes", "traps"),
    BAD(type_in_pitfalls, "--type does not apply to 'gridstride pitfalls'", "pitfalls", "--backend",
        "host", "--type", "double"),
    BAD(type_in_trace, "--type does not apply to 'gridstride trace'", "trace", "--backend", "host",
        "--type", "double"),
    BAD(type_in_compare, "--type does not apply to 'gridstride compare'; only bandwidth takes it", "compare", "a.json", "--type", "double"),
    BAD(type_in_check, "--type does not apply to 'gridstride check'", "check", helper_src, "--type",
        "double"),
    FN(bandwidth_in_double_says_so),
    FN(unwritable_output),
    FN(output_file_is_written_whole),
    FN(sigint_leaves_no_file),
    FN(sigterm_leaves_no_file),
    FN(sighup_leaves_no_file),
    FN(sigquit_leaves_no_file),
    FN(closed_stdout_pipe_leaves_no_file),
    FN(output_to_dev_stdout_pipe),
    FN(same_file_for_two_outputs),
    FN(rewritten_output_keeps_its_mode),
    /* A device index is a number like any other: range-checked, never wrapped
     * (atoi turned 4294967296 into device 0). */
    BAD(device_index_beyond_int, "out of range", "--backend", "host", "--device", "4294967296"),
    BAD(device_index_beyond_u64, "out of range", "--backend", "host", "--device",
        "99999999999999999999999"),
    /* Every list treats a stray comma the same way: refused, naming the list. */
    BAD(trailing_comma_in_kernels, "--kernels: 'chunked,' has an empty entry", "--backend", "host",
        "--kernels", "chunked,"),
    BAD(trailing_comma_in_backend, "--backend: 'host,' has an empty entry", "--backend", "host,"),
    BAD(double_comma_in_backend, "--backend: 'host,,host' has an empty entry", "--backend",
        "host,,host"),
    BAD(trailing_comma_in_sizes, "--sizes: '1,2,' has an empty entry", "--backend", "host",
        "--sizes", "1,2,"),
    BAD_ENV(trailing_comma_in_require, "GRIDSTRIDE_REQUIRE=host,",
        "GRIDSTRIDE_REQUIRE: 'host,' has an empty entry", "--backend", "host"),
    BAD(trailing_comma_in_traps, "--traps: 'block-stride,' has an empty entry", "pitfalls",
        "--backend", "host", "--traps", "block-stride,"),
    BAD(trailing_comma_in_arch, "--arch: 'sm_90,' has an empty entry", "check", helper_src,
        "--compile-only", "--arch", "sm_90,"),
    /* Control characters in a value are echoed escaped, so the message stays one
     * line and cannot drive the terminal. */
    BAD(newline_in_sizes, "'1\\n2'", "--backend", "host", "--sizes", "1\n2"),
    BAD(newline_in_device, "'no\\nsuch'", "--backend", "host", "--device", "no\nsuch"),
    BAD(newline_in_backend, "'ho\\nst'", "--backend", "ho\nst"),
    BAD(newline_in_format, "'te\\nxt'", "--backend", "host", "--format", "te\nxt"),
    BAD(newline_in_kernels, "'chunked\\n'", "--backend", "host", "--kernels", "chunked\n"),
    BAD(newline_in_unknown_option, "'--col\\nour'", "--backend", "host", "--col\nour"),
    BAD(escape_sequence_in_format, "'\\x1b[2J'", "--backend", "host", "--format", "\x1b[2J"),
    BAD(carriage_return_in_block, "'1\\r'", "--backend", "host", "--block", "1\r"),
    BAD_ENV(newline_in_require, "GRIDSTRIDE_REQUIRE=ho\nst", "'ho\\nst'", "--backend", "host"),
    FN(newline_in_output_path),
    /* GRIDSTRIDE_REQUIRE must not switch itself off: a typo, or a backend this
     * build lacks, is an error (exit 2), not an empty requirement. */
    BAD_ENV(require_unknown_backend, "GRIDSTRIDE_REQUIRE=bogus",
        "GRIDSTRIDE_REQUIRE: unknown backend 'bogus'", "--backend", "host"),
    FN(require_backend_not_compiled_in),
    FN(require_fails_the_conformance_test),
    FN(help_and_version_exit_zero),
    BAD(check_missing_file, "cannot read /nonexistent/solve.cu", "check", "/nonexistent/solve.cu"),
    BAD(check_empty_file, "is empty", "check", empty_src),
    BAD(check_binary_file, "is not source text", "check", binary_src),
    BAD(check_wrong_extension, "unknown extension '.txt'", "check", text_src),
    BAD(check_directory, "is a directory", "check", indir),
    BAD(check_without_file, "check needs a FILE", "check", "--backend", "host"),
    BAD(check_bad_entry_name, "is not a kernel name", "check", helper_src, "--entry", "1x"),
    BAD(check_entry_not_a_kernel, "'add' is not a kernel", "check", helper_src, "--backend", "host",
        "--entry", "add"),
    BAD(check_entry_missing, "has no kernel named 'nothere'", "check", helper_src, "--backend", "host",
        "--entry", "nothere"),
    BAD(check_wrong_parameters, "does not take the contract's parameters", "check", int_n_src,
        "--backend", "host"),
    BAD(check_arch_without_compile_only, "--arch goes with --compile-only", "check", helper_src,
        "--arch", "sm_90"),
    BAD(check_option_of_table, "--kernels does not apply to 'gridstride check'", "check", helper_src,
        "--kernels", "chunked"),
    BAD(entry_outside_check, "--entry does not apply to 'gridstride table'; only check takes it", "--entry", "solve"),
    FN(check_compile_error_shows_the_log),
    FN(check_help_names_the_contract),
    FN(t4_grid_table_matches_seed_002),
    FN(list_shows_backends_and_grids),
    BAD(trace_zero_n, "--n", "trace", "--backend", "host", "--n", "0", "--svg", trace_svg),
    BAD(trace_n_too_large, "--n", "trace", "--backend", "host", "--n", "4194305", "--svg", trace_svg),
    BAD(trace_unknown_kernel, "unknown kernel 'warp-shuffle'", "trace", "--backend", "host",
        "--kernels", "warp-shuffle", "--svg", trace_svg),
    BAD(trace_kernel_twice, "'chunked' given twice", "trace", "--backend", "host", "--kernels",
        "chunked,chunked", "--svg", trace_svg),
    BAD(trace_csv, "trace writes text or json", "trace", "--backend", "host", "--format", "csv",
        "--svg", trace_svg),
    BAD(trace_table_option, "--sizes does not apply to 'gridstride trace'", "trace", "--sizes", "1"),
    BAD(n_outside_trace, "--n does not apply to 'gridstride table'; only trace takes it", "--backend", "host", "--n", "5"),
    BAD(trace_too_many_threads, "2^32 threads or more", "trace", "--backend", "host", "--grid",
        "16777216", "--block", "256", "--svg", trace_svg),
    BAD(trace_block_beyond_device, "choose --block 1 to 1024", "trace", "--backend", "host",
        "--block", "2048", "--svg", trace_svg),
    BAD(trace_unwritable_svg, "cannot write '/nonexistent-dir/trace.svg'", "trace", "--backend",
        "host", "--svg", "/nonexistent-dir/trace.svg"),
    /* --spread where no device records per-unit finish times: exit 2, one line
     * with the reason, no file. */
    BAD(spread_not_available_on_host, "host (host reference (plain C)): not available: the host "
        "backend runs a block's threads in turn", "bandwidth", "--spread", "--backend", "host",
        "--svg", spread_svg, "--json", spread_json),
    BAD(spread_with_grid, "--grid does not apply to 'gridstride bandwidth --spread'", "bandwidth",
        "--spread", "--backend", "host", "--grid", "4", "--svg", spread_svg),
    BAD(spread_as_csv, "--format: bandwidth --spread writes text or json", "bandwidth", "--spread",
        "--backend", "host", "--format", "csv"),
    BAD(spread_too_many_reps, "--reps: bandwidth --spread keeps at most 101", "bandwidth",
        "--spread", "--backend", "host", "--reps", "102"),
    BAD(spread_outside_bandwidth, "--spread does not apply to 'gridstride table'; only bandwidth takes it", "--backend", "host",
        "--spread"),
    BAD(spread_in_trace, "--spread does not apply to 'gridstride trace'", "trace", "--backend",
        "host", "--spread"),
    BAD(spread_and_sweep, "are two modes of bandwidth", "bandwidth", "--sweep", "--spread", "--backend",
        "host"),
    FN(trace_writes_report_and_picture),
    FN(check_draws_the_count),
    FN(bandwidth_chart_has_lessons_of_twelve_bars),
    /* One surface: every command has its own --help and -h, listing only what
     * it takes; an option it does not take is refused naming those that do. */
    HELP(table_help, "usage: gridstride [table]", "--traps", "table", "--help"),
    HELP(table_short_help, "--sizes N,N,...", "--bytes", "table", "-h"),
    HELP(global_short_help, "gridstride COMMAND --help", "--reps", "-h"),
    HELP(bandwidth_help, "usage: gridstride bandwidth", "--sizes", "bandwidth", "--help"),
    HELP(bandwidth_short_help, "--bytes SIZE", "--traps", "bandwidth", "-h"),
    HELP(sweep_help, "--sweep", "--entry", "bandwidth", "--sweep", "--help"),
    HELP(pitfalls_help, "--traps LIST", "--bytes", "pitfalls", "--help"),
    HELP(pitfalls_short_help, "usage: gridstride pitfalls", "--sizes", "pitfalls", "-h"),
    HELP(trace_help, "--n N", "--sizes", "trace", "--help"),
    HELP(trace_short_help, "usage: gridstride trace", "--traps", "trace", "-h"),
    HELP(check_short_help, "usage: gridstride check FILE", "--kernels", "check", "-h"),
    HELP(compare_help, "usage: gridstride compare", "--backend", "compare", "--help"),
    HELP(compare_short_help, "--output FILE", "--device", "compare", "-h"),
    HELP(help_before_bad_value, "usage: gridstride bandwidth", "--traps", "bandwidth", "-h",
         "--reps", "100"),
    BAD(svg_in_table, "--svg does not apply to 'gridstride table'; only bandwidth, trace and "
        "check take it", "--backend", "host", "--svg", "t.svg"),
    BAD(svg_in_pitfalls, "--svg does not apply to 'gridstride pitfalls'; only bandwidth, trace and check",
        "pitfalls", "--backend", "host", "--svg", "p.svg"),
    BAD(tolerance_in_table, "--tolerance does not apply to 'gridstride table'; only compare "
        "takes it", "--backend", "host", "--tolerance", "10%"),
    BAD(backend_in_compare, "--backend does not apply to 'gridstride compare'", "compare",
        "a.json", "--backend", "host"),
    BAD(quiet_in_compare, "--quiet does not apply to 'gridstride compare'", "compare", "a.json",
        "--quiet"),
    BAD(traps_in_trace, "--traps does not apply to 'gridstride trace'; only pitfalls takes it",
        "trace", "--traps", "tile-loop"),
    BAD(bytes_in_check, "--bytes does not apply to 'gridstride check'; only bandwidth takes it",
        "check", helper_src, "--bytes", "1MiB"),
    BAD(compare_unknown_option, "unknown option '--bogus'; see gridstride compare --help",
        "compare", "a.json", "--bogus"),
    BAD(trace_unknown_option, "unknown option '--bogus'; see gridstride trace --help", "trace",
        "--bogus"),
    BAD(check_second_file, "unknown argument 'other.gs'; see gridstride check --help", "check",
        helper_src, "other.gs"),
    BAD(table_stray_word, "unknown argument 'tabel'; see gridstride --help", "tabel"),
    BAD(compare_output_twice, "--output given twice", "compare", "a.json", "--output", "x.txt"),
    BAD(list_as_csv, "--list writes text, json or ctest-resources", "--list", "--format", "csv"),
    BAD(ctest_resources_without_list, "--format ctest-resources belongs to --list", "--format",
        "ctest-resources"),
    BAD(output_empty, "--output: empty; give a file name, or - for stdout", "--backend", "host",
        "--output="),
    FN(output_dash_is_stdout),
    FN(list_json_is_json),
    FN(json_copy_of_every_command),
    /* Messages name the real cause and the fix. */
    BAD(trace_svg_to_full_device, "--svg: cannot write '/dev/full': No space left on device; "
        "the device is full", "trace", "--backend", "host", "--n", "64", "--svg", "/dev/full"),
    BAD(svg_in_proc, "its folder '/proc' takes no new file", "trace", "--backend", "host", "--n",
        "64", "--svg", "/proc/trace.svg"),
    BAD(json_in_missing_folder, "its folder '/nonexistent-dir' does not exist; create it",
        "--backend", "host", "--sizes", "1", "--json", "/nonexistent-dir/t.json"),
    BAD(tolerance_zero, "--tolerance: '0' is not a percentage above 0 and below 100", "compare",
        "a.json", "--tolerance", "0"),
    BAD(tolerance_word, "--tolerance: 'ten' is not a percentage", "compare", "a.json",
        "--tolerance", "ten"),
    BAD(compare_as_csv, "--format: compare writes text or json", "compare", "a.json", "--format",
        "csv"),
    BAD(verbose_in_compare, "--verbose does not apply to 'gridstride compare'", "compare",
        "a.json", "--verbose"),
    FN(cc_with_options_builds),
    FN(skipped_notes_are_short),
};

static void help_output(void **state)
{
    const struct cli_case *c = *state;
    struct result *r = calloc(1, sizeof *r);
    run(r, c->args);
    if (r->code != 0 || !strstr(r->out, c->needle) || strstr(r->out, c->absent) || r->err[0])
        fail_msg("expected exit 0 and a help with '%s' and without '%s'; got exit %d, "
                 "stdout:\n%s\nstderr:\n%s", c->needle, c->absent, r->code, r->out, r->err);
    free(r);
}

/* A BAD case of the table (its state). */
static void bad_command_line(void **state)
{
    const struct cli_case *c = *state;
    const char *args[MAX_ARGS + 3];
    char out_path[300];
    int n = 0;
    snprintf(out_path, sizeof out_path, "%s/report.txt", tmpdir);
    for (; n < MAX_ARGS && c->args[n]; ++n)
        args[n] = c->args[n];
    assert_true(n > 0 && n < MAX_ARGS); /* the table's arguments end in NULL */
    args[n++] = "--output";
    args[n++] = out_path;
    args[n] = NULL;
    expect_usage_error_env(c->env, c->needle, args);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: test_cli PATH-TO-gridstride PATH-TO-test_conformance\n");
        return 2;
    }
    binary = argv[1];
    conformance = argv[2];
    snprintf(tmpdir, sizeof tmpdir, "/tmp/gs_test_cli.XXXXXX");
    if (!mkdtemp(tmpdir) || make_inputs() != 0) {
        perror("test inputs");
        return 2;
    }
    snprintf(trace_svg, sizeof trace_svg, "%s/trace.svg", tmpdir);
    snprintf(spread_svg, sizeof spread_svg, "%s/spread.svg", tmpdir);
    snprintf(spread_json, sizeof spread_json, "%s/spread.json", tmpdir);
    const int ncases = (int)(sizeof cases / sizeof cases[0]);
    struct CMUnitTest *tests = calloc((size_t)ncases, sizeof *tests);
    if (!tests)
        return 2;
    for (int i = 0; i < ncases; ++i)
        tests[i] = (struct CMUnitTest){cases[i].name, cases[i].fn ? cases[i].fn : bad_command_line,
                                       NULL, clean_tmpdir, (void *)&cases[i]};
    const int failed = _cmocka_run_group_tests("test_cli", tests, (size_t)ncases, NULL, NULL);
    free(tests);
    rmdir(tmpdir);
    remove_inputs();
    return failed;
}
