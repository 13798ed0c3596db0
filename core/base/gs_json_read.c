/* SPDX-License-Identifier: MIT */
#include "gs_json_read.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gs_io.h"
#include "gs_str.h"

struct parser {
    const char *s;
    size_t len, pos;
    int depth;
    struct gs_err *e;
};

/* Where pos is, as an editor shows it: line and column from 1. */
static int fail(struct parser *p, const char *what)
{
    int line = 1, col = 1;
    for (size_t i = 0; i < p->pos && i < p->len; ++i) {
        if (p->s[i] == '\n') {
            ++line;
            col = 1;
        } else {
            ++col;
        }
    }
    if (p->pos >= p->len)
        return gs_err_set(p->e, GS_USAGE, "line %d, column %d: %s, but the text ends there", line,
                          col, what);
    return gs_err_set(p->e, GS_USAGE, "line %d, column %d: %s", line, col, what);
}

static void skip_space(struct parser *p)
{
    while (p->pos < p->len && (p->s[p->pos] == ' ' || p->s[p->pos] == '\t' ||
                               p->s[p->pos] == '\r' || p->s[p->pos] == '\n'))
        ++p->pos;
}

static int peek(const struct parser *p)
{
    return p->pos < p->len ? (unsigned char)p->s[p->pos] : -1;
}

static int literal(struct parser *p, const char *word, struct gs_json *v, enum gs_json_type t)
{
    const size_t n = strlen(word);
    if (p->len - p->pos < n || memcmp(p->s + p->pos, word, n) != 0)
        return fail(p, "expected a value (object, array, string, number, true, false or null)");
    p->pos += n;
    v->type = t;
    return GS_OK;
}

/* ---- strings -------------------------------------------------------------- */

/* Append n bytes (never a NUL: the parser refuses those) to b. */
static int put(struct gs_str *b, const char *bytes, size_t n)
{
    gs_str_printf(b, "%.*s", (int)n, bytes);
    return !b->failed;
}

