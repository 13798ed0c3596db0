/* SPDX-License-Identifier: MIT */
#include "gs_compare.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gs_results.h"

#define CELL 14
#define MAX_ROWS 256
#define MAX_GROUPS 64

/* ---- loading and checking ---------------------------------------------------- */

static int incomplete(struct gs_err *e, const char *where, const char *what)
{
    return gs_err_set(e, GS_USAGE, "%s: %s; the file is not a complete gridstride results file",
                      where, what);
}

/* The objects of a table device and of a bandwidth run (gs_results.h). */
#define TABLE_DEVICE (1u << GS_RO_DEVICE | 1u << GS_RO_TABLE_DEVICE)
#define BANDWIDTH_RUN (1u << GS_RO_DEVICE | 1u << GS_RO_RUN)

static int one_of(const char *s, const char *const *words)
{
    for (; *words; ++words)
        if (strcmp(s, *words) == 0)
            return 1;
    return 0;
}

static int check_case(const struct gs_json *c, const char *where, struct gs_err *e)
{
    static const char *const sections[] = {"sizes", "shapes", "ragged", NULL};
    static const char *const columns[] = {"A", "B", "C", "D", NULL};
    static const char *const outcomes[] = {"ok", "wrong", "refused", "not launched", NULL};
    uint64_t first;
    int rc = gs_results_check(c, 1u << GS_RO_CASE, where, e);
    if (rc != GS_OK)
        return rc;
    const struct gs_json *obs = gs_json_get(c, GS_RK(CASE_OBSERVED));
    const char *outcome = gs_json_str(obs, GS_RK(OBSERVED_OUTCOME), "");
    if (!one_of(gs_json_str(c, GS_RK(CASE_SECTION), ""), sections))
        return incomplete(e, where, "\"section\" is not sizes, shapes or ragged");
    if (!one_of(gs_json_str(c, GS_RK(CASE_COLUMN), ""), columns))
        return incomplete(e, where, "\"column\" is not A, B, C or D");
    if (!one_of(outcome, outcomes))
        return incomplete(e, where, "\"observed\".\"outcome\" is not ok, wrong, refused or "
                                    "not launched");
    if (strcmp(outcome, "wrong") == 0 && !gs_json_u64(obs, GS_RK(OBSERVED_FIRST_WRONG), &first))
        return incomplete(e, where, "a wrong result without \"first_wrong\"");
    if (strcmp(gs_json_str(c, GS_RK(CASE_SECTION), ""), "shapes") == 0 &&
        !gs_json_str(c, GS_RK(CASE_SHAPE), NULL))
        return incomplete(e, where, "a shapes case without \"shape\"");
    return GS_OK;
}

static int check_row(const struct gs_json *r, const char *where, struct gs_err *e)
{
    double gbps;
    int rc = gs_results_check(r, 1u << GS_RO_ROW, where, e);
    if (rc == GS_OK && gs_json_bool(r, GS_RK(ROW_VERIFIED), 0) &&
        !gs_json_num(r, GS_RK(ROW_GBPS), &gbps))
        return incomplete(e, where, "a verified row without \"gbps\"");
    return rc;
}

/* Every group (device or run) and every case or row in it. */
static int check_groups(const struct gs_compare_file *f, struct gs_err *e)
{
    const int table = strcmp(f->mode, "table") == 0;
    const char *list = table ? GS_RK(DEVICES) : GS_RK(RUNS);
    const char *inner = table ? GS_RK(TABLE_CASES) : GS_RK(RUN_ROWS);
    const struct gs_json *groups = gs_json_get(f->root, list);
    char where[96];
    if (!groups || groups->type != GS_JSON_ARRAY || groups->count == 0)
        return incomplete(e, list, "missing, not an array, or empty");
    for (int g = 0; g < groups->count; ++g) {
        const struct gs_json *grp = gs_json_at(groups, g);
        snprintf(where, sizeof where, "%s[%d]", list, g);
        int rc = gs_results_check(grp, table ? TABLE_DEVICE : BANDWIDTH_RUN, where, e);
        const struct gs_json *items = gs_json_get(grp, inner);
        for (int k = 0; rc == GS_OK && k < items->count; ++k) {
            snprintf(where, sizeof where, "%s[%d].%s[%d]", list, g, inner, k);
            rc = table ? check_case(gs_json_at(items, k), where, e)
                       : check_row(gs_json_at(items, k), where, e);
        }
        if (rc != GS_OK)
            return rc;
    }
    return GS_OK;
}

