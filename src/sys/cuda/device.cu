/* CUDA runtime and cuBLAS services behind the plain C interface of ellgcuda.h, and the names of its error codes */
#include <cuda_runtime.h>
#include <cublas_v2.h>
#include <cusparse.h>
#include <string.h>
#include <unordered_map>
#include "ellgcuda.h"

static cublasHandle_t   ellg_cublas   = NULL;
static cusparseHandle_t ellg_cusparse = NULL;

/* the library's device allocations and their bytes (ELLGCudaMemHeld()) */
static std::unordered_map<void *, size_t> *ellg_allocs = NULL;
static size_t                              ellg_held   = 0;

static const char *CublasStatusName(int s)
{
  switch (s) {
  case CUBLAS_STATUS_NOT_INITIALIZED: return "CUBLAS_STATUS_NOT_INITIALIZED";
  case CUBLAS_STATUS_ALLOC_FAILED: return "CUBLAS_STATUS_ALLOC_FAILED";
  case CUBLAS_STATUS_INVALID_VALUE: return "CUBLAS_STATUS_INVALID_VALUE";
  case CUBLAS_STATUS_ARCH_MISMATCH: return "CUBLAS_STATUS_ARCH_MISMATCH";
  case CUBLAS_STATUS_MAPPING_ERROR: return "CUBLAS_STATUS_MAPPING_ERROR";
  case CUBLAS_STATUS_EXECUTION_FAILED: return "CUBLAS_STATUS_EXECUTION_FAILED";
  case CUBLAS_STATUS_INTERNAL_ERROR: return "CUBLAS_STATUS_INTERNAL_ERROR";
  case CUBLAS_STATUS_NOT_SUPPORTED: return "CUBLAS_STATUS_NOT_SUPPORTED";
  default: return "CUBLAS_STATUS_UNKNOWN";
  }
}

extern "C" const char *ELLGCudaErrorName(int err)
{
  /* the larger base first: the cuSPARSE codes are above the cuBLAS ones */
  if (err >= ELLG_CUDA_CUSPARSE_BASE) return cusparseGetErrorName((cusparseStatus_t)(err - ELLG_CUDA_CUSPARSE_BASE));
  if (err >= ELLG_CUDA_CUBLAS_BASE) return CublasStatusName(err - ELLG_CUDA_CUBLAS_BASE);
  return cudaGetErrorName((cudaError_t)err);
}

extern "C" const char *ELLGCudaErrorString(int err)
{
  if (err >= ELLG_CUDA_CUSPARSE_BASE) return cusparseGetErrorString((cusparseStatus_t)(err - ELLG_CUDA_CUSPARSE_BASE));
  if (err >= ELLG_CUDA_CUBLAS_BASE) return "cuBLAS call failed";
  return cudaGetErrorString((cudaError_t)err);
}

extern "C" int ELLGCudaGetDeviceCount(int *count)
{
  cudaError_t e = cudaGetDeviceCount(count);
  if (e != cudaSuccess) {
    /* no driver, no device, or a driver too old: no usable device, which is not an error here */
    *count = 0;
    (void)cudaGetLastError();
  }
  return 0;
}

extern "C" int ELLGCudaSetDevice(int dev) { return (int)cudaSetDevice(dev); }
extern "C" int ELLGCudaGetDevice(int *dev) { return (int)cudaGetDevice(dev); }

extern "C" int ELLGCudaDeviceName(int dev, char *name, size_t len)
{
  cudaDeviceProp prop;
  cudaError_t    e = cudaGetDeviceProperties(&prop, dev);
  if (e != cudaSuccess) return (int)e;
  strncpy(name, prop.name, len - 1);
  name[len - 1] = 0;
  return 0;
}

extern "C" int ELLGCudaSynchronize(void) { return (int)cudaDeviceSynchronize(); }

extern "C" int ELLGCudaMalloc(void **ptr, size_t bytes)
{
  *ptr = NULL;
  if (!bytes) return 0;
  cudaError_t e = cudaMalloc(ptr, bytes);
  if (e != cudaSuccess) {
    (void)cudaGetLastError(); /* clear the sticky-free error so the caller can recover */
    *ptr = NULL;
    return (int)e;
  }
  try {
    if (!ellg_allocs) ellg_allocs = new std::unordered_map<void *, size_t>;
    (*ellg_allocs)[*ptr] = bytes;
  } catch (...) {
    (void)cudaFree(*ptr);
    *ptr = NULL;
    return ELLG_CUDA_ERROR_MEMORY;
  }
  ellg_held += bytes;
  return 0;
}

extern "C" int ELLGCudaFree(void *ptr)
{
  if (!ptr) return 0;
  if (ellg_allocs) {
    auto it = ellg_allocs->find(ptr);
    if (it != ellg_allocs->end()) {
      ellg_held -= it->second;
      ellg_allocs->erase(it);
    }
  }
  return (int)cudaFree(ptr);
}

extern "C" int ELLGCudaPointerIsDevice(const void *ptr, int *isdevice)
{
  cudaPointerAttributes attr;
  cudaError_t           e = cudaPointerGetAttributes(&attr, ptr);

  *isdevice = 0;
  if (e == cudaErrorInvalidValue) { /* a host pointer, for runtimes that say so */
    (void)cudaGetLastError();
    return 0;
  }
  if (e) return (int)e;
  *isdevice = attr.type == cudaMemoryTypeDevice || attr.type == cudaMemoryTypeManaged;
  return 0;
}

