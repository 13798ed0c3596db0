/* SPDX-License-Identifier: MIT */
/* Where reports go: stdout, or files that appear whole or not at all.
 *
 * Every output of a command is opened first, so an unwritable path fails
 * before any work is done. A regular file is written to a temporary file
 * beside it; only when every output has been written in full are the
 * temporaries renamed into place. A symbolic link is followed to its target;
 * a device or pipe (/dev/null, a FIFO) is written in place, since it cannot
 * be replaced. Two outputs naming one file are refused. A rewritten file
 * keeps its mode. A run ended by a signal (SIGINT, SIGTERM, SIGHUP, SIGQUIT,
 * or SIGPIPE when stdout's reader has gone) removes its temporaries. */
#ifndef GS_OUTPUT_H
#define GS_OUTPUT_H

#include <sys/types.h>

#include "gs_status.h"
#include "gs_str.h"

#define GS_MAX_OUTPUTS 3

struct gs_outfile {
    const char *what;   /* the option, for messages: "--output" */
    char path[4096];    /* "" for stdout; a link resolved to its target */
    char tmp[4096 + 16]; /* the temporary beside a regular file (path + ".tmp.XXXXXX"), else "" */
    int fd;             /* open temporary, or -1 */
    int in_place;       /* a device or pipe: written directly */
    int exists;         /* path named an existing file when added: */
    dev_t dev;          /*   its identity, so two outputs never name one file, */
    ino_t ino;
    mode_t mode;        /*   and its permission bits, kept when it is rewritten */
};

struct gs_outputs {
    int n;
    struct gs_outfile f[GS_MAX_OUTPUTS];
};

/* Add an output: path NULL for stdout. */
int gs_outputs_add(struct gs_outputs *o, const char *path, const char *what, struct gs_err *e);
/* Write texts[i] to output i, all of them, then move the files into place. */
int gs_outputs_commit(struct gs_outputs *o, const struct gs_str *const *texts, struct gs_err *e);
/* The outputs of a report with a chart: the report (output NULL: stdout),
 * then svg and json where not NULL, in that order. */
int gs_outputs_add_report(struct gs_outputs *o, const char *output, const char *svg,
                          const char *json, struct gs_err *e);
/* gs_outputs_commit of the texts in gs_outputs_add_report's order: the
 * report, then chart and json where not NULL. */
int gs_outputs_commit_report(struct gs_outputs *o, const struct gs_str *report,
                             const struct gs_str *chart, const struct gs_str *json,
                             struct gs_err *e);
/* GS_USAGE (one line, before anything is written) when the output `path`
 * (NULL: stdout) names one of the inputs: the same file by device and inode,
 * through any link, or the same resolved path. */
int gs_output_not_input(const char *path, const char *what, const char *const *inputs,
                        int ninputs, struct gs_err *e);
/* Remove every temporary still held (safe after commit, and to call twice). */
void gs_outputs_abort(struct gs_outputs *o);

#endif
