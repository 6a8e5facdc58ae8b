/* The exchange stream (a high-priority stream with the events that order it against the legacy
   default stream, on which the products run) and the ordering of other streams against the default
   stream */
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
