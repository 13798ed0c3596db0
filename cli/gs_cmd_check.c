/* SPDX-License-Identifier: MIT */
/* `gridstride check FILE`: a user's kernel through the suite's harness. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "gs_check_cmd.h"
#include "gs_proc.h"
#include "gs_check_report.h"
#include "gs_counters_run.h"
#include "gs_device.h"
#include "gs_driver.h"
#include "gs_io.h"
#include "gs_output.h"
#include "gs_plan_run.h"
#include "gs_registry.h"
#include "gs_run.h"
#include "gs_select.h"
#include "gs_trace_report.h"
#include "gs_user.h"
#include "gs_verify.h"
#include "gs_worker.h"

#define CHECK_MAX_FILE (1u << 20) /* no kernel's source is larger */
#define CHECK_WATCHDOG_S 10u

/* ---- the file ------------------------------------------------------------ */

/* FILE is untrusted: opened without blocking (a FIFO or a device never
 * hangs the harness), accepted only as a regular file of at most 1 MiB. */
static int read_file(const char *path, const char *shown, char **text, size_t *len_out,
                     struct gs_err *e)
{
    struct stat st;
    const int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return gs_err_set(e, GS_USAGE, "cannot read %s: %s; check the path", shown, strerror(errno));
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        const int dir = S_ISDIR(st.st_mode);
        close(fd);
        if (dir)
            return gs_err_set(e, GS_USAGE, "%s is a directory; give the kernel's source file", shown);
        return gs_err_set(e, GS_USAGE, "%s is not a regular file (a pipe, socket or device); give "
                                       "the kernel's source file", shown);
    }
    if (st.st_size > (off_t)CHECK_MAX_FILE) {
        close(fd);
        return gs_err_set(e, GS_USAGE, "%s is over %u bytes, not one kernel's source; give the "
                                       "file that holds the kernel", shown, CHECK_MAX_FILE);
    }
    char *buf = malloc(CHECK_MAX_FILE + 1);
    const ssize_t got = buf ? gs_read_full(fd, buf, CHECK_MAX_FILE + 1) : 0;
    const int failed = got < 0;
    size_t len = got > 0 ? (size_t)got : 0;
    close(fd);
    int rc = GS_OK;
    if (!buf)
        rc = gs_err_set(e, GS_NOMEM, "out of memory reading %s", shown);
    else if (failed)
        rc = gs_err_set(e, GS_USAGE, "cannot read %s: a read error; check the file", shown);
    else if (len > CHECK_MAX_FILE)
        rc = gs_err_set(e, GS_USAGE, "%s is over %u bytes, not one kernel's source; give the file "
                                     "that holds the kernel", shown,
                        CHECK_MAX_FILE);
    /* A UTF-8 byte order mark is no part of the source. */
    if (rc == GS_OK && len >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0) {
        memmove(buf, buf + 3, len - 3);
        len -= 3;
    }
    if (rc == GS_OK && (rc = gs_check_source_text(shown, buf, len, e)) == GS_OK)
        buf[len] = '\0';
    if (rc != GS_OK) {
        free(buf);
        return rc;
    }
    *text = buf;
    *len_out = len;
    return GS_OK;
}

/* FILE's name as every report shows it: control characters escaped. */
static void show_path(const struct gs_cli *cli, struct gs_user_source *src, char *shown,
                      size_t size)
{
    gs_escape_controls(shown, size, cli->file ? cli->file : "");
    src->path = shown;
    src->entry = cli->entry ? cli->entry : "solve";
}

