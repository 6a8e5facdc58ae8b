#include "bench_spmv_cusparse.h"
#include "bench_spmv_settings.h"
#include "bench_spmv_petsccuda.h"

static char help[] = "Times MatMult of PETSc-ELLG matrix formats next to PETSc's AIJ on the host, cuSPARSE on the GPU\n\
(CSR and sliced ELL) and, with a PETSc built with CUDA, PETSc's own GPU types (-petsc_types <aijcusparse,sellcuda>),\n\
on generated matrices and matrix files, and checks every product against AIJ's. A matrix that cannot be loaded\n\
(a malformed, missing or unreadable file, a bad spec) is reported with PETSc's error message and skipped, and the\n\
exit status is then PETSc's error code of the first; one the readers do not support (complex, Hermitian) is skipped\n\
without it.\n\
" BENCH_MATRICES_HELP "\
  -n <50,...,300>          sizes (list) for the generators of -gen: -n 100,200 adds lap3d7-100,lap3d7-200;\n\
                           the default when neither -matrices nor -suite is given\n\
  -formats <ellg,pjds,slicedell,csrg> matrix types (list; any name MatSetType() knows), each timed with the vectors of\n\
                           MatCreateVecs() (mode GPU) and with host VECSEQ vectors (xGPU: transfers included)\n\
  -sweep                   also each of our formats with a few settings of its options that its automatic\n\
                           choices do not always make (threads per row, threads per block, pJDS block rows,\n\
                           slice height and sorting), each a row of its own with device vectors; the\n\
                           setting's options alone apply to it, not the formats' options given here\n\
  -fp32                    also each of our formats with single-precision values (-mat_gpu_value_precision single),\n\
                           a row \"<format>/fp32\" with device vectors, checked against AIJ to 1e-5\n\
  -reps <100>              timed products per device row, median reported (at least 50)\n\
  -warmup <10>             untimed products before them\n\
  -queued <true>           time each product with device vectors (ours and cuSPARSE's) launched while a kernel\n\
                           holds the device, so that the device's time is measured without the host's launch\n\
                           latency; false: from an idle device (with it), e.g. under a profiler that\n\
                           serializes kernels\n\
  -json <file>             also write the results as JSON (with the launch floor: the time of an empty kernel,\n\
                           timed as the products with device vectors, also printed before them)\n\
  -check_only              only compare each product (cuSPARSE's too) with AIJ's, no timing: output for tests\n\
  -bytes_only              only build each format (each setting, with -sweep) and print the device bytes it\n\
                           reports (MatView info) against CSR's 12 nnz + 4 (rows + 1); needs no GPU\n\
  -print_matrices          print the entries of each matrix of at most 50 rows (MatView of its AIJ form)\n\n";

/* fewer products on the host for large matrices: about 2 GB moved, at least 3 */
static PetscInt HostReps(const Bench *b, const CSR *A)
{
  return PetscMax(3, PetscMin(b->reps, (PetscInt)(2e9 / MODEL_BYTES(A->nrows, A->nnz))));
}

typedef struct {
  Mat A;
  Vec x, y;
} MultArgs;

static PetscErrorCode Mult(void *ctx)
{
  MultArgs *a = (MultArgs *)ctx;

  PetscFunctionBeginUser;
  PetscCall(MatMult(a->A, a->x, a->y));
  PetscFunctionReturn(0);
}

/* Median time of y = A x. On the device between CUDA events: queued behind a kernel that holds the
   device when the vectors are on the device (the device's time, BenchTime()), from an idle device with
   host vectors, whose copies wait for the device; wall_ms by wall clock from an idle device. On the
   host by wall clock */
static PetscErrorCode TimeMatMult(Bench *b, Mat A, Vec x, Vec y, PetscBool device, PetscBool queued, PetscInt reps, PetscReal *ms, PetscReal *wall_ms)
{
  MultArgs args = {A, x, y};

  PetscFunctionBeginUser;
  PetscCall(BenchTime(&b->dev, device, queued, device ? b->warmup : 1, reps, Mult, &args, ms, wall_ms));
  PetscFunctionReturn(0);
}

