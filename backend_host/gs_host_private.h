/* SPDX-License-Identifier: MIT */
/* What the host backend's files share: its buffer record, and the user
 * kernels of `gridstride check` (gs_host_user.c), which the backend's table
 * in gs_host.c names. */
#ifndef GS_HOST_PRIVATE_H
#define GS_HOST_PRIVATE_H

#include "gs_backend.h"
#include "gs_user.h"

/* The backend's buffer: the core's record first (size, list), then ours. */
struct host_buf {
    struct gs_buf base;
    void *data;
};
GS_BUF_STRUCT(struct host_buf);

static inline void *data_of(const struct gs_buf *b)
{
    return ((const struct host_buf *)b)->data;
}

/* What a launch passes: the view (gs_buf.front bytes in). */
static inline void *view_of(const struct gs_buf *b)
{
    return (char *)((const struct host_buf *)b)->data + b->front;
}

/* The launch rules (gs_host.c), which a user kernel's launch keeps too. */
int host_predicts_accept(const struct gs_device *dev, const struct gs_launch *l, char *why,
                         unsigned why_size);
int host_user_build(struct gs_device *dev, const struct gs_user_source *src,
                    struct gs_user_kernel **k, struct gs_build_info *info, struct gs_err *e);
/* user_count(): one thread at a time on a poisoned output (check's worker only). */
int host_user_count(struct gs_device *dev, const struct gs_launch *l, uint32_t *count,
                    uint32_t *first, uint32_t *last, struct gs_err *e);
int host_user_launch(struct gs_device *dev, const struct gs_launch *l, int timed,
                     struct gs_launch_result *r, struct gs_err *e);
void host_user_free(struct gs_device *dev, struct gs_user_kernel *k);

#endif
