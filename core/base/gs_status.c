/* SPDX-License-Identifier: MIT */
#include "gs_status.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int gs_err_set(struct gs_err *e, int status, const char *fmt, ...)
{
    if (e) {
        /* Formatted apart first: an argument may point into e->msg. */
        char line[sizeof e->msg];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(line, sizeof line, fmt, ap);
        va_end(ap);
        e->status = status;
        gs_escape_controls(e->msg, sizeof e->msg, line);
    }
    return status;
}

size_t gs_escape_controls(char *dst, size_t size, const char *src)
{
    size_t len = 0;
    if (size == 0)
        return 0;
    for (; *src; ++src) {
        const unsigned char ch = (unsigned char)*src;
        char esc[5] = {(char)ch, '\0'};
        if (ch == '\n' || ch == '\r' || ch == '\t')
            snprintf(esc, sizeof esc, "\\%c", ch == '\n' ? 'n' : ch == '\r' ? 'r' : 't');
        else if (ch < 0x20 || ch == 0x7f)
            snprintf(esc, sizeof esc, "\\x%02x", ch);
        const size_t n = strlen(esc);
        if (len + n >= size)
            break; /* never half an escape */
        memcpy(dst + len, esc, n);
        len += n;
    }
    dst[len] = '\0';
    return len;
}

void gs_err_clear(struct gs_err *e)
{
    if (e) {
        e->status = GS_OK;
        e->msg[0] = '\0';
    }
}

char *gs_strlcpy(char *dst, const char *src, size_t size)
{
    if (size == 0)
        return dst;
    size_t len = strlen(src);
    if (len >= size)
        len = size - 1;
    memcpy(dst, src, len);
    dst[len] = '\0';
    return dst;
}
