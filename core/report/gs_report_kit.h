/* SPDX-License-Identifier: MIT */
/* The pieces every report borrows: how a report names a device, the grid
 * probe's line, a verdict's first wrong indices (text and JSON), a device's
 * members and a prediction's members in JSON (gs_json_write.h's writer,
 * member names from gs_results.h where a results file has them). */
#ifndef GS_REPORT_KIT_H
#define GS_REPORT_KIT_H

#include "gs_backend.h"
#include "gs_format.h"
#include "gs_json_write.h"
#include "gs_model.h"
#include "gs_results.h"
#include "gs_verify.h"

/* How a report names a device: its backend ("cuda"), and, when the run
 * has another device of the same backend (--device all), its id too
 * ("cuda [1]"). */
/* A rate or ratio for a person: three significant digits, never an
 * exponent, so that no value above zero reads 0 ("0.000412"); "0" for 0. */
void gs_report_rate(double v, char *buf, unsigned size);

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

/* Every text report at a width: each line of `text` longer than `width`
 * columns (UTF-8 characters) is wrapped at spaces, its continuation lines
 * indented two past the line's own indentation, or, in a row of columns
 * (runs of two spaces), under its last column, so that the columns stay
 * readable. A row of a table drawn with '|' (its first '|' where the line
 * above or below has one) is kept whole: its report splits the table where
 * it can (the table, bandwidth). So is a word longer than the width (a
 * path). width 0: the text as it is. */
void gs_text_wrap(const char *text, unsigned width, struct gs_str *out);

/* A Markdown report's provenance, under its title: "Command: `...`" (when
 * command is not NULL) and "Commit: `...`" (gs_build_commit), each a
 * paragraph. */
void gs_md_provenance(struct gs_str *o, const char *command);

/* The grid probe's answer for d in one line (or why it was not probed). */
void gs_probe_line(const struct gs_device *d, char *buf, unsigned size);

/* The first wrong indices of a verdict with the block, thread and pass that
 * should have written each: the course harness's listing, one line each,
 * with what the element held: "unwritten" (still the poison), or the value
 * found and the value expected, in the launch's element type. */
void gs_report_wrong_list(const struct gs_verdict *v, enum gs_type type, const char *indent,
                          struct gs_str *o);

/* "first_wrong_indices": [{index, block, thread, pass, launched,
 * unwritten}, ...] of a verdict. */
void gs_json_wrong_list(struct gs_jw *w, const struct gs_verdict *v);
/* A device's "backend", "device", "id", "platform", "api_version",
 * "driver_version" and "arch" members. */
void gs_json_device(struct gs_jw *w, const struct gs_device *d);
/* The members naming a device in a results file: gs_json_device's, then
 * "pci" and "compute_units". */
void gs_results_device(struct gs_jw *w, const struct gs_device *d);
/* A case's "asked_grid"/"asked_block" (when the runtime chose another
 * launch) and "predicted": {outcome, first_wrong, wrong, rule}. */
void gs_json_predicted(struct gs_jw *w, const struct gs_launch *l, const struct gs_prediction *p);

#endif
