/* Long rows on CUDA: a thread block per row, warp shuffles then shared memory for the sum */
#include <cuda_runtime.h>
#include "longrowskernels.h"

#define LONGROWS_THREADS 256

__global__ void GatherKernel(int nrows, const int *__restrict__ ids, const int *__restrict__ rowptr, const int *__restrict__ csrrowptr, const int *__restrict__ csrcol, const double *__restrict__ csrval, int *__restrict__ col, double *__restrict__ val)
{
  const int r = blockIdx.x, src = csrrowptr[ids[r]], dst = rowptr[r], len = rowptr[r + 1] - dst;
  for (int k = threadIdx.x; k < len; k += blockDim.x) {
    val[dst + k] = csrval[src + k];
    if (csrcol) col[dst + k] = csrcol[src + k];
  }
}

__global__ void __launch_bounds__(LONGROWS_THREADS) MultAddKernel(const int *__restrict__ ids, const int *__restrict__ rowptr, const int *__restrict__ col, const double *__restrict__ val, const double *__restrict__ x, double *y)
{
  __shared__ double part[LONGROWS_THREADS / 32];
  const int         r = blockIdx.x, end = rowptr[r + 1];
  double            sum = 0.0;
  for (int k = rowptr[r] + threadIdx.x; k < end; k += LONGROWS_THREADS) sum += val[k] * x[col[k]];
  for (int off = 16; off > 0; off /= 2) sum += __shfl_down_sync(0xffffffffu, sum, off);
  if ((threadIdx.x & 31) == 0) part[threadIdx.x / 32] = sum;
  __syncthreads();
  if (threadIdx.x < 32) {
    sum = threadIdx.x < LONGROWS_THREADS / 32 ? part[threadIdx.x] : 0.0;
    for (int off = 16; off > 0; off /= 2) sum += __shfl_down_sync(0xffffffffu, sum, off);
    if (threadIdx.x == 0) y[ids[r]] += sum;
  }
}

__global__ void MultTransposeAddKernel(const int *__restrict__ ids, const int *__restrict__ rowptr, const int *__restrict__ col, const double *__restrict__ val, const double *__restrict__ x, double *y)
{
  const int    r = blockIdx.x, end = rowptr[r + 1];
  const double xr = x[ids[r]];
  if (xr == 0.0) return;
  for (int k = rowptr[r] + threadIdx.x; k < end; k += blockDim.x) atomicAdd(&y[col[k]], val[k] * xr);
}

__global__ void GetDiagonalKernel(const int *__restrict__ ids, const int *__restrict__ rowptr, const int *__restrict__ col, const double *__restrict__ val, double *d)
{
  const int r = blockIdx.x, i = ids[r], end = rowptr[r + 1];
  for (int k = rowptr[r] + threadIdx.x; k < end; k += blockDim.x)
    if (col[k] == i) d[i] = val[k]; /* a column appears once in a row: one thread writes */
}

extern "C" int LongRowsCudaGather(const LongRowsArrays *l, const int *csrrowptr, const int *csrcol, const double *csrval)
{
  if (!l->nrows) return 0;
  GatherKernel<<<l->nrows, LONGROWS_THREADS>>>(l->nrows, l->ids, l->rowptr, csrrowptr, csrcol, csrval, l->col, l->val);
  return (int)cudaGetLastError();
}

extern "C" int LongRowsCudaMultAdd(const LongRowsArrays *l, const double *x, double *y)
{
  if (!l->nrows) return 0;
  MultAddKernel<<<l->nrows, LONGROWS_THREADS>>>(l->ids, l->rowptr, l->col, l->val, x, y);
  return (int)cudaGetLastError();
}

extern "C" int LongRowsCudaMultTransposeAdd(const LongRowsArrays *l, const double *x, double *y)
{
  if (!l->nrows) return 0;
  MultTransposeAddKernel<<<l->nrows, LONGROWS_THREADS>>>(l->ids, l->rowptr, l->col, l->val, x, y);
  return (int)cudaGetLastError();
}

extern "C" int LongRowsCudaGetDiagonal(const LongRowsArrays *l, double *d)
{
  if (!l->nrows) return 0;
  GetDiagonalKernel<<<l->nrows, LONGROWS_THREADS>>>(l->ids, l->rowptr, l->col, l->val, d);
  return (int)cudaGetLastError();
}
