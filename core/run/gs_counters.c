/* SPDX-License-Identifier: MIT */
#include "gs_counters.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gs_status.h"

/* ---- ncu's CSV ----------------------------------------------------------- */

#define CSV_MAX_FIELDS 40
#define CSV_FIELD 320

/* One CSV record of line [p, end): quoted or bare fields, "" inside quotes.
 * Returns the number of fields, -1 when it is not CSV. */
static int split_csv(const char *p, const char *end, char fields[][CSV_FIELD], int max)
{
    int n = 0;
    for (;;) {
        if (n == max)
            return -1;
        size_t k = 0;
        char *f = fields[n++];
        if (p < end && *p == '"') {
            ++p;
            for (;;) {
                if (p >= end)
                    return -1; /* an unclosed quote */
                if (*p == '"' && p + 1 < end && p[1] == '"') {
                    if (k + 1 < CSV_FIELD)
                        f[k++] = '"';
                    p += 2;
                } else if (*p == '"') {
                    ++p;
                    break;
                } else {
                    if (k + 1 < CSV_FIELD)
                        f[k++] = *p;
                    ++p;
                }
            }
        } else {
            while (p < end && *p != ',') {
                if (k + 1 < CSV_FIELD)
                    f[k++] = *p;
                ++p;
            }
        }
        f[k] = '\0';
        if (p >= end)
            return n;
        if (*p != ',')
            return -1;
        ++p;
    }
}

static int column(char fields[][CSV_FIELD], int n, const char *name)
{
    for (int i = 0; i < n; ++i)
        if (strcmp(fields[i], name) == 0)
            return i;
    return -1;
}

/* "1,048,576" or "4.00" or "n/a": 0 when it is no number. */
static int parse_number(const char *s, double *v)
{
    char digits[CSV_FIELD];
    size_t k = 0;
    for (; *s; ++s)
        if (*s != ',' && *s != ' ' && k + 1 < sizeof digits)
            digits[k++] = *s;
    digits[k] = '\0';
    if (!k)
        return 0;
    char *endp = NULL;
    *v = strtod(digits, &endp);
    return *endp == '\0' && isfinite(*v) && *v >= 0;
}

/* The factor of a unit to bytes, nanoseconds, or a plain count; 0 unknown. */
static double unit_factor(const char *unit)
{
    static const struct {
        const char *unit;
        double f;
    } units[] = {
        {"", 1},           {"sector", 1},      {"request", 1},   {"byte", 1},
        {"Kbyte", 1e3},    {"Mbyte", 1e6},     {"Gbyte", 1e9},   {"Tbyte", 1e12},
        {"KB", 1e3},       {"MB", 1e6},        {"GB", 1e9},      {"ns", 1},
        {"nsecond", 1},    {"us", 1e3},        {"usecond", 1e3}, {"ms", 1e6},
        {"msecond", 1e6},  {"s", 1e9},         {"second", 1e9},  {"Ksector", 1e3},
        {"Msector", 1e6},  {"Gsector", 1e9},   {"Krequest", 1e3}, {"Mrequest", 1e6},
    };
    for (size_t i = 0; i < sizeof units / sizeof units[0]; ++i)
        if (strcmp(unit, units[i].unit) == 0)
            return units[i].f;
    return 0;
}

/* "(1056, 1, 1)": the product. */
static uint64_t dims(const char *s)
{
    uint64_t prod = 1;
    int any = 0;
    while (*s) {
        if (isdigit((unsigned char)*s)) {
            char *e = NULL;
            prod *= strtoull(s, &e, 10);
            s = e;
            any = 1;
        } else {
            ++s;
        }
    }
    return any ? prod : 0;
}

