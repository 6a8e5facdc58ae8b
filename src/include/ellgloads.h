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
   w, the entry j at pos(j) of the format's arrays (column col.stream(pos(j), i), value val[pos(j)], a double or
   a float summed in double).
   ELLG_ROW_DOT_STEP entries are loaded before any is used, each load guarded rather than branched to,
   so that the threads of a warp, whatever their rows' lengths, issue theirs together (a last, shorter
   step taken apart would be a second round of loads for the warp) */
#define ELLG_ROW_DOT_STEP 4
template <class Pos, class Col, class V>
__device__ __forceinline__ double ELLGRowDot(int t, int T, int w, Pos pos, Col col, int i, const V *__restrict__ val, const double *__restrict__ x)
{
  double sum[2] = {0.0, 0.0};
  for (int j = t; j < w; j += ELLG_ROW_DOT_STEP * T) {
    int    c[ELLG_ROW_DOT_STEP];
    double v[ELLG_ROW_DOT_STEP];
#pragma unroll
    for (int u = 0; u < ELLG_ROW_DOT_STEP; u++) {
      const int k = j + u * T;
      c[u] = 0;
      v[u] = 0.0;
      if (k < w) {
        const size_t q = pos(k);
        c[u]           = col.stream(q, i);
        v[u]           = (double)ELLGLoadMatrix(val + q);
      }
    }
#pragma unroll
    for (int u = 0; u < ELLG_ROW_DOT_STEP; u++)
      if (j + u * T < w) sum[u & 1] += v[u] * ELLGLoadX(x, c[u]);
  }
  return sum[0] + sum[1];
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

/* the sum of the partial sums of the THREADS threads of a block (a multiple of 32), in its first thread.
   Every thread of the block calls it (it synchronizes the block) */
template <int THREADS>
__device__ __forceinline__ double ELLGBlockSum(double sum)
{
  __shared__ double part[THREADS / 32];
  sum = ELLGGroupSum<32>(sum);
  if ((threadIdx.x & 31) == 0) part[threadIdx.x / 32] = sum;
  __syncthreads();
  return threadIdx.x < 32 ? ELLGGroupSum<32>(threadIdx.x < THREADS / 32 ? part[threadIdx.x] : 0.0) : 0.0;
}
