/*
   Loads of the formats' SpMV kernels, and the row product and sums they share (included by .cu files
   only). A product reads the matrix once and x many times at random: the matrix's arrays are loaded
   as streaming data (evict first) so that they do not push the entries of x out of the L2 cache, and
   x goes through the read-only path.
*/
#pragma once
#include <cuda_runtime.h>

template <class T>
__device__ __forceinline__ T ELLGLoadMatrix(const T *p)
{
  return __ldcs(p);
}

__device__ __forceinline__ double ELLGLoadX(const double *x, int c)
{
  return __ldg(x + c);
}

/* the part of row i's product with x that one of T threads of the row takes: entries j = t, t+T, ... of
   w, the entry j at pos(j) of the format's arrays (column col.stream(pos(j), i), value val[pos(j)]); two
   entries are loaded before either is used */
template <class Pos, class Col>
__device__ __forceinline__ double ELLGRowDot(int t, int T, int w, Pos pos, Col col, int i, const double *__restrict__ val, const double *__restrict__ x)
{
  double sum0 = 0.0, sum1 = 0.0;
  int    j = t;
  for (; j + T < w; j += 2 * T) {
    const size_t q0 = pos(j), q1 = pos(j + T);
    const int    c0 = col.stream(q0, i), c1 = col.stream(q1, i);
    const double v0 = ELLGLoadMatrix(val + q0), v1 = ELLGLoadMatrix(val + q1);
    sum0 += v0 * ELLGLoadX(x, c0);
    sum1 += v1 * ELLGLoadX(x, c1);
  }
  if (j < w) {
    const size_t q = pos(j);
    sum0 += ELLGLoadMatrix(val + q) * ELLGLoadX(x, col.stream(q, i));
  }
  return sum0 + sum1;
}

/* the sum of the partial sums of the T consecutive threads of a row (T a power of two up to 32), in
   its first thread */
template <int T>
__device__ __forceinline__ double ELLGGroupSum(double sum)
{
  if (T > 1) {
    const unsigned mask = T == 32 ? 0xffffffffu : ((1u << T) - 1u) << ((threadIdx.x & 31) & ~(T - 1));
#pragma unroll
    for (int off = T / 2; off > 0; off /= 2) sum += __shfl_down_sync(mask, sum, off, T);
  }
  return sum;
}

/* the same for a T known only at run time, every thread of the warp taking part */
__device__ __forceinline__ double ELLGWarpGroupSum(double sum, int T)
{
  for (int off = T / 2; off > 0; off /= 2) sum += __shfl_down_sync(0xffffffffu, sum, off, T);
  return sum;
}
