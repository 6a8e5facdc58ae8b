/* pJDS kernels: a thread per sorted row for SpMV, sparse times dense, transpose product, diagonal and
   packing from CSR, each with 32-bit column indices or 16-bit offsets from the row. Consecutive
   threads take consecutive sorted rows, so every jagged diagonal is read coalesced; with 32 block
   rows a warp is one block and all its threads run the same number of diagonals. */
#include <cuda_runtime.h>
#include <ellgspmmdevice.h>
#include <ellgloads.h>
#include <ellgcolumns.h>
#include <ellglongrowsdevice.h>
#include <ellgvalues.h>
#include "pjdskernels.h"

namespace
{
/* CSR reads are per row (uncoalesced), the writes along the diagonals coalesced; run once per build or update */
template <class V>
__global__ void PJDSPackKernel(int m, int n, int logbr, const int *__restrict__ blockw, const int *__restrict__ perm, const int *__restrict__ colstart, const int *__restrict__ csrrowptr, const int *__restrict__ csrrowlen, const int *__restrict__ csrcol, const double *__restrict__ csrval, int *__restrict__ col, short *__restrict__ off, V *__restrict__ val)
{
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= m) return;
  const int i = perm[r], start = csrrowptr[i], len = csrrowlen[i], w = blockw[r >> logbr];
  const int last = !csrcol ? 0 : len ? csrcol[start + len - 1] : ELLGEmptyRowColumn(i, n);
  for (int j = 0; j < w; j++) {
    const int q = colstart[j] + r;
    val[q]      = (V)(j < len ? csrval[start + j] : 0.0);
    if (!csrcol) continue;
    const int c = j < len ? csrcol[start + j] : last;
    if (off) off[q] = (short)(c - i);
    else col[q] = c;
  }
}

/* y[perm[r]] = z[perm[r]] + row r . x (ELLGRowDot()) */
template <class Col, class V>
__global__ void __launch_bounds__(1024) PJDSMultKernel(int m, int logbr, const int *__restrict__ blockw, const int *__restrict__ perm, const int *__restrict__ colstart, Col col, const V *__restrict__ val, const double *__restrict__ x, const double *z, double *y)
{
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= m) return;
  const int    i   = perm[r], w = blockw[r >> logbr];
  const double sum = ELLGRowDot(0, 1, w, [=](int j) { return colstart[j] + r; }, col, i, val, x);
  y[i] = z ? z[i] + sum : sum;
}

/* the long rows' chunks (the first blocks, a chunk each: LongRowsChunkMult()), then the bins of rows
   (pjdskernels.h): a warp per 32 / T sorted rows of bin k, thread t of a row takes its diagonals t, t+T,
   ... (ELLGRowDot()), the T partial sums reduced by warp shuffles */
static_assert(LONGROWS_THREADS == 256, "the blocks of the long rows' chunks are those of the bins");
template <class Col, class V>
__global__ void __launch_bounds__(256) PJDSMultBinsKernel(const PJDSArrays p, const LongRowsArrays l, Col col, const V *__restrict__ val, const double *__restrict__ x, const double *z, double *y)
{
  if ((int)blockIdx.x < l.nchunks) { /* the whole block */
    LongRowsChunkMult<LONGROWS_THREADS>(l, blockIdx.x, x, z, y);
    return;
  }
  const int g = ((blockIdx.x - l.nchunks) * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
  if (g >= p.binwarp[p.nbins]) return; /* whole warps: the blocks are multiples of 32 threads */
  int k = 0;
  while (g >= p.binwarp[k + 1]) k++;
  const int  T = p.binT[k], t = lane & (T - 1);
  const int  r     = p.binrow[k] + (g - p.binwarp[k]) * (32 / T) + lane / T;
  const bool valid = r < p.binrow[k + 1];
  const int  i     = valid ? p.perm[r] : 0;
  const double sum   = ELLGWarpGroupSum(valid ? ELLGRowDot(t, T, p.blockw[r >> p.logbr], [=](int j) { return p.colstart[j] + r; }, col, i, val, x) : 0.0, T);
  if (valid && t == 0) y[i] = z ? z[i] + sum : sum;
}

/* C = A B (+ C): the thread of sorted row r reads the row once per pass and accumulates lc <= LC columns,
   written to row perm[r] of C */
template <int LC, class Col, class V>
__global__ void __launch_bounds__(ELLG_SPMM_MAX_THREADS, ELLG_SPMM_MIN_BLOCKS(LC)) PJDSSpMMKernel(int m, int logbr, const int *__restrict__ blockw, const int *__restrict__ perm, const int *__restrict__ colstart, Col col, const V *__restrict__ val, int lc, const ELLGSpMMArgs a)
{
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= m) return;
  const int     i = perm[r], w = blockw[r >> logbr];
  const int     j0 = blockIdx.y * lc, nc = min(lc, a.ncols - j0);
  const double *B  = a.B + (size_t)j0 * a.ldb;
  double        acc[LC];
  ELLGSpMMZero<LC>(acc);
  ELLGSpMMPass<LC>(nc, [&](auto full) {
    for (int j = 0; j < w; j++) {
      const int q = colstart[j] + r;
      ELLGSpMMAccumulate<LC, decltype(full)::value>(acc, (double)val[q], B + col(q, i), a.ldb, nc);
    }
  });
  ELLGSpMMStore<LC>(acc, a.C + (size_t)j0 * a.ldc + i, a.ldc, nc, a.add);
}

