/* SPDX-License-Identifier: MIT */
/* Status codes and the error context every library call fills.
 *
 * A status says which kind of failure it was; what the user reads is the
 * one line in gs_err.msg, which the function that failed writes. Library
 * code returns a gs_status and never prints or exits; the CLI decides what
 * the user sees and which exit code follows. */
#ifndef GS_STATUS_H
#define GS_STATUS_H

#include <stddef.h>
#include <string.h>

enum gs_status {
    GS_OK,          /* success */
    GS_USAGE,       /* invalid argument */
    GS_NOMEM,       /* out of memory */
    GS_NO_DEVICE,   /* no usable device */
    GS_API,         /* a GPU API call failed */
    GS_UNSUPPORTED, /* not supported by this backend */
    GS_BAD_BACKEND, /* a backend lacks a required member */
    GS_IO,          /* input/output error */
    GS_BUILD,       /* the kernel did not compile */
    GS_FAULT        /* the kernel faulted */
};

/* Filled by the function that failed: status plus one human-readable line
 * (gs_err_set escapes control characters, so a value from the command line,
 * the environment or a driver can never break the line), e.g.
 * "cudaMalloc(&p, bytes) at backend_cuda/gs_cuda.c:88: cudaErrorMemoryAllocation (2):
 * out of memory" (core/device/gs_backend.h, gs_api_error). */
struct gs_err {
    int status;
    char msg[640];
};

/* Record status and a printf-style message into e (e may be NULL). Returns status. */
int gs_err_set(struct gs_err *e, int status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

void gs_err_clear(struct gs_err *e);

/* A value echoed in a message: at most GS_ECHO_MAX bytes of it, then "...",
 * so that however long the value, the message keeps its fix:
 *   gs_err_set(e, GS_USAGE, "--x: '%.*s%s' is not ...; give ...", GS_ECHO(v)); */
#define GS_ECHO_MAX 80
#define GS_ECHO(s) GS_ECHO_MAX, (s), (strlen(s) > GS_ECHO_MAX ? "..." : "")

/* Copy src to dst (size bytes, always terminated), writing each control
 * character as \n, \r, \t or \xHH: any text made one line, safe to echo to
 * a terminal. Truncates between escapes. Returns the length written. */
size_t gs_escape_controls(char *dst, size_t size, const char *src);

/* Bounded string copy that always terminates; returns dst. */
char *gs_strlcpy(char *dst, const char *src, size_t size);

#endif
