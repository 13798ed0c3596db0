/* SPDX-License-Identifier: MIT */
/* The trace build, run for real.
 *
 *   test_trace BACKEND   every kernel of the catalogue traced on that
 *                        backend at several grids: the recorded map must
 *                        equal the model's element by element; seed 000's
 *                        facts read off the map; a corrupted map is caught.
 *   test_trace all       the same launches on every backend that has a
 *                        device: their maps must be the same.
 *   test_trace stub      the first, on the template backend (linked in).
 *
 * Exit 77 (skipped) without a device (or, for `all`, with fewer than two
 * backends to compare), unless GRIDSTRIDE_REQUIRE names the backend. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gs_registry.h"
#include "gs_resource.h"
#include "gs_select.h"
#include "gs_test_log.h"
#include "gs_trace.h"
#include "gs_trace_report.h"

#define MAX_RUNS 8

static struct gs_opened opened[MAX_RUNS];
static struct gs_device *devs[MAX_RUNS];
static int ndevs;

/* Grids where the seed's picture, a single thread, and a last pass and a
 * last chunk cut short (n a multiple of neither the block nor T) all show;
 * and a grid of far more threads than elements: 1000 blocks of 32 (52 times
 * n), not check's <<<10000, 32>>>, whose ten thousand teams of 32 OpenMP
 * threads take the host fallback 2 s a pass, one thread hand-over at a time,
 * for no map the smaller grid does not draw. */
static const struct shape {
    uint64_t grid, block, n;
    const char *what;
} shapes[] = {
    {4, 256, 4096, "seed 000: <<<4, 256>>> over 4096"},
    {1, 1, 611, "<<<1, 1>>> over 611"},
    {3, 100, 1001, "ragged: <<<3, 100>>> over 1001"},
    {7, 33, 5003, "ragged, an odd block: <<<7, 33>>> over 5003"},
    {1000, 32, 611, "more threads than elements: <<<1000, 32>>> over 611"},
    {2, 64, 3079, "<<<2, 64>>> over 3079"},
};
#define NSHAPES (sizeof shapes / sizeof shapes[0])

static struct gs_trace_plan plan_of(const struct shape *s, int every_kernel)
{
    struct gs_trace_plan p = {0};
    p.grid = s->grid;
    p.block = s->block;
    p.n = s->n;
    if (every_kernel) {
        for (int k = 0; k < GS_KERNEL_COUNT; ++k)
            p.kernels[p.nkernels++] = (enum gs_kernel_id)k;
    } else {
        p.kernels[p.nkernels++] = GS_K_ADD_MONO;
        p.kernels[p.nkernels++] = GS_K_ADD_GS;
        p.kernels[p.nkernels++] = GS_K_ADD_CHUNKED;
    }
    return p;
}

static struct gs_trace *trace(struct gs_device *d, const struct gs_trace_plan *p)
{
    struct gs_trace *t = calloc(1, sizeof *t);
    struct gs_err e = {0};
    assert_non_null(t);
    if (gs_trace_run(d, p, t, &e) != GS_OK)
        fail_msg("gs_trace_run on %s: %s", d->backend->name, e.msg);
    return t;
}

static void drop(struct gs_trace *t)
{
    gs_trace_free(t);
    free(t);
}

static void every_kernel_records_the_models_map(void **state)
{
    (void)state;
    int maps = 0;
    for (size_t s = 0; s < NSHAPES; ++s) {
        const struct gs_trace_plan p = plan_of(&shapes[s], 1);
        struct gs_trace *t = trace(devs[0], &p);
        for (int k = 0; k < t->nkernels; ++k) {
            const struct gs_trace_kernel *tk = &t->k[k];
            if (!tk->held)
                fail_msg("%s, %s: %s", shapes[s].what, gs_kernel_info(tk->launch.kernel)->name,
                         tk->why);
            if (!tk->cells) /* refused or not launched, as predicted: it says why */
                assert_true(tk->why[0] != '\0');
            maps += tk->cells != NULL;
        }
        assert_int_equal(t->failed, 0);
        drop(t);
    }
    /* every kernel runs at the seed's grid, on every backend */
    assert_true(maps >= GS_KERNEL_COUNT);
}

