/* SPDX-License-Identifier: MIT */
/* `gridstride --list --format ctest-resources`: the resource spec file for
 * `ctest --resource-spec-file`, listing every GPU any backend sees once
 * (core/device/gs_resource.h says how GPUs are named). */
#include "gs_commands.h"
#include "gs_output.h"
#include "gs_resource.h"

int gs_cmd_ctest_resources(const struct gs_cli *cli, struct gs_session *s, struct gs_err *e)
{
    struct gs_device *devs[GS_MAX_DEVICES];
    struct gs_outputs out = {0};
    struct gs_str text = {0};
    int ndevs = 0, ngpus = 0, left_out = 0, code = 2;
    for (int i = 0; i < s->nopened; ++i)
        for (int d = 0; d < s->opened[i].count && ndevs < GS_MAX_DEVICES; ++d)
            devs[ndevs++] = s->opened[i].devs[d];
    gs_resource_spec(devs, ndevs, &text, &ngpus, &left_out);
    if (left_out)
        gs_session_note(s, "%d GPU(s) report no PCI address and are not in the spec: a test "
                           "cannot be given them", left_out);
    if (ngpus == 0) {
        gs_err_set(e, GS_NO_DEVICE, "--format ctest-resources: no GPU with a PCI address here; "
                                    "without a spec file ctest runs the GPU tests one at a time");
        gs_str_free(&text);
        return 2;
    }
    if (gs_outputs_add(&out, cli->output, "--output", e) == GS_OK) {
        const struct gs_str *texts[] = {&text};
        if (gs_outputs_commit(&out, texts, e) == GS_OK)
            code = 0;
    }
    gs_outputs_abort(&out);
    gs_str_free(&text);
    return code;
}
