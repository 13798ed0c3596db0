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
    {".gs", GS_DIALECT_PORTABLE, "the portable dialect (the GS_* macros of kernels/gs_kernels.h)"},
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

/* Three compilers read a kernel's text, and a .gs text reaches all of them:
 * the system C compiler for the host backend (`cc -std=c11`), PoCL's clang
 * (OpenCL C) and NVRTC (C++17). They do not read every byte alike, and a
 * rule is only as good as the checker's agreement with the compiler that
 * reads the file. Where they differ the text is refused rather than decoded
 * one compiler's way:
 * - trigraphs: gcc in c11 mode and clang in OpenCL C replace them, gnu11
 *   and C++17 do not (a `??/` before a newline splices for the first and
 *   not for NVRTC, which then sees the next line's #include). Every `??X`
 *   trigraph is refused anywhere, comments and strings too (in a comment
 *   `??/` continues the comment for one compiler only);
 * - a backslash with blanks before the end of its line: gcc and clang
 *   splice the lines, other front ends do not;
 * - a carriage return that is not part of CR LF: gcc and clang end a line
 *   there, so a `#` after it starts a directive;
 * - a byte over 127 outside comments and strings: clang reads some Unicode
 *   spaces as blanks, others read them as part of a name;
 * - a backslash outside strings other than a splice (a universal character
 *   name such as \u0061 spells a letter of a name);
 * - C++'s raw strings (R"(...)", which gcc also takes in C) and digit
 *   separators (1'000), which a C reader sees as strings and character
 *   constants where C++ sees code.
 * What is left is read alike by every compiler: backslash-newline splices
 * (joined here as in translation phase 2, counting the file's own lines),
 * comments, strings and tokens. */
struct src_cur {
    const char *t;
    size_t len, pos;
    unsigned line;
};

static void cur_splices(struct src_cur *c)
{
    while (c->pos + 1 < c->len && c->t[c->pos] == '\\') {
        if (c->t[c->pos + 1] == '\n') {
            c->pos += 2;
        } else if (c->t[c->pos + 1] == '\r' && c->pos + 2 < c->len &&
                   c->t[c->pos + 2] == '\n') {
            c->pos += 3;
        } else {
            return;
        }
        ++c->line;
    }
}

static int cur_peek(struct src_cur *c)
{
    cur_splices(c);
    return c->pos < c->len ? (unsigned char)c->t[c->pos] : -1;
}

static void cur_next(struct src_cur *c)
{
    cur_splices(c);
    if (c->pos >= c->len)
        return;
    if (c->t[c->pos] == '\n')
        ++c->line;
    ++c->pos;
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
    return ch == '_' || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z');
}

static int ident_char(int ch)
{
    return ident_start(ch) || (ch >= '0' && ch <= '9');
}

/* A name longer than buf holds is cut; no name a rule looks for is that
 * long, so a cut name matches none. */
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

static int in_list(const char *word, const char *const *list, size_t n)
{
    for (size_t i = 0; i < n; ++i)
        if (strcmp(word, list[i]) == 0)
            return 1;
    return 0;
}
#define IN_LIST(word, list) in_list(word, list, sizeof list / sizeof list[0])

/* The bytes no compiler reads alike (above), before any token is read. */
static int source_bytes(const char *path, const char *t, size_t len, struct gs_err *e)
{
    unsigned line = 1;
    for (size_t i = 0; i < len; line += t[i] == '\n', ++i) {
        if (t[i] == '?' && i + 2 < len && t[i + 1] == '?' && t[i + 2] &&
            memchr("=/'()!<>-", t[i + 2], 9))
            return gs_err_set(e, GS_USAGE,
                              "%s:%u: the trigraph ??%c is not allowed (C11 reads it as one "
                              "character, C++17 and GNU C as three); write the character itself",
                              path, line, t[i + 2]);
        if (t[i] == '\r' && (i + 1 == len || t[i + 1] != '\n'))
            return gs_err_set(e, GS_USAGE,
                              "%s:%u: a carriage return that does not end a line (CR LF) is not "
                              "allowed: some compilers start a new line there; save the file "
                              "with LF or CR LF line ends", path, line);
        if (t[i] == '\\') {
            size_t j = i + 1;
            while (j < len && (t[j] == ' ' || t[j] == '\t' || t[j] == '\f' || t[j] == '\v'))
                ++j;
            if (j > i + 1 && (j == len || t[j] == '\n' || t[j] == '\r'))
                return gs_err_set(e, GS_USAGE,
                                  "%s:%u: a backslash followed by blanks at the end of a line "
                                  "is not allowed: some compilers join the lines, others do "
                                  "not; remove the blanks", path, line);
        }
    }
    return GS_OK;
}

