/* SPDX-License-Identifier: MIT */
#include "gs_lecture.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gs_catalog.h"
#include "gs_report_kit.h"
#include "gs_table_report.h"
#include "gs_trace_report.h"

/* ---- the page: style and script -------------------------------------------------- */

/* Every size is in CSS pixels of a 1920 x 1080 slide; the script scales the
 * deck to other windows. No font is fetched: the system's sans and mono. */
static const char style[] =
    "*{box-sizing:border-box}\n"
    "html,body{margin:0;background:#1d1f21}\n"
    "#deck{width:1920px;height:1080px;transform-origin:0 0}\n"
    ".slide{display:none;position:relative;width:1920px;height:1080px;overflow:hidden;"
    "padding:48px 80px 0 80px;background:#fff;color:#1b1b1b;"
    "font:36px/1.3 'DejaVu Sans',Verdana,Arial,sans-serif}\n"
    ".slide.current{display:block}\n"
    ".slide h1{font-size:48px;line-height:1.15;margin:0 0 8px 0;color:#12355b}\n"
    ".kicker{font-size:28px;color:#5a5a5a;margin:0 0 20px 0}\n"
    ".slide footer{position:absolute;left:80px;right:80px;bottom:24px;font-size:28px;"
    "color:#6a6a6a;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}\n"
    "code,pre,.mono{font-family:'DejaVu Sans Mono',Menlo,Consolas,monospace}\n"
    "pre{font-size:36px;line-height:1.25;margin:0;white-space:pre-wrap;overflow-wrap:anywhere}\n"
    ".cols{display:flex;gap:48px}\n.cols>*{flex:1 1 0;min-width:0}\n"
    ".box{border:3px solid #c9d3de;border-radius:12px;padding:16px 24px;background:#f6f8fa}\n"
    ".box h2{font-size:36px;margin:0 0 8px 0}\n"
    "p{margin:12px 0}\n"
    ".small{font-size:36px}\n"
    "ul{margin:8px 0;padding-left:40px}\nli{margin:4px 0}\n"
    "table{border-collapse:collapse;font-size:36px}\n"
    "th,td{padding:2px 14px;text-align:right;border-bottom:1px solid #d8dde3;"
    "white-space:nowrap}\n"
    "th{color:#3c4a5a}\n"
    "table.compact th,table.compact td{padding:0 14px;line-height:1.12}\n"
    ".ok{color:#1f6f3a}\n"
    ".lesson{background:#fff1c2;color:#7a4b00;font-weight:bold}\n"
    ".fail{background:#ffd9d9;color:#a00000;font-weight:bold}\n"
    ".refused{color:#1d4f9a;font-weight:bold}\n"
    ".tag{display:inline-block;min-width:1.25em;margin:0 3px;padding:0 6px;border-radius:14px;"
    "background:#12355b;color:#fff;font-weight:bold;text-align:center;line-height:1.25}\n"
    ".key .keyitem{margin-right:18px}\n"
    ".answer{margin:8px 0;overflow-wrap:anywhere}\n"
    ".banner{font-size:36px;font-weight:bold;background:#fff1c2;color:#6b4200;"
    "border-left:12px solid #e0a000;padding:12px 24px;margin:8px 0 16px 0}\n"
    ".claimnum{font-weight:bold;color:#12355b}\n"
    ".notes{display:none}\n"
    "body.show-notes .notes{display:block;position:absolute;left:80px;right:80px;"
    "bottom:72px;font-size:28px;background:#222;color:#eee;padding:12px 20px}\n"
    "svg text{font-family:'DejaVu Sans',Verdana,Arial,sans-serif}\n"
    "#gs-layout{display:none}\n"
    "@page{size:1920px 1080px;margin:0}\n"
    "@media print{html,body{background:#fff}#deck{transform:none!important;width:auto;"
    "height:auto}.slide{display:block!important;break-after:page;page-break-after:always}"
    ".notes{display:none!important}}\n";

/* Arrow keys, PageUp/PageDown, Home/End; N toggles the notes; #slide-N
 * opens slide N. Then the layout check a browser test reads from the DOM:
 * per slide, the elements and text outside it (or clipped inside a box),
 * and the smallest text as rendered (SVG text scaled by its transform). */
static const char script[] =
    "(function(){\n"
    "var slides=[].slice.call(document.querySelectorAll('.slide'));\n"
    "var deck=document.getElementById('deck');var cur=0;\n"
    "function fit(){var s=Math.min(innerWidth/1920,innerHeight/1080);"
    "deck.style.transform=s>0&&s!==1?'scale('+s+')':'none';}\n"
    "function show(i){cur=Math.max(0,Math.min(slides.length-1,i));"
    "slides.forEach(function(s,k){s.classList.toggle('current',k===cur);});}\n"
    "function go(i){show(i);history.replaceState(null,'','#slide-'+(cur+1));}\n"
    "function fromHash(){var m=/^#slide-(\\d+)$/.exec(location.hash);"
    "show(m?parseInt(m[1],10)-1:0);}\n"
    "document.addEventListener('keydown',function(e){var k=e.key;\n"
    "if(k==='ArrowRight'||k==='ArrowDown'||k==='PageDown'||k===' '){go(cur+1);e.preventDefault();}\n"
    "else if(k==='ArrowLeft'||k==='ArrowUp'||k==='PageUp'){go(cur-1);e.preventDefault();}\n"
    "else if(k==='Home'){go(0);}else if(k==='End'){go(slides.length-1);}\n"
    "else if(k==='n'||k==='N'){document.body.classList.toggle('show-notes');}});\n"
    "window.addEventListener('hashchange',fromHash);window.addEventListener('resize',fit);\n"
    "function outside(b,r){return b.left<r.left-1||b.top<r.top-1||b.right>r.right+1||"
    "b.bottom>r.bottom+1;}\n"
    "function measure(){var out=[];deck.style.transform='none';\n"
    "slides.forEach(function(s,k){show(k);var r=s.getBoundingClientRect();"
    "var over=0,first='',kinds=[],minpx=1e9,minwhat='';\n"
    "function bad(why,what){over++;if(kinds.indexOf(why)<0)kinds.push(why);"
    "if(!first)first=what+' '+why;}\n"
    "function at(el,b){return el.tagName+' at '+Math.round(b.left-r.left)+','+"
    "Math.round(b.top-r.top)+' size '+Math.round(b.width)+'x'+Math.round(b.height);}\n"
    "var foot=s.querySelector('footer'),fr=foot?foot.getBoundingClientRect():null;\n"
    "var els=s.querySelectorAll('*');\n"
    "for(var i=0;i<els.length;i++){var el=els[i];if(el.closest('.notes'))continue;\n"
    "var b=el.getBoundingClientRect();if(b.width===0&&b.height===0)continue;\n"
    "var box=el.parentElement&&el.parentElement.closest('.box,.cols>*');\n"
    "if(outside(b,r))bad('outside the slide',at(el,b));\n"
    "else if(fr&&!el.closest('footer')&&b.bottom>fr.top+1)bad('into the footer',at(el,b));\n"
    "else if(box&&outside(b,box.getBoundingClientRect()))bad('outside its box',at(el,b));\n"
    "var cs=getComputedStyle(el);if(el.tagName!=='svg'&&!(el instanceof SVGElement)&&"
    "(cs.overflowX!=='visible'||cs.overflowY!=='visible')&&(el.scrollWidth>el.clientWidth+1||"
    "el.scrollHeight>el.clientHeight+1))bad('clipped',el.tagName+' content');}\n"
    "var w=document.createTreeWalker(s,NodeFilter.SHOW_TEXT,null),t;\n"
    "while((t=w.nextNode())){if(!t.nodeValue.trim())continue;var p=t.parentElement;"
    "if(p.closest('.notes'))continue;\n"
    "var g=document.createRange();g.selectNodeContents(t);var rs=g.getClientRects();"
    "if(!rs.length)continue;\n"
    "for(var q=0;q<rs.length;q++)if(outside(rs[q],r))"
    "bad('outside the slide','text '+JSON.stringify(t.nodeValue.trim().slice(0,40)));\n"
    "var px=parseFloat(getComputedStyle(p).fontSize);\n"
    "if(p instanceof SVGElement&&p.getScreenCTM){var m=p.getScreenCTM();"
    "if(m)px*=Math.sqrt(m.a*m.a+m.b*m.b);}\n"
    "if(px<minpx){minpx=px;minwhat=t.nodeValue.trim().slice(0,40);}}\n"
    /* What a reader reads: the words of the slide's prose (the headline, its
     * paragraphs and lists; not the tables, charts, code, footer, kicker or
     * notes), the smallest of that text and of the tables, and the
     * headline's lines. */
    "var words=0,bodypx=1e9,bodywhat='';\n"
    "var v=document.createTreeWalker(s,NodeFilter.SHOW_TEXT,null);\n"
    "while((t=v.nextNode())){if(!t.nodeValue.trim())continue;var e=t.parentElement;"
    "if(e.closest('.notes,footer,.kicker,svg'))continue;\n"
    "var fpx=parseFloat(getComputedStyle(e).fontSize);"
    "if(fpx<bodypx){bodypx=fpx;bodywhat=t.nodeValue.trim().slice(0,40);}\n"
    "if(!e.closest('table,pre'))words+=t.nodeValue.trim().split(/\\s+/).length;}\n"
    "var h=s.querySelector('h1'),hl=0;if(h){var hs=getComputedStyle(h);"
    "hl=Math.round(h.getBoundingClientRect().height/parseFloat(hs.lineHeight));}\n"
    "out.push('slide '+(k+1)+' overflow='+over+' minpx='+minpx.toFixed(1)+' min='+"
    "JSON.stringify(minwhat)+' kinds='+JSON.stringify(kinds.join(', '))+' first='+"
    "JSON.stringify(first)+' words='+words+' bodypx='+bodypx.toFixed(1)+' body='+"
    "JSON.stringify(bodywhat)+' h1lines='+hl);});\n"
    "document.getElementById('gs-layout').textContent=out.join('\\n');}\n"
    "measure();fromHash();fit();\n"
    "})();\n";

