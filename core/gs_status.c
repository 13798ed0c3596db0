/* SPDX-License-Identifier: MIT */
#include "gs_status.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *const status_names[] = {
#define GS_STATUS_NAME(name, msg) "GS_" #name,
    GS_STATUS_MAP(GS_STATUS_NAME)
#undef GS_STATUS_NAME
};

static const char *const status_messages[] = {
#define GS_STATUS_MSG(name, msg) msg,
    GS_STATUS_MAP(GS_STATUS_MSG)
#undef GS_STATUS_MSG
};

const char *gs_status_name(int status)
{
    if (status < 0 || status >= GS_STATUS_COUNT)
        return "GS_UNKNOWN";
    return status_names[status];
}

const char *gs_status_message(int status)
{
    if (status < 0 || status >= GS_STATUS_COUNT)
        return "unknown status";
    return status_messages[status];
}

int gs_err_set(struct gs_err *e, int status, const char *fmt, ...)
{
    if (e) {
        va_list ap;
        e->status = status;
        va_start(ap, fmt);
        vsnprintf(e->msg, sizeof e->msg, fmt, ap);
        va_end(ap);
    }
    return status;
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
