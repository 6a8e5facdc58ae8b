/*
   Plain C interface of the benchmarks' CUDA helper (bench_cuda.cu; bench_spmv, bench_spmm,
   bench_assembly): device timing with CUDA events, copy bandwidth, memory and host-to-device copies,
   and cuSPARSE CSR reference SpMV and SpMM on the bench's own copy of a matrix. Nothing here includes
   PETSc.

   Every function returns 0 on success, a cudaError_t value for a CUDA runtime error, or
   BENCH_CUSPARSE_BASE + cusparseStatus_t for a cuSPARSE error.
*/
#pragma once
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define BENCH_CUSPARSE_BASE          10000
#define BENCH_CUSPARSE_NOT_SUPPORTED (BENCH_CUSPARSE_BASE + 10) /* CUSPARSE_STATUS_NOT_SUPPORTED */

const char *BenchCudaErrorString(int err);

int BenchCudaGetDeviceCount(int *count); /* 0 devices (no error) when no usable driver or device */
int BenchCudaDeviceName(char *name, size_t len);
int BenchCudaSynchronize(void);

/* Device memory, pinned host memory and a blocking host-to-device cudaMemcpy (from pageable or
   pinned memory), for bench_assembly's reference upload of the CSR values */
int BenchCudaMalloc(void **ptr, size_t bytes);
int BenchCudaFree(void *ptr);
int BenchCudaMallocHost(void **ptr, size_t bytes);
int BenchCudaFreeHost(void *ptr);
int BenchCudaMemcpyHtoD(void *dst, const void *src, size_t bytes);

/* Copy bandwidth, read + write bytes per second, of cudaMemcpy device-to-device and of a copy
   kernel on buffers of the given size: median of reps copies each */
int BenchCudaCopyBandwidth(size_t bytes, int reps, double *memcpy_Bps, double *kernel_Bps);

/* Elapsed time between two events recorded on the legacy default stream, which waits for the
   work of all blocking streams: Stop waits for the stop event */
typedef struct _n_BenchCudaTimer *BenchCudaTimer;
int BenchCudaTimerCreate(BenchCudaTimer *timer);
int BenchCudaTimerStart(BenchCudaTimer timer);
int BenchCudaTimerStop(BenchCudaTimer timer, double *ms);
int BenchCudaTimerDestroy(BenchCudaTimer *timer);

/* cuSPARSE CSR SpMV y = A x (double values, 32-bit indices) on a device copy of A and x */
typedef enum {
  BENCH_CUSPARSE_CSR_ALG1,
  BENCH_CUSPARSE_CSR_ALG2
} BenchCusparseAlg;
typedef struct _n_BenchCusparse *BenchCusparse;
int BenchCusparseCreate(int nrows, int ncols, const int *rowptr, const int *colidx, const double *val, const double *x, BenchCusparse *cs);
/* warmup products, then reps timed ones, each between two events: ms[0..reps-1] */
int BenchCusparseTime(BenchCusparse cs, BenchCusparseAlg alg, int warmup, int reps, double *ms);
/* y of the last product, copied to the host */
int BenchCusparseGetResult(BenchCusparse cs, double *y);
int BenchCusparseDestroy(BenchCusparse *cs);

/* cuSPARSE CSR SpMM C = A B (double values, 32-bit indices, B and C column-major) on device copies of A
   and of B (L columns with leading dimension ldb, on the host; kept there for the timings with transfers) */
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
