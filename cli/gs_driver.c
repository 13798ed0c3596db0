/* SPDX-License-Identifier: MIT */
/* realpath() is XSI. */
#define _XOPEN_SOURCE 700

#include "gs_driver.h"

#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gs_output.h"
#include "gs_report_kit.h"
#include "gs_proc.h"
#include "gs_run.h"

double gs_seconds_since(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

/* ---- the files the suite ships ---------------------------------------------- */

static int regular_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

int gs_data_file(const char *rel, char *buf, size_t size)
{
    char exe[PATH_MAX];
    if ((size_t)snprintf(buf, size, "%s", rel) < size && regular_file(buf))
        return 1;
    const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return 0;
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (!slash)
        return 0;
    *slash = '\0'; /* the program's folder */
    const char *shared = strncmp(rel, "docs/", 5) == 0 ? rel + 5 : rel;
    char path[PATH_MAX], real[PATH_MAX];
    const int found = ((size_t)snprintf(path, sizeof path, "%s/../share/gridstride/%s", exe,
                                        shared) < sizeof path && regular_file(path)) ||
                      ((size_t)snprintf(path, sizeof path, "%s/../%s", exe, rel) < sizeof path &&
                       regular_file(path));
    /* Named without the "bin/.." a person would not type. */
    return found && realpath(path, real) && (size_t)snprintf(buf, size, "%s", real) < size;
}

unsigned gs_job_width(const struct gs_job *j)
{
    const char *columns = getenv("COLUMNS");
    struct winsize ws;
    if (j->cli->width)
        return j->cli->width;
    if (columns && columns[0]) { /* set on purpose: shells do not export it */
        char *end;
        const unsigned long v = strtoul(columns, &end, 10);
        if (!*end && v >= 40 && v < 100000)
            return (unsigned)v;
    }
    if (j->output || !isatty(STDOUT_FILENO) || ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) != 0 ||
        ws.ws_col == 0)
        return 80;
    return ws.ws_col > 100 ? 100 : ws.ws_col < 40 ? 40 : ws.ws_col;
}

/* ---- progress on stderr ----------------------------------------------------- */

/* Nothing in the first second. Then a phase of host-side work at most once
 * a second, as "gridstride: LABEL: PHASE P%"; each finished step, as
 * "COMMAND: BACKEND K/N RESULT". */
struct stderr_progress {
    const char *prefix;
    struct timespec start, last;
};

static void show_progress(void *ctx, const struct gs_progress_event *ev)
{
    struct stderr_progress *p = ctx;
    if (gs_seconds_since(&p->start) < 1.0)
        return;
    if (!ev->phase) {
        fprintf(stderr, "%s: %s %llu/%llu %s\n", p->prefix, ev->label,
                (unsigned long long)ev->done, (unsigned long long)ev->total,
                ev->result ? ev->result : "");
        return;
    }
    if (gs_seconds_since(&p->last) < 1.0)
        return;
    clock_gettime(CLOCK_MONOTONIC, &p->last);
    fprintf(stderr, "gridstride: %s: %s %.0f%%\n", ev->label, ev->phase,
            ev->total ? 100.0 * (double)ev->done / (double)ev->total : 100.0);
}

void gs_job_text_render(const struct gs_job *j, enum gs_format f, int chart, struct gs_str *out)
{
    const struct gs_str *text = j->ctx;
    (void)f;
    (void)chart;
    gs_str_printf(out, "%s", text->data ? text->data : "");
}

void gs_job_text_release(struct gs_job *j)
{
    gs_str_free(j->ctx);
}

/* ---- the commands ------------------------------------------------------------ */

const struct gs_command *gs_command_of(const struct gs_cli *cli)
{
    switch (cli->mode) {
    case GS_MODE_BANDWIDTH: return &gs_bandwidth_command;
    case GS_MODE_SWEEP: return &gs_sweep_command;
    case GS_MODE_SPREAD: return &gs_spread_command;
    case GS_MODE_PITFALLS: return &gs_pitfalls_command;
    case GS_MODE_TRACE: return &gs_trace_command;
    case GS_MODE_CHECK: return &gs_check_command;
    case GS_MODE_LIST: return cli->ctest_resources ? &gs_resources_command : &gs_list_command;
    case GS_MODE_COMPARE: return &gs_compare_command;
    case GS_MODE_LECTURE: return &gs_lecture_command;
    default: return &gs_table_command;
    }
}

/* ---- the loop ------------------------------------------------------------------ */

void *gs_job_slot(const struct gs_job *j, int i)
{
    return j->runs + (size_t)i * j->cmd->run_size;
}

void gs_job_note_copies(const struct gs_job *j, int i, const struct gs_copy_rate *c)
{
    char line[300];
    if (gs_copy_rate_line(c, 1ull << 30, line, sizeof line))
        fprintf(stderr, "gridstride: %s %s: %s\n", j->devs[i]->backend->name, j->devs[i]->name,
                line);
}

