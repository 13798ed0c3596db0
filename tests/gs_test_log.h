/* SPDX-License-Identifier: MIT */
/* What the GPU tests print to their log: which device they ran on, why,
 * and when they started and finished, so that a `ctest -j` log shows which
 * runs shared the machine and on which GPU. */
#ifndef GS_TEST_LOG_H
#define GS_TEST_LOG_H

#include <stdio.h>
#include <time.h>

#include <string.h>

#include "gs_backend.h"
#include "gs_registry.h"
#include "gs_resource.h"
#include "gs_select.h"


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

#define GS_TEST_SKIP 77 /* ctest's SKIP_RETURN_CODE */

/* The start of a test run over one backend (test_conformance, test_pitfalls):
 * open the backend named on the command line (the template backend is
 * linked in, not registered), pick the device CTest gave this test, and log
 * it. Returns -1 when the test may run; else the exit code: 2 for bad usage,
 * GS_TEST_SKIP without a device, 1 when GRIDSTRIDE_REQUIRE names the backend
 * or the device choice fails. */
static inline int gs_test_open(const char *test, int argc, char **argv, struct gs_opened *o,
                               struct gs_device **dev)
{
    extern const struct gs_backend gs_backend_stub;
    if (argc != 2) {
        fprintf(stderr, "usage: test_%s BACKEND\n", test);
        return 2;
    }
    struct gs_err req = {0};
    /* A requirement that cannot be met, or has a typo, fails every
     * per-backend test (so ctest fails), never skips it. */
    if (gs_require_check(&req) != GS_OK) {
        fprintf(stderr, "FAIL: %s\n", req.msg);
        return 1;
    }
    const struct gs_backend *b =
        strcmp(argv[1], "stub") == 0 ? &gs_backend_stub : gs_registry_find(argv[1]);
    if (!b) {
        fprintf(stderr, "backend '%s' is not compiled in\n", argv[1]);
        return 2;
    }
    gs_open_backend(b, o);
    if (o->notice[0])
        fprintf(stderr, "%s: %s\n", argv[1], o->notice);
    if (o->status != GS_OK) {
        const int required = gs_backend_required(argv[1]);
        fprintf(stderr, "%s: %s%s\n", required ? "FAIL" : "SKIP", o->err.msg,
                required ? " (GRIDSTRIDE_REQUIRE names this backend)" : "");
        return required ? 1 : GS_TEST_SKIP;
    }
    struct gs_err e = {0};
    char why[300];
    if (gs_resource_test_device(o, dev, why, sizeof why, &e) != GS_OK) {
        fprintf(stderr, "FAIL: %s\n", e.msg);
        return 1;
    }
    gs_test_log_device(test, *dev, why);
    return -1;
}

#endif
