/* SPDX-License-Identifier: MIT */
/* A small, strict JSON reader (RFC 8259) for the suite's own results files.
 *
 * It builds a tree of nodes and refuses anything that is not JSON: trailing
 * commas, comments, leading zeros, control characters or invalid UTF-8 in
 * strings, lone surrogates, duplicate keys, NUL bytes, nesting deeper than
 * GS_JSON_MAX_DEPTH, and anything after the value. An error says where
 * (line and column, both from 1) and what was expected, in one line. */
#ifndef GS_JSON_READ_H
#define GS_JSON_READ_H

#include <stddef.h>
#include <stdint.h>

#include "gs_status.h"

#define GS_JSON_MAX_DEPTH 64
#define GS_JSON_MAX_FILE (64u << 20) /* results files are kilobytes; this is a guard */

enum gs_json_type {
    GS_JSON_NULL, GS_JSON_FALSE, GS_JSON_TRUE, GS_JSON_NUMBER, GS_JSON_STRING, GS_JSON_ARRAY,
    GS_JSON_OBJECT
};

struct gs_json {
    enum gs_json_type type;
    char *key;             /* a member's name inside an object, else NULL */
    char *str;             /* GS_JSON_STRING: decoded UTF-8, NUL-terminated */
    double num;            /* GS_JSON_NUMBER */
    int is_u64;            /* the number is an integer that fits uint64_t exactly */
    uint64_t u64;          /* its value, when is_u64 */
    struct gs_json *child; /* first element or member */
    struct gs_json *next;  /* next sibling */
    int count;             /* elements or members */
};

/* Parse len bytes of text. On GS_OK *root is the tree (free with
 * gs_json_free); on GS_USAGE e says where the text stops being JSON. */
int gs_json_parse(const char *text, size_t len, struct gs_json **root, struct gs_err *e);

/* Read and parse a file (at most GS_JSON_MAX_FILE bytes): GS_IO when it
 * cannot be read, GS_USAGE when it is not a regular file (refused without
 * blocking: a FIFO or a device never hangs the reader), too large, empty or
 * not JSON ("not JSON: " and where). */
int gs_json_read_file(const char *path, struct gs_json **root, struct gs_err *e);

void gs_json_free(struct gs_json *v);

/* Lookups that answer NULL (or the fallback) for a missing member or a
 * value of another type, so callers check once. */
const struct gs_json *gs_json_get(const struct gs_json *obj, const char *key);
const struct gs_json *gs_json_at(const struct gs_json *arr, int i);
const char *gs_json_str(const struct gs_json *obj, const char *key, const char *fallback);
/* 1 and *out when obj[key] is a non-negative integer, else 0. */
int gs_json_u64(const struct gs_json *obj, const char *key, uint64_t *out);
/* 1 and *out when obj[key] is a number, else 0. */
int gs_json_num(const struct gs_json *obj, const char *key, double *out);
/* 1 for true, 0 for false, fallback otherwise. */
int gs_json_bool(const struct gs_json *obj, const char *key, int fallback);

#endif
