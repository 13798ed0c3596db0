/* SPDX-License-Identifier: MIT */
#include "gs_check.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "gs_defaults.h"
#include "gs_device.h"
#include "gs_workspace.h"

static const char *const class_names[GS_CHECK_CLASSES] = {
#define GS_CHECK_CLASS_NAME(id, name, words) name,
    GS_CHECK_CLASS_LIST(GS_CHECK_CLASS_NAME)
#undef GS_CHECK_CLASS_NAME
};

static const char *const class_words[GS_CHECK_CLASSES] = {
#define GS_CHECK_CLASS_WORDS(id, name, words) words,
    GS_CHECK_CLASS_LIST(GS_CHECK_CLASS_WORDS)
#undef GS_CHECK_CLASS_WORDS
};

const char *gs_check_class_name(enum gs_check_class c)
{
    return (unsigned)c < GS_CHECK_CLASSES ? class_names[c] : "?";
}

const char *gs_check_class_words(enum gs_check_class c)
{
    return (unsigned)c < GS_CHECK_CLASSES ? class_words[c] : "?";
}

/* ---- the cases ----------------------------------------------------------- */

static int sizes_for(const struct gs_check_plan *plan, uint64_t T, uint64_t out[GS_MAX_SIZES])
{
    if (!plan->sizes)
        return gs_default_sizes(T, out);
    memcpy(out, plan->sizes, (size_t)plan->nsizes * sizeof *out);
    return plan->nsizes;
}

uint64_t gs_check_max_n(const struct gs_check_plan *plan, uint64_t T)
{
    uint64_t sizes[GS_MAX_SIZES], max = GS_SHAPE_N;
    const uint64_t grids[2] = {T, (uint64_t)GS_T4_GRID * GS_T4_BLOCK};
    for (int g = 0; g < 2; ++g) {
        const int n = sizes_for(plan, grids[g], sizes);
        for (int i = 0; i < n; ++i)
            if (sizes[i] > max)
                max = sizes[i];
    }
    return max;
}

static void add_case(struct gs_check_run *r, enum gs_check_section sec, uint64_t n,
                     uint64_t grid, uint64_t block)
{
    struct gs_check_case *c = &r->cases[r->ncases++];
    memset(c, 0, sizeof *c);
    c->section = sec;
    /* The verifier's owner map for the contract's mapping: element i belongs
     * to thread i % T on pass i / T, as in a grid-stride loop. */
    c->launch.kernel = GS_K_ADD_GS;
    c->launch.n = n;
    c->launch.grid = grid;
    c->launch.block = block;
    c->launch.global = grid * block;
}

static int plan_cases(struct gs_check_run *r, const struct gs_check_plan *plan)
{
    struct gs_shape shapes[GS_MAX_SHAPES];
    uint64_t sizes[GS_MAX_SIZES];
    const int nshapes = plan->shapes ? plan->nshapes : gs_default_shapes(r->grid, r->block, shapes);
    if (plan->shapes)
        memcpy(shapes, plan->shapes, (size_t)nshapes * sizeof *shapes);
    /* A device grid that is the T4's already is the T4 section. */
    const int t4 = !(r->grid == GS_T4_GRID && r->block == GS_T4_BLOCK);
    r->cases = calloc(2 * GS_MAX_SIZES + GS_MAX_SHAPES, sizeof *r->cases);
    if (!r->cases)
        return 0;
    int n = sizes_for(plan, r->threads, sizes);
    for (int i = 0; i < n; ++i)
        add_case(r, GS_CHK_SIZES, sizes[i], r->grid, r->block);
    for (int i = 0; i < nshapes; ++i)
        add_case(r, GS_CHK_SHAPES, GS_SHAPE_N, shapes[i].grid, shapes[i].block);
    n = t4 ? sizes_for(plan, (uint64_t)GS_T4_GRID * GS_T4_BLOCK, sizes) : 0;
    for (int i = 0; i < n; ++i)
        add_case(r, GS_CHK_T4, sizes[i], GS_T4_GRID, GS_T4_BLOCK);
    return 1;
}

/* ---- running them -------------------------------------------------------- */

