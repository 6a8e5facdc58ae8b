static char help[] = "Device dense matrices (MATDENSEGPU) against plain dense ones (MATDENSE) given the same operations:\n\
conversions both ways (initial, reuse, in place) and to AIJ; the operations that run on the backend copy (zero,\n\
scale, copy, axpy, Frobenius norm, duplicate), each checked to move no values; inherited host operations after\n\
the backend copy was written (MatDenseGetArray, MatSetValues, MatGetValues, MatView and MatLoad, MatTranspose,\n\
MatMult, column vectors, submatrices, placed arrays); C = A B of a matrix of one of our types with a device dense\n\
B for L = 1 to 33 against AIJ times dense: on the backend copies (log events MatGPUSpMM, not MatGPUSpMMChunks, no\n\
copies of B or C), C of type MATDENSEGPU, MatProductNumeric after A's and B's values change, B changed on the host\n\
taking the chunked path; errors for bad input. Prints pass/fail lines only, the same for every type and layout.\n\
  -type <ellg,pjds,slicedell>: the sparse type (root name)\n\
  -empty_rank: the last MPI process owns no rows and no columns\n\
  -uneven: process r owns a share of the rows growing with r, of the columns shrinking with r\n\n";

#include "ellgtest.h"

static const PetscInt Ls[] = {1, 2, 3, 7, 8, 17, 32, 33};

#define WIDTH 72 /* of the descriptions in the result lines */

/* the events counted around operations: our sparse times dense product, its chunked path, the copies of device dense matrices */
typedef struct {
  PetscLogDouble spmm, chunks, to, from;
} Counts;

static PetscErrorCode GetCounts(Counts *c)
{
  PetscFunctionBeginUser;
  PetscCall(EventCount("MatGPUSpMM", &c->spmm));
  PetscCall(EventCount("MatGPUSpMMChunks", &c->chunks));
  PetscCall(EventCount("DenseGPUCopyTo", &c->to));
  PetscCall(EventCount("DenseGPUCopyFrom", &c->from));
  PetscFunctionReturn(0);
}

/* CheckCounts - whether the events ran as often as expected since *c (on every process); updates *c */
static PetscErrorCode CheckCounts(MPI_Comm comm, Counts *c, PetscLogDouble spmm, PetscLogDouble chunks, PetscLogDouble to, PetscLogDouble from, const char *what, PetscBool *ok)
{
  Counts    now;
  PetscBool same;

  PetscFunctionBeginUser;
  PetscCall(GetCounts(&now));
  same = (PetscBool)(now.spmm - c->spmm == spmm && now.chunks - c->chunks == chunks && now.to - c->to == to && now.from - c->from == from);
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &same, 1, ELLG_MPI_BOOL, MPI_LAND, comm));
  if (!same) {
    *ok = PETSC_FALSE;
    PetscCall(PetscPrintf(comm, "    FAILED %s: unexpected events (first process: products %g, chunked %g, copies to %g, from %g; expected %g %g %g %g)\n", what, (double)(now.spmm - c->spmm), (double)(now.chunks - c->chunks), (double)(now.to - c->to), (double)(now.from - c->from), (double)spmm, (double)chunks, (double)to, (double)from));
  }
  *c = now;
  PetscFunctionReturn(0);
}

/* ToBackend - brings the values of the device dense matrix G to its backend copy (MatDenseGPUGetArrayRead()), so that
   the operations that follow run there */
static PetscErrorCode ToBackend(Mat G)
{
  const PetscScalar *g;

  PetscFunctionBeginUser;
  PetscCall(MatDenseGPUGetArrayRead(G, &g, NULL));
  PetscCall(MatDenseGPURestoreArrayRead(G, &g));
  PetscFunctionReturn(0);
}

/* ScaleBoth - G = alpha G on the backend (ToBackend() first), R = alpha R */
static PetscErrorCode ScaleBoth(Mat G, Mat R, PetscScalar alpha)
{
  PetscFunctionBeginUser;
  PetscCall(ToBackend(G));
  PetscCall(MatScale(G, alpha));
  PetscCall(MatScale(R, alpha));
  PetscFunctionReturn(0);
}

/* Compare - whether the dense matrices C and R (any dense types) have the same local values to RTOL relative to max |R| (and 1) */
static PetscErrorCode Compare(Mat C, Mat R, const char *what, PetscBool *ok)
{
  PetscInt  Mc, Nc, Mr, Nr;
  PetscReal err = PETSC_MAX_REAL, nrm = 1.0;

  PetscFunctionBeginUser;
  PetscCall(MatGetSize(C, &Mc, &Nc));
  PetscCall(MatGetSize(R, &Mr, &Nr));
  if (Mc == Mr && Nc == Nr) PetscCall(MaxDenseDifference(C, R, &err, &nrm));
  nrm = PetscMax(nrm, 1.0);
  if (!(err <= RTOL * nrm)) {
    *ok = PETSC_FALSE;
    PetscCall(PetscPrintf(PetscObjectComm((PetscObject)C), "    FAILED %s: max difference %g (max entry %g)\n", what, (double)err, (double)nrm));
  }
  PetscFunctionReturn(0);
}

