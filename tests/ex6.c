static char help[] = "Sparse times dense, C = A B (MatMatMult, MatProduct AB), of matrices of one of our types with dense\n\
matrices (MATSEQDENSE, MATMPIDENSE) against AIJ times dense, on random, power-law and edge-case matrices, for B\n\
of L = 1 to 64 columns: each product runs in the format (log event MatGPUSpMM); MatProduct reuse after A's values\n\
(and B's) change; B and C with leading dimensions larger than their rows; A^T B, which AIJ computes; products of\n\
nonconforming sizes fail as with AIJ. Prints pass/fail lines only, the same for every type and option.\n\
  -type <ellg,pjds,slicedell>: the type (root name)\n\
  -empty_rank: the last MPI process owns no rows and no columns\n\
  -uneven: process r owns a share of the rows growing with r, of the columns shrinking with r\n\
  -L <n>: C = A B for this number of columns only (instead of 1 to 64), on the matrices with at most 2^25 / n columns\n\n";

#include "ellgtest.h"

/* the columns of B: every L from 1 to 64 the kernels treat apart (one column, powers of two and one past them,
   odd counts) */
static const PetscInt Ls[] = {1, 2, 3, 7, 8, 17, 32, 33, 64};

/* -L: the largest B (entries) a case runs with */
#define MAX_B_ENTRIES 33554432.0

/* CheckDense - C against Cref = R B: |(A B)_ij| <= ||A||_inf max |B|, and |B| <= 1 */
static PetscErrorCode CheckDense(Mat C, Mat Cref, Mat R, const char *what, PetscBool *ok)
{
  PetscReal err, nrm;

  PetscFunctionBeginUser;
  PetscCall(MaxDenseDifference(C, Cref, &err, NULL));
  PetscCall(MatNorm(R, NORM_INFINITY, &nrm));
  if (!(err <= RTOL * nrm)) {
    *ok = PETSC_FALSE;
    PetscCall(PetscPrintf(PetscObjectComm((PetscObject)C), "    FAILED %s: max error %g, allowed %g\n", what, (double)err, (double)(RTOL * nrm)));
  }
  PetscFunctionReturn(0);
}

/* CheckRan - whether our product ran expected times since *count (every process), which it then updates */
static PetscErrorCode CheckRan(MPI_Comm comm, PetscLogDouble *count, PetscLogDouble expected, const char *what, PetscBool *ok)
{
  PetscLogDouble now = 0;
  PetscBool      same;

  PetscFunctionBeginUser;
  PetscCall(EventCount("MatGPUSpMM", &now));
  same = (PetscBool)(now - *count == expected);
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &same, 1, ELLG_MPI_BOOL, MPI_LAND, comm));
  if (!same) {
    *ok = PETSC_FALSE;
    PetscCall(PetscPrintf(comm, "    FAILED %s: the format's product ran %g times, expected %g\n", what, (double)(now - *count), (double)expected));
  }
  *count = now;
  PetscFunctionReturn(0);
}

/* C = A B (MatMatMult) against R B for each L of Ls, or for L alone when it is not 0, each in the format */
static PetscErrorCode CheckProducts(Mat A, Mat R, const char *name, PetscInt L, PetscRandom rnd, PetscInt *nfail)
{
  MPI_Comm        comm = PetscObjectComm((PetscObject)A);
  PetscInt        n, N;
  const PetscInt *list = L ? &L : Ls;
  const size_t    nl   = L ? 1 : PETSC_STATIC_ARRAY_LENGTH(Ls);
  PetscLogDouble  count;
  PetscBool       ok = PETSC_TRUE;
  char            what[64], check[64] = "C = A B in the format, L = 1 .. 64";

  PetscFunctionBeginUser;
  if (L) PetscCall(PetscSNPrintf(check, sizeof(check), "C = A B in the format, L = %" PetscInt_FMT, L));
  PetscCall(MatGetLocalSize(A, NULL, &n));
  PetscCall(MatGetSize(A, NULL, &N));
  PetscCall(EventCount("MatGPUSpMM", &count));
  for (size_t l = 0; l < nl; l++) {
    Mat B, C, Cref;

    PetscCall(PetscSNPrintf(what, sizeof(what), "MatMatMult with L = %" PetscInt_FMT, list[l]));
    PetscCall(DenseRandom(comm, MATDENSE, n, N, list[l], 0, rnd, &B));
    PetscCall(MatMatMult(A, B, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &C));
    PetscCall(CheckRan(comm, &count, 1, what, &ok));
    PetscCall(MatMatMult(R, B, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &Cref));
    PetscCall(CheckDense(C, Cref, R, what, &ok));
    PetscCall(MatDestroy(&B));
    PetscCall(MatDestroy(&C));
    PetscCall(MatDestroy(&Cref));
  }
  PetscCall(PrintNamedResult(comm, 64, name, check, ok, nfail));
  PetscFunctionReturn(0);
}

