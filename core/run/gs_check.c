/* SPDX-License-Identifier: MIT */
#include "gs_check.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gs_defaults.h"
#include "gs_device.h"
#include "gs_workspace.h"

static const char *const class_names[GS_CHECK_CLASSES] = {
#define GS_CHECK_CLASS_NAME(id, name, words) name,
    GS_CHECK_CLASS_LIST(GS_CHECK_CLASS_NAME)
#undef GS_CHECK_CLASS_NAME
};

static const char *const class_words[GS_CHECK_CLASSES] = {
#define GS_CHECK_CLASS_WORDS(id, name, words) words,
    GS_CHECK_CLASS_LIST(GS_CHECK_CLASS_WORDS)
#undef GS_CHECK_CLASS_WORDS
};

const char *gs_check_class_name(enum gs_check_class c)
{
    return (unsigned)c < GS_CHECK_CLASSES ? class_names[c] : "?";
}

const char *gs_check_class_words(enum gs_check_class c)
{
    return (unsigned)c < GS_CHECK_CLASSES ? class_words[c] : "?";
}

/* ---- the cases ----------------------------------------------------------- */

static int is_prime(uint64_t p)
{
    if (p < 2)
        return 0;
    for (uint64_t d = 2; d * d <= p; ++d)
        if (p % d == 0)
            return 0;
    return 1;
}

int gs_check_added_sizes(uint64_t T, unsigned block, uint64_t out[GS_CHECK_ADDED_SIZES])
{
    if (T < 2)
        return 0;
    uint64_t p = 3 * T + block / 2 + 1;
    while (!is_prime(p))
        ++p;
    out[0] = T - 1;
    out[1] = 2 * T + 1;
    out[2] = p;
    return GS_CHECK_ADDED_SIZES;
}

/* The sizes of a section on T threads: the seed's ten, sorted, then (on the
 * device grid, with the default sizes) the sizes added where a tail hides
 * (gs_check_added_sizes) not among them; traps: with the traps' sizes. */
static int sizes_for(const struct gs_check_plan *plan, uint64_t T, unsigned block, int device,
                     uint64_t out[GS_MAX_SIZES])
{
    static const uint64_t trap_sizes[] = GS_CHECK_TRAP_SIZES;
    int n = plan->nsizes;
    if (!plan->sizes)
        n = gs_default_sizes(T, out);
    else
        memcpy(out, plan->sizes, (size_t)plan->nsizes * sizeof *out);
    if (device && plan->traps) {
        const int merged = gs_sizes_merge(out, n, trap_sizes, 2);
        n = merged < 0 ? n : merged; /* the defaults leave room: 10 + 2 of 64 */
    }
    uint64_t added[GS_CHECK_ADDED_SIZES];
    const int nadded = device && !plan->sizes ? gs_check_added_sizes(T, block, added) : 0;
    for (int k = 0; k < nadded && n < GS_MAX_SIZES; ++k) {
        int seen = 0;
        for (int i = 0; i < n; ++i)
            seen |= out[i] == added[k];
        if (!seen)
            out[n++] = added[k];
    }
    return n;
}

const char *gs_check_size_trap(uint64_t n)
{
    if (n == (1ull << 31) + 5)
        return "the int-index trap: an int i wraps past 2^31 - 1";
    if (n == (1ull << 32) + 5)
        return "the 32-bit index trap: an unsigned int index or product wraps at 2^32";
    return "";
}

uint64_t gs_check_max_n(const struct gs_check_plan *plan, uint64_t T)
{
    uint64_t sizes[GS_MAX_SIZES], max = GS_SHAPE_N;
    const uint64_t grids[2] = {T, (uint64_t)GS_T4_GRID * GS_T4_BLOCK};
    const unsigned block = plan->block ? plan->block : GS_DEFAULT_BLOCK;
    for (int g = 0; g < 2; ++g) {
        const int n = sizes_for(plan, grids[g], block, g == 0, sizes);
        for (int i = 0; i < n; ++i)
            if (sizes[i] > max)
                max = sizes[i];
    }
    return max;
}

