static char help[] = "COO assembly (MatSetPreallocationCOO(), MatSetValuesCOO()) of our types against AIJ assembled with\n\
MatSetValues(): random entries in random order with repeats and negative indices (ignored), on several processes\n\
rows of other processes too; values on the host and in the backend's memory (a seqgpu vector's array: device memory\n\
with the cuda backend); ADD_VALUES, then new values with INSERT_VALUES, then ADD_VALUES on them, then the\n\
preallocation again and INSERT_VALUES, then INSERT_VALUES into a duplicate, and on several processes with\n\
MAT_IGNORE_OFF_PROC_ENTRIES; each matrix's values and product (through its format) against AIJ's. Also entries given\n\
once in the order of CSR, the pattern fixed after preallocation (a new nonzero is an error), and PETSc's errors for\n\
indices out of range (one process). Prints pass/fail lines only, the same for every type.\n\
  -type <ellg,pjds,slicedell,csrg,aijgpu>: the type (root name); its options apply (MatSetFromOptions)\n\n";

#include <petscmat.h>
#include "ellgtest.h"

#define WIDTH 64
#define M     97 /* rows and columns of the matrices */

typedef struct {
  PetscCount   n;
  PetscInt    *i, *j;
  PetscScalar *v[2]; /* two sets of values */
  Vec          dv[2]; /* the same in seqgpu vectors (the backend's memory) */
} Entries;

/* the entries of a test: random ones, or three of each row of the process, once each, in the order of CSR or with
   each row's columns in decreasing order (a map without repeats) */
typedef enum {
  ORDER_RANDOM,
  ORDER_CSR,
  ORDER_DESCENDING
} Order;
static const char *const OrderNames[] = {"random entries", "CSR order", "once each, columns descending"};

