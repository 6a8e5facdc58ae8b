#include <petscellg.h>
#include "bench_common.h"
#include "bench_matrices.h"

static char help[] = "Times MatMult of PETSc-ELLG matrix formats next to PETSc's AIJ on the host and cuSPARSE CSR\n\
on the GPU, on generated matrices and matrix files, and checks every product against AIJ's.\n\
" BENCH_MATRICES_HELP "\
  -n <50,...,300>          sizes (list) for the generators of -gen: -n 100,200 adds lap3d7-100,lap3d7-200;\n\
                           the default when neither -matrices nor -suite is given\n\
  -formats <ellg,pjds,slicedell> matrix types (list; any name MatSetType() knows), each timed with the vectors of\n\
                           MatCreateVecs() (mode GPU) and with host VECSEQ vectors (xGPU: transfers included)\n\
  -reps <100>              timed products per device row, median reported (at least 50)\n\
  -warmup <10>             untimed products before them\n\
  -json <file>             also write the results as JSON\n\
  -check_only              only compare each format's product with AIJ's, no timing: output for tests\n\
  -bytes_only              only build each format and print the device bytes it reports (MatView info)\n\
                           against CSR's 12 nnz + 4 (rows + 1); needs no GPU\n\
  -print_matrices          print the entries of each matrix of at most 50 rows (MatView of its AIJ form)\n\n";

/* Bytes one product moves in the model of the design (section 7): double values and 32-bit column
   indices, row lengths or offsets, x read once, y written */
#define MODEL_BYTES(nrows, nnz) (12.0 * (nnz) + 20.0 * (nrows))

/* largest relative difference from AIJ's product that counts as the same product */
#define REL_TOL 1e-12

/* One row of the results: a product of one matrix in one format, with one kind of vectors */
typedef struct {
  char      matrix[64], format[32], variant[32], mode[8], vectors[16], backend[8];
  char      skipped[160]; /* why it was not run, empty when it was */
  PetscBool reference;    /* AIJ on the host: the product the others are checked against */
  PetscBool failed;       /* the format could not be built (skipped says why) */
  PetscInt  nrows, ncols, nnz, reps;
  PetscReal bytes;       /* device bytes the format reports, -1 when none */
  PetscReal ms, wall_ms; /* medians of one product: device events (host: wall clock), wall clock (0: not measured) */
  PetscReal relerr;      /* ||y - y_aij|| / ||y_aij|| */
} Result;

typedef struct {
  PetscInt         reps, warmup;
  PetscBool        check_only, bytes_only, print_matrices;
  PetscELLGBackend backend; /* of PETSc-ELLG objects */
  BenchDevice      dev;
  PetscReal        memcpy_GBs, kernel_GBs, copy_GBs;
  Result          *results;
  PetscInt         nresults, maxresults;
} Bench;

static PetscErrorCode BenchAddResult(Bench *b, const CSR *A, const char *format, const char *mode, Result **r)
{
  PetscFunctionBeginUser;
  if (b->nresults == b->maxresults) {
    b->maxresults = PetscMax(16, 2 * b->maxresults);
    PetscCall(PetscRealloc(b->maxresults * sizeof(Result), &b->results));
  }
  *r = &b->results[b->nresults++];
  PetscCall(PetscMemzero(*r, sizeof(Result)));
  PetscCall(PetscStrncpy((*r)->matrix, A->name, sizeof((*r)->matrix)));
  PetscCall(PetscStrncpy((*r)->format, format, sizeof((*r)->format)));
  PetscCall(PetscStrncpy((*r)->mode, mode, sizeof((*r)->mode)));
  (*r)->nrows = A->nrows;
  (*r)->ncols = A->ncols;
  (*r)->nnz   = A->nnz;
  (*r)->bytes = -1;
  PetscFunctionReturn(0);
}

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

/* Median time of y = A x: on the device between CUDA events (and by wall clock around
   synchronizations), on the host by wall clock */
static PetscErrorCode TimeMatMult(Bench *b, Mat A, Vec x, Vec y, PetscBool device, PetscInt reps, PetscReal *ms, PetscReal *wall_ms)
{
  MultArgs args = {A, x, y};

  PetscFunctionBeginUser;
  PetscCall(BenchTime(&b->dev, device, device ? b->warmup : 1, reps, Mult, &args, ms, wall_ms));
  PetscFunctionReturn(0);
}