/* y = A x for the row r: checked against yref, and timed unless -check_only */
static PetscErrorCode RunMode(Bench *b, const CSR *csr, Result *r, Mat A, Vec x, Vec y, Vec yref)
{
  const char *vtype;
  PetscBool   isaij, device;

  PetscFunctionBeginUser;
  PetscCall(PetscObjectGetType((PetscObject)x, &vtype));
  PetscCall(PetscStrncpy(r->vectors, vtype, sizeof(r->vectors)));
  PetscCall(PetscObjectTypeCompare((PetscObject)A, MATSEQAIJ, &isaij));
  device = (PetscBool)(!isaij && b->backend == PETSCELLG_BACKEND_CUDA);
  PetscCall(PetscStrncpy(r->backend, device ? "cuda" : "host", sizeof(r->backend)));
  PetscCall(VecZeroEntries(y)); /* no stale product can pass the check */
  if (b->check_only) PetscCall(MatMult(A, x, y));
  else {
#if !defined(BENCH_HAVE_CUDA)
    if (device) {
      PetscCall(PetscStrncpy(r->skipped, "bench built without CUDA: no device timing", sizeof(r->skipped)));
      PetscFunctionReturn(0);
    }
#endif
    r->reps = device ? b->reps : HostReps(b, csr);
    PetscCall(TimeMatMult(b, A, x, y, device, (PetscBool)(b->queued && !strcmp(r->mode, "GPU")), r->reps, &r->ms, &r->wall_ms));
  }
  PetscCall(RelativeError(y, yref, &r->relerr));
  PetscFunctionReturn(0);
}

/* The format of setting s made from the host CSR (BuildFormat(): the matrix assembled from it, its format built by
   MatELLGGetFormat()), timed by wall clock until it is ready on the device; NULL with the reason in why when it
   cannot be built */
static PetscErrorCode BuildTimed(Bench *b, const CSR *csr, const Setting *s, Mat *A, PetscReal *ms, char *why, size_t len)
{
  PetscLogDouble t0, t1;

  PetscFunctionBeginUser;
  PetscCall(BenchSynchronizedTime(&b->dev, &t0));
  PetscCall(BuildFormat(csr, s->format, s->options, A, why, len));
  PetscCall(BenchSynchronizedTime(&b->dev, &t1));
  *ms = 1e3 * (t1 - t0);
  PetscFunctionReturn(0);
}

/* The rows of one setting of a format: y = A x with device vectors (GPU) and, with the format's own
   choices, with host vectors (xGPU); each row with the device bytes and the time to build A. A format
   that cannot be built gives skipped rows that say why */
static PetscErrorCode RunSetting(Bench *b, const CSR *csr, const Setting *s, Vec x, Vec y, Vec yref)
{
  const char *modes[] = {"GPU", "xGPU"};
  Mat         A;
  Vec         xd = NULL, yd = NULL;
  PetscReal   bytes = -1, conv_ms = -1;
  char        why[sizeof(b->results[0].skipped)];

  PetscFunctionBeginUser;
  PetscCall(BuildTimed(b, csr, s, &A, &conv_ms, why, sizeof(why)));
  if (A) {
    if (!b->check_only) PetscCall(BenchDeviceBytes(A, &bytes, NULL));
    PetscCall(MatCreateVecs(A, &xd, &yd));
    PetscCall(VecCopy(x, xd));
  }
  for (PetscInt m = 0; m < (s->variant ? 1 : 2); m++) {
    Result *r;

    PetscCall(BenchAddResult(b, csr, s->format, s->variant, modes[m], &r));
    if (s->single) r->tol = REL_TOL_SINGLE;
    if (!A) {
      PetscCall(PetscStrncpy(r->skipped, why, sizeof(r->skipped)));
      r->failed = PETSC_TRUE;
      continue;
    }
    r->bytes   = bytes;
    r->conv_ms = conv_ms;
    PetscCall(RunMode(b, csr, r, A, m ? x : xd, m ? y : yd, yref));
  }
  PetscCall(VecDestroy(&xd));
  PetscCall(VecDestroy(&yd));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(0);
}

