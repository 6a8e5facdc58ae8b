/* CSRG kernels: CSR-vector SpMV (T threads per row) and CSR-stream SpMV (blocks of whole rows), sparse times
   dense, transpose product, diagonal, packing from the CSR uploaded for a build; each with 32-bit column indices
   or 16-bit offsets from the row (CSR-stream: 32-bit) */
#include <cuda_runtime.h>
#include <ellgspmmdevice.h>
#include <ellgloads.h>
#include <ellgcolumns.h>
#include <ellglongrowsdevice.h>
#include <ellgvalues.h>
#include "csrkernels.h"

/* a warp per row: its entries from the uploaded CSR, whose row i starts at csrrowptr[i] (values rounded to V) */
template <class V>
__global__ void CSRGPackKernel(int m, const int *__restrict__ rowptr, const int *__restrict__ csrrowptr, const int *__restrict__ csrcol, const double *__restrict__ csrval, int *__restrict__ col, short *__restrict__ off, V *__restrict__ val)
{
  const long gid  = (long)blockIdx.x * blockDim.x + threadIdx.x;
  const int  i    = (int)(gid / 32);
  const int  lane = (int)(gid % 32);
  if (i >= m) return;
  const int start = rowptr[i], len = rowptr[i + 1] - start, src = csrrowptr[i];
  for (int k = lane; k < len; k += 32) {
    val[start + k] = (V)csrval[src + k];
    if (csrcol && off) off[start + k] = (short)(csrcol[src + k] - i);
    else if (csrcol) col[start + k] = csrcol[src + k];
  }
}

/* CSR-vector: T consecutive threads share a row, thread t takes its entries t, t+T, ... (consecutive threads
   read consecutive entries); loads are issued ELLG_ROW_DOT_STEP at a time before they are used
   (ELLGRowDot()), then the T partial sums are reduced by warp shuffles */
template <int T, class Col, class V>
__global__ void __launch_bounds__(1024) CSRGMultKernel(int m, const int *__restrict__ rowptr, Col col, const V *__restrict__ val, const double *__restrict__ x, const double *z, double *y)
{
  const long gid  = (long)blockIdx.x * blockDim.x + threadIdx.x;
  const int  row  = (int)(gid / T);
  const int  lane = (int)(gid % T);
  if (row >= m) return; /* the T threads of a row leave together */
  const int    start = __ldg(rowptr + row);
  const int    len   = __ldg(rowptr + row + 1) - start;
  const double sum   = ELLGGroupSum<T>(ELLGRowDot(lane, T, len, [=](int j) { return (size_t)start + j; }, col, row, val, x));
  if (lane == 0) y[row] = z ? z[row] + sum : sum;
}

/* CSR-stream: the first blocks are the chunks of the long rows multiplied in the same launch (LongRowsChunkMult()),
   then block b multiplies the whole rows blockrow[2b] .. blockrow[2b+1]-1. Its threads read their entries in order,
   thread t entries t, t + CSRG_STREAM_THREADS, ... (every thread busy and the loads coalesced whatever the row
   lengths; each thread's loads issued before any is used), stage the products in shared memory, then G threads a
   row (the largest power of two up to 32 that the block's rows leave) add each row's. A block of one row of more
   entries than the stage holds (rows kept whole: -mat_csrg_long_row_threshold) adds them in registers, then
   across the block. The values (V: double or float) are read in double, and the products staged in double. */
