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

/* "491520K", "2048K", "32M" as bytes; 0 when unreadable. */
static uint64_t cache_size_of(const char *text)
{
    unsigned long long v = 0;
    char unit = '\0';
    if (sscanf(text, "%llu%c", &v, &unit) < 1)
        return 0;
    if (unit == 'K')
        v <<= 10;
    else if (unit == 'M')
        v <<= 20;
    else if (unit == 'G')
        v <<= 30;
    return (uint64_t)v;
}

int gs_host_llc(uint64_t *bytes, unsigned *level)
{
    *bytes = 0;
    *level = 0;
    for (int i = 0; i < 16; ++i) {
        char path[96], text[64];
        unsigned lv = 0;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
        FILE *f = fopen(path, "r");
        if (!f)
            break;
        const int got_level = fscanf(f, "%u", &lv) == 1;
        fclose(f);
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/type", i);
        f = fopen(path, "r");
        const int data = f && fgets(text, sizeof text, f) && strncmp(text, "Instruction", 11) != 0;
        if (f)
            fclose(f);
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
        f = fopen(path, "r");
        const uint64_t size = f && fgets(text, sizeof text, f) ? cache_size_of(text) : 0;
        if (f)
            fclose(f);
        if (got_level && data && size && lv >= *level) {
            *level = lv;
            *bytes = size;
        }
    }
#ifdef _SC_LEVEL3_CACHE_SIZE
    if (*bytes == 0) {
        const long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE), l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
        if (l3 > 0)
            *bytes = (uint64_t)l3, *level = 3;
        else if (l2 > 0)
            *bytes = (uint64_t)l2, *level = 2;
    }
#endif
    return *bytes > 0;
}