/* CheckType - whether A is of the type seq<root> (one process) or mpi<root> */
static PetscErrorCode CheckType(Mat A, const char *root, const char *what, PetscBool *ok)
{
  PetscMPIInt size;
  char        type[64];
  MatType     actual;
  PetscBool   same;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)A), &size));
  PetscCall(PetscSNPrintf(type, sizeof(type), "%s%s", size > 1 ? "mpi" : "seq", root));
  PetscCall(PetscObjectTypeCompare((PetscObject)A, type, &same));
  if (!same) {
    *ok = PETSC_FALSE;
    PetscCall(MatGetType(A, &actual));
    PetscCall(PetscPrintf(PetscObjectComm((PetscObject)A), "    FAILED %s: type %s, expected %s\n", what, actual, type));
  }
  PetscFunctionReturn(0);
}

/* conversions between MATDENSE and MATDENSEGPU (initial, reuse, in place, MatSetType()), and to AIJ */
static PetscErrorCode CheckConversions(MPI_Comm comm, PetscInt m, PetscInt M, PetscRandom rnd, PetscInt *nfail)
{
  PetscBool ok = PETSC_TRUE;
  Mat       B, B2, G, D, P, Q, Qref;

  PetscFunctionBeginUser;
  PetscCall(DenseRandom(comm, MATDENSE, m, M, 5, 0, rnd, &B));
  PetscCall(DenseRandom(comm, MATDENSE, m, M, 5, 0, rnd, &B2));
  PetscCall(MatConvert(B, MATDENSEGPU, MAT_INITIAL_MATRIX, &G));
  PetscCall(CheckType(G, MATDENSEGPU, "MatConvert to densegpu", &ok));
  PetscCall(Compare(G, B, "MatConvert to densegpu", &ok));
  PetscCall(MatConvert(B2, MATDENSEGPU, MAT_REUSE_MATRIX, &G));
  PetscCall(Compare(G, B2, "MatConvert to densegpu, reuse", &ok));

  PetscCall(ScaleBoth(G, B2, 2.0)); /* on the backend: the conversions back must take the values from there */
  PetscCall(MatConvert(G, MATDENSE, MAT_INITIAL_MATRIX, &P));
  PetscCall(CheckType(P, MATDENSE, "MatConvert to dense", &ok));
  PetscCall(Compare(P, B2, "MatConvert to dense", &ok));
  PetscCall(ScaleBoth(G, B2, 0.5));
  PetscCall(MatConvert(G, MATDENSE, MAT_REUSE_MATRIX, &P));
  PetscCall(Compare(P, B2, "MatConvert to dense, reuse", &ok));
  PetscCall(ScaleBoth(G, B2, -1.0));
  PetscCall(MatConvert(G, MATAIJ, MAT_INITIAL_MATRIX, &Q));
  PetscCall(MatConvert(B2, MATAIJ, MAT_INITIAL_MATRIX, &Qref));
  PetscCall(MatConvert(Q, MATDENSE, MAT_INPLACE_MATRIX, &Q));
  PetscCall(MatConvert(Qref, MATDENSE, MAT_INPLACE_MATRIX, &Qref));
  PetscCall(Compare(Q, Qref, "MatConvert to aij", &ok));

  PetscCall(MatDuplicate(B, MAT_COPY_VALUES, &D));
  PetscCall(MatConvert(D, MATDENSEGPU, MAT_INPLACE_MATRIX, &D));
  PetscCall(CheckType(D, MATDENSEGPU, "MatConvert to densegpu in place", &ok));
  PetscCall(ScaleBoth(D, B, 3.0));
  PetscCall(MatConvert(D, MATDENSE, MAT_INPLACE_MATRIX, &D));
  PetscCall(CheckType(D, MATDENSE, "MatConvert to dense in place", &ok));
  PetscCall(Compare(D, B, "MatConvert in place both ways", &ok));
  PetscCall(MatSetType(D, MATDENSEGPU)); /* a subclass: converted in place, values kept */
  PetscCall(CheckType(D, MATDENSEGPU, "MatSetType densegpu", &ok));
  PetscCall(Compare(D, B, "MatSetType densegpu", &ok));
  PetscCall(MatDestroy(&D));
  PetscCall(MatCreateDenseGPU(comm, m, PETSC_DECIDE, M, 5, NULL, &D));
  PetscCall(CheckType(D, MATDENSEGPU, "MatCreateDenseGPU", &ok));
  PetscCall(MatCopy(B, D, SAME_NONZERO_PATTERN));
  PetscCall(Compare(D, B, "MatCreateDenseGPU, MatCopy", &ok));
  PetscCall(PrintResult(comm, WIDTH, "conversions dense <-> densegpu (initial, reuse, in place), to aij", ok, nfail));
  PetscCall(MatDestroy(&B));
  PetscCall(MatDestroy(&B2));
  PetscCall(MatDestroy(&G));
  PetscCall(MatDestroy(&D));
  PetscCall(MatDestroy(&P));
  PetscCall(MatDestroy(&Q));
  PetscCall(MatDestroy(&Qref));
  PetscFunctionReturn(0);
}

