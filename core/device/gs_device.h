/* SPDX-License-Identifier: MIT */
/* How the core calls a backend: small wrappers that check the ABI version and
 * NULL members, and answer GS_UNSUPPORTED rather than crash (the pattern of
 * SQLite's os.c and the Khronos ICD loader's dispatch). Nothing outside a
 * backend calls its function pointers but these wrappers and the open and
 * close of core/device/gs_select.c. They also do what every backend would
 * otherwise repeat: buffer records and range checks, kernel-id checks, and
 * never sending a launch marked GS_NOT_SENT. */
#ifndef GS_DEVICE_H
#define GS_DEVICE_H

#include "gs_backend.h"

/* GS_OK when the backend's ABI is one the core understands. */
int gs_backend_check(const struct gs_backend *b, struct gs_err *e);

/* 1 when d runs the double build (ABI 3, GS_CAP_F64); else 0, and why gets
 * the reason in words: what the API reports (gs_device.no_f64), or that
 * the backend has no double build. gs_dev_launch() refuses a double launch
 * with the same reason. */
int gs_dev_has_f64(const struct gs_device *d, char *why, unsigned why_size);

int gs_dev_blocks_per_unit(struct gs_device *d, enum gs_kernel_id k, unsigned block,
                           unsigned *blocks, char *rule, unsigned rule_size, struct gs_err *e);
int gs_dev_predicts_accept(const struct gs_device *d, const struct gs_launch *l, char *why,
                           unsigned why_size);
int gs_dev_alloc(struct gs_device *d, uint64_t bytes, struct gs_buf **buf, struct gs_err *e);
int gs_dev_write(struct gs_device *d, struct gs_buf *buf, uint64_t offset, const void *src,
                 uint64_t bytes, struct gs_err *e);
int gs_dev_read(struct gs_device *d, struct gs_buf *buf, uint64_t offset, void *dst,
                uint64_t bytes, struct gs_err *e);
void gs_dev_free(struct gs_device *d, struct gs_buf *buf);
int gs_dev_launch(struct gs_device *d, const struct gs_launch *l, int timed,
                  struct gs_launch_result *r, struct gs_err *e);
/* The launch that will really run for l (ABI 2, grant): for a backend whose
 * API treats the shape as an upper bound, l's grid, block and global become
 * the grant the backend measured for that shape, and asked_grid and
 * asked_block keep what is asked. Unchanged for every other backend, for a
 * launch predicted refused or not sent (nothing runs), and for one granted
 * already. Call it before gs_predict(): the model predicts what runs. */
int gs_dev_grant(struct gs_device *d, struct gs_launch *l, struct gs_err *e);
int gs_dev_copy(struct gs_device *d, struct gs_buf *dst, struct gs_buf *src, uint64_t bytes,
                double *ms, struct gs_err *e);

/* Optional members (ABI 2): GS_UNSUPPORTED when the backend lacks them. */
int gs_dev_fill32(struct gs_device *d, struct gs_buf *buf, uint64_t offset, uint64_t bytes,
                  uint32_t pattern, struct gs_err *e);
/* Page-locked host memory where the backend has it, else plain malloc'ed
 * memory (*pinned says which); release with gs_dev_staging_free. */
int gs_dev_staging_alloc(struct gs_device *d, uint64_t bytes, void **ptr, void **handle,
                         int *pinned, struct gs_err *e);
void gs_dev_staging_free(struct gs_device *d, void *ptr, void *handle, int pinned);
int gs_dev_mem_available(struct gs_device *d, uint64_t *bytes, struct gs_err *e);
/* The grid probe's answer, measured once per device and kept: *p points
 * into d. p->status says whether it was measured. Errors are API failures. */
int gs_dev_probe_grid(struct gs_device *d, const struct gs_grid_probe **p, struct gs_err *e);

/* ---- ABI 2: user kernels. Each answers GS_UNSUPPORTED for a backend built
 * before ABI 2 or one that leaves the member NULL. gs_dev_launch() sends a
 * launch whose `user` is set to user_launch(). */

/* 1 when the backend can build user kernels at all. */
int gs_backend_has_user_kernels(const struct gs_backend *b);
/* The dialects its user_build takes: bit (1 << enum gs_dialect) each; 0
 * before ABI 2. */
unsigned gs_backend_user_dialects(const struct gs_backend *b);
int gs_dev_user_build(struct gs_device *d, const struct gs_user_source *src,
                      struct gs_user_kernel **k, struct gs_build_info *info, struct gs_err *e);
void gs_dev_user_free(struct gs_device *d, struct gs_user_kernel *k);
/* No device needed: the backend's compiler alone, for a named target. */
int gs_backend_user_compile(const struct gs_backend *b, const struct gs_user_source *src,
                            const char *target, struct gs_build_info *info, struct gs_err *e);
void gs_build_info_free(struct gs_build_info *info);

/* ---- ABI 3: per-unit finish times (`gridstride bandwidth --spread`) ---- */

/* GS_OK when d can record a timeline; else GS_UNSUPPORTED, with the reason
 * in why: the device's own no_timeline when it gives one, else that the
 * backend has no timeline member or predates ABI 3. */
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

#endif