static int hex4(struct parser *p, unsigned *out)
{
    *out = 0;
    for (int i = 0; i < 4; ++i) {
        const int c = peek(p);
        unsigned d;
        if (c >= '0' && c <= '9')
            d = (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f')
            d = (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            d = (unsigned)(c - 'A' + 10);
        else
            return fail(p, "expected four hex digits after \\u");
        *out = *out * 16 + d;
        ++p->pos;
    }
    return GS_OK;
}

static size_t utf8_encode(unsigned cp, char *out)
{
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xC0 | (cp >> 6));
        out[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | (cp >> 12));
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (cp >> 18));
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

/* \uXXXX, with a surrogate pair joined into one code point. */
static int unicode_escape(struct parser *p, struct gs_str *b)
{
    unsigned cp, lo;
    char enc[4];
    int rc = hex4(p, &cp);
    if (rc != GS_OK)
        return rc;
    if (cp >= 0xDC00 && cp <= 0xDFFF)
        return fail(p, "a low surrogate (\\uDC00-\\uDFFF) without a high one before it");
    if (cp >= 0xD800 && cp <= 0xDBFF) {
        if (p->len - p->pos < 2 || p->s[p->pos] != '\\' || p->s[p->pos + 1] != 'u')
            return fail(p, "a high surrogate must be followed by \\u and a low surrogate");
        p->pos += 2;
        if ((rc = hex4(p, &lo)) != GS_OK)
            return rc;
        if (lo < 0xDC00 || lo > 0xDFFF)
            return fail(p, "a high surrogate must be followed by a low surrogate (\\uDC00-\\uDFFF)");
        cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
    }
    if (cp == 0)
        return fail(p, "\\u0000 is not accepted: strings here are C strings");
    return put(b, enc, utf8_encode(cp, enc)) ? GS_OK : gs_err_set(p->e, GS_NOMEM, "out of memory");
}

static int escape(struct parser *p, struct gs_str *b)
{
    static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
    const int c = peek(p);
    const char *hit = c > 0 ? strchr(from, c) : NULL;
    ++p->pos;
    if (c == 'u')
        return unicode_escape(p, b);
    if (!hit) {
        --p->pos;
        return fail(p, "unknown escape; use \\\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX");
    }
    return put(b, &to[hit - from], 1) ? GS_OK : gs_err_set(p->e, GS_NOMEM, "out of memory");
}

/* The length of the well-formed UTF-8 sequence at pos, or 0 (overlong
 * forms, surrogates and code points above U+10FFFF are ill-formed). */
static size_t utf8_length(const struct parser *p)
{
    const unsigned char *u = (const unsigned char *)p->s + p->pos;
    const size_t left = p->len - p->pos;
    size_t n;
    unsigned cp, min;
    if (u[0] >= 0xC2 && u[0] <= 0xDF) {
        n = 2, cp = u[0] & 0x1Fu, min = 0x80;
    } else if (u[0] >= 0xE0 && u[0] <= 0xEF) {
        n = 3, cp = u[0] & 0x0Fu, min = 0x800;
    } else if (u[0] >= 0xF0 && u[0] <= 0xF4) {
        n = 4, cp = u[0] & 0x07u, min = 0x10000;
    } else {
        return 0;
    }
    if (left < n)
        return 0;
    for (size_t i = 1; i < n; ++i) {
        if ((u[i] & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (u[i] & 0x3Fu);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return n;
}

static int string_body(struct parser *p, char **out)
{
    struct gs_str b = {0};
    int rc = GS_OK;
    ++p->pos; /* the opening quote */
    if (!put(&b, "", 0))
        return gs_err_set(p->e, GS_NOMEM, "out of memory");
    while (rc == GS_OK) {
        const int c = peek(p);
        if (c < 0) {
            rc = fail(p, "expected '\"' to close the string");
        } else if (c == '"') {
            ++p->pos;
            break;
        } else if (c == '\\') {
            ++p->pos;
            rc = escape(p, &b);
        } else if (c < 0x20) {
            rc = fail(p, "a control character inside a string; escape it (\\n, \\t, \\uXXXX)");
        } else if (c < 0x80) {
            /* A run of plain characters at once. */
            size_t n = 1;
            while (p->pos + n < p->len && (unsigned char)p->s[p->pos + n] >= 0x20 &&
                   (unsigned char)p->s[p->pos + n] < 0x80 && p->s[p->pos + n] != '"' &&
                   p->s[p->pos + n] != '\\')
                ++n;
            rc = put(&b, p->s + p->pos, n) ? GS_OK : gs_err_set(p->e, GS_NOMEM, "out of memory");
            p->pos += n;
        } else {
            const size_t n = utf8_length(p);
            if (n == 0)
                rc = fail(p, "invalid UTF-8 inside a string");
            else if (!put(&b, p->s + p->pos, n))
                rc = gs_err_set(p->e, GS_NOMEM, "out of memory");
            p->pos += n;
        }
    }
    if (rc != GS_OK) {
        free(b.data);
        return rc;
    }
    /* gs_str grows in kilobytes; a file has thousands of short strings. */
    char *fit = realloc(b.data, b.len + 1);
    *out = fit ? fit : b.data;
    return GS_OK;
}

/* ---- numbers --------------------------------------------------------------- */

static size_t digits(const struct parser *p, size_t at)
{
    size_t n = 0;
    while (at + n < p->len && p->s[at + n] >= '0' && p->s[at + n] <= '9')
        ++n;
    return n;
}

/* -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? */
static int number(struct parser *p, struct gs_json *v)
{
    const size_t start = p->pos;
    size_t at = start + (peek(p) == '-');
    const size_t whole = digits(p, at);
    int integral = 1;
    if (whole == 0)
        return p->pos = at, fail(p, "expected a digit");
    if (whole > 1 && p->s[at] == '0')
        return p->pos = at, fail(p, "a number may not start with 0 (leading zeros are not JSON)");
    at += whole;
    if (at < p->len && p->s[at] == '.') {
        const size_t frac = digits(p, at + 1);
        if (frac == 0)
            return p->pos = at + 1, fail(p, "expected a digit after the decimal point");
        at += 1 + frac;
        integral = 0;
    }
    if (at < p->len && (p->s[at] == 'e' || p->s[at] == 'E')) {
        at += 1 + (at + 1 < p->len && (p->s[at + 1] == '+' || p->s[at + 1] == '-'));
        const size_t exp = digits(p, at);
        if (exp == 0)
            return p->pos = at, fail(p, "expected a digit in the exponent");
        at += exp;
        integral = 0;
    }
    char tok[400];
    if (at - start >= sizeof tok)
        return fail(p, "a number longer than 400 characters");
    memcpy(tok, p->s + start, at - start);
    tok[at - start] = '\0';
    errno = 0;
    v->num = strtod(tok, NULL);
    if (errno == ERANGE && !isfinite(v->num))
        return fail(p, "a number too large for a double");
    if (integral && tok[0] != '-') {
        errno = 0;
        unsigned long long u = strtoull(tok, NULL, 10);
        v->is_u64 = errno == 0;
        v->u64 = (uint64_t)u;
    }
    v->type = GS_JSON_NUMBER;
    p->pos = at;
    return GS_OK;
}

/* ---- values ---------------------------------------------------------------- */

static int value(struct parser *p, struct gs_json *v);

static struct gs_json *new_node(struct parser *p)
{
    struct gs_json *n = calloc(1, sizeof *n);
    if (!n)
        gs_err_set(p->e, GS_NOMEM, "out of memory");
    return n;
}

static int has_key(const struct gs_json *obj, const char *key)
{
    for (const struct gs_json *m = obj->child; m; m = m->next)
        if (strcmp(m->key, key) == 0)
            return 1;
    return 0;
}

/* "name": of an object member; a name given twice is refused, as the
 * reader could not say which of the two a lookup means. */
static int member_name(struct parser *p, const struct gs_json *obj, char **key)
{
    skip_space(p);
    if (peek(p) != '"')
        return fail(p, "expected '\"' to start a member name");
    const size_t at = p->pos;
    int rc = string_body(p, key);
    if (rc != GS_OK)
        return rc;
    if (has_key(obj, *key)) {
        free(*key);
        *key = NULL;
        p->pos = at;
        return fail(p, "a member name given twice in one object");
    }
    skip_space(p);
    if (peek(p) != ':')
        return fail(p, "expected ':' after the member name");
    ++p->pos;
    return GS_OK;
}

/* One element or member, appended after *tail. */
static int member(struct parser *p, struct gs_json *parent, struct gs_json **tail)
{
    char *key = NULL;
    int rc;
    if (parent->type == GS_JSON_OBJECT && (rc = member_name(p, parent, &key)) != GS_OK) {
        free(key);
        return rc;
    }
    struct gs_json *n = new_node(p);
    if (!n) {
        free(key);
        return GS_NOMEM;
    }
    n->key = key;
    if (*tail)
        (*tail)->next = n;
    else
        parent->child = n;
    *tail = n;
    ++parent->count;
    return value(p, n);
}

/* An array or an object: the members up to the closing bracket. */
static int container(struct parser *p, struct gs_json *v, enum gs_json_type t)
{
    const char close = t == GS_JSON_ARRAY ? ']' : '}';
    struct gs_json *tail = NULL;
    v->type = t;
    if (++p->depth > GS_JSON_MAX_DEPTH)
        return fail(p, "nested deeper than 64 levels");
    ++p->pos;
    skip_space(p);
    if (peek(p) == close) {
        ++p->pos;
        --p->depth;
        return GS_OK;
    }
    for (;;) {
        int rc = member(p, v, &tail);
        if (rc != GS_OK)
            return rc;
        skip_space(p);
        const int c = peek(p);
        if (c == close)
            break;
        if (c != ',')
            return fail(p, t == GS_JSON_ARRAY ? "expected ',' or ']' after an array element"
                                              : "expected ',' or '}' after an object member");
        ++p->pos;
        skip_space(p);
        if (peek(p) == close)
            return fail(p, "a trailing comma before the closing bracket");
    }
    ++p->pos;
    --p->depth;
    return GS_OK;
}

static int value(struct parser *p, struct gs_json *v)
{
    skip_space(p);
    switch (peek(p)) {
    case '{': return container(p, v, GS_JSON_OBJECT);
    case '[': return container(p, v, GS_JSON_ARRAY);
    case '"': v->type = GS_JSON_STRING; return string_body(p, &v->str);
    case 't': return literal(p, "true", v, GS_JSON_TRUE);
    case 'f': return literal(p, "false", v, GS_JSON_FALSE);
    case 'n': return literal(p, "null", v, GS_JSON_NULL);
    case -1: return fail(p, "expected a value");
    default:
        if (peek(p) == '-' || (peek(p) >= '0' && peek(p) <= '9'))
            return number(p, v);
        return fail(p, "expected a value (object, array, string, number, true, false or null)");
    }
}

int gs_json_parse(const char *text, size_t len, struct gs_json **root, struct gs_err *e)
{
    struct parser p = {text, len, 0, 0, e};
    *root = NULL;
    if (memchr(text, '\0', len)) {
        p.pos = (size_t)((const char *)memchr(text, '\0', len) - text);
        return fail(&p, "a NUL byte; this is not a text file");
    }
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0)
        p.pos = 3; /* a byte order mark, as some editors write */
    struct gs_json *v = new_node(&p);
    if (!v)
        return GS_NOMEM;
    int rc = value(&p, v);
    if (rc == GS_OK) {
        skip_space(&p);
        if (p.pos < len)
            rc = fail(&p, "text after the end of the JSON value");
    }
    if (rc != GS_OK) {
        gs_json_free(v);
        return rc;
    }
    *root = v;
    return GS_OK;
}

/* The path is the user's: opened without blocking and read only when it is
 * a regular file, so that a FIFO, a terminal or a device given as a results
 * file is refused at once instead of hanging the command. */
int gs_json_read_file(const char *path, struct gs_json **root, struct gs_err *e)
{
    struct stat st;
    memset(&st, 0, sizeof st);
    *root = NULL;
    const int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return gs_err_set(e, GS_IO, "cannot open: %s", strerror(errno));
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        const int dir = S_ISDIR(st.st_mode);
        close(fd);
        return gs_err_set(e, GS_USAGE, "%s, not a regular file; give a results file gridstride "
                                       "wrote", dir ? "a directory" : "a pipe, socket or device");
    }
    char *text = malloc(GS_JSON_MAX_FILE + 1);
    if (!text) {
        close(fd);
        return gs_err_set(e, GS_NOMEM, "out of memory");
    }
    const ssize_t got = gs_read_full(fd, text, GS_JSON_MAX_FILE + 1);
    close(fd);
    const size_t n = got > 0 ? (size_t)got : 0;
    int rc;
    if (got < 0)
        rc = gs_err_set(e, GS_IO, "cannot read the file: %s", strerror(errno));
    else if (n > GS_JSON_MAX_FILE)
        rc = gs_err_set(e, GS_USAGE, "larger than %u MiB; not a results file",
                        GS_JSON_MAX_FILE >> 20);
    else if (n == 0)
        rc = gs_err_set(e, GS_USAGE, "the file is empty; give a results file gridstride wrote");
    else if ((rc = gs_json_parse(text, n, root, e)) == GS_USAGE && e)
        gs_err_set(e, rc, "not JSON: %s", e->msg);
    free(text);
    return rc;
}

void gs_json_free(struct gs_json *v)
{
    while (v) {
        struct gs_json *next = v->next;
        gs_json_free(v->child);
        free(v->key);
        free(v->str);
        free(v);
        v = next;
    }
}

/* ---- lookups ----------------------------------------------------------------- */

const struct gs_json *gs_json_get(const struct gs_json *obj, const char *key)
{
    if (!obj || obj->type != GS_JSON_OBJECT)
        return NULL;
    for (const struct gs_json *m = obj->child; m; m = m->next)
        if (strcmp(m->key, key) == 0)
            return m;
    return NULL;
}

const struct gs_json *gs_json_at(const struct gs_json *arr, int i)
{
    if (!arr || arr->type != GS_JSON_ARRAY || i < 0)
        return NULL;
    const struct gs_json *m = arr->child;
    while (m && i--)
        m = m->next;
    return m;
}

const char *gs_json_str(const struct gs_json *obj, const char *key, const char *fallback)
{
    const struct gs_json *v = gs_json_get(obj, key);
    return v && v->type == GS_JSON_STRING ? v->str : fallback;
}

int gs_json_u64(const struct gs_json *obj, const char *key, uint64_t *out)
{
    const struct gs_json *v = gs_json_get(obj, key);
    if (!v || v->type != GS_JSON_NUMBER || !v->is_u64)
        return 0;
    *out = v->u64;
    return 1;
}

int gs_json_num(const struct gs_json *obj, const char *key, double *out)
{
    const struct gs_json *v = gs_json_get(obj, key);
    if (!v || v->type != GS_JSON_NUMBER)
        return 0;
    *out = v->num;
    return 1;
}

int gs_json_bool(const struct gs_json *obj, const char *key, int fallback)
{
    const struct gs_json *v = gs_json_get(obj, key);
    if (v && v->type == GS_JSON_TRUE)
        return 1;
    if (v && v->type == GS_JSON_FALSE)
        return 0;
    return fallback;
}
