/* SPDX-License-Identifier: MIT */
/* The kernel catalogue: one row per kernel in kernels/gs_kernels.h.
 *
 * Every backend builds its own kernel table from this list (a function
 * pointer, a CUDA symbol, an OpenCL kernel name), so adding a kernel means one
 * body in kernels/ and one row here. The list is plain C so that the CUDA
 * translation unit can include it too.
 *
 * Columns: id, kernel symbol, short name, operation, bytes moved per element,
 * coverage rule, what the kernel's `param` argument means. */
#ifndef GS_CATALOG_H
#define GS_CATALOG_H

#define GS_KERNEL_LIST(X)                                                                     \
    X(ADD_MONO, gs_add_monolithic, "monolithic", GS_OP_ADD, 12, GS_RULE_COVER, GS_PARAM_NONE)  \
    X(ADD_GS, gs_add_grid_stride, "grid-stride", GS_OP_ADD, 12, GS_RULE_ANY, GS_PARAM_NONE)    \
    X(ADD_CHUNKED, gs_add_chunked, "chunked", GS_OP_ADD, 12, GS_RULE_ANY, GS_PARAM_CHUNK)      \
    X(ADD_GS_X4_ALIAS, gs_add_grid_stride_x4_may_alias, "grid-stride-x4-may-alias", GS_OP_ADD, \
      12, GS_RULE_ANY, GS_PARAM_NONE)                                                         \
    X(ADD_GS_X4, gs_add_grid_stride_x4, "grid-stride-x4", GS_OP_ADD, 12, GS_RULE_ANY,          \
      GS_PARAM_NONE)                                                                          \
    X(ADD_GS_X4_LF, gs_add_grid_stride_x4_loads_first, "grid-stride-x4-loads-first",          \
      GS_OP_ADD, 12, GS_RULE_ANY, GS_PARAM_NONE)                                              \
    X(ADD_WARP_X4, gs_add_warp_x4, "warp-x4", GS_OP_ADD, 12, GS_RULE_ANY, GS_PARAM_NONE)       \
    X(ADD_GS_F2, gs_add_grid_stride_float2, "grid-stride-float2", GS_OP_ADD, 12, GS_RULE_ANY,  \
      GS_PARAM_NONE)                                                                          \
    X(ADD_GS_F4, gs_add_grid_stride_float4, "grid-stride-float4", GS_OP_ADD, 12, GS_RULE_ANY,  \
      GS_PARAM_NONE)                                                                          \
    X(COPY_GS, gs_copy_grid_stride, "copy-coalesced", GS_OP_COPY, 8, GS_RULE_ANY,              \
      GS_PARAM_NONE)                                                                          \
    X(COPY_WARP_X4, gs_copy_warp_x4, "copy-warp-x4", GS_OP_COPY, 8, GS_RULE_ANY,               \
      GS_PARAM_NONE)                                                                          \
    X(COPY_GS_F4, gs_copy_grid_stride_float4, "copy-float4", GS_OP_COPY, 8, GS_RULE_ANY,       \
      GS_PARAM_NONE)                                                                          \
    X(COPY_CHUNKED, gs_copy_chunked, "copy-chunked", GS_OP_COPY, 8, GS_RULE_ANY,               \
      GS_PARAM_CHUNK)                                                                         \
    X(COPY_STRIDED, gs_copy_lane_strided, "copy-lane-strided", GS_OP_COPY, 8, GS_RULE_ANY,     \
      GS_PARAM_STRIDE)                                                                        \
    X(ADD_BLOCK_STRIDE, gs_add_block_stride, "block-stride", GS_OP_ADD, 12,                    \
      GS_RULE_BLOCK_STRIDE, GS_PARAM_NONE)                                                    \
    X(ADD_STRIDE32, gs_add_stride32, "stride-32bit", GS_OP_ADD, 12, GS_RULE_STRIDE32,          \
      GS_PARAM_NONE)                                                                          \
    X(ADD_INDEX32, gs_add_index32, "index-32bit", GS_OP_ADD, 12, GS_RULE_INDEX32,              \
      GS_PARAM_NONE)                                                                          \
    X(ADD_INT_LOOP, gs_add_int_loop, "int-loop", GS_OP_ADD, 12, GS_RULE_INT_LOOP,              \
      GS_PARAM_NONE)                                                                          \
    X(ADD_INT_LOOP_LITERAL, gs_add_int_loop_literal, "int-loop-literal", GS_OP_ADD, 12,      \
      GS_RULE_UNDEFINED, GS_PARAM_NONE)                                                       \
    X(ADD_INT_LOOP_LITERAL_O0, gs_add_int_loop_literal_o0, "int-loop-literal-O0", GS_OP_ADD,  \
      12, GS_RULE_UNDEFINED, GS_PARAM_NONE)                                                   \
    X(ADD_INT_LOOP_SIGNED, gs_add_int_loop_signed_n, "int-loop-signed-n", GS_OP_ADD, 12,       \
      GS_RULE_INT_LOOP_SIGNED, GS_PARAM_NONE)                                                 \
    X(ADD_ROWS, gs_add_rows, "row-per-block", GS_OP_ADD, 12, GS_RULE_ROWS, GS_PARAM_WIDTH)     \
    X(ADD_TILE, gs_add_tile_loop, "tile-loop", GS_OP_ADD, 12, GS_RULE_TILE, GS_PARAM_TILE)

