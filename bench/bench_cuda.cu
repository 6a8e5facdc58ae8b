/* CUDA helper of the benchmarks: event timing, copy bandwidth, memory and copies (bench_cuda.h) */
#include <algorithm>
#include <vector>
#include <string.h>
#include "bench_cudainternal.h"

extern "C" const char *BenchCudaErrorString(int err)
{
  if (err == BENCH_SELL_TOO_LARGE) return "the sliced ELL copy would hold more than 2^31 - 1 entries (32-bit slice offsets)";
  if (err == BENCH_HOST_NO_MEMORY) return "out of host memory for the conversion";
  if (err == BENCH_NOT_QUEUED) return "the timed operation waits for the device (a blocking copy, a profiler that serializes kernels), so it cannot be timed with its launch queued: time it from an idle device (bench_spmv -queued false)";
  if (err >= BENCH_CUSPARSE_BASE) return cusparseGetErrorString((cusparseStatus_t)(err - BENCH_CUSPARSE_BASE));
  return cudaGetErrorString((cudaError_t)err);
}

extern "C" int BenchCudaGetDeviceCount(int *count)
{
  if (cudaGetDeviceCount(count) != cudaSuccess) {
    *count = 0; /* no driver, no device, or a driver too old for this runtime */
    (void)cudaGetLastError();
  }
  return 0;
}

extern "C" int BenchCudaDeviceName(char *name, size_t len)
{
  cudaDeviceProp prop;
  int            dev;

  CallCuda(cudaGetDevice(&dev));
  CallCuda(cudaGetDeviceProperties(&prop, dev));
  strncpy(name, prop.name, len - 1);
  name[len - 1] = 0;
  return 0;
}

extern "C" int BenchCudaSynchronize(void)
{
  CallCuda(cudaDeviceSynchronize());
  return 0;
}

extern "C" int BenchCudaGetDevice(int *dev)
{
  CallCuda(cudaGetDevice(dev));
  return 0;
}

extern "C" int BenchCudaSetDevice(int dev)
{
  CallCuda(cudaSetDevice(dev));
  return 0;
}

extern "C" int BenchCudaClearError(void)
{
  (void)cudaGetLastError();
  CallCuda(cudaDeviceSynchronize());
  return 0;
}

extern "C" int BenchCudaMemGetFree(size_t *bytes)
{
  size_t total;

  CallCuda(cudaMemGetInfo(bytes, &total));
  return 0;
}

extern "C" int BenchCudaStreamIsOrdered(void *stream, int *ordered)
{
  unsigned int flags;

  *ordered = 1;
  if (!stream) return 0;
  CallCuda(cudaStreamGetFlags((cudaStream_t)stream, &flags));
  *ordered = !(flags & cudaStreamNonBlocking);
  return 0;
}

extern "C" int BenchCudaMalloc(void **ptr, size_t bytes)
{
  *ptr = NULL;
  if (bytes) CallCuda(cudaMalloc(ptr, bytes));
  return 0;
}

extern "C" int BenchCudaFree(void *ptr)
{
  if (ptr) CallCuda(cudaFree(ptr));
  return 0;
}

extern "C" int BenchCudaMallocHost(void **ptr, size_t bytes)
{
  *ptr = NULL;
  if (bytes) CallCuda(cudaMallocHost(ptr, bytes));
  return 0;
}

extern "C" int BenchCudaFreeHost(void *ptr)
{
  if (ptr) CallCuda(cudaFreeHost(ptr));
  return 0;
}

/* cudaMemcpy returns once src may be reused: from pageable memory the last DMA to the device may
   still run, so a timing synchronizes after it */
extern "C" int BenchCudaMemcpyHtoD(void *dst, const void *src, size_t bytes)
{
  if (bytes) CallCuda(cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice));
  return 0;
}

extern "C" int BenchCudaMemcpyDtoD(void *dst, const void *src, size_t bytes)
{
  if (bytes) CallCuda(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToDevice));
  return 0;
}

struct _n_BenchCudaTimer {
  cudaEvent_t start, stop;
  double      hold_us; /* of a queued start */
  int         queued;  /* the last start was queued */
};

/* the longest hold of a queued start, in microseconds */
#define BENCH_MAX_HOLD_US 1e5

