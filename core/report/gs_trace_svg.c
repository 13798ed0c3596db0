/* SPDX-License-Identifier: MIT */
/* The picture of `gridstride trace`: seed 000's index-tracer, drawn from the
 * maps the devices recorded, laid out for a 1920 x 1080 projector frame.
 * One row per kernel: on the left its name, its launch, what its map shows
 * and the first warp's passes (the elements its 32 lanes wrote, and the
 * 128-byte segments they fall in); on the right the map, one cell per
 * element (or per bin of elements when n is over 4096): coloured by block,
 * shaded by pass, hollow where nothing was written, hatched where an element
 * was written more than once, thread 0's elements outlined. The APIs whose
 * maps are the same element by element share one map, as wide as the frame
 * allows (at the default 4096 elements, cells of 10 px); APIs whose maps
 * differ get a column each. The title and a legend on top; the caption is
 * the alt text (<desc>). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gs_format.h"
#include "gs_trace_report.h"

#define FONT "DejaVu Sans, Arial, Helvetica, sans-serif"
#define FRAME_W 1920.0
#define FRAME_H 1080.0
#define LEFT 20.0
#define SIDE_W 600.0   /* each kernel's words and warp view, left of its map */
#define AREA_W 1280.0  /* the maps: FRAME_W - LEFT - SIDE_W - 20 */
#define GAP 30.0       /* between columns of maps */
#define ROW_GAP 10.0   /* between kernels */
#define MIN_COLS 8u
#define MAX_COLS 128u
#define MAX_CELLS 4096u /* cells a map draws; beyond, elements are binned */
#define MAX_CELL 40.0
#define WARP_X (LEFT + 76.0) /* the warp bars, right of their "pass N" */
#define WARP_W 200.0
#define WARP_ROW 26.0
#define MAX_MAPS 8 /* columns of distinct maps drawn */
#define MAX_RUNS 64 /* runs drawn */

/* Tableau's categorical colours, which stay apart in print and for most
 * colour-blind readers. */
static const unsigned palette[] = {0x4e79a7, 0xf28e2b, 0xe15759, 0x76b7b2,
                                   0x59a14f, 0xedc948, 0xb07aa1, 0x9c755f};
#define COLOURS (sizeof palette / sizeof palette[0])

struct geometry {
    uint64_t n, bin, cells, cols, rows;
    double cell, height, width; /* of one map */
};

/* The largest cells that fit a map into w x h: columns in powers of two, so
 * that seed 000's cells 0, 1024, 2048 and 3072 line up in one column. */
static void geometry_of(uint64_t n, double w, double h, struct geometry *g)
{
    g->n = n;
    g->bin = (n + MAX_CELLS - 1) / MAX_CELLS;
    g->cells = (n + g->bin - 1) / g->bin;
    g->cell = 0;
    g->cols = MIN_COLS;
    g->rows = (g->cells + MIN_COLS - 1) / MIN_COLS;
    for (uint64_t cols = MIN_COLS; cols <= MAX_COLS; cols *= 2) {
        const uint64_t rows = (g->cells + cols - 1) / cols;
        double c = w / (double)cols;
        if (h / (double)rows < c)
            c = h / (double)rows;
        if (c > MAX_CELL)
            c = MAX_CELL;
        if (c > g->cell + 1e-9) {
            g->cell = c;
            g->cols = cols;
            g->rows = rows;
        }
    }
    g->width = (double)g->cols * g->cell;
    g->height = (double)g->rows * g->cell;
}

/* Pass p of `passes`: lighter for the first, darker for the last. */
static unsigned shade(unsigned rgb, uint64_t p, uint64_t passes)
{
    const double t = passes > 1 ? (double)p / (double)(passes - 1) : 0.5625;
    const double f = 0.45 - 0.8 * t; /* > 0: towards white; < 0: towards black */
    unsigned out = 0;
    for (int s = 16; s >= 0; s -= 8) {
        const double c = (double)((rgb >> s) & 0xffu);
        const double v = f > 0 ? c + (255.0 - c) * f : c * (1.0 + f);
        out |= (unsigned)(v + 0.5) << s;
    }
    return out;
}

static unsigned cell_colour(const struct gs_trace_kernel *k, const struct gs_trace_cell *c)
{
    return shade(palette[(c->writer / k->launch.block) % COLOURS], c->pass, k->passes);
}

/* ---- text helpers -------------------------------------------------------- */

/* s in lines of at most `chars` characters, broken at spaces; returns the y
 * below the last line. */
static double wrapped(struct gs_str *o, double x, double y, double size, const char *attrs,
                      const char *s, size_t chars)
{
    char line[512];
    while (*s) {
        size_t len = strlen(s);
        if (len > chars) {
            len = chars;
            while (len > 0 && s[len] != ' ')
                --len;
            if (len == 0)
                len = chars;
        }
        if (len >= sizeof line)
            len = sizeof line - 1;
        memcpy(line, s, len);
        line[len] = '\0';
        gs_svg_text(o, x, y, size, attrs, line);
        y += size * 1.35;
        s += len;
        while (*s == ' ')
            ++s;
    }
    return y;
}

