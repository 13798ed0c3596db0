/* The backend interface: everything a GPU API has to provide to the suite.
 *
 * A backend is one `const struct gs_backend` of function pointers, defined in
 * its own folder (backend_host/ is the template to copy) and registered by
 * its CMakeLists.txt: gs_add_backend(<name> <library> <symbol>). The core never
 * includes a GPU header; backends never include each other or the reports.
 *
 * Conventions for every method:
 *   - returns GS_OK or another gs_status, and on failure fills `e` with one
 *     line naming the API call, file:line and the API's own error name;
 *   - never prints, never exits, never aborts;
 *   - every call blocks until its work is complete unless it says otherwise.
 *
 * Versioning (SQLite's iVersion, PoCL's optional device ops): `abi` comes
 * first. Members up to the "ABI 1" mark are required. Members added later are
 * appended after it, may be NULL, and the core reaches them only through the
 * wrappers in gs_device.h, which answer GS_UNSUPPORTED for a NULL member or an
 * older ABI. */
#ifndef GS_BACKEND_H
#define GS_BACKEND_H

#include <stdint.h>

#include "gs_catalog.h"
#include "gs_status.h"

#define GS_BACKEND_ABI 2

struct gs_backend;
struct gs_buf;         /* a device buffer, defined by each backend */
struct gs_user_kernel; /* a user kernel built by user_build() (ABI 2), defined by each backend */