/* *failure: the class of a refusal, for the JSON verdict. */
static int load_source(const struct gs_cli *cli, struct gs_user_source *src, char *shown,
                       size_t size, char **text, enum gs_check_class *failure, struct gs_err *e)
{
    size_t len = 0;
    show_path(cli, src, shown, size);
    *failure = GS_CHECK_BAD_USAGE;
    if (!gs_entry_valid(src->entry))
        return gs_err_set(e, GS_USAGE, "--entry: '%s' is not a kernel name; give a C identifier "
                                       "like solve", src->entry);
    *failure = GS_CHECK_FILE_REFUSED;
    int rc = read_file(cli->file, shown, text, &len, e);
    if (rc == GS_OK)
        rc = gs_dialect_of_path(shown, &src->dialect, e);
    if (rc == GS_OK)
        rc = gs_check_source_rules(shown, *text, len, src->dialect, e);
    src->text = *text;
    return rc;
}

/* --output, --json and --svg never name an input. */
static int outputs_not_inputs(const struct gs_cli *cli, struct gs_err *e)
{
    const char *inputs[] = {cli->file};
    int rc = gs_output_not_input(cli->output, "--output", inputs, 1, e);
    if (rc == GS_OK)
        rc = gs_output_not_input(cli->json, "--json", inputs, 1, e);
    if (rc == GS_OK)
        rc = gs_output_not_input(cli->svg, "--svg", inputs, 1, e);
    return rc;
}

/* The compiler's messages, on stderr, before the one line that says what
 * failed; a compiler echoes the file's lines, so control characters other
 * than newline and tab are shown escaped. */
static void print_log(const struct gs_user_source *src, const struct gs_build_info *info)
{
    const char *log = info->log ? info->log : "";
    fprintf(stderr, "%s: messages of %s:\n", src->path, info->compiler[0] ? info->compiler
                                                                          : "the compiler");
    for (const unsigned char *c = (const unsigned char *)log; *c; ++c) {
        if ((*c < 0x20 && *c != '\n' && *c != '\t') || *c == 0x7f)
            fprintf(stderr, "\\x%02x", *c);
        else
            fputc(*c, stderr);
    }
    if (*log && log[strlen(log) - 1] != '\n')
        fputc('\n', stderr);
}

/* ---- the watchdog -------------------------------------------------------- */

/* While a launch runs in its worker: once, after --watchdog seconds, how long
 * it has run and when it will be stopped. */
struct watch {
    unsigned seconds;
    int told;
};

static void watch_waiting(void *ctx, const struct gs_device *dev, const struct gs_check_case *c,
                          unsigned ran, double deadline)
{
    struct watch *w = ctx;
    if (ran < w->seconds || w->told)
        return;
    w->told = 1;
    if (c && c->expect_s > 0 && c->expect_n == c->launch.n)
        fprintf(stderr, "gridstride: check: the %s kernel at n = %llu <<<%llu, %llu>>> has run "
                        "for %u s; at the same n on <<<%llu, %llu>>> it took %.2g s, and a "
                        "kernel right under any grid does about the same work on every grid%s; "
                        "it is stopped at %g s (--timeout)\n",
                dev->backend->name, (unsigned long long)c->launch.n,
                (unsigned long long)c->launch.grid, (unsigned long long)c->launch.block, ran,
                (unsigned long long)c->expect_grid, (unsigned long long)c->launch.block,
                c->expect_s,
                c->launch.grid > c->expect_grid && ran > 3 * c->expect_s
                    ? " (work that grows with the blocks is a loop that steps by the block, "
                      "not the grid: pitfall 1)"
                    : "",
                deadline);
    else if (c && c->expect_s > 0)
        fprintf(stderr, "gridstride: check: the %s kernel at n = %llu <<<%llu, %llu>>> has run "
                        "for %u s; from the case at n = %llu on the same launch it should take "
                        "about %.2g s; it is stopped at %g s (--timeout)\n",
                dev->backend->name, (unsigned long long)c->launch.n,
                (unsigned long long)c->launch.grid, (unsigned long long)c->launch.block, ran,
                (unsigned long long)c->expect_n, c->expect_s, deadline);
    else if (c)
        fprintf(stderr, "gridstride: check: the %s kernel at n = %llu <<<%llu, %llu>>> has run "
                        "for %u s; it is stopped at %g s (--timeout)\n", dev->backend->name,
                (unsigned long long)c->launch.n, (unsigned long long)c->launch.grid,
                (unsigned long long)c->launch.block, ran, deadline);
    else
        fprintf(stderr, "gridstride: check: the %s build has run for %u s; it is stopped at "
                        "%g s\n", dev->backend->name, ran, deadline);
}