static int check_schema(const struct gs_compare_file *f, struct gs_err *e)
{
    uint64_t version = 0;
    const char *schema = gs_json_str(f->root, GS_RK(SCHEMA), NULL);
    if (f->root->type != GS_JSON_OBJECT)
        return gs_err_set(e, GS_USAGE, "not a gridstride results file (the JSON is not an "
                                       "object); give the JSON of --format json or --json");
    if (!schema)
        return gs_err_set(e, GS_USAGE, "unknown schema: no \"schema\" member (not a results file, "
                                       "or written before results files had one); run gridstride "
                                       "again with --format json or --json");
    if (strcmp(schema, GS_RESULTS_SCHEMA) != 0)
        return gs_err_set(e, GS_USAGE, "unknown schema '%s'; compare reads %s files", schema,
                          GS_RESULTS_SCHEMA);
    if (!gs_json_u64(f->root, GS_RK(SCHEMA_VERSION), &version) ||
        version != GS_RESULTS_SCHEMA_VERSION)
        return gs_err_set(e, GS_USAGE, "schema %s version %s; this gridstride reads version %d "
                                       "(use the gridstride that wrote the file, or a newer one)",
                          schema, version ? "above 1" : "missing or not an integer",
                          GS_RESULTS_SCHEMA_VERSION);
    if (!one_of(f->mode, (const char *const[]){"table", "bandwidth", NULL}))
        return gs_err_set(e, GS_USAGE, "\"mode\" is '%s', not table or bandwidth; give a results "
                                       "file of gridstride or gridstride bandwidth", f->mode);
    return GS_OK;
}

/* Every string of a results file with its control characters escaped, so
 * that a device name or a path from a file (any machine's) can never break a
 * line of the report or reach the terminal as an escape sequence. */
static void escape_strings(struct gs_json *v)
{
    for (; v; v = v->next) {
        if (v->type == GS_JSON_STRING && v->str) {
            int controls = 0;
            for (const unsigned char *c = (const unsigned char *)v->str; *c; ++c)
                controls += *c < 0x20 || *c == 0x7f;
            if (controls) {
                const size_t size = strlen(v->str) + 3 * (size_t)controls + 1;
                char *esc = malloc(size);
                if (esc) {
                    gs_escape_controls(esc, size, v->str);
                    free(v->str);
                    v->str = esc;
                }
            }
        }
        escape_strings(v->child);
    }
}

int gs_compare_load(const char *path, struct gs_compare_file *f, struct gs_err *e)
{
    memset(f, 0, sizeof *f);
    f->path = path;
    struct gs_err why = {0};
    int rc = gs_json_read_file(path, &f->root, &why);
    if (rc == GS_USAGE)
        return gs_err_set(e, rc, "not JSON: %s", why.msg);
    if (rc != GS_OK)
        return gs_err_set(e, rc, "%s; give the path of a results file", why.msg);
    escape_strings(f->root);
    f->mode = gs_json_str(f->root, GS_RK(MODE), "");
    if ((rc = check_schema(f, e)) != GS_OK || (rc = check_groups(f, e)) != GS_OK)
        gs_compare_free(f);
    return rc;
}

void gs_compare_free(struct gs_compare_file *f)
{
    gs_json_free(f->root);
    f->root = NULL;
}

/* ---- groups and rows ------------------------------------------------------------ */

struct group {
    int file;                  /* index into files */
    const struct gs_json *obj; /* the device or run */
    const struct gs_json *items;
};

struct row {
    const char *section; /* "sizes", "shapes", "ragged"; NULL for bandwidth */
    const char *key;     /* shape label or variant; NULL for n */
    uint64_t n;
};

struct cmp {
    const struct gs_compare_file *files;
    int nfiles;
    struct group groups[MAX_GROUPS];
    int ngroups;
    struct row rows[MAX_ROWS];
    int nrows;
    int differ;
};

