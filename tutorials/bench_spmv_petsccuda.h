/*
   PETSc's own CUDA matrix types in bench_spmv, rows petsc/<type> of every matrix next to ours and
   cuSPARSE's (-petsc_types, default aijcusparse and sellcuda), with the same columns and the same check
   against AIJ's product. Compiled only when PETSc was built with CUDA (PETSC_HAVE_CUDA, 3.20 or
   later: ellgcompat.h); they run only on the bench's GPU (BENCH_HAVE_CUDA and a device), else their rows are
   skipped with the reason (left out with -check_only, whose output is then the same with every PETSc).
   Header-only, as the other bench headers.

   The matrix: the AIJ matrix on the host CSR converted with MatConvert(), to a SELL type through MATSELL
   first, as PETSc's MatSetType() does for an assembled matrix (PETSc has no converter from AIJ to
   sellcuda, and its generic one would insert the rows one by one into an unpreallocated matrix). The
   vectors: VECCUDA, x copied to the device and y allocated there before the matrix is made. PETSc copies
   the matrix to the device at its first MatMult (aijcusparse, and sellcuda after the in-place
   conversion), which also sets up its SpMV (aijcusparse: cuSPARSE's descriptors and buffer), so
   conv ms is the wall clock from the CSR to the end of that first product, the device synchronized, and
   dev MB the device memory that took (cudaMemGetInfo before and after: the matrix's arrays and PETSc's
   SpMV buffer, in the driver's allocation steps of 2 MiB).

   What is timed: MatMult(A, x, y) through PETSc's interface, x and y on the device, exactly as the GPU
   rows of our formats: BenchTime() with the bench's CUDA events, on the legacy default stream, around
   the call, the median of -reps after -warmup. PETSc launches the product on the stream of its device
   context (cuSPARSE's handle of aijcusparse is set to it), the default stream unless
   -root_device_context_stream_type says otherwise, and sellcuda's kernels on the default stream: work
   that the events are ordered with, so the time between them is the product's. The set-up checks that
   PETSc's context uses the bench's device and not a non-blocking stream, which the events would not see,
   and otherwise skips the rows with the reason. With -queued (default) a kernel holds the device while
   the host goes through MatMult, so that the time is the device's alone, as for our rows: this applies to
   PETSc's MatMult because, with the matrix and the vectors on the device, it only launches work
   (cusparseSpMV, or sellcuda's kernel; for an aijcusparse matrix stored with compressed rows also a
   memset and a scatter kernel, all asynchronous) and does not wait for the device. Should it wait (a
   PETSc that synchronizes after each call, e.g. a stream type with barrier), the queued timer cannot
   time it (BENCH_NOT_QUEUED); the row is then timed from an idle device, CUDA events around the call
   with the host's launch latency and PETSc's host code in the time, and named <type>/idle. wall_ms: by
   wall clock from an idle device until done, as ours. Each row has its own timer, so that a hold grown
   for a PETSc type leaves the others' timings alone.

   A type that fails on a matrix (conversion, device memory, a product) gives a skipped row that says
   why, and the run goes on, the CUDA runtime's last error cleared; only a lost CUDA context (a sticky
   error, which nothing could use any more) stops it.
*/
#pragma once
#include "../src/include/ellgcompat.h"
#include "bench_spmv_report.h"

#if defined(PETSC_HAVE_CUDA)
  #include <petscdevice.h>

/* The types of the run (-petsc_types), and why their rows are not run (empty when they are) */
static struct {
  PetscInt n;
  char    *types[BENCH_MAX_LIST];
  char     why[160];
} PetscCudaRows;

/* Before PetscInitialize(): PETSc's CUDA device initialization aborts the run when MPI is not GPU-aware
   unless -use_gpu_aware_mpi is false. bench_spmv runs on one process and gives MPI no device buffer, so
   false is its default (the command line and PETSC_OPTIONS, read later, override it) */
static PetscErrorCode PetscCudaRowsPreInitialize(void)
{
  return PetscOptionsSetValue(NULL, "-use_gpu_aware_mpi", "0");
}

