#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Under an address-space limit too small for an OpenCL driver to load
# (ulimit -v 200000, about 195 MiB), the OpenCL backend's one line names the
# limit and the fix, not a missing driver: PoCL is installed, and said
# "found no driver in /etc/OpenCL/vendors" before.
#
#   opencl_address_limit.sh GRIDSTRIDE
set -u
gs=$1
if ! "$gs" --list --backend opencl > /dev/null 2>&1; then
  echo "SKIPPED: no OpenCL device here"
  exit 0
fi
err=$( (ulimit -v 200000; "$gs" --list --backend opencl) 2>&1 > /dev/null)
code=$?
if [ "$code" -ne 2 ] || [ "$(printf '%s\n' "$err" | wc -l)" -ne 1 ] ||
   ! printf '%s' "$err" | grep -q "ulimit -v"; then
  echo "FAIL: exit $code, stderr: $err"
  exit 1
fi
echo "ok: $err"
