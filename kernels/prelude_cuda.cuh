/* SPDX-License-Identifier: MIT */
/* The kernel dialect for CUDA. Kernels get C linkage so that their names are
 * the catalogue's symbols. blockIdx.x, blockDim.x and gridDim.x are unsigned
 * int: one operand is widened before the multiply, or the product wraps at
 * 2^32 threads. */
#ifndef GS_PRELUDE_CUDA_CUH
#define GS_PRELUDE_CUDA_CUH

typedef unsigned long long gs_size;
typedef long long gs_ssize;
typedef float2 gs_float2;
typedef float4 gs_float4;
/* The double build's vectors (kernels/gs_kernels.h, GS_F64_BUILD). CUDA 13
 * deprecates double4 (16-byte aligned, so two loads) for double4_16a and
 * double4_32a, which older toolkits lack: a struct of our own, aligned to
 * its 32 bytes like double4_32a, serves every toolkit. double2 stays. */
typedef double2 gs_double2;
struct __align__(32) gs_double4 {
    double x, y, z, w;
};
static __device__ __forceinline__ gs_double4 gs_make_double4(double x, double y, double z,
                                                             double w)
{
    gs_double4 v = {x, y, z, w};
    return v;
}

#define GS_KERNEL extern "C" __global__
#define GS_GLOBAL
#define GS_THREAD_CTX
#define GS_GLOBAL_THREAD() ((gs_size)blockIdx.x * blockDim.x + threadIdx.x)
#define GS_GRID_THREADS() ((gs_size)gridDim.x * blockDim.x)
#define GS_FLOAT2(x, y) make_float2((x), (y))
#define GS_FLOAT4(x, y, z, w) make_float4((x), (y), (z), (w))
#define GS_DOUBLE2(x, y) make_double2((x), (y))
#define GS_DOUBLE4(x, y, z, w) gs_make_double4((x), (y), (z), (w))
#define GS_RESTRICT __restrict__
#define GS_BLOCK_IDX_X() (blockIdx.x)
#define GS_BLOCK_IDX_Y() (blockIdx.y)
#define GS_THREAD_IDX_X() (threadIdx.x)
#define GS_BLOCK_DIM_X() (blockDim.x)
/* The pitfalls' 32-bit arithmetic: the built-ins as they are, unsigned int. */
#define GS_GLOBAL_THREAD_U32() (blockIdx.x * blockDim.x + threadIdx.x)
#define GS_GRID_THREADS_U32() (gridDim.x * blockDim.x)
/* int + int with two's-complement wrap, from defined unsigned arithmetic
 * (the conversion back to int is modulo 2^32 in C++20 and in nvcc). */
#define GS_INT_ADD_WRAP(x, y) ((int)((unsigned int)(x) + (unsigned int)(y)))
/* The barrier of the early-return trap (kernels/gs_barrier.gs). */
#define GS_BARRIER() __syncthreads()
/* The literal pitfalls' optimisation (kernels/gs_pitfalls.h): this API's
 * compiler takes one level for the whole program, its usual one. */
#define GS_OPT_USUAL
#define GS_OPT_O0
#define GS_ATOMIC_INC(p) atomicAdd((p), 1u)
/* gs_size is unsigned long long, the type of the 64-bit atomicMin (sm_35+). */
#define GS_ATOMIC_MIN_U64(p, v) atomicMin((p), (v))

#endif
