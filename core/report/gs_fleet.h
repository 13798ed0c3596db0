/* SPDX-License-Identifier: MIT */
/* `gridstride compare --fleet`: the results files of many nodes (tables and
 * bandwidth runs, gs_results.h) in one side-by-side table, one row per node
 * and GPU, with each metric's median and spread among the GPU's peers (the
 * same backend and device name), and the GPUs that fall behind them named.
 *
 * A file's node is its name up to the first dot: n1.cuda0.table.json and
 * n1.cuda0.bandwidth.json are node n1's (the ReFrame tests of
 * contrib/reframe write <node>.<backend><index>.table.json and
 * .bandwidth.json, the node named by the scheduler). A GPU is the node, the
 * backend and the device's id; its table and its bandwidth run, from two
 * files, make one row, and the GPUs of one node are rows apart.
 *
 * The outlier rule is SHOC's (Tukey's lower fence) with a floor on the
 * spread: a GPU is flagged on a metric when its value is below
 * Q1 - k x S of its peers' values, where Q1, Q3 are the quartiles (linearly
 * interpolated), IQR = Q3 - Q1, k = 1.5 by default, and the spread S is the
 * IQR or GS_FLEET_MIN_SPREAD of the median, whichever is larger: a spread
 * narrower than that is run-to-run noise, and a fence inside the noise
 * flags healthy GPUs (four identical nodes 3 % apart did). Fewer than
 * GS_FLEET_MIN_PEERS peers with a value are too few to judge: their
 * medians are shown and nothing is flagged, and the report says so. Each
 * flag gives its numbers: the value, Q1, the median, Q3, the spread and
 * the fence. A GPU fails when its table has a prediction that did not hold
 * or its bandwidth run has a row that did not verify.
 *
 * Time: the files are read once, the GPUs sorted (by node, and by peers),
 * each group's values sorted once: O(size + G log G) for G GPUs. */
#ifndef GS_FLEET_H
#define GS_FLEET_H

#include <stdint.h>

#include "gs_status.h"
#include "gs_str.h"

#define GS_FLEET_DEFAULT_K 1.5
#define GS_FLEET_MIN_PEERS 4
#define GS_FLEET_MIN_SPREAD 0.05 /* of the median: a narrower spread is noise */

enum gs_fleet_metric {
    GS_FLEET_BEST_ADD,       /* the fastest verified add variant */
    GS_FLEET_GRIDSTRIDE_ADD, /* the plain grid-stride add (kernel grid-stride) */
    GS_FLEET_CHUNKED_COPY,   /* one contiguous chunk per thread (copy-chunked) */
    GS_FLEET_API_COPY,       /* the API's own device-to-device copy (api-copy) */
    GS_FLEET_METRICS
};

/* "best add", "grid-stride add", "chunked copy", "API copy" */
const char *gs_fleet_metric_name(enum gs_fleet_metric m);

struct gs_fleet_gpu {
    char node[64];
    char backend[24];
    char id[40];
    char device[128];
    const char *table_file;     /* the path given, or NULL */
    const char *bandwidth_file; /* the path given, or NULL */
    uint64_t cases;             /* table: cases run */
    uint64_t failed;            /* table: predictions that did not hold */
    uint64_t unverified;        /* bandwidth: rows that did not verify */
    int has[GS_FLEET_METRICS];
    double gbps[GS_FLEET_METRICS];
    int peers;        /* index into gs_fleet.groups */
    unsigned flagged; /* bit (1u << metric) per metric below its peers' fence */
};

/* One group of peers: the GPUs of one backend and device name. */
struct gs_fleet_group {
    char backend[24];
    char device[128];
    int ngpus;
    int n[GS_FLEET_METRICS]; /* GPUs with a value */
    double median[GS_FLEET_METRICS], q1[GS_FLEET_METRICS], q3[GS_FLEET_METRICS];
    double spread[GS_FLEET_METRICS]; /* max(q3 - q1, GS_FLEET_MIN_SPREAD x median) */
    int floored[GS_FLEET_METRICS];   /* the spread is the floor, not the IQR */
    double fence[GS_FLEET_METRICS];  /* q1 - k spread; judged when n >= GS_FLEET_MIN_PEERS */
    int start;                       /* its GPUs: gs_fleet.order[start .. start + ngpus) */
    int first_gpu;                   /* the index of its first GPU in node order */
};

struct gs_fleet {
    double k;
    int nfiles;
    struct gs_fleet_gpu *gpus;
    int ngpus, cap;
    struct gs_fleet_group *groups;
    int *order; /* GPU indices, group by group */
    int ngroups;
    int failed_gpus;  /* after gs_fleet_analyse */
    int flagged_gpus; /* after gs_fleet_analyse */
};

void gs_fleet_init(struct gs_fleet *f, double k);
void gs_fleet_free(struct gs_fleet *f);

/* Read one results file (table or bandwidth) and add its GPUs. GS_IO when
 * it cannot be read; GS_USAGE when it is not a results file. path must
 * outlive f. */
int gs_fleet_add_file(struct gs_fleet *f, const char *path, struct gs_err *e);

/* Sort the GPUs (node, natural order; backend; id), merge each GPU's table
 * and bandwidth run (GS_USAGE when two files of one mode give the same GPU:
 * e names both), form the groups of peers, their medians, quartiles and
 * fences, and flag and count. */
int gs_fleet_analyse(struct gs_fleet *f, struct gs_err *e);

/* The report, after gs_fleet_analyse. */
void gs_fleet_report(const struct gs_fleet *f, struct gs_str *out);

/* A file's node: its name without folders, up to the first dot, with its
 * control characters escaped (it is printed). */
void gs_fleet_node_of(const char *path, char *node, unsigned size);

#endif