/* ---- --compile-only ------------------------------------------------------ */

/* Whether the comma list names `name` ("all" names every one). */
static int names(const char *list, const char *name)
{
    const size_t n = strlen(name);
    if (strcmp(list, "all") == 0)
        return 1;
    for (const char *p = list; (p = strstr(p, name)) != NULL; p += n)
        if ((p == list || p[-1] == ',') && (p[n] == ',' || p[n] == '\0'))
            return 1;
    return 0;
}

static int compile_one(const struct gs_backend *b, const struct gs_user_source *src,
                       const char *target, double deadline_s, struct gs_str *out,
                       struct gs_err *e)
{
    struct gs_build_info info = {0};
    const int rc = gs_compile_isolated(b, src, target, deadline_s, &info, e);
    info.log = gs_user_own_log(info.log, src->path);
    if (rc == GS_BUILD && info.log && *info.log) /* none from a compiler that was killed */
        print_log(src, &info);
    if (rc == GS_OK)
        gs_str_printf(out, "%s: %s: compiled by %s; kernel %s found\n", src->path, b->name,
                      info.compiler, src->entry);
    gs_build_info_free(&info);
    return rc;
}

static int compile_only(const struct gs_cli *cli, const struct gs_user_source *src,
                        struct gs_err *e)
{
    struct gs_outputs outs = {0};
    struct gs_str text = {0};
    char targets[256];
    int compiled = 0, rc = gs_outputs_add(&outs, cli->output, "--output", e);
    for (int i = 0; rc == GS_OK && i < gs_registry_count(); ++i) {
        const struct gs_backend *b = gs_registry_at(i);
        /* Under "all", only the backends that compile with no device at all. */
        if (!names(cli->backend, b->name) || !(gs_backend_user_dialects(b) >> src->dialect & 1u) ||
            (strcmp(cli->backend, "all") == 0 && !gs_backend_can_compile_user(b)))
            continue;
        gs_strlcpy(targets, cli->arch, sizeof targets);
        char *save = NULL;
        for (char *t = strtok_r(targets, ",", &save); rc == GS_OK && t;
             t = strtok_r(NULL, ",", &save), ++compiled)
            rc = compile_one(b, src, t, cli->timeout, &text, e);
    }
    if (rc == GS_OK && !compiled)
        rc = gs_err_set(e, GS_USAGE, "--compile-only: no backend of this build (--backend %s) "
                                     "compiles %s without a device; CUDA's NVRTC does (build with "
                                     "-DGS_CUDA=ON)", cli->backend, gs_dialect_name(src->dialect));
    if (rc == GS_OK) {
        const struct gs_str *texts[] = {&text};
        rc = gs_outputs_commit(&outs, texts, e);
    }
    gs_outputs_abort(&outs);
    gs_str_free(&text);
    return rc == GS_OK ? 0 : 2;
}

/* --ncu names an executable file (bad usage otherwise, before anything runs). */
static int check_ncu(const char *ncu, struct gs_err *e)
{
    char path[4096], why[500];
    if (gs_counters_find_ncu(ncu, path, sizeof path, why, sizeof why))
        return GS_OK;
    return gs_err_set(e, GS_USAGE, "%s", why);
}

/* ---- the run ------------------------------------------------------------- */

