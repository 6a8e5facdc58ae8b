static char help[] = "Value and structure changes of an assembled matrix of one of our types, done to an AIJ matrix\n\
too: after each, MatMult, MatMultTranspose and MatGetDiagonal must agree. MatSetValues (INSERT, ADD) + re-assembly,\n\
flush assembly, MatScale, MatShift, MatDiagonalSet, MatDiagonalScale, MatZeroRows, MatZeroRowsColumns,\n\
MatAXPY, MatSeqAIJGetArray, MatTranspose, MatZeroEntries, MatUpdateMPIAIJWithArray after MatSetType on an assembled MPIAIJ matrix, new nonzeros after MatSetOption(MAT_NEW_NONZERO_ALLOCATION_ERR,\n\
PETSC_FALSE); and the error for a new nonzero with the default options.\n\
  -type <ellg,pjds,slicedell>: the type (root name)\n\
  -n <n>: the size of the matrix\n\n";

#include "ellgtest.h"

/* The matrix: a deterministic pattern with a full diagonal, and values that depend on (i, j) only */
static PetscBool InPattern(PetscInt i, PetscInt j)
{
  return (PetscBool)(i == j || (i * 7 + j * 13) % 11 == 0 || (j == i + 1 && i % 3));
}

static PetscScalar Value(PetscInt i, PetscInt j, PetscInt round)
{
  return (PetscScalar)(((i * 31 + j * 17 + round * 5) % 23) - 11) / 7.0 + (i == j ? 10.0 : 0.0);
}

/* The pattern with the values of the given round, as an n x n CSR matrix */
static PetscErrorCode CSRPattern(PetscInt n, PetscInt round, CSR *c)
{
  PetscInt i, j, nz = 0;

  PetscFunctionBeginUser;
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) nz += InPattern(i, j);
  PetscCall(CSRCreate("pattern", n, n, nz, c));
  for (i = 0, nz = 0; i < n; i++) {
    for (j = 0; j < n; j++)
      if (InPattern(i, j)) {
        c->ja[nz]   = j;
        c->va[nz++] = Value(i, j, round);
      }
    c->ia[i + 1] = nz;
  }
  PetscFunctionReturn(0);
}

/* Sets the rows this process owns; round changes the values */
static PetscErrorCode SetAllValues(Mat A, PetscInt round, InsertMode mode)
{
  PetscInt N;
  CSR      c;

  PetscFunctionBeginUser;
  PetscCall(MatGetSize(A, NULL, &N));
  PetscCall(CSRPattern(N, round, &c));
  PetscCall(SetValuesCSR(A, &c, mode));
  PetscCall(CSRDestroy(&c));
  PetscFunctionReturn(0);
}

/* SetAllValues() on A and on R, then the assembly of both */
static PetscErrorCode SetAllValuesBoth(Mat A, Mat R, PetscInt round, InsertMode mode, MatAssemblyType type)
{
  PetscFunctionBeginUser;
  PetscCall(SetAllValues(A, round, mode));
  PetscCall(SetAllValues(R, round, mode));
  PetscCall(Assemble(A, type));
  PetscCall(Assemble(R, type));
  PetscFunctionReturn(0);
}

/* n x n matrix of the given type, preallocated for the pattern, assembled with the values of round 0 */
static PetscErrorCode BuildMat(PetscInt n, MatType type, Mat *A)
{
  CSR c;

  PetscFunctionBeginUser;
  PetscCall(CSRPattern(n, 0, &c));
  PetscCall(CreateMatCSR(PETSC_COMM_WORLD, PETSC_DECIDE, PETSC_DECIDE, &c, type, A));
  PetscCall(CSRDestroy(&c));
  PetscFunctionReturn(0);
}

/* the same values in a vector of A's kind (from MatCreateVecs) and in a host vector */
static PetscErrorCode VecPair(Mat A, PetscInt seed, Vec *v, Vec *vr)
{
  PetscInt     i, rstart, rend, nloc, N;
  PetscScalar *a;

  PetscFunctionBeginUser;
  PetscCall(MatCreateVecs(A, v, NULL));
  PetscCall(VecGetLocalSize(*v, &nloc));
  PetscCall(VecGetSize(*v, &N));
  PetscCall(CreateVec(PetscObjectComm((PetscObject)A), nloc, N, VECSTANDARD, vr));
  PetscCall(VecGetOwnershipRange(*vr, &rstart, &rend));
  PetscCall(VecGetArrayWrite(*vr, &a));
  for (i = rstart; i < rend; i++) a[i - rstart] = 1.0 + 0.5 * PetscSinReal((PetscReal)(i * (seed + 3)));
  PetscCall(VecRestoreArrayWrite(*vr, &a));
  PetscCall(CopyValues(*vr, *v));
  PetscFunctionReturn(0);
}

