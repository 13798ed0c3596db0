/* SPDX-License-Identifier: MIT */
#include "gs_results.h"

#include <stdio.h>

#include "gs_report.h"

void gs_results_header(struct gs_str *o, const char *mode, const struct gs_run_info *run)
{
    gs_str_printf(o, "{\n  \"schema\": \"%s\", \"schema_version\": %d, \"mode\": \"%s\",\n  ",
                  GS_RESULTS_SCHEMA, GS_RESULTS_SCHEMA_VERSION, mode);
    gs_json_kv(o, "tool", "gridstride", 1);
    gs_json_kv(o, "version", run->version ? run->version : "", 1);
    gs_json_kv(o, "date", run->date ? run->date : "", 0);
    gs_str_printf(o, ",\n  ");
    gs_json_kv(o, "toolkit", run->toolkit ? run->toolkit : "", 0);
    gs_str_printf(o, ",\n  ");
    gs_json_kv(o, "command", run->command ? run->command : "", 0);
}

void gs_results_device(struct gs_str *o, const struct gs_device *d)
{
    gs_json_device(d, o);
    gs_json_kv(o, "pci", d->pci, 1);
    gs_str_printf(o, "\"compute_units\": %u, ", d->compute_units);
}

void gs_device_label(const struct gs_device *d, int qualify, char *buf, unsigned size)
{
    if (qualify)
        snprintf(buf, size, "%s [%s]", d->backend->name, d->id);
    else
        snprintf(buf, size, "%s", d->backend->name);
}
