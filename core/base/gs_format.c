/* SPDX-License-Identifier: MIT */
/* The output formats every report shares, and the escaping they need. */
#include "gs_format.h"

#include <stdio.h>
#include <string.h>

int gs_format_parse(const char *s, enum gs_format *f, struct gs_err *e)
{
    static const char *const names[] = {"text", "md", "csv", "json"};
    for (int i = 0; i < 4; ++i)
        if (s && strcmp(s, names[i]) == 0) {
            *f = (enum gs_format)i;
            return GS_OK;
        }
    return gs_err_set(e, GS_USAGE, "--format: unknown format '%.*s%s'; use text, md, csv or json",
                      GS_ECHO(s ? s : ""));
}

static void csv_quoted(struct gs_str *o, const char *s, const char *after)
{
    gs_str_printf(o, "\"");
    for (; *s; ++s)
        gs_str_printf(o, *s == '"' ? "\"\"" : "%c", *s);
    gs_str_printf(o, "\"%s", after);
}

void gs_csv_field(struct gs_str *o, const char *s)
{
    csv_quoted(o, s, ",");
}

void gs_csv_number(struct gs_str *o, int known, int precision, double v)
{
    if (known)
        gs_str_printf(o, "%.*f", precision, v);
    gs_str_printf(o, ",");
}

void gs_csv_last(struct gs_str *o, const char *s)
{
    csv_quoted(o, s, "\n");
}

void gs_svg_text(struct gs_str *o, double x, double y, double size, const char *attrs,
                 const char *s)
{
    gs_str_printf(o, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%.0f\"%s%s>", x, y, size,
                  attrs[0] ? " " : "", attrs);
    gs_str_xml(o, s);
    gs_str_printf(o, "</text>\n");
}
