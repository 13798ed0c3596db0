/* SPDX-License-Identifier: MIT */
#include "gs_registry.h"

#include <string.h>

int gs_registry_count(void)
{
    int n = 0;
    while (gs_registry_table[n])
        ++n;
    return n;
}

const struct gs_backend *gs_registry_at(int i)
{
    return (i >= 0 && i < gs_registry_count()) ? gs_registry_table[i] : NULL;
}

const struct gs_backend *gs_registry_find(const char *name)
{
    for (int i = 0; gs_registry_table[i]; ++i)
        if (strcmp(gs_registry_table[i]->name, name) == 0)
            return gs_registry_table[i];
    return NULL;
}