static PetscErrorCode PetscCudaRowsDestroy(void)
{
  PetscFunctionBeginUser;
  for (PetscInt t = 0; t < PetscCudaRows.n; t++) PetscCall(PetscFree(PetscCudaRows.types[t]));
  PetscCudaRows.n = 0;
  PetscFunctionReturn(0);
}

  #if defined(BENCH_HAVE_CUDA)
/* PETSc's CUDA device initialized, and its current device context checked: CUDA, on the bench's device
   (PETSc's initialization made its own the current device: set back), on a stream that the bench's events
   are ordered with. why: what is wrong, else left empty */
static PetscErrorCode PetscCudaDeviceCheck(char *why, size_t len)
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

/* -petsc_types, and whether their rows can run (PetscCudaDeviceCheck()): after BenchDeviceSetUp() */
static PetscErrorCode PetscCudaRowsSetUp(Bench *b)
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
/* One row's objects: the matrix in PETSc's type, VECCUDA vectors; aij: the AIJ matrix on the CSR while
   it is converted */
typedef struct {
  Mat A, aij;
  Vec x, y;
} PetscCudaRow;

static PetscErrorCode PetscCudaRowDestroy(PetscCudaRow *o)
{
  PetscFunctionBeginUser;
  PetscCall(MatDestroy(&o->aij));
  PetscCall(MatDestroy(&o->A));
  PetscCall(VecDestroy(&o->x));
  PetscCall(VecDestroy(&o->y));
  PetscFunctionReturn(0);
}

static PetscErrorCode PetscCudaMult(void *ctx)
{
  PetscCudaRow *o = (PetscCudaRow *)ctx;

  PetscFunctionBeginUser;
  PetscCall(MatMult(o->A, o->x, o->y));
  PetscFunctionReturn(0);
}

/* The vectors on the device, x with the values of the host x; then A in the type from the host CSR,
   until the end of its first product (conv_ms, and the device memory taken, bytes: see the top) */
static PetscErrorCode PetscCudaBuild(Bench *b, const CSR *csr, const char *type, Vec x, PetscCudaRow *o, Result *r)
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

/* y = A x: once with -check_only, else timed on dev (BenchTime(), see the top) */
static PetscErrorCode PetscCudaTime(Bench *b, BenchDevice *dev, PetscBool queued, PetscCudaRow *o, Result *r)
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

/* Whether the timer's hold grew past its limit, so that it gives BENCH_NOT_QUEUED: the queued MatMult waited
   for the device */
static PetscBool PetscCudaNotQueued(BenchCudaTimer timer)
{
  double ms;
  int    again, err = BenchCudaTimerStart(timer, 0);

  if (!err) err = BenchCudaTimerStop(timer, &ms, &again);
  return (PetscBool)(err == BENCH_NOT_QUEUED);
}

/* The row timed again from an idle device with a new timer, and named <type>/idle */
static PetscErrorCode PetscCudaTimeIdle(Bench *b, BenchDevice *dev, PetscCudaRow *o, Result *r)
{
  PetscFunctionBeginUser;
  PetscCallBenchCuda(BenchCudaTimerDestroy(&dev->timer));
  PetscCallBenchCuda(BenchCudaTimerCreate(&dev->timer));
  PetscCall(PetscCudaTime(b, dev, PETSC_FALSE, o, r));
  PetscCall(PetscStrlcat(r->variant, "/idle", sizeof(r->variant)));
  PetscFunctionReturn(0);
}
  #endif

/* The row petsc/<type> of the matrix: built, timed, checked and destroyed, errors caught (the first is
   the row's reason, and the run goes on), or skipped with the reason the rows do not run */
static PetscErrorCode RunPetscCudaType(Bench *b, const CSR *csr, const char *type, Vec x, Vec yref)
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

/* The rows of PETSc's types for one matrix: with -check_only only when they run */
static PetscErrorCode RunPetscCuda(Bench *b, const CSR *csr, Vec x, Vec yref)
{
  PetscFunctionBeginUser;
  if (b->check_only && PetscCudaRows.why[0]) PetscFunctionReturn(0);
  for (PetscInt t = 0; t < PetscCudaRows.n; t++) PetscCall(RunPetscCudaType(b, csr, PetscCudaRows.types[t], x, yref));
  PetscFunctionReturn(0);
}
#endif
