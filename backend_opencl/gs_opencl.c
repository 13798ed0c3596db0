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
 * launches and copies can be timed by the device's own clock. */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* 2.0 deprecated clCreateCommandQueue; it is still the call a 1.2 device needs. */
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <CL/cl_ext.h>

#include "gs_backend.h"
#include "gs_sysmem.h"
#include "gs_user.h"

#if !defined(CL_VERSION_3_0)
#error "the OpenCL backend needs the OpenCL 3.0 headers (opencl-c-headers 2020 or later)"
#endif

/* cl_nv_device_attribute_query, in case cl_ext.h predates it. */
#ifndef CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV
#define CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV 0x4000
#define CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV 0x4001
#define CL_DEVICE_REGISTERS_PER_BLOCK_NV 0x4002
#define CL_DEVICE_WARP_SIZE_NV 0x4003
#endif
/* cl_khr_pci_bus_info and NVIDIA's PCI queries, in case cl_ext.h predates them. */
#ifndef CL_DEVICE_PCI_BUS_INFO_KHR
#define CL_DEVICE_PCI_BUS_INFO_KHR 0x410F
#endif
#ifndef CL_DEVICE_PCI_BUS_ID_NV
#define CL_DEVICE_PCI_BUS_ID_NV 0x4008
#define CL_DEVICE_PCI_SLOT_ID_NV 0x4009
#endif
#ifndef CL_DEVICE_PCI_DOMAIN_ID_NV
#define CL_DEVICE_PCI_DOMAIN_ID_NV 0x400A
#endif
#ifndef CL_PLATFORM_NOT_FOUND_KHR
#define CL_PLATFORM_NOT_FOUND_KHR -1001
#endif

#define OCL_MAX_GRID 0x7fffffffull     /* CUDA's grid limit; OpenCL has none of its own */
#define OCL_CPU_BLOCKS_PER_UNIT 4u     /* as the host backend */
#define OCL_CPU_MAX_GRID (1ull << 20)  /* as the host backend */
#define OCL_GPU_RESIDENT_ITEMS 2048u   /* assumed per compute unit on a non-NVIDIA GPU */
#define OCL_GPU_MAX_GROUPS_PER_UNIT 32u
#define OCL_NVIDIA_ICD "libnvidia-opencl.so.1"

extern const char gs_opencl_source[]; /* kernels/, embedded by embed.cmake */
extern const struct gs_backend gs_backend_opencl;

/* ---- Error names --------------------------------------------------------- */

/* Every standard cl_int error code, with what the specification says it
 * means, worded for this suite's calls. */
#define OCL_ERROR_LIST(X)                                                                         \
    X(CL_DEVICE_NOT_FOUND, "no device of the requested type")                                     \
    X(CL_DEVICE_NOT_AVAILABLE, "the device is not available")                                     \
    X(CL_COMPILER_NOT_AVAILABLE, "the device has no online compiler")                             \
    X(CL_MEM_OBJECT_ALLOCATION_FAILURE, "could not allocate a buffer's memory")                   \
    X(CL_OUT_OF_RESOURCES, "the device ran out of resources, or a kernel faulted")                \
    X(CL_OUT_OF_HOST_MEMORY, "the runtime ran out of host memory")                                \
    X(CL_PROFILING_INFO_NOT_AVAILABLE, "no profiling data, or the command is not complete")      \
    X(CL_MEM_COPY_OVERLAP, "source and destination of the copy overlap")                          \
    X(CL_IMAGE_FORMAT_MISMATCH, "the images do not share a format")                               \
    X(CL_IMAGE_FORMAT_NOT_SUPPORTED, "image format not supported")                                \
    X(CL_BUILD_PROGRAM_FAILURE, "the program failed to build for the device")                     \
    X(CL_MAP_FAILURE, "could not map the buffer")                                                 \
    X(CL_MISALIGNED_SUB_BUFFER_OFFSET, "sub-buffer offset not aligned for the device")            \
    X(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, "an event in the wait list failed")           \
    X(CL_COMPILE_PROGRAM_FAILURE, "the program failed to compile")                                \
    X(CL_LINKER_NOT_AVAILABLE, "the device has no linker")                                        \
    X(CL_LINK_PROGRAM_FAILURE, "the program failed to link")                                      \
    X(CL_DEVICE_PARTITION_FAILED, "the device could not be partitioned")                          \
    X(CL_KERNEL_ARG_INFO_NOT_AVAILABLE, "no kernel argument information")                         \
    X(CL_INVALID_VALUE, "an argument has an invalid value")                                       \
    X(CL_INVALID_DEVICE_TYPE, "invalid device type")                                              \
    X(CL_INVALID_PLATFORM, "invalid platform")                                                    \
    X(CL_INVALID_DEVICE, "invalid device, or not in the context")                                 \
    X(CL_INVALID_CONTEXT, "invalid context, or objects from different contexts")                  \
    X(CL_INVALID_QUEUE_PROPERTIES, "queue properties not supported by the device")                \
    X(CL_INVALID_COMMAND_QUEUE, "invalid command queue")                                          \
    X(CL_INVALID_HOST_PTR, "invalid host pointer for the buffer flags")                           \
    X(CL_INVALID_MEM_OBJECT, "invalid buffer")                                                    \
    X(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, "invalid image format")                                 \
    X(CL_INVALID_IMAGE_SIZE, "image size not supported")                                          \
    X(CL_INVALID_SAMPLER, "invalid sampler")                                                      \
    X(CL_INVALID_BINARY, "invalid program binary")                                                \
    X(CL_INVALID_BUILD_OPTIONS, "invalid build options")                                          \
    X(CL_INVALID_PROGRAM, "invalid program")                                                      \
    X(CL_INVALID_PROGRAM_EXECUTABLE, "the program is not built for the device")                   \
    X(CL_INVALID_KERNEL_NAME, "no kernel of that name in the program")                            \
    X(CL_INVALID_KERNEL_DEFINITION, "kernel definition differs between devices")                  \
    X(CL_INVALID_KERNEL, "invalid kernel")                                                        \
    X(CL_INVALID_ARG_INDEX, "invalid kernel argument index")                                      \
    X(CL_INVALID_ARG_VALUE, "invalid kernel argument value")                                      \
    X(CL_INVALID_ARG_SIZE, "kernel argument size does not match its type")                        \
    X(CL_INVALID_KERNEL_ARGS, "kernel arguments not all set")                                     \
    X(CL_INVALID_WORK_DIMENSION, "work dimension outside 1..CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS")  \
    X(CL_INVALID_WORK_GROUP_SIZE,                                                                 \
      "local size does not divide the global size (uniform work-groups) or exceeds the limit")     \
    X(CL_INVALID_WORK_ITEM_SIZE, "local size exceeds CL_DEVICE_MAX_WORK_ITEM_SIZES")              \
    X(CL_INVALID_GLOBAL_OFFSET, "global offset out of range")                                     \
    X(CL_INVALID_EVENT_WAIT_LIST, "invalid event wait list")                                      \
    X(CL_INVALID_EVENT, "invalid event")                                                          \
    X(CL_INVALID_OPERATION, "operation not valid here")                                           \
    X(CL_INVALID_GL_OBJECT, "invalid OpenGL object")                                              \
    X(CL_INVALID_BUFFER_SIZE, "buffer size is 0 or above CL_DEVICE_MAX_MEM_ALLOC_SIZE")           \
    X(CL_INVALID_MIP_LEVEL, "invalid mip level")                                                  \
    X(CL_INVALID_GLOBAL_WORK_SIZE,                                                                \
      "global work size is zero (before OpenCL 2.1) or exceeds the device range")                 \
    X(CL_INVALID_PROPERTY, "invalid property")                                                    \
    X(CL_INVALID_IMAGE_DESCRIPTOR, "invalid image descriptor")                                    \
    X(CL_INVALID_COMPILER_OPTIONS, "invalid compiler options")                                    \
    X(CL_INVALID_LINKER_OPTIONS, "invalid linker options")                                        \
    X(CL_INVALID_DEVICE_PARTITION_COUNT, "invalid device partition count")                        \
    X(CL_INVALID_PIPE_SIZE, "invalid pipe size")                                                  \
    X(CL_INVALID_DEVICE_QUEUE, "invalid device queue")                                            \
    X(CL_INVALID_SPEC_ID, "invalid specialization constant id")                                   \
    X(CL_MAX_SIZE_RESTRICTION_EXCEEDED, "a size exceeds an implementation limit")                 \
    X(CL_PLATFORM_NOT_FOUND_KHR, "the ICD loader found no platform")

