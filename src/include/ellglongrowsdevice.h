/*
   Device code of the long rows' product (ellglongrows.h), shared by their own kernel and by the SpMV
   kernels of the formats that multiply their long rows in the same launch as the other rows
   (ELLGFormatOps.multlongrows); included by .cu files only.
*/
#pragma once
#include <cuda_runtime.h>
#include "ellgloads.h"
#include "ellgcolumns.h"
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

/* y[row] = z[row] + the long row's entries times x (z may be NULL or y), by a block of THREADS threads per
   chunk c (ELLGRowDot(): each thread's loads issued before any is used): that of a one-chunk row writes y at
   once, those of a longer row leave their sums in partial[] and the last of them to finish adds them up with
   all its threads, in a fixed order (deterministic), and resets the row's count. Every thread of the block
   calls it (it synchronizes the block). */
/* value k of the long rows, in double */
__device__ __forceinline__ double LongRowsValue(const LongRowsArrays &l, int k)
{
  return l.sval ? (double)l.sval[k] : l.val[k];
}

template <int THREADS>
__device__ __forceinline__ void LongRowsChunkMult(const LongRowsArrays l, int c, const double *__restrict__ x, const double *z, double *y)
{
  __shared__ bool last;
  int             begin, end, row;
  const int       r   = LongRowsChunkRange(l, c, &begin, &end, &row);
  const int       c0  = l.rowchunk[r], nc = l.rowchunk[r + 1] - c0;
  const auto      pos = [=](int j) { return (size_t)begin + j; };
  double          sum = ELLGBlockSum<THREADS>(l.sval ? ELLGRowDot(threadIdx.x, THREADS, end - begin, pos, ELLGCol32{l.col}, row, l.sval, x) : ELLGRowDot(threadIdx.x, THREADS, end - begin, pos, ELLGCol32{l.col}, row, l.val, x));
  if (nc > 1) { /* the same for the whole block */
    if (!threadIdx.x) {
      l.partial[c] = sum;
      __threadfence(); /* the sum is seen by all before the count */
      last = atomicAdd(&l.arrived[r], 1) == nc - 1;
    }
    __syncthreads();
    if (!last) return;
    __threadfence();
    sum = 0.0;
    for (int k = c0 + threadIdx.x; k < c0 + nc; k += THREADS) sum += __ldcg(l.partial + k);
    sum = ELLGBlockSum<THREADS>(sum);
    if (!threadIdx.x) l.arrived[r] = 0;
  }
  if (!threadIdx.x) y[row] = z ? z[row] + sum : sum;
}