/* the operations that run on the backend copy, against the same on plain dense matrices; each moves no values
   (Compare() brings the host copy up to date in between, leaving the values valid on both) */
static PetscErrorCode CheckDeviceOps(MPI_Comm comm, PetscInt m, PetscInt M, PetscRandom rnd, PetscInt *nfail)
{
  PetscBool ok = PETSC_TRUE;
  Counts    c;
  PetscReal ng, nr;
  NormType  types[3] = {NORM_FROBENIUS, NORM_1, NORM_INFINITY};
  Mat       R, X, G, XG, H, Hplain, Dup;

  PetscFunctionBeginUser;
  PetscCall(DenseRandom(comm, MATDENSE, m, M, 9, 0, rnd, &R));
  PetscCall(DenseRandom(comm, MATDENSE, m, M, 9, 0, rnd, &X));
  PetscCall(MatConvert(R, MATDENSEGPU, MAT_INITIAL_MATRIX, &G));
  PetscCall(MatConvert(X, MATDENSEGPU, MAT_INITIAL_MATRIX, &XG));
  PetscCall(GetCounts(&c));

  PetscCall(MatScale(G, -1.5));
  PetscCall(CheckCounts(comm, &c, 0, 0, 0, 0, "MatScale", &ok));
  PetscCall(MatScale(R, -1.5));
  PetscCall(Compare(G, R, "MatScale", &ok));
  PetscCall(GetCounts(&c));
  PetscCall(MatAXPY(G, 0.5, XG, SAME_NONZERO_PATTERN));
  PetscCall(CheckCounts(comm, &c, 0, 0, 0, 0, "MatAXPY", &ok));
  PetscCall(MatAXPY(R, 0.5, X, SAME_NONZERO_PATTERN));
  PetscCall(Compare(G, R, "MatAXPY", &ok));
  PetscCall(MatAXPY(G, 2.0, X, SAME_NONZERO_PATTERN)); /* X plain: on the host */
  PetscCall(MatAXPY(R, 2.0, X, SAME_NONZERO_PATTERN));
  PetscCall(Compare(G, R, "MatAXPY with a plain dense X", &ok));

  PetscCall(ToBackend(G)); /* the host operation left the values on the host only */
  PetscCall(MatScale(G, 1.25));
  PetscCall(MatScale(R, 1.25));
  PetscCall(MatDuplicate(XG, MAT_DO_NOT_COPY_VALUES, &H));
  PetscCall(GetCounts(&c));
  PetscCall(MatCopy(G, H, SAME_NONZERO_PATTERN));
  PetscCall(CheckCounts(comm, &c, 0, 0, 0, 0, "MatCopy", &ok));
  PetscCall(Compare(H, R, "MatCopy", &ok));
  PetscCall(MatDuplicate(X, MAT_DO_NOT_COPY_VALUES, &Hplain));
  PetscCall(MatCopy(G, Hplain, SAME_NONZERO_PATTERN));
  PetscCall(Compare(Hplain, R, "MatCopy to a plain dense matrix", &ok));

  PetscCall(MatScale(G, -1.0));
  PetscCall(MatScale(R, -1.0));
  PetscCall(GetCounts(&c));
  PetscCall(MatDuplicate(G, MAT_COPY_VALUES, &Dup));
  PetscCall(CheckCounts(comm, &c, 0, 0, 0, 0, "MatDuplicate", &ok));
  PetscCall(CheckType(Dup, MATDENSEGPU, "MatDuplicate", &ok));
  PetscCall(Compare(Dup, R, "MatDuplicate", &ok));
  for (PetscInt t = 0; t < 3; t++) {
    PetscCall(MatNorm(G, types[t], &ng));
    PetscCall(MatNorm(R, types[t], &nr));
    if (!(PetscAbsReal(ng - nr) <= RTOL * nr)) {
      ok = PETSC_FALSE;
      PetscCall(PetscPrintf(comm, "    FAILED MatNorm %s: %g, dense %g\n", NormTypes[types[t]], (double)ng, (double)nr));
    }
  }
  PetscCall(MatScale(Dup, 2.0));
  PetscCall(GetCounts(&c));
  PetscCall(MatNorm(Dup, NORM_FROBENIUS, &ng));
  PetscCall(CheckCounts(comm, &c, 0, 0, 0, 0, "MatNorm Frobenius", &ok));
  PetscCall(MatNorm(R, NORM_FROBENIUS, &nr));
  if (!(PetscAbsReal(ng - 2.0 * nr) <= RTOL * nr)) {
    ok = PETSC_FALSE;
    PetscCall(PetscPrintf(comm, "    FAILED MatNorm Frobenius on the backend: %g, dense %g\n", (double)ng, (double)(2.0 * nr)));
  }
  PetscCall(GetCounts(&c));
  PetscCall(MatZeroEntries(Dup));
  PetscCall(CheckCounts(comm, &c, 0, 0, 0, 0, "MatZeroEntries", &ok));
  PetscCall(MatZeroEntries(Hplain));
  PetscCall(Compare(Dup, Hplain, "MatZeroEntries", &ok));
  PetscCall(MatDestroy(&H));
  PetscCall(MatDuplicate(G, MAT_DO_NOT_COPY_VALUES, &H));
  PetscCall(Compare(H, Hplain, "MatDuplicate without the values", &ok));
  PetscCall(PrintResult(comm, WIDTH, "zero, scale, copy, axpy, norms, duplicate against dense", ok, nfail));
  PetscCall(MatDestroy(&R));
  PetscCall(MatDestroy(&X));
  PetscCall(MatDestroy(&G));
  PetscCall(MatDestroy(&XG));
  PetscCall(MatDestroy(&H));
  PetscCall(MatDestroy(&Hplain));
  PetscCall(MatDestroy(&Dup));
  PetscFunctionReturn(0);
}

