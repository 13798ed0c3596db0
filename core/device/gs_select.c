/* SPDX-License-Identifier: MIT */
#include "gs_select.h"

#include <ctype.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gs_device.h"
#include "gs_parse.h"

/* The core owns the device list and every device object in it (SQLite
 * allocates a VFS's file object): a backend only fills what it adds. */
struct gs_device_list {
    const struct gs_backend *backend;
    struct gs_device **devs;
    int count, cap;
};

struct gs_device *gs_device_list_add(struct gs_device_list *list, struct gs_err *e)
{
    if (list->count == list->cap) {
        const int cap = list->cap ? 2 * list->cap : 4;
        struct gs_device **grown = realloc(list->devs, (size_t)cap * sizeof *grown);
        if (!grown) {
            gs_err_set(e, GS_NOMEM, "%s: out of memory listing devices", list->backend->name);
            return NULL;
        }
        list->devs = grown;
        list->cap = cap;
    }
    /* One allocation: the backend's device object, then the core's own
     * state of it at the next suitably aligned offset. */
    const size_t align = _Alignof(max_align_t);
    const size_t at = (list->backend->device_size + align - 1) / align * align;
    struct gs_device *d = calloc(1, at + sizeof(struct gs_device_core));
    if (!d) {
        gs_err_set(e, GS_NOMEM, "%s: out of memory describing a device", list->backend->name);
        return NULL;
    }
    d->core = (struct gs_device_core *)((char *)d + at);
    d->backend = list->backend;
    d->index = list->count;
    list->devs[list->count++] = d;
    return d;
}

int gs_device_list_count(const struct gs_device_list *list)
{
    return list->count;
}

/* Free the buffers a device still holds, what the backend made for it,
 * and the device object. */
static void close_devices(const struct gs_backend *b, struct gs_device **devs, int count)
{
    for (int i = 0; i < count; ++i) {
        gs_dev_free_all(devs[i]);
        if (b->release)
            b->release(devs[i]);
        free(devs[i]);
    }
    free(devs);
}

void gs_open_backend(const struct gs_backend *b, struct gs_opened *o)
{
    struct gs_device_list list = {b, NULL, 0, 0};
    memset(o, 0, sizeof *o);
    o->backend = b;
    o->status = gs_backend_check(b, &o->err);
    if (o->status != GS_OK)
        return;
    o->status = b->open(&list, o->notice, sizeof o->notice, &o->err);
    if (o->status == GS_OK && list.count == 0)
        o->status = gs_err_set(&o->err, GS_NO_DEVICE, "%s: no device found", b->name);
    if (o->status != GS_OK) {
        close_devices(b, list.devs, list.count);
        return;
    }
    o->devs = list.devs;
    o->count = list.count;
}

void gs_close_backend(struct gs_opened *o)
{
    if (o->status == GS_OK && o->devs)
        close_devices(o->backend, o->devs, o->count);
    o->devs = NULL;
    o->count = 0;
}

static int contains_nocase(const char *hay, const char *needle)
{
    const size_t n = strlen(needle);
    for (; *hay; ++hay) {
        size_t i = 0;
        while (i < n && hay[i] &&
               tolower((unsigned char)hay[i]) == tolower((unsigned char)needle[i]))
            ++i;
        if (i == n)
            return 1;
    }
    return 0;
}

static int is_index(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; ++s)
        if (!isdigit((unsigned char)*s))
            return 0;
    return 1;
}

/* An index is a number like any other: range-checked, never wrapped. */
static int parse_index(const char *sel, uint64_t *index, struct gs_err *e)
{
    *index = 0;
    return is_index(sel) ? gs_parse_u64(sel, 0, INT_MAX, "--device", index, e) : GS_OK;
}

int gs_device_selector_check(const char *sel, struct gs_err *e)
{
    uint64_t index;
    return sel ? parse_index(sel, &index, e) : GS_OK;
}

int gs_select_devices(const struct gs_opened *o, const char *sel, struct gs_device **out,
                      int max_out, int *n_out, struct gs_err *e)
{
    int n = 0;
    uint64_t index = 0;
    *n_out = 0;
    if (o->status != GS_OK)
        return gs_err_set(e, o->status, "%s", o->err.msg);
    if (!sel || !*sel) {
        int pick = 0;
        for (int i = o->count - 1; i >= 0; --i)
            if (o->devs[i]->is_gpu)
                pick = i;
        out[0] = o->devs[pick];
        *n_out = 1;
        return GS_OK;
    }
    if (parse_index(sel, &index, e) != GS_OK)
        return GS_USAGE;
    for (int i = 0; i < o->count && n < max_out; ++i) {
        const struct gs_device *d = o->devs[i];
        char resource[40];
        const int match = strcmp(sel, "all") == 0 || strcmp(sel, d->id) == 0 ||
                          (is_index(sel) && index == (uint64_t)d->index) ||
                          (gs_resource_id(d, resource, sizeof resource) &&
                           strcmp(sel, resource) == 0) ||
                          (!is_index(sel) && contains_nocase(d->name, sel));
        if (match)
            out[n++] = o->devs[i];
    }
    if (n == 0) {
        char names[400] = "";
        for (int i = 0; i < o->count; ++i) {
            size_t len = strlen(names);
            snprintf(names + len, sizeof names - len, "%s%s (%s)", i ? ", " : "",
                     o->devs[i]->id, o->devs[i]->name);
        }
        return gs_err_set(e, GS_USAGE,
                          "--device: '%.*s%s' matches no %s device; choose an index, id or name "
                          "substring of: %s",
                          GS_ECHO(sel), o->backend->name, names);
    }
    *n_out = n;
    return GS_OK;
}
