/* ELLG kernels: ELLR-T SpMV (T threads per row), sparse times dense, transpose product, diagonal,
   packing from CSR; each with 32-bit column indices or 16-bit offsets from the row */
#include <cuda_runtime.h>
#include <ellgspmmdevice.h>
#include <ellgloads.h>
#include <ellgcolumns.h>
#include <ellgvalues.h>
#include "ellgkernels.h"

/* one thread per row (padding rows up to the pitch included): entries and padding of the row */
template <class V>
__global__ void PackKernel(int m, int pitch, int width, const int *__restrict__ rowlen, const int *__restrict__ csrrowptr, const int *__restrict__ csrcol, const double *__restrict__ csrval, int *__restrict__ col, short *__restrict__ off, V *__restrict__ val)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= pitch) return;
  const int start = i < m ? csrrowptr[i] : 0;
  const int len   = i < m ? rowlen[i] : 0;
  for (int k = 0; k < width; k++) {
    const size_t p = (size_t)k * pitch + i;
    val[p]         = (V)(k < len ? csrval[start + k] : 0.0);
    if (csrcol && off) off[p] = (short)(k < len ? csrcol[start + k] - i : 0);
    else if (csrcol) col[p] = k < len ? csrcol[start + k] : 0;
  }
}

/* ELLR-T: T consecutive threads share a row, thread t takes entries t, t+T, ...; loads are issued
   ELLG_ROW_DOT_STEP at a time before they are used (ELLGRowDot()), then the T partial sums are
   reduced by warp shuffles */
template <int T, class Col, class V>
__global__ void __launch_bounds__(1024) MultKernel(int m, int pitch, const int *__restrict__ rowlen, Col col, const V *__restrict__ val, const double *__restrict__ x, const double *z, double *y)
{
  const int    gid  = blockIdx.x * blockDim.x + threadIdx.x;
  const int    row  = gid / T;
  const int    lane = gid % T;
  if (row >= m) return; /* the T threads of a row leave together */
  const double sum = ELLGGroupSum<T>(ELLGRowDot(lane, T, rowlen[row], [=](int j) { return (size_t)j * pitch + row; }, col, row, val, x));
  if (lane == 0) y[row] = z ? z[row] + sum : sum;
}

/* C = A B (+ C), FastSpMM on ELLR-T: the T threads of a row read its entries once per pass (thread t
   entries t, t+T, ...) and accumulate lc <= LC columns of C each; the first thread writes them */
template <int T, int LC, class Col, class V>
__global__ void __launch_bounds__(ELLG_SPMM_MAX_THREADS, ELLG_SPMM_MIN_BLOCKS(LC)) ELLGSpMMKernel(int m, int pitch, const int *__restrict__ rowlen, Col col, const V *__restrict__ val, int lc, const ELLGSpMMArgs a)
{
  const int gid  = blockIdx.x * blockDim.x + threadIdx.x;
  const int row  = gid / T;
  const int lane = gid % T;
  if (row >= m) return; /* the T threads of a row leave together */
  const int     len = rowlen[row];
  const int     j0 = blockIdx.y * lc, nc = min(lc, a.ncols - j0);
  const double *B  = a.B + (size_t)j0 * a.ldb;
  double        acc[LC];
  ELLGSpMMZero<LC>(acc);
  ELLGSpMMPass<LC>(nc, [&](auto full) {
    for (int k = lane; k < len; k += T) {
      const size_t q = (size_t)k * pitch + row;
      ELLGSpMMAccumulate<LC, decltype(full)::value>(acc, (double)val[q], B + col(q, row), a.ldb, nc);
    }
  });
  ELLGSpMMGroupReduce<T, LC>(acc);
  if (lane == 0) ELLGSpMMStore<LC>(acc, a.C + (size_t)j0 * a.ldc + row, a.ldc, nc, a.add);
}