/* ---- small helpers ------------------------------------------------------------- */

static void esc(struct gs_str *o, const char *s)
{
    gs_str_xml(o, s);
}

static void rate(double v, char *buf, unsigned size)
{
    gs_report_rate(v, buf, size);
}

static void bytes_words(uint64_t b, char *buf, unsigned size)
{
    if (b >= (1ull << 30) && b % (1ull << 30) == 0)
        snprintf(buf, size, "%llu GiB", (unsigned long long)(b >> 30));
    else if (b >= (1ull << 20))
        snprintf(buf, size, "%.0f MiB", (double)b / (1 << 20));
    else
        snprintf(buf, size, "%.0f KiB", (double)b / (1 << 10));
}

static void n_words(uint64_t n, char *buf, unsigned size)
{
    if (n >= 1024 && (n & (n - 1)) == 0) {
        int k = 0;
        while ((1ull << k) < n)
            ++k;
        snprintf(buf, size, "2^%d", k);
    } else
        snprintf(buf, size, "%llu", (unsigned long long)n);
}

static const char *dev_name(const struct gs_lecture_device *d)
{
    return d->label[0] ? d->label : d->dev->backend->name;
}

void gs_lecture_label(struct gs_lecture_device *const *devs, int ndevs)
{
    for (int i = 0; i < ndevs; ++i) {
        int twin = 0;
        for (int k = 0; k < ndevs; ++k)
            twin |= k != i && devs[k]->dev->backend == devs[i]->dev->backend;
        gs_device_label(devs[i]->dev, twin, devs[i]->label, sizeof devs[i]->label);
    }
}

/* Device names of the run: "host, opencl". */
static void names_of(const struct gs_lecture_in *in, struct gs_str *o)
{
    for (int i = 0; i < in->ndevs; ++i) {
        gs_str_printf(o, "%s", i ? (i + 1 == in->ndevs ? " and " : ", ") : "");
        esc(o, dev_name(in->devs[i]));
    }
}

static void slide_open(struct gs_str *o, int n, const char *topic)
{
    gs_str_printf(o, "<section class=\"slide\" id=\"slide-%d\">\n<div class=\"kicker\">%d / %d "
                     "&#183; ",
                  n, n, GS_LECTURE_SLIDES);
    esc(o, topic);
    gs_str_printf(o, "</div>\n");
}

/* The footer and the speaker's notes: `note` as text, then `more` (HTML the
 * deck made, such as each API's answers; NULL for none): what the slide
 * leaves out to stay at one point, and what each of its symbols means. */
static void slide_close_more(const struct gs_lecture_in *in, struct gs_str *o, const char *note,
                             const struct gs_str *more)
{
    gs_str_printf(o, "<footer>gridstride %s &#183; measured on ", in->version);
    names_of(in, o);
    gs_str_printf(o, " &#183; %s</footer>\n<aside class=\"notes\">", in->date);
    esc(o, note);
    if (more && more->data)
        gs_str_printf(o, "%s", more->data);
    gs_str_printf(o, "</aside>\n</section>\n");
}

static void slide_close(const struct gs_lecture_in *in, struct gs_str *o, const char *note)
{
    slide_close_more(in, o, note, NULL);
}

/* ---- the table's cells, merged across devices --------------------------------- */

static const char *case_class(const struct gs_case *c)
{
    if (!c->held)
        return "fail";
    switch (gs_observed(&c->got, &c->verdict)) {
    case GS_OUT_OK: return "ok";
    case GS_OUT_WRONG: return "lesson";
    default: return "refused";
    }
}

/* With more than two devices a cell names them by number, and a key says
 * which number is which device: "1 3 4 wrong@2048" stays one line of a
 * column where "host, opencl [0:1], opencl [0:2] wrong@2048" would not. */
static int tagged(const struct gs_lecture_in *in)
{
    return in->ndevs > 2;
}

static void who(const struct gs_lecture_in *in, int i, int first, struct gs_str *o)
{
    if (tagged(in))
        gs_str_printf(o, "<span class=\"tag\">%d</span>", i + 1);
    else {
        gs_str_printf(o, "%s", first ? "" : ", ");
        esc(o, dev_name(in->devs[i]));
    }
}

/* The key of the numbers: "1 host T = 16384", one device a line. */
static void device_key(const struct gs_lecture_in *in, int t4, int inline_, struct gs_str *o)
{
    if (!tagged(in))
        return;
    gs_str_printf(o, "<p class=\"small key\">");
    for (int i = 0; i < in->ndevs; ++i) {
        const struct gs_table *t = t4 ? in->devs[i]->t4 : in->devs[i]->table;
        gs_str_printf(o, "%s<span class=\"keyitem\">", i ? (inline_ ? " " : "<br>") : "");
        who(in, i, 1, o);
        gs_str_printf(o, " ");
        esc(o, dev_name(in->devs[i]));
        if (t)
            gs_str_printf(o, " <span class=\"mono\">T = %llu</span>",
                          (unsigned long long)t->threads);
        gs_str_printf(o, "</span>");
    }
    gs_str_printf(o, "</p>\n");
}

/* One cell of the table: the devices' results, once when they agree. */
static void merged_cell(const struct gs_lecture_in *in, int t4, enum gs_section sec,
                        enum gs_column col, int row, struct gs_str *o)
{
    char first[64] = "", buf[64];
    const char *cls = "ok";
    int same = 1, any = 0;
    for (int i = 0; i < in->ndevs; ++i) {
        const struct gs_table *t = t4 ? in->devs[i]->t4 : in->devs[i]->table;
        const struct gs_case *c = t ? gs_table_find(t, sec, col, row) : NULL;
        if (!c)
            continue;
        gs_table_case_cell(c, buf, sizeof buf);
        if (!any++) {
            snprintf(first, sizeof first, "%s", buf);
            cls = case_class(c);
        } else if (strcmp(first, buf) != 0 || strcmp(cls, case_class(c)) != 0)
            same = 0;
    }
    if (!any) {
        gs_str_printf(o, "<td>-</td>");
        return;
    }
    if (same) {
        gs_str_printf(o, "<td class=\"%s\">%s</td>", cls, first);
        return;
    }
    /* The devices that gave the same answer share one line: "opencl, cuda
     * ok" under "host wrong@16384" (or "2 3 ok" under "1 wrong@16384"), so
     * a row is as tall as its answers. */
    gs_str_printf(o, "<td>");
    int done[GS_LECTURE_MAX_DEVICES] = {0}, lines = 0;
    for (int i = 0; i < in->ndevs && i < GS_LECTURE_MAX_DEVICES; ++i) {
        const struct gs_table *t = t4 ? in->devs[i]->t4 : in->devs[i]->table;
        const struct gs_case *c = t ? gs_table_find(t, sec, col, row) : NULL;
        if (!c || done[i])
            continue;
        gs_table_case_cell(c, buf, sizeof buf);
        gs_str_printf(o, "%s", lines++ ? "<br>" : "");
        who(in, i, 1, o);
        for (int k = i + 1; k < in->ndevs && k < GS_LECTURE_MAX_DEVICES; ++k) {
            const struct gs_table *tk = t4 ? in->devs[k]->t4 : in->devs[k]->table;
            const struct gs_case *ck = tk ? gs_table_find(tk, sec, col, row) : NULL;
            char other[64];
            if (!ck || done[k])
                continue;
            gs_table_case_cell(ck, other, sizeof other);
            if (strcmp(other, buf) == 0 && strcmp(case_class(ck), case_class(c)) == 0) {
                done[k] = 1;
                who(in, k, 0, o);
            }
        }
        gs_str_printf(o, " <span class=\"%s\">%s</span>", case_class(c), buf);
    }
    gs_str_printf(o, "</td>");
}

/* Rows of the sizes section: the n of each row (the same for every device). */
static int size_rows(const struct gs_table *t, uint64_t *n, int max)
{
    int rows = 0;
    for (int k = 0; k < t->ncases; ++k) {
        const struct gs_case *c = &t->cases[k];
        if (c->section == GS_SEC_SIZES && c->row >= rows && c->row < max) {
            n[c->row] = c->launch.n;
            rows = c->row + 1;
        }
    }
    return rows;
}