/* The device bytes that the matrix's type reports in its MatView info, a line
   "device bytes: <X> MB (<R> x CSR)" (MB = 2^20 bytes); -1 when there is none */
static PetscErrorCode DeviceBytes(Mat A, PetscReal *bytes)
{
  FILE       *fp = tmpfile();
  PetscViewer viewer;
  char        line[512];

  PetscFunctionBeginUser;
  PetscCheck(fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "tmpfile() failed: no file to read the matrix's MatView info from");
  PetscCall(PetscViewerASCIIOpenWithFILE(PETSC_COMM_SELF, fp, &viewer));
  PetscCall(PetscViewerPushFormat(viewer, PETSC_VIEWER_ASCII_INFO));
  PetscCall(MatView(A, viewer));
  PetscCall(PetscViewerPopFormat(viewer));
  PetscCall(PetscViewerDestroy(&viewer));
  rewind(fp);
  *bytes = -1;
  while (*bytes < 0 && fgets(line, sizeof(line), fp)) {
    const char *s = strstr(line, "device bytes:");
    double      MB;

    if (s && sscanf(s, "device bytes: %lf MB", &MB) == 1) *bytes = MB * 1048576.0;
  }
  fclose(fp);
  PetscFunctionReturn(0);
}

/* bytes of CSR with 32-bit indices: values and columns, row offsets */
static PetscReal CSRBytes(PetscInt nrows, PetscInt nnz)
{
  return 12.0 * nnz + 4.0 * (nrows + 1);
}

/* y = A x in one mode (a result row): checked against yref, and timed unless -check_only */
static PetscErrorCode RunMode(Bench *b, const CSR *csr, Mat A, const char *format, const char *mode, Vec x, Vec y, Vec yref, PetscBool reference)
{
  Result     *r;
  const char *vtype;
  PetscBool   isaij, device;

  PetscFunctionBeginUser;
  PetscCall(BenchAddResult(b, csr, format, mode, &r));
  r->reference = reference;
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
    PetscCall(TimeMatMult(b, A, x, y, device, r->reps, &r->ms, &r->wall_ms));
  }
  PetscCall(RelativeError(y, yref, &r->relerr));
  PetscFunctionReturn(0);
}

/* cuSPARSE CSR SpMV on the bench's own device copy of the matrix: the best of ALG1 and ALG2 */
static PetscErrorCode RunCusparse(Bench *b, const CSR *csr, Vec x, Vec yref)
{
  Result *r;

  PetscFunctionBeginUser;
  PetscCall(BenchAddResult(b, csr, "cusparse", "GPU", &r));
  PetscCall(PetscStrncpy(r->vectors, "device", sizeof(r->vectors)));
  PetscCall(PetscStrncpy(r->backend, "cuda", sizeof(r->backend)));
  if (!b->dev.device) {
    PetscCall(PetscStrncpy(r->skipped, b->dev.none, sizeof(r->skipped)));
    PetscFunctionReturn(0);
  }
#if defined(BENCH_HAVE_CUDA)
  {
    const BenchCusparseAlg algs[]  = {BENCH_CUSPARSE_CSR_ALG1, BENCH_CUSPARSE_CSR_ALG2};
    const char            *names[] = {"ALG1", "ALG2"};
    BenchCusparse          cs;
    const PetscScalar     *xa;
    PetscReal             *t;
    Vec                    y;

    PetscCheck(sizeof(PetscInt) == sizeof(int) && sizeof(PetscScalar) == sizeof(double), PETSC_COMM_SELF, PETSC_ERR_SUP, "The cuSPARSE reference needs 32-bit PetscInt and real double PetscScalar");
    PetscCall(VecDuplicate(yref, &y));
    PetscCall(PetscMalloc1(b->reps, &t));
    PetscCall(VecGetArrayRead(x, &xa));
    PetscCallBenchCuda(BenchCusparseCreate((int)csr->nrows, (int)csr->ncols, (const int *)csr->rowptr, (const int *)csr->colidx, (const double *)csr->val, (const double *)xa, &cs));
    PetscCall(VecRestoreArrayRead(x, &xa));
    r->reps = b->reps;
    r->ms   = PETSC_MAX_REAL;
    for (PetscInt a = 0; a < 2; a++) {
      PetscScalar *ya;
      PetscReal    ms, relerr;

      PetscCallBenchCuda(BenchCusparseTime(cs, algs[a], (int)b->warmup, (int)b->reps, (double *)t));
      PetscCall(Median(b->reps, t, &ms));
      PetscCall(VecGetArrayWrite(y, &ya));
      PetscCallBenchCuda(BenchCusparseGetResult(cs, (double *)ya));
      PetscCall(VecRestoreArrayWrite(y, &ya));
      PetscCall(RelativeError(y, yref, &relerr));
      r->relerr = PetscMax(r->relerr, relerr);
      if (ms < r->ms) {
        r->ms = ms;
        PetscCall(PetscStrncpy(r->variant, names[a], sizeof(r->variant)));
      }
    }
    PetscCallBenchCuda(BenchCusparseDestroy(&cs));
    PetscCall(PetscFree(t));
    PetscCall(VecDestroy(&y));
  }
#endif
  PetscFunctionReturn(0);
}