/* the matrix's entries (for small test matrices) */
static PetscErrorCode PrintMatrix(const CSR *csr)
{
  Mat A;

  PetscFunctionBeginUser;
  PetscCall(MatCreateSeqAIJWithArrays(PETSC_COMM_SELF, csr->nrows, csr->ncols, csr->rowptr, csr->colidx, csr->val, &A));
  PetscCall(PetscObjectSetName((PetscObject)A, csr->name));
  PetscCall(MatView(A, PETSC_VIEWER_STDOUT_SELF));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(0);
}

/* All rows of one matrix: AIJ on the host (the reference product), cuSPARSE, PETSc's own GPU types (with a
   PETSc built with CUDA), then each setting of each format */
static PetscErrorCode BenchMatrix(Bench *b, const CSR *csr, PetscInt nsettings, const Setting settings[])
{
  Mat          Aaij;
  Vec          x, y, yref;
  PetscScalar *xa;

  PetscFunctionBeginUser;
  PetscCall(MatCreateSeqAIJWithArrays(PETSC_COMM_SELF, csr->nrows, csr->ncols, csr->rowptr, csr->colidx, csr->val, &Aaij));
  PetscCall(MatCreateVecs(Aaij, &x, &yref));
  PetscCall(VecGetArrayWrite(x, &xa));
  for (PetscInt i = 0; i < csr->ncols; i++) xa[i] = 0.5 + (PetscReal)(((PetscInt64)i * 7919) % 1013) / 1013;
  PetscCall(VecRestoreArrayWrite(x, &xa));
  PetscCall(MatMult(Aaij, x, yref));
  PetscCall(VecDuplicate(yref, &y));
  if (!b->check_only) {
    Result *r;

    PetscCall(BenchAddResult(b, csr, MATAIJ, NULL, "host", &r));
    r->reference = PETSC_TRUE;
    PetscCall(RunMode(b, csr, r, Aaij, x, y, yref));
  }
  PetscCall(MatDestroy(&Aaij));
  PetscCall(RunCusparse(b, csr, x, yref));
#if defined(PETSC_HAVE_CUDA)
  PetscCall(RunPetscCuda(b, csr, x, yref));
#endif
  for (PetscInt s = 0; s < nsettings; s++) PetscCall(RunSetting(b, csr, &settings[s], x, y, yref));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(VecDestroy(&yref));
  PetscFunctionReturn(0);
}

/* All rows of a small matrix, dropped: the times of the first matrix then leave out the costs of the first
   use of each setting and of cuSPARSE (the first allocations, loading the kernels) */
static PetscErrorCode WarmUp(Bench *b, PetscInt nsettings, const Setting settings[])
{
  CSR A;

  PetscFunctionBeginUser;
  PetscCall(LoadMatrix("lap3d7-8", &A));
  PetscCall(BenchMatrix(b, &A, nsettings, settings));
  PetscCall(CSRDestroy(&A));
  b->nresults = 0;
  PetscFunctionReturn(0);
}