/* host operations of the dense type after the backend copy was written (MatScale() on the backend before each) */
static PetscErrorCode CheckInherited(MPI_Comm comm, PetscInt m, PetscInt M, PetscRandom rnd, PetscInt *nfail)
{
  const PetscInt N = 6, cols[2] = {1, 4};
  PetscBool      ok = PETSC_TRUE;
  PetscScalar   *g, *r, *user, vals[2 * 6];
  PetscInt       rstart, ld, lda;
  Mat            R, G, Gt, Rt, S, Lplain, Lgpu;
  Vec            x, y, yref, v;
  PetscViewer    viewer;

  PetscFunctionBeginUser;
  PetscCall(DenseRandom(comm, MATDENSE, m, M, N, 0, rnd, &R));
  PetscCall(MatConvert(R, MATDENSEGPU, MAT_INITIAL_MATRIX, &G));
  PetscCall(MatGetOwnershipRange(R, &rstart, NULL));
  PetscCall(MatGetLocalSize(R, &m, NULL)); /* m may be PETSC_DECIDE */

  /* MatDenseGetArray() sees the values of the backend, and what is written through it reaches the backend */
  PetscCall(ScaleBoth(G, R, 2.0));
  PetscCall(MatDenseGetLDA(G, &ld));
  PetscCall(MatDenseGetLDA(R, &lda));
  PetscCall(MatDenseGetArray(G, &g));
  PetscCall(MatDenseGetArray(R, &r));
  for (PetscInt j = 0; j < N; j++)
    for (PetscInt i = 0; i < m; i++) {
      if (g[i + j * ld] != r[i + j * lda]) ok = PETSC_FALSE;
      g[i + j * ld] += i + 10 * j;
      r[i + j * lda] += i + 10 * j;
    }
  PetscCall(MatDenseRestoreArray(G, &g));
  PetscCall(MatDenseRestoreArray(R, &r));
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &ok, 1, ELLG_MPI_BOOL, MPI_LAND, comm));
  if (!ok) PetscCall(PetscPrintf(comm, "    FAILED MatDenseGetArray after MatScale\n"));
  PetscCall(ScaleBoth(G, R, 3.0));
  PetscCall(Compare(G, R, "MatDenseGetArray, then MatScale", &ok));

  /* MatSetValues(), MatGetValues() */
  PetscCall(ScaleBoth(G, R, -1.0));
  for (PetscInt i = rstart; i < rstart + m; i += 3) {
    const PetscScalar sv[2] = {7.0 + i, -3.0};

    PetscCall(MatSetValues(G, 1, &i, 2, cols, sv, INSERT_VALUES));
    PetscCall(MatSetValues(R, 1, &i, 2, cols, sv, INSERT_VALUES));
  }
  PetscCall(Assemble(G, MAT_FINAL_ASSEMBLY));
  PetscCall(Assemble(R, MAT_FINAL_ASSEMBLY));
  PetscCall(ScaleBoth(G, R, 0.5));
  PetscCall(Compare(G, R, "MatSetValues, then MatScale", &ok));
  PetscCall(ScaleBoth(G, R, 2.0));
  for (PetscInt i = rstart; i < rstart + m; i++) {
    const PetscInt all[6] = {0, 1, 2, 3, 4, 5};

    PetscCall(MatGetValues(G, 1, &i, N, all, vals));
    PetscCall(MatGetValues(R, 1, &i, N, all, vals + N));
    for (PetscInt j = 0; j < N; j++)
      if (vals[j] != vals[N + j]) ok = PETSC_FALSE;
  }
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &ok, 1, ELLG_MPI_BOOL, MPI_LAND, comm));
  if (!ok) PetscCall(PetscPrintf(comm, "    FAILED MatGetValues\n"));

  /* MatMult(), MatTranspose() */
  PetscCall(ScaleBoth(G, R, 1.5));
  PetscCall(MatCreateVecs(R, &x, &yref));
  PetscCall(VecDuplicate(yref, &y));
  PetscCall(VecSetRandom(x, rnd));
  PetscCall(MatMult(G, x, y));
  PetscCall(MatMult(R, x, yref));
  PetscCall(CheckClose(y, yref, 10.0, "MatMult", &ok));
  PetscCall(ScaleBoth(G, R, -2.0));
  PetscCall(MatTranspose(G, MAT_INITIAL_MATRIX, &Gt));
  PetscCall(MatTranspose(R, MAT_INITIAL_MATRIX, &Rt));
  PetscCall(CheckType(Gt, MATDENSEGPU, "MatTranspose", &ok));
  PetscCall(Compare(Gt, Rt, "MatTranspose", &ok));

  /* MatView() to a binary file, MatLoad() into a plain dense and a device dense matrix */
  PetscCall(ScaleBoth(G, R, 0.25));
  PetscCall(PetscViewerBinaryOpen(comm, "ex7.dat", FILE_MODE_WRITE, &viewer));
  PetscCall(MatView(G, viewer));
  PetscCall(PetscViewerDestroy(&viewer));
  PetscCall(PetscViewerBinaryOpen(comm, "ex7.dat", FILE_MODE_READ, &viewer));
  PetscCall(MatCreate(comm, &Lplain));
  PetscCall(MatSetSizes(Lplain, m, PETSC_DECIDE, M, N));
  PetscCall(MatSetType(Lplain, MATDENSE));
  PetscCall(MatLoad(Lplain, viewer));
  PetscCall(PetscViewerDestroy(&viewer));
  PetscCall(Compare(Lplain, R, "MatView, MatLoad into dense", &ok));
  PetscCall(PetscViewerBinaryOpen(comm, "ex7.dat", FILE_MODE_READ, &viewer));
  PetscCall(MatCreate(comm, &Lgpu));
  PetscCall(MatSetSizes(Lgpu, m, PETSC_DECIDE, M, N));
  PetscCall(MatSetType(Lgpu, MATDENSEGPU));
  PetscCall(MatLoad(Lgpu, viewer));
  PetscCall(PetscViewerDestroy(&viewer));
  PetscCall(ScaleBoth(Lgpu, R, 2.0));
  PetscCall(Compare(Lgpu, R, "MatLoad into densegpu, then MatScale", &ok));
  PetscCall(ToBackend(G));
  PetscCall(MatScale(G, 2.0));

  /* a column vector written, a submatrix scaled */
  PetscCall(MatDenseGetColumnVecWrite(G, 2, &v));
  PetscCall(VecSet(v, 4.0));
  PetscCall(MatDenseRestoreColumnVecWrite(G, 2, &v));
  PetscCall(MatDenseGetColumnVecWrite(R, 2, &v));
  PetscCall(VecSet(v, 4.0));
  PetscCall(MatDenseRestoreColumnVecWrite(R, 2, &v));
  PetscCall(ScaleBoth(G, R, 3.0));
  PetscCall(MatDenseGetSubMatrix(G, PETSC_DECIDE, PETSC_DECIDE, 3, 5, &S));
  PetscCall(MatScale(S, -4.0));
  PetscCall(MatDenseRestoreSubMatrix(G, &S));
  PetscCall(MatDenseGetSubMatrix(R, PETSC_DECIDE, PETSC_DECIDE, 3, 5, &S));
  PetscCall(MatScale(S, -4.0));
  PetscCall(MatDenseRestoreSubMatrix(R, &S));
  PetscCall(ScaleBoth(G, R, 0.5));
  PetscCall(Compare(G, R, "column vector, submatrix, then MatScale", &ok));

  /* a placed array gets the values computed on the backend while it is in place; the matrix's own array comes back */
  PetscCall(PetscMalloc1(PetscMax(m * N, 1), &user));
  for (PetscInt k = 0; k < m * N; k++) user[k] = k + 1;
  PetscCall(MatDensePlaceArray(G, user));
  PetscCall(ToBackend(G));
  PetscCall(MatScale(G, 2.0));
  PetscCall(MatDenseResetArray(G));
  for (PetscInt k = 0; k < m * N; k++)
    if (user[k] != 2.0 * (k + 1)) ok = PETSC_FALSE;
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &ok, 1, ELLG_MPI_BOOL, MPI_LAND, comm));
  if (!ok) PetscCall(PetscPrintf(comm, "    FAILED MatDensePlaceArray, MatScale, MatDenseResetArray\n"));
  PetscCall(Compare(G, R, "MatDenseResetArray", &ok));
  PetscCall(PetscFree(user));
  PetscCall(PrintResult(comm, WIDTH, "inherited operations after the backend copy was written", ok, nfail));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(VecDestroy(&yref));
  PetscCall(MatDestroy(&R));
  PetscCall(MatDestroy(&G));
  PetscCall(MatDestroy(&Gt));
  PetscCall(MatDestroy(&Rt));
  PetscCall(MatDestroy(&Lplain));
  PetscCall(MatDestroy(&Lgpu));
  PetscFunctionReturn(0);
}

