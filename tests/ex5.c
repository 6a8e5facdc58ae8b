static char help[] = "Bad options and bad calls with matrices of our types must give clear errors. The program catches\n\
each error (PetscReturnErrorHandler) and prints one line that does not depend on the backend.\n\
  -type <ellg,pjds,slicedell>: the type (root name)\n\
  -case option: build, assemble and multiply a matrix of the type under the (bad) options given;\n\
                an error must be raised whose message contains the -expect string\n\
  -case cuda:   the same with -ellg_backend cuda: either the products run on a GPU and match AIJ,\n\
                or (no usable GPU, or built without CUDA) a clear error names cuda\n\
  -case calls:  wrong vector sizes, aliased vectors, unassembled matrix, new nonzero after\n\
                assembly: each must fail as the same call with an AIJ matrix does\n\n";

#include "ellgtest.h"

/* A small tridiagonal matrix: the 1D Laplacian on 10 points with the diagonal 2 + i */
static PetscErrorCode FillMat(Mat A, MatType type, PetscBool fromoptions)
{
  PetscFunctionBeginUser;
  PetscCall(FillLaplacian(A, 1, 10, 2.0, 1.0, type, fromoptions));
  PetscFunctionReturn(0);
}

static PetscErrorCode BuildMat(MatType type, Mat *A)
{
  PetscFunctionBeginUser;
  PetscCall(MatCreate(PETSC_COMM_WORLD, A));
  PetscCall(FillMat(*A, type, PETSC_FALSE));
  PetscFunctionReturn(0);
}

/* ||A x - R x||_inf for x = (1, 2, 3, ...) */
static PetscErrorCode MultDifference(Mat A, Mat R, PetscReal *diff)
{
  Vec x, y, xr, yr;

  PetscFunctionBeginUser;
  PetscCall(MatCreateVecs(A, &x, &y));
  PetscCall(MatCreateVecs(R, &xr, &yr));
  PetscCall(VecSetValue(xr, 0, 1.0, INSERT_VALUES)); /* any nonzero pattern will do */
  PetscCall(VecAssemblyBegin(xr));
  PetscCall(VecAssemblyEnd(xr));
  PetscCall(VecShift(xr, 0.5));
  PetscCall(VecCopy(xr, x));
  PetscCall(MatMult(A, x, y));
  PetscCall(MatMult(R, xr, yr));
  PetscCall(VecAXPY(yr, -1.0, y));
  PetscCall(VecNorm(yr, NORM_INFINITY, diff));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(VecDestroy(&xr));
  PetscCall(VecDestroy(&yr));
  PetscFunctionReturn(0);
}

/* The matrix A of the given type made from the options, checked against AIJ; errors are returned to the caller */
static PetscErrorCode MakeAndMultiply(Mat A, MatType type, Mat R, PetscBool cuda)
{
  PetscReal        diff;
  PetscELLGBackend be;

  PetscFunctionBeginUser;
  PetscCall(FillMat(A, type, PETSC_TRUE));
  PetscCall(MatELLGGetBackend(A, &be));
  PetscCheck(!cuda || be == PETSCELLG_BACKEND_CUDA, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "-ellg_backend cuda given, but the matrix uses the %s backend", PetscELLGBackends[be]);
  PetscCall(MultDifference(A, R, &diff));
  PetscCheck(diff < 1e-12, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "MatMult of the %s matrix differs from AIJ by %g", type, (double)diff);
  PetscFunctionReturn(0);
}

/* whether the message of the last error contains what (case-insensitive) */
static PetscErrorCode MessageContains(PetscErrorCode ierr, const char *what, PetscBool *found)
{
  const char *msg = NULL;
  char       *s;
  char  low[4096];
  int   i;

  PetscFunctionBeginUser;
  *found = PETSC_FALSE;
  PetscCall(ELLGErrorMessage(ierr, NULL, &msg));
  if (!msg) PetscFunctionReturn(0);
  for (i = 0; msg[i] && i < (int)sizeof(low) - 1; i++) low[i] = (char)((msg[i] >= 'A' && msg[i] <= 'Z') ? msg[i] - 'A' + 'a' : msg[i]);
  low[i] = 0;
  PetscCall(PetscStrstr(low, what, &s));
  *found = (PetscBool)(s != NULL);
  PetscFunctionReturn(0);
}

