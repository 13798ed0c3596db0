/* SPDX-License-Identifier: MIT */
#include "gs_run.h"

#include <time.h>

void gs_utc_now(char *buf, size_t size)
{
    const time_t now = time(NULL);
    struct tm utc;
    if (size == 0)
        return;
    buf[0] = '\0';
    if (gmtime_r(&now, &utc))
        strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &utc);
}
