/* What the CUDA helper's sources (bench_cuda.cu, bench_cusparse.cu) share: error checks, with which a
   failed call returns its error code as bench_cuda.h describes them, and a loop of event-timed runs */
#pragma once
#include <cuda_runtime.h>
#include <cusparse.h>
#include "bench_cuda.h"

#define CallCuda(call) \
  do { \
    cudaError_t e_ = (call); \
    if (e_ != cudaSuccess) { \
      (void)cudaGetLastError(); \
      return (int)e_; \
    } \
  } while (0)
#define CallCusparse(call) \
  do { \
    cusparseStatus_t s_ = (call); \
    if (s_ != CUSPARSE_STATUS_SUCCESS) return BENCH_CUSPARSE_BASE + (int)s_; \
  } while (0)
#define CallBench(call) \
  do { \
    int e_ = (call); \
    if (e_) return e_; \
  } while (0)

/* warmup runs of op() (which returns an error code), then reps timed ones, each between two events on
   the legacy default stream, queued or not (BenchCudaTimerStart()): ms[0..reps-1] */
template <class Op>
static int TimeRuns(int queued, int warmup, int reps, double *ms, Op op)
{
  BenchCudaTimer timer = NULL;
  int            err   = BenchCudaTimerCreate(&timer), destroyed;

  for (int r = -warmup; r < reps && !err;) {
    double t;
    int    again = 0;

    err = BenchCudaTimerStart(timer, queued);
    if (!err) err = op();
    if (!err) err = BenchCudaTimerStop(timer, &t, &again);
    if (err || again) continue;
    if (r >= 0) ms[r] = t;
    r++;
  }
  destroyed = BenchCudaTimerDestroy(&timer);
  return err ? err : destroyed;
}