struct ocl_error {
    cl_int code;
    const char *name;
    const char *text;
};

static const struct ocl_error ocl_errors[] = {
#define OCL_ERROR_ROW(code, text) {code, #code, text},
    OCL_ERROR_LIST(OCL_ERROR_ROW)
#undef OCL_ERROR_ROW
};

static const struct ocl_error *ocl_error(cl_int code)
{
    static const struct ocl_error unknown = {0, "CL_UNKNOWN_ERROR", "not a standard OpenCL code"};
    for (size_t i = 0; i < sizeof ocl_errors / sizeof ocl_errors[0]; ++i)
        if (ocl_errors[i].code == code)
            return &ocl_errors[i];
    return &unknown;
}

/* The call as written, without the "(x = " and ", rc)" of a create call. */
static void call_text(const char *text, char *out, size_t size)
{
    const char *eq = strstr(text, " = cl");
    const char *start = eq ? eq + 3 : text;
    size_t len = strlen(start);
    if (eq && len >= 5 && strcmp(start + len - 5, ", rc)") == 0)
        len -= 5;
    snprintf(out, size, "%.*s", (int)len, start);
}

static int ocl_check(cl_int code, const char *text, const char *file, int line,
                     struct gs_err *e)
{
    if (code == CL_SUCCESS)
        return GS_OK;
    char call[320];
    call_text(text, call, sizeof call);
    const struct ocl_error *err = ocl_error(code);
    const int status = (code == CL_OUT_OF_HOST_MEMORY || code == CL_MEM_OBJECT_ALLOCATION_FAILURE)
                           ? GS_NOMEM
                           : GS_API;
    return gs_api_error(e, status, call, file, line, err->name, (long)code, err->text);
}

/* Every cl* call goes through this: GS_OK, or the call, file:line and the
 * error's name in e. A call that returns an object is written
 * `OCL(e, (x = clCreateFoo(..., &rc), rc))`; the message shows clCreateFoo(...). */
#define OCL(e, call) ocl_check((call), #call, __FILE__, __LINE__, (e))

/* ---- Devices and buffers ------------------------------------------------- */

/* The backend's buffer: the core's record first (size, list), then ours. */
struct ocl_buf {
    struct gs_buf base;
    cl_mem mem; /* at least 4 bytes: clCreateBuffer refuses 0 */
};
GS_BUF_STRUCT(struct ocl_buf);

static cl_mem mem_of(const struct gs_buf *b)
{
    return b ? ((const struct ocl_buf *)b)->mem : NULL;
}

struct ocl_device {
    struct gs_device base; /* first member: the core holds a struct gs_device * */
    cl_platform_id platform_id;
    cl_device_id id;
    cl_context context;
    cl_command_queue queue;
    cl_program program;
    cl_kernel kernels[GS_KERNEL_COUNT];
    cl_program count_program; /* the count build (GS_COUNT_BUILD), built on first use */
    cl_kernel count_kernels[GS_KERNEL_COUNT];
    cl_program trace_program; /* the trace build (GS_TRACE_BUILD), built on first use */
    cl_kernel trace_kernels[GS_KERNEL_COUNT];
    cl_program f64_program;   /* the double build (GS_F64_BUILD), built on first use */
    cl_kernel f64_kernels[GS_KERNEL_COUNT];
    cl_kernel probe;         /* gs_probe_grid, created on first use */
    cl_kernel fill;          /* gs_fill_u32, created on first use */
    unsigned version;        /* CL_DEVICE_VERSION as major * 10 + minor: 12, 20, 21, 30 */
    unsigned c_version;      /* the newest OpenCL C the device compiles, same scale */
    unsigned address_bits;   /* the device's size_t */
    size_t max_item_size;    /* CL_DEVICE_MAX_WORK_ITEM_SIZES[0] */
    size_t max_group;        /* CL_DEVICE_MAX_WORK_GROUP_SIZE */
    size_t kernel_group[GS_KERNEL_COUNT]; /* each kernel's CL_KERNEL_WORK_GROUP_SIZE */
    int nv;                  /* cl_nv_device_attribute_query: compute capability known */
    unsigned cc_major, cc_minor, warp, regs_per_block;
    const char *build_options; /* "" or "-cl-std=CL2.0" / "-cl-std=CL3.0" */
    int ragged;              /* non-uniform work-groups enabled for the built program */
    char uniform_why[96];    /* when not: why not */
};
GS_DEVICE_STRUCT(struct ocl_device);

static const char *const ocl_kernel_names[GS_KERNEL_COUNT] = {
#define OCL_KERNEL_NAME(id, sym, name, op, bytes, rule, param) [GS_K_##id] = #sym,
    GS_KERNEL_LIST(OCL_KERNEL_NAME)
#undef OCL_KERNEL_NAME
};

static void copy_trimmed(char *dst, size_t size, const char *src)
{
    while (*src == ' ' || *src == '\t' || *src == '\n')
        ++src;
    gs_strlcpy(dst, src, size);
    size_t len = strlen(dst);
    while (len > 0 && (dst[len - 1] == ' ' || dst[len - 1] == '\t' || dst[len - 1] == '\n'))
        dst[--len] = '\0';
}

/* A platform string (device == NULL) or a device string, whole and
 * NUL-terminated, in malloc'd memory. */
static int info_string(cl_platform_id platform, cl_device_id device, cl_uint what, char **out,
                       struct gs_err *e)
{
    size_t len = 0;
    int st = device ? OCL(e, clGetDeviceInfo(device, what, 0, NULL, &len))
                    : OCL(e, clGetPlatformInfo(platform, what, 0, NULL, &len));
    if (st != GS_OK)
        return st;
    char *s = calloc(1, len + 1);
    if (!s)
        return gs_err_set(e, GS_NOMEM, "opencl: out of memory");
    st = device ? OCL(e, clGetDeviceInfo(device, what, len, s, NULL))
                : OCL(e, clGetPlatformInfo(platform, what, len, s, NULL));
    if (st != GS_OK) {
        free(s);
        return st;
    }
    *out = s;
    return GS_OK;
}

/* info_string() into a fixed field, trimmed (NVIDIA pads some names). */
static int info_field(cl_platform_id platform, cl_device_id device, cl_uint what, char *dst,
                      size_t size, struct gs_err *e)
{
    char *s = NULL;
    int st = info_string(platform, device, what, &s, e);
    if (st == GS_OK)
        copy_trimmed(dst, size, s);
    free(s);
    return st;
}

/* "OpenCL 3.0 CUDA" -> 30, "OpenCL C 1.2 PoCL" -> 12; 0 when unreadable. */
static unsigned parse_version(const char *s, const char *prefix)
{
    unsigned hi = 0, lo = 0;
    const size_t n = strlen(prefix);
    if (strncmp(s, prefix, n) != 0 || sscanf(s + n, "%u.%u", &hi, &lo) != 2)
        return 0;
    return hi * 10 + (lo > 9 ? 9 : lo);
}

