#include "gs_registry.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gs_plan.h"

#define GS_REQUIRE_VAR "GRIDSTRIDE_REQUIRE"

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

int gs_registry_known_count(void)
{
    int n = 0;
    while (gs_registry_known_names[n])
        ++n;
    return n;
}

const char *gs_registry_known(int i)
{
    return (i >= 0 && i < gs_registry_known_count()) ? gs_registry_known_names[i] : NULL;
}

void gs_registry_names(int known, char *buf, size_t size)
{
    const int n = known ? gs_registry_known_count() : gs_registry_count();
    size_t len = 0;
    if (size)
        buf[0] = '\0';
    for (int i = 0; i < n && len + 1 < size; ++i) {
        const char *name = known ? gs_registry_known(i) : gs_registry_at(i)->name;
        const int w = snprintf(buf + len, size - len, "%s%s", i ? ", " : "", name);
        len += w > 0 ? (size_t)w : 0;
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
    char compiled[128], known[128], option[32];
    size_t i = 0;
    if (gs_registry_find(name))
        return GS_OK;
    gs_registry_names(0, compiled, sizeof compiled);
    gs_registry_names(1, known, sizeof known);
    for (int k = 0; k < gs_registry_known_count(); ++k) {
        if (strcmp(name, gs_registry_known(k)) != 0)
            continue;
        for (; name[i] && i + 1 < sizeof option; ++i)
            option[i] = (char)toupper((unsigned char)name[i]);
        option[i] = '\0';
        return gs_err_set(e, GS_USAGE,
                          "%s: %s is not compiled into this build (compiled in: %s); reconfigure "
                          "with -DGS_%s=ON",
                          what, name, compiled, option);
    }
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
