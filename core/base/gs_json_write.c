/* SPDX-License-Identifier: MIT */
#include "gs_json_write.h"

#include <math.h>
#include <stddef.h>

/* The length of the well-formed UTF-8 sequence at s (the rules the reader
 * applies: no overlong forms, no surrogates, nothing above U+10FFFF), or 0. */
static size_t utf8_length(const unsigned char *s)
{
    unsigned char lo = 0x80, hi = 0xBF;
    size_t n;
    if (s[0] >= 0xC2 && s[0] <= 0xDF)
        n = 2;
    else if (s[0] >= 0xE0 && s[0] <= 0xEF) {
        n = 3;
        lo = s[0] == 0xE0 ? 0xA0 : 0x80;
        hi = s[0] == 0xED ? 0x9F : 0xBF;
    } else if (s[0] >= 0xF0 && s[0] <= 0xF4) {
        n = 4;
        lo = s[0] == 0xF0 ? 0x90 : 0x80;
        hi = s[0] == 0xF4 ? 0x8F : 0xBF;
    } else
        return 0;
    if (s[1] < lo || s[1] > hi)
        return 0;
    for (size_t i = 2; i < n; ++i)
        if ((s[i] & 0xC0) != 0x80)
            return 0;
    return n;
}

void gs_json_string(struct gs_str *o, const char *s)
{
    const unsigned char *u = (const unsigned char *)s;
    gs_str_printf(o, "\"");
    while (*u) {
        const unsigned char ch = *u;
        if (ch == '"' || ch == '\\') {
            gs_str_printf(o, "\\%c", ch);
            ++u;
        } else if (ch < 0x20) {
            gs_str_printf(o, "\\u%04x", ch);
            ++u;
        } else if (ch < 0x80) {
            gs_str_printf(o, "%c", ch);
            ++u;
        } else {
            const size_t n = utf8_length(u);
            if (n)
                gs_str_printf(o, "%.*s", (int)n, (const char *)u);
            else
                gs_str_printf(o, "\\ufffd");
            u += n ? n : 1;
        }
    }
    gs_str_printf(o, "\"");
}

void gs_jw_init(struct gs_jw *w, struct gs_str *o)
{
    w->o = o;
    w->depth = 0;
    w->next = NULL;
}

/* The comma and whitespace before an item, and its key: 0 on misuse. */
static int item(struct gs_jw *w, const char *key)
{
    if (w->depth == 0) {
        w->next = NULL;
        if (!key)
            return 1;
        w->o->failed = 1;
        return 0;
    }
    const int in_object = w->level[w->depth - 1].close == '}';
    if (in_object != (key != NULL)) {
        w->o->failed = 1;
        return 0;
    }
    int *items = &w->level[w->depth - 1].items;
    const char *space = w->next ? w->next : *items ? w->level[w->depth - 1].space : "";
    gs_str_printf(w->o, "%s%s", *items ? "," : "", space);
    w->next = NULL;
    ++*items;
    if (key) {
        gs_json_string(w->o, key);
        gs_str_printf(w->o, ": ");
    }
    return 1;
}

static void open_value(struct gs_jw *w, const char *key, char opening, char closing)
{
    if (!item(w, key))
        return;
    if (w->depth == GS_JW_MAX_DEPTH) {
        w->o->failed = 1;
        return;
    }
    gs_str_printf(w->o, "%c", opening);
    w->level[w->depth].close = closing;
    w->level[w->depth].items = 0;
    w->level[w->depth].space = " ";
    ++w->depth;
}

void gs_jw_object(struct gs_jw *w, const char *key)
{
    open_value(w, key, '{', '}');
}

void gs_jw_array(struct gs_jw *w, const char *key)
{
    open_value(w, key, '[', ']');
}

void gs_jw_end(struct gs_jw *w, const char *space)
{
    if (w->depth == 0) {
        w->o->failed = 1;
        return;
    }
    --w->depth;
    w->next = NULL;
    gs_str_printf(w->o, "%s%c%s", space, w->level[w->depth].close, w->depth ? "" : "\n");
}

void gs_jw_space(struct gs_jw *w, const char *space)
{
    w->next = space;
}

void gs_jw_item_space(struct gs_jw *w, const char *space)
{
    if (w->depth == 0) {
        w->o->failed = 1;
        return;
    }
    w->level[w->depth - 1].space = space;
}

void gs_jw_str(struct gs_jw *w, const char *key, const char *value)
{
    if (item(w, key))
        gs_json_string(w->o, value ? value : "");
}

void gs_jw_u64(struct gs_jw *w, const char *key, uint64_t value)
{
    if (item(w, key))
        gs_str_printf(w->o, "%llu", (unsigned long long)value);
}

void gs_jw_int(struct gs_jw *w, const char *key, long long value)
{
    if (item(w, key))
        gs_str_printf(w->o, "%lld", value);
}

void gs_jw_fixed(struct gs_jw *w, const char *key, int decimals, double value)
{
    if (!item(w, key))
        return;
    if (isfinite(value))
        gs_str_printf(w->o, "%.*f", decimals, value);
    else
        gs_str_printf(w->o, "null");
}

void gs_jw_bool(struct gs_jw *w, const char *key, int value)
{
    if (item(w, key))
        gs_str_printf(w->o, "%s", value ? "true" : "false");
}

void gs_jw_null(struct gs_jw *w, const char *key)
{
    if (item(w, key))
        gs_str_printf(w->o, "null");
}
