/* SPDX-License-Identifier: MIT */
/* `gridstride check FILE`: a user's kernel through the suite's harness. */
#include <errno.h>
#include <fcntl.h>
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
#include "gs_worker.h"

#define CHECK_MAX_FILE (1u << 20) /* no kernel's source is larger */
#define CHECK_WATCHDOG_S 10u

/* ---- the file ------------------------------------------------------------ */

/* What ended a run that gives no verdict of cases: the JSON's class. */
static enum gs_check_class failure = GS_CHECK_ERROR;

/* FILE is untrusted: opened without blocking (a FIFO or a device never
 * hangs the harness), accepted only as a regular file of at most 1 MiB. */
static int read_file(const char *path, const char *shown, char **text, size_t *len_out,
                     struct gs_err *e)
{
    struct stat st;
    failure = GS_CHECK_FILE_REFUSED;
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
    size_t len = 0;
    int failed = 0;
    while (buf && len <= CHECK_MAX_FILE) {
        const ssize_t got = read(fd, buf + len, CHECK_MAX_FILE + 1 - len);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0) {
            failed = got < 0;
            break;
        }
        len += (size_t)got;
    }
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

static char shown_path[4096]; /* FILE's name, control characters escaped */

static int load_source(const struct gs_cli *cli, struct gs_user_source *src, char **text,
                       struct gs_err *e)
{
    size_t len = 0;
    gs_escape_controls(shown_path, sizeof shown_path, cli->file);
    src->path = shown_path;
    src->entry = cli->entry ? cli->entry : "solve";
    failure = GS_CHECK_BAD_USAGE;
    if (!gs_entry_valid(src->entry))
        return gs_err_set(e, GS_USAGE, "--entry: '%s' is not a kernel name; give a C identifier "
                                       "like solve", src->entry);
    int rc = read_file(cli->file, shown_path, text, &len, e);
    if (rc == GS_OK)
        rc = gs_dialect_of_path(shown_path, &src->dialect, e);
    if (rc == GS_OK)
        rc = gs_check_source_rules(shown_path, *text, len, src->dialect, e);
    src->text = *text;
    return rc;
}

/* --output, --json and --svg never name an input. */
static int outputs_not_inputs(const struct gs_cli *cli, struct gs_err *e)
{
    const char *inputs[] = {cli->file};
    failure = GS_CHECK_BAD_USAGE;
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
                          unsigned ran, unsigned deadline)
{
    struct watch *w = ctx;
    if (ran < w->seconds || w->told)
        return;
    w->told = 1;
    if (c)
        fprintf(stderr, "gridstride: check: the %s kernel at n = %llu <<<%llu, %llu>>> has run "
                        "for %u s; it is stopped at %u s (--timeout)\n", dev->backend->name,
                (unsigned long long)c->launch.n, (unsigned long long)c->launch.grid,
                (unsigned long long)c->launch.block, ran, deadline);
    else
        fprintf(stderr, "gridstride: check: the %s build has run for %u s; it is stopped at "
                        "%u s\n", dev->backend->name, ran, deadline);
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
        if (!names(cli->backend, b->name) || !(b->abi >= 2 && (b->user_dialects >> src->dialect & 1u)) ||
            (strcmp(cli->backend, "all") == 0 && !b->user_compile))
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
    uint64_t printed;                /* bytes the kernels printed, kept out of the report */
    struct gs_build_info failed_build; /* the compile error's log, for the JSON */
    const char *failed_backend;
};

