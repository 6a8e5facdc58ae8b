/* PETSc's own CUDA matrix types in bench_spmv (bench_spmv_petsccuda.h) */
#include "bench_spmv_petsccuda.h"

#if defined(PETSC_HAVE_CUDA)
/* The types of the run (-petsc_types), and why their rows are not run (empty when they are) */
static struct {
  PetscInt n;
  char    *types[BENCH_MAX_LIST];
  char     why[160];
} PetscCudaRows;

PetscErrorCode PetscCudaRowsPreInitialize(void)
{
  return PetscOptionsSetValue(NULL, "-use_gpu_aware_mpi", "0");
}

PetscErrorCode PetscCudaRowsDestroy(void)
{
  PetscFunctionBeginUser;
  for (PetscInt t = 0; t < PetscCudaRows.n; t++) PetscCall(PetscFree(PetscCudaRows.types[t]));
  PetscCudaRows.n = 0;
  PetscFunctionReturn(0);
}

  #if defined(BENCH_HAVE_CUDA)
PetscErrorCode PetscCudaDeviceCheck(char *why, size_t len)
{
  PetscDeviceContext dctx;
  PetscDevice        device;
  PetscDeviceType    type;
  PetscInt           id;
  void              *handle;
  int                dev, current, ordered;

  PetscFunctionBeginUser;
  PetscCallBenchCuda(BenchCudaGetDevice(&dev));
  PetscCall(PetscDeviceInitialize(PETSC_DEVICE_CUDA));
  PetscCall(PetscDeviceContextGetCurrentContext(&dctx));
  PetscCallBenchCuda(BenchCudaGetDevice(&current));
  if (current != dev) PetscCallBenchCuda(BenchCudaSetDevice(dev));
  PetscCall(PetscDeviceContextGetDeviceType(dctx, &type));
  if (type != PETSC_DEVICE_CUDA) {
    PetscCall(PetscSNPrintf(why, len, "PETSc's device context is of type %s, not CUDA", PetscDeviceTypes[type]));
    PetscFunctionReturn(0);
  }
  PetscCall(PetscDeviceContextGetDevice(dctx, &device));
  PetscCall(PetscDeviceGetDeviceId(device, &id));
  if (id != dev) {
    PetscCall(PetscSNPrintf(why, len, "PETSc uses CUDA device %" PetscInt_FMT ", the bench device %d: give -device_select %d", id, dev, dev));
    PetscFunctionReturn(0);
  }
  PetscCall(PetscDeviceContextGetStreamHandle(dctx, &handle));
  PetscCallBenchCuda(BenchCudaStreamIsOrdered(*(void **)handle, &ordered));
  if (!ordered) PetscCall(PetscSNPrintf(why, len, "PETSc's device context runs on a non-blocking stream, which the bench's events do not see (-root_device_context_stream_type)"));
  PetscFunctionReturn(0);
}

  #endif
PetscErrorCode PetscCudaRowsSetUp(Bench *b)
{
  PetscBool set;

  PetscFunctionBeginUser;
  PetscCudaRows.n = BENCH_MAX_LIST;
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "PETSc's own CUDA types in bench_spmv", NULL);
  PetscCall(PetscOptionsStringArray("-petsc_types", "PETSc's CUDA matrix types timed next to ours (list; none: no rows)", NULL, PetscCudaRows.types, &PetscCudaRows.n, &set));
  PetscOptionsEnd();
  if (!set) {
    PetscCudaRows.n = 2;
    PetscCall(PetscStrallocpy(MATAIJCUSPARSE, &PetscCudaRows.types[0]));
    PetscCall(PetscStrallocpy(MATSELLCUDA, &PetscCudaRows.types[1]));
  } else if (PetscCudaRows.n == 1 && !strcmp(PetscCudaRows.types[0], "none")) PetscCall(PetscCudaRowsDestroy());
  PetscCall(PetscRegisterFinalize(PetscCudaRowsDestroy));
  PetscCall(PetscStrncpy(PetscCudaRows.why, b->dev.device ? "" : b->dev.none, sizeof(PetscCudaRows.why)));
  #if defined(BENCH_HAVE_CUDA)
  if (b->dev.device && PetscCudaRows.n) {
    ErrorCapture   capture = {.set = PETSC_FALSE};
    PetscErrorCode ierr;

    PetscCall(PetscPushErrorHandler(CaptureError, &capture));
    ierr = PetscCudaDeviceCheck(PetscCudaRows.why, sizeof(PetscCudaRows.why));
    PetscCall(PetscPopErrorHandler());
    if (ierr) {
      PetscCall(PetscSNPrintf(PetscCudaRows.why, sizeof(PetscCudaRows.why), "PETSc's CUDA device could not be set up: %s", capture.message));
      PetscCallBenchCuda(BenchCudaClearError());
    }
  }
  #endif
  PetscFunctionReturn(0);
}

  #if defined(BENCH_HAVE_CUDA)
