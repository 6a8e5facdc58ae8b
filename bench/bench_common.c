/* Helpers of the benchmarks (bench_common.h) */
#include "bench_common.h"

PetscErrorCode RelativeError(Vec y, Vec yref, PetscReal *relerr)
{
  const PetscScalar *a, *aref;
  PetscInt           n;
  PetscReal          d = 0, r = 0;

  PetscFunctionBeginUser;
  PetscCall(VecGetLocalSize(yref, &n));
  PetscCall(VecGetArrayRead(y, &a));
  PetscCall(VecGetArrayRead(yref, &aref));
  for (PetscInt i = 0; i < n; i++) {
    d += PetscRealPart(PetscConj(a[i] - aref[i]) * (a[i] - aref[i]));
    r += PetscRealPart(PetscConj(aref[i]) * aref[i]);
  }
  PetscCall(VecRestoreArrayRead(y, &a));
  PetscCall(VecRestoreArrayRead(yref, &aref));
  *relerr = r > 0 ? PetscSqrtReal(d / r) : PetscSqrtReal(d);
  PetscFunctionReturn(0);
}

PetscErrorCode BenchDeviceSetUp(BenchDevice *d)
{
  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(d, sizeof(*d)));
#if defined(BENCH_HAVE_CUDA)
  {
    int ndev;

    PetscCallBenchCuda(BenchCudaGetDeviceCount(&ndev));
    if (ndev) {
      d->device = PETSC_TRUE;
      PetscCallBenchCuda(BenchCudaDeviceName(d->name, sizeof(d->name)));
      PetscCallBenchCuda(BenchCudaTimerCreate(&d->timer));
    } else PetscCall(PetscStrncpy(d->none, "no usable CUDA device", sizeof(d->none)));
  }
#else
  PetscCall(PetscStrncpy(d->none, "bench built without CUDA", sizeof(d->none)));
#endif
  PetscFunctionReturn(0);
}

PetscErrorCode BenchTime(BenchDevice *d, PetscBool on_device, PetscBool queued, PetscInt warmup, PetscInt reps, PetscErrorCode (*op)(void *), void *ctx, PetscReal *ms, PetscReal *wall_ms)
{
  PetscReal     *tev, *twall;
  PetscLogDouble t0, t1;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc2(reps, &tev, reps, &twall));
  for (PetscInt r = -warmup; r < reps;) {
    double ev = 0;
    int    again = 0;

#if defined(BENCH_HAVE_CUDA)
    if (on_device) {
      PetscCallBenchCuda(BenchCudaSynchronize());
      PetscCall(PetscTime(&t0));
      PetscCallBenchCuda(BenchCudaTimerStart(d->timer, 0));
      PetscCall(op(ctx));
      PetscCallBenchCuda(BenchCudaTimerStop(d->timer, &ev, &again));
      PetscCallBenchCuda(BenchCudaSynchronize());
      PetscCall(PetscTime(&t1));
      if (queued) { /* ev again, the run queued */
        PetscCallBenchCuda(BenchCudaTimerStart(d->timer, 1));
        PetscCall(op(ctx));
        PetscCallBenchCuda(BenchCudaTimerStop(d->timer, &ev, &again));
      }
    } else
#endif
    {
      PetscCall(PetscTime(&t0));
      PetscCall(op(ctx));
      PetscCall(PetscTime(&t1));
      ev = 1e3 * (t1 - t0);
    }
    if (again) continue;
    if (r >= 0) {
      tev[r]   = ev;
      twall[r] = 1e3 * (t1 - t0);
    }
    r++;
  }
  PetscCall(Median(reps, tev, ms));
  PetscCall(Median(reps, twall, wall_ms));
  PetscCall(PetscFree2(tev, twall));
  PetscFunctionReturn(0);
}

PetscErrorCode JSONString(FILE *fp, const char *s)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "\""));
  for (; *s; s++) {
    if (*s == '"' || *s == '\\') PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "\\%c", *s));
    else if ((unsigned char)*s < 0x20) PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "\\u%04x", (unsigned)*s));
    else PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "%c", *s));
  }
  PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "\""));
  PetscFunctionReturn(0);
}