static void held_count(const struct gs_lecture_in *in, int t4, int *cases, int *held)
{
    *cases = *held = 0;
    for (int i = 0; i < in->ndevs; ++i) {
        const struct gs_table *t = t4 ? in->devs[i]->t4 : in->devs[i]->table;
        if (!t)
            continue;
        *cases += t->ncases;
        *held += t->ncases - t->failed;
    }
}

static void size_table(const struct gs_lecture_in *in, int t4, const enum gs_column *cols,
                       int ncols, struct gs_str *o)
{
    static const char *const titles[GS_COLUMNS] = {"A grid n/B", "B grid G", "C loop on G",
                                                   "D chunk on G"};
    uint64_t n[GS_MAX_SIZES];
    const struct gs_table *t = t4 ? in->devs[0]->t4 : in->devs[0]->table;
    const int rows = t ? size_rows(t, n, GS_MAX_SIZES) : 0;
    /* Devices of different T make more sizes, and rows of two answers:
     * past 10 rows, or with several devices, the table's rows close up (the
     * type keeps its size). */
    gs_str_printf(o, "<table%s><tr><th>n</th>",
                  rows > 10 || tagged(in) ? " class=\"compact\"" : "");
    for (int c = 0; c < ncols; ++c)
        gs_str_printf(o, "<th>%s</th>", titles[cols[c]]);
    gs_str_printf(o, "</tr>\n");
    for (int r = 0; r < rows; ++r) {
        gs_str_printf(o, "<tr><td class=\"mono\">%llu</td>", (unsigned long long)n[r]);
        for (int c = 0; c < ncols; ++c)
            merged_cell(in, t4, GS_SEC_SIZES, cols[c], r, o);
        gs_str_printf(o, "</tr>\n");
    }
    gs_str_printf(o, "</table>\n");
}

/* The first case of column col at size T + 1 on device d's table. */
static const struct gs_case *case_at(const struct gs_table *t, enum gs_column col, uint64_t n)
{
    for (int k = 0; t && k < t->ncases; ++k)
        if (t->cases[k].section == GS_SEC_SIZES && t->cases[k].column == col &&
            t->cases[k].launch.n == n)
            return &t->cases[k];
    return NULL;
}

/* ---- slide 1: the claim and the contract ------------------------------------- */

static void slide_claim(const struct gs_lecture_in *in, struct gs_str *o)
{
    char cell[64];
    slide_open(o, 1, "the claim and the contract");
    gs_str_printf(o, "<h1>A grid-stride loop is right for every n; "
                     "<code>if (i &lt; n)</code> alone covers only the first T</h1>\n");
    gs_str_printf(o, "<div class=\"cols\"><div class=\"box\"><h2>B: one thread per element</h2>"
                     "<pre>size_t i = blockIdx.x * blockDim.x\n"
                     "         + threadIdx.x;\n"
                     "if (i &lt; n)\n"
                     "    out[i] = a[i] + b[i];</pre></div>\n"
                     "<div class=\"box\"><h2>C: the grid-stride loop</h2>"
                     "<pre>for (size_t i = blockIdx.x * blockDim.x\n"
                     "                + threadIdx.x;\n"
                     "     i &lt; n;\n"
                     "     i += (size_t)blockDim.x * gridDim.x)\n"
                     "    out[i] = a[i] + b[i];</pre></div></div>\n");
    gs_str_printf(o, "<ul>\n");
    for (int i = 0; i < in->ndevs && i < 1; ++i) {
        const struct gs_lecture_device *d = in->devs[i];
        const struct gs_table *t = d->table;
        if (!t)
            continue;
        gs_str_printf(o, "<li><b>");
        esc(o, dev_name(d));
        gs_str_printf(o, "</b>: <span class=\"claimnum\">G = %llu</span> blocks &#215; %u = "
                         "<span class=\"claimnum\">T = %llu</span>",
                      (unsigned long long)t->grid, t->block, (unsigned long long)t->threads);
        const struct gs_case *b = case_at(t, GS_COL_B, t->threads + 1);
        const struct gs_case *c = case_at(t, GS_COL_C, t->threads + 1);
        if (b && c) {
            gs_table_case_cell(b, cell, sizeof cell);
            gs_str_printf(o, "; at n = %llu: B <span class=\"%s\">%s</span>",
                          (unsigned long long)(t->threads + 1), case_class(b), cell);
            gs_table_case_cell(c, cell, sizeof cell);
            gs_str_printf(o, ", C <span class=\"%s\">%s</span>", case_class(c), cell);
        }
        gs_str_printf(o, "</li>\n");
    }
    gs_str_printf(o, "</ul>\n");
    char note[1200];
    size_t len = (size_t)snprintf(note, sizeof note,
                                  "The whole lesson in one line: the loop's stride is the grid, so "
                                  "the grid no longer has to match the data. G is the device grid "
                                  "in blocks, B the threads a block, T = G x B the threads of the "
                                  "launch. Each device's own:");
    for (int i = 0; i < in->ndevs && len < sizeof note; ++i)
        if (in->devs[i]->table)
            len += (size_t)snprintf(note + len, sizeof note - len, " %s (%s): G = %llu, T = %llu, "
                                    "%s.", dev_name(in->devs[i]), in->devs[i]->dev->name,
                                    (unsigned long long)in->devs[i]->table->grid,
                                    (unsigned long long)in->devs[i]->table->threads,
                                    in->devs[i]->table->grid_rule);
    slide_close(in, o, note);
}

/* ---- slide 2: the table ----------------------------------------------------------- */

/* One API's answer to a launch of the zero-block or the ragged kind, in the
 * words a slide shows. */
static void answer_words(const struct gs_case *c, char *buf, unsigned size, const char **cls)
{
    if (c->got.accepted) {
        snprintf(buf, size, "accepted, result %s",
                 gs_observed(&c->got, &c->verdict) == GS_OUT_OK ? "right" : "wrong");
        *cls = "ok";
    } else if (c->got.not_sent) {
        snprintf(buf, size, "not launched");
        *cls = "refused";
    } else {
        snprintf(buf, size, "refused (%s)", c->got.api_error);
        *cls = "refused";
    }
    if (!c->held)
        *cls = "fail";
}

static int answer_case(const struct gs_case *c)
{
    return c->launch.grid == 0 || c->section == GS_SEC_RAGGED;
}

/* The same launch of the same column: one entry of the answers. */
static int same_answer_launch(const struct gs_case *a, const struct gs_case *b)
{
    return a->section == b->section && a->column == b->column && a->launch.n == b->launch.n &&
           (a->launch.grid == 0) == (b->launch.grid == 0);
}

/* Each API's answer to the zero-block and the ragged launches, grouped by
 * launch, then by answer: "refused (...): host, cuda" on one line. */
static void api_answers(const struct gs_lecture_in *in, struct gs_str *o)
{
    const int nd = in->ndevs < GS_LECTURE_MAX_DEVICES ? in->ndevs : GS_LECTURE_MAX_DEVICES;
    int allheld = 1, any = 0;
    for (int i = 0; i < nd; ++i) {
        const struct gs_table *t = in->devs[i]->table;
        for (int k = 0; t && k < t->ncases; ++k) {
            const struct gs_case *c = &t->cases[k];
            if (!answer_case(c))
                continue;
            /* the first device with this launch opens its entry */
            int seen = 0;
            for (int p = 0; p < i && !seen; ++p) {
                const struct gs_table *tp = in->devs[p]->table;
                for (int q = 0; tp && q < tp->ncases && !seen; ++q)
                    seen = answer_case(&tp->cases[q]) && same_answer_launch(&tp->cases[q], c);
            }
            if (seen)
                continue;
            char shape[96];
            gs_launch_shape(&c->launch, shape, sizeof shape);
            if (c->section == GS_SEC_RAGGED)
                gs_str_printf(o, "<p class=\"small answer\"><b>ragged</b>: %s at n = %llu, global "
                                 "= n, local = %llu",
                              gs_column_letter(c->column), (unsigned long long)c->launch.n,
                              (unsigned long long)c->launch.block);
            else
                gs_str_printf(o, "<p class=\"small answer\"><b>zero blocks</b>: %s at n = %llu, "
                                 "%s",
                              gs_column_letter(c->column), (unsigned long long)c->launch.n, shape);
            ++any;
            /* every device's answer to it, devices of one answer on one line */
            const struct gs_case *mine[GS_LECTURE_MAX_DEVICES] = {0};
            for (int p = i; p < nd; ++p) {
                const struct gs_table *tp = in->devs[p]->table;
                for (int q = 0; tp && q < tp->ncases && !mine[p]; ++q)
                    if (answer_case(&tp->cases[q]) && same_answer_launch(&tp->cases[q], c))
                        mine[p] = &tp->cases[q];
            }
            int done[GS_LECTURE_MAX_DEVICES] = {0};
            for (int p = i; p < nd; ++p) {
                char words[300], other[300];
                const char *cls, *ocls;
                if (!mine[p] || done[p])
                    continue;
                answer_words(mine[p], words, sizeof words, &cls);
                allheld &= mine[p]->held;
                gs_str_printf(o, "<br>");
                who(in, p, 1, o);
                for (int r = p + 1; r < nd; ++r) {
                    if (!mine[r] || done[r])
                        continue;
                    answer_words(mine[r], other, sizeof other, &ocls);
                    if (strcmp(words, other) == 0 && strcmp(cls, ocls) == 0) {
                        done[r] = 1;
                        who(in, r, 0, o);
                    }
                }
                gs_str_printf(o, "%s<span class=\"%s\">", tagged(in) ? " " : ": ", cls);
                esc(o, words);
                gs_str_printf(o, "</span>%s", mine[p]->held ? "" : " <b>(NOT predicted)</b>");
            }
            gs_str_printf(o, "</p>\n");
        }
    }
    if (any)
        gs_str_printf(o, "<p class=\"small\">%s</p>\n",
                      allheld ? "Every answer as predicted." : "An answer NOT predicted: see the "
                                                               "text report.");
}