static int has_extension(cl_device_id id, const char *name, int *found, struct gs_err *e)
{
    char *ext = NULL;
    int st = info_string(NULL, id, CL_DEVICE_EXTENSIONS, &ext, e);
    if (st != GS_OK)
        return st;
    *found = 0;
    const size_t n = strlen(name);
    for (const char *p = ext; (p = strstr(p, name)) != NULL; p += n)
        if ((p == ext || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            *found = 1;
    free(ext);
    return GS_OK;
}

/* Compute capability and friends, from cl_nv_device_attribute_query. */
static int describe_nvidia(struct ocl_device *d, struct gs_err *e)
{
    cl_uint cc_hi = 0, cc_lo = 0, warp = 0, regs = 0;
    int st;
    if ((st = has_extension(d->id, "cl_nv_device_attribute_query", &d->nv, e)) != GS_OK ||
        !d->nv)
        return st;
    if ((st = OCL(e, clGetDeviceInfo(d->id, CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV,
                                     sizeof cc_hi, &cc_hi, NULL))) != GS_OK ||
        (st = OCL(e, clGetDeviceInfo(d->id, CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV,
                                     sizeof cc_lo, &cc_lo, NULL))) != GS_OK ||
        (st = OCL(e, clGetDeviceInfo(d->id, CL_DEVICE_WARP_SIZE_NV, sizeof warp, &warp,
                                     NULL))) != GS_OK ||
        (st = OCL(e, clGetDeviceInfo(d->id, CL_DEVICE_REGISTERS_PER_BLOCK_NV, sizeof regs,
                                     &regs, NULL))) != GS_OK)
        return st;
    d->cc_major = cc_hi;
    d->cc_minor = cc_lo;
    d->warp = warp ? warp : 32;
    d->regs_per_block = regs;
    const size_t len = strlen(d->base.arch);
    snprintf(d->base.arch + len, sizeof d->base.arch - len, ", compute capability %u.%u",
             cc_hi, cc_lo);
    return GS_OK;
}

/* The PCI address, so that a GPU seen through OpenCL and through CUDA is
 * known to be one GPU (CTest resource groups). cl_khr_pci_bus_info first;
 * else NVIDIA's attributes, whose slot id packs device << 3 | function.
 * A device that reports neither keeps pci empty: not an error. */
static int describe_pci(struct ocl_device *d, struct gs_err *e)
{
    struct { cl_uint domain, bus, device, function; } khr = {0};
    cl_uint bus = 0, slot = 0, domain = 0;
    int has_khr = 0;
    int st = has_extension(d->id, "cl_khr_pci_bus_info", &has_khr, e);
    if (st != GS_OK)
        return st;
    if (has_khr && clGetDeviceInfo(d->id, CL_DEVICE_PCI_BUS_INFO_KHR, sizeof khr, &khr, NULL) ==
                       CL_SUCCESS) {
        snprintf(d->base.pci, sizeof d->base.pci, "%04x:%02x:%02x.%x", khr.domain, khr.bus,
                 khr.device, khr.function);
        return GS_OK;
    }
    if (!d->nv || clGetDeviceInfo(d->id, CL_DEVICE_PCI_BUS_ID_NV, sizeof bus, &bus, NULL) !=
                      CL_SUCCESS ||
        clGetDeviceInfo(d->id, CL_DEVICE_PCI_SLOT_ID_NV, sizeof slot, &slot, NULL) != CL_SUCCESS)
        return GS_OK;
    /* Older drivers lack the domain query: domain 0, as on most machines. */
    if (clGetDeviceInfo(d->id, CL_DEVICE_PCI_DOMAIN_ID_NV, sizeof domain, &domain, NULL) !=
        CL_SUCCESS)
        domain = 0;
    snprintf(d->base.pci, sizeof d->base.pci, "%04x:%02x:%02x.%x", domain, bus, slot >> 3,
             slot & 7u);
    return GS_OK;
}

/* The strings of struct gs_device, and the versions parsed from them. */
static int describe_strings(struct ocl_device *d, struct gs_err *e)
{
    struct gs_device *g = &d->base;
    int st;
    if ((st = info_field(NULL, d->id, CL_DEVICE_NAME, g->name, sizeof g->name, e)) != GS_OK ||
        (st = info_field(d->platform_id, NULL, CL_PLATFORM_NAME, g->platform,
                         sizeof g->platform, e)) != GS_OK ||
        (st = info_field(NULL, d->id, CL_DEVICE_VERSION, g->api_version, sizeof g->api_version,
                         e)) != GS_OK ||
        (st = info_field(NULL, d->id, CL_DRIVER_VERSION, g->driver_version,
                         sizeof g->driver_version, e)) != GS_OK ||
        (st = info_field(NULL, d->id, CL_DEVICE_OPENCL_C_VERSION, g->arch, sizeof g->arch, e)) !=
            GS_OK)
        return st;
    d->version = parse_version(g->api_version, "OpenCL ");
    d->c_version = parse_version(g->arch, "OpenCL C ");
    return GS_OK;
}

/* The trace build keeps the lowest writer with a 64-bit atomic minimum
 * (kernels/gs_kernels.h), which OpenCL has only as an extension. */
static int describe_trace(struct ocl_device *d, struct gs_err *e)
{
    int found = 0;
    const int st = has_extension(d->id, "cl_khr_int64_extended_atomics", &found, e);
    if (st == GS_OK && found)
        d->base.caps |= GS_CAP_TRACE;
    return st;
}

/* The double build (GS_F64_BUILD) needs double precision, which OpenCL
 * makes optional: a device has it when CL_DEVICE_DOUBLE_FP_CONFIG is not
 * zero (a core query from 1.2; before, part of cl_khr_fp64). */
static int describe_f64(struct ocl_device *d, struct gs_err *e)
{
    cl_device_fp_config fp64 = 0;
    int ext = 0, st = GS_OK;
    if (d->version < 12 && (st = has_extension(d->id, "cl_khr_fp64", &ext, e)) != GS_OK)
        return st;
    if ((d->version >= 12 || ext) &&
        (st = OCL(e, clGetDeviceInfo(d->id, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof fp64, &fp64,
                                     NULL))) != GS_OK)
        return st;
    if (fp64) {
        d->base.caps |= GS_CAP_F64;
        d->base.no_f64[0] = '\0';
    } else {
        gs_strlcpy(d->base.no_f64,
                   "the device reports no double precision (CL_DEVICE_DOUBLE_FP_CONFIG is 0)",
                   sizeof d->base.no_f64);
    }
    return GS_OK;
}

/* The numbers of struct gs_device that the device reports directly. */
static int describe_limits(struct ocl_device *d, struct gs_err *e)
{
    struct gs_device *g = &d->base;
    cl_device_type type = 0;
    cl_uint units = 0, bits = 0;
    cl_ulong mem = 0, alloc = 0;
    /* CL_DEVICE_MAX_WORK_ITEM_SIZES has one entry per dimension (at least 3);
     * 64 leaves room for any device. */
    size_t group = 0, items[64] = {0};
    int st;
    if ((st = OCL(e, clGetDeviceInfo(d->id, CL_DEVICE_TYPE, sizeof type, &type, NULL))) !=
            GS_OK ||
        (st = OCL(e, clGetDeviceInfo(d->id, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units,
                                     NULL))) != GS_OK ||
        (st = OCL(e, clGetDeviceInfo(d->id, CL_DEVICE_ADDRESS_BITS, sizeof bits, &bits,
                                     NULL))) != GS_OK ||
        (st = OCL(e, clGetDeviceInfo(d->id, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof mem, &mem,
                                     NULL))) != GS_OK ||
        (st = OCL(e, clGetDeviceInfo(d->id, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof alloc, &alloc,
                                     NULL))) != GS_OK ||
        (st = OCL(e, clGetDeviceInfo(d->id, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof group, &group,
                                     NULL))) != GS_OK ||
        (st = OCL(e, clGetDeviceInfo(d->id, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof items, items,
                                     NULL))) != GS_OK)
        return st;
    g->is_gpu = (type & CL_DEVICE_TYPE_GPU) != 0;
    g->compute_units = units ? units : 1;
    g->global_mem = mem;
    g->max_alloc = alloc;
    d->address_bits = bits;
    d->max_group = group;
    d->max_item_size = items[0];
    /* OpenCL has no memory clock or bus width query, NVIDIA's extension
     * included, so no theoretical peak can be derived. */
    g->peak_bytes_per_s = 0;
    gs_strlcpy(g->peak_rule, "unknown: OpenCL reports no memory clock or bus width",
               sizeof g->peak_rule);
    g->caps = GS_CAP_TIMING | GS_CAP_COPY | GS_CAP_RAGGED_GLOBAL | GS_CAP_2D | GS_CAP_COUNT;
    gs_strlcpy(g->no_timeline,
               "OpenCL C has no compute-unit id or global timer (NVIDIA's OpenCL would accept "
               "inline PTX for %smid and %globaltimer; not done here)",
               sizeof g->no_timeline);
    const int st_trace = describe_trace(d, e);
    return st_trace == GS_OK ? describe_f64(d, e) : st_trace;
}

/* The newest OpenCL C a 3.0 device lists (CL_DEVICE_OPENCL_C_VERSION
 * reports at most 1.2 on many 3.0 drivers, NVIDIA's and PoCL's among them). */
static int newest_c_version(struct ocl_device *d, unsigned *c, struct gs_err *e)
{
    size_t len = 0;
    int st = OCL(e, clGetDeviceInfo(d->id, CL_DEVICE_OPENCL_C_ALL_VERSIONS, 0, NULL, &len));
    if (st != GS_OK)
        return st;
    const size_t count = len / sizeof(cl_name_version);
    cl_name_version *v = calloc(count ? count : 1, sizeof *v);
    if (!v)
        return gs_err_set(e, GS_NOMEM, "opencl: out of memory");
    st = OCL(e, clGetDeviceInfo(d->id, CL_DEVICE_OPENCL_C_ALL_VERSIONS, len, v, NULL));
    *c = d->c_version;
    for (size_t i = 0; st == GS_OK && i < count; ++i) {
        const unsigned lo = CL_VERSION_MINOR(v[i].version);
        const unsigned ver = CL_VERSION_MAJOR(v[i].version) * 10 + (lo > 9 ? 9 : lo);
        if (ver > *c)
            *c = ver;
    }
    free(v);
    return st;
}

/* How to build the program, and whether a ragged NDRange is then legal.
 * Non-uniform work-groups need a device that has them (mandatory on 2.x,
 * CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT on 3.0) and a program built with
 * -cl-std=CL2.0 or CL3.0; the default OpenCL C 1.2 build is uniform only. */
static int choose_build(struct ocl_device *d, struct gs_err *e)
{
    unsigned c = d->c_version;
    cl_bool nonuniform = d->version >= 20 && d->version < 30;
    int st;
    d->build_options = "";
    d->ragged = 0;
    if (d->version >= 30) {
        if ((st = OCL(e, clGetDeviceInfo(d->id, CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT,
                                         sizeof nonuniform, &nonuniform, NULL))) != GS_OK ||
            (st = newest_c_version(d, &c, e)) != GS_OK)
            return st;
    }
    if (d->version < 20)
        snprintf(d->uniform_why, sizeof d->uniform_why, "an OpenCL %u.%u device",
                 d->version / 10, d->version % 10);
    else if (!nonuniform)
        gs_strlcpy(d->uniform_why, "the device reports no non-uniform work-group support",
                   sizeof d->uniform_why);
    else if (c < 20)
        snprintf(d->uniform_why, sizeof d->uniform_why,
                 "the program is OpenCL C %u.%u, the newest the device compiles", c / 10, c % 10);
    else {
        d->build_options = c >= 30 ? "-cl-std=CL3.0" : "-cl-std=CL2.0";
        d->ragged = 1;
        d->uniform_why[0] = '\0';
    }
    return GS_OK;
}

/* The build log's first lines, on one line, after e's message. */
static void append_build_log(struct ocl_device *d, cl_program program, const char *options,
                             struct gs_err *e)
{
    size_t len = 0;
    if (!e || clGetProgramBuildInfo(program, d->id, CL_PROGRAM_BUILD_LOG, 0, NULL, &len) !=
                  CL_SUCCESS)
        return;
    char *log = calloc(1, len + 1);
    if (!log)
        return;
    if (clGetProgramBuildInfo(program, d->id, CL_PROGRAM_BUILD_LOG, len, log, NULL) ==
        CL_SUCCESS) {
        for (char *p = log; *p; ++p)
            if (*p == '\n' || *p == '\r' || *p == '\t')
                *p = ' ';
        const size_t used = strlen(e->msg);
        snprintf(e->msg + used, sizeof e->msg - used, "; options \"%s\"; build log: %s",
                 options, log);
    }
    free(log);
}

static cl_command_queue create_queue(struct ocl_device *d, cl_int *rc)
{
    if (d->version >= 20) {
        const cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
        return clCreateCommandQueueWithProperties(d->context, d->id, props, rc);
    }
    return clCreateCommandQueue(d->context, d->id, CL_QUEUE_PROFILING_ENABLE, rc);
}

/* Context, queue, program and one kernel per catalogue row. */
static int build_kernels(struct ocl_device *d, struct gs_err *e)
{
    const char *src = gs_opencl_source;
    cl_int rc = CL_SUCCESS;
    int st;
    if ((st = OCL(e, (d->context = clCreateContext(NULL, 1, &d->id, NULL, NULL, &rc), rc))) !=
            GS_OK ||
        (st = OCL(e, (d->queue = create_queue(d, &rc), rc))) != GS_OK ||
        (st = OCL(e, (d->program = clCreateProgramWithSource(d->context, 1, &src, NULL, &rc),
                      rc))) != GS_OK)
        return st;
    st = OCL(e, clBuildProgram(d->program, 1, &d->id, d->build_options, NULL, NULL));
    if (st != GS_OK) {
        append_build_log(d, d->program, d->build_options, e);
        return st;
    }
    for (int k = 0; k < GS_KERNEL_COUNT; ++k) {
        const char *name = ocl_kernel_names[k];
        if ((st = OCL(e, (d->kernels[k] = clCreateKernel(d->program, name, &rc), rc))) != GS_OK) {
            const size_t used = e ? strlen(e->msg) : 0;
            if (e)
                snprintf(e->msg + used, sizeof e->msg - used, " (kernel %s)", name);
            return st;
        }
    }
    return GS_OK;
}

/* The largest block every kernel can run: the device's limits and each
 * kernel's CL_KERNEL_WORK_GROUP_SIZE (registers can lower it). NVIDIA's
 * driver reports 256 there for every kernel of the suite on an H200 yet
 * accepts local sizes up to 1024: the specification's limit is the
 * prediction, and a driver that accepts more shows as a measured deviation
 * (max_block_device keeps the device's own maximum). */
static int limit_block(struct ocl_device *d, struct gs_err *e)
{
    size_t block = d->max_group < d->max_item_size ? d->max_group : d->max_item_size;
    d->base.max_block_device = block > UINT32_MAX ? UINT32_MAX : (unsigned)block;
    for (int k = 0; k < GS_KERNEL_COUNT; ++k) {
        size_t wg = 0;
        int st = OCL(e, clGetKernelWorkGroupInfo(d->kernels[k], d->id, CL_KERNEL_WORK_GROUP_SIZE,
                                                 sizeof wg, &wg, NULL));
        if (st != GS_OK)
            return st;
        d->kernel_group[k] = wg;
        if (wg < block)
            block = wg;
    }
    d->base.max_block = block > UINT32_MAX ? UINT32_MAX : (unsigned)block;
    /* A grid of max_grid blocks of max_block threads must fit the device's size_t. */
    const uint64_t range = d->address_bits >= 64 ? UINT64_MAX : (1ull << d->address_bits) - 1;
    const uint64_t by_range = d->base.max_block ? range / d->base.max_block : 0;
    d->base.max_grid = by_range < OCL_MAX_GRID ? by_range : OCL_MAX_GRID;
    /* A CPU device runs the work-items a few at a time, like the host
     * backend: the same cap keeps any launch to seconds, not hours. */
    if (!d->base.is_gpu && d->base.max_grid > OCL_CPU_MAX_GRID)
        d->base.max_grid = OCL_CPU_MAX_GRID;
    return GS_OK;
}

/* The count, trace and double builds, where a launch built them. */
static void release_variants(struct ocl_device *d)
{
    for (int k = 0; k < GS_KERNEL_COUNT; ++k) {
        if (d->count_kernels[k])
            clReleaseKernel(d->count_kernels[k]);
        if (d->trace_kernels[k])
            clReleaseKernel(d->trace_kernels[k]);
        if (d->f64_kernels[k])
            clReleaseKernel(d->f64_kernels[k]);
    }
    if (d->count_program)
        clReleaseProgram(d->count_program);
    if (d->trace_program)
        clReleaseProgram(d->trace_program);
    if (d->f64_program)
        clReleaseProgram(d->f64_program);
}

/* What the backend made for one device; the core frees its buffers before
 * and the device object after. */
static void release_device(struct ocl_device *d)
{
    for (int k = 0; k < GS_KERNEL_COUNT; ++k)
        if (d->kernels[k])
            clReleaseKernel(d->kernels[k]);
    release_variants(d);
    if (d->probe)
        clReleaseKernel(d->probe);
    if (d->fill)
        clReleaseKernel(d->fill);
    if (d->program)
        clReleaseProgram(d->program);
    if (d->queue)
        clReleaseCommandQueue(d->queue);
    if (d->context)
        clReleaseContext(d->context);
}

static void ocl_release(struct gs_device *dev)
{
    release_device((struct ocl_device *)dev);
}

/* Describe and build for one device into d (zeroed by the caller). */
static int open_device(cl_platform_id platform, cl_device_id id, unsigned p, unsigned i,
                       struct ocl_device *d, struct gs_err *e)
{
    snprintf(d->base.id, sizeof d->base.id, "%u:%u", p, i);
    d->platform_id = platform;
    d->id = id;
    int st;
    if ((st = describe_strings(d, e)) != GS_OK || (st = describe_limits(d, e)) != GS_OK ||
        (st = describe_nvidia(d, e)) != GS_OK || (st = describe_pci(d, e)) != GS_OK ||
        (st = choose_build(d, e)) != GS_OK || (st = build_kernels(d, e)) != GS_OK ||
        (st = limit_block(d, e)) != GS_OK)
        release_device(d);
    return st;
}

/* A device that cannot be opened (its compiler fails, a query it does not
 * answer) is skipped, and the first such failure is kept for the notice:
 * one broken driver must not hide the other platforms' devices. So each is
 * described aside and joins the list only when it opened. */
static int open_platform(cl_platform_id platform, unsigned p, struct gs_device_list *list,
                         struct gs_err *skipped, struct gs_err *e)
{
    cl_uint n = 0;
    cl_int rc = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, NULL, &n);
    if (rc == CL_DEVICE_NOT_FOUND)
        return GS_OK; /* a platform with no device is not an error */
    int st = OCL(e, rc);
    if (st != GS_OK || n == 0)
        return st;
    cl_device_id *ids = calloc(n, sizeof *ids);
    struct ocl_device *aside = calloc(1, sizeof *aside);
    if (!ids || !aside)
        st = gs_err_set(e, GS_NOMEM, "opencl: out of memory");
    else
        st = OCL(e, clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, n, ids, NULL));
    for (cl_uint i = 0; st == GS_OK && i < n; ++i) {
        struct gs_err why = {0};
        memset(aside, 0, sizeof *aside);
        const int opened = open_device(platform, ids[i], p, i, aside, &why);
        if (opened == GS_NOMEM) {
            st = gs_err_set(e, opened, "%s", why.msg);
        } else if (opened != GS_OK) {
            if (skipped->status == GS_OK)
                gs_err_set(skipped, opened, "device %u:%u skipped: %s", p, i, why.msg);
        } else {
            struct gs_device *d = gs_device_list_add(list, e);
            if (!d) {
                release_device(aside);
                st = e->status;
                continue;
            }
            aside->base.backend = d->backend;
            aside->base.index = d->index;
            aside->base.core = d->core;
            memcpy(d, aside, sizeof *aside);
        }
    }
    free(aside);
    free(ids);
    return st;
}

