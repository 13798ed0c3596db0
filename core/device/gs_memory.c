/* SPDX-License-Identifier: MIT */
#include "gs_memory.h"

#include <stdio.h>

#include "gs_device.h"
#include "gs_sysmem.h"
#include "gs_workspace.h"

/* Two 64 MiB staging areas, the thread pool, and room for the program and
 * its drivers (PoCL compiles kernels in this process). */
#define GS_HOST_MARGIN (512ull << 20)

uint64_t gs_run_device_bytes(uint64_t n)
{
    return 3 * gs_buffer_bytes(n);
}

uint64_t gs_run_host_bytes(void)
{
    return GS_HOST_MARGIN;
}

uint64_t gs_memory_available(struct gs_device *dev, char *source, unsigned source_size)
{
    struct gs_err e = {0};
    uint64_t bytes = 0;
    if (!dev->is_gpu) {
        const uint64_t host = gs_host_available_memory();
        bytes = host > GS_HOST_MARGIN ? host - GS_HOST_MARGIN : 0;
        snprintf(source, source_size, "this machine's available memory less %llu MiB for the "
                 "program", (unsigned long long)(GS_HOST_MARGIN >> 20));
        if (host)
            return bytes;
    }
    if (gs_dev_mem_available(dev, &bytes, &e) == GS_OK) {
        snprintf(source, source_size, "free device memory now");
        return bytes;
    }
    snprintf(source, source_size, "the device's global memory size");
    return dev->global_mem;
}

int gs_memory_preflight(struct gs_device *dev, uint64_t n, struct gs_err *e)
{
    const uint64_t buffer = gs_buffer_bytes(n), need = gs_run_device_bytes(n);
    char source[128];
    if (buffer > dev->max_alloc)
        return gs_err_set(e, GS_USAGE,
                          "n = %llu needs buffers of %llu bytes, more than %s device %s allocates "
                          "at once (%llu bytes); choose a smaller n with --sizes",
                          (unsigned long long)n, (unsigned long long)buffer,
                          dev->backend->name, dev->name, (unsigned long long)dev->max_alloc);
    const uint64_t avail = gs_memory_available(dev, source, sizeof source);
    if (need > avail)
        return gs_err_set(e, GS_USAGE,
                          "n = %llu needs 3 buffers of %llu bytes (%llu in all) on %s device %s, "
                          "which has %llu bytes available (%s); choose a smaller n with --sizes",
                          (unsigned long long)n, (unsigned long long)buffer,
                          (unsigned long long)need, dev->backend->name, dev->name,
                          (unsigned long long)avail, source);
    return GS_OK;
}

uint64_t gs_check_host_bytes(int is_gpu, uint64_t n, uint64_t shared_min)
{
    const uint64_t buffer = gs_buffer_bytes(n);
    const uint64_t shared = buffer > shared_min ? buffer : shared_min;
    return GS_HOST_MARGIN + shared + (is_gpu ? 0 : gs_run_device_bytes(n));
}

int gs_memory_preflight_host(uint64_t need, uint64_t n, struct gs_err *e)
{
    const uint64_t avail = gs_host_available_memory();
    if (avail && need > avail)
        return gs_err_set(e, GS_USAGE,
                          "n = %llu needs %llu bytes of this machine's memory (a CPU device's "
                          "worker holds a, b and out, and check shares one more output with "
                          "each worker), and it has %llu bytes available; choose a smaller n "
                          "with --sizes",
                          (unsigned long long)n, (unsigned long long)need,
                          (unsigned long long)avail);
    return GS_OK;
}

uint64_t gs_memory_max_n_of(struct gs_device *dev, uint64_t want, enum gs_type type)
{
    char source[128];
    const uint64_t avail = gs_memory_available(dev, source, sizeof source);
    uint64_t per_buffer = avail / 3 < dev->max_alloc ? avail / 3 : dev->max_alloc;
    uint64_t n = per_buffer / gs_type_size(type);
    n = n > GS_FRONT_ELEMS + GS_GUARD_ELEMS ? n - GS_FRONT_ELEMS - GS_GUARD_ELEMS : 0;
    return n < want ? n : want;
}
