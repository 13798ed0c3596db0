/* SPDX-License-Identifier: MIT */
/* `gridstride [table]` and `gridstride --list`. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "gs_device.h"
#include "gs_driver.h"
#include "gs_plan_run.h"
#include "gs_report_kit.h"
#include "gs_results.h"
#include "gs_table_report.h"
#include "gs_run.h"

/* ---- the table ---------------------------------------------------------- */

struct table_ctx {
    struct gs_table_setup setup;
    struct gs_grid_choice grids[GS_MAX_DEVICES];
};

static int table_plan(struct gs_job *j, struct gs_err *e)
{
    struct table_ctx *t = j->ctx;
    const struct gs_cli *cli = j->cli;
    const struct gs_table_request req = {cli->block, cli->grid,    cli->columns, cli->sizes,
                                         cli->nsizes, cli->shapes, cli->nshapes};
    const int rc = gs_plan_table(j->devs, j->ndevs, &req, &t->setup, t->grids, e);
    t->setup.plan.progress = j->progress;
    return rc;
}

/* One device; a run that moved 1 GiB or more also says, on stderr, the
 * host-device copy rate it measured: its floor beside its time. */
static int table_run(struct gs_job *j, int i, void *run, struct gs_err *e)
{
    struct table_ctx *t = j->ctx;
    struct gs_table **table = run;
    const int rc = gs_table_run_at(j->devs[i], &t->setup.plan, &t->grids[i], table, e);
    if (rc == GS_OK)
        gs_job_note_copies(j, i, &(*table)->copies);
    return rc;
}

static void table_free(void *run)
{
    gs_table_free(*(struct gs_table **)run);
}

static int table_failures(const void *run)
{
    return (*(struct gs_table *const *)run)->failed;
}

/* A terminal's part of the text report: colour when the report goes to
 * a terminal and NO_COLOR is not set (https://no-color.org); the width
 * every text report has (gs_job_width), past which the backends' tables
 * go one after another. */
static void terminal_of(const struct gs_job *j, enum gs_format f, int *colour, unsigned *width)
{
    const char *no_color = getenv("NO_COLOR");
    const int tty = f == GS_FMT_TEXT && !j->output && isatty(STDOUT_FILENO);
    *colour = tty && !(no_color && no_color[0]);
    *width = f == GS_FMT_TEXT ? gs_job_width(j) : 0;
}

static void table_report(const struct gs_job *j, enum gs_format f, int chart, struct gs_str *out)
{
    const struct table_ctx *t = j->ctx;
    const struct gs_table *tables[GS_MAX_DEVICES];
    (void)chart;
    for (int i = 0; i < j->ndone; ++i)
        tables[i] = *(struct gs_table *const *)j->done[i];
    struct gs_table_report_in in = {tables, j->ndone, &t->setup.plan, GS_VERSION_STRING,
                                    j->command, j->date, GS_TOOLKIT, 0, 0};
    terminal_of(j, f, &in.colour, &in.width);
    gs_table_report(&in, f, out);
}

const struct gs_command gs_table_command = {
    .name = "table", .ctx_size = sizeof(struct table_ctx), .run_size = sizeof(struct gs_table *),
    .plan = table_plan, .run = table_run, .free_run = table_free, .failures = table_failures,
    .render = table_report,
};

/* ---- --list ----------------------------------------------------------------- */

/* G and T, and what the runtime grants for <<<G, block>>> where it lowers
 * the launch it is asked for. */
static void list_grid(struct gs_device *d, uint64_t grid, unsigned block, const char *rule,
                      struct gs_str *o)
{
    struct gs_launch l = gs_launch_1d(GS_K_ADD_GS, 0, grid, block);
    struct gs_err e = {0};
    gs_str_printf(o, "      G = %llu blocks x %u threads, T = %llu (%s)\n",
                  (unsigned long long)grid, block, (unsigned long long)grid * block, rule);
    if (gs_dev_grant(d, &l, &e) != GS_OK)
        gs_str_printf(o, "      grant unknown: %s\n", e.msg);
    else if (l.asked_grid)
        gs_str_printf(o, "      granted: %llu x %llu = %llu threads for <<<%llu, %u>>> (measured "
                         "by a launch that only reads its shape)\n",
                      (unsigned long long)l.grid, (unsigned long long)l.block,
                      (unsigned long long)l.global, (unsigned long long)grid, block);
}

static void list_device(struct gs_device *d, unsigned block, struct gs_str *o)
{
    uint64_t grid = 0;
    char rule[200];
    struct gs_err e = {0};
    gs_str_printf(o, "  [%s] %s\n      %s | %s%s%s | %s\n", d->id, d->name, d->platform,
                  d->api_version, d->driver_version[0] ? " | driver " : "", d->driver_version,
                  d->arch);
    gs_str_printf(o, "      %u compute units, blocks up to %u threads, %.1f GiB, largest buffer %.1f GiB%s%s\n",
                  d->compute_units, d->max_block, (double)d->global_mem / (1u << 30),
                  (double)d->max_alloc / (1u << 30), d->pci[0] ? ", PCI " : "", d->pci);
    if (block > d->max_block)
        gs_str_printf(o, "      block %u exceeds this device's limit\n", block);
    else if (gs_dev_grid(d, GS_K_ADD_GS, block, &grid, rule, sizeof rule, &e) == GS_OK)
        list_grid(d, grid, block, rule, o);
    else
        gs_str_printf(o, "      G unknown: %s\n", e.msg);
    if (d->no_bandwidth[0])
        gs_str_printf(o, "      not in `bandwidth`: %s\n", d->no_bandwidth);
    const struct gs_grid_probe *probe;
    char line[512];
    if (gs_dev_probe_grid(d, &probe, &e) != GS_OK)
        gs_str_printf(o, "      grid probe failed: %s\n", e.msg);
    else if (probe->status == GS_OK) {
        gs_probe_line(d, line, sizeof line);
        gs_str_printf(o, "      grid probe: %s\n", line);
    }
}