static void metric_into(struct gs_counters_kernel *k, const char *metric, uint64_t v)
{
    static const struct {
        const char *name;
        unsigned bit;
        size_t off;
    } map[] = {
        {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", GS_CTR_LD_REQ,
         offsetof(struct gs_counters_kernel, ld_req)},
        {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", GS_CTR_LD_SEC,
         offsetof(struct gs_counters_kernel, ld_sec)},
        {"l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", GS_CTR_ST_REQ,
         offsetof(struct gs_counters_kernel, st_req)},
        {"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", GS_CTR_ST_SEC,
         offsetof(struct gs_counters_kernel, st_sec)},
        {"dram__bytes_read.sum", GS_CTR_DRAM_RD, offsetof(struct gs_counters_kernel, dram_read)},
        {"dram__bytes_write.sum", GS_CTR_DRAM_WR, offsetof(struct gs_counters_kernel, dram_write)},
        {"gpu__time_duration.sum", GS_CTR_TIME, offsetof(struct gs_counters_kernel, time_ns)},
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; ++i)
        if (strcmp(metric, map[i].name) == 0) {
            memcpy((char *)k + map[i].off, &v, sizeof v);
            k->have |= map[i].bit;
        }
}

int gs_counters_parse_values(const char *text, size_t len, struct gs_counters_kernel *out,
                             int max, int *nout, char *source, size_t source_size, char *why,
                             size_t why_size)
{
    *nout = 0;
    if (source_size)
        source[0] = '\0';
    if (why_size)
        why[0] = '\0';
    for (int i = 0; i < max; ++i)
        memset(&out[i], 0, sizeof out[i]);
    const char *p = text, *end = text + len;
    int lineno = 0;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const size_t n = (size_t)((nl ? nl : end) - p);
        char line[512];
        ++lineno;
        if (n >= sizeof line) {
            snprintf(why, why_size, "line %d of the values is longer than %zu bytes", lineno,
                     sizeof line - 1);
            return GS_IO;
        }
        memcpy(line, p, n);
        line[n] = '\0';
        p = nl ? nl + 1 : end;
        if (!line[0])
            continue;
        if (strncmp(line, "error ", 6) == 0) {
            snprintf(why, why_size, "%s", line + 6);
            return GS_API;
        }
        if (strncmp(line, "source ", 7) == 0) {
            snprintf(source, source_size, "%s", line + 7);
            continue;
        }
        char metric[128], num[64];
        int r = -1, used = 0;
        if (sscanf(line, "range %d %127s %63s%n", &r, metric, num, &used) != 3 ||
            line[used] != '\0') {
            snprintf(why, why_size, "line %d of the values is not \"range R METRIC VALUE\"",
                     lineno);
            return GS_IO;
        }
        double v = 0;
        if (r < 0 || r >= max) {
            snprintf(why, why_size, "line %d names range %d; at most %d were launched", lineno,
                     r, max);
            return GS_IO;
        }
        if (!parse_number(num, &v) || !(v >= 0) || v > 9.2e18) {
            snprintf(why, why_size, "line %d: %s is not a count", lineno, num);
            return GS_IO;
        }
        metric_into(&out[r], metric, (uint64_t)(v + 0.5));
        if (r + 1 > *nout)
            *nout = r + 1;
    }
    return GS_OK;
}

