/* `gridstride [table]` and `gridstride --list`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gs_commands.h"
#include "gs_device.h"
#include "gs_output.h"
#include "gs_report.h"


uint64_t gs_host_memory(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    return (pages > 0 && page > 0) ? (uint64_t)pages * (uint64_t)page : 0;
}

int gs_check_limits(const struct gs_device *d, unsigned block, uint64_t grid,
                        const struct gs_shape *shapes, int nshapes, struct gs_err *e)
{
    if (block > d->max_block)
        return gs_err_set(e, GS_USAGE, "block %u%s exceeds the largest block of %s device %s (%u); "
                                       "choose --block 1 to %u",
                          block, block == GS_DEFAULT_BLOCK ? " (the default)" : "",
                          d->backend->name, d->name, d->max_block, d->max_block);
    if (grid > d->max_grid)
        return gs_err_set(e, GS_USAGE, "--grid %llu exceeds the largest grid of %s device %s (%llu)",
                          (unsigned long long)grid, d->backend->name, d->name,
                          (unsigned long long)d->max_grid);
    for (int i = 0; i < nshapes; ++i)
        if (shapes[i].block > d->max_block || shapes[i].grid > d->max_grid)
            return gs_err_set(e, GS_USAGE,
                              "--shape %llux%llu is beyond %s device %s (at most %llu blocks of %u "
                              "threads)",
                              (unsigned long long)shapes[i].grid,
                              (unsigned long long)shapes[i].block, d->backend->name, d->name,
                              (unsigned long long)d->max_grid, d->max_block);
    return GS_OK;
}

unsigned gs_host_buffers(struct gs_device *const *devs, int ndevs)
{
    /* A CPU device's buffers live in the same memory as the host's copies
     * (devices run one after another, so once). */
    for (int i = 0; i < ndevs; ++i)
        if (!devs[i]->is_gpu)
            return 7;
    return 4;
}

/* Every buffer must fit the device, and the four host copies the host. */
int gs_fits_memory(struct gs_device *const *devs, int ndevs, uint64_t max_n, struct gs_err *e)
{
    const uint64_t bytes = gs_table_buffer_bytes(max_n);
    const uint64_t host = gs_host_memory();
    for (int i = 0; i < ndevs; ++i) {
        const struct gs_device *d = devs[i];
        if (bytes > d->max_alloc || (d->global_mem && 3 * bytes > d->global_mem))
            return gs_err_set(e, GS_USAGE,
                              "n = %llu needs 3 buffers of %llu bytes, more than %s device %s can "
                              "allocate (%llu per buffer, %llu in all); choose a smaller n with "
                              "--sizes (or a smaller --grid or --block, which set the T + 1 row)",
                              (unsigned long long)max_n, (unsigned long long)bytes,
                              d->backend->name, d->name, (unsigned long long)d->max_alloc,
                              (unsigned long long)d->global_mem);
    }
    const unsigned buffers = gs_host_buffers(devs, ndevs);
    if (host && buffers * bytes > host / 2)
        return gs_err_set(e, GS_USAGE,
                          "n = %llu needs %u buffers of %llu bytes in this machine's memory, more "
                          "than half of its %llu bytes; choose a smaller n with --sizes (or a "
                          "smaller --grid or --block, which set the T + 1 row)",
                          (unsigned long long)max_n, buffers, (unsigned long long)bytes,
                          (unsigned long long)host);
    return GS_OK;
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

    /* Same rows for every device: the union of each one's default sizes. */
    for (int i = 0; i < s->ndevs; ++i) {
        uint64_t grid, dev_sizes[GS_MAX_SIZES];
        char rule[200];
        if (gs_check_limits(s->devs[i], plan.block, plan.grid, cli->shapes, cli->nshapes, e) != GS_OK)
            return 2;
        if (cli->nsizes)
            continue;
        if (gs_table_grid(s->devs[i], &plan, &grid, rule, sizeof rule, e) != GS_OK)
            return 2;
        const int k = gs_default_sizes(grid * plan.block, dev_sizes);
        nsizes = gs_sizes_merge(sizes, nsizes, dev_sizes, k);
        if (nsizes < 0) {
            gs_err_set(e, GS_USAGE, "too many distinct sizes across devices; pass --sizes");
            return 2;
        }
    }
    plan.sizes = sizes;
    plan.nsizes = nsizes;
    if (gs_fits_memory(s->devs, s->ndevs, nsizes ? sizes[nsizes - 1] : 0, e) != GS_OK)
        return 2;
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
    }
    const struct gs_report_in in = {(const struct gs_table *const *)tables, s->ndevs, &plan,
                                    GS_VERSION_STRING, command};
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

static void list_device(struct gs_device *d, unsigned block, struct gs_str *o)
{
    uint64_t grid = 0;
    char rule[200];
    struct gs_err e = {0};
    gs_str_printf(o, "  [%s] %s\n      %s | %s%s%s | %s\n", d->id, d->name, d->platform,
                  d->api_version, d->driver_version[0] ? " | driver " : "", d->driver_version,
                  d->arch);
    gs_str_printf(o, "      %u compute units, blocks up to %u threads, %.1f GiB, largest buffer %.1f GiB\n",
                  d->compute_units, d->max_block, (double)d->global_mem / (1u << 30),
                  (double)d->max_alloc / (1u << 30));
    if (block > d->max_block)
        gs_str_printf(o, "      block %u exceeds this device's limit\n", block);
    else if (gs_dev_grid(d, GS_K_ADD_GS, block, &grid, rule, sizeof rule, &e) == GS_OK)
        gs_str_printf(o, "      G = %llu blocks x %u threads, T = %llu (%s)\n",
                      (unsigned long long)grid, block, (unsigned long long)grid * block, rule);
    else
        gs_str_printf(o, "      G unknown: %s\n", e.msg);
}

int gs_cmd_list(const struct gs_cli *cli, struct gs_session *s, struct gs_err *e)
{
    struct gs_str text = {0};
    struct gs_outputs out = {0};
    const unsigned block = cli->block ? cli->block : GS_DEFAULT_BLOCK;
    int code = 2;
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
