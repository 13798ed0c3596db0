/* SPDX-License-Identifier: MIT */
/* A template bomb: a type that doubles at each of 40 levels, its size summed
 * at every level. NVRTC runs in check's compile worker, under its deadline and
 * memory limit (run_compile_only.sh). */
template <class T, class U> struct P { T t; U u; };
template <int N, class T> struct B { typedef typename B<N - 1, P<T, T>>::type type; };
template <class T> struct B<0, T> { typedef T type; };
template <int N> struct C { static constexpr unsigned long v = sizeof(typename B<N, char>::type) + C<N - 1>::v; };
template <> struct C<0> { static constexpr unsigned long v = 0; };
__global__ void solve(const float *a, const float *b, float *out, size_t n) { out[0] = (float)C<40>::v; }