static void slide_table(const struct gs_lecture_in *in, struct gs_str *o)
{
    static const enum gs_column cols[] = {GS_COL_A, GS_COL_B, GS_COL_C, GS_COL_D};
    int cases, held;
    held_count(in, 0, &cases, &held);
    slide_open(o, 2, "the table: columns A to D at the seed's sizes");
    /* The headline says what the cells say: where B's first wrong element
     * is, and whether C and D were right at every size. */
    int b_at_t = 0, b_elsewhere = 0, cd_wrong = 0;
    for (int i = 0; i < in->ndevs; ++i) {
        const struct gs_table *t = in->devs[i]->table;
        for (int k = 0; t && k < t->ncases; ++k) {
            const struct gs_case *c = &t->cases[k];
            if (c->section != GS_SEC_SIZES || gs_observed(&c->got, &c->verdict) != GS_OUT_WRONG)
                continue;
            if (c->column == GS_COL_B && c->verdict.first_wrong == t->threads)
                ++b_at_t;
            else if (c->column == GS_COL_B)
                ++b_elsewhere;
            else if (c->column == GS_COL_C || c->column == GS_COL_D)
                ++cd_wrong;
        }
    }
    gs_str_printf(o, "<h1>%d of %d predictions held", held, cases);
    if (b_at_t && !b_elsewhere)
        gs_str_printf(o, ": B goes wrong at exactly T, as predicted");
    else if (b_at_t || b_elsewhere)
        gs_str_printf(o, ": B goes wrong %d time%s", b_at_t + b_elsewhere,
                      b_at_t + b_elsewhere == 1 ? "" : "s");
    if (!cd_wrong)
        gs_str_printf(o, "; C and D are right at every n");
    else
        gs_str_printf(o, "; C or D wrong in %d case%s", cd_wrong, cd_wrong == 1 ? "" : "s");
    gs_str_printf(o, "</h1>\n");
    gs_str_printf(o, "<div class=\"cols\"><div style=\"flex:0 0 auto\">\n");
    size_table(in, 0, cols, 4, o);
    gs_str_printf(o, "</div><div>");
    device_key(in, 0, 0, o);
    if (!tagged(in)) /* with a key of devices, the colours are in the notes only */
        gs_str_printf(o, "<p><span class=\"lesson\">wrong@T</span> the lesson<br>"
                         "<span class=\"fail\">red</span> a failed prediction<br>"
                         "<span class=\"refused\">refused</span> the API's answer</p>\n");
    gs_str_printf(o, "</div></div>\n");
    struct gs_str answers = {0};
    api_answers(in, &answers);
    slide_close_more(in, o, "Read column B down: right up to T, wrong from T + 1, and the first "
                            "wrong element is T itself (wrong@I: the first wrong element is I; "
                            "yellow: the lesson, predicted; red: a failed prediction; blue "
                            "refused: the API's own answer). "
                            "A is grid n/B (one thread per element, a grid sized to n), B the "
                            "same kernel on the device grid G, C the grid-stride loop on G, D one "
                            "chunk per thread on G. Every cell was predicted before its launch; "
                            "the headline counts how many predictions held. Each API's answer to "
                            "the zero-block and ragged launches:", &answers);
    gs_str_free(&answers);
}

/* ---- slide 3: a T4's grid ------------------------------------------------------- */

static void slide_t4(const struct gs_lecture_in *in, struct gs_str *o)
{
    static const enum gs_column cols[] = {GS_COL_B, GS_COL_C};
    int cases, held;
    /* The device the lesson is about: the first GPU, else the first device. */
    const struct gs_lecture_device *lead = in->devs[0];
    for (int i = in->ndevs - 1; i >= 0; --i)
        if (in->devs[i]->dev->is_gpu)
            lead = in->devs[i];
    const struct gs_table *own = lead->table, *t4 = lead->t4;
    held_count(in, 1, &cases, &held);
    slide_open(o, 3, "the T4's table, reproduced with --grid 160");
    gs_str_printf(o, "<h1>On a T4's grid (G = %llu, T = %llu) B goes wrong at T, as on the "
                     "T4; C is right</h1>\n",
                  (unsigned long long)(t4 ? t4->grid : 0),
                  (unsigned long long)(t4 ? t4->threads : 0));
    (void)own;
    device_key(in, 1, 1, o);
    gs_str_printf(o, "<div class=\"cols\"><div style=\"flex:0 0 auto\">\n");
    size_table(in, 1, cols, 2, o);
    gs_str_printf(o, "</div><div><p>%d of %d held on this grid (slide 2: each device's "
                     "own).</p></div></div>\n",
                  held, cases);
    slide_close(in, o, "The course's T4 had 40 SMs running 4 blocks of 256: G = 160, so T = 160 "
                       "x 256 = 40960 threads. Asking for that grid here (--grid 160) reproduces "
                       "its table on this machine's hardware: B, one thread per element on G, "
                       "goes wrong at element T; C, the loop, is right. The count differs from "
                       "slide 2's because these are other cases: the T4's grid, here on every "
                       "device.");
}

/* ---- slide 4: the index-tracer -------------------------------------------------- */

#define TRACE_CELLS 64u
#define TRACE_CELL_W 23
#define TRACE_CELL_H 38
#define TRACE_LABEL_W 250

static const char *const block_fill[] = {"#4e79a7", "#f28e2b", "#59a14f", "#b07aa1",
                                         "#76b7b2", "#edc948", "#e15759", "#9c755f"};

/* The value a strip cell shows: the block (or pass) every written element
 * of it shares; -1 none written, -2 they differ. */
static long cell_value(const struct gs_trace_kernel *k, uint64_t from, uint64_t to, int pass)
{
    long v = -1;
    for (uint64_t i = from; i < to; ++i) {
        const struct gs_trace_cell *c = &k->cells[i];
        if (!c->count)
            continue;
        const long x = pass ? (long)c->pass : (long)(c->writer / k->launch.block);
        if (v == -1)
            v = x;
        else if (v != x)
            return -2;
    }
    return v;
}

static void trace_svg(const struct gs_trace *t, struct gs_str *o)
{
    const int strips = 2, rows = t->nkernels;
    const int w = TRACE_LABEL_W + (int)TRACE_CELLS * TRACE_CELL_W;
    const int kh = 34 + strips * (TRACE_CELL_H + 4) + 8;
    const int h = rows * kh;
    gs_str_printf(o, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                     "viewBox=\"0 0 %d %d\" role=\"img\"><title>Who wrote each element, "
                     "recorded on ",
                  w, h, w, h);
    esc(o, t->dev->backend->name);
    gs_str_printf(o, "</title><desc>One cell per %llu elements; colour and digit: the block "
                     "that wrote them, then the writer's pass</desc>\n",
                  (unsigned long long)(t->plan.n / TRACE_CELLS));
    for (int r = 0; r < rows; ++r) {
        const struct gs_trace_kernel *k = &t->k[r];
        const int y0 = r * kh;
        gs_str_printf(o, "<text x=\"0\" y=\"%d\" font-size=\"28\" font-weight=\"bold\">",
                      y0 + 28);
        esc(o, gs_kernel_info(k->launch.kernel)->name);
        gs_str_printf(o, "</text><text x=\"%d\" y=\"%d\" font-size=\"28\" fill=\"#444\">",
                      TRACE_LABEL_W, y0 + 28);
        if (k->cells)
            gs_str_printf(o, "%llu of %llu written; %llu pass%s; %s",
                          (unsigned long long)k->written, (unsigned long long)k->launch.n,
                          (unsigned long long)k->passes, k->passes == 1 ? "" : "es",
                          k->held ? "map = model at every element" : "map differs from the model");
        else
            esc(o, k->why);
        gs_str_printf(o, "</text>\n");
        for (int s = 0; s < strips && k->cells; ++s) {
            const int y = y0 + 34 + s * (TRACE_CELL_H + 4);
            gs_str_printf(o, "<text x=\"%d\" y=\"%d\" font-size=\"28\" text-anchor=\"end\">%s"
                             "</text>\n",
                          TRACE_LABEL_W - 12, y + 29, s ? "pass" : "block");
            const uint64_t per = (k->launch.n + TRACE_CELLS - 1) / TRACE_CELLS;
            for (unsigned c = 0; c < TRACE_CELLS; ++c) {
                const uint64_t from = c * per, to = from + per < k->launch.n ? from + per
                                                                             : k->launch.n;
                const long v = from < to ? cell_value(k, from, to, s) : -1;
                const int x = TRACE_LABEL_W + (int)c * TRACE_CELL_W;
                const char *fill = v == -1 ? "#ffffff"
                                   : v == -2 ? "#bbbbbb"
                                   : s ? (v % 2 ? "#dfe7f0" : "#b9cbe0")
                                       : block_fill[v % 8];
                gs_str_printf(o, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\" "
                                 "stroke=\"#888\" stroke-width=\"0.5\"/>",
                              x, y, TRACE_CELL_W, TRACE_CELL_H, fill);
                char ch[24];
                if (v == -1)
                    snprintf(ch, sizeof ch, ".");
                else if (v == -2)
                    snprintf(ch, sizeof ch, "~");
                else if (v < 10)
                    snprintf(ch, sizeof ch, "%ld", v);
                else
                    snprintf(ch, sizeof ch, "+");
                gs_str_printf(o, "<text x=\"%d\" y=\"%d\" font-size=\"28\" text-anchor=\"middle\" "
                                 "fill=\"%s\">%s</text>\n",
                              x + TRACE_CELL_W / 2, y + 28, s ? "#1b1b1b" : "#ffffff", ch);
            }
        }
    }
    gs_str_printf(o, "</svg>\n");
}

