static char help[] = "Times MatMult of PETSc-ELLG matrix formats next to PETSc's AIJ on the host and cuSPARSE CSR\n\
on the GPU, on generated matrices, and checks every product against AIJ's.\n\
  -gen <lap3d7>            matrix generators (list); lap3d7: 3D 7-point Laplacian on an n^3 grid\n\
  -n <50,...,300>          sizes (list): one matrix per generator and size\n\
  -formats <ellg>          PETSc-ELLG matrix types (list), each timed with the vectors of\n\
                           MatCreateVecs() (mode GPU) and with host VECSEQ vectors (xGPU: transfers included)\n\
  -reps <100>              timed products per device row, median reported (at least 50)\n\
  -warmup <10>             untimed products before them\n\
  -json <file>             also write the results as JSON\n\
  -check_only              only compare each format's product with AIJ's, no timing: output for tests\n\n";

#include <petscmat.h>
#include <petscellg.h>
#include "bench_cuda.h"

#define MAX_LIST 64

/* Bytes one product moves in the model of the design (section 7): double values and 32-bit column
   indices, row lengths or offsets, x read once, y written */
#define MODEL_BYTES(nrows, nnz) (12.0 * (nnz) + 20.0 * (nrows))

/* largest relative difference from AIJ's product that counts as the same product */
#define REL_TOL 1e-12

#if defined(BENCH_HAVE_CUDA)
  #define PetscCallBenchCuda(...) \
    do { \
      int bench_err_ = (__VA_ARGS__); \
      PetscCheck(!bench_err_, PETSC_COMM_SELF, PETSC_ERR_LIB, "CUDA error %d in the bench's CUDA helper: %s", bench_err_, BenchCudaErrorString(bench_err_)); \
    } while (0)
#endif

/* A generated matrix in CSR form, owned by the bench */
typedef struct {
  char         name[64];
  PetscInt     nrows, ncols, nnz;
  PetscInt    *rowptr, *colidx;
  PetscScalar *val;
} CSR;

typedef PetscErrorCode (*Generator)(PetscInt, CSR *);

/* 3D 7-point Laplacian, Dirichlet boundary, on an n^3 grid: columns sorted in each row */
static PetscErrorCode GenerateLaplacian3D7(PetscInt n, CSR *A)
{
  PetscInt k = 0;

  PetscFunctionBeginUser;
  PetscCheck(n > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "lap3d7: n = %" PetscInt_FMT " must be positive", n);
  PetscCheck(7 * (PetscInt64)n * n * n <= PETSC_MAX_INT, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "lap3d7: n = %" PetscInt_FMT " gives more nonzeros than PetscInt holds", n);
  A->nrows = A->ncols = n * n * n;
  A->nnz              = 7 * A->nrows - 6 * n * n;
  PetscCall(PetscMalloc1(A->nrows + 1, &A->rowptr));
  PetscCall(PetscMalloc1(A->nnz, &A->colidx));
  PetscCall(PetscMalloc1(A->nnz, &A->val));
  A->rowptr[0] = 0;
  for (PetscInt row = 0; row < A->nrows; row++) {
    const PetscInt  i = row % n, j = (row / n) % n, l = row / (n * n);
    const PetscInt  cols[7] = {row - n * n, row - n, row - 1, row, row + 1, row + n, row + n * n};
    const PetscBool inside[7] = {l > 0, j > 0, i > 0, PETSC_TRUE, i < n - 1, j < n - 1, l < n - 1};

    for (PetscInt c = 0; c < 7; c++) {
      if (!inside[c]) continue;
      A->colidx[k] = cols[c];
      A->val[k++]  = cols[c] == row ? 6.0 : -1.0;
    }
    A->rowptr[row + 1] = k;
  }
  PetscCall(PetscSNPrintf(A->name, sizeof(A->name), "lap3d7-%" PetscInt_FMT, n));
  PetscFunctionReturn(0);
}

static const struct {
  const char *name;
  Generator   generate;
} generators[] = {
  {"lap3d7", GenerateLaplacian3D7}
};