static void add_case(struct gs_check_run *r, enum gs_check_section sec, uint64_t n,
                     uint64_t grid, uint64_t block)
{
    struct gs_check_case *c = &r->cases[r->ncases++];
    memset(c, 0, sizeof *c);
    c->section = sec;
    /* The verifier's owner map for the contract's mapping: element i belongs
     * to thread i % T on pass i / T, as in a grid-stride loop. */
    c->launch = gs_launch_1d(GS_K_ADD_GS, n, grid, block);
}

static int plan_cases(struct gs_check_run *r, const struct gs_check_plan *plan)
{
    struct gs_shape shapes[GS_MAX_SHAPES];
    uint64_t sizes[GS_MAX_SIZES];
    const int nshapes = plan->shapes ? plan->nshapes : gs_default_shapes(r->grid, r->block, shapes);
    if (plan->shapes)
        memcpy(shapes, plan->shapes, (size_t)nshapes * sizeof *shapes);
    /* A device grid that is the T4's already is the T4 section. */
    const int t4 = !(r->grid == GS_T4_GRID && r->block == GS_T4_BLOCK);
    r->cases = calloc(2 * GS_MAX_SIZES + GS_MAX_SHAPES, sizeof *r->cases);
    if (!r->cases)
        return 0;
    int n = sizes_for(plan, r->threads, (unsigned)r->block, 1, sizes);
    for (int i = 0; i < n; ++i)
        add_case(r, GS_CHK_SIZES, sizes[i], r->grid, r->block);
    uint64_t added[GS_CHECK_ADDED_SIZES];
    if (!plan->sizes && gs_check_added_sizes(r->threads, (unsigned)r->block, added))
        snprintf(r->sizes_added, sizeof r->sizes_added,
                 "T - 1 = %llu (one short of the grid), 2T + 1 = %llu (a third pass of one "
                 "element) and the prime %llu (three passes, a ragged last block), where a loop "
                 "that stops early hides from the seed's sizes",
                 (unsigned long long)added[0], (unsigned long long)added[1],
                 (unsigned long long)added[2]);
    for (int i = 0; i < nshapes; ++i)
        add_case(r, GS_CHK_SHAPES, GS_SHAPE_N, shapes[i].grid, shapes[i].block);
    const uint64_t t4_threads = (uint64_t)GS_T4_GRID * GS_T4_BLOCK;
    n = t4 ? sizes_for(plan, t4_threads, GS_T4_BLOCK, 0, sizes) : 0;
    size_t len = 0;
    for (int i = 0; i < n; ++i) {
        if (!r->dev->is_gpu && !plan->sizes && sizes[i] > t4_threads + 1) {
            len += (size_t)snprintf(r->t4_left_out + len, sizeof r->t4_left_out - len, "%s%llu",
                                    len ? ", " : "", (unsigned long long)sizes[i]);
            if (len >= sizeof r->t4_left_out)
                len = sizeof r->t4_left_out - 1;
            continue;
        }
        add_case(r, GS_CHK_T4, sizes[i], GS_T4_GRID, GS_T4_BLOCK);
    }
    return 1;
}

/* ---- running them -------------------------------------------------------- */

/* Each diagnosis bit's class, the most telling first: memory outside the
 * array, then a wrong kind of write, then the shapes of what was left
 * unwritten. The table must hold every GS_DIAG_* bit (checked below and by
 * tests/test_check_verdicts.c). */
static const struct {
    unsigned bit;
    enum gs_check_class cls;
} diag_classes[] = {
    {GS_DIAG_BEFORE_START, GS_CHECK_BEFORE_START}, {GS_DIAG_PAST_END, GS_CHECK_PAST_END},
    {GS_DIAG_ACCUMULATES, GS_CHECK_ACCUMULATES},   {GS_DIAG_WRONG_VALUES, GS_CHECK_WRONG_VALUE},
    {GS_DIAG_SHORT_GRID, GS_CHECK_SHORT_GRID},     {GS_DIAG_INDEX_WRAP, GS_CHECK_INDEX_WRAP},
    {GS_DIAG_INT_WRAP, GS_CHECK_INT_WRAP},         {GS_DIAG_TAIL, GS_CHECK_UNWRITTEN_TAIL},
    {GS_DIAG_HOLES, GS_CHECK_UNWRITTEN},
};
#define GS_DIAG_BITS 9
_Static_assert(sizeof diag_classes / sizeof diag_classes[0] == GS_DIAG_BITS &&
                   GS_DIAG_ALL == (1u << GS_DIAG_BITS) - 1u,
               "every GS_DIAG_* bit needs its check class");

