/* SPDX-License-Identifier: MIT */
/* `gridstride [table]` and `gridstride --list`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gs_commands.h"
#include "gs_device.h"
#include "gs_memory.h"
#include "gs_output.h"
#include "gs_report.h"
#include "gs_run.h"


int gs_check_limits(const struct gs_device *d, unsigned block, uint64_t grid,
                    const struct gs_shape *shapes, int nshapes, struct gs_err *e)
{
    if (block > d->max_block)
        return gs_err_set(e, GS_USAGE, "block %u%s exceeds the largest block of %s device %s (%u); "
                                       "choose --block 1 to %u",
                          block, block == GS_DEFAULT_BLOCK ? " (the default)" : "",
                          d->backend->name, d->name, d->max_block, d->max_block);
    if (grid > d->max_grid)
        return gs_err_set(e, GS_USAGE, "--grid %llu exceeds the largest grid of %s device %s (%llu); "
                                       "choose a smaller --grid",
                          (unsigned long long)grid, d->backend->name, d->name,
                          (unsigned long long)d->max_grid);
    for (int i = 0; i < nshapes; ++i)
        if (shapes[i].block > d->max_block || shapes[i].grid > d->max_grid)
            return gs_err_set(e, GS_USAGE,
                              "--shape %llux%llu is beyond %s device %s (at most %llu blocks of %u "
                              "threads); choose a smaller shape",
                              (unsigned long long)shapes[i].grid,
                              (unsigned long long)shapes[i].block, d->backend->name, d->name,
                              (unsigned long long)d->max_grid, d->max_block);
    return GS_OK;
}

/* Whether some device could take a launch of `grid` x `block` at all (its
 * own maxima, not the limits it reports for the kernels): a shape beyond one
 * API's limit is that API's predicted refusal in the table, and only input
 * that no selected device could ever run is bad usage. */
static int some_device_takes(struct gs_device *const *devs, int ndevs, uint64_t grid,
                             uint64_t block)
{
    for (int i = 0; i < ndevs; ++i)
        if (block >= 1 && block <= devs[i]->max_block_device && grid <= devs[i]->max_grid)
            return 1;
    return 0;
}

static void largest(struct gs_device *const *devs, int ndevs, unsigned *block, uint64_t *grid)
{
    *block = 0;
    *grid = 0;
    for (int i = 0; i < ndevs; ++i) {
        if (devs[i]->max_block_device > *block)
            *block = devs[i]->max_block_device;
        if (devs[i]->max_grid > *grid)
            *grid = devs[i]->max_grid;
    }
}

static int check_usable(struct gs_device *const *devs, int ndevs, const struct gs_plan *plan,
                        const struct gs_cli *cli, struct gs_err *e)
{
    unsigned max_block;
    uint64_t max_grid;
    largest(devs, ndevs, &max_block, &max_grid);
    if (plan->grid > max_grid)
        return gs_err_set(e, GS_USAGE,
                          "--grid %llu is beyond every selected device (at most %llu blocks); "
                          "choose a smaller grid",
                          (unsigned long long)plan->grid, (unsigned long long)max_grid);
    if (!some_device_takes(devs, ndevs, 0, plan->block))
        return gs_err_set(e, GS_USAGE,
                          "block %u%s is beyond every selected device (at most %u threads); "
                          "choose --block 1 to %u",
                          plan->block, cli->block ? "" : " (the default)", max_block, max_block);
    for (int i = 0; i < cli->nshapes; ++i)
        if (!some_device_takes(devs, ndevs, cli->shapes[i].grid, cli->shapes[i].block))
            return gs_err_set(e, GS_USAGE,
                              "--shape %llux%llu is beyond every selected device (at most %llu "
                              "blocks of %u threads); choose a smaller shape",
                              (unsigned long long)cli->shapes[i].grid,
                              (unsigned long long)cli->shapes[i].block,
                              (unsigned long long)max_grid, max_block);
    return GS_OK;
}

