#include "gs_results.h"

#include <stdio.h>

#include "gs_report.h"

static void kv(struct gs_str *o, const char *key, const char *value)
{
    gs_str_printf(o, "\"%s\": ", key);
    gs_json_string(o, value ? value : "");
}

void gs_results_header(struct gs_str *o, const char *mode, const struct gs_run_info *run)
{
    gs_str_printf(o, "{\n  \"schema\": \"%s\", \"schema_version\": %d, \"mode\": \"%s\",\n  ",
                  GS_RESULTS_SCHEMA, GS_RESULTS_SCHEMA_VERSION, mode);
    kv(o, "tool", "gridstride");
    gs_str_printf(o, ", ");
    kv(o, "version", run->version);
    gs_str_printf(o, ", ");
    kv(o, "date", run->date);
    gs_str_printf(o, ",\n  ");
    kv(o, "toolkit", run->toolkit);
    gs_str_printf(o, ",\n  ");
    kv(o, "command", run->command);
}

void gs_results_device(struct gs_str *o, const struct gs_device *d)
{
    const char *const keys[] = {"backend", "device", "id", "pci", "platform", "api_version",
                                "driver_version", "arch"};
    const char *const values[] = {d->backend->name, d->name, d->id, d->pci, d->platform,
                                  d->api_version, d->driver_version, d->arch};
    for (unsigned i = 0; i < sizeof keys / sizeof keys[0]; ++i) {
        kv(o, keys[i], values[i]);
        gs_str_printf(o, ", ");
    }
    gs_str_printf(o, "\"compute_units\": %u, ", d->compute_units);
}

void gs_device_label(const struct gs_device *d, int qualify, char *buf, unsigned size)
{
    if (qualify)
        snprintf(buf, size, "%s [%s]", d->backend->name, d->id);
    else
        snprintf(buf, size, "%s", d->backend->name);
}