/* Runs a bad call on the matrix of the type under test and the same call on the AIJ matrix, errors returned instead of
   aborting: both must fail, with the same error code (PETSc's usual one for that mistake) */
#define EXPECT_SAME_ERROR(label, callA, callR) \
  do { \
    PetscErrorCode ea_, er_; \
    PetscBool      ok_; \
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL)); \
    ea_ = (callA); \
    er_ = (callR); \
    PetscCall(PetscPopErrorHandler()); \
    ok_ = (PetscBool)(er_ != 0 && ea_ == er_); \
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &ok_, 1, ELLG_MPI_BOOL, MPI_LAND, PETSC_COMM_WORLD)); \
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-48s %s\n", label, ok_ ? "error: ok" : "FAILED")); \
    if (!ok_) PetscCall(PetscSynchronizedPrintf(PETSC_COMM_WORLD, "    [%d] format error %d, aij error %d\n", rank, (int)ea_, (int)er_)); \
    PetscCall(PetscSynchronizedFlush(PETSC_COMM_WORLD, PETSC_STDOUT)); \
  } while (0)

/* vectors of the sizes of A's columns (x) and rows (y), and one entry longer on every process (big):
   every process then sees the size error, none goes on into communication */
static PetscErrorCode CreateVecs(Mat A, VecType type, Vec *x, Vec *y, Vec *big)
{
  PetscInt m;

  PetscFunctionBeginUser;
  PetscCall(MatGetLocalSize(A, &m, NULL));
  PetscCall(CreateVec(PETSC_COMM_WORLD, m, PETSC_DETERMINE, type, x));
  PetscCall(VecSet(*x, 1.0));
  PetscCall(VecDuplicate(*x, y));
  PetscCall(CreateVec(PETSC_COMM_WORLD, m + 1, PETSC_DETERMINE, type, big));
  PetscCall(VecSet(*big, 1.0));
  PetscFunctionReturn(0);
}