enum gs_check_class gs_check_diag_class(unsigned bit)
{
    for (size_t i = 0; i < sizeof diag_classes / sizeof diag_classes[0]; ++i)
        if (diag_classes[i].bit == bit)
            return diag_classes[i].cls;
    return GS_CHECK_CLASSES;
}

enum gs_check_class gs_check_classify(const struct gs_launch_result *got,
                                      const struct gs_verdict *v)
{
    if (!got->accepted)
        return GS_CHECK_REFUSED;
    for (size_t i = 0; i < sizeof diag_classes / sizeof diag_classes[0]; ++i)
        if (v->diag & diag_classes[i].bit)
            return diag_classes[i].cls;
    /* No bit, yet something differs: a verifier that counted a wrong
     * element without diagnosing it still fails the case. */
    if (!gs_verdict_clean(v))
        return v->unwritten > 0 ? GS_CHECK_UNWRITTEN : GS_CHECK_WRONG_VALUE;
    return GS_CHECK_OK;
}

/* A launch that wrote nothing at all: at n = 1 a loop that stops early, a
 * chunk rounded down to 0 and a kernel that never stores look the same, so
 * such a case names no cause while a larger failing case can. */
static int wrote_nothing(const struct gs_check_case *c)
{
    const struct gs_verdict *v = &c->verdict;
    return c->got.accepted && v->n > 0 && v->unwritten == v->n &&
           (v->diag & ~(unsigned)GS_DIAG_HOLES) == 0;
}

/* The case that names the file's class: the smallest failing n, a case that
 * wrote nothing yielding to any that wrote something; at one n, the
 * harness's own order (the device grid, then the shapes, then the T4's
 * grid), which is the same on every device, unlike the thread counts. */
static int smaller(const struct gs_check_case *a, const struct gs_check_case *b)
{
    if (wrote_nothing(a) != wrote_nothing(b))
        return !wrote_nothing(a);
    if (a->launch.n != b->launch.n)
        return a->launch.n < b->launch.n;
    return a < b;
}

/* A tail from T looks like a short grid in one case; it is one only if the
 * same launch was right wherever it covered n. A failing case with n <= T on
 * that launch shows a loop that stops early instead: the short grid's words
 * would name a cause the evidence contradicts. */
static void demote_short_grids(struct gs_check_run *r)
{
    for (int i = 0; i < r->ncases; ++i) {
        struct gs_check_case *c = &r->cases[i];
        if (c->cls != GS_CHECK_SHORT_GRID)
            continue;
        for (int j = 0; j < r->ncases; ++j) {
            const struct gs_check_case *o = &r->cases[j];
            if (o->launch.grid != c->launch.grid || o->launch.block != c->launch.block ||
                o->launch.n > o->launch.global || o->launch.n == 0 || o->cls == GS_CHECK_OK ||
                o->cls == GS_CHECK_NOT_RUN)
                continue;
            c->verdict.diag = (c->verdict.diag & ~(unsigned)GS_DIAG_SHORT_GRID) | GS_DIAG_TAIL;
            c->cls = gs_check_classify(&c->got, &c->verdict);
            break;
        }
    }
}

void gs_check_summarize(struct gs_check_run *r)
{
    demote_short_grids(r);
    r->smallest = -1;
    for (int i = 0; i < r->ncases; ++i) {
        const struct gs_check_case *c = &r->cases[i];
        ++r->count[c->cls];
        if (c->cls == GS_CHECK_OK || c->cls == GS_CHECK_NOT_RUN)
            continue;
        if (r->smallest < 0 || smaller(c, &r->cases[r->smallest]))
            r->smallest = i;
    }
}

int gs_check_plan_device(struct gs_device *dev, const struct gs_grid_choice *g,
                         const struct gs_check_plan *plan, struct gs_check_run *run,
                         struct gs_err *e)
{
    memset(run, 0, sizeof *run);
    run->dev = dev;
    run->smallest = -1;
    run->block = plan->block ? plan->block : GS_DEFAULT_BLOCK;
    run->grid = g->grid;
    gs_strlcpy(run->grid_rule, g->rule, sizeof run->grid_rule);
    int rc = GS_OK;
    if (g->fallback)
        rc = gs_err_set(e, GS_USAGE, "%s device %s: %s", dev->backend->name, dev->name,
                        run->grid_rule);
    if (rc != GS_OK)
        return rc;
    run->threads = run->grid * run->block;
    if (!plan_cases(run, plan))
        return gs_err_set(e, GS_NOMEM, "out of memory");
    return GS_OK;
}