struct check_ctx {
    struct gs_user_source src;
    char shown[4096]; /* FILE's name, control characters escaped */
    char *text;       /* the file's */
    struct gs_check_skip skipped[GS_MAX_BACKENDS * 2];
    int nskipped;
    struct gs_check_plan plan;
    struct gs_grid_choice grids[GS_MAX_DEVICES];
    /* What ended a run that judged no case: the JSON verdict's class. */
    enum gs_check_class failure;
    /* Each device's, as they run side by side: */
    uint64_t printed[GS_MAX_DEVICES]; /* bytes the kernels printed, kept out of the report */
    struct watch watch[GS_MAX_DEVICES];
    struct gs_turns *turns; /* their timed sections, one at a time */
    struct gs_build_info failed_build; /* the compile error's log, for the JSON */
    const char *failed_backend;
    struct gs_opened host; /* the host backend, opened to count a .gs text for another */
    int host_opened;
    struct gs_device *count_on; /* where a .gs text is counted for a backend that does not */
    char count_why[400];        /* or why it is not */
};

/* The file, before any backend opens (--output naming it is refused first);
 * --compile-only is the whole command. Each worker that can build the file
 * starts here, so that it opens its API (and a GPU API's builds the file)
 * while this process opens its own. */
static int check_prepare(struct gs_job *j, struct gs_err *e)
{
    struct check_ctx *c = j->ctx;
    const struct gs_cli *cli = j->cli;
    show_path(cli, &c->src, c->shown, sizeof c->shown);
    c->failure = GS_CHECK_BAD_USAGE;
    int rc = outputs_not_inputs(cli, e);
    if (rc == GS_OK)
        rc = load_source(cli, &c->src, c->shown, sizeof c->shown, &c->text, &c->failure, e);
    if (rc == GS_OK && cli->ncu)
        rc = check_ncu(cli->ncu, e);
    if (rc != GS_OK)
        return rc;
    if (cli->svg && c->src.dialect != GS_DIALECT_PORTABLE) {
        c->failure = GS_CHECK_BAD_USAGE;
        return gs_err_set(e, GS_USAGE, "--svg: the picture needs a .gs file: the writes of %s "
                                       "(%s) are not counted, as its backend runs a launch's "
                                       "threads together; write the kernel in the .gs dialect, "
                                       "or leave --svg out",
                          c->src.path, gs_dialect_name(c->src.dialect));
    }
    if (cli->compile_only) {
        j->code = compile_only(cli, &c->src, e);
        j->finished = 1;
        return GS_OK;
    }
    /* Less isolation than docs/check.md promises (not root, no namespaces,
     * no Landlock) is said, never silent. */
    char gaps[600];
    gs_proc_isolation_gaps(gaps, sizeof gaps);
    if (*gaps)
        fprintf(stderr, "gridstride: check: note: %s\n", gaps);
    c->failure = GS_CHECK_BAD_USAGE; /* the options ask what no device here can do */
    c->plan.block = cli->block ? cli->block : GS_DEFAULT_BLOCK;
    c->plan.grid = cli->grid;
    c->plan.sizes = cli->nsizes ? cli->sizes : NULL;
    c->plan.nsizes = cli->nsizes;
    c->plan.traps = cli->sizes_traps;
    c->plan.shapes = cli->nshapes ? cli->shapes : NULL;
    c->plan.nshapes = cli->nshapes;
    c->plan.no_speed = cli->no_speed;
    c->plan.min_speed = cli->min_speed;
    c->plan.no_counters = cli->no_counters;
    c->plan.counters = cli->counters;
    if (cli->counters && cli->no_counters)
        return gs_err_set(e, GS_USAGE, "--counters and --no-counters ask for opposite things; "
                                       "give one of them");
    c->plan.ncu = cli->ncu;
    if (cli->no_speed && cli->min_speed > 0)
        return gs_err_set(e, GS_USAGE, "--min-speed needs the timing that --no-speed leaves out; "
                                       "give one of them");
    for (int i = 0; i < GS_MAX_DEVICES; ++i)
        c->watch[i].seconds = cli->watchdog ? cli->watchdog : CHECK_WATCHDOG_S;
    for (int i = 0; i < gs_registry_count(); ++i) {
        const struct gs_backend *b = gs_registry_at(i);
        struct gs_err ignored = {0};
        if (!names(cli->backend, b->name) || !gs_plan_builds_dialect(b, c->src.dialect))
            continue;
        /* A GPU API's worker builds the file at once; the reference's waits
         * for its limits and filter. */
        if (gs_registry_is_reference(b))
            gs_worker_prestart(b, &ignored);
        else
            gs_worker_prestart_build(b, &c->src, cli->device, &ignored);
        gs_counters_prestart(b, &c->src, &c->plan, cli->device, &ignored);
    }
    return GS_OK;
}

