/* Sliced ELL (SELL-C-sigma) kernels: SpMV and sparse times dense with T threads per row, transpose
   product, diagonal, packing from CSR; each with 32-bit column indices or 16-bit offsets from the row */
#include <cuda_runtime.h>
#include <limits.h>
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
  const int       r = (int)g, C = 1 << logC, s = r >> logC, l = r & (C - 1);
  const int       start = slice_ptr[s], w = (slice_ptr[s + 1] - start) >> logC;
  const SlicedRow R     = SlicedRowOf(m, n, perm, r, csrrowptr, csrrowlen, csrcol);
  for (int k = 0; k < w; k++) {
    const int p = start + k * C + l;
    val[p]      = (V)(k < R.len ? csrval[R.src + k] : 0.0);
    if (!csrcol) continue;
    if (off) off[p] = (short)SlicedRowOffset(&R, csrcol, k);
    else col[p] = SlicedRowColumn(&R, csrcol, k);
  }
}

/* one thread per slot row: its part of its slice's signature, and the least and greatest offset */
__global__ void SignatureKernel(int m, int n, int logC, long nslots, const int *__restrict__ slice_ptr, const int *__restrict__ perm, const int *__restrict__ csrrowptr, const int *__restrict__ csrrowlen, const int *__restrict__ csrcol, unsigned long long *sig, int *minmax)
{
  const long g = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (g >= nslots) return;
  const int       r = (int)g, C = 1 << logC, s = r >> logC, l = r & (C - 1);
  const int       w = (slice_ptr[s + 1] - slice_ptr[s]) >> logC;
  const SlicedRow R = SlicedRowOf(m, n, perm, r, csrrowptr, csrrowlen, csrcol);
  int             lo = INT_MAX, hi = INT_MIN;
  atomicXor(&sig[s], SlicedRowSignature(&R, csrcol, w, l, &lo, &hi));
  if (lo < INT_MAX) atomicMin(&minmax[0], lo);
  if (hi > INT_MIN) atomicMax(&minmax[1], hi);
}

/* one thread per slot row of the slices reps[]: its offsets into the shared block; check: compared with the block */
template <class O>
__global__ void SharedKernel(int m, int n, int logC, long nslots, const int *__restrict__ reps, const int *__restrict__ slice_ptr, const int *__restrict__ perm, const int *__restrict__ idx_ptr, const int *__restrict__ csrrowptr, const int *__restrict__ csrrowlen, const int *__restrict__ csrcol, O *o, int *bad)
{
  const long g = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (g >= nslots) return;
  const int       C = 1 << logC, t = (int)(g >> logC), l = (int)(g & (C - 1)), s = reps ? reps[t] : t;
  const int       w = (slice_ptr[s + 1] - slice_ptr[s]) >> logC;
  const SlicedRow R = SlicedRowOf(m, n, perm, s * C + l, csrrowptr, csrrowlen, csrcol);
  for (int k = 0; k < w; k++) {
    const size_t q  = (size_t)idx_ptr[s] + (size_t)k * C + l;
    const int    os = SlicedRowOffset(&R, csrcol, k);
    if (!bad) o[q] = (O)os;
    else if (o[q] != os) *bad = 1;
  }
}

/* T consecutive threads share a row, thread t takes the entries t, t+T, ... of it: with T = 1 and
   C = 32 a warp is a slice and every load of the warp is one contiguous 256-byte (values, 128-byte
   in single precision) or 128-byte (columns) segment; with T > 1 a load covers T segments of 32/T
   rows. Loads are issued ELLG_ROW_DOT_STEP at a time before they are used (ELLGRowDot()); the T
   partial sums are reduced by warp shuffles, and the first thread writes y in the matrix's
   numbering. */