/* DenseB - B of L columns with A's column layout, plain (leading dimension extra above the rows) and as a device dense matrix */
static PetscErrorCode DenseB(Mat A, PetscInt L, PetscInt extra, PetscRandom rnd, Mat *Bref, Mat *B)
{
  PetscInt n, N;

  PetscFunctionBeginUser;
  PetscCall(MatGetLocalSize(A, NULL, &n));
  PetscCall(MatGetSize(A, NULL, &N));
  PetscCall(DenseRandom(PetscObjectComm((PetscObject)A), MATDENSE, n, N, L, extra, rnd, Bref));
  PetscCall(MatConvert(*Bref, MATDENSEGPU, MAT_INITIAL_MATRIX, B));
  PetscFunctionReturn(0);
}

/* C = A B with B on the backend, for each L: on the backend copies (no chunks, no copies), C of type densegpu;
   and with C given as a plain dense matrix, or B a plain one: the chunked path */
static PetscErrorCode CheckProducts(Mat A, Mat R, const char *name, PetscRandom rnd, PetscInt *nfail)
{
  MPI_Comm  comm = PetscObjectComm((PetscObject)A);
  PetscBool ok   = PETSC_TRUE;
  PetscInt  m;
  Counts    c;
  char      what[96];
  Mat       B, Bref, C, Cref;

  PetscFunctionBeginUser;
  PetscCall(MatGetLocalSize(A, &m, NULL));
  for (size_t l = 0; l < PETSC_STATIC_ARRAY_LENGTH(Ls); l++) {
    PetscCall(PetscSNPrintf(what, sizeof(what), "%s: MatMatMult with L = %" PetscInt_FMT, name, Ls[l]));
    PetscCall(DenseB(A, Ls[l], Ls[l] == 7 ? 2 : 0, rnd, &Bref, &B));
    PetscCall(GetCounts(&c));
    PetscCall(MatMatMult(A, B, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &C));
    PetscCall(CheckCounts(comm, &c, 1, 0, 0, 0, what, &ok));
    PetscCall(CheckType(C, MATDENSEGPU, what, &ok));
    PetscCall(MatMatMult(R, Bref, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &Cref));
    PetscCall(Compare(C, Cref, what, &ok));
    PetscCall(MatDestroy(&C));
    if (Ls[l] == 8) { /* AIJ's own product with a device dense B whose values are on the backend only */
      PetscCall(MatScale(B, 1.0));
      PetscCall(MatMatMult(R, B, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &C));
      PetscCall(Compare(C, Cref, "aij times densegpu", &ok));
      PetscCall(MatDestroy(&C));
    }
    if (Ls[l] == 17) { /* C a plain dense matrix, then B one: the chunks through the host */
      PetscCall(MatDuplicate(Cref, MAT_DO_NOT_COPY_VALUES, &C));
      PetscCall(MatProductCreateWithMat(A, B, NULL, C));
      PetscCall(MatProductSetType(C, MATPRODUCT_AB));
      PetscCall(MatProductSetFromOptions(C));
      PetscCall(MatProductSymbolic(C));
      PetscCall(GetCounts(&c));
      PetscCall(MatProductNumeric(C));
      PetscCall(CheckCounts(comm, &c, 1, m > 0, 0, 0, "C plain dense", &ok));
      PetscCall(Compare(C, Cref, "C plain dense", &ok));
      PetscCall(MatDestroy(&C));
      PetscCall(MatConvert(Cref, MATDENSEGPU, MAT_INITIAL_MATRIX, &C));
      PetscCall(MatProductCreateWithMat(A, Bref, NULL, C));
      PetscCall(MatProductSetType(C, MATPRODUCT_AB));
      PetscCall(MatProductSetFromOptions(C));
      PetscCall(MatProductSymbolic(C));
      PetscCall(GetCounts(&c));
      PetscCall(MatProductNumeric(C));
      PetscCall(CheckCounts(comm, &c, 1, m > 0, 0, 0, "B plain dense, C densegpu", &ok));
      PetscCall(Compare(C, Cref, "B plain dense, C densegpu", &ok));
      PetscCall(MatDestroy(&C));
    }
    PetscCall(MatDestroy(&B));
    PetscCall(MatDestroy(&Bref));
    PetscCall(MatDestroy(&Cref));
  }
  PetscCall(PetscSNPrintf(what, sizeof(what), "%s: C = A B on the backend, L = 1 .. 33", name));
  PetscCall(PrintResult(comm, WIDTH, what, ok, nfail));
  PetscFunctionReturn(0);
}