static void free_slot(const struct gs_job *j, int i)
{
    if (j->cmd->free_run)
        j->cmd->free_run(gs_job_slot(j, i));
    memset(gs_job_slot(j, i), 0, j->cmd->run_size);
}

/* One device's run, in a thread of its own (GS_CMD_PARALLEL). */
struct device_run {
    struct gs_job *j;
    int i, rc;
    struct gs_err e;
};

static void *device_thread(void *arg)
{
    struct device_run *r = arg;
    r->rc = r->j->cmd->run(r->j, r->i, gs_job_slot(r->j, r->i), &r->e);
    return NULL;
}

/* Under GS_CMD_PARALLEL, every device's run at once, device i into slot i.
 * A thread that cannot start runs its device here, after the others have
 * started (a run may wait for the others: gs_turns.h). */
static void run_side_by_side(struct gs_job *j, struct device_run *runs)
{
    pthread_t threads[GS_MAX_DEVICES];
    int started[GS_MAX_DEVICES];
    for (int i = 0; i < j->ndevs; ++i) {
        runs[i] = (struct device_run){j, i, GS_OK, {0}};
        started[i] = pthread_create(&threads[i], NULL, device_thread, &runs[i]) == 0;
    }
    for (int i = 0; i < j->ndevs; ++i)
        if (!started[i])
            device_thread(&runs[i]);
    for (int i = 0; i < j->ndevs; ++i)
        if (started[i])
            pthread_join(threads[i], NULL);
}

/* Every device select kept, in turn (or side by side), each outcome settled
 * in the devices' order; the kept slots packed from 0. A failure names the
 * device unless the command's own message already does. */
static int run_devices(struct gs_job *j, struct gs_err *e)
{
    const struct gs_command *c = j->cmd;
    struct device_run *runs = NULL;
    const int parallel = (c->flags & GS_CMD_PARALLEL) && j->ndevs > 1;
    if (parallel && !(runs = calloc((size_t)j->ndevs, sizeof *runs)))
        return gs_err_set(e, GS_NOMEM, "out of memory");
    if (parallel)
        run_side_by_side(j, runs);
    int rc = GS_OK;
    for (int i = 0; i < j->ndevs; ++i) {
        const int at = parallel ? i : j->ndone; /* the slot the run filled */
        struct gs_err *ei = parallel ? &runs[i].e : e;
        rc = parallel ? runs[i].rc : c->run(j, i, gs_job_slot(j, at), e);
        if (c->settle)
            rc = c->settle(j, i, gs_job_slot(j, at), rc, ei);
        if (rc == GS_OK) {
            if (at != j->ndone) { /* slots below `at` were moved or freed */
                memcpy(gs_job_slot(j, j->ndone), gs_job_slot(j, at), c->run_size);
                memset(gs_job_slot(j, at), 0, c->run_size);
            }
            j->done[j->ndone] = gs_job_slot(j, j->ndone);
            ++j->ndone;
            continue;
        }
        free_slot(j, at);
        if (rc == GS_DRIVE_SKIP) {
            rc = GS_OK;
            continue;
        }
        if (parallel)
            *e = *ei;
        if (!(c->bare_errors >> rc & 1u)) {
            char msg[sizeof e->msg];
            gs_strlcpy(msg, e->msg, sizeof msg);
            gs_err_set(e, rc, "%s device %s: %s", j->devs[i]->backend->name, j->devs[i]->name,
                       msg);
        }
        /* The devices after it ran side by side; their results are dropped. */
        for (int k = i + 1; parallel && k < j->ndevs; ++k)
            free_slot(j, k);
        break;
    }
    free(runs);
    return rc;
}

/* The texts in the order of the outputs: report, --svg, --json. */
static int write_outputs(struct gs_job *j, struct gs_outputs *out, struct gs_err *e)
{
    const struct gs_command *c = j->cmd;
    struct gs_str text = {0}, chart = {0}, js = {0};
    /* The command line took --svg and --json only where the command has them. */
    const int svg = j->cli->svg != NULL;
    const int json = j->cli->json != NULL;
    c->render(j, j->cli->format, 0, &text);
    if (j->cli->format == GS_FMT_TEXT && !(c->flags & GS_CMD_NO_WRAP) && text.data) {
        struct gs_str wrapped = {0};
        gs_text_wrap(text.data, gs_job_width(j), &wrapped);
        gs_str_free(&text);
        text = wrapped;
    }
    if (svg)
        c->render(j, GS_FMT_TEXT, 1, &chart);
    if (json)
        c->render(j, GS_FMT_JSON, 0, &js);
    const int rc = gs_outputs_commit_report(out, &text, svg ? &chart : NULL, json ? &js : NULL,
                                            e);
    gs_str_free(&text);
    gs_str_free(&chart);
    gs_str_free(&js);
    return rc;
}

static int failed(const struct gs_job *j)
{
    int n = j->cmd->failed ? j->cmd->failed(j) : 0;
    for (int i = 0; j->cmd->failures && i < j->ndone; ++i)
        n += j->cmd->failures(j->done[i]) != 0;
    return n;
}

