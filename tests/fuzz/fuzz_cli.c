/* SPDX-License-Identifier: MIT */
/* libFuzzer target: the command line and the environment, through the same
 * functions gridstride's main() calls before it opens any backend
 * (gs_cli_parse, then gs_session_check), and so through every argument and
 * size parser: --sizes, --shape, --grid, --block, --bytes, --reps, --type, the
 * comma lists, --device indices, GRIDSTRIDE_REQUIRE.
 *
 * Input: NUL-separated strings. The first is GRIDSTRIDE_REQUIRE (empty:
 * unset); the others are argv[1], argv[2], ... Seeds in corpus/ are written
 * the same way (`tr '\0' ' ' < FILE` shows one).
 *
 * Invariants, checked on every input (a broken one aborts, which libFuzzer
 * and the replay both report):
 *   - no crash, no sanitizer report (in the sanitizer builds);
 *   - exit-code classes: a refusal is GS_USAGE (exit 2), never another
 *     status; input alone never yields exit 1, which belongs to results;
 *   - a refusal has one message, one line (no control character), naming
 *     the problem and, after "; ", the fix;
 *   - an accepted command line holds only values in their documented ranges. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gs_cli.h"
#include "gs_session.h"
#include "gs_spread.h"
#include "gs_table.h"

#define GS_FUZZ_MAX_ARGS 32
#define GS_FUZZ_MAX_BYTES 4096

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void invariant(int holds, const char *rule, const char *msg)
{
    if (holds)
        return;
    fprintf(stderr, "fuzz_cli: invariant broken: %s\n  message: %s\n", rule, msg ? msg : "");
    abort();
}

/* One line naming the problem and the fix, as main() prints it. */
static void check_refusal(int status, const struct gs_err *e)
{
    invariant(status == GS_USAGE, "a refused command line is a usage error (exit 2)", e->msg);
    invariant(e->status == status, "the message carries the status returned", e->msg);
    invariant(e->msg[0] != '\0', "a refusal says why", e->msg);
    for (const char *p = e->msg; *p; ++p)
        invariant((unsigned char)*p >= 0x20 && *p != 0x7f,
                  "a message is one line without control characters", e->msg);
    const char *fix = strstr(e->msg, "; ");
    invariant(fix && fix > e->msg && fix[2] != '\0', "a message names the problem, then the fix",
              e->msg);
}

static void check_sizes(const struct gs_cli *c)
{
    invariant(c->nsizes >= 0 && c->nsizes <= GS_MAX_SIZES, "at most GS_MAX_SIZES sizes", NULL);
    for (int i = 0; i < c->nsizes; ++i) {
        invariant(c->sizes[i] <= (1ull << 40), "every size is at most 2^40", NULL);
        invariant(i == 0 || c->sizes[i - 1] < c->sizes[i], "sizes are sorted and unique", NULL);
    }
    invariant(c->nshapes >= 0 && c->nshapes <= GS_MAX_SHAPES, "at most GS_MAX_SHAPES shapes", NULL);
    for (int i = 0; i < c->nshapes; ++i)
        invariant(c->shapes[i].grid >= 1 && c->shapes[i].grid <= UINT32_MAX &&
                      c->shapes[i].block >= 1 && c->shapes[i].block <= UINT32_MAX,
                  "a shape's grid and block are 1 to 2^32-1", NULL);
}

static void check_accepted(const struct gs_cli *c)
{
    check_sizes(c);
    invariant(c->mode >= GS_MODE_TABLE && c->mode <= GS_MODE_LECTURE, "a known mode", NULL);
    invariant(c->block <= (1u << 20), "--block is at most 2^20 (0: default)", NULL);
    invariant(c->grid <= 2147483647ull, "--grid is at most 2^31-1 (0: default)", NULL);
    invariant(c->reps == 0 || (c->reps >= 5 && c->reps <= 100000), "--reps is 5 to 100000", NULL);
    invariant(c->bw_bytes <= (1ull << 44), "--bytes is at most 16 TiB (0: default)", NULL);
    invariant(c->type == GS_TYPE_FLOAT || c->type == GS_TYPE_DOUBLE, "--type is float or double",
              NULL);
    invariant(c->columns != 0 && c->columns < (1u << GS_COLUMNS), "some known column runs", NULL);
    invariant(c->format <= GS_FMT_JSON, "a known format", NULL);
    invariant(c->backend && *c->backend, "a backend list", NULL);
    invariant(!c->output || *c->output, "no empty --output", NULL);
    invariant(!c->svg || *c->svg, "no empty --svg", NULL);
    invariant(!c->json || *c->json, "no empty --json", NULL);
    invariant(!c->device || *c->device, "no empty --device", NULL);
    if (c->mode == GS_MODE_SPREAD)
        invariant(c->grid == 0 && c->reps <= GS_SPREAD_MAX_REPS &&
                      (c->format == GS_FMT_TEXT || c->format == GS_FMT_JSON),
                  "bandwidth --spread: no --grid, at most GS_SPREAD_MAX_REPS reps, text or json",
                  NULL);
    if (c->mode == GS_MODE_SWEEP || c->mode == GS_MODE_SPREAD)
        invariant(c->type == GS_TYPE_FLOAT && c->nsizes == 0 && c->nshapes == 0,
                  "the modes of bandwidth: float only, none of the table's options", NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char buf[GS_FUZZ_MAX_BYTES + 1];
    char *argv[GS_FUZZ_MAX_ARGS + 1] = {"gridstride"};
    int argc = 1;
    struct gs_cli cli;
    struct gs_err e = {0};

    if (size > GS_FUZZ_MAX_BYTES)
        return 0; /* argv of 4 KiB covers every parser; longer only slows the search */
    memcpy(buf, data, size);
    buf[size] = '\0';
    const char *require = buf;
    for (char *p = buf; p < buf + size && argc < GS_FUZZ_MAX_ARGS; ++p)
        if (*p == '\0')
            argv[argc++] = p + 1;
    argv[argc] = NULL;
    if (*require)
        setenv("GRIDSTRIDE_REQUIRE", require, 1);
    else
        unsetenv("GRIDSTRIDE_REQUIRE");

    int rc = gs_cli_parse(argc, argv, &cli, &e);
    /* As main(): help, version and compare open no backend. */
    const int opens = cli.mode != GS_MODE_HELP && cli.mode != GS_MODE_VERSION &&
                      cli.mode != GS_MODE_COMPARE;
    if (rc == GS_OK && opens)
        rc = gs_session_check(&cli, &e);
    if (rc != GS_OK)
        check_refusal(rc, &e);
    else if (cli.mode == GS_MODE_COMPARE)
        invariant(cli.nfiles >= 1 && (cli.fleet || cli.nfiles <= GS_MAX_COMPARE),
                  "compare takes 1 to GS_MAX_COMPARE files, any number with --fleet", NULL);
    else
        check_accepted(&cli);
    return 0;
}
