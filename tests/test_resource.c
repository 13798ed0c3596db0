/* SPDX-License-Identifier: MIT */
/* CTest resource allocation: GPU names from PCI addresses, the spec file
 * (read back with the suite's JSON reader), and which device a GPU test
 * runs on under CTEST_RESOURCE_GROUP_0_GPUS and GRIDSTRIDE_DEVICE. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gs_json_read.h"
#include "gs_device.h"
#include "gs_resource.h"

static const struct gs_backend cuda_like = {.name = "cuda"};
static const struct gs_backend opencl_like = {.name = "opencl"};

static struct gs_device gpu(const struct gs_backend *b, int index, const char *pci)
{
    struct gs_device d = {0};
    d.backend = b;
    d.index = index;
    snprintf(d.id, sizeof d.id, "%d", index);
    snprintf(d.name, sizeof d.name, "GPU %d", index);
    snprintf(d.pci, sizeof d.pci, "%s", pci);
    d.is_gpu = 1;
    return d;
}

static void ids_come_from_pci_addresses(void **state)
{
    (void)state;
    char id[40];
    struct gs_device d = gpu(&cuda_like, 0, "0000:17:00.0");
    assert_true(gs_resource_id(&d, id, sizeof id));
    assert_string_equal(id, "pci_0000_17_00_0");
    d = gpu(&cuda_like, 0, "0001:af:1f.7");
    assert_true(gs_resource_id(&d, id, sizeof id));
    assert_string_equal(id, "pci_0001_af_1f_7");
    d.pci[0] = '\0';
    assert_false(gs_resource_id(&d, id, sizeof id)); /* no address: no resource */
    d = gpu(&cuda_like, 0, "0000:17:00.0");
    d.is_gpu = 0;
    assert_false(gs_resource_id(&d, id, sizeof id)); /* a CPU device is never a GPU slot */
}

/* Two GPUs seen through CUDA and OpenCL, a CPU device and a GPU without an
 * address: the spec lists each GPU once, sorted, one slot each. */
static void the_spec_lists_each_gpu_once(void **state)
{
    (void)state;
    struct gs_device d[6] = {
        gpu(&opencl_like, 0, "0000:65:00.0"), gpu(&opencl_like, 1, "0000:17:00.0"),
        gpu(&cuda_like, 0, "0000:17:00.0"),   gpu(&cuda_like, 1, "0000:65:00.0"),
        gpu(&opencl_like, 2, ""),             gpu(&opencl_like, 3, "0000:03:00.0")};
    d[5].is_gpu = 0;
    struct gs_device *devs[6];
    for (int i = 0; i < 6; ++i)
        devs[i] = &d[i];
    struct gs_str text = {0};
    int ngpus = -1, left_out = -1;
    gs_resource_spec(devs, 6, &text, &ngpus, &left_out);
    assert_int_equal(ngpus, 2);
    assert_int_equal(left_out, 1);
    struct gs_json *spec = NULL;
    struct gs_err e = {0};
    assert_int_equal(gs_json_parse(text.data, text.len, &spec, &e), GS_OK);
    uint64_t major = 9;
    assert_true(gs_json_u64(gs_json_get(spec, "version"), "major", &major));
    assert_int_equal(major, 1);
    const struct gs_json *local = gs_json_get(spec, "local");
    assert_int_equal(local->count, 1);
    const struct gs_json *gpus = gs_json_get(gs_json_at(local, 0), "gpus");
    assert_int_equal(gpus->count, 2);
    assert_string_equal(gs_json_str(gs_json_at(gpus, 0), "id", ""), "pci_0000_17_00_0");
    assert_string_equal(gs_json_str(gs_json_at(gpus, 1), "id", ""), "pci_0000_65_00_0");
    uint64_t slots = 0;
    assert_true(gs_json_u64(gs_json_at(gpus, 1), "slots", &slots));
    assert_int_equal(slots, 1);
    gs_json_free(spec);
    gs_str_free(&text);
}

static void allocation_values_parse(void **state)
{
    (void)state;
    char id[40];
    struct gs_err e = {0};
    assert_int_equal(gs_resource_parse("id:pci_0000_17_00_0,slots:1", id, sizeof id, &e), GS_OK);
    assert_string_equal(id, "pci_0000_17_00_0");
    assert_int_equal(gs_resource_parse("slots:1,id:gpu_1", id, sizeof id, &e), GS_OK);
    assert_string_equal(id, "gpu_1");
    assert_int_equal(gs_resource_parse("id:a;id:b", id, sizeof id, &e), GS_OK);
    assert_string_equal(id, "a");
    assert_int_equal(gs_resource_parse("slots:1", id, sizeof id, &e), GS_USAGE);
    assert_int_equal(gs_resource_parse("id:,slots:1", id, sizeof id, &e), GS_USAGE);
    assert_int_equal(gs_resource_parse("id:PCI-0,slots:1", id, sizeof id, &e), GS_USAGE);
    assert_int_equal(gs_resource_parse("xid:a", id, sizeof id, &e), GS_USAGE);
    assert_int_equal(gs_resource_parse(NULL, id, sizeof id, &e), GS_USAGE);
}

