/* SPDX-License-Identifier: MIT */
#include "gs_fleet.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gs_compare.h"
#include "gs_json_read.h"

static const char *const metric_names[GS_FLEET_METRICS] = {"best add", "grid-stride add",
                                                           "chunked copy", "API copy"};

const char *gs_fleet_metric_name(enum gs_fleet_metric m)
{
    return (unsigned)m < GS_FLEET_METRICS ? metric_names[m] : "?";
}

void gs_fleet_init(struct gs_fleet *f, double k)
{
    memset(f, 0, sizeof *f);
    f->k = k;
}

void gs_fleet_free(struct gs_fleet *f)
{
    free(f->gpus);
    free(f->groups);
    memset(f, 0, sizeof *f);
}

void gs_fleet_node_of(const char *path, char *node, unsigned size)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t len = strcspn(base, ".");
    if (len == 0) /* ".json": no name before the dot; the whole name then */
        len = strlen(base);
    if (len >= size)
        len = size - 1;
    memcpy(node, base, len);
    node[len] = '\0';
}

static void copy(char *dst, size_t size, const char *src)
{
    snprintf(dst, size, "%s", src ? src : "");
}

/* The GPU of node/backend/id, added when new; *fresh says which. */
static struct gs_fleet_gpu *gpu_of(struct gs_fleet *f, const char *node, const struct gs_json *d,
                                   int *fresh, struct gs_err *e)
{
    const char *backend = gs_json_str(d, "backend", ""), *id = gs_json_str(d, "id", "");
    for (int i = 0; i < f->ngpus; ++i) {
        struct gs_fleet_gpu *g = &f->gpus[i];
        if (strcmp(g->node, node) == 0 && strcmp(g->backend, backend) == 0 &&
            strcmp(g->id, id) == 0) {
            *fresh = 0;
            return g;
        }
    }
    if (f->ngpus == f->cap) {
        const int cap = f->cap ? 2 * f->cap : 64;
        struct gs_fleet_gpu *grown = realloc(f->gpus, (size_t)cap * sizeof *grown);
        if (!grown) {
            gs_err_set(e, GS_NOMEM, "out of memory for %d GPUs", cap);
            return NULL;
        }
        f->gpus = grown;
        f->cap = cap;
    }
    struct gs_fleet_gpu *g = &f->gpus[f->ngpus++];
    memset(g, 0, sizeof *g);
    copy(g->node, sizeof g->node, node);
    copy(g->backend, sizeof g->backend, backend);
    copy(g->id, sizeof g->id, id);
    copy(g->device, sizeof g->device, gs_json_str(d, "device", ""));
    *fresh = 1;
    return g;
}

static int duplicate(struct gs_err *e, const struct gs_fleet_gpu *g, const char *earlier,
                     const char *path)
{
    return gs_err_set(e, GS_USAGE, "%s and %s both give node %s's %s device %s; give one file "
                                   "of each mode per node, named NODE.table.json and "
                                   "NODE.bandwidth.json", earlier, path, g->node, g->backend,
                      g->id);
}

static void table_device(struct gs_fleet_gpu *g, const struct gs_json *d)
{
    const struct gs_json *cases = gs_json_get(d, "cases");
    g->cases = (uint64_t)cases->count;
    for (int k = 0; k < cases->count; ++k)
        if (!gs_json_bool(gs_json_at(cases, k), "held", 0))
            ++g->failed;
}

static void bandwidth_run(struct gs_fleet_gpu *g, const struct gs_json *run)
{
    static const char *const kernels[GS_FLEET_METRICS] = {NULL, "grid-stride", "copy-chunked",
                                                          "api-copy"};
    const struct gs_json *rows = gs_json_get(run, "rows");
    for (int k = 0; k < rows->count; ++k) {
        const struct gs_json *r = gs_json_at(rows, k);
        double gbps;
        if (!gs_json_bool(r, "verified", 0)) {
            ++g->unverified;
            continue;
        }
        if (!gs_json_num(r, "gbps", &gbps))
            continue;
        if (strncmp(gs_json_str(r, "variant", ""), "add", 3) == 0 &&
            (!g->has[GS_FLEET_BEST_ADD] || gbps > g->gbps[GS_FLEET_BEST_ADD])) {
            g->has[GS_FLEET_BEST_ADD] = 1;
            g->gbps[GS_FLEET_BEST_ADD] = gbps;
        }
        for (int m = 1; m < GS_FLEET_METRICS; ++m)
            if (!g->has[m] && strcmp(gs_json_str(r, "kernel", ""), kernels[m]) == 0) {
                g->has[m] = 1;
                g->gbps[m] = gbps;
            }
    }
}