enum gs_kernel_id {
#define GS_KERNEL_ENUM(id, sym, name, op, bytes, rule, param) GS_K_##id,
    GS_KERNEL_LIST(GS_KERNEL_ENUM)
#undef GS_KERNEL_ENUM
    GS_KERNEL_COUNT
};

enum gs_op {
    GS_OP_ADD,  /* out[i] = a[i] + b[i] */
    GS_OP_COPY  /* out[i] = a[i] */
};

/* Which elements a launch writes, and how many times: each rule has its
 * exact per-element formula in core/device/gs_model.c. */
enum gs_rule {
    GS_RULE_COVER, /* one element per thread: correct only while the launch holds >= n threads */
    GS_RULE_ANY,   /* correct under any launch of at least one thread */
    /* the pitfalls (kernels/gs_pitfalls.h) */
    GS_RULE_BLOCK_STRIDE,    /* i += blockDim.x: written min(grid, i / B + 1) times */
    GS_RULE_STRIDE32,        /* i += T mod 2^32: over-covers, or never ends at 0 */
    GS_RULE_INDEX32,         /* 32-bit index: threads past 2^32 rewrite the front */
    GS_RULE_INT_LOOP,        /* int index, unsigned n: stops at 2^31 */
    GS_RULE_INT_LOOP_SIGNED, /* int index, signed n: writes before the buffer past 2^31 */
    GS_RULE_UNDEFINED,       /* the course's literal text: undefined past 2^31, recorded only */
    GS_RULE_ROWS,            /* one block per row along y: the launch's grid_y rows */
    GS_RULE_TILE             /* block-local tile loop: covers grid x tile elements */
};

enum gs_param {
    GS_PARAM_NONE,   /* param is ignored */
    GS_PARAM_CHUNK,  /* param = C, elements per thread: the core passes ceil(n / T) */
    GS_PARAM_STRIDE, /* param = S, lane stride in elements, a power of two >= 1 */
    GS_PARAM_WIDTH,  /* param = elements per row (2D launches) */
    GS_PARAM_TILE    /* param = elements per block's tile */
};

struct gs_kernel_info {
    enum gs_kernel_id id;
    const char *symbol; /* the function name in kernels/gs_kernels.h */
    const char *name;   /* short name used on the command line and in reports */
    enum gs_op op;
    unsigned bytes_per_element; /* bytes read + written per element, for GB/s */
    enum gs_rule rule;
    enum gs_param param;
};

const struct gs_kernel_info *gs_kernel_info(enum gs_kernel_id id); /* NULL when out of range */
const struct gs_kernel_info *gs_kernel_by_name(const char *name);  /* NULL when unknown */

#endif
