/* SPDX-License-Identifier: MIT */
/* The backend kit: what the core does for every backend, tested on the
 * template backend (stub_backend/) made to misbehave, malformed, or stripped
 * of its optional members. No GPU is involved. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gs_bench.h"
#include "gs_device.h"
#include "gs_model.h"
#include "gs_select.h"
#include "gs_spread.h"
#include "gs_table.h"
#include "gs_workspace.h"

extern const struct gs_backend gs_backend_stub;

static struct gs_opened open_copy(const struct gs_backend *b)
{
    struct gs_opened o;
    gs_open_backend(b, &o);
    return o;
}

/* ---- registration: a backend without a required member is refused ----- */

/* The compiler checks each backend against gs_backend.h; what it cannot see
 * (a required member left NULL, a device or buffer size below the core's
 * part) is refused when the backend is opened, with the reason. */
static void malformed_backends_are_refused(void **state)
{
    (void)state;
    struct gs_backend small = gs_backend_stub, small_buf = gs_backend_stub,
                      missing = gs_backend_stub;
    small.device_size = sizeof(struct gs_device) - 1;
    small_buf.buffer_size = sizeof(struct gs_buf) - 1;
    missing.launch = NULL;
    const struct {
        const struct gs_backend *b;
        const char *says;
    } cases[] = {{&small, "smaller than the core's part"},
                 {&small_buf, "smaller than the core's part"},
                 {&missing, "lacks a required method"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        struct gs_opened o = open_copy(cases[i].b);
        assert_int_equal(o.status, GS_BAD_BACKEND);
        assert_non_null(strstr(o.err.msg, cases[i].says));
        assert_null(o.devs);
        gs_close_backend(&o);
    }
}

/* ---- optional members: NULL degrades as documented, results stay right -- */

static void missing_optional_members_degrade_and_stay_correct(void **state)
{
    (void)state;
    struct gs_backend minimal = gs_backend_stub;
    minimal.fill32 = NULL; /* the stub has no staging, mem_available or probe either */
    struct gs_opened o = open_copy(&minimal);
    assert_int_equal(o.status, GS_OK);
    struct gs_device *d = o.devs[0];
    struct gs_err e = {0};
    struct gs_buf *buf;
    uint64_t bytes;
    const struct gs_grid_probe *probe;
    assert_int_equal(gs_dev_alloc(d, 64, &buf, &e), GS_OK);
    assert_int_equal(gs_dev_fill32(d, buf, 0, 64, 1u, &e), GS_UNSUPPORTED);
    assert_int_equal(gs_dev_mem_available(d, &bytes, &e), GS_UNSUPPORTED);
    assert_int_equal(gs_dev_probe_grid(d, &probe, &e), GS_OK);
    assert_int_equal(probe->status, GS_UNSUPPORTED);
    void *p, *h;
    int pinned = 1;
    assert_int_equal(gs_dev_staging_alloc(d, 4096, &p, &h, &pinned, &e), GS_OK);
    assert_false(pinned); /* plain memory: slower, never wrong */
    gs_dev_staging_free(d, p, h, pinned);
    /* The workspace uploads the poison instead, and a short grid is still
     * seen exactly. */
    struct gs_workspace w;
    assert_int_equal(gs_workspace_open(&w, d, 5000, NULL, &e), GS_OK);
    struct gs_launch l = {0};
    l.kernel = GS_K_ADD_MONO;
    l.n = 5000;
    l.grid = 4;
    l.block = 256;
    l.global = 1024;
    gs_workspace_bind(&w, &l);
    struct gs_launch_result r;
    struct gs_verdict v;
    assert_int_equal(gs_checked_launch(&w, &l, &r, &v, &e), GS_OK);
    assert_false(w.filled_on_device);
    assert_int_equal(v.diag, GS_DIAG_SHORT_GRID);
    assert_int_equal(v.first_wrong, 1024);
    gs_workspace_close(&w);
    gs_close_backend(&o); /* frees `buf`, which was never freed by hand */
}

/* ---- API errors: converted once, with the API's own name ---------------- */

static void api_errors_carry_the_apis_name_and_a_relative_place(void **state)
{
    (void)state;
    struct gs_opened o = open_copy(&gs_backend_stub);
    struct gs_err e = {0};
    struct gs_buf *buf = (struct gs_buf *)&o; /* must be reset to NULL */
    setenv("GRIDSTRIDE_STUB", "alloc-fails", 1);
    assert_int_equal(gs_dev_alloc(o.devs[0], 1024, &buf, &e), GS_NOMEM);
    unsetenv("GRIDSTRIDE_STUB");
    assert_null(buf);
    assert_int_equal(gs_dev_buffers_held(o.devs[0]), 0);
    assert_non_null(strstr(e.msg, "stubErrorOutOfMemory (2): out of memory"));
    assert_non_null(strstr(e.msg, " at tests/stub_backend/gs_stub.c:"));
    gs_close_backend(&o);
}

/* ---- the core's checks come before the backend -------------------------- */

static void ranges_and_kernel_ids_are_checked_by_the_core(void **state)
{
    (void)state;
    struct gs_opened o = open_copy(&gs_backend_stub);
    struct gs_device *d = o.devs[0];
    struct gs_err e = {0};
    struct gs_buf *buf;
    char bytes[64];
    assert_int_equal(gs_dev_alloc(d, 40, &buf, &e), GS_OK);
    assert_int_equal(gs_dev_read(d, buf, 32, bytes, 16, &e), GS_USAGE);
    assert_non_null(strstr(e.msg, "read of 16 bytes at 32 outside a 40-byte buffer"));
    assert_int_equal(gs_dev_write(d, buf, 41, bytes, 0, &e), GS_USAGE);
    assert_int_equal(gs_dev_fill32(d, buf, 0, 44, 0, &e), GS_USAGE);
    double ms;
    assert_int_equal(gs_dev_copy(d, buf, buf, 41, &ms, &e), GS_USAGE);
    struct gs_launch l = {0};
    struct gs_launch_result r;
    l.kernel = (enum gs_kernel_id)GS_KERNEL_COUNT;
    l.grid = l.block = l.global = 1;
    assert_int_equal(gs_dev_launch(d, &l, 0, &r, &e), GS_USAGE);
    assert_non_null(strstr(e.msg, "unknown kernel"));
    gs_dev_free(d, buf);
    assert_int_equal(gs_dev_buffers_held(d), 0);
    gs_close_backend(&o);
}

/* ---- refusals: a result with the API's words, and the model not fooled - */

static void a_refusing_api_is_a_result_and_fails_the_prediction(void **state)
{
    (void)state;
    struct gs_opened o = open_copy(&gs_backend_stub);
    struct gs_device *d = o.devs[0];
    struct gs_err e = {0};
    uint64_t sizes[] = {611};
    struct gs_table_plan p = {256, 2, sizes, 1, NULL, 0, 1u << GS_COL_C, NULL};
    struct gs_table *t = NULL;
    setenv("GRIDSTRIDE_STUB", "refuse", 1);
    const int rc = gs_table_run(d, &p, &t, &e);
    unsetenv("GRIDSTRIDE_STUB");
    assert_int_equal(rc, GS_OK);
    assert_int_equal(t->ncases, 1);
    const struct gs_case *c = &t->cases[0];
    assert_false(c->got.accepted);
    assert_string_equal(c->got.api_error, "stubErrorLaunchRefused");
    assert_non_null(strstr(c->got.api_message, "stubLaunch"));
    assert_int_equal(c->pred.outcome, GS_OUT_OK); /* the device's report allowed it */
    assert_false(c->held);                       /* so the run fails */
    assert_int_equal(t->failed, 1);
    gs_table_free(t);
    gs_close_backend(&o);
}

/* ---- GS_NOT_SENT: the core never calls launch() ------------------------- */

static int never_send(const struct gs_device *dev, const struct gs_launch *l, char *why,
                      unsigned why_size)
{
    (void)dev;
    (void)l;
    snprintf(why, why_size, "a cap of the suite's");
    return GS_NOT_SENT;
}

static int launch_must_not_be_called(struct gs_device *dev, const struct gs_launch *l,
                                     int timed, struct gs_launch_result *r, struct gs_err *e)
{
    (void)dev;
    (void)l;
    (void)timed;
    (void)r;
    fail_msg("launch() was called for a launch its backend marked GS_NOT_SENT");
    return gs_err_set(e, GS_API, "unreachable");
}

static void not_sent_launches_never_reach_the_backend(void **state)
{
    (void)state;
    struct gs_backend capped = gs_backend_stub;
    capped.predicts_accept = never_send;
    capped.launch = launch_must_not_be_called;
    struct gs_opened o = open_copy(&capped);
    struct gs_err e = {0};
    struct gs_launch l = {0};
    struct gs_launch_result r;
    l.kernel = GS_K_ADD_GS;
    l.grid = l.block = l.global = 1;
    assert_int_equal(gs_dev_launch(o.devs[0], &l, 0, &r, &e), GS_OK);
    assert_true(r.not_sent);
    assert_false(r.accepted);
    assert_string_equal(r.api_message, "a cap of the suite's");
    gs_close_backend(&o);
}

/* ---- per-unit finish times, gated like every optional member ----------- */

static int timeline_must_not_be_called(struct gs_device *dev, const struct gs_launch *l,
                                       struct gs_launch_result *r, struct gs_timeline *t,
                                       struct gs_err *e)
{
    (void)dev;
    (void)l;
    (void)r;
    (void)t;
    fail_msg("timeline() was called for a backend or device the core should have refused");
    return gs_err_set(e, GS_API, "unreachable");
}

/* One launch of the float4 add that the stub takes: 8 blocks of 256. */
static struct gs_launch spread_launch(void)
{
    struct gs_launch l = {0};
    l.kernel = GS_K_ADD_GS_F4;
    l.n = 32768;
    l.grid = 8;
    l.block = 256;
    l.global = 8 * 256;
    return l;
}

/* The member NULL, a device without the clock: each is
 * "unsupported" with its reason, the member is never called, and the
 * spread runs nothing on such a device (no buffer is allocated). */
static void timeline_is_gated_like_every_optional_member(void **state)
{
    (void)state;
    struct gs_backend none = gs_backend_stub, clockless = gs_backend_stub;
    none.timeline = NULL;
    clockless.timeline = timeline_must_not_be_called;
    const struct {
        const struct gs_backend *b;
        const char *env; /* GRIDSTRIDE_STUB while it is opened */
        const char *says;
    } cases[] = {{&none, "timeline", "does not record per-unit finish times (no timeline member)"},
                 {&clockless, NULL, "has no per-unit clock"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        if (cases[i].env)
            setenv("GRIDSTRIDE_STUB", cases[i].env, 1);
        struct gs_opened o = open_copy(cases[i].b);
        unsetenv("GRIDSTRIDE_STUB");
        assert_int_equal(o.status, GS_OK);
        struct gs_device *d = o.devs[0];
        struct gs_err e = {0};
        char why[200];
        assert_int_equal(gs_dev_timeline_check(d, why, sizeof why), GS_UNSUPPORTED);
        assert_non_null(strstr(why, cases[i].says));
        struct gs_launch l = spread_launch();
        struct gs_launch_result r;
        struct gs_timeline *t = malloc(sizeof *t);
        assert_non_null(t);
        assert_int_equal(gs_dev_timeline(d, &l, &r, t, &e), GS_UNSUPPORTED);
        assert_non_null(strstr(e.msg, cases[i].says));
        free(t);
        struct gs_spread s;
        const struct gs_spread_plan p = {32768, 0, 0, NULL};
        assert_int_equal(gs_spread_run(d, &p, &s, &e), GS_OK);
        assert_false(s.available);
        assert_non_null(strstr(s.why, cases[i].says));
        assert_int_equal(gs_dev_buffers_held(d), 0);
        gs_spread_free(&s);
        gs_close_backend(&o);
    }
}

/* A record that does not add up: one block missing. */
static int timeline_loses_a_block(struct gs_device *dev, const struct gs_launch *l,
                                  struct gs_launch_result *r, struct gs_timeline *t,
                                  struct gs_err *e)
{
    (void)dev;
    (void)e;
    r->accepted = 1;
    t->nunits = 1;
    t->unit[0] = (struct gs_timeline_unit){0, (unsigned)l->grid - 1, 0, 1000};
    return GS_OK;
}

/* The core checks a launch before the backend sees it, and the record after. */
static void timeline_launches_and_records_are_checked(void **state)
{
    (void)state;
    struct gs_backend lying = gs_backend_stub;
    lying.timeline = timeline_loses_a_block;
    setenv("GRIDSTRIDE_STUB", "timeline", 1);
    struct gs_opened o = open_copy(&gs_backend_stub), liar = open_copy(&lying);
    unsetenv("GRIDSTRIDE_STUB");
    struct gs_device *d = o.devs[0];
    struct gs_err e = {0};
    struct gs_launch_result r;
    struct gs_timeline *t = malloc(sizeof *t);
    assert_non_null(t);
    struct gs_launch l = spread_launch();
    l.count = 1;
    assert_int_equal(gs_dev_timeline(d, &l, &r, t, &e), GS_USAGE);
    l = spread_launch();
    l.grid = l.global = 0; /* the stub API refuses an empty grid */
    assert_int_equal(gs_dev_timeline(d, &l, &r, t, &e), GS_USAGE);
    assert_non_null(strstr(e.msg, "a timeline needs a launch the API takes"));
    l = spread_launch();
    l.kernel = (enum gs_kernel_id)GS_KERNEL_COUNT;
    assert_int_equal(gs_dev_timeline(d, &l, &r, t, &e), GS_USAGE);
    l = spread_launch();
    assert_int_equal(gs_dev_timeline(liar.devs[0], &l, &r, t, &e), GS_API);
    assert_non_null(strstr(e.msg, "counts 7 blocks in a launch of 8"));
    free(t);
    gs_close_backend(&liar);
    gs_close_backend(&o);
}

/* The stub's pretend clock (gs_stub_api.h: unit 1 takes 1.5 times as long
 * per block as unit 0, each holds 4 blocks) through the core, where every
 * number is known. n = 32768 on G = 8 blocks: a block is 4096 ns on unit 0
 * and 6144 ns on unit 1. One wave: 4 blocks each, finishing at 16384 and
 * 24576 ns. 16 waves (128 blocks of 256 ns and 384 ns), each block to the
 * unit that frees a slot first: unit 0 runs 76 and finishes at 19456 ns,
 * unit 1 runs 52 and finishes at 19968 ns. */
static void stub_timeline_through_the_core_gives_the_idle_times(void **state)
{
    (void)state;
    setenv("GRIDSTRIDE_STUB", "timeline", 1);
    struct gs_opened o = open_copy(&gs_backend_stub);
    struct gs_device *d = o.devs[0];
    struct gs_err e = {0};
    struct gs_spread s;
    const struct gs_spread_plan p = {32768, 0, 0, NULL};
    const int rc = gs_spread_run(d, &p, &s, &e);
    unsetenv("GRIDSTRIDE_STUB");
    if (rc != GS_OK)
        fail_msg("%s", e.msg);
    assert_true(s.available);
    assert_int_equal(s.grid, 8);
    assert_int_equal(s.wrong, 0);
    const struct gs_spread_launch *one = &s.launch[0], *many = &s.launch[1];
    assert_true(one->verified && many->verified);
    assert_int_equal(one->made, GS_SPREAD_DEFAULT_REPS);
    assert_int_equal(one->launch.grid, 8);
    assert_int_equal(many->launch.grid, 8 * GS_SPREAD_WAVES);
    const struct gs_spread_stats *a = &one->stats, *b = &many->stats;
    assert_int_equal(a->units, 2);
    assert_int_equal(a->blocks_min, 4);
    assert_int_equal(a->blocks_max, 4);
    assert_true(fabs(a->span_us - 24.576) < 1e-9);
    assert_true(fabs(a->first_finish_us - 16.384) < 1e-9);
    assert_true(fabs(a->first_idle_us - 8.192) < 1e-9);
    assert_true(fabs(a->median_idle_us - 4.096) < 1e-9); /* 24576 - (16384 + 24576) / 2 */
    assert_true(fabs(a->event_ms - 0.024576) < 1e-12);
    assert_int_equal(b->blocks_min, 52);
    assert_int_equal(b->blocks_max, 76);
    assert_true(fabs(b->span_us - 19.968) < 1e-9);
    assert_true(fabs(b->first_idle_us - 0.512) < 1e-9);
    assert_true(fabs(b->median_idle_us - 0.256) < 1e-9);
    /* The shown record, in finish order. */
    assert_int_equal(one->timeline->nunits, 2);
    assert_int_equal(one->timeline->unit[0].id, 0);
    assert_int_equal(one->timeline->unit[0].end_ns, 16384);
    assert_int_equal(one->timeline->unit[1].end_ns, 24576);
    assert_int_equal(many->timeline->unit[0].blocks, 76);
    assert_int_equal(one->timeline->resident_per_unit, 4);
    assert_int_equal(gs_dev_buffers_held(d), 0); /* the workspace is closed */
    gs_spread_free(&s);
    gs_close_backend(&o);
}

/* A wrong result is found, as in every other mode: the output is poisoned
 * and verified around each instrumented launch. A stub whose timeline
 * launch writes nothing fails verification and gets no numbers. */
static int timeline_writes_nothing(struct gs_device *dev, const struct gs_launch *l,
                                   struct gs_launch_result *r, struct gs_timeline *t,
                                   struct gs_err *e)
{
    (void)dev;
    (void)e;
    r->accepted = 1;
    t->nunits = 1;
    t->unit[0] = (struct gs_timeline_unit){0, (unsigned)l->grid, 0, 1000};
    return GS_OK;
}

static void an_unwritten_output_is_wrong_not_measured(void **state)
{
    (void)state;
    struct gs_backend idle = gs_backend_stub;
    idle.timeline = timeline_writes_nothing;
    setenv("GRIDSTRIDE_STUB", "timeline", 1);
    struct gs_opened o = open_copy(&idle);
    unsetenv("GRIDSTRIDE_STUB");
    struct gs_err e = {0};
    struct gs_spread s;
    const struct gs_spread_plan p = {32768, 0, 0, NULL};
    assert_int_equal(gs_spread_run(o.devs[0], &p, &s, &e), GS_OK);
    assert_int_equal(s.wrong, 2);
    for (int i = 0; i < GS_SPREAD_LAUNCHES; ++i) {
        assert_false(s.launch[i].verified);
        assert_int_equal(s.launch[i].made, 0);
        if (!strstr(s.launch[i].wrong, "32768 elements never written"))
            fail_msg("%s", s.launch[i].wrong);
        assert_null(s.launch[i].timeline);
    }
    gs_spread_free(&s);
    gs_close_backend(&o);
}

/* ---- the double build: only where a device has GS_CAP_F64 --------------- */

/* The template has no double build: the core refuses a double launch, a
 * double workspace and a double benchmark before the backend sees one, and
 * says why; a reason the API gave (gs_device.no_f64) is the one shown. */
static void double_is_refused_without_the_build_with_the_reason(void **state)
{
    (void)state;
    struct gs_backend refusing = gs_backend_stub;
    refusing.launch = launch_must_not_be_called;
    struct gs_opened o = open_copy(&refusing);
    assert_int_equal(o.status, GS_OK);
    struct gs_device *d = o.devs[0];
    struct gs_err e = {0};
    char why[200];
    assert_false(d->caps & GS_CAP_F64);
    assert_false(gs_dev_has_f64(d, why, sizeof why));
    assert_string_equal(why, "the stub backend has no double build of the kernels");

    struct gs_buf *buf;
    assert_int_equal(gs_dev_alloc(d, 4096, &buf, &e), GS_OK);
    struct gs_launch l = {0};
    struct gs_launch_result r;
    l.kernel = GS_K_ADD_GS;
    l.grid = l.block = l.global = 1;
    l.n = 16;
    l.a = l.b = l.out = buf;
    l.type = GS_TYPE_DOUBLE;
    assert_int_equal(gs_dev_launch(d, &l, 0, &r, &e), GS_UNSUPPORTED);
    assert_non_null(strstr(e.msg, "cannot run double: the stub backend has no double build"));
    /* no count or trace build in double, whatever the device has */
    l.count = 1;
    assert_int_equal(gs_dev_launch(d, &l, 0, &r, &e), GS_USAGE);
    assert_non_null(strstr(e.msg, "float only"));

    struct gs_workspace w;
    assert_int_equal(gs_workspace_open_as(&w, d, 1000, GS_TYPE_DOUBLE, NULL, &e),
                     GS_UNSUPPORTED);
    assert_non_null(strstr(e.msg, "cannot run double"));
    static struct gs_bench b;
    struct gs_bench_plan plan = {0};
    plan.n = 4096;
    plan.reps = 5;
    plan.type = GS_TYPE_DOUBLE;
    assert_int_equal(gs_bench_run(d, &plan, &b, &e), GS_UNSUPPORTED);
    assert_non_null(strstr(e.msg, "cannot run double"));
    gs_bench_free(&b);

    /* What the API reported is the reason given (an OpenCL device without
     * fp64 says so in no_f64). */
    gs_strlcpy(d->no_f64, "the device reports no double precision (CL_DEVICE_DOUBLE_FP_CONFIG "
                          "is 0)", sizeof d->no_f64);
    l.count = 0;
    assert_int_equal(gs_dev_launch(d, &l, 0, &r, &e), GS_UNSUPPORTED);
    assert_non_null(strstr(e.msg, "CL_DEVICE_DOUBLE_FP_CONFIG is 0"));
    gs_close_backend(&o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(malformed_backends_are_refused),
        cmocka_unit_test(missing_optional_members_degrade_and_stay_correct),
        cmocka_unit_test(api_errors_carry_the_apis_name_and_a_relative_place),
        cmocka_unit_test(ranges_and_kernel_ids_are_checked_by_the_core),
        cmocka_unit_test(a_refusing_api_is_a_result_and_fails_the_prediction),
        cmocka_unit_test(not_sent_launches_never_reach_the_backend),
        cmocka_unit_test(timeline_is_gated_like_every_optional_member),
        cmocka_unit_test(timeline_launches_and_records_are_checked),
        cmocka_unit_test(stub_timeline_through_the_core_gives_the_idle_times),
        cmocka_unit_test(an_unwritten_output_is_wrong_not_measured),
        cmocka_unit_test(double_is_refused_without_the_build_with_the_reason),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