int gs_fleet_add_file(struct gs_fleet *f, const char *path, struct gs_err *e)
{
    struct gs_compare_file file;
    struct gs_err why = {0};
    char node[64];
    int rc = gs_compare_load(path, &file, &why);
    if (rc != GS_OK)
        return gs_err_set(e, rc, "%s", why.msg);
    gs_fleet_node_of(path, node, sizeof node);
    const int table = strcmp(file.mode, "table") == 0;
    const struct gs_json *list = gs_json_get(file.root, table ? "devices" : "runs");
    for (int i = 0; rc == GS_OK && i < list->count; ++i) {
        const struct gs_json *d = gs_json_at(list, i);
        int fresh = 0;
        struct gs_fleet_gpu *g = gpu_of(f, node, d, &fresh, e);
        if (!g) {
            rc = GS_NOMEM;
        } else if (table) {
            if (g->table_file)
                rc = duplicate(e, g, g->table_file, path);
            else {
                g->table_file = path;
                table_device(g, d);
            }
        } else {
            if (g->bandwidth_file)
                rc = duplicate(e, g, g->bandwidth_file, path);
            else {
                g->bandwidth_file = path;
                bandwidth_run(g, d);
            }
        }
    }
    gs_compare_free(&file);
    if (rc == GS_OK)
        ++f->nfiles;
    return rc;
}

/* ---- order and statistics ------------------------------------------------------- */

/* Natural order: runs of digits compare by value, so nid9 < nid10. */
static int natural_cmp(const char *a, const char *b)
{
    while (*a && *b) {
        if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
            while (*a == '0')
                ++a;
            while (*b == '0')
                ++b;
            size_t la = 0, lb = 0;
            while (isdigit((unsigned char)a[la]))
                ++la;
            while (isdigit((unsigned char)b[lb]))
                ++lb;
            if (la != lb)
                return la < lb ? -1 : 1;
            const int c = strncmp(a, b, la);
            if (c)
                return c;
            a += la;
            b += lb;
        } else {
            if (*a != *b)
                return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
            ++a;
            ++b;
        }
    }
    return *a ? 1 : *b ? -1 : 0;
}

static int gpu_cmp(const void *pa, const void *pb)
{
    const struct gs_fleet_gpu *a = pa, *b = pb;
    int c = natural_cmp(a->node, b->node);
    if (!c)
        c = strcmp(a->backend, b->backend);
    if (!c)
        c = natural_cmp(a->id, b->id);
    return c;
}

static int double_cmp(const void *pa, const void *pb)
{
    const double a = *(const double *)pa, b = *(const double *)pb;
    return a < b ? -1 : a > b;
}

/* The p-quantile of n sorted values, linearly interpolated (p (n - 1)). */
static double quantile(const double *v, int n, double p)
{
    const double pos = p * (n - 1);
    const int lo = (int)floor(pos);
    const int hi = lo + 1 < n ? lo + 1 : lo;
    return v[lo] + (pos - lo) * (v[hi] - v[lo]);
}

static int group_of(struct gs_fleet *f, const struct gs_fleet_gpu *g)
{
    for (int i = 0; i < f->ngroups; ++i)
        if (strcmp(f->groups[i].backend, g->backend) == 0 &&
            strcmp(f->groups[i].device, g->device) == 0)
            return i;
    struct gs_fleet_group *grp = &f->groups[f->ngroups];
    memset(grp, 0, sizeof *grp);
    copy(grp->backend, sizeof grp->backend, g->backend);
    copy(grp->device, sizeof grp->device, g->device);
    return f->ngroups++;
}

