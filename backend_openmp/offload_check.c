/* SPDX-License-Identifier: MIT */
/* Configure-time check (backend_openmp/CMakeLists.txt): built with the
 * offload flags, this proves the compiler offloads (the nvptx image is
 * made at link time, by mkoffload and the PTX assembler); run, it says
 * where a target region runs on the configuring machine. */
#include <omp.h>
#include <stdio.h>

int main(void)
{
    int on_host = -1;
#pragma omp target map(from : on_host)
    on_host = omp_is_initial_device();
    printf("omp_get_num_devices() = %d; a target region ran on the %s\n", omp_get_num_devices(),
           on_host ? "host" : "device");
    return 0;
}
