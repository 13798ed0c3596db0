/* Reports of the correctness table: text (the seed's table, side by side per
 * backend), Markdown, CSV and JSON. Every format carries each device's
 * metadata: backend, API and driver version, device name, compute units,
 * block size, G and T. Reports are built into a gs_str; the caller writes it. */
#ifndef GS_REPORT_H
#define GS_REPORT_H

#include "gs_str.h"
#include "gs_table.h"

enum gs_format { GS_FMT_TEXT, GS_FMT_MD, GS_FMT_CSV, GS_FMT_JSON };

int gs_format_parse(const char *s, enum gs_format *f, struct gs_err *e);

struct gs_report_in {
    const struct gs_table *const *tables; /* one per device, all run with `plan` */
    int ntables;
    const struct gs_plan *plan;
    const char *version; /* gridstride's version */
    const char *command; /* the command line, recorded in the report */
};

void gs_report_table(const struct gs_report_in *in, enum gs_format f, struct gs_str *out);

/* The text of one cell: "ok", "refused", "wrong@40960". */
void gs_case_cell(const struct gs_case *c, char *buf, unsigned size);

/* The grid probe's answer for d in one line (or why it was not probed). */
void gs_probe_line(const struct gs_device *d, char *buf, unsigned size);

/* JSON string body with quotes and control characters escaped. */
void gs_json_string(struct gs_str *out, const char *s);
/* "key": "value", and a ", " after it when comma. */
void gs_json_kv(struct gs_str *o, const char *key, const char *value, int comma);
/* "first_wrong_indices": [{index, block, thread, pass, ...}, ...] of a verdict. */
void gs_json_wrong_list(const struct gs_verdict *v, struct gs_str *o);
/* A device's "backend", "device", "id", "platform", "api_version",
 * "driver_version" and "arch" members, each followed by ", ". */
void gs_json_device(const struct gs_device *d, struct gs_str *o);
/* A quoted CSV field and its comma. */
void gs_csv_field(struct gs_str *o, const char *s);
/* The first wrong indices of a verdict with the block, thread and pass that
 * should have written each: seed 002's listing, one line each. */
void gs_report_wrong_list(const struct gs_verdict *v, const char *indent, struct gs_str *o);

#endif