template <int T, class Col, class V>
__global__ void __launch_bounds__(1024) MultKernel(int m, int logC, const int *__restrict__ slice_ptr, const int *__restrict__ perm, const int *__restrict__ idx_ptr, Col col, const V *__restrict__ val, const double *__restrict__ x, const double *z, double *y)
{
  const long gid  = (long)blockIdx.x * blockDim.x + threadIdx.x;
  const int  r    = (int)(gid / T);
  const int  lane = (int)(gid % T);
  if (r >= m) return; /* the T threads of a row leave together */
  const int C = 1 << logC, s = r >> logC, l = r & (C - 1);
  const int start = slice_ptr[s], w = (slice_ptr[s + 1] - start) >> logC;
  const int    i   = perm ? perm[r] : r;
  const Col    cs  = col.at(idx_ptr, s, start);
  const double sum = ELLGGroupSum<T>(ELLGRowDot(lane, T, w, [=](int j) { return start + j * C + l; }, cs, i, val, x));
  if (lane == 0) y[i] = z ? z[i] + sum : sum;
}

/* C = A B (+ C): the T threads of a row read its entries (and padding) once per pass, as the SpMV, and
   accumulate lc <= LC columns of C each; the first thread writes them to the row in the matrix's numbering */
template <int T, int LC, class Col, class V>
__global__ void __launch_bounds__(ELLG_SPMM_MAX_THREADS, ELLG_SPMM_MIN_BLOCKS(LC)) SlicedSpMMKernel(int m, int logC, const int *__restrict__ slice_ptr, const int *__restrict__ perm, const int *__restrict__ idx_ptr, Col col, const V *__restrict__ val, int lc, const ELLGSpMMArgs a)
{
  const long gid  = (long)blockIdx.x * blockDim.x + threadIdx.x;
  const int  r    = (int)(gid / T);
  const int  lane = (int)(gid % T);
  if (r >= m) return; /* the T threads of a row leave together */
  const int C = 1 << logC, s = r >> logC, l = r & (C - 1);
  const int start = slice_ptr[s], w = (slice_ptr[s + 1] - start) >> logC;
  const int     i  = perm ? perm[r] : r;
  const Col     cs = col.at(idx_ptr, s, start);
  const int     j0 = blockIdx.y * lc, nc = min(lc, a.ncols - j0);
  const double *B  = a.B + (size_t)j0 * a.ldb;
  double        acc[LC];
  ELLGSpMMZero<LC>(acc);
  ELLGSpMMPass<LC>(nc, [&](auto full) {
    for (int k = lane; k < w; k += T) {
      const int q = start + k * C + l;
      ELLGSpMMAccumulate<LC, decltype(full)::value>(acc, (double)val[q], B + cs(q, i), a.ldb, nc);
    }
  });
  ELLGSpMMGroupReduce<T, LC>(acc);
  if (lane == 0) ELLGSpMMStore<LC>(acc, a.C + (size_t)j0 * a.ldc + i, a.ldc, nc, a.add);
}

/* a thread per row; padding (value 0) adds nothing and is skipped */
template <class Col, class V>
__global__ void MultTransposeAddKernel(int m, int logC, const int *__restrict__ slice_ptr, const int *__restrict__ perm, const int *__restrict__ idx_ptr, Col col, const V *__restrict__ val, const double *__restrict__ x, double *y)
{
  const long g = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (g >= m) return;
  const int    r = (int)g, C = 1 << logC, s = r >> logC, l = r & (C - 1), i = perm ? perm[r] : r;
  const double xi = x[i];
  if (xi == 0.0) return;
  const int start = slice_ptr[s], w = (slice_ptr[s + 1] - start) >> logC;
  const Col cs    = col.at(idx_ptr, s, start);
  for (int k = 0; k < w; k++) {
    const int    p = start + k * C + l;
    const double a = (double)val[p];
    if (a != 0.0) atomicAdd(&y[cs(p, i)], a * xi);
  }
}

/* the first entry in column i: padding follows the entries and holds 0 */
template <class Col, class V>
__global__ void GetDiagonalKernel(int m, int logC, const int *__restrict__ slice_ptr, const int *__restrict__ perm, const int *__restrict__ idx_ptr, Col col, const V *__restrict__ val, double *d)
{
  const long g = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (g >= m) return;
  const int r = (int)g, C = 1 << logC, s = r >> logC, l = r & (C - 1), i = perm ? perm[r] : r;
  const int start = slice_ptr[s], w = (slice_ptr[s + 1] - start) >> logC;
  const Col cs    = col.at(idx_ptr, s, start);
  double    di    = 0.0;
  for (int k = 0; k < w; k++) {
    const int p = start + k * C + l;
    if (cs(p, i) == i) {
      di = (double)val[p];
      break;
    }
  }
  d[i] = di;
}

