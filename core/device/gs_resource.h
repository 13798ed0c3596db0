/* SPDX-License-Identifier: MIT */
/* CTest resource allocation for GPU tests (ctest --resource-spec-file).
 *
 * Every GPU is one resource of type "gpus" with one slot, named after its
 * PCI address ("pci_0000_17_00_0"), so that CUDA and OpenCL, which see the
 * same GPU under different indices, agree on which GPU a test holds. */
#ifndef GS_RESOURCE_H
#define GS_RESOURCE_H

#include "gs_select.h"
#include "gs_str.h"


/* CTest's resource spec (JSON, version 1.0): each GPU among devs once.
 * *left_out counts the GPUs that report no PCI address (not listed). */
void gs_resource_spec(struct gs_device *const *devs, int ndevs, struct gs_str *out,
                      int *ngpus, int *left_out);

/* The id in a CTEST_RESOURCE_GROUP_<n>_GPUS value ("id:pci_0000_17_00_0,slots:1"). */
int gs_resource_parse(const char *value, char *id, unsigned size, struct gs_err *e);

/* The device a test runs on, from backend o: the GPU CTest allocated to it
 * (CTEST_RESOURCE_GROUP_0_GPUS, set when ctest runs with a spec file),
 * else GRIDSTRIDE_DEVICE, else the default device. `why` gets one line for
 * the test log: which device, and on what grounds. A GPU allocated by CTest
 * that the backend does not see, while it sees other GPUs, is GS_USAGE. */
int gs_resource_test_device(const struct gs_opened *o, struct gs_device **dev, char *why,
                            unsigned why_size, struct gs_err *e);

#endif