void gs_check_work_take(struct gs_check_work *to, struct gs_check_work *from)
{
    free(to->count_of);
    free(to->first_of);
    *to = *from;
    from->count_of = from->first_of = NULL;
}

void gs_check_run_free(struct gs_check_run *run)
{
    gs_build_info_free(&run->build);
    free(run->cases);
    run->cases = NULL;
    run->ncases = 0;
    free(run->work.count_of);
    free(run->work.first_of);
    run->work.count_of = run->work.first_of = NULL;
}

/* ---- who wrote what -------------------------------------------------------- */

const char *gs_work_class_name(enum gs_work_class c)
{
    static const char *const names[] = {"not-counted", "once", "repeated", "block-stride"};
    return (unsigned)c < sizeof names / sizeof names[0] ? names[c] : "?";
}

void gs_check_work_judge(struct gs_check_work *w, const uint32_t *count, const uint32_t *first,
                         const uint32_t *last)
{
    w->min = w->n ? UINT32_MAX : 0;
    w->max = 0;
    w->total = 0;
    w->first_repeated = -1;
    for (uint64_t i = 0; i < w->n; ++i) {
        const uint32_t c = count[i];
        w->min = c < w->min ? c : w->min;
        w->max = c > w->max ? c : w->max;
        w->total += c;
        if (c > 1 && w->first_repeated < 0) {
            w->first_repeated = (int64_t)i;
            w->repeated_count = c;
            w->first_writer = first[i];
            w->last_writer = last[i];
        }
    }
    snprintf(w->rule, sizeof w->rule,
             "every element written by one thread: once; an element written by several threads "
             "whose first and last are a whole number of blocks (%llu threads) apart: the block "
             "stride of pitfall 1; other repeats: repeated",
             (unsigned long long)w->block);
    if (w->first_repeated < 0) {
        w->cls = GS_WORK_ONCE;
        snprintf(w->words, sizeof w->words, "every element written once (%llu writes for n = "
                 "%llu)", (unsigned long long)w->total, (unsigned long long)w->n);
        /* One contiguous chunk per thread: element i's writer is i / C, C =
         * ceil(n / T) > 1, for every element (a grid-stride loop's is i % T). */
        const uint64_t T = w->grid * w->block;
        const uint64_t C = T ? (w->n + T - 1) / T : 0;
        int chunks = C > 1 && w->min == 1;
        for (uint64_t i = 0; chunks && i < w->n; ++i)
            chunks = first[i] == i / C;
        if (chunks) {
            const size_t len = strlen(w->words);
            snprintf(w->words + len, sizeof w->words - len,
                     ", by one contiguous chunk of %llu elements per thread: right, and fast on "
                     "a CPU; on a GPU this is the uncoalesced pattern (seed 002: about 7x "
                     "slower)", (unsigned long long)C);
        }
        return;
    }
    const uint32_t apart = w->last_writer - w->first_writer;
    w->cls = w->block && apart % w->block == 0 ? GS_WORK_BLOCK_STRIDE : GS_WORK_REPEATED;
    snprintf(w->words, sizeof w->words,
             "right, but elements were written up to %u times (%llu writes for n = %llu; element "
             "%lld first, by %u threads, thread %u first and thread %u last)%s",
             w->max, (unsigned long long)w->total, (unsigned long long)w->n,
             (long long)w->first_repeated, w->repeated_count, w->first_writer, w->last_writer,
             w->cls == GS_WORK_BLOCK_STRIDE
                 ? ": its writers are whole blocks apart, so the loop steps by the block, not "
                   "the grid (pitfall 1)"
                 : ": several threads store the same elements");
}

/* ---- the file ------------------------------------------------------------ */

