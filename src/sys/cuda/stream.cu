/* The exchange stream (a high-priority stream with the events that order it against the legacy
   default stream, on which the products run), the ordering of other streams against the default
   stream, and gather/scatter kernels through an index list */
#include <cuda_runtime.h>
#include "ellgcuda.h"

typedef struct {
  cudaStream_t stream;
  cudaEvent_t  compute; /* recorded on the legacy default stream, waited for by the exchange stream */
  cudaEvent_t  done;    /* recorded on the exchange stream, waited for by the legacy default stream */
} ExchangeStream;

extern "C" int ELLGCudaExchangeStreamCreate(void **exchange)
{
  ExchangeStream *s = new ExchangeStream;
  int             least, greatest;
  cudaError_t     e = cudaDeviceGetStreamPriorityRange(&least, &greatest);

  /* the highest priority: its small kernels start before the waiting blocks of a large product */
  if (e == cudaSuccess) e = cudaStreamCreateWithPriority(&s->stream, cudaStreamNonBlocking, greatest);
  if (e == cudaSuccess) e = cudaEventCreateWithFlags(&s->compute, cudaEventDisableTiming);
  if (e == cudaSuccess) e = cudaEventCreateWithFlags(&s->done, cudaEventDisableTiming);
  if (e != cudaSuccess) {
    delete s;
    return (int)e;
  }
  *exchange = s;
  return 0;
}

extern "C" int ELLGCudaExchangeStreamDestroy(void *exchange)
{
  ExchangeStream *s = (ExchangeStream *)exchange;
  cudaError_t     e, e2;

  if (!s) return 0;
  e  = cudaStreamDestroy(s->stream);
  e2 = cudaEventDestroy(s->compute);
  if (e == cudaSuccess) e = e2;
  e2 = cudaEventDestroy(s->done);
  if (e == cudaSuccess) e = e2;
  delete s;
  return (int)e;
}

extern "C" void *ELLGCudaExchangeStreamHandle(void *exchange) { return (void *)((ExchangeStream *)exchange)->stream; }

extern "C" int ELLGCudaExchangeStreamWaitCompute(void *exchange)
{
  ExchangeStream *s = (ExchangeStream *)exchange;
  cudaError_t     e = cudaEventRecord(s->compute, 0);

  if (e == cudaSuccess) e = cudaStreamWaitEvent(s->stream, s->compute, 0);
  return (int)e;
}

extern "C" int ELLGCudaComputeWaitExchangeStream(void *exchange)
{
  ExchangeStream *s = (ExchangeStream *)exchange;
  cudaError_t     e = cudaEventRecord(s->done, s->stream);

  if (e == cudaSuccess) e = cudaStreamWaitEvent(0, s->done, 0);
  return (int)e;
}

/* work queued on stream `to` from now on waits for the work queued so far on `from` */
static int StreamWait(cudaStream_t to, cudaStream_t from)
{
  cudaEvent_t ev;
  cudaError_t e = cudaEventCreateWithFlags(&ev, cudaEventDisableTiming);

  if (e != cudaSuccess) return (int)e;
  e = cudaEventRecord(ev, from);
  if (e == cudaSuccess) e = cudaStreamWaitEvent(to, ev, 0);
  cudaError_t e2 = cudaEventDestroy(ev); /* released once the wait is done */
  return (int)(e == cudaSuccess ? e2 : e);
}

extern "C" int ELLGCudaDefaultStreamWait(void *stream) { return StreamWait(0, (cudaStream_t)stream); }

extern "C" int ELLGCudaStreamWaitDefault(void *stream) { return StreamWait((cudaStream_t)stream, 0); }

/* the rows idx of the columns blockIdx.y, blockIdx.y + gridDim.y, ... of x (leading dimension ldx) into those of buf (leading dimension ldb) */
__global__ void GatherKernel(int n, int ncols, const int *__restrict__ idx, const double *__restrict__ x, size_t ldx, double *__restrict__ buf, size_t ldb)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  for (int j = blockIdx.y; j < ncols; j += gridDim.y) buf[j * ldb + i] = x[j * ldx + idx[i]];
}

/* column blockIdx.y of buf (leading dimension ldb) into the rows idx of column blockIdx.y of y (leading dimension ldy) */
__global__ void ScatterKernel(int n, const int *__restrict__ idx, const double *__restrict__ buf, size_t ldb, double *__restrict__ y, size_t ldy, int add)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const double v = buf[blockIdx.y * ldb + i];
  double      *t = y + blockIdx.y * ldy + idx[i];
  *t             = add ? *t + v : v;
}

extern "C" int ELLGCudaGather(void *stream, int n, const int *idx, const double *x, double *buf)
{
  return ELLGCudaGatherColumns(stream, n, 1, idx, x, 0, buf, 0);
}

extern "C" int ELLGCudaGatherColumns(void *stream, int n, int ncols, const int *idx, const double *x, int ldx, double *buf, int ldb)
{
  if (n <= 0 || ncols <= 0) return 0;
  GatherKernel<<<dim3((n + 255) / 256, ncols < 65535 ? ncols : 65535), 256, 0, (cudaStream_t)stream>>>(n, ncols, idx, x, (size_t)ldx, buf, (size_t)ldb);
  return (int)cudaGetLastError();
}

extern "C" int ELLGCudaScatter(void *stream, int n, const int *idx, const double *buf, double *y, int add)
{
  return ELLGCudaScatterColumns(stream, n, 1, idx, buf, 0, y, 0, add);
}

extern "C" int ELLGCudaScatterColumns(void *stream, int n, int ncols, const int *idx, const double *buf, int ldb, double *y, int ldy, int add)
{
  if (n <= 0 || ncols <= 0) return 0;
  ScatterKernel<<<dim3((n + 255) / 256, ncols), 256, 0, (cudaStream_t)stream>>>(n, idx, buf, (size_t)ldb, y, (size_t)ldy, add);
  return (int)cudaGetLastError();
}