template <class V>
__global__ void __launch_bounds__(CSRG_STREAM_THREADS) CSRGStreamKernel(const LongRowsArrays l, const int *__restrict__ blockrow, const int *__restrict__ rowptr, const int *__restrict__ col, const V *__restrict__ val, const double *__restrict__ x, const double *z, double *y)
{
  constexpr int E = CSRG_STREAM_ENTRIES / CSRG_STREAM_THREADS;
  __shared__ double prod[CSRG_STREAM_ENTRIES];
  if ((int)blockIdx.x < l.nchunks) { /* the whole block */
    LongRowsChunkMult<CSRG_STREAM_THREADS>(l, blockIdx.x, x, z, y);
    return;
  }
  const int b  = blockIdx.x - l.nchunks;
  const int r0 = __ldg(blockrow + 2 * b), nr = __ldg(blockrow + 2 * b + 1) - r0;
  const int k0 = __ldg(rowptr + r0), nnz = __ldg(rowptr + r0 + nr) - k0;
  const int t = threadIdx.x;
  double    sum = 0.0;

  if (nnz > CSRG_STREAM_ENTRIES) { /* one row */
    for (int k = k0 + t; k < k0 + nnz; k += CSRG_STREAM_THREADS) sum += (double)ELLGLoadMatrix(val + k) * ELLGLoadX(x, ELLGLoadMatrix(col + k));
    sum = ELLGBlockSum<CSRG_STREAM_THREADS>(sum);
    if (!t) y[r0] = z ? z[r0] + sum : sum;
    return;
  }
  int    c[E];
  double v[E];
#pragma unroll
  for (int u = 0; u < E; u++) {
    const int k = t + u * CSRG_STREAM_THREADS;
    c[u]        = 0;
    v[u]        = 0.0;
    if (k < nnz) {
      c[u] = ELLGLoadMatrix(col + k0 + k);
      v[u] = (double)ELLGLoadMatrix(val + k0 + k);
    }
  }
#pragma unroll
  for (int u = 0; u < E; u++)
    if (t + u * CSRG_STREAM_THREADS < nnz) prod[t + u * CSRG_STREAM_THREADS] = v[u] * ELLGLoadX(x, c[u]);
  __syncthreads();
  int G = 32;
  while (G > 1 && G * nr > CSRG_STREAM_THREADS) G /= 2;
  const int r = t / G, g = t % G;
  if (r < nr) {
    const int end = __ldg(rowptr + r0 + r + 1) - k0;
    for (int k = __ldg(rowptr + r0 + r) - k0 + g; k < end; k += G) sum += prod[k];
  }
  sum = ELLGWarpGroupSum(sum, G); /* every thread of the warp takes part */
  if (g == 0 && r < nr) y[r0 + r] = z ? z[r0 + r] + sum : sum;
}

/* C = A B (+ C), FastSpMM on CSR-vector: the T threads of a row read its entries once per pass (thread t
   entries t, t+T, ...) and accumulate lc <= LC columns of C each; the first thread writes them */
template <int T, int LC, class Col, class V>
__global__ void __launch_bounds__(ELLG_SPMM_MAX_THREADS, ELLG_SPMM_MIN_BLOCKS(LC)) CSRGSpMMKernel(int m, const int *__restrict__ rowptr, Col col, const V *__restrict__ val, int lc, const ELLGSpMMArgs a)
{
  const long gid  = (long)blockIdx.x * blockDim.x + threadIdx.x;
  const int  row  = (int)(gid / T);
  const int  lane = (int)(gid % T);
  if (row >= m) return; /* the T threads of a row leave together */
  const int     start = rowptr[row], end = rowptr[row + 1];
  const int     j0 = blockIdx.y * lc, nc = min(lc, a.ncols - j0);
  const double *B  = a.B + (size_t)j0 * a.ldb;
  double        acc[LC];
  ELLGSpMMZero<LC>(acc);
  ELLGSpMMPass<LC>(nc, [&](auto full) {
    for (int k = start + lane; k < end; k += T) ELLGSpMMAccumulate<LC, decltype(full)::value>(acc, (double)val[k], B + col((size_t)k, row), a.ldb, nc);
  });
  ELLGSpMMGroupReduce<T, LC>(acc);
  if (lane == 0) ELLGSpMMStore<LC>(acc, a.C + (size_t)j0 * a.ldc + row, a.ldc, nc, a.add);
}

template <class Col, class V>
__global__ void CSRGMultTransposeAddKernel(int m, const int *__restrict__ rowptr, Col col, const V *__restrict__ val, const double *__restrict__ x, double *y)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= m) return;
  const double xi = x[i];
  if (xi == 0.0) return;
  for (int k = rowptr[i]; k < rowptr[i + 1]; k++) atomicAdd(&y[col((size_t)k, i)], (double)val[k] * xi);
}

template <class Col, class V>
__global__ void CSRGGetDiagonalKernel(int m, const int *__restrict__ rowptr, Col col, const V *__restrict__ val, double *d)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= m) return;
  double di = 0.0;
  for (int k = rowptr[i]; k < rowptr[i + 1]; k++)
    if (col((size_t)k, i) == i) {
      di = (double)val[k];
      break;
    }
  d[i] = di;
}

static int Blocks(long threads, int bs) { return (int)((threads + bs - 1) / bs); }

/* CSR-stream runs three blocks of CSRG_STREAM_THREADS on a multiprocessor, with the L1 cache their shared memory
   leaves (25% of an H200's 228 KB rounds up to a 64 KB carveout for three blocks' 16 KB of staged products, against
   four blocks and a larger carveout by default). On matrices bound by the L2 cache's request rate the L1 cache then
   takes more of the reads of x (H200: 1.4% faster on powerlaw-4000000, 0.3% on random-4000000) */
