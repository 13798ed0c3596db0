/* SPDX-License-Identifier: MIT */
/* check's hardware counters of a .cu kernel on NVIDIA, read by the CUDA
 * backend's profiler (CUPTI) in check's counters worker, or by Nsight
 * Compute (ncu) around it: the parsing of the worker's values and of ncu's
 * CSV, and the rule that turns the counts into the lesson's words. Pure
 * functions, no I/O; the pass is gs_counters_run.h.
 *
 * The counted launch: the user's kernel once on the device grid G at
 * n = GS_COUNTERS_N floats, and the suite's grid-stride add on the same
 * launch, each on a poisoned output. ncu reads, per kernel, the global load
 * and store requests (one per warp-wide instruction) and the 32-byte sectors
 * they touch. For floats a warp's 32 lanes on neighbouring elements make one
 * request of 128 bytes, 4 sectors: n / 32 store requests and 4 sectors per
 * request are the minimum (loads: two inputs, 2n / 32 requests). */
#ifndef GS_COUNTERS_H
#define GS_COUNTERS_H

#include <stddef.h>
#include <stdint.h>

#define GS_COUNTERS_N (1ull << 24) /* 16 Mi floats, 64 MiB a buffer */
#define GS_COUNTERS_MAX_KERNELS 8
/* The metrics read (names verified with ncu 2025.3.1 on an H200). */
#define GS_COUNTERS_METRICS                                                                 \
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,"                                       \
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,"                                        \
    "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,"                                       \
    "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,"                                        \
    "dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum"
#define GS_COUNTERS_SUITE_KERNEL "gs_add_grid_stride" /* kernels/gs_kernels.h */

/* Which of a kernel's values ncu gave. */
enum {
    GS_CTR_LD_REQ = 1u << 0,
    GS_CTR_LD_SEC = 1u << 1,
    GS_CTR_ST_REQ = 1u << 2,
    GS_CTR_ST_SEC = 1u << 3,
    GS_CTR_DRAM_RD = 1u << 4,
    GS_CTR_DRAM_WR = 1u << 5,
    GS_CTR_TIME = 1u << 6,
    GS_CTR_NEEDED = GS_CTR_LD_REQ | GS_CTR_LD_SEC | GS_CTR_ST_REQ | GS_CTR_ST_SEC
};

/* One profiled kernel launch: ncu's ID and Kernel Name, its launch, values. */
struct gs_counters_kernel {
    long id;
    char name[256];
    uint64_t grid, block;
    uint64_t ld_req, ld_sec, st_req, st_sec;
    uint64_t dram_read, dram_write; /* bytes */
    uint64_t time_ns;
    unsigned have; /* GS_CTR_* */
};

/* ncu's CSV (--csv --log-file): the ==PROF== / ==WARNING== / ==ERROR== lines
 * before the header are skipped (the first ==ERROR== line's text goes to
 * why), fields are quoted, numbers may carry thousands separators
 * ("1,048,576") and units ("byte", "Kbyte", "ns", "usecond"), which are
 * converted to bytes and nanoseconds. One gs_counters_kernel per ID, in the
 * file's order, at most max. GS_OK with *nout kernels (possibly 0, then why
 * says what the file held instead); GS_IO when it is not ncu's CSV (why
 * says how). */
int gs_counters_parse_csv(const char *text, size_t len, struct gs_counters_kernel *out, int max,
                          int *nout, char *why, size_t why_size);

/* The counters worker's values file, where the backend's own profiler read
 * them (gs_counters_run.h): a line "source WORDS", then one line
 * "range R METRIC VALUE" a value (R the launch's index, from 0; VALUE a
 * number, as the profiler gives it), or a line "error WORDS" instead. Into
 * out[R] for R < max (metric names as GS_COUNTERS_METRICS spells them;
 * others are skipped), *nout = the highest R + 1, source (may be empty).
 * GS_OK; GS_IO with why when the file is not such a file (a value that is
 * negative, not finite or not a number; a range of max or more); GS_API with
 * why = the worker's own words after "error". Pure. */
int gs_counters_parse_values(const char *text, size_t len, struct gs_counters_kernel *out,
                             int max, int *nout, char *source, size_t source_size, char *why,
                             size_t why_size);

/* 1 when ncu's Kernel Name names `entry`: "solve", "solve(const float *, ...)",
 * "solve<float>(...)", "ns::solve(...)". */
int gs_counters_name_is(const char *kernel_name, const char *entry);

/* "Version 2025.3.1.0 (build ...)" in `ncu --version`'s output: "2025.3.1"
 * into buf; 0 when there is none. */
int gs_counters_ncu_version(const char *text, char *buf, size_t size);

enum gs_counters_state { GS_CTRS_NOT_READ, GS_CTRS_READ };
enum gs_counters_class {
    GS_CTRS_NONE,       /* not read */
    GS_CTRS_COALESCED,  /* the minimum, as the suite's loop */
    GS_CTRS_REPEATED,   /* more store requests than n / 32 (a block stride: pitfall 1) */
    GS_CTRS_SCATTERED,  /* more sectors per request than 4 (one chunk per thread) */
    GS_CTRS_OTHER       /* values the rule has no lesson for */
};

struct gs_counters {
    enum gs_counters_state state;
    enum gs_counters_class cls;
    char why[500];   /* not read: why, in one line */
    char source[64]; /* "CUPTI 13.0 range profiler", "ncu 2025.3.1" */
    uint64_t n, grid, block;
    struct gs_counters_kernel user, suite;
    /* Derived by gs_counters_judge: against the minimum of the counted n. */
    double st_per_elem; /* store requests / (n / 32): 1 is every element stored once */
    double ld_per_elem; /* load requests / (2n / 32) */
    double ld_spr, st_spr; /* sectors per request, loads and stores (minimum 4) */
    double suite_ld_spr, suite_st_spr, suite_st_per_elem;
    uint64_t chunk; /* C = ceil(n / T): the distance of a chunked kernel's lanes */
    char words[500]; /* the verdict in the lesson's words */
    char rule[400];  /* the rule applied */
};

/* The class, derived values and words of c->user beside c->suite for
 * c->n, c->grid and c->block (c->state READ; pure):
 *   store requests per element = st_req / ceil(n/32); loads: ld_req / ceil(2n/32);
 *   sectors per request = sectors / requests, for loads and stores.
 *   1. stores per element >= 1.5: every element stored R times (R rounded);
 *      when R is within 10% of the grid's G blocks, "the loop steps by the
 *      block, not the grid (pitfall 1)".
 *   2. else sectors per request of loads or stores >= 6 (4 is the minimum):
 *      when >= 24, "the warp's lanes are C elements apart (one chunk per
 *      thread)", C = ceil(n / T); else "the warp's lanes do not touch
 *      neighbouring elements".
 *   3. else coalesced: the minimum, as the suite's loop. */
void gs_counters_judge(struct gs_counters *c);
const char *gs_counters_class_name(enum gs_counters_class c); /* "coalesced", "repeated" */

#endif
