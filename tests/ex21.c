static char help[] = "Single-precision values on the device (MatGPUSetValuePrecision(), -mat_gpu_value_precision single): for\n\
each matrix (random, a 2D Laplacian, a power-law graph, a Laplacian with a dense row: long rows), the type under\n\
test keeps its values in single precision, and its MatMult, MatMultAdd, MatMultTranspose and MatMatMult with a dense\n\
matrix agree with AIJ's double products within single precision's rounding of each value, row by row (the error of\n\
row i at most 2^-23 (|A| |x|)_i), yet differ from them by more than double roundoff (the values are rounded);\n\
MatGetDiagonal gives AIJ's diagonal rounded to single precision exactly; MatSOR (multicolor) of the Laplacians is\n\
within 1e-5 of double's yet not equal to it, and so is MatSolve with its ILU(0) factor (of the diagonal block on\n\
several processes); MatMatMult, MatPtAP and MatCreateSubMatrix of it are of single precision too; the format\n\
stores fewer bytes than in\n\
double; a re-assembly with new values is rounded too; a value beyond single precision's range is refused with\n\
PETSC_ERR_FP at the build and at an update (the old values kept), then accepted in double. Prints pass/fail lines.\n\
  -type <ellg,pjds,slicedell,csrg,aijgpu>: the type (root name)\n\
  -from_options: take the precision from -mat_gpu_value_precision instead of MatGPUSetValuePrecision()\n\n";

#include <float.h>
#include "ellgtest.h"

#define WIDTH 66
#define UNIT  1.1920928955078125e-07 /* 2^-23: twice the largest relative rounding of a double to single precision */

/* the matrix with the absolute values of c's (for the bounds |A| |x|) */
static PetscErrorCode CSRAbs(const CSR *c, CSR *a)
{
  PetscFunctionBeginUser;
  PetscCall(CSRCreate(c->name, c->M, c->N, c->ia[c->M], a));
  PetscCall(PetscArraycpy(a->ia, c->ia, c->M + 1));
  PetscCall(PetscArraycpy(a->ja, c->ja, c->ia[c->M]));
  for (PetscInt k = 0; k < c->ia[c->M]; k++) a->va[k] = PetscAbsScalar(c->va[k]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* whether |y - yr| <= UNIT bound (+ a double roundoff term) entry by entry, and the largest |y - yr| relative to
   max |yr| in *rel */
static PetscErrorCode WithinSingle(Vec y, Vec yr, Vec bound, PetscBool *ok, PetscReal *rel)
{
  const PetscScalar *a, *b, *c;
  PetscInt           n;
  PetscReal          err = 0.0, nrm = 0.0;
  PetscBool          in  = PETSC_TRUE;

  PetscFunctionBeginUser;
  PetscCall(VecGetLocalSize(y, &n));
  PetscCall(VecGetArrayRead(y, &a));
  PetscCall(VecGetArrayRead(yr, &b));
  PetscCall(VecGetArrayRead(bound, &c));
  for (PetscInt i = 0; i < n; i++) {
    const PetscReal d = PetscAbsScalar(a[i] - b[i]);

    if (!(d <= UNIT * PetscRealPart(c[i]) * (1.0 + 1e-6) + 1e-300)) in = PETSC_FALSE;
    err = PetscMax(err, d);
    nrm = PetscMax(nrm, PetscAbsScalar(b[i]));
  }
  PetscCall(VecRestoreArrayRead(y, &a));
  PetscCall(VecRestoreArrayRead(yr, &b));
  PetscCall(VecRestoreArrayRead(bound, &c));
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &in, 1, MPIU_BOOL, MPI_LAND, PetscObjectComm((PetscObject)y)));
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &err, 1, MPIU_REAL, MPIU_MAX, PetscObjectComm((PetscObject)y)));
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &nrm, 1, MPIU_REAL, MPIU_MAX, PetscObjectComm((PetscObject)y)));
  *ok  = in;
  *rel = nrm > 0 ? err / nrm : err;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the precision asked for, by the function or by the option (read by MatSetFromOptions() at the creation) */
