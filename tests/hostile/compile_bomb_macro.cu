/* SPDX-License-Identifier: MIT */
/* A preprocessor bomb: 10^9 tokens from three lines. NVRTC runs in check's
 * compile worker, under its deadline and memory limit (run_compile_only.sh). */
#define A(x) x x x x x x x x x x
#define B(x) A(A(A(A(A(A(A(A(A(x)))))))))
B(int y;)
__global__ void solve(const float *a, const float *b, float *out, size_t n) {}