/* Under --backend all, only the backends that build the file's dialect
 * open (a .cu file opens CUDA alone); every backend when none does, so that
 * check_select says what would run it. */
static int check_opens(const struct gs_job *j, const struct gs_backend *b)
{
    const struct check_ctx *c = j->ctx;
    if (gs_plan_builds_dialect(b, c->src.dialect))
        return 1;
    for (int i = 0; i < gs_registry_count(); ++i)
        if (gs_plan_builds_dialect(gs_registry_at(i), c->src.dialect))
            return 0;
    return 1;
}

/* check's notes, after the run: the backends that could build the file
 * and what became of them (the session's own notes are not check's). */
static void note(struct gs_job *j, const char *backend, const char *what, const char *text)
{
    gs_session_note(&j->s, "%s%s: %.700s", backend, what, text);
}

static void skip(struct gs_job *j, const char *backend, const char *why)
{
    struct check_ctx *c = j->ctx;
    if (c->nskipped < (int)(sizeof c->skipped / sizeof c->skipped[0])) {
        struct gs_check_skip *k = &c->skipped[c->nskipped++];
        k->backend = backend;
        gs_strlcpy(k->why, why, sizeof k->why);
    }
    note(j, backend, " skipped", why);
}

/* Keep the devices whose backend builds the file's dialect; name the others
 * only when --backend named them. */
static int check_select(struct gs_job *j, struct gs_err *e)
{
    struct check_ctx *c = j->ctx;
    const int explicit_names = strcmp(j->cli->backend, "all") != 0;
    const enum gs_dialect d = c->src.dialect;
    j->s.nnotes = 0;
    for (int i = 0; i < j->s.nopened; ++i) {
        const struct gs_opened *o = &j->s.opened[i];
        if (!gs_plan_builds_dialect(o->backend, d)) {
            if (explicit_names)
                return gs_err_set(e, GS_USAGE, "--backend %s cannot run %s (%s); choose a backend "
                                               "that can, or leave --backend out",
                                  o->backend->name, gs_dialect_name(d), c->src.path);
            continue;
        }
        if (o->notice[0])
            note(j, o->backend->name, "", o->notice);
        if (o->status != GS_OK)
            skip(j, o->backend->name, o->err.msg);
    }
    j->ndevs = gs_plan_dialect_devices(j->s.devs, j->s.ndevs, d, j->devs);
    /* What works without such a device: NVRTC compiles CUDA C++ for named
     * targets, and the .gs dialect runs on every backend. */
    const char *instead = d == GS_DIALECT_PORTABLE ? ""
                          : d == GS_DIALECT_CUDA && gs_registry_find("cuda")
                              ? "; without a GPU, add --compile-only --arch sm_75,sm_90 to compile "
                                "it, or write it in the .gs dialect, which every backend runs "
                                "(gridstride check --help)"
                              : "; write it in the .gs dialect, which every backend runs "
                                "(gridstride check --help)";
    if (j->ndevs == 0)
        return gs_err_set(e, GS_NO_DEVICE, "no device here runs %s (%.*s%s)%s%s%s",
                          gs_dialect_name(d), GS_ECHO(c->src.path), c->nskipped ? ": " : "",
                          c->nskipped ? c->skipped[0].why : "", instead);
    return GS_OK;
}