static void slide_trace(const struct gs_lecture_in *in, struct gs_str *o)
{
    /* The map of the lesson's device: the first GPU with a trace build, else
     * the first device with one. */
    const struct gs_lecture_device *d = NULL;
    for (int i = 0; i < in->ndevs && !d; ++i)
        if (in->devs[i]->has_trace && in->devs[i]->dev->is_gpu)
            d = in->devs[i];
    for (int i = 0; i < in->ndevs && !d; ++i)
        if (in->devs[i]->has_trace)
            d = in->devs[i];
    slide_open(o, 4, "the index-tracer: seed 000's picture, recorded on the device");
    if (!d) {
        gs_str_printf(o, "<h1>No device of this run has a trace build</h1><p>");
        esc(o, in->ndevs ? in->devs[0]->no_trace : "no device");
        gs_str_printf(o, "</p>\n");
        slide_close(in, o, "The tracer needs a backend with a trace build.");
        return;
    }
    const struct gs_trace *t = &d->trace;
    const struct gs_trace_kernel *gs = NULL, *ch = NULL;
    for (int k = 0; k < t->nkernels; ++k) {
        if (t->k[k].launch.kernel == GS_K_ADD_GS)
            gs = &t->k[k];
        if (t->k[k].launch.kernel == GS_K_ADD_CHUNKED)
            ch = &t->k[k];
    }
    const unsigned long long gseg = gs && gs->nsteps ? (unsigned long long)gs->warp[0].segments : 0;
    const unsigned long long cseg = ch && ch->nsteps ? (unsigned long long)ch->warp[0].segments : 0;
    gs_str_printf(o, "<h1>In one pass, warp 0 of the grid-stride loop touches %llu 128-byte "
                     "segment%s; of the chunked loop, %llu</h1>\n",
                  gseg, gseg == 1 ? "" : "s", cseg);
    gs_str_printf(o, "<p>&lt;&lt;&lt;%llu, %llu&gt;&gt;&gt; over n = %llu on <b>",
                  (unsigned long long)t->plan.grid, (unsigned long long)t->plan.block,
                  (unsigned long long)t->plan.n);
    esc(o, dev_name(d));
    gs_str_printf(o, "</b>; %s</p>\n",
                  in->agreed ? "every API recorded the same map" : "the APIs' maps DIFFER");
    trace_svg(t, o);
    /* What warp 0 touched, pass by pass, and every symbol: in the notes. */
    struct gs_str more = {0};
    const struct gs_trace_kernel *ks[2] = {gs, ch};
    for (int q = 0; q < 2; ++q) {
        const struct gs_trace_kernel *k = ks[q];
        if (!k)
            continue;
        gs_str_printf(&more, "<br>Warp 0, %s:", q ? "chunked" : "grid-stride");
        for (int s = 0; s < k->nsteps && s < 2; ++s) {
            struct gs_str words = {0};
            gs_trace_warp_words(&k->warp[s], "", &words);
            gs_str_printf(&more, " pass %d: ", s);
            esc(&more, words.data ? words.data : "");
            gs_str_printf(&more, ";");
            gs_str_free(&words);
        }
    }
    slide_close_more(in, o, "Each cell of a strip is a run of about n / 64 elements: its colour "
                            "(and digit) is the block that wrote them, the second strip the pass "
                            "(the trip of the loop: 0 the first). '~' marks a run whose elements "
                            "were written by different blocks or passes, '.' a run nobody "
                            "wrote. Monolithic stops at T = G x B, the grid's threads; the loop "
                            "wraps round for a second pass; chunked gives each thread its own "
                            "run. 'Lanes 32 apart' means that neighbouring threads of a warp "
                            "(its 32 lanes) touched elements 32 apart: each lane needs its own "
                            "128-byte segment, where lanes 1 apart share one. A segment is the "
                            "128 bytes a GPU moves at once.", &more);
    gs_str_free(&more);
}

/* ---- slide 5: the coalescing gap ---------------------------------------------- */

static int bench_row(const struct gs_bench *b, const char *needle, int copy)
{
    for (int r = 0; r < b->nrows; ++r) {
        if (copy && b->rows[r].is_copy)
            return r;
        if (!copy && b->rows[r].group == GS_BG_ACCESS && strstr(b->rows[r].label, needle))
            return r;
    }
    return -1;
}

static void bars_svg(const struct gs_lecture_device *const *ds, int nd, struct gs_str *o)
{
    static const struct {
        const char *needle, *label;
        int copy;
    } bars[GS_LECTURE_BARS] = {{"", "the API's own copy", 1},
                               {"coalesced", "grid-stride copy", 0},
                               {"one chunk", "one chunk per thread", 0},
                               {"lanes 32", "lanes 32 apart", 0}};
    /* Rows of 46 px, closer where three devices must share the slide. */
    const int label_w = 560, bar_w = 900, head_h = 40;
    const int fit = (540 - nd * head_h) / (nd * GS_LECTURE_BARS);
    const int row_h = fit < 46 ? (fit < 36 ? 36 : fit) : 46;
    double max = 0;
    for (int i = 0; i < nd; ++i)
        for (int b = 0; b < GS_LECTURE_BARS; ++b) {
            const int r = bench_row(&ds[i]->bench, bars[b].needle, bars[b].copy);
            if (r >= 0 && ds[i]->bench.rows[r].verified && ds[i]->bench.rows[r].gbps > max)
                max = ds[i]->bench.rows[r].gbps;
        }
    const int h = nd * (head_h + GS_LECTURE_BARS * row_h) + 8;
    const int w = label_w + bar_w + 250;
    gs_str_printf(o, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                     "viewBox=\"0 0 %d %d\" role=\"img\"><title>Copy bandwidth by access "
                     "pattern</title><desc>GB/s of four copies of the same bytes on each device, "
                     "bars to one scale</desc>\n",
                  w, h, w, h);
    int y = 0;
    for (int i = 0; i < nd; ++i) {
        const struct gs_bench *bn = &ds[i]->bench;
        gs_str_printf(o, "<text x=\"0\" y=\"%d\" font-size=\"28\" font-weight=\"bold\">", y + 30);
        esc(o, dev_name(ds[i]));
        gs_str_printf(o, "</text>\n");
        y += head_h;
        for (int b = 0; b < GS_LECTURE_BARS; ++b, y += row_h) {
            const int r = bench_row(bn, bars[b].needle, bars[b].copy);
            char v[32];
            gs_str_printf(o, "<text x=\"%d\" y=\"%d\" font-size=\"28\" text-anchor=\"end\">%s"
                             "</text>",
                          label_w - 16, y + row_h / 2 + 10, bars[b].label);
            if (r < 0 || !bn->rows[r].verified) {
                gs_str_printf(o, "<text x=\"%d\" y=\"%d\" font-size=\"28\" fill=\"#a00000\">%s"
                                 "</text>\n",
                              label_w, y + row_h / 2 + 10, r < 0 ? "not run" : "WRONG: no number");
                continue;
            }
            const double g = bn->rows[r].gbps;
            const int len = max > 0 ? (int)(bar_w * g / max) : 0;
            rate(g, v, sizeof v);
            gs_str_printf(o, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>"
                             "<text x=\"%d\" y=\"%d\" font-size=\"28\">%s GB/s</text>\n",
                          label_w, y + 4, len > 2 ? len : 2, row_h - 8,
                          b == 0 ? "#8a8a8a" : b == 1 ? "#4e79a7" : b == 2 ? "#f28e2b" : "#e15759",
                          label_w + (len > 2 ? len : 2) + 12, y + row_h / 2 + 10, v);
        }
    }
    gs_str_printf(o, "</svg>\n");
}

/* The range of a ratio of two timed rows' speeds over their launches:
 * speed(num) / speed(den) = time(den) / time(num), from the fastest and the
 * slowest launch of each. 0 when a row is missing or not timed. */