/* --list --format json: the same facts, docs/schema/list.schema.json. */
static void list_json_device(struct gs_jw *w, struct gs_device *d, unsigned block)
{
    uint64_t grid = 0;
    char rule[200], line[512];
    struct gs_err e = {0};
    gs_jw_space(w, "\n      ");
    gs_jw_object(w, NULL);
    gs_jw_str(w, "id", d->id);
    gs_jw_str(w, "device", d->name);
    gs_jw_str(w, "platform", d->platform);
    gs_jw_str(w, "api_version", d->api_version);
    gs_jw_str(w, "driver_version", d->driver_version);
    gs_jw_str(w, "arch", d->arch);
    gs_jw_str(w, "pci", d->pci);
    gs_jw_u64(w, "compute_units", d->compute_units);
    gs_jw_u64(w, "max_block", d->max_block);
    gs_jw_u64(w, "global_mem", d->global_mem);
    gs_jw_u64(w, "max_alloc", d->max_alloc);
    gs_jw_u64(w, "block", block);
    if (block <= d->max_block && gs_dev_grid(d, GS_K_ADD_GS, block, &grid, rule, sizeof rule, &e) == GS_OK) {
        gs_jw_u64(w, "G", grid);
        gs_jw_u64(w, "T", grid * block);
        gs_jw_str(w, "grid_rule", rule);
    } else {
        gs_jw_null(w, "G");
        gs_jw_null(w, "T");
        gs_jw_str(w, "grid_rule", block > d->max_block ? "block exceeds this device's limit" : e.msg);
    }
    if (d->no_bandwidth[0])
        gs_jw_str(w, "not_in_bandwidth", d->no_bandwidth);
    else
        gs_jw_null(w, "not_in_bandwidth");
    const struct gs_grid_probe *probe;
    if (gs_dev_probe_grid(d, &probe, &e) == GS_OK && probe->status == GS_OK) {
        gs_probe_line(d, line, sizeof line);
        gs_jw_str(w, "grid_probe", line);
    } else {
        gs_jw_null(w, "grid_probe");
    }
    gs_jw_end(w, "");
}

static void list_json(const struct gs_job *j, unsigned block, struct gs_str *text)
{
    struct gs_jw w;
    const struct gs_run_info run = {GS_VERSION_STRING, j->command, j->date, GS_TOOLKIT};
    gs_jw_init(&w, text);
    gs_report_header(&w, GS_LIST_SCHEMA, GS_REPORT_SCHEMA_VERSION, "list", &run);
    gs_jw_space(&w, "\n  ");
    gs_jw_array(&w, "backends");
    for (int i = 0; i < j->s.nopened; ++i) {
        const struct gs_opened *o = &j->s.opened[i];
        gs_jw_space(&w, "\n    ");
        gs_jw_object(&w, NULL);
        gs_jw_str(&w, "backend", o->backend->name);
        gs_jw_str(&w, "description", o->backend->description);
        if (o->notice[0])
            gs_jw_str(&w, "warning", o->notice);
        else
            gs_jw_null(&w, "warning");
        if (o->status != GS_OK)
            gs_jw_str(&w, "no_device", o->err.msg);
        else
            gs_jw_null(&w, "no_device");
        gs_jw_array(&w, "devices");
        for (int d = 0; o->status == GS_OK && d < o->count; ++d)
            list_json_device(&w, o->devs[d], block);
        gs_jw_end(&w, o->status == GS_OK && o->count ? "\n    " : "");
        gs_jw_end(&w, "");
    }
    gs_jw_end(&w, "\n  ");
    gs_jw_end(&w, "\n");
}

static void list_report(const struct gs_job *j, enum gs_format f, int chart, struct gs_str *text)
{
    const unsigned block = j->cli->block ? j->cli->block : GS_DEFAULT_BLOCK;
    (void)chart;
    if (f == GS_FMT_JSON) {
        list_json(j, block, text);
        return;
    }
    for (int i = 0; i < j->s.nopened; ++i) {
        const struct gs_opened *o = &j->s.opened[i];
        gs_str_printf(text, "%s: %s\n", o->backend->name, o->backend->description);
        if (o->notice[0])
            gs_str_printf(text, "  WARNING: %s\n", o->notice);
        if (o->status != GS_OK) {
            gs_str_printf(text, "  no device: %s\n", o->err.msg);
            continue;
        }
        for (int d = 0; d < o->count; ++d)
            list_device(o->devs[d], block, text);
    }
}

const struct gs_command gs_list_command = {
    .name = "list", .flags = GS_CMD_NO_DEVICES, .render = list_report,
};