/* -bytes_only: each setting of each format built, and the device bytes it reports next to CSR's */
static PetscErrorCode BytesMatrix(Bench *b, const CSR *csr, PetscInt nsettings, const Setting settings[])
{
  const PetscReal csrbytes = CSRBytes(csr->nrows, csr->nnz);

  PetscFunctionBeginUser;
  for (PetscInt s = 0; s < nsettings; s++) {
    Result *r;
    Mat     A;
    char    name[64];

    PetscCall(BenchAddResult(b, csr, settings[s].format, settings[s].variant, "bytes", &r));
    PetscCall(BuildFormat(csr, settings[s].format, settings[s].options, &A, r->skipped, sizeof(r->skipped)));
    r->failed = (PetscBool)!A;
    if (A) PetscCall(BenchDeviceBytes(A, &r->bytes, NULL));
    PetscCall(MatDestroy(&A));
    PetscCall(RowName(r, name, sizeof(name)));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "%-20s %10" PetscInt_FMT " %11" PetscInt_FMT " %-24s ", r->matrix, r->nrows, r->nnz, name));
    if (r->failed) PetscCall(PetscPrintf(PETSC_COMM_SELF, "skipped: %s\n", r->skipped));
    else if (r->bytes < 0) PetscCall(PetscPrintf(PETSC_COMM_SELF, "%11s %11.4f %7s   (the type reports no device bytes)\n", "-", (double)(csrbytes / 1048576.0), "-"));
    else PetscCall(PetscPrintf(PETSC_COMM_SELF, "%11.4f %11.4f %7.3f\n", (double)(r->bytes / 1048576.0), (double)(csrbytes / 1048576.0), (double)(r->bytes / csrbytes)));
  }
  PetscFunctionReturn(0);
}

#if defined(BENCH_HAVE_CUDA)
static PetscErrorCode EmptyKernel(void *ctx)
{
  PetscFunctionBeginUser;
  PetscCallBenchCuda(BenchCudaEmptyKernel());
  PetscFunctionReturn(0);
}
#endif

/* Backend, device, copy bandwidth, launch floor; the header of -bytes_only's table */
static PetscErrorCode BenchSetUp(Bench *b)
{
  PetscFunctionBeginUser;
  PetscCall(PetscELLGGetBackend(&b->backend)); /* also selects the library's device */
  if (b->bytes_only) {
    /* the same on every backend: no backend or device named */
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "bench_spmv -bytes_only: the device bytes each format reports in its MatView info, against CSR with\n"));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "32-bit indices (12 nnz + 4 (rows + 1) bytes); MB = 2^20 bytes\n"));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "%-20s %10s %11s %-24s %11s %11s %7s\n", "matrix", "rows", "nnz", "format", "device MB", "CSR MB", "x CSR"));
    PetscFunctionReturn(0);
  }
  PetscCall(BenchDeviceSetUp(&b->dev));
#if defined(PETSC_HAVE_CUDA)
  PetscCall(PetscCudaRowsSetUp(b));
#endif
  if (b->check_only) PetscFunctionReturn(0);
#if defined(BENCH_HAVE_CUDA)
  if (b->dev.device) {
    double    memcpy_Bps, kernel_Bps;
    PetscReal wall_ms;

    PetscCallBenchCuda(BenchCudaCopyBandwidth((size_t)1 << 30, 20, &memcpy_Bps, &kernel_Bps));
    b->memcpy_GBs = 1e-9 * memcpy_Bps;
    b->kernel_GBs = 1e-9 * kernel_Bps;
    b->copy_GBs   = PetscMax(b->memcpy_GBs, b->kernel_GBs);
    PetscCall(BenchTime(&b->dev, PETSC_TRUE, b->queued, b->warmup, b->reps, EmptyKernel, NULL, &b->floor_ms, &wall_ms));
  }
#endif
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "bench_spmv: PETSc-ELLG backend %s; GPU: %s\n", PetscELLGBackends[b->backend], b->dev.device ? b->dev.name : b->dev.none));
  if (b->dev.device) PetscCall(PetscPrintf(PETSC_COMM_SELF, "copy bandwidth (read + write, 1 GiB): cudaMemcpy D2D %.1f GB/s, copy kernel %.1f GB/s; %%copy is against the higher\n", (double)b->memcpy_GBs, (double)b->kernel_GBs));
  if (b->floor_ms > 0) PetscCall(PetscPrintf(PETSC_COMM_SELF, "launch floor: an empty kernel, timed as the products with device vectors, %.4f ms\n", (double)b->floor_ms));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%" PetscInt_FMT " matrices: a line each as it is done (our fastest setting with device vectors against the best cuSPARSE), then the table\n", b->nmatrices));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  Bench          b          = {.reps = 100, .warmup = 10, .queued = PETSC_TRUE};
  const PetscInt defsizes[] = {50, 100, 150, 200, 250, 300};
  PetscInt       nformats   = BENCH_MAX_LIST, nsettings, nloaded = 0;
  char          *formats[BENCH_MAX_LIST], json[PETSC_MAX_PATH_LEN] = "";
  PetscBool      setformats, bad = PETSC_FALSE, failed = PETSC_FALSE, fp32 = PETSC_FALSE;
  SpecList       specs = {NULL, 0, 0};
  Setting       *settings;
  PetscMPIInt    size;