static int access_range(const struct gs_bench *b, enum gs_kernel_id num, uint64_t param,
                        double *lo, double *hi)
{
    const struct gs_bench_row *n = NULL, *d = NULL;
    for (int k = 0; k < b->nrows; ++k) {
        const struct gs_bench_row *r = &b->rows[k];
        if (r->group != GS_BG_ACCESS || !r->verified || r->min_ms <= 0)
            continue;
        if (r->launch.kernel == GS_K_COPY_GS)
            d = r;
        else if (r->launch.kernel == num && (num != GS_K_COPY_STRIDED || r->launch.param == param))
            n = r;
    }
    if (!n || !d)
        return 0;
    *lo = d->min_ms / n->max_ms;
    *hi = d->max_ms / n->min_ms;
    return 1;
}

/* A CPU device's timings vary from run to run far more than a GPU's: a
 * headline ratio of medians moved 38x to 59x between four runs, and the
 * machine's other work moves a whole run (21.6x and 26.3x in two runs whose
 * launches each varied less than 10%). On a CPU device the headline says
 * which is faster (what held in every run) and gives this run's range over
 * its launches, marked as this run's. */
static int noisy(const struct gs_lecture_device *d, double lo, double hi)
{
    return !d->dev->is_gpu && lo > 0 && hi >= lo;
}

static void slide_bandwidth(const struct gs_lecture_in *in, struct gs_str *o)
{
    const struct gs_lecture_device *ds[GS_LECTURE_BAR_DEVICES];
    int nd = 0, cpu = 0, gpu = 0;
    for (int i = 0; i < in->ndevs && nd < GS_LECTURE_BAR_DEVICES; ++i)
        if (in->devs[i]->has_bench) {
            ds[nd++] = in->devs[i];
            cpu |= !in->devs[i]->dev->is_gpu;
            gpu |= in->devs[i]->dev->is_gpu;
        }
    slide_open(o, 5, "the coalescing gap: three copies of the same bytes");
    if (!nd) {
        gs_str_printf(o, "<h1>No device of this run was timed</h1><ul class=\"small\">");
        for (int i = 0; i < in->ndevs; ++i) {
            gs_str_printf(o, "<li><b>");
            esc(o, dev_name(in->devs[i]));
            gs_str_printf(o, "</b>: ");
            esc(o, in->devs[i]->no_bench);
            gs_str_printf(o, "</li>");
        }
        gs_str_printf(o, "</ul>\n");
        slide_close(in, o, "Bandwidth needs a device timer.");
        return;
    }
    const struct gs_lecture_device *lead = ds[0];
    for (int i = 0; i < nd; ++i)
        if (ds[i]->dev->is_gpu) {
            lead = ds[i];
            break;
        }
    const struct gs_bench *b = &lead->bench;
    char r1[32], r2[32];
    double lo = 0, hi = 0;
    if (access_range(b, GS_K_COPY_CHUNKED, 0, &lo, &hi) && noisy(lead, lo, hi) &&
        b->chunked_ratio >= 1) {
        rate(lo, r1, sizeof r1);
        rate(hi, r2, sizeof r2);
        gs_str_printf(o, "<h1>On ");
        esc(o, dev_name(lead));
        gs_str_printf(o, " one chunk per thread beats the grid-stride copy: %sx to %sx in this "
                         "run (a noisy CPU)</h1>\n",
                      r1, r2);
    } else if (b->chunked_ratio > 0 && b->chunked_ratio < 1) {
        rate(1 / b->chunked_ratio, r1, sizeof r1);
        rate(b->stride32_ratio > 0 ? 1 / b->stride32_ratio : 0, r2, sizeof r2);
        gs_str_printf(o, "<h1>On ");
        esc(o, dev_name(lead));
        gs_str_printf(o, " the grid-stride copy is %sx faster than one chunk per thread, and %sx "
                         "faster than lanes 32 apart</h1>\n",
                      r1, r2);
    } else {
        rate(b->chunked_ratio, r1, sizeof r1);
        rate(b->stride32_ratio, r2, sizeof r2);
        gs_str_printf(o, "<h1>On ");
        esc(o, dev_name(lead));
        gs_str_printf(o, " one chunk per thread is %sx faster than the grid-stride copy; "
                         "lanes 32 apart run at %sx its rate</h1>\n",
                      r1, r2);
    }
    if (cpu)
        gs_str_printf(o, "<div class=\"banner\">On a CPU the lesson reverses: each thread's own "
                         "chunk is what its cache wants.</div>\n");
    struct gs_str more = {0};
    struct gs_str *const keep = o;
    o = &more; /* the sizes and repetitions: in the notes */
    gs_str_printf(o, " ");
    int alike = 1;
    for (int i = 1; i < nd; ++i)
        alike &= ds[i]->bench_bytes == ds[0]->bench_bytes && ds[i]->bench.reps == ds[0]->bench.reps &&
                 ds[i]->dev->is_gpu == ds[0]->dev->is_gpu;
    for (int i = 0; i < (alike ? 1 : nd); ++i) {
        char sz[32];
        bytes_words(ds[i]->bench_bytes, sz, sizeof sz);
        if (alike && nd > 1) {
            gs_str_printf(o, "every device: %s per buffer%s, median of %u launches", sz,
                          ds[i]->dev->is_gpu ? "" : " (small: a CPU device)", ds[i]->bench.reps);
            break;
        }
        gs_str_printf(o, "%s<b>", i ? "; " : "");
        esc(o, dev_name(ds[i]));
        gs_str_printf(o, "</b>: %s per buffer%s, median of %u launches", sz,
                      ds[i]->dev->is_gpu ? "" : " (small: a CPU device)", ds[i]->bench.reps);
    }
    gs_str_printf(o, ".");
    o = keep;
    bars_svg(ds, nd, o);
    (void)gpu;
    slide_close_more(in, o, "Same bytes, same kernel shape, only the addresses each lane touches "
                            "change. On a GPU adjacent lanes must touch adjacent addresses; on a "
                            "CPU each thread wants its own run. 'Lanes 32 apart': the 32 threads "
                            "of a warp touch elements 32 apart, so each needs its own 128-byte "
                            "segment. On a CPU device the timings vary from run to run; the "
                            "headline then gives the range over the launches (the fastest and "
                            "the slowest of each row), not one ratio.", &more);
    gs_str_free(&more);
}

/* ---- slide 6: the sweep and the spread ---------------------------------------- */

static void sweep_svg(const struct gs_sweep *s, struct gs_str *o)
{
    static const char *const colour[GS_SWEEP_VARIANTS] = {"#1b1b1b", "#f28e2b", "#4e79a7"};
    static const char *const dash[GS_SWEEP_VARIANTS] = {"", "", "12 8"};
    static const int width[GS_SWEEP_VARIANTS] = {4, 8, 4};
    const int w = 1100, h = 560, l = 150, r = 30, t = 20, b = 80;
    double lo = 1e300, hi = 0;
    for (int i = 0; i < s->nsizes; ++i)
        for (int v = 0; v < GS_SWEEP_VARIANTS; ++v)
            if (s->pts[i][v].verified) {
                lo = fmin(lo, s->pts[i][v].med_us);
                hi = fmax(hi, s->pts[i][v].med_us);
            }
    if (!(hi > 0) || s->nsizes < 2)
        return;
    const double y0 = floor(log10(lo)), y1 = fmax(ceil(log10(hi)), y0 + 1);
    gs_str_printf(o, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                     "viewBox=\"0 0 %d %d\" role=\"img\"><title>Microseconds per launch "
                     "against n</title><desc>Median time of one vector add, three ways, on "
                     "log scales</desc>\n",
                  w, h, w, h);
    gs_str_printf(o, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
                     "stroke=\"#999\"/>\n",
                  l, t, w - l - r, h - t - b);
    for (double e = y0; e <= y1; e += 1) {
        const double y = t + (h - t - b) * (1 - (e - y0) / (y1 - y0));
        gs_str_printf(o, "<text x=\"%d\" y=\"%.0f\" font-size=\"28\" text-anchor=\"end\">%g"
                         "</text>\n",
                      l - 10, y + 10, pow(10, e));
    }
    for (int i = 0; i < s->nsizes; i += (s->nsizes > 10 ? 3 : 2)) {
        const double x = l + (w - l - r) * (double)i / (s->nsizes - 1);
        char nw[32];
        n_words(s->n[i], nw, sizeof nw);
        gs_str_printf(o, "<text x=\"%.0f\" y=\"%d\" font-size=\"28\" text-anchor=\"middle\">%s"
                         "</text>\n",
                      x, h - b + 36, nw);
    }
    gs_str_printf(o, "<text x=\"%d\" y=\"%d\" font-size=\"28\" text-anchor=\"middle\">n "
                     "(floats), time in &#181;s</text>\n",
                  (l + w - r) / 2, h - 8);
    for (int v = GS_SWEEP_VARIANTS - 1; v >= 0; --v) {
        const int order = v == GS_SV_GS_FIT ? 0 : v == GS_SV_GS_G ? 1 : 2;
        (void)order;
        gs_str_printf(o, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"%d\" "
                         "stroke-dasharray=\"%s\" points=\"",
                      colour[v], width[v], dash[v]);
        for (int i = 0; i < s->nsizes; ++i) {
            const struct gs_sweep_point *p = &s->pts[i][v];
            if (!p->verified)
                continue;
            const double x = l + (w - l - r) * (double)i / (s->nsizes - 1);
            const double y = t + (h - t - b) * (1 - (log10(p->med_us) - y0) / (y1 - y0));
            gs_str_printf(o, "%.1f,%.1f ", x, y);
        }
        gs_str_printf(o, "\"/>\n");
    }
    gs_str_printf(o, "</svg>\n");
}

