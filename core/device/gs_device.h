/* SPDX-License-Identifier: MIT */
/* How the core calls a backend: small wrappers that check for NULL members
 * and answer GS_UNSUPPORTED rather than crash (the pattern of
 * SQLite's os.c and the Khronos ICD loader's dispatch). Nothing outside a
 * backend calls its function pointers but these wrappers and the open and
 * close of core/device/gs_select.c. They also do what every backend would
 * otherwise repeat: buffer records and range checks, kernel-id checks, and
 * never sending a launch marked GS_NOT_SENT. */
#ifndef GS_DEVICE_H
#define GS_DEVICE_H

#include "gs_backend.h"

/* The core's own state of a device, which no backend reads or writes
 * (gs_device.core): allocated with the device by gs_device_list_add() and
 * freed with it. Read it through the functions below. */
struct gs_device_core {
    int probed;                 /* probe holds the answer (gs_dev_probe_grid) */
    struct gs_grid_probe probe;
    struct gs_buf *buffers;     /* live buffers */
};

/* GS_OK when the backend has every required member and its device and
 * buffer structs hold at least the core's part; else GS_BAD_BACKEND with
 * what it lacks. The compiler has checked the rest (gs_backend.h). */
int gs_backend_check(const struct gs_backend *b, struct gs_err *e);

/* ---- what a backend offers: the CLI asks these, never the members ------- */

/* 1 when the backend records per-unit finish times (timeline()). */
int gs_backend_has_timeline(const struct gs_backend *b);
/* 1 when the backend can build user kernels at all. */
int gs_backend_has_user_kernels(const struct gs_backend *b);
/* Bit (1u << enum gs_dialect) for each dialect the backend's user_build()
 * takes; 0 when it builds none. */
unsigned gs_backend_user_dialects(const struct gs_backend *b);
/* 1 when the backend builds and runs user kernels of dialect d. */
int gs_backend_builds_dialect(const struct gs_backend *b, enum gs_dialect d);
/* 1 when the backend compiles user kernels with no device
 * (gs_backend_user_compile). */
int gs_backend_can_compile_user(const struct gs_backend *b);

/* ---- the core's state of a device ---------------------------------------- */

/* The grid probe's answer once gs_dev_probe_grid() has measured it; NULL
 * before (or for a device not opened through the core). */
const struct gs_grid_probe *gs_dev_probed(const struct gs_device *d);
/* How many buffers the device holds now. */
int gs_dev_buffers_held(const struct gs_device *d);
/* Free every buffer the device still holds. */
void gs_dev_free_all(struct gs_device *d);

/* 1 when d runs the double build (GS_CAP_F64); else 0, and why gets
 * the reason in words: what the API reports (gs_device.no_f64), or that
 * the backend has no double build. gs_dev_launch() refuses a double launch
 * with the same reason. */
int gs_dev_has_f64(const struct gs_device *d, char *why, unsigned why_size);

int gs_dev_blocks_per_unit(struct gs_device *d, enum gs_kernel_id k, unsigned block,
                           unsigned *blocks, char *rule, unsigned rule_size, struct gs_err *e);
int gs_dev_predicts_accept(const struct gs_device *d, const struct gs_launch *l, char *why,
                           unsigned why_size);
int gs_dev_alloc(struct gs_device *d, uint64_t bytes, struct gs_buf **buf, struct gs_err *e);
/* A buffer whose kernel view starts `front` bytes into an allocation of
 * front + view_bytes (gs_buf.front): launches get the view; gs_dev_write,
 * gs_dev_read and gs_dev_fill32 take offsets from the view's start, and the
 * front is reached only through gs_dev_front_write/read (all front bytes). */
int gs_dev_alloc_view(struct gs_device *d, uint64_t front, uint64_t view_bytes,
                      struct gs_buf **buf, struct gs_err *e);
int gs_dev_front_write(struct gs_device *d, struct gs_buf *buf, const void *src, struct gs_err *e);
int gs_dev_front_read(struct gs_device *d, struct gs_buf *buf, void *dst, struct gs_err *e);
int gs_dev_write(struct gs_device *d, struct gs_buf *buf, uint64_t offset, const void *src,
                 uint64_t bytes, struct gs_err *e);
int gs_dev_read(struct gs_device *d, struct gs_buf *buf, uint64_t offset, void *dst,
                uint64_t bytes, struct gs_err *e);
void gs_dev_free(struct gs_device *d, struct gs_buf *buf);
int gs_dev_launch(struct gs_device *d, const struct gs_launch *l, int timed,
                  struct gs_launch_result *r, struct gs_err *e);
/* A 1D launch of kernel k over n elements on grid x block threads (global =
 * grid * block), every other member zero: buffers, param and the rest are the
 * caller's to set. */
