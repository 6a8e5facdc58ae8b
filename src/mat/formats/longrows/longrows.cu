/* Long rows on CUDA: a thread block per chunk of a row; sums by warp shuffles then shared memory */
#include <cuda_runtime.h>
#include <ellgspmmdevice.h>
#include <ellgloads.h>
#include <ellglongrowsdevice.h>

__global__ void GatherKernel(const LongRowsArrays l, const int *__restrict__ csrrowptr, const int *__restrict__ csrcol, const double *__restrict__ csrval)
{
  int       begin, end, row;
  const int r     = LongRowsChunkRange(l, blockIdx.x, &begin, &end, &row);
  const int shift = csrrowptr[row] - l.rowptr[r];
  for (int k = begin + threadIdx.x; k < end; k += blockDim.x) {
    if (l.sval) l.sval[k] = (float)csrval[k + shift];
    else l.val[k] = csrval[k + shift];
    if (csrcol) l.col[k] = csrcol[k + shift];
  }
}

/* y[row] += the long row's entries times x, a thread block per chunk */
__global__ void __launch_bounds__(LONGROWS_THREADS) MultAddKernel(const LongRowsArrays l, const double *__restrict__ x, double *y)
{
  LongRowsChunkMult<LONGROWS_THREADS>(l, blockIdx.x, x, y, y);
}

/* the sums of chunk blockIdx.x for the columns of each pass, lc <= LC at a time, into work */
template <int LC>
__global__ void __launch_bounds__(LONGROWS_THREADS) SpMMChunkSumKernel(const LongRowsArrays l, int lc, const ELLGSpMMArgs a)
{
  __shared__ double part[LONGROWS_THREADS / 32][LC];
  int               begin, end, row;
  LongRowsChunkRange(l, blockIdx.x, &begin, &end, &row);
  for (int p = blockIdx.y; p * lc < a.ncols; p += gridDim.y) { /* the same passes for the whole block */
    const int     j0 = p * lc, nc = min(lc, a.ncols - j0);
    const double *B  = a.B + (size_t)j0 * a.ldb;
    double        acc[LC];
    ELLGSpMMZero<LC>(acc);
    ELLGSpMMPass<LC>(nc, [&](auto full) {
      for (int k = begin + threadIdx.x; k < end; k += LONGROWS_THREADS) ELLGSpMMAccumulate<LC, decltype(full)::value>(acc, LongRowsValue(l, k), B + l.col[k], a.ldb, nc);
    });
    ELLGSpMMGroupReduce<32, LC>(acc);
    if ((threadIdx.x & 31) == 0)
#pragma unroll
      for (int j = 0; j < LC; j++) part[threadIdx.x / 32][j] = acc[j];
    __syncthreads();
    if (threadIdx.x < nc) {
      double sum = 0.0;
      for (int w = 0; w < LONGROWS_THREADS / 32; w++) sum += part[w][threadIdx.x];
      a.work[blockIdx.x + (size_t)l.nchunks * (j0 + threadIdx.x)] = sum;
    }
    __syncthreads();
  }
}

/* a thread per long row and column: the sums of the row's chunks, in order, added to C */
__global__ void SpMMRowSumKernel(const LongRowsArrays l, const ELLGSpMMArgs a)
{
  const long g = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (g >= (long)l.nrows * a.ncols) return;
  const int r = (int)(g % l.nrows), j = (int)(g / l.nrows);
  double    sum = 0.0;
  for (int c = l.rowchunk[r]; c < l.rowchunk[r + 1]; c++) sum += a.work[c + (size_t)l.nchunks * j];
  a.C[l.ids[r] + (size_t)j * a.ldc] += sum;
}

__global__ void MultTransposeAddKernel(const LongRowsArrays l, const double *__restrict__ x, double *y)
{
  int begin, end, row;
  LongRowsChunkRange(l, blockIdx.x, &begin, &end, &row);
  const double xr = x[row];
  if (xr == 0.0) return;
  for (int k = begin + threadIdx.x; k < end; k += blockDim.x) atomicAdd(&y[l.col[k]], LongRowsValue(l, k) * xr);
}

__global__ void GetDiagonalKernel(const LongRowsArrays l, double *d)
{
  int begin, end, row;
  LongRowsChunkRange(l, blockIdx.x, &begin, &end, &row);
  for (int k = begin + threadIdx.x; k < end; k += blockDim.x)
    if (l.col[k] == row) d[row] = LongRowsValue(l, k); /* a column appears once in a row: one thread writes */
}

extern "C" int LongRowsCudaGather(const LongRowsArrays *l, const int *csrrowptr, const int *csrcol, const double *csrval)
{
  if (!l->nchunks) return 0;
  GatherKernel<<<l->nchunks, LONGROWS_THREADS>>>(*l, csrrowptr, csrcol, csrval);
  return (int)cudaGetLastError();
}

extern "C" int LongRowsCudaMultAdd(const LongRowsArrays *l, const double *x, double *y)
{
  if (!l->nchunks) return 0;
  MultAddKernel<<<l->nchunks, LONGROWS_THREADS>>>(*l, x, y);
  return (int)cudaGetLastError();
}

extern "C" int LongRowsCudaSpMMAdd(const LongRowsArrays *l, int lc, const ELLGSpMMArgs *a)
{
  if (!l->nchunks || !a->ncols) return 0;
  const dim3         grid(l->nchunks, ELLGSpMMPasses(a->ncols, lc));
  const long         sums   = (long)l->nrows * a->ncols;
  const cudaStream_t stream = (cudaStream_t)a->stream;
  const int          err    = ELLGDispatchPow2(ELLGSpMMTemplateColumns(lc), [&](auto c) {
    SpMMChunkSumKernel<decltype(c)::value><<<grid, LONGROWS_THREADS, 0, stream>>>(*l, lc, *a);
    return (int)cudaGetLastError();
  });
  if (err) return err;
  SpMMRowSumKernel<<<(unsigned)((sums + 127) / 128), 128, 0, stream>>>(*l, *a);
  return (int)cudaGetLastError();
}

extern "C" int LongRowsCudaMultTransposeAdd(const LongRowsArrays *l, const double *x, double *y)
{
  if (!l->nchunks) return 0;
  MultTransposeAddKernel<<<l->nchunks, LONGROWS_THREADS>>>(*l, x, y);
  return (int)cudaGetLastError();
}

extern "C" int LongRowsCudaGetDiagonal(const LongRowsArrays *l, double *d)
{
  if (!l->nchunks) return 0;
  GetDiagonalKernel<<<l->nchunks, LONGROWS_THREADS>>>(*l, d);
  return (int)cudaGetLastError();
}