static PetscErrorCode PrintTableHeader(void)
{
  PetscFunctionBeginUser;
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%-20s %10s %11s %-15s %-5s %-7s %10s %8s %8s %6s %8s %9s\n", "matrix", "rows", "nnz", "format", "mode", "backend", "ms", "GFLOP/s", "GB/s", "%copy", "vs cuSP", "rel.err"));
  PetscFunctionReturn(0);
}

/* the table rows of results [first, b->nresults): speedups against the cuSPARSE row among them */
static PetscErrorCode PrintResults(Bench *b, PetscInt first)
{
  PetscReal cusparse_ms = 0;

  PetscFunctionBeginUser;
  for (PetscInt i = first; i < b->nresults; i++) {
    PetscBool is;

    PetscCall(PetscStrcmp(b->results[i].format, "cusparse", &is));
    if (is && !b->results[i].skipped[0]) cusparse_ms = b->results[i].ms;
  }
  for (PetscInt i = first; i < b->nresults; i++) {
    const Result *r = &b->results[i];
    char          format[64], pct[16] = "-", speedup[16] = "-", err[16] = "reference";
    PetscReal     GBs;

    PetscCall(PetscSNPrintf(format, sizeof(format), "%s%s%s", r->format, r->variant[0] ? "/" : "", r->variant));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "%-20s %10" PetscInt_FMT " %11" PetscInt_FMT " %-15s %-5s %-7s ", r->matrix, r->nrows, r->nnz, format, r->mode, r->backend));
    if (r->skipped[0]) {
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "skipped: %s\n", r->skipped));
      continue;
    }
    GBs = 1e-9 * MODEL_BYTES(r->nrows, r->nnz) / (1e-3 * r->ms);
    if (b->copy_GBs > 0) PetscCall(PetscSNPrintf(pct, sizeof(pct), "%.1f", (double)(100 * GBs / b->copy_GBs)));
    if (cusparse_ms > 0) PetscCall(PetscSNPrintf(speedup, sizeof(speedup), "%.2fx", (double)(cusparse_ms / r->ms)));
    if (!r->reference) PetscCall(PetscSNPrintf(err, sizeof(err), "%.1e", (double)r->relerr));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "%10.4f %8.2f %8.1f %6s %8s %9s\n", (double)r->ms, (double)(2e-9 * r->nnz / (1e-3 * r->ms)), (double)GBs, pct, speedup, err));
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode PrintChecks(Bench *b, const CSR *A, PetscInt first)
{
  PetscFunctionBeginUser;
  PetscCall(PrintMatrixLine(A));
  for (PetscInt i = first; i < b->nresults; i++) {
    const Result *r = &b->results[i];

    if (r->skipped[0]) PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %-10s %-5s skipped: %s\n", r->format, r->mode, r->skipped));
    else if (r->relerr < REL_TOL) PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %-10s %-5s product agrees with aij (relative error < %g)\n", r->format, r->mode, REL_TOL));
    else PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %-10s %-5s product DIFFERS from aij: relative error %g\n", r->format, r->mode, (double)r->relerr));
  }
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

/* All rows of one matrix: AIJ on the host (the reference product), cuSPARSE, then each format
   with device vectors (GPU) and with host vectors (xGPU) */
static PetscErrorCode BenchMatrix(Bench *b, const CSR *csr, PetscInt nformats, char *formats[])
{
  Mat          Aaij;
  Vec          x, y, yref;
  PetscScalar *xa;
  PetscInt     first = b->nresults;

  PetscFunctionBeginUser;
  PetscCall(MatCreateSeqAIJWithArrays(PETSC_COMM_SELF, csr->nrows, csr->ncols, csr->rowptr, csr->colidx, csr->val, &Aaij));
  PetscCall(MatCreateVecs(Aaij, &x, &yref));
  PetscCall(VecGetArrayWrite(x, &xa));
  for (PetscInt i = 0; i < csr->ncols; i++) xa[i] = 0.5 + (PetscReal)(((PetscInt64)i * 7919) % 1013) / 1013;
  PetscCall(VecRestoreArrayWrite(x, &xa));
  PetscCall(MatMult(Aaij, x, yref));
  PetscCall(VecDuplicate(yref, &y));
  if (!b->check_only) {
    PetscCall(RunMode(b, csr, Aaij, MATAIJ, "host", x, y, yref, PETSC_TRUE));
    PetscCall(RunCusparse(b, csr, x, yref));
  }
  PetscCall(MatDestroy(&Aaij));

  for (PetscInt f = 0; f < nformats; f++) {
    Mat       A;
    Vec       xd, yd;
    PetscReal bytes = -1;
    char      why[sizeof(b->results[0].skipped)];

    PetscCall(BuildFormat(csr, formats[f], &A, why, sizeof(why)));
    if (!A) { /* one row per mode, saying why */
      for (PetscInt m = 0; m < 2; m++) {
        Result *r;

        PetscCall(BenchAddResult(b, csr, formats[f], m ? "xGPU" : "GPU", &r));
        PetscCall(PetscStrncpy(r->skipped, why, sizeof(r->skipped)));
        r->failed = PETSC_TRUE;
      }
      continue;
    }
    if (!b->check_only) PetscCall(DeviceBytes(A, &bytes));
    PetscCall(MatCreateVecs(A, &xd, &yd));
    PetscCall(VecCopy(x, xd));
    PetscCall(RunMode(b, csr, A, formats[f], "GPU", xd, yd, yref, PETSC_FALSE));
    b->results[b->nresults - 1].bytes = bytes;
    PetscCall(RunMode(b, csr, A, formats[f], "xGPU", x, y, yref, PETSC_FALSE));
    b->results[b->nresults - 1].bytes = bytes;
    PetscCall(VecDestroy(&xd));
    PetscCall(VecDestroy(&yd));
    PetscCall(MatDestroy(&A));
  }
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(VecDestroy(&yref));
  if (b->check_only) PetscCall(PrintChecks(b, csr, first));
  else PetscCall(PrintResults(b, first));
  PetscFunctionReturn(0);
}

/* -bytes_only: each format built, and the device bytes it reports next to CSR's */
static PetscErrorCode BytesMatrix(Bench *b, const CSR *csr, PetscInt nformats, char *formats[])
{
  const PetscReal csrbytes = CSRBytes(csr->nrows, csr->nnz);

  PetscFunctionBeginUser;
  for (PetscInt f = 0; f < nformats; f++) {
    Result *r;
    Mat     A;

    PetscCall(BenchAddResult(b, csr, formats[f], "bytes", &r));
    PetscCall(BuildFormat(csr, formats[f], &A, r->skipped, sizeof(r->skipped)));
    r->failed = (PetscBool)!A;
    if (A) PetscCall(DeviceBytes(A, &r->bytes));
    PetscCall(MatDestroy(&A));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "%-20s %10" PetscInt_FMT " %11" PetscInt_FMT " %-12s ", r->matrix, r->nrows, r->nnz, r->format));
    if (r->failed) PetscCall(PetscPrintf(PETSC_COMM_SELF, "skipped: %s\n", r->skipped));
    else if (r->bytes < 0) PetscCall(PetscPrintf(PETSC_COMM_SELF, "%11s %11.4f %7s   (the type reports no device bytes)\n", "-", (double)(csrbytes / 1048576.0), "-"));
    else PetscCall(PetscPrintf(PETSC_COMM_SELF, "%11.4f %11.4f %7.3f\n", (double)(r->bytes / 1048576.0), (double)(csrbytes / 1048576.0), (double)(r->bytes / csrbytes)));
  }
  PetscFunctionReturn(0);
}