static PetscErrorCode CSRDestroy(CSR *A)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree(A->rowptr));
  PetscCall(PetscFree(A->colidx));
  PetscCall(PetscFree(A->val));
  PetscFunctionReturn(0);
}

/* One row of the results: a product of one matrix in one format, with one kind of vectors */
typedef struct {
  char      matrix[64], format[32], variant[32], mode[8], vectors[16], backend[8];
  char      skipped[128]; /* why it was not run, empty when it was */
  PetscBool reference;    /* AIJ on the host: the product the others are checked against */
  PetscInt  nrows, nnz, reps;
  PetscReal ms, wall_ms; /* medians of one product: device events (host: wall clock), wall clock (0: not measured) */
  PetscReal relerr;      /* ||y - y_aij|| / ||y_aij|| */
} Result;

typedef struct {
  PetscInt         reps, warmup;
  PetscBool        check_only;
  PetscELLGBackend backend;    /* of PETSc-ELLG objects */
  PetscBool        device;     /* the CUDA helper is built in and a GPU is usable */
  char             device_name[256];
  char             no_device[64]; /* why not */
  PetscReal        memcpy_GBs, kernel_GBs, copy_GBs;
  BenchCudaTimer   timer;      /* device timing, NULL without a GPU */
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
  (*r)->nnz   = A->nnz;
  PetscFunctionReturn(0);
}

static PetscErrorCode Median(PetscInt n, PetscReal t[], PetscReal *median)
{
  PetscFunctionBeginUser;
  PetscCall(PetscSortReal(n, t));
  *median = n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
  PetscFunctionReturn(0);
}

/* fewer products on the host for large matrices: about 2 GB moved, at least 3 */
static PetscInt HostReps(const Bench *b, const CSR *A)
{
  return PetscMax(3, PetscMin(b->reps, (PetscInt)(2e9 / MODEL_BYTES(A->nrows, A->nnz))));
}

/* Median time of y = A x: on the device between CUDA events (and by wall clock around
   synchronizations), on the host by wall clock */
static PetscErrorCode TimeMatMult(Bench *b, Mat A, Vec x, Vec y, PetscBool device, PetscInt reps, PetscReal *ms, PetscReal *wall_ms)
{
  PetscReal     *tev, *twall;
  PetscLogDouble t0, t1;
  PetscInt       warmup = device ? b->warmup : 1;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc2(reps, &tev, reps, &twall));
  for (PetscInt r = -warmup; r < reps; r++) {
    double ev = 0;

#if defined(BENCH_HAVE_CUDA)
    if (device) {
      PetscCallBenchCuda(BenchCudaSynchronize());
      PetscCall(PetscTime(&t0));
      PetscCallBenchCuda(BenchCudaTimerStart(b->timer));
      PetscCall(MatMult(A, x, y));
      PetscCallBenchCuda(BenchCudaTimerStop(b->timer, &ev));
      PetscCallBenchCuda(BenchCudaSynchronize());
      PetscCall(PetscTime(&t1));
    } else
#endif
    {
      PetscCall(PetscTime(&t0));
      PetscCall(MatMult(A, x, y));
      PetscCall(PetscTime(&t1));
      ev = 1e3 * (t1 - t0);
    }
    if (r >= 0) {
      tev[r]   = ev;
      twall[r] = 1e3 * (t1 - t0);
    }
  }
  PetscCall(Median(reps, tev, ms));
  PetscCall(Median(reps, twall, wall_ms));
  PetscCall(PetscFree2(tev, twall));
  PetscFunctionReturn(0);
}

static PetscErrorCode RelativeError(Vec y, Vec yref, PetscReal *relerr)
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

/* A matrix of the given type with the values of A: assembled like any AIJ matrix, so an AIJ
   subclass builds its format at the final assembly */