static void spread_line(const struct gs_lecture_device *d, struct gs_str *o)
{
    gs_str_printf(o, "<li><b>");
    esc(o, dev_name(d));
    gs_str_printf(o, "</b>: ");
    if (!d->has_spread) {
        gs_str_printf(o, "spread not available: ");
        esc(o, d->spread.why[0] ? d->spread.why : "not probed (the device was not timed)");
        gs_str_printf(o, "</li>\n");
        return;
    }
    for (int k = 0; k < GS_SPREAD_LAUNCHES; ++k) {
        const struct gs_spread_launch *L = &d->spread.launch[k];
        char a[32], b[32];
        if (!L->verified) {
            gs_str_printf(o, "%s%u wave%s: WRONG", k ? "; " : "", L->waves,
                          L->waves == 1 ? "" : "s");
            continue;
        }
        rate(L->stats.first_idle_us, a, sizeof a);
        rate(L->stats.span_us, b, sizeof b);
        gs_str_printf(o, "%s%u wave%s: the first SM to finish waits %s of %s &#181;s",
                      k ? "; " : "", L->waves, L->waves == 1 ? "" : "s", a, b);
    }
    gs_str_printf(o, "</li>\n");
}

static void slide_sweep(const struct gs_lecture_in *in, struct gs_str *o)
{
    const struct gs_lecture_device *d = NULL;
    for (int i = 0; i < in->ndevs && !d; ++i)
        if (in->devs[i]->has_sweep && in->devs[i]->dev->is_gpu)
            d = in->devs[i];
    for (int i = 0; i < in->ndevs && !d; ++i)
        if (in->devs[i]->has_sweep)
            d = in->devs[i];
    slide_open(o, 6, "the loop's cost at small n; one wave against several");
    if (!d) {
        gs_str_printf(o, "<h1>No device of this run was swept</h1>\n");
        slide_close(in, o, "The sweep needs a device timer.");
        return;
    }
    const struct gs_sweep *s = &d->sweep;
    const struct gs_crossover *x = &s->xo[GS_SV_GS_G];
    char a[32], b[32], nw[32];
    const struct gs_sweep_point *p0 = &s->pts[0][GS_SV_MONO], *g0 = &s->pts[0][GS_SV_GS_G];
    n_words(s->n[0], nw, sizeof nw);
    const double lo = p0->verified && g0->verified && p0->max_us > 0 ? g0->min_us / p0->max_us : 0;
    const double hi = p0->verified && g0->verified && p0->min_us > 0 ? g0->max_us / p0->min_us : 0;
    if (noisy(d, lo, hi)) {
        /* A CPU's launches at small n vary several-fold: the range, not a ratio. */
        rate(lo, a, sizeof a);
        rate(hi, b, sizeof b);
        gs_str_printf(o, "<h1>At n = %s the loop on G is %s monolithic on ", nw,
                      lo >= 1 ? "slower than" : hi <= 1 ? "faster than" : "within noise of");
        esc(o, dev_name(d));
        gs_str_printf(o, ": %sx to %sx its time in this run (a noisy CPU)</h1>\n", a, b);
    } else {
        rate(p0->verified && g0->verified && p0->med_us > 0 ? g0->med_us / p0->med_us : 0, a,
             sizeof a);
        gs_str_printf(o, "<h1>At n = %s the loop on G takes %sx the monolithic kernel's time",
                      nw, a);
        if (x->kind == GS_XO_FOUND) {
            n_words(s->n[x->index], b, sizeof b);
            gs_str_printf(o, "; from n = %s on it is within 2%%</h1>\n", b);
        } else {
            n_words(s->n[s->nsizes - 1], b, sizeof b);
            gs_str_printf(o, "; up to n = %s it never comes within 2%% on ", b);
            esc(o, dev_name(d));
            gs_str_printf(o, "</h1>\n");
        }
    }
    gs_str_printf(o, "<div class=\"cols\"><div style=\"flex:0 0 1100px\">");
    sweep_svg(s, o);
    gs_str_printf(o, "</div><div><p><span style=\"color:#1b1b1b\">&#9644;</span> monolithic"
                     "<br><span style=\"color:#f28e2b\">&#9644;</span> loop on G"
                     "<br><span style=\"color:#4e79a7\">&#9472; &#9472;</span> loop on "
                     "min(G, n/B)</p></div></div>\n");
    struct gs_str more = {0};
    struct gs_str *const keep = o;
    o = &more; /* the launches, the spread: in the notes */
    gs_str_printf(o, "<p><b>");
    esc(o, dev_name(d));
    gs_str_printf(o, "</b>, G = %llu, B = %u, median of %u launches per point; monolithic on "
                     "ceil(n/B) blocks.</p>",
                  (unsigned long long)s->grid, s->block, s->reps);
    const int same = gs_sweep_same_launch_from(s);
    if (same >= 0) {
        n_words(s->n[same], b, sizeof b);
        gs_str_printf(o, "<p>From n = %s on, min(G, ceil(n/B)) = G: the two grid-stride launches are "
                         "the same launch: their lines coincide there but for the noise of the "
                         "clock, the dashed one drawn over the wide one.</p>\n",
                      b);
    }
    if (s->stopped[0]) {
        gs_str_printf(o, "<p>");
        esc(o, s->stopped);
        gs_str_printf(o, "</p>");
    }
    gs_str_printf(o, "<ul>");
    for (int i = 0; i < in->ndevs; ++i) {
        const struct gs_lecture_device *sd = in->devs[i];
        int said = 0;
        if (!sd->has_bench)
            continue;
        if (sd->has_spread) {
            spread_line(sd, o);
            continue;
        }
        /* One line per reason a spread is not available, naming its devices. */
        for (int k = 0; k < i; ++k)
            said |= in->devs[k]->has_bench && !in->devs[k]->has_spread &&
                    strcmp(in->devs[k]->spread.why, sd->spread.why) == 0;
        if (said)
            continue;
        gs_str_printf(o, "<li><b>");
        for (int k = i, n = 0; k < in->ndevs; ++k)
            if (in->devs[k]->has_bench && !in->devs[k]->has_spread &&
                strcmp(in->devs[k]->spread.why, sd->spread.why) == 0) {
                gs_str_printf(o, "%s", n++ ? ", " : "");
                esc(o, dev_name(in->devs[k]));
            }
        gs_str_printf(o, "</b>: spread not available: ");
        esc(o, sd->spread.why[0] ? sd->spread.why : "not probed");
        gs_str_printf(o, "</li>\n");
    }
    gs_str_printf(o, "</ul>\n");
    o = keep;
    slide_close_more(in, o, "At small n the loop's extra compare and add show; at large n only "
                            "memory counts. G is the device grid in blocks, B the threads a "
                            "block, n/B the blocks a grid sized to n has. On a CPU device the "
                            "launches at small n vary several-fold from one to the next; the "
                            "headline then gives the range (the fastest against the slowest "
                            "launch), not one ratio. The spread shows why one wave is not enough "
                            "where the backend can record when each SM finishes:", &more);
    gs_str_free(&more);
}

/* ---- slide 7: the pitfalls -------------------------------------------------------- */

static int bites(const struct gs_trap_case *c)
{
    return !c->skipped && (c->pred.outcome == GS_OUT_WRONG || c->pred.outcome == GS_OUT_REFUSED ||
                           (c->counted && c->counts.predicted_max > 1));
}

/* A count a slide shows: as it is up to 9999, else as a power of two (and
 * what is left, when that is small), else "about 2^k". */
static void pow2_words(uint64_t v, char *buf, unsigned size)
{
    int k = 0;
    while (k < 63 && (1ull << (k + 1)) <= v)
        ++k;
    const uint64_t p = 1ull << k, rest = v - p, up = k < 63 ? (1ull << (k + 1)) - v : 0;
    if (v < 10000)
        snprintf(buf, size, "%llu", (unsigned long long)v);
    else if (rest == 0)
        snprintf(buf, size, "2^%d", k);
    else if (rest < 1000)
        snprintf(buf, size, "2^%d + %llu", k, (unsigned long long)rest);
    else if (k < 63 && up < 1000)
        snprintf(buf, size, "2^%d - %llu", k + 1, (unsigned long long)up);
    else
        snprintf(buf, size, "about 2^%d", rest < up ? k : k + 1);
}

