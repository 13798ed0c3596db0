/* SPDX-License-Identifier: MIT */
/* A backend's structs, as GS_DEVICE_STRUCT and GS_BUF_STRUCT see them
 * (core/device/gs_backend.h): tests/struct_check.sh compiles this file once
 * as written, which must compile, and once with each defect below, each of
 * which must fail to compile with the check's message. */
#include "gs_backend.h"

#if defined(GS_DEFECT_DEVICE_NOT_FIRST)
struct my_device {
    int ordinal; /* before the core's part: the core's pointer would not be ours */
    struct gs_device base;
};
#elif defined(GS_DEFECT_DEVICE_WRONG_TYPE)
struct my_device {
    struct gs_buf base; /* a buffer where the device belongs */
    int ordinal;
};
#else
struct my_device {
    struct gs_device base;
    int ordinal;
};
#endif
GS_DEVICE_STRUCT(struct my_device);

#if defined(GS_DEFECT_BUF_NOT_FIRST)
struct my_buf {
    void *ptr;
    struct gs_buf base;
};
#else
struct my_buf {
    struct gs_buf base;
    void *ptr;
};
#endif
GS_BUF_STRUCT(struct my_buf);

int main(void)
{
    return (int)(sizeof(struct my_device) + sizeof(struct my_buf)) < 0;
}