/* Seed 000, cell by cell, from what the device recorded. */
static void seed_picture_is_recorded(void **state)
{
    (void)state;
    const struct gs_trace_plan p = plan_of(&shapes[0], 0);
    struct gs_trace *t = trace(devs[0], &p);
    const struct gs_trace_kernel *mono = &t->k[0], *gs = &t->k[1], *chunk = &t->k[2];
    if (gs->launch.global != 1024) {
        /* a runtime that grants another launch (OpenMP) has its maps checked
         * against the model above; the seed's facts need its 1024 threads */
        print_message("the runtime granted <<<%llu, %llu>>> for <<<4, 256>>>\n",
                      (unsigned long long)gs->launch.grid, (unsigned long long)gs->launch.block);
        drop(t);
        skip();
    }
    assert_true(mono->got.accepted && gs->got.accepted && chunk->got.accepted);
    /* monolithic: the first quarter, the rest hollow, and the API said ok */
    assert_int_equal(mono->written, 1024);
    assert_int_equal(mono->first_unwritten, 1024);
    assert_int_equal(mono->cells[4095].writer, GS_TRACE_NONE);
    /* grid-stride: all 4096 in four passes, thread 0 at 0, 1024, 2048, 3072 */
    assert_int_equal(gs->written, 4096);
    assert_int_equal(gs->passes, 4);
    assert_int_equal(gs->duplicated, 0);
    assert_int_equal(gs->thread0_total, 4);
    for (int i = 0; i < 4; ++i) {
        assert_int_equal(gs->thread0[i], 1024u * (unsigned)i);
        assert_int_equal(gs->cells[1024 * i].pass, i);
    }
    /* lanes adjacent inside each pass; chunked's lanes C = 4 apart */
    for (int s = 0; s < 4; ++s) {
        assert_int_equal(gs->warp[s].lanes, 32);
        assert_int_equal(gs->warp[s].apart, 1);
        assert_int_equal(gs->warp[s].segments, 1);
        assert_int_equal(gs->warp[s].first, 1024u * (unsigned)s);
        assert_int_equal(chunk->warp[s].apart, 4);
        assert_int_equal(chunk->warp[s].segments, 4);
        assert_int_equal(chunk->warp[s].first, s);
    }
    assert_int_equal(chunk->thread0[3], 3);
    drop(t);
}

/* The comparison with the model fails on any field of any element. */
static void a_wrong_map_is_caught(void **state)
{
    (void)state;
    const struct gs_trace_plan p = plan_of(&shapes[0], 0);
    struct gs_trace *t = trace(devs[0], &p);
    struct gs_trace_kernel *gs = &t->k[1], *mono = &t->k[0];
    struct gs_err e = {0};
    const struct {
        struct gs_trace_kernel *k;
        uint64_t i;
        int field;
    } cases[] = {{gs, 5, 0}, {gs, 2000, 1}, {gs, 4095, 2}, {mono, 3000, 0}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        struct gs_trace_cell *x = &cases[c].k->cells[cases[c].i];
        const struct gs_trace_cell keep = *x;
        if (cases[c].field == 0)
            x->writer = keep.writer == GS_TRACE_NONE ? 0 : keep.writer + 1;
        else if (cases[c].field == 1)
            x->pass = keep.pass + 1;
        else
            x->count = keep.count + 1;
        assert_int_equal(gs_trace_compare(cases[c].k, t->t_bits, NULL, &e), GS_OK);
        assert_int_equal(cases[c].k->mismatched, 1);
        assert_int_equal(cases[c].k->first_mismatch, cases[c].i);
        *x = keep;
        assert_int_equal(gs_trace_compare(cases[c].k, t->t_bits, NULL, &e), GS_OK);
        assert_int_equal(cases[c].k->mismatched, 0);
    }
    drop(t);
}

static int count_of(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
        ++n;
    return n;
}

/* The picture draws one map for runs whose maps are the same, element by
 * element, and a column for each map that differs, with the frame's size
 * and 10-pixel cells at the seed's 4096 elements when there is one map. */
static void the_picture_draws_each_distinct_map_once(void **state)
{
    (void)state;
    const struct gs_trace_plan p = plan_of(&shapes[0], 0);
    struct gs_trace *a = trace(devs[0], &p), *b = trace(devs[0], &p);
    const struct gs_trace *runs[2] = {a, b};
    struct gs_trace_agreement agree[GS_KERNEL_COUNT];
    for (int pass = 0; pass < 2; ++pass) {
        const int agreed = gs_trace_agree(runs, 2, agree);
        const struct gs_trace_report_in in = {runs, 2, agree, agreed, "0", "trace", "now", "cc"};
        struct gs_str o = {0};
        gs_trace_svg(&in, &o);
        assert_false(o.failed);
        assert_non_null(strstr(o.data, "<desc id=\"desc\">"));
        assert_non_null(strstr(o.data, "width=\"1920\" height=\"1080\""));
        if (pass == 0) {
            assert_true(agreed);
            assert_int_equal(count_of(o.data, "<g transform="), p.nkernels);
            assert_non_null(strstr(o.data, "every API recorded this map"));
            assert_non_null(strstr(o.data, "<pattern id=\"cells\" width=\"10.000\""));
            /* the second run's grid-stride map, one element off */
            b->k[1].cells[2000].writer += 1;
        } else {
            assert_false(agreed);
            assert_int_equal(count_of(o.data, "<g transform="), 2 * p.nkernels);
            assert_non_null(strstr(o.data, "2 different maps, one column each"));
            assert_non_null(strstr(o.data, "the maps differ, first at element 2000"));
        }
        gs_str_free(&o);
    }
    drop(a);
    drop(b);
}

