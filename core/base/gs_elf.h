/* SPDX-License-Identifier: MIT */
/* What in an ELF shared object runs by itself when the loader maps it: the
 * host backend reads the object its compiler made from a user's file before
 * dlopen(), so that none of the file's code runs before the first launch
 * (a constructor could answer check's channel or start a thread). */
#ifndef GS_ELF_H
#define GS_ELF_H

#include <stddef.h>

/* 0 when the 64-bit little-endian ELF object data[0, len) has nothing the
 * loader runs: no non-empty .init, .fini, .init_array, .fini_array,
 * .preinit_array, .ctors or .dtors section, no DT_INIT, DT_FINI,
 * DT_INIT_ARRAY, DT_FINI_ARRAY or DT_PREINIT_ARRAY in its dynamic segment,
 * no IFUNC symbol and no IRELATIVE relocation (whose resolver runs at load).
 * 1 when it has one, -1 when it is not such an object or a table lies
 * outside it; `why` (size bytes) says what, in words. */
int gs_elf_load_time_code(const void *data, size_t len, char *why, size_t size);

#endif