/* The directives a kernel may use; every other one is refused (#include
 * and its kin read files, #line and GNU linemarkers `# 2 "file"` make cc
 * read and print another file's lines in its messages, #ident passes a
 * string to the assembler). */
static const char *const directives_allowed[] = {
    "define", "undef", "if", "ifdef", "ifndef", "elif", "elifdef", "elifndef",
    "else", "endif", "error", "warning", "pragma"};
static const char *const directives_reading[] = {"include", "include_next", "import", "embed"};

/* #pragma: the loop hints kernels use, and nothing else (GCC dependency
 * reads a file; others change what the compiler emits). */
static int pragma_allowed(struct src_cur *c)
{
    static const char *const plain[] = {"unroll", "nounroll", "OPENCL", "STDC", "once"};
    static const char *const gcc[] = {"unroll", "ivdep", "novector"};
    char word[32], sub[32];
    while (cur_peek(c) != '\n' && cur_blank(c))
        ;
    cur_ident(c, word, sizeof word);
    if (IN_LIST(word, plain))
        return 1;
    while (cur_peek(c) != '\n' && cur_blank(c))
        ;
    cur_ident(c, sub, sizeof sub);
    return (strcmp(word, "GCC") == 0 && IN_LIST(sub, gcc)) ||
           (strcmp(word, "clang") == 0 && strcmp(sub, "loop") == 0);
}

/* A `#` (or `%:`) at c, at the start of a line or not. */
static int source_hash(const char *path, struct src_cur *c, int at_start, struct gs_err *e)
{
    const unsigned line = c->line;
    const int ch = cur_peek(c);
    const int paste = ch == '#' ? cur_peek_at(c, 1) == '#'
                                : cur_peek_at(c, 2) == '%' && cur_peek_at(c, 3) == ':';
    if (paste)
        return gs_err_set(e, GS_USAGE,
                          "%s:%u: token pasting (##) is not allowed (it could spell asm or a "
                          "directive's name); write the names out", path, line);
    cur_next(c);
    if (ch == '%')
        cur_next(c);
    char word[32];
    while (cur_peek(c) != '\n' && cur_blank(c))
        ;
    const int next = cur_peek(c);
    if (next >= '0' && next <= '9' && at_start)
        return gs_err_set(e, GS_USAGE,
                          "%s:%u: a line marker (# %c \"file\") is not allowed: it makes the "
                          "compiler name and print another file; remove the line",
                          path, line, next);
    cur_ident(c, word, sizeof word);
    if (IN_LIST(word, directives_reading))
        return gs_err_set(e, GS_USAGE,
                          "%s:%u: #%s is not allowed: the harness supplies what a kernel needs; "
                          "remove the line", path, line, word);
    if (strcmp(word, "line") == 0)
        return gs_err_set(e, GS_USAGE,
                          "%s:%u: #line is not allowed: it makes the compiler name and print "
                          "another file; remove the line", path, line);
    if (!at_start)
        return GS_OK; /* # x in a macro's body: a string of its argument */
    if (!*word && (next == '\n' || next == -1))
        return GS_OK; /* the null directive */
    if (strcmp(word, "pragma") == 0 && !pragma_allowed(c))
        return gs_err_set(e, GS_USAGE,
                          "%s:%u: this #pragma is not allowed (some read files or change what "
                          "the compiler emits); a kernel may use #pragma unroll, nounroll, "
                          "OPENCL, STDC, GCC unroll, GCC ivdep, GCC novector and clang loop",
                          path, line);
    if (!IN_LIST(word, directives_allowed))
        return gs_err_set(e, GS_USAGE,
                          "%s:%u: #%s is not allowed: a kernel may use #define, #undef, #if, "
                          "#ifdef, #ifndef, #elif, #else, #endif, #error, #warning and some "
                          "#pragma lines; remove the line", path, line, word);
    return GS_OK;
}

/* Names no kernel may use, whatever the dialect. */
static const char *const names_asm[] = {"asm", "__asm", "__asm__"};
/* Attributes whose string the compiler passes to the assembler as it is
 * (section("x\n.incbin ...") is a directive), or that run code when the
 * object is loaded, before any launch. Refused as names anywhere, so that
 * [[gnu::section]], __attribute__((__section__)) and a macro that expands
 * to one are refused alike. */
static const char *const names_attr[] = {
    "section",       "__section__",       "alias",         "__alias__",
    "weakref",       "__weakref__",       "ifunc",         "__ifunc__",
    "symver",        "__symver__",        "constructor",   "__constructor__",
    "destructor",    "__destructor__",    "init_priority", "__init_priority__",
    "fentry_section", "__fentry_section__"};
