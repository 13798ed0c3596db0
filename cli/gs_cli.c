/* SPDX-License-Identifier: MIT */
#include "gs_cli.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gs_fleet.h"
#include "gs_pitfalls.h"
#include "gs_registry.h"
#include "gs_results.h"
#include "gs_spread.h"
#include "gs_table.h"
#include "gs_trace.h"

enum opt_id {
    OPT_BACKEND, OPT_DEVICE, OPT_LIST, OPT_SIZES, OPT_SHAPE, OPT_GRID, OPT_BLOCK, OPT_KERNELS,
    OPT_FORMAT, OPT_OUTPUT, OPT_BYTES, OPT_REPS, OPT_SVG, OPT_JSON, OPT_QUIET, OPT_TYPE, OPT_ENTRY,
    OPT_COMPILE_ONLY, OPT_ARCH, OPT_WATCHDOG, OPT_TIMEOUT, OPT_TRAPS, OPT_N, OPT_HELP, OPT_VERSION,
    OPT_SWEEP, OPT_SPREAD, OPT_TOLERANCE, OPT_VERBOSE, OPT_HTML, OPT_FLEET, OPT_K,
    OPT_NO_SPEED, OPT_MIN_SPEED, OPT_NO_COUNTERS, OPT_COUNTERS, OPT_NCU, OPT_WIDTH,
    OPT_COUNT
};

/* Which commands, and which modes of bandwidth, take an option. */
#define CMD_TABLE 0x1u
#define CMD_BW 0x2u     /* bandwidth's rows */
#define CMD_SWEEP 0x20u /* bandwidth --sweep */
#define CMD_SPREAD 0x40u /* bandwidth --spread */
#define CMD_CHECK 0x4u
#define CMD_PITFALLS 0x8u
#define CMD_TRACE 0x10u
#define CMD_COMPARE 0x80u
#define CMD_LECTURE 0x100u
#define CMD_BANDWIDTH (CMD_BW | CMD_SWEEP | CMD_SPREAD) /* every mode of bandwidth */
#define CMD_LAUNCHES (CMD_TABLE | CMD_BW | CMD_SWEEP | CMD_CHECK | CMD_TRACE) /* --grid */
#define CMD_DEVICES (CMD_LAUNCHES | CMD_SPREAD | CMD_PITFALLS) /* those that open devices */
#define CMD_ALL (CMD_DEVICES | CMD_COMPARE)

struct opt {
    enum opt_id id;
    const char *name;
    const char *arg; /* NULL: a flag */
    const char *help;
    int repeatable;
    unsigned cmds;
    const char *short_name; /* "-h", or NULL */
};

/* The one table behind parsing, every command's --help, and the refusal
 * of an option a command does not take. */
