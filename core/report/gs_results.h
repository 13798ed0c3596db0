/* SPDX-License-Identifier: MIT */
/* What every results file (the JSON of the table and of bandwidth) starts
 * with, so that `gridstride compare` can read files from other machines and
 * other versions of the suite. README.md, "Results files", documents it. */
#ifndef GS_RESULTS_H
#define GS_RESULTS_H

#include "gs_backend.h"
#include "gs_str.h"

#define GS_RESULTS_SCHEMA "gridstride-results"
/* Raise on a change a reader of the previous version would misread
 * (a member removed or its meaning changed); new members do not need it. */
#define GS_RESULTS_SCHEMA_VERSION 1

/* Where and with what a run was made: the CLI fills it. */
struct gs_run_info {
    const char *version; /* gridstride's version */
    const char *command; /* the command line */
    const char *date;    /* UTC, ISO 8601: "2026-11-30T09:20:00Z" */
    const char *toolkit; /* the compilers and API headers it was built with */
};

/* `{` and the header members, each line indented by two spaces; the caller
 * continues with ",\n  ..." and closes the object. mode: "table" or
 * "bandwidth". */
void gs_results_header(struct gs_str *o, const char *mode, const struct gs_run_info *run);

/* The members naming a device, each followed by ", ": gs_json_device's
 * (backend, device, id, platform, api_version, driver_version, arch), then
 * pci and compute_units. */
void gs_results_device(struct gs_str *o, const struct gs_device *d);

/* How a report names a device: its backend ("cuda"), and, when the run
 * has another device of the same backend (--device all), its id too
 * ("cuda [1]"). */
void gs_device_label(const struct gs_device *d, int qualify, char *buf, unsigned size);

/* Defines `static const char *fn(const in_type *in, int i, char *buf,
 * unsigned size)`: the device of in->runs[i] (each run holding its device in
 * `dev`) as reports name it, gs_device_label qualified when another of the
 * in->nruns runs has the same backend; returns buf. */
#define GS_DEFINE_RUN_LABEL(fn, in_type, runs, nruns)                                          \
    static const char *fn(const in_type *in, int i, char *buf, unsigned size)                  \
    {                                                                                          \
        int same = 0;                                                                          \
        for (int k = 0; k < in->nruns; ++k)                                                    \
            same += in->runs[k]->dev->backend == in->runs[i]->dev->backend;                    \
        gs_device_label(in->runs[i]->dev, same > 1, buf, size);                                \
        return buf;                                                                            \
    }

#endif
