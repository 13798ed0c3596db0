#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The compile-time check of a backend's structs (GS_DEVICE_STRUCT,
# GS_BUF_STRUCT in core/device/gs_backend.h): tests/struct_check.c compiles
# as written, and fails to compile, with the check's message, for each
# defect it can be built with.
#
#   tests/struct_check.sh CC SOURCE_DIR
set -euo pipefail
cc=${1:?usage: struct_check.sh CC SOURCE_DIR}
src=${2:?usage: struct_check.sh CC SOURCE_DIR}
flags=(-std=c11 -Wall -Wextra -Wpedantic -Werror -fsyntax-only -I"$src/core/base" -I"$src/core/device" "$src/tests/struct_check.c")
"$cc" "${flags[@]}"
echo "as written: compiles"
for defect in DEVICE_NOT_FIRST:"must start with struct gs_device base" \
              DEVICE_WRONG_TYPE:"must start with struct gs_device base" \
              BUF_NOT_FIRST:"must start with struct gs_buf base"; do
  name=${defect%%:*}
  says=${defect#*:}
  if out=$("$cc" -DGS_DEFECT_$name "${flags[@]}" 2>&1); then
    echo "GS_DEFECT_$name compiled: the check let it through" >&2
    exit 1
  fi
  if ! grep -qF "$says" <<<"$out"; then
    printf 'GS_DEFECT_%s failed, but not with "%s":\n%s\n' "$name" "$says" "$out" >&2
    exit 1
  fi
  echo "GS_DEFECT_$name: refused ($says)"
done