/* The class of a case that ran: the most telling diagnosis first. */
static enum gs_check_class classify(const struct gs_launch_result *got, const struct gs_verdict *v)
{
    if (!got->accepted)
        return GS_CHECK_REFUSED;
    if (v->diag & GS_DIAG_PAST_END)
        return GS_CHECK_PAST_END;
    if (v->diag & GS_DIAG_WRONG_VALUES)
        return GS_CHECK_WRONG_VALUE;
    if (v->diag & GS_DIAG_SHORT_GRID)
        return GS_CHECK_SHORT_GRID;
    if (v->diag & GS_DIAG_HOLES)
        return GS_CHECK_UNWRITTEN;
    return GS_CHECK_OK;
}

static void not_run_from(struct gs_check_run *r, int first, const char *why)
{
    for (int i = first; i < r->ncases; ++i) {
        r->cases[i].cls = GS_CHECK_NOT_RUN;
        gs_strlcpy(r->cases[i].why, why, sizeof r->cases[i].why);
    }
}

/* One case. GS_OK also when it faulted: that is a result. */
static int run_case(struct gs_check_run *r, int i, struct gs_workspace *w,
                    struct gs_user_kernel *k, const struct gs_check_observer *obs,
                    struct gs_err *e)
{
    struct gs_check_case *c = &r->cases[i];
    gs_workspace_bind(w, &c->launch);
    c->launch.user = k;
    if (obs && obs->before)
        obs->before(obs->ctx, r->dev, c);
    const int rc = gs_checked_launch(w, &c->launch, &c->got, &c->verdict, e);
    if (obs && obs->after)
        obs->after(obs->ctx);
    c->launch.a = c->launch.b = c->launch.out = NULL;
    c->launch.user = NULL;
    if (rc == GS_FAULT) {
        c->cls = GS_CHECK_FAULTED;
        gs_strlcpy(c->why, e->msg, sizeof c->why);
        not_run_from(r, i + 1, "an earlier case of this backend faulted");
        return GS_OK;
    }
    if (rc == GS_OK)
        c->cls = classify(&c->got, &c->verdict);
    return rc;
}

/* The smallest failing case: the smallest n; at one n, the harness's own
 * order (the device grid, then the shapes, then the T4's grid), which is
 * the same on every device, unlike the thread counts. */
static int smaller(const struct gs_check_case *a, const struct gs_check_case *b)
{
    if (a->launch.n != b->launch.n)
        return a->launch.n < b->launch.n;
    return a < b;
}

static void summarize(struct gs_check_run *r)
{
    r->smallest = -1;
    for (int i = 0; i < r->ncases; ++i) {
        const struct gs_check_case *c = &r->cases[i];
        ++r->count[c->cls];
        if (c->cls == GS_CHECK_OK || c->cls == GS_CHECK_NOT_RUN)
            continue;
        if (r->smallest < 0 || smaller(c, &r->cases[r->smallest]))
            r->smallest = i;
    }
}

static int run_cases(struct gs_check_run *r, struct gs_user_kernel *k,
                     const struct gs_check_observer *obs, struct gs_err *e)
{
    struct gs_workspace w;
    uint64_t max_n = 0;
    for (int i = 0; i < r->ncases; ++i)
        if (r->cases[i].launch.n > max_n)
            max_n = r->cases[i].launch.n;
    int rc = gs_workspace_open(&w, r->dev, max_n, NULL, e);
    for (int i = 0; rc == GS_OK && i < r->ncases; ++i) {
        rc = run_case(r, i, &w, k, obs, e);
        if (r->cases[i].cls == GS_CHECK_FAULTED)
            break;
    }
    if (rc == GS_OK)
        summarize(r);
    gs_workspace_close(&w);
    return rc;
}

int gs_check_device(struct gs_device *dev, const struct gs_user_source *src,
                    const struct gs_check_plan *plan, const struct gs_check_observer *obs,
                    struct gs_check_run *run, struct gs_err *e)
{
    /* G is the suite's grid-stride kernel's, so that every user kernel on
     * one device is judged on the same grid. */
    struct gs_grid_choice g;
    memset(run, 0, sizeof *run);
    const int rc = gs_grid_choose(dev, plan->block, plan->grid, &g, e);
    return rc == GS_OK ? gs_check_device_at(dev, &g, src, plan, obs, run, e) : rc;
}

