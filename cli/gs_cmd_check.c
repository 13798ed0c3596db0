/* SPDX-License-Identifier: MIT */
/* `gridstride check FILE`: a user's kernel through the suite's harness. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gs_check_report.h"
#include "gs_device.h"
#include "gs_driver.h"
#include "gs_output.h"
#include "gs_plan_run.h"
#include "gs_registry.h"

#define CHECK_MAX_FILE (1u << 20) /* no kernel's source is larger */
#define CHECK_WATCHDOG_S 10u

/* ---- the file ------------------------------------------------------------ */

static int read_file(const char *path, char **text, struct gs_err *e)
{
    struct stat st;
    FILE *f = fopen(path, "rb");
    if (!f)
        return gs_err_set(e, GS_USAGE, "cannot read %.*s%s: %s; check the path", GS_ECHO(path),
                          strerror(errno));
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(f);
        return gs_err_set(e, GS_USAGE, "%s is a directory; give the kernel's source file", path);
    }
    char *buf = malloc(CHECK_MAX_FILE + 1);
    const size_t len = buf ? fread(buf, 1, CHECK_MAX_FILE + 1, f) : 0;
    const int failed = ferror(f);
    fclose(f);
    int rc = GS_OK;
    if (!buf)
        rc = gs_err_set(e, GS_NOMEM, "out of memory reading %s", path);
    else if (failed)
        rc = gs_err_set(e, GS_USAGE, "cannot read %.*s%s: a read error; check the file",
                        GS_ECHO(path));
    else if (len > CHECK_MAX_FILE)
        rc = gs_err_set(e, GS_USAGE, "%s is over %u bytes, not one kernel's source; give the file "
                                     "that holds the kernel", path,
                        CHECK_MAX_FILE);
    else if ((rc = gs_check_source_text(path, buf, len, e)) == GS_OK)
        buf[len] = '\0';
    if (rc != GS_OK) {
        free(buf);
        return rc;
    }
    *text = buf;
    return GS_OK;
}

static int load_source(const struct gs_cli *cli, struct gs_user_source *src, char **text,
                       struct gs_err *e)
{
    src->path = cli->file;
    src->entry = cli->entry ? cli->entry : "solve";
    if (!gs_entry_valid(src->entry))
        return gs_err_set(e, GS_USAGE, "--entry: '%s' is not a kernel name; give a C identifier "
                                       "like solve", src->entry);
    int rc = read_file(cli->file, text, e);
    if (rc == GS_OK)
        rc = gs_dialect_of_path(cli->file, &src->dialect, e);
    src->text = *text;
    return rc;
}

/* The compiler's messages, on stderr, before the one line that says what failed. */
static void print_log(const struct gs_user_source *src, const struct gs_build_info *info)
{
    const char *log = info->log ? info->log : "";
    fprintf(stderr, "%s: messages of %s:\n%s%s", src->path, info->compiler[0] ? info->compiler
                                                                               : "the compiler",
            log, *log && log[strlen(log) - 1] != '\n' ? "\n" : "");
}

/* ---- the watchdog -------------------------------------------------------- */

/* No API stops a running kernel on most GPUs, so the watchdog only speaks:
 * once, on stderr, after --watchdog seconds. The message is written before
 * the alarm is set, and the handler only writes it (async-signal-safe). */
static char watch_msg[600];
static volatile sig_atomic_t watch_len;

static void watch_ring(int sig)
{
    (void)sig;
    if (watch_len > 0) {
        const ssize_t w = write(2, watch_msg, (size_t)watch_len);
        (void)w;
    }
}

static void watch_before(void *ctx, const struct gs_device *dev, const struct gs_check_case *c)
{
    const unsigned seconds = *(const unsigned *)ctx;
    const int len = snprintf(watch_msg, sizeof watch_msg,
                             "gridstride: check: the %s kernel at n = %llu <<<%llu, %llu>>> has "
                             "run for %u s and may never finish; no API call stops a running "
                             "kernel on most GPUs: end gridstride (Ctrl-C) to free the device\n",
                             dev->backend->name, (unsigned long long)c->launch.n,
                             (unsigned long long)c->launch.grid,
                             (unsigned long long)c->launch.block, seconds);
    watch_len = len < (int)sizeof watch_msg ? len : (int)sizeof watch_msg - 1;
    alarm(seconds);
}

