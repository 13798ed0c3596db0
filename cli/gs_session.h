/* SPDX-License-Identifier: MIT */
/* The backends and devices one invocation uses, chosen from the command line. */
#ifndef GS_SESSION_H
#define GS_SESSION_H

#include "gs_cli.h"
#include "gs_select.h"

#define GS_MAX_BACKENDS 8
#define GS_MAX_DEVICES 32

struct gs_session {
    struct gs_opened opened[GS_MAX_BACKENDS];
    int nopened;
    struct gs_device *devs[GS_MAX_DEVICES];
    int ndevs;
    /* Lines for stderr: backends skipped, drivers found but not registered. */
    char notes[GS_MAX_BACKENDS * 2][800];
    int nnotes;
};

/* Everything gs_session_open refuses before opening a backend:
 * GRIDSTRIDE_REQUIRE, the --backend names, a --device index out of range.
 * GS_USAGE with one line, or GS_OK. */
int gs_session_check(const struct gs_cli *cli, struct gs_err *e);

/* Which backends "all" opens: 1 to open b (NULL: every backend). */
typedef int (*gs_session_wants)(const void *ctx, const struct gs_backend *b);

/* Open the backends named by --backend and choose devices by --device. An
 * explicitly named backend without a device, or one GRIDSTRIDE_REQUIRE
 * names, is an error; under "all", a backend without a device is a note,
 * and one that `wants` (when not NULL) turns down is not opened at all,
 * unless GRIDSTRIDE_REQUIRE names it (then it must open, used or not):
 * then no device at all is GS_OK with none, for the command to explain. */
int gs_session_open(const struct gs_cli *cli, int want_devices, gs_session_wants wants,
                    const void *wants_ctx, struct gs_session *s, struct gs_err *e);
void gs_session_close(struct gs_session *s);

/* A skipped backend's note, unless --verbose: "gridstride: note: NAME
 * skipped: " and at most GS_NOTE_BRIEF - len(NAME) bytes of
 * gs_session_brief, so that the line stays within 100 columns. */
#define GS_NOTE_BRIEF 72
void gs_session_brief(const char *why, char *buf, size_t size);

/* Add a line for stderr (printf-style), shown after the run's output. */
void gs_session_note(struct gs_session *s, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

#endif