/* MatMult, MatMultTranspose, MatGetDiagonal of A (vectors of its kind) against R (host vectors) */
static PetscErrorCode Check(const char *what, Mat A, Mat R, PetscInt *nfail)
{
  PetscBool ok = PETSC_TRUE;
  PetscReal nrm1, nrminf, xn;
  Vec       x, xr, y, yr;

  PetscFunctionBeginUser;
  PetscCall(VecPair(A, 1, &x, &xr));
  PetscCall(VecDuplicate(x, &y));
  PetscCall(VecDuplicate(xr, &yr));
  PetscCall(VecNorm(xr, NORM_INFINITY, &xn));
  PetscCall(MatNorm(R, NORM_INFINITY, &nrminf));
  PetscCall(MatNorm(R, NORM_1, &nrm1));
  PetscCall(MatMult(A, x, y));
  PetscCall(MatMult(R, xr, yr));
  PetscCall(CheckClose(y, yr, nrminf * xn, "MatMult", &ok));
  PetscCall(MatMultTranspose(A, x, y));
  PetscCall(MatMultTranspose(R, xr, yr));
  PetscCall(CheckClose(y, yr, nrm1 * xn, "MatMultTranspose", &ok));
  PetscCall(MatGetDiagonal(A, y));
  PetscCall(MatGetDiagonal(R, yr));
  PetscCall(CheckClose(y, yr, 0.0, "MatGetDiagonal", &ok));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&xr));
  PetscCall(VecDestroy(&y));
  PetscCall(VecDestroy(&yr));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-56s %s\n", what, ok ? "ok" : "FAILED"));
  if (!ok) (*nfail)++;
  PetscFunctionReturn(0);
}

/* Scales the stored values through MatSeqAIJGetArray, entry k by 1 + (k % 7) / 10 (each block of a parallel matrix) */
static PetscErrorCode ModifyArrays(Mat A)
{
  PetscMPIInt  size;
  Mat          blocks[2];
  PetscInt     nb, b, k, nz;
  PetscScalar *a;
  MatInfo      info;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)A), &size));
  if (size == 1) {
    blocks[0] = A;
    nb        = 1;
  } else {
    PetscCall(MatMPIAIJGetSeqAIJ(A, &blocks[0], &blocks[1], NULL));
    nb = 2;
  }
  for (b = 0; b < nb; b++) {
    PetscCall(MatGetInfo(blocks[b], MAT_LOCAL, &info));
    nz = (PetscInt)info.nz_used;
    PetscCall(MatSeqAIJGetArray(blocks[b], &a));
    for (k = 0; k < nz; k++) a[k] *= 1.0 + (k % 7) / 10.0;
    PetscCall(MatSeqAIJRestoreArray(blocks[b], &a));
  }
  PetscFunctionReturn(0);
}

/* A new nonzero (i, j) outside the pattern in a row this process owns, within its diagonal block; FALSE if none */
static PetscErrorCode NewNonzero(Mat A, PetscInt *i, PetscInt *j, PetscBool *found)
{
  PetscInt rstart, rend, cstart, cend, r, c;

  PetscFunctionBeginUser;
  *found = PETSC_FALSE;
  PetscCall(MatGetOwnershipRange(A, &rstart, &rend));
  PetscCall(MatGetOwnershipRangeColumn(A, &cstart, &cend));
  for (r = rstart; r < rend && !*found; r++)
    for (c = cstart; c < cend && !*found; c++)
      if (!InPattern(r, c)) {
        *i     = r;
        *j     = c;
        *found = PETSC_TRUE;
      }
  PetscFunctionReturn(0);
}

/* MatCreateMPIAIJWithArrays() of the pattern's rows this process owns (round 0), made of type by
   MatSetType() (as MatSetFromOptions() would) unless type is AIJ, then given the values of
   round 1 through MatUpdateMPIAIJWithArray(), which writes MPIAIJ's arrays and needs its data kept */
