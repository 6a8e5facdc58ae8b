/* Streams beside the one the products and vector operations run on, pinned host memory,
   asynchronous copies, and gather/scatter kernels through an index list */
#include <cuda_runtime.h>
#include "ellgcuda.h"

typedef struct {
  cudaStream_t stream;
  cudaEvent_t  compute; /* recorded on the compute stream, waited for by the stream */
  cudaEvent_t  done;    /* recorded on the stream, waited for by the compute stream */
} Stream;

static cudaStream_t StreamOf(void *s) { return s ? ((Stream *)s)->stream : (cudaStream_t)0; }

extern "C" int ELLGCudaStreamCreate(void **stream)
{
  Stream *s = new Stream;
  int         least, greatest;
  cudaError_t e = cudaDeviceGetStreamPriorityRange(&least, &greatest);
  /* the highest priority: its small kernels start before the waiting blocks of a large product */
  if (e == cudaSuccess) e = cudaStreamCreateWithPriority(&s->stream, cudaStreamNonBlocking, greatest);
  if (e == cudaSuccess) e = cudaEventCreateWithFlags(&s->compute, cudaEventDisableTiming);
  if (e == cudaSuccess) e = cudaEventCreateWithFlags(&s->done, cudaEventDisableTiming);
  if (e != cudaSuccess) {
    delete s;
    return (int)e;
  }
  *stream = s;
  return 0;
}

extern "C" int ELLGCudaStreamDestroy(void *stream)
{
  Stream *s = (Stream *)stream;
  cudaError_t e = cudaSuccess, e2;
  if (!s) return 0;
  e  = cudaStreamDestroy(s->stream);
  e2 = cudaEventDestroy(s->compute);
  if (e == cudaSuccess) e = e2;
  e2 = cudaEventDestroy(s->done);
  if (e == cudaSuccess) e = e2;
  delete s;
  return (int)e;
}

extern "C" int ELLGCudaStreamWaitCompute(void *stream)
{
  Stream *s = (Stream *)stream;
  cudaError_t e = cudaEventRecord(s->compute, 0);
  if (e == cudaSuccess) e = cudaStreamWaitEvent(s->stream, s->compute, 0);
  return (int)e;
}

extern "C" int ELLGCudaComputeWaitStream(void *stream)
{
  Stream *s = (Stream *)stream;
  cudaError_t e = cudaEventRecord(s->done, s->stream);
  if (e == cudaSuccess) e = cudaStreamWaitEvent(0, s->done, 0);
  return (int)e;
}

extern "C" int ELLGCudaStreamSynchronize(void *stream) { return (int)cudaStreamSynchronize(StreamOf(stream)); }

extern "C" int ELLGCudaMallocPinned(void **ptr, size_t bytes) { return (int)cudaMallocHost(ptr, bytes ? bytes : 1); }

extern "C" int ELLGCudaFreePinned(void *ptr) { return ptr ? (int)cudaFreeHost(ptr) : 0; }

extern "C" int ELLGCudaCopyAsync(void *stream, void *dst, const void *src, size_t bytes)
{
  return bytes ? (int)cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, StreamOf(stream)) : 0;
}

__global__ void GatherKernel(int n, const int *__restrict__ idx, const double *__restrict__ x, double *__restrict__ buf)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) buf[i] = x[idx[i]];
}

__global__ void ScatterKernel(int n, const int *__restrict__ idx, const double *__restrict__ buf, double *__restrict__ y, int add)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[idx[i]] = add ? y[idx[i]] + buf[i] : buf[i];
}

extern "C" int ELLGCudaGather(void *stream, int n, const int *idx, const double *x, double *buf)
{
  if (n <= 0) return 0;
  GatherKernel<<<(n + 255) / 256, 256, 0, StreamOf(stream)>>>(n, idx, x, buf);
  return (int)cudaGetLastError();
}

extern "C" int ELLGCudaScatter(void *stream, int n, const int *idx, const double *buf, double *y, int add)
{
  if (n <= 0) return 0;
  ScatterKernel<<<(n + 255) / 256, 256, 0, StreamOf(stream)>>>(n, idx, buf, y, add);
  return (int)cudaGetLastError();
}
