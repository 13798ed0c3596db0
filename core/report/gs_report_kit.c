/* SPDX-License-Identifier: MIT */
#include "gs_report_kit.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gs_device.h"

void gs_device_label(const struct gs_device *d, int qualify, char *buf, unsigned size)
{
    if (qualify)
        snprintf(buf, size, "%s [%s]", d->backend->name, d->id);
    else
        snprintf(buf, size, "%s", d->backend->name);
}

/* The grid probe's answer in one line: what the API's work-item functions
 * returned past 2^32, against the true T. */
void gs_probe_line(const struct gs_device *d, char *buf, unsigned size)
{
    const struct gs_grid_probe *p = gs_dev_probed(d);
    if (!p) {
        snprintf(buf, size, "not probed");
    } else if (p->status != GS_OK) {
        snprintf(buf, size, "not probed: %s", p->why);
    } else if (p->global_id != p->item) {
        snprintf(buf, size,
                 "%llu work-items: no work-item reported global id %llu (get_global_id(0) "
                 "is wrong past 2^32 here)",
                 (unsigned long long)p->global, (unsigned long long)p->item);
    } else {
        snprintf(buf, size,
                 "%llu work-items of %llu: get_global_size(0) = %llu (%s); get_global_id(0) "
                 "= %llu (right); groups x local = %llu (%s); the prelude's T = %llu (%s)",
                 (unsigned long long)p->global, (unsigned long long)p->local,
                 (unsigned long long)p->global_size,
                 p->global_size == p->global ? "right"
                 : p->global_size == (p->global & 0xffffffffu) ? "wrapped modulo 2^32"
                                                                : "wrong",
                 (unsigned long long)p->global_id, (unsigned long long)p->groups_x_local,
                 p->groups_x_local == p->global ? "right" : "wrong",
                 (unsigned long long)p->prelude_T,
                 p->prelude_T == p->global ? "right" : "WRONG: grid-stride launches past 2^32 "
                                                       "are not made");
    }
}

/* An element's bits as its type's value, exactly enough to tell two apart. */
static void element_value(uint64_t bits, enum gs_type type, char *buf, unsigned size)
{
    if (type == GS_TYPE_DOUBLE) {
        double d;
        memcpy(&d, &bits, sizeof d);
        snprintf(buf, size, "%.17g", d);
    } else {
        const uint32_t low = (uint32_t)bits;
        float f;
        memcpy(&f, &low, sizeof f);
        snprintf(buf, size, "%.9g", (double)f);
    }
}

void gs_report_wrong_list(const struct gs_verdict *v, enum gs_type type, const char *indent,
                          struct gs_str *o)
{
    gs_str_printf(o, "%s%12s %10s %8s %6s  %s\n", indent, "index", "block", "thread", "pass",
                  "found");
    for (int w = 0; w < v->listed; ++w) {
        const struct gs_wrong *x = &v->list[w];
        char found[80] = "unwritten", got[32], want[32];
        if (!x->unwritten) {
            element_value(x->got_bits, type, got, sizeof got);
            element_value(x->want_bits, type, want, sizeof want);
            snprintf(found, sizeof found, "%s, expected %s", got, want);
        }
        gs_str_printf(o, "%s%12llu %10llu %8llu %6llu  %s%s\n", indent,
                      (unsigned long long)x->index, (unsigned long long)x->owner.block,
                      (unsigned long long)x->owner.thread, (unsigned long long)x->owner.pass,
                      found, x->owner.launched ? "" : " (no such thread in this launch)");
    }
}


void gs_json_wrong_list(struct gs_jw *w, const struct gs_verdict *v)
{
    gs_jw_array(w, "first_wrong_indices");
    for (int i = 0; i < v->listed; ++i) {
        const struct gs_wrong *x = &v->list[i];
        gs_jw_object(w, NULL);
        gs_jw_u64(w, "index", x->index);
        gs_jw_u64(w, "block", x->owner.block);
        gs_jw_u64(w, "thread", x->owner.thread);
        gs_jw_u64(w, "pass", x->owner.pass);
        gs_jw_bool(w, "launched", x->owner.launched);
        gs_jw_bool(w, "unwritten", x->unwritten);
        gs_jw_end(w, "");
    }
    gs_jw_end(w, "");
}

void gs_json_device(struct gs_jw *w, const struct gs_device *d)
{
    gs_jw_str(w, GS_RK(BACKEND), d->backend->name);
    gs_jw_str(w, GS_RK(DEVICE), d->name);
    gs_jw_str(w, GS_RK(ID), d->id);
    gs_jw_str(w, GS_RK(PLATFORM), d->platform);
    gs_jw_str(w, GS_RK(API_VERSION), d->api_version);
    gs_jw_str(w, GS_RK(DRIVER_VERSION), d->driver_version);
    gs_jw_str(w, GS_RK(ARCH), d->arch);
}

void gs_results_device(struct gs_jw *w, const struct gs_device *d)
{
    gs_json_device(w, d);
    gs_jw_str(w, GS_RK(PCI), d->pci);
    gs_jw_u64(w, GS_RK(COMPUTE_UNITS), d->compute_units);
}

