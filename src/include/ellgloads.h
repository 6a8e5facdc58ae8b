/*
   Loads of the formats' SpMV kernels (included by .cu files only). A product reads the matrix once
   and x many times at random: the matrix's arrays are loaded as streaming data (evict first) so that
   they do not push the entries of x out of the L2 cache, and x goes through the read-only path.
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
