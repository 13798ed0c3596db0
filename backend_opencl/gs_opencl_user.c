/* SPDX-License-Identifier: MIT */
/* The OpenCL backend's user kernels (`gridstride check`). */
#include "gs_opencl_private.h"

/* ---- User kernels --------------------------------------------------------- */

/* `gridstride check`: a user's OpenCL C, or the portable dialect after the
 * OpenCL prelude, built by the driver like the suite's own kernels (same
 * build options), with its own program and kernel object. */

struct gs_user_kernel {
    cl_program program;
    cl_kernel kernel;
};

void ocl_user_free(struct gs_device *dev, struct gs_user_kernel *k)
{
    (void)dev;
    if (!k)
        return;
    if (k->kernel)
        clReleaseKernel(k->kernel);
    if (k->program)
        clReleaseProgram(k->program);
    free(k);
}

static int user_compile_program(struct ocl_device *d, const struct gs_user_source *src,
                                struct gs_user_kernel *k, struct gs_build_info *info,
                                struct gs_err *e)
{
    const char *prelude = src->dialect == GS_DIALECT_PORTABLE ? gs_opencl_prelude : NULL;
    char *text = gs_user_text(src, prelude);
    if (!text)
        return gs_err_set(e, GS_NOMEM, "opencl: out of memory");
    cl_int rc = CL_SUCCESS;
    const char *sources[] = {text};
    int st = OCL(e, (k->program = clCreateProgramWithSource(d->context, 1, sources, NULL, &rc), rc));
    free(text);
    if (st != GS_OK)
        return st;
    snprintf(info->compiler, sizeof info->compiler, "clBuildProgram on %.60s, %.100s%s%.20s",
             d->base.platform, d->base.api_version, d->build_options[0] ? ", " : "",
             d->build_options);
    rc = clBuildProgram(k->program, 1, &d->id, d->build_options, NULL, NULL);
    info->log = ocl_build_log(k->program, d->id);
    /* NVIDIA's compiler ignores #line and says "<kernel>:13:25". */
    if (info->log)
        info->log = gs_user_map_log(info->log, "<kernel>", gs_user_text_offset(prelude), src->path);
    if (rc == CL_BUILD_PROGRAM_FAILURE)
        return gs_err_set(e, GS_BUILD, "%s does not compile as OpenCL C on %s", src->path,
                          d->base.name);
    return OCL(e, rc);
}

/* clCreateKernel's answer for the entry, and its parameters: OpenCL tells
 * their count, and clSetKernelArg refuses an argument of the wrong size. */
static int user_find_entry(struct gs_user_kernel *k, const struct gs_user_source *src,
                           struct gs_err *e)
{
    cl_int rc = CL_SUCCESS;
    k->kernel = clCreateKernel(k->program, src->entry, &rc);
    if (rc == CL_INVALID_KERNEL_NAME) {
        char names[160] = "";
        clGetProgramInfo(k->program, CL_PROGRAM_KERNEL_NAMES, sizeof names, names, NULL);
        return gs_user_no_entry(src, names, e);
    }
    int st = OCL(e, rc);
    cl_uint count = 0;
    if (st == GS_OK)
        st = OCL(e, clGetKernelInfo(k->kernel, CL_KERNEL_NUM_ARGS, sizeof count, &count, NULL));
    if (st != GS_OK)
        return st;
    if (count != 4)
        return gs_user_bad_params(src, (int)count, -1, e);
    const cl_mem none = NULL;
    const cl_ulong n = 0;
    for (cl_uint i = 0; i < 4; ++i) {
        rc = i < 3 ? clSetKernelArg(k->kernel, i, sizeof none, &none)
                   : clSetKernelArg(k->kernel, i, sizeof n, &n);
        if (rc == CL_INVALID_ARG_SIZE || rc == CL_INVALID_ARG_VALUE)
            return gs_user_bad_params(src, 4, (int)i, e);
        if ((st = OCL(e, rc)) != GS_OK)
            return st;
    }
    return GS_OK;
}

int ocl_user_build(struct gs_device *dev, const struct gs_user_source *src,
                   struct gs_user_kernel **out, struct gs_build_info *info,
                   struct gs_err *e)
{
    struct ocl_device *d = (struct ocl_device *)dev;
    if (src->dialect == GS_DIALECT_CUDA)
        return gs_err_set(e, GS_UNSUPPORTED, "opencl cannot build CUDA C++ (%s)", src->path);
    struct gs_user_kernel *k = calloc(1, sizeof *k);
    if (!k)
        return gs_err_set(e, GS_NOMEM, "opencl: out of memory");
    int st = user_compile_program(d, src, k, info, e);
    if (st == GS_OK)
        st = user_find_entry(k, src, e);
    if (st != GS_OK) {
        ocl_user_free(dev, k);
        return st;
    }
    *out = k;
    return GS_OK;
}

/* A fault shows when the queue drains: NVIDIA answers CL_OUT_OF_RESOURCES
 * (or an event error) for a kernel that touched an illegal address. */
static int user_wait(struct ocl_device *d, struct gs_err *e)
{
    const int st = OCL(e, clFinish(d->queue));
    if (st == GS_API && e)
        e->status = GS_FAULT;
    return st == GS_API ? GS_FAULT : st;
}

int ocl_user_launch(struct gs_device *dev, const struct gs_launch *l, int timed,
                    struct gs_launch_result *r, struct gs_err *e)
{
    struct ocl_device *d = (struct ocl_device *)dev;
    const size_t global = (size_t)l->global, local = (size_t)l->block;
    const cl_mem a = view_of(l->a), b = view_of(l->b), out = view_of(l->out);
    const cl_ulong n = l->n;
    cl_kernel k = l->user->kernel;
    int st;
    if ((st = OCL(e, clSetKernelArg(k, 0, sizeof a, &a))) != GS_OK ||
        (st = OCL(e, clSetKernelArg(k, 1, sizeof b, &b))) != GS_OK ||
        (st = OCL(e, clSetKernelArg(k, 2, sizeof out, &out))) != GS_OK ||
        (st = OCL(e, clSetKernelArg(k, 3, sizeof n, &n))) != GS_OK)
        return st;
    if (local == 0) /* undefined in OpenCL (see ocl_launch); --shape never asks for it */
        return gs_err_set(e, GS_USAGE, "opencl: a user kernel needs a local size of 1 or more");
    cl_event ev = NULL;
    const cl_int rc = clEnqueueNDRangeKernel(d->queue, k, 1, NULL, &global, &local, 0, NULL,
                                             timed ? &ev : NULL);
    if (rc != CL_SUCCESS && is_refusal(rc)) {
        record_refusal(rc, global, local, r);
        return GS_OK;
    }
    st = OCL(e, rc);
    if (st == GS_OK)
        st = user_wait(d, e);
    /* The profiling event of launch() (ocl_launch): the same device clock. */
    if (st == GS_OK && timed)
        st = ocl_event_ms(ev, &r->ms, e);
    if (ev)
        clReleaseEvent(ev);
    r->accepted = st == GS_OK;
    return st;
}