/* ---- The NVIDIA ICD trap ------------------------------------------------- */

/* The platforms' names, "A, B", and whether one is NVIDIA's. */
static void platform_names(const cl_platform_id *ids, cl_uint n, char *names, size_t size,
                           int *nvidia)
{
    *nvidia = 0;
    names[0] = '\0';
    for (cl_uint p = 0; p < n; ++p) {
        char name[128] = "", vendor[128] = "";
        info_field(ids[p], NULL, CL_PLATFORM_NAME, name, sizeof name, NULL);
        info_field(ids[p], NULL, CL_PLATFORM_VENDOR, vendor, sizeof vendor, NULL);
        if (strstr(name, "NVIDIA") || strstr(vendor, "NVIDIA"))
            *nvidia = 1;
        const size_t used = strlen(names);
        snprintf(names + used, size - used, "%s%s", used ? ", " : "", name);
    }
}

/* NVIDIA's driver ships its OpenCL ICD but containers and minimal installs
 * often lack /etc/OpenCL/vendors/nvidia.icd, and then the loader silently
 * shows only the other platforms (or none). Detect it by loading the ICD
 * library directly, and say how to register it. */
static void nvidia_notice(const char *names, int nvidia_listed, char *notice,
                          unsigned notice_size)
{
    if (nvidia_listed || notice_size == 0)
        return;
    void *lib = dlopen(OCL_NVIDIA_ICD, RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        return;
    dlclose(lib);
    char seen[200];
    if (names[0])
        snprintf(seen, sizeof seen, "only these platforms are visible: %s", names);
    else
        gs_strlcpy(seen, "no platform is visible", sizeof seen);
    snprintf(notice, notice_size,
             "NVIDIA's OpenCL driver (" OCL_NVIDIA_ICD ") is installed but not registered "
             "with the ICD loader, so %s; register it with `echo " OCL_NVIDIA_ICD
             " > /etc/OpenCL/vendors/nvidia.icd` or point OCL_ICD_VENDORS at a folder "
             "holding such a file",
             seen);
}

static int no_device(cl_uint platforms, const char *names, const char *notice,
                     struct gs_err *e)
{
    if (platforms == 0)
        return gs_err_set(e, GS_NO_DEVICE,
                          "no OpenCL platform: the ICD loader found no driver in "
                          "/etc/OpenCL/vendors (install pocl-opencl-icd for the CPU, or a GPU "
                          "vendor's OpenCL ICD)%s%s",
                          notice[0] ? "; " : "", notice);
    return gs_err_set(e, GS_NO_DEVICE, "OpenCL platforms found (%s) but none has a device%s%s",
                      names, notice[0] ? "; " : "", notice);
}

static int list_platforms(cl_platform_id **ids, cl_uint *n, struct gs_err *e)
{
    *ids = NULL;
    *n = 0;
    cl_int rc = clGetPlatformIDs(0, NULL, n);
    if (rc == CL_PLATFORM_NOT_FOUND_KHR || (rc == CL_SUCCESS && *n == 0)) {
        *n = 0;
        return GS_OK; /* the loader found no ICD: no_device() explains */
    }
    int st = OCL(e, rc);
    if (st != GS_OK)
        return st;
    *ids = calloc(*n, sizeof **ids);
    if (!*ids)
        return gs_err_set(e, GS_NOMEM, "opencl: out of memory");
    return OCL(e, clGetPlatformIDs(*n, *ids, NULL));
}

static int ocl_open(struct gs_device_list *list, char *notice, unsigned notice_size,
                    struct gs_err *e)
{
    cl_platform_id *ids = NULL;
    cl_uint n = 0;
    char names[256];
    char local_notice[512] = "";
    int nvidia = 0, opened = 0;
    if (notice_size)
        notice[0] = '\0';
    int st = list_platforms(&ids, &n, e);
    if (st != GS_OK)
        goto out;
    platform_names(ids, n, names, sizeof names, &nvidia);
    nvidia_notice(names, nvidia, local_notice, sizeof local_notice);
    struct gs_err skipped = {0};
    for (cl_uint p = 0; st == GS_OK && p < n; ++p)
        st = open_platform(ids[p], p, list, &skipped, e);
    opened = gs_device_list_count(list);
    if (st == GS_OK && opened == 0 && skipped.status != GS_OK)
        st = gs_err_set(e, skipped.status, "%s", skipped.msg);
    else if (st == GS_OK && opened == 0)
        st = no_device(n, names, local_notice, e);
    if (st == GS_OK && skipped.status != GS_OK) {
        const size_t len = strlen(local_notice);
        snprintf(local_notice + len, sizeof local_notice - len, "%s%.300s", len ? "; " : "",
                 skipped.msg);
    }
    if (st != GS_OK)
        goto out;
    if (notice_size)
        gs_strlcpy(notice, local_notice, notice_size);
out:
    free(ids);
    return st;
}

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
                 OCL_CPU_BLOCKS_PER_UNIT);
        return OCL_CPU_BLOCKS_PER_UNIT;
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

