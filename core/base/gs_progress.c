/* SPDX-License-Identifier: MIT */
#include "gs_progress.h"

#include <stddef.h>

void gs_progress_tell(const struct gs_progress *p, const char *label, const char *phase,
                      uint64_t done, uint64_t total, const char *result)
{
    const struct gs_progress_event ev = {label, phase, done, total, result};
    if (p && p->fn)
        p->fn(p->ctx, &ev);
}
