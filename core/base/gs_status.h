/* SPDX-License-Identifier: MIT */
/* Status codes and the error context every library call fills.
 *
 * One X-macro list gives the enum, the names and the default messages, so the
 * three can never drift apart (the pattern of libuv's UV_ERRNO_MAP).
 * Library code returns a gs_status and never prints or exits; the CLI decides
 * what the user sees and which exit code follows. */
#ifndef GS_STATUS_H
#define GS_STATUS_H

#include <stddef.h>
#include <string.h>

#define GS_STATUS_MAP(X)                                                       \
    X(OK, "success")                                                           \
    X(USAGE, "invalid argument")                                               \
    X(NOMEM, "out of memory")                                                  \
    X(NO_DEVICE, "no usable device")                                           \
    X(API, "a GPU API call failed")                                            \
    X(UNSUPPORTED, "not supported by this backend")                            \
    X(BAD_BACKEND, "a backend lacks a required member")                        \
    X(IO, "input/output error")                                                \
    X(BUILD, "the kernel did not compile")                                     \
    X(FAULT, "the kernel faulted")

enum gs_status {
#define GS_STATUS_ENUM(name, msg) GS_##name,
    GS_STATUS_MAP(GS_STATUS_ENUM)
#undef GS_STATUS_ENUM
    GS_STATUS_COUNT
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

const char *gs_status_name(int status);    /* "GS_NO_DEVICE" */
const char *gs_status_message(int status); /* "no usable device" */

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