int gs_check_device_at(struct gs_device *dev, const struct gs_grid_choice *g,
                       const struct gs_user_source *src, const struct gs_check_plan *plan,
                       const struct gs_check_observer *obs, struct gs_check_run *run,
                       struct gs_err *e)
{
    struct gs_user_kernel *k = NULL;

    memset(run, 0, sizeof *run);
    run->dev = dev;
    run->smallest = -1;
    run->block = plan->block ? plan->block : GS_DEFAULT_BLOCK;
    run->grid = g->grid;
    gs_strlcpy(run->grid_rule, g->rule, sizeof run->grid_rule);
    int rc = GS_OK;
    if (g->fallback)
        rc = gs_err_set(e, GS_USAGE, "%s device %s: %s", dev->backend->name, dev->name,
                        run->grid_rule);
    if (rc != GS_OK)
        return rc;
    run->threads = run->grid * run->block;
    if (!plan_cases(run, plan))
        return gs_err_set(e, GS_NOMEM, "out of memory");
    rc = gs_dev_user_build(dev, src, &k, &run->build, e);
    if (rc == GS_OK)
        rc = run_cases(run, k, obs, e);
    gs_dev_user_free(dev, k);
    return rc;
}

void gs_check_run_free(struct gs_check_run *run)
{
    gs_build_info_free(&run->build);
    free(run->cases);
    run->cases = NULL;
    run->ncases = 0;
}

/* ---- the file ------------------------------------------------------------ */

static const struct {
    const char *ext;
    enum gs_dialect dialect;
    const char *name;
} dialects[] = {
    {".gs", GS_DIALECT_PORTABLE, "the portable dialect (kernels/' GS_* macros)"},
    {".cl", GS_DIALECT_OPENCL, "OpenCL C"},
    {".cu", GS_DIALECT_CUDA, "CUDA C++"},
};

int gs_dialect_of_path(const char *path, enum gs_dialect *d, struct gs_err *e)
{
    const char *slash = strrchr(path, '/');
    const char *dot = strrchr(slash ? slash : path, '.');
    for (size_t i = 0; dot && i < sizeof dialects / sizeof dialects[0]; ++i)
        if (strcmp(dot, dialects[i].ext) == 0) {
            *d = dialects[i].dialect;
            return GS_OK;
        }
    return gs_err_set(e, GS_USAGE,
                      "%s: %s%s%s; name the file .cl (OpenCL C), .cu (CUDA C++) or .gs (the "
                      "portable dialect)",
                      path, dot ? "unknown extension '" : "no extension", dot ? dot : "",
                      dot ? "'" : "");
}

const char *gs_dialect_name(enum gs_dialect d)
{
    for (size_t i = 0; i < sizeof dialects / sizeof dialects[0]; ++i)
        if (dialects[i].dialect == d)
            return dialects[i].name;
    return "?";
}

int gs_check_source_text(const char *path, const char *text, size_t len, struct gs_err *e)
{
    size_t blank = 0, odd = 0;
    for (size_t i = 0; i < len; ++i) {
        const unsigned char ch = (unsigned char)text[i];
        if (ch == 0)
            return gs_err_set(e, GS_USAGE,
                              "%s is not source text (a NUL byte at offset %zu); give the "
                              "kernel's source file",
                              path, i);
        blank += isspace(ch) != 0;
        /* Control characters other than white space do not occur in source. */
        odd += ch < 0x20 && !isspace(ch);
    }
    if (len == blank)
        return gs_err_set(e, GS_USAGE,
                          "%s is empty; it must hold one kernel (see gridstride check --help)",
                          path);
    if (odd * 100 > len)
        return gs_err_set(e, GS_USAGE,
                          "%s is not source text (%zu control characters); give the kernel's "
                          "source file",
                          path, odd);
    return GS_OK;
}

int gs_entry_valid(const char *entry)
{
    if (!entry || !(isalpha((unsigned char)entry[0]) || entry[0] == '_'))
        return 0;
    for (const char *p = entry; *p; ++p)
        if (!isalnum((unsigned char)*p) && *p != '_')
            return 0;
    return strlen(entry) < 128;
}