/* MatProduct reuse: numeric again after A's values change (MatScale, re-assembly), after B's change on the backend
   (on the backend again), after B's change on the host (the chunked path), and once B is on the backend again */
static PetscErrorCode CheckReuse(Mat A, Mat R, const CSR *csr, const char *name, PetscRandom rnd, PetscInt *nfail)
{
  MPI_Comm  comm = PetscObjectComm((PetscObject)A);
  PetscBool ok   = PETSC_TRUE;
  PetscInt  m, rstart, rend;
  Counts    c;
  char      what[96];
  Mat       B, Bref, D, Cref;

  PetscFunctionBeginUser;
  PetscCall(MatGetLocalSize(A, &m, NULL));
  PetscCall(DenseB(A, 19, 0, rnd, &Bref, &B));
  PetscCall(MatProductCreate(A, B, NULL, &D));
  PetscCall(MatProductSetType(D, MATPRODUCT_AB));
  PetscCall(MatProductSetFromOptions(D));
  PetscCall(MatProductSymbolic(D));
  PetscCall(GetCounts(&c));
  PetscCall(MatProductNumeric(D));
  PetscCall(CheckCounts(comm, &c, 1, 0, 0, 0, "MatProductNumeric", &ok));
  PetscCall(MatMatMult(R, Bref, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &Cref));
  PetscCall(Compare(D, Cref, "MatProductNumeric", &ok));

  PetscCall(MatScale(A, -2.0));
  PetscCall(MatScale(R, -2.0));
  PetscCall(GetCounts(&c));
  PetscCall(MatProductNumeric(D));
  PetscCall(CheckCounts(comm, &c, 1, 0, 0, 0, "after MatScale(A)", &ok));
  PetscCall(MatMatMult(R, Bref, MAT_REUSE_MATRIX, PETSC_DEFAULT, &Cref));
  PetscCall(Compare(D, Cref, "after MatScale(A)", &ok));

  PetscCall(SetValuesCSR(A, csr, ADD_VALUES));
  PetscCall(Assemble(A, MAT_FINAL_ASSEMBLY));
  PetscCall(SetValuesCSR(R, csr, ADD_VALUES));
  PetscCall(Assemble(R, MAT_FINAL_ASSEMBLY));
  PetscCall(MatProductNumeric(D));
  PetscCall(MatMatMult(R, Bref, MAT_REUSE_MATRIX, PETSC_DEFAULT, &Cref));
  PetscCall(Compare(D, Cref, "after re-assembly of A", &ok));

  PetscCall(MatScale(B, 0.5));
  PetscCall(MatScale(Bref, 0.5));
  PetscCall(GetCounts(&c));
  PetscCall(MatProductNumeric(D));
  PetscCall(CheckCounts(comm, &c, 1, 0, 0, 0, "after MatScale(B)", &ok));
  PetscCall(MatMatMult(R, Bref, MAT_REUSE_MATRIX, PETSC_DEFAULT, &Cref));
  PetscCall(Compare(D, Cref, "after MatScale(B)", &ok));

  PetscCall(MatGetOwnershipRange(B, &rstart, &rend));
  for (PetscInt i = rstart; i < rend; i += 2) {
    const PetscInt    j = i % 19;
    const PetscScalar v = 1.0 + i;

    PetscCall(MatSetValues(B, 1, &i, 1, &j, &v, INSERT_VALUES));
    PetscCall(MatSetValues(Bref, 1, &i, 1, &j, &v, INSERT_VALUES));
  }
  PetscCall(Assemble(B, MAT_FINAL_ASSEMBLY));
  PetscCall(Assemble(Bref, MAT_FINAL_ASSEMBLY));
  PetscCall(GetCounts(&c));
  PetscCall(MatProductNumeric(D));
  PetscCall(CheckCounts(comm, &c, 1, m > 0, 0, 0, "after MatSetValues(B)", &ok));
  PetscCall(MatMatMult(R, Bref, MAT_REUSE_MATRIX, PETSC_DEFAULT, &Cref));
  PetscCall(Compare(D, Cref, "after MatSetValues(B)", &ok));

  PetscCall(ToBackend(B));
  PetscCall(MatScale(B, 4.0));
  PetscCall(MatScale(Bref, 4.0));
  PetscCall(GetCounts(&c));
  PetscCall(MatProductNumeric(D));
  PetscCall(CheckCounts(comm, &c, 1, 0, 0, 0, "B on the backend again", &ok));
  PetscCall(MatMatMult(R, Bref, MAT_REUSE_MATRIX, PETSC_DEFAULT, &Cref));
  PetscCall(Compare(D, Cref, "B on the backend again", &ok));
  PetscCall(PetscSNPrintf(what, sizeof(what), "%s: MatProduct reuse after A and B change", name));
  PetscCall(PrintResult(comm, WIDTH, what, ok, nfail));
  PetscCall(MatDestroy(&B));
  PetscCall(MatDestroy(&Bref));
  PetscCall(MatDestroy(&D));
  PetscCall(MatDestroy(&Cref));
  PetscFunctionReturn(0);
}

