/* Sliced ELL (SELL-C-sigma) kernels: SpMV and sparse times dense with T threads per row, transpose
   product, diagonal, packing from CSR; each with 32-bit column indices or 16-bit offsets from the row */
#include <cuda_runtime.h>
#include <ellgspmmdevice.h>
#include <ellgloads.h>
#include <ellgcolumns.h>
#include <ellgvalues.h>
#include "slicedkernels.h"

/* one thread per slot (row of a slice, the slots past the last row included): the entries and the
   padding of that row */
template <class V>
__global__ void PackKernel(int m, int n, int logC, long nslots, const int *__restrict__ slice_ptr, const int *__restrict__ perm, const int *__restrict__ csrrowptr, const int *__restrict__ csrrowlen, const int *__restrict__ csrcol, const double *__restrict__ csrval, int *__restrict__ col, short *__restrict__ off, V *__restrict__ val)
{
  const long g = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (g >= nslots) return;
  const int r = (int)g, C = 1 << logC, s = r >> logC, l = r & (C - 1);
  const int start = slice_ptr[s], w = (slice_ptr[s + 1] - start) >> logC;
  const int i     = r < m ? (perm ? perm[r] : r) : -1;
  const int src   = i >= 0 ? csrrowptr[i] : 0;
  const int len   = i >= 0 ? csrrowlen[i] : 0;
  const int pad   = !csrcol || i < 0 ? 0 : len ? csrcol[src + len - 1] : ELLGEmptyRowColumn(i, n);
  for (int k = 0; k < w; k++) {
    const int p = start + k * C + l;
    val[p]      = (V)(k < len ? csrval[src + k] : 0.0);
    if (!csrcol) continue;
    const int c = k < len ? csrcol[src + k] : pad;
    if (off) off[p] = (short)(i >= 0 ? c - i : 0);
    else col[p] = c;
  }
}

/* T consecutive threads share a row, thread t takes the entries t, t+T, ... of it: with T = 1 and
   C = 32 a warp is a slice and every load of the warp is one contiguous 256-byte (values, 128-byte
   in single precision) or 128-byte (columns) segment; with T > 1 a load covers T segments of 32/T
   rows. Loads are issued ELLG_ROW_DOT_STEP at a time before they are used (ELLGRowDot()); the T
   partial sums are reduced by warp shuffles, and the first thread writes y in the matrix's
   numbering. */
template <int T, class Col, class V>
__global__ void __launch_bounds__(1024) MultKernel(int m, int logC, const int *__restrict__ slice_ptr, const int *__restrict__ perm, Col col, const V *__restrict__ val, const double *__restrict__ x, const double *z, double *y)
{
  const long gid  = (long)blockIdx.x * blockDim.x + threadIdx.x;
  const int  r    = (int)(gid / T);
  const int  lane = (int)(gid % T);
  if (r >= m) return; /* the T threads of a row leave together */
  const int C = 1 << logC, s = r >> logC, l = r & (C - 1);
  const int start = slice_ptr[s], w = (slice_ptr[s + 1] - start) >> logC;
  const int    i   = perm ? perm[r] : r;
  const double sum = ELLGGroupSum<T>(ELLGRowDot(lane, T, w, [=](int j) { return start + j * C + l; }, col, i, val, x));
  if (lane == 0) y[i] = z ? z[i] + sum : sum;
}

/* C = A B (+ C): the T threads of a row read its entries (and padding) once per pass, as the SpMV, and
   accumulate lc <= LC columns of C each; the first thread writes them to the row in the matrix's numbering */
template <int T, int LC, class Col, class V>
__global__ void __launch_bounds__(ELLG_SPMM_MAX_THREADS, ELLG_SPMM_MIN_BLOCKS(LC)) SlicedSpMMKernel(int m, int logC, const int *__restrict__ slice_ptr, const int *__restrict__ perm, Col col, const V *__restrict__ val, int lc, const ELLGSpMMArgs a)
{
  const long gid  = (long)blockIdx.x * blockDim.x + threadIdx.x;
  const int  r    = (int)(gid / T);
  const int  lane = (int)(gid % T);
  if (r >= m) return; /* the T threads of a row leave together */
  const int C = 1 << logC, s = r >> logC, l = r & (C - 1);
  const int start = slice_ptr[s], w = (slice_ptr[s + 1] - start) >> logC;
  const int     i  = perm ? perm[r] : r;
  const int     j0 = blockIdx.y * lc, nc = min(lc, a.ncols - j0);
  const double *B  = a.B + (size_t)j0 * a.ldb;
  double        acc[LC];
  ELLGSpMMZero<LC>(acc);
  ELLGSpMMPass<LC>(nc, [&](auto full) {
    for (int k = lane; k < w; k += T) {
      const int q = start + k * C + l;
      ELLGSpMMAccumulate<LC, decltype(full)::value>(acc, (double)val[q], B + col(q, i), a.ldb, nc);
    }
  });
  ELLGSpMMGroupReduce<T, LC>(acc);
  if (lane == 0) ELLGSpMMStore<LC>(acc, a.C + (size_t)j0 * a.ldc + i, a.ldc, nc, a.add);
}

