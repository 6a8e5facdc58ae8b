/*
   Device code of the long rows' product (ellglongrows.h), shared by their own kernel and by the SpMV
   kernels of the formats that multiply their long rows in the same launch as the other rows
   (ELLGFormatOps.multlongrows); included by .cu files only.
*/
#pragma once
#include <cuda_runtime.h>
#include "ellgloads.h"
#include "ellglongrows.h"

/* the entries of chunk c: [*begin, *end) in the long-row CSR; the row's matrix row in *row; returns
   the chunk's long row */
__device__ __forceinline__ int LongRowsChunkRange(const LongRowsArrays l, int c, int *begin, int *end, int *row)
{
  const int r = l.chunkrow[c];
  *begin      = l.rowptr[r] + (c - l.rowchunk[r]) * LONGROWS_CHUNK;
  *end        = min(*begin + LONGROWS_CHUNK, l.rowptr[r + 1]);
  *row        = l.ids[r];
  return r;
}

/* y[row] = z[row] + the long row's entries times x (z may be NULL or y), by a block of LONGROWS_THREADS
   threads per chunk c: that of a one-chunk row writes y at once, those of a longer row leave their sums
   in partial[] and the last of them to finish adds them up, in chunk order (deterministic), and resets
   the row's count. Every thread of the block calls it (it synchronizes the block). */
__device__ __forceinline__ void LongRowsChunkMult(const LongRowsArrays l, int c, const double *__restrict__ x, const double *z, double *y)
{
  __shared__ double part[LONGROWS_THREADS / 32];
  int               begin, end, row;
  double            sum = 0.0;
  const int         r   = LongRowsChunkRange(l, c, &begin, &end, &row);
  for (int k = begin + threadIdx.x; k < end; k += LONGROWS_THREADS) sum += ELLGLoadMatrix(l.val + k) * ELLGLoadX(x, ELLGLoadMatrix(l.col + k));
  sum = ELLGGroupSum<32>(sum);
  if ((threadIdx.x & 31) == 0) part[threadIdx.x / 32] = sum;
  __syncthreads();
  if (threadIdx.x >= 32) return;
  sum = threadIdx.x < LONGROWS_THREADS / 32 ? part[threadIdx.x] : 0.0;
  sum = ELLGGroupSum<32>(sum);
  if (threadIdx.x) return;
  const int c0 = l.rowchunk[r], nc = l.rowchunk[r + 1] - c0;
  if (nc > 1) {
    l.partial[c] = sum;
    __threadfence(); /* the sum is seen by all before the count */
    if (atomicAdd(&l.arrived[r], 1) != nc - 1) return;
    __threadfence();
    sum = 0.0;
    for (int k = c0; k < c0 + nc; k++) sum += __ldcg(l.partial + k);
    l.arrived[r] = 0;
  }
  y[row] = z ? z[row] + sum : sum;
}