PetscErrorCode PetscCudaRowDestroy(PetscCudaRow *o)
{
  PetscFunctionBeginUser;
  PetscCall(MatDestroy(&o->aij));
  PetscCall(MatDestroy(&o->A));
  PetscCall(VecDestroy(&o->x));
  PetscCall(VecDestroy(&o->y));
  PetscFunctionReturn(0);
}

PetscErrorCode PetscCudaMult(void *ctx)
{
  PetscCudaRow *o = (PetscCudaRow *)ctx;

  PetscFunctionBeginUser;
  PetscCall(MatMult(o->A, o->x, o->y));
  PetscFunctionReturn(0);
}

PetscErrorCode PetscCudaBuild(Bench *b, const CSR *csr, const char *type, Vec x, PetscCudaRow *o, Result *r)
{
  const char        *root = strncmp(type, "seq", 3) ? type : type + 3;
  const PetscBool    sell = (PetscBool)(!strncmp(root, "sell", 4) && strcmp(root, "sell"));
  const PetscScalar *xa;
  size_t             free0, free1;
  PetscLogDouble     t0, t1;

  PetscFunctionBeginUser;
  PetscCall(VecCreate(PETSC_COMM_SELF, &o->x));
  PetscCall(VecSetSizes(o->x, csr->ncols, csr->ncols));
  PetscCall(VecSetType(o->x, VECCUDA));
  PetscCall(VecCreate(PETSC_COMM_SELF, &o->y));
  PetscCall(VecSetSizes(o->y, csr->nrows, csr->nrows));
  PetscCall(VecSetType(o->y, VECCUDA));
  PetscCall(VecCopy(x, o->x));
  PetscCall(VecCUDAGetArrayRead(o->x, &xa)); /* copies x to the device */
  PetscCall(VecCUDARestoreArrayRead(o->x, &xa));
  PetscCall(VecSet(o->y, 0.0)); /* on the device */
  PetscCallBenchCuda(BenchCudaSynchronize());
  PetscCallBenchCuda(BenchCudaMemGetFree(&free0));
  PetscCall(PetscTime(&t0));
  PetscCall(MatCreateSeqAIJWithArrays(PETSC_COMM_SELF, csr->nrows, csr->ncols, csr->rowptr, csr->colidx, csr->val, &o->aij));
  PetscCall(MatConvert(o->aij, sell ? MATSELL : type, MAT_INITIAL_MATRIX, &o->A));
  PetscCall(MatDestroy(&o->aij));
  if (sell) PetscCall(MatConvert(o->A, type, MAT_INPLACE_MATRIX, &o->A));
  PetscCall(MatMult(o->A, o->x, o->y));
  PetscCall(BenchSynchronizedTime(&b->dev, &t1));
  PetscCallBenchCuda(BenchCudaMemGetFree(&free1));
  r->conv_ms = 1e3 * (t1 - t0);
  r->bytes   = free1 < free0 ? (PetscReal)(free0 - free1) : 0;
  PetscFunctionReturn(0);
}

PetscErrorCode PetscCudaTime(Bench *b, BenchDevice *dev, PetscBool queued, PetscCudaRow *o, Result *r)
{
  PetscFunctionBeginUser;
  PetscCall(VecZeroEntries(o->y)); /* no stale product can pass the check */
  if (b->check_only) PetscCall(MatMult(o->A, o->x, o->y));
  else {
    r->reps = b->reps;
    PetscCall(BenchTime(dev, PETSC_TRUE, queued, b->warmup, b->reps, PetscCudaMult, o, &r->ms, &r->wall_ms));
  }
  PetscFunctionReturn(0);
}

