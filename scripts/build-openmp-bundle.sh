#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Build gridstride with CUDA, OpenCL and the OpenMP offload backend on this
# machine, for a GPU machine that has no offload compiler, and gather what
# travels into DIR:
#
#   scripts/build-openmp-bundle.sh DIR
#
#   DIR/gridstride, DIR/test_conformance, DIR/test_pitfalls
#   DIR/lib/   libgomp.so.1 and libgomp-plugin-nvptx.so.1 of this GCC (the
#              GPU machine's own libgomp is another GCC's, and its plugin
#              must match), and every other library ldd finds here that the
#              GPU image lacks (CMocka, for the two tests)
#   DIR/bundle.txt   what was built, from which commit, with which compilers
#
# Then, on the GPU machine: scripts/gpu-openmp.sh OUTDIR DIR.
#
# Needs gcc-12-offload-nvptx (Debian 12) and nvcc in /usr/local/cuda/bin. The
# build tree stays out of DIR (BUILD_DIR, default build-openmp-bundle-tree),
# so DIR holds a few MiB. The binaries need glibc 2.36 or newer where they
# run (built on Debian 12); the GPU image's is newer.
set -euo pipefail
dir=${1:?usage: scripts/build-openmp-bundle.sh DIR}
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build-openmp-bundle-tree}
nvcc=/usr/local/cuda/bin/nvcc

# Libraries the GPU image has (its README: CUDA 13.0 with NVRTC, the OpenCL
# ICD loader, glibc); any other that ldd finds is copied, and one it cannot
# find fails the bundle.
on_gpu_image='^(linux-vdso|ld-linux-x86-64|libc|libm|libdl|libpthread|librt|libOpenCL|libnvrtc)\.so'

cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DGS_CUDA=ON -DGS_OPENCL=ON -DGS_OPENMP=ON \
  "-DCMAKE_CUDA_COMPILER=$nvcc"
cmake --build "$build" -j 2 --target gridstride test_conformance test_pitfalls

rm -rf "$dir"
mkdir -p "$dir/lib"
bins=(gridstride tests/test_conformance tests/test_pitfalls)
for b in "${bins[@]}"; do
  cp "$build/$b" "$dir/"
done
# libgomp dlopens its plugin by name: it is not in ldd's list.
plugin=$(gcc -print-file-name=libgomp-plugin-nvptx.so.1)
[ -e "$plugin" ] || plugin=$(ldconfig -p | awk '/libgomp-plugin-nvptx.so.1 /{print $NF; exit}')
[ -e "$plugin" ] || { echo "build-openmp-bundle: libgomp-plugin-nvptx.so.1 not found (install libgomp-plugin-nvptx1)" >&2; exit 1; }
cp -L "$plugin" "$dir/lib/libgomp-plugin-nvptx.so.1"
for b in "${bins[@]}"; do
  ldd "$build/$b"
done | awk '{print $1, $3}' | sort -u | while read -r name path; do
  name=${name##*/}
  if [[ $name =~ $on_gpu_image ]]; then
    continue
  fi
  [ -e "$path" ] || { echo "build-openmp-bundle: $name not found by ldd" >&2; exit 1; }
  cp -L "$path" "$dir/lib/$name"
done
[ -e "$dir/lib/libgomp.so.1" ] || { echo "build-openmp-bundle: libgomp.so.1 was not found" >&2; exit 1; }

{
  echo "gridstride OpenMP bundle"
  echo "commit: $(git rev-parse HEAD 2>/dev/null || echo unknown)$(git diff --quiet 2>/dev/null || echo ' (with local changes)')"
  echo "built: $(date -u +%Y-%m-%dT%H:%MZ) on $(. /etc/os-release && echo "$PRETTY_NAME")"
  echo "C compiler: $(gcc --version | head -1); offload: nvptx-none, $(grep -m1 '^GS_OPENMP_ISA' "$build/CMakeCache.txt")"
  echo "CUDA compiler: $($nvcc --version | tail -1)"
  echo "files:"
  (cd "$dir" && find . -type f ! -name bundle.txt | sort | xargs ls -l | awk '{print "  " $5, $9}')
} > "$dir/bundle.txt"
cat "$dir/bundle.txt"
echo "bundle: $dir ($(du -sh "$dir" | cut -f1)); on the GPU machine: scripts/gpu-openmp.sh OUTDIR $dir"