/* one thread that returns once ns nanoseconds of the global timer have passed */
__global__ void HoldKernel(unsigned long long ns)
{
  unsigned long long t0, t;

  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  do {
    __nanosleep(1000);
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  } while (t - t0 < ns);
}

extern "C" int BenchCudaTimerCreate(BenchCudaTimer *timer)
{
  BenchCudaTimer t = new _n_BenchCudaTimer();

  *timer     = t;
  t->hold_us = 50.0;
  CallCuda(cudaEventCreate(&t->start));
  CallCuda(cudaEventCreate(&t->stop));
  return 0;
}

extern "C" int BenchCudaTimerStart(BenchCudaTimer timer, int queued)
{
  timer->queued = queued;
  if (queued) {
    HoldKernel<<<1, 1>>>((unsigned long long)(1e3 * timer->hold_us));
    CallCuda(cudaGetLastError());
  }
  CallCuda(cudaEventRecord(timer->start, 0));
  return 0;
}

extern "C" int BenchCudaTimerStop(BenchCudaTimer timer, double *ms, int *again)
{
  float elapsed;

  *again = 0;
  CallCuda(cudaEventRecord(timer->stop, 0));
  if (timer->queued) {
    const cudaError_t reached = cudaEventQuery(timer->start);

    if (reached == cudaSuccess) {
      *again = 1;
      timer->hold_us *= 2.0;
    } else if (reached != cudaErrorNotReady) CallCuda(reached);
  }
  CallCuda(cudaEventSynchronize(timer->stop));
  if (timer->hold_us > BENCH_MAX_HOLD_US) return BENCH_NOT_QUEUED;
  CallCuda(cudaEventElapsedTime(&elapsed, timer->start, timer->stop));
  *ms = elapsed;
  return 0;
}

extern "C" int BenchCudaTimerDestroy(BenchCudaTimer *timer)
{
  BenchCudaTimer t = *timer;

  *timer = NULL;
  if (!t) return 0;
  if (t->start) CallCuda(cudaEventDestroy(t->start));
  if (t->stop) CallCuda(cudaEventDestroy(t->stop));
  delete t;
  return 0;
}

static double Median(std::vector<double> v)
{
  std::sort(v.begin(), v.end());
  size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

__global__ void EmptyKernel() {}

extern "C" int BenchCudaEmptyKernel(void)
{
  EmptyKernel<<<1, 32>>>();
  return (int)cudaGetLastError();
}

__global__ void CopyKernel(size_t n, const double *__restrict__ src, double *__restrict__ dst)
{
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) dst[i] = src[i];
}

static int CopyBandwidth(size_t n, int reps, double *src, double *dst, double *memcpy_Bps, double *kernel_Bps)
{
  const int           threads = 256;
  int                 blocks, dev, sms;
  std::vector<double> tm(reps), tk(reps);

  CallCuda(cudaGetDevice(&dev));
  CallCuda(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  blocks = 32 * sms;
  CallCuda(cudaMemset(src, 0, n * sizeof(double)));
  CallBench(TimeRuns(0, 1, reps, tm.data(), [&]() -> int {
    CallCuda(cudaMemcpyAsync(dst, src, n * sizeof(double), cudaMemcpyDeviceToDevice, 0));
    return 0;
  }));
  CallBench(TimeRuns(0, 1, reps, tk.data(), [&]() -> int {
    CopyKernel<<<blocks, threads>>>(n, src, dst);
    CallCuda(cudaGetLastError());
    return 0;
  }));
  *memcpy_Bps = 2.0 * n * sizeof(double) / (1e-3 * Median(tm));
  *kernel_Bps = 2.0 * n * sizeof(double) / (1e-3 * Median(tk));
  return 0;
}

extern "C" int BenchCudaCopyBandwidth(size_t bytes, int reps, double *memcpy_Bps, double *kernel_Bps)
{
  size_t  n = bytes / sizeof(double);
  double *src = NULL, *dst = NULL;
  int     err;

  CallCuda(cudaMalloc(&src, n * sizeof(double)));
  if ((err = (int)cudaMalloc(&dst, n * sizeof(double)))) {
    (void)cudaGetLastError();
    cudaFree(src);
    return err;
  }
  err = CopyBandwidth(n, reps, src, dst, memcpy_Bps, kernel_Bps);
  cudaFree(src);
  cudaFree(dst);
  return err;
}
