#include <petscellg.h>
#include "bench_common.h"
#include "bench_cusparse.h"
#include "bench_matrices.h"

static char help[] = "Times sparse times dense, C = A B with B a dense matrix of L columns (MatProductNumeric), of\n\
PETSc-ELLG matrix formats next to L separate MatMults with the same matrix, PETSc's AIJ on the host and cuSPARSE\n\
CSR SpMM (cusparseSpMM) on the same data, and checks every product against AIJ's.\n\
" BENCH_MATRICES_HELP "\
  -n <50,100>              sizes (list) for the generators of -gen: -n 100,200 adds lap3d7-100,lap3d7-200;\n\
                           the default when neither -matrices nor -suite is given\n\
  -L <1,4,8,16,32>         columns of B (list)\n\
  -formats <ellg,pjds,slicedell,csrg> matrix types (list; any name MatSetType() knows), each timed as C = A B\n\
                           with B and C device dense matrices (MATDENSEGPU) on the device (mode GPU) and\n\
                           with B and C plain dense matrices on the host (xGPU, transfers included), and as\n\
                           L MatMults, with device vectors (GPU) and with the columns of B and C (xGPU)\n\
  -xgpu <true>             also the xGPU rows (B and C on the host); -xgpu 0 times the device rows alone\n\
  -reps <20>               timed products per device row, median reported (at least 5)\n\
  -warmup <3>              untimed products before them\n\
  -json <file>             also write the results as JSON\n\
  -check_only              only compare each product with AIJ's, no timing: output for tests\n\n";

/* Bytes one product moves at the least: A once (values, column indices, row offsets), B read and C
   written once */
#define MODEL_BYTES(nrows, ncols, nnz, L) (12.0 * (nnz) + 4.0 * ((nrows) + 1) + 8.0 * (L) * ((nrows) + (ncols)))

/* One row of the results: one way to compute C = A B for one matrix and one L */
typedef struct {
  char      matrix[64], format[32], method[16], variant[16], mode[8], backend[8];
  char      skipped[160]; /* why it was not run, empty when it was */
  PetscBool reference;    /* AIJ on the host: the product the others are checked against */
  PetscBool failed;       /* the format could not be built (skipped says why) */
  PetscInt  nrows, ncols, nnz, L, reps;
  PetscReal ms, wall_ms; /* medians of one product of L columns: device events (host: wall clock), wall clock */
  PetscReal relerr;      /* ||C - C_aij||_F / ||C_aij||_F */
} Result;

typedef struct {
  PetscInt         L[BENCH_MAX_LIST], nL, reps, warmup;
  PetscBool        check_only;
  PetscBool        xgpu; /* also the rows with B and C on the host */
  PetscELLGBackend backend; /* of PETSc-ELLG objects */
  BenchDevice      dev;
  Result          *results;
  PetscInt         nresults, maxresults;
} Bench;

static PetscErrorCode BenchAddResult(Bench *b, const CSR *A, PetscInt L, const char *format, const char *method, const char *mode, const char *backend, Result **r)
{
  PetscFunctionBeginUser;
  PetscCall(BenchAppend(sizeof(Result), (void **)&b->results, &b->nresults, &b->maxresults, (void **)r));
  PetscCall(PetscStrncpy((*r)->matrix, A->name, sizeof((*r)->matrix)));
  PetscCall(PetscStrncpy((*r)->format, format, sizeof((*r)->format)));
  PetscCall(PetscStrncpy((*r)->method, method, sizeof((*r)->method)));
  PetscCall(PetscStrncpy((*r)->mode, mode, sizeof((*r)->mode)));
  PetscCall(PetscStrncpy((*r)->backend, backend, sizeof((*r)->backend)));
  (*r)->nrows = A->nrows;
  (*r)->ncols = A->ncols;
  (*r)->nnz   = A->nnz;
  (*r)->L     = L;
  PetscFunctionReturn(0);
}

/* fewer products on the host for large matrices: about 2 GB moved, at least 3 */
static PetscInt HostReps(const Bench *b, const CSR *A, PetscInt L)
{
  return PetscMax(3, PetscMin(b->reps, (PetscInt)(2e9 / MODEL_BYTES(A->nrows, A->ncols, A->nnz, L))));
}