static const struct opt options[OPT_COUNT] = {
    {OPT_BACKEND, "--backend", "NAMES", "a backend of this build (see below), a comma list, or all\n"
                                    "                         (default: all present)", 0, CMD_DEVICES | CMD_LECTURE, NULL},
    {OPT_DEVICE, "--device", "SEL", "device index, id (OpenCL: platform:device), name substring, or all\n"
                                    "                         (default: each backend's first GPU, else its first device);\n"
                                    "                         a GPU also by its CTest resource id, pci_DDDD_BB_DD_F", 0, CMD_DEVICES | CMD_LECTURE, NULL},
    {OPT_LIST, "--list", NULL, "list backends and devices with the G and T the suite would use", 0, CMD_TABLE, NULL},
    {OPT_SIZES, "--sizes", "N,N,...", "sizes n to run (default: 0,1,31,32,611,1024,1025,T,T+1,4194304);\n"
                                      "                         check: traps adds 2^31+5 and 2^32+5, where the index traps bite", 0, CMD_TABLE | CMD_CHECK, NULL},
    {OPT_SHAPE, "--shape", "GxB", "a launch shape for the n = 611 section; repeat for more\n"
                                  "                         (default: 1x1, 1x256, Gx256, 10000x32)", 1, CMD_TABLE | CMD_CHECK, NULL},
    {OPT_GRID, "--grid", "G", "blocks in the device grid instead of the device's own (160 = a T4's);\n"
                              "                         trace: blocks of the traced launch (default: 4)", 0, CMD_LAUNCHES, NULL},
    {OPT_BLOCK, "--block", "B", "threads per block (default: 256)", 0, CMD_LAUNCHES | CMD_SPREAD, NULL},
    {OPT_KERNELS, "--kernels", "LIST", "monolithic (columns A, B), grid-stride (C), chunked (D); default all\n"
                                       "                         trace: any kernel by name, pitfalls too (default: monolithic,\n"
                                       "                         grid-stride,chunked)", 0, CMD_TABLE | CMD_TRACE, NULL},
    {OPT_FORMAT, "--format", "FMT", "text, md, csv or json (default: text); trace and bandwidth --spread:\n"
                                    "                         text or json; --list: text, json or ctest-resources\n"
                                    "                         (CTest's resource spec of the GPUs); compare: text or json", 0, CMD_ALL, NULL},
    {OPT_OUTPUT, "--output", "FILE", "write the report to FILE instead of stdout (never a partial file);\n"
                                     "                         - is stdout", 0, CMD_ALL, NULL},
    {OPT_BYTES, "--bytes", "SIZE", "bandwidth: bytes per buffer, e.g. 1073741824 or 1GiB, 64MiB (default: 4GiB on a GPU)", 0, CMD_BANDWIDTH, NULL},
    {OPT_REPS, "--reps", "R", "bandwidth: timed repetitions per row, at least 5 (default: 20)", 0, CMD_BANDWIDTH, NULL},
    {OPT_SVG, "--svg", "FILE", "also write the picture as SVG: bandwidth, bar charts by lesson, 12\n"
                              "                         bars at most a chart (--sweep: time against n);\n"
                              "                         trace, who wrote each element, a 1920x1080 frame;\n"
                              "                         check FILE.gs, the same picture of the kernel's count", 0, CMD_BANDWIDTH | CMD_TRACE | CMD_CHECK, NULL},
    {OPT_JSON, "--json", "FILE", "also write the same results as JSON to FILE", 0, CMD_ALL, NULL},
    {OPT_QUIET, "--quiet", NULL, "no progress lines on stderr", 0, CMD_DEVICES | CMD_LECTURE, NULL},
    {OPT_VERBOSE, "--verbose", NULL, "notes on stderr in full (why a backend was skipped);\n"
                                      "                         check: also each rule and how to read the report", 0, CMD_DEVICES | CMD_LECTURE, NULL},
    {OPT_WIDTH, "--width", "N", "text reports: wrap prose at N columns, tables keep theirs (default:\n"
                                "                         COLUMNS when set, else the terminal's, at most 100;\n"
                                "                         80 in a file or a pipe)", 0, CMD_ALL, NULL},
    {OPT_SWEEP, "--sweep", NULL, "bandwidth: instead of the rows, microseconds per launch at n = 2^10\n"
                                 "                         .. 2^28 (at most --bytes / 4): monolithic against the\n"
                                 "                         grid-stride loop on G and on min(G, ceil(n/B)) blocks;\n"
                                 "                         --reps: per size and variant (default: 50)", 0, CMD_BANDWIDTH, NULL},
    {OPT_SPREAD, "--spread", NULL, "bandwidth: instead of the rows, when each SM finishes one float4\n"
                                   "                         grid-stride add at 1 wave (grid G) and 16 waves; takes\n"
                                   "                         --backend, --device, --bytes (default 1GiB), --block,\n"
                                   "                         --reps (default 5),"
                                   " --svg, --json, --output, --format text|json, --quiet", 0, CMD_BANDWIDTH, NULL},
    {OPT_TYPE, "--type", "T", "bandwidth: element type, float or double (default: float); a device\n"
                              "                         without double precision is left out, with a note", 0, CMD_BANDWIDTH, NULL},
    {OPT_ENTRY, "--entry", "NAME", "check: the kernel's name in FILE (default: solve)", 0, CMD_CHECK, NULL},
    {OPT_COMPILE_ONLY, "--compile-only", NULL, "check: compile for --arch and stop; no device needed (cuda: NVRTC)", 0, CMD_CHECK, NULL},
    {OPT_ARCH, "--arch", "LIST", "check --compile-only: targets, e.g. sm_75,sm_90", 0, CMD_CHECK, NULL},
    {OPT_WATCHDOG, "--watchdog", "S", "check: say on stderr when a kernel has run S seconds (default: 10)", 0, CMD_CHECK, NULL},
    {OPT_TIMEOUT, "--timeout", "S", "check: end a launch after S seconds (0.1 to 86400; 0.5 is half a second):\n"
                                    "                         did not finish (default: 10 on a GPU; on a CPU device 100 x\n"
                                    "                         the suite's loop + 1 s, at most 120; a build: 60); with\n"
                                    "                         --compile-only the compiler's deadline (default: 60)", 0, CMD_CHECK, NULL},
    {OPT_NO_SPEED, "--no-speed", NULL, "check: no timing after the cases (default: once every case is right,\n"
                                      "                         the kernel is timed beside the suite's grid-stride loop)", 0, CMD_CHECK, NULL},
    {OPT_MIN_SPEED, "--min-speed", "R", "check: exit 1 (verdict slow) when the kernel's GB/s is below R times\n"
                                       "                         the suite's grid-stride loop's on grid G, e.g. 0.8", 0, CMD_CHECK, NULL},
    {OPT_NO_COUNTERS, "--no-counters", NULL, "check: no hardware counters of a .cu kernel on NVIDIA (default: read by\n"
                                            "                         CUPTI for a kernel slower than the suite's loop; --no-speed\n"
                                            "                         also skips them)", 0, CMD_CHECK, NULL},
    {OPT_COUNTERS, "--counters", NULL, "check: read them also for a kernel as fast as the suite's loop, and\n"
                                      "                         under --no-speed", 0, CMD_CHECK, NULL},
    {OPT_NCU, "--ncu", "PATH", "check: read the counters with Nsight Compute's ncu at PATH instead of\n"
                               "                         CUPTI (libcupti, loaded at run time)", 0, CMD_CHECK, NULL},
    {OPT_TRAPS, "--traps", "LIST", "pitfalls: block-stride, stride-32bit, index-32bit, int-loop,\n"
                                   "                         int-block-count, y-grid, tile-loop, early-return (default: all)", 0, CMD_PITFALLS, NULL},
    {OPT_N, "--n", "N", "trace: elements (default: 4096, at most 4194304)", 0, CMD_TRACE, NULL},
    {OPT_TOLERANCE, "--tolerance", "P%", "compare: a bandwidth row more than P% below the first file's run\n"
                                         "                         of the same device (else its first run) fails\n"
                                         "                         (exit 1; default: 10%)", 0, CMD_COMPARE, NULL},
    {OPT_FLEET, "--fleet", NULL, "compare: the files of many nodes, one row per node and GPU, a slow\n"
                                 "                         GPU named (any number of files; see above)", 0, CMD_COMPARE, NULL},
    {OPT_K, "--k", "K", "compare: with --fleet, a GPU more than K spreads (the IQR, at least 5%\n"
                        "                         of the median) below its peers' first quartile is\n"
                        "                         flagged LOW (default: 1.5)", 0, CMD_COMPARE, NULL},
    {OPT_HTML, "--html", "FILE", "lecture: write the deck to FILE (default: lecture.html; - for stdout)", 0, CMD_LECTURE, NULL},
    {OPT_HELP, "--help", NULL, "this help (also -h)", 0, CMD_ALL | CMD_LECTURE, "-h"},
    {OPT_VERSION, "--version", NULL, "print the version and what this build holds", 0, CMD_ALL | CMD_LECTURE, NULL},
};

/* The commands: the word that names each, the options it takes (the
 * table's bits), and its help. */
struct command {
    const char *name;
    enum gs_mode mode;
    unsigned cmds;
    const char *usage; /* the help's first lines */
    const char *exits; /* its exit status */
};

