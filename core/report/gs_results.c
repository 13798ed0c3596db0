/* SPDX-License-Identifier: MIT */
#include "gs_results.h"

#include <stdio.h>

#include "gs_commit.h" /* GS_COMMIT, generated at build time */

const struct gs_results_member_info gs_results_members[GS_RESULTS_NMEMBERS] = {
#define GS_RESULTS_ENTRY(name, object, key, type, required)                                    \
    [GS_RM_##name] = {GS_RO_##object, key, GS_RT_##type, required},
    GS_RESULTS_MEMBERS(GS_RESULTS_ENTRY)
#undef GS_RESULTS_ENTRY
};

int gs_results_is(const struct gs_json *v, enum gs_results_type t)
{
    if (!v)
        return 0;
    switch (t) {
    case GS_RT_STRING: return v->type == GS_JSON_STRING;
    case GS_RT_UINT: return v->type == GS_JSON_NUMBER && v->is_u64;
    case GS_RT_NUMBER: return v->type == GS_JSON_NUMBER;
    case GS_RT_BOOL: return v->type == GS_JSON_TRUE || v->type == GS_JSON_FALSE;
    case GS_RT_ARRAY: return v->type == GS_JSON_ARRAY;
    default: return v->type == GS_JSON_OBJECT;
    }
}

const char *gs_results_type_words(enum gs_results_type t)
{
    switch (t) {
    case GS_RT_STRING: return "a string";
    case GS_RT_UINT: return "a non-negative integer";
    case GS_RT_NUMBER: return "a number";
    case GS_RT_BOOL: return "true or false";
    case GS_RT_ARRAY: return "an array";
    default: return "an object";
    }
}

static int incomplete(struct gs_err *e, const char *where, const char *what)
{
    return gs_err_set(e, GS_USAGE, "%s: %s; the file is not a complete gridstride results file",
                      where, what);
}

int gs_results_check(const struct gs_json *obj, unsigned objects, const char *where,
                     struct gs_err *e)
{
    char what[160];
    if (!obj || obj->type != GS_JSON_OBJECT)
        return incomplete(e, where, "not an object");
    for (int m = 0; m < GS_RESULTS_NMEMBERS; ++m) {
        const struct gs_results_member_info *f = &gs_results_members[m];
        if (!(objects >> f->object & 1u) || !f->required)
            continue;
        if (!gs_results_is(gs_json_get(obj, f->key), f->type)) {
            snprintf(what, sizeof what, "\"%s\" is missing or not %s", f->key,
                     gs_results_type_words(f->type));
            return incomplete(e, where, what);
        }
    }
    return GS_OK;
}

const char *gs_build_commit(void)
{
    return GS_COMMIT;
}

void gs_results_header(struct gs_jw *w, const char *mode, const struct gs_run_info *run)
{
    gs_report_header(w, GS_RESULTS_SCHEMA, GS_RESULTS_SCHEMA_VERSION, mode, run);
}

void gs_report_header(struct gs_jw *w, const char *schema, int version, const char *mode,
                      const struct gs_run_info *run)
{
    gs_jw_object(w, NULL);
    gs_jw_space(w, "\n  ");
    gs_jw_str(w, GS_RK(SCHEMA), schema);
    gs_jw_int(w, GS_RK(SCHEMA_VERSION), version);
    gs_jw_str(w, GS_RK(MODE), mode);
    gs_jw_space(w, "\n  ");
    gs_jw_str(w, GS_RK(TOOL), "gridstride");
    gs_jw_str(w, GS_RK(VERSION), run->version);
    gs_jw_str(w, GS_RK(COMMIT), gs_build_commit());
    gs_jw_str(w, GS_RK(DATE), run->date);
    gs_jw_space(w, "\n  ");
    gs_jw_str(w, GS_RK(TOOLKIT), run->toolkit);
    gs_jw_space(w, "\n  ");
    gs_jw_str(w, GS_RK(COMMAND), run->command);
}