/* ||C - Cref||_F / ||Cref||_F of two dense matrices */
static PetscErrorCode DenseRelativeError(Mat C, Mat Cref, PetscReal *relerr)
{
  const PetscScalar *c, *r;
  PetscInt           m, n, ldc, ldr;
  PetscReal          d = 0, s = 0;

  PetscFunctionBeginUser;
  PetscCall(MatGetSize(Cref, &m, &n));
  PetscCall(MatDenseGetLDA(C, &ldc));
  PetscCall(MatDenseGetLDA(Cref, &ldr));
  PetscCall(MatDenseGetArrayRead(C, &c));
  PetscCall(MatDenseGetArrayRead(Cref, &r));
  for (PetscInt j = 0; j < n; j++)
    for (PetscInt i = 0; i < m; i++) {
      const PetscScalar e = c[i + j * ldc] - r[i + j * ldr];

      d += PetscRealPart(PetscConj(e) * e);
      s += PetscRealPart(PetscConj(r[i + j * ldr]) * r[i + j * ldr]);
    }
  PetscCall(MatDenseRestoreArrayRead(C, &c));
  PetscCall(MatDenseRestoreArrayRead(Cref, &r));
  *relerr = s > 0 ? PetscSqrtReal(d / s) : PetscSqrtReal(d);
  PetscFunctionReturn(0);
}

/* the operations timed: a product of L columns each */
static PetscErrorCode ProductNumeric(void *ctx)
{
  PetscFunctionBeginUser;
  PetscCall(MatProductNumeric((Mat)ctx));
  PetscFunctionReturn(0);
}

typedef struct {
  Mat      A, B, C; /* the columns of B and C as host vectors (xGPU) */
  Vec     *x, *y;   /* or L device vectors each (GPU) */
  PetscInt L;
} MultLoop;

static PetscErrorCode MultColumns(void *ctx)
{
  MultLoop *l = (MultLoop *)ctx;

  PetscFunctionBeginUser;
  for (PetscInt j = 0; j < l->L; j++) {
    if (l->x) PetscCall(MatMult(l->A, l->x[j], l->y[j]));
    else {
      Vec x, y;

      PetscCall(MatDenseGetColumnVecRead(l->B, j, &x));
      PetscCall(MatDenseGetColumnVecWrite(l->C, j, &y));
      PetscCall(MatMult(l->A, x, y));
      PetscCall(MatDenseRestoreColumnVecWrite(l->C, j, &y));
      PetscCall(MatDenseRestoreColumnVecRead(l->B, j, &x));
    }
  }
  PetscFunctionReturn(0);
}

/* op(ctx) once (-check_only) or timed into r; on_device: the product runs on the GPU */
static PetscErrorCode Run(Bench *b, const CSR *csr, Result *r, PetscBool on_device, PetscErrorCode (*op)(void *), void *ctx)
{
  PetscFunctionBeginUser;
  if (b->check_only) PetscCall(op(ctx));
  else {
    r->reps = on_device ? b->reps : HostReps(b, csr, r->L);
    PetscCall(BenchTime(&b->dev, on_device, PETSC_FALSE, on_device ? b->warmup : 1, r->reps, op, ctx, &r->ms, &r->wall_ms));
  }
  PetscFunctionReturn(0);
}

/* cuSPARSE SpMM on the bench's own device copies of A and B: with B and C on the device (GPU) and with
   their copies from and to the host (xGPU); the best of the algorithms cuSPARSE offers for each */