static int job_opens(const void *ctx, const struct gs_backend *b)
{
    const struct gs_job *j = ctx;
    return j->cmd->opens(j, b);
}

static int drive(struct gs_job *j, struct stderr_progress *prog, struct gs_err *e)
{
    const struct gs_command *c = j->cmd;
    const struct gs_cli *cli = j->cli;
    struct gs_outputs out = {0};
    int rc = c->prepare ? c->prepare(j, e) : GS_OK;
    if (rc != GS_OK || j->finished)
        return rc;
    if (!(c->flags & GS_CMD_NO_SESSION)) {
        rc = gs_session_open(cli, !(c->flags & GS_CMD_NO_DEVICES), c->opens ? job_opens : NULL,
                             j, &j->s, e);
        for (int i = 0; rc == GS_OK && i < j->s.ndevs; ++i)
            j->devs[j->ndevs++] = j->s.devs[i];
    }
    if (rc == GS_OK && c->select)
        rc = c->select(j, e);
    if (rc == GS_OK && c->plan)
        rc = c->plan(j, e);
    if (rc == GS_OK)
        rc = gs_outputs_add_report(&out, j->output, cli->svg, cli->json, e);
    clock_gettime(CLOCK_MONOTONIC, &prog->start);
    prog->last = prog->start;
    if (rc == GS_OK && c->run)
        rc = run_devices(j, e);
    gs_utc_now(j->date, sizeof j->date);
    if (rc == GS_OK && c->finish)
        rc = c->finish(j, e);
    if (rc == GS_OK)
        rc = write_outputs(j, &out, e);
    gs_outputs_abort(&out);
    return rc;
}

/* GS_CMD_PRIVATE_TMPDIR: TMPDIR becomes a fresh folder under it (the signal
 * cleanup removes it too); *old keeps the value to put back. */
static int private_tmpdir(char *dir, size_t size, char **old, struct gs_err *e)
{
    const char *cur = getenv("TMPDIR");
    *old = NULL;
    if (cur && !(*old = strdup(cur)))
        return gs_err_set(e, GS_NOMEM, "out of memory");
    gs_proc_install_cleanup();
    const int rc = gs_proc_private_dir(dir, size, -1, e);
    if (rc == GS_OK && setenv("TMPDIR", dir, 1) != 0) {
        gs_proc_remove_dir(dir);
        return gs_err_set(e, GS_NOMEM, "out of memory setting TMPDIR");
    }
    if (rc != GS_OK)
        dir[0] = '\0';
    return rc;
}

static void restore_tmpdir(char *dir, char *old)
{
    if (dir[0]) {
        gs_proc_remove_dir(dir);
        if (old)
            setenv("TMPDIR", old, 1);
        else
            unsetenv("TMPDIR");
    }
    free(old);
}

int gs_drive(const struct gs_command *c, const struct gs_cli *cli, const char *command,
             struct gs_err *e)
{
    char tmpdir[PATH_MAX] = "";
    char *old_tmpdir = NULL;
    struct stderr_progress prog = {c->name, {0, 0}, {0, 0}};
    const struct gs_progress progress = {show_progress, &prog};
    struct gs_job *j = calloc(1, sizeof *j);
    int code = 2;
    if (j) {
        j->runs = calloc(GS_MAX_DEVICES, c->run_size ? c->run_size : 1);
        j->ctx = c->ctx_size ? calloc(1, c->ctx_size) : NULL;
    }
    if (!j || !j->runs || (c->ctx_size && !j->ctx)) {
        gs_err_set(e, GS_NOMEM, "out of memory");
    } else {
        j->cmd = c;
        j->cli = cli;
        j->command = command;
        j->output = cli->output;
        j->progress = cli->quiet ? NULL : &progress;
        int rc = c->flags & GS_CMD_PRIVATE_TMPDIR
                     ? private_tmpdir(tmpdir, sizeof tmpdir, &old_tmpdir, e)
                     : GS_OK;
        if (rc == GS_OK)
            rc = drive(j, &prog, e);
        code = rc != GS_OK ? 2 : j->finished ? j->code : failed(j) ? 1 : 0;
        if (rc != GS_OK && c->failure)
            c->failure(j, rc, e);
        /* A run also says what it skipped; a failure's one line says it all. */
        for (int i = 0; code != 2 && i < j->s.nnotes; ++i)
            fprintf(stderr, "gridstride: note: %s\n", j->s.notes[i]);
        for (int i = 0; i < GS_MAX_DEVICES; ++i) /* a free of an unused slot does nothing */
            free_slot(j, i);
        if (c->release)
            c->release(j);
        gs_session_close(&j->s);
        /* Workers killed without a wait (gs_proc_kill_later) end while the
         * APIs above close; reaped here, before their folders go. */
        gs_proc_reap_later();
    }
    restore_tmpdir(tmpdir, old_tmpdir);
    if (j) {
        free(j->runs);
        free(j->ctx);
    }
    free(j);
    return code;
}