static int collect_groups(struct cmp *c, struct gs_err *e)
{
    for (int f = 0; f < c->nfiles; ++f) {
        const int table = strcmp(c->files[f].mode, "table") == 0;
        const struct gs_json *list =
            gs_json_get(c->files[f].root, table ? GS_RK(DEVICES) : GS_RK(RUNS));
        for (int g = 0; g < list->count; ++g) {
            if (c->ngroups == MAX_GROUPS)
                return gs_err_set(e, GS_USAGE, "more than %d devices in the files; compare fewer",
                                  MAX_GROUPS);
            struct group *grp = &c->groups[c->ngroups++];
            grp->file = f;
            grp->obj = gs_json_at(list, g);
            grp->items = gs_json_get(grp->obj, table ? GS_RK(TABLE_CASES) : GS_RK(RUN_ROWS));
        }
    }
    return GS_OK;
}

static int same_row(const struct row *a, const struct row *b)
{
    if ((a->section == NULL) != (b->section == NULL) ||
        (a->section && strcmp(a->section, b->section) != 0))
        return 0;
    if (a->key || b->key)
        return a->key && b->key && strcmp(a->key, b->key) == 0;
    return a->n == b->n;
}

/* The row an item belongs to: sizes and ragged by n, shapes by label,
 * bandwidth by variant. */
static struct row row_of(const struct gs_json *item, int table)
{
    struct row r = {0};
    if (!table) {
        r.key = gs_json_str(item, GS_RK(ROW_VARIANT), "");
        return r;
    }
    r.section = gs_json_str(item, GS_RK(CASE_SECTION), "");
    if (strcmp(r.section, "shapes") == 0)
        r.key = gs_json_str(item, GS_RK(CASE_SHAPE), "");
    else
        gs_json_u64(item, GS_RK(CASE_N), &r.n);
    return r;
}

static int add_row(struct cmp *c, const struct row *r, struct gs_err *e)
{
    for (int i = 0; i < c->nrows; ++i)
        if (same_row(&c->rows[i], r))
            return GS_OK;
    if (c->nrows == MAX_ROWS)
        return gs_err_set(e, GS_USAGE, "more than %d distinct rows in the files; compare fewer",
                          MAX_ROWS);
    c->rows[c->nrows++] = *r;
    return GS_OK;
}

/* Sizes ascending by n within their section; shapes and variants keep the
 * order in which the files first give them. */
static int row_order(const void *pa, const void *pb)
{
    const struct row *a = pa, *b = pb;
    static const char *const order[] = {"sizes", "shapes", "ragged"};
    int sa = 0, sb = 0;
    for (int i = 0; i < 3; ++i) {
        sa = a->section && strcmp(a->section, order[i]) == 0 ? i : sa;
        sb = b->section && strcmp(b->section, order[i]) == 0 ? i : sb;
    }
    if (sa != sb)
        return sa - sb;
    if (!a->key && !b->key)
        return a->n < b->n ? -1 : a->n > b->n;
    return 0;
}

static int collect_rows(struct cmp *c, int table, struct gs_err *e)
{
    for (int g = 0; g < c->ngroups; ++g)
        for (int k = 0; k < c->groups[g].items->count; ++k) {
            const struct row r = row_of(gs_json_at(c->groups[g].items, k), table);
            int rc = add_row(c, &r, e);
            if (rc != GS_OK)
                return rc;
        }
    /* An insertion sort, which is stable: row_order calls two keyed rows
     * (shapes) of one section equal, so they keep the order in which the
     * files first give them, while sizes and ragged rows go ascending by n. */
    if (table) {
        struct row tmp;
        for (int i = 1; i < c->nrows; ++i)
            for (int j = i; j > 0 && row_order(&c->rows[j - 1], &c->rows[j]) > 0; --j) {
                tmp = c->rows[j];
                c->rows[j] = c->rows[j - 1];
                c->rows[j - 1] = tmp;
            }
    }
    return GS_OK;
}

