/* SPDX-License-Identifier: MIT */
#include "gs_table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gs_device.h"

static const char *const column_letters[GS_COLUMNS] = {"A", "B", "C", "D"};
static const char *const column_titles[GS_COLUMNS] = {
    "one thread per element, grid sized to n",
    "one thread per element, grid sized to the device",
    "grid-stride loop, grid sized to the device",
    "one contiguous chunk per thread (C = ceil(n / T)), grid sized to the device",
};
static const enum gs_kernel_id column_kernels[GS_COLUMNS] = {GS_K_ADD_MONO, GS_K_ADD_MONO,
                                                             GS_K_ADD_GS, GS_K_ADD_CHUNKED};

const char *gs_column_letter(enum gs_column c)
{
    return column_letters[c];
}

const char *gs_column_title(enum gs_column c)
{
    return column_titles[c];
}

static uint64_t ceil_div(uint64_t a, uint64_t b)
{
    return a / b + (a % b != 0);
}

int gs_table_grid(struct gs_device *dev, const struct gs_table_plan *plan, uint64_t *grid,
                  int *fallback, char *rule, unsigned rule_size, struct gs_err *e)
{
    const unsigned block = plan->block ? plan->block : GS_DEFAULT_BLOCK;
    *fallback = 0;
    if (plan->grid) {
        *grid = plan->grid;
        snprintf(rule, rule_size, "set by --grid");
        return GS_OK;
    }
    if (block == 0 || block > dev->max_block_device) {
        *grid = dev->compute_units ? dev->compute_units : 1;
        *fallback = 1;
        snprintf(rule, rule_size,
                 "block %u is beyond this device (at most %u): a stand-in of one block per "
                 "compute unit, so that the API's answer is recorded",
                 block, dev->max_block_device);
        return GS_OK;
    }
    return gs_dev_grid(dev, GS_K_ADD_GS, block, grid, rule, rule_size, e);
}

int gs_grid_choose(struct gs_device *dev, unsigned block, uint64_t grid,
                   struct gs_grid_choice *out, struct gs_err *e)
{
    const struct gs_table_plan plan = {.block = block, .grid = grid};
    return gs_table_grid(dev, &plan, &out->grid, &out->fallback, out->rule, sizeof out->rule, e);
}

uint64_t gs_table_max_n(const struct gs_table_plan *plan)
{
    uint64_t n = plan->nshapes > 0 ? GS_SHAPE_N : 0;
    for (int i = 0; i < plan->nsizes; ++i)
        if (plan->sizes[i] > n)
            n = plan->sizes[i];
    return n;
}

static struct gs_case *add_case(struct gs_table *t, enum gs_section sec, enum gs_column col,
                                int row, uint64_t n, uint64_t grid, uint64_t block, uint64_t global)
{
    struct gs_case *c = &t->cases[t->ncases++];
    memset(c, 0, sizeof *c);
    c->section = sec;
    c->column = col;
    c->row = row;
    c->launch.kernel = column_kernels[col];
    c->launch.n = n;
    c->launch.grid = grid;
    c->launch.block = block;
    c->launch.global = global;
    if (col == GS_COL_D) {
        const uint64_t C = global ? ceil_div(n, global) : 0;
        c->launch.param = C ? C : 1;
    }
    return c;
}

static int plan_cases(struct gs_table *t, const struct gs_table_plan *plan)
{
    const uint64_t G = t->grid, B = t->block;
    const int max_cases = plan->nsizes * GS_COLUMNS + plan->nshapes * 2 + 1;
    t->cases = calloc((size_t)max_cases, sizeof *t->cases);
    if (!t->cases)
        return 0;
    for (int s = 0; s < plan->nsizes; ++s) {
        const uint64_t n = plan->sizes[s];
        for (int col = 0; col < GS_COLUMNS; ++col) {
            if (!(plan->columns & (1u << col)))
                continue;
            const uint64_t g = col == GS_COL_A ? ceil_div(n, B) : G;
            add_case(t, GS_SEC_SIZES, (enum gs_column)col, s, n, g, B, g * B);
        }
    }
    for (int s = 0; s < plan->nshapes; ++s) {
        const uint64_t g = plan->shapes[s].grid ? plan->shapes[s].grid : G;
        const uint64_t b = plan->shapes[s].grid ? plan->shapes[s].block : B;
        for (int col = GS_COL_C; col <= GS_COL_D; ++col)
            if (plan->columns & (1u << col))
                add_case(t, GS_SEC_SHAPES, (enum gs_column)col, s, GS_SHAPE_N, g, b, g * b);
    }
    if ((t->dev->caps & GS_CAP_RAGGED_GLOBAL) && (plan->columns & (1u << GS_COL_C)))
        add_case(t, GS_SEC_RAGGED, GS_COL_C, 0, GS_SHAPE_N, ceil_div(GS_SHAPE_N, B), B, GS_SHAPE_N);
    return 1;
}