static int ocl_blocks_per_unit(struct gs_device *dev, enum gs_kernel_id kernel, unsigned block,
                               unsigned *blocks, char *rule, unsigned rule_size,
                               struct gs_err *e)
{
    const struct ocl_device *d = (const struct ocl_device *)dev;
    if ((unsigned)kernel >= GS_KERNEL_COUNT)
        return gs_err_set(e, GS_USAGE, "opencl: unknown kernel %d", (int)kernel);
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

static int ocl_predicts_accept(const struct gs_device *dev, const struct gs_launch *l, char *why,
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

/* ---- Buffers ------------------------------------------------------------- */

static int ocl_alloc(struct gs_device *dev, struct gs_buf *buf, struct gs_err *e)
{
    struct ocl_device *d = (struct ocl_device *)dev;
    const size_t size = buf->bytes < 4 ? 4 : (size_t)buf->bytes;
    cl_int rc = CL_SUCCESS;
    cl_mem *mem = &((struct ocl_buf *)buf)->mem;
    return OCL(e, (*mem = clCreateBuffer(d->context, CL_MEM_READ_WRITE, size, NULL, &rc), rc));
}

static int ocl_write(struct gs_device *dev, struct gs_buf *buf, uint64_t offset,
                     const void *src, uint64_t bytes, struct gs_err *e)
{
    struct ocl_device *d = (struct ocl_device *)dev;
    return OCL(e, clEnqueueWriteBuffer(d->queue, mem_of(buf), CL_TRUE, (size_t)offset,
                                       (size_t)bytes, src, 0, NULL, NULL));
}

static int ocl_read(struct gs_device *dev, struct gs_buf *buf, uint64_t offset, void *dst,
                    uint64_t bytes, struct gs_err *e)
{
    struct ocl_device *d = (struct ocl_device *)dev;
    return OCL(e, clEnqueueReadBuffer(d->queue, mem_of(buf), CL_TRUE, (size_t)offset,
                                      (size_t)bytes, dst, 0, NULL, NULL));
}

/* The helper kernel `name` of kernels/opencl_only.cl, created once. */
static int helper_kernel(struct ocl_device *d, cl_kernel *k, const char *name, struct gs_err *e)
{
    cl_int rc = CL_SUCCESS;
    if (*k)
        return GS_OK;
    return OCL(e, (*k = clCreateKernel(d->program, name, &rc), rc));
}

/* Not clEnqueueFillBuffer: see gs_fill_u32 in kernels/opencl_only.cl. */
static int ocl_fill32(struct gs_device *dev, struct gs_buf *buf, uint64_t offset,
                      uint64_t bytes, uint32_t pattern, struct gs_err *e)
{
    struct ocl_device *d = (struct ocl_device *)dev;
    const cl_ulong first = offset / 4, count = bytes / 4;
    const cl_uint value = pattern;
    int st = helper_kernel(d, &d->fill, "gs_fill_u32", e);
    if (st != GS_OK || count == 0)
        return st;
    /* Whole work-groups; enough of them to fill the device, no more. */
    const size_t local = dev->max_block < 256 ? dev->max_block : 256;
    size_t groups = (size_t)((count + local - 1) / local);
    const size_t most = (size_t)dev->compute_units * (dev->is_gpu ? 8 : 4);
    if (groups > most)
        groups = most;
    const size_t global = groups * local;
    const cl_mem mem = mem_of(buf);
    if ((st = OCL(e, clSetKernelArg(d->fill, 0, sizeof mem, &mem))) != GS_OK ||
        (st = OCL(e, clSetKernelArg(d->fill, 1, sizeof first, &first))) != GS_OK ||
        (st = OCL(e, clSetKernelArg(d->fill, 2, sizeof count, &count))) != GS_OK ||
        (st = OCL(e, clSetKernelArg(d->fill, 3, sizeof value, &value))) != GS_OK ||
        (st = OCL(e, clEnqueueNDRangeKernel(d->queue, d->fill, 1, NULL, &global, &local, 0,
                                            NULL, NULL))) != GS_OK)
        return st;
    return OCL(e, clFinish(d->queue));
}

/* Page-locked staging, the way OpenCL offers it: a buffer the driver
 * allocates in host memory (CL_MEM_ALLOC_HOST_PTR), mapped once and kept
 * mapped; NVIDIA's driver moves data from such memory at full PCIe speed. */
static int ocl_staging_alloc(struct gs_device *dev, uint64_t bytes, void **ptr, void **handle,
                             struct gs_err *e)
{
    struct ocl_device *d = (struct ocl_device *)dev;
    cl_int rc = CL_SUCCESS;
    cl_mem mem = NULL;
    int st = OCL(e, (mem = clCreateBuffer(d->context, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR,
                                          (size_t)bytes, NULL, &rc),
                     rc));
    if (st != GS_OK)
        return st;
    void *p = NULL;
    st = OCL(e, (p = clEnqueueMapBuffer(d->queue, mem, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0,
                                        (size_t)bytes, 0, NULL, NULL, &rc),
                 rc));
    if (st != GS_OK) {
        clReleaseMemObject(mem);
        return st;
    }
    *ptr = p;
    *handle = mem;
    return GS_OK;
}

static void ocl_staging_free(struct gs_device *dev, void *ptr, void *handle)
{
    struct ocl_device *d = (struct ocl_device *)dev;
    cl_mem mem = handle;
    if (OCL(NULL, clEnqueueUnmapMemObject(d->queue, mem, ptr, 0, NULL, NULL)) == GS_OK)
        (void)OCL(NULL, clFinish(d->queue));
    clReleaseMemObject(mem);
}

/* OpenCL has no free-memory query (CL_DEVICE_GLOBAL_FREE_MEMORY_AMD is one
 * vendor's); a CPU device's buffers are this machine's memory. */
static int ocl_mem_available(struct gs_device *dev, uint64_t *bytes, struct gs_err *e)
{
    *bytes = 0;
    if (dev->is_gpu)
        return gs_err_set(e, GS_UNSUPPORTED, "opencl: no free-memory query for %s", dev->name);
    *bytes = gs_host_available_memory();
    return *bytes ? GS_OK : gs_err_set(e, GS_UNSUPPORTED, "opencl: available memory unknown");
}

static void ocl_free(struct gs_device *dev, struct gs_buf *buf)
{
    (void)dev;
    clReleaseMemObject(mem_of(buf));
}

/* ---- Launch and copy ----------------------------------------------------- */

/* The command's duration by the device's clock. */
static int event_ms(cl_event ev, double *ms, struct gs_err *e)
{
    cl_ulong start = 0, end = 0;
    int st;
    if ((st = OCL(e, clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof start,
                                             &start, NULL))) != GS_OK ||
        (st = OCL(e, clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof end, &end,
                                             NULL))) != GS_OK)
        return st;
    *ms = end > start ? (double)(end - start) / 1e6 : 0.0;
    return GS_OK;
}

