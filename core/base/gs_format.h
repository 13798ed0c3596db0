/* SPDX-License-Identifier: MIT */
/* The output formats of every report (text, Markdown, CSV, JSON), and the
 * escaping CSV and SVG need (JSON has its writer, gs_json_write.h).
 * Reports are built into a gs_str; the CLI writes it. */
#ifndef GS_FORMAT_H
#define GS_FORMAT_H

#include "gs_status.h"
#include "gs_str.h"

enum gs_format { GS_FMT_TEXT, GS_FMT_MD, GS_FMT_CSV, GS_FMT_JSON };

int gs_format_parse(const char *s, enum gs_format *f, struct gs_err *e);

/* A quoted CSV field and its comma. */
void gs_csv_field(struct gs_str *o, const char *s);
/* A number and its comma, or only the comma when it is not known (a
 * timing of a row that was not verified, a peak the driver does not give):
 * an empty field, as the JSON's null, never a 0 that reads as measured. */
void gs_csv_number(struct gs_str *o, int known, int precision, double v);
/* The last field of a row: quoted, and the row's newline. */
void gs_csv_last(struct gs_str *o, const char *s);
/* An SVG <text> at (x, y) in font-size `size`, with the extra attributes
 * `attrs` ("" for none), s escaped for XML. */
void gs_svg_text(struct gs_str *o, double x, double y, double size, const char *attrs,
                 const char *s);

#endif
