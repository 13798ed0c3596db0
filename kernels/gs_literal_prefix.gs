/* SPDX-License-Identifier: MIT */
/* What kernels/gs_pitfalls.h needs of kernels/gs_kernels.h, for the one
 * build of it that is text compiled at run time: the int loop's literal
 * body through NVRTC, in check's worker (core/run/gs_pitfalls.c). Float
 * buffers, plain stores, no trace. kernels/gs_literal_entry.gs follows
 * gs_pitfalls.h and is the entry the worker launches. */
#define GS_NAME(kernel) kernel
#define gs_real float
#define GS_TRACE_STATE
#define GS_STORE(out, i, value) ((out)[i] = (value))