#define CSRG_STREAM_CARVEOUT 25 /* percent of the most shared memory a multiprocessor has */

/* a build (csrcol given) also sets the carveout of the CSR-stream kernel of the matrix's value type on the current
   device, the matrix's, so that the product sets nothing */
template <class V>
static int CSRGPack(const CSRGArrays *c, const int *csrrowptr, const int *csrcol, const double *csrval, V *val)
{
  int err;

  if (csrcol && (err = (int)cudaFuncSetAttribute(CSRGStreamKernel<V>, cudaFuncAttributePreferredSharedMemoryCarveout, CSRG_STREAM_CARVEOUT))) return err;
  CSRGPackKernel<<<Blocks((long)c->m * 32, 256), 256>>>(c->m, c->rowptr, csrrowptr, csrcol, csrval, c->col, c->off, val);
  return (int)cudaGetLastError();
}

extern "C" int CSRGCudaPack(const CSRGArrays *c, const int *csrrowptr, const int *csrcol, const double *csrval)
{
  if (!c->m) return 0;
  return ELLGWithValues(c->val, c->sval, [&](auto val) { return CSRGPack(c, csrrowptr, csrcol, csrval, val); });
}

extern "C" int CSRGCudaMult(const CSRGArrays *c, const LongRowsArrays *l, int T, int bs, const double *x, const double *z, double *y)
{
  const LongRowsArrays lr = LongRowsArraysOrNone(l);

  if (!c->m) return 0;
  const int grid = Blocks((long)c->m * T, bs);
  return ELLGWithValues(c->val, c->sval, [&](auto val) {
    if (c->blockrow || lr.nchunks) {
      CSRGStreamKernel<<<lr.nchunks + c->nblocks, CSRG_STREAM_THREADS>>>(lr, c->blockrow, c->rowptr, c->col, val, x, z, y);
      return (int)cudaGetLastError();
    }
    return ELLGWithColumns(c->col, c->off, [&](auto col) {
      return ELLGDispatchPow2(T, [&](auto t) {
        CSRGMultKernel<decltype(t)::value><<<grid, bs>>>(c->m, c->rowptr, col, val, x, z, y);
        return (int)cudaGetLastError();
      });
    });
  });
}

extern "C" int CSRGCudaSpMM(const CSRGArrays *c, int T, int bs, int lc, const ELLGSpMMArgs *a)
{
  if (!c->m || !a->ncols) return 0;
  const int          threads = ELLGSpMMBlockSize(bs);
  const cudaStream_t stream  = (cudaStream_t)a->stream;
  return ELLGSpMMLaunchPasses(a, lc, [&](const ELLGSpMMArgs &g, int passes) {
    return ELLGWithValues(c->val, c->sval, [&](auto val) {
      return ELLGWithColumns(c->col, c->off, [&](auto col) {
        return ELLGDispatchPow2(T, [&](auto t) {
          return ELLGDispatchPow2(ELLGSpMMTemplateColumns(lc), [&](auto l) {
            CSRGSpMMKernel<decltype(t)::value, decltype(l)::value><<<dim3(Blocks((long)c->m * T, threads), passes), threads, 0, stream>>>(c->m, c->rowptr, col, val, lc, g);
            return (int)cudaGetLastError();
          });
        });
      });
    });
  });
}

extern "C" int CSRGCudaMultTransposeAdd(const CSRGArrays *c, int bs, const double *x, double *y)
{
  if (!c->m) return 0;
  return ELLGWithValues(c->val, c->sval, [&](auto val) {
    return ELLGWithColumns(c->col, c->off, [&](auto col) {
      CSRGMultTransposeAddKernel<<<Blocks(c->m, bs), bs>>>(c->m, c->rowptr, col, val, x, y);
      return (int)cudaGetLastError();
    });
  });
}

extern "C" int CSRGCudaGetDiagonal(const CSRGArrays *c, double *d)
{
  if (!c->m) return 0;
  return ELLGWithValues(c->val, c->sval, [&](auto val) {
    return ELLGWithColumns(c->col, c->off, [&](auto col) {
      CSRGGetDiagonalKernel<<<Blocks(c->m, 256), 256>>>(c->m, c->rowptr, col, val, d);
      return (int)cudaGetLastError();
    });
  });
}