static PetscErrorCode RunCusparse(Bench *b, const CSR *csr, Mat B, Mat Cref)
{
  const char *modes[2] = {"GPU", "xGPU"};
  PetscInt    L;

  PetscFunctionBeginUser;
  PetscCall(MatGetSize(B, NULL, &L));
  for (PetscInt t = 0; t < (b->xgpu ? 2 : 1); t++) {
    Result *r;

    PetscCall(BenchAddResult(b, csr, L, "cusparse", "SpMM", modes[t], "cuda", &r));
    if (!b->dev.device) {
      PetscCall(PetscStrncpy(r->skipped, b->dev.none, sizeof(r->skipped)));
      continue;
    }
#if defined(BENCH_HAVE_CUDA)
    {
      const BenchCusparseSpMMAlg algs[]  = {BENCH_CUSPARSE_SPMM_DEFAULT, BENCH_CUSPARSE_SPMM_CSR_ALG1, BENCH_CUSPARSE_SPMM_CSR_ALG3};
      const char                *names[] = {"DEFAULT", "ALG1", "ALG3"};
      const PetscScalar         *ba;
      PetscScalar               *ca;
      PetscReal                 *tm;
      PetscInt                   ldb, ldc;
      BenchCusparseSpMM          cs;
      Mat                        C;

      PetscCheck(sizeof(PetscInt) == sizeof(int) && sizeof(PetscScalar) == sizeof(double), PETSC_COMM_SELF, PETSC_ERR_SUP, "The cuSPARSE reference needs 32-bit PetscInt and real double PetscScalar");
      PetscCall(MatDuplicate(Cref, MAT_DO_NOT_COPY_VALUES, &C));
      PetscCall(PetscMalloc1(b->reps, &tm));
      PetscCall(MatDenseGetLDA(B, &ldb));
      PetscCall(MatDenseGetArrayRead(B, &ba));
      PetscCallBenchCuda(BenchCusparseSpMMCreate((int)csr->nrows, (int)csr->ncols, (const int *)csr->rowptr, (const int *)csr->colidx, (const double *)csr->val, (int)L, (const double *)ba, (int)ldb, &cs));
      r->reps = b->reps;
      r->ms   = PETSC_MAX_REAL;
      for (size_t a = 0; a < PETSC_STATIC_ARRAY_LENGTH(algs); a++) {
        PetscReal ms, relerr;
        int       err = BenchCusparseSpMMTime(cs, algs[a], (int)t, (int)b->warmup, (int)b->reps, (double *)tm);

        if (err == BENCH_CUSPARSE_NOT_SUPPORTED) continue;
        PetscCallBenchCuda(err);
        PetscCall(Median(b->reps, tm, &ms));
        PetscCall(MatDenseGetLDA(C, &ldc));
        PetscCall(MatDenseGetArrayWrite(C, &ca));
        PetscCallBenchCuda(BenchCusparseSpMMGetResult(cs, (double *)ca, (int)ldc));
        PetscCall(MatDenseRestoreArrayWrite(C, &ca));
        PetscCall(DenseRelativeError(C, Cref, &relerr));
        r->relerr = PetscMax(r->relerr, relerr);
        if (ms < r->ms) {
          r->ms = ms;
          PetscCall(PetscStrncpy(r->variant, names[a], sizeof(r->variant)));
        }
      }
      PetscCall(MatDenseRestoreArrayRead(B, &ba));
      PetscCallBenchCuda(BenchCusparseSpMMDestroy(&cs));
      if (!r->variant[0]) PetscCall(PetscStrncpy(r->skipped, "cuSPARSE offers no SpMM algorithm for these matrices", sizeof(r->skipped)));
      PetscCall(PetscFree(tm));
      PetscCall(MatDestroy(&C));
    }
#endif
  }
  PetscFunctionReturn(0);
}

/* C = A B (MatProductNumeric) timed into r, and checked against Cref */
static PetscErrorCode RunProduct(Bench *b, const CSR *csr, Result *r, PetscBool on_device, Mat A, Mat B, Mat Cref)
{
  Mat C;

  PetscFunctionBeginUser;
  PetscCall(MatProductCreate(A, B, NULL, &C));
  PetscCall(MatProductSetType(C, MATPRODUCT_AB));
  PetscCall(MatProductSetFromOptions(C));
  PetscCall(MatProductSymbolic(C));
  PetscCall(Run(b, csr, r, on_device, ProductNumeric, C));
  PetscCall(DenseRelativeError(C, Cref, &r->relerr));
  PetscCall(MatDestroy(&C));
  PetscFunctionReturn(0);
}

/* the rows of the format A: C = A B (MatProductNumeric) with B and C device dense matrices whose values are on
   the device, and with B and C dense on the host; then L MatMults with device vectors and with the columns of B
   and C */
