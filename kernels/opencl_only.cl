/* SPDX-License-Identifier: MIT */
/* Two helpers of the OpenCL backend, not kernels of the suite: they measure
 * or prepare, and no result is judged by them.
 *
 * The grid probe: what the work-item functions return in a launch of 2^32
 * work-items or more. The work-item whose global id is `item`
 * records get_global_size(0), its own get_global_id(0), groups x local size
 * in 64 bits, and the prelude's T. There is no loop, so the launch ends
 * whatever the driver returns; if get_global_id(0) itself were wrong, no
 * work-item would match and `out` would keep its fill. */
__kernel void gs_probe_grid(__global ulong *out, ulong item)
{
    if ((ulong)get_global_id(0) == item) {
        out[0] = (ulong)get_global_size(0);
        out[1] = (ulong)get_global_id(0);
        out[2] = (ulong)get_num_groups(0) * (ulong)get_local_size(0);
        out[3] = GS_GRID_THREADS();
    }
}

/* The poison fill: `count` words from word `first` set to `pattern`.
 * NVIDIA's clEnqueueFillBuffer (driver 580, H200) misplaces fills past 4 GiB:
 * a 4096-byte fill at byte offset 17,179,869,204 landed at byte 20, and an
 * 8.6 GB fill broke the command queue (docs/results/h200-opencl-fill.md). The
 * backend fills with this loop instead, and the core proves every fill by
 * reading a sample back. With chunk 0 it steps by the prelude's 64-bit T (a
 * GPU: neighbouring work-items write neighbouring words), so it ends under
 * any launch; with chunk > 0 each work-item writes its own run of chunk
 * words (a CPU device, where a work-item is a loop on one core: the same
 * lesson as the chunked kernel's, about 20x faster there). */
__kernel void gs_fill_u32(__global uint *out, ulong first, ulong count, uint pattern,
                          ulong chunk)
{
    if (chunk == 0) {
        const gs_size step = GS_GRID_THREADS();
        for (gs_size i = GS_GLOBAL_THREAD(); i < count; i += step)
            out[first + i] = pattern;
        return;
    }
    const ulong begin = (ulong)GS_GLOBAL_THREAD() * chunk;
    const ulong end = begin < count && count - begin > chunk ? begin + chunk : count;
    for (ulong i = begin; i < end; ++i)
        out[first + i] = pattern;
}
