/* SPDX-License-Identifier: MIT */
/* The command line: a table of options, their parser and the help text.
 * Parsing never prints; errors come back as one line in a gs_err. */
#ifndef GS_CLI_H
#define GS_CLI_H

#include <stdint.h>

#include "gs_backend.h"
#include "gs_catalog.h"
#include "gs_parse.h"
#include "gs_table_report.h"

enum gs_mode {
    GS_MODE_TABLE,
    GS_MODE_BANDWIDTH,
    GS_MODE_SWEEP,  /* bandwidth --sweep */
    GS_MODE_SPREAD, /* bandwidth --spread */
    GS_MODE_PITFALLS,
    GS_MODE_TRACE,
    GS_MODE_CHECK,
    GS_MODE_LIST,
    GS_MODE_HELP,
    GS_MODE_VERSION,
    GS_MODE_COMPARE,
    GS_MODE_LECTURE
};

#define GS_MAX_COMPARE 16

struct gs_cli {
    enum gs_mode mode;
    enum gs_mode command; /* the command word's (GS_MODE_TABLE when none) */
    int named;            /* a command word was given */
    const char *backend; /* comma list or "all" */
    const char *device;  /* NULL: each backend's default device */
    uint64_t sizes[GS_MAX_SIZES];
    int nsizes; /* 0: seed 002's sizes for each device's T */
    struct gs_shape shapes[GS_MAX_SHAPES];
    int nshapes; /* 0: seed 002's four shapes */
    uint64_t grid;  /* 0: the device grid */
    unsigned block; /* 0: GS_DEFAULT_BLOCK */
    unsigned columns;
    enum gs_format format;
    const char *output; /* NULL: stdout */
    /* bandwidth mode */
    uint64_t bw_bytes; /* bytes per buffer; 0: default */
    unsigned reps;     /* timed repetitions per row; 0: default */
    const char *svg;
    const char *json; /* also write JSON here */
    int quiet; /* no progress on stderr */
    int verbose; /* notes on stderr in full; check: the rules too */
    unsigned width; /* --width: text reports' columns; 0: gs_job_width's default */
    enum gs_type type; /* --type: the elements' type (GS_TYPE_FLOAT by default) */
    /* pitfalls mode */
    unsigned traps; /* bit per enum gs_trap */
    /* trace mode (grid and block above are shared) */
    uint64_t trace_n;      /* 0: GS_TRACE_DEFAULT_N */
    enum gs_kernel_id trace_kernels[GS_KERNEL_COUNT];
    int ntrace_kernels;    /* 0: monolithic, grid-stride, chunked */
    /* check mode */
    int check;             /* `gridstride check`: also set under --help */
    const char *file;      /* the kernel's source */
    const char *entry;     /* NULL: "solve" */
    int compile_only;      /* compile for --arch, run nothing */
    const char *arch;      /* comma list of targets, "sm_75,sm_90" */
    int no_speed;          /* check --no-speed */
    double min_speed;      /* check --min-speed; 0: none */
    int no_counters;       /* check --no-counters */
    int counters;          /* check --counters */
    const char *ncu;       /* check --ncu: Nsight Compute's ncu; NULL: looked for */
    unsigned watchdog;     /* seconds before saying a kernel has not finished; 0: default */
    double timeout;        /* check: seconds before a launch is killed (a fraction
                              allowed); 0: default */
    int sizes_traps;       /* check --sizes traps: the harness sizes and the traps' */
    int ctest_resources; /* --list --format ctest-resources */
    /* compare */
    char **files; /* the results files, gathered in argv (at most GS_MAX_COMPARE
                   * without --fleet, any number with it) */
    int nfiles;
    int fleet;      /* --fleet */
    double fleet_k; /* --k; GS_FLEET_DEFAULT_K unless given */
    double tolerance; /* --tolerance as a fraction; 0: GS_COMPARE_TOLERANCE */
    /* lecture */
    int lecture;              /* `gridstride lecture`: also set under --help */
    int lecture_default_name; /* no --html: the deck went to its default file name */
};

/* The command line: an optional command word (table, bandwidth, pitfalls,
 * trace, check, compare), then options; an option the command does not
 * take is refused in one line naming the commands that take it. compare's
 * files are gathered at the front of argv[2..] (c->files points there), as
 * getopt permutes: read argv for anything else before the parse. */
int gs_cli_parse(int argc, char **argv, struct gs_cli *c, struct gs_err *e);
/* The help of the command named (only the options it takes); without a
 * command word, the overview and the table's options. */
void gs_cli_usage(const struct gs_cli *c, struct gs_str *out);
/* --version: the version, the commit, the backends compiled in, the
 * compilers and toolkits, the build type. */
void gs_cli_version(const char *version, struct gs_str *out);

#endif