static int Blocks(long threads, int bs) { return (int)((threads + bs - 1) / bs); }

/* f(the column accessor of the arrays): shared offsets, or each slice's own columns */
template <class F>
static int SlicedWithColumns(const SlicedArrays *a, F f)
{
  if (a->idx_ptr) return a->off ? f(ELLGColShared<short>{a->off}) : f(ELLGColShared<int>{a->rel});
  return ELLGWithColumns(a->col, a->off, f);
}

extern "C" int SlicedCudaSignatures(const SlicedArrays *a, const int *csrrowptr, const int *csrrowlen, const int *csrcol, unsigned long long *sig, int *minmax)
{
  const long nslots = (long)a->nslices * a->C;
  if (!nslots) return 0;
  SignatureKernel<<<Blocks(nslots, 256), 256>>>(a->m, a->n, a->logC, nslots, a->slice_ptr, a->perm, csrrowptr, csrrowlen, csrcol, sig, minmax);
  return (int)cudaGetLastError();
}

/* the shared blocks written (bad NULL) or checked */
static int SlicedShared(const SlicedArrays *a, int nrep, const int *reps, const int *csrrowptr, const int *csrrowlen, const int *csrcol, int *bad)
{
  const long nslots = (long)nrep * a->C;
  if (!nslots) return 0;
  if (a->off) SharedKernel<short><<<Blocks(nslots, 256), 256>>>(a->m, a->n, a->logC, nslots, reps, a->slice_ptr, a->perm, a->idx_ptr, csrrowptr, csrrowlen, csrcol, a->off, bad);
  else SharedKernel<int><<<Blocks(nslots, 256), 256>>>(a->m, a->n, a->logC, nslots, reps, a->slice_ptr, a->perm, a->idx_ptr, csrrowptr, csrrowlen, csrcol, a->rel, bad);
  return (int)cudaGetLastError();
}

extern "C" int SlicedCudaPackShared(const SlicedArrays *a, int nrep, const int *reps, const int *csrrowptr, const int *csrrowlen, const int *csrcol)
{
  return SlicedShared(a, nrep, reps, csrrowptr, csrrowlen, csrcol, NULL);
}

extern "C" int SlicedCudaCheckShared(const SlicedArrays *a, const int *csrrowptr, const int *csrrowlen, const int *csrcol, int *bad)
{
  return SlicedShared(a, a->nslices, NULL, csrrowptr, csrrowlen, csrcol, bad);
}

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
    return SlicedWithColumns(a, [&](auto col) {
      return ELLGDispatchPow2(T, [&](auto t) {
        MultKernel<decltype(t)::value><<<grid, bs>>>(a->m, a->logC, a->slice_ptr, a->perm, a->idx_ptr, col, val, x, z, y);
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
      return SlicedWithColumns(a, [&](auto col) {
        return ELLGDispatchPow2(T, [&](auto t) {
          return ELLGDispatchPow2(ELLGSpMMTemplateColumns(lc), [&](auto c) {
            SlicedSpMMKernel<decltype(t)::value, decltype(c)::value><<<dim3(Blocks((long)a->m * T, threads), passes), threads, 0, stream>>>(a->m, a->logC, a->slice_ptr, a->perm, a->idx_ptr, col, val, lc, g);
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
    return SlicedWithColumns(a, [&](auto col) {
      MultTransposeAddKernel<<<Blocks(a->m, bs), bs>>>(a->m, a->logC, a->slice_ptr, a->perm, a->idx_ptr, col, val, x, y);
      return (int)cudaGetLastError();
    });
  });
}

extern "C" int SlicedCudaGetDiagonal(const SlicedArrays *a, int bs, double *d)
{
  if (!a->m) return 0;
  return ELLGWithValues(a->val, a->sval, [&](auto val) {
    return SlicedWithColumns(a, [&](auto col) {
      GetDiagonalKernel<<<Blocks(a->m, bs), bs>>>(a->m, a->logC, a->slice_ptr, a->perm, a->idx_ptr, col, val, d);
      return (int)cudaGetLastError();
    });
  });
}
