/* SPDX-License-Identifier: MIT */
/* The OpenCL backend's occupancy and launch rules: blocks per compute unit
 * and what the API should do with a launch shape, from what each device
 * reports. */
#include "gs_opencl_private.h"

#define OCL_GPU_RESIDENT_ITEMS 2048u /* assumed per compute unit on a non-NVIDIA GPU */
#define OCL_GPU_MAX_GROUPS_PER_UNIT 32u

/* ---- Occupancy ----------------------------------------------------------- */

/* Per-SM residency limits by compute capability (CUDA C Programming Guide,
 * "Technical Specifications per Compute Capability"). */
struct nv_sm_limits {
    unsigned cc_hi, cc_lo; /* cc_lo ~0u: any */
    unsigned threads, blocks;
};

/* Blocks per SM as in CUDA 13.0's cuda_occupancy.h; threads per SM from the
 * guide's table. Not checked on hardware here: 10.1/11.0, whose threads per SM
 * are assumed to be 1536 like the other parts with 24 blocks. */
static const struct nv_sm_limits nv_sm_table[] = {
    {3, ~0u, 2048, 16},  {5, ~0u, 2048, 32},  {6, ~0u, 2048, 32},  {7, 5, 1024, 16},
    {7, ~0u, 2048, 32},  {8, 0, 2048, 32},    {8, 6, 1536, 16},    {8, 7, 2048, 16},
    {8, 9, 1536, 24},    {9, ~0u, 2048, 32},  {10, 1, 1536, 24},   {10, ~0u, 2048, 32},
    {11, 0, 1536, 24},   {11, ~0u, 2048, 32}, {12, ~0u, 1536, 24},
};

static struct nv_sm_limits nv_sm(unsigned hi, unsigned lo)
{
    for (size_t i = 0; i < sizeof nv_sm_table / sizeof nv_sm_table[0]; ++i)
        if (nv_sm_table[i].cc_hi == hi &&
            (nv_sm_table[i].cc_lo == lo || nv_sm_table[i].cc_lo == ~0u))
            return nv_sm_table[i];
    const struct nv_sm_limits fallback = {hi, lo, 2048, 32};
    return fallback;
}

/* NVIDIA: blocks = min(threads per SM / block rounded up to whole warps,
 * blocks per SM), from the compute capability, which is what CUDA's
 * occupancy calculator gives for a kernel limited neither by registers nor
 * by shared memory. OpenCL cannot report a kernel's register count (the
 * program is PTX until the driver compiles it), so the rule assumes these
 * small kernels stay under registers-per-SM / threads-per-SM registers a
 * thread (32 on cc 9.0), and they use no local memory. */
static unsigned nvidia_blocks(const struct ocl_device *d, unsigned block, char *rule,
                              unsigned rule_size)
{
    const struct nv_sm_limits sm = nv_sm(d->cc_major, d->cc_minor);
    const unsigned warp = d->warp ? d->warp : 32;
    const unsigned threads = (block + warp - 1) / warp * warp;
    unsigned blocks = sm.threads / threads;
    if (blocks > sm.blocks)
        blocks = sm.blocks;
    snprintf(rule, rule_size,
             "cc %u.%u: min(%u threads/SM / %u, %u blocks/SM); assumes <= %u registers a thread",
             d->cc_major, d->cc_minor, sm.threads, threads, sm.blocks,
             d->regs_per_block ? d->regs_per_block / sm.threads : 32);
    return blocks;
}

/* Other GPUs: no occupancy query exists, so assume 2048 resident work-items
 * per compute unit (an NVIDIA SM holds 2048, an AMD GCN CU 2560), capped at
 * 32 groups. CPUs and the rest: 4 work-groups per compute unit, as the host
 * backend, enough for PoCL to keep every core busy. */
static unsigned generic_blocks(const struct ocl_device *d, unsigned block, char *rule,
                               unsigned rule_size)
{
    if (!d->base.is_gpu) {
        snprintf(rule, rule_size, "no occupancy on a CPU: %u work-groups per compute unit",
                 GS_CPU_BLOCKS_PER_UNIT);
        return GS_CPU_BLOCKS_PER_UNIT;
    }
    unsigned blocks = OCL_GPU_RESIDENT_ITEMS / block;
    if (blocks > OCL_GPU_MAX_GROUPS_PER_UNIT)
        blocks = OCL_GPU_MAX_GROUPS_PER_UNIT;
    if (blocks == 0)
        blocks = 1;
    snprintf(rule, rule_size,
             "no OpenCL occupancy query: assumes %u resident work-items per compute unit, "
             "at most %u groups",
             OCL_GPU_RESIDENT_ITEMS, OCL_GPU_MAX_GROUPS_PER_UNIT);
    return blocks;
}