static PetscErrorCode BadCalls(MatType type)
{
  Mat         A, R, UA, UR;
  Vec         x, y, z, big, xr, yr, zr, bigr;
  PetscInt    m, M, rstart, rend, col;
  PetscMPIInt rank, size;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(BuildMat(type, &A));
  PetscCall(BuildMat(MATAIJ, &R));
  PetscCall(CreateVecs(A, VECGPU, &x, &y, &big));
  PetscCall(CreateVecs(R, VECSTANDARD, &xr, &yr, &bigr));
  PetscCall(VecDuplicate(y, &z));
  PetscCall(VecDuplicate(yr, &zr));

  EXPECT_SAME_ERROR("MatMult, x of the wrong size", MatMult(A, big, y), MatMult(R, bigr, yr));
  EXPECT_SAME_ERROR("MatMult, y of the wrong size", MatMult(A, x, big), MatMult(R, xr, bigr));
  EXPECT_SAME_ERROR("MatMult, x and y the same vector", MatMult(A, x, x), MatMult(R, xr, xr));
  EXPECT_SAME_ERROR("MatMultAdd, z of the wrong size", MatMultAdd(A, x, y, big), MatMultAdd(R, xr, yr, bigr));
  EXPECT_SAME_ERROR("MatMultTranspose, x of the wrong size", MatMultTranspose(A, big, y), MatMultTranspose(R, bigr, yr));
  EXPECT_SAME_ERROR("MatMultTransposeAdd, y of the wrong size", MatMultTransposeAdd(A, x, big, z), MatMultTransposeAdd(R, xr, bigr, zr));
  EXPECT_SAME_ERROR("MatGetDiagonal, vector of the wrong size", MatGetDiagonal(A, big), MatGetDiagonal(R, bigr));

  /* C = A A^T: PETSc's product makes the transpose of A of A's type as a structure without values
     first (MatTransposeSymbolic()), which our type must not read */
  if (size == 1) {
    Mat       CA, CR;
    PetscReal diff;

    PetscCall(MatMatTransposeMult(A, A, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &CA));
    PetscCall(MatMatTransposeMult(R, R, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &CR));
    PetscCall(MultDifference(CA, CR, &diff));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "%-48s %s\n", "MatMatTransposeMult", diff < 1e-10 ? "same product as AIJ" : "WRONG"));
    PetscCall(MatDestroy(&CA));
    PetscCall(MatDestroy(&CR));
  }

  /* a new nonzero after assembly (preallocated matrix, default options): two columns away from the
     diagonal, in this process's diagonal block */
  PetscCall(MatGetOwnershipRange(A, &rstart, &rend));
  PetscCheck(rend - rstart >= 3, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "Run on at most 3 processes");
  col = rstart + 2;
  EXPECT_SAME_ERROR("MatSetValues, new nonzero after assembly", MatSetValue(A, rstart, col, 1.0, INSERT_VALUES), MatSetValue(R, rstart, col, 1.0, INSERT_VALUES));

  /* MatMult before assembly */
  PetscCall(MatGetLocalSize(A, &m, NULL));
  PetscCall(MatGetSize(A, &M, NULL));
  PetscCall(MatCreate(PETSC_COMM_WORLD, &UA));
  PetscCall(MatSetSizes(UA, m, m, M, M));
  PetscCall(MatSetType(UA, type));
  PetscCall(MatSetUp(UA));
  PetscCall(MatCreate(PETSC_COMM_WORLD, &UR));
  PetscCall(MatSetSizes(UR, m, m, M, M));
  PetscCall(MatSetType(UR, MATAIJ));
  PetscCall(MatSetUp(UR));
  EXPECT_SAME_ERROR("MatMult, matrix not assembled", MatMult(UA, x, y), MatMult(UR, xr, yr));
  PetscCall(MatDestroy(&UA));
  PetscCall(MatDestroy(&UR));

  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(VecDestroy(&z));
  PetscCall(VecDestroy(&big));
  PetscCall(VecDestroy(&xr));
  PetscCall(VecDestroy(&yr));
  PetscCall(VecDestroy(&zr));
  PetscCall(VecDestroy(&bigr));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&R));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  char           kase[32] = "calls", expect[64] = "";
  PetscBool      iscalls, isoption, iscuda, found;
  PetscErrorCode ierr;
  char           type[TYPE_LEN];

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscELLGInitializePackage());
  PetscCall(TestType(type, NULL, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-case", kase, sizeof(kase), NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-expect", expect, sizeof(expect), NULL));
  PetscCall(PetscStrcmp(kase, "calls", &iscalls));
  PetscCall(PetscStrcmp(kase, "option", &isoption));
  PetscCall(PetscStrcmp(kase, "cuda", &iscuda));
  PetscCheck(iscalls || isoption || iscuda, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "-case must be calls, option or cuda");

  if (iscalls) PetscCall(BadCalls(type));
  else {
    Mat A, R;

    PetscCall(BuildMat(MATAIJ, &R));
    PetscCall(MatCreate(PETSC_COMM_WORLD, &A));
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr = MakeAndMultiply(A, type, R, iscuda);
    PetscCall(PetscPopErrorHandler());
    PetscCall(MatDestroy(&A));
    PetscCall(MatDestroy(&R));
    if (isoption) {
      PetscCall(MessageContains(ierr, expect, &found));
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "bad option: error %s, message names %s: %s\n", ierr ? "raised" : "NOT raised", expect, ierr && found ? "ok" : "FAILED"));
    } else {
      /* with a usable GPU the products ran on it and matched AIJ (else an error); without one, the error names cuda */
      PetscCall(MessageContains(ierr, "cuda", &found));
      found = (PetscBool)(found && ierr == PETSC_ERR_SUP_SYS);
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "-ellg_backend cuda: GPU products match AIJ, or a clear error without a GPU: %s\n", !ierr || found ? "ok" : "FAILED"));
      if (ierr && !found) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "    error %d is not PETSC_ERR_SUP_SYS naming cuda\n", (int)ierr));
    }
  }
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   test:
      suffix: calls
      args: -type {{ellg pjds slicedell csrg aijgpu}}

   test:
      suffix: calls_mpi
      nsize: 2
      args: -type {{ellg pjds slicedell csrg aijgpu}}
      output_file: output/ex5_calls_mpi.out

   # An option error inside PetscOptionsBegin/End leaves PETSc's own copies of the option strings
   # allocated (PetscStrallocpy, PetscOptionsGetEList): -malloc_dump lists them, the filter drops them

   test:
      suffix: threads_per_row
      args: -case option -expect mat_ellg_threads_per_row -mat_ellg_threads_per_row {{3 64 -1}}
      filter: grep -v -e "PetscStrallocpy() at" -e "PetscOptionsGetEList() at"

   test:
      suffix: block_size
      args: -case option -expect mat_ellg_block_size -mat_ellg_block_size {{33 2048 -32}}
      filter: grep -v -e "PetscStrallocpy() at" -e "PetscOptionsGetEList() at"

   test:
      suffix: backend
      args: -case option -expect ellg_backend -ellg_backend foo
      filter: grep -v -e "PetscStrallocpy() at" -e "PetscOptionsGetEList() at"

   test:
      suffix: backend_cuda
      args: -case cuda -ellg_backend cuda
      filter: grep -v -e "PetscStrallocpy() at" -e "PetscOptionsGetEList() at"

   test:
      suffix: pjds_block_rows
      args: -type pjds -case option -expect mat_pjds_block_rows -mat_pjds_block_rows {{3 2048}}
      filter: grep -v -e "PetscStrallocpy() at" -e "PetscOptionsGetEList() at"

   test:
      suffix: pjds_block_size
      args: -type pjds -case option -expect mat_pjds_block_size -mat_pjds_block_size {{33 -32}}
      filter: grep -v -e "PetscStrallocpy() at" -e "PetscOptionsGetEList() at"

   test:
      suffix: slicedell_slice_height
      args: -type slicedell -case option -expect mat_slicedell_slice_height -mat_slicedell_slice_height {{3 2048}}
      filter: grep -v -e "PetscStrallocpy() at" -e "PetscOptionsGetEList() at"

   # sigma: negative, or not a multiple of the slice height
   test:
      suffix: slicedell_sigma
      args: -type slicedell -case option -expect mat_slicedell_sigma -mat_slicedell_slice_height 4 -mat_slicedell_sigma {{-1 6}}
      filter: grep -v -e "PetscStrallocpy() at" -e "PetscOptionsGetEList() at"

   test:
      suffix: slicedell_threads_per_row
      args: -type slicedell -case option -expect mat_slicedell_threads_per_row -mat_slicedell_threads_per_row {{3 64}}
      filter: grep -v -e "PetscStrallocpy() at" -e "PetscOptionsGetEList() at"

   test:
      suffix: slicedell_block_size
      args: -type slicedell -case option -expect mat_slicedell_block_size -mat_slicedell_block_size {{33 -32}}
      filter: grep -v -e "PetscStrallocpy() at" -e "PetscOptionsGetEList() at"

   test:
      suffix: long_row_threshold_ellg
      args: -type ellg -case option -expect mat_ellg_long_row_threshold -mat_ellg_long_row_threshold -2
      filter: grep -v -e "PetscStrallocpy() at" -e "PetscOptionsGetEList() at"

   test:
      suffix: long_row_threshold_pjds
      args: -type pjds -case option -expect mat_pjds_long_row_threshold -mat_pjds_long_row_threshold -2
      filter: grep -v -e "PetscStrallocpy() at" -e "PetscOptionsGetEList() at"

   test:
      suffix: long_row_threshold_slicedell
      args: -type slicedell -case option -expect mat_slicedell_long_row_threshold -mat_slicedell_long_row_threshold -2
      filter: grep -v -e "PetscStrallocpy() at" -e "PetscOptionsGetEList() at"

   # the options of sparse times dense (MatMatMult with a dense matrix), read with the format's
   test:
      suffix: spmm_columns
      args: -case option -expect mat_ellg_spmm_columns -mat_ellg_spmm_columns {{-1 33}}
      filter: grep -v -e "PetscStrallocpy() at" -e "PetscOptionsGetEList() at"

   test:
      suffix: spmm_chunk_columns
      args: -type pjds -case option -expect mat_pjds_spmm_chunk_columns -mat_pjds_spmm_chunk_columns -2
      filter: grep -v -e "PetscStrallocpy() at" -e "PetscOptionsGetEList() at"

   test:
      suffix: spmm_streams
      args: -type slicedell -case option -expect mat_slicedell_spmm_streams -mat_slicedell_spmm_streams {{-1 17}}
      filter: grep -v -e "PetscStrallocpy() at" -e "PetscOptionsGetEList() at"

TEST*/