PetscBool PetscCudaNotQueued(BenchCudaTimer timer)
{
  double ms;
  int    again, err = BenchCudaTimerStart(timer, 0);

  if (!err) err = BenchCudaTimerStop(timer, &ms, &again);
  return (PetscBool)(err == BENCH_NOT_QUEUED);
}

PetscErrorCode PetscCudaTimeIdle(Bench *b, BenchDevice *dev, PetscCudaRow *o, Result *r)
{
  PetscFunctionBeginUser;
  PetscCallBenchCuda(BenchCudaTimerDestroy(&dev->timer));
  PetscCallBenchCuda(BenchCudaTimerCreate(&dev->timer));
  PetscCall(PetscCudaTime(b, dev, PETSC_FALSE, o, r));
  PetscCall(PetscStrlcat(r->variant, "/idle", sizeof(r->variant)));
  PetscFunctionReturn(0);
}

  #endif
PetscErrorCode RunPetscCudaType(Bench *b, const CSR *csr, const char *type, Vec x, Vec yref)
{
  Result *r;

  PetscFunctionBeginUser;
  PetscCall(BenchAddResult(b, csr, "petsc", type, "GPU", &r));
  PetscCall(PetscStrncpy(r->vectors, VECSEQCUDA, sizeof(r->vectors)));
  PetscCall(PetscStrncpy(r->backend, "cuda", sizeof(r->backend)));
  if (PetscCudaRows.why[0]) {
    PetscCall(PetscStrncpy(r->skipped, PetscCudaRows.why, sizeof(r->skipped)));
    PetscFunctionReturn(0);
  }
  #if defined(BENCH_HAVE_CUDA)
  {
    PetscCudaRow   o       = {NULL, NULL, NULL, NULL};
    ErrorCapture   capture = {.set = PETSC_FALSE};
    BenchDevice    dev     = b->dev; /* with a timer of its own */
    const char    *step    = "conversion to the device";
    PetscErrorCode ierr, destroyed;

    PetscCallBenchCuda(BenchCudaTimerCreate(&dev.timer));
    PetscCall(PetscPushErrorHandler(CaptureError, &capture));
    ierr = PetscCudaBuild(b, csr, type, x, &o, r);
    if (!ierr) {
      step = b->check_only ? "product" : "timing";
      ierr = PetscCudaTime(b, &dev, b->queued, &o, r);
      if (ierr && b->queued && !b->check_only && PetscCudaNotQueued(dev.timer)) {
        capture.set = PETSC_FALSE;
        ierr        = PetscCudaTimeIdle(b, &dev, &o, r);
      }
    }
    if (!ierr) {
      step = "check";
      ierr = RelativeError(o.y, yref, &r->relerr);
    }
    destroyed = PetscCudaRowDestroy(&o);
    if (!ierr && destroyed) {
      step = "destruction";
      ierr = destroyed;
    }
    PetscCall(PetscPopErrorHandler());
    if (ierr) {
      r->failed = PETSC_TRUE;
      PetscCall(PetscSNPrintf(r->skipped, sizeof(r->skipped), "%s failed: %s", step, capture.message));
      PetscCallBenchCuda(BenchCudaClearError()); /* the run goes on, unless the CUDA context is lost */
    }
    PetscCallBenchCuda(BenchCudaTimerDestroy(&dev.timer));
  }
  #endif
  PetscFunctionReturn(0);
}

PetscErrorCode RunPetscCuda(Bench *b, const CSR *csr, Vec x, Vec yref)
{
  PetscFunctionBeginUser;
  if (b->check_only && PetscCudaRows.why[0]) PetscFunctionReturn(0);
  for (PetscInt t = 0; t < PetscCudaRows.n; t++) PetscCall(RunPetscCudaType(b, csr, PetscCudaRows.types[t], x, yref));
  PetscFunctionReturn(0);
}

#endif