static PetscErrorCode RunFormat(Bench *b, const CSR *csr, Mat A, const char *format, Mat B, Mat Cref)
{
  const char      *backend;
  PetscELLGBackend be;
  PetscBool        on_device, ours;
  MultLoop         loop = {A, B, NULL, NULL, NULL, 0};
  PetscInt         L;
  Result          *r;
  Mat              Bgpu, C;

  PetscFunctionBeginUser;
  PetscCall(MatGetSize(B, NULL, &L));
  loop.L = L;
  PetscCall(PetscObjectTypeCompareAny((PetscObject)A, &ours, MATSEQAIJELLG, MATSEQAIJPJDS, MATSEQAIJSLICEDELL, ""));
  be = PETSCELLG_BACKEND_HOST;
  if (ours) PetscCall(MatELLGGetBackend(A, &be));
  on_device = (PetscBool)(be == PETSCELLG_BACKEND_CUDA);
  backend   = on_device ? "cuda" : "host";

  PetscCall(BenchAddResult(b, csr, L, format, "MatMatMult", "GPU", backend, &r));
  if (ours) {
    PetscCall(MatConvert(B, MATDENSEGPU, MAT_INITIAL_MATRIX, &Bgpu)); /* B's values go to the device */
    PetscCall(RunProduct(b, csr, r, on_device, A, Bgpu, Cref));
    PetscCall(MatDestroy(&Bgpu));
  } else PetscCall(PetscStrncpy(r->skipped, "not a PETSc-ELLG format: no product on device dense matrices", sizeof(r->skipped)));

  if (b->xgpu) {
    PetscCall(BenchAddResult(b, csr, L, format, "MatMatMult", "xGPU", backend, &r));
    PetscCall(RunProduct(b, csr, r, on_device, A, B, Cref));
  }

  PetscCall(BenchAddResult(b, csr, L, format, "L x MatMult", "GPU", backend, &r));
  PetscCall(MatDuplicate(Cref, MAT_DO_NOT_COPY_VALUES, &C));
  PetscCall(PetscMalloc2(L, &loop.x, L, &loop.y));
  for (PetscInt j = 0; j < L; j++) {
    Vec col;

    PetscCall(MatCreateVecs(A, &loop.x[j], &loop.y[j]));
    PetscCall(MatDenseGetColumnVecRead(B, j, &col));
    PetscCall(VecCopy(col, loop.x[j]));
    PetscCall(MatDenseRestoreColumnVecRead(B, j, &col));
  }
  PetscCall(Run(b, csr, r, on_device, MultColumns, &loop));
  for (PetscInt j = 0; j < L; j++) {
    Vec col;

    PetscCall(MatDenseGetColumnVecWrite(C, j, &col));
    PetscCall(VecCopy(loop.y[j], col));
    PetscCall(MatDenseRestoreColumnVecWrite(C, j, &col));
    PetscCall(VecDestroy(&loop.x[j]));
    PetscCall(VecDestroy(&loop.y[j]));
  }
  PetscCall(PetscFree2(loop.x, loop.y));
  PetscCall(DenseRelativeError(C, Cref, &r->relerr));

  if (b->xgpu) {
    PetscCall(BenchAddResult(b, csr, L, format, "L x MatMult", "xGPU", backend, &r));
    PetscCall(MatZeroEntries(C));
    loop.C = C;
    PetscCall(Run(b, csr, r, on_device, MultColumns, &loop));
    PetscCall(DenseRelativeError(C, Cref, &r->relerr));
  }
  PetscCall(MatDestroy(&C));
  PetscFunctionReturn(0);
}

/* the time of the row of results [first, last) with the given format, method and mode, 0 when none */
static PetscReal FindMs(const Bench *b, PetscInt first, PetscInt last, const char *format, const char *method, const char *mode)
{
  for (PetscInt i = first; i < last; i++) {
    const Result *r = &b->results[i];

    if (!r->skipped[0] && r->reps && !strcmp(r->format, format) && !strcmp(r->method, method) && !strcmp(r->mode, mode)) return r->ms;
  }
  return 0;
}

/* the rows of results [first, last) of one matrix and one L, with their speedups against cuSPARSE (same
   mode) and against the L MatMults of the same format and mode */
