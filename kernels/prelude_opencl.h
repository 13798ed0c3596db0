/* The kernel dialect for OpenCL C (1.2 and later). Unlike CUDA, the work-item
 * functions already return size_t, so no widening is needed; and
 * get_global_size(0) is the NDRange's global size, which equals
 * groups x local size unless the device runs non-uniform work-groups.
 * size_t is not a legal kernel argument type in OpenCL C, so n and param are
 * ulong (cl_ulong on the host side). */
typedef ulong gs_size;
typedef float4 gs_float4;

#define GS_KERNEL __kernel
#define GS_GLOBAL __global
#define GS_THREAD_CTX
#define GS_GLOBAL_THREAD() ((gs_size)get_global_id(0))
#define GS_GRID_THREADS() ((gs_size)get_global_size(0))
