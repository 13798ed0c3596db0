/* SPDX-License-Identifier: MIT */
#include "gs_resource.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gs_device.h"
#include "gs_json_write.h"

static int cmp_ids(const void *a, const void *b)
{
    return strcmp((const char *)a, (const char *)b);
}

void gs_resource_spec(struct gs_device *const *devs, int ndevs, struct gs_str *out,
                      int *ngpus, int *left_out)
{
    char (*ids)[40] = calloc((size_t)ndevs + 1, sizeof *ids);
    int n = 0;
    *left_out = 0;
    for (int i = 0; ids && i < ndevs; ++i) {
        char id[40];
        if (!gs_resource_id(devs[i], id, sizeof id)) {
            *left_out += devs[i]->is_gpu;
            continue;
        }
        int seen = 0;
        for (int k = 0; k < n; ++k)
            seen |= strcmp(ids[k], id) == 0;
        if (!seen)
            memcpy(ids[n++], id, sizeof id);
    }
    if (!ids)
        out->failed = 1;
    else
        qsort(ids, (size_t)n, sizeof *ids, cmp_ids);
    struct gs_jw w;
    gs_jw_init(&w, out);
    gs_jw_object(&w, NULL);
    gs_jw_space(&w, "\n  ");
    gs_jw_object(&w, "version");
    gs_jw_int(&w, "major", 1);
    gs_jw_int(&w, "minor", 0);
    gs_jw_end(&w, "");
    gs_jw_space(&w, "\n  ");
    gs_jw_array(&w, "local");
    gs_jw_space(&w, "\n    ");
    gs_jw_object(&w, NULL);
    gs_jw_space(&w, "\n      ");
    gs_jw_array(&w, "gpus");
    for (int k = 0; k < n; ++k) {
        gs_jw_space(&w, "\n        ");
        gs_jw_object(&w, NULL);
        gs_jw_str(&w, "id", ids[k]);
        gs_jw_int(&w, "slots", 1);
        gs_jw_end(&w, "");
    }
    gs_jw_end(&w, n ? "\n      " : "");
    gs_jw_end(&w, "\n    ");
    gs_jw_end(&w, "\n  ");
    gs_jw_end(&w, "\n");
    *ngpus = n;
    free(ids);
}

int gs_resource_parse(const char *value, char *id, unsigned size, struct gs_err *e)
{
    const char *p = value ? strstr(value, "id:") : NULL;
    if (!p || (p != value && p[-1] != ',' && p[-1] != ';'))
        return gs_err_set(e, GS_USAGE, "'%s' names no resource id; CTest gives id:NAME,slots:N",
                          value ? value : "");
    p += 3;
    const size_t n = strcspn(p, ",;");
    if (n == 0 || n >= size || strspn(p, "abcdefghijklmnopqrstuvwxyz0123456789_") < n)
        return gs_err_set(e, GS_USAGE, "'%s': the resource id is not a CTest id; use lower-case "
                                       "letters, digits and _", value);
    memcpy(id, p, n);
    id[n] = '\0';
    return GS_OK;
}

/* The device of o with resource id `want`, or NULL; *gpus counts o's
 * devices that have a resource id at all. */
static struct gs_device *find_resource(const struct gs_opened *o, const char *want, int *gpus)
{
    struct gs_device *hit = NULL;
    *gpus = 0;
    for (int i = 0; i < o->count; ++i) {
        char id[40];
        if (!gs_resource_id(o->devs[i], id, sizeof id))
            continue;
        ++*gpus;
        if (!hit && strcmp(id, want) == 0)
            hit = o->devs[i];
    }
    return hit;
}

static int allocated(const struct gs_opened *o, const char *value, struct gs_device **dev,
                     char *why, unsigned why_size, struct gs_err *e)
{
    char want[40];
    int gpus;
    struct gs_err bad = {0};
    int rc = gs_resource_parse(value, want, sizeof want, &bad);
    if (rc != GS_OK)
        return gs_err_set(e, rc, "CTEST_RESOURCE_GROUP_0_GPUS: %s", bad.msg);
    *dev = find_resource(o, want, &gpus);
    if (*dev) {
        snprintf(why, why_size, "the GPU CTest allocated (%s)", want);
        return GS_OK;
    }
    if (gpus)
        return gs_err_set(e, GS_USAGE,
                          "CTest allocated GPU %s, which is none of the %d %s GPU(s) here; "
                          "write the spec file again with gridstride --list --format "
                          "ctest-resources",
                          want, gpus, o->backend->name);
    /* A backend with no GPU of its own (OpenCL on PoCL) runs where it
     * always runs; the slot it holds costs only parallelism. */
    int n = 0;
    rc = gs_select_devices(o, NULL, dev, 1, &n, e);
    snprintf(why, why_size, "the default device: CTest allocated GPU %s, and %s has no GPU with "
                            "a PCI address", want, o->backend->name);
    return rc;
}

int gs_resource_test_device(const struct gs_opened *o, struct gs_device **dev, char *why,
                            unsigned why_size, struct gs_err *e)
{
    const char *groups = getenv("CTEST_RESOURCE_GROUP_COUNT");
    const char *gpus = getenv("CTEST_RESOURCE_GROUP_0_GPUS");
    const char *sel = getenv("GRIDSTRIDE_DEVICE");
    int n = 0;
    *dev = NULL;
    if (groups && *groups && gpus && *gpus)
        return allocated(o, gpus, dev, why, why_size, e);
    if (!sel || !*sel) {
        snprintf(why, why_size, "the default device");
        return gs_select_devices(o, NULL, dev, 1, &n, e);
    }
    snprintf(why, why_size, "GRIDSTRIDE_DEVICE=%s", sel);
    return gs_select_devices(o, sel, dev, 1, &n, e);
}