static void case_label(const struct gs_device *dev, const struct gs_case *c, char *buf,
                       size_t size)
{
    char shape[96];
    gs_launch_shape(&c->launch, shape, sizeof shape);
    snprintf(buf, size, "%s %s: column %s, n = %llu, %s", dev->backend->name, dev->name,
             gs_column_letter(c->column), (unsigned long long)c->launch.n, shape);
}

/* Predict, then launch what can be launched, and compare. A launch the
 * model says cannot finish, or that the backend does not send, is recorded
 * as not launched, with the reason, and never reaches the API. */
static int run_case(struct gs_workspace *w, struct gs_case *c, struct gs_err *e)
{
    int rc = gs_dev_grant(w->dev, &c->launch, e);
    if (rc != GS_OK)
        return rc;
    gs_predict(w->dev, &c->launch, &c->pred);
    if (c->pred.outcome == GS_OUT_NOT_LAUNCHED) {
        c->got.not_sent = 1;
        gs_strlcpy(c->got.api_error, "not launched", sizeof c->got.api_error);
        gs_strlcpy(c->got.api_message, c->pred.why, sizeof c->got.api_message);
        gs_verify_begin(&c->launch, &c->verdict);
        c->held = 1;
        return GS_OK;
    }
    case_label(w->dev, c, w->label, sizeof w->label);
    rc = gs_checked_launch(w, &c->launch, &c->got, &c->verdict, e);
    if (rc != GS_OK)
        return rc;
    gs_judge(&c->pred, &c->got, &c->verdict, &c->held, &c->deviation, c->mismatch,
             sizeof c->mismatch);
    return GS_OK;
}

int gs_table_run(struct gs_device *dev, const struct gs_table_plan *plan, struct gs_table **out,
                 struct gs_err *e)
{
    struct gs_grid_choice g;
    *out = NULL;
    const int rc = gs_grid_choose(dev, plan->block, plan->grid, &g, e);
    return rc == GS_OK ? gs_table_run_at(dev, plan, &g, out, e) : rc;
}

int gs_table_run_at(struct gs_device *dev, const struct gs_table_plan *plan,
                    const struct gs_grid_choice *g, struct gs_table **out, struct gs_err *e)
{
    struct gs_table *t = calloc(1, sizeof *t);
    struct gs_workspace w = {0};
    int rc = GS_OK;

    *out = NULL;
    if (!t)
        return gs_err_set(e, GS_NOMEM, "out of memory");
    t->dev = dev;
    t->block = plan->block ? plan->block : GS_DEFAULT_BLOCK;
    t->grid = g->grid;
    t->grid_fallback = g->fallback;
    gs_strlcpy(t->grid_rule, g->rule, sizeof t->grid_rule);
    /* The model needs to know how this device computes T past 2^32. */
    const struct gs_grid_probe *probe;
    if ((rc = gs_dev_probe_grid(dev, &probe, e)) != GS_OK)
        goto out;
    t->threads = t->grid * t->block;
    struct gs_launch device_grid = {.kernel = GS_K_ADD_GS, .grid = t->grid, .block = t->block,
                                    .global = t->threads};
    if ((rc = gs_dev_grant(dev, &device_grid, e)) != GS_OK)
        goto out;
    t->granted_grid = device_grid.grid;
    t->granted_block = device_grid.block;
    if (!plan_cases(t, plan)) {
        rc = gs_err_set(e, GS_NOMEM, "out of memory");
        goto out;
    }
    uint64_t max_n = 0;
    for (int i = 0; i < t->ncases; ++i)
        if (t->cases[i].launch.n > max_n)
            max_n = t->cases[i].launch.n;
    if ((rc = gs_workspace_open(&w, dev, max_n, plan->progress, e)) != GS_OK)
        goto out;
    for (int i = 0; i < t->ncases; ++i) {
        struct gs_case *c = &t->cases[i];
        gs_workspace_bind(&w, &c->launch);
        rc = run_case(&w, c, e);
        c->launch.a = c->launch.b = c->launch.out = NULL;
        if (rc != GS_OK)
            goto out;
        t->failed += !c->held;
        t->deviations += c->deviation;
    }
out:
    t->copies = w.copies;
    gs_workspace_close(&w);
    if (rc != GS_OK) {
        gs_table_free(t);
        return rc;
    }
    *out = t;
    return GS_OK;
}

const struct gs_case *gs_table_find(const struct gs_table *t, enum gs_section sec,
                                    enum gs_column col, int row)
{
    for (int i = 0; i < t->ncases; ++i) {
        const struct gs_case *c = &t->cases[i];
        if (c->section == sec && c->column == col && c->row == row)
            return c;
    }
    return NULL;
}

void gs_table_free(struct gs_table *t)
{
    if (t) {
        free(t->cases);
        free(t);
    }
}