/* ---- one strip ----------------------------------------------------------- */

struct bin {
    uint64_t written, size;
    int twice;
    unsigned colour; /* of its first written element */
};

static void bin_of(const struct gs_trace_kernel *k, const struct geometry *g, uint64_t b,
                   struct bin *out)
{
    const uint64_t lo = b * g->bin, hi = lo + g->bin < g->n ? lo + g->bin : g->n;
    *out = (struct bin){0, hi - lo, 0, 0};
    for (uint64_t i = lo; i < hi; ++i) {
        const struct gs_trace_cell *c = &k->cells[i];
        if (c->count == 0)
            continue;
        if (out->written++ == 0)
            out->colour = cell_colour(k, c);
        out->twice |= c->count > 1;
    }
}

static int same_run(const struct bin *a, const struct bin *b)
{
    return a->written == a->size && b->written == b->size && a->colour == b->colour &&
           a->twice == b->twice;
}

static void draw_run(struct gs_str *o, const struct geometry *g, uint64_t row, uint64_t c0,
                     uint64_t c1, const struct bin *b)
{
    const double x = (double)c0 * g->cell, y = (double)row * g->cell;
    const double w = (double)(c1 - c0) * g->cell;
    const double fill = (double)b->written / (double)b->size; /* a partly written bin */
    gs_str_printf(o, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"#%06x\"/>",
                  x, y + g->cell * (1.0 - fill), w, g->cell * fill, b->colour);
    if (b->twice)
        gs_str_printf(o, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" "
                         "fill=\"url(#twice)\"/>",
                      x, y, w, g->cell);
    gs_str_printf(o, "\n");
}

/* Runs of equal cells along each row: one rectangle each. */
static void draw_cells(struct gs_str *o, const struct gs_trace_kernel *k, const struct geometry *g)
{
    for (uint64_t r = 0; r < g->rows; ++r) {
        struct bin run, b;
        uint64_t start = 0;
        int open = 0;
        for (uint64_t c = 0; c <= g->cols; ++c) {
            const uint64_t idx = r * g->cols + c;
            const int have = c < g->cols && idx < g->cells;
            if (have)
                bin_of(k, g, idx, &b);
            if (open && (!have || !same_run(&run, &b))) {
                draw_run(o, g, r, start, c, &run);
                open = 0;
            }
            if (have && !open && b.written) {
                run = b;
                start = c;
                open = 1;
            }
        }
    }
}

/* Thread 0's elements outlined, so that seed 000's "thread 0 owning cells
 * 0, 1024, 2048 and 3072" can be checked on the picture. */
static void mark_thread0(struct gs_str *o, const struct gs_trace_kernel *k,
                         const struct geometry *g)
{
    if (g->bin > 1)
        return;
    for (uint64_t i = 0, marked = 0; i < g->n && marked < 256; ++i) {
        if (k->cells[i].writer != 0)
            continue;
        gs_str_printf(o, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" "
                         "fill=\"none\" stroke=\"#000000\" stroke-width=\"1.5\"/>",
                      (double)(i % g->cols) * g->cell - 0.75, (double)(i / g->cols) * g->cell - 0.75,
                      g->cell + 1.5, g->cell + 1.5);
        ++marked;
    }
    gs_str_printf(o, "\n");
}

static void draw_strip(struct gs_str *o, const struct gs_trace_kernel *k,
                       const struct geometry *g, double x, double y)
{
    gs_str_printf(o, "<g transform=\"translate(%.1f %.1f)\">\n", x, y);
    if (k->cells) {
        draw_cells(o, k, g);
        /* every cell outlined: hollow cells are the white ones */
        gs_str_printf(o, "<rect width=\"%.2f\" height=\"%.2f\" fill=\"url(#cells)\"/>\n",
                      (double)g->cols * g->cell, g->height);
        mark_thread0(o, k, g);
    } else {
        gs_str_printf(o, "<rect width=\"%.1f\" height=\"%.2f\" fill=\"#f2f2f2\"/>\n", g->width,
                      g->height);
    }
    gs_str_printf(o, "<rect width=\"%.1f\" height=\"%.2f\" fill=\"none\" stroke=\"#555555\" "
                     "stroke-width=\"1\"/>\n</g>\n",
                  g->width, g->height);
}

