/* The compiled-in backends, in the order CMake registered them. The table is
 * generated from the gs_add_backend() calls (cmake/gridstride.cmake). */
#ifndef GS_REGISTRY_H
#define GS_REGISTRY_H

#include "gs_backend.h"

extern const struct gs_backend *const gs_registry_table[]; /* NULL-terminated */
/* Every backend of the source tree, compiled in or not; NULL-terminated. */
extern const char *const gs_registry_known_names[];

int gs_registry_count(void);
const struct gs_backend *gs_registry_at(int i);
const struct gs_backend *gs_registry_find(const char *name); /* NULL when not compiled in */

/* Backends the project has, whether or not this build compiled them in:
 * a name outside this list is a typo, one inside it but not found by
 * gs_registry_find() is a backend to reconfigure with -DGS_<NAME>=ON. */
int gs_registry_known_count(void);
const char *gs_registry_known(int i);
/* "host, opencl" into buf: the compiled-in names (known = 0) or all (1). */
void gs_registry_names(int known, char *buf, size_t size);

/* GS_OK when `name` is a compiled-in backend. Else GS_USAGE, with a message
 * (starting with `what`, the option) that tells a typo, naming the backends
 * there are, from a backend this build lacks, naming the option to build it. */
int gs_backend_name_check(const char *name, const char *what, struct gs_err *e);

/* GRIDSTRIDE_REQUIRE is a comma list of compiled-in backends, or "all"; unset
 * or empty, nothing is required. A typo, a backend this build lacks or an
 * empty entry is GS_USAGE: a requirement must never switch itself off. */
int gs_require_check(struct gs_err *e);

/* 1 when GRIDSTRIDE_REQUIRE names `backend` (or "all"), or cannot be read
 * (gs_require_check says why): then an absent backend is a failure, not a
 * skip. */
int gs_backend_required(const char *backend);

#endif
