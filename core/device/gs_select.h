/* SPDX-License-Identifier: MIT */
/* Opening a backend and choosing its devices: shared by the CLI and tests. */
#ifndef GS_SELECT_H
#define GS_SELECT_H

#include "gs_backend.h"

struct gs_opened {
    const struct gs_backend *backend;
    struct gs_device **devs;
    int count;
    int status;        /* GS_OK, or why there is no device (GS_NO_DEVICE, ...) */
    struct gs_err err; /* the reason when status != GS_OK */
    char notice[512];  /* a non-fatal problem the backend found, or "" */
};

/* Check the backend's required members and open it. Never fails outright: o->status says. */
void gs_open_backend(const struct gs_backend *b, struct gs_opened *o);
void gs_close_backend(struct gs_opened *o);

/* Choose devices of an opened backend. sel NULL or "": the default device
 * (the first GPU, else the first device). "all": every device. Else an index
 * ("0"), an id ("1:0") or a case-insensitive substring of the name. Returns
 * GS_USAGE, naming the devices there are, when nothing matches. */
int gs_select_devices(const struct gs_opened *o, const char *sel, struct gs_device **out,
                      int max_out, int *n_out, struct gs_err *e);

/* What gs_select_devices can refuse before any backend is opened: an index
 * out of range. GS_OK for NULL and every other selector. */
int gs_device_selector_check(const char *sel, struct gs_err *e);

#endif
