/* SPDX-License-Identifier: MIT */
#include "gs_str.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static int reserve(struct gs_str *s, size_t extra)
{
    if (s->len + extra + 1 <= s->cap)
        return 1;
    size_t cap = s->cap ? s->cap : 1024;
    while (cap < s->len + extra + 1)
        cap *= 2;
    char *p = realloc(s->data, cap);
    if (!p)
        return 0;
    s->data = p;
    s->cap = cap;
    return 1;
}

void gs_str_printf(struct gs_str *s, const char *fmt, ...)
{
    if (s->failed)
        return;
    va_list ap;
    va_start(ap, fmt);
    int need = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (need < 0 || !reserve(s, (size_t)need)) {
        s->failed = 1;
        return;
    }
    va_start(ap, fmt);
    vsnprintf(s->data + s->len, s->cap - s->len, fmt, ap);
    va_end(ap);
    s->len += (size_t)need;
}

void gs_str_xml(struct gs_str *s, const char *text)
{
    for (; *text; ++text) {
        switch (*text) {
        case '<': gs_str_printf(s, "&lt;"); break;
        case '>': gs_str_printf(s, "&gt;"); break;
        case '&': gs_str_printf(s, "&amp;"); break;
        case '"': gs_str_printf(s, "&quot;"); break;
        default: gs_str_printf(s, "%c", *text);
        }
    }
}

void gs_str_free(struct gs_str *s)
{
    free(s->data);
    *s = (struct gs_str){0};
}