static int set_args(cl_kernel k, const struct gs_launch *l, struct gs_err *e)
{
    /* A NULL buffer (b of a copy kernel) is passed as a NULL __global pointer. */
    const cl_mem a = mem_of(l->a), b = mem_of(l->b), out = mem_of(l->out);
    const cl_ulong n = l->n, param = l->param;
    int st;
    if ((st = OCL(e, clSetKernelArg(k, 0, sizeof a, &a))) != GS_OK ||
        (st = OCL(e, clSetKernelArg(k, 1, sizeof b, &b))) != GS_OK ||
        (st = OCL(e, clSetKernelArg(k, 2, sizeof out, &out))) != GS_OK ||
        (st = OCL(e, clSetKernelArg(k, 3, sizeof n, &n))) != GS_OK ||
        (st = OCL(e, clSetKernelArg(k, 4, sizeof param, &param))) != GS_OK)
        return st;
    return GS_OK;
}

/* Whether an enqueue error is the API refusing the launch's shape, rather
 * than a broken object or an exhausted host: those are errors, not results. */
static int is_refusal(cl_int rc)
{
    switch (rc) {
    case CL_INVALID_COMMAND_QUEUE:
    case CL_INVALID_KERNEL:
    case CL_INVALID_CONTEXT:
    case CL_INVALID_KERNEL_ARGS:
    case CL_INVALID_PROGRAM_EXECUTABLE:
    case CL_INVALID_EVENT_WAIT_LIST:
    case CL_INVALID_MEM_OBJECT:
    case CL_OUT_OF_HOST_MEMORY:
    case CL_MEM_OBJECT_ALLOCATION_FAILURE:
        return 0;
    default:
        return 1;
    }
}

static void record_refusal(cl_int rc, size_t global, size_t local, struct gs_launch_result *r)
{
    const struct ocl_error *err = ocl_error(rc);
    gs_refusal(r, rc, err->name, "clEnqueueNDRangeKernel(global %zu, local %zu): %s", global,
               local, err->text);
}

/* Another build of the same source (kernels/gs_kernels.h), compiled with
 * -D`define`, whose kernels are named <name>`suffix`: built on its first
 * launch, since most runs never need it. */
static int variant_kernel(struct ocl_device *d, cl_program *program, cl_kernel *kernels,
                          const char *define, const char *suffix, enum gs_kernel_id k,
                          cl_kernel *out, struct gs_err *e)
{
    cl_int rc = CL_SUCCESS;
    int st;
    if (!*program) {
        char options[160];
        const char *src = gs_opencl_source;
        snprintf(options, sizeof options, "%s%s-D%s", d->build_options,
                 d->build_options[0] ? " " : "", define);
        if ((st = OCL(e, (*program = clCreateProgramWithSource(d->context, 1, &src, NULL, &rc),
                          rc))) != GS_OK)
            return st;
        if ((st = OCL(e, clBuildProgram(*program, 1, &d->id, options, NULL, NULL))) != GS_OK) {
            append_build_log(d, *program, options, e);
            clReleaseProgram(*program);
            *program = NULL;
            return st;
        }
    }
    if (!kernels[k]) {
        char name[96];
        snprintf(name, sizeof name, "%s%s", ocl_kernel_names[k], suffix);
        if ((st = OCL(e, (kernels[k] = clCreateKernel(*program, name, &rc), rc))) != GS_OK)
            return st;
    }
    *out = kernels[k];
    return GS_OK;
}