/* Two lines under a strip: what was written, and thread 0. */
static double strip_facts(struct gs_str *o, const struct gs_trace_kernel *k, double x, double y)
{
    struct gs_str s = {0};
    char a[32], b[32];
    if (!k->cells) {
        gs_str_printf(&s, "not traced: %s", k->why);
        y = wrapped(o, x, y, 16, "fill=\"#333333\"", s.data ? s.data : "", 64);
        gs_str_free(&s);
        return y;
    }
    gs_str_printf(&s, "%s of %s written, %llu %s", gs_trace_num(k->written, ",", a),
                  gs_trace_num(k->launch.n, ",", b), (unsigned long long)k->passes,
                  k->passes == 1 ? "pass" : "passes");
    if (k->duplicated)
        gs_str_printf(&s, ", %s written twice or more", gs_trace_num(k->duplicated, ",", a));
    gs_svg_text(o, x, y, 16, "", s.data ? s.data : "");
    gs_str_free(&s);
    if (k->first_unwritten < k->launch.n)
        gs_str_printf(&s, "first hollow: %llu; ", (unsigned long long)k->first_unwritten);
    if (k->thread0_total) {
        gs_str_printf(&s, "thread 0:");
        for (int i = 0; i < k->nthread0; ++i)
            gs_str_printf(&s, "%s %llu", i ? "," : "", (unsigned long long)k->thread0[i]);
        if ((uint64_t)k->nthread0 < k->thread0_total)
            gs_str_printf(&s, ", ...");
    }
    gs_svg_text(o, x, y + 21, 16, "", s.data ? s.data : "");
    gs_str_free(&s);
    if (!k->held)
        gs_svg_text(o, x, y + 42, 16, "fill=\"#c0392b\" font-weight=\"bold\"",
                "the map differs from the model");
    return y + (k->held ? 42 : 63);
}

/* ---- the warp view ------------------------------------------------------- */

/* The segments a step's elements span, whole. */
static void warp_window(const struct gs_warp_step *w, uint64_t *lo, uint64_t *hi)
{
    *lo = w->first / GS_TRACE_SEGMENT * GS_TRACE_SEGMENT;
    *hi = (w->last / GS_TRACE_SEGMENT + 1) * GS_TRACE_SEGMENT;
}

/* A warp's pass in few words, beside its bar: "0-124: 4 apart, 4
 * segments" (the text report's words without the lanes and the bytes,
 * which the heading says once). */
static void warp_words(const struct gs_warp_step *w, struct gs_str *o)
{
    char a[32];
    if (w->elements == 0) {
        gs_str_printf(o, "no element");
        return;
    }
    gs_str_printf(o, "%llu", (unsigned long long)w->first);
    if (w->last != w->first)
        gs_str_printf(o, "-%llu", (unsigned long long)w->last);
    const uint64_t per_lane = w->lanes ? w->elements / w->lanes : 0;
    if (w->lanes > 1 && w->apart == 1)
        gs_str_printf(o, ": adjacent");
    else if (w->lanes > 1 && w->apart == per_lane && w->elements == per_lane * w->lanes)
        gs_str_printf(o, ": %llu a lane", (unsigned long long)per_lane);
    else if (w->lanes > 1 && w->apart > 1)
        gs_str_printf(o, ": %s apart", gs_trace_num(w->apart, ",", a));
    else if (w->lanes > 1)
        gs_str_printf(o, ": uneven");
    gs_str_printf(o, ", %s segment%s", gs_trace_num(w->segments, ",", a),
                  w->segments == 1 ? "" : "s");
}

/* cw: the width of one element, the same for every kernel, so that 32
 * adjacent elements and 32 elements C apart are drawn to one scale. */
static void warp_row(struct gs_str *o, const struct gs_trace_kernel *k, int s, double cw,
                     double x, double y)
{
    const struct gs_warp_step *w = &k->warp[s];
    uint64_t lo, hi;
    warp_window(w, &lo, &hi);
    const double span = (double)(hi - lo);
    const double h = WARP_ROW - 10;
    const unsigned colour = shade(palette[0], (uint64_t)s, k->passes);
    gs_str_printf(o, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" fill=\"#eeeeee\"/>\n",
                  x, y, span * cw, h);
    for (uint64_t i = w->first; i <= w->last; ++i) {
        const struct gs_trace_cell *c = &k->cells[i];
        if (c->writer < GS_TRACE_WARP && c->writer < k->launch.block && c->pass == (uint32_t)s)
            gs_str_printf(o, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" "
                             "fill=\"#%06x\"/>",
                          x + (double)(i - lo) * cw, y, cw > 1.5 ? cw : 1.5, h, colour);
    }
    /* segment boundaries: a warp's access costs one transaction per segment */
    for (uint64_t b = lo; b <= hi && (hi - lo) / GS_TRACE_SEGMENT <= 64; b += GS_TRACE_SEGMENT)
        gs_str_printf(o, "<line x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" y2=\"%.1f\" stroke=\"#333333\" "
                         "stroke-width=\"1\"/>",
                      x + (double)(b - lo) * cw, y - 3, x + (double)(b - lo) * cw, y + h + 3);
    gs_str_printf(o, "\n");
    char label[32];
    snprintf(label, sizeof label, "pass %d", s);
    gs_svg_text(o, x - 10, y + h - 3, 16, "text-anchor=\"end\"", label);
    struct gs_str words = {0};
    warp_words(w, &words);
    gs_svg_text(o, x + WARP_W + 12, y + h - 3, 16, "", words.data ? words.data : "");
    gs_str_free(&words);
}