/* MatProduct reuse: symbolic once, numeric again after A's values change (MatScale, re-assembly with added values
   on the same pattern) and after B's; MatMatMult with MAT_REUSE_MATRIX */
static PetscErrorCode CheckReuse(Mat A, Mat R, const CSR *c, const char *name, PetscRandom rnd, PetscInt *nfail)
{
  MPI_Comm       comm = PetscObjectComm((PetscObject)A);
  PetscInt       n, N;
  PetscLogDouble count;
  PetscBool      ok = PETSC_TRUE;
  Mat            B, D, C, Cref;

  PetscFunctionBeginUser;
  PetscCall(MatGetLocalSize(A, NULL, &n));
  PetscCall(MatGetSize(A, NULL, &N));
  PetscCall(DenseRandom(comm, MATDENSE, n, N, 19, 0, rnd, &B));
  PetscCall(EventCount("MatGPUSpMM", &count));
  PetscCall(MatProductCreate(A, B, NULL, &D));
  PetscCall(MatProductSetType(D, MATPRODUCT_AB));
  PetscCall(MatProductSetFromOptions(D));
  PetscCall(MatProductSymbolic(D));
  PetscCall(MatProductNumeric(D));
  PetscCall(MatMatMult(R, B, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &Cref));
  PetscCall(CheckDense(D, Cref, R, "MatProductNumeric", &ok));

  PetscCall(MatScale(A, -2.0));
  PetscCall(MatScale(R, -2.0));
  PetscCall(MatProductNumeric(D));
  PetscCall(MatMatMult(R, B, MAT_REUSE_MATRIX, PETSC_DEFAULT, &Cref));
  PetscCall(CheckDense(D, Cref, R, "MatProductNumeric after MatScale(A)", &ok));

  PetscCall(SetValuesCSR(A, c, ADD_VALUES)); /* -2 A + A */
  PetscCall(Assemble(A, MAT_FINAL_ASSEMBLY));
  PetscCall(SetValuesCSR(R, c, ADD_VALUES));
  PetscCall(Assemble(R, MAT_FINAL_ASSEMBLY));
  PetscCall(MatProductNumeric(D));
  PetscCall(MatMatMult(R, B, MAT_REUSE_MATRIX, PETSC_DEFAULT, &Cref));
  PetscCall(CheckDense(D, Cref, R, "MatProductNumeric after re-assembly of A", &ok));

  PetscCall(MatSetRandom(B, rnd));
  PetscCall(MatProductNumeric(D));
  PetscCall(MatMatMult(R, B, MAT_REUSE_MATRIX, PETSC_DEFAULT, &Cref));
  PetscCall(CheckDense(D, Cref, R, "MatProductNumeric after new values of B", &ok));
  PetscCall(CheckRan(comm, &count, 4, "MatProductNumeric", &ok));

  PetscCall(MatMatMult(A, B, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &C));
  PetscCall(MatScale(A, 3.0));
  PetscCall(MatScale(R, 3.0));
  PetscCall(MatMatMult(A, B, MAT_REUSE_MATRIX, PETSC_DEFAULT, &C));
  PetscCall(MatMatMult(R, B, MAT_REUSE_MATRIX, PETSC_DEFAULT, &Cref));
  PetscCall(CheckDense(C, Cref, R, "MatMatMult(MAT_REUSE_MATRIX) after MatScale(A)", &ok));
  PetscCall(CheckRan(comm, &count, 2, "MatMatMult(MAT_REUSE_MATRIX)", &ok));
  PetscCall(PrintNamedResult(comm, 64, name, "MatProduct reuse after A and B change", ok, nfail));
  PetscCall(MatDestroy(&B));
  PetscCall(MatDestroy(&C));
  PetscCall(MatDestroy(&D));
  PetscCall(MatDestroy(&Cref));
  PetscFunctionReturn(0);
}

