/* SPDX-License-Identifier: MIT */
/* The backend interface: everything a GPU API has to provide to the suite.
 *
 * A backend is one `const struct gs_backend` of function pointers, defined in
 * its own folder (tests/stub_backend/ is the template to copy) and registered
 * by its CMakeLists.txt: gs_add_backend(<name> <library> <symbol>). The core
 * never includes a GPU header; backends never include each other or the
 * reports. What several backends share is in backend_common/.
 *
 * Conventions for every method:
 *   - returns GS_OK or another gs_status, and on failure fills `e` with one
 *     line naming the API call, file:line and the API's own error name;
 *   - never prints, never exits, never aborts;
 *   - every call blocks until its work is complete unless it says otherwise.
 *
 * There is no version number. Every backend is compiled in this tree and
 * linked into the same program, so the compiler checks each one against this
 * header: a member that changes its type breaks the backend's build, not a
 * run. Members above the line "optional" are required (the core refuses a
 * backend without one when it opens it); an optional member may be NULL, and
 * the core reaches it only through the wrappers in gs_device.h, which answer
 * GS_UNSUPPORTED for a NULL member. */
#ifndef GS_BACKEND_H
#define GS_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "gs_catalog.h"
#include "gs_status.h"

struct gs_backend;
struct gs_device_list; /* the core's list that open() adds devices to */
struct gs_user_kernel; /* a user kernel built by user_build(), defined by each backend */
struct gs_device_core; /* the core's own state of a device (core/device/gs_device.h) */