/* The first run that recorded kernel k. */
static const struct gs_trace_kernel *recorded(const struct gs_trace_report_in *in, int k,
                                              const char **api)
{
    for (int r = 0; r < in->nruns; ++r)
        if (in->runs[r]->k[k].cells && in->runs[r]->k[k].nsteps) {
            *api = in->runs[r]->dev->backend->name;
            return &in->runs[r]->k[k];
        }
    return NULL;
}

/* One element's width in the warp view: the widest window fills it. */
static double warp_scale(const struct gs_trace_report_in *in)
{
    uint64_t widest = GS_TRACE_SEGMENT;
    for (int k = 0; k < in->runs[0]->nkernels; ++k) {
        const char *api;
        const struct gs_trace_kernel *tk = recorded(in, k, &api);
        for (int s = 0; tk && s < tk->nsteps; ++s) {
            uint64_t lo, hi;
            warp_window(&tk->warp[s], &lo, &hi);
            if (hi - lo > widest)
                widest = hi - lo;
        }
    }
    return WARP_W / (double)widest < 6.0 ? WARP_W / (double)widest : 6.0;
}

/* ---- frame: title, legend, headers, caption ------------------------------ */

static void api_words(const struct gs_trace_report_in *in, struct gs_str *o)
{
    for (int r = 0; r < in->nruns; ++r)
        gs_str_printf(o, "%s%s (%s)", r == 0 ? "" : r + 1 == in->nruns ? " and " : ", ",
                      in->runs[r]->dev->backend->name, in->runs[r]->dev->name);
}

static int launches_all_accepted(const struct gs_trace_report_in *in)
{
    for (int r = 0; r < in->nruns; ++r)
        for (int k = 0; k < in->runs[r]->nkernels; ++k)
            if (!in->runs[r]->k[k].got.accepted)
                return 0;
    return 1;
}

static int all_held(const struct gs_trace_report_in *in)
{
    for (int r = 0; r < in->nruns; ++r)
        if (in->runs[r]->failed)
            return 0;
    return 1;
}

/* What the picture shows, in sentences: the caption and the alt text. */
static void caption_text(const struct gs_trace_report_in *in, const struct geometry *g,
                         struct gs_str *o)
{
    const struct gs_trace_plan *p = &in->runs[0]->plan;
    char a[32], b[32];
    gs_str_printf(o, "A grid of %s threads (%llu blocks of %llu) over %s elements, recorded on "
                     "the device through ",
                  gs_trace_num(p->grid * p->block, ",", a), (unsigned long long)p->grid,
                  (unsigned long long)p->block, gs_trace_num(p->n, ",", b));
    api_words(in, o);
    gs_str_printf(o, ". ");
    for (int k = 0; k < in->runs[0]->nkernels; ++k) {
        const char *api;
        const struct gs_trace_kernel *tk = recorded(in, k, &api);
        gs_trace_sentence(tk ? tk : &in->runs[0]->k[k], ",", o);
        gs_str_printf(o, " ");
    }
    if (launches_all_accepted(in))
        gs_str_printf(o, "Every API reported success for every launch: only the map shows the "
                         "difference. ");
    int granted = 0;
    for (int r = 0; r < in->nruns; ++r)
        granted |= gs_trace_ran_other_launch(in, r);
    if (all_held(in) && in->agreed)
        gs_str_printf(o, "Each map equals the model's prediction element by element%s.",
                      in->nruns < 2 ? ""
                      : granted     ? ", and the APIs that ran the same launch recorded the same map"
                                    : ", and every API recorded the same map");
    else
        gs_str_printf(o, "SOME MAPS DIFFER from the model or between the APIs: see the text "
                         "report.");
    if (g->bin > 1)
        gs_str_printf(o, " Too many elements to draw one by one: each cell is a bin of %s, "
                         "coloured by its first written element, filled in proportion to the "
                         "elements written, hatched when any was written twice.",
                      gs_trace_num(g->bin, ",", a));
}

/* About how wide a line of text of `size` px is (DejaVu Sans averages a
 * little under 0.6 em a character). */
static double text_width(const char *s, double size)
{
    return (double)strlen(s) * size * 0.6;
}

/* The legend in rows that fit the picture's width: an entry that would
 * pass the right edge starts the next row. Returns the last row's y. */
struct flow {
    double x, y, width;
};

static void flow_room(struct flow *f, double w)
{
    if (f->x > LEFT && f->x + w > f->width - LEFT) {
        f->x = LEFT;
        f->y += 28;
    }
}

static void swatch(struct gs_str *o, const struct flow *f, double dx, unsigned rgb,
                   const char *extra)
{
    gs_str_printf(o, "<rect x=\"%.1f\" y=\"%.1f\" width=\"18\" height=\"18\" fill=\"#%06x\" %s/>",
                  f->x + dx, f->y - 15, rgb, extra);
}

static void entry_text(struct gs_str *o, struct flow *f, double dx, const char *words)
{
    gs_svg_text(o, f->x + dx, f->y, 17, "", words);
    f->x += dx + text_width(words, 17) + 26;
}

