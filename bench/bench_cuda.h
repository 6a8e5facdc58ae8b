/*
   Plain C interface of the benchmarks' CUDA helper (bench_cuda.cu; bench_spmv, bench_spmm,
   bench_assembly, bench_mpi): device timing with CUDA events, copy bandwidth, memory and
   host-to-device copies; the cuSPARSE references are in bench_cusparse.h. Nothing here includes
   PETSc.

   Every function of the helper returns 0 on success, a cudaError_t value for a CUDA runtime error,
   BENCH_CUSPARSE_BASE + cusparseStatus_t for a cuSPARSE error, or one of the helper's own errors
   (BENCH_HELPER_BASE + k); BenchCudaErrorString() says what each means.
*/
#pragma once
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define BENCH_CUSPARSE_BASE          10000
#define BENCH_CUSPARSE_NOT_SUPPORTED (BENCH_CUSPARSE_BASE + 10) /* CUSPARSE_STATUS_NOT_SUPPORTED */
#define BENCH_HELPER_BASE            20000
#define BENCH_SELL_TOO_LARGE         (BENCH_HELPER_BASE + 1) /* a sliced ELL copy past 32-bit offsets */
#define BENCH_HOST_NO_MEMORY         (BENCH_HELPER_BASE + 2) /* host memory for a conversion */
#define BENCH_NOT_QUEUED             (BENCH_HELPER_BASE + 3) /* a queued timing of an operation that waits for the device */

const char *BenchCudaErrorString(int err);

int BenchCudaGetDeviceCount(int *count); /* 0 devices (no error) when no usable driver or device */
int BenchCudaDeviceName(char *name, size_t len);
int BenchCudaSynchronize(void);

/* The current device, which the timer, copies and cuSPARSE use, and setting it (back) */
int BenchCudaGetDevice(int *dev);
int BenchCudaSetDevice(int dev);
/* Clears the CUDA runtime's last error, which a failed call of other code (PETSc's) leaves for the next
   check of a launch to see, then synchronizes the device: nonzero when the context is lost (a sticky error) */
int BenchCudaClearError(void);
/* Free memory of the current device in bytes (cudaMemGetInfo) */
int BenchCudaMemGetFree(size_t *bytes);
/* *ordered: whether work launched on stream (a cudaStream_t; NULL: the default stream) is ordered with the
   events and the hold of the timer below, which are on the legacy default stream: the default stream
   itself or a blocking stream are, a stream created with cudaStreamNonBlocking is not */
int BenchCudaStreamIsOrdered(void *stream, int *ordered);

/* Device memory, pinned host memory and a blocking host-to-device cudaMemcpy (from pageable or
   pinned memory), for bench_assembly's reference upload of the CSR values */
int BenchCudaMalloc(void **ptr, size_t bytes);
int BenchCudaFree(void *ptr);
int BenchCudaMallocHost(void **ptr, size_t bytes);
int BenchCudaFreeHost(void *ptr);
int BenchCudaMemcpyHtoD(void *dst, const void *src, size_t bytes);
int BenchCudaMemcpyDtoD(void *dst, const void *src, size_t bytes);

/* Copy bandwidth, read + write bytes per second, of cudaMemcpy device-to-device and of a copy
   kernel on buffers of the given size: median of reps copies each */
int BenchCudaCopyBandwidth(size_t bytes, int reps, double *memcpy_Bps, double *kernel_Bps);

/* Launches a kernel of one warp that does nothing: timed as a product, the device's least time for one launch */
int BenchCudaEmptyKernel(void);

/* Elapsed time between two events recorded on the legacy default stream, which waits for the
   work of all blocking streams: Stop waits for the stop event.

   Started with queued = 0 on an idle device, the time includes the host's part of the timed
   operation (launch latency, host code between its kernels). Started with queued = 1, a kernel
   first holds the stream for a while, so that the device reaches the start event only once the
   host has launched all of the operation: the time is then the device's alone, as when the host
   runs ahead of the device. Stop sets *again when the device reached the start event before the
   stop event was recorded (the hold was too short: it is doubled, and the run must be repeated);
   an operation that waits for the device (a blocking copy) cannot be timed so, and gives
   BENCH_NOT_QUEUED once the hold would pass 0.1 s. With queued = 0, *again is 0. */
typedef struct _n_BenchCudaTimer *BenchCudaTimer;
int BenchCudaTimerCreate(BenchCudaTimer *timer);
int BenchCudaTimerStart(BenchCudaTimer timer, int queued);
int BenchCudaTimerStop(BenchCudaTimer timer, double *ms, int *again);
int BenchCudaTimerDestroy(BenchCudaTimer *timer);

#ifdef __cplusplus
}
#endif