/* The item of group g in row r (and, for a table, column col), or NULL. */
static const struct gs_json *find_item(const struct group *g, const struct row *r,
                                       const char *col, int table)
{
    for (int k = 0; k < g->items->count; ++k) {
        const struct gs_json *it = gs_json_at(g->items, k);
        const struct row ir = row_of(it, table);
        if (same_row(&ir, r) && (!col || strcmp(gs_json_str(it, GS_RK(CASE_COLUMN), ""), col) == 0))
            return it;
    }
    return NULL;
}

/* ---- text ------------------------------------------------------------------------ */

static void group_title(const struct cmp *c, int g, char *buf, unsigned size)
{
    const struct gs_json *d = c->groups[g].obj;
    snprintf(buf, size, "%d %s [%s] %s", g + 1, gs_json_str(d, GS_RK(BACKEND), ""),
             gs_json_str(d, GS_RK(ID), ""), gs_json_str(d, GS_RK(DEVICE), ""));
}

static void file_lines(const struct cmp *c, struct gs_str *o)
{
    char title[300];
    for (int f = 0; f < c->nfiles; ++f) {
        const struct gs_json *root = c->files[f].root;
        const char *version = gs_json_str(root, GS_RK(VERSION), "");
        gs_str_printf(o, "%s: %s, %s%s%s, %s\n", c->files[f].path, c->files[f].mode,
                      gs_json_str(root, GS_RK(TOOL), "?"), version[0] ? " " : "", version,
                      gs_json_str(root, GS_RK(DATE), "no date"));
        const struct gs_json *src = gs_json_get(root, GS_RK(RECONSTRUCTED));
        if (src && src->type == GS_JSON_STRING)
            gs_str_printf(o, "  RECONSTRUCTED, not a gridstride run: %s\n", src->str);
        if (gs_json_str(root, GS_RK(TOOLKIT), "")[0])
            gs_str_printf(o, "  built with %s\n", gs_json_str(root, GS_RK(TOOLKIT), ""));
        for (int g = 0; g < c->ngroups; ++g) {
            const struct gs_json *d = c->groups[g].obj;
            uint64_t G = 0, T = 0;
            if (c->groups[g].file != f)
                continue;
            gs_json_u64(d, GS_RK(TABLE_G), &G);
            gs_json_u64(d, GS_RK(TABLE_T), &T);
            group_title(c, g, title, sizeof title);
            const char *driver = gs_json_str(d, GS_RK(DRIVER_VERSION), "");
            gs_str_printf(o, "  %s: %s%s%s; G = %llu, T = %llu\n", title,
                          gs_json_str(d, GS_RK(API_VERSION), "?"), driver[0] ? ", driver " : "",
                          driver, (unsigned long long)G, (unsigned long long)T);
        }
    }
}

/* "ok", "refused", "wrong@40960", "not launched", with * when the device's
 * own prediction failed and ! for a deviation, as the table prints them. */
static void case_cell(const struct gs_json *it, char *buf, unsigned size)
{
    const struct gs_json *obs = gs_json_get(it, GS_RK(CASE_OBSERVED));
    const char *outcome = gs_json_str(obs, GS_RK(OBSERVED_OUTCOME), "");
    const char *mark = !gs_json_bool(it, GS_RK(CASE_HELD), 1)          ? "*"
                       : gs_json_bool(it, GS_RK(CASE_DEVIATION), 0) ? "!"
                                                                    : "";
    uint64_t first = 0;
    if (strcmp(outcome, "wrong") == 0 && gs_json_u64(obs, GS_RK(OBSERVED_FIRST_WRONG), &first))
        snprintf(buf, size, "wrong@%llu%s", (unsigned long long)first, mark);
    else
        snprintf(buf, size, "%s%s", outcome, mark);
}

/* The columns a section has in any group, as a string of letters. */
static void section_columns(const struct cmp *c, const char *section, char *cols)
{
    int n = 0;
    for (const char *l = "ABCD"; *l; ++l) {
        const char col[2] = {*l, 0};
        int seen = 0;
        for (int g = 0; g < c->ngroups && !seen; ++g)
            for (int k = 0; k < c->groups[g].items->count && !seen; ++k) {
                const struct gs_json *it = gs_json_at(c->groups[g].items, k);
                seen = strcmp(gs_json_str(it, GS_RK(CASE_SECTION), ""), section) == 0 &&
                       strcmp(gs_json_str(it, GS_RK(CASE_COLUMN), ""), col) == 0;
            }
        if (seen)
            cols[n++] = *l;
    }
    cols[n] = '\0';
}