static double legend(struct gs_str *o, const struct gs_trace_report_in *in, double width,
                     double y)
{
    const struct gs_trace *t0 = in->runs[0];
    uint64_t passes = 1;
    struct flow f = {LEFT, y, width};
    char label[32];
    for (int k = 0; k < t0->nkernels; ++k)
        if (t0->k[k].passes > passes)
            passes = t0->k[k].passes;
    const uint64_t blocks = t0->plan.grid < COLOURS ? t0->plan.grid : COLOURS;
    for (uint64_t b = 0; b < blocks; ++b) {
        snprintf(label, sizeof label, "block %llu", (unsigned long long)b);
        flow_room(&f, 24 + text_width(label, 17));
        swatch(o, &f, 0, palette[b], "");
        entry_text(o, &f, 24, label);
    }
    if (t0->plan.grid > COLOURS) {
        flow_room(&f, text_width("(colours repeat every 8 blocks)", 17));
        entry_text(o, &f, 0, "(colours repeat every 8 blocks)");
    }
    const int ramp = passes < 4 ? (int)passes : 4;
    const char *ramp_words = passes > 1 ? "passes: first (light) to last (dark)" : "one pass";
    flow_room(&f, ramp * 22 + 4 + text_width(ramp_words, 17));
    for (int s = 0; s < ramp; ++s)
        swatch(o, &f, s * 22,
               shade(palette[0], ramp > 1 ? (passes - 1) * (uint64_t)s / (uint64_t)(ramp - 1) : 0,
                     passes),
               "");
    entry_text(o, &f, ramp * 22 + 4, ramp_words);
    flow_room(&f, 24 + text_width("never written", 17));
    gs_str_printf(o, "<rect x=\"%.1f\" y=\"%.1f\" width=\"18\" height=\"18\" fill=\"white\" "
                     "stroke=\"#888888\"/>",
                  f.x, f.y - 15);
    entry_text(o, &f, 24, "never written");
    flow_room(&f, 24 + text_width("written twice or more", 17));
    swatch(o, &f, 0, palette[0], "");
    gs_str_printf(o, "<rect x=\"%.1f\" y=\"%.1f\" width=\"18\" height=\"18\" fill=\"url(#twice)\"/>",
                  f.x, f.y - 15);
    entry_text(o, &f, 24, "written twice or more");
    flow_room(&f, 24 + text_width("thread 0's elements", 17));
    swatch(o, &f, 0, palette[0], "stroke=\"#000000\" stroke-width=\"2.5\"");
    entry_text(o, &f, 24, "thread 0's elements");
    return f.y;
}

static void defs(struct gs_str *o, const struct geometry *g)
{
    gs_str_printf(o, "<defs>\n<pattern id=\"cells\" width=\"%.3f\" height=\"%.3f\" "
                     "patternUnits=\"userSpaceOnUse\"><path d=\"M %.3f 0 L 0 0 0 %.3f\" "
                     "fill=\"none\" stroke=\"#9a9a9a\" stroke-width=\"%.2f\"/></pattern>\n",
                  g->cell, g->cell, g->cell, g->cell, g->cell < 8 ? 0.5 : 1.0);
    gs_str_printf(o, "<pattern id=\"twice\" width=\"5\" height=\"5\" patternUnits=\"userSpaceOnUse\" "
                     "patternTransform=\"rotate(45)\"><rect width=\"1.6\" height=\"5\" "
                     "fill=\"#111111\" fill-opacity=\"0.6\"/></pattern>\n</defs>\n");
}

/* The picture's frame: the svg element of the given height, its <title>
 * and <desc> (the caption), the shared patterns, a white ground, then body. */
static void frame(struct gs_str *o, double height, const struct gs_str *title,
                  const struct gs_str *caption, const struct geometry *g,
                  const struct gs_str *body)
{
    gs_str_printf(o, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
                     "viewBox=\"0 0 %.0f %.0f\" font-family=\"%s\" role=\"img\" "
                     "aria-labelledby=\"title desc\">\n<title id=\"title\">",
                  FRAME_W, height, FRAME_W, height, FONT);
    gs_str_xml(o, title->data ? title->data : "");
    gs_str_printf(o, "</title>\n<desc id=\"desc\">");
    gs_str_xml(o, caption->data ? caption->data : "");
    gs_str_printf(o, "</desc>\n");
    defs(o, g);
    gs_str_printf(o, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n%s</svg>\n",
                  body->data ? body->data : "");
}

/* ---- the maps: one column per distinct map ----------------------------- */

/* Runs a and b recorded the same map of every kernel, element by element. */
static int same_maps(const struct gs_trace *a, const struct gs_trace *b)
{
    for (int k = 0; k < a->nkernels && k < b->nkernels; ++k) {
        const struct gs_trace_kernel *x = &a->k[k], *y = &b->k[k];
        if (!x->cells != !y->cells)
            return 0;
        if (!x->cells)
            continue;
        if (!gs_trace_same_launch(&x->launch, &y->launch) ||
            memcmp(x->cells, y->cells, x->launch.n * sizeof *x->cells) != 0)
            return 0;
    }
    return 1;
}

/* col[r]: the column of run r; returns the number of columns. Runs past
 * MAX_MAPS distinct maps share the last column's header, never drawn. */
