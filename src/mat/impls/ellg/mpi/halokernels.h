/*
   The device side of the halo exchange of the parallel types, behind a plain C interface (no PETSc
   here). Each function exists once per backend with the same arguments: ELLGCudaHalo* (halo.cu,
   returning 0 or a cudaError_t) and ELLGHostHalo* (halohost.c, plain loops; the host backend has
   no streams: everything is done when the call returns).

   stream is an exchange stream of ELLGCudaHaloStreamCreate(), or NULL for the stream the products
   and vector operations run on (CUDA's legacy default stream). The exchange stream does not
   synchronise with that one by itself: ordering is through the StreamWait*() functions.
*/
#pragma once
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

int ELLGCudaHaloStreamCreate(void **stream);
int ELLGCudaHaloStreamDestroy(void *stream);
int ELLGCudaHaloStreamWaitCompute(void *stream); /* work queued on stream from now on waits for the products queued so far */
int ELLGCudaHaloComputeWaitStream(void *stream); /* products queued from now on wait for the work queued on stream so far */
int ELLGCudaHaloStreamSynchronize(void *stream);
int ELLGCudaHaloMallocPinned(void **ptr, size_t bytes); /* page-locked host memory */
int ELLGCudaHaloFreePinned(void *ptr);
int ELLGCudaHaloCopy(void *stream, void *dst, const void *src, size_t bytes); /* between any memories, asynchronous */
/* buf[i] = x[idx[i]], i < n */
int ELLGCudaHaloGather(void *stream, int n, const int *idx, const double *x, double *buf);
/* y[idx[i]] = buf[i] (add: y[idx[i]] += buf[i]), i < n; the idx[i] are distinct */
int ELLGCudaHaloScatter(void *stream, int n, const int *idx, const double *buf, double *y, int add);

void ELLGHostHaloCopy(void *stream, void *dst, const void *src, size_t bytes);
void ELLGHostHaloGather(void *stream, int n, const int *idx, const double *x, double *buf);
void ELLGHostHaloScatter(void *stream, int n, const int *idx, const double *buf, double *y, int add);

#ifdef __cplusplus
}
#endif