static PetscErrorCode CreateFromCSR(const CSR *A, const char *type, Mat *B)
{
  PetscFunctionBeginUser;
  PetscCall(MatCreate(PETSC_COMM_SELF, B));
  PetscCall(MatSetSizes(*B, A->nrows, A->ncols, A->nrows, A->ncols));
  PetscCall(MatSetType(*B, type));
  PetscCall(MatSetFromOptions(*B));
  PetscCall(MatSeqAIJSetPreallocationCSR(*B, A->rowptr, A->colidx, A->val));
  PetscFunctionReturn(0);
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
  if (!b->device) {
    PetscCall(PetscStrncpy(r->skipped, b->no_device, sizeof(r->skipped)));
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
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%-14s %10s %11s %-15s %-5s %-7s %10s %8s %8s %6s %8s %9s\n", "matrix", "rows", "nnz", "format", "mode", "backend", "ms", "GFLOP/s", "GB/s", "%copy", "vs cuSP", "rel.err"));
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
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "%-14s %10" PetscInt_FMT " %11" PetscInt_FMT " %-15s %-5s %-7s ", r->matrix, r->nrows, r->nnz, format, r->mode, r->backend));
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
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s: %" PetscInt_FMT " rows, %" PetscInt_FMT " nonzeros\n", A->name, A->nrows, A->nnz));
  for (PetscInt i = first; i < b->nresults; i++) {
    const Result *r = &b->results[i];

    if (r->relerr < REL_TOL) PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %-10s %-5s product agrees with aij (relative error < %g)\n", r->format, r->mode, REL_TOL));
    else PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %-10s %-5s product DIFFERS from aij: relative error %g\n", r->format, r->mode, (double)r->relerr));
  }
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
    Mat A;
    Vec xd, yd;

    PetscCall(CreateFromCSR(csr, formats[f], &A));
    PetscCall(MatCreateVecs(A, &xd, &yd));
    PetscCall(VecCopy(x, xd));
    PetscCall(RunMode(b, csr, A, formats[f], "GPU", xd, yd, yref, PETSC_FALSE));
    PetscCall(RunMode(b, csr, A, formats[f], "xGPU", x, y, yref, PETSC_FALSE));
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

/* Backend, device, copy bandwidth; the header of the table */
static PetscErrorCode BenchSetUp(Bench *b)
{
  PetscFunctionBeginUser;
  PetscCall(PetscELLGGetBackend(&b->backend)); /* also selects the library's device */
#if defined(BENCH_HAVE_CUDA)
  {
    int ndev;

    PetscCallBenchCuda(BenchCudaGetDeviceCount(&ndev));
    if (ndev) {
      b->device = PETSC_TRUE;
      PetscCallBenchCuda(BenchCudaDeviceName(b->device_name, sizeof(b->device_name)));
      PetscCallBenchCuda(BenchCudaTimerCreate(&b->timer));
    } else PetscCall(PetscStrncpy(b->no_device, "no usable CUDA device", sizeof(b->no_device)));
  }
#else
  PetscCall(PetscStrncpy(b->no_device, "bench built without CUDA", sizeof(b->no_device)));
#endif
  if (b->check_only) PetscFunctionReturn(0);
#if defined(BENCH_HAVE_CUDA)
  if (b->device) {
    double memcpy_Bps, kernel_Bps;

    PetscCallBenchCuda(BenchCudaCopyBandwidth((size_t)1 << 30, 20, &memcpy_Bps, &kernel_Bps));
    b->memcpy_GBs = 1e-9 * memcpy_Bps;
    b->kernel_GBs = 1e-9 * kernel_Bps;
    b->copy_GBs   = PetscMax(b->memcpy_GBs, b->kernel_GBs);
  }
#endif
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "bench_spmv: PETSc-ELLG backend %s; GPU: %s\n", PetscELLGBackends[b->backend], b->device ? b->device_name : b->no_device));
  if (b->device) PetscCall(PetscPrintf(PETSC_COMM_SELF, "copy bandwidth (read + write, 1 GiB): cudaMemcpy D2D %.1f GB/s, copy kernel %.1f GB/s; %%copy is against the higher\n", (double)b->memcpy_GBs, (double)b->kernel_GBs));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "GB/s: model bytes 12 nnz + 20 rows per product; ms: median of %" PetscInt_FMT " products after %" PetscInt_FMT " warm-up on the device (CUDA events), of 3-%" PetscInt_FMT " on the host\n", b->reps, b->warmup, b->reps));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "modes: GPU = device vectors, xGPU = host vectors (transfers included); vs cuSP = cuSPARSE time / this time\n"));
  PetscCall(PrintTableHeader());
  PetscFunctionReturn(0);
}