static PetscErrorCode SetSingle(Mat A, PetscBool fromoptions)
{
  PetscFunctionBeginUser;
  if (!fromoptions) PetscCall(MatGPUSetValuePrecision(A, MAT_GPU_VALUES_SINGLE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* x (from single-precision values) against xd (from double ones): within 1e-5 relative, yet not equal; the result, on
   comm, of every process's vectors */
static PetscErrorCode CheckRounded(MPI_Comm comm, const char *name, const char *what, Vec x, Vec xd, PetscInt *nfail)
{
  PetscReal err, nrm;
  PetscBool ok;

  PetscFunctionBeginUser;
  PetscCall(MaxDifference(x, xd, &err, &nrm));
  ok = (PetscBool)(err <= 1e-5 * nrm && err > 1e-13 * nrm);
  if (!ok) PetscCall(PetscPrintf(PETSC_COMM_SELF, "    difference %g of %g\n", (double)err, (double)nrm));
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPIU_BOOL, MPI_LAND, comm));
  PetscCall(PrintNamedResult(comm, WIDTH, name, what, ok, nfail));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MatSOR (a local symmetric sweep, multicolor on the device) of A in single precision against the same sweep of A in
   double: close (within 1e-5 relative) but not equal (the values are rounded) */
static PetscErrorCode CheckSOR(Mat A, const char *name, PetscRandom rnd, PetscInt *nfail)
{
  MPI_Comm comm = PetscObjectComm((PetscObject)A);
  Mat      D;
  Vec      b, x, xd;

  PetscFunctionBeginUser;
  PetscCall(MatDuplicate(A, MAT_COPY_VALUES, &D));
  {
    MatGPUValuePrecision p;

    PetscCall(MatGPUGetValuePrecision(D, &p));
    PetscCall(PrintNamedResult(comm, WIDTH, name, "MatDuplicate: single", (PetscBool)(p == MAT_GPU_VALUES_SINGLE), nfail));
  }
  PetscCall(MatGPUSetValuePrecision(D, MAT_GPU_VALUES_DOUBLE));
  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(VecDuplicate(x, &xd));
  PetscCall(VecSetRandom(b, rnd));
  PetscCall(MatSOR(A, b, 1.0, (MatSORType)(SOR_LOCAL_SYMMETRIC_SWEEP | SOR_ZERO_INITIAL_GUESS), 0.0, 1, 1, x));
  PetscCall(MatSOR(D, b, 1.0, (MatSORType)(SOR_LOCAL_SYMMETRIC_SWEEP | SOR_ZERO_INITIAL_GUESS), 0.0, 1, 1, xd));
  PetscCall(CheckRounded(comm, name, "MatSOR: within 1e-5 of double's, rounded", x, xd, nfail));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&xd));
  PetscCall(MatDestroy(&D));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MatSolve with the ILU(0) factor of the seq matrix A in single precision (its triangles' values rounded) against that
   of A in double: close (within 1e-5 relative) but not equal; on each process (A its diagonal block), the result on
   comm */
static PetscErrorCode CheckFactor(Mat A, MPI_Comm comm, const char *name, PetscInt *nfail)
{
  Mat           D, F, Fd;
  Vec           b, x, xd;
  IS            rperm, cperm;
  MatFactorInfo info;

  PetscFunctionBeginUser;
  PetscCall(MatDuplicate(A, MAT_COPY_VALUES, &D));
  PetscCall(MatGPUSetValuePrecision(D, MAT_GPU_VALUES_DOUBLE));
  PetscCall(MatFactorInfoInitialize(&info));
  info.fill   = 1.0;
  info.levels = 0;
  PetscCall(MatGetOrdering(A, MATORDERINGNATURAL, &rperm, &cperm));
  PetscCall(MatGetFactor(A, MATSOLVERELLG, MAT_FACTOR_ILU, &F));
  PetscCall(MatGetFactor(D, MATSOLVERELLG, MAT_FACTOR_ILU, &Fd));
  PetscCall(MatILUFactorSymbolic(F, A, rperm, cperm, &info));
  PetscCall(MatILUFactorSymbolic(Fd, D, rperm, cperm, &info));
  PetscCall(MatLUFactorNumeric(F, A, &info));
  PetscCall(MatLUFactorNumeric(Fd, D, &info));
  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(VecDuplicate(x, &xd));
  PetscCall(VecSet(b, 1.0));
  PetscCall(MatSolve(F, b, x));
  PetscCall(MatSolve(Fd, b, xd));
  PetscCall(CheckRounded(comm, name, "ILU(0) MatSolve: within 1e-5 of double's, rounded", x, xd, nfail));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&xd));
  PetscCall(ISDestroy(&rperm));
  PetscCall(ISDestroy(&cperm));
  PetscCall(MatDestroy(&F));
  PetscCall(MatDestroy(&Fd));
  PetscCall(MatDestroy(&D));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the products of the type (single precision) against AIJ's, for the matrix c (and its SOR and ILU(0), if sor) */
static PetscErrorCode CheckMatrix(MPI_Comm comm, const CSR *c, MatType type, PetscBool fromoptions, PetscBool sor, PetscRandom rnd, PetscInt *nfail)
{
  Mat                  A, Ar, Aa, B, C, Cr, Ba, Cb;
  Vec                  x, y, xr, yr, xa, bound, z, zr, d, dr, t, tr, tb;
  CSR                  ca;
  PetscBool            ok, rounded;
  PetscReal            rel, maxrel = 0.0;
  PetscLogDouble       bytes, dbytes, ub;
  const char          *fmt;
  MatGPUValuePrecision p;
  PetscInt             m, nloc;
  PetscReal            scale;

  PetscFunctionBeginUser;
  PetscCall(CreateMatCSR(comm, PETSC_DECIDE, PETSC_DECIDE, c, MATAIJ, &Ar));
  PetscCall(CSRAbs(c, &ca));
  PetscCall(CreateMatCSR(comm, PETSC_DECIDE, PETSC_DECIDE, &ca, MATAIJ, &Aa));
  PetscCall(CSRDestroy(&ca));
  PetscCall(CreateMatCSR(comm, PETSC_DECIDE, PETSC_DECIDE, c, type, &A));
  PetscCall(SetSingle(A, fromoptions));
  PetscCall(MatGPUGetValuePrecision(A, &p));
  PetscCall(PrintNamedResult(comm, WIDTH, c->name, "MatGPUGetValuePrecision(): single", (PetscBool)(p == MAT_GPU_VALUES_SINGLE), nfail));

  PetscCall(MatCreateVecs(Ar, &xr, &yr));
  PetscCall(MatCreateVecs(A, &x, &y));
  PetscCall(VecDuplicate(xr, &xa));
  PetscCall(VecDuplicate(yr, &bound));
  PetscCall(VecSetRandom(xr, rnd));
  PetscCall(VecShift(xr, -0.5));
  PetscCall(CopyValues(xr, x));
  PetscCall(VecCopy(xr, xa));
  PetscCall(VecAbs(xa));
  PetscCall(MatMult(Aa, xa, bound));

  /* y = A x */
  PetscCall(MatMult(A, x, y));
  PetscCall(MatMult(Ar, xr, yr));
  PetscCall(WithinSingle(y, yr, bound, &ok, &rel));
  maxrel = PetscMax(maxrel, rel);
  PetscCall(PrintNamedResult(comm, WIDTH, c->name, "MatMult within single rounding of AIJ's", ok, nfail));

  /* z = y + A x */
  PetscCall(VecDuplicate(y, &z));
  PetscCall(VecDuplicate(yr, &zr));
  PetscCall(VecSet(zr, 1.0));
  PetscCall(CopyValues(zr, z));
  PetscCall(MatMultAdd(A, x, z, z));
  PetscCall(MatMultAdd(Ar, xr, zr, zr));
  PetscCall(WithinSingle(z, zr, bound, &ok, &rel));
  PetscCall(PrintNamedResult(comm, WIDTH, c->name, "MatMultAdd within single rounding of AIJ's", ok, nfail));

  /* A^T y, bound |A|^T |y| */
  PetscCall(VecDuplicate(x, &t));
  PetscCall(VecDuplicate(xr, &tr));
  PetscCall(VecDuplicate(xr, &tb));
  PetscCall(CopyValues(yr, y));
  PetscCall(MatMultTranspose(A, y, t));
  PetscCall(MatMultTranspose(Ar, yr, tr));
  PetscCall(VecAbs(yr));
  PetscCall(MatMultTranspose(Aa, yr, tb));
  PetscCall(WithinSingle(t, tr, tb, &ok, &rel));
  maxrel = PetscMax(maxrel, rel);
  PetscCall(PrintNamedResult(comm, WIDTH, c->name, "MatMultTranspose within single rounding", ok, nfail));

  /* the diagonal: AIJ's rounded to single precision, exactly */
  PetscCall(VecDuplicate(y, &d));
  PetscCall(VecDuplicate(yr, &dr));
  PetscCall(MatGetDiagonal(A, d));
  PetscCall(MatGetDiagonal(Ar, dr));
  {
    PetscScalar *a;

    PetscCall(VecGetLocalSize(dr, &m));
    PetscCall(VecGetArray(dr, &a));
    for (PetscInt i = 0; i < m; i++) a[i] = (PetscScalar)(float)PetscRealPart(a[i]);
    PetscCall(VecRestoreArray(dr, &a));
  }
  PetscCall(MaxDifference(d, dr, &rel, NULL));
  PetscCall(PrintNamedResult(comm, WIDTH, c->name, "MatGetDiagonal: AIJ's rounded to single", (PetscBool)(rel == 0.0), nfail));

  /* C = A B with a dense B of 5 columns, bound |A| |B| */
  PetscCall(VecGetLocalSize(x, &nloc));
  PetscCall(MatCreateDense(comm, nloc, PETSC_DECIDE, c->N, 5, NULL, &B));
  PetscCall(MatSetRandom(B, rnd));
  PetscCall(MatMatMult(A, B, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &C));
  PetscCall(MatMatMult(Ar, B, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &Cr));
  PetscCall(MatDuplicate(B, MAT_COPY_VALUES, &Ba));
  {
    PetscScalar *b;
    PetscInt     mb, nb, ld;
    Mat          Bl;

    PetscCall(MatDenseGetLocalMatrix(Ba, &Bl));
    PetscCall(MatGetSize(Bl, &mb, &nb));
    PetscCall(MatDenseGetLDA(Bl, &ld));
    PetscCall(MatDenseGetArray(Bl, &b));
    for (PetscInt j = 0; j < nb; j++)
      for (PetscInt i = 0; i < mb; i++) b[i + j * ld] = PetscAbsScalar(b[i + j * ld]);
    PetscCall(MatDenseRestoreArray(Bl, &b));
  }
  PetscCall(MatMatMult(Aa, Ba, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &Cb)); /* the bound |A| |B| */
  {
    Mat        Cl, Rl, Bl;
    PetscReal  err = 0.0;
    PetscBool  in  = PETSC_TRUE;
    PetscInt   lc, lr, lb, mm;
    const PetscScalar *pc, *pr, *pb;

    PetscCall(MatDenseGetLocalMatrix(C, &Cl));
    PetscCall(MatDenseGetLocalMatrix(Cr, &Rl));
    PetscCall(MatDenseGetLocalMatrix(Cb, &Bl));
    PetscCall(MatGetLocalSize(Cr, &mm, NULL));
    PetscCall(MatDenseGetLDA(Cl, &lc));
    PetscCall(MatDenseGetLDA(Rl, &lr));
    PetscCall(MatDenseGetLDA(Bl, &lb));
    PetscCall(MatDenseGetArrayRead(Cl, &pc));
    PetscCall(MatDenseGetArrayRead(Rl, &pr));
    PetscCall(MatDenseGetArrayRead(Bl, &pb));
    for (PetscInt j = 0; j < 5; j++)
      for (PetscInt i = 0; i < mm; i++) {
        const PetscReal e = PetscAbsScalar(pc[i + j * lc] - pr[i + j * lr]);

        if (!(e <= UNIT * PetscRealPart(pb[i + j * lb]) * (1.0 + 1e-6) + 1e-300)) in = PETSC_FALSE;
        err = PetscMax(err, e);
      }
    PetscCall(MatDenseRestoreArrayRead(Cl, &pc));
    PetscCall(MatDenseRestoreArrayRead(Rl, &pr));
    PetscCall(MatDenseRestoreArrayRead(Bl, &pb));
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &in, 1, MPIU_BOOL, MPI_LAND, comm));
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &err, 1, MPIU_REAL, MPIU_MAX, comm));
    PetscCall(PrintNamedResult(comm, WIDTH, c->name, "MatMatMult (dense) within single rounding", in, nfail));
    if (!in) PetscCall(PetscPrintf(comm, "    largest difference %g\n", (double)err));
  }

  if (sor) PetscCall(CheckSOR(A, c->name, rnd, nfail));
  if (sor) {
    PetscMPIInt size;
    Mat         Ad = A;

    PetscCallMPI(MPI_Comm_size(comm, &size));
    if (size > 1) PetscCall(MatGetDiagonalBlock(A, &Ad)); /* the factors are of the seq types: the block's */
    PetscCall(CheckFactor(Ad, comm, c->name, nfail));
  }

  /* the sparse products made from it are of its precision (GAMG's and Galerkin multigrid's coarse operators) */
  {
    Mat                  AA, PtAP;
    MatGPUValuePrecision pa, pp;

    PetscCall(MatMatMult(A, A, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &AA));
    PetscCall(MatPtAP(A, A, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &PtAP));
    PetscCall(MatGPUGetValuePrecision(AA, &pa));
    PetscCall(MatGPUGetValuePrecision(PtAP, &pp));
    PetscCall(PrintNamedResult(comm, WIDTH, c->name, "MatMatMult(A, A), MatPtAP(A, A): single", (PetscBool)(pa == MAT_GPU_VALUES_SINGLE && pp == MAT_GPU_VALUES_SINGLE), nfail));
    PetscCall(MatDestroy(&AA));
    PetscCall(MatDestroy(&PtAP));
  }
  {
    Mat                  S;
    IS                   rows;
    PetscInt             rs, re;
    MatGPUValuePrecision ps;

    PetscCall(MatGetOwnershipRange(A, &rs, &re));
    PetscCall(ISCreateStride(comm, (re - rs + 1) / 2, rs, 2, &rows)); /* every other row and column */
    PetscCall(MatCreateSubMatrix(A, rows, rows, MAT_INITIAL_MATRIX, &S));
    PetscCall(MatGPUGetValuePrecision(S, &ps));
    PetscCall(PrintNamedResult(comm, WIDTH, c->name, "MatCreateSubMatrix: single", (PetscBool)(ps == MAT_GPU_VALUES_SINGLE), nfail));
    PetscCall(MatDestroy(&S));
    PetscCall(ISDestroy(&rows));
  }

  /* the values are rounded: the products differ from AIJ's by more than double roundoff */
  rounded = (PetscBool)(maxrel > 1e-12);
  PetscCall(PrintNamedResult(comm, WIDTH, c->name, "products rounded (differ from AIJ's by > 1e-12)", rounded, nfail));
  if (!rounded) PetscCall(PetscPrintf(comm, "    largest relative difference %g\n", (double)maxrel));

  /* fewer bytes than in double */
  PetscCall(MatELLGGetFormat(A, &fmt, &bytes, &ub));
  PetscCall(MatGPUSetValuePrecision(A, MAT_GPU_VALUES_DOUBLE));
  PetscCall(MatMult(A, x, y));
  PetscCall(MatELLGGetFormat(A, &fmt, &dbytes, &ub));
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &bytes, 1, MPIU_PETSCLOGDOUBLE, MPI_SUM, comm));
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &dbytes, 1, MPIU_PETSCLOGDOUBLE, MPI_SUM, comm));
  PetscCall(PrintNamedResult(comm, WIDTH, c->name, "fewer bytes on the device than in double", (PetscBool)(bytes < dbytes), nfail));
  PetscCall(MatMult(Ar, xr, yr));
  PetscCall(VecNorm(bound, NORM_INFINITY, &scale));
  ok = PETSC_TRUE;
  PetscCall(CheckClose(y, yr, scale, "double again", &ok));
  PetscCall(PrintNamedResult(comm, WIDTH, c->name, "double again: AIJ's product", ok, nfail));

  /* new values (same pattern, -2/3 of the old): rounded to single precision too */
  PetscCall(SetSingle(A, PETSC_FALSE));
  PetscCall(MatScale(Ar, -2.0 / 3.0));
  PetscCall(MatCopy(Ar, A, SAME_NONZERO_PATTERN));
  PetscCall(MatMult(A, x, y));
  PetscCall(MatMult(Ar, xr, yr));
  PetscCall(MatScale(Aa, 2.0 / 3.0));
  PetscCall(MatMult(Aa, xa, bound));
  PetscCall(WithinSingle(y, yr, bound, &ok, &rel));
  PetscCall(PrintNamedResult(comm, WIDTH, c->name, "new values: within single rounding", (PetscBool)(ok && rel > 1e-12), nfail));

  PetscCall(MatDestroy(&B));
  PetscCall(MatDestroy(&Ba));
  PetscCall(MatDestroy(&C));
  PetscCall(MatDestroy(&Cr));
  PetscCall(MatDestroy(&Cb));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(VecDestroy(&xr));
  PetscCall(VecDestroy(&yr));
  PetscCall(VecDestroy(&xa));
  PetscCall(VecDestroy(&bound));
  PetscCall(VecDestroy(&z));
  PetscCall(VecDestroy(&zr));
  PetscCall(VecDestroy(&d));
  PetscCall(VecDestroy(&dr));
  PetscCall(VecDestroy(&t));
  PetscCall(VecDestroy(&tr));
  PetscCall(VecDestroy(&tb));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&Ar));
  PetscCall(MatDestroy(&Aa));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a value beyond single precision's range: refused at the build and at an update (the old values kept), accepted in
   double; on each process, a matrix of its own (an error on one process of a collective product is not collective),
   of prefix range_ (not viewed by -mat_view, which would store it); the results printed on comm */