void gs_json_predicted(struct gs_jw *w, const struct gs_launch *l, const struct gs_prediction *p)
{
    if (l->asked_grid) {
        gs_jw_u64(w, "asked_grid", l->asked_grid);
        gs_jw_u64(w, "asked_block", l->asked_block);
    }
    gs_jw_object(w, "predicted");
    gs_jw_str(w, "outcome", gs_outcome_name(p->outcome));
    gs_jw_u64(w, "first_wrong", p->first_wrong);
    gs_jw_u64(w, "wrong", p->wrong);
    gs_jw_str(w, "rule", p->why);
    gs_jw_end(w, "");
}

void gs_report_rate(double v, char *buf, unsigned size)
{
    if (!(v > 0))
        snprintf(buf, size, "0");
    else if (v >= 100)
        snprintf(buf, size, "%.0f", v);
    else if (v >= 10)
        snprintf(buf, size, "%.1f", v);
    else if (v >= 1)
        snprintf(buf, size, "%.2f", v);
    else {
        const int d = (int)ceil(-log10(v)) + 2;
        snprintf(buf, size, "%.*f", d > 12 ? 12 : d, v);
    }
}

void gs_md_provenance(struct gs_str *o, const char *command)
{
    if (command)
        gs_str_printf(o, "Command: `%s`\n\n", command);
    gs_str_printf(o, "Commit: `%s`\n\n", gs_build_commit());
}

/* Columns of s[0, len): UTF-8 continuation bytes take none. */
static unsigned columns_of(const char *s, size_t len)
{
    unsigned n = 0;
    for (size_t i = 0; i < len; ++i)
        n += ((unsigned char)s[i] & 0xc0u) != 0x80u;
    return n;
}

/* Where a continuation of the line goes: under the last column of a row of
 * columns when that leaves room for words, else two past the indentation. */
static unsigned hang_of(const char *line, size_t len, unsigned width)
{
    size_t indent = 0, last = 0;
    while (indent < len && line[indent] == ' ')
        ++indent;
    for (size_t i = indent; i + 2 < len; ++i)
        if (line[i] == ' ' && line[i + 1] == ' ' && line[i + 2] != ' ')
            last = i + 2;
    const unsigned col = last ? columns_of(line, last) : 0;
    if (col && col + 30 <= width)
        return col;
    const unsigned hang = columns_of(line, indent) + 2;
    return hang + 30 <= width ? hang : 2;
}

/* The offset of the first '|' in s[0, len), or -1. */
static long bar_at(const char *s, size_t len)
{
    const char *bar = memchr(s, '|', len);
    return bar ? (long)(bar - s) : -1;
}

static void wrap_line(const char *line, size_t len, int table_row, unsigned width,
                      struct gs_str *out)
{
    if (columns_of(line, len) <= width || table_row) {
        gs_str_printf(out, "%.*s\n", (int)len, line);
        return;
    }
    const unsigned hang = hang_of(line, len, width);
    size_t at = 0;
    unsigned lead = 0; /* the indentation of the piece being written */
    while (at < len) {
        /* The longest run of words that fits in width - lead columns. */
        size_t end = at, fit = 0;
        unsigned cols = lead;
        while (end < len) {
            size_t word = end;
            while (word < len && line[word] == ' ')
                ++word;
            size_t stop = word;
            while (stop < len && line[stop] != ' ')
                ++stop;
            cols += columns_of(line + end, stop - end);
            if (cols > width && fit)
                break;
            fit = stop;
            end = stop;
            if (cols > width) /* one word wider than the width: whole */
                break;
        }
        gs_str_printf(out, "%*s%.*s\n", (int)lead, "", (int)(fit - at), line + at);
        at = fit;
        while (at < len && line[at] == ' ')
            ++at;
        lead = hang;
    }
}

void gs_text_wrap(const char *text, unsigned width, struct gs_str *out)
{
    const char *s = text ? text : "";
    long prev_bar = -1; /* where the line above has its first '|' */
    while (*s) {
        const char *nl = strchr(s, '\n');
        const size_t len = nl ? (size_t)(nl - s) : strlen(s);
        /* A table row: its first '|' where the line above or below has one
         * ("a | b" in a line of prose has no such neighbour). */
        const long bar = bar_at(s, len);
        long next_bar = -1;
        if (nl) {
            const char *nn = strchr(nl + 1, '\n');
            next_bar = bar_at(nl + 1, nn ? (size_t)(nn - nl - 1) : strlen(nl + 1));
        }
        const int table_row = bar >= 0 && (bar == prev_bar || bar == next_bar);
        prev_bar = bar;
        if (width)
            wrap_line(s, len, table_row, width, out);
        else
            gs_str_printf(out, "%.*s\n", (int)len, s);
        if (!nl) { /* a last line without its newline keeps none */
            out->len -= 1;
            out->data[out->len] = '\0';
            break;
        }
        s = nl + 1;
    }
}