/* the entries of this process in the given order; R is AIJ of the layout of the matrix under test */
static PetscErrorCode EntriesCreate(Mat R, Order order, Entries *e)
{
  PetscInt    rstart, rend;
  PetscMPIInt rank;
  PetscRandom rnd;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(PetscObjectComm((PetscObject)R), &rank));
  PetscCall(PetscRandomCreate(PETSC_COMM_SELF, &rnd));
  PetscCall(PetscRandomSetInterval(rnd, 0.0, 1.0));
  PetscCall(PetscRandomSetSeed(rnd, 100 + (unsigned long)rank));
  PetscCall(PetscRandomSeed(rnd));
  PetscCall(MatGetOwnershipRange(R, &rstart, &rend)); /* the rows ours will own (AIJ's layout is set up) */
  e->n = order == ORDER_RANDOM ? 6 * M + 11 * rank : 3 * (rend - rstart);
  PetscCall(PetscMalloc4(e->n, &e->i, e->n, &e->j, e->n, &e->v[0], e->n, &e->v[1]));
  for (PetscCount k = 0; k < e->n; k++) {
    PetscReal r[4];

    for (PetscInt q = 0; q < 4; q++) PetscCall(PetscRandomGetValueReal(rnd, &r[q]));
    if (order == ORDER_RANDOM) { /* rows near the process's own, about one in ten off the process; one in twenty ignored */
      e->i[k] = (PetscInt)(r[0] * M);
      if (r[1] < 0.7) e->i[k] = rstart + (PetscInt)(r[0] * (rend - rstart));
      e->j[k] = PetscMin(M - 1, PetscMax(0, e->i[k] + (PetscInt)(r[2] * 9) - 4));
      if (r[3] < 0.05) e->i[k] = -1;
      else if (r[3] > 0.95) e->j[k] = -1;
    } else { /* row rstart + k / 3: columns row - 1, row, row + 1 (wrapped) in increasing (or decreasing) order */
      const PetscInt row = rstart + (PetscInt)(k / 3), c[3] = {row - 1, row, row + 1};
      PetscInt       s[3] = {c[0], c[1], c[2]};

      if (s[0] < 0) { s[0] = s[1]; s[1] = s[2]; s[2] = M - 1; }
      if (s[2] >= M) { s[2] = s[1]; s[1] = s[0]; s[0] = 0; }
      e->i[k] = row;
      e->j[k] = s[order == ORDER_CSR ? k % 3 : 2 - k % 3];
    }
    e->v[0][k] = 1.0 + r[1];
    e->v[1][k] = -2.0 + r[2] * r[3];
  }
  PetscCall(PetscRandomDestroy(&rnd));
  for (PetscInt s = 0; s < 2; s++) PetscCall(BackendValues(e->n, e->v[s], &e->dv[s]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode EntriesDestroy(Entries *e)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree4(e->i, e->j, e->v[0], e->v[1]));
  PetscCall(VecDestroy(&e->dv[0]));
  PetscCall(VecDestroy(&e->dv[1]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* R (AIJ) <- R + sum of the entries' values of set s (R = 0 first with zero); own: only those of this process's rows */
static PetscErrorCode Reference(const Entries *e, PetscInt s, PetscBool zero, PetscBool own, Mat R)
{
  PetscInt rstart, rend;

  PetscFunctionBeginUser;
  PetscCall(MatGetOwnershipRange(R, &rstart, &rend));
  if (zero) PetscCall(MatZeroEntries(R));
  for (PetscCount k = 0; k < e->n; k++)
    if (e->i[k] >= 0 && e->j[k] >= 0 && (!own || (e->i[k] >= rstart && e->i[k] < rend))) PetscCall(MatSetValue(R, e->i[k], e->j[k], e->v[s][k], ADD_VALUES));
  PetscCall(MatAssemblyBegin(R, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(R, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MatSetValuesCOO() with set s: the host array, or the seqgpu vector's array in the backend's memory */
static PetscErrorCode SetValuesCOO(Mat A, Entries *e, PetscInt s, PetscBool backend, InsertMode mode)
{
  PetscFunctionBeginUser;
  PetscCall(SetValuesCOOFrom(A, NULL, e->v[s], e->dv[s], backend, mode));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CreatePair(MPI_Comm comm, MatType type, Mat *A, Mat *R)
{
  PetscFunctionBeginUser;
  PetscCall(MatCreate(comm, A));
  PetscCall(MatSetSizes(*A, PETSC_DECIDE, PETSC_DECIDE, M, M));
  PetscCall(MatSetType(*A, type));
  PetscCall(MatSetFromOptions(*A));
  PetscCall(MatCreate(comm, R));
  PetscCall(MatSetSizes(*R, PETSC_DECIDE, PETSC_DECIDE, M, M));
  PetscCall(MatSetType(*R, MATAIJ));
  PetscCall(MatSetUp(*R));
  PetscCall(MatSetOption(*R, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MatSetPreallocationCOO() with copies of the entries' indices (PETSc may change the arrays it is given) */
static PetscErrorCode PreallocateCOO(Mat A, const Entries *e)
{
  PetscInt *ci, *cj;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc2(e->n, &ci, e->n, &cj));
  PetscCall(PetscArraycpy(ci, e->i, e->n));
  PetscCall(PetscArraycpy(cj, e->j, e->n));
  PetscCall(MatSetPreallocationCOO(A, e->n, ci, cj));
  PetscCall(PetscFree2(ci, cj));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* preallocation, then ADD, INSERT of new values, ADD again, then the preallocation again (AIJ's arrays made anew)
   and INSERT, then INSERT into a duplicate, each against AIJ */
static PetscErrorCode CheckCOO(MPI_Comm comm, MatType type, Order order, PetscBool backend, PetscRandom rnd, PetscInt *nfail)
{
  Mat       A, R, R1, D;
  Entries   e;
  PetscBool ok = PETSC_TRUE;
  char      what[128];

  PetscFunctionBeginUser;
  PetscCall(CreatePair(comm, type, &A, &R));
  PetscCall(EntriesCreate(R, order, &e));
  PetscCall(PreallocateCOO(A, &e));
  PetscCall(SetValuesCOO(A, &e, 0, backend, ADD_VALUES));
  PetscCall(Reference(&e, 0, PETSC_TRUE, PETSC_FALSE, R));
  PetscCall(MatDuplicate(R, MAT_COPY_VALUES, &R1));
  PetscCall(CheckMat(A, R, rnd, "ADD_VALUES", &ok));
  PetscCall(SetValuesCOO(A, &e, 1, backend, INSERT_VALUES));
  PetscCall(Reference(&e, 1, PETSC_TRUE, PETSC_FALSE, R));
  PetscCall(CheckMat(A, R, rnd, "INSERT_VALUES of new values", &ok));
  PetscCall(SetValuesCOO(A, &e, 0, backend, ADD_VALUES));
  PetscCall(MatAXPY(R, 1.0, R1, DIFFERENT_NONZERO_PATTERN));
  PetscCall(CheckMat(A, R, rnd, "ADD_VALUES to them", &ok));
  PetscCall(PreallocateCOO(A, &e));
  PetscCall(SetValuesCOO(A, &e, 1, backend, INSERT_VALUES));
  PetscCall(Reference(&e, 1, PETSC_TRUE, PETSC_FALSE, R));
  PetscCall(CheckMat(A, R, rnd, "INSERT_VALUES after the preallocation again", &ok));
  PetscCall(MatDuplicate(A, MAT_DO_NOT_COPY_VALUES, &D)); /* which shares the map */
  PetscCall(SetValuesCOO(D, &e, 0, backend, INSERT_VALUES));
  PetscCall(Reference(&e, 0, PETSC_TRUE, PETSC_FALSE, R));
  PetscCall(CheckMat(D, R, rnd, "INSERT_VALUES into a duplicate", &ok));
  PetscCall(MatDestroy(&D));
  PetscCall(PetscSNPrintf(what, sizeof(what), "%s, values %s", OrderNames[order], backend ? "in the backend's memory" : "on the host"));
  PetscCall(PrintResult(comm, WIDTH, what, ok, nfail));
  PetscCall(EntriesDestroy(&e));
  PetscCall(MatDestroy(&R1));
  PetscCall(MatDestroy(&R));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* several processes: with MAT_IGNORE_OFF_PROC_ENTRIES, the entries of other processes' rows are left out */
static PetscErrorCode CheckIgnoreOffProc(MPI_Comm comm, MatType type, PetscBool backend, PetscRandom rnd, PetscInt *nfail)
{
  Mat       A, R;
  Entries   e;
  PetscBool ok = PETSC_TRUE;
  char      what[128];

  PetscFunctionBeginUser;
  PetscCall(CreatePair(comm, type, &A, &R));
  PetscCall(MatSetOption(A, MAT_IGNORE_OFF_PROC_ENTRIES, PETSC_TRUE));
  PetscCall(EntriesCreate(R, ORDER_RANDOM, &e));
  PetscCall(PreallocateCOO(A, &e));
  PetscCall(SetValuesCOO(A, &e, 0, backend, INSERT_VALUES));
  PetscCall(Reference(&e, 0, PETSC_TRUE, PETSC_TRUE, R));
  PetscCall(CheckMat(A, R, rnd, "MAT_IGNORE_OFF_PROC_ENTRIES", &ok));
  PetscCall(PetscSNPrintf(what, sizeof(what), "other processes' rows ignored, values %s", backend ? "in the backend's memory" : "on the host"));
  PetscCall(PrintResult(comm, WIDTH, what, ok, nfail));
  PetscCall(EntriesDestroy(&e));
  PetscCall(MatDestroy(&R));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* on one process (the parallel types take MPIAIJ's preallocation, whose checks are not collective): after COO
   preallocation the pattern is fixed; out of range indices are errors */
static PetscErrorCode CheckErrors(MatType type, PetscInt *nfail)
{
  MPI_Comm       comm = PETSC_COMM_SELF;
  Mat            A, R;
  PetscInt       i[2] = {0, 1}, j[2] = {0, 1}, bad[2] = {0, M};
  PetscScalar    v[2] = {1.0, 2.0};
  PetscErrorCode ierr;

  PetscFunctionBeginUser;
  PetscCall(CreatePair(comm, type, &A, &R));
  PetscCall(MatSetPreallocationCOO(A, 2, i, j));
  PetscCall(MatSetValuesCOO(A, v, INSERT_VALUES));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = MatSetValue(A, 0, 1, 1.0, INSERT_VALUES);
  PetscCall(PetscPopErrorHandler());
  PetscCall(PrintResult(comm, WIDTH, "a new nonzero after COO preallocation is an error", (PetscBool)(ierr != PETSC_SUCCESS), nfail));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&R));
  PetscCall(CreatePair(comm, type, &A, &R));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = MatSetPreallocationCOO(A, 2, i, bad);
  PetscCall(PetscPopErrorHandler());
  PetscCall(PrintResult(comm, WIDTH, "a column index out of range is an error", (PetscBool)(ierr != PETSC_SUCCESS), nfail));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&R));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  char        root[TYPE_LEN];
  PetscInt    nfail = 0;
  PetscRandom rnd;
  MPI_Comm    comm;
  PetscMPIInt size;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscELLGInitializePackage());
  comm = PETSC_COMM_WORLD;
  PetscCall(TestType(root, NULL, NULL));
  PetscCall(RandomCreate(comm, 19, &rnd));
  for (PetscInt order = ORDER_RANDOM; order <= ORDER_DESCENDING; order++)
    for (PetscInt backend = 0; backend < 2; backend++) PetscCall(CheckCOO(comm, root, (Order)order, (PetscBool)backend, rnd, &nfail));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  if (size == 1) PetscCall(CheckErrors(root, &nfail));
  else
    for (PetscInt backend = 0; backend < 2; backend++) PetscCall(CheckIgnoreOffProc(comm, root, (PetscBool)backend, rnd, &nfail));
  PetscCall(PetscRandomDestroy(&rnd));
  if (nfail) PetscCall(PetscPrintf(comm, "%" PetscInt_FMT " checks FAILED\n", nfail));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   test:
      suffix: 1
      args: -type {{ellg pjds slicedell csrg aijgpu}} -malloc_debug
      output_file: output/ex19_1.out

   test:
      suffix: mpi
      nsize: {{2 3}}
      args: -type {{ellg pjds slicedell csrg aijgpu}} -malloc_debug
      output_file: output/ex19_mpi.out

TEST*/
