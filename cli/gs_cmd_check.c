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
#include "gs_commands.h"
#include "gs_memory.h"
#include "gs_device.h"
#include "gs_output.h"
#include "gs_registry.h"
#include "gs_table.h"

#define CHECK_MAX_FILE (1u << 20) /* no kernel's source is larger */
#define CHECK_WATCHDOG_S 10u

/* ---- the file ------------------------------------------------------------ */

static int read_file(const char *path, char **text, struct gs_err *e)
{
    struct stat st;
    FILE *f = fopen(path, "rb");
    if (!f)
        return gs_err_set(e, GS_USAGE, "cannot read %s: %s; check the path", path, strerror(errno));
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
        rc = gs_err_set(e, GS_USAGE, "cannot read %s: a read error; check the file", path);
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

struct check_state {
    const struct gs_cli *cli;
    const struct gs_user_source *src;
    struct gs_session s;
    struct gs_device *devs[GS_MAX_DEVICES]; /* those that can build the dialect */
    int ndevs;
    struct gs_check_skip skipped[GS_MAX_BACKENDS * 2];
    int nskipped;
    char notes[GS_MAX_BACKENDS * 2][800]; /* for stderr, once the run is over */
    int nnotes;
    struct gs_check_run runs[GS_MAX_DEVICES];
    int nruns;
    struct gs_check_plan plan;
};

static int builds_dialect(const struct gs_backend *b, enum gs_dialect d)
{
    return gs_backend_builds_dialect(b, d);
}

static void note(struct check_state *st, const char *backend, const char *what, const char *text)
{
    if (st->nnotes < (int)(sizeof st->notes / sizeof st->notes[0]))
        snprintf(st->notes[st->nnotes++], sizeof st->notes[0], "%s%s: %.700s", backend, what, text);
}

static void skip(struct check_state *st, const char *backend, const char *why)
{
    if (st->nskipped < (int)(sizeof st->skipped / sizeof st->skipped[0])) {
        struct gs_check_skip *k = &st->skipped[st->nskipped++];
        k->backend = backend;
        gs_strlcpy(k->why, why, sizeof k->why);
    }
    note(st, backend, " skipped", why);
}

/* After a run: what it skipped (a failed run's one line says it all). */
static void print_notes(const struct check_state *st)
{
    for (int i = 0; i < st->nnotes; ++i)
        fprintf(stderr, "gridstride: note: %s\n", st->notes[i]);
}

/* Keep the devices whose backend builds the file's dialect; name the others
 * only when --backend named them. */
static int choose_devices(struct check_state *st, struct gs_err *e)
{
    const int explicit_names = strcmp(st->cli->backend, "all") != 0;
    const enum gs_dialect d = st->src->dialect;
    for (int i = 0; i < st->s.nopened; ++i) {
        const struct gs_opened *o = &st->s.opened[i];
        if (!builds_dialect(o->backend, d)) {
            if (explicit_names)
                return gs_err_set(e, GS_USAGE, "--backend %s cannot run %s (%s); choose a backend "
                                               "that can, or leave --backend out",
                                  o->backend->name, gs_dialect_name(d), st->src->path);
            continue;
        }
        if (o->notice[0])
            note(st, o->backend->name, "", o->notice);
        if (o->status != GS_OK)
            skip(st, o->backend->name, o->err.msg);
    }
    for (int i = 0; i < st->s.ndevs; ++i)
        if (builds_dialect(st->s.devs[i]->backend, d))
            st->devs[st->ndevs++] = st->s.devs[i];
    if (st->ndevs == 0)
        return gs_err_set(e, GS_NO_DEVICE, "no device here runs %s (%s)%s%s", gs_dialect_name(d),
                          st->src->path, st->nskipped ? ": " : "",
                          st->nskipped ? st->skipped[0].why : "");
    return GS_OK;
}

/* Shapes, grid and buffers must suit every device before anything runs. */
static int check_devices_fit(struct check_state *st, struct gs_err *e)
{
    const struct gs_table_plan grid_plan = {.block = st->plan.block, .grid = st->plan.grid};
    for (int i = 0; i < st->ndevs; ++i) {
        struct gs_device *d = st->devs[i];
        uint64_t grid;
        int fallback;
        char rule[200];
        int rc = gs_check_limits(d, st->plan.block, st->plan.grid, st->plan.shapes,
                                 st->plan.nshapes, e);
        if (rc == GS_OK)
            rc = gs_table_grid(d, &grid_plan, &grid, &fallback, rule, sizeof rule, e);
        if (rc == GS_OK)
            rc = gs_memory_preflight(d, gs_check_max_n(&st->plan, grid * st->plan.block), e);
        if (rc != GS_OK)
            return rc;
    }
    return GS_OK;
}

/* One device. GS_OK when it ran (or was skipped: a dialect its compiler
 * lacks); any other status ends the command with exit 2. */
static int run_device(struct check_state *st, struct gs_device *d, struct gs_err *e)
{
    unsigned seconds = st->cli->watchdog ? st->cli->watchdog : CHECK_WATCHDOG_S;
    const struct gs_check_observer obs = {watch_before, watch_after, &seconds};
    struct gs_check_run *run = &st->runs[st->nruns];
    int rc = gs_check_device(d, st->src, &st->plan, &obs, run, e);
    if (rc == GS_BUILD)
        print_log(st->src, &run->build);
    if (rc == GS_OK) {
        ++st->nruns;
        return GS_OK;
    }
    gs_check_run_free(run);
    if (rc == GS_UNSUPPORTED && strcmp(st->cli->backend, "all") == 0) {
        skip(st, d->backend->name, e->msg);
        return GS_OK;
    }
    if (rc != GS_BUILD && rc != GS_USAGE) {
        char msg[sizeof e->msg];
        gs_strlcpy(msg, e->msg, sizeof msg);
        gs_err_set(e, rc, "%s device %s: %s", d->backend->name, d->name, msg);
    }
    return rc;
}

static int report(struct check_state *st, struct gs_outputs *outs, const char *command,
                  struct gs_err *e)
{
    struct gs_str text = {0};
    const struct gs_check_report_in in = {st->src, st->runs, st->nruns, st->skipped,
                                          st->nskipped, GS_VERSION_STRING, command};
    gs_report_check(&in, st->cli->format, &text);
    const struct gs_str *texts[] = {&text};
    const int rc = gs_outputs_commit(outs, texts, e);
    gs_str_free(&text);
    return rc;
}

static int run_check(struct check_state *st, const char *command, struct gs_err *e)
{
    struct gs_outputs outs = {0};
    int rc = gs_session_open(st->cli, 1, &st->s, e);
    if (rc == GS_OK)
        rc = choose_devices(st, e);
    if (rc == GS_OK)
        rc = check_devices_fit(st, e);
    if (rc == GS_OK)
        rc = gs_outputs_add(&outs, st->cli->output, "--output", e);
    watch_install();
    for (int i = 0; rc == GS_OK && i < st->ndevs; ++i)
        rc = run_device(st, st->devs[i], e);
    if (rc == GS_OK && st->nruns == 0)
        rc = gs_err_set(e, GS_NO_DEVICE, "no backend could run %s: %s", st->src->path,
                        st->nskipped ? st->skipped[0].why : "none builds its dialect");
    if (rc == GS_OK)
        rc = report(st, &outs, command, e);
    if (rc == GS_OK)
        print_notes(st);
    gs_outputs_abort(&outs);
    const int ok = rc == GS_OK && gs_check_all_ok(st->runs, st->nruns);
    for (int i = 0; i < st->nruns; ++i)
        gs_check_run_free(&st->runs[i]);
    gs_session_close(&st->s);
    return rc != GS_OK ? 2 : ok ? 0 : 1;
}

int gs_cmd_check(const struct gs_cli *cli, const char *command, struct gs_err *e)
{
    struct gs_user_source src = {0};
    char *text = NULL;
    int code = 2;
    if (load_source(cli, &src, &text, e) == GS_OK) {
        if (cli->compile_only) {
            code = compile_only(cli, &src, e);
        } else {
            struct check_state *st = calloc(1, sizeof *st);
            if (!st) {
                gs_err_set(e, GS_NOMEM, "out of memory");
            } else {
                st->cli = cli;
                st->src = &src;
                st->plan.block = cli->block ? cli->block : GS_DEFAULT_BLOCK;
                st->plan.grid = cli->grid;
                st->plan.sizes = cli->nsizes ? cli->sizes : NULL;
                st->plan.nsizes = cli->nsizes;
                st->plan.shapes = cli->nshapes ? cli->shapes : NULL;
                st->plan.nshapes = cli->nshapes;
                code = run_check(st, command, e);
                free(st);
            }
        }
    }
    free(text);
    return code;
}