/* CheckError - run (errors returned) must fail with the error code expected, on every process */
#define CheckError(comm, expected, what, nfail, run) \
  do { \
    PetscErrorCode ierr_; \
    PetscBool      ok_; \
\
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL)); \
    ierr_ = (run); \
    PetscCall(PetscPopErrorHandler()); \
    ok_ = (PetscBool)(ierr_ == (expected)); \
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &ok_, 1, ELLG_MPI_BOOL, MPI_LAND, comm)); \
    PetscCall(PetscPrintf(comm, "%-72s %s\n", what, ok_ ? "error: ok" : "FAILED")); \
    if (!ok_) (*(nfail))++; \
  } while (0)

/* device access to a plain dense matrix, reuse of a matrix of other sizes, a product of nonconforming sizes */
static PetscErrorCode CheckErrors(Mat A, PetscRandom rnd, PetscInt *nfail)
{
  MPI_Comm           comm = PetscObjectComm((PetscObject)A);
  const PetscScalar *a;
  PetscInt           n, N;
  Mat                B, Bref, P, C = NULL;

  PetscFunctionBeginUser;
  PetscCall(MatGetLocalSize(A, NULL, &n));
  PetscCall(MatGetSize(A, NULL, &N));
  PetscCall(DenseB(A, 4, 0, rnd, &Bref, &B));
  CheckError(comm, PETSC_ERR_ARG_WRONG, "MatDenseGPUGetArrayRead of a plain dense matrix", nfail, MatDenseGPUGetArrayRead(Bref, &a, NULL));
  PetscCall(DenseRandom(comm, MATDENSE, n, N, 5, 0, rnd, &P));
  CheckError(comm, PETSC_ERR_ARG_SIZ, "MatConvert to densegpu reusing a matrix of other sizes", nfail, MatConvert(P, MATDENSEGPU, MAT_REUSE_MATRIX, &B));
  PetscCall(MatDestroy(&P));
  PetscCall(MatDestroy(&B));
  PetscCall(MatDestroy(&Bref));
  PetscCall(DenseRandom(comm, MATDENSEGPU, PETSC_DECIDE, N + 1, 4, 0, rnd, &B));
  CheckError(comm, PETSC_ERR_ARG_SIZ, "MatMatMult, densegpu B with more rows than A has columns", nfail, MatMatMult(A, B, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &C));
  PetscCall(MatDestroy(&C));
  PetscCall(MatDestroy(&B));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  MPI_Comm    comm;
  Layout      layout = LAYOUT_EVEN;
  PetscInt    nfail = 0, ncase = 0, m = 0;
  PetscRandom rnd;
  CSR         c[4];
  Mat         A, R;
  char        type[TYPE_LEN];

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscELLGInitializePackage());
  PetscCall(PetscLogDefaultBegin()); /* for the counts of the log events */
  comm = PETSC_COMM_WORLD;
  PetscCall(TestType(type, NULL, NULL));
  PetscCall(GetLayout(&layout));
  PetscCall(RandomCreate(comm, 7, &rnd));

  PetscCall(LocalSize(comm, layout, 0, 23, &m));
  PetscCall(CheckConversions(comm, m, 23, rnd, &nfail));
  PetscCall(CheckDeviceOps(comm, m, 23, rnd, &nfail));
  PetscCall(CheckInherited(comm, m, 23, rnd, &nfail));

  PetscCall(CSRRandom("0x0", 0, 0, 0.0, 0.0, NULL, 1, &c[ncase++]));
  PetscCall(CSRRandom("random 100x80 density 0.1", 100, 80, 0.1, 0.0, NULL, 4, &c[ncase++]));
  PetscCall(CSRRandom("empty rows 50x50", 50, 50, 0.02, 0.0, NULL, 7, &c[ncase++]));
  PetscCall(CSRPowerLaw("power-law rows 300x300", 300, 2, 1.3, 12, &c[ncase++]));
  for (PetscInt i = 0; i < ncase; i++) {
    PetscCall(CreateMatSplit(comm, layout, &c[i], type, &A));
    PetscCall(CreateMatSplit(comm, layout, &c[i], MATAIJ, &R));
    PetscCall(CheckProducts(A, R, c[i].name, rnd, &nfail));
    if (i == 1) PetscCall(CheckErrors(A, rnd, &nfail));
    PetscCall(CheckReuse(A, R, &c[i], c[i].name, rnd, &nfail)); /* last: it changes A and R */
    PetscCall(MatDestroy(&A));
    PetscCall(MatDestroy(&R));
    PetscCall(CSRDestroy(&c[i]));
  }
  PetscCall(PetscPrintf(comm, "%s\n", nfail ? "SOME CHECKS FAILED" : "all checks passed"));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   # every sparse type with its default options; the output does not name the type
   test:
      suffix: 1
      args: -type {{ellg pjds slicedell csrg aijgpu}}
      output_file: output/ex7_1.out

   test:
      suffix: mpi
      nsize: 2
      args: -type {{ellg pjds slicedell csrg aijgpu}}
      output_file: output/ex7_1.out

   test:
      suffix: empty_rank
      nsize: 3
      args: -type {{ellg slicedell csrg}} -empty_rank
      output_file: output/ex7_1.out

   test:
      suffix: uneven
      nsize: 3
      args: -type pjds -uneven
      output_file: output/ex7_1.out

   # most rows split out as long rows (their sums need the work space), several columns per pass
   test:
      suffix: long_rows
      nsize: {{1 2}}
      args: -type ellg -mat_ellg_long_row_threshold 3 -mat_ellg_spmm_columns 5
      output_file: output/ex7_1.out

   # 32-bit column indices (16-bit offsets from the row are the default where they fit, as here)
   # the options of every type, of which the one run uses its own (-options_left no: PETSc from 3.20 lists the
   # others as unused)
   test:
      suffix: indices_32bit
      nsize: {{1 2}}
      args: -type {{ellg pjds slicedell csrg}} -mat_ellg_compact_indices false -mat_pjds_compact_indices false -mat_slicedell_compact_indices false -mat_csrg_compact_indices false -options_left no
      output_file: output/ex7_1.out

TEST*/
