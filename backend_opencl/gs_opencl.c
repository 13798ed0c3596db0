/* SPDX-License-Identifier: MIT */
/* The OpenCL backend: every platform the ICD loader knows, every device on
 * each, the kernels of kernels/gs_kernels.h built by the driver at open()
 * from the copy embed.cmake put into the library.
 *
 * A launch is an NDRange: global size l->global, local size l->block. Which
 * shapes the API accepts depends on the device's version and on how the
 * program was built, and predicts_accept() says so from the reported values:
 *   - an empty NDRange (global 0) is CL_INVALID_GLOBAL_WORK_SIZE before
 *     OpenCL 2.1 and a no-op from 2.1 on;
 *   - a global size that is not a multiple of the local size needs
 *     non-uniform work-groups, which need both a device that has them (always
 *     on 2.x, optional on 3.0) and a program built as OpenCL C 2.0 or later;
 *     otherwise CL_INVALID_WORK_GROUP_SIZE;
 *   - a local size above the kernel's or device's limit is refused.
 *
 * Each device gets its own context and in-order queue with profiling on, so
 * launches and copies can be timed by the device's own clock.
 *
 * This file holds the backend's table; gs_opencl_private.h lists the files
 * that hold its parts. */
#include "gs_opencl_private.h"

const struct gs_backend gs_backend_opencl = {
    .name = "opencl",
    .description = "OpenCL 1.2-3.0 through the ICD loader: every platform's devices, "
                   "kernels/ built by the driver at run time",
    .device_size = sizeof(struct ocl_device),
    .buffer_size = sizeof(struct ocl_buf),
    .open = ocl_open,
    .release = ocl_release,
    .blocks_per_unit = ocl_blocks_per_unit,
    .predicts_accept = ocl_predicts_accept,
    .alloc = ocl_alloc,
    .write = ocl_write,
    .read = ocl_read,
    .free = ocl_free,
    .launch = ocl_launch,
    .copy = ocl_copy,
    .fill32 = ocl_fill32,
    .staging_alloc = ocl_staging_alloc,
    .staging_free = ocl_staging_free,
    .mem_available = ocl_mem_available,
    .probe_grid = ocl_probe_grid,
    .user_dialects = (1u << GS_DIALECT_OPENCL) | (1u << GS_DIALECT_PORTABLE),
    .user_build = ocl_user_build,
    .user_launch = ocl_user_launch,
    .user_free = ocl_user_free,
};