static const struct command commands[] = {
    {"table", GS_MODE_TABLE, CMD_TABLE,
     "usage: gridstride [table] [options]\n"
     "       gridstride --list [--format text|json|ctest-resources]\n\n"
     "The table runs one vector add four ways at each size, on every backend side by side:\n"
     "  A  one thread per element, grid sized to n     B  the same on the device grid G\n"
     "  C  grid-stride loop on the device grid         D  one contiguous chunk per thread\n"
     "Every result is predicted before the launch; a run whose results disagree with the\n"
     "prediction, in either direction, fails. --list shows the devices and their G and T.\n",
     "exit status: 0 every prediction held; 1 a prediction failed; 2 bad usage or environment\n"},
    {"bandwidth", GS_MODE_BANDWIDTH, CMD_BANDWIDTH,
     "usage: gridstride bandwidth [options]\n"
     "       gridstride bandwidth --sweep [options]\n"
     "       gridstride bandwidth --spread [options]\n\n"
     "The bandwidth benchmark: GB/s of each kernel on large buffers, every row verified.\n"
     "--sweep: what the grid-stride loop costs at small n; --spread: when each SM finishes\n"
     "one launch, at 1 wave and at 16 waves.\n",
     "exit status: 0 every row verified; 1 a row was wrong; 2 bad usage or environment\n"},
    {"pitfalls", GS_MODE_PITFALLS, CMD_PITFALLS,
     "usage: gridstride pitfalls [options]\n\n"
     "The traps of the course, each run where it bites (its own sizes and grids), with the\n"
     "outcome the model predicts; a case a device cannot hold is reported skipped, with why.\n",
     "exit status: 0 every trap behaved as predicted; 1 one did not; 2 bad usage or environment\n"},
    {"trace", GS_MODE_TRACE, CMD_TRACE,
     "usage: gridstride trace [options]\n\n"
     "Who wrote each element, recorded on the device (seed 000's index-tracer): the thread\n"
     "of every write, compared with the model and between devices; --svg FILE draws it.\n",
     "exit status: 0 every map matches the model and the devices agree; 1 one does not;\n"
     "             2 bad usage or environment\n"},
    {"check", GS_MODE_CHECK, CMD_CHECK, NULL, /* check_usage */
     "exit status (for graders; --format json says the class in \"verdict\" and\n"
     "\"class\", docs/schema/check.schema.json):\n"
     "  0  ok: every case right\n"
     "  1  wrong: a case wrong, refused, faulted or did not finish\n"
     "  2  not judged: the file was refused, does not compile, has the wrong signature,\n"
     "     or bad usage, or no device could run it (one line on stderr says which)\n"},
    {"compare", GS_MODE_COMPARE, CMD_COMPARE,
     "usage: gridstride compare [--tolerance P%] [--format text|json] [--output FILE]\n"
     "                          [--json FILE] FILE.json [FILE.json ...]\n"
     "       gridstride compare --fleet [--k K] [--output FILE] FILE.json...\n\n"
     "Puts results files side by side: the JSON of `gridstride --format json` (tables) or of\n"
     "`gridstride bandwidth --json`, from any machine and any version of gridstride that\n"
     "writes the same schema (gridstride-results, version 1). All files must be of one mode.\n"
     "  tables     a column group per device, each with its own G and T; a row is flagged\n"
     "             'differs' when devices' outcomes differ (one refuses what another runs,\n"
     "             one is wrong where another is not)\n"
     "  bandwidth  a group per run: GB/s and its ratio to the first run; a row is flagged\n"
     "             when it verified on one run and was wrong on another\n"
     "A reference file, the course's T4 table: docs/reference/t4-seed002.json.\n"
     "As a CI gate: outcomes that differ between devices whose predictions held are the\n"
     "APIs' documented differences (CUDA refuses n = 0, OpenCL 3.0 runs it), reported and\n"
     "not failed. The same device (backend, device name and driver) in two files is a\n"
     "regression gate: any cell whose outcome changed fails, named with both outcomes.\n"
     "--fleet: the files of many nodes (any number, tables and bandwidth runs), a node's\n"
     "files named NODE.BACKENDINDEX.table.json and .bandwidth.json (the node: the name up\n"
     "to the first dot): one row per node and GPU, each metric's median and spread among\n"
     "its peers (same backend and device), and each GPU below Q1 - K x S flagged LOW and\n"
     "named with its numbers (SHOC's rule, the spread S the IQR or 5% of the median,\n"
     "whichever is larger; judged with 4 or more peers; --k K, default 1.5). It takes\n"
     "--k and --output, nothing else of compare's. Exit 1 when a GPU failed a prediction\n"
     "or a bandwidth row, or was flagged.\n",
     "exit status: 0 every case held its own device's prediction, no cell changed on the\n"
     "             same device, every bandwidth row verified and within --tolerance of\n"
     "             run 1; 1 otherwise; 2 bad usage, or a file that cannot be read, is not\n"
     "             a regular file, is not JSON or has an unknown schema\n"},
    {"lecture", GS_MODE_LECTURE, CMD_LECTURE,
     "usage: gridstride lecture [--backend NAMES] [--device SEL] [--html FILE] [--quiet]\n\n"
     "Runs the lesson on the devices present and writes one self-contained HTML deck:\n"
     "eight 16:9 slides (inline SVG and CSS, no network, no external font or script;\n"
     "arrow keys move between slides, N shows the speaker's notes, printing gives one\n"
     "slide a page). Every number on a slide is measured in this run:\n"
     "  1 the claim and the contract, with this device's G and T\n"
     "  2 the table at the seed's sizes, the expected wrong@T marked as the lesson\n"
     "  3 a T4's grid (G = 160) beside this device's\n"
     "  4 the index-tracer: seed 000's picture, recorded, and the first warp\n"
     "  5 the coalescing gap (bandwidth; 4 MiB buffers on a CPU device, 256 MiB on a GPU)\n"
     "  6 the loop's cost at small n (sweep), and one wave against 16 (spread) where\n"
     "    the backend records per-unit finish times\n"
     "  7 the pitfalls that bite on this device, predicted and measured\n"
     "  8 the exercise: gridstride check on examples/grid_stride.gs, run by this\n"
     "    command (the checkout's, or the installed copy), and its report\n"
     "Without --html the deck is lecture.html in this folder (a note says so);\n"
     "--html - writes it to stdout. Never a partial file.\n",
     "exit status: 0 every prediction held and every result verified; 1 something did\n"
     "             not (the deck says where); 2 bad usage or environment\n"},
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static const struct command *command_of(enum gs_mode mode)
{
    for (size_t i = 0; i < NCOMMANDS; ++i)
        if (commands[i].mode == mode)
            return &commands[i];
    return &commands[0];
}

/* What an option means to one command, where that differs from its row's
 * help (which then names each command's meaning): the help of a command
 * says only its own. */
#define IND "\n                         "
static const struct {
    enum opt_id id;
    unsigned cmds;
    const char *help;
} command_help[] = {
    {OPT_FORMAT, CMD_TABLE, "text, md, csv or json (default: text); with --list: text, json or" IND
                            "ctest-resources (CTest's resource spec of the GPUs)"},
    {OPT_FORMAT, CMD_BANDWIDTH, "text, md, csv or json (default: text); --spread: text or json"},
    {OPT_FORMAT, CMD_PITFALLS | CMD_CHECK, "text, md, csv or json (default: text)"},
    {OPT_FORMAT, CMD_TRACE | CMD_COMPARE, "text or json (default: text)"},
    {OPT_GRID, CMD_TRACE, "blocks of the traced launch (default: 4)"},
    {OPT_GRID, CMD_TABLE | CMD_BANDWIDTH | CMD_CHECK,
     "blocks in the device grid instead of the device's own (160 = a T4's)"},
    {OPT_KERNELS, CMD_TABLE, "monolithic (columns A, B), grid-stride (C), chunked (D); default all"},
    {OPT_KERNELS, CMD_TRACE, "any kernel of the catalogue by name, the pitfalls' too" IND
                             "(default: monolithic,grid-stride,chunked)"},
    {OPT_SVG, CMD_BANDWIDTH, "also write bar charts as SVG, by lesson, 12 bars at most a chart" IND
                             "(--sweep: time against n; --spread: each SM's finish time)"},
    {OPT_SVG, CMD_TRACE, "also write the picture as SVG: who wrote each element, in a" IND
                         "1920x1080 frame"},
};

static const char *help_for(const struct opt *opt, unsigned cmds)
{
    for (size_t k = 0; k < sizeof command_help / sizeof command_help[0]; ++k)
        if (command_help[k].id == opt->id && (command_help[k].cmds & cmds) == cmds)
            return command_help[k].help;
    return opt->help;
}

/* The options command `name` takes (bits cmds); a help that starts with
 * "NAME: " (the command it belongs to) loses that prefix in its own help. */
static void usage_options(const char *name, unsigned cmds, struct gs_str *o)
{
    for (int i = 0; i < OPT_COUNT; ++i) {
        char left[40];
        if (!(options[i].cmds & cmds))
            continue;
        snprintf(left, sizeof left, "%s%s%s", options[i].name, options[i].arg ? " " : "",
                 options[i].arg ? options[i].arg : "");
        const char *help = help_for(&options[i], cmds);
        const size_t len = strlen(name);
        if (len && strncmp(help, name, len) == 0 && strncmp(help + len, ": ", 2) == 0)
            help += len + 2;
        gs_str_printf(o, "  %-22s %s\n", left, help);
    }
}

/* `gridstride check --help`: the contract a user's kernel must meet. */
static void check_usage(struct gs_str *o)
{
    gs_str_printf(o,
        "usage: gridstride check FILE [options]\n\n"
        "Runs your kernel through the course harness: the harness owns the buffers and the\n"
        "launch; your kernel computes out[i] = a[i] + b[i] for every i < n, under ANY grid.\n"
        "It runs at n = 0, 1, 31, 32, 611, 1024, 1025, T, T+1, 4194304 on the device grid\n"
        "(T threads), at n = 611 under <<<1,1>>>, <<<1,256>>>, <<<G,256>>>, <<<10000,32>>>,\n"
        "and at a T4's sizes on a T4's grid (160 x 256); the output is poisoned with NaN and\n"
        "a guard past its end, and every element must equal a + b bit for bit. Failing\n"
        "cases are classed: short grid, elements never written, wrote past the end, wrong\n"
        "value, launch refused, faulted, did not finish.\n\n"
        "FILE holds one kernel, named solve unless --entry says otherwise\n"
        "(docs/check-contract.md; the grader's side: docs/check.md):\n"
        "  .cu  CUDA C++, compiled by NVRTC for the device's own architecture:\n"
        "       __global__ void solve(const float *a, const float *b, float *out, size_t n)\n"
        "  .cl  OpenCL C, built by the driver at run time:\n"
        "       __kernel void solve(__global const float *a, __global const float *b,\n"
        "                           __global float *out, ulong n)\n"
        "  .gs  the suite's portable dialect (kernels/gs_kernels.h), on every backend:\n"
        "       GS_KERNEL void solve(GS_THREAD_CTX GS_GLOBAL const float *a,\n"
        "           GS_GLOBAL const float *b, GS_GLOBAL float *out, gs_size n)\n"
        "       (host: compiled by the system C compiler, cc or $CC, when there is one)\n"
        "No main() and no host code: the kernel and its device helpers only.\n\n"
        "No #include: the harness supplies what a kernel needs (a file that has one is\n"
        "refused, naming the line); no asm, no #line, no ## and no trigraphs in any dialect\n"
        "(docs/check.md lists the rules). FILE must be a regular file of at most 1 MiB.\n\n"
        "Your code is built and run in a separate worker process, never in the one that\n"
        "gives the verdict (docs/check.md): a launch that runs past --timeout seconds is\n"
        "killed (did not finish), a crash is reported as faulted, and the next case runs in\n"
        "a fresh worker; on the host backend the worker has no privileges, resource limits\n"
        "and a system-call filter. What it prints never reaches the report.\n\n"
        "Once every case is right, the worker times your kernel beside the suite's own\n"
        "grid-stride loop on the same launches (1 GiB per buffer on a GPU, 256 KiB on a CPU\n"
        "device; median of 20 device-timed launches) and the report says how fast it is, in\n"
        "the lesson's words; a time faster than the device can move the bytes is impossible,\n"
        "never fast. --no-speed leaves it out; --min-speed R fails a slower kernel.\n"
        "A .cu kernel on NVIDIA that is slower than the suite's loop also runs once under\n"
        "CUPTI's range profiler (libcupti, loaded at run time; --ncu PATH: Nsight Compute\n"
        "instead): its global load and store requests and sectors beside the loop's say\n"
        "whether its lanes are coalesced and each element is stored once. --counters reads\n"
        "them for any kernel; --no-counters never.\n");
}

/* The variables every command that opens a backend reads. */
static void usage_environment(struct gs_str *o)
{
    gs_str_printf(o, "environment: GRIDSTRIDE_REQUIRE=NAME,NAME makes a missing backend an "
                     "error (exit 2)\n"
                     "             GRIDSTRIDE_CACHE=DIR|off: where the OpenCL backend keeps "
                     "kernels/ built for a\n"
                     "             CPU device (default $XDG_CACHE_HOME/gridstride or "
                     "~/.cache/gridstride)\n");
}

static void usage_footer(int backends, struct gs_str *o)
{
    if (backends) {
        char built[160], known[160];
        gs_registry_names(built, sizeof built, 1);
        gs_registry_names(known, sizeof known, 0);
        gs_str_printf(o, "\nbackends compiled in: %s (known to this source: %s)\n", built, known);
    } else {
        gs_str_printf(o, "\n");
    }
}

void gs_cli_usage(const struct gs_cli *c, struct gs_str *o)
{
    const struct command *cmd = command_of(c->command);
    if (!c->named) { /* `gridstride --help`: every command, then the table's options */
        gs_str_printf(o,
            "usage: gridstride [table] [options]      the correctness table (default)\n"
            "       gridstride bandwidth [options]    the bandwidth benchmark\n"
            "       gridstride bandwidth --sweep      what the grid-stride loop costs at small n\n"
            "       gridstride bandwidth --spread     when each SM finishes one launch: 1 wave, 16 waves\n"
            "       gridstride pitfalls [options]     the traps of the course, run where they bite\n"
            "       gridstride trace [options]        who wrote each element, recorded on the device\n"
            "                                         (seed 000's index-tracer; --svg FILE draws it)\n"
            "       gridstride check FILE [options]   your own kernel through the same harness\n"
            "                                         (gridstride check --help: the contract)\n"
            "       gridstride lecture [--html FILE]  the lesson on this machine as one HTML deck\n"
            "       gridstride --list                 the devices, with their G and T\n"
            "       gridstride compare FILE.json...   results files side by side\n"
            "gridstride COMMAND --help (or -h): the options of that command alone.\n\n"
            "The table runs one vector add four ways at each size, on every backend side by side:\n"
            "  A  one thread per element, grid sized to n     B  the same on the device grid G\n"
            "  C  grid-stride loop on the device grid         D  one contiguous chunk per thread\n"
            "Every result is predicted before the launch; a run whose results disagree with the\n"
            "prediction, in either direction, fails.\n\n"
            "options of the table:\n");
        usage_options("", CMD_TABLE, o);
        usage_footer(1, o);
        gs_str_printf(o, "%s", cmd->exits);
        usage_environment(o);
        return;
    }
    if (cmd->mode == GS_MODE_CHECK)
        check_usage(o);
    else
        gs_str_printf(o, "%s", cmd->usage);
    gs_str_printf(o, "\noptions:\n");
    usage_options(cmd->name, cmd->cmds, o);
    usage_footer(cmd->cmds != CMD_COMPARE, o);
    gs_str_printf(o, "%s", cmd->exits);
    if (cmd->cmds != CMD_COMPARE)
        usage_environment(o);
}

void gs_cli_version(const char *version, struct gs_str *o)
{
    char built[160], known[160];
    gs_registry_names(built, sizeof built, 1);
    gs_registry_names(known, sizeof known, 0);
    gs_str_printf(o, "gridstride %s\n"
                     "commit: %s\n"
                     "backends compiled in: %s (known to this source: %s)\n"
                     "compilers and toolkits: %s\n"
                     "build type: %s\n",
                  version, gs_build_commit(), built, known, GS_TOOLKIT, GS_BUILD_TYPE);
}

static const struct opt *find_opt(const char *arg, const char **inline_value)
{
    *inline_value = NULL;
    for (int i = 0; i < OPT_COUNT; ++i) {
        const size_t len = strlen(options[i].name);
        if (options[i].short_name && strcmp(arg, options[i].short_name) == 0)
            return &options[i];
        if (strncmp(arg, options[i].name, len) != 0)
            continue;
        if (arg[len] == '\0')
            return &options[i];
        if (arg[len] == '=' && options[i].arg) {
            *inline_value = arg + len + 1;
            return &options[i];
        }
    }
    return NULL;
}

static int parse_kernels(const char *s, unsigned *columns, struct gs_err *e)
{
    static const struct { const char *name; unsigned columns; } kernels[] = {
        {"monolithic", (1u << GS_COL_A) | (1u << GS_COL_B)},
        {"grid-stride", 1u << GS_COL_C},
        {"chunked", 1u << GS_COL_D}};
    char buf[256], *items[16];
    int n = 0;
    int rc = gs_split_list(s, "--kernels", "a list of monolithic, grid-stride, chunked", buf,
                           sizeof buf, items, 16, &n, e);
    *columns = 0;
    for (int i = 0; i < n && rc == GS_OK; ++i) {
        unsigned found = 0;
        for (size_t k = 0; k < sizeof kernels / sizeof kernels[0]; ++k)
            if (strcmp(items[i], kernels[k].name) == 0)
                found = kernels[k].columns;
        if (!found)
            rc = gs_err_set(e, GS_USAGE,
                            "--kernels: unknown kernel '%.*s%s'; use monolithic, grid-stride or "
                            "chunked",
                            GS_ECHO(items[i]));
        *columns |= found;
    }
    return rc;
}

/* trace's --kernels: names from the catalogue, each once. */
static int parse_trace_kernels(const char *s, struct gs_cli *c, struct gs_err *e)
{
    char buf[512], *items[GS_KERNEL_COUNT + 1];
    int n = 0;
    int rc = gs_split_list(s, "--kernels", "a list of kernels, e.g. monolithic,grid-stride,chunked",
                           buf, sizeof buf, items, GS_KERNEL_COUNT + 1, &n, e);
    c->ntrace_kernels = 0;
    for (int i = 0; i < n && rc == GS_OK; ++i) {
        const struct gs_kernel_info *k = gs_kernel_by_name(items[i]);
        if (!k)
            return gs_err_set(e, GS_USAGE, "--kernels: unknown kernel '%.*s%s'; the names are those "
                                           "of the table's columns and the pitfalls (see "
                                           "docs/tutorial.md, \"Who wrote each element\")", GS_ECHO(items[i]));
        for (int j = 0; j < c->ntrace_kernels; ++j)
            if (c->trace_kernels[j] == k->id)
                return gs_err_set(e, GS_USAGE, "--kernels: '%.*s%s' given twice; name it once",
                                  GS_ECHO(items[i]));
        c->trace_kernels[c->ntrace_kernels++] = k->id;
    }
    return rc;
}

/* "1073741824", "1GiB", "64MiB", "512KiB". */
static int parse_bytes(const char *s, uint64_t *out, struct gs_err *e)
{
    static const struct { const char *suffix; uint64_t mult; } units[] = {
        {"KiB", 1ull << 10}, {"MiB", 1ull << 20}, {"GiB", 1ull << 30}};
    char digits[32];
    uint64_t mult = 1;
    size_t len = strlen(s);
    for (int u = 0; u < 3; ++u) {
        const size_t sl = strlen(units[u].suffix);
        if (len > sl && strcmp(s + len - sl, units[u].suffix) == 0) {
            mult = units[u].mult;
            len -= sl;
        }
    }
    memcpy(digits, s, len < sizeof digits ? len : 0);
    digits[len < sizeof digits ? len : 0] = '\0';
    if (len == 0 || len >= sizeof digits || strspn(digits, "0123456789") != len)
        return gs_err_set(e, GS_USAGE,
                          "--bytes: '%.*s%s' is not a size; write it like 1GiB, 256MiB, 512KiB or "
                          "1073741824",
                          GS_ECHO(s));
    uint64_t v;
    int rc = gs_parse_u64(digits, 1, (1ull << 44) / mult, "--bytes", &v, e);
    if (rc != GS_OK)
        return rc;
    *out = v * mult;
    return GS_OK;
}

/* --type float|double. */
static int parse_type(const char *v, enum gs_type *type, struct gs_err *e)
{
    if (strcmp(v, "float") == 0)
        *type = GS_TYPE_FLOAT;
    else if (strcmp(v, "double") == 0)
        *type = GS_TYPE_DOUBLE;
    else
        return gs_err_set(e, GS_USAGE, "--type: unknown type '%.*s%s'; use float or double",
                          GS_ECHO(v));
    return GS_OK;
}

/* A value that names something (a device, a file): never empty. */
static int set_name(const char **dst, const char *v, const char *option, const char *wanted,
                    struct gs_err *e)
{
    if (!*v)
        return gs_err_set(e, GS_USAGE, "%s: empty; give %s", option, wanted);
    *dst = v;
    return GS_OK;
}

/* A number for an unsigned field, stored only when it parses. */
static int set_unsigned(unsigned *dst, const char *v, uint64_t min, uint64_t max,
                        const char *option, struct gs_err *e)
{
    uint64_t x = 0;
    const int rc = gs_parse_u64(v, min, max, option, &x, e);
    if (rc == GS_OK)
        *dst = (unsigned)x;
    return rc;
}

/* --timeout 2, or 0.5: seconds from 0.1 to 86400, in plain decimal. */
static int parse_seconds(const char *v, const char *option, double *dst, struct gs_err *e)
{
    char *end = NULL;
    const double s = *v && strspn(v, "0123456789.") == strlen(v) ? strtod(v, &end) : -1;
    if (!end || end == v || *end || !(s >= 0.1 && s <= 86400))
        return gs_err_set(e, GS_USAGE, "%s: '%.*s%s' is not a number of seconds from 0.1 to "
                                       "86400; give one like 10 or 0.5", option, GS_ECHO(v));
    *dst = s;
    return GS_OK;
}

/* --min-speed 0.8: a ratio above 0, at most 1. */
static int parse_ratio(const char *v, double *dst, struct gs_err *e)
{
    char *end = NULL;
    const double r = strtod(v, &end);
    if (!*v || end == v || *end || !(r > 0 && r <= 1))
        return gs_err_set(e, GS_USAGE, "--min-speed: '%.*s%s' is not a ratio above 0 and at most "
                                       "1; give one like 0.8 (80%% of the suite's loop)",
                          GS_ECHO(v));
    *dst = r;
    return GS_OK;
}

/* --tolerance 10% (or 10): a fraction above 0 and below 1. */
static int parse_percent(const char *v, double *out, struct gs_err *e)
{
    char *end = NULL;
    const double p = strtod(v, &end);
    if (!*v || end == v || (*end && strcmp(end, "%") != 0) || !(p > 0.0 && p < 100.0))
        return gs_err_set(e, GS_USAGE, "--tolerance: '%.*s%s' is not a percentage above 0 and "
                                       "below 100; write it like 10%% or 2.5%%", GS_ECHO(v));
    *out = p / 100.0;
    return GS_OK;
}

/* --arch sm_75,sm_90: a comma list like any other (check compiles each). */
static int parse_arch(const char *v, const char **arch, struct gs_err *e)
{
    char buf[256], *items[16];
    int n = 0;
    const int rc = gs_split_list(v, "--arch", "targets like sm_75,sm_90", buf, sizeof buf, items,
                                 16, &n, e);
    if (rc == GS_OK)
        *arch = v;
    return rc;
}

static int apply(struct gs_cli *c, const struct opt *o, const char *v, struct gs_err *e)
{
    int rc = GS_OK;
    switch (o->id) {
    case OPT_BACKEND:
        rc = set_name(&c->backend, v, o->name, "a backend, a comma list of them, or all", e);
        break;
    case OPT_DEVICE:
        rc = set_name(&c->device, v, o->name, "an index, id, name substring or all", e);
        break;
    case OPT_LIST: c->mode = GS_MODE_LIST; break;
    case OPT_SIZES:
        c->sizes_traps = strcmp(v, "traps") == 0;
        if (c->sizes_traps && c->command != GS_MODE_CHECK)
            return gs_err_set(e, GS_USAGE, "--sizes traps: only check takes it; give the sizes "
                                           "as N,N,...");
        c->nsizes = 0;
        if (!c->sizes_traps)
            rc = gs_parse_sizes(v, c->sizes, &c->nsizes, e);
        break;
    case OPT_SHAPE:
        if (c->nshapes == GS_MAX_SHAPES)
            return gs_err_set(e, GS_USAGE, "--shape: more than %d shapes; give at most %d",
                              GS_MAX_SHAPES, GS_MAX_SHAPES);
        rc = gs_parse_shape(v, &c->shapes[c->nshapes], e);
        c->nshapes += rc == GS_OK;
        break;
    case OPT_GRID: rc = gs_parse_u64(v, 1, 2147483647ull, "--grid", &c->grid, e); break;
    case OPT_BLOCK: rc = set_unsigned(&c->block, v, 1, 1u << 20, o->name, e); break;
    case OPT_KERNELS:
        rc = c->command == GS_MODE_TRACE ? parse_trace_kernels(v, c, e)
                                      : parse_kernels(v, &c->columns, e);
        break;
    case OPT_N: rc = gs_parse_u64(v, 1, GS_TRACE_MAX_N, "--n", &c->trace_n, e); break;
    case OPT_FORMAT:
        if (strcmp(v, "ctest-resources") == 0) {
            c->ctest_resources = 1; /* --list only: checked once parsing is done */
            break;
        }
        rc = gs_format_parse(v, &c->format, e);
        break;
    case OPT_OUTPUT:
        rc = set_name(&c->output, v, o->name, "a file name, or - for stdout", e);
        if (rc == GS_OK && strcmp(v, "-") == 0)
            c->output = NULL; /* stdout, as without --output */
        break;
    case OPT_BYTES: rc = parse_bytes(v, &c->bw_bytes, e); break;
    case OPT_REPS: rc = set_unsigned(&c->reps, v, 5, 100000, o->name, e); break;
    case OPT_SVG: rc = set_name(&c->svg, v, o->name, "a file name for the chart", e); break;
    case OPT_JSON: rc = set_name(&c->json, v, o->name, "a file name for the JSON copy", e); break;
    case OPT_QUIET: c->quiet = 1; break;
    case OPT_VERBOSE: c->verbose = 1; break;
    case OPT_WIDTH: rc = set_unsigned(&c->width, v, 40, 1000, o->name, e); break;
    case OPT_SWEEP: /* modes of bandwidth: set once parsing is done */
    case OPT_SPREAD: break;
    case OPT_TYPE: rc = parse_type(v, &c->type, e); break;
    case OPT_ENTRY: c->entry = v; break;
    case OPT_COMPILE_ONLY: c->compile_only = 1; break;
    case OPT_ARCH: rc = parse_arch(v, &c->arch, e); break;
    case OPT_TRAPS: rc = gs_parse_traps(v, &c->traps, e); break;
    case OPT_WATCHDOG: rc = set_unsigned(&c->watchdog, v, 1, 86400, o->name, e); break;
    case OPT_HTML: rc = set_name(&c->output, v, o->name, "a file name, or - for stdout", e); break;
    case OPT_TIMEOUT: rc = parse_seconds(v, o->name, &c->timeout, e); break;
    case OPT_TOLERANCE: rc = parse_percent(v, &c->tolerance, e); break;
    case OPT_FLEET: c->fleet = 1; break;
    case OPT_K: {
        char *end = NULL;
        const double k = strtod(v, &end);
        if (!*v || *end || !isfinite(k) || k <= 0 || k > 100)
            rc = gs_err_set(e, GS_USAGE, "--k is not a number above 0 and at most 100; give the "
                                         "interquartile ranges, such as 1.5 or 3");
        else
            c->fleet_k = k;
        break;
    }
    case OPT_NO_SPEED: c->no_speed = 1; break;
    case OPT_NO_COUNTERS: c->no_counters = 1; break;
    case OPT_COUNTERS: c->counters = 1; break;
    case OPT_NCU: rc = set_name(&c->ncu, v, o->name, "the path of Nsight Compute's ncu", e); break;
    case OPT_MIN_SPEED: rc = parse_ratio(v, &c->min_speed, e); break;
    case OPT_HELP: c->mode = GS_MODE_HELP; break;
    case OPT_VERSION: c->mode = GS_MODE_VERSION; break;
    default: break;
    }
    return rc;
}

/* The modes of `gridstride bandwidth` that replace its row table: each
 * belongs to bandwidth, and a run takes at most one of them. `why_not`
 * says why an option of bandwidth's rows does not apply to the mode. */
static const struct bandwidth_mode {
    enum opt_id opt;
    enum gs_mode mode;
    unsigned cmd;
    const char *why_not;
} bandwidth_modes[] = {
    {OPT_SWEEP, GS_MODE_SWEEP, CMD_SWEEP, ""},
    {OPT_SPREAD, GS_MODE_SPREAD, CMD_SPREAD, "one wave is the device's own grid G"},
};

static const char *option_name(enum opt_id id)
{
    for (int k = 0; k < OPT_COUNT; ++k)
        if (options[k].id == id)
            return options[k].name;
    return "";
}

/* The mode of bandwidth the options chose, into c->mode; *mode NULL for
 * the rows. */
static int bandwidth_mode_rules(const int *seen, struct gs_cli *c,
                                const struct bandwidth_mode **mode, struct gs_err *e)
{
    *mode = NULL;
    for (size_t i = 0; i < sizeof bandwidth_modes / sizeof bandwidth_modes[0]; ++i) {
        const struct bandwidth_mode *m = &bandwidth_modes[i];
        const char *name = option_name(m->opt);
        if (!seen[m->opt])
            continue;
        if (*mode)
            return gs_err_set(e, GS_USAGE, "%s and %s are two modes of bandwidth; choose one of "
                                           "them per run", option_name((*mode)->opt), name);
        *mode = m;
        c->mode = m->mode;
    }
    return GS_OK;
}

/* What a mode of bandwidth takes of bandwidth's options (the table above),
 * and of their values. */
static int mode_rules(const struct gs_cli *c, const struct bandwidth_mode *m, const int *seen,
                      struct gs_err *e)
{
    for (int i = 0; i < OPT_COUNT; ++i)
        if (seen[options[i].id] && (options[i].cmds & CMD_BW) && !(options[i].cmds & m->cmd))
            return gs_err_set(e, GS_USAGE, "%s does not apply to 'gridstride bandwidth %s': %s; "
                                           "leave %s out", options[i].name, option_name(m->opt),
                              m->why_not, options[i].name);
    if (m->mode != GS_MODE_SPREAD)
        return GS_OK;
    if (c->format == GS_FMT_MD || c->format == GS_FMT_CSV)
        return gs_err_set(e, GS_USAGE, "--format: bandwidth --spread writes text or json; "
                                       "choose one of those (the chart is --svg FILE)");
    if (c->reps > GS_SPREAD_MAX_REPS)
        return gs_err_set(e, GS_USAGE, "--reps: bandwidth --spread keeps at most %u launches "
                                       "per row; choose 5 to %u",
                          GS_SPREAD_MAX_REPS, GS_SPREAD_MAX_REPS);
    return GS_OK;
}

static const struct command *command_named(const char *word)
{
    for (size_t i = 0; i < NCOMMANDS; ++i)
        if (strcmp(word, commands[i].name) == 0)
            return &commands[i];
    return NULL;
}

/* An option the command does not take: one line naming the commands that
 * take it, from the table. */
static int refuse(const struct opt *o, const struct command *cmd, struct gs_err *e)
{
    char takers[256] = "";
    const char *first = NULL;
    size_t n = 0, k = 0;
    for (size_t i = 0; i < NCOMMANDS; ++i)
        n += (o->cmds & commands[i].cmds) != 0;
    for (size_t i = 0; i < NCOMMANDS; ++i) {
        if (!(o->cmds & commands[i].cmds))
            continue;
        const size_t len = strlen(takers);
        snprintf(takers + len, sizeof takers - len, "%s%s",
                 k == 0 ? "" : k + 1 == n ? " and " : ", ", commands[i].name);
        first = first ? first : commands[i].name;
        ++k;
    }
    return gs_err_set(e, GS_USAGE, "%s does not apply to 'gridstride %s'; only %s take%s it: "
                                   "leave it out, or see gridstride %s --help",
                      o->name, cmd->name, takers, n == 1 ? "s" : "", first ? first : cmd->name);
}

/* What a command needs once every option is read. */
static int command_rules(struct gs_cli *c, const int *seen, struct gs_err *e)
{
    if (c->ctest_resources && c->mode != GS_MODE_LIST)
        return gs_err_set(e, GS_USAGE, "--format ctest-resources belongs to --list; "
                                       "use gridstride --list --format ctest-resources");
    switch (c->command) {
    case GS_MODE_TABLE:
        if (c->mode == GS_MODE_LIST && (c->format == GS_FMT_MD || c->format == GS_FMT_CSV))
            return gs_err_set(e, GS_USAGE, "--format: --list writes text, json or "
                                           "ctest-resources; choose one of those");
        return GS_OK;
    case GS_MODE_CHECK:
        if (!c->file)
            return gs_err_set(e, GS_USAGE, "check needs a FILE; name one, as in gridstride check "
                                           "solve.cu (see gridstride check --help)");
        if (c->compile_only && !c->arch)
            return gs_err_set(e, GS_USAGE, "--compile-only needs --arch; add one, e.g. --arch "
                                           "sm_75,sm_90");
        if (c->arch && !c->compile_only)
            return gs_err_set(e, GS_USAGE, "--arch goes with --compile-only; a run compiles for "
                                           "the device's own architecture");
        return GS_OK;
    case GS_MODE_LECTURE:
        /* The deck's file: --html FILE, - for stdout, or the default name. */
        if (!c->output) {
            c->output = "lecture.html";
            c->lecture_default_name = 1;
        } else if (strcmp(c->output, "-") == 0) {
            c->output = NULL;
        }
        return GS_OK;
    case GS_MODE_COMPARE:
        if (seen[OPT_K] && !c->fleet)
            return gs_err_set(e, GS_USAGE, "--k goes with --fleet; add --fleet, or leave --k out");
        if (c->fleet) {
            static const enum opt_id not_fleet[] = {OPT_TOLERANCE, OPT_FORMAT, OPT_JSON};
            for (size_t k = 0; k < sizeof not_fleet / sizeof not_fleet[0]; ++k)
                if (seen[not_fleet[k]])
                    return gs_err_set(e, GS_USAGE, "%s does not apply to compare --fleet, whose "
                                                   "report is text; leave it out",
                                      option_name(not_fleet[k]));
            if (c->nfiles == 0)
                return gs_err_set(e, GS_USAGE, "compare --fleet: no results files; give the "
                                               "nodes' JSON files (see gridstride compare --help)");
            return GS_OK;
        }
        if (c->nfiles > GS_MAX_COMPARE)
            return gs_err_set(e, GS_USAGE, "compare: more than %d files; compare at most %d at "
                                           "a time (--fleet takes any number)",
                              GS_MAX_COMPARE, GS_MAX_COMPARE);
        if (c->format == GS_FMT_MD || c->format == GS_FMT_CSV)
            return gs_err_set(e, GS_USAGE, "--format: compare writes text or json; choose one "
                                           "of those");
        if (c->nfiles == 0)
            return gs_err_set(e, GS_USAGE, "compare: give one or more results files (JSON); see "
                                           "gridstride compare --help");
        return GS_OK;
    case GS_MODE_TRACE:
        if (c->format == GS_FMT_MD || c->format == GS_FMT_CSV)
            return gs_err_set(e, GS_USAGE, "--format: trace writes text or json; the picture is "
                                           "--svg FILE");
        return GS_OK;
    case GS_MODE_BANDWIDTH: {
        const struct bandwidth_mode *mode;
        if (bandwidth_mode_rules(seen, c, &mode, e) != GS_OK)
            return GS_USAGE;
        if (mode && mode_rules(c, mode, seen, e) != GS_OK)
            return e->status;
        if (mode && c->type != GS_TYPE_FLOAT)
            return gs_err_set(e, GS_USAGE, "--type double: bandwidth %s runs the float kernels "
                                           "only; leave --type out, or run the rows in double "
                                           "without %s",
                              option_name(mode->opt), option_name(mode->opt));
        return GS_OK;
    }
    default:
        return GS_OK;
    }
}

/* A word that is not an option, argv[i]: check's FILE, compare's files.
 * Compare's are gathered in argv itself, from argv[first] on: each is moved
 * to a slot already read, so any number fit. */
static int positional(struct gs_cli *c, char **argv, int first, int i, struct gs_err *e)
{
    const char *a = argv[i];
    if (c->command == GS_MODE_CHECK && !c->file) {
        c->file = a;
        return GS_OK;
    }
    if (c->command == GS_MODE_COMPARE) {
        c->files = argv + first;
        argv[first + c->nfiles++] = argv[i];
        return GS_OK;
    }
    return gs_err_set(e, GS_USAGE, "unknown argument '%.*s%s'; see gridstride %s%s--help",
                      GS_ECHO(a), c->named ? command_of(c->command)->name : "",
                      c->named ? " " : "");
}

int gs_cli_parse(int argc, char **argv, struct gs_cli *c, struct gs_err *e)
{
    int seen[OPT_COUNT] = {0};
    int first = 1;
    const struct command *cmd = &commands[0];

    memset(c, 0, sizeof *c);
    c->backend = "all";
    c->columns = (1u << GS_COLUMNS) - 1;
    c->format = GS_FMT_TEXT;
    c->traps = (1u << GS_TRAPS) - 1;
    c->fleet_k = GS_FLEET_DEFAULT_K;
    if (argc > 1 && command_named(argv[1])) {
        cmd = command_named(argv[1]);
        c->named = 1;
        first = 2;
    }
    c->mode = c->command = cmd->mode;
    c->check = cmd->mode == GS_MODE_CHECK;
    c->lecture = cmd->mode == GS_MODE_LECTURE;
    const char *see = c->named ? cmd->name : "";
    const char *sep = c->named ? " " : "";
    for (int i = first; i < argc; ++i) {
        const char *inline_value;
        const struct opt *o = find_opt(argv[i], &inline_value);
        if (!o && argv[i][0] == '-' && argv[i][1] != '\0')
            return gs_err_set(e, GS_USAGE, "unknown option '%.*s%s'; see gridstride %s%s--help",
                              GS_ECHO(argv[i]), see, sep);
        int rc = o ? GS_OK : positional(c, argv, first, i, e);
        if (!o) {
            if (rc != GS_OK)
                return rc;
            continue;
        }
        if (!(o->cmds & cmd->cmds))
            return refuse(o, cmd, e);
        if (seen[o->id]++ && !o->repeatable)
            return gs_err_set(e, GS_USAGE, "%s given twice; give it once", o->name);
        const char *v = NULL;
        if (o->arg) {
            v = inline_value;
            if (!v) {
                /* No option takes a value that starts with "--". */
                if (i + 1 >= argc || strncmp(argv[i + 1], "--", 2) == 0)
                    return gs_err_set(e, GS_USAGE, "%s needs a value (%s); see gridstride "
                                                   "%s%s--help", o->name, o->arg, see, sep);
                v = argv[++i];
            }
        } else if (inline_value) {
            return gs_err_set(e, GS_USAGE, "%s takes no value; write it alone, as %s", o->name,
                              o->name);
        }
        rc = apply(c, o, v, e);
        if (rc != GS_OK)
            return rc;
    }
    if (c->mode == GS_MODE_HELP || c->mode == GS_MODE_VERSION)
        return GS_OK;
    return command_rules(c, seen, e);
}
