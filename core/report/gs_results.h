/* SPDX-License-Identifier: MIT */
/* The description of a results file (the JSON of the table and of
 * bandwidth, with --sweep and --spread), so that `gridstride compare` can
 * read files from other machines and other versions of the suite.
 * docs/results-formats.md and docs/schema/ document it.
 *
 * Every member a reader looks at is listed once, in GS_RESULTS_MEMBERS:
 * the object it belongs to, its key, what it must be, and whether a file
 * without it is refused. The writers name these members through GS_RK(),
 * and compare checks and reads them through the same table, so the two
 * cannot drift apart. Members that are only written (timings, rules,
 * diagnoses) are not listed. */
#ifndef GS_RESULTS_H
#define GS_RESULTS_H

#include "gs_json_read.h"
#include "gs_json_write.h"
#include "gs_status.h"

#define GS_RESULTS_SCHEMA "gridstride-results"
/* Raise on a change a reader of the previous version would misread
 * (a member removed or its meaning changed); new members do not need it. */
#define GS_RESULTS_SCHEMA_VERSION 1

/* The objects of a results file. A table device is DEVICE and
 * TABLE_DEVICE members; a bandwidth run, DEVICE and RUN members. */
enum gs_results_object {
    GS_RO_HEADER,       /* the file's own object */
    GS_RO_DEVICE,       /* the members naming a device */
    GS_RO_TABLE_DEVICE, /* one of "devices" (mode table) */
    GS_RO_CASE,         /* one of a table device's "cases" */
    GS_RO_OBSERVED,     /* a case's "observed" */
    GS_RO_RUN,          /* one of "runs" (mode bandwidth) */
    GS_RO_ROW           /* one of a run's "rows" */
};

enum gs_results_type {
    GS_RT_STRING, GS_RT_UINT /* a non-negative integer */, GS_RT_NUMBER, GS_RT_BOOL, GS_RT_ARRAY,
    GS_RT_OBJECT
};

/* X(name, object, key, type, required). Required members of the header
 * and of "observed" are checked by compare with messages of their own
 * (the schema's; an outcome's words); members marked 0 may be absent
 * (older files), and those noted are required in some cases only. */
#define GS_RESULTS_MEMBERS(X)                                                                  \
    X(SCHEMA, HEADER, "schema", STRING, 1)                                                     \
    X(SCHEMA_VERSION, HEADER, "schema_version", UINT, 1)                                       \
    X(MODE, HEADER, "mode", STRING, 1) /* table, bandwidth, bandwidth-sweep, bandwidth-spread */ \
    X(TOOL, HEADER, "tool", STRING, 0)                                                         \
    X(VERSION, HEADER, "version", STRING, 0)                                                   \
    X(COMMIT, HEADER, "commit", STRING, 0) /* absent in files before it was written */        \
    X(DATE, HEADER, "date", STRING, 0)                                                         \
    X(TOOLKIT, HEADER, "toolkit", STRING, 0)                                                   \
    X(COMMAND, HEADER, "command", STRING, 0)                                                   \
    X(RECONSTRUCTED, HEADER, "reconstructed", STRING, 0) /* only in files made by hand */      \
    X(DEVICES, HEADER, "devices", ARRAY, 0)              /* required, not empty: mode table */ \
    X(RUNS, HEADER, "runs", ARRAY, 0)                    /* required, not empty: bandwidth */  \
    X(BACKEND, DEVICE, "backend", STRING, 1)                                                   \
    X(DEVICE, DEVICE, "device", STRING, 1)                                                     \
    X(ID, DEVICE, "id", STRING, 1)                                                             \
    X(PLATFORM, DEVICE, "platform", STRING, 0)                                                 \
    X(API_VERSION, DEVICE, "api_version", STRING, 0)                                           \
    X(DRIVER_VERSION, DEVICE, "driver_version", STRING, 0)                                     \
    X(ARCH, DEVICE, "arch", STRING, 0)                                                         \
    X(PCI, DEVICE, "pci", STRING, 0)                                                           \
    X(COMPUTE_UNITS, DEVICE, "compute_units", UINT, 0)                                         \
    X(TABLE_G, TABLE_DEVICE, "G", UINT, 1)                                                     \
    X(TABLE_T, TABLE_DEVICE, "T", UINT, 1)                                                     \
    X(TABLE_CASES, TABLE_DEVICE, "cases", ARRAY, 1)                                            \
    X(CASE_SECTION, CASE, "section", STRING, 1) /* sizes, shapes or ragged */                  \
    X(CASE_COLUMN, CASE, "column", STRING, 1)   /* A, B, C or D */                             \
    X(CASE_N, CASE, "n", UINT, 1)                                                              \
    X(CASE_OBSERVED, CASE, "observed", OBJECT, 1)                                              \
    X(CASE_HELD, CASE, "held", BOOL, 1)                                                        \
    X(CASE_SHAPE, CASE, "shape", STRING, 0) /* required in the shapes section */               \
    X(CASE_DEVIATION, CASE, "deviation", BOOL, 0)                                              \
    X(OBSERVED_OUTCOME, OBSERVED, "outcome", STRING, 1) /* ok, wrong, refused, not launched */ \
    X(OBSERVED_FIRST_WRONG, OBSERVED, "first_wrong", UINT, 0) /* required when wrong */        \
    X(RUN_N, RUN, "n", UINT, 1)                                                                \
    X(RUN_ROWS, RUN, "rows", ARRAY, 1)                                                         \
    X(RUN_TYPE, RUN, "type", STRING, 0) /* float when absent (older files) */                  \
    X(ROW_VARIANT, ROW, "variant", STRING, 1)                                                  \
    X(ROW_VERIFIED, ROW, "verified", BOOL, 1)                                                  \
    X(ROW_GBPS, ROW, "gbps", NUMBER, 0) /* required when verified */