static PetscErrorCode PrintResults(Bench *b, PetscInt first, PetscInt last)
{
  PetscFunctionBeginUser;
  for (PetscInt i = first; i < last; i++) {
    const Result   *r  = &b->results[i];
    const PetscReal cu = FindMs(b, first, last, "cusparse", "SpMM", r->mode), loop = FindMs(b, first, last, r->format, "L x MatMult", r->mode);
    char            method[48], vscu[16] = "-", vsloop[16] = "-", err[16] = "reference";

    PetscCall(PetscSNPrintf(method, sizeof(method), "%s %s%s%s", r->format, r->method, r->variant[0] ? "/" : "", r->variant));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "%-20s %10" PetscInt_FMT " %11" PetscInt_FMT " %3" PetscInt_FMT " %-24s %-5s %-7s ", r->matrix, r->nrows, r->nnz, r->L, method, r->mode, r->backend));
    if (r->skipped[0]) {
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "skipped: %s\n", r->skipped));
      continue;
    }
    if (cu > 0 && strcmp(r->format, "cusparse")) PetscCall(PetscSNPrintf(vscu, sizeof(vscu), "%.2fx", (double)(cu / r->ms)));
    if (loop > 0 && strcmp(r->method, "L x MatMult")) PetscCall(PetscSNPrintf(vsloop, sizeof(vsloop), "%.2fx", (double)(loop / r->ms)));
    if (!r->reference) PetscCall(PetscSNPrintf(err, sizeof(err), "%.1e", (double)r->relerr));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "%10.4f %8.2f %8.1f %8s %8s %9s\n", (double)r->ms, (double)(2e-9 * r->nnz * r->L / (1e-3 * r->ms)), (double)(1e-9 * MODEL_BYTES(r->nrows, r->ncols, r->nnz, r->L) / (1e-3 * r->ms)), vscu, vsloop, err));
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode PrintChecks(Bench *b, PetscInt first, PetscInt last)
{
  PetscFunctionBeginUser;
  for (PetscInt i = first; i < last; i++) {
    const Result *r = &b->results[i];
    char          what[64];

    PetscCall(PetscSNPrintf(what, sizeof(what), "L = %2" PetscInt_FMT " %-10s %-11s %-4s", r->L, r->format, r->method, r->mode));
    if (r->skipped[0]) PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %s skipped: %s\n", what, r->skipped));
    else if (r->relerr < REL_TOL) PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %s product agrees with aij (relative error < %g)\n", what, REL_TOL));
    else PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %s product DIFFERS from aij: relative error %g\n", what, (double)r->relerr));
  }
  PetscFunctionReturn(0);
}

