/* SPDX-License-Identifier: MIT */
#include "gs_compare.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gs_results.h"

#define CELL 14
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
    int g = 0;
    for (const struct gs_json *grp = groups->child; grp; grp = grp->next, ++g) {
        snprintf(where, sizeof where, "%s[%d]", list, g);
        int rc = gs_results_check(grp, table ? TABLE_DEVICE : BANDWIDTH_RUN, where, e);
        const struct gs_json *items = gs_json_get(grp, inner);
        int k = 0;
        for (const struct gs_json *it = items ? items->child : NULL; rc == GS_OK && it;
             it = it->next, ++k) {
            snprintf(where, sizeof where, "%s[%d].%s[%d]", list, g, inner, k);
            rc = table ? check_case(it, where, e) : check_row(it, where, e);
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
        return gs_err_set(e, rc, "%s", why.msg);
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

/* Every lookup is by index: each item's row is found once, through a hash
 * table of the rows, and the items are laid out in a grid of cells (group,
 * row, column), so that the comparison takes time linear in the cases. */

struct group {
    int file;                  /* index into files */
    const struct gs_json *obj; /* the device or run */
    const struct gs_json **item; /* its cases or rows, in order */
    int *row;                    /* each item's row (an index into cmp.rows) */
    int nitems;
};

struct row {
    const char *section; /* "sizes", "shapes", "ragged"; NULL for bandwidth */
    const char *key;     /* shape label or variant; NULL for n */
    uint64_t n;
    int first; /* the order in which the files first give it */
};

struct cmp {
    const struct gs_compare_file *files;
    int nfiles;
    int table;
    double tolerance;
    struct group groups[MAX_GROUPS];
    int ngroups;
    struct row *rows; /* sorted once collected */
    int nrows;
    int *slot; /* the hash table: row index + 1, 0 for empty */
    size_t nslots;
    const struct gs_json **cells; /* [(g * nrows + r) * 4 + column] */
    unsigned section_cols[3];     /* columns each section has, bit per A..D */
    int differ, not_held, wrong, slow, changed;
    struct gs_str differences; /* JSON elements of the differing rows */
    struct gs_str changes;     /* JSON elements of the cells changed on the same device */
    struct gs_str slow_rows;   /* JSON elements of the slow rows */
    unsigned width;            /* gs_compare_options.width */
    int g0, g1;                /* the column groups a table prints now: [g0, g1) */
};

static int section_index(const char *section)
{
    return !section ? 0 : strcmp(section, "shapes") == 0 ? 1 : strcmp(section, "ragged") == 0 ? 2 : 0;
}

static int column_index(const char *col)
{
    return col && col[0] >= 'A' && col[0] <= 'D' && !col[1] ? col[0] - 'A' : 0;
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

static uint64_t row_hash(const struct row *r)
{
    uint64_t h = 1469598103934665603ull;
    for (const char *p = r->section ? r->section : ""; *p; ++p)
        h = (h ^ (unsigned char)*p) * 1099511628211ull;
    if (r->key)
        for (const char *p = r->key; *p; ++p)
            h = (h ^ (unsigned char)*p) * 1099511628211ull;
    else
        for (int i = 0; i < 8; ++i)
            h = (h ^ ((r->n >> (8 * i)) & 0xffu)) * 1099511628211ull;
    return h ^ (h >> 29);
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

/* The index of row r, added when new. */
static int row_index(struct cmp *c, const struct row *r)
{
    size_t i = (size_t)row_hash(r) & (c->nslots - 1);
    for (; c->slot[i]; i = (i + 1) & (c->nslots - 1))
        if (same_row(&c->rows[c->slot[i] - 1], r))
            return c->slot[i] - 1;
    c->rows[c->nrows] = *r;
    c->rows[c->nrows].first = c->nrows;
    c->slot[i] = ++c->nrows;
    return c->nrows - 1;
}

/* After an element written as a document of its own: no newline, as the
 * caller places the commas and line breaks. */
static void trim_newline(struct gs_str *s)
{
    if (s->data && s->len && s->data[s->len - 1] == '\n')
        s->data[--s->len] = '\0';
}

static int nomem(struct gs_err *e)
{
    return gs_err_set(e, GS_NOMEM, "compare: out of memory; compare fewer or smaller files");
}

static int collect_groups(struct cmp *c, struct gs_err *e)
{
    for (int f = 0; f < c->nfiles; ++f) {
        const struct gs_json *list =
            gs_json_get(c->files[f].root, c->table ? GS_RK(DEVICES) : GS_RK(RUNS));
        for (const struct gs_json *obj = list->child; obj; obj = obj->next) {
            if (c->ngroups == MAX_GROUPS)
                return gs_err_set(e, GS_USAGE, "more than %d devices in the files; compare fewer",
                                  MAX_GROUPS);
            struct group *grp = &c->groups[c->ngroups++];
            const struct gs_json *items =
                gs_json_get(obj, c->table ? GS_RK(TABLE_CASES) : GS_RK(RUN_ROWS));
            grp->file = f;
            grp->obj = obj;
            grp->nitems = items->count;
            grp->item = calloc((size_t)items->count + 1, sizeof *grp->item);
            grp->row = calloc((size_t)items->count + 1, sizeof *grp->row);
            if (!grp->item || !grp->row)
                return nomem(e);
            int k = 0;
            for (const struct gs_json *it = items->child; it && k < grp->nitems; it = it->next)
                grp->item[k++] = it;
            grp->nitems = k;
        }
    }
    return GS_OK;
}

/* Sizes ascending by n within their section; shapes and variants keep the
 * order in which the files first give them. */
static int row_order(const void *pa, const void *pb)
{
    const struct row *a = pa, *b = pb;
    const int sa = section_index(a->section), sb = section_index(b->section);
    if (sa != sb)
        return sa - sb;
    if (!a->key && !b->key && a->n != b->n)
        return a->n < b->n ? -1 : 1;
    return a->first - b->first;
}

static int collect_rows(struct cmp *c, struct gs_err *e)
{
    size_t total = 0;
    for (int g = 0; g < c->ngroups; ++g)
        total += (size_t)c->groups[g].nitems;
    c->nslots = 16;
    while (c->nslots < 2 * total)
        c->nslots *= 2;
    c->rows = calloc(total + 1, sizeof *c->rows);
    c->slot = calloc(c->nslots, sizeof *c->slot);
    if (!c->rows || !c->slot)
        return nomem(e);
    for (int g = 0; g < c->ngroups; ++g)
        for (int k = 0; k < c->groups[g].nitems; ++k) {
            const struct gs_json *it = c->groups[g].item[k];
            const struct row r = row_of(it, c->table);
            c->groups[g].row[k] = row_index(c, &r);
            if (c->table)
                c->section_cols[section_index(r.section)] |=
                    1u << column_index(gs_json_str(it, GS_RK(CASE_COLUMN), ""));
        }
    if (c->table) {
        /* Sorted; then each item's row is its row's new place. */
        int *place = calloc((size_t)c->nrows + 1, sizeof *place);
        if (!place)
            return nomem(e);
        qsort(c->rows, (size_t)c->nrows, sizeof *c->rows, row_order);
        for (int i = 0; i < c->nrows; ++i)
            place[c->rows[i].first] = i;
        for (int g = 0; g < c->ngroups; ++g)
            for (int k = 0; k < c->groups[g].nitems; ++k)
                c->groups[g].row[k] = place[c->groups[g].row[k]];
        free(place);
    }
    /* The cells: an item's first appearance in its (row, column) wins. */
    const size_t ncells = (size_t)c->ngroups * (size_t)c->nrows * 4;
    c->cells = calloc(ncells + 1, sizeof *c->cells);
    if (!c->cells)
        return nomem(e);
    for (int g = 0; g < c->ngroups; ++g)
        for (int k = 0; k < c->groups[g].nitems; ++k) {
            const struct gs_json *it = c->groups[g].item[k];
            const int col = c->table ? column_index(gs_json_str(it, GS_RK(CASE_COLUMN), "")) : 0;
            const struct gs_json **cell =
                &c->cells[((size_t)g * (size_t)c->nrows + (size_t)c->groups[g].row[k]) * 4 + (size_t)col];
            if (!*cell)
                *cell = it;
        }
    return GS_OK;
}

/* The item of group g in row r (and, for a table, column col: 'A'..'D'), or NULL. */
static const struct gs_json *find_item(const struct cmp *c, int g, int r, char col)
{
    const int k = c->table ? col - 'A' : 0;
    return c->cells[((size_t)g * (size_t)c->nrows + (size_t)r) * 4 + (size_t)k];
}

static void cmp_free(struct cmp *c)
{
    for (int g = 0; g < c->ngroups; ++g) {
        free(c->groups[g].item);
        free(c->groups[g].row);
    }
    free(c->rows);
    free(c->slot);
    free(c->cells);
    gs_str_free(&c->differences);
    gs_str_free(&c->changes);
    gs_str_free(&c->slow_rows);
}

/* ---- text ------------------------------------------------------------------------ */

/* A group's title, whole: "1 cuda [0] Tesla T4". */
static void group_title(const struct cmp *c, int g, char *buf, unsigned size)
{
    const struct gs_json *d = c->groups[g].obj;
    snprintf(buf, size, "%d %s [%s] %s", g + 1, gs_json_str(d, GS_RK(BACKEND), ""),
             gs_json_str(d, GS_RK(ID), ""), gs_json_str(d, GS_RK(DEVICE), ""));
}

static void file_lines(const struct cmp *c, struct gs_str *o)
{
    char title[600], shown[GS_SHOWN_PATH];
    for (int f = 0; f < c->nfiles; ++f) {
        const struct gs_json *root = c->files[f].root;
        const char *version = gs_json_str(root, GS_RK(VERSION), "");
        /* A file's name is the user's: its control characters escaped, as
         * check shows its FILE. */
        gs_escape_controls(shown, sizeof shown, c->files[f].path);
        gs_str_printf(o, "%s: %s, %s%s%s, %s\n", shown, c->files[f].mode,
                      gs_json_str(root, GS_RK(TOOL), "?"), version[0] ? " " : "", version,
                      gs_json_str(root, GS_RK(DATE), "no date"));
        const struct gs_json *src = gs_json_get(root, GS_RK(RECONSTRUCTED));
        if (src && src->type == GS_JSON_STRING)
            gs_str_printf(o, "  RECONSTRUCTED, not a gridstride run: %s\n", src->str);
        if (gs_json_str(root, GS_RK(TOOLKIT), "")[0])
            gs_str_printf(o, "  built with %s\n", gs_json_str(root, GS_RK(TOOLKIT), ""));
        gs_str_printf(o, "  commit %s\n", gs_json_str(root, GS_RK(COMMIT), "not recorded"));
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

/* A cell's outcome as the table prints it, without marks: "ok", "refused",
 * "wrong@40960", "not launched". */
static void outcome_label(const struct gs_json *it, char *buf, unsigned size)
{
    const struct gs_json *obs = gs_json_get(it, GS_RK(CASE_OBSERVED));
    const char *outcome = gs_json_str(obs, GS_RK(OBSERVED_OUTCOME), "");
    uint64_t first = 0;
    if (strcmp(outcome, "wrong") == 0 && gs_json_u64(obs, GS_RK(OBSERVED_FIRST_WRONG), &first))
        snprintf(buf, size, "wrong@%llu", (unsigned long long)first);
    else
        snprintf(buf, size, "%s", outcome);
}

/* The cell: its outcome, with * when the device's own prediction failed
 * and ! for a deviation. */
static void case_cell(const struct gs_json *it, char *buf, unsigned size)
{
    char outcome[40];
    const char *mark = !gs_json_bool(it, GS_RK(CASE_HELD), 1)          ? "*"
                       : gs_json_bool(it, GS_RK(CASE_DEVIATION), 0) ? "!"
                                                                    : "";
    outcome_label(it, outcome, sizeof outcome);
    snprintf(buf, size, "%s%s", outcome, mark);
}

/* The columns a section has in any group, as a string of letters. */
static void section_columns(const struct cmp *c, const char *section, char *cols)
{
    int n = 0;
    const unsigned mask = c->section_cols[section_index(section)];
    for (int k = 0; k < 4; ++k)
        if (mask >> k & 1u)
            cols[n++] = (char)('A' + k);
    cols[n] = '\0';
}

/* A group is as wide as its cells and its whole title. */
static int group_width(const struct cmp *c, int g, const char *cols)
{
    char title[600];
    int w = (int)strlen(cols) * CELL;
    group_title(c, g, title, sizeof title);
    w = w < 2 * CELL ? 2 * CELL : w;
    return (int)strlen(title) > w ? (int)strlen(title) : w;
}

static void table_header(const struct cmp *c, const char *lead, const char *cols,
                         struct gs_str *o)
{
    char title[600];
    gs_str_printf(o, "%-24s", "");
    for (int g = c->g0; g < c->g1; ++g) {
        group_title(c, g, title, sizeof title);
        gs_str_printf(o, " | %-*s", group_width(c, g, cols), title);
    }
    gs_str_printf(o, " |\n%-24s", lead);
    for (int g = c->g0; g < c->g1; ++g) {
        gs_str_printf(o, " | %*s", group_width(c, g, cols) - (int)strlen(cols) * CELL, "");
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
static void table_row(struct cmp *c, int r, const char *cols, struct gs_str *o, char *differs)
{
    char cell[48];
    int nd = 0;
    for (const char *l = cols; *l; ++l) {
        const char *first = NULL;
        int differ = 0;
        for (int g = 0; g < c->ngroups; ++g) {
            const struct gs_json *it = find_item(c, g, r, *l);
            if (!it)
                continue;
            differ |= first && strcmp(first, outcome_of(it)) != 0;
            first = first ? first : outcome_of(it);
        }
        if (differ)
            differs[nd++] = *l;
    }
    differs[nd] = '\0';
    for (int g = c->g0; g < c->g1; ++g) {
        gs_str_printf(o, " | %*s", group_width(c, g, cols) - (int)strlen(cols) * CELL, "");
        for (const char *l = cols; *l; ++l) {
            const struct gs_json *it = find_item(c, g, r, *l);
            if (it)
                case_cell(it, cell, sizeof cell);
            gs_str_printf(o, "%*s", CELL, it ? cell : "-");
        }
    }
    gs_str_printf(o, " |%s%s\n", nd ? " differs: " : "", differs);
}

/* The end of the run of column groups from g0 that fits c->width beside
 * the row labels (at least one group). */
static int groups_that_fit(const struct cmp *c, int g0, const char *cols)
{
    int used = 24, g = g0;
    do
        used += 3 + group_width(c, g, cols);
    while (++g < c->ngroups &&
           (!c->width || used + 3 + group_width(c, g, cols) + 2 + 9 + 4 <= (int)c->width));
    return g;
}

static void row_label(const struct row *r, char *buf, unsigned size)
{
    if (r->key)
        snprintf(buf, size, "%s", r->key);
    else
        snprintf(buf, size, "%12llu", (unsigned long long)r->n);
}

/* Which groups gave which outcome, for a flagged row's line (and its JSON). */
static void differ_line(struct cmp *c, int r, char col, const char *label, struct gs_str *o)
{
    const char *seen[MAX_GROUPS];
    int nseen = 0;
    struct gs_jw w;
    gs_jw_init(&w, &c->differences);
    gs_str_printf(&c->differences, "%s", c->differences.len ? ",\n    " : "\n    ");
    gs_jw_object(&w, NULL);
    gs_jw_str(&w, "section", c->rows[r].section);
    gs_jw_str(&w, "row", label);
    gs_jw_str(&w, "column", (const char[2]){col, 0});
    gs_jw_array(&w, "outcomes");
    gs_str_printf(o, "  %s %s %c:", c->rows[r].section, label, col);
    for (int g = 0; g < c->ngroups; ++g) {
        const struct gs_json *it = find_item(c, g, r, col);
        int dup = 0;
        if (!it)
            continue;
        for (int k = 0; k < nseen; ++k)
            dup |= strcmp(seen[k], outcome_of(it)) == 0;
        if (dup)
            continue;
        seen[nseen++] = outcome_of(it);
        gs_str_printf(o, "%s %s on", nseen > 1 ? ";" : "", outcome_of(it));
        gs_jw_object(&w, NULL);
        gs_jw_str(&w, "outcome", outcome_of(it));
        gs_jw_array(&w, "groups");
        for (int h = g, n = 0; h < c->ngroups; ++h) {
            const struct gs_json *jt = find_item(c, h, r, col);
            if (jt && strcmp(outcome_of(jt), outcome_of(it)) == 0) {
                gs_str_printf(o, "%s %d", n++ ? "," : "", h + 1);
                gs_jw_int(&w, NULL, h + 1);
            }
        }
        gs_jw_end(&w, "");
        gs_jw_end(&w, "");
    }
    gs_jw_end(&w, "");
    gs_jw_end(&w, "");
    trim_newline(&c->differences);
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
    /* The files' groups side by side while they fit the width, else in runs
     * of groups one under the other; a row's differences are over every
     * group, and counted and listed once (with the first run). */
    for (c->g0 = 0; c->g0 < c->ngroups; c->g0 = c->g1) {
        c->g1 = groups_that_fit(c, c->g0, cols);
        if (c->g0)
            gs_str_printf(o, "\n");
        table_header(c, lead, cols, o);
        for (int i = 0; i < c->nrows; ++i) {
            const struct row *r = &c->rows[i];
            if (!r->section || strcmp(r->section, section) != 0)
                continue;
            row_label(r, label, sizeof label);
            gs_str_printf(o, "%-24s", label);
            table_row(c, i, cols, o, differs);
            if (c->g0)
                continue;
            c->differ += differs[0] != '\0';
            for (const char *d = differs; *d; ++d)
                differ_line(c, i, *d, r->key ? r->key : label + strspn(label, " "), flagged);
        }
    }
}

static int count_not_held(const struct cmp *c)
{
    int n = 0;
    for (int g = 0; g < c->ngroups; ++g)
        for (int k = 0; k < c->groups[g].nitems; ++k)
            n += !gs_json_bool(c->groups[g].item[k], GS_RK(CASE_HELD), 1);
    return n;
}

/* One changed cell as a JSON element of "changes". */
static void change_json(struct cmp *c, int r, const char *label, char col, int ref,
                        const char *was, int g, const char *now)
{
    struct gs_jw w;
    gs_jw_init(&w, &c->changes);
    gs_str_printf(&c->changes, "%s", c->changes.len ? ",\n    " : "\n    ");
    gs_jw_object(&w, NULL);
    gs_jw_str(&w, "section", c->rows[r].section);
    gs_jw_str(&w, "row", label);
    gs_jw_str(&w, "column", (const char[2]){col, 0});
    gs_jw_int(&w, "reference_group", ref + 1);
    gs_jw_str(&w, "reference_outcome", was);
    gs_jw_int(&w, "group", g + 1);
    gs_jw_str(&w, "outcome", now);
    gs_jw_end(&w, "");
    trim_newline(&c->changes);
}

/* The group that group g of a later file is held to as the same device: the
 * first group of another, earlier file with the same backend, device name
 * and driver; -1 when none. */
static int same_device_of(const struct cmp *c, int g)
{
    const struct gs_json *d = c->groups[g].obj;
    for (int h = 0; h < g; ++h) {
        const struct gs_json *r = c->groups[h].obj;
        if (c->groups[h].file != c->groups[g].file &&
            strcmp(gs_json_str(r, GS_RK(BACKEND), ""), gs_json_str(d, GS_RK(BACKEND), "")) == 0 &&
            strcmp(gs_json_str(r, GS_RK(DEVICE), ""), gs_json_str(d, GS_RK(DEVICE), "")) == 0 &&
            strcmp(gs_json_str(r, GS_RK(DRIVER_VERSION), ""),
                   gs_json_str(d, GS_RK(DRIVER_VERSION), "")) == 0)
            return h;
    }
    return -1;
}

/* The regression gate: on the same device (backend, name, driver) in two
 * files, every cell that both give must have the same outcome. A changed
 * outcome there is no API's rule but the device, its driver or the suite
 * behaving differently between two runs, so it fails even when each run's
 * prediction held. Each group is held to one reference: linear in the cells. */
static void same_device_changes(struct cmp *c, struct gs_str *o)
{
    struct gs_str lines = {0};
    char label[80], was[40], now[40], shown[2][GS_SHOWN_PATH];
    for (int g = 0; g < c->ngroups; ++g) {
        const int ref = same_device_of(c, g);
        if (ref < 0)
            continue;
        gs_escape_controls(shown[0], sizeof shown[0], c->files[c->groups[ref].file].path);
        gs_escape_controls(shown[1], sizeof shown[1], c->files[c->groups[g].file].path);
        for (int r = 0; r < c->nrows; ++r)
            for (char col = 'A'; col <= 'D'; ++col) {
                const struct gs_json *it = find_item(c, g, r, col);
                const struct gs_json *rt = find_item(c, ref, r, col);
                if (!it || !rt)
                    continue;
                outcome_label(rt, was, sizeof was);
                outcome_label(it, now, sizeof now);
                if (strcmp(was, now) == 0)
                    continue;
                ++c->changed;
                row_label(&c->rows[r], label, sizeof label);
                gs_str_printf(&lines, "  %s %s %c: %s on %d (%s), %s on %d (%s)\n",
                              c->rows[r].section, label + strspn(label, " "), col, was, ref + 1,
                              shown[0], now, g + 1, shown[1]);
                change_json(c, r, label + strspn(label, " "), col, ref, was, g, now);
            }
    }
    if (c->changed)
        gs_str_printf(o, "%d cell%s changed outcome on the same device (backend, name and "
                         "driver) between files, a regression:\n%s",
                      c->changed, c->changed == 1 ? "" : "s", lines.data ? lines.data : "");
    if (lines.failed)
        o->failed = 1;
    gs_str_free(&lines);
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
    c->not_held = count_not_held(c);
    if (c->not_held)
        gs_str_printf(o, "%d case%s did not hold its own device's prediction (* above)\n",
                      c->not_held, c->not_held == 1 ? "" : "s");
    else
        gs_str_printf(o, "every case held its own device's prediction\n");
    same_device_changes(c, o);
    if (c->differ && !c->not_held && !c->changed)
        gs_str_printf(o, "(a difference between devices whose predictions held is the APIs' own "
                         "rule, not a failure: exit 0)\n");
    if (flagged.failed)
        o->failed = 1;
    gs_str_free(&flagged);
}

/* ---- bandwidth ---------------------------------------------------------------------- */

#define BW_GROUP 22 /* "GB/s" and "vs 1": the narrowest a group is */

/* The widest a bandwidth group may be: one beside the variants within the
 * width (its title is clipped there; the file lines above give it whole). */
static int bw_most(const struct cmp *c)
{
    const int most = (int)c->width - 40 - 3 - 2;
    return !c->width ? 600 : most > BW_GROUP ? most : BW_GROUP;
}

static int bw_width(const struct cmp *c, int g)
{
    char title[600];
    group_title(c, g, title, sizeof title);
    int w = (int)strlen(title) > BW_GROUP ? (int)strlen(title) : BW_GROUP;
    return w < bw_most(c) ? w : bw_most(c);
}

/* The end of the run of groups from g0 that fits the width (at least one). */
static int bw_groups_that_fit(const struct cmp *c, int g0)
{
    int used = 40, g = g0;
    do
        used += 3 + bw_width(c, g);
    while (++g < c->ngroups && (!c->width || used + 3 + bw_width(c, g) + 2 <= (int)c->width));
    return g;
}

static void bandwidth_header(const struct cmp *c, struct gs_str *o)
{
    char title[600];
    gs_str_printf(o, "\n%-40s", "");
    for (int g = c->g0; g < c->g1; ++g) {
        group_title(c, g, title, sizeof title);
        gs_str_printf(o, " | %-*.*s", bw_width(c, g), bw_width(c, g), title);
    }
    gs_str_printf(o, " |\n%-40s", "variant");
    for (int g = c->g0; g < c->g1; ++g)
        gs_str_printf(o, " | %*s%10s %11s", bw_width(c, g) - BW_GROUP, "", "GB/s",
                      g ? "vs 1" : "");
    gs_str_printf(o, " |\n");
}

/* The run a run of a later file is held to: the first file's run of the
 * same backend and device, else the first file's first run; -1 for the
 * runs of the first file (the reference itself). */
static int reference_of(const struct cmp *c, int g)
{
    const struct gs_json *d = c->groups[g].obj;
    if (c->groups[g].file == 0)
        return -1;
    for (int h = 0; h < c->ngroups && c->groups[h].file == 0; ++h) {
        const struct gs_json *r = c->groups[h].obj;
        if (strcmp(gs_json_str(r, GS_RK(BACKEND), ""), gs_json_str(d, GS_RK(BACKEND), "")) == 0 &&
            strcmp(gs_json_str(r, GS_RK(DEVICE), ""), gs_json_str(d, GS_RK(DEVICE), "")) == 0)
            return h;
    }
    return 0;
}

static void slow_row(struct cmp *c, int g, int ref, const struct row *r, double gbps, double base)
{
    struct gs_jw w;
    gs_jw_init(&w, &c->slow_rows);
    gs_str_printf(&c->slow_rows, "%s", c->slow_rows.len ? ",\n    " : "\n    ");
    gs_jw_object(&w, NULL);
    gs_jw_str(&w, "variant", r->key);
    gs_jw_int(&w, "group", g + 1);
    gs_jw_int(&w, "reference_group", ref + 1);
    gs_jw_fixed(&w, "gbps", 3, gbps);
    gs_jw_fixed(&w, "reference_gbps", 3, base);
    gs_jw_fixed(&w, "ratio", 4, gbps / base);
    gs_jw_end(&w, "");
    trim_newline(&c->slow_rows);
}

static void bandwidth_row(struct cmp *c, int ri, struct gs_str *o, struct gs_str *flagged,
                          struct gs_str *slow)
{
    const struct row *r = &c->rows[ri];
    double base = 0, gbps;
    int verified = 0, wrong = 0;
    const int first = c->g0 == 0; /* the run of groups that counts and flags */
    gs_str_printf(o, "%-40.40s", r->key);
    for (int g = 0; g < c->ngroups; ++g) {
        const struct gs_json *it = find_item(c, g, ri, 0);
        const int ok = it && gs_json_bool(it, GS_RK(ROW_VERIFIED), 0) &&
                       gs_json_num(it, GS_RK(ROW_GBPS), &gbps);
        const int pad = bw_width(c, g) - BW_GROUP;
        verified += ok;
        wrong += it && !ok;
        if (g < c->g0 || g >= c->g1) {
            if (ok && g == 0)
                base = gbps;
            continue;
        }
        if (!it)
            gs_str_printf(o, " | %*s%10s %11s", pad, "", "-", "");
        else if (!ok)
            gs_str_printf(o, " | %*s%10s %11s", pad, "", "WRONG", "");
        else if (g == 0 || base <= 0)
            gs_str_printf(o, " | %*s%10.1f %11s", pad, "", gbps, "");
        else
            gs_str_printf(o, " | %*s%10.1f %10.2fx", pad, "", gbps, gbps / base);
        if (ok && g == 0)
            base = gbps;
        const int ref = reference_of(c, g);
        const struct gs_json *rt = ref >= 0 ? find_item(c, ref, ri, 0) : NULL;
        double rg;
        if (ok && rt && gs_json_bool(rt, GS_RK(ROW_VERIFIED), 0) &&
            gs_json_num(rt, GS_RK(ROW_GBPS), &rg) && rg > 0 && gbps < rg * (1.0 - c->tolerance)) {
            ++c->slow;
            gs_str_printf(slow, "  %s: %.1f GB/s on %d, %.0f%% below %.1f on %d\n", r->key,
                          gbps, g + 1, 100.0 * (1.0 - gbps / rg), rg, ref + 1);
            slow_row(c, g, ref, r, gbps, rg);
        }
    }
    const int differs = verified && wrong;
    gs_str_printf(o, " |%s\n", differs ? " differs: verified on one run, wrong on another" : "");
    if (!first)
        return;
    if (wrong) {
        gs_str_printf(flagged, "  %s: WRONG on", r->key);
        for (int g = 0, n = 0; g < c->ngroups; ++g) {
            const struct gs_json *it = find_item(c, g, ri, 0);
            if (it && !gs_json_bool(it, GS_RK(ROW_VERIFIED), 0))
                gs_str_printf(flagged, "%s %d", n++ ? "," : "", g + 1);
        }
        gs_str_printf(flagged, "\n");
    }
    c->differ += differs;
    c->wrong += wrong != 0;
}

static void compare_bandwidth(struct cmp *c, struct gs_str *o)
{
    struct gs_str flagged = {0}, slow = {0};
    uint64_t n0 = 0, n;
    int same_n = 1, same_type = 1;
    /* Files written before runs had a type moved floats. */
    const char *type0 = gs_json_str(c->groups[0].obj, GS_RK(RUN_TYPE), "float");
    gs_json_u64(c->groups[0].obj, GS_RK(RUN_N), &n0);
    for (int g = 1; g < c->ngroups; ++g) {
        same_n &= gs_json_u64(c->groups[g].obj, GS_RK(RUN_N), &n) && n == n0;
        same_type &= strcmp(gs_json_str(c->groups[g].obj, GS_RK(RUN_TYPE), "float"), type0) == 0;
    }
    for (c->g0 = 0; c->g0 < c->ngroups; c->g0 = c->g1) {
        c->g1 = bw_groups_that_fit(c, c->g0);
        bandwidth_header(c, o);
        for (int i = 0; i < c->nrows; ++i)
            bandwidth_row(c, i, o, &flagged, &slow);
    }
    gs_str_printf(o, "\nvs 1 = GB/s of that run / GB/s of run 1 on the same variant\n");
    if (!same_n)
        gs_str_printf(o, "the runs moved different sizes (n per buffer differs): a ratio "
                         "compares unlike runs\n");
    if (!same_type)
        gs_str_printf(o, "the runs moved different element types (float and double): a ratio "
                         "compares unlike runs\n");
    if (c->wrong)
        gs_str_printf(o, "%d row%s wrong on some run:\n%s", c->wrong, c->wrong == 1 ? "" : "s",
                      flagged.data ? flagged.data : "");
    else
        gs_str_printf(o, "every row verified on every run\n");
    if (c->differ)
        gs_str_printf(o, "%d row%s differ%s in outcome between runs (verified on one, wrong on "
                         "another)\n", c->differ, c->differ == 1 ? "" : "s",
                      c->differ == 1 ? "s" : "");
    else
        gs_str_printf(o, "no row differs in outcome between the runs\n");
    if (c->slow)
        gs_str_printf(o, "%d row%s more than %g%% below the reference (the first file's run "
                         "of the same device, else its first run; --tolerance):\n%s",
                      c->slow, c->slow == 1 ? "" : "s", 100.0 * c->tolerance,
                      slow.data ? slow.data : "");
    else if (c->nfiles > 1)
        gs_str_printf(o, "no row more than %g%% below the reference (the first file's run of "
                         "the same device, else its first run; --tolerance)\n",
                      100.0 * c->tolerance);
    if (flagged.failed || slow.failed)
        o->failed = 1;
    gs_str_free(&flagged);
    gs_str_free(&slow);
}

/* ---- JSON --------------------------------------------------------------------------- */

static void compare_json(const struct cmp *c, const struct gs_compare_options *opt,
                         struct gs_str *o)
{
    struct gs_jw w;
    const struct gs_run_info run = {opt->version ? opt->version : "", opt->command ? opt->command : "",
                                    opt->date ? opt->date : "", opt->toolkit ? opt->toolkit : ""};
    gs_jw_init(&w, o);
    gs_report_header(&w, GS_COMPARE_SCHEMA, GS_REPORT_SCHEMA_VERSION, "compare", &run);
    gs_jw_space(&w, "\n  ");
    gs_jw_str(&w, "of", c->table ? "table" : "bandwidth");
    gs_jw_fixed(&w, "tolerance", 4, c->tolerance);
    gs_jw_int(&w, "rows", c->nrows);
    gs_jw_int(&w, "differ", c->differ);
    gs_jw_int(&w, "not_held", c->not_held);
    gs_jw_int(&w, "wrong_rows", c->wrong);
    gs_jw_int(&w, "slow_rows", c->slow);
    gs_jw_int(&w, "changed", c->changed);
    gs_jw_bool(&w, "passed", !(c->not_held || c->wrong || c->slow || c->changed));
    gs_jw_space(&w, "\n  ");
    gs_jw_array(&w, "files");
    for (int f = 0; f < c->nfiles; ++f) {
        const struct gs_json *root = c->files[f].root;
        gs_jw_space(&w, "\n    ");
        gs_jw_object(&w, NULL);
        gs_jw_str(&w, "path", c->files[f].path);
        gs_jw_str(&w, "mode", c->files[f].mode);
        gs_jw_str(&w, "tool", gs_json_str(root, GS_RK(TOOL), ""));
        gs_jw_str(&w, "version", gs_json_str(root, GS_RK(VERSION), ""));
        if (gs_json_get(root, GS_RK(COMMIT)))
            gs_jw_str(&w, "commit", gs_json_str(root, GS_RK(COMMIT), ""));
        else
            gs_jw_null(&w, "commit");
        gs_jw_str(&w, "date", gs_json_str(root, GS_RK(DATE), ""));
        gs_jw_bool(&w, "reconstructed", gs_json_get(root, GS_RK(RECONSTRUCTED)) != NULL);
        gs_jw_end(&w, "");
    }
    gs_jw_end(&w, "\n  ");
    gs_jw_space(&w, "\n  ");
    gs_jw_array(&w, "groups");
    for (int g = 0; g < c->ngroups; ++g) {
        const struct gs_json *d = c->groups[g].obj;
        uint64_t G = 0, T = 0;
        gs_jw_space(&w, "\n    ");
        gs_jw_object(&w, NULL);
        gs_jw_int(&w, "group", g + 1);
        gs_jw_int(&w, "file", c->groups[g].file + 1);
        gs_jw_str(&w, "backend", gs_json_str(d, GS_RK(BACKEND), ""));
        gs_jw_str(&w, "id", gs_json_str(d, GS_RK(ID), ""));
        gs_jw_str(&w, "device", gs_json_str(d, GS_RK(DEVICE), ""));
        if (c->table && gs_json_u64(d, GS_RK(TABLE_G), &G) && gs_json_u64(d, GS_RK(TABLE_T), &T)) {
            gs_jw_u64(&w, "G", G);
            gs_jw_u64(&w, "T", T);
        }
        gs_jw_end(&w, "");
    }
    gs_jw_end(&w, "\n  ");
    /* The lists made while the text was written, and the file's end. */
    gs_str_printf(o, "%s", ",\n  \"differences\": [");
    gs_str_printf(o, "%s%s", c->differences.data ? c->differences.data : "",
                  c->differences.len ? "\n  ]," : "],");
    gs_str_printf(o, "%s", "\n  \"changes\": [");
    gs_str_printf(o, "%s%s", c->changes.data ? c->changes.data : "",
                  c->changes.len ? "\n  ]," : "],");
    gs_str_printf(o, "%s", "\n  \"slow\": [");
    gs_str_printf(o, "%s%s", c->slow_rows.data ? c->slow_rows.data : "",
                  c->slow_rows.len ? "\n  ]\n}\n" : "]\n}\n");
    if (c->differences.failed || c->changes.failed || c->slow_rows.failed)
        o->failed = 1;
}

int gs_compare_run(const struct gs_compare_file *files, int nfiles,
                   const struct gs_compare_options *opt, struct gs_str *out,
                   struct gs_compare_verdict *v, struct gs_err *e)
{
    struct cmp *c = calloc(1, sizeof *c);
    struct gs_str text = {0};
    memset(v, 0, sizeof *v);
    if (!c)
        return nomem(e);
    c->files = files;
    c->nfiles = nfiles;
    c->tolerance = opt && opt->tolerance > 0 ? opt->tolerance : GS_COMPARE_TOLERANCE;
    c->width = opt && !opt->json ? opt->width : 0;
    int rc = GS_OK;
    for (int f = 1; f < nfiles && rc == GS_OK; ++f)
        if (strcmp(files[f].mode, files[0].mode) != 0)
            rc = gs_err_set(e, GS_USAGE, "compare: %.*s%s is a %s file and %.*s%s a %s file; "
                                         "compare files of one mode",
                            GS_ECHO(files[0].path), files[0].mode, GS_ECHO(files[f].path),
                            files[f].mode);
    c->table = strcmp(files[0].mode, "table") == 0;
    if (rc == GS_OK)
        rc = collect_groups(c, e);
    if (rc == GS_OK)
        rc = collect_rows(c, e);
    if (rc == GS_OK) {
        gs_str_printf(&text, "gridstride compare: %d file%s, %d %s%s\n\n", nfiles,
                      nfiles == 1 ? "" : "s", c->ngroups, c->table ? "device" : "run",
                      c->ngroups == 1 ? "" : "s");
        file_lines(c, &text);
        if (c->table)
            compare_tables(c, &text);
        else
            compare_bandwidth(c, &text);
        if (opt && opt->json)
            compare_json(c, opt, out);
        else
            gs_str_printf(out, "%s", text.data ? text.data : "");
        if (text.failed)
            out->failed = 1;
        *v = (struct gs_compare_verdict){c->differ, c->not_held, c->wrong, c->slow, c->changed};
    }
    gs_str_free(&text);
    cmp_free(c);
    free(c);
    return rc;
}

int gs_compare_report(const struct gs_compare_file *files, int nfiles, struct gs_str *out,
                      int *differ, struct gs_err *e)
{
    struct gs_compare_verdict v;
    const int rc = gs_compare_run(files, nfiles, NULL, out, &v, e);
    *differ = v.differ;
    return rc;
}
