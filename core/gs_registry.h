/* SPDX-License-Identifier: MIT */
/* The compiled-in backends, in the order CMake registered them. The table is
 * generated from the gs_add_backend() calls (cmake/gridstride.cmake). */
#ifndef GS_REGISTRY_H
#define GS_REGISTRY_H

#include "gs_backend.h"

extern const struct gs_backend *const gs_registry_table[]; /* NULL-terminated */

int gs_registry_count(void);
const struct gs_backend *gs_registry_at(int i);
const struct gs_backend *gs_registry_find(const char *name); /* NULL when not compiled in */

#endif
