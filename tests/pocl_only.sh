# SPDX-License-Identifier: MIT
# Sourced by test scripts that describe PoCL (a CPU device): where another
# OpenCL driver is registered too (a GPU machine), the caller sees PoCL
# alone, through an ICD folder of its own that lists only PoCL's entry.
#
#   pocl_only DIR   DIR/icd made and OCL_ICD_VENDORS pointed at it; returns 1,
#                   with pocl_why set, when no PoCL ICD is registered
pocl_only() {
  local vendors=${OCL_ICD_VENDORS:-/etc/OpenCL/vendors} icd
  icd=$(grep -lis pocl "$vendors"/*.icd 2>/dev/null | head -1)
  if [ -z "$icd" ]; then
    pocl_why="no PoCL ICD is registered in $vendors"
    return 1
  fi
  mkdir -p "$1/icd"
  cp "$icd" "$1/icd/"
  export OCL_ICD_VENDORS="$1/icd"
  unset OCL_ICD_FILENAMES
}
