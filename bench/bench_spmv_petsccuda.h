/*
   PETSc's own CUDA matrix types in bench_spmv, rows petsc/<type> of every matrix next to ours and
   cuSPARSE's (-petsc_types, default aijcusparse and sellcuda), with the same columns and the same check
   against AIJ's product. Compiled only when PETSc was built with CUDA (PETSC_HAVE_CUDA, 3.20 or
   later: ellgcompat.h); they run only on the bench's GPU (BENCH_HAVE_CUDA and a device), else their rows are
   skipped with the reason (left out with -check_only, whose output is then the same with every PETSc).
   (bench_spmv_petsccuda.c)

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

/* Before PetscInitialize(): PETSc's CUDA device initialization aborts the run when MPI is not GPU-aware
   unless -use_gpu_aware_mpi is false. bench_spmv runs on one process and gives MPI no device buffer, so
   false is its default (the command line and PETSC_OPTIONS, read later, override it) */
PetscErrorCode PetscCudaRowsPreInitialize(void);

PetscErrorCode PetscCudaRowsDestroy(void);

  #if defined(BENCH_HAVE_CUDA)
/* PETSc's CUDA device initialized, and its current device context checked: CUDA, on the bench's device
   (PETSc's initialization made its own the current device: set back), on a stream that the bench's events
   are ordered with. why: what is wrong, else left empty */
PetscErrorCode PetscCudaDeviceCheck(char *why, size_t len);
  #endif

/* -petsc_types, and whether their rows can run (PetscCudaDeviceCheck()): after BenchDeviceSetUp() */
PetscErrorCode PetscCudaRowsSetUp(Bench *b);

  #if defined(BENCH_HAVE_CUDA)
/* One row's objects: the matrix in PETSc's type, VECCUDA vectors; aij: the AIJ matrix on the CSR while
   it is converted */
typedef struct {
  Mat A, aij;
  Vec x, y;
} PetscCudaRow;

PetscErrorCode PetscCudaRowDestroy(PetscCudaRow *o);

PetscErrorCode PetscCudaMult(void *ctx);

/* The vectors on the device, x with the values of the host x; then A in the type from the host CSR,
   until the end of its first product (conv_ms, and the device memory taken, bytes: see the top) */
PetscErrorCode PetscCudaBuild(Bench *b, const CSR *csr, const char *type, Vec x, PetscCudaRow *o, Result *r);

/* y = A x: once with -check_only, else timed on dev (BenchTime(), see the top) */
PetscErrorCode PetscCudaTime(Bench *b, BenchDevice *dev, PetscBool queued, PetscCudaRow *o, Result *r);

/* Whether the timer's hold grew past its limit, so that it gives BENCH_NOT_QUEUED: the queued MatMult waited
   for the device */
PetscBool PetscCudaNotQueued(BenchCudaTimer timer);

/* The row timed again from an idle device with a new timer, and named <type>/idle */
PetscErrorCode PetscCudaTimeIdle(Bench *b, BenchDevice *dev, PetscCudaRow *o, Result *r);
  #endif

/* The row petsc/<type> of the matrix: built, timed, checked and destroyed, errors caught (the first is
   the row's reason, and the run goes on), or skipped with the reason the rows do not run */
PetscErrorCode RunPetscCudaType(Bench *b, const CSR *csr, const char *type, Vec x, Vec yref);

/* The rows of PETSc's types for one matrix: with -check_only only when they run */
PetscErrorCode RunPetscCuda(Bench *b, const CSR *csr, Vec x, Vec yref);
#endif