/* Capability bits in gs_device.caps. */
#define GS_CAP_TIMING 0x1u       /* launch() can time with device timers */
#define GS_CAP_COPY 0x2u         /* copy(): the API's own device-to-device copy */
#define GS_CAP_RAGGED_GLOBAL 0x4u /* the API can express a global size that is not a
                                     multiple of the block (OpenCL's NDRange) */

/* The core's view of one device. A backend's device struct starts with this
 * as its first member, so the core can hold it without knowing the backend
 * (SQLite's `sqlite3_file base`). Strings are empty when unknown. */
struct gs_device {
    const struct gs_backend *backend;
    int index;              /* position in the backend's list, as --device takes it */
    char id[32];            /* how --device names it: "0", or "1:0" for platform:device */
    char name[128];         /* "NVIDIA H200" */
    char platform[128];     /* OpenCL platform, "CUDA", "host" */
    char api_version[128];  /* "CUDA runtime 13.0, driver 13.0", "OpenCL 3.0 CUDA 13.0.88" */
    char driver_version[64];
    char arch[64];          /* "compute capability 9.0", "OpenCL C 1.2" */
    int is_gpu;             /* preferred by the default device choice */
    unsigned compute_units; /* SMs, compute units, CPU cores */
    unsigned max_block;     /* largest block (work-group) the kernels may be launched with */
    uint64_t max_grid;      /* largest number of blocks in x */
    uint64_t global_mem;    /* bytes */
    uint64_t max_alloc;     /* largest single buffer, bytes */
    uint64_t peak_bytes_per_s; /* theoretical memory bandwidth, 0 when the API does not say */
    char peak_rule[128];    /* how peak_bytes_per_s was computed */
    unsigned caps;          /* GS_CAP_* */
};

/* One launch: kernel, shape and arguments. */
struct gs_launch {
    enum gs_kernel_id kernel;
    uint64_t grid;   /* blocks (work-groups); 0 is legal to ask for */
    uint64_t block;  /* threads per block (local size) */
    uint64_t global; /* total threads; grid * block, except a ragged OpenCL NDRange */
    uint64_t n;      /* elements */
    uint64_t param;  /* see gs_catalog.h: chunk or stride */
    struct gs_buf *a, *b, *out;
    /* ABI 2: when set, launch this user kernel (user_launch) with (a, b, out, n);
     * `kernel` then only names the owner map the verifier uses. */
    struct gs_user_kernel *user;
};

/* What the API said about a launch. A refusal is a result, not an error. */
struct gs_launch_result {
    int accepted;            /* 1: the API accepted the launch and it ran to completion */
    long api_code;           /* the API's own code for a refusal (cudaError_t, cl_int) */
    char api_error[64];      /* its name: "cudaErrorInvalidConfiguration", "CL_INVALID_GLOBAL_WORK_SIZE" */
    char api_message[160];   /* its description, as the API gives it, or the rule that refused */
    double ms;               /* device-timed duration, when timing was asked for; else 0 */
};

/* ABI 2: a user's kernel, as `gridstride check` read it from a file. */
enum gs_dialect {
    GS_DIALECT_PORTABLE, /* kernels/' GS_* macros: the backend prepends its own prelude */
    GS_DIALECT_OPENCL,   /* OpenCL C; n is ulong */
    GS_DIALECT_CUDA      /* CUDA C++; n is size_t */
};

struct gs_user_source {
    const char *path;  /* as the user gave it: compiler messages name it */
    const char *text;  /* the whole file, NUL-terminated */
    const char *entry; /* the kernel to launch */
    enum gs_dialect dialect;
};

/* ABI 2: what building a user kernel said. */
struct gs_build_info {
    char compiler[256]; /* which compiler, version and target: "NVRTC 13.0 for sm_90" */
    char *log;          /* the compiler's messages (malloc'd, the caller frees), or NULL */
};

struct gs_backend {
    int abi;                 /* GS_BACKEND_ABI the backend was built against */
    const char *name;        /* "host", "cuda", "opencl": the --backend name */
    const char *description; /* one line for --list */

    /* Discover devices. On GS_OK, *devs is an array of *count devices owned by
     * the backend until release(). When the API or its driver is absent or has
     * no device, returns GS_NO_DEVICE and says why and how to fix it in e.
     * A non-fatal problem found on the way (a driver installed but not
     * registered) goes into notice, one line, else notice[0] = 0. */
    int (*open)(struct gs_device ***devs, int *count, char *notice, unsigned notice_size,
                struct gs_err *e);
    /* Free what open() returned. The core frees every buffer first. */
    void (*release)(struct gs_device **devs, int count);

    /* Resident blocks per compute unit for `kernel` at `block` threads, and
     * one line saying how it was derived (occupancy API or the rule used). */
    int (*blocks_per_unit)(struct gs_device *dev, enum gs_kernel_id kernel, unsigned block,
                           unsigned *blocks, char *rule, unsigned rule_size, struct gs_err *e);

    /* Whether the API should accept this launch shape on this device, from
     * the limits and version the device reports (not from trying it). Returns
     * 1 or 0; why gets the rule that decided: always when 0, and when 1 if an
     * API-specific rule allowed it (an empty NDRange), else it stays empty. */
    int (*predicts_accept)(const struct gs_device *dev, const struct gs_launch *l, char *why,
                           unsigned why_size);

    /* Device buffers. alloc leaves contents undefined; write and read copy
     * whole prefixes of `bytes` and block until done. free accepts NULL. */
    int (*alloc)(struct gs_device *dev, uint64_t bytes, struct gs_buf **buf, struct gs_err *e);
    int (*write)(struct gs_device *dev, struct gs_buf *buf, const void *src, uint64_t bytes,
                 struct gs_err *e);
    int (*read)(struct gs_device *dev, struct gs_buf *buf, void *dst, uint64_t bytes,
                struct gs_err *e);
    void (*free)(struct gs_device *dev, struct gs_buf *buf);

    /* Launch and wait for completion. GS_OK when the API answered, whether
     * it accepted (r->accepted = 1) or refused the launch (r->accepted = 0,
     * with its error). Any other failure (the kernel faulted, the device was
     * lost) is an error status in e. With `timed` (and GS_CAP_TIMING), r->ms
     * is the kernel's duration measured by device timers. A refusal must not
     * leave state behind that fails the next call. */
    int (*launch)(struct gs_device *dev, const struct gs_launch *l, int timed,
                  struct gs_launch_result *r, struct gs_err *e);

    /* ---- optional: the members below may be NULL ---- */

    /* The API's own device-to-device copy of `bytes`, timed by device timers
     * (cudaMemcpy, clEnqueueCopyBuffer): the bandwidth ceiling. */
    int (*copy)(struct gs_device *dev, struct gs_buf *dst, struct gs_buf *src, uint64_t bytes,
                double *ms, struct gs_err *e);

    /* ---- ABI 2, optional: user kernels (`gridstride check`) ---- */

    /* ABI 2. Bit (1u << enum gs_dialect) for each dialect user_build() takes;
     * 0 when the backend builds no user kernel. */
    unsigned user_dialects;

    /* ABI 2. Build src's kernel for dev. GS_OK: *k is owned by the caller until
     * user_free(). GS_BUILD: the compiler refused the source; info->log has its
     * messages, line numbers pointing into src->path. GS_USAGE: it compiled, but
     * the entry is missing, is not a kernel, or takes other parameters (e says
     * which, in one line). GS_UNSUPPORTED: this backend cannot build the
     * dialect (e says why). info->compiler is filled whenever a compiler ran. */
    int (*user_build)(struct gs_device *dev, const struct gs_user_source *src,
                      struct gs_user_kernel **k, struct gs_build_info *info, struct gs_err *e);
    /* ABI 2. launch() for l->user, with arguments (a, b, out, n), untimed.
     * One outcome more: a kernel that faulted (an illegal address) is GS_FAULT
     * with the API's error in e, and the device may refuse every later call. */
    int (*user_launch)(struct gs_device *dev, const struct gs_launch *l,
                       struct gs_launch_result *r, struct gs_err *e);
    /* ABI 2. Free what user_build() made; accepts NULL. */
    void (*user_free)(struct gs_device *dev, struct gs_user_kernel *k);
    /* ABI 2. Compile src for a named target ("sm_75") with no device or
     * driver, and discard the result: proves the compile path where no GPU
     * is. Statuses as user_build(). */
    int (*user_compile)(const struct gs_user_source *src, const char *target,
                        struct gs_build_info *info, struct gs_err *e);
};

#endif