static int builds_dialect(const struct gs_backend *b, enum gs_dialect d)
{
    return b->abi >= 2 && (b->user_dialects >> d & 1u) && gs_backend_has_user_kernels(b);
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
    const struct gs_plan grid_plan = {.block = st->plan.block, .grid = st->plan.grid};
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
    struct watch watch = {st->cli->watchdog ? st->cli->watchdog : CHECK_WATCHDOG_S, 0};
    const struct gs_worker_opts opts = {st->cli->timeout, 0, watch_waiting, &watch,
                                        gs_registry_is_reference};
    struct gs_check_run *run = &st->runs[st->nruns];
    int rc = gs_check_device_isolated(d, st->src, &st->plan, &opts, run, &st->printed, e);
    if (rc == GS_BUILD || rc == GS_USAGE)
        failure = rc == GS_BUILD ? GS_CHECK_COMPILE_ERROR : GS_CHECK_BAD_SIGNATURE;
    if (rc == GS_BUILD) {
        print_log(st->src, &run->build);
        st->failed_build = run->build;
        st->failed_backend = d->backend->name;
        run->build = (struct gs_build_info){0};
    }
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

/* --format json: a verdict also for a run that judged no case (a compile
 * error, a bad signature, bad usage, no device), into the report's output
 * when it could be opened, else stdout. */
static void failure_json(struct check_state *st, struct gs_outputs *outs, const char *command,
                         int rc, struct gs_err *e)
{
    struct gs_str text = {0};
    struct gs_err ignored = {0};
    const enum gs_check_class cls = rc == GS_NO_DEVICE ? GS_CHECK_ERROR : failure;
    const struct gs_check_failure_in in = {
        st->src, cls, e->msg, st->failed_backend, &st->failed_build, GS_VERSION_STRING, command};
    gs_report_check_failure(&in, &text);
    const struct gs_str *texts[] = {&text};
    if (!outs->n && gs_outputs_add(outs, st->cli->output, "--output", &ignored) != GS_OK) {
        gs_outputs_abort(outs);
        outs->n = 0;
    }
    if (!outs->n || gs_outputs_commit(outs, texts, &ignored) != GS_OK) {
        struct gs_outputs out = {0};
        if (gs_outputs_add(&out, NULL, "stdout", &ignored) == GS_OK)
            gs_outputs_commit(&out, texts, &ignored);
        gs_outputs_abort(&out);
    }
    gs_str_free(&text);
}

static int run_check(struct check_state *st, const char *command, struct gs_err *e)
{
    struct gs_outputs outs = {0};
    failure = GS_CHECK_BAD_USAGE; /* the options ask what no device here can do */
    /* Each worker opens its API while this process opens its own. */
    for (int i = 0; i < gs_registry_count(); ++i) {
        const struct gs_backend *b = gs_registry_at(i);
        struct gs_err ignored = {0};
        if (names(st->cli->backend, b->name) && builds_dialect(b, st->src->dialect))
            gs_worker_prestart(b, &ignored);
    }
    int rc = gs_session_open(st->cli, 1, &st->s, e);
    if (rc == GS_OK)
        rc = choose_devices(st, e);
    if (rc == GS_OK)
        rc = check_devices_fit(st, e);
    if (rc == GS_OK)
        rc = gs_outputs_add(&outs, st->cli->output, "--output", e);
    if (rc == GS_OK)
        failure = GS_CHECK_ERROR; /* from here on the harness's own, unless the build says */
    for (int i = 0; rc == GS_OK && i < st->ndevs; ++i)
        rc = run_device(st, st->devs[i], e);
    if (rc == GS_OK && st->nruns == 0)
        rc = gs_err_set(e, GS_NO_DEVICE, "no backend could run %s: %s", st->src->path,
                        st->nskipped ? st->skipped[0].why : "none builds its dialect");
    if (rc == GS_OK)
        rc = report(st, &outs, command, e);
    if (rc == GS_OK)
        print_notes(st);
    if (rc == GS_OK && st->printed)
        fprintf(stderr, "gridstride: note: the kernel printed %llu bytes; a kernel's output is "
                        "not shown (the report is the harness's alone)\n",
                (unsigned long long)st->printed);
    if (rc != GS_OK && st->cli->format == GS_FMT_JSON)
        failure_json(st, &outs, command, rc, e);
    gs_outputs_abort(&outs);
    gs_worker_prestart_end();
    const int ok = rc == GS_OK && gs_check_all_ok(st->runs, st->nruns);
    for (int i = 0; i < st->nruns; ++i)
        gs_check_run_free(&st->runs[i]);
    gs_build_info_free(&st->failed_build);
    gs_session_close(&st->s);
    return rc != GS_OK ? 2 : ok ? 0 : 1;
}

void gs_check_usage_json(const struct gs_user_source *src, enum gs_check_class cls,
                         const char *msg, const char *command, const char *output)
{
    struct gs_str text = {0};
    struct gs_err ignored = {0};
    const struct gs_check_failure_in in = {src, cls, msg, NULL, NULL, GS_VERSION_STRING, command};
    gs_report_check_failure(&in, &text);
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
    gs_escape_controls(shown_path, sizeof shown_path, file);
    const struct gs_user_source src = {shown_path, NULL, "solve", GS_DIALECT_PORTABLE};
    gs_check_usage_json(&src, GS_CHECK_BAD_USAGE, msg, "", NULL);
}

int gs_cmd_check(const struct gs_cli *cli, const char *command, struct gs_err *e)
{
    struct gs_user_source src = {0};
    char *text = NULL;
    int code = 2;
    int rc = outputs_not_inputs(cli, e);
    const int output_names_input = rc != GS_OK;
    if (rc == GS_OK)
        rc = load_source(cli, &src, &text, e);
    if (rc != GS_OK && cli->format == GS_FMT_JSON && !cli->compile_only) {
        if (!src.path) {
            gs_escape_controls(shown_path, sizeof shown_path, cli->file);
            src.path = shown_path;
            src.entry = cli->entry ? cli->entry : "solve";
        }
        gs_check_usage_json(&src, failure, e->msg, command,
                            output_names_input ? NULL : cli->output);
    }
    if (rc == GS_OK) {
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