static PetscErrorCode UpdatedWithArray(PetscInt n, MatType type, Mat *A)
{
  CSR       c0, c1;
  PetscInt  m = PETSC_DECIDE, N = n, rstart, *ia;
  PetscBool aij;

  PetscFunctionBeginUser;
  PetscCall(PetscSplitOwnership(PETSC_COMM_WORLD, &m, &N));
  PetscCallMPI(MPI_Scan(&m, &rstart, 1, MPIU_INT, MPI_SUM, PETSC_COMM_WORLD));
  rstart -= m;
  PetscCall(CSRPattern(n, 0, &c0));
  PetscCall(CSRPattern(n, 1, &c1));
  PetscCall(PetscMalloc1(m + 1, &ia));
  for (PetscInt i = 0; i <= m; i++) ia[i] = c0.ia[rstart + i] - c0.ia[rstart];
  PetscCall(MatCreateMPIAIJWithArrays(PETSC_COMM_WORLD, m, PETSC_DECIDE, n, n, ia, c0.ja + c0.ia[rstart], c0.va + c0.ia[rstart], A));
  PetscCall(PetscStrcmp(type, MATAIJ, &aij));
  if (!aij) PetscCall(MatSetType(*A, type));
  PetscCall(MatUpdateMPIAIJWithArray(*A, c1.va + c1.ia[rstart]));
  PetscCall(PetscFree(ia));
  PetscCall(CSRDestroy(&c0));
  PetscCall(CSRDestroy(&c1));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  Mat            A, R, A2, R2, B, At, Rt;
  Vec            l, lr, r, rr;
  PetscInt       n = 60, nfail = 0, rows[] = {0, 7, 13, 59}, nrows, i = 0, j = 0, rstart, rend, N;
  PetscMPIInt    rank;
  PetscBool      found, raised, same;
  PetscErrorCode ierr;
  char           type[TYPE_LEN];
  MatType        atype;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscELLGInitializePackage());
  PetscCall(TestType(type, NULL, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCheck(n >= 60, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-n must be at least 60");
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  nrows   = rank ? 0 : 4; /* MatZeroRows: process 0 names rows that others may own */
  rows[3] = n - 1;

  PetscCall(UpdatedWithArray(n, type, &A));
  PetscCall(UpdatedWithArray(n, MATAIJ, &R));
  PetscCall(Check("MPIAIJ made of the type, MatUpdateMPIAIJWithArray", A, R, &nfail));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&R));

  PetscCall(BuildMat(n, type, &A));
  PetscCall(BuildMat(n, MATAIJ, &R));
  PetscCall(Check("assembled", A, R, &nfail));

  PetscCall(SetAllValuesBoth(A, R, 1, INSERT_VALUES, MAT_FINAL_ASSEMBLY));
  PetscCall(Check("MatSetValues(INSERT), existing entries + assembly", A, R, &nfail));

  PetscCall(SetAllValuesBoth(A, R, 2, ADD_VALUES, MAT_FINAL_ASSEMBLY));
  PetscCall(Check("MatSetValues(ADD), existing entries + assembly", A, R, &nfail));

  PetscCall(SetAllValuesBoth(A, R, 3, INSERT_VALUES, MAT_FLUSH_ASSEMBLY));
  PetscCall(SetAllValuesBoth(A, R, 4, ADD_VALUES, MAT_FINAL_ASSEMBLY));
  PetscCall(Check("flush assembly, more values, final assembly", A, R, &nfail));

  PetscCall(MatScale(A, -1.5));
  PetscCall(MatScale(R, -1.5));
  PetscCall(Check("MatScale", A, R, &nfail));

  PetscCall(MatShift(A, 2.0));
  PetscCall(MatShift(R, 2.0));
  PetscCall(Check("MatShift", A, R, &nfail));

  PetscCall(VecPair(A, 2, &l, &lr));
  PetscCall(VecPair(A, 3, &r, &rr));
  PetscCall(MatDiagonalSet(A, l, ADD_VALUES));
  PetscCall(MatDiagonalSet(R, lr, ADD_VALUES));
  PetscCall(Check("MatDiagonalSet(ADD)", A, R, &nfail));
  PetscCall(MatDiagonalSet(A, r, INSERT_VALUES));
  PetscCall(MatDiagonalSet(R, rr, INSERT_VALUES));
  PetscCall(Check("MatDiagonalSet(INSERT)", A, R, &nfail));

  PetscCall(MatDiagonalScale(A, l, r));
  PetscCall(MatDiagonalScale(R, lr, rr));
  PetscCall(Check("MatDiagonalScale", A, R, &nfail));
  PetscCall(VecDestroy(&l));
  PetscCall(VecDestroy(&lr));
  PetscCall(VecDestroy(&r));
  PetscCall(VecDestroy(&rr));

  PetscCall(MatSetOption(A, MAT_KEEP_NONZERO_PATTERN, PETSC_TRUE));
  PetscCall(MatSetOption(R, MAT_KEEP_NONZERO_PATTERN, PETSC_TRUE));
  PetscCall(MatZeroRows(A, nrows, rows, 3.0, NULL, NULL));
  PetscCall(MatZeroRows(R, nrows, rows, 3.0, NULL, NULL));
  PetscCall(Check("MatZeroRows (diagonal 3, pattern kept)", A, R, &nfail));
  PetscCall(MatSetOption(A, MAT_KEEP_NONZERO_PATTERN, PETSC_FALSE));
  PetscCall(MatSetOption(R, MAT_KEEP_NONZERO_PATTERN, PETSC_FALSE));

  rows[1] = 8;
  PetscCall(MatZeroRowsColumns(A, nrows, rows, 1.0, NULL, NULL));
  PetscCall(MatZeroRowsColumns(R, nrows, rows, 1.0, NULL, NULL));
  PetscCall(Check("MatZeroRowsColumns (diagonal 1)", A, R, &nfail));

  PetscCall(BuildMat(n, type, &A2));
  PetscCall(BuildMat(n, MATAIJ, &R2));
  PetscCall(MatAXPY(A, 0.5, A2, SAME_NONZERO_PATTERN));
  PetscCall(MatAXPY(R, 0.5, R2, SAME_NONZERO_PATTERN));
  PetscCall(Check("MatAXPY(SAME_NONZERO_PATTERN)", A, R, &nfail));
  PetscCall(MatDestroy(&A2));
  PetscCall(MatDestroy(&R2));

  PetscCall(ModifyArrays(A));
  PetscCall(ModifyArrays(R));
  PetscCall(Check("MatSeqAIJGetArray, change, restore", A, R, &nfail));

  PetscCall(MatTranspose(A, MAT_INITIAL_MATRIX, &At));
  PetscCall(MatTranspose(R, MAT_INITIAL_MATRIX, &Rt));
  PetscCall(MatGetType(A, &atype));
  PetscCall(PetscObjectTypeCompare((PetscObject)At, atype, &same));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-56s %s\n", "MatTranspose: of the matrix's type", same ? "ok" : "FAILED"));
  if (!same) nfail++;
  PetscCall(Check("MatTranspose(MAT_INITIAL_MATRIX)", At, Rt, &nfail));
  PetscCall(MatScale(A, -0.5));
  PetscCall(MatScale(R, -0.5));
  PetscCall(MatTranspose(A, MAT_REUSE_MATRIX, &At));
  PetscCall(MatTranspose(R, MAT_REUSE_MATRIX, &Rt));
  PetscCall(Check("MatScale, then MatTranspose(MAT_REUSE_MATRIX)", At, Rt, &nfail));
  PetscCall(MatDestroy(&At));
  PetscCall(MatDestroy(&Rt));

  PetscCall(MatZeroEntries(A));
  PetscCall(MatZeroEntries(R));
  PetscCall(Check("MatZeroEntries", A, R, &nfail));
  PetscCall(SetAllValuesBoth(A, R, 5, ADD_VALUES, MAT_FINAL_ASSEMBLY));
  PetscCall(Check("MatSetValues after MatZeroEntries + assembly", A, R, &nfail));

  /* new nonzeros: the anti-diagonal and the last column, which reach other processes' columns */
  PetscCall(MatSetOption(A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
  PetscCall(MatSetOption(R, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
  PetscCall(MatGetOwnershipRange(A, &rstart, &rend));
  PetscCall(MatGetSize(A, &N, NULL));
  for (i = rstart; i < rend; i++) {
    PetscInt    cols[2] = {N - 1 - i, N - 1};
    PetscScalar vals[2] = {0.25 * (PetscScalar)i, -1.0};

    PetscCall(MatSetValues(A, 1, &i, 2, cols, vals, ADD_VALUES));
    PetscCall(MatSetValues(R, 1, &i, 2, cols, vals, ADD_VALUES));
  }
  PetscCall(Assemble(A, MAT_FINAL_ASSEMBLY));
  PetscCall(Assemble(R, MAT_FINAL_ASSEMBLY));
  PetscCall(Check("new nonzeros (allocation allowed) + assembly", A, R, &nfail));
  PetscCall(MatScale(A, 0.25));
  PetscCall(MatScale(R, 0.25));
  PetscCall(Check("MatScale after new nonzeros", A, R, &nfail));

  /* MatZeroRows without MAT_KEEP_NONZERO_PATTERN removes the rows' entries; then refill them */
  rows[1] = 9;
  PetscCall(MatZeroRows(A, nrows, rows, 2.0, NULL, NULL));
  PetscCall(MatZeroRows(R, nrows, rows, 2.0, NULL, NULL));
  PetscCall(Check("MatZeroRows (diagonal 2, entries removed)", A, R, &nfail));
  PetscCall(SetAllValuesBoth(A, R, 6, ADD_VALUES, MAT_FINAL_ASSEMBLY));
  PetscCall(Check("refilled rows + assembly", A, R, &nfail));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&R));

  /* with the default options a new nonzero after assembly is PETSc's usual error */
  PetscCall(BuildMat(n, type, &B));
  PetscCall(NewNonzero(B, &i, &j, &found));
  raised = PETSC_TRUE;
  if (found) {
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr = MatSetValue(B, i, j, 1.0, INSERT_VALUES);
    PetscCall(PetscPopErrorHandler());
    raised = (PetscBool)(ierr == PETSC_ERR_ARG_OUTOFRANGE);
  }
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &raised, 1, ELLG_MPI_BOOL, MPI_LAND, PETSC_COMM_WORLD));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-56s %s\n", "new nonzero with the default options: error", raised ? "ok" : "FAILED"));
  if (!raised) nfail++;
  PetscCall(MatDestroy(&B));

  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s\n", nfail ? "SOME CHECKS FAILED" : "all checks passed"));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   test:
      suffix: 1
      args: -type {{ellg pjds slicedell csrg}}
      output_file: output/ex2_1.out

   # -help lists the backend's options (their current values, host or cuda, left out, and the colons that PETSc
   # puts after an option's name from 3.20)
   test:
      suffix: help
      args: -help
      filter: grep -E "^ *-ellg_(backend|device|device_memory_limit)[: ]" | sed -e "s/ <[^>]*>//" | tr -d :

   test:
      suffix: mpi
      nsize: {{2 3 4}}
      args: -type {{ellg pjds slicedell csrg}}
      output_file: output/ex2_1.out

   # rows of more than 3 or 6 entries multiplied as long rows: all, or some (the rows have 6 to 8 entries,
   # up to 10 after the new nonzeros)
   test:
      suffix: long_rows_ellg
      args: -type ellg -mat_ellg_long_row_threshold {{3 6}}
      output_file: output/ex2_1.out

   test:
      suffix: long_rows_ellg_mpi
      nsize: 2
      args: -type ellg -mat_ellg_long_row_threshold 6
      output_file: output/ex2_1.out

   test:
      suffix: long_rows_pjds
      args: -type pjds -mat_pjds_long_row_threshold {{3 6}}
      output_file: output/ex2_1.out

   test:
      suffix: long_rows_pjds_mpi
      nsize: 2
      args: -type pjds -mat_pjds_long_row_threshold 6
      output_file: output/ex2_1.out

   test:
      suffix: long_rows_slicedell
      args: -type slicedell -mat_slicedell_long_row_threshold {{3 6}}
      output_file: output/ex2_1.out

   test:
      suffix: long_rows_slicedell_mpi
      nsize: 2
      args: -type slicedell -mat_slicedell_long_row_threshold 6
      output_file: output/ex2_1.out

   # a pJDS block per row; sorted sliced ELL slices of 4 rows
   test:
      suffix: pjds_block_rows
      nsize: {{1 2}}
      args: -type pjds -mat_pjds_block_rows 1
      output_file: output/ex2_1.out

   test:
      suffix: slicedell_sigma
      nsize: {{1 2}}
      args: -type slicedell -mat_slicedell_slice_height 4 -mat_slicedell_sigma 16
      output_file: output/ex2_1.out

TEST*/
