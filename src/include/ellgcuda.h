/*
   Plain C interface to the CUDA side of PETSc-ELLG. Nothing here includes PETSc: the .cu files
   implement these functions, the C glue calls them through PetscCallELLGCuda(), which turns a
   nonzero return into a PETSc error.

   Every function returns 0 on success, a cudaError_t value for a CUDA runtime error, or
   ELLG_CUDA_CUBLAS_BASE + cublasStatus_t for a cuBLAS error.
*/
#pragma once
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ELLG_CUDA_ERROR_MEMORY 2 /* cudaErrorMemoryAllocation */
#define ELLG_CUDA_CUBLAS_BASE  10000

const char *ELLGCudaErrorName(int err);
const char *ELLGCudaErrorString(int err);

/* devices */
int ELLGCudaGetDeviceCount(int *count); /* 0 devices (no error) when no usable driver/device */
int ELLGCudaSetDevice(int dev);
int ELLGCudaGetDevice(int *dev);
int ELLGCudaDeviceName(int dev, char *name, size_t len);
int ELLGCudaSynchronize(void);

/* memory: kind 0 host->device, 1 device->host, 2 device->device */
int ELLGCudaMalloc(void **ptr, size_t bytes);
int ELLGCudaFree(void *ptr);
int ELLGCudaMemcpy(void *dst, const void *src, size_t bytes, int kind);
int ELLGCudaMemset(void *ptr, int value, size_t bytes);

/*
   Streams: stream is one of ELLGCudaStreamCreate(), or NULL for the stream the products and vector
   operations run on (CUDA's legacy default stream, "compute" below), with which a created stream
   does not synchronise by itself: ordering is through the *Wait* functions.
*/
int ELLGCudaStreamCreate(void **stream);
int ELLGCudaStreamDestroy(void *stream);
int ELLGCudaStreamWaitCompute(void *stream); /* work queued on stream from now on waits for the compute work queued so far */
int ELLGCudaComputeWaitStream(void *stream); /* compute work queued from now on waits for the work queued on stream so far */
int ELLGCudaStreamSynchronize(void *stream);
int ELLGCudaMallocPinned(void **ptr, size_t bytes); /* page-locked host memory */
int ELLGCudaFreePinned(void *ptr);
int ELLGCudaCopyAsync(void *stream, void *dst, const void *src, size_t bytes); /* between any memories */
int ELLGCudaGather(void *stream, int n, const int *idx, const double *x, double *buf);          /* buf[i] = x[idx[i]], i < n */
int ELLGCudaScatter(void *stream, int n, const int *idx, const double *buf, double *y, int add); /* y[idx[i]] = (add: +=) buf[i]; distinct idx[i] */

/* the library's cuBLAS handle, created on first use */
int ELLGCublasGetHandle(void **handle);
int ELLGCublasDestroyHandle(void);

#ifdef __cplusplus
}
#endif
