/* SPDX-License-Identifier: MIT */
#include "gs_registry.h"

#include <stdio.h>
#include <string.h>

int gs_registry_count(void)
{
    int n = 0;
    for (int i = 0; gs_registry_known[i].name; ++i)
        n += gs_registry_known[i].backend != NULL;
    return n;
}

const struct gs_backend *gs_registry_at(int i)
{
    for (int k = 0; gs_registry_known[k].name; ++k)
        if (gs_registry_known[k].backend && i-- == 0)
            return gs_registry_known[k].backend;
    return NULL;
}

const struct gs_registry_entry *gs_registry_entry(const char *name)
{
    for (int i = 0; gs_registry_known[i].name; ++i)
        if (strcmp(gs_registry_known[i].name, name) == 0)
            return &gs_registry_known[i];
    return NULL;
}

const struct gs_backend *gs_registry_find(const char *name)
{
    const struct gs_registry_entry *r = gs_registry_entry(name);
    return r ? r->backend : NULL;
}

int gs_registry_is_reference(const struct gs_backend *b)
{
    const struct gs_registry_entry *r = b ? gs_registry_entry(b->name) : NULL;
    return r && r->reference;
}

void gs_registry_names(char *buf, size_t size, int compiled_in_only)
{
    size_t len = 0;
    if (size)
        buf[0] = '\0';
    for (int i = 0; gs_registry_known[i].name && len < size; ++i) {
        if (compiled_in_only && !gs_registry_known[i].backend)
            continue;
        len += (size_t)snprintf(buf + len, size - len, "%s%s", len ? ", " : "",
                                gs_registry_known[i].name);
    }
}
