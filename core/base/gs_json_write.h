/* SPDX-License-Identifier: MIT */
/* The one JSON writer of every report: a stack of the open objects and
 * arrays that places its own commas, with one call per member or element.
 *
 * Layout is the caller's: by default an item follows the comma of the one
 * before it after one space ("a": 1, "b": 2), and the first item of an
 * object or array follows its bracket directly; gs_jw_space sets the
 * whitespace before the next item once (a line break and an indent), and
 * gs_jw_end the whitespace before a closing bracket. Strings are escaped
 * as RFC 8259 requires (quotes, backslashes, every control character), and
 * bytes that are not UTF-8 become U+FFFD, so that what is written here
 * gs_json_read reads back. Numbers that JSON cannot hold (NaN, infinities)
 * are written as null. Misuse (a member without a key, closing what is not
 * open, nesting deeper than GS_JW_MAX_DEPTH) marks the string failed, as an
 * allocation failure does: the caller refuses an incomplete document. */
#ifndef GS_JSON_WRITE_H
#define GS_JSON_WRITE_H

#include <stdint.h>

#include "gs_str.h"

#define GS_JW_MAX_DEPTH 16

struct gs_jw {
    struct gs_str *o;
    int depth;
    struct {
        char close;         /* '}' or ']' */
        int items;          /* written so far at this level */
        const char *space;  /* after each comma; " " unless gs_jw_item_space */
    } level[GS_JW_MAX_DEPTH];
    const char *next; /* whitespace before the next item, once; NULL: the level's */
};

void gs_jw_init(struct gs_jw *w, struct gs_str *o);

/* Open an object or an array: as a member (key) of an open object, or as
 * an element (key NULL) of an open array or the document itself. */
void gs_jw_object(struct gs_jw *w, const char *key);
void gs_jw_array(struct gs_jw *w, const char *key);
/* Close the innermost, after `space` ("" for none). Closing the document's
 * outermost value ends the document with a newline. */
void gs_jw_end(struct gs_jw *w, const char *space);

/* The whitespace before the next item (after its comma), once. */
void gs_jw_space(struct gs_jw *w, const char *space);
/* The whitespace after every comma of the innermost open object or array
 * from here on ("" for [1,2,3]). */
void gs_jw_item_space(struct gs_jw *w, const char *space);

/* Members (key given) and array elements (key NULL). */
void gs_jw_str(struct gs_jw *w, const char *key, const char *value);
void gs_jw_u64(struct gs_jw *w, const char *key, uint64_t value);
void gs_jw_int(struct gs_jw *w, const char *key, long long value);
/* value with `decimals` digits after the point, as printf's %.*f. */
void gs_jw_fixed(struct gs_jw *w, const char *key, int decimals, double value);
void gs_jw_bool(struct gs_jw *w, const char *key, int value);
void gs_jw_null(struct gs_jw *w, const char *key);

/* s as a JSON string, quotes included, escaped as above. */
void gs_json_string(struct gs_str *o, const char *s);

#endif