/* y += A^T x; entries with value 0 (padding, explicit zeros) add nothing and are skipped */
template <class Col, class V>
__global__ void PJDSMultTransposeAddKernel(int m, int logbr, const int *__restrict__ blockw, const int *__restrict__ perm, const int *__restrict__ colstart, Col col, const V *__restrict__ val, const double *__restrict__ x, double *y)
{
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= m) return;
  const int    i  = perm[r];
  const double xi = x[i];
  if (xi == 0.0) return;
  const int w = blockw[r >> logbr];
  for (int j = 0; j < w; j++) {
    const int    q = colstart[j] + r;
    const double v = (double)val[q];
    if (v != 0.0) atomicAdd(&y[col(q, i)], v * xi);
  }
}

/* a padding entry repeats the row's last column, so the entry itself is found first */
template <class Col, class V>
__global__ void PJDSGetDiagonalKernel(int m, int logbr, const int *__restrict__ blockw, const int *__restrict__ perm, const int *__restrict__ colstart, Col col, const V *__restrict__ val, double *d)
{
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= m) return;
  const int i = perm[r], w = blockw[r >> logbr];
  double    di = 0.0;
  for (int j = 0; j < w; j++) {
    const int q = colstart[j] + r;
    if (col(q, i) == i) {
      di = (double)val[q];
      break;
    }
  }
  d[i] = di;
}

int Blocks(long threads, int bs)
{
  return (int)((threads + bs - 1) / bs);
}
} // namespace

extern "C" int PJDSCudaPack(const PJDSArrays *p, const int *csrrowptr, const int *csrrowlen, const int *csrcol, const double *csrval)
{
  if (!p->m || !p->stored) return 0;
  return ELLGWithValues(p->val, p->sval, [&](auto val) {
    PJDSPackKernel<<<Blocks(p->m, 256), 256>>>(p->m, p->n, p->logbr, p->blockw, p->perm, p->colstart, csrrowptr, csrrowlen, csrcol, csrval, p->col, p->off, val);
    return (int)cudaGetLastError();
  });
}

/* every y entry is written, rows without stored entries included (y = z or 0), the long rows by the
   blocks of their chunks in the same launch; a thread per row when every bin has T = 1 and there are no
   long rows */
extern "C" int PJDSCudaMult(const PJDSArrays *p, int bs, const LongRowsArrays *l, const double *x, const double *z, double *y)
{
  const LongRowsArrays lr = LongRowsArraysOrNone(l);

  if (!p->m) return 0;
  return ELLGWithValues(p->val, p->sval, [&](auto val) {
    return ELLGWithColumns(p->col, p->off, [&](auto col) {
      if (!lr.nchunks && p->nbins == 1 && p->binT[0] == 1) PJDSMultKernel<<<Blocks(p->m, bs), bs>>>(p->m, p->logbr, p->blockw, p->perm, p->colstart, col, val, x, z, y);
      else PJDSMultBinsKernel<<<lr.nchunks + Blocks(32L * p->binwarp[p->nbins], 256), 256>>>(*p, lr, col, val, x, z, y);
      return (int)cudaGetLastError();
    });
  });
}

/* every row of C is written, rows without stored entries included (0, or unchanged when adding) */
extern "C" int PJDSCudaSpMM(const PJDSArrays *p, int bs, int lc, const ELLGSpMMArgs *a)
{
  if (!p->m || !a->ncols) return 0;
  const int          threads = ELLGSpMMBlockSize(bs);
  const cudaStream_t stream = (cudaStream_t)a->stream;
  return ELLGSpMMLaunchPasses(a, lc, [&](const ELLGSpMMArgs &g, int passes) {
    return ELLGWithValues(p->val, p->sval, [&](auto val) {
      return ELLGWithColumns(p->col, p->off, [&](auto col) {
        return ELLGDispatchPow2(ELLGSpMMTemplateColumns(lc), [&](auto c) {
          PJDSSpMMKernel<decltype(c)::value><<<dim3(Blocks(p->m, threads), passes), threads, 0, stream>>>(p->m, p->logbr, p->blockw, p->perm, p->colstart, col, val, lc, g);
          return (int)cudaGetLastError();
        });
      });
    });
  });
}

extern "C" int PJDSCudaMultTransposeAdd(const PJDSArrays *p, int bs, const double *x, double *y)
{
  if (!p->m || !p->stored) return 0;
  return ELLGWithValues(p->val, p->sval, [&](auto val) {
    return ELLGWithColumns(p->col, p->off, [&](auto col) {
      PJDSMultTransposeAddKernel<<<Blocks(p->m, bs), bs>>>(p->m, p->logbr, p->blockw, p->perm, p->colstart, col, val, x, y);
      return (int)cudaGetLastError();
    });
  });
}

extern "C" int PJDSCudaGetDiagonal(const PJDSArrays *p, int bs, double *d)
{
  if (!p->m) return 0;
  return ELLGWithValues(p->val, p->sval, [&](auto val) {
    return ELLGWithColumns(p->col, p->off, [&](auto col) {
      PJDSGetDiagonalKernel<<<Blocks(p->m, bs), bs>>>(p->m, p->logbr, p->blockw, p->perm, p->colstart, col, val, d);
      return (int)cudaGetLastError();
    });
  });
}