static const struct {
    const char *ext;
    enum gs_dialect dialect;
    const char *name;
} dialects[] = {
    {".gs", GS_DIALECT_PORTABLE, "the portable dialect (kernels/' GS_* macros)"},
    {".cl", GS_DIALECT_OPENCL, "OpenCL C"},
    {".cu", GS_DIALECT_CUDA, "CUDA C++"},
};

int gs_dialect_of_path(const char *path, enum gs_dialect *d, struct gs_err *e)
{
    const char *slash = strrchr(path, '/');
    const char *dot = strrchr(slash ? slash : path, '.');
    for (size_t i = 0; dot && i < sizeof dialects / sizeof dialects[0]; ++i)
        if (strcmp(dot, dialects[i].ext) == 0) {
            *d = dialects[i].dialect;
            return GS_OK;
        }
    return gs_err_set(e, GS_USAGE,
                      "%s: %s%s%s; name the file .cl (OpenCL C), .cu (CUDA C++) or .gs (the "
                      "portable dialect)",
                      path, dot ? "unknown extension '" : "no extension", dot ? dot : "",
                      dot ? "'" : "");
}

const char *gs_dialect_name(enum gs_dialect d)
{
    for (size_t i = 0; i < sizeof dialects / sizeof dialects[0]; ++i)
        if (dialects[i].dialect == d)
            return dialects[i].name;
    return "?";
}

int gs_check_source_text(const char *path, const char *text, size_t len, struct gs_err *e)
{
    size_t blank = 0, odd = 0;
    for (size_t i = 0; i < len; ++i) {
        const unsigned char ch = (unsigned char)text[i];
        if (ch == 0)
            return gs_err_set(e, GS_USAGE,
                              "%s is not source text (a NUL byte at offset %zu); give the "
                              "kernel's source file",
                              path, i);
        blank += isspace(ch) != 0;
        /* Control characters other than white space do not occur in source. */
        odd += ch < 0x20 && !isspace(ch);
    }
    if (len == blank)
        return gs_err_set(e, GS_USAGE,
                          "%s is empty; it must hold one kernel (see gridstride check --help)",
                          path);
    if (odd * 100 > len)
        return gs_err_set(e, GS_USAGE,
                          "%s is not source text (%zu control characters); give the kernel's "
                          "source file",
                          path, odd);
    return GS_OK;
}

int gs_entry_valid(const char *entry)
{
    if (!entry || !(isalpha((unsigned char)entry[0]) || entry[0] == '_'))
        return 0;
    for (const char *p = entry; *p; ++p)
        if (!isalnum((unsigned char)*p) && *p != '_')
            return 0;
    return strlen(entry) < 128;
}

/* ---- what a file may not do ---------------------------------------------- */

/* A cursor over the text as the preprocessor sees it: trigraphs (??= and ??/)
 * read as # and a backslash, and backslash-newline splices skipped, counting the
 * file's own lines. */
struct src_cur {
    const char *t;
    size_t len, pos;
    unsigned line;
};

static int cur_raw(const struct src_cur *c, size_t p, size_t *adv)
{
    if (p + 2 < c->len && c->t[p] == '?' && c->t[p + 1] == '?' &&
        (c->t[p + 2] == '=' || c->t[p + 2] == '/')) {
        *adv = 3;
        return c->t[p + 2] == '=' ? '#' : '\\';
    }
    *adv = 1;
    return p < c->len ? (unsigned char)c->t[p] : -1;
}

static void cur_splices(struct src_cur *c)
{
    for (;;) {
        size_t a, b;
        if (c->pos >= c->len || cur_raw(c, c->pos, &a) != '\\')
            return;
        const int next = cur_raw(c, c->pos + a, &b);
        if (next == '\n') {
            c->pos += a + 1;
            ++c->line;
        } else if (next == '\r' && c->pos + a + 1 < c->len && c->t[c->pos + a + 1] == '\n') {
            c->pos += a + 2;
            ++c->line;
        } else {
            return;
        }
    }
}

static int cur_peek(struct src_cur *c)
{
    size_t a;
    cur_splices(c);
    return c->pos < c->len ? cur_raw(c, c->pos, &a) : -1;
}

static void cur_next(struct src_cur *c)
{
    size_t a;
    cur_splices(c);
    if (c->pos >= c->len)
        return;
    if (cur_raw(c, c->pos, &a) == '\n')
        ++c->line;
    c->pos += a;
}

