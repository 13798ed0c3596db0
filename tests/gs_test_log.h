/* SPDX-License-Identifier: MIT */
/* What the GPU tests print to their log: which device they ran on, why,
 * and when they started and finished, so that a `ctest -j` log shows which
 * runs shared the machine and on which GPU. */
#ifndef GS_TEST_LOG_H
#define GS_TEST_LOG_H

#include <stdio.h>
#include <time.h>

#include "gs_backend.h"

/* Wall-clock time of day with milliseconds, "09:20:01.123". */
static inline void gs_test_clock(char *buf, size_t size)
{
    struct timespec ts;
    struct tm tm;
    clock_gettime(CLOCK_REALTIME, &ts);
    localtime_r(&ts.tv_sec, &tm);
    snprintf(buf, size, "%02d:%02d:%02d.%03ld", tm.tm_hour, tm.tm_min, tm.tm_sec,
             ts.tv_nsec / 1000000L);
}

static inline void gs_test_log_device(const char *test, const struct gs_device *d,
                                      const char *why)
{
    char now[48];
    gs_test_clock(now, sizeof now);
    fprintf(stderr, "%s: %s device [%s] %s, PCI %s (%s), %s; started %s\n", test,
            d->backend->name, d->id, d->name, d->pci[0] ? d->pci : "unknown", d->api_version,
            why, now);
}

static inline void gs_test_log_end(const char *test, const struct gs_device *d)
{
    char now[48];
    gs_test_clock(now, sizeof now);
    fprintf(stderr, "%s: %s device [%s] finished %s\n", test, d->backend->name, d->id, now);
}

#endif
