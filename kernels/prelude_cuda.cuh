/* The kernel dialect for CUDA. Kernels get C linkage so that their names are
 * the catalogue's symbols. blockIdx.x, blockDim.x and gridDim.x are unsigned
 * int: one operand is widened before the multiply, or the product wraps at
 * 2^32 threads. */
#ifndef GS_PRELUDE_CUDA_CUH
#define GS_PRELUDE_CUDA_CUH

typedef unsigned long long gs_size;
typedef float4 gs_float4;

#define GS_KERNEL extern "C" __global__
#define GS_GLOBAL
#define GS_THREAD_CTX
#define GS_GLOBAL_THREAD() ((gs_size)blockIdx.x * blockDim.x + threadIdx.x)
#define GS_GRID_THREADS() ((gs_size)gridDim.x * blockDim.x)

#endif