/* A group is as wide as its cells, and never narrower than a short title. */
static int group_width(const char *cols)
{
    const int w = (int)strlen(cols) * CELL;
    return w < 2 * CELL ? 2 * CELL : w;
}

static void table_header(const struct cmp *c, const char *lead, const char *cols,
                         struct gs_str *o)
{
    const int w = group_width(cols), pad = w - (int)strlen(cols) * CELL;
    char title[300];
    gs_str_printf(o, "%-24s", "");
    for (int g = 0; g < c->ngroups; ++g) {
        group_title(c, g, title, sizeof title);
        gs_str_printf(o, " | %-*.*s", w, w, title);
    }
    gs_str_printf(o, " |\n%-24s", lead);
    for (int g = 0; g < c->ngroups; ++g) {
        gs_str_printf(o, " | %*s", pad, "");
        for (const char *l = cols; *l; ++l)
            gs_str_printf(o, "%*c", CELL, *l);
    }
    gs_str_printf(o, " |\n");
}

/* The outcome word of a cell ("wrong@40960*" -> "wrong"). */
static const char *outcome_of(const struct gs_json *it)
{
    return gs_json_str(gs_json_get(it, GS_RK(CASE_OBSERVED)), GS_RK(OBSERVED_OUTCOME), "");
}

/* One row's cells; returns the columns whose outcomes differ, as letters. */
static void table_row(struct cmp *c, const struct row *r, const char *cols, struct gs_str *o,
                      char *differs)
{
    char cell[48];
    int nd = 0;
    for (const char *l = cols; *l; ++l) {
        const char col[2] = {*l, 0};
        const char *first = NULL;
        int differ = 0;
        for (int g = 0; g < c->ngroups; ++g) {
            const struct gs_json *it = find_item(&c->groups[g], r, col, 1);
            if (!it)
                continue;
            differ |= first && strcmp(first, outcome_of(it)) != 0;
            first = first ? first : outcome_of(it);
        }
        if (differ)
            differs[nd++] = *l;
    }
    differs[nd] = '\0';
    for (int g = 0; g < c->ngroups; ++g) {
        gs_str_printf(o, " | %*s", group_width(cols) - (int)strlen(cols) * CELL, "");
        for (const char *l = cols; *l; ++l) {
            const char col[2] = {*l, 0};
            const struct gs_json *it = find_item(&c->groups[g], r, col, 1);
            if (it)
                case_cell(it, cell, sizeof cell);
            gs_str_printf(o, "%*s", CELL, it ? cell : "-");
        }
    }
    gs_str_printf(o, " |%s%s\n", nd ? " differs: " : "", differs);
}

static void row_label(const struct row *r, char *buf, unsigned size)
{
    if (r->key)
        snprintf(buf, size, "%s", r->key);
    else
        snprintf(buf, size, "%12llu", (unsigned long long)r->n);
}

/* Which groups gave which outcome, for a flagged row's line. */
static void differ_line(const struct cmp *c, const struct row *r, char col, const char *label,
                        struct gs_str *o)
{
    const char cs[2] = {col, 0};
    const char *seen[MAX_GROUPS];
    int nseen = 0;
    gs_str_printf(o, "  %s %s %c:", r->section, label, col);
    for (int g = 0; g < c->ngroups; ++g) {
        const struct gs_json *it = find_item(&c->groups[g], r, cs, 1);
        int dup = 0;
        if (!it)
            continue;
        for (int k = 0; k < nseen; ++k)
            dup |= strcmp(seen[k], outcome_of(it)) == 0;
        if (dup)
            continue;
        seen[nseen++] = outcome_of(it);
        gs_str_printf(o, "%s %s on", nseen > 1 ? ";" : "", outcome_of(it));
        for (int h = g, n = 0; h < c->ngroups; ++h) {
            const struct gs_json *jt = find_item(&c->groups[h], r, cs, 1);
            if (jt && strcmp(outcome_of(jt), outcome_of(it)) == 0)
                gs_str_printf(o, "%s %d", n++ ? "," : "", h + 1);
        }
    }
    gs_str_printf(o, "\n");
}

