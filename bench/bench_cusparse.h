/*
   Plain C interface of the benchmarks' cuSPARSE references (bench_cusparse.cu; bench_spmv,
   bench_spmm): SpMV with the matrix in CSR or in sliced ELL, and CSR SpMM, on the bench's own device
   copy of a matrix (double values, 32-bit indices). Nothing here includes PETSc; the functions
   return what those of bench_cuda.h do.
*/
#pragma once
#include "bench_cuda.h"

#ifdef __cplusplus
extern "C" {
#endif

/* rows per slice of the cuSPARSE sliced ELL (SELL) reference */
#define BENCH_CUSPARSE_SELL_SLICE 32

/* how the SpMV reference stores A, and the cusparseSpMV algorithms: the CSR ones for CSR,
   SELL_ALG1 for SELL */
typedef enum {
  BENCH_CUSPARSE_CSR,
  BENCH_CUSPARSE_SELL
} BenchCusparseFormat;
typedef enum {
  BENCH_CUSPARSE_CSR_ALG1,
  BENCH_CUSPARSE_CSR_ALG2,
  BENCH_CUSPARSE_SELL_ALG1
} BenchCusparseAlg;

/* cuSPARSE SpMV y = A x: a handle and device copies of x (ncols) and y (nrows); then A */
typedef struct _n_BenchCusparse *BenchCusparse;
int BenchCusparseCreate(int nrows, int ncols, const double *x, BenchCusparse *cs);
/* A, given in CSR on the host, on the device in the given format (replacing the one there before):
   CSR copied as it is; SELL made on the host, slices of BENCH_CUSPARSE_SELL_SLICE rows each padded to
   its longest row (padding: column -1, value 0; the last slice padded to full height too), column by
   column within a slice, then copied. *bytes: those of A's arrays on the device. Returns once A is
   there. A SELL of more than 2^31 - 1 entries (padding included) returns BENCH_SELL_TOO_LARGE */
int BenchCusparseSetMatrix(BenchCusparse cs, BenchCusparseFormat format, const int *rowptr, const int *colidx, const double *val, size_t *bytes);
/* after cusparseSpMV_preprocess(), warmup products, then reps timed ones, each between two events, queued
   or not (BenchCudaTimerStart()): ms[0..reps-1]. An algorithm cuSPARSE does not offer for this matrix
   returns BENCH_CUSPARSE_NOT_SUPPORTED */
int BenchCusparseTime(BenchCusparse cs, BenchCusparseAlg alg, int queued, int warmup, int reps, double *ms);
/* y of the last product, copied to the host */
int BenchCusparseGetResult(BenchCusparse cs, double *y);
int BenchCusparseDestroy(BenchCusparse *cs);

/* cuSPARSE CSR SpMM C = A B (B and C column-major) on device copies of A and of B (L columns with
   leading dimension ldb, on the host; kept there for the timings with transfers) */
typedef enum {
  BENCH_CUSPARSE_SPMM_DEFAULT,
  BENCH_CUSPARSE_SPMM_CSR_ALG1,
  BENCH_CUSPARSE_SPMM_CSR_ALG3
} BenchCusparseSpMMAlg;
typedef struct _n_BenchCusparseSpMM *BenchCusparseSpMM;
int BenchCusparseSpMMCreate(int nrows, int ncols, const int *rowptr, const int *colidx, const double *val, int L, const double *B, int ldb, BenchCusparseSpMM *cs);
/* warmup products, then reps timed ones, each between two events: ms[0..reps-1]; with transfers, each copies
   B from the host first (cudaMemcpy2D, from pageable memory) and C to a host buffer after (cudaMemcpy). An
   algorithm cuSPARSE does not offer for these matrices returns BENCH_CUSPARSE_NOT_SUPPORTED */
int BenchCusparseSpMMTime(BenchCusparseSpMM cs, BenchCusparseSpMMAlg alg, int transfers, int warmup, int reps, double *ms);
/* C of the last product, copied to the host with leading dimension ldc */
int BenchCusparseSpMMGetResult(BenchCusparseSpMM cs, double *C, int ldc);
int BenchCusparseSpMMDestroy(BenchCusparseSpMM *cs);

#ifdef __cplusplus
}
#endif