int gs_fleet_analyse(struct gs_fleet *f, struct gs_err *e)
{
    if (f->ngpus == 0)
        return gs_err_set(e, GS_USAGE, "the files give no GPU; give the results files of the "
                                       "nodes");
    qsort(f->gpus, (size_t)f->ngpus, sizeof *f->gpus, gpu_cmp);
    free(f->groups);
    f->groups = calloc((size_t)f->ngpus, sizeof *f->groups);
    double *values = malloc((size_t)f->ngpus * sizeof *values);
    if (!f->groups || !values) {
        free(values);
        return gs_err_set(e, GS_NOMEM, "out of memory for the statistics of %d GPUs", f->ngpus);
    }
    f->ngroups = 0;
    for (int i = 0; i < f->ngpus; ++i) {
        f->gpus[i].peers = group_of(f, &f->gpus[i]);
        f->groups[f->gpus[i].peers].ngpus++;
        f->gpus[i].flagged = 0;
    }
    for (int p = 0; p < f->ngroups; ++p) {
        struct gs_fleet_group *grp = &f->groups[p];
        for (int m = 0; m < GS_FLEET_METRICS; ++m) {
            int n = 0;
            for (int i = 0; i < f->ngpus; ++i)
                if (f->gpus[i].peers == p && f->gpus[i].has[m])
                    values[n++] = f->gpus[i].gbps[m];
            grp->n[m] = n;
            if (n == 0)
                continue;
            qsort(values, (size_t)n, sizeof *values, double_cmp);
            grp->median[m] = quantile(values, n, 0.5);
            grp->q1[m] = quantile(values, n, 0.25);
            grp->q3[m] = quantile(values, n, 0.75);
            grp->fence[m] = grp->q1[m] - f->k * (grp->q3[m] - grp->q1[m]);
            if (n < GS_FLEET_MIN_PEERS)
                continue;
            for (int i = 0; i < f->ngpus; ++i)
                if (f->gpus[i].peers == p && f->gpus[i].has[m] &&
                    f->gpus[i].gbps[m] < grp->fence[m])
                    f->gpus[i].flagged |= 1u << m;
        }
    }
    free(values);
    f->failed_gpus = f->flagged_gpus = 0;
    for (int i = 0; i < f->ngpus; ++i) {
        f->failed_gpus += f->gpus[i].failed || f->gpus[i].unverified;
        f->flagged_gpus += f->gpus[i].flagged != 0;
    }
    return GS_OK;
}

/* ---- text ------------------------------------------------------------------------ */

#define NODE_W 16
#define ID_W 8
#define TABLE_W 14
#define METRIC_W 16

static void table_cell(const struct gs_fleet_gpu *g, char *buf, size_t size)
{
    if (!g->table_file)
        snprintf(buf, size, "-");
    else if (g->failed)
        snprintf(buf, size, "%llu/%llu FAILED", (unsigned long long)g->failed,
                 (unsigned long long)g->cases);
    else
        snprintf(buf, size, "%llu held", (unsigned long long)g->cases);
}

static void metric_cell(const struct gs_fleet_gpu *g, int m, char *buf, size_t size)
{
    if (!g->has[m])
        snprintf(buf, size, "-");
    else
        snprintf(buf, size, "%.1f%s", g->gbps[m], g->flagged & (1u << m) ? " LOW" : "");
}

static void header(struct gs_str *o)
{
    gs_str_printf(o, "%-*s %-*s %-*s", NODE_W, "node", ID_W, "id", TABLE_W, "table");
    for (int m = 0; m < GS_FLEET_METRICS; ++m)
        gs_str_printf(o, " %*s", METRIC_W, metric_names[m]);
    gs_str_printf(o, "   GB/s\n");
}

static void stat_row(struct gs_str *o, const char *label, const struct gs_fleet_group *grp,
                     const double *v, int judged_only)
{
    gs_str_printf(o, "%-*s", NODE_W + 1 + ID_W + 1 + TABLE_W, label);
    for (int m = 0; m < GS_FLEET_METRICS; ++m) {
        if (grp->n[m] == 0 || (judged_only && grp->n[m] < GS_FLEET_MIN_PEERS))
            gs_str_printf(o, " %*s", METRIC_W, "-");
        else
            gs_str_printf(o, " %*.1f", METRIC_W, v[m]);
    }
    gs_str_printf(o, "\n");
}

