/* SPDX-License-Identifier: MIT */
/* The kernel dialect for OpenCL C (1.2 and later). Unlike CUDA, the work-item
 * functions already return size_t, so the global index needs no widening.
 * size_t is not a legal kernel argument type in OpenCL C, so n and param are
 * ulong (cl_ulong on the host side).
 *
 * T is not get_global_size(0). Measured on NVIDIA's OpenCL 3.0 (driver 580,
 * H200): in a launch of 2^32 + 256 work-items get_global_size(0) returns 256,
 * and 0 for exactly 2^32, so a grid-stride loop stepping by it never ends;
 * get_global_id(0), get_num_groups(0) and get_local_size(0) are right. So T
 * is groups x enqueued local size, in 64 bits, less the ragged part of the
 * last group, which is that product minus get_global_size(0) taken modulo
 * 2^32 (a ragged part is smaller than a work-group, so the wrap cannot hide
 * it). The grid probe (kernels/opencl_only.cl) checks this on every GPU. */
typedef ulong gs_size;
typedef long gs_ssize;
typedef float2 gs_float2;
typedef float4 gs_float4;
/* The double build (kernels/gs_kernels.h, GS_F64_BUILD), which the backend
 * builds only for a device whose CL_DEVICE_DOUBLE_FP_CONFIG is not zero.
 * OpenCL C 1.x names double behind cl_khr_fp64; 3.0 behind the feature
 * __opencl_c_fp64, where a device that has it may still list the extension
 * (enabling it then is harmless). */
#ifdef GS_F64_BUILD
#if defined(cl_khr_fp64)
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#elif !defined(__opencl_c_fp64)
#error "GS_F64_BUILD on a device without double precision (neither cl_khr_fp64 nor __opencl_c_fp64)"
#endif
typedef double2 gs_double2;
typedef double4 gs_double4;
#define GS_DOUBLE2(x, y) ((double2)((x), (y)))
#define GS_DOUBLE4(x, y, z, w) ((double4)((x), (y), (z), (w)))
#endif

#if defined(__OPENCL_C_VERSION__) && __OPENCL_C_VERSION__ >= 200
#define GS_ENQUEUED_LOCAL() ((gs_size)get_enqueued_local_size(0))
#else
/* OpenCL C 1.x: work-groups are uniform, every group has the enqueued size. */
#define GS_ENQUEUED_LOCAL() ((gs_size)get_local_size(0))
#endif
#define GS_ROUNDED_THREADS() ((gs_size)get_num_groups(0) * GS_ENQUEUED_LOCAL())

#define GS_KERNEL __kernel
#define GS_GLOBAL __global
#define GS_THREAD_CTX
#define GS_GLOBAL_THREAD() ((gs_size)get_global_id(0))
#define GS_GRID_THREADS()                                                                      \
    (GS_ROUNDED_THREADS() -                                                                    \
     ((GS_ROUNDED_THREADS() - (gs_size)get_global_size(0)) & (gs_size)0xFFFFFFFFu))
#define GS_BLOCK_IDX_X() ((gs_size)get_group_id(0))
#define GS_BLOCK_IDX_Y() ((gs_size)get_group_id(1))
#define GS_THREAD_IDX_X() ((gs_size)get_local_id(0))
#define GS_BLOCK_DIM_X() ((gs_size)get_local_size(0))
/* The pitfalls' 32-bit arithmetic, spelled out: get_global_id(0) is size_t
 * and right past 2^32, so the trap is written as CUDA computes it. */
#define GS_GLOBAL_THREAD_U32()                                                                 \
    ((uint)get_group_id(0) * (uint)get_local_size(0) + (uint)get_local_id(0))
#define GS_GRID_THREADS_U32() ((uint)get_num_groups(0) * (uint)get_local_size(0))
/* int + int with two's-complement wrap, from defined unsigned arithmetic. */
#define GS_INT_ADD_WRAP(x, y) ((int)((uint)(x) + (uint)(y)))
/* The barrier of the early-return trap (kernels/gs_barrier.gs). */
#define GS_BARRIER() barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE)
/* The literal pitfalls' optimisation (kernels/gs_pitfalls.h): this API's
 * compiler takes one level for the whole program, its usual one. */
#define GS_OPT_USUAL
#define GS_OPT_O0
#define GS_ATOMIC_INC(p) atomic_inc(p)
/* The trace build's 64-bit minimum needs cl_khr_int64_extended_atomics; the
 * backend builds that program only for a device that reports it. */
#ifdef GS_TRACE_BUILD
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
#define GS_ATOMIC_MIN_U64(p, v) atom_min((p), (v))
#endif
#define GS_FLOAT2(x, y) ((float2)((x), (y)))
#define GS_FLOAT4(x, y, z, w) ((float4)((x), (y), (z), (w)))
#define GS_RESTRICT restrict
