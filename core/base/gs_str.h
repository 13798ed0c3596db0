/* SPDX-License-Identifier: MIT */
/* A growable string: reports are built in memory and handed to the CLI,
 * which alone decides where they go (stdout or an --output file). */
#ifndef GS_STR_H
#define GS_STR_H

#include <stddef.h>

struct gs_str {
    char *data; /* NUL-terminated; NULL until the first append */
    size_t len;
    size_t cap;
    int failed; /* an allocation failed: the text is incomplete */
};

void gs_str_printf(struct gs_str *s, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Append text with XML's special characters escaped (SVG text and attributes). */
void gs_str_xml(struct gs_str *s, const char *text);
void gs_str_free(struct gs_str *s);

#endif