/* What a trap did, in a short row; the full numbers are in the text report. */
static void measured_words(const struct gs_trap_case *c, char *buf, unsigned size)
{
    char a[40], b[40];
    switch (gs_observed(&c->got, &c->verdict)) {
    case GS_OUT_OK:
        if (c->counted && c->counts.max > 1)
            snprintf(buf, size, "right values, up to %llu writes an element",
                     (unsigned long long)c->counts.max);
        else
            snprintf(buf, size, "right");
        break;
    case GS_OUT_WRONG:
        pow2_words(c->verdict.first_wrong, a, sizeof a);
        pow2_words(c->launch.n, b, sizeof b);
        snprintf(buf, size, "wrong from %s of n = %s", a, b);
        break;
    case GS_OUT_REFUSED:
        snprintf(buf, size, "refused (%s)", c->got.api_error);
        break;
    default: snprintf(buf, size, "not launched"); break;
    }
}

static void slide_pitfalls(const struct gs_lecture_in *in, struct gs_str *o)
{
    int shown = 0, held = 0, total = 0;
    struct gs_str quiet = {0}, notes = {0};
    for (int i = 0; i < in->ndevs; ++i)
        if (in->devs[i]->has_pitfalls) {
            total += in->devs[i]->pitfalls.ncases - in->devs[i]->pitfalls.skipped;
            held += in->devs[i]->pitfalls.ncases - in->devs[i]->pitfalls.skipped -
                    in->devs[i]->pitfalls.failed;
        }
    slide_open(o, 7, "the pitfalls that bite on this machine");
    gs_str_printf(o, "<h1>Every trap, predicted before it ran: %d of %d cases held</h1>\n", held,
                  total);
    gs_str_printf(o, "<table style=\"width:100%%\">\n");
    for (int t = 0; t < GS_TRAPS; ++t) {
        const struct gs_trap_case *first = NULL;
        struct gs_str got = {0};
        int allheld = 1;
        char words[GS_LECTURE_MAX_DEVICES][200];
        int nw = 0, of[GS_LECTURE_MAX_DEVICES];
        for (int i = 0; i < in->ndevs; ++i) {
            const struct gs_pitfalls *p = &in->devs[i]->pitfalls;
            if (!in->devs[i]->has_pitfalls || nw == GS_LECTURE_MAX_DEVICES)
                continue;
            for (int k = 0; k < p->ncases; ++k) {
                const struct gs_trap_case *c = &p->cases[k];
                if (c->trap != (enum gs_trap)t || !bites(c))
                    continue;
                if (!first)
                    first = c;
                allheld &= c->held && c->counts_held;
                measured_words(c, words[nw], sizeof words[nw]);
                of[nw++] = i;
                break;
            }
        }
        /* Devices with the same result share one entry: "host, opencl: right". */
        for (int a = 0; a < nw; ++a) {
            int seen = 0;
            for (int b = 0; b < a; ++b)
                seen |= strcmp(words[a], words[b]) == 0;
            if (seen)
                continue;
            gs_str_printf(&got, "%s", got.len ? "; " : "");
            for (int b = a, named = 0; b < nw; ++b)
                if (strcmp(words[a], words[b]) == 0) {
                    gs_str_printf(&got, "%s", named++ ? ", " : "");
                    esc(&got, dev_name(in->devs[of[b]]));
                }
            gs_str_printf(&got, ": ");
            esc(&got, words[a]);
        }
        if (!first) {
            gs_str_printf(&quiet, "%s", quiet.len ? ", " : "");
            esc(&quiet, gs_trap_info((enum gs_trap)t)->name);
            gs_str_free(&got);
            continue;
        }
        ++shown;
        /* A short row: the trap and what it did; the launch, and a failed
         * prediction's words, in the notes. */
        gs_str_printf(o, "<tr><td style=\"text-align:left;white-space:normal;vertical-align:top\">"
                         "<b>");
        esc(o, gs_trap_info((enum gs_trap)t)->title);
        gs_str_printf(o, "</b></td><td style=\"text-align:left;white-space:normal\">"
                         "<span class=\"%s\">%s</span>%s</td></tr>\n",
                      allheld ? "lesson" : "fail", got.data ? got.data : "",
                      allheld ? "" : " (NOT as predicted)");
        gs_str_printf(&notes, " %s: %s; predicted: %s.", gs_trap_info((enum gs_trap)t)->title,
                      first->label, first->pred.why);
        gs_str_free(&got);
    }
    gs_str_printf(o, "</table>\n");
    for (int i = 0; i < in->ndevs; ++i)
        if (!in->devs[i]->has_pitfalls && in->devs[i]->no_pitfalls[0])
            gs_str_printf(&notes, " %s.", in->devs[i]->no_pitfalls);
    if (quiet.len)
        gs_str_printf(&notes, " Not launched here (the prediction says why; it held): %s.",
                      quiet.data);
    gs_str_free(&quiet);
    (void)shown;
    struct gs_str more = {0};
    esc(&more, notes.data ? notes.data : "");
    gs_str_free(&notes);
    slide_close_more(in, o, "Each trap is one line of the course's code, run where it bites: the "
                            "prediction is made first, and the measurement has to match it, "
                            "right or wrong. Counts are powers of two (2^22 = 4194304). Each "
                            "row's launch and prediction:", &more);
    gs_str_free(&more);
}

/* ---- slide 8: the exercise -------------------------------------------------------- */

/* The lines of check's report worth a slide: its answer, which the report
 * starts with (the verdict, and each failing device's smallest case and
 * cause), up to its first blank line; at most 6 lines, each already within
 * 80 columns (check writes a pipe at 80). */
static void check_digest(const char *report, struct gs_str *o)
{
    const char *p = report;
    for (int lines = 0; *p && *p != '\n' && lines < 6; ++lines) {
        const char *end = strchr(p, '\n');
        const size_t len = end ? (size_t)(end - p) : strlen(p);
        char line[400];
        snprintf(line, sizeof line, "%.*s", (int)(len < sizeof line - 1 ? len : sizeof line - 1),
                 p);
        esc(o, line);
        gs_str_printf(o, "\n");
        p = end ? end + 1 : p + len;
    }
}

static void slide_check(const struct gs_lecture_in *in, struct gs_str *o)
{
    const struct gs_lecture_check *c = in->check;
    slide_open(o, 8, "the exercise: your own kernel through the same harness");
    gs_str_printf(o, "<h1>Write one kernel; <code>gridstride check</code> runs it through every "
                     "size and shape above and says what is wrong</h1>\n");
    gs_str_printf(o, "<div class=\"box\"><pre>$ ");
    esc(o, c->command);
    gs_str_printf(o, "</pre></div>\n");
    if (!c->ran || c->code < 0) {
        gs_str_printf(o, "<p>Not run in this lecture: ");
        esc(o, c->why);
        gs_str_printf(o, "</p>\n");
    } else {
        char s[32];
        rate(c->seconds, s, sizeof s);
        gs_str_printf(o, "<p class=\"small\">Run by this lecture: exit %d after %s s. Its report "
                         "starts with the answer:</p>\n<pre "
                         "style=\"background:#f6f8fa;padding:12px 20px\">",
                      c->code, s);
        check_digest(c->report, o);
        gs_str_printf(o, "</pre>\n");
    }
    gs_str_printf(o, "<p class=\"small\">Your turn: copy <code>examples/grid_stride.cu</code> "
                     "(or .cl, .gs), break it (drop the loop, or the cast), and run "
                     "<code>gridstride check</code> on it.</p>\n");
    slide_close(in, o, "The exercise uses the same harness as every slide: poisoned outputs, a "
                       "guard past the end, every element compared bit for bit.");
}

/* ---- the deck -------------------------------------------------------------------- */

void gs_lecture_html(const struct gs_lecture_in *in, struct gs_str *o)
{
    gs_str_printf(o, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                     "<meta name=\"viewport\" content=\"width=1920\">\n<title>The grid-stride "
                     "loop, measured on ");
    names_of(in, o);
    gs_str_printf(o, "</title>\n<meta name=\"generator\" content=\"gridstride %s\">\n"
                     "<style>\n%s</style>\n</head>\n<body>\n<div id=\"deck\">\n",
                  in->version, style);
    if (in->ndevs == 0) {
        slide_open(o, 1, "no device");
        gs_str_printf(o, "<h1>No device ran</h1>\n");
        slide_close(in, o, "Nothing was measured.");
    } else {
        slide_claim(in, o);
        slide_table(in, o);
        slide_t4(in, o);
        slide_trace(in, o);
        slide_bandwidth(in, o);
        slide_sweep(in, o);
        slide_pitfalls(in, o);
        slide_check(in, o);
    }
    gs_str_printf(o, "</div>\n<pre id=\"gs-layout\"></pre>\n<div hidden id=\"gs-run\" "
                     "data-command=\"");
    esc(o, in->command);
    gs_str_printf(o, "\" data-date=\"%s\" data-seconds=\"%.1f\"></div>\n<script>\n%s"
                     "</script>\n</body>\n</html>\n",
                  in->date, in->seconds, script);
}

void gs_lecture_device_free(struct gs_lecture_device *d)
{
    gs_table_free(d->table);
    gs_table_free(d->t4);
    if (d->has_trace)
        gs_trace_free(&d->trace);
    if (d->has_bench)
        gs_bench_free(&d->bench);
    if (d->has_sweep)
        gs_sweep_free(&d->sweep);
    if (d->has_spread)
        gs_spread_free(&d->spread);
    memset(d, 0, sizeof *d);
}
