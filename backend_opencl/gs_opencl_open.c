/* SPDX-License-Identifier: MIT */
/* The OpenCL backend's discovery: every platform and device the ICD loader
 * knows, described from what each reports, the kernels of kernels/ built for
 * each, and the NVIDIA ICD trap (a driver installed but not registered). */
#include <dirent.h>
#include <dlfcn.h>
#include <sys/resource.h>

#include "gs_opencl_private.h"

#define OCL_MAX_GRID 0x7fffffffull /* CUDA's grid limit; OpenCL has none of its own */
#define OCL_NVIDIA_ICD "libnvidia-opencl.so.1"

const char *const ocl_kernel_names[GS_KERNEL_COUNT] = {
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
        (st = ocl_build(d, src, d->build_options, &d->program, e)) != GS_OK)
        return st;
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
    if (!d->base.is_gpu && d->base.max_grid > GS_CPU_MAX_GRID)
        d->base.max_grid = GS_CPU_MAX_GRID;
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

void ocl_release(struct gs_device *dev)
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

/* How many .icd files the loader's folder lists. */
static int icd_files(const char *folder)
{
    DIR *d = opendir(folder);
    int n = 0;
    if (!d)
        return 0;
    for (struct dirent *de; (de = readdir(d)) != NULL;) {
        const size_t len = strlen(de->d_name);
        n += len > 4 && strcmp(de->d_name + len - 4, ".icd") == 0;
    }
    closedir(d);
    return n;
}

/* An address-space limit under which a listed driver did not load: a CPU
 * driver maps hundreds of MiB at load (PoCL's LLVM), so under `ulimit -v`
 * the loader finds no platform although one is installed. */
#define OCL_AS_NEEDED (1ull << 30)
static int no_platform_under_limit(const char *folder, struct gs_err *e)
{
    struct rlimit as;
    if (icd_files(folder) == 0 || getrlimit(RLIMIT_AS, &as) != 0 || as.rlim_cur == RLIM_INFINITY ||
        (uint64_t)as.rlim_cur >= OCL_AS_NEEDED)
        return 0;
    gs_err_set(e, GS_NO_DEVICE,
               "no OpenCL platform loaded: %.*s%s lists a driver, but this process's address "
               "space is limited to %llu MiB (ulimit -v), less than an OpenCL driver maps as it "
               "loads; raise the limit (ulimit -v unlimited, or at least %llu MiB)",
               GS_ECHO(folder), (unsigned long long)(as.rlim_cur >> 20),
               (unsigned long long)(OCL_AS_NEEDED >> 20));
    return 1;
}

static int no_device(cl_uint platforms, const char *names, const char *notice,
                     struct gs_err *e)
{
    /* The ICD loader reads OCL_ICD_VENDORS (a folder, or one .icd file)
     * instead of /etc/OpenCL/vendors when it is set. */
    const char *vendors = getenv("OCL_ICD_VENDORS");
    if (platforms == 0 && no_platform_under_limit(vendors && vendors[0] ? vendors
                                                                         : "/etc/OpenCL/vendors",
                                                  e))
        return GS_NO_DEVICE;
    if (platforms == 0 && vendors && vendors[0])
        return gs_err_set(e, GS_NO_DEVICE,
                          "no OpenCL platform: the ICD loader looked only in OCL_ICD_VENDORS="
                          "%.*s%s, which it reads instead of /etc/OpenCL/vendors, and found no "
                          "driver there; put a vendor's .icd file there, or unset "
                          "OCL_ICD_VENDORS%s%s",
                          GS_ECHO(vendors), notice[0] ? "; " : "", notice);
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

int ocl_open(struct gs_device_list *list, char *notice, unsigned notice_size,
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