static void group_table(const struct gs_fleet *f, int p, struct gs_str *o)
{
    const struct gs_fleet_group *grp = &f->groups[p];
    double iqr[GS_FLEET_METRICS];
    char cell[64], label[64];
    gs_str_printf(o, "\n%s, %s: %d GPU%s\n", grp->backend, grp->device[0] ? grp->device : "?",
                  grp->ngpus, grp->ngpus == 1 ? "" : "s");
    header(o);
    for (int i = 0; i < f->ngpus; ++i) {
        const struct gs_fleet_gpu *g = &f->gpus[i];
        if (g->peers != p)
            continue;
        table_cell(g, cell, sizeof cell);
        gs_str_printf(o, "%-*s %-*s %-*s", NODE_W, g->node, ID_W, g->id, TABLE_W, cell);
        for (int m = 0; m < GS_FLEET_METRICS; ++m) {
            metric_cell(g, m, cell, sizeof cell);
            gs_str_printf(o, " %*s", METRIC_W, cell);
        }
        if (g->unverified)
            gs_str_printf(o, "   %llu row%s not verified", (unsigned long long)g->unverified,
                          g->unverified == 1 ? "" : "s");
        gs_str_printf(o, "\n");
    }
    for (int m = 0; m < GS_FLEET_METRICS; ++m)
        iqr[m] = grp->q3[m] - grp->q1[m];
    stat_row(o, "median", grp, grp->median, 0);
    stat_row(o, "Q1", grp, grp->q1, 0);
    stat_row(o, "Q3", grp, grp->q3, 0);
    stat_row(o, "IQR (spread)", grp, iqr, 0);
    snprintf(label, sizeof label, "fence Q1 - %g IQR", f->k);
    stat_row(o, label, grp, grp->fence, 1);
    int few = 0, judged = 0;
    for (int m = 0; m < GS_FLEET_METRICS; ++m) {
        few += grp->n[m] > 0 && grp->n[m] < GS_FLEET_MIN_PEERS;
        judged += grp->n[m] >= GS_FLEET_MIN_PEERS;
    }
    if (few && !judged)
        gs_str_printf(o, "  too few GPUs with bandwidth figures to judge (%d or more are needed); "
                         "none flagged\n", GS_FLEET_MIN_PEERS);
    else
        for (int m = 0; few && m < GS_FLEET_METRICS; ++m)
            if (grp->n[m] > 0 && grp->n[m] < GS_FLEET_MIN_PEERS)
                gs_str_printf(o, "  %s: %d GPU%s with a value, too few to judge (%d or more "
                                 "are needed); none flagged\n", metric_names[m], grp->n[m],
                              grp->n[m] == 1 ? "" : "s", GS_FLEET_MIN_PEERS);
}

void gs_fleet_report(const struct gs_fleet *f, struct gs_str *out)
{
    int nodes = 0;
    for (int i = 0; i < f->ngpus; ++i)
        nodes += i == 0 || strcmp(f->gpus[i].node, f->gpus[i - 1].node) != 0;
    gs_str_printf(out, "fleet: %d file%s, %d node%s, %d GPU%s in %d group%s of peers (same "
                       "backend and device)\n", f->nfiles, f->nfiles == 1 ? "" : "s", nodes,
                  nodes == 1 ? "" : "s", f->ngpus, f->ngpus == 1 ? "" : "s", f->ngroups,
                  f->ngroups == 1 ? "" : "s");
    gs_str_printf(out, "a GPU is flagged LOW on a metric more than k = %g interquartile ranges "
                       "below its peers' first quartile (below Q1 - %g x IQR)\n", f->k, f->k);
    for (int p = 0; p < f->ngroups; ++p)
        group_table(f, p, out);
    gs_str_printf(out, "\n");
    for (int i = 0; i < f->ngpus; ++i) {
        const struct gs_fleet_gpu *g = &f->gpus[i];
        const struct gs_fleet_group *grp = &f->groups[g->peers];
        if (g->failed)
            gs_str_printf(out, "FAILED %s %s %s (%s): %llu of %llu predictions did not hold "
                               "(%s)\n", g->node, g->backend, g->id, g->device,
                          (unsigned long long)g->failed, (unsigned long long)g->cases,
                          g->table_file);
        if (g->unverified)
            gs_str_printf(out, "FAILED %s %s %s (%s): %llu bandwidth row%s did not verify (%s)\n",
                          g->node, g->backend, g->id, g->device,
                          (unsigned long long)g->unverified, g->unverified == 1 ? "" : "s",
                          g->bandwidth_file);
        for (int m = 0; m < GS_FLEET_METRICS; ++m)
            if (g->flagged & (1u << m))
                gs_str_printf(out, "LOW %s %s %s (%s): %s %.1f GB/s, below the fence %.1f "
                                   "(median %.1f, IQR %.1f, of %d peers)\n", g->node, g->backend,
                              g->id, g->device, metric_names[m], g->gbps[m], grp->fence[m],
                              grp->median[m], grp->q3[m] - grp->q1[m], grp->n[m]);
    }
    if (f->failed_gpus == 0 && f->flagged_gpus == 0)
        gs_str_printf(out, "every GPU held its predictions and none is below its peers\n");
    else
        gs_str_printf(out, "%d GPU%s failed, %d GPU%s flagged\n", f->failed_gpus,
                      f->failed_gpus == 1 ? "" : "s", f->flagged_gpus,
                      f->flagged_gpus == 1 ? "" : "s");
}