enum gs_results_member {
#define GS_RESULTS_ENUM(name, object, key, type, required) GS_RM_##name,
    GS_RESULTS_MEMBERS(GS_RESULTS_ENUM)
#undef GS_RESULTS_ENUM
    GS_RESULTS_NMEMBERS
};

struct gs_results_member_info {
    enum gs_results_object object;
    const char *key;
    enum gs_results_type type;
    int required;
};

extern const struct gs_results_member_info gs_results_members[GS_RESULTS_NMEMBERS];

/* The key of a listed member: GS_RK(CASE_N) is "n". */
#define GS_RK(name) (gs_results_members[GS_RM_##name].key)

/* 1 when v is of type t. */
int gs_results_is(const struct gs_json *v, enum gs_results_type t);
/* "a string", "a non-negative integer", ... */
const char *gs_results_type_words(enum gs_results_type t);

/* Check that obj is an object holding every required member of the
 * objects in `objects` (bits 1u << enum gs_results_object), in the order
 * of the list, each of its type; else GS_USAGE and one line naming
 * `where` and the member. */
int gs_results_check(const struct gs_json *obj, unsigned objects, const char *where,
                     struct gs_err *e);

/* Where and with what a run was made: the CLI fills it. */
struct gs_run_info {
    const char *version; /* gridstride's version */
    const char *command; /* the command line */
    const char *date;    /* UTC, ISO 8601: "2026-11-30T09:20:00Z" */
    const char *toolkit; /* the compilers and API headers it was built with */
};

/* The commit this build was made from, as --version prints it: 12 hex
 * digits, with "-modified" when the tree had uncommitted changes, or
 * "unknown (not a git checkout)". Every results file carries it ("commit"
 * in JSON, a last column "commit" in CSV, a "Commit:" line in Markdown). */
const char *gs_build_commit(void);

/* Opens the file's object and writes the header members, on lines
 * indented by two spaces; the caller continues with its own members and
 * closes the object. mode: "table", "bandwidth", "bandwidth-sweep" or
 * "bandwidth-spread". */
void gs_results_header(struct gs_jw *w, const char *mode, const struct gs_run_info *run);

/* The schemas of the tool's other JSON outputs, each described by
 * docs/schema/<kind>.schema.json as the results file is by
 * docs/schema/table.schema.json, bandwidth.schema.json, sweep.schema.json
 * and spread.schema.json. Their headers hold the same members as a
 * results file's: schema, schema_version, mode, tool, version, date,
 * toolkit and command. */
#define GS_PITFALLS_SCHEMA "gridstride-pitfalls"
#define GS_TRACE_SCHEMA "gridstride-trace"
#define GS_LIST_SCHEMA "gridstride-list"
#define GS_COMPARE_SCHEMA "gridstride-compare"
#define GS_CHECK_SCHEMA "gridstride-check"
#define GS_REPORT_SCHEMA_VERSION 1

/* gs_results_header with another schema: mode "pitfalls", "trace", "list",
 * "compare" or "check". */
void gs_report_header(struct gs_jw *w, const char *schema, int version, const char *mode,
                      const struct gs_run_info *run);

#endif
