/* SPDX-License-Identifier: MIT */
#include "gs_catalog.h"

#include <string.h>

static const struct gs_kernel_info catalogue[GS_KERNEL_COUNT] = {
#define GS_KERNEL_ROW(id, sym, name, op, bytes, rule, param)                                  \
    {GS_K_##id, #sym, name, op, bytes, rule, param},
    GS_KERNEL_LIST(GS_KERNEL_ROW)
#undef GS_KERNEL_ROW
};

const struct gs_kernel_info *gs_kernel_info(enum gs_kernel_id id)
{
    if ((int)id < 0 || id >= GS_KERNEL_COUNT)
        return NULL;
    return &catalogue[id];
}

const struct gs_kernel_info *gs_kernel_by_name(const char *name)
{
    for (int k = 0; k < GS_KERNEL_COUNT; ++k)
        if (strcmp(catalogue[k].name, name) == 0)
            return &catalogue[k];
    return NULL;
}