/* a thread per row; padding (value 0) adds nothing and is skipped */
template <class Col, class V>
__global__ void MultTransposeAddKernel(int m, int logC, const int *__restrict__ slice_ptr, const int *__restrict__ perm, Col col, const V *__restrict__ val, const double *__restrict__ x, double *y)
{
  const long g = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (g >= m) return;
  const int    r = (int)g, C = 1 << logC, s = r >> logC, l = r & (C - 1), i = perm ? perm[r] : r;
  const double xi = x[i];
  if (xi == 0.0) return;
  const int start = slice_ptr[s], w = (slice_ptr[s + 1] - start) >> logC;
  for (int k = 0; k < w; k++) {
    const int    p = start + k * C + l;
    const double a = (double)val[p];
    if (a != 0.0) atomicAdd(&y[col(p, i)], a * xi);
  }
}

/* the first entry in column i: padding follows the entries and holds 0 */
template <class Col, class V>
__global__ void GetDiagonalKernel(int m, int logC, const int *__restrict__ slice_ptr, const int *__restrict__ perm, Col col, const V *__restrict__ val, double *d)
{
  const long g = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (g >= m) return;
  const int r = (int)g, C = 1 << logC, s = r >> logC, l = r & (C - 1), i = perm ? perm[r] : r;
  const int start = slice_ptr[s], w = (slice_ptr[s + 1] - start) >> logC;
  double    di    = 0.0;
  for (int k = 0; k < w; k++) {
    const int p = start + k * C + l;
    if (col(p, i) == i) {
      di = (double)val[p];
      break;
    }
  }
  d[i] = di;
}

static int Blocks(long threads, int bs) { return (int)((threads + bs - 1) / bs); }

extern "C" int SlicedCudaPack(const SlicedArrays *a, const int *csrrowptr, const int *csrrowlen, const int *csrcol, const double *csrval)
{
  const long nslots = (long)a->nslices * a->C;
  if (!nslots) return 0;
  return ELLGWithValues(a->val, a->sval, [&](auto val) {
    PackKernel<<<Blocks(nslots, 256), 256>>>(a->m, a->n, a->logC, nslots, a->slice_ptr, a->perm, csrrowptr, csrrowlen, csrcol, csrval, a->col, a->off, val);
    return (int)cudaGetLastError();
  });
}

extern "C" int SlicedCudaMult(const SlicedArrays *a, int T, int bs, const double *x, const double *z, double *y)
{
  if (!a->m) return 0;
  const int grid = Blocks((long)a->m * T, bs);
  return ELLGWithValues(a->val, a->sval, [&](auto val) {
    return ELLGWithColumns(a->col, a->off, [&](auto col) {
      return ELLGDispatchPow2(T, [&](auto t) {
        MultKernel<decltype(t)::value><<<grid, bs>>>(a->m, a->logC, a->slice_ptr, a->perm, col, val, x, z, y);
        return (int)cudaGetLastError();
      });
    });
  });
}

extern "C" int SlicedCudaSpMM(const SlicedArrays *a, int T, int bs, int lc, const ELLGSpMMArgs *args)
{
  if (!a->m || !args->ncols) return 0;
  const int          threads = ELLGSpMMBlockSize(bs);
  const cudaStream_t stream = (cudaStream_t)args->stream;
  return ELLGSpMMLaunchPasses(args, lc, [&](const ELLGSpMMArgs &g, int passes) {
    return ELLGWithValues(a->val, a->sval, [&](auto val) {
      return ELLGWithColumns(a->col, a->off, [&](auto col) {
        return ELLGDispatchPow2(T, [&](auto t) {
          return ELLGDispatchPow2(ELLGSpMMTemplateColumns(lc), [&](auto c) {
            SlicedSpMMKernel<decltype(t)::value, decltype(c)::value><<<dim3(Blocks((long)a->m * T, threads), passes), threads, 0, stream>>>(a->m, a->logC, a->slice_ptr, a->perm, col, val, lc, g);
            return (int)cudaGetLastError();
          });
        });
      });
    });
  });
}

extern "C" int SlicedCudaMultTransposeAdd(const SlicedArrays *a, int bs, const double *x, double *y)
{
  if (!a->m) return 0;
  return ELLGWithValues(a->val, a->sval, [&](auto val) {
    return ELLGWithColumns(a->col, a->off, [&](auto col) {
      MultTransposeAddKernel<<<Blocks(a->m, bs), bs>>>(a->m, a->logC, a->slice_ptr, a->perm, col, val, x, y);
      return (int)cudaGetLastError();
    });
  });
}

extern "C" int SlicedCudaGetDiagonal(const SlicedArrays *a, int bs, double *d)
{
  if (!a->m) return 0;
  return ELLGWithValues(a->val, a->sval, [&](auto val) {
    return ELLGWithColumns(a->col, a->off, [&](auto col) {
      GetDiagonalKernel<<<Blocks(a->m, bs), bs>>>(a->m, a->logC, a->slice_ptr, a->perm, col, val, d);
      return (int)cudaGetLastError();
    });
  });
}
