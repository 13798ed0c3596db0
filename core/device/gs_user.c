/* SPDX-License-Identifier: MIT */
#include "gs_user.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The parameters, in each dialect's words; `n` is 64-bit in all three. */
static const char *const signatures[] = {
    [GS_DIALECT_PORTABLE] = "GS_KERNEL void %s(GS_THREAD_CTX GS_GLOBAL const float *a, "
                            "GS_GLOBAL const float *b, GS_GLOBAL float *out, gs_size n)",
    [GS_DIALECT_OPENCL] = "__kernel void %s(__global const float *a, __global const float *b, "
                          "__global float *out, ulong n)",
    [GS_DIALECT_CUDA] = "__global__ void %s(const float *a, const float *b, float *out, size_t n)",
};

static const char *const kernel_words[] = {
    [GS_DIALECT_PORTABLE] = "GS_KERNEL",
    [GS_DIALECT_OPENCL] = "__kernel",
    [GS_DIALECT_CUDA] = "__global__",
};

void gs_user_signature(enum gs_dialect d, const char *entry, char *buf, unsigned size)
{
    snprintf(buf, size, signatures[d], entry);
}

char *gs_user_text(const struct gs_user_source *src, const char *prelude)
{
    const size_t plen = prelude ? strlen(prelude) : 0;
    const size_t len = plen + 2 * strlen(src->path) + strlen(src->text) + 32;
    char *out = malloc(len);
    if (!out)
        return NULL;
    memcpy(out, prelude ? prelude : "", plen);
    char *p = out + plen;
    /* The path as a string literal: quotes and backslashes escaped. */
    p += sprintf(p, "\n#line 1 \"");
    for (const char *c = src->path; *c; ++c) {
        if (*c == '"' || *c == '\\')
            *p++ = '\\';
        *p++ = *c;
    }
    sprintf(p, "\"\n%s\n", src->text);
    return out;
}

/* Whether `name` occurs in text as a whole identifier. */
static int mentions(const char *text, const char *name)
{
    const size_t n = strlen(name);
    for (const char *p = text; (p = strstr(p, name)) != NULL; p += n) {
        const int before = p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '_');
        const int after = isalnum((unsigned char)p[n]) || p[n] == '_';
        if (!before && !after)
            return 1;
    }
    return 0;
}

int gs_user_no_entry(const struct gs_user_source *src, const char *kernels, struct gs_err *e)
{
    char list[200] = "";
    if (kernels && *kernels) {
        snprintf(list, sizeof list, " (its kernels: %s)", kernels);
        for (char *p = list; *p; ++p)
            if (*p == ';')
                *p = ',';
    }
    if (mentions(src->text, src->entry))
        return gs_err_set(e, GS_USAGE,
                          "%s: '%s' is not a kernel%s; mark it %s, or name the kernel with "
                          "--entry NAME",
                          src->path, src->entry, list, kernel_words[src->dialect]);
    return gs_err_set(e, GS_USAGE, "%s has no kernel named '%s'%s; name the kernel with --entry NAME",
                      src->path, src->entry, list);
}

int gs_user_bad_params(const struct gs_user_source *src, int count, int bad, struct gs_err *e)
{
    char sig[240];
    gs_user_signature(src->dialect, src->entry, sig, sizeof sig);
    if (count < 0)
        return gs_err_set(e, GS_USAGE, "%s: kernel '%s' does not take the contract's parameters: %s",
                          src->path, src->entry, sig);
    if (count != 4)
        return gs_err_set(e, GS_USAGE,
                          "%s: kernel '%s' takes %d parameter%s; the contract is 4: %s", src->path,
                          src->entry, count, count == 1 ? "" : "s", sig);
    return gs_err_set(e, GS_USAGE,
                      "%s: parameter %d of kernel '%s' has the wrong size (%s must be 64-bit); "
                      "the contract is %s",
                      src->path, bad + 1, src->entry, bad == 3 ? "n" : "a pointer", sig);
}

/* One PTX parameter's size: `.param .u64 x`, `.param .u64 .ptr .global .align 1 x`,
 * `.param .align 8 .b8 x[16]`. 0 when it cannot be read. */
static unsigned ptx_param_size(const char *p, const char *end)
{
    unsigned elem = 0, count = 1;
    for (const char *t = p; t < end; ++t) {
        if (t[0] != '.' || (t > p && !isspace((unsigned char)t[-1])))
            continue;
        unsigned bits = 0;
        char kind = 0;
        if (sscanf(t, ".%c%u", &kind, &bits) == 2 && strchr("usbf", kind) && bits % 8 == 0 &&
            bits >= 8 && bits <= 64 && !elem)
            elem = bits / 8;
    }
    const char *open = memchr(p, '[', (size_t)(end - p));
    if (open && sscanf(open, "[%u]", &count) != 1)
        return 0;
    return elem * count;
}