static PetscErrorCode CheckRange(MPI_Comm comm, MatType type, PetscInt *nfail)
{
  Mat            A;
  Vec            x, y;
  PetscInt       n = 8, rstart, rend;
  PetscErrorCode ierr;
  PetscReal      nrm;
  PetscBool      ok;

  PetscFunctionBeginUser;
  PetscCall(MatCreate(PETSC_COMM_SELF, &A));
  PetscCall(MatSetOptionsPrefix(A, "range_"));
  PetscCall(MatSetSizes(A, PETSC_DECIDE, PETSC_DECIDE, n, n));
  PetscCall(MatSetType(A, type));
  PetscCall(MatSetFromOptions(A));
  PetscCall(MatXAIJSetPreallocation(A, 1, NULL, NULL, NULL, NULL));
  PetscCall(MatSeqAIJSetPreallocation(A, 1, NULL));
  PetscCall(MatMPIAIJSetPreallocation(A, 1, NULL, 1, NULL));
  PetscCall(MatGPUSetValuePrecision(A, MAT_GPU_VALUES_SINGLE));
  PetscCall(MatGetOwnershipRange(A, &rstart, &rend));
  for (PetscInt i = rstart; i < rend; i++) PetscCall(MatSetValue(A, i, i, i == n - 1 ? 1e39 : 1.0, INSERT_VALUES));
  PetscCall(Assemble(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatCreateVecs(A, &x, &y));
  PetscCall(VecSet(x, 1.0));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = MatMult(A, x, y);
  PetscCall(PetscPopErrorHandler());
  ok = (PetscBool)(ierr == PETSC_ERR_FP);
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPIU_BOOL, MPI_LAND, comm));
  PetscCall(PrintResult(comm, WIDTH, "a value of 1e39: the build refused (PETSC_ERR_FP)", ok, nfail));

  if (rend == n) PetscCall(MatSetValue(A, n - 1, n - 1, 2.0, INSERT_VALUES));
  PetscCall(Assemble(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatMult(A, x, y));
  PetscCall(VecNorm(y, NORM_1, &nrm));
  ok = (PetscBool)(nrm == n + 1.0);
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPIU_BOOL, MPI_LAND, comm));
  PetscCall(PrintResult(comm, WIDTH, "in range again: built, the product right", ok, nfail));

  if (rend == n) PetscCall(MatSetValue(A, n - 1, n - 1, -1e39, INSERT_VALUES));
  PetscCall(Assemble(A, MAT_FINAL_ASSEMBLY));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = MatMult(A, x, y);
  PetscCall(PetscPopErrorHandler());
  ok = (PetscBool)(ierr == PETSC_ERR_FP);
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPIU_BOOL, MPI_LAND, comm));
  PetscCall(PrintResult(comm, WIDTH, "an update to -1e39: refused (PETSC_ERR_FP)", ok, nfail));

  PetscCall(MatGPUSetValuePrecision(A, MAT_GPU_VALUES_DOUBLE));
  PetscCall(MatMult(A, x, y));
  PetscCall(VecNorm(y, NORM_1, &nrm));
  ok = (PetscBool)(nrm == 1e39 + (n - 1));
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPIU_BOOL, MPI_LAND, comm));
  PetscCall(PrintResult(comm, WIDTH, "in double: -1e39 accepted, the product right", ok, nfail));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  MPI_Comm    comm;
  char        type[TYPE_LEN];
  PetscInt    nfail = 0;
  PetscBool   fromoptions = PETSC_FALSE;
  PetscRandom rnd;
  CSR         cs[4];

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscELLGInitializePackage());
  comm = PETSC_COMM_WORLD;
  PetscCall(TestType(type, NULL, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-from_options", &fromoptions, NULL));
  PetscCall(RandomCreate(comm, 21, &rnd));
  PetscCall(CSRRandom("random 301x301", 301, 301, 0.03, 0.0, NULL, 3, &cs[0]));
  PetscCall(CSRLaplacian("Laplacian 2D 40x40", 40, &cs[1]));
  PetscCall(CSRPowerLaw("power-law 600", 600, 2, 1.2, 5, &cs[2]));
  PetscCall(CSRLaplacianDenseRow(30, &cs[3]));
  for (int k = 0; k < 4; k++) {
    /* values that single precision does not hold exactly: the Laplacians' scaled by 1/3 */
    for (PetscInt j = 0; j < cs[k].ia[cs[k].M]; j++) cs[k].va[j] *= 1.0 / 3.0 + 1e-3 * (PetscReal)(j % 7);
    PetscCall(CheckMatrix(comm, &cs[k], type, fromoptions, (PetscBool)(k == 1 || k == 3), rnd, &nfail)); /* SOR of the Laplacians: nonzero diagonals */
    PetscCall(CSRDestroy(&cs[k]));
  }
  PetscCall(CheckRange(comm, type, &nfail));
  if (nfail) PetscCall(PetscPrintf(comm, "%" PetscInt_FMT " FAILED\n", nfail));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   test:
      suffix: 1
      nsize: {{1 3}}
      args: -type {{ellg pjds slicedell csrg aijgpu}}
      output_file: output/ex21_1.out

   # the precision from the option, which MatSetFromOptions() reads
   test:
      suffix: options
      nsize: 2
      args: -type {{ellg aijgpu}} -from_options -mat_gpu_value_precision single
      output_file: output/ex21_1.out

   # -mat_view ::ascii_info says the precision
   test:
      suffix: view
      args: -type slicedell -from_options -mat_gpu_value_precision single -mat_view ::ascii_info
      filter: grep -m 1 "values: single"

TEST*/
