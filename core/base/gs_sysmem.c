/* SPDX-License-Identifier: MIT */
#include "gs_sysmem.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

uint64_t gs_host_total_memory(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    return (pages > 0 && page > 0) ? (uint64_t)pages * (uint64_t)page : 0;
}

/* Linux's estimate of what can be allocated without swapping: free memory
 * plus the page cache and slab that can be reclaimed. */
static uint64_t meminfo_available(void)
{
    char line[256];
    unsigned long long kb = 0;
    FILE *f = fopen("/proc/meminfo", "r");
    if (!f)
        return 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1)
            break;
    fclose(f);
    return (uint64_t)kb * 1024u;
}

uint64_t gs_host_available_memory(void)
{
    uint64_t bytes = meminfo_available();
#ifdef _SC_AVPHYS_PAGES
    if (bytes == 0) {
        long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
        if (pages > 0 && page > 0)
            bytes = (uint64_t)pages * (uint64_t)page;
    }
#endif
    return bytes;
}

unsigned gs_host_cpus(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned)n : 1u;
}