static struct gs_device two_gpus[2];
static struct gs_device *two_gpu_list[2];

static struct gs_opened opened_with(struct gs_device **devs, int count, const struct gs_backend *b)
{
    struct gs_opened o = {0};
    o.backend = b;
    o.devs = devs;
    o.count = count;
    o.status = GS_OK;
    return o;
}

static int setup_env(void **state)
{
    (void)state;
    unsetenv("CTEST_RESOURCE_GROUP_COUNT");
    unsetenv("CTEST_RESOURCE_GROUP_0_GPUS");
    unsetenv("GRIDSTRIDE_DEVICE");
    two_gpus[0] = gpu(&cuda_like, 0, "0000:17:00.0");
    two_gpus[1] = gpu(&cuda_like, 1, "0000:65:00.0");
    two_gpu_list[0] = &two_gpus[0];
    two_gpu_list[1] = &two_gpus[1];
    return 0;
}

/* What the test of backend o would run on; why and the error stay in
 * `picked` for the assertions. */
static struct {
    struct gs_device *dev;
    char why[300];
    struct gs_err e;
} picked;

static int pick(const struct gs_opened *o)
{
    memset(&picked, 0, sizeof picked);
    return gs_resource_test_device(o, &picked.dev, picked.why, sizeof picked.why, &picked.e);
}

static void the_allocated_gpu_wins(void **state)
{
    (void)state;
    struct gs_opened o = opened_with(two_gpu_list, 2, &cuda_like);
    assert_int_equal(pick(&o), GS_OK);
    assert_ptr_equal(picked.dev, &two_gpus[0]); /* no CTest allocation: the default */
    setenv("GRIDSTRIDE_DEVICE", "1", 1);
    assert_int_equal(pick(&o), GS_OK);
    assert_ptr_equal(picked.dev, &two_gpus[1]);
    setenv("CTEST_RESOURCE_GROUP_COUNT", "1", 1);
    setenv("CTEST_RESOURCE_GROUP_0_GPUS", "id:pci_0000_17_00_0,slots:1", 1);
    assert_int_equal(pick(&o), GS_OK);
    assert_ptr_equal(picked.dev, &two_gpus[0]); /* CTest's allocation over GRIDSTRIDE_DEVICE */
    assert_non_null(strstr(picked.why, "pci_0000_17_00_0"));
    setenv("CTEST_RESOURCE_GROUP_0_GPUS", "id:pci_0000_65_00_0,slots:1", 1);
    assert_int_equal(pick(&o), GS_OK);
    assert_ptr_equal(picked.dev, &two_gpus[1]);
}

static void an_unknown_gpu_is_an_error_where_gpus_exist(void **state)
{
    (void)state;
    struct gs_opened o = opened_with(two_gpu_list, 2, &cuda_like);
    setenv("CTEST_RESOURCE_GROUP_COUNT", "1", 1);
    setenv("CTEST_RESOURCE_GROUP_0_GPUS", "id:pci_0000_99_00_0,slots:1", 1);
    assert_int_equal(pick(&o), GS_USAGE);
    assert_non_null(strstr(picked.e.msg, "pci_0000_99_00_0"));
    setenv("CTEST_RESOURCE_GROUP_0_GPUS", "slots:1", 1);
    assert_int_equal(pick(&o), GS_USAGE);
}

/* OpenCL on a CPU only (PoCL) holds a GPU slot it cannot use: it runs on
 * its default device. */
static void a_backend_without_gpus_runs_its_default(void **state)
{
    (void)state;
    struct gs_device cpu = gpu(&opencl_like, 0, "");
    cpu.is_gpu = 0;
    struct gs_device *list[] = {&cpu};
    struct gs_opened o = opened_with(list, 1, &opencl_like);
    setenv("CTEST_RESOURCE_GROUP_COUNT", "1", 1);
    setenv("CTEST_RESOURCE_GROUP_0_GPUS", "id:pci_0000_17_00_0,slots:1", 1);
    assert_int_equal(pick(&o), GS_OK);
    assert_ptr_equal(picked.dev, &cpu);
    assert_non_null(strstr(picked.why, "default device"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ids_come_from_pci_addresses),
        cmocka_unit_test(the_spec_lists_each_gpu_once),
        cmocka_unit_test(allocation_values_parse),
        cmocka_unit_test_setup(the_allocated_gpu_wins, setup_env),
        cmocka_unit_test_setup(an_unknown_gpu_is_an_error_where_gpus_exist, setup_env),
        cmocka_unit_test_setup(a_backend_without_gpus_runs_its_default, setup_env),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