/* Shapes, grid and buffers must suit every device before anything runs;
 * from here on a failure is the harness's own, unless the build says. */
static struct gs_device *host_device(struct gs_job *j, char *why, size_t size);

/* The inputs' secret for this run (gs_inputs_set_seed): drawn here, and told
 * to each worker only with its launches, after the file's code is loaded. */
static uint64_t run_seed(void)
{
    uint64_t s = 0;
    if (getrandom(&s, sizeof s, 0) != (ssize_t)sizeof s) {
        struct timespec t;
        clock_gettime(CLOCK_REALTIME, &t);
        s = ((uint64_t)t.tv_nsec * 0x9E3779B97F4A7C15ull) ^ (uint64_t)t.tv_sec ^
            ((uint64_t)getpid() << 32);
    }
    return s;
}

/* Before the devices run side by side: where a .gs text is counted for a
 * backend that does not count writes, and the turns of their timed
 * sections. */
static int check_plan(struct gs_job *j, struct gs_err *e)
{
    struct check_ctx *c = j->ctx;
    int rc = gs_plan_check(j->devs, j->ndevs, &c->plan, c->grids, e);
    int elsewhere = 0;
    for (int i = 0; i < j->ndevs; ++i)
        elsewhere |= !j->devs[i]->backend->user_count;
    if (rc == GS_OK && elsewhere && c->src.dialect == GS_DIALECT_PORTABLE)
        c->count_on = host_device(j, c->count_why, sizeof c->count_why);
    if (rc == GS_OK && j->ndevs > 1)
        rc = gs_turns_open(&c->turns, j->ndevs, e);
    if (rc == GS_OK)
        c->failure = GS_CHECK_ERROR;
    gs_inputs_set_seed(run_seed());
    return rc;
}

/* One device, its build and every launch in a worker; a .gs text on a
 * backend that does not count writes is counted on the host backend. The
 * devices run side by side: nothing here touches what another one does. */
static int check_run(struct gs_job *j, int i, void *slot, struct gs_err *e)
{
    struct check_ctx *c = j->ctx;
    const struct gs_worker_opts opts = {.timeout_s = j->cli->timeout,
                                        .waiting = watch_waiting,
                                        .ctx = &c->watch[i],
                                        .loads_in_process = gs_registry_is_reference,
                                        .count_on = c->count_on,
                                        .count_why = c->count_why[0] ? c->count_why : NULL,
                                        .defer_exit = 1,
                                        .turns = c->turns,
                                        .turn = i};
    const int rc = gs_check_device_isolated(j->devs[i], &c->grids[i], &c->src, &c->plan, &opts,
                                            slot, &c->printed[i], e);
    gs_turns_end(c->turns, i);
    return rc;
}

/* Its outcome, in the devices' order: a dialect its compiler lacks skips it
 * under --backend all; a compile error shows the compiler's log. */
static int check_settle(struct gs_job *j, int i, void *slot, int rc, struct gs_err *e)
{
    struct check_ctx *c = j->ctx;
    struct gs_device *d = j->devs[i];
    struct gs_check_run *run = slot;
    if (rc == GS_BUILD || rc == GS_USAGE)
        c->failure = rc == GS_BUILD ? GS_CHECK_COMPILE_ERROR : GS_CHECK_BAD_SIGNATURE;
    if (rc == GS_BUILD) {
        print_log(&c->src, &run->build);
        gs_build_info_free(&c->failed_build);
        c->failed_build = run->build;
        c->failed_backend = d->backend->name;
        run->build = (struct gs_build_info){0};
    }
    if (rc == GS_UNSUPPORTED && strcmp(j->cli->backend, "all") == 0) {
        skip(j, d->backend->name, e->msg);
        return GS_DRIVE_SKIP;
    }
    return rc;
}

