#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Downloads, here, the wheels that scripts/gpu-reframe.sh installs on a GPU
# machine without the package index: ReFrame and each of its requirements,
# at the versions pinned in contrib/reframe/requirements.txt, for CPython
# 3.12 on x86-64 Linux, into .whl/ (ignored by git; carried to the machine):
#
#   scripts/gpu-reframe-wheels.sh [PYTHON_VERSION]     (default: 3.12)
#
# polars and polars-runtime-32 (50 MB of the 57) are left out unless
# GS_WHEELS_ALL=1: ReFrame imports polars only for its results storage
# (--enable-results-storage, off by default), which the library does not
# use, and a carried folder is better small. Each wheel is pip download's
# own, for the pinned version:
#
#   python3 -m pip download --no-deps --only-binary=:all: --python-version 3.12 \
#     --implementation cp --platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 \
#     --platform manylinux2014_x86_64 --platform any -d .whl reframe-hpc==4.10.4
set -euo pipefail
cd "$(dirname "$0")/.."
pyver=${1:-3.12}
skip='^(polars|polars-runtime-32)=='
[ "${GS_WHEELS_ALL:-0}" = 1 ] && skip='^$'
mkdir -p .whl
grep -v -e '^#' -e '^$' contrib/reframe/requirements.txt | grep -Ev "$skip" | while read -r req; do
  python3 -m pip download --quiet --disable-pip-version-check --no-deps --only-binary=:all: \
    --python-version "$pyver" --implementation cp \
    --platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 \
    --platform manylinux2014_x86_64 --platform any -d .whl "$req"
done
ls -l .whl
du -sh .whl
