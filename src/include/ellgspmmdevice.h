/*
   Device code shared by the formats' sparse-times-dense kernels (ellgspmmargs.h); included by .cu
   files only. A thread holds the partial sums of lc <= LC columns of its row in acc[], LC a power of
   two fixed at compile time so that acc[] stays in registers: up to 64 of them for LC = 32, so the
   kernels run at most ELLG_SPMM_MAX_THREADS threads per block, which leaves each thread up to 255.
*/
#pragma once
#include <cuda_runtime.h>
#include <type_traits>
#include "ellgspmmargs.h"
#include "ellgloads.h"

#define ELLG_SPMM_MAX_THREADS 256

/* blocks of ELLG_SPMM_MAX_THREADS the kernels of LC columns ask to fit on a multiprocessor (their
   launch bounds): without it ptxas keeps the registers low and issues the loads of one entry at a
   time; with 4 (64 registers) it schedules those of several entries together, a sixth less time on
   the 7-point Laplacian with 8 columns; larger LC need the registers for their sums */
#define ELLG_SPMM_MIN_BLOCKS(LC) ((LC) <= 8 ? 4 : 1)

/* threads per block of an SpMM kernel: the format's block size, up to ELLG_SPMM_MAX_THREADS (a multiple
   of 32 either way, so the threads of a row stay in one warp) */
inline int ELLGSpMMBlockSize(int bs)
{
  return bs < ELLG_SPMM_MAX_THREADS ? bs : ELLG_SPMM_MAX_THREADS;
}

template <int N>
using ELLGIntConstant = std::integral_constant<int, N>;

/* f(ELLGIntConstant<p>()) for p a power of two from 1 to 32 (threads per row, columns per pass): the
   kernel templates are instantiated for those; f returns 0 or a cudaError_t */
template <class F>
inline int ELLGDispatchPow2(int p, F f)
{
  switch (p) {
  case 1: return f(ELLGIntConstant<1>());
  case 2: return f(ELLGIntConstant<2>());
  case 4: return f(ELLGIntConstant<4>());
  case 8: return f(ELLGIntConstant<8>());
  case 16: return f(ELLGIntConstant<16>());
  case 32: return f(ELLGIntConstant<32>());
  default: return (int)cudaErrorInvalidValue;
  }
}

/* the template LC for lc columns per pass: the smallest power of two that holds them */
inline int ELLGSpMMTemplateColumns(int lc)
{
  int LC = 1;
  while (LC < lc) LC *= 2;
  return LC;
}

/* grid rows (blockIdx.y) for the passes over ncols columns, lc at a time; the long rows' kernel loops when there are more */
inline unsigned ELLGSpMMPasses(int ncols, int lc)
{
  const int passes = (ncols + lc - 1) / lc;
  return (unsigned)(passes < 65535 ? passes : 65535);
}

/* launch(args, passes) for groups of at most 65535 passes (the rows of a grid) over the columns of a,
   lc at a time, args those of the group's columns (B and C from its first column on): a kernel block
   then runs pass blockIdx.y alone, without the loop over passes that costs registers and a tenth of
   the time; returns 0 or the first error */
template <class F>
inline int ELLGSpMMLaunchPasses(const ELLGSpMMArgs *a, int lc, F launch)
{
  const int most = 65535 * lc;
  for (int j0 = 0; j0 < a->ncols; j0 += most) {
    ELLGSpMMArgs g = *a;
    g.ncols        = a->ncols - j0 < most ? a->ncols - j0 : most;
    g.B            = a->B + (size_t)j0 * a->ldb;
    g.C            = a->C + (size_t)j0 * a->ldc;
    if (const int err = launch(g, (g.ncols + lc - 1) / lc)) return err;
  }
  return 0;
}

template <int LC>
__device__ __forceinline__ void ELLGSpMMZero(double (&acc)[LC])
{
#pragma unroll
  for (int j = 0; j < LC; j++) acc[j] = 0.0;
}

/* acc[j] += v B(c, j) for the nc columns of the pass; b = B + c. FULL: nc == LC, the loads unguarded */
template <int LC, bool FULL>
__device__ __forceinline__ void ELLGSpMMAccumulate(double (&acc)[LC], double v, const double *b, int ldb, int nc)
{
#pragma unroll
  for (int j = 0; j < LC; j++)
    if (FULL || j < nc) acc[j] += v * __ldg(b + (size_t)j * ldb);
}

/* row(std::true_type()) for a pass of LC columns, row(std::false_type()) for a shorter one: the row's
   loop of ELLGSpMMAccumulate<LC, FULL>() compiled for each, so that in full passes, without guards, the
   loads of several entries are scheduled together (a quarter less time on the 7-point Laplacian) */
template <int LC, class Row>
__device__ __forceinline__ void ELLGSpMMPass(int nc, Row row)
{
  if (nc == LC) row(std::true_type());
  else row(std::false_type());
}

/* the sums of the T threads of a row (consecutive lanes of one warp) into its first thread */
template <int T, int LC>
__device__ __forceinline__ void ELLGSpMMGroupReduce(double (&acc)[LC])
{
#pragma unroll
  for (int j = 0; j < LC; j++) acc[j] = ELLGGroupSum<T>(acc[j]);
}

/* c[j ldc] = acc[j] (+ c[j ldc] when add) for the nc columns of the pass; c = C + row */
template <int LC>
__device__ __forceinline__ void ELLGSpMMStore(const double (&acc)[LC], double *c, int ldc, int nc, int add)
{
#pragma unroll
  for (int j = 0; j < LC; j++)
    if (j < nc) {
      double *p = c + (size_t)j * ldc;
      *p        = add ? *p + acc[j] : acc[j];
    }
}
