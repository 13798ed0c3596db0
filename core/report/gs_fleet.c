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
    free(f->order);
    memset(f, 0, sizeof *f);
}

void gs_fleet_node_of(const char *path, char *node, unsigned size)
{
    char raw[256];
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t len = strcspn(base, ".");
    if (len == 0) /* ".json": no name before the dot; the whole name then */
        len = strlen(base);
    if (len >= sizeof raw)
        len = sizeof raw - 1;
    memcpy(raw, base, len);
    raw[len] = '\0';
    /* The name is the user's and is printed: its control characters escaped. */
    gs_escape_controls(node, size, raw);
}

static void copy(char *dst, size_t size, const char *src)
{
    snprintf(dst, size, "%s", src ? src : "");
}

/* A new entry for one device of one file. Entries of one GPU from its two
 * files (table and bandwidth) are merged after sorting, in gs_fleet_analyse:
 * no lookup per device, so reading is linear in the files' size. */
static struct gs_fleet_gpu *new_gpu(struct gs_fleet *f, const char *node, const struct gs_json *d,
                                    struct gs_err *e)
{
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
    copy(g->backend, sizeof g->backend, gs_json_str(d, "backend", ""));
    copy(g->id, sizeof g->id, gs_json_str(d, "id", ""));
    copy(g->device, sizeof g->device, gs_json_str(d, "device", ""));
    return g;
}

static int duplicate(struct gs_err *e, const struct gs_fleet_gpu *g, const char *earlier,
                     const char *path)
{
    char a[GS_SHOWN_PATH], b[GS_SHOWN_PATH];
    gs_escape_controls(a, sizeof a, earlier);
    gs_escape_controls(b, sizeof b, path);
    return gs_err_set(e, GS_USAGE, "%.*s%s and %.*s%s both give node %s's %s device %s; give one "
                                   "file of each mode per node and device, named "
                                   "NODE.BACKENDINDEX.table.json and "
                                   "NODE.BACKENDINDEX.bandwidth.json", GS_ECHO(a), GS_ECHO(b),
                      g->node, g->backend, g->id);
}

/* The lists are walked by their links (gs_json_at from the start for each
 * index made this quadratic in the cases: over 60 s for a 55 MB file). */
static void table_device(struct gs_fleet_gpu *g, const struct gs_json *d)
{
    const struct gs_json *cases = gs_json_get(d, "cases");
    g->cases = (uint64_t)cases->count;
    for (const struct gs_json *c = cases->child; c; c = c->next)
        if (!gs_json_bool(c, "held", 0))
            ++g->failed;
}

