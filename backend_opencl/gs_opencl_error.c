/* SPDX-License-Identifier: MIT */
/* The OpenCL backend's errors: every standard cl_int code with its name and
 * meaning, and the one check every cl* call goes through. */
#include "gs_opencl_private.h"

/* ---- Error names --------------------------------------------------------- */

/* Every standard cl_int error code, with what the specification says it
 * means, worded for this suite's calls. */
#define OCL_ERROR_LIST(X)                                                                         \
    X(CL_DEVICE_NOT_FOUND, "no device of the requested type")                                     \
    X(CL_DEVICE_NOT_AVAILABLE, "the device is not available")                                     \
    X(CL_COMPILER_NOT_AVAILABLE, "the device has no online compiler")                             \
    X(CL_MEM_OBJECT_ALLOCATION_FAILURE, "could not allocate a buffer's memory")                   \
    X(CL_OUT_OF_RESOURCES, "the device ran out of resources, or a kernel faulted")                \
    X(CL_OUT_OF_HOST_MEMORY, "the runtime ran out of host memory")                                \
    X(CL_PROFILING_INFO_NOT_AVAILABLE, "no profiling data, or the command is not complete")      \
    X(CL_MEM_COPY_OVERLAP, "source and destination of the copy overlap")                          \
    X(CL_IMAGE_FORMAT_MISMATCH, "the images do not share a format")                               \
    X(CL_IMAGE_FORMAT_NOT_SUPPORTED, "image format not supported")                                \
    X(CL_BUILD_PROGRAM_FAILURE, "the program failed to build for the device")                     \
    X(CL_MAP_FAILURE, "could not map the buffer")                                                 \
    X(CL_MISALIGNED_SUB_BUFFER_OFFSET, "sub-buffer offset not aligned for the device")            \
    X(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, "an event in the wait list failed")           \
    X(CL_COMPILE_PROGRAM_FAILURE, "the program failed to compile")                                \
    X(CL_LINKER_NOT_AVAILABLE, "the device has no linker")                                        \
    X(CL_LINK_PROGRAM_FAILURE, "the program failed to link")                                      \
    X(CL_DEVICE_PARTITION_FAILED, "the device could not be partitioned")                          \
    X(CL_KERNEL_ARG_INFO_NOT_AVAILABLE, "no kernel argument information")                         \
    X(CL_INVALID_VALUE, "an argument has an invalid value")                                       \
    X(CL_INVALID_DEVICE_TYPE, "invalid device type")                                              \
    X(CL_INVALID_PLATFORM, "invalid platform")                                                    \
    X(CL_INVALID_DEVICE, "invalid device, or not in the context")                                 \
    X(CL_INVALID_CONTEXT, "invalid context, or objects from different contexts")                  \
    X(CL_INVALID_QUEUE_PROPERTIES, "queue properties not supported by the device")                \
    X(CL_INVALID_COMMAND_QUEUE, "invalid command queue")                                          \
    X(CL_INVALID_HOST_PTR, "invalid host pointer for the buffer flags")                           \
    X(CL_INVALID_MEM_OBJECT, "invalid buffer")                                                    \
    X(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, "invalid image format")                                 \
    X(CL_INVALID_IMAGE_SIZE, "image size not supported")                                          \
    X(CL_INVALID_SAMPLER, "invalid sampler")                                                      \
    X(CL_INVALID_BINARY, "invalid program binary")                                                \
    X(CL_INVALID_BUILD_OPTIONS, "invalid build options")                                          \
    X(CL_INVALID_PROGRAM, "invalid program")                                                      \
    X(CL_INVALID_PROGRAM_EXECUTABLE, "the program is not built for the device")                   \
    X(CL_INVALID_KERNEL_NAME, "no kernel of that name in the program")                            \
    X(CL_INVALID_KERNEL_DEFINITION, "kernel definition differs between devices")                  \
    X(CL_INVALID_KERNEL, "invalid kernel")                                                        \
    X(CL_INVALID_ARG_INDEX, "invalid kernel argument index")                                      \
    X(CL_INVALID_ARG_VALUE, "invalid kernel argument value")                                      \
    X(CL_INVALID_ARG_SIZE, "kernel argument size does not match its type")                        \
    X(CL_INVALID_KERNEL_ARGS, "kernel arguments not all set")                                     \
    X(CL_INVALID_WORK_DIMENSION, "work dimension outside 1..CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS")  \
    X(CL_INVALID_WORK_GROUP_SIZE,                                                                 \
      "local size does not divide the global size (uniform work-groups) or exceeds the limit")     \
    X(CL_INVALID_WORK_ITEM_SIZE, "local size exceeds CL_DEVICE_MAX_WORK_ITEM_SIZES")              \
    X(CL_INVALID_GLOBAL_OFFSET, "global offset out of range")                                     \
    X(CL_INVALID_EVENT_WAIT_LIST, "invalid event wait list")                                      \
    X(CL_INVALID_EVENT, "invalid event")                                                          \
    X(CL_INVALID_OPERATION, "operation not valid here")                                           \
    X(CL_INVALID_GL_OBJECT, "invalid OpenGL object")                                              \
    X(CL_INVALID_BUFFER_SIZE, "buffer size is 0 or above CL_DEVICE_MAX_MEM_ALLOC_SIZE")           \
    X(CL_INVALID_MIP_LEVEL, "invalid mip level")                                                  \
    X(CL_INVALID_GLOBAL_WORK_SIZE,                                                                \
      "global work size is zero (before OpenCL 2.1) or exceeds the device range")                 \
    X(CL_INVALID_PROPERTY, "invalid property")                                                    \
    X(CL_INVALID_IMAGE_DESCRIPTOR, "invalid image descriptor")                                    \
    X(CL_INVALID_COMPILER_OPTIONS, "invalid compiler options")                                    \
    X(CL_INVALID_LINKER_OPTIONS, "invalid linker options")                                        \
    X(CL_INVALID_DEVICE_PARTITION_COUNT, "invalid device partition count")                        \
    X(CL_INVALID_PIPE_SIZE, "invalid pipe size")                                                  \
    X(CL_INVALID_DEVICE_QUEUE, "invalid device queue")                                            \
    X(CL_INVALID_SPEC_ID, "invalid specialization constant id")                                   \
    X(CL_MAX_SIZE_RESTRICTION_EXCEEDED, "a size exceeds an implementation limit")                 \
    X(CL_PLATFORM_NOT_FOUND_KHR, "the ICD loader found no platform")