static void table_section(struct cmp *c, const char *section, const char *title,
                          const char *lead, struct gs_str *flagged, struct gs_str *o)
{
    char cols[8], differs[8], label[80];
    section_columns(c, section, cols);
    if (!cols[0])
        return;
    gs_str_printf(o, "\n%s\n", title);
    table_header(c, lead, cols, o);
    for (int i = 0; i < c->nrows; ++i) {
        const struct row *r = &c->rows[i];
        if (!r->section || strcmp(r->section, section) != 0)
            continue;
        row_label(r, label, sizeof label);
        gs_str_printf(o, "%-24s", label);
        table_row(c, r, cols, o, differs);
        c->differ += differs[0] != '\0';
        for (const char *d = differs; *d; ++d)
            differ_line(c, r, *d, r->key ? r->key : label + strspn(label, " "), flagged);
    }
}

static int count_not_held(const struct cmp *c)
{
    int n = 0;
    for (int g = 0; g < c->ngroups; ++g)
        for (int k = 0; k < c->groups[g].items->count; ++k)
            n += !gs_json_bool(gs_json_at(c->groups[g].items, k), GS_RK(CASE_HELD), 1);
    return n;
}

static void compare_tables(struct cmp *c, struct gs_str *o)
{
    struct gs_str flagged = {0};
    table_section(c, "sizes", "A one thread per element, grid sized to n; B the same on the "
                  "device grid G; C grid-stride loop on G; D one chunk per thread:",
                  "           n", &flagged, o);
    table_section(c, "shapes", "n = 611 under each launch shape (G = each device's own grid):",
                  "shape", &flagged, o);
    table_section(c, "ragged", "Ragged NDRange (global = n, not a multiple of the block):",
                  "           n", &flagged, o);
    gs_str_printf(o, "\n");
    if (c->differ)
        gs_str_printf(o, "%d row%s differ%s in outcome between devices (differs: above):\n%s",
                      c->differ, c->differ == 1 ? "" : "s", c->differ == 1 ? "s" : "",
                      flagged.data ? flagged.data : "");
    else
        gs_str_printf(o, "no row differs in outcome between the devices\n");
    const int bad = count_not_held(c);
    if (bad)
        gs_str_printf(o, "%d case%s did not hold its own device's prediction (* above)\n", bad,
                      bad == 1 ? "" : "s");
    else
        gs_str_printf(o, "every case held its own device's prediction\n");
    if (flagged.failed)
        o->failed = 1;
    gs_str_free(&flagged);
}

/* ---- bandwidth ---------------------------------------------------------------------- */

#define BW_GROUP 22

static void bandwidth_header(const struct cmp *c, struct gs_str *o)
{
    char title[300];
    gs_str_printf(o, "\n%-40s", "");
    for (int g = 0; g < c->ngroups; ++g) {
        group_title(c, g, title, sizeof title);
        gs_str_printf(o, " | %-*.*s", BW_GROUP, BW_GROUP, title);
    }
    gs_str_printf(o, " |\n%-40s", "variant");
    for (int g = 0; g < c->ngroups; ++g)
        gs_str_printf(o, " | %10s %11s", "GB/s", g ? "vs 1" : "");
    gs_str_printf(o, " |\n");
}

