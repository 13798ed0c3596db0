/* SPDX-License-Identifier: MIT */
#include "gs_common.h"

#include <time.h>

double gs_common_clock_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}
