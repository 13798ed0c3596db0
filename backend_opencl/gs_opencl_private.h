/* SPDX-License-Identifier: MIT */
/* What the OpenCL backend's files share, and nothing outside the folder
 * includes: the device and buffer structs, the error check, and the
 * functions one file defines for another. gs_opencl.c says what the backend
 * does and holds its table; the other files are its parts:
 *   gs_opencl_error.c  the cl_int error table, the OCL() check, build logs
 *   gs_opencl_open.c   discovery, the build of kernels/, the NVIDIA ICD trap
 *   gs_opencl_rules.c  occupancy and the launch rules (predicts_accept)
 *   gs_opencl_run.c    buffers, the launch, the copy and the grid probe
 *   gs_opencl_user.c   user kernels (`gridstride check`)
 *   gs_opencl_cache.c  the build of kernels/, kept as binaries on a CPU device */
#ifndef GS_OPENCL_PRIVATE_H
#define GS_OPENCL_PRIVATE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 2.0 deprecated clCreateCommandQueue; it is still the call a 1.2 device needs. */
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <CL/cl_ext.h>

#include "gs_backend.h"
#include "gs_common.h"
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

extern const char gs_opencl_source[]; /* kernels/, embedded by embed.cmake */
extern const char gs_opencl_prelude[]; /* kernels/prelude_opencl.h, embedded */

/* ---- errors (gs_opencl_error.c) ------------------------------------------ */

struct ocl_error {
    cl_int code;
    const char *name;
    const char *text;
};

/* The name and meaning of a cl_int code ("CL_UNKNOWN_ERROR" when it is not
 * a standard one). */
const struct ocl_error *ocl_error(cl_int code);
int ocl_check(cl_int code, const char *text, const char *file, int line, struct gs_err *e);

/* Every cl* call goes through this: GS_OK, or the call, file:line and the
 * error's name in e. A call that returns an object is written
 * `OCL(e, (x = clCreateFoo(..., &rc), rc))`; the message shows clCreateFoo(...). */
#define OCL(e, call) ocl_check((call), #call, __FILE__, __LINE__, (e))

/* Whether an enqueue error is the API refusing the launch's shape (a
 * result), rather than a broken object or an exhausted host (an error). */
int is_refusal(cl_int rc);
/* The refusal of an NDRange of global x local as the launch's result. */
void record_refusal(cl_int rc, size_t global, size_t local, struct gs_launch_result *r);
/* The build log of program on device, whole, in malloc'd memory (NULL when
 * there is none to read). */
char *ocl_build_log(cl_program program, cl_device_id device);

/* ---- devices and buffers ------------------------------------------------- */

/* The backend's buffer: the core's record first (size, list), then ours. */
struct ocl_buf {
    struct gs_buf base;
    cl_mem mem;  /* at least 4 bytes: clCreateBuffer refuses 0 */
    cl_mem view; /* a sub-buffer from base.front, when that is not 0 */
};
GS_BUF_STRUCT(struct ocl_buf);

static inline cl_mem mem_of(const struct gs_buf *b)
{
    return b ? ((const struct ocl_buf *)b)->mem : NULL;
}

/* What a launch passes: the view from the buffer's front (gs_buf.front). */
static inline cl_mem view_of(const struct gs_buf *b)
{
    return b && ((const struct ocl_buf *)b)->view ? ((const struct ocl_buf *)b)->view
                                                  : mem_of(b);
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


/* Each kernel's name in kernels/gs_kernels.h, by id (gs_opencl_open.c). */
extern const char *const ocl_kernel_names[GS_KERNEL_COUNT];

/* ---- gs_opencl_open.c ---------------------------------------------------- */

int ocl_open(struct gs_device_list *list, char *notice, unsigned notice_size, struct gs_err *e);
void ocl_release(struct gs_device *dev);

/* ---- gs_opencl_cache.c --------------------------------------------------- */

/* src built with options into *out (the build log in e on failure, *out
 * NULL): from the cache's binary where it holds this very source, options,
 * driver and device, else from source, then kept there. For kernels/ only. */
int ocl_build(struct ocl_device *d, const char *src, const char *options, cl_program *out,
              struct gs_err *e);

/* ---- gs_opencl_rules.c --------------------------------------------------- */

int ocl_blocks_per_unit(struct gs_device *dev, enum gs_kernel_id kernel, unsigned block,
                        unsigned *blocks, char *rule, unsigned rule_size, struct gs_err *e);
int ocl_predicts_accept(const struct gs_device *dev, const struct gs_launch *l, char *why,
                        unsigned why_size);

/* ---- gs_opencl_run.c ----------------------------------------------------- */

int ocl_alloc(struct gs_device *dev, struct gs_buf *buf, struct gs_err *e);
int ocl_write(struct gs_device *dev, struct gs_buf *buf, uint64_t offset, const void *src,
              uint64_t bytes, struct gs_err *e);
int ocl_read(struct gs_device *dev, struct gs_buf *buf, uint64_t offset, void *dst,
             uint64_t bytes, struct gs_err *e);
void ocl_free(struct gs_device *dev, struct gs_buf *buf);
int ocl_fill32(struct gs_device *dev, struct gs_buf *buf, uint64_t offset, uint64_t bytes,
               uint32_t pattern, struct gs_err *e);
int ocl_staging_alloc(struct gs_device *dev, uint64_t bytes, void **ptr, void **handle,
                      struct gs_err *e);
void ocl_staging_free(struct gs_device *dev, void *ptr, void *handle);
int ocl_mem_available(struct gs_device *dev, uint64_t *bytes, struct gs_err *e);
int ocl_launch(struct gs_device *dev, const struct gs_launch *l, int timed,
               struct gs_launch_result *r, struct gs_err *e);
int ocl_copy(struct gs_device *dev, struct gs_buf *dst, struct gs_buf *src, uint64_t bytes,
             double *ms, struct gs_err *e);
int ocl_probe_grid(struct gs_device *dev, struct gs_grid_probe *p, struct gs_err *e);

/* ---- gs_opencl_user.c ---------------------------------------------------- */

int ocl_user_build(struct gs_device *dev, const struct gs_user_source *src,
                   struct gs_user_kernel **k, struct gs_build_info *info, struct gs_err *e);
/* A finished launch's or copy's duration by its profiling event. */
int ocl_event_ms(cl_event ev, double *ms, struct gs_err *e);
int ocl_user_launch(struct gs_device *dev, const struct gs_launch *l, int timed,
                    struct gs_launch_result *r, struct gs_err *e);
void ocl_user_free(struct gs_device *dev, struct gs_user_kernel *k);

#endif