/* B and C with leading dimensions larger than their local rows (C given to MatProductCreateWithMat()) */
static PetscErrorCode CheckLeadingDimensions(Mat A, Mat R, const char *name, PetscRandom rnd, PetscInt *nfail)
{
  MPI_Comm  comm = PetscObjectComm((PetscObject)A);
  PetscInt  m, n, M, N;
  PetscBool ok = PETSC_TRUE;
  Mat       B, C, Cref;

  PetscFunctionBeginUser;
  PetscCall(MatGetLocalSize(A, &m, &n));
  PetscCall(MatGetSize(A, &M, &N));
  PetscCall(DenseRandom(comm, MATDENSE, n, N, 13, 3, rnd, &B));
  PetscCall(DenseRandom(comm, MATDENSE, m, M, 13, 5, rnd, &C));
  PetscCall(MatProductCreateWithMat(A, B, NULL, C));
  PetscCall(MatProductSetType(C, MATPRODUCT_AB));
  PetscCall(MatProductSetFromOptions(C));
  PetscCall(MatProductSymbolic(C));
  PetscCall(MatProductNumeric(C));
  PetscCall(MatMatMult(R, B, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &Cref));
  PetscCall(CheckDense(C, Cref, R, "leading dimensions", &ok));
  PetscCall(PrintNamedResult(comm, 64, name, "B and C with leading dimensions > rows", ok, nfail));
  PetscCall(MatDestroy(&B));
  PetscCall(MatDestroy(&C));
  PetscCall(MatDestroy(&Cref));
  PetscFunctionReturn(0);
}

/* A^T B: not ours, AIJ's product of the AIJ data */
static PetscErrorCode CheckTransposeProduct(Mat A, Mat R, const char *name, PetscRandom rnd, PetscInt *nfail)
{
  MPI_Comm       comm = PetscObjectComm((PetscObject)A);
  PetscInt       m, M;
  PetscLogDouble count;
  PetscBool      ok = PETSC_TRUE;
  Mat            B, C, Cref, Rt;

  PetscFunctionBeginUser;
  PetscCall(MatGetLocalSize(A, &m, NULL));
  PetscCall(MatGetSize(A, &M, NULL));
  PetscCall(DenseRandom(comm, MATDENSE, m, M, 5, 0, rnd, &B));
  PetscCall(EventCount("MatGPUSpMM", &count));
  PetscCall(MatTransposeMatMult(A, B, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &C));
  PetscCall(CheckRan(comm, &count, 0, "MatTransposeMatMult", &ok));
  PetscCall(MatTransposeMatMult(R, B, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &Cref));
  PetscCall(MatTranspose(R, MAT_INITIAL_MATRIX, &Rt)); /* for the bound, ||A^T||_inf */
  PetscCall(CheckDense(C, Cref, Rt, "MatTransposeMatMult", &ok));
  PetscCall(PrintNamedResult(comm, 64, name, "A^T B (AIJ's product)", ok, nfail));
  PetscCall(MatDestroy(&Rt));
  PetscCall(MatDestroy(&B));
  PetscCall(MatDestroy(&C));
  PetscCall(MatDestroy(&Cref));
  PetscFunctionReturn(0);
}

/* MatMatMult(A, B) and MatMatMult(R, B) with B nonconforming, errors returned: both must fail with the same code */
static PetscErrorCode CheckError(Mat A, Mat R, Mat B, const char *what, PetscInt *nfail)
{
  MPI_Comm       comm = PetscObjectComm((PetscObject)A);
  Mat            C = NULL, Cref = NULL;
  PetscErrorCode ea, er;
  PetscBool      ok;

  PetscFunctionBeginUser;
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ea = MatMatMult(A, B, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &C);
  er = MatMatMult(R, B, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &Cref);
  PetscCall(PetscPopErrorHandler());
  ok = (PetscBool)(er != 0 && ea == er);
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &ok, 1, ELLG_MPI_BOOL, MPI_LAND, comm));
  PetscCall(PetscPrintf(comm, "%-64s %s\n", what, ok ? "error: ok" : "FAILED"));
  if (!ok) {
    (*nfail)++;
    PetscCall(PetscPrintf(comm, "    format error %d, aij error %d\n", (int)ea, (int)er));
  }
  PetscCall(MatDestroy(&C));
  PetscCall(MatDestroy(&Cref));
  PetscFunctionReturn(0);
}