static int cur_peek_at(const struct src_cur *c, int k)
{
    struct src_cur d = *c;
    for (int i = 0; i < k; ++i)
        cur_next(&d);
    return cur_peek(&d);
}

static int ident_start(int ch)
{
    return ch == '_' || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch >= 0x80;
}

static int ident_char(int ch)
{
    return ident_start(ch) || (ch >= '0' && ch <= '9');
}

static void cur_ident(struct src_cur *c, char *buf, size_t size)
{
    size_t n = 0;
    while (ident_char(cur_peek(c))) {
        if (n + 1 < size)
            buf[n++] = (char)cur_peek(c);
        cur_next(c);
    }
    buf[n] = '\0';
}

/* Comments and blanks within a line; 1 when it moved. */
static int cur_blank(struct src_cur *c)
{
    const int ch = cur_peek(c);
    if (ch == ' ' || ch == '\t' || ch == '\r' || ch == '\f' || ch == '\v') {
        cur_next(c);
        return 1;
    }
    if (ch == '/' && cur_peek_at(c, 1) == '*') {
        cur_next(c);
        cur_next(c);
        while (cur_peek(c) != -1 && !(cur_peek(c) == '*' && cur_peek_at(c, 1) == '/'))
            cur_next(c);
        cur_next(c);
        cur_next(c);
        return 1;
    }
    if (ch == '/' && cur_peek_at(c, 1) == '/') {
        while (cur_peek(c) != -1 && cur_peek(c) != '\n')
            cur_next(c);
        return 1;
    }
    return 0;
}

int gs_check_source_rules(const char *path, const char *text, size_t len, enum gs_dialect d,
                          struct gs_err *e)
{
    static const char *const directives[] = {"include", "include_next", "import", "embed"};
    struct src_cur c = {text, len, 0, 1};
    int at_start = 1;
    const int portable = d == GS_DIALECT_PORTABLE;
    while (cur_peek(&c) != -1) {
        const int ch = cur_peek(&c);
        if (ch == '\n') {
            cur_next(&c);
            at_start = 1;
            continue;
        }
        if (cur_blank(&c))
            continue;
        const unsigned line = c.line;
        const int hash = ch == '#' || (ch == '%' && cur_peek_at(&c, 1) == ':');
        if (hash) {
            const int paste = ch == '#' ? cur_peek_at(&c, 1) == '#'
                                        : cur_peek_at(&c, 2) == '%' && cur_peek_at(&c, 3) == ':';
            if (paste && portable && !at_start)
                return gs_err_set(e, GS_USAGE,
                                  "%s:%u: token pasting (##) is not allowed in a .gs file (it "
                                  "could spell asm); write the names out", path, line);
            cur_next(&c);
            if (ch == '%')
                cur_next(&c);
            if (at_start) {
                char word[32];
                while (cur_peek(&c) != '\n' && cur_blank(&c))
                    ;
                cur_ident(&c, word, sizeof word);
                for (size_t i = 0; i < sizeof directives / sizeof directives[0]; ++i)
                    if (strcmp(word, directives[i]) == 0)
                        return gs_err_set(e, GS_USAGE,
                                          "%s:%u: #%s is not allowed: the harness supplies what "
                                          "a kernel needs; remove the line", path, line, word);
            }
            at_start = 0;
            continue;
        }
        at_start = 0;
        if (ch == '"' || ch == '\'') {
            cur_next(&c);
            while (cur_peek(&c) != -1 && cur_peek(&c) != ch && cur_peek(&c) != '\n') {
                if (cur_peek(&c) == '\\')
                    cur_next(&c);
                cur_next(&c);
            }
            if (cur_peek(&c) == ch)
                cur_next(&c);
            continue;
        }
        if (ident_start(ch)) {
            char word[16];
            cur_ident(&c, word, sizeof word);
            if (portable && (strcmp(word, "asm") == 0 || strcmp(word, "__asm") == 0 ||
                             strcmp(word, "__asm__") == 0))
                return gs_err_set(e, GS_USAGE,
                                  "%s:%u: %s is not allowed in a .gs file: a kernel is C, not "
                                  "assembly; remove it", path, line, word);
            continue;
        }
        cur_next(&c);
    }
    return GS_OK;
}
