/*
   Helpers of the benchmarks: errors of the CUDA helper as PETSc errors, the GPU they time on, timing
   loops with medians, JSON output (bench_common.c).
*/
#pragma once
#include <petscmat.h>
#include <petscellg.h>
#include "bench_cuda.h"

/* the largest relative difference from AIJ's product that counts as the same product */
#define REL_TOL 1e-12
/* the same for a product with single-precision values (-mat_gpu_value_precision single): each value rounded by at most
   2^-24 of itself */
#define REL_TOL_SINGLE 1e-5

/* the formats a benchmark times when -formats is not given: each of our formats (not aijgpu, which chooses one of
   them); *n of them, allocated into formats[] */
#define BENCH_DEFAULT_FORMATS 4
static inline PetscErrorCode BenchDefaultFormats(PetscInt *n, char *formats[])
{
  const char *names[BENCH_DEFAULT_FORMATS] = {MATELLG, MATPJDS, MATSLICEDELL, MATCSRG};

  PetscFunctionBeginUser;
  for (PetscInt f = 0; f < BENCH_DEFAULT_FORMATS; f++) PetscCall(PetscStrallocpy(names[f], &formats[f]));
  *n = BENCH_DEFAULT_FORMATS;
  PetscFunctionReturn(0);
}

/* the device bytes of a matrix of our types (MatELLGGetFormat()), -1 for another type; and those it keeps for
   values-only updates (kept, if not NULL) */
static inline PetscErrorCode BenchDeviceBytes(Mat A, PetscReal *bytes, PetscReal *kept)
{
  const char    *format;
  PetscLogDouble b, u;

  PetscFunctionBeginUser;
  PetscCall(MatELLGGetFormat(A, &format, &b, &u));
  *bytes = format ? (PetscReal)b : -1;
  if (kept) *kept = (PetscReal)u;
  PetscFunctionReturn(0);
}

#if defined(BENCH_HAVE_CUDA)
/* what reported an error code of the CUDA helper (bench_cuda.h) */
static inline const char *BenchCudaErrorSource(int err)
{
  return err >= BENCH_HELPER_BASE ? "Error" : err >= BENCH_CUSPARSE_BASE ? "cuSPARSE error" : "CUDA error";
}

  #define PetscCallBenchCuda(...) \
    do { \
      int bench_err_ = (__VA_ARGS__); \
      PetscCheck(!bench_err_, PETSC_COMM_SELF, PETSC_ERR_LIB, "%s %d in the bench's CUDA helper: %s", BenchCudaErrorSource(bench_err_), bench_err_ % BENCH_CUSPARSE_BASE, BenchCudaErrorString(bench_err_)); \
    } while (0)
#endif

/* Median - the median of t[0..n-1] (sorts t), 0 when n is 0 */
static inline PetscErrorCode Median(PetscInt n, PetscReal t[], PetscReal *median)
{
  PetscFunctionBeginUser;
  *median = 0.0;
  if (!n) PetscFunctionReturn(0);
  PetscCall(PetscSortReal(n, t));
  *median = n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
  PetscFunctionReturn(0);
}

/* RelativeError - ||y - yref|| / ||yref|| over the local entries (||y - yref|| when yref is 0) */
PetscErrorCode RelativeError(Vec y, Vec yref, PetscReal *relerr);

/* BenchDevice - the GPU of the timings: device is set when the CUDA helper is built in and a GPU is
   usable (then name, and a timer of CUDA events), else none says why not */
typedef struct {
  PetscBool      device;
  char           name[256];
  char           none[64];
  BenchCudaTimer timer;
} BenchDevice;

PetscErrorCode BenchDeviceSetUp(BenchDevice *d);

/* BenchSynchronizedTime - the wall clock once the work on the GPU (if there is one) is done */
static inline PetscErrorCode BenchSynchronizedTime(BenchDevice *d, PetscLogDouble *t)
{
  PetscFunctionBeginUser;
#if defined(BENCH_HAVE_CUDA)
  if (d->device) PetscCallBenchCuda(BenchCudaSynchronize());
#endif
  PetscCall(PetscTime(t));
  PetscFunctionReturn(0);
}

static inline PetscErrorCode BenchDeviceDestroy(BenchDevice *d)
{
  PetscFunctionBeginUser;
#if defined(BENCH_HAVE_CUDA)
  PetscCallBenchCuda(BenchCudaTimerDestroy(&d->timer));
#endif
  PetscFunctionReturn(0);
}

/* BenchTime - medians of reps runs of op(ctx) after warmup untimed ones. on_device: ms between CUDA
   events around op, from an idle device (synchronized before and after) or, with queued, with op
   launched while a kernel holds the device (BenchCudaTimerStart(): the device's time alone, without the
   host's launch latency; a run is then op twice, from an idle device for wall_ms, then queued for ms);
   else ms by wall clock. wall_ms: by wall clock, from an idle device until op's work is done */
PetscErrorCode BenchTime(BenchDevice *d, PetscBool on_device, PetscBool queued, PetscInt warmup, PetscInt reps, PetscErrorCode (*op)(void *), void *ctx, PetscReal *ms, PetscReal *wall_ms);

/* BenchAppend - one more element of size bytes, zeroed, at the end of *array, which holds *n of room for
   *max (doubled when full) */
static inline PetscErrorCode BenchAppend(size_t size, void **array, PetscInt *n, PetscInt *max, void **elem)
{
  PetscFunctionBeginUser;
  if (*n == *max) {
    *max = PetscMax(16, 2 * *max);
    PetscCall(PetscRealloc(*max * size, array));
  }
  *elem = (char *)*array + (*n)++ * size;
  PetscCall(PetscMemzero(*elem, size));
  PetscFunctionReturn(0);
}

/* JSONNumber - "key": v (or null when not valid), then sep */
static inline PetscErrorCode JSONNumber(FILE *fp, const char *key, PetscReal v, PetscBool valid, const char *sep)
{
  PetscFunctionBeginUser;
  if (valid) PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "\"%s\": %.6g%s", key, (double)v, sep));
  else PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "\"%s\": null%s", key, sep));
  PetscFunctionReturn(0);
}

/* JSONString - s as a JSON string */
PetscErrorCode JSONString(FILE *fp, const char *s);
