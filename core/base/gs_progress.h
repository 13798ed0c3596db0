/* SPDX-License-Identifier: MIT */
/* Progress of a long run, the one kind every engine and the workspace
 * report through: the library never prints, so it tells a caller's
 * function, on the caller's thread, what it is doing. Two kinds of event:
 *   a phase of host-side work: phase "inputs", "poison" or "read+verify",
 *       label the case being run, done of total elements;
 *   a step of a run finished: phase NULL, label the backend, done of total
 *       steps (rows, sizes), result one line of what the step found. */
#ifndef GS_PROGRESS_H
#define GS_PROGRESS_H

#include <stdint.h>

struct gs_progress_event {
    const char *label;
    const char *phase;  /* NULL: a step finished */
    uint64_t done, total;
    const char *result; /* a finished step's line ("add: 12.3 GB/s"); else NULL */
};

struct gs_progress {
    void (*fn)(void *ctx, const struct gs_progress_event *ev);
    void *ctx;
};

/* Tell p (may be NULL, or have no fn) of an event. */
void gs_progress_tell(const struct gs_progress *p, const char *label, const char *phase,
                      uint64_t done, uint64_t total, const char *result);

#endif