/* ---- all backends ---------------------------------------------------------- */

static void every_backend_records_the_same_map(void **state)
{
    (void)state;
    for (size_t s = 0; s < NSHAPES; ++s) {
        const struct gs_trace_plan p = plan_of(&shapes[s], 1);
        struct gs_trace *runs[MAX_RUNS];
        const struct gs_trace *done[MAX_RUNS];
        struct gs_trace_agreement agree[GS_KERNEL_COUNT];
        for (int d = 0; d < ndevs; ++d)
            done[d] = runs[d] = trace(devs[d], &p);
        if (!gs_trace_agree(done, ndevs, agree))
            for (int k = 0; k < p.nkernels; ++k)
                if (!agree[k].equal)
                    fail_msg("%s, %s: %s and %s differ first at element %llu", shapes[s].what,
                             gs_kernel_info(p.kernels[k])->name,
                             devs[agree[k].a]->backend->name, devs[agree[k].b]->backend->name,
                             (unsigned long long)agree[k].first_difference);
        /* the seed's grid runs every kernel everywhere: compared for real
         * (a runtime that grants another launch is compared with the model) */
        if (s == 0)
            for (int k = 0; k < p.nkernels; ++k) {
                assert_int_equal(agree[k].compared + agree[k].other_launch, ndevs);
                assert_true(agree[k].compared >= 2);
            }
        /* and a differing map would have been noticed */
        if (s == 0) {
            struct gs_trace_cell *x = &runs[ndevs - 1]->k[1].cells[77];
            ++x->pass;
            assert_false(gs_trace_agree(done, ndevs, agree));
            assert_int_equal(agree[1].first_difference, 77);
            --x->pass;
        }
        for (int d = 0; d < ndevs; ++d)
            drop(runs[d]);
    }
}

/* One device of each backend that has one. */
static int open_all(void)
{
    for (int i = 0; i < gs_registry_count() && ndevs < MAX_RUNS; ++i) {
        struct gs_opened *o = &opened[ndevs];
        struct gs_err e = {0};
        gs_open_backend(gs_registry_at(i), o);
        if (o->status != GS_OK) {
            const int required = gs_backend_required(o->backend->name);
            fprintf(stderr, "%s: %s\n", required ? "FAIL" : "note", o->err.msg);
            if (required)
                return 1;
            continue;
        }
        char why[300];
        if (gs_resource_test_device(o, &devs[ndevs], why, sizeof why, &e) != GS_OK) {
            fprintf(stderr, "FAIL: %s\n", e.msg);
            return 1;
        }
        if (!(devs[ndevs]->caps & GS_CAP_TRACE)) {
            fprintf(stderr, "note: %s has no trace build on %s\n", o->backend->name,
                    devs[ndevs]->name);
            gs_close_backend(o);
            continue;
        }
        gs_test_log_device("trace", devs[ndevs], why);
        ++ndevs;
    }
    return 0;
}

int main(int argc, char **argv)
{
    const int all = argc == 2 && strcmp(argv[1], "all") == 0;
    int rc = all ? open_all() : gs_test_open("trace", argc, argv, &opened[0], &devs[0]);
    if (!all && rc == -1) {
        ndevs = 1;
        rc = 0;
        if (!(devs[0]->caps & GS_CAP_TRACE)) {
            const int required = gs_backend_required(argv[1]);
            fprintf(stderr, "%s: %s has no trace build\n", required ? "FAIL" : "SKIP",
                    devs[0]->name);
            rc = required ? 1 : GS_TEST_SKIP;
        }
    }
    if (rc == 0 && all && ndevs < 2) {
        fprintf(stderr, "SKIP: %d backend with a trace build here; nothing to compare\n", ndevs);
        rc = GS_TEST_SKIP;
    }
    if (rc == 0) {
        const struct CMUnitTest one[] = {
            cmocka_unit_test(every_kernel_records_the_models_map),
            cmocka_unit_test(seed_picture_is_recorded),
            cmocka_unit_test(a_wrong_map_is_caught),
            cmocka_unit_test(the_picture_draws_each_distinct_map_once),
        };
        const struct CMUnitTest every[] = {
            cmocka_unit_test(every_backend_records_the_same_map),
        };
        rc = all ? cmocka_run_group_tests_name("all backends", every, NULL, NULL)
                 : cmocka_run_group_tests_name(argv[1], one, NULL, NULL);
    }
    for (int d = 0; d < ndevs; ++d)
        gs_test_log_end("trace", devs[d]);
    for (int i = 0; i < MAX_RUNS; ++i)
        if (opened[i].backend)
            gs_close_backend(&opened[i]);
    return rc;
}