static void bandwidth_row(struct cmp *c, const struct row *r, struct gs_str *o,
                          struct gs_str *flagged)
{
    double base = 0, gbps;
    int verified = 0, wrong = 0;
    gs_str_printf(o, "%-40.40s", r->key);
    for (int g = 0; g < c->ngroups; ++g) {
        const struct gs_json *it = find_item(&c->groups[g], r, NULL, 0);
        const int ok = it && gs_json_bool(it, GS_RK(ROW_VERIFIED), 0) &&
                       gs_json_num(it, GS_RK(ROW_GBPS), &gbps);
        verified += ok;
        wrong += it && !ok;
        if (!it)
            gs_str_printf(o, " | %10s %11s", "-", "");
        else if (!ok)
            gs_str_printf(o, " | %10s %11s", "WRONG", "");
        else if (g == 0 || base <= 0)
            gs_str_printf(o, " | %10.1f %11s", gbps, "");
        else
            gs_str_printf(o, " | %10.1f %10.2fx", gbps, gbps / base);
        if (ok && g == 0)
            base = gbps;
    }
    const int differs = verified && wrong;
    gs_str_printf(o, " |%s\n", differs ? " differs: verified on one run, wrong on another" : "");
    if (differs) {
        gs_str_printf(flagged, "  %s: WRONG on", r->key);
        for (int g = 0, n = 0; g < c->ngroups; ++g) {
            const struct gs_json *it = find_item(&c->groups[g], r, NULL, 0);
            if (it && !gs_json_bool(it, GS_RK(ROW_VERIFIED), 0))
                gs_str_printf(flagged, "%s %d", n++ ? "," : "", g + 1);
        }
        gs_str_printf(flagged, "\n");
    }
    c->differ += differs;
}

static void compare_bandwidth(struct cmp *c, struct gs_str *o)
{
    struct gs_str flagged = {0};
    uint64_t n0 = 0, n;
    int same_n = 1, same_type = 1;
    /* Files written before runs had a type moved floats. */
    const char *type0 = gs_json_str(c->groups[0].obj, GS_RK(RUN_TYPE), "float");
    gs_json_u64(c->groups[0].obj, GS_RK(RUN_N), &n0);
    for (int g = 1; g < c->ngroups; ++g) {
        same_n &= gs_json_u64(c->groups[g].obj, GS_RK(RUN_N), &n) && n == n0;
        same_type &= strcmp(gs_json_str(c->groups[g].obj, GS_RK(RUN_TYPE), "float"), type0) == 0;
    }
    bandwidth_header(c, o);
    for (int i = 0; i < c->nrows; ++i)
        bandwidth_row(c, &c->rows[i], o, &flagged);
    gs_str_printf(o, "\nvs 1 = GB/s of that run / GB/s of run 1 on the same variant\n");
    if (!same_n)
        gs_str_printf(o, "the runs moved different sizes (n per buffer differs): a ratio "
                         "compares unlike runs\n");
    if (!same_type)
        gs_str_printf(o, "the runs moved different element types (float and double): a ratio "
                         "compares unlike runs\n");
    if (c->differ)
        gs_str_printf(o, "%d row%s differ%s in outcome between runs:\n%s", c->differ,
                      c->differ == 1 ? "" : "s", c->differ == 1 ? "s" : "",
                      flagged.data ? flagged.data : "");
    else
        gs_str_printf(o, "no row differs in outcome between the runs\n");
    if (flagged.failed)
        o->failed = 1;
    gs_str_free(&flagged);
}

int gs_compare_report(const struct gs_compare_file *files, int nfiles, struct gs_str *out,
                      int *differ, struct gs_err *e)
{
    struct cmp c;
    memset(&c, 0, sizeof c);
    c.files = files;
    c.nfiles = nfiles;
    *differ = 0;
    for (int f = 1; f < nfiles; ++f)
        if (strcmp(files[f].mode, files[0].mode) != 0)
            return gs_err_set(e, GS_USAGE, "compare: %s is a %s file and %s a %s file; compare "
                                           "files of one mode",
                              files[0].path, files[0].mode, files[f].path, files[f].mode);
    const int table = strcmp(files[0].mode, "table") == 0;
    int rc = collect_groups(&c, e);
    if (rc == GS_OK)
        rc = collect_rows(&c, table, e);
    if (rc != GS_OK)
        return rc;
    gs_str_printf(out, "gridstride compare: %d file%s, %d %s%s\n\n", nfiles,
                  nfiles == 1 ? "" : "s", c.ngroups, table ? "device" : "run",
                  c.ngroups == 1 ? "" : "s");
    file_lines(&c, out);
    if (table)
        compare_tables(&c, out);
    else
        compare_bandwidth(&c, out);
    *differ = c.differ;
    return GS_OK;
}
