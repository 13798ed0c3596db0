/* SPDX-License-Identifier: MIT */
#include "gs_registry.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gs_parse.h"

#define GS_REQUIRE_VAR "GRIDSTRIDE_REQUIRE"

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

/* The names in GRIDSTRIDE_REQUIRE, split (none when it is unset or empty). */
static int required_names(char *buf, size_t size, char **names, int *count, struct gs_err *e)
{
    const char *req = getenv(GS_REQUIRE_VAR);
    *count = 0;
    if (!req || !*req)
        return GS_OK;
    return gs_split_list(req, GS_REQUIRE_VAR, "backend names", buf, size, names, 16, count, e);
}

int gs_backend_name_check(const char *name, const char *what, struct gs_err *e)
{
    char compiled[128], known[128];
    const struct gs_registry_entry *r = gs_registry_entry(name);
    if (r && r->backend)
        return GS_OK;
    gs_registry_names(compiled, sizeof compiled, 1);
    gs_registry_names(known, sizeof known, 0);
    if (r && r->option)
        return gs_err_set(e, GS_USAGE,
                          "%s: %s is not compiled into this build (compiled in: %s); reconfigure "
                          "with -D%s=ON",
                          what, name, compiled, r->option);
    return gs_err_set(e, GS_USAGE, "%s: unknown backend '%.*s%s'; choose from %s, or all", what,
                      GS_ECHO(name), known);
}

int gs_require_check(struct gs_err *e)
{
    char buf[256], *names[16];
    int count = 0;
    int rc = required_names(buf, sizeof buf, names, &count, e);
    for (int i = 0; i < count && rc == GS_OK; ++i)
        if (strcmp(names[i], "all") != 0)
            rc = gs_backend_name_check(names[i], GS_REQUIRE_VAR, e);
    return rc;
}

int gs_backend_required(const char *backend)
{
    char buf[256], *names[16];
    int count = 0;
    if (required_names(buf, sizeof buf, names, &count, NULL) != GS_OK)
        return 1; /* gs_require_check refuses it; never read it as "not required" */
    for (int i = 0; i < count; ++i)
        if (strcmp(names[i], backend) == 0 || strcmp(names[i], "all") == 0)
            return 1;
    return 0;
}