#if defined(PETSC_HAVE_CUDA)
  PetscCall(PetscCudaRowsPreInitialize());
#endif
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscELLGInitializePackage());
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCheck(size == 1, PETSC_COMM_WORLD, PETSC_ERR_WRONG_MPI_SIZE, "bench_spmv times sequential matrices: run it on one process");
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "SpMV benchmark", NULL);
  PetscCall(PetscOptionsStringArray("-formats", "matrix types", NULL, formats, &nformats, &setformats));
  PetscCall(PetscOptionsBool("-sweep", "also run each format with a few settings of its options", NULL, b.sweep, &b.sweep, NULL));
  PetscCall(PetscOptionsBool("-fp32", "also run each of our formats with single-precision values", NULL, fp32, &fp32, NULL));
  PetscCall(PetscOptionsInt("-reps", "timed products per device row", NULL, b.reps, &b.reps, NULL));
  PetscCall(PetscOptionsBool("-queued", "time device products launched while the device is held", NULL, b.queued, &b.queued, NULL));
  PetscCall(PetscOptionsInt("-warmup", "untimed products before them", NULL, b.warmup, &b.warmup, NULL));
  PetscCall(PetscOptionsString("-json", "write the results as JSON to this file", NULL, json, json, sizeof(json), NULL));
  PetscCall(PetscOptionsBool("-check_only", "only compare the products with AIJ's", NULL, b.check_only, &b.check_only, NULL));
  PetscCall(PetscOptionsBool("-bytes_only", "only print the device bytes of each format", NULL, b.bytes_only, &b.bytes_only, NULL));
  PetscCall(PetscOptionsBool("-print_matrices", "print each matrix's entries", NULL, b.print_matrices, &b.print_matrices, NULL));
  PetscOptionsEnd();
  if (!setformats) PetscCall(BenchDefaultFormats(&nformats, formats));
  PetscCheck(b.reps >= 50, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-reps %" PetscInt_FMT ": at least 50 timed products", b.reps);
  PetscCheck(b.warmup >= 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-warmup %" PetscInt_FMT " must not be negative", b.warmup);
  PetscCall(CheckTypes(nformats, formats));
  PetscCall(CreateSettings(b.sweep, fp32, nformats, formats, &nsettings, &settings));

  PetscCall(BenchMatrixSpecs(PETSC_STATIC_ARRAY_LENGTH(defsizes), defsizes, &specs));
  b.nmatrices = specs.n;
  PetscCall(BenchSetUp(&b));
  if (!b.check_only && !b.bytes_only) PetscCall(WarmUp(&b, nsettings, settings));
  for (PetscInt m = 0; m < specs.n; m++) {
    const PetscInt first = b.nresults;
    CSR            A;
    PetscErrorCode err;
    char           why[512];

    b.imatrix = m;
    PetscCall(TryLoadMatrix(specs.spec[m], &A, &err, why, sizeof(why)));
    if (err) {
      PetscCall(BenchNotLoaded(&b, specs.spec[m], why));
      if (err != PETSC_ERR_SUP && !b.load_error) b.load_error = err;
      continue;
    }
    nloaded++;
    if (b.print_matrices && A.nrows <= 50) PetscCall(PrintMatrix(&A));
    if (b.bytes_only) PetscCall(BytesMatrix(&b, &A, nsettings, settings));
    else {
      PetscCall(BenchMatrix(&b, &A, nsettings, settings));
      if (b.check_only) PetscCall(PrintChecks(&b, &A, first));
      else PetscCall(PrintProgress(&b, &A, first));
    }
    PetscCall(CSRDestroy(&A));
  }
  if (!b.check_only && !b.bytes_only) PetscCall(PrintTable(&b));
  for (PetscInt i = 0; i < b.nresults; i++) {
    const Result *r = &b.results[i];

    if (r->failed) failed = PETSC_TRUE;
    else if (!b.bytes_only && !r->reference && !r->skipped[0] && !(r->relerr < r->tol)) bad = PETSC_TRUE;
  }
  if (!nloaded) PetscCall(PetscPrintf(PETSC_COMM_SELF, "NO MATRIX LOADED: nothing was multiplied\n"));
  else if (!b.check_only && !b.bytes_only) PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s\n", bad ? "SOME PRODUCTS DIFFER FROM AIJ'S: see rel.err" : "All products agree with AIJ's (relative error < 1e-12; 1e-5 with single-precision values)"));
  if (failed) PetscCall(PetscPrintf(PETSC_COMM_SELF, "SOME FORMATS COULD NOT BE BUILT: see the rows skipped\n"));
  if (b.load_error) PetscCall(PetscPrintf(PETSC_COMM_SELF, "SOME MATRICES FAILED TO LOAD: see the lines \"not loaded\"; exit status %d, PETSc's error code of the first\n", (int)b.load_error));
  else if (b.unloaded.n) PetscCall(PetscPrintf(PETSC_COMM_SELF, "SOME MATRICES WERE NOT LOADED: see the lines \"not loaded\"\n"));
  if (json[0]) PetscCall(WriteJSON(&b, json));

  PetscCall(BenchDeviceDestroy(&b.dev));
  PetscCall(DestroySettings(nsettings, &settings));
  for (PetscInt f = 0; f < nformats; f++) PetscCall(PetscFree(formats[f]));
  PetscCall(SpecListDestroy(&specs));
  PetscCall(SpecListDestroy(&b.unloaded));
  PetscCall(SpecListDestroy(&b.unloaded_why));
  PetscCall(PetscFree(b.results));
  PetscCall(PetscFinalize());
  /* as when the run ended at that matrix, but with the others done: scripts and make see the failure (no matrix
     loaded at all, for reasons that are no error of their own, is one too) */
  return (int)(b.load_error ? b.load_error : (nloaded ? PETSC_SUCCESS : PETSC_ERR_FILE_OPEN));
}

/*TEST

   test:
      args: -n 3,5 -check_only

   # every generator, small
   test:
      suffix: generators
      args: -matrices lap2d5-5,lap3d27-3,block5-2,random-60,random-40-3,powerlaw-300,circuit-80,circuit-50-2,band-30-3 -check_only

   # Matrix Market files (symmetric with a duplicate, rectangular pattern with an empty row,
   # integer skew-symmetric) read through a suite file, with their entries
   test:
      suffix: files
      args: -suite ${ellg_dir}/bench/data/small.suite -check_only -print_matrices

   # gzipped Matrix Market files of the collection beside the repository, and a larger power law
   test:
      suffix: real
      args: -matrices ${ellg_dir}/../shared/matrices/real/bcsstk01.mtx.gz,${ellg_dir}/../shared/matrices/real/plsk1919.mtx.gz,powerlaw-2000 -check_only

   # matrices that cannot be loaded (an entry outside the matrix, too few entries, gzip data cut short, a
   # missing file) each give a line and are skipped; the run goes on, and its exit status is the error code
   # of the first (Error: lets the harness take it). -malloc_debug: -malloc_dump shows what a failed load
   # leaked. The filter drops the checkout's path, gzip's own words and mpiexec's note of the exit status
   test:
      suffix: malformed
      args: -matrices lap2d5-4,${ellg_dir}/bench/data/malformed,${ellg_dir}/bench/data/malformed/missing.mtx,powerlaw-300 -check_only -malloc_debug
      filter: Error: sed -e "s|[^ ]*bench/data/|bench/data/|" -e "s|(exit status 1): .*|(exit status 1)|" -e "/^---*$/,/^---*$/d"

   # no matrix loaded: said, and a failure (the exit status of the load's error)
   test:
      suffix: nothing_loaded
      args: -matrices ${ellg_dir}/bench/data/malformed/missing.mtx
      filter: Error: grep -E "not loaded|NO MATRIX|FAILED TO LOAD|agree" | sed -e "s|[^ ]*bench/data/|bench/data/|"

   # the same in a timed run: the progress lines, the table with the rows of the matrices loaded (AIJ's
   # shown, without its times) and the matrices not loaded under it
   test:
      suffix: malformed_table
      args: -matrices lap2d5-4,${ellg_dir}/bench/data/malformed,${ellg_dir}/bench/data/malformed/missing.mtx,powerlaw-300 -reps 50 -warmup 1
      filter: Error: grep -E "not loaded|FAILED TO LOAD| aij +host " | sed -e "s|[^ ]*bench/data/|bench/data/|" -e "s|(exit status 1): .*|(exit status 1)|" -e "s| aij  *host .*| aij host|"

   # csrg's automatic kernel on a power law of 2^17 entries or more: CSR-stream, its long rows' chunks (one row of
   # two) in the same launch
   test:
      suffix: csrg_stream
      args: -matrices powerlaw-20000 -formats csrg -check_only -mat_view ::ascii_info
      filter: grep -E "CSR-stream|long rows|agrees|differ"

   test:
      suffix: bytes
      args: -matrices lap2d5-6,lap3d7-4,band-40-2,${ellg_dir}/bench/data/sym5.mtx -bytes_only

   # a folder (its .mtx and .mtx.gz files in sorted order: an arrow with a long row, a gzipped
   # tridiagonal) and a power law, each format also with the settings of -sweep
   test:
      suffix: folder_sweep
      args: -matrices ${ellg_dir}/bench/data/folder,powerlaw-300 -sweep -check_only

   # each of our formats also with single-precision values (-fp32): the products checked against AIJ to 1e-5, and
   # the bytes of the values halved; the bytes of every setting of -sweep, each its own (its options database)
   test:
      suffix: fp32
      args: -matrices lap3d7-6,powerlaw-300 -fp32 -check_only
   test:
      suffix: fp32_bytes
      args: -matrices lap3d7-6,powerlaw-300 -fp32 -sweep -bytes_only

   # column indices of the formats: 32-bit where a column is more than 16 bits from its row (random), else
   # 16-bit offsets; slicedell's slices share blocks of offsets on the Laplacian
   test:
      suffix: compact_indices
      args: -matrices random-40000-3,lap2d5-100 -check_only -mat_view ::ascii_info
      filter: grep -E "column indices|agrees|differ"

   # slicedell's shared column offsets, 16- and 32-bit, on Laplacians in slices of 32 rows (those at the grid's
   # edges differ from the rest), also with the rows sorted within windows, and not on a random matrix (too many
   # distinct blocks), or not at all
   test:
      suffix: shared_indices
      args: -matrices lap3d7-14,lap2d5-200,random-3000-4 -formats slicedell -check_only -mat_view ::ascii_info -mat_slicedell_slice_height 32 -mat_slicedell_compact_indices {{true false}separate output} -mat_slicedell_shared_indices {{true false}separate output}
      filter: grep -E "column indices|agrees|differ"
   test:
      suffix: shared_indices_sorted
      args: -matrices lap2d5-200,lap3d7-20 -formats slicedell -check_only -mat_view ::ascii_info -mat_slicedell_slice_height 32 -mat_slicedell_sigma 64
      filter: grep -E "column indices|agrees|differ"

TEST*/
