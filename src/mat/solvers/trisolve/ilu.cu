/*
   The numeric incomplete factorization on the device (ellgilukernels.h): a launch per level, a warp per row.
   The warp walks the row's L part in order; for each multiplier its lanes take the entries of the other row's U
   part, find each column in the rest of the row by bisection and update it. Rows of a level never read each
   other, and the rows they read were finished by earlier launches.
*/
#include <ellgilukernels.h>
#include <ellgcuda.h>
#include <cuda_runtime.h>

#define ELLG_ILU_THREADS 256

__global__ void ILUFillKernel(int na, const int *__restrict__ map, const int *__restrict__ mapt, const double *__restrict__ a, double *__restrict__ val)
{
  const int k = blockIdx.x * blockDim.x + threadIdx.x;

  if (k >= na) return;
  if (map[k] >= 0) val[map[k]] = a[k];
  if (mapt && mapt[k] >= 0) val[mapt[k]] = a[k];
}

extern "C" int ELLGCudaILUFill(int na, const int *map, const int *mapt, const double *a, int nnz, double *val)
{
  cudaError_t e;

  if (nnz && (e = cudaMemsetAsync(val, 0, sizeof(double) * (size_t)nnz, 0)) != cudaSuccess) return (int)e;
  if (na > 0) ILUFillKernel<<<(na + ELLG_ILU_THREADS - 1) / ELLG_ILU_THREADS, ELLG_ILU_THREADS>>>(na, map, mapt, a, val);
  return (int)cudaGetLastError();
}

/* the position of column j in colidx[lo .. hi - 1] (sorted), or -1 */
static __device__ __forceinline__ int FindColumn(const int *colidx, int lo, int hi, int j)
{
  hi--;
  while (lo <= hi) {
    const int mid = (lo + hi) >> 1, c = colidx[mid];

    if (c < j) lo = mid + 1;
    else if (c > j) hi = mid - 1;
    else return mid;
  }
  return -1;
}

__global__ void ILURowsKernel(int nr, const int *__restrict__ rows, int nnz, const int *__restrict__ rowptr, const int *__restrict__ colidx, const int *__restrict__ diag, double *val, int pd, double zeropivot, int *bad)
{
  const int w = (int)((blockIdx.x * (size_t)blockDim.x + threadIdx.x) >> 5), lane = threadIdx.x & 31;
  double   *dinv = val + nnz;

  if (w >= nr) return;
  const int i = rows[w], end = rowptr[i + 1], d = diag[i];

  for (int p = rowptr[i]; p < d; p++) {
    const int k = colidx[p];
    double    l = val[p];

    if (l != 0.0) {
      l *= dinv[k];
      for (int q = diag[k] + 1 + lane; q < rowptr[k + 1]; q += 32) {
        const int pos = FindColumn(colidx, p + 1, end, colidx[q]);

        if (pos >= 0) val[pos] -= l * val[q];
      }
      __syncwarp();
      if (!lane) val[p] = l;
    }
    __syncwarp(); /* the updates of this multiplier seen by the lanes before the next one is read */
  }
  double rs = 0.0;
  for (int q = d + 1 + lane; q < end; q += 32) rs += fabs(val[q]);
  for (int o = 16; o; o >>= 1) rs += __shfl_xor_sync(0xffffffffu, rs, o);
  if (!lane) {
    const double pv = val[d], tol = zeropivot * rs;

    if (fabs(pv) <= tol || fabs(pv) <= zeropivot || (pd && pv <= tol)) atomicMin(bad, i);
    dinv[i] = 1.0 / pv;
  }
}

extern "C" int ELLGCudaILURows(int nr, const int *rows, int nnz, const int *rowptr, const int *colidx, const int *diag, double *val, int pd, double zeropivot, int *bad)
{
  const int warps = ELLG_ILU_THREADS / 32;

  if (nr <= 0) return 0;
  ILURowsKernel<<<(nr + warps - 1) / warps, ELLG_ILU_THREADS>>>(nr, rows, nnz, rowptr, colidx, diag, val, pd, zeropivot, bad);
  return (int)cudaGetLastError();
}

__global__ void ILUScaleRootKernel(int n, const double *__restrict__ dinv, int inverse, const double *__restrict__ x, double *__restrict__ y)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;

  if (i < n) y[i] = inverse ? x[i] / sqrt(dinv[i]) : x[i] * sqrt(dinv[i]);
}

extern "C" int ELLGCudaILUScaleRoot(int n, const double *dinv, int inverse, const double *x, double *y)
{
  if (n > 0) ILUScaleRootKernel<<<(n + ELLG_ILU_THREADS - 1) / ELLG_ILU_THREADS, ELLG_ILU_THREADS>>>(n, dinv, inverse, x, y);
  return (int)cudaGetLastError();
}