static void watch_after(void *ctx)
{
    (void)ctx;
    alarm(0);
    watch_len = 0;
}

static void watch_install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = watch_ring;
    sa.sa_flags = SA_RESTART; /* the wait for the kernel goes on */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGALRM, &sa, NULL);
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
                       const char *target, struct gs_str *out, struct gs_err *e)
{
    struct gs_build_info info = {0};
    const int rc = gs_backend_user_compile(b, src, target, &info, e);
    if (rc == GS_BUILD)
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
            rc = compile_one(b, src, t, &text, e);
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

/* ---- the run ------------------------------------------------------------- */

struct check_ctx {
    struct gs_user_source src;
    char *text; /* the file's */
    struct gs_check_skip skipped[GS_MAX_BACKENDS * 2];
    int nskipped;
    struct gs_check_plan plan;
    struct gs_grid_choice grids[GS_MAX_DEVICES];
};

/* The file, before any backend opens; --compile-only is the whole command. */
static int check_prepare(struct gs_job *j, struct gs_err *e)
{
    struct check_ctx *c = j->ctx;
    const struct gs_cli *cli = j->cli;
    const int rc = load_source(cli, &c->src, &c->text, e);
    if (rc != GS_OK)
        return rc;
    if (cli->compile_only) {
        j->code = compile_only(cli, &c->src, e);
        j->finished = 1;
    }
    c->plan.block = cli->block ? cli->block : GS_DEFAULT_BLOCK;
    c->plan.grid = cli->grid;
    c->plan.sizes = cli->nsizes ? cli->sizes : NULL;
    c->plan.nsizes = cli->nsizes;
    c->plan.shapes = cli->nshapes ? cli->shapes : NULL;
    c->plan.nshapes = cli->nshapes;
    return GS_OK;
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

/* Shapes, grid and buffers must suit every device before anything runs. */
static int check_plan(struct gs_job *j, struct gs_err *e)
{
    struct check_ctx *c = j->ctx;
    const int rc = gs_plan_check(j->devs, j->ndevs, &c->plan, c->grids, e);
    if (rc == GS_OK)
        watch_install();
    return rc;
}

/* One device. A dialect its compiler lacks skips it under --backend all;
 * a compile error shows the compiler's log. */
static int check_run(struct gs_job *j, int i, void *slot, struct gs_err *e)
{
    struct check_ctx *c = j->ctx;
    struct gs_device *d = j->devs[i];
    struct gs_check_run *run = slot;
    unsigned seconds = j->cli->watchdog ? j->cli->watchdog : CHECK_WATCHDOG_S;
    const struct gs_check_observer obs = {watch_before, watch_after, &seconds};
    const int rc = gs_check_device_at(d, &c->grids[i], &c->src, &c->plan, &obs, run, e);
    if (rc == GS_BUILD)
        print_log(&c->src, &run->build);
    if (rc == GS_UNSUPPORTED && strcmp(j->cli->backend, "all") == 0) {
        skip(j, d->backend->name, e->msg);
        return GS_DRIVE_SKIP;
    }
    return rc;
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
    return GS_OK;
}

static int check_failed(const struct gs_job *j)
{
    return !gs_check_all_ok(gs_job_slot(j, 0), j->ndone);
}

static void check_render(const struct gs_job *j, enum gs_format f, int chart, struct gs_str *out)
{
    const struct check_ctx *c = j->ctx;
    const struct gs_check_report_in in = {&c->src,     gs_job_slot(j, 0), j->ndone,
                                          c->skipped,  c->nskipped,       GS_VERSION_STRING,
                                          j->command};
    (void)chart;
    gs_report_check(&in, f, out);
}

static void check_release(struct gs_job *j)
{
    struct check_ctx *c = j->ctx;
    free(c->text);
}

const struct gs_command gs_check_command = {
    .name = "check", .ctx_size = sizeof(struct check_ctx), .run_size = sizeof(struct gs_check_run),
    .bare_errors = 1u << GS_BUILD | 1u << GS_USAGE, .prepare = check_prepare,
    .select = check_select, .plan = check_plan, .run = check_run, .free_run = check_free,
    .finish = check_finish, .failed = check_failed, .render = check_render,
    .release = check_release,
};
