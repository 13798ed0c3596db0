/* SPDX-License-Identifier: MIT */
/* The timeline build's recorder for CUDA (`gridstride bandwidth --spread`).
 *
 * gs_kernels.h compiled with GS_TIMELINE_BUILD names each kernel
 * <name>_timeline, stores as the normal build does, and opens every kernel
 * with GS_TIMELINE_GUARD (through GS_TRACE_STATE): an object whose
 * constructor runs before the kernel's body and whose destructor runs when
 * the thread leaves it, so the kernel text stays written once.
 *
 *   constructor  the first thread of each block reads the SM it runs on
 *                (%smid) and the global timer (%globaltimer, nanoseconds, one
 *                clock for every SM), lowers the SM's start to it and counts
 *                the block on that SM: two atomics per block;
 *   destructor   lane 0 of every warp raises the SM's finish to the timer:
 *                one atomic per warp.
 *
 * The records are per SM, so the atomics of different SMs never meet at one
 * address. The host (backend_cuda/gs_cuda.c) sets start to all ones and the
 * rest to zero before the launch and reads them after. An SM numbered
 * GS_TIMELINE_SLOTS or beyond is not recorded: it sets `overflow`, and the
 * host refuses the record. Nothing here loops or waits.
 *
 * Included by backend_cuda/gs_cuda_kernels.cu only, not by the prelude: the
 * prelude is also what NVRTC compiles user kernels with, and those must not
 * define these globals. */
#ifndef GS_TIMELINE_CUDA_CUH
#define GS_TIMELINE_CUDA_CUH

#define GS_TIMELINE_SLOTS 1024

__device__ unsigned long long gs_timeline_start[GS_TIMELINE_SLOTS];
__device__ unsigned long long gs_timeline_end[GS_TIMELINE_SLOTS];
__device__ unsigned int gs_timeline_blocks[GS_TIMELINE_SLOTS];
__device__ unsigned int gs_timeline_overflow;

static __device__ __forceinline__ unsigned long long gs_timeline_now(void)
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

static __device__ __forceinline__ unsigned int gs_timeline_smid(void)
{
    unsigned int s;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
    return s;
}

static __device__ __forceinline__ unsigned int gs_timeline_laneid(void)
{
    unsigned int l;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(l));
    return l;
}

struct gs_timeline_guard {
    unsigned int sm;

    __device__ gs_timeline_guard() : sm(gs_timeline_smid())
    {
        if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) {
            const unsigned long long now = gs_timeline_now();
            if (sm < GS_TIMELINE_SLOTS) {
                atomicMin(&gs_timeline_start[sm], now);
                atomicAdd(&gs_timeline_blocks[sm], 1u);
            } else {
                atomicOr(&gs_timeline_overflow, 1u);
            }
        }
    }

    /* A warp never leaves its SM, so the SM read at the start is the one it
     * finishes on. */
    __device__ ~gs_timeline_guard()
    {
        if (gs_timeline_laneid() == 0 && sm < GS_TIMELINE_SLOTS)
            atomicMax(&gs_timeline_end[sm], gs_timeline_now());
    }
};

#define GS_TIMELINE_GUARD gs_timeline_guard gs_timeline_guard_

#endif