static int map_columns(const struct gs_trace_report_in *in, int *col, int *lead)
{
    int ncols = 0;
    for (int r = 0; r < in->nruns; ++r) {
        col[r] = -1;
        for (int c = 0; c < ncols && col[r] < 0; ++c)
            if (same_maps(in->runs[lead[c]], in->runs[r]))
                col[r] = c;
        if (col[r] < 0 && ncols < MAX_MAPS) {
            lead[ncols] = r;
            col[r] = ncols++;
        }
    }
    return ncols;
}

/* "host and opencl": the backends of column c (every run when c < 0). */
static void column_apis(const struct gs_trace_report_in *in, const int *col, int c,
                        struct gs_str *o)
{
    int n = 0, total = 0;
    for (int r = 0; r < in->nruns; ++r)
        total += c < 0 || col[r] == c;
    for (int r = 0; r < in->nruns; ++r) {
        if (c >= 0 && col[r] != c)
            continue;
        gs_str_printf(o, "%s%s", n == 0 ? "" : n + 1 == total ? " and " : ", ",
                      in->runs[r]->dev->backend->name);
        ++n;
    }
}

/* ---- each kernel's words and warp, left of its maps --------------------- */

static void side_panel(struct gs_str *o, const struct gs_trace_report_in *in, int k,
                       int ncols, double cw, double y, double h)
{
    const char *api = "";
    const struct gs_trace_kernel *k0 = &in->runs[0]->k[k], *tk = recorded(in, k, &api);
    struct gs_str words = {0};
    gs_svg_text(o, LEFT, y + 24, 26, "font-weight=\"bold\"",
                gs_kernel_info(k0->launch.kernel)->name);
    gs_trace_launch_words(&k0->launch, ",", &words);
    gs_svg_text(o, LEFT, y + 48, 18, "fill=\"#444444\"", words.data ? words.data : "");
    gs_str_free(&words);
    double yy = y + 74;
    /* one column: its facts here; several: under each map, and here where
     * the maps first differ */
    if (ncols == 1)
        yy = strip_facts(o, tk ? tk : k0, LEFT, yy) + 4;
    else if (in->agree && !in->agree[k].equal && in->agree[k].compared > 1) {
        char line[96];
        snprintf(line, sizeof line, "the maps differ, first at element %llu",
                 (unsigned long long)in->agree[k].first_difference);
        gs_svg_text(o, LEFT, yy, 18, "fill=\"#c0392b\" font-weight=\"bold\"", line);
        yy += 30;
    }
    if (!tk || yy + 24 + WARP_ROW > y + h)
        return;
    gs_svg_text(o, LEFT, yy + 14, 18, "font-weight=\"bold\"",
                "warp 0 (lanes 0-31), by pass:");
    yy += 24;
    for (int s = 0; s < tk->nsteps && yy + WARP_ROW <= y + h + 4; ++s, yy += WARP_ROW)
        warp_row(o, tk, s, cw, WARP_X, yy);
}

