/*
   Plain C interface to the CUDA side of PETSc-ELLG. Nothing here includes PETSc: the .cu files
   implement these functions, the C glue calls them through PetscCallELLGCuda(), which turns a
   nonzero return into a PETSc error.

   Every function returns 0 on success, a cudaError_t value for a CUDA runtime error,
   ELLG_CUDA_CUBLAS_BASE + cublasStatus_t for a cuBLAS error, or ELLG_CUDA_CUSPARSE_BASE +
   cusparseStatus_t for a cuSPARSE error.
*/
#pragma once
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ELLG_CUDA_ERROR_MEMORY  2 /* cudaErrorMemoryAllocation */
#define ELLG_CUDA_CUBLAS_BASE   10000
#define ELLG_CUDA_CUSPARSE_BASE 20000 /* above the cuBLAS codes: the error names test it first */

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
int ELLGCudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height, int kind); /* height rows of width bytes, pitches in bytes */
int ELLGCudaMemset(void *ptr, int value, size_t bytes);
int ELLGCudaMemGetInfo(size_t *free, size_t *total);
int ELLGCudaPointerIsDevice(const void *ptr, int *isdevice); /* device or managed memory, which kernels read */
int ELLGCudaMemHeld(size_t *bytes); /* the bytes that the allocations of ELLGCudaMalloc() not freed yet hold */

/* streams (a cudaStream_t as void *; blocking: they wait for the legacy default stream, on which the
   formats are built and updated), pinned host memory, and copies on a stream (kind as above) that
   overlap other streams' work when the host side is pinned */
int ELLGCudaStreamCreate(void **stream);
int ELLGCudaStreamDestroy(void *stream);
int ELLGCudaStreamSynchronize(void *stream);
int ELLGCudaMallocHost(void **ptr, size_t bytes);
int ELLGCudaFreeHost(void *ptr);
int ELLGCudaHostRegister(void *ptr, size_t bytes);
int ELLGCudaHostUnregister(void *ptr);
int ELLGCudaMemcpyAsync(void *dst, const void *src, size_t bytes, int kind, void *stream);

/*
   The exchange stream of the parallel types' halo exchange: a non-blocking stream of the highest
   priority, ordered against the legacy default stream (on which the products and vector operations
   run) only through the Wait functions; its handle is a stream for the functions above and below.
*/
int   ELLGCudaExchangeStreamCreate(void **exchange);
int   ELLGCudaExchangeStreamDestroy(void *exchange);
void *ELLGCudaExchangeStreamHandle(void *exchange);
int   ELLGCudaExchangeStreamWaitCompute(void *exchange); /* its work queued from now on waits for the default stream's work queued so far */
int   ELLGCudaComputeWaitExchangeStream(void *exchange); /* the default stream's work queued from now on waits for its work queued so far */

/* order the legacy default stream and another stream (not NULL): the default stream's work queued
   from now on waits for the other's work queued so far, or the other way round */
int ELLGCudaDefaultStreamWait(void *stream);
int ELLGCudaStreamWaitDefault(void *stream);

/* on a stream (NULL: the legacy default stream): buf[i] = x[idx[i]], i < n; and y[idx[i]] = buf[i]
   (add: +=) for distinct idx[i]; the Columns versions column by column (j < ncols: x + j ldx into
   buf + j ldb, buf + j ldb into y + j ldy) */
int ELLGCudaGather(void *stream, int n, const int *idx, const double *x, double *buf);
int ELLGCudaGatherColumns(void *stream, int n, int ncols, const int *idx, const double *x, int ldx, double *buf, int ldb);
int ELLGCudaScatter(void *stream, int n, const int *idx, const double *buf, double *y, int add);
int ELLGCudaScatterColumns(void *stream, int n, int ncols, const int *idx, const double *buf, int ldb, double *y, int ldy, int add);
/* values.cu: *first the least k < n of a finite v[k] beyond single precision's range (-1: none); s = v rounded; and
   back, v = s (the legacy default stream) */
int ELLGCudaValuesBeyondSingle(long n, const double *v, long long *first);
int ELLGCudaToSingle(long n, const double *v, float *s);
int ELLGCudaToDouble(long n, const float *s, double *v);

/* the library's cuBLAS handle, created on first use */
int ELLGCublasGetHandle(void **handle);
int ELLGCublasDestroyHandle(void);

/* frees the mapped host memory that the vector reductions write their results to (allocated at the first) */
int ELLGCudaVecFreeResults(void);

/* the library's cuSPARSE handle (a cusparseHandle_t), created on first use, on the legacy default
   stream, where the formats are built and the products run */
int ELLGCusparseGetHandle(void **handle);
int ELLGCusparseDestroyHandle(void);

#ifdef __cplusplus
}
#endif
