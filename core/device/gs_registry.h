/* SPDX-License-Identifier: MIT */
/* The backends this build knows, in the order CMake met them: those compiled
 * in, and those declared by gs_backend_option() but not built (their option
 * says how to build them). The table is generated from the CMake calls
 * (cmake/gridstride.cmake), so no backend's name is written in core/ or cli/. */
#ifndef GS_REGISTRY_H
#define GS_REGISTRY_H

#include "gs_backend.h"

struct gs_registry_entry {
    const char *name;                 /* the --backend name */
    const char *option;               /* the CMake option that builds it; NULL: always built */
    int reference;                    /* the plain-C reference, not a GPU API */
    const struct gs_backend *backend; /* NULL: not compiled in */
};

extern const struct gs_registry_entry gs_registry_known[]; /* ends with name NULL */

/* The compiled-in backends. */
int gs_registry_count(void);
const struct gs_backend *gs_registry_at(int i);
const struct gs_backend *gs_registry_find(const char *name); /* NULL when not compiled in */

/* Every known backend by name, compiled in or not; NULL when unknown. */
const struct gs_registry_entry *gs_registry_entry(const char *name);
/* 1 when the backend is the reference (bandwidth leaves it out unless named). */
int gs_registry_is_reference(const struct gs_backend *b);
/* "host, opencl, cuda": the known names, for messages and --help. */
void gs_registry_names(char *buf, size_t size, int compiled_in_only);

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