void gs_trace_svg(const struct gs_trace_report_in *in, struct gs_str *o)
{
    if (in->nruns == 0)
        return;
    const struct gs_trace *t0 = in->runs[0];
    struct geometry g;
    struct gs_str body = {0}, caption = {0}, title = {0}, sub = {0};
    int col[MAX_RUNS], lead[MAX_MAPS];
    char a[32];
    const int nruns = in->nruns < MAX_RUNS ? in->nruns : MAX_RUNS;
    const struct gs_trace_report_in cut = {in->runs, nruns, in->agree, in->agreed, in->version,
                                           in->command, in->date, in->toolkit};
    const int ncols = map_columns(&cut, col, lead);
    const int nk = t0->nkernels > 0 ? t0->nkernels : 1;

    /* the top: title, the APIs and what they agree on, the legend */
    double y = 30;
    gs_str_printf(&title, "Who wrote each element: <<<%llu, %llu>>> over %s elements, recorded "
                          "on the device",
                  (unsigned long long)t0->plan.grid, (unsigned long long)t0->plan.block,
                  gs_trace_num(t0->plan.n, ",", a));
    gs_svg_text(&body, LEFT, y, 26, "font-weight=\"bold\"", title.data ? title.data : "");
    y += 26;
    gs_str_printf(&sub, "Recorded through ");
    column_apis(&cut, col, -1, &sub);
    if (ncols == 1)
        gs_str_printf(&sub, nruns > 1 ? ": every API recorded this map, element by element" : "");
    else
        gs_str_printf(&sub, ": %d different maps, one column each", ncols);
    gs_str_printf(&sub, all_held(&cut) ? "; each map is the model's at every element."
                                       : "; SOME MAPS DIFFER from the model: see the text report.");
    const uint64_t bin = (t0->plan.n + MAX_CELLS - 1) / MAX_CELLS;
    if (bin > 1)
        gs_str_printf(&sub, " One cell: %s elements, coloured by the first written, filled in "
                            "proportion to those written.",
                      gs_trace_num(bin, ",", a));
    y = wrapped(&body, LEFT, y, 18, all_held(&cut) && ncols == 1 ? "fill=\"#333333\""
                                                                : "fill=\"#c0392b\"",
                sub.data ? sub.data : "", (size_t)((FRAME_W - 2 * LEFT) / 10.5)) + 2;
    y = legend(&body, &cut, FRAME_W, y) + 10;

    /* the rows: the frame's height shared by the kernels */
    const double heads = ncols > 1 ? 30.0 : 0.0;
    const double facts = ncols > 1 ? 50.0 : 0.0;
    double row_h = (FRAME_H - 6 - y - heads - (nk - 1) * ROW_GAP) / nk;
    if (row_h < 240)
        row_h = 240; /* many kernels: a taller picture, shown smaller */
    const double col_w = (AREA_W - (ncols - 1) * GAP) / ncols;
    geometry_of(t0->plan.n, col_w, row_h - facts, &g);
    const double x0 = LEFT + SIDE_W;
    if (ncols > 1) {
        for (int c = 0; c < ncols; ++c) {
            struct gs_str h = {0};
            column_apis(&cut, col, c, &h);
            gs_svg_text(&body, x0 + c * (col_w + GAP), y + 20, 22, "font-weight=\"bold\"",
                        h.data ? h.data : "");
            gs_str_free(&h);
        }
        y += heads;
    }
    const double cw = warp_scale(&cut);
    for (int k = 0; k < t0->nkernels; ++k, y += row_h + ROW_GAP) {
        side_panel(&body, &cut, k, ncols, cw, y, row_h);
        for (int c = 0; c < ncols; ++c) {
            const struct gs_trace_kernel *tk = &in->runs[lead[c]]->k[k];
            const double x = x0 + c * (col_w + GAP);
            draw_strip(&body, tk, &g, x, y);
            if (ncols > 1)
                strip_facts(&body, tk, x, y + g.height + 20);
        }
    }
    const double height = y - ROW_GAP + 6 > FRAME_H ? y - ROW_GAP + 6 : FRAME_H;
    caption_text(&cut, &g, &caption);

    frame(o, height, &title, &caption, &g, &body);
    if (body.failed || caption.failed || title.failed || sub.failed)
        o->failed = 1;
    gs_str_free(&body);
    gs_str_free(&caption);
    gs_str_free(&title);
    gs_str_free(&sub);
}

/* ---- check's count of a user's kernel ---------------------------------- */

/* The recorded map of a count: writers per element and the first, the pass
 * derived (rank among the first writer's elements, in index order). */
static int count_kernel(const struct gs_count_picture_in *in, struct gs_trace_kernel *k)
{
    const uint64_t T = in->grid * in->block;
    uint32_t *rank = calloc(T ? T : 1, sizeof *rank);
    k->cells = calloc(in->n ? in->n : 1, sizeof *k->cells);
    if (!rank || !k->cells) {
        free(rank);
        free(k->cells);
        k->cells = NULL;
        return -1;
    }
    k->launch.n = in->n;
    k->launch.grid = in->grid;
    k->launch.block = in->block;
    k->held = 1;
    k->first_unwritten = in->n;
    for (uint64_t i = 0; i < in->n; ++i) {
        struct gs_trace_cell *c = &k->cells[i];
        c->count = in->count[i];
        if (c->count == 0 || in->first[i] >= T) {
            c->count = 0;
            c->writer = GS_TRACE_NONE;
            c->pass = GS_TRACE_NO_PASS;
            if (k->first_unwritten == in->n)
                k->first_unwritten = i;
            continue;
        }
        c->writer = in->first[i];
        c->pass = rank[c->writer]++;
        if (c->pass + 1 > k->passes)
            k->passes = c->pass + 1;
        k->written++;
        k->writes += c->count;
        k->duplicated += c->count > 1;
        if (c->count > k->max_count)
            k->max_count = c->count;
        if (c->writer == 0) {
            if (k->nthread0 < GS_TRACE_SHOWN)
                k->thread0[k->nthread0++] = i;
            k->thread0_total++;
        }
    }
    free(rank);
    return 0;
}