static PetscErrorCode JSONNumber(FILE *fp, const char *key, PetscReal v, PetscBool valid, const char *sep)
{
  PetscFunctionBeginUser;
  if (valid) PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "\"%s\": %.6g%s", key, (double)v, sep));
  else PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "\"%s\": null%s", key, sep));
  PetscFunctionReturn(0);
}

static PetscErrorCode WriteJSON(Bench *b, const char *path)
{
  FILE *fp;

  PetscFunctionBeginUser;
  PetscCall(PetscFOpen(PETSC_COMM_SELF, path, "w", &fp));
  PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "{\n  \"backend\": \"%s\",\n  \"device\": ", PetscELLGBackends[b->backend]));
  if (b->device) PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "\"%s\",\n", b->device_name));
  else PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "null,\n  \"no_device\": \"%s\",\n", b->no_device));
  PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "  \"copy_bandwidth_GBs\": {"));
  PetscCall(JSONNumber(fp, "memcpy", b->memcpy_GBs, b->device, ", "));
  PetscCall(JSONNumber(fp, "kernel", b->kernel_GBs, b->device, ", "));
  PetscCall(JSONNumber(fp, "reference", b->copy_GBs, b->device, "},\n"));
  PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "  \"model_bytes\": \"12*nnz + 20*nrows\",\n  \"reps\": %" PetscInt_FMT ",\n  \"warmup\": %" PetscInt_FMT ",\n  \"results\": [\n", b->reps, b->warmup));
  for (PetscInt i = 0; i < b->nresults; i++) {
    const Result *r  = &b->results[i];
    PetscBool     ok = (PetscBool)!r->skipped[0];
    PetscReal     GBs = ok ? 1e-9 * MODEL_BYTES(r->nrows, r->nnz) / (1e-3 * r->ms) : 0, cusparse_ms = 0;

    for (PetscInt j = 0; j < b->nresults; j++) {
      PetscBool same, is;

      PetscCall(PetscStrcmp(b->results[j].matrix, r->matrix, &same));
      PetscCall(PetscStrcmp(b->results[j].format, "cusparse", &is));
      if (same && is && !b->results[j].skipped[0]) cusparse_ms = b->results[j].ms;
    }
    PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "    {\"matrix\": \"%s\", \"nrows\": %" PetscInt_FMT ", \"nnz\": %" PetscInt_FMT ", \"format\": \"%s\", \"variant\": \"%s\", \"mode\": \"%s\", \"vectors\": \"%s\", \"backend\": \"%s\", ", r->matrix, r->nrows, r->nnz, r->format, r->variant, r->mode, r->vectors, r->backend));
    if (ok) PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "\"skipped\": null, \"reps\": %" PetscInt_FMT ", ", r->reps));
    else PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "\"skipped\": \"%s\", \"reps\": 0, ", r->skipped));
    PetscCall(JSONNumber(fp, "ms", r->ms, ok, ", "));
    PetscCall(JSONNumber(fp, "wall_ms", r->wall_ms, (PetscBool)(ok && r->wall_ms > 0), ", "));
    PetscCall(JSONNumber(fp, "GFLOPs", 2e-9 * r->nnz / (1e-3 * r->ms), ok, ", "));
    PetscCall(JSONNumber(fp, "GBs", GBs, ok, ", "));
    PetscCall(JSONNumber(fp, "pct_copy", 100 * GBs / b->copy_GBs, (PetscBool)(ok && b->copy_GBs > 0), ", "));
    PetscCall(JSONNumber(fp, "speedup_vs_cusparse", cusparse_ms / r->ms, (PetscBool)(ok && cusparse_ms > 0), ", "));
    PetscCall(JSONNumber(fp, "rel_error", r->relerr, (PetscBool)(ok && !r->reference), i + 1 < b->nresults ? "},\n" : "}\n"));
  }
  PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "  ]\n}\n"));
  PetscCall(PetscFClose(PETSC_COMM_SELF, fp));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  Bench       b = {.reps = 100, .warmup = 10};
  PetscInt    sizes[MAX_LIST] = {50, 100, 150, 200, 250, 300}, nsizes = MAX_LIST, ngens = MAX_LIST, nformats = MAX_LIST;
  char       *gens[MAX_LIST], *formats[MAX_LIST], json[PETSC_MAX_PATH_LEN] = "";
  PetscBool   setn, setgen, setformats, bad = PETSC_FALSE;
  PetscMPIInt size;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscELLGInitializePackage());
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCheck(size == 1, PETSC_COMM_WORLD, PETSC_ERR_WRONG_MPI_SIZE, "bench_spmv times sequential matrices: run it on one process");
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "SpMV benchmark", NULL);
  PetscCall(PetscOptionsStringArray("-gen", "matrix generators", NULL, gens, &ngens, &setgen));
  PetscCall(PetscOptionsIntArray("-n", "sizes", NULL, sizes, &nsizes, &setn));
  PetscCall(PetscOptionsStringArray("-formats", "PETSc-ELLG matrix types", NULL, formats, &nformats, &setformats));
  PetscCall(PetscOptionsInt("-reps", "timed products per device row", NULL, b.reps, &b.reps, NULL));
  PetscCall(PetscOptionsInt("-warmup", "untimed products before them", NULL, b.warmup, &b.warmup, NULL));
  PetscCall(PetscOptionsString("-json", "write the results as JSON to this file", NULL, json, json, sizeof(json), NULL));
  PetscCall(PetscOptionsBool("-check_only", "only compare the products with AIJ's", NULL, b.check_only, &b.check_only, NULL));
  PetscOptionsEnd();
  if (!setn) nsizes = 6;
  if (!setgen) {
    ngens = 1;
    PetscCall(PetscStrallocpy("lap3d7", &gens[0]));
  }
  if (!setformats) {
    nformats = 1;
    PetscCall(PetscStrallocpy(MATELLG, &formats[0]));
  }
  PetscCheck(b.reps >= 50, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-reps %" PetscInt_FMT ": at least 50 timed products", b.reps);
  PetscCheck(b.warmup >= 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-warmup %" PetscInt_FMT " must not be negative", b.warmup);

  PetscCall(BenchSetUp(&b));
  for (PetscInt g = 0; g < ngens; g++) {
    Generator generate = NULL;

    for (size_t k = 0; k < PETSC_STATIC_ARRAY_LENGTH(generators); k++) {
      PetscBool match;

      PetscCall(PetscStrcmp(gens[g], generators[k].name, &match));
      if (match) generate = generators[k].generate;
    }
    PetscCheck(generate, PETSC_COMM_WORLD, PETSC_ERR_ARG_UNKNOWN_TYPE, "-gen %s: unknown generator (known: lap3d7)", gens[g]);
    for (PetscInt s = 0; s < nsizes; s++) {
      CSR A;

      PetscCall(PetscMemzero(&A, sizeof(A)));
      PetscCall(generate(sizes[s], &A));
      PetscCall(BenchMatrix(&b, &A, nformats, formats));
      PetscCall(CSRDestroy(&A));
    }
  }
  for (PetscInt i = 0; i < b.nresults; i++)
    if (!b.results[i].reference && !b.results[i].skipped[0] && !(b.results[i].relerr < REL_TOL)) bad = PETSC_TRUE;
  if (!b.check_only) PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s\n", bad ? "SOME PRODUCTS DIFFER FROM AIJ'S: see rel.err" : "All products agree with AIJ's (relative error < 1e-12)"));
  if (json[0]) PetscCall(WriteJSON(&b, json));

#if defined(BENCH_HAVE_CUDA)
  PetscCallBenchCuda(BenchCudaTimerDestroy(&b.timer));
#endif
  for (PetscInt g = 0; g < ngens; g++) PetscCall(PetscFree(gens[g]));
  for (PetscInt f = 0; f < nformats; f++) PetscCall(PetscFree(formats[f]));
  PetscCall(PetscFree(b.results));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   test:
      args: -n 3,5 -check_only

TEST*/