/* Backend, device, copy bandwidth; the header of the table */
static PetscErrorCode BenchSetUp(Bench *b)
{
  PetscFunctionBeginUser;
  PetscCall(PetscELLGGetBackend(&b->backend)); /* also selects the library's device */
  if (b->bytes_only) {
    /* the same on every backend: no backend or device named */
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "bench_spmv -bytes_only: the device bytes each format reports in its MatView info, against CSR with\n"));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "32-bit indices (12 nnz + 4 (rows + 1) bytes); MB = 2^20 bytes\n"));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "%-20s %10s %11s %-12s %11s %11s %7s\n", "matrix", "rows", "nnz", "format", "device MB", "CSR MB", "x CSR"));
    PetscFunctionReturn(0);
  }
  PetscCall(BenchDeviceSetUp(&b->dev));
  if (b->check_only) PetscFunctionReturn(0);
#if defined(BENCH_HAVE_CUDA)
  if (b->dev.device) {
    double memcpy_Bps, kernel_Bps;

    PetscCallBenchCuda(BenchCudaCopyBandwidth((size_t)1 << 30, 20, &memcpy_Bps, &kernel_Bps));
    b->memcpy_GBs = 1e-9 * memcpy_Bps;
    b->kernel_GBs = 1e-9 * kernel_Bps;
    b->copy_GBs   = PetscMax(b->memcpy_GBs, b->kernel_GBs);
  }