void gs_count_svg(const struct gs_count_picture_in *in, struct gs_str *o)
{
    struct gs_trace *t = calloc(1, sizeof *t);
    struct gs_str body = {0}, caption = {0}, title = {0}, sub = {0}, side = {0};
    struct geometry g;
    char a[32], b[32], c3[32];
    if (!t) {
        o->failed = 1;
        return;
    }
    struct gs_trace_kernel *k = &t->k[0];
    t->nkernels = 1;
    t->plan.grid = in->grid;
    t->plan.block = in->block;
    t->plan.n = in->n;
    const int drawn = in->count && in->first && in->n && count_kernel(in, k) == 0;
    if (in->count && in->first && in->n && !drawn)
        body.failed = 1;
    const struct gs_trace *runs[1] = {t};
    const struct gs_trace_report_in tin = {runs, 1, NULL, 1, in->version, in->command, in->date,
                                           ""};

    double y = 30;
    /* The file's own name: the picture is the same wherever the file lies. */
    const char *slash = strrchr(in->file, '/');
    gs_str_printf(&title, "Who wrote each element: %s in %s, <<<%llu, %llu>>> over %s "
                          "elements, counted on the %s backend",
                  in->entry, slash ? slash + 1 : in->file, (unsigned long long)in->grid,
                  (unsigned long long)in->block, gs_trace_num(in->n, ",", a), in->counted_on);
    y = wrapped(&body, LEFT, y, 26, "font-weight=\"bold\"", title.data ? title.data : "",
                (size_t)((FRAME_W - 2 * LEFT) / 15.6));
    gs_str_printf(&sub, "Every case was right on %s. Each thread of the launch ran alone on a "
                        "poisoned output, in the %s backend's sandboxed worker; an element "
                        "that is no longer poison counts one writer.",
                  in->checked_on, in->counted_on);
    if (strcmp(in->checked_on, in->counted_on) != 0)
        gs_str_printf(&sub, " A .gs text writes the same elements on every backend.");
    if (drawn)
        gs_str_printf(&sub, " The pass of an element is derived: its rank among the elements "
                            "its first writer wrote, in index order.");
    y = wrapped(&body, LEFT, y + 2, 18, "fill=\"#333333\"", sub.data ? sub.data : "",
                (size_t)((FRAME_W - 2 * LEFT) / 10.5)) + 2;
    y = legend(&body, &tin, FRAME_W, y) + 10;

    const double row_h = FRAME_H - 6 - y;
    geometry_of(in->n ? in->n : 1, AREA_W, row_h, &g);
    /* the side: the kernel, its launch, the count's facts and verdict */
    gs_svg_text(&body, LEFT, y + 24, 26, "font-weight=\"bold\"", in->entry);
    gs_str_printf(&side, "n = %s, <<<%llu, %llu>>> (T = %s)", gs_trace_num(in->n, ",", a),
                  (unsigned long long)in->grid, (unsigned long long)in->block,
                  gs_trace_num(in->grid * in->block, ",", b));
    gs_svg_text(&body, LEFT, y + 48, 18, "fill=\"#444444\"", side.data ? side.data : "");
    double yy = y + 74;
    if (drawn) {
        gs_str_free(&side);
        gs_str_printf(&side, "%s of %s written, %s writes, at most %llu writers of one element",
                      gs_trace_num(k->written, ",", a), gs_trace_num(in->n, ",", b),
                      gs_trace_num(k->writes, ",", c3),
                      (unsigned long long)k->max_count);
        yy = wrapped(&body, LEFT, yy, 16, "", side.data ? side.data : "", 64);
        gs_str_free(&side);
        if (k->thread0_total) {
            gs_str_printf(&side, "thread 0 first wrote:");
            for (int i = 0; i < k->nthread0; ++i)
                gs_str_printf(&side, "%s %llu", i ? "," : "", (unsigned long long)k->thread0[i]);
            if ((uint64_t)k->nthread0 < k->thread0_total)
                gs_str_printf(&side, ", ...");
            yy = wrapped(&body, LEFT, yy, 16, "", side.data ? side.data : "", 64);
        }
        yy += 8;
    }
    wrapped(&body, LEFT, yy, 17, drawn && k->duplicated ? "fill=\"#c0392b\"" : "fill=\"#333333\"",
            in->words, 62);
    draw_strip(&body, k, &g, LEFT + SIDE_W, y);

    /* the caption: the alt text */
    gs_str_printf(&caption, "A grid of %s threads (%llu blocks of %llu) over %s elements: the "
                            "kernel %s of %s, each thread run alone on a poisoned output on the "
                            "%s backend. ",
                  gs_trace_num(in->grid * in->block, ",", a), (unsigned long long)in->grid,
                  (unsigned long long)in->block, gs_trace_num(in->n, ",", b), in->entry,
                  in->file, in->counted_on);
    if (drawn) {
        gs_str_printf(&caption, "%s of %s elements written, %s written twice or more. ",
                      gs_trace_num(k->written, ",", a), gs_trace_num(in->n, ",", b),
                      gs_trace_num(k->duplicated, ",", c3));
        gs_str_printf(&caption, "Each element is coloured by the block of its first writer. The "
                                "count records who wrote, not when: an element's pass is derived "
                                "as its rank among the elements its first writer wrote, in index "
                                "order. ");
        if (g.bin > 1)
            gs_str_printf(&caption, "Too many elements to draw one by one: each cell is a bin "
                                    "of %s, coloured by its first written element, filled in "
                                    "proportion to the elements written, hatched when any was "
                                    "written twice. ",
                          gs_trace_num(g.bin, ",", a));
    }
    gs_str_printf(&caption, "%s", in->words);

    const double height = FRAME_H;
    frame(o, height, &title, &caption, &g, &body);
    if (body.failed || caption.failed || title.failed || sub.failed || side.failed)
        o->failed = 1;
    gs_str_free(&body);
    gs_str_free(&caption);
    gs_str_free(&title);
    gs_str_free(&sub);
    gs_str_free(&side);
    free(k->cells);
    free(t);
}
