/* SPDX-License-Identifier: MIT */
/* What every backend needs to build a user kernel (ABI 2): the text to hand
 * its compiler, and the one-line messages for an entry that is missing, not
 * a kernel, or takes other parameters, worded the same on every API. */
#ifndef GS_USER_H
#define GS_USER_H

#include "gs_backend.h"

/* The contract: the kernel's declaration in src's dialect, with `entry`. */
void gs_user_signature(enum gs_dialect d, const char *entry, char *buf, unsigned size);

/* prelude (may be NULL), then `#line 1 "PATH"` and the file, so that the
 * compiler's line numbers point into the user's file. malloc'd; NULL when
 * out of memory. */
char *gs_user_text(const struct gs_user_source *src, const char *prelude);

/* GS_USAGE: the entry is not a kernel the compiled program exports. Whether
 * the name occurs in the file at all tells "missing" from "not a kernel".
 * kernels: the program's kernel names ("a;b"), or NULL when unknown. */
int gs_user_no_entry(const struct gs_user_source *src, const char *kernels, struct gs_err *e);

/* GS_USAGE: the kernel has `count` parameters (-1: unknown, but not the
 * contract's), or parameter `bad` (0-based; -1: none) has the wrong size. */
int gs_user_bad_params(const struct gs_user_source *src, int count, int bad, struct gs_err *e);

/* The parameters of kernel `entry` (its name in the PTX: mangled unless
 * extern "C") in PTX text, as NVRTC emits them (`.entry NAME(.param .u64
 * NAME_param_0, ...)`): their sizes in bytes into sizes[0, max); returns
 * how many there are, or -1 when the entry or its list cannot be read. */
int gs_ptx_params(const char *ptx, const char *entry, unsigned *sizes, int max);

/* GS_OK when the sizes meet the contract (four parameters of 8 bytes);
 * else gs_user_bad_params' one line. */
int gs_user_check_params(const struct gs_user_source *src, const unsigned *sizes, int count,
                         struct gs_err *e);

/* Lines of gs_user_text() before the user's first line. */
unsigned gs_user_text_offset(const char *prelude);
/* A compiler that ignores #line names the whole program ("<kernel>" on
 * NVIDIA's OpenCL) with its own line numbers: rewrite program_name:L as
 * path:(L - offset). Takes log (malloc'ed) and returns the new one. */
char *gs_user_map_log(char *log, const char *program_name, unsigned offset, const char *path);

/* The compiler's log as a report may show it: only the messages about the
 * user's file. A line at the start of a line that names `path` at a place
 * (path:, path( after an optional "error: ", "warning: ", "note: " or
 * "fatal error: ") starts a kept message; one that names any other place
 * (a name, then :N or (N) as compilers write positions) starts a message
 * that is left out, with every line after it up to the next kept one (a
 * clang or gcc excerpt of that file's line), so that nothing another file
 * holds reaches a report. Lines before any message are left out too. At
 * most GS_USER_LOG_CAP bytes are kept, cut at a line, and a last line says
 * what was left out and why. Takes log (malloc'ed, may be NULL) and returns
 * the new one (NULL when nothing is kept). */
#define GS_USER_LOG_CAP (64u << 10)
char *gs_user_own_log(char *log, const char *path);

#endif