/* The kernel of the build that launch l asks for. */
static int launch_kernel(struct ocl_device *d, const struct gs_launch *l, cl_kernel *out,
                         struct gs_err *e)
{
    switch (gs_launch_build(l)) {
    case GS_BUILD_COUNT:
        return variant_kernel(d, &d->count_program, d->count_kernels, "GS_COUNT_BUILD", "_count",
                              l->kernel, out, e);
    case GS_BUILD_TRACE:
        return variant_kernel(d, &d->trace_program, d->trace_kernels, "GS_TRACE_BUILD", "_trace",
                              l->kernel, out, e);
    case GS_BUILD_F64:
        return variant_kernel(d, &d->f64_program, d->f64_kernels, "GS_F64_BUILD", "_f64",
                              l->kernel, out, e);
    default:
        *out = d->kernels[l->kernel];
        return GS_OK;
    }
}

static int ocl_launch(struct gs_device *dev, const struct gs_launch *l, int timed,
                      struct gs_launch_result *r, struct gs_err *e)
{
    struct ocl_device *d = (struct ocl_device *)dev;
    if ((unsigned)l->kernel >= GS_KERNEL_COUNT)
        return gs_err_set(e, GS_USAGE, "opencl: unknown kernel %d", (int)l->kernel);
    const size_t global = (size_t)l->global, local = (size_t)l->block;
    if (global != l->global || local != l->block)
        return gs_err_set(e, GS_USAGE, "opencl: launch shape exceeds the host's size_t");
    cl_kernel k = NULL;
    int st = launch_kernel(d, l, &k, e);
    if (st == GS_OK)
        st = set_args(k, l, e);
    if (st != GS_OK)
        return st;
    cl_event ev = NULL;
    /* A 2D launch: global (x, rows), local (x, 1). */
    const size_t global2[2] = {global, l->grid_y ? (size_t)l->grid_y : 1};
    const size_t local2[2] = {local, 1};
    const cl_uint dims = l->grid_y > 1 ? 2 : 1;
    /* Not through OCL(): a refused shape is the result being measured. */
    const cl_int rc = clEnqueueNDRangeKernel(d->queue, k, dims, NULL, global2, local2, 0, NULL,
                                             timed ? &ev : NULL);
    if (rc != CL_SUCCESS && is_refusal(rc)) {
        record_refusal(rc, global, local, r);
        return GS_OK;
    }
    st = OCL(e, rc);
    if (st == GS_OK)
        st = OCL(e, clFinish(d->queue));
    if (st == GS_OK && timed)
        st = event_ms(ev, &r->ms, e);
    if (ev)
        clReleaseEvent(ev);
    if (st == GS_OK)
        r->accepted = 1;
    return st;
}

/* ---- Grid probe ---------------------------------------------------------- */

#define OCL_PROBE_ITEM ((1ull << 32) + 5) /* a work-item past 2^32, as measured */

static int probe_skip(struct gs_grid_probe *p, const char *why)
{
    p->status = GS_UNSUPPORTED;
    gs_strlcpy(p->why, why, sizeof p->why);
    return GS_OK;
}

/* One launch of 2^32 + local work-items of kernels/probe_opencl.cl, whose
 * work-item OCL_PROBE_ITEM reports what the work-item functions return. */
static int probe_launch(struct ocl_device *d, cl_mem mem, struct gs_grid_probe *p,
                        struct gs_err *e)
{
    const cl_ulong item = OCL_PROBE_ITEM;
    const size_t global = (size_t)p->global, local = (size_t)p->local;
    int st;
    if ((st = OCL(e, clSetKernelArg(d->probe, 0, sizeof mem, &mem))) != GS_OK ||
        (st = OCL(e, clSetKernelArg(d->probe, 1, sizeof item, &item))) != GS_OK)
        return st;
    const cl_int rc =
        clEnqueueNDRangeKernel(d->queue, d->probe, 1, NULL, &global, &local, 0, NULL, NULL);
    if (rc != CL_SUCCESS && is_refusal(rc)) {
        char why[160];
        snprintf(why, sizeof why, "the driver refused the probe's %zu work-items: %s", global,
                 ocl_error(rc)->name);
        return probe_skip(p, why);
    }
    cl_ulong out[4];
    if ((st = OCL(e, rc)) != GS_OK || (st = OCL(e, clFinish(d->queue))) != GS_OK ||
        (st = OCL(e, clEnqueueReadBuffer(d->queue, mem, CL_TRUE, 0, sizeof out, out, 0, NULL,
                                         NULL))) != GS_OK)
        return st;
    p->status = GS_OK;
    p->global_size = out[0];
    p->global_id = out[1];
    p->groups_x_local = out[2];
    p->prelude_T = out[3];
    return GS_OK;
}

/* 2^32 work-items take milliseconds on a GPU and hours on a simulator that
 * reports a GPU (oclgrind): launch only what can finish. Launches of 2^16,
 * then 2^20 and 2^24 work-items (none of them the probe's item, so nothing
 * is written), each only while the last took under a second, are timed on
 * the host; the largest says how long 2^32 would take. */
#define OCL_PROBE_BUDGET_S 10.0

static double probe_seconds(const struct timespec *t0)
{
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    return (double)(t1.tv_sec - t0->tv_sec) + (double)(t1.tv_nsec - t0->tv_nsec) / 1e9;
}

static int probe_affordable(struct ocl_device *d, cl_mem mem, struct gs_grid_probe *p,
                            int *ok, struct gs_err *e)
{
    const cl_ulong item = OCL_PROBE_ITEM;
    const size_t local = (size_t)p->local;
    double s = 0.0, whole = 0.0;
    int bits = 0, st;
    *ok = 0;
    if ((st = OCL(e, clSetKernelArg(d->probe, 0, sizeof mem, &mem))) != GS_OK ||
        (st = OCL(e, clSetKernelArg(d->probe, 1, sizeof item, &item))) != GS_OK)
        return st;
    /* One group first, untimed: the first launch also pays for setting up. */
    for (int b = 0; b <= 24; b += b ? 4 : 16) {
        const size_t global = b ? (size_t)1 << b : local;
        struct timespec t0;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        const cl_int rc =
            clEnqueueNDRangeKernel(d->queue, d->probe, 1, NULL, &global, &local, 0, NULL, NULL);
        if (rc != CL_SUCCESS && is_refusal(rc))
            return probe_skip(p, "the driver refused the probe's timing launch");
        if ((st = OCL(e, rc)) != GS_OK || (st = OCL(e, clFinish(d->queue))) != GS_OK)
            return st;
        s = probe_seconds(&t0);
        if (!b)
            continue;
        bits = b;
        whole = s * (double)(1ull << (32 - b));
        if (whole <= OCL_PROBE_BUDGET_S || s * 16 > 1.0)
            break;
    }
    if (whole <= OCL_PROBE_BUDGET_S) {
        *ok = 1;
        return GS_OK;
    }
    char why[160];
    snprintf(why, sizeof why, "2^%d work-items took %.2f s here: 2^32 would take about %.0f s",
             bits, s, whole);
    return probe_skip(p, why);
}

static int ocl_probe_grid(struct gs_device *dev, struct gs_grid_probe *p, struct gs_err *e)
{
    struct ocl_device *d = (struct ocl_device *)dev;
    cl_int rc = CL_SUCCESS;
    int st;
    if (!dev->is_gpu)
        return probe_skip(p, "a CPU device: 2^32 work-items would run for minutes there");
    if (d->address_bits < 64)
        return probe_skip(p, "the device's size_t is narrower than 64 bits");
    if ((st = helper_kernel(d, &d->probe, "gs_probe_grid", e)) != GS_OK)
        return st;
    size_t wg = 0;
    if ((st = OCL(e, clGetKernelWorkGroupInfo(d->probe, d->id, CL_KERNEL_WORK_GROUP_SIZE,
                                              sizeof wg, &wg, NULL))) != GS_OK)
        return st;
    p->local = 256;
    while (p->local > 1 && p->local > wg)
        p->local /= 2;
    p->global = (1ull << 32) + p->local; /* a whole number of groups, past 2^32 */
    p->item = OCL_PROBE_ITEM;
    if (p->global / p->local > dev->max_grid)
        return probe_skip(p, "2^32 work-items is more work-groups than the suite sends here");
    const cl_ulong unset[4] = {~0ull, ~0ull, ~0ull, ~0ull};
    cl_mem mem = NULL;
    if ((st = OCL(e, (mem = clCreateBuffer(d->context, CL_MEM_READ_WRITE, sizeof unset, NULL,
                                           &rc),
                      rc))) != GS_OK)
        return st;
    st = OCL(e, clEnqueueWriteBuffer(d->queue, mem, CL_TRUE, 0, sizeof unset, unset, 0, NULL,
                                     NULL));
    int affordable = 0;
    if (st == GS_OK)
        st = probe_affordable(d, mem, p, &affordable, e);
    if (st == GS_OK && affordable)
        st = probe_launch(d, mem, p, e);
    clReleaseMemObject(mem);
    return st;
}