/* ---- the count of a .gs text on another backend ---------------------------- */

/* A device of the host backend: the session's, or the backend opened here
 * once; NULL with why when there is none. */
static struct gs_device *host_device(struct gs_job *j, char *why, size_t size)
{
    struct check_ctx *c = j->ctx;
    const struct gs_backend *hb = gs_registry_find("host");
    if (!hb) {
        snprintf(why, size, "not counted: the .gs text is counted on the host backend, which "
                            "this build leaves out (build with the host backend to count it)");
        return NULL;
    }
    for (int i = 0; i < j->s.ndevs; ++i)
        if (j->s.devs[i]->backend == hb)
            return j->s.devs[i];
    if (!c->host_opened) {
        gs_open_backend(hb, &c->host);
        c->host_opened = 1;
    }
    struct gs_device *d = NULL;
    int n = 0;
    struct gs_err e = {0};
    if (c->host.status != GS_OK)
        e = c->host.err;
    else
        gs_select_devices(&c->host, NULL, &d, 1, &n, &e);
    if (n == 1)
        return d;
    snprintf(why, size, "not counted: the host backend, which counts a .gs text, has no "
                        "device: %.300s", e.msg);
    return NULL;
}

static void check_free(void *run)
{
    gs_check_run_free(run);
}

static int check_finish(struct gs_job *j, struct gs_err *e)
{
    const struct check_ctx *c = j->ctx;
    if (j->ndone == 0)
        return gs_err_set(e, GS_NO_DEVICE, "no backend could run %s: %s", c->src.path,
                          c->nskipped ? c->skipped[0].why : "none builds its dialect");
    uint64_t printed = 0;
    for (int i = 0; i < j->ndevs; ++i)
        printed += c->printed[i];
    if (printed)
        gs_session_note(&j->s, "the kernel printed %llu bytes; a kernel's output is not shown "
                               "(the report is the harness's alone)",
                        (unsigned long long)printed);
    return GS_OK;
}

static int check_failed(const struct gs_job *j)
{
    return !gs_check_all_ok(gs_job_slot(j, 0), j->ndone) ||
           gs_check_too_slow(gs_job_slot(j, 0), j->ndone);
}

/* --svg: the index-tracer picture of the first backend's count (a .gs file). */
static void check_picture(const struct gs_job *j, struct gs_str *out)
{
    const struct check_ctx *c = j->ctx;
    const struct gs_check_run *runs = gs_job_slot(j, 0), *r = j->ndone ? &runs[0] : NULL;
    for (int i = 0; i < j->ndone; ++i)
        if (runs[i].work.count_of && runs[i].work.first_of) {
            r = &runs[i];
            break;
        }
    const struct gs_check_work *w = r ? &r->work : NULL;
    const int counted = w && w->cls != GS_WORK_NOT_COUNTED && w->count_of && w->first_of;
    const char *backend = r ? r->dev->backend->name : "";
    const struct gs_count_picture_in in = {
        c->src.path, c->src.entry, backend, w && w->on_host ? "host" : backend,
        counted ? w->n : 0, w ? w->grid : 0, w ? w->block : 0,
        counted ? w->count_of : NULL, counted ? w->first_of : NULL,
        !w ? "not counted: no backend ran the file" : counted ? w->words : w->why,
        GS_VERSION_STRING, j->command, j->date};
    gs_count_svg(&in, out);
}

static void check_render(const struct gs_job *j, enum gs_format f, int chart, struct gs_str *out)
{
    const struct check_ctx *c = j->ctx;
    const struct gs_check_report_in in = {&c->src,    gs_job_slot(j, 0), j->ndone,
                                          c->skipped, c->nskipped,       GS_VERSION_STRING,
                                          j->command, j->date,           GS_TOOLKIT,
                                          j->cli->verbose};
    if (chart) {
        check_picture(j, out);
        return;
    }
    gs_report_check(&in, f, out);
}