int gs_ptx_params(const char *ptx, const char *entry, unsigned *sizes, int max)
{
    const size_t len = strlen(entry);
    for (const char *p = ptx; (p = strstr(p, ".entry ")) != NULL; ++p) {
        const char *name = p + strlen(".entry ");
        while (*name == ' ')
            ++name;
        if (strncmp(name, entry, len) != 0)
            continue;
        const char *q = name + len;
        while (isspace((unsigned char)*q))
            ++q;
        if (*q != '(')
            continue;
        const char *close = strchr(q, ')');
        if (!close)
            return -1;
        int count = 0;
        for (const char *at = q + 1; at < close;) {
            const char *param = strstr(at, ".param");
            if (!param || param >= close)
                break;
            const char *next = param + 6;
            const char *comma = memchr(next, ',', (size_t)(close - next));
            const char *stop = comma ? comma : close;
            const unsigned size = ptx_param_size(next, stop);
            if (size == 0)
                return -1;
            if (count < max)
                sizes[count] = size;
            ++count;
            at = stop;
        }
        return count;
    }
    return -1;
}

int gs_user_check_params(const struct gs_user_source *src, const unsigned *sizes, int count,
                         struct gs_err *e)
{
    if (count < 0)
        return gs_user_bad_params(src, -1, -1, e);
    if (count != 4)
        return gs_user_bad_params(src, count, -1, e);
    for (int i = 0; i < 4; ++i)
        if (sizes[i] != 8)
            return gs_user_bad_params(src, 4, i, e);
    return GS_OK;
}

/* The length of a severity word that starts line, or 0. */
static size_t severity(const char *line)
{
    static const char *const words[] = {"error: ", "warning: ", "note: ", "fatal error: "};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; ++i)
        if (strncmp(line, words[i], strlen(words[i])) == 0)
            return strlen(words[i]);
    return 0;
}

/* A place in a line of n bytes: ":" or "(" then a digit. */
static int names_a_place(const char *line, size_t n)
{
    for (size_t i = 0; i + 1 < n; ++i)
        if ((line[i] == ':' || line[i] == '(') && isdigit((unsigned char)line[i + 1]))
            return 1;
    return 0;
}

char *gs_user_own_log(char *log, const char *path)
{
    if (!log)
        return NULL;
    const size_t plen = strlen(path);
    size_t len = 0, left_out = 0, cut = 0;
    char *out = malloc(strlen(log) + 1);
    if (!out) {
        free(log);
        return NULL;
    }
    int keep = 0;
    for (const char *p = log; *p;) {
        const char *nl = strchr(p, '\n');
        const size_t n = nl ? (size_t)(nl - p) + 1 : strlen(p);
        const char *name = p + severity(p);
        if (strncmp(name, path, plen) == 0 && (name[plen] == ':' || name[plen] == '('))
            keep = 1;
        else if (n && !isspace((unsigned char)p[0]) && names_a_place(p, n))
            keep = 0;
        if (!keep)
            ++left_out;
        else if (cut || len + n > GS_USER_LOG_CAP)
            cut += n;
        else {
            memcpy(out + len, p, n);
            len += n;
        }
        p += n;
    }
    out[len] = '\0';
    free(log);
    char note[200];
    int k = 0;
    if (left_out)
        k = snprintf(note, sizeof note, "[%zu line%s of the compiler's messages about other "
                     "files left out]\n", left_out, left_out == 1 ? "" : "s");
    if (cut)
        k += snprintf(note + k, sizeof note - (size_t)k, "[the compiler's messages are "
                      "truncated at %u KiB: %zu bytes more]\n", GS_USER_LOG_CAP >> 10, cut);
    if (!len && !k) {
        free(out);
        return NULL;
    }
    char *all = k ? realloc(out, len + (size_t)k + 1) : out;
    if (!all)
        return out;
    if (k)
        memcpy(all + len, note, (size_t)k + 1);
    return all;
}

unsigned gs_user_text_offset(const char *prelude)
{
    unsigned lines = 2; /* the newline after the prelude, and the #line directive */
    for (const char *c = prelude ? prelude : ""; *c; ++c)
        lines += *c == '\n';
    return lines;
}

char *gs_user_map_log(char *log, const char *program_name, unsigned offset, const char *path)
{
    const size_t name_len = strlen(program_name);
    size_t cap = strlen(log) + 1, len = 0;
    for (const char *p = log; (p = strstr(p, program_name)) != NULL; p += name_len)
        cap += strlen(path) + 16;
    char *out = malloc(cap);
    if (!out)
        return log;
    for (const char *p = log; *p;) {
        char *end = NULL;
        unsigned long line = 0;
        if (strncmp(p, program_name, name_len) == 0 && p[name_len] == ':' &&
            isdigit((unsigned char)p[name_len + 1])) {
            line = strtoul(p + name_len + 1, &end, 10);
            if (line > offset) {
                len += (size_t)sprintf(out + len, "%s:%lu", path, line - offset);
                p = end;
                continue;
            }
        }
        out[len++] = *p++;
    }
    out[len] = '\0';
    free(log);
    return out;
}