/* B with one row too many; in parallel also B with A's number of rows split unlike A's columns */
static PetscErrorCode CheckErrors(Mat A, Mat R, PetscRandom rnd, PetscInt *nfail)
{
  MPI_Comm    comm = PetscObjectComm((PetscObject)A);
  PetscMPIInt rank, size;
  PetscInt    n, N;
  Mat         B;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(MatGetLocalSize(A, NULL, &n));
  PetscCall(MatGetSize(A, NULL, &N));
  PetscCall(DenseRandom(comm, MATDENSE, rank ? n : n + 1, N + 1, 4, 0, rnd, &B));
  PetscCall(CheckError(A, R, B, "MatMatMult, B with more rows than A has columns", nfail));
  PetscCall(MatDestroy(&B));
  if (size > 1) { /* every process's range moved by one: the first ends a row later, the others start a row later */
    PetscCall(DenseRandom(comm, MATDENSE, n + (rank == 0) - (rank == size - 1), N, 4, 0, rnd, &B));
    PetscCall(CheckError(A, R, B, "MatMatMult, B split unlike the columns of A", nfail));
    PetscCall(MatDestroy(&B));
  }
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  MPI_Comm    comm;
  Layout      layout = LAYOUT_EVEN;
  PetscInt    nfail = 0, i, ncase = 0, L = 0;
  PetscRandom rnd;
  CSR         c[16];
  Mat         A, R;
  char        type[TYPE_LEN];

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscELLGInitializePackage());
  PetscCall(PetscLogDefaultBegin()); /* for the counts of the log event */
  comm = PETSC_COMM_WORLD;
  PetscCall(TestType(type, NULL, NULL));
  PetscCall(GetLayout(&layout));
  PetscCall(RandomCreate(comm, 11, &rnd));

  {
    PetscInt dense[200];

    PetscCall(CSRRandom("0x0", 0, 0, 0.0, 0.0, NULL, 1, &c[ncase++]));
    PetscCall(CSRRandom("1x1", 1, 1, 1.0, 0.0, NULL, 2, &c[ncase++]));
    PetscCall(CSRRandom("zero matrix 20x20", 20, 20, 0.0, 0.0, NULL, 3, &c[ncase++]));
    PetscCall(CSRRandom("random 100x80 density 0.1", 100, 80, 0.1, 0.0, NULL, 4, &c[ncase++]));
    PetscCall(CSRRandom("random 257x257 density 0.02", 257, 257, 0.02, 0.0, NULL, 5, &c[ncase++]));
    PetscCall(CSRRandom("random 64x64 density 0.6", 64, 64, 0.6, 0.0, NULL, 6, &c[ncase++]));
    PetscCall(CSRRandom("empty rows 50x50", 50, 50, 0.02, 0.0, NULL, 7, &c[ncase++]));
    PetscCall(CSRRandom("explicit zeros 60x60", 60, 60, 0.2, 0.5, NULL, 8, &c[ncase++]));
    PetscCall(CSRRandom("tall 90x25", 90, 25, 0.15, 0.0, NULL, 9, &c[ncase++]));
    PetscCall(CSRRandom("wide 25x90", 25, 90, 0.15, 0.0, NULL, 10, &c[ncase++]));
    for (i = 0; i < 200; i++) dense[i] = i == 3 ? 200 : (i % 4 == 1 ? 0 : 3);
    PetscCall(CSRRandom("one dense row 200x200", 200, 200, 0.0, 0.0, dense, 11, &c[ncase++]));
    PetscCall(CSRLaplacian("Laplacian 2D 30x30", 30, &c[ncase++]));
    PetscCall(CSRPowerLaw("power-law rows 2000x2000", 2000, 2, 1.3, 12, &c[ncase++]));
  }

  PetscCall(PetscOptionsGetInt(NULL, NULL, "-L", &L, NULL));
  PetscCheck(L >= 0, comm, PETSC_ERR_ARG_OUTOFRANGE, "-L %" PetscInt_FMT ": B needs at least one column", L);
  for (i = 0; i < ncase; i++) {
    if (L && (double)c[i].N * L > MAX_B_ENTRIES) { /* -L: only the cases whose B stays small */
      PetscCall(CSRDestroy(&c[i]));
      continue;
    }
    PetscCall(CreateMatSplit(comm, layout, &c[i], type, &A));
    PetscCall(CreateMatSplit(comm, layout, &c[i], MATAIJ, &R));
    PetscCall(CheckProducts(A, R, c[i].name, L, rnd, &nfail));
    PetscCall(CheckLeadingDimensions(A, R, c[i].name, rnd, &nfail));
    PetscCall(CheckTransposeProduct(A, R, c[i].name, rnd, &nfail));
    PetscCall(CheckReuse(A, R, &c[i], c[i].name, rnd, &nfail)); /* last: it changes A and R */
    if (i == 3) PetscCall(CheckErrors(A, R, rnd, &nfail));
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

   # every type with its default options; the output does not name the type
   test:
      suffix: 1
      args: -type {{ellg pjds slicedell csrg aijgpu}}
      output_file: output/ex6_1.out

   test:
      suffix: mpi
      nsize: 2
      args: -type {{ellg pjds slicedell csrg aijgpu}}
      output_file: output/ex6_mpi.out

   test:
      suffix: empty_rank
      nsize: 3
      args: -type {{ellg pjds slicedell csrg aijgpu}} -empty_rank
      output_file: output/ex6_mpi.out

   test:
      suffix: uneven
      nsize: 3
      args: -type {{ellg pjds slicedell csrg aijgpu}} -uneven
      output_file: output/ex6_mpi.out

   # columns per pass (L_c) and chunks of columns that do not divide L, the chunks going round several streams
   test:
      suffix: chunks_ellg
      args: -type ellg -mat_ellg_spmm_columns {{1 3 8 32}} -mat_ellg_spmm_chunk_columns {{5 16}} -mat_ellg_spmm_streams 2
      output_file: output/ex6_1.out

   test:
      suffix: chunks_pjds
      args: -type pjds -mat_pjds_spmm_columns {{3 32}} -mat_pjds_spmm_chunk_columns 7 -mat_pjds_spmm_streams 3
      output_file: output/ex6_1.out

   test:
      suffix: chunks_slicedell
      args: -type slicedell -mat_slicedell_spmm_columns {{5 16}} -mat_slicedell_spmm_chunk_columns 6 -mat_slicedell_spmm_streams {{1 4}}
      output_file: output/ex6_1.out

   test:
      suffix: chunks_mpi
      nsize: 2
      args: -type ellg -mat_ellg_spmm_columns 3 -mat_ellg_spmm_chunk_columns 5 -mat_ellg_spmm_streams 2
      output_file: output/ex6_mpi.out

   # several threads per row (their partial sums reduced per column), small slices
   test:
      suffix: threads_ellg
      args: -type ellg -mat_ellg_threads_per_row {{4 32}} -mat_ellg_spmm_columns 5
      output_file: output/ex6_1.out

   test:
      suffix: threads_slicedell
      args: -type slicedell -mat_slicedell_threads_per_row 8 -mat_slicedell_slice_height 4 -mat_slicedell_sigma {{1 64}}
      output_file: output/ex6_1.out

   test:
      suffix: pjds_block_rows
      args: -type pjds -mat_pjds_block_rows {{1 128}}
      output_file: output/ex6_1.out

   # most rows split out as long rows, with the chunks' partial sums of several columns
   test:
      suffix: long_rows_ellg
      args: -type ellg -mat_ellg_long_row_threshold 3 -mat_ellg_spmm_chunk_columns 10
      output_file: output/ex6_1.out

   test:
      suffix: long_rows_pjds
      args: -type pjds -mat_pjds_long_row_threshold 3
      output_file: output/ex6_1.out

   test:
      suffix: long_rows_slicedell
      args: -type slicedell -mat_slicedell_long_row_threshold 3 -mat_slicedell_spmm_columns 7
      output_file: output/ex6_1.out

   test:
      suffix: long_rows_mpi
      nsize: 2
      args: -type pjds -mat_pjds_long_row_threshold 3 -mat_pjds_spmm_chunk_columns 9
      output_file: output/ex6_mpi.out

   # more passes than a grid has rows (65535): a column per pass and all columns in one chunk, so that the
   # kernels go in two launches
   # the options of every type, of which the one run uses its own (-options_left no: PETSc from 3.20 lists the
   # others as unused)
   test:
      suffix: many_passes
      args: -type {{ellg pjds slicedell csrg}} -L 65537 -mat_ellg_spmm_columns 1 -mat_ellg_spmm_chunk_columns 65537 -mat_pjds_spmm_columns 1 -mat_pjds_spmm_chunk_columns 65537 -mat_slicedell_spmm_columns 1 -mat_slicedell_spmm_chunk_columns 65537 -mat_csrg_spmm_columns 1 -mat_csrg_spmm_chunk_columns 65537 -options_left no
      output_file: output/ex6_many_passes.out

TEST*/