double gs_seconds_since(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

void gs_stderr_progress_start(struct gs_stderr_progress *p)
{
    clock_gettime(CLOCK_MONOTONIC, &p->start);
    p->last = p->start;
}

void gs_stderr_progress(void *ctx, const char *label, const char *phase, uint64_t done,
                        uint64_t total)
{
    struct gs_stderr_progress *p = ctx;
    if (gs_seconds_since(&p->start) < 1.0 || gs_seconds_since(&p->last) < 1.0)
        return;
    clock_gettime(CLOCK_MONOTONIC, &p->last);
    fprintf(stderr, "gridstride: %s: %s %.0f%%\n", label, phase,
            total ? 100.0 * (double)done / (double)total : 100.0);
}

int gs_cmd_table(const struct gs_cli *cli, struct gs_session *s, const char *command,
                 struct gs_err *e)
{
    struct gs_table *tables[GS_MAX_DEVICES] = {0};
    struct gs_shape shapes[GS_MAX_SHAPES];
    uint64_t sizes[GS_MAX_SIZES];
    int nsizes = cli->nsizes, code = 2;
    struct gs_outputs out = {0};
    struct gs_str text = {0};
    struct gs_plan plan = {0};

    plan.block = cli->block ? cli->block : GS_DEFAULT_BLOCK;
    plan.grid = cli->grid;
    plan.columns = cli->columns;
    if (cli->nshapes) {
        memcpy(shapes, cli->shapes, sizeof shapes);
        plan.nshapes = cli->nshapes;
    } else {
        plan.nshapes = gs_default_shapes(0, plan.block, shapes); /* grid 0 = each device's G */
    }
    plan.shapes = shapes;
    memcpy(sizes, cli->sizes, sizeof sizes);

    if (check_usable(s->devs, s->ndevs, &plan, cli, e) != GS_OK)
        return 2;
    /* Same rows for every device: the union of each one's default sizes. */
    for (int i = 0; i < s->ndevs && !cli->nsizes; ++i) {
        uint64_t grid, dev_sizes[GS_MAX_SIZES];
        int fallback;
        char rule[200];
        if (gs_table_grid(s->devs[i], &plan, &grid, &fallback, rule, sizeof rule, e) != GS_OK)
            return 2;
        if (fallback)
            continue; /* a stand-in G sets no rows */
        const int k = gs_default_sizes(grid * plan.block, dev_sizes);
        nsizes = gs_sizes_merge(sizes, nsizes, dev_sizes, k);
        if (nsizes < 0) {
            gs_err_set(e, GS_USAGE, "too many distinct sizes across devices; pass --sizes");
            return 2;
        }
    }
    plan.sizes = sizes;
    plan.nsizes = nsizes;
    for (int i = 0; i < s->ndevs; ++i)
        if (gs_memory_preflight(s->devs[i], gs_table_max_n(&plan), e) != GS_OK)
            return 2;
    struct gs_stderr_progress prog;
    const struct gs_progress progress = {gs_stderr_progress, &prog};
    gs_stderr_progress_start(&prog);
    plan.progress = &progress;
    if (gs_outputs_add(&out, cli->output, "--output", e) != GS_OK) {
        gs_outputs_abort(&out);
        return 2;
    }

    int failed = 0;
    for (int i = 0; i < s->ndevs; ++i) {
        if (gs_table_run(s->devs[i], &plan, &tables[i], e) != GS_OK) {
            char msg[sizeof e->msg];
            gs_strlcpy(msg, e->msg, sizeof msg);
            gs_err_set(e, e->status, "%s device %s: %s", s->devs[i]->backend->name,
                       s->devs[i]->name, msg);
            goto done;
        }
        failed += tables[i]->failed;
        char copies[300];
        if (gs_copy_rate_line(&tables[i]->copies, 1ull << 30, copies, sizeof copies))
            fprintf(stderr, "gridstride: %s %s: %s\n", s->devs[i]->backend->name,
                    s->devs[i]->name, copies);
    }
    char date[32];
    gs_utc_now(date, sizeof date);
    const struct gs_report_in in = {(const struct gs_table *const *)tables, s->ndevs, &plan,
                                    GS_VERSION_STRING, command, date, GS_TOOLKIT};
    gs_report_table(&in, cli->format, &text);
    const struct gs_str *texts[] = {&text};
    if (gs_outputs_commit(&out, texts, e) != GS_OK)
        goto done;
    code = failed ? 1 : 0;
done:
    gs_outputs_abort(&out);
    gs_str_free(&text);
    for (int i = 0; i < s->ndevs; ++i)
        gs_table_free(tables[i]);
    return code;
}

/* G and T, and what the runtime grants for <<<G, block>>> where it lowers
 * the launch it is asked for. */
static void list_grid(struct gs_device *d, uint64_t grid, unsigned block, const char *rule,
                      struct gs_str *o)
{
    struct gs_launch l = {.kernel = GS_K_ADD_GS, .grid = grid, .block = block,
                          .global = grid * block};
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

int gs_cmd_list(const struct gs_cli *cli, struct gs_session *s, struct gs_err *e)
{
    struct gs_str text = {0};
    struct gs_outputs out = {0};
    const unsigned block = cli->block ? cli->block : GS_DEFAULT_BLOCK;
    int code = 2;
    if (cli->ctest_resources)
        return gs_cmd_ctest_resources(cli, s, e);
    if (gs_outputs_add(&out, cli->output, "--output", e) != GS_OK) {
        gs_outputs_abort(&out);
        return 2;
    }
    for (int i = 0; i < s->nopened; ++i) {
        const struct gs_opened *o = &s->opened[i];
        gs_str_printf(&text, "%s: %s\n", o->backend->name, o->backend->description);
        if (o->notice[0])
            gs_str_printf(&text, "  WARNING: %s\n", o->notice);
        if (o->status != GS_OK) {
            gs_str_printf(&text, "  no device: %s\n", o->err.msg);
            continue;
        }
        for (int d = 0; d < o->count; ++d)
            list_device(o->devs[d], block, &text);
    }
    const struct gs_str *texts[] = {&text};
    if (gs_outputs_commit(&out, texts, e) == GS_OK)
        code = 0;
    gs_str_free(&text);
    return code;
}