/* Capability bits in gs_device.caps. */
#define GS_CAP_TIMING 0x1u       /* launch() can time with device timers */
#define GS_CAP_COPY 0x2u         /* copy(): the API's own device-to-device copy */
#define GS_CAP_RAGGED_GLOBAL 0x4u /* the API can express a global size that is not a
                                     multiple of the block (OpenCL's NDRange) */
#define GS_CAP_2D 0x8u            /* launch() honours gs_launch.grid_y */
#define GS_CAP_COUNT 0x10u        /* launch() runs the count build for gs_launch.count */
#define GS_CAP_TRACE 0x20u        /* launch() runs the trace build for gs_launch.trace */
#define GS_CAP_F64 0x80u          /* launch() runs the double build for gs_launch.type */

/* The element type of a launch's a, b and out: float (4 bytes) or
 * double (8 bytes). The kernels' text is the same (kernels/gs_kernels.h's
 * gs_real); the double build is compiled with GS_F64_BUILD defined. */
enum gs_type { GS_TYPE_FLOAT, GS_TYPE_DOUBLE };

/* Bytes of one element. */
static inline unsigned gs_type_size(enum gs_type t)
{
    return t == GS_TYPE_DOUBLE ? 8u : 4u;
}

/* "float" or "double", as --type takes it and reports print it. */
static inline const char *gs_type_name(enum gs_type t)
{
    return t == GS_TYPE_DOUBLE ? "double" : "float";
}

/* What the API's own work-item functions return in a launch of 2^32 threads
 * or more, measured (NVIDIA's OpenCL returns get_global_size(0) modulo 2^32).
 * The prelude's T is computed from quantities that are right; `prelude_T`
 * proves it on the device. */
struct gs_grid_probe {
    int status;              /* GS_OK: measured; GS_UNSUPPORTED: not probed (why says) */
    uint64_t global;         /* work-items launched */
    uint64_t local;          /* work-group size */
    uint64_t item;           /* the work-item that reported */
    uint64_t global_size;    /* get_global_size(0) as it returned */
    uint64_t global_id;      /* get_global_id(0) of `item` */
    uint64_t groups_x_local; /* get_num_groups(0) * get_local_size(0), in 64 bits */
    uint64_t prelude_T;      /* GS_GRID_THREADS() of the suite's prelude */
    char why[200];           /* when not probed: why */
};

/* A device buffer. The core allocates buffer_size bytes (the backend's own
 * struct, whose first member is this one), records the size asked for and
 * checks every access against it before the backend sees it, and frees the
 * buffers a device still holds when it is closed. */
struct gs_buf {
    struct gs_device *dev;
    uint64_t bytes;             /* the whole allocation, front included; may be 0 */
    /* Bytes before the kernel's view, set by the core before alloc (0 for
     * most buffers): a launch passes the address `front` bytes into the
     * allocation (OpenCL: a sub-buffer from there), so that a kernel's write
     * before its array's start lands in a guard the core reads back. The
     * offsets of read, write and fill32 below are from the allocation's
     * start, front included (the core adds it); copy copies from the start. */
    uint64_t front;
    struct gs_buf *prev, *next; /* the device's live buffers (the core's) */
};

/* The core's view of one device. A backend's device struct starts with this
 * as its first member, so the core can hold it without knowing the backend
 * (SQLite's `sqlite3_file base`); GS_DEVICE_STRUCT() below checks that when
 * the backend compiles. The backend's open() writes every field but the
 * first two, which the core sets; the core keeps its own state of the device
 * (the grid probe's answer, the live buffers) apart, behind `core`. Strings
 * are empty when unknown. */
struct gs_device {
    const struct gs_backend *backend; /* set by the core */
    int index;              /* set by the core: position in the backend's list, as --device
                               takes it */
    char id[32];            /* how --device names it: "0", or "1:0" for platform:device */
    char name[128];         /* "NVIDIA H200" */
    char platform[128];     /* OpenCL platform, "CUDA", "host" */
    char api_version[128];  /* "CUDA runtime 13.0, driver 13.0", "OpenCL 3.0 CUDA 13.0.88" */
    char driver_version[64];
    char arch[64];          /* "compute capability 9.0", "OpenCL C 1.2" */
    int is_gpu;             /* preferred by the default device choice */
    unsigned compute_units; /* SMs, compute units, CPU cores */
    unsigned max_block;     /* largest block (work-group) the kernels may be launched with,
                               as the device reports it for them */
    unsigned max_block_device; /* largest block the device takes at all (it may run the
                                  kernels beyond max_block: a measured deviation) */
    uint64_t max_grid;      /* largest number of blocks in x */
    uint64_t global_mem;    /* bytes */
    uint64_t max_alloc;     /* largest single buffer, bytes */
    uint64_t peak_bytes_per_s; /* theoretical memory bandwidth, 0 when the API does not say */
    char peak_rule[128];    /* how peak_bytes_per_s was computed */
    unsigned caps;          /* GS_CAP_* */
    char pci[24];           /* PCI address, "0000:17:00.0", when the API reports one: the
                               same GPU seen through two APIs has the same address */
    char no_bandwidth[200]; /* why `gridstride bandwidth` leaves this device out (its
                               times would not compare with the other APIs'); empty:
                               it is measured when it has GS_CAP_TIMING */
    char no_f64[160];       /* why the device has no GS_CAP_F64 when the API says so ("the
                               device reports no double precision"); empty when it has the
                               cap, or when the backend has no double build at all */
    char no_timeline[200];  /* why this device cannot record a timeline (the backend has
                               timeline() but this device cannot serve it, or the backend
                               has none and says why); empty: it can when the backend has
                               timeline() */
    struct gs_device_core *core; /* the core's; a backend never touches it */
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
    /* Each behind a capability bit; the core sends none of them to a
     * device without it. */
    uint64_t grid_y; /* blocks along y (GS_CAP_2D); 0 or 1: a 1D launch */
    int count;       /* run the count build (GS_CAP_COUNT): out holds 32-bit counters
                        that each GS_STORE increments (kernels/gs_kernels.h) */
    int trace;       /* run the trace build (GS_CAP_TRACE): out holds a record of four
                        32-bit words per element, the write count and the lowest
                        writer and its pass (kernels/gs_kernels.h); never with count */
    /* When set, launch this user kernel (user_launch) with (a, b, out, n);
     * `kernel` then only names the owner map the verifier uses. */
    struct gs_user_kernel *user;
    /* Set by the core (gs_dev_grant) for a backend with grant(): the
     * shape asked of the API, whose runtime treats it as an upper bound.
     * grid, block and global above are then the grant measured before the
     * launch, which the model predicts from and the verifier maps owners
     * with; launch() asks for asked_grid x asked_block. 0: run as above. */
    uint64_t asked_grid, asked_block;
    /* The element type of a, b and out (GS_CAP_F64 for double): the
     * double build runs, over n elements of 8 bytes. Never with count or
     * trace, which count in 32-bit words. 0 (GS_TYPE_FLOAT): float. */
    enum gs_type type;
};

/* Which build of kernels/ a launch runs: backends keep one kernel table per
 * build and index it with gs_launch_build(). GS_BUILD_F64 is the
 * plain build in double (GS_F64_BUILD); there is no count or trace build in
 * double. */
enum gs_build { GS_BUILD_PLAIN, GS_BUILD_COUNT, GS_BUILD_TRACE, GS_BUILD_F64, GS_BUILDS };

static inline enum gs_build gs_launch_build(const struct gs_launch *l)
{
    if (l->trace)
        return GS_BUILD_TRACE;
    if (l->count)
        return GS_BUILD_COUNT;
    return l->type == GS_TYPE_DOUBLE ? GS_BUILD_F64 : GS_BUILD_PLAIN;
}

/* When each compute unit (an SM) finished its share of one launch,
 * recorded on the device by the timeline build of kernels/ (CUDA:
 * kernels/timeline_cuda.cuh): the first block that starts on a unit records
 * the unit's start and counts its blocks, and every warp records its finish,
 * all from one clock that every unit reads (CUDA's %globaltimer). Times are
 * nanoseconds after the launch's first start, as the device clock counts
 * them; its resolution is the device's. */
#define GS_TIMELINE_MAX_UNITS 1024

struct gs_timeline_unit {
    unsigned id;       /* the API's own number of the unit (CUDA's %smid) */
    unsigned blocks;   /* blocks of the launch that ran on it */
    uint64_t start_ns; /* its first block's start */
    uint64_t end_ns;   /* its last warp's finish */
};

struct gs_timeline {
    unsigned nunits; /* units that ran at least one block: the entries of unit[] */
    struct gs_timeline_unit unit[GS_TIMELINE_MAX_UNITS]; /* in any order */
    unsigned resident_per_unit; /* blocks of the timeline build one unit holds at once at
                                   this block size, as the API reports it; 0: unknown */
    double ms;                  /* the launch's duration by the API's own timer (events) */
    char clock[96];             /* what the times were read from: "%globaltimer" */
};

/* What the API should do with a launch, as predicts_accept() answers. */
enum gs_accept {
    GS_REFUSES = 0, /* the API should refuse it; it is still sent, to record what the API says */
    GS_ACCEPTS = 1, /* the API should run it */
    GS_NOT_SENT = 2 /* never sent: a cap of the suite's own (a grid a CPU would run for
                       hours), not a rule of the API; the core does not call launch() */
};

/* What the API said about a launch. A refusal is a result, not an error. */
struct gs_launch_result {
    int accepted;            /* 1: the API accepted the launch and it ran to completion */
    int not_sent;            /* 1: the core did not send it (GS_NOT_SENT, or a launch the
                                model says cannot finish); api_message says why */
    long api_code;           /* the API's own code for a refusal (cudaError_t, cl_int) */
    char api_error[64];      /* its name: "cudaErrorInvalidConfiguration", "CL_INVALID_GLOBAL_WORK_SIZE" */
    char api_message[160];   /* its description, as the API gives it, or the rule that refused */
    double ms;               /* device-timed duration, when timing was asked for; else 0 */
    /* From a backend with grant(): the grid and block the runtime
     * really ran, read inside the launch (granted_block 0: its blocks were
     * not all the same size). The prediction holds only if they are the
     * grant it was made from. 0 for other backends. */
    uint64_t granted_grid, granted_block;
};

/* A user's kernel, as `gridstride check` read it from a file. */
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

/* What building a user kernel said. */
struct gs_build_info {
    char compiler[256]; /* which compiler, version and target: "NVRTC 13.0 for sm_90" */
    char *log;          /* the compiler's messages (malloc'd, the caller frees), or NULL */
};

struct gs_backend {
    const char *name;        /* "host", "cuda", "opencl": the --backend name */
    const char *description; /* one line for --list */
    /* Sizes of the backend's device and buffer structs, whose first members
     * are struct gs_device and struct gs_buf (GS_DEVICE_STRUCT and GS_BUF_STRUCT check it):
     * the core allocates (zeroed) and frees both (SQLite's szOsFile). */
    size_t device_size;
    size_t buffer_size;

    /* Discover devices: for each, gs_device_list_add() gives a zeroed object
     * of device_size bytes to fill. When the API or its driver is absent or
     * has no device, returns GS_NO_DEVICE and says why and how to fix it in
     * e (the devices added so far are released). A non-fatal problem found
     * on the way (a driver installed but not registered) goes into notice,
     * one line, else notice[0] = 0. */
    int (*open)(struct gs_device_list *list, char *notice, unsigned notice_size,
                struct gs_err *e);
    /* 1 when open() may run in a thread of its own, beside the other
     * backends' opens, and the devices then be used from other threads: the
     * API keeps no state in the thread that opened it (CUDA's backend makes
     * its device current in each thread it is used from). 0 (the default):
     * open() runs in the thread that uses the backend (an OpenCL platform
     * such as PoCL sets up per-thread state, a signal stack, in the thread
     * that first calls it). */
    int open_any_thread;
    /* Free what the backend made for one device (contexts, queues,
     * programs); the core has freed the device's buffers before and frees
     * the device object after. NULL when there is nothing to free. */
    void (*release)(struct gs_device *dev);

    /* Resident blocks per compute unit for `kernel` at `block` threads, and
     * one line saying how it was derived (occupancy API or the rule used). */
    int (*blocks_per_unit)(struct gs_device *dev, enum gs_kernel_id kernel, unsigned block,
                           unsigned *blocks, char *rule, unsigned rule_size, struct gs_err *e);

    /* What the API should do with this launch shape on this device, from the
     * limits and version the device reports (not from trying it): an enum
     * gs_accept. why gets the rule that decided: always for GS_REFUSES and
     * GS_NOT_SENT, and for GS_ACCEPTS when an API-specific rule allowed it
     * (an empty NDRange); else it stays empty. */
    int (*predicts_accept)(const struct gs_device *dev, const struct gs_launch *l, char *why,
                           unsigned why_size);

    /* Device buffers. alloc makes the API's buffer of buf->bytes bytes (at
     * least one byte, so every buffer is a distinct valid address) behind
     * buf, which the core allocated with buffer_size bytes; contents are
     * undefined; where buf->front is not 0, alloc also makes whatever its
     * launches pass for the view from there (an OpenCL sub-buffer; a pointer
     * API adds front at the launch). write and read copy `bytes` at byte
     * `offset` of the allocation and block until done; the core has checked
     * the range. free releases the API's buffer (and view); the core frees
     * buf. */
    int (*alloc)(struct gs_device *dev, struct gs_buf *buf, struct gs_err *e);
    int (*write)(struct gs_device *dev, struct gs_buf *buf, uint64_t offset, const void *src,
                 uint64_t bytes, struct gs_err *e);
    int (*read)(struct gs_device *dev, struct gs_buf *buf, uint64_t offset, void *dst,
                uint64_t bytes, struct gs_err *e);
    void (*free)(struct gs_device *dev, struct gs_buf *buf);

    /* Launch and wait for completion. GS_OK when the API answered, whether
     * it accepted (r->accepted = 1) or refused the launch (r->accepted = 0,
     * with its error). Any other failure (the kernel faulted, the device was
     * lost) is an error status in e. With `timed` (and GS_CAP_TIMING), r->ms
     * is the kernel's duration measured by device timers. A refusal must not
     * leave state behind that fails the next call. The kernel is that of the
     * build gs_launch_build(l) names: the normal, count, trace or double
     * build. */
    int (*launch)(struct gs_device *dev, const struct gs_launch *l, int timed,
                  struct gs_launch_result *r, struct gs_err *e);

    /* ---- optional: the members below may be NULL ---- */

    /* The API's own device-to-device copy of `bytes` (range checked by the
     * core), timed by device timers (cudaMemcpy, clEnqueueCopyBuffer): the
     * bandwidth ceiling. */
    int (*copy)(struct gs_device *dev, struct gs_buf *dst, struct gs_buf *src, uint64_t bytes,
                double *ms, struct gs_err *e);

    /* Fill `bytes` (a multiple of 4) at byte `offset` with the 32-bit
     * `pattern`, with the API's own fill (cuMemsetD32, clEnqueueFillBuffer),
     * blocking. The core proves the fill by reading a sample back. */
    int (*fill32)(struct gs_device *dev, struct gs_buf *buf, uint64_t offset, uint64_t bytes,
                  uint32_t pattern, struct gs_err *e);
    /* Host memory for transfers that the API moves at full speed
     * (page-locked). *ptr is owned by the backend until staging_free(ptr,
     * handle); handle is the backend's, opaque to the core. */
    int (*staging_alloc)(struct gs_device *dev, uint64_t bytes, void **ptr, void **handle,
                         struct gs_err *e);
    void (*staging_free)(struct gs_device *dev, void *ptr, void *handle);
    /* Page-lock `bytes` of this process's memory at ptr in place, so that
     * reads into it move at full speed as into staging memory
     * (cudaHostRegister); undone by unpin(ptr) before the memory is
     * unmapped. May be called from a thread other than the one that opened
     * the device (check's worker pins its shared memory while it builds).
     * Optional, both or neither: without them, reads into ptr run at the
     * API's speed for pageable memory. */
    int (*pin)(struct gs_device *dev, void *ptr, uint64_t bytes, struct gs_err *e);
    void (*unpin)(struct gs_device *dev, void *ptr);
    /* Device memory free for new buffers now, in bytes. */
    int (*mem_available)(struct gs_device *dev, uint64_t *bytes, struct gs_err *e);
    /* Launch the grid probe (2^32 threads or more) and fill *p; or set
     * p->status = GS_UNSUPPORTED with why, when the device should not run it
     * (a CPU device, a grid beyond the device). Errors are API failures. */
    int (*probe_grid)(struct gs_device *dev, struct gs_grid_probe *p, struct gs_err *e);
    /* ---- optional: user kernels (`gridstride check`) ---- */

    /* Bit (1u << enum gs_dialect) for each dialect user_build() takes;
     * 0 when the backend builds no user kernel. */
    unsigned user_dialects;

    /* Build src's kernel for dev. GS_OK: *k is owned by the caller until
     * user_free(). GS_BUILD: the compiler refused the source; info->log has its
     * messages, line numbers pointing into src->path. GS_USAGE: it compiled, but
     * the entry is missing, is not a kernel, or takes other parameters (e says
     * which, in one line). GS_UNSUPPORTED: this backend cannot build the
     * dialect (e says why). info->compiler is filled whenever a compiler ran. */
    int (*user_build)(struct gs_device *dev, const struct gs_user_source *src,
                      struct gs_user_kernel **k, struct gs_build_info *info, struct gs_err *e);
    /* launch() for l->user, with arguments (a, b, out, n); timed (only
     * asked of a device with GS_CAP_TIMING): r->ms by the same device timer
     * as launch()'s, so that a user kernel and the suite's time alike.
     * One outcome more: a kernel that faulted (an illegal address) is GS_FAULT
     * with the API's error in e, and the device may refuse every later call. */
    int (*user_launch)(struct gs_device *dev, const struct gs_launch *l, int timed,
                       struct gs_launch_result *r, struct gs_err *e);
    /* Free what user_build() made; accepts NULL. */
    void (*user_free)(struct gs_device *dev, struct gs_user_kernel *k);
    /* Optional: who writes what, for l->user's launch, counted without any
     * change to the user's stores: the launch's threads one at a time, each
     * on a freshly poisoned output, and for every element i < l->n the
     * number of threads that wrote it (count[i]) and the first and last of
     * them in launch order (first[i], last[i]; linear thread ids, which stay
     * below 2^32: the core asks for no larger launch). Only a backend that
     * can run one thread of a launch alone has it (the host's sequential
     * threads); NULL: check says the writes of a user kernel are not counted
     * there. A fault is GS_FAULT, as in user_launch(). */
    int (*user_count)(struct gs_device *dev, const struct gs_launch *l, uint32_t *count,
                      uint32_t *first, uint32_t *last, struct gs_err *e);
    /* Compile src for a named target ("sm_75") with no device or
     * driver, and discard the result: proves the compile path where no GPU
     * is. Statuses as user_build(). */
    int (*user_compile)(const struct gs_user_source *src, const char *target,
                        struct gs_build_info *info, struct gs_err *e);

    /* ---- optional: a launch shape that is only an upper bound ---- */

    /* For an API whose runtime chooses the final launch (OpenMP:
     * num_teams and thread_limit are upper bounds), the *grid and *block it
     * will run for l's grid x block, measured before l is launched (a
     * launch of the same code that only reads them, kept per shape), never
     * inferred from l's result. Called only for a launch predicts_accept()
     * accepts. launch() then reports what it ran in r->granted_grid and
     * r->granted_block. NULL: the API runs the shape it is asked. */
    int (*grant)(struct gs_device *dev, const struct gs_launch *l, uint64_t *grid,
                 uint64_t *block, struct gs_err *e);

    /* ---- optional: per-unit finish times ---- */

    /* Run l (a 1D launch of the normal kernel's arguments, which
     * predicts_accept() accepts) in the timeline build, timed by the API's
     * own timer too, and fill *t (zeroed by the core) with every unit that
     * ran a block. The output is written as by launch(): the core verifies
     * it. r and the return value as for launch(). Called only for a device
     * whose no_timeline is empty; a device of this backend that cannot
     * (another vendor's GPU) says why in no_timeline. NULL: the backend
     * cannot, and each of its devices says why in no_timeline. */
    int (*timeline)(struct gs_device *dev, const struct gs_launch *l,
                    struct gs_launch_result *r, struct gs_timeline *t, struct gs_err *e);

    /* ---- optional: hardware counters (`gridstride check`'s counters pass) ---- */

    /* Read nmetrics of the API's named hardware metrics (names in the API's
     * profiler's spelling) for each kernel that run(ctx) launches on dev:
     * one range a launch, in launch order, values[r * nmetrics + m] for
     * r < *nranges <= max_ranges. Everything that can be made ready is made
     * before run is called (run waits until the GPU is free of timed work,
     * then launches; its failure is returned as it is). `library`: the
     * profiler's library to load, or NULL for the backend's own search.
     * source gets what read them, with its version ("CUPTI 13.0 range
     * profiler"). GS_UNSUPPORTED (e says why and how to fix it) when the
     * profiler cannot be loaded. Called only in check's counters worker,
     * never in the process that gives the verdict, and today only for a .cu
     * kernel on the CUDA backend (GS_COUNTERS_METRICS are NVIDIA's metric
     * names; another API's would need its own list there). NULL: check reads the
     * counters with an outside profiler where it has one (Nsight Compute for
     * CUDA), or says that there are none. */
    int (*counters)(struct gs_device *dev, const char *library, const char *const *metrics,
                    int nmetrics, int (*run)(void *ctx, struct gs_err *e), void *ctx,
                    double *values, int max_ranges, int *nranges, char *source,
                    size_t source_size, struct gs_err *e);
};

/* A backend's device and buffer structs, checked when it compiles: each
 * starts with the core's part (`base`), so that the core's pointer to it is
 * the backend's. Write one line after each struct definition and set
 * device_size and buffer_size to their sizes:
 *   GS_DEVICE_STRUCT(struct stub_device);
 *   GS_BUF_STRUCT(struct stub_buf); */
#define GS_DEVICE_STRUCT(type)                                                               \
    _Static_assert(offsetof(type, base) == 0 &&                                              \
                       _Generic(&((type *)0)->base, struct gs_device *: 1, default: 0),       \
                   #type " must start with struct gs_device base")
#define GS_BUF_STRUCT(type)                                                                  \
    _Static_assert(offsetof(type, base) == 0 &&                                              \
                       _Generic(&((type *)0)->base, struct gs_buf *: 1, default: 0),          \
                   #type " must start with struct gs_buf base")

/* ---- services of the core for backends ---------------------------------- */

/* open(): a new device object, zeroed, of the backend's device_size bytes,
 * appended to the list, with base.backend and base.index set. NULL (and
 * GS_NOMEM in e) when out of memory. */
struct gs_device *gs_device_list_add(struct gs_device_list *list, struct gs_err *e);
/* How many devices the list holds. */
int gs_device_list_count(const struct gs_device_list *list);

/* A failed API call, in the one form every backend reports: "CALL at
 * FILE:LINE: NAME (CODE): MESSAGE". file is __FILE__, which the build
 * makes relative to the project (-fmacro-prefix-map). Returns status. */
int gs_api_error(struct gs_err *e, int status, const char *call, const char *file, int line,
                 const char *name, long code, const char *message);

/* launch(): the API refused the launch; its own code, error name and a
 * message (printf-style) are the result. */
void gs_refusal(struct gs_launch_result *r, long code, const char *name, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

#endif