int gs_counters_parse_csv(const char *text, size_t len, struct gs_counters_kernel *out, int max,
                          int *nout, char *why, size_t why_size)
{
    char fields[CSV_MAX_FIELDS][CSV_FIELD];
    int c_id = -1, c_name = -1, c_block = -1, c_grid = -1, c_metric = -1, c_unit = -1,
        c_value = -1, header = 0, row = 0;
    *nout = 0;
    if (why && why_size)
        why[0] = '\0';
    for (const char *p = text, *stop = text + len; p < stop;) {
        const char *end = memchr(p, '\n', (size_t)(stop - p));
        if (!end)
            end = stop;
        const char *line = p, *eol = end > p && end[-1] == '\r' ? end - 1 : end;
        p = end + 1;
        ++row;
        if (eol == line)
            continue;
        if (eol - line >= 2 && line[0] == '=' && line[1] == '=') {
            /* ncu's own lines: the first error says why nothing was read. */
            if (why && why_size && !why[0] && eol - line >= 9 &&
                memcmp(line, "==ERROR==", 9) == 0) {
                const char *t = line + 9;
                while (t < eol && *t == ' ')
                    ++t;
                snprintf(why, why_size, "%.*s", (int)(eol - t), t);
            }
            continue;
        }
        const int nf = split_csv(line, eol, fields, CSV_MAX_FIELDS);
        if (nf < 0) {
            if (why && why_size)
                snprintf(why, why_size, "line %d of ncu's CSV is not CSV", row);
            return GS_IO;
        }
        if (!header) {
            c_id = column(fields, nf, "ID");
            c_name = column(fields, nf, "Kernel Name");
            c_block = column(fields, nf, "Block Size");
            c_grid = column(fields, nf, "Grid Size");
            c_metric = column(fields, nf, "Metric Name");
            c_unit = column(fields, nf, "Metric Unit");
            c_value = column(fields, nf, "Metric Value");
            if (c_id < 0 || c_name < 0 || c_metric < 0 || c_value < 0) {
                if (why && why_size)
                    snprintf(why, why_size, "ncu's CSV has no ID, Kernel Name, Metric Name and "
                                            "Metric Value columns (line %d)", row);
                return GS_IO;
            }
            header = 1;
            continue;
        }
        if (nf <= c_id || nf <= c_name || nf <= c_metric || nf <= c_value ||
            (c_unit >= 0 && nf <= c_unit)) {
            if (why && why_size)
                snprintf(why, why_size, "line %d of ncu's CSV has %d fields, fewer than its "
                                        "header", row, nf);
            return GS_IO;
        }
        char *idend = NULL;
        const long id = strtol(fields[c_id], &idend, 10);
        if (idend == fields[c_id] || *idend) {
            if (why && why_size)
                snprintf(why, why_size, "line %d of ncu's CSV has no kernel ID", row);
            return GS_IO;
        }
        struct gs_counters_kernel *k = NULL;
        for (int i = 0; i < *nout; ++i)
            if (out[i].id == id)
                k = &out[i];
        if (!k) {
            if (*nout == max)
                continue; /* more launches than asked for: the first ones count */
            k = &out[(*nout)++];
            memset(k, 0, sizeof *k);
            k->id = id;
            gs_strlcpy(k->name, fields[c_name], sizeof k->name);
            k->grid = c_grid >= 0 ? dims(fields[c_grid]) : 0;
            k->block = c_block >= 0 ? dims(fields[c_block]) : 0;
        }
        double v = 0;
        const double f = unit_factor(c_unit >= 0 ? fields[c_unit] : "");
        if (f > 0 && parse_number(fields[c_value], &v))
            metric_into(k, fields[c_metric], (uint64_t)llround(v * f));
    }
    if (!header && why && why_size && !why[0])
        snprintf(why, why_size, "ncu wrote no CSV header: no kernel was profiled");
    return GS_OK;
}

int gs_counters_name_is(const char *kernel_name, const char *entry)
{
    const size_t n = strlen(entry);
    const char *name = kernel_name;
    /* The base name: after the last "::" before the parameters. */
    const char *paren = strchr(name, '(');
    for (const char *p = name; (p = strstr(p, "::")) != NULL && (!paren || p < paren); p += 2)
        name = p + 2;
    return n && strncmp(name, entry, n) == 0 &&
           (name[n] == '\0' || name[n] == '(' || name[n] == '<');
}

int gs_counters_ncu_version(const char *text, char *buf, size_t size)
{
    for (const char *p = text; (p = strstr(p, "Version ")) != NULL; ++p) {
        const char *v = p + 8;
        size_t k = 0;
        int dots = 0;
        if (!isdigit((unsigned char)*v))
            continue;
        while ((isdigit((unsigned char)v[k]) || v[k] == '.') && k + 1 < size) {
            if (v[k] == '.' && ++dots == 3)
                break;
            ++k;
        }
        while (k && v[k - 1] == '.')
            --k;
        snprintf(buf, size, "%.*s", (int)k, v);
        return 1;
    }
    return 0;
}

