/* SPDX-License-Identifier: MIT */
/* `gridstride --list --format ctest-resources`: the resource spec file for
 * `ctest --resource-spec-file`, listing every GPU any backend sees once
 * (core/device/gs_resource.h says how GPUs are named). */
#include "gs_driver.h"
#include "gs_resource.h"

struct resources_ctx {
    struct gs_str text; /* first: gs_job_text_render */
};

/* The spec is written before the output opens: no GPU is bad usage. */
static int resources_plan(struct gs_job *j, struct gs_err *e)
{
    struct resources_ctx *r = j->ctx;
    struct gs_device *devs[GS_MAX_DEVICES];
    int ndevs = 0, ngpus = 0, left_out = 0;
    for (int i = 0; i < j->s.nopened; ++i)
        for (int d = 0; d < j->s.opened[i].count && ndevs < GS_MAX_DEVICES; ++d)
            devs[ndevs++] = j->s.opened[i].devs[d];
    gs_resource_spec(devs, ndevs, &r->text, &ngpus, &left_out);
    if (left_out)
        gs_session_note(&j->s, "%d GPU(s) report no PCI address and are not in the spec: a test "
                               "cannot be given them", left_out);
    if (ngpus == 0)
        return gs_err_set(e, GS_NO_DEVICE, "--format ctest-resources: no GPU with a PCI address "
                                           "here; without a spec file ctest runs the GPU tests "
                                           "one at a time");
    return GS_OK;
}

const struct gs_command gs_resources_command = {
    .name = "list", .flags = GS_CMD_NO_DEVICES | GS_CMD_NO_WRAP, .ctx_size = sizeof(struct resources_ctx),
    .plan = resources_plan, .render = gs_job_text_render, .release = gs_job_text_release,
};