static inline struct gs_launch gs_launch_1d(enum gs_kernel_id k, uint64_t n, uint64_t grid,
                                            uint64_t block)
{
    return (struct gs_launch){.kernel = k, .n = n, .grid = grid, .block = block,
                              .global = grid * block};
}
/* The launch that will really run for l (grant): for a backend whose
 * API treats the shape as an upper bound, l's grid, block and global become
 * the grant the backend measured for that shape, and asked_grid and
 * asked_block keep what is asked. Unchanged for every other backend, for a
 * launch predicted refused or not sent (nothing runs), and for one granted
 * already. Call it before gs_predict(): the model predicts what runs. */
int gs_dev_grant(struct gs_device *d, struct gs_launch *l, struct gs_err *e);
int gs_dev_copy(struct gs_device *d, struct gs_buf *dst, struct gs_buf *src, uint64_t bytes,
                double *ms, struct gs_err *e);

/* Optional members: GS_UNSUPPORTED when the backend lacks them. */
int gs_dev_fill32(struct gs_device *d, struct gs_buf *buf, uint64_t offset, uint64_t bytes,
                  uint32_t pattern, struct gs_err *e);
/* Page-locked host memory where the backend has it, else plain malloc'ed
 * memory (*pinned says which); release with gs_dev_staging_free. */
int gs_dev_staging_alloc(struct gs_device *d, uint64_t bytes, void **ptr, void **handle,
                         int *pinned, struct gs_err *e);
void gs_dev_staging_free(struct gs_device *d, void *ptr, void *handle, int pinned);
/* Page-lock host memory in place (the backend's pin), GS_UNSUPPORTED where
 * it has none; gs_dev_unpin undoes a pin that succeeded. */
int gs_dev_pin(struct gs_device *d, void *ptr, uint64_t bytes, struct gs_err *e);
void gs_dev_unpin(struct gs_device *d, void *ptr);
int gs_dev_mem_available(struct gs_device *d, uint64_t *bytes, struct gs_err *e);
/* The grid probe's answer, measured once per device and kept: *p points
 * into d. p->status says whether it was measured. Errors are API failures. */
int gs_dev_probe_grid(struct gs_device *d, const struct gs_grid_probe **p, struct gs_err *e);

/* ---- user kernels. Each answers GS_UNSUPPORTED for a backend that leaves
 * the member NULL. gs_dev_launch() sends a launch whose `user` is set to
 * user_launch(). */

int gs_dev_user_build(struct gs_device *d, const struct gs_user_source *src,
                      struct gs_user_kernel **k, struct gs_build_info *info, struct gs_err *e);
void gs_dev_user_free(struct gs_device *d, struct gs_user_kernel *k);
/* user_count(): GS_UNSUPPORTED, naming the backend, where it is NULL. */
int gs_dev_user_count(struct gs_device *d, const struct gs_launch *l, uint32_t *count,
                      uint32_t *first, uint32_t *last, struct gs_err *e);
/* counters() (gs_backend.h): GS_UNSUPPORTED, naming the backend, where it
 * is NULL. */
int gs_dev_counters(struct gs_device *d, const char *library, const char *const *metrics,
                    int nmetrics, int (*run)(void *ctx, struct gs_err *e), void *ctx,
                    double *values, int max_ranges, int *nranges, char *source,
                    size_t source_size, struct gs_err *e);
int gs_backend_has_counters(const struct gs_backend *b);
/* No device needed: the backend's compiler alone, for a named target. */
int gs_backend_user_compile(const struct gs_backend *b, const struct gs_user_source *src,
                            const char *target, struct gs_build_info *info, struct gs_err *e);
void gs_build_info_free(struct gs_build_info *info);

/* ---- per-unit finish times (`gridstride bandwidth --spread`) ---- */

/* GS_OK when d can record a timeline; else GS_UNSUPPORTED, with the reason
 * in why: the device's own no_timeline when it gives one, else that the
 * backend has no timeline member. */
int gs_dev_timeline_check(const struct gs_device *d, char *why, unsigned why_size);
/* Run l in the timeline build (GS_UNSUPPORTED as above, with the reason in
 * e). l must be a 1D launch of a catalogue kernel that predicts_accept()
 * accepts (else GS_USAGE). When the API accepted it, the core checks the
 * record before the caller sees it: every block of the grid counted once,
 * at most compute_units units, each unit's finish at or after its start,
 * the first start at 0; a record that fails is GS_API. */
int gs_dev_timeline(struct gs_device *d, const struct gs_launch *l, struct gs_launch_result *r,
                    struct gs_timeline *t, struct gs_err *e);

/* The device grid G: resident blocks per unit x compute units, for `kernel`
 * at `block` threads. rule receives how it was derived. */
int gs_dev_grid(struct gs_device *d, enum gs_kernel_id kernel, unsigned block, uint64_t *grid,
                char *rule, unsigned rule_size, struct gs_err *e);

/* d's CTest resource id (pci_DDDD_BB_DD_F, as --device also takes it), or 0
 * when d is not a GPU or reports no PCI address. */
int gs_resource_id(const struct gs_device *d, char *buf, unsigned size);

#endif