static void bandwidth_run(struct gs_fleet_gpu *g, const struct gs_json *run)
{
    static const char *const kernels[GS_FLEET_METRICS] = {NULL, "grid-stride", "copy-chunked",
                                                          "api-copy"};
    const struct gs_json *rows = gs_json_get(run, "rows");
    for (const struct gs_json *r = rows->child; r; r = r->next) {
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
    for (const struct gs_json *d = list->child; rc == GS_OK && d; d = d->next) {
        struct gs_fleet_gpu *g = new_gpu(f, node, d, e);
        if (!g) {
            rc = GS_NOMEM;
        } else if (table) {
            g->table_file = path;
            table_device(g, d);
        } else {
            g->bandwidth_file = path;
            bandwidth_run(g, d);
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
    if (!c) /* one GPU's entries: its table first, in a fixed order */
        c = (a->table_file == NULL) - (b->table_file == NULL);
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

/* After sorting, one GPU's entries are neighbours: merged into one row (its
 * table and its bandwidth run); two tables or two runs of one GPU are an
 * error that names both files. */
static int merge_gpus(struct gs_fleet *f, struct gs_err *e)
{
    int n = 0;
    for (int i = 0; i < f->ngpus; ++i) {
        struct gs_fleet_gpu *g = &f->gpus[i], *m = n ? &f->gpus[n - 1] : NULL;
        if (!m || strcmp(m->node, g->node) != 0 || strcmp(m->backend, g->backend) != 0 ||
            strcmp(m->id, g->id) != 0) {
            if (n != i)
                f->gpus[n] = *g;
            ++n;
            continue;
        }
        if (g->table_file && m->table_file)
            return duplicate(e, g, m->table_file, g->table_file);
        if (g->bandwidth_file && m->bandwidth_file)
            return duplicate(e, g, m->bandwidth_file, g->bandwidth_file);
        if (g->table_file) {
            m->table_file = g->table_file;
            m->cases = g->cases;
            m->failed = g->failed;
        } else {
            m->bandwidth_file = g->bandwidth_file;
            m->unverified = g->unverified;
            for (int k = 0; k < GS_FLEET_METRICS; ++k) {
                m->has[k] = g->has[k];
                m->gbps[k] = g->gbps[k];
            }
        }
    }
    f->ngpus = n;
    return GS_OK;
}

/* GPUs (pointers into one array) by peers (backend, device), each group's
 * in node order. */
static int peer_cmp(const void *pa, const void *pb)
{
    const struct gs_fleet_gpu *a = *(const struct gs_fleet_gpu *const *)pa;
    const struct gs_fleet_gpu *b = *(const struct gs_fleet_gpu *const *)pb;
    int c = strcmp(a->backend, b->backend);
    if (!c)
        c = strcmp(a->device, b->device);
    return c ? c : (a > b) - (a < b);
}

/* Groups in the order of their first GPU. */
static int group_first_cmp(const void *pa, const void *pb)
{
    const struct gs_fleet_group *a = pa, *b = pb;
    return a->first_gpu - b->first_gpu;
}

/* One metric of one group: quartiles, the spread judged and the fence. */
static void judge(struct gs_fleet *f, struct gs_fleet_group *grp, int m, double *values)
{
    int n = 0;
    for (int k = 0; k < grp->ngpus; ++k) {
        const struct gs_fleet_gpu *g = &f->gpus[f->order[grp->start + k]];
        if (g->has[m])
            values[n++] = g->gbps[m];
    }
    grp->n[m] = n;
    if (n == 0)
        return;
    qsort(values, (size_t)n, sizeof *values, double_cmp);
    grp->median[m] = quantile(values, n, 0.5);
    grp->q1[m] = quantile(values, n, 0.25);
    grp->q3[m] = quantile(values, n, 0.75);
    /* A spread narrower than the floor is the run-to-run noise of one
     * kind of GPU: four identical nodes 1 to 3 % apart would otherwise put
     * the fence inside the noise and flag a healthy GPU. */
    const double floor_spread = GS_FLEET_MIN_SPREAD * grp->median[m];
    const double iqr = grp->q3[m] - grp->q1[m];
    grp->floored[m] = iqr < floor_spread;
    grp->spread[m] = grp->floored[m] ? floor_spread : iqr;
    grp->fence[m] = grp->q1[m] - f->k * grp->spread[m];
    if (n < GS_FLEET_MIN_PEERS)
        return;
    for (int k = 0; k < grp->ngpus; ++k) {
        struct gs_fleet_gpu *g = &f->gpus[f->order[grp->start + k]];
        if (g->has[m] && g->gbps[m] < grp->fence[m])
            g->flagged |= 1u << m;
    }
}

int gs_fleet_analyse(struct gs_fleet *f, struct gs_err *e)
{
    if (f->ngpus == 0)
        return gs_err_set(e, GS_USAGE, "the files give no GPU; give the results files of the "
                                       "nodes");
    qsort(f->gpus, (size_t)f->ngpus, sizeof *f->gpus, gpu_cmp);
    int rc = merge_gpus(f, e);
    if (rc != GS_OK)
        return rc;
    free(f->groups);
    free(f->order);
    f->groups = calloc((size_t)f->ngpus, sizeof *f->groups);
    f->order = malloc((size_t)f->ngpus * sizeof *f->order);
    double *values = malloc((size_t)f->ngpus * sizeof *values);
    const struct gs_fleet_gpu **by_peers = malloc((size_t)f->ngpus * sizeof *by_peers);
    if (!f->groups || !f->order || !values || !by_peers) {
        free(values);
        free(by_peers);
        return gs_err_set(e, GS_NOMEM, "out of memory for the statistics of %d GPUs", f->ngpus);
    }
    for (int i = 0; i < f->ngpus; ++i) {
        by_peers[i] = &f->gpus[i];
        f->gpus[i].flagged = 0;
    }
    qsort(by_peers, (size_t)f->ngpus, sizeof *by_peers, peer_cmp);
    for (int i = 0; i < f->ngpus; ++i)
        f->order[i] = (int)(by_peers[i] - f->gpus);
    free(by_peers);
    f->ngroups = 0;
    for (int i = 0; i < f->ngpus; ++i) {
        const struct gs_fleet_gpu *g = &f->gpus[f->order[i]];
        struct gs_fleet_group *grp = f->ngroups ? &f->groups[f->ngroups - 1] : NULL;
        if (!grp || strcmp(grp->backend, g->backend) != 0 || strcmp(grp->device, g->device) != 0) {
            grp = &f->groups[f->ngroups++];
            copy(grp->backend, sizeof grp->backend, g->backend);
            copy(grp->device, sizeof grp->device, g->device);
            grp->start = i;
            grp->first_gpu = f->order[i];
        }
        grp->ngpus++;
    }
    qsort(f->groups, (size_t)f->ngroups, sizeof *f->groups, group_first_cmp);
    for (int p = 0; p < f->ngroups; ++p) {
        for (int k = 0; k < f->groups[p].ngpus; ++k)
            f->gpus[f->order[f->groups[p].start + k]].peers = p;
        for (int m = 0; m < GS_FLEET_METRICS; ++m)
            judge(f, &f->groups[p], m, values);
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
    char cell[64], label[64];
    gs_str_printf(o, "\n%s, %s: %d GPU%s\n", grp->backend, grp->device[0] ? grp->device : "?",
                  grp->ngpus, grp->ngpus == 1 ? "" : "s");
    header(o);
    for (int k = 0; k < grp->ngpus; ++k) {
        const struct gs_fleet_gpu *g = &f->gpus[f->order[grp->start + k]];
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
    double iqr[GS_FLEET_METRICS];
    for (int m = 0; m < GS_FLEET_METRICS; ++m)
        iqr[m] = grp->q3[m] - grp->q1[m];
    stat_row(o, "median", grp, grp->median, 0);
    stat_row(o, "Q1", grp, grp->q1, 0);
    stat_row(o, "Q3", grp, grp->q3, 0);
    stat_row(o, "IQR", grp, iqr, 0);
    snprintf(label, sizeof label, "spread S (floor %g%%)", 100.0 * GS_FLEET_MIN_SPREAD);
    stat_row(o, label, grp, grp->spread, 0);
    snprintf(label, sizeof label, "fence Q1 - %g S", f->k);
    stat_row(o, label, grp, grp->fence, 1);
    int few = 0, judged = 0;
    for (int m = 0; m < GS_FLEET_METRICS; ++m) {
        few += grp->n[m] > 0 && grp->n[m] < GS_FLEET_MIN_PEERS;
        judged += grp->n[m] >= GS_FLEET_MIN_PEERS;
    }
    if (few && !judged)
        gs_str_printf(o, "  too few GPUs with bandwidth figures to judge (%d, %d or more are "
                         "needed); none flagged\n", grp->ngpus, GS_FLEET_MIN_PEERS);
    else
        for (int m = 0; few && m < GS_FLEET_METRICS; ++m)
            if (grp->n[m] > 0 && grp->n[m] < GS_FLEET_MIN_PEERS)
                gs_str_printf(o, "  %s: %d GPU%s with a value, too few to judge (%d or more "
                                 "are needed); none flagged\n", metric_names[m], grp->n[m],
                              grp->n[m] == 1 ? "" : "s", GS_FLEET_MIN_PEERS);
}

void gs_fleet_report(const struct gs_fleet *f, struct gs_str *out)
{
    char shown[GS_SHOWN_PATH];
    int nodes = 0;
    for (int i = 0; i < f->ngpus; ++i)
        nodes += i == 0 || strcmp(f->gpus[i].node, f->gpus[i - 1].node) != 0;
    gs_str_printf(out, "fleet: %d file%s, %d node%s, %d GPU%s in %d group%s of peers (same "
                       "backend and device)\n", f->nfiles, f->nfiles == 1 ? "" : "s", nodes,
                  nodes == 1 ? "" : "s", f->ngpus, f->ngpus == 1 ? "" : "s", f->ngroups,
                  f->ngroups == 1 ? "" : "s");
    gs_str_printf(out, "a GPU is flagged LOW on a metric below its peers' fence Q1 - k x S, "
                       "k = %g, S the spread: the interquartile range, or %g%% of the median "
                       "when the range is narrower (noise); judged with %d or more peers\n",
                  f->k, 100.0 * GS_FLEET_MIN_SPREAD, GS_FLEET_MIN_PEERS);
    for (int p = 0; p < f->ngroups; ++p)
        group_table(f, p, out);
    gs_str_printf(out, "\n");
    for (int i = 0; i < f->ngpus; ++i) {
        const struct gs_fleet_gpu *g = &f->gpus[i];
        const struct gs_fleet_group *grp = &f->groups[g->peers];
        if (g->failed) {
            gs_escape_controls(shown, sizeof shown, g->table_file);
            gs_str_printf(out, "FAILED %s %s %s (%s): %llu of %llu predictions did not hold "
                               "(%s)\n", g->node, g->backend, g->id, g->device,
                          (unsigned long long)g->failed, (unsigned long long)g->cases, shown);
        }
        if (g->unverified) {
            gs_escape_controls(shown, sizeof shown, g->bandwidth_file);
            gs_str_printf(out, "FAILED %s %s %s (%s): %llu bandwidth row%s did not verify (%s)\n",
                          g->node, g->backend, g->id, g->device,
                          (unsigned long long)g->unverified, g->unverified == 1 ? "" : "s",
                          shown);
        }
        for (int m = 0; m < GS_FLEET_METRICS; ++m)
            if (g->flagged & (1u << m))
                gs_str_printf(out, "LOW %s %s %s (%s): %s %.1f GB/s, below the fence %.1f = "
                                   "Q1 %.1f - %g x S %.1f (%s); median %.1f, Q3 %.1f, %d peers\n",
                              g->node, g->backend, g->id, g->device, metric_names[m],
                              g->gbps[m], grp->fence[m], grp->q1[m], f->k, grp->spread[m],
                              grp->floored[m] ? "the floor" : "the IQR", grp->median[m],
                              grp->q3[m], grp->n[m]);
    }
    if (f->failed_gpus == 0 && f->flagged_gpus == 0)
        gs_str_printf(out, "every GPU held its predictions and none is below its peers\n");
    else
        gs_str_printf(out, "%d GPU%s failed, %d GPU%s flagged\n", f->failed_gpus,
                      f->failed_gpus == 1 ? "" : "s", f->flagged_gpus,
                      f->flagged_gpus == 1 ? "" : "s");
}