/* B of L columns with values that depend on (i, j) only */
static PetscErrorCode DenseB(PetscInt n, PetscInt L, Mat *B)
{
  PetscScalar *ba;

  PetscFunctionBeginUser;
  PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, n, L, NULL, B));
  PetscCall(MatDenseGetArrayWrite(*B, &ba));
  for (PetscInt j = 0; j < L; j++)
    for (PetscInt i = 0; i < n; i++) ba[i + j * n] = 0.5 + (PetscReal)(((PetscInt64)i * 7919 + (PetscInt64)j * 104729) % 1013) / 1013;
  PetscCall(MatDenseRestoreArrayWrite(*B, &ba));
  PetscCall(MatAssemblyBegin(*B, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*B, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

/* All rows of one matrix, for each L: AIJ on the host (the reference product), cuSPARSE, then each format */
static PetscErrorCode BenchMatrix(Bench *b, const CSR *csr, PetscInt nformats, char *formats[])
{
  Mat *A, Aaij;
  char(*why)[sizeof(b->results[0].skipped)];

  PetscFunctionBeginUser;
  PetscCall(MatCreateSeqAIJWithArrays(PETSC_COMM_SELF, csr->nrows, csr->ncols, csr->rowptr, csr->colidx, csr->val, &Aaij));
  PetscCall(PetscMalloc2(nformats, &A, nformats, &why));
  for (PetscInt f = 0; f < nformats; f++) PetscCall(BuildFormat(csr, formats[f], NULL, &A[f], why[f], sizeof(why[f])));
  if (b->check_only) PetscCall(PrintMatrixLine(csr));
  for (PetscInt l = 0; l < b->nL; l++) {
    const PetscInt first = b->nresults;
    Result        *r;
    Mat            B, Cref;

    PetscCall(DenseB(csr->ncols, b->L[l], &B));
    PetscCall(MatProductCreate(Aaij, B, NULL, &Cref));
    PetscCall(MatProductSetType(Cref, MATPRODUCT_AB));
    PetscCall(MatProductSetFromOptions(Cref));
    PetscCall(MatProductSymbolic(Cref));
    PetscCall(MatProductNumeric(Cref));
    if (!b->check_only) {
      PetscCall(BenchAddResult(b, csr, b->L[l], MATAIJ, "MatMatMult", "host", "host", &r));
      r->reference = PETSC_TRUE;
      PetscCall(Run(b, csr, r, PETSC_FALSE, ProductNumeric, Cref));
      PetscCall(RunCusparse(b, csr, B, Cref));
    }
    for (PetscInt f = 0; f < nformats; f++) {
      if (A[f]) PetscCall(RunFormat(b, csr, A[f], formats[f], B, Cref));
      else {
        PetscCall(BenchAddResult(b, csr, b->L[l], formats[f], "MatMatMult", "xGPU", "-", &r));
        PetscCall(PetscStrncpy(r->skipped, why[f], sizeof(r->skipped)));
        r->failed = PETSC_TRUE;
      }
    }
    if (b->check_only) PetscCall(PrintChecks(b, first, b->nresults));
    else PetscCall(PrintResults(b, first, b->nresults));
    PetscCall(MatDestroy(&B));
    PetscCall(MatDestroy(&Cref));
  }
  for (PetscInt f = 0; f < nformats; f++) PetscCall(MatDestroy(&A[f]));
  PetscCall(PetscFree2(A, why));
  PetscCall(MatDestroy(&Aaij));
  PetscFunctionReturn(0);
}

/* Backend and device; the header of the table */
static PetscErrorCode BenchSetUp(Bench *b)
{
  PetscFunctionBeginUser;
  PetscCall(PetscELLGGetBackend(&b->backend)); /* also selects the library's device */
  PetscCall(BenchDeviceSetUp(&b->dev));
  if (b->check_only) PetscFunctionReturn(0);
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "bench_spmm: PETSc-ELLG backend %s; GPU: %s\n", PetscELLGBackends[b->backend], b->dev.device ? b->dev.name : b->dev.none));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "ms: median of %" PetscInt_FMT " products of L columns after %" PetscInt_FMT " warm-up on the device (CUDA events), of 3-%" PetscInt_FMT " on the host; GFLOP/s: 2 nnz L per product\n", b->reps, b->warmup, b->reps));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "GB/s: model bytes 12 nnz + 4 (rows + 1) + 8 L (rows + columns), A, B and C moved once\n"));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "modes: GPU = B and C (device dense matrices, or the L vectors) on the device, xGPU = on the host (transfers included)\n"));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "vs cuSP = cuSPARSE time (same mode) / this time; vs MatMult = time of the L MatMults (same format and mode) / this time\n"));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%-20s %10s %11s %3s %-24s %-5s %-7s %10s %8s %8s %8s %8s %9s\n", "matrix", "rows", "nnz", "L", "format method", "mode", "backend", "ms", "GFLOP/s", "GB/s", "vs cuSP", "vs Mult", "rel.err"));
  PetscFunctionReturn(0);
}