/* ---- the rule ------------------------------------------------------------ */

const char *gs_counters_class_name(enum gs_counters_class c)
{
    static const char *const names[] = {"not-read", "coalesced", "repeated", "scattered",
                                        "other"};
    return (unsigned)c < sizeof names / sizeof names[0] ? names[c] : "?";
}

static double ratio(uint64_t a, uint64_t b)
{
    return b ? (double)a / (double)b : 0;
}

void gs_counters_judge(struct gs_counters *c)
{
    const uint64_t min_st = (c->n + 31) / 32, min_ld = (2 * c->n + 31) / 32;
    const uint64_t T = c->grid * c->block;
    const struct gs_counters_kernel *u = &c->user;
    c->st_per_elem = ratio(u->st_req, min_st);
    c->ld_per_elem = ratio(u->ld_req, min_ld);
    c->ld_spr = ratio(u->ld_sec, u->ld_req);
    c->st_spr = ratio(u->st_sec, u->st_req);
    c->suite_st_per_elem = ratio(c->suite.st_req, min_st);
    c->suite_ld_spr = ratio(c->suite.ld_sec, c->suite.ld_req);
    c->suite_st_spr = ratio(c->suite.st_sec, c->suite.st_req);
    c->chunk = T ? (c->n + T - 1) / T : 0;
    snprintf(c->rule, sizeof c->rule,
             "stores per element = store requests / (n/32), the minimum for floats; 1.5 or more: "
             "every element stored that many times (the grid's G blocks of them: a block "
             "stride, pitfall 1); else sectors per request of loads or stores 6 or more "
             "(4 is the minimum): scattered lanes (24 or more: one chunk per thread of C = "
             "ceil(n/T) elements); else coalesced");
    const double worst_spr = c->ld_spr > c->st_spr ? c->ld_spr : c->st_spr;
    if ((u->have & GS_CTR_NEEDED) != GS_CTR_NEEDED || !u->st_req || !u->ld_req) {
        c->cls = GS_CTRS_OTHER;
        snprintf(c->words, sizeof c->words,
                 "ncu gave no global load and store requests for the kernel: nothing to judge");
    } else if (c->st_per_elem >= 1.5) {
        const double times = floor(c->st_per_elem + 0.5);
        const int block_stride = c->grid && fabs(times - (double)c->grid) <= 0.1 * (double)c->grid;
        c->cls = GS_CTRS_REPEATED;
        snprintf(c->words, sizeof c->words, "right, but every element stored %.0f times: %s",
                 times, block_stride ? "the loop steps by the block, not the grid (pitfall 1)"
                                     : "more store requests than the n/32 minimum; each "
                                       "element should be written once");
    } else if (worst_spr >= 6) {
        const int ld = c->ld_spr >= c->st_spr;
        c->cls = GS_CTRS_SCATTERED;
        if (worst_spr >= 24)
            snprintf(c->words, sizeof c->words,
                     "right, but %.0f sectors per request where 4 is the minimum: the warp's "
                     "lanes are %llu elements apart (one chunk per thread)",
                     worst_spr, (unsigned long long)c->chunk);
        else
            snprintf(c->words, sizeof c->words,
                     "right, but %.1f sectors per request of its %s where 4 is the minimum: the "
                     "warp's lanes do not touch neighbouring elements",
                     worst_spr, ld ? "loads" : "stores");
    } else {
        c->cls = GS_CTRS_COALESCED;
        snprintf(c->words, sizeof c->words,
                 "coalesced: %.1f sectors per request for loads and %.1f for stores (4 is the "
                 "minimum) and %.2f times the n/32 store requests, as the suite's loop",
                 c->ld_spr, c->st_spr, c->st_per_elem);
    }
}
