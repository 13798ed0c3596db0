/* Reports go to stdout or to a file that appears whole or not at all: the
 * text is written to a temporary file beside it, which is renamed into
 * place only after every byte was written. */
#ifndef GS_OUTPUT_H
#define GS_OUTPUT_H

#include "gs_status.h"
#include "gs_str.h"

struct gs_outfile {
    const char *path; /* NULL: stdout */
    char tmp[4096];
    int fd;
};

/* Create the temporary file now, so an unwritable path fails before any
 * work is done. `what` names the option in messages ("--output"). */
int gs_outfile_open(struct gs_outfile *f, const char *path, const char *what, struct gs_err *e);
/* Write all of s and move the file into place (or write to stdout). */
int gs_outfile_commit(struct gs_outfile *f, const struct gs_str *s, const char *what,
                      struct gs_err *e);
/* Remove the temporary file, if any (safe after commit). */
void gs_outfile_abort(struct gs_outfile *f);

#endif