static PetscErrorCode WriteJSON(Bench *b, const char *path)
{
  FILE *fp;

  PetscFunctionBeginUser;
  PetscCall(PetscFOpen(PETSC_COMM_SELF, path, "w", &fp));
  PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "{\n  \"benchmark\": \"bench_spmm\",\n  \"run\": \"%s\",\n  \"backend\": \"%s\",\n  \"device\": ", b->check_only ? "check_only" : "timing", PetscELLGBackends[b->backend]));
  if (b->dev.device) PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "\"%s\",\n", b->dev.name));
  else PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "null,\n  \"no_device\": \"%s\",\n", b->dev.none));
  PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "  \"model_bytes\": \"12*nnz + 4*(nrows+1) + 8*L*(nrows+ncols)\",\n  \"reps\": %" PetscInt_FMT ",\n  \"warmup\": %" PetscInt_FMT ",\n  \"results\": [\n", b->reps, b->warmup));
  for (PetscInt i = 0; i < b->nresults; i++) {
    const Result *r     = &b->results[i];
    PetscBool     ok    = (PetscBool)!r->skipped[0];
    PetscBool     timed = (PetscBool)(ok && r->reps > 0);
    PetscInt      first = i, last = i;
    PetscReal     cu, loop;

    while (first > 0 && b->results[first - 1].L == r->L && !strcmp(b->results[first - 1].matrix, r->matrix)) first--;
    while (last < b->nresults && b->results[last].L == r->L && !strcmp(b->results[last].matrix, r->matrix)) last++;
    cu   = strcmp(r->format, "cusparse") ? FindMs(b, first, last, "cusparse", "SpMM", r->mode) : 0;
    loop = strcmp(r->method, "L x MatMult") ? FindMs(b, first, last, r->format, "L x MatMult", r->mode) : 0;
    PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "    {\"matrix\": "));
    PetscCall(JSONString(fp, r->matrix));
    PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, ", \"nrows\": %" PetscInt_FMT ", \"ncols\": %" PetscInt_FMT ", \"nnz\": %" PetscInt_FMT ", \"L\": %" PetscInt_FMT ", \"format\": \"%s\", \"method\": \"%s\", \"variant\": \"%s\", \"mode\": \"%s\", \"backend\": \"%s\", ", r->nrows, r->ncols, r->nnz, r->L, r->format, r->method, r->variant, r->mode, r->backend));
    if (ok) PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "\"skipped\": null, \"reps\": %" PetscInt_FMT ", ", r->reps));
    else {
      PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "\"skipped\": "));
      PetscCall(JSONString(fp, r->skipped));
      PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, ", \"reps\": 0, "));
    }
    PetscCall(JSONNumber(fp, "ms", r->ms, timed, ", "));
    PetscCall(JSONNumber(fp, "wall_ms", r->wall_ms, timed, ", "));
    PetscCall(JSONNumber(fp, "GFLOPs", timed ? 2e-9 * r->nnz * r->L / (1e-3 * r->ms) : 0, timed, ", "));
    PetscCall(JSONNumber(fp, "GBs", timed ? 1e-9 * MODEL_BYTES(r->nrows, r->ncols, r->nnz, r->L) / (1e-3 * r->ms) : 0, timed, ", "));
    PetscCall(JSONNumber(fp, "speedup_vs_cusparse", timed && cu > 0 ? cu / r->ms : 0, (PetscBool)(timed && cu > 0), ", "));
    PetscCall(JSONNumber(fp, "speedup_vs_matmult", timed && loop > 0 ? loop / r->ms : 0, (PetscBool)(timed && loop > 0), ", "));
    PetscCall(JSONNumber(fp, "rel_error", r->relerr, (PetscBool)(ok && !r->reference), i + 1 < b->nresults ? "},\n" : "}\n"));
  }
  PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "  ]\n}\n"));
  PetscCall(PetscFClose(PETSC_COMM_SELF, fp));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  Bench b = {
    .reps = 20, .warmup = 3, .xgpu = PETSC_TRUE, .L = {1, 4, 8, 16, 32},
            .nL = BENCH_MAX_LIST
  };
  const PetscInt defsizes[] = {50, 100};
  PetscInt       nformats   = BENCH_MAX_LIST;
  char          *formats[BENCH_MAX_LIST], json[PETSC_MAX_PATH_LEN] = "";
  PetscBool      setformats, setL, bad = PETSC_FALSE, failed = PETSC_FALSE;
  SpecList       specs = {NULL, 0, 0};
  PetscMPIInt    size;
  PetscErrorCode load_error = 0; /* of the first matrix that could not be loaded, the exit status */

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscELLGInitializePackage());
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCheck(size == 1, PETSC_COMM_WORLD, PETSC_ERR_WRONG_MPI_SIZE, "bench_spmm times sequential matrices: run it on one process");
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "SpMM benchmark", NULL);
  PetscCall(PetscOptionsIntArray("-L", "columns of B", NULL, b.L, &b.nL, &setL));
  PetscCall(PetscOptionsStringArray("-formats", "matrix types", NULL, formats, &nformats, &setformats));
  PetscCall(PetscOptionsInt("-reps", "timed products per device row", NULL, b.reps, &b.reps, NULL));
  PetscCall(PetscOptionsInt("-warmup", "untimed products before them", NULL, b.warmup, &b.warmup, NULL));
  PetscCall(PetscOptionsString("-json", "write the results as JSON to this file", NULL, json, json, sizeof(json), NULL));
  PetscCall(PetscOptionsBool("-xgpu", "also time B and C on the host (xGPU rows)", NULL, b.xgpu, &b.xgpu, NULL));
  PetscCall(PetscOptionsBool("-check_only", "only compare the products with AIJ's", NULL, b.check_only, &b.check_only, NULL));
  PetscOptionsEnd();
  if (!setL) b.nL = 5;
  if (!setformats) PetscCall(BenchDefaultFormats(&nformats, formats));
  PetscCheck(b.reps >= 5, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-reps %" PetscInt_FMT ": at least 5 timed products", b.reps);
  PetscCheck(b.warmup >= 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-warmup %" PetscInt_FMT " must not be negative", b.warmup);
  for (PetscInt l = 0; l < b.nL; l++) PetscCheck(b.L[l] >= 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-L %" PetscInt_FMT ": B needs at least one column", b.L[l]);
  PetscCall(CheckTypes(nformats, formats));
  PetscCall(BenchMatrixSpecs(PETSC_STATIC_ARRAY_LENGTH(defsizes), defsizes, &specs));

  PetscCall(BenchSetUp(&b));
  for (PetscInt m = 0; m < specs.n; m++) { /* a matrix that cannot be loaded is reported and skipped */
    CSR            A;
    PetscErrorCode err;
    char           why[512];

    PetscCall(TryLoadMatrix(specs.spec[m], &A, &err, why, sizeof(why)));
    if (err) {
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s: not loaded: %s\n", specs.spec[m], why));
      if (err != PETSC_ERR_SUP && !load_error) load_error = err;
      continue;
    }
    PetscCall(BenchMatrix(&b, &A, nformats, formats));
    PetscCall(CSRDestroy(&A));
  }
  for (PetscInt i = 0; i < b.nresults; i++) {
    const Result *r = &b.results[i];

    if (r->failed) failed = PETSC_TRUE;
    else if (!r->reference && !r->skipped[0] && !(r->relerr < REL_TOL)) bad = PETSC_TRUE;
  }
  if (!b.check_only) PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s\n", bad ? "SOME PRODUCTS DIFFER FROM AIJ'S: see rel.err" : "All products agree with AIJ's (relative error < 1e-12)"));
  if (failed) PetscCall(PetscPrintf(PETSC_COMM_SELF, "SOME FORMATS COULD NOT BE BUILT: see the rows skipped\n"));
  if (load_error) PetscCall(PetscPrintf(PETSC_COMM_SELF, "SOME MATRICES FAILED TO LOAD: see the lines \"not loaded\"; exit status %d, PETSc's error code of the first\n", (int)load_error));
  if (json[0]) PetscCall(WriteJSON(&b, json));

  PetscCall(BenchDeviceDestroy(&b.dev));
  for (PetscInt f = 0; f < nformats; f++) PetscCall(PetscFree(formats[f]));
  PetscCall(SpecListDestroy(&specs));
  PetscCall(PetscFree(b.results));
  PetscCall(PetscFinalize());
  return (int)load_error;
}

/*TEST

   test:
      args: -n 3,5 -L 1,3,8,33 -check_only

   # long rows split out (power law), short rows, columns per pass and chunks that do not divide L, several streams
   test:
      suffix: options
      args: -matrices powerlaw-300,random-40-3 -L 7,17 -check_only -mat_ellg_spmm_columns 3 -mat_pjds_spmm_chunk_columns 5 -mat_slicedell_spmm_streams 2 -mat_slicedell_spmm_chunk_columns 4

   # the device rows alone
   test:
      suffix: device_only
      args: -n 4 -L 2,5 -check_only -xgpu 0

   # matrices that cannot be loaded (too few entries, a missing file) each give a line and are skipped; the run
   # goes on, and its exit status is the error code of the first (Error: lets the harness take it)
   test:
      suffix: malformed
      args: -matrices ${ellg_dir}/bench/data/malformed/short.mtx,${ellg_dir}/bench/data/malformed/missing.mtx,lap2d5-4 -L 2 -check_only
      filter: Error: grep -E "not loaded|FAILED TO LOAD|^lap2d5" | sed -e "s|[^ ]*bench/data/|bench/data/|g"

TEST*/
