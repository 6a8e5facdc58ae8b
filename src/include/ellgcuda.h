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
int ELLGCudaMemGetInfo(size_t *free, size_t *total);

/* streams (a cudaStream_t as void *; blocking: they wait for the legacy default stream, on which the
   formats are built and updated), pinned host memory, and copies on a stream (kind as above) that
   overlap other streams' work when the host side is pinned */
int ELLGCudaStreamCreate(void **stream);
int ELLGCudaStreamDestroy(void *stream);
int ELLGCudaStreamSynchronize(void *stream);
int ELLGCudaMallocHost(void **ptr, size_t bytes);
int ELLGCudaFreeHost(void *ptr);
int ELLGCudaMemcpyAsync(void *dst, const void *src, size_t bytes, int kind, void *stream);

/* the library's cuBLAS handle, created on first use */
int ELLGCublasGetHandle(void **handle);
int ELLGCublasDestroyHandle(void);

#ifdef __cplusplus
}
#endif
