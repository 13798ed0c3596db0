/* SPDX-License-Identifier: MIT */
/* When and with what this run was made: the header of results files. */
#ifndef GS_RUN_H
#define GS_RUN_H

#include <stddef.h>

/* The C compiler and each backend's toolkit, from CMake (gs_toolkit_string). */
#ifndef GS_TOOLKIT
#error "GS_TOOLKIT must be defined by the build"
#endif

/* Now, in UTC, ISO 8601: "2026-11-30T09:20:00Z". */
void gs_utc_now(char *buf, size_t size);

#endif