/* _Pragma makes a #pragma from a string (which no rule above reads);
 * __has_include asks whether a file exists. */
static const char *const names_other[] = {"_Pragma", "__pragma", "__has_include",
                                          "__has_include_next", "__has_embed"};
static const char *const raw_prefixes[] = {"R", "LR", "uR", "UR", "u8R"};

static int source_name(const char *path, struct src_cur *c, enum gs_dialect d, struct gs_err *e)
{
    const unsigned line = c->line;
    char word[40];
    cur_ident(c, word, sizeof word);
    if (IN_LIST(word, names_asm))
        return gs_err_set(e, GS_USAGE,
                          "%s:%u: %s is not allowed: a kernel is %s, not assembly (an assembler "
                          "reads files: .incbin); remove it", path, line, word,
                          gs_dialect_name(d));
    if (IN_LIST(word, names_attr))
        return gs_err_set(e, GS_USAGE,
                          "%s:%u: the name %s is not allowed: as an attribute it passes a string "
                          "to the assembler or runs code when the kernel is loaded; remove it "
                          "(or rename the variable)", path, line, word);
    if (IN_LIST(word, names_other))
        return gs_err_set(e, GS_USAGE,
                          "%s:%u: %s is not allowed: it %s; remove it", path, line, word,
                          word[2] == 'h' ? "asks the compiler whether a file exists"
                                         : "makes a #pragma out of a string");
    if (cur_peek(c) == '"' && IN_LIST(word, raw_prefixes))
        return gs_err_set(e, GS_USAGE,
                          "%s:%u: a raw string (%s\"(...)\") is not allowed: C reads it as "
                          "another string than C++ does; write an ordinary string",
                          path, line, word);
    return GS_OK;
}

/* A preprocessing number: digits, letters, dots, and a sign after an
 * exponent's e or p. A ' inside is C++'s (and C23's) digit separator, a
 * character constant to C11. */
static int source_number(const char *path, struct src_cur *c, struct gs_err *e)
{
    int prev = 0;
    for (;;) {
        const int ch = cur_peek(c);
        const int exp_sign = (ch == '+' || ch == '-') &&
                             (prev == 'e' || prev == 'E' || prev == 'p' || prev == 'P');
        if (ch == '\'')
            return gs_err_set(e, GS_USAGE,
                              "%s:%u: a digit separator (') is not allowed: C11 reads it as a "
                              "character constant, C++ as part of the number; write the number "
                              "without it", path, c->line);
        if (!ident_char(ch) && ch != '.' && !exp_sign)
            return GS_OK;
        prev = ch;
        cur_next(c);
    }
}

int gs_check_source_rules(const char *path, const char *text, size_t len, enum gs_dialect d,
                          struct gs_err *e)
{
    struct src_cur c = {text, len, 0, 1};
    int at_start = 1, st = source_bytes(path, text, len, e);
    while (st == GS_OK && cur_peek(&c) != -1) {
        const int ch = cur_peek(&c);
        if (ch == '\n') {
            cur_next(&c);
            at_start = 1;
            continue;
        }
        if (cur_blank(&c))
            continue;
        const int start = at_start;
        at_start = 0;
        if (ch == '#' || (ch == '%' && cur_peek_at(&c, 1) == ':')) {
            st = source_hash(path, &c, start, e);
        } else if (ch == '"' || ch == '\'') {
            cur_next(&c);
            while (cur_peek(&c) != -1 && cur_peek(&c) != ch && cur_peek(&c) != '\n') {
                if (cur_peek(&c) == '\\')
                    cur_next(&c);
                cur_next(&c);
            }
            if (cur_peek(&c) == ch)
                cur_next(&c);
        } else if (ident_start(ch)) {
            st = source_name(path, &c, d, e);
        } else if ((ch >= '0' && ch <= '9') ||
                   (ch == '.' && cur_peek_at(&c, 1) >= '0' && cur_peek_at(&c, 1) <= '9')) {
            st = source_number(path, &c, e);
        } else if (ch >= 0x80 || ch == '\\') {
            st = gs_err_set(e, GS_USAGE,
                            "%s:%u: %s outside a comment or a string is not allowed: compilers "
                            "read it differently (a Unicode space, a \\u0061 in a name); write "
                            "code in ASCII", path, c.line,
                            ch == '\\' ? "a backslash" : "a byte over 127");
        } else {
            cur_next(&c);
        }
    }
    return st;
}