#endif
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "bench_spmv: PETSc-ELLG backend %s; GPU: %s\n", PetscELLGBackends[b->backend], b->dev.device ? b->dev.name : b->dev.none));
  if (b->dev.device) PetscCall(PetscPrintf(PETSC_COMM_SELF, "copy bandwidth (read + write, 1 GiB): cudaMemcpy D2D %.1f GB/s, copy kernel %.1f GB/s; %%copy is against the higher\n", (double)b->memcpy_GBs, (double)b->kernel_GBs));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "GB/s: model bytes 12 nnz + 20 rows per product; ms: median of %" PetscInt_FMT " products after %" PetscInt_FMT " warm-up on the device (CUDA events), of 3-%" PetscInt_FMT " on the host\n", b->reps, b->warmup, b->reps));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "modes: GPU = device vectors, xGPU = host vectors (transfers included); vs cuSP = cuSPARSE time / this time\n"));
  PetscCall(PrintTableHeader());
  PetscFunctionReturn(0);
}

static PetscErrorCode WriteJSON(Bench *b, const char *path)
{
  FILE *fp;

  PetscFunctionBeginUser;
  PetscCall(PetscFOpen(PETSC_COMM_SELF, path, "w", &fp));
  PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "{\n  \"run\": \"%s\",\n  \"backend\": \"%s\",\n  \"device\": ", b->bytes_only ? "bytes_only" : b->check_only ? "check_only" : "timing", PetscELLGBackends[b->backend]));
  if (b->dev.device) PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "\"%s\",\n", b->dev.name));
  else PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "null,\n  \"no_device\": \"%s\",\n", b->dev.none));
  PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "  \"copy_bandwidth_GBs\": {"));
  PetscCall(JSONNumber(fp, "memcpy", b->memcpy_GBs, (PetscBool)(b->copy_GBs > 0), ", "));
  PetscCall(JSONNumber(fp, "kernel", b->kernel_GBs, (PetscBool)(b->copy_GBs > 0), ", "));
  PetscCall(JSONNumber(fp, "reference", b->copy_GBs, (PetscBool)(b->copy_GBs > 0), "},\n"));
  PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "  \"model_bytes\": \"12*nnz + 20*nrows\",\n  \"csr_bytes\": \"12*nnz + 4*(nrows+1)\",\n  \"reps\": %" PetscInt_FMT ",\n  \"warmup\": %" PetscInt_FMT ",\n  \"results\": [\n", b->reps, b->warmup));
  for (PetscInt i = 0; i < b->nresults; i++) {
    const Result *r     = &b->results[i];
    PetscBool     ok    = (PetscBool)!r->skipped[0];
    PetscBool     timed = (PetscBool)(ok && r->reps > 0);
    PetscReal     GBs = timed ? 1e-9 * MODEL_BYTES(r->nrows, r->nnz) / (1e-3 * r->ms) : 0, cusparse_ms = 0;

    for (PetscInt j = 0; j < b->nresults; j++) {
      PetscBool same, is;

      PetscCall(PetscStrcmp(b->results[j].matrix, r->matrix, &same));
      PetscCall(PetscStrcmp(b->results[j].format, "cusparse", &is));
      if (same && is && !b->results[j].skipped[0]) cusparse_ms = b->results[j].ms;
    }
    PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "    {\"matrix\": "));
    PetscCall(JSONString(fp, r->matrix));
    PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, ", \"nrows\": %" PetscInt_FMT ", \"ncols\": %" PetscInt_FMT ", \"nnz\": %" PetscInt_FMT ", \"format\": \"%s\", \"variant\": \"%s\", \"mode\": \"%s\", \"vectors\": \"%s\", \"backend\": \"%s\", ", r->nrows, r->ncols, r->nnz, r->format, r->variant, r->mode, r->vectors, r->backend));
    if (ok) PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "\"skipped\": null, \"reps\": %" PetscInt_FMT ", ", r->reps));
    else {
      PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "\"skipped\": "));
      PetscCall(JSONString(fp, r->skipped));
      PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, ", \"reps\": 0, "));
    }
    PetscCall(JSONNumber(fp, "device_bytes", r->bytes, (PetscBool)(r->bytes >= 0), ", "));
    PetscCall(JSONNumber(fp, "csr_bytes", CSRBytes(r->nrows, r->nnz), PETSC_TRUE, ", "));
    PetscCall(JSONNumber(fp, "bytes_vs_csr", r->bytes / CSRBytes(r->nrows, r->nnz), (PetscBool)(r->bytes >= 0), ", "));
    PetscCall(JSONNumber(fp, "ms", r->ms, timed, ", "));
    PetscCall(JSONNumber(fp, "wall_ms", r->wall_ms, (PetscBool)(timed && r->wall_ms > 0), ", "));
    PetscCall(JSONNumber(fp, "GFLOPs", timed ? 2e-9 * r->nnz / (1e-3 * r->ms) : 0, timed, ", "));
    PetscCall(JSONNumber(fp, "GBs", GBs, timed, ", "));
    PetscCall(JSONNumber(fp, "pct_copy", timed && b->copy_GBs > 0 ? 100 * GBs / b->copy_GBs : 0, (PetscBool)(timed && b->copy_GBs > 0), ", "));
    PetscCall(JSONNumber(fp, "speedup_vs_cusparse", timed && cusparse_ms > 0 ? cusparse_ms / r->ms : 0, (PetscBool)(timed && cusparse_ms > 0), ", "));
    PetscCall(JSONNumber(fp, "rel_error", r->relerr, (PetscBool)(ok && !r->reference && !b->bytes_only), i + 1 < b->nresults ? "},\n" : "}\n"));
  }
  PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "  ]\n}\n"));
  PetscCall(PetscFClose(PETSC_COMM_SELF, fp));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  Bench          b          = {.reps = 100, .warmup = 10};
  const PetscInt defsizes[] = {50, 100, 150, 200, 250, 300};
  PetscInt       nformats   = BENCH_MAX_LIST;
  char          *formats[BENCH_MAX_LIST], json[PETSC_MAX_PATH_LEN] = "";
  PetscBool      setformats, bad = PETSC_FALSE, failed = PETSC_FALSE;
  SpecList       specs = {NULL, 0, 0};
  PetscMPIInt    size;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscELLGInitializePackage());
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCheck(size == 1, PETSC_COMM_WORLD, PETSC_ERR_WRONG_MPI_SIZE, "bench_spmv times sequential matrices: run it on one process");
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "SpMV benchmark", NULL);
  PetscCall(PetscOptionsStringArray("-formats", "matrix types", NULL, formats, &nformats, &setformats));
  PetscCall(PetscOptionsInt("-reps", "timed products per device row", NULL, b.reps, &b.reps, NULL));
  PetscCall(PetscOptionsInt("-warmup", "untimed products before them", NULL, b.warmup, &b.warmup, NULL));
  PetscCall(PetscOptionsString("-json", "write the results as JSON to this file", NULL, json, json, sizeof(json), NULL));
  PetscCall(PetscOptionsBool("-check_only", "only compare the products with AIJ's", NULL, b.check_only, &b.check_only, NULL));
  PetscCall(PetscOptionsBool("-bytes_only", "only print the device bytes of each format", NULL, b.bytes_only, &b.bytes_only, NULL));
  PetscCall(PetscOptionsBool("-print_matrices", "print each matrix's entries", NULL, b.print_matrices, &b.print_matrices, NULL));
  PetscOptionsEnd();
  if (!setformats) {
    nformats = 3;
    PetscCall(PetscStrallocpy(MATELLG, &formats[0]));
    PetscCall(PetscStrallocpy(MATPJDS, &formats[1]));
    PetscCall(PetscStrallocpy(MATSLICEDELL, &formats[2]));
  }
  PetscCheck(b.reps >= 50, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-reps %" PetscInt_FMT ": at least 50 timed products", b.reps);
  PetscCheck(b.warmup >= 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-warmup %" PetscInt_FMT " must not be negative", b.warmup);
  PetscCall(CheckTypes(nformats, formats));

  PetscCall(BenchMatrixSpecs(PETSC_STATIC_ARRAY_LENGTH(defsizes), defsizes, &specs));
  PetscCall(BenchSetUp(&b));
  for (PetscInt m = 0; m < specs.n; m++) {
    CSR A;

    PetscCall(LoadMatrix(specs.spec[m], &A));
    if (b.print_matrices && A.nrows <= 50) PetscCall(PrintMatrix(&A));
    if (b.bytes_only) PetscCall(BytesMatrix(&b, &A, nformats, formats));
    else PetscCall(BenchMatrix(&b, &A, nformats, formats));
    PetscCall(CSRDestroy(&A));
  }
  for (PetscInt i = 0; i < b.nresults; i++) {
    const Result *r = &b.results[i];

    if (r->failed) failed = PETSC_TRUE;
    else if (!b.bytes_only && !r->reference && !r->skipped[0] && !(r->relerr < REL_TOL)) bad = PETSC_TRUE;
  }
  if (!b.check_only && !b.bytes_only) PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s\n", bad ? "SOME PRODUCTS DIFFER FROM AIJ'S: see rel.err" : "All products agree with AIJ's (relative error < 1e-12)"));
  if (failed) PetscCall(PetscPrintf(PETSC_COMM_SELF, "SOME FORMATS COULD NOT BE BUILT: see the rows skipped\n"));
  if (json[0]) PetscCall(WriteJSON(&b, json));

  PetscCall(BenchDeviceDestroy(&b.dev));
  for (PetscInt f = 0; f < nformats; f++) PetscCall(PetscFree(formats[f]));
  PetscCall(SpecListDestroy(&specs));
  PetscCall(PetscFree(b.results));
  PetscCall(PetscFinalize());
  return 0;
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
      args: -suite ${ellg_dir}/tutorials/data/small.suite -check_only -print_matrices

   # gzipped Matrix Market files of the collection beside the repository, and a larger power law
   test:
      suffix: real
      args: -matrices ${ellg_dir}/../shared/matrices/real/bcsstk01.mtx.gz,${ellg_dir}/../shared/matrices/real/plsk1919.mtx.gz,powerlaw-2000 -check_only

   test:
      suffix: bytes
      args: -matrices lap2d5-6,lap3d7-4,band-40-2,${ellg_dir}/tutorials/data/sym5.mtx -bytes_only

TEST*/