extern "C" int ELLGCudaMemHeld(size_t *bytes)
{
  *bytes = ellg_held;
  return 0;
}

/* the kinds of ellgcuda.h: 0 host->device, 1 device->host, 2 device->device */
static cudaMemcpyKind MemcpyKind(int kind)
{
  static const cudaMemcpyKind kinds[] = {cudaMemcpyHostToDevice, cudaMemcpyDeviceToHost, cudaMemcpyDeviceToDevice};
  return kinds[kind];
}

extern "C" int ELLGCudaMemcpy(void *dst, const void *src, size_t bytes, int kind)
{
  if (!bytes) return 0;
  return (int)cudaMemcpy(dst, src, bytes, MemcpyKind(kind));
}

extern "C" int ELLGCudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height, int kind)
{
  if (!width || !height) return 0;
  return (int)cudaMemcpy2D(dst, dpitch, src, spitch, width, height, MemcpyKind(kind));
}

extern "C" int ELLGCudaMemset(void *ptr, int value, size_t bytes) { return bytes ? (int)cudaMemset(ptr, value, bytes) : 0; }

extern "C" int ELLGCudaMemGetInfo(size_t *free, size_t *total) { return (int)cudaMemGetInfo(free, total); }

extern "C" int ELLGCudaStreamCreate(void **stream)
{
  cudaStream_t s = NULL;
  cudaError_t  e = cudaStreamCreate(&s);

  *stream = (void *)s;
  return (int)e;
}

extern "C" int ELLGCudaStreamDestroy(void *stream) { return stream ? (int)cudaStreamDestroy((cudaStream_t)stream) : 0; }
extern "C" int ELLGCudaStreamSynchronize(void *stream) { return (int)cudaStreamSynchronize((cudaStream_t)stream); }

extern "C" int ELLGCudaMallocHost(void **ptr, size_t bytes)
{
  *ptr = NULL;
  if (!bytes) return 0;
  cudaError_t e = cudaMallocHost(ptr, bytes);
  if (e != cudaSuccess) {
    (void)cudaGetLastError();
    *ptr = NULL;
  }
  return (int)e;
}

extern "C" int ELLGCudaFreeHost(void *ptr) { return ptr ? (int)cudaFreeHost(ptr) : 0; }

/* page-locks host memory that was allocated elsewhere, so that copies to and from it run at the link's speed; a
   failure leaves no error behind (the memory then stays pageable) */
extern "C" int ELLGCudaHostRegister(void *ptr, size_t bytes)
{
  if (!ptr || !bytes) return 0;
  cudaError_t e = cudaHostRegister(ptr, bytes, cudaHostRegisterDefault);
  if (e != cudaSuccess) (void)cudaGetLastError();
  return (int)e;
}

extern "C" int ELLGCudaHostUnregister(void *ptr)
{
  if (!ptr) return 0;
  cudaError_t e = cudaHostUnregister(ptr);
  if (e != cudaSuccess) (void)cudaGetLastError();
  return (int)e;
}

extern "C" int ELLGCudaMemcpyAsync(void *dst, const void *src, size_t bytes, int kind, void *stream)
{
  if (!bytes) return 0;
  return (int)cudaMemcpyAsync(dst, src, bytes, MemcpyKind(kind), (cudaStream_t)stream);
}

extern "C" int ELLGCublasGetHandle(void **handle)
{
  if (!ellg_cublas) {
    cublasStatus_t s = cublasCreate(&ellg_cublas);
    if (s != CUBLAS_STATUS_SUCCESS) return ELLG_CUDA_CUBLAS_BASE + (int)s;
  }
  *handle = (void *)ellg_cublas;
  return 0;
}

extern "C" int ELLGCublasDestroyHandle(void)
{
  if (ellg_cublas) {
    cublasStatus_t s = cublasDestroy(ellg_cublas);
    ellg_cublas      = NULL;
    if (s != CUBLAS_STATUS_SUCCESS) return ELLG_CUDA_CUBLAS_BASE + (int)s;
  }
  return 0;
}

extern "C" int ELLGCusparseGetHandle(void **handle)
{
  if (!ellg_cusparse) {
    cusparseHandle_t h = NULL;
    cusparseStatus_t s = cusparseCreate(&h);

    if (s == CUSPARSE_STATUS_SUCCESS) s = cusparseSetStream(h, 0);
    if (s != CUSPARSE_STATUS_SUCCESS) {
      if (h) (void)cusparseDestroy(h);
      return ELLG_CUDA_CUSPARSE_BASE + (int)s;
    }
    ellg_cusparse = h;
  }
  *handle = (void *)ellg_cusparse;
  return 0;
}

extern "C" int ELLGCusparseDestroyHandle(void)
{
  if (ellg_cusparse) {
    cusparseStatus_t s = cusparseDestroy(ellg_cusparse);
    ellg_cusparse      = NULL;
    if (s != CUSPARSE_STATUS_SUCCESS) return ELLG_CUDA_CUSPARSE_BASE + (int)s;
  }
  return 0;
}