template <class Col, class V>
__global__ void MultTransposeAddKernel(int m, int pitch, const int *__restrict__ rowlen, Col col, const V *__restrict__ val, const double *__restrict__ x, double *y)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= m) return;
  const double xi  = x[i];
  const int    len = rowlen[i];
  if (xi == 0.0) return;
  for (int k = 0; k < len; k++) {
    const size_t p = (size_t)k * pitch + i;
    atomicAdd(&y[col(p, i)], (double)val[p] * xi);
  }
}

template <class Col, class V>
__global__ void GetDiagonalKernel(int m, int pitch, const int *__restrict__ rowlen, Col col, const V *__restrict__ val, double *d)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= m) return;
  const int len = rowlen[i];
  double    di  = 0.0;
  for (int k = 0; k < len; k++) {
    const size_t p = (size_t)k * pitch + i;
    if (col(p, i) == i) {
      di = (double)val[p];
      break;
    }
  }
  d[i] = di;
}

static int Blocks(long threads, int bs) { return (int)((threads + bs - 1) / bs); }

extern "C" int ELLGCudaPack(const ELLGArrays *e, const int *csrrowptr, const int *csrcol, const double *csrval)
{
  if (!e->pitch || !e->width) return 0;
  return ELLGWithValues(e->val, e->sval, [&](auto val) {
    PackKernel<<<Blocks(e->pitch, 256), 256>>>(e->m, e->pitch, e->width, e->rowlen, csrrowptr, csrcol, csrval, e->col, e->off, val);
    return (int)cudaGetLastError();
  });
}

extern "C" int ELLGCudaMult(const ELLGArrays *e, int T, int bs, const double *x, const double *z, double *y)
{
  if (!e->m) return 0;
  const int grid = Blocks((long)e->m * T, bs);
  return ELLGWithValues(e->val, e->sval, [&](auto val) {
    return ELLGWithColumns(e->col, e->off, [&](auto col) {
      return ELLGDispatchPow2(T, [&](auto t) {
        MultKernel<decltype(t)::value><<<grid, bs>>>(e->m, e->pitch, e->rowlen, col, val, x, z, y);
        return (int)cudaGetLastError();
      });
    });
  });
}

extern "C" int ELLGCudaSpMM(const ELLGArrays *e, int T, int bs, int lc, const ELLGSpMMArgs *a)
{
  if (!e->m || !a->ncols) return 0;
  const int          threads = ELLGSpMMBlockSize(bs);
  const cudaStream_t stream = (cudaStream_t)a->stream;
  return ELLGSpMMLaunchPasses(a, lc, [&](const ELLGSpMMArgs &g, int passes) {
    return ELLGWithValues(e->val, e->sval, [&](auto val) {
      return ELLGWithColumns(e->col, e->off, [&](auto col) {
        return ELLGDispatchPow2(T, [&](auto t) {
          return ELLGDispatchPow2(ELLGSpMMTemplateColumns(lc), [&](auto c) {
            ELLGSpMMKernel<decltype(t)::value, decltype(c)::value><<<dim3(Blocks((long)e->m * T, threads), passes), threads, 0, stream>>>(e->m, e->pitch, e->rowlen, col, val, lc, g);
            return (int)cudaGetLastError();
          });
        });
      });
    });
  });
}

extern "C" int ELLGCudaMultTransposeAdd(const ELLGArrays *e, int bs, const double *x, double *y)
{
  if (!e->m) return 0;
  return ELLGWithValues(e->val, e->sval, [&](auto val) {
    return ELLGWithColumns(e->col, e->off, [&](auto col) {
      MultTransposeAddKernel<<<Blocks(e->m, bs), bs>>>(e->m, e->pitch, e->rowlen, col, val, x, y);
      return (int)cudaGetLastError();
    });
  });
}

extern "C" int ELLGCudaGetDiagonal(const ELLGArrays *e, double *d)
{
  if (!e->m) return 0;
  return ELLGWithValues(e->val, e->sval, [&](auto val) {
    return ELLGWithColumns(e->col, e->off, [&](auto col) {
      GetDiagonalKernel<<<Blocks(e->m, 256), 256>>>(e->m, e->pitch, e->rowlen, col, val, d);
      return (int)cudaGetLastError();
    });
  });
}