/* A JSON verdict into `output` (NULL or unwritable: stdout). */
static void write_verdict_json(const struct gs_check_failure_in *in, const char *output)
{
    struct gs_str text = {0};
    struct gs_err ignored = {0};
    gs_report_check_failure(in, &text);
    const struct gs_str *texts[] = {&text};
    struct gs_outputs out = {0};
    if (gs_outputs_add(&out, output, "--output", &ignored) != GS_OK) {
        gs_outputs_abort(&out);
        memset(&out, 0, sizeof out);
        gs_outputs_add(&out, NULL, "stdout", &ignored);
    }
    gs_outputs_commit(&out, texts, &ignored);
    gs_outputs_abort(&out);
    gs_str_free(&text);
}

/* --format json: a verdict also for a run that judged no case (a compile
 * error, a bad signature, a refused file, bad usage, no device). Never into
 * an --output that names the input. */
static void check_failure(struct gs_job *j, int status, const struct gs_err *e)
{
    const struct check_ctx *c = j->ctx;
    const struct gs_cli *cli = j->cli;
    if (cli->format != GS_FMT_JSON || cli->compile_only)
        return;
    const enum gs_check_class cls = status == GS_NO_DEVICE ? GS_CHECK_ERROR : c->failure;
    char date[32];
    gs_utc_now(date, sizeof date);
    const struct gs_check_failure_in in = {&c->src,          cls,
                                           e->msg,           c->failed_backend,
                                           &c->failed_build, GS_VERSION_STRING,
                                           j->command,       date,
                                           GS_TOOLKIT};
    struct gs_err ignored = {0};
    const int output_names_input = outputs_not_inputs(cli, &ignored) != GS_OK;
    write_verdict_json(&in, output_names_input ? NULL : cli->output);
}

static void check_release(struct gs_job *j)
{
    struct check_ctx *c = j->ctx;
    gs_worker_prestart_end();
    gs_counters_prestart_end();
    gs_turns_close(c->turns);
    if (c->host_opened)
        gs_close_backend(&c->host);
    gs_build_info_free(&c->failed_build);
    free(c->text);
}

const struct gs_command gs_check_command = {
    .name = "check", .flags = GS_CMD_PRIVATE_TMPDIR | GS_CMD_PARALLEL, .ctx_size = sizeof(struct check_ctx), .run_size = sizeof(struct gs_check_run),
    .bare_errors = 1u << GS_BUILD | 1u << GS_USAGE, .prepare = check_prepare,
    .opens = check_opens, .select = check_select, .plan = check_plan, .run = check_run, .settle = check_settle, .free_run = check_free,
    .finish = check_finish, .failed = check_failed, .render = check_render,
    .failure = check_failure, .release = check_release,
};

/* main's bad usage, when the command line is check's with --format json. */
void gs_check_parse_error_json(int argc, char **argv, const char *msg)
{
    int json = 0;
    const char *file = "";
    if (argc < 2 || strcmp(argv[1], "check") != 0)
        return;
    for (int i = 2; i < argc; ++i) {
        if (strcmp(argv[i], "--format=json") == 0 ||
            (strcmp(argv[i], "--format") == 0 && i + 1 < argc && strcmp(argv[i + 1], "json") == 0))
            json = 1;
        else if (argv[i][0] != '-' && !*file && strcmp(argv[i - 1], "--format") != 0)
            file = argv[i];
    }
    if (!json)
        return;
    char shown[4096];
    gs_escape_controls(shown, sizeof shown, file);
    const struct gs_user_source src = {shown, NULL, "solve", GS_DIALECT_PORTABLE};
    char date[32];
    gs_utc_now(date, sizeof date);
    const struct gs_check_failure_in in = {&src, GS_CHECK_BAD_USAGE, msg,        NULL, NULL,
                                           GS_VERSION_STRING,  "",  date, GS_TOOLKIT};
    write_verdict_json(&in, NULL);
}