static int ocl_copy(struct gs_device *dev, struct gs_buf *dst, struct gs_buf *src,
                    uint64_t bytes, double *ms, struct gs_err *e)
{
    struct ocl_device *d = (struct ocl_device *)dev;
    cl_event ev = NULL;
    int st = OCL(e, clEnqueueCopyBuffer(d->queue, mem_of(src), mem_of(dst), 0, 0, (size_t)bytes,
                                        0, NULL, &ev));
    if (st == GS_OK)
        st = OCL(e, clWaitForEvents(1, &ev));
    if (st == GS_OK)
        st = event_ms(ev, ms, e);
    if (ev)
        clReleaseEvent(ev);
    return st;
}

/* ---- User kernels --------------------------------------------------------- */

/* `gridstride check`: a user's OpenCL C, or the portable dialect after the
 * OpenCL prelude, built by the driver like the suite's own kernels (same
 * build options), with its own program and kernel object. */

extern const char gs_opencl_prelude[]; /* kernels/prelude_opencl.h, embedded */

struct gs_user_kernel {
    cl_program program;
    cl_kernel kernel;
};

static void ocl_user_free(struct gs_device *dev, struct gs_user_kernel *k)
{
    (void)dev;
    if (!k)
        return;
    if (k->kernel)
        clReleaseKernel(k->kernel);
    if (k->program)
        clReleaseProgram(k->program);
    free(k);
}

/* The program's build log, whole, in malloc'd memory (NULL when none). */
static char *user_build_log(const struct ocl_device *d, cl_program program)
{
    size_t len = 0;
    if (clGetProgramBuildInfo(program, d->id, CL_PROGRAM_BUILD_LOG, 0, NULL, &len) != CL_SUCCESS)
        return NULL;
    char *log = calloc(1, len + 1);
    if (log && clGetProgramBuildInfo(program, d->id, CL_PROGRAM_BUILD_LOG, len, log, NULL) !=
                   CL_SUCCESS)
        log[0] = '\0';
    return log;
}

static int user_compile_program(struct ocl_device *d, const struct gs_user_source *src,
                                struct gs_user_kernel *k, struct gs_build_info *info,
                                struct gs_err *e)
{
    const char *prelude = src->dialect == GS_DIALECT_PORTABLE ? gs_opencl_prelude : NULL;
    char *text = gs_user_text(src, prelude);
    if (!text)
        return gs_err_set(e, GS_NOMEM, "opencl: out of memory");
    cl_int rc = CL_SUCCESS;
    const char *sources[] = {text};
    int st = OCL(e, (k->program = clCreateProgramWithSource(d->context, 1, sources, NULL, &rc), rc));
    free(text);
    if (st != GS_OK)
        return st;
    snprintf(info->compiler, sizeof info->compiler, "clBuildProgram on %.60s, %.100s%s%.20s",
             d->base.platform, d->base.api_version, d->build_options[0] ? ", " : "",
             d->build_options);
    rc = clBuildProgram(k->program, 1, &d->id, d->build_options, NULL, NULL);
    info->log = user_build_log(d, k->program);
    /* NVIDIA's compiler ignores #line and says "<kernel>:13:25". */
    if (info->log)
        info->log = gs_user_map_log(info->log, "<kernel>", gs_user_text_offset(prelude), src->path);
    if (rc == CL_BUILD_PROGRAM_FAILURE)
        return gs_err_set(e, GS_BUILD, "%s does not compile as OpenCL C on %s", src->path,
                          d->base.name);
    return OCL(e, rc);
}

/* clCreateKernel's answer for the entry, and its parameters: OpenCL tells
 * their count, and clSetKernelArg refuses an argument of the wrong size. */
static int user_find_entry(struct gs_user_kernel *k, const struct gs_user_source *src,
                           struct gs_err *e)
{
    cl_int rc = CL_SUCCESS;
    k->kernel = clCreateKernel(k->program, src->entry, &rc);
    if (rc == CL_INVALID_KERNEL_NAME) {
        char names[160] = "";
        clGetProgramInfo(k->program, CL_PROGRAM_KERNEL_NAMES, sizeof names, names, NULL);
        return gs_user_no_entry(src, names, e);
    }
    int st = OCL(e, rc);
    cl_uint count = 0;
    if (st == GS_OK)
        st = OCL(e, clGetKernelInfo(k->kernel, CL_KERNEL_NUM_ARGS, sizeof count, &count, NULL));
    if (st != GS_OK)
        return st;
    if (count != 4)
        return gs_user_bad_params(src, (int)count, -1, e);
    const cl_mem none = NULL;
    const cl_ulong n = 0;
    for (cl_uint i = 0; i < 4; ++i) {
        rc = i < 3 ? clSetKernelArg(k->kernel, i, sizeof none, &none)
                   : clSetKernelArg(k->kernel, i, sizeof n, &n);
        if (rc == CL_INVALID_ARG_SIZE || rc == CL_INVALID_ARG_VALUE)
            return gs_user_bad_params(src, 4, (int)i, e);
        if ((st = OCL(e, rc)) != GS_OK)
            return st;
    }
    return GS_OK;
}

static int ocl_user_build(struct gs_device *dev, const struct gs_user_source *src,
                          struct gs_user_kernel **out, struct gs_build_info *info,
                          struct gs_err *e)
{
    struct ocl_device *d = (struct ocl_device *)dev;
    if (src->dialect == GS_DIALECT_CUDA)
        return gs_err_set(e, GS_UNSUPPORTED, "opencl cannot build CUDA C++ (%s)", src->path);
    struct gs_user_kernel *k = calloc(1, sizeof *k);
    if (!k)
        return gs_err_set(e, GS_NOMEM, "opencl: out of memory");
    int st = user_compile_program(d, src, k, info, e);
    if (st == GS_OK)
        st = user_find_entry(k, src, e);
    if (st != GS_OK) {
        ocl_user_free(dev, k);
        return st;
    }
    *out = k;
    return GS_OK;
}

/* A fault shows when the queue drains: NVIDIA answers CL_OUT_OF_RESOURCES
 * (or an event error) for a kernel that touched an illegal address. */
static int user_wait(struct ocl_device *d, struct gs_err *e)
{
    const int st = OCL(e, clFinish(d->queue));
    if (st == GS_API && e)
        e->status = GS_FAULT;
    return st == GS_API ? GS_FAULT : st;
}

static int ocl_user_launch(struct gs_device *dev, const struct gs_launch *l,
                           struct gs_launch_result *r, struct gs_err *e)
{
    struct ocl_device *d = (struct ocl_device *)dev;
    const size_t global = (size_t)l->global, local = (size_t)l->block;
    const cl_mem a = mem_of(l->a), b = mem_of(l->b), out = mem_of(l->out);
    const cl_ulong n = l->n;
    cl_kernel k = l->user->kernel;
    int st;
    if ((st = OCL(e, clSetKernelArg(k, 0, sizeof a, &a))) != GS_OK ||
        (st = OCL(e, clSetKernelArg(k, 1, sizeof b, &b))) != GS_OK ||
        (st = OCL(e, clSetKernelArg(k, 2, sizeof out, &out))) != GS_OK ||
        (st = OCL(e, clSetKernelArg(k, 3, sizeof n, &n))) != GS_OK)
        return st;
    if (local == 0) /* undefined in OpenCL (see ocl_launch); --shape never asks for it */
        return gs_err_set(e, GS_USAGE, "opencl: a user kernel needs a local size of 1 or more");
    const cl_int rc = clEnqueueNDRangeKernel(d->queue, k, 1, NULL, &global, &local, 0, NULL, NULL);
    if (rc != CL_SUCCESS && is_refusal(rc)) {
        record_refusal(rc, global, local, r);
        return GS_OK;
    }
    st = OCL(e, rc);
    if (st == GS_OK)
        st = user_wait(d, e);
    r->accepted = st == GS_OK;
    return st;
}

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