static const struct ocl_error ocl_errors[] = {
#define OCL_ERROR_ROW(code, text) {code, #code, text},
    OCL_ERROR_LIST(OCL_ERROR_ROW)
#undef OCL_ERROR_ROW
};

const struct ocl_error *ocl_error(cl_int code)
{
    static const struct ocl_error unknown = {0, "CL_UNKNOWN_ERROR", "not a standard OpenCL code"};
    for (size_t i = 0; i < sizeof ocl_errors / sizeof ocl_errors[0]; ++i)
        if (ocl_errors[i].code == code)
            return &ocl_errors[i];
    return &unknown;
}

/* The call as written, without the "(x = " and ", rc)" of a create call. */
static void call_text(const char *text, char *out, size_t size)
{
    const char *eq = strstr(text, " = cl");
    const char *start = eq ? eq + 3 : text;
    size_t len = strlen(start);
    if (eq && len >= 5 && strcmp(start + len - 5, ", rc)") == 0)
        len -= 5;
    snprintf(out, size, "%.*s", (int)len, start);
}

int ocl_check(cl_int code, const char *text, const char *file, int line,
              struct gs_err *e)
{
    if (code == CL_SUCCESS)
        return GS_OK;
    char call[320];
    call_text(text, call, sizeof call);
    const struct ocl_error *err = ocl_error(code);
    const int status = (code == CL_OUT_OF_HOST_MEMORY || code == CL_MEM_OBJECT_ALLOCATION_FAILURE)
                           ? GS_NOMEM
                           : GS_API;
    return gs_api_error(e, status, call, file, line, err->name, (long)code, err->text);
}

/* Whether an enqueue error is the API refusing the launch's shape, rather
 * than a broken object or an exhausted host: those are errors, not results. */
int is_refusal(cl_int rc)
{
    switch (rc) {
    case CL_INVALID_COMMAND_QUEUE:
    case CL_INVALID_KERNEL:
    case CL_INVALID_CONTEXT:
    case CL_INVALID_KERNEL_ARGS:
    case CL_INVALID_PROGRAM_EXECUTABLE:
    case CL_INVALID_EVENT_WAIT_LIST:
    case CL_INVALID_MEM_OBJECT:
    case CL_OUT_OF_HOST_MEMORY:
    case CL_MEM_OBJECT_ALLOCATION_FAILURE:
        return 0;
    default:
        return 1;
    }
}

void record_refusal(cl_int rc, size_t global, size_t local, struct gs_launch_result *r)
{
    const struct ocl_error *err = ocl_error(rc);
    gs_refusal(r, rc, err->name, "clEnqueueNDRangeKernel(global %zu, local %zu): %s", global,
               local, err->text);
}

char *ocl_build_log(cl_program program, cl_device_id device)
{
    size_t len = 0;
    if (clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, NULL, &len) != CL_SUCCESS)
        return NULL;
    char *log = calloc(1, len + 1);
    if (log && clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, len, log, NULL) !=
                   CL_SUCCESS) {
        free(log);
        return NULL;
    }
    return log;
}