int ocl_blocks_per_unit(struct gs_device *dev, enum gs_kernel_id kernel, unsigned block,
                        unsigned *blocks, char *rule, unsigned rule_size,
                        struct gs_err *e)
{
    const struct ocl_device *d = (const struct ocl_device *)dev;
    (void)kernel; /* the core has checked it; the rule is the same for every kernel */
    if (block == 0 || block > dev->max_block_device)
        return gs_err_set(e, GS_USAGE, "opencl: block of %u threads is outside 1..%u on %s",
                          block, dev->max_block_device, dev->name);
    *blocks = d->nv ? nvidia_blocks(d, block, rule, rule_size)
                    : generic_blocks(d, block, rule, rule_size);
    return GS_OK;
}

/* ---- Launch rules -------------------------------------------------------- */

/* The largest local size the specification lets this kernel run with, from
 * the plain build's kernels (built at open); the count, trace and double
 * builds, built on first use, are predicted with the same limit. */
static size_t kernel_group_limit(const struct ocl_device *d, enum gs_kernel_id kernel)
{
    size_t group = d->max_group < d->max_item_size ? d->max_group : d->max_item_size;
    if ((unsigned)kernel < GS_KERNEL_COUNT && d->kernel_group[kernel] < group)
        group = d->kernel_group[kernel];
    return group;
}

int ocl_predicts_accept(const struct gs_device *dev, const struct gs_launch *l, char *why,
                        unsigned why_size)
{
    const struct ocl_device *d = (const struct ocl_device *)dev;
    const uint64_t range =
        d->address_bits >= 64 ? UINT64_MAX : (1ull << d->address_bits) - 1;
    if (l->block == 0) {
        /* The specification gives no meaning to it (PoCL takes it as
         * "choose one"): it is no block size, and it is not sent. */
        gs_strlcpy(why, "a local size of 0 is undefined in OpenCL (PoCL picks its own)",
                   why_size);
        return GS_NOT_SENT;
    }
    if (l->global == 0) {
        if (d->version >= 21) {
            snprintf(why, why_size, "OpenCL %u.%u runs an empty NDRange as a no-op (2.1 and later)",
                     d->version / 10, d->version % 10);
            return 1;
        }
        snprintf(why, why_size,
                 "OpenCL %u.%u refuses an empty NDRange (CL_INVALID_GLOBAL_WORK_SIZE); "
                 "2.1 and later run it as a no-op",
                 d->version / 10, d->version % 10);
        return 0;
    }
    const size_t group = kernel_group_limit(d, l->kernel);
    if (l->block > group) {
        snprintf(why, why_size,
                 "local size %llu above the kernel's limit %zu (CL_KERNEL_WORK_GROUP_SIZE, "
                 "device maxima): CL_INVALID_WORK_GROUP_SIZE",
                 (unsigned long long)l->block, group);
        return 0;
    }
    if (l->global > range) {
        snprintf(why, why_size,
                 "global size above the device's %u-bit size_t (CL_INVALID_GLOBAL_WORK_SIZE)",
                 d->address_bits);
        return 0;
    }
    const uint64_t rows = l->grid_y ? l->grid_y : 1;
    if (rows > range / (l->global ? l->global : 1)) {
        snprintf(why, why_size, "a 2D range of %llu x %llu above the device's %u-bit size_t",
                 (unsigned long long)l->global, (unsigned long long)rows, d->address_bits);
        return 0;
    }
    if (l->grid > dev->max_grid || (!dev->is_gpu && rows > dev->max_grid / (l->grid ? l->grid : 1))) {
        snprintf(why, why_size,
                 "%llu work-groups is above the suite's cap of %llu for this %s device (%s)",
                 (unsigned long long)(l->grid * rows), (unsigned long long)dev->max_grid,
                 dev->is_gpu ? "GPU" : "CPU",
                 dev->is_gpu ? "CUDA's grid limit, kept so both APIs are asked the same"
                             : "a CPU runs the work-items a few at a time: hours, not seconds");
        return GS_NOT_SENT;
    }
    if (l->global % l->block != 0 && d->ragged) {
        gs_strlcpy(why, "non-uniform work-groups: the device has them and the program is built "
                        "as OpenCL C 2.0 or later", why_size);
        return 1;
    }
    if (l->global % l->block != 0) {
        snprintf(why, why_size,
                 "global %llu is not a multiple of local %llu and work-groups must be uniform: "
                 "%s (CL_INVALID_WORK_GROUP_SIZE)",
                 (unsigned long long)l->global, (unsigned long long)l->block, d->uniform_why);
        return 0;
    }
    return 1;
}

