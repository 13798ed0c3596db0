/* SPDX-License-Identifier: MIT */
/* The backend kit: what the core does for every backend, tested on the
 * template backend (stub_backend/) made to misbehave, made old, or stripped
 * of its optional members. No GPU is involved. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gs_bench.h"
#include "gs_device.h"
#include "gs_model.h"
#include "gs_select.h"
#include "gs_table.h"
#include "gs_workspace.h"

extern const struct gs_backend gs_backend_stub;
extern const struct gs_backend gs_backend_host;

static struct gs_opened open_copy(const struct gs_backend *b)
{
    struct gs_opened o;
    gs_open_backend(b, &o);
    return o;
}

/* ---- versions: an older or malformed backend is refused, with the reason */

static void older_or_malformed_backends_are_refused(void **state)
{
    (void)state;
    struct gs_backend old = gs_backend_stub, future = gs_backend_stub, small = gs_backend_stub,
                      missing = gs_backend_stub;
    old.abi = 1; /* its read and write take no offset: calling them would be wrong */
    future.abi = GS_BACKEND_ABI + 1;
    small.device_size = sizeof(struct gs_device) - 1;
    missing.launch = NULL;
    const struct {
        const struct gs_backend *b;
        const char *says;
    } cases[] = {{&old, "has ABI 1"}, {&future, "this build understands"},
                 {&small, "smaller than the core's part"}, {&missing, "lacks a required method"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        struct gs_opened o = open_copy(cases[i].b);
        assert_int_equal(o.status, GS_ABI);
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
    assert_null(o.devs[0]->buffers);
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
    assert_null(d->buffers);
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
    struct gs_plan p = {256, 2, sizes, 1, NULL, 0, 1u << GS_COL_C, NULL};
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

/* ---- the double build (ABI 3): only where a device has GS_CAP_F64 -------- */

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

/* A backend built against ABI 2 still opens (its device struct may end
 * before no_f64: the host backend's is the core's part alone), and never
 * gets a double launch, even with the bit set: the bit meant nothing
 * before ABI 3. */
static void abi2_backend_opens_and_never_runs_double(void **state)
{
    (void)state;
    struct gs_backend old = gs_backend_host;
    old.abi = 2;
    old.device_size = offsetof(struct gs_device, no_f64);
    old.launch = launch_must_not_be_called;
    struct gs_opened o = open_copy(&old);
    assert_int_equal(o.status, GS_OK);
    struct gs_device *d = o.devs[0];
    struct gs_err e = {0};
    char why[200];
    assert_true(d->caps & GS_CAP_F64); /* the host sets it, whatever abi says */
    assert_false(gs_dev_has_f64(d, why, sizeof why));
    assert_non_null(strstr(why, "ABI 2, before the double build (ABI 3)"));
    struct gs_launch l = {0};
    struct gs_launch_result r;
    l.kernel = GS_K_ADD_GS;
    l.grid = l.block = l.global = 1;
    l.type = GS_TYPE_DOUBLE;
    assert_int_equal(gs_dev_launch(d, &l, 0, &r, &e), GS_UNSUPPORTED);
    gs_close_backend(&o);
    /* one byte short of even ABI 2's part is still refused */
    old.device_size = offsetof(struct gs_device, no_f64) - 1;
    o = open_copy(&old);
    assert_int_equal(o.status, GS_ABI);
    gs_close_backend(&o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(older_or_malformed_backends_are_refused),
        cmocka_unit_test(missing_optional_members_degrade_and_stay_correct),
        cmocka_unit_test(api_errors_carry_the_apis_name_and_a_relative_place),
        cmocka_unit_test(ranges_and_kernel_ids_are_checked_by_the_core),
        cmocka_unit_test(a_refusing_api_is_a_result_and_fails_the_prediction),
        cmocka_unit_test(not_sent_launches_never_reach_the_backend),
        cmocka_unit_test(double_is_refused_without_the_build_with_the_reason),
        cmocka_unit_test(abi2_backend_opens_and_never_runs_double),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
