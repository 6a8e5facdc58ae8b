static char help[] = "COO assembly of our device vectors (VecSetPreallocationCOO(), VecSetValuesCOO()) against a standard vector\n\
assembled with VecSetValues(): random entries with repeats, negative indices (ignored with VEC_IGNORE_NEGATIVE_INDICES)\n\
and, on several processes, entries of other processes' values (sent to their owners, or dropped with\n\
VEC_NO_OFF_PROC_ENTRIES); values on the host and in the backend's memory (a seqgpu vector's array: device memory with\n\
the cuda backend); ADD_VALUES onto values set before, then INSERT_VALUES (every value set, 0 where no entry falls),\n\
then ADD_VALUES, then the preallocation again and INSERT_VALUES; each local value given once in order; and on one\n\
process PETSc's errors. Prints pass/fail lines only.\n\n";

#include <petscvec.h>
#include "ellgtest.h"

#define WIDTH 76
#define N     97 /* global length */

typedef struct {
  PetscCount   n;
  PetscInt    *i;
  PetscScalar *v[2]; /* two sets of values */
  Vec          dv[2]; /* the same in seqgpu vectors (the backend's memory) */
} Entries;

/* random entries of this process, or (ordered) each of its own values once in order */
static PetscErrorCode EntriesCreate(Vec x, PetscBool ordered, PetscRandom rnd, Entries *e)
{
  PetscInt rstart, rend;

  PetscFunctionBeginUser;
  PetscCall(VecGetOwnershipRange(x, &rstart, &rend));
  e->n = ordered ? rend - rstart : 3 * N + 7 * rstart % 11;
  PetscCall(PetscMalloc3(e->n, &e->i, e->n, &e->v[0], e->n, &e->v[1]));
  for (PetscCount k = 0; k < e->n; k++) {
    PetscReal r[3];

    for (PetscInt q = 0; q < 3; q++) PetscCall(PetscRandomGetValueReal(rnd, &r[q]));
    if (ordered) e->i[k] = rstart + (PetscInt)k;
    else { /* mostly the process's own values, about one in five another's, one in twenty ignored */
      e->i[k] = (PetscInt)((r[0] + 1.0) / 2.0 * N) % N;
      if (r[1] < 0.6 && rend > rstart) e->i[k] = rstart + (PetscInt)((r[0] + 1.0) / 2.0 * (rend - rstart)) % (rend - rstart);
      if (r[2] > 0.9) e->i[k] = -1;
    }
    e->v[0][k] = 1.0 + r[1];
    e->v[1][k] = -2.0 + r[2];
  }
  for (PetscInt s = 0; s < 2; s++) PetscCall(BackendValues(e->n, e->v[s], &e->dv[s]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode EntriesDestroy(Entries *e)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree3(e->i, e->v[0], e->v[1]));
  PetscCall(VecDestroy(&e->dv[0]));
  PetscCall(VecDestroy(&e->dv[1]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the reference R: set s of the entries added to R (after R = 0 with INSERT_VALUES), entry by entry with VecSetValues(),
   those of other processes left out with offproc false */
static PetscErrorCode Reference(Vec R, const Entries *e, PetscInt s, InsertMode mode, PetscBool offproc)
{
  PetscInt rstart, rend;

  PetscFunctionBeginUser;
  PetscCall(VecGetOwnershipRange(R, &rstart, &rend));
  if (mode == INSERT_VALUES) PetscCall(VecSet(R, 0.0));
  for (PetscCount k = 0; k < e->n; k++)
    if (e->i[k] >= 0 && (offproc || (e->i[k] >= rstart && e->i[k] < rend))) PetscCall(VecSetValues(R, 1, &e->i[k], &e->v[s][k], ADD_VALUES));
  PetscCall(VecAssemblyBegin(R));
  PetscCall(VecAssemblyEnd(R));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* VecSetValuesCOO() with set s: the host array, or the seqgpu vector's array in the backend's memory */
static PetscErrorCode SetValuesCOO(Vec x, const Entries *e, PetscInt s, PetscBool backend, InsertMode mode)
{
  PetscFunctionBeginUser;
  PetscCall(SetValuesCOOFrom(NULL, x, e->v[s], e->dv[s], backend, mode));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* VecSetPreallocationCOO() with a copy of the indices (PETSc may change the array it is given) */
static PetscErrorCode PreallocateCOO(Vec x, const Entries *e)
{
  PetscInt *ci;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(e->n, &ci));
  PetscCall(PetscArraycpy(ci, e->i, e->n));
  PetscCall(VecSetPreallocationCOO(x, e->n, ci));
  PetscCall(PetscFree(ci));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CreatePair(MPI_Comm comm, PetscBool offproc, Vec *x, Vec *R)
{
  PetscFunctionBeginUser;
  PetscCall(CreateVec(comm, PETSC_DECIDE, N, VECGPU, x));
  PetscCall(CreateVec(comm, PETSC_DECIDE, N, VECSTANDARD, R));
  for (PetscInt k = 0; k < 2; k++) {
    Vec v = k ? *R : *x;

    PetscCall(VecSetOption(v, VEC_IGNORE_NEGATIVE_INDICES, PETSC_TRUE));
    PetscCall(VecSetOption(v, VEC_IGNORE_OFF_PROC_ENTRIES, (PetscBool)!offproc));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ADD onto values set before, INSERT of new values, ADD again, then the preallocation again and INSERT, each against
   the reference */
static PetscErrorCode CheckCOO(MPI_Comm comm, PetscBool ordered, PetscBool offproc, PetscBool backend, PetscRandom rnd, PetscInt *nfail)
{
  Vec       x, R;
  Entries   e;
  PetscBool ok = PETSC_TRUE;
  char      what[128];

  PetscFunctionBeginUser;
  PetscCall(CreatePair(comm, offproc, &x, &R));
  PetscCall(EntriesCreate(x, ordered, rnd, &e));
  PetscCall(VecSet(x, 0.5));
  PetscCall(VecSet(R, 0.5));
  PetscCall(PreallocateCOO(x, &e));
  PetscCall(SetValuesCOO(x, &e, 0, backend, ADD_VALUES));
  PetscCall(Reference(R, &e, 0, ADD_VALUES, offproc));
  PetscCall(CheckClose(x, R, 10.0, "ADD_VALUES onto values set before", &ok));
  PetscCall(SetValuesCOO(x, &e, 1, backend, INSERT_VALUES));
  PetscCall(Reference(R, &e, 1, INSERT_VALUES, offproc));
  PetscCall(CheckClose(x, R, 10.0, "INSERT_VALUES", &ok));
  PetscCall(SetValuesCOO(x, &e, 0, backend, ADD_VALUES));
  PetscCall(Reference(R, &e, 0, ADD_VALUES, offproc));
  PetscCall(CheckClose(x, R, 10.0, "ADD_VALUES", &ok));
  PetscCall(VecScale(x, 2.0)); /* a vector operation between assemblies */
  PetscCall(VecScale(R, 2.0));
  PetscCall(PreallocateCOO(x, &e));
  PetscCall(SetValuesCOO(x, &e, 1, backend, INSERT_VALUES));
  PetscCall(Reference(R, &e, 1, INSERT_VALUES, offproc));
  PetscCall(CheckClose(x, R, 10.0, "preallocation again, INSERT_VALUES", &ok));
  PetscCall(PetscSNPrintf(what, sizeof(what), "%s%s, values %s", ordered ? "each value once in order" : "random entries", offproc ? "" : ", other processes' ignored", backend ? "in the backend's memory" : "on the host"));
  PetscCall(PrintResult(comm, WIDTH, what, ok, nfail));
  PetscCall(EntriesDestroy(&e));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&R));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* whether call fails with PETSc's error (quietly) */
#define FAILS(call, failed) \
  do { \
    PetscErrorCode ierr_; \
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL)); \
    ierr_ = (call); \
    PetscCall(PetscPopErrorHandler()); \
    *(failed) = (PetscBool)(ierr_ != PETSC_SUCCESS); \
  } while (0)

/* one process: a negative index without VEC_IGNORE_NEGATIVE_INDICES, an index beyond the length, values before the
   preallocation, an insert mode COO assembly does not take */
static PetscErrorCode CheckErrors(PetscInt *nfail)
{
  Vec         x;
  PetscInt    neg[2] = {0, -1}, big[2] = {0, N}, ok[2] = {0, 1};
  PetscScalar v[2]   = {1.0, 2.0};
  PetscBool   failed;

  PetscFunctionBeginUser;
  PetscCall(CreateVec(PETSC_COMM_SELF, N, N, VECGPU, &x));
  FAILS(VecSetValuesCOO(x, v, INSERT_VALUES), &failed);
  PetscCall(PrintResult(PETSC_COMM_SELF, WIDTH, "VecSetValuesCOO() before the preallocation is an error", failed, nfail));
  FAILS(VecSetPreallocationCOO(x, 2, neg), &failed);
  PetscCall(PrintResult(PETSC_COMM_SELF, WIDTH, "a negative index is an error without VEC_IGNORE_NEGATIVE_INDICES", failed, nfail));
  FAILS(VecSetPreallocationCOO(x, 2, big), &failed);
  PetscCall(PrintResult(PETSC_COMM_SELF, WIDTH, "an index beyond the length is an error", failed, nfail));
  PetscCall(VecSetPreallocationCOO(x, 2, ok));
  FAILS(VecSetValuesCOO(x, v, MAX_VALUES), &failed);
  PetscCall(PrintResult(PETSC_COMM_SELF, WIDTH, "MAX_VALUES is an error", failed, nfail));
  PetscCall(VecDestroy(&x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscInt    nfail = 0;
  PetscRandom rnd;
  MPI_Comm    comm;
  PetscMPIInt size;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscELLGInitializePackage());
  comm = PETSC_COMM_WORLD;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(RandomCreate(comm, 22, &rnd));
  for (PetscInt ordered = 0; ordered < 2; ordered++)
    for (PetscInt offproc = 1; offproc >= (size > 1 && !ordered ? 0 : 1); offproc--)
      for (PetscInt backend = 0; backend < 2; backend++) PetscCall(CheckCOO(comm, (PetscBool)ordered, (PetscBool)offproc, (PetscBool)backend, rnd, &nfail));
  if (size == 1) PetscCall(CheckErrors(&nfail));
  PetscCall(PetscRandomDestroy(&rnd));
  if (nfail) PetscCall(PetscPrintf(comm, "%" PetscInt_FMT " checks FAILED\n", nfail));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   test:
      suffix: 1
      args: -malloc_debug
      output_file: output/ex22_1.out

   test:
      suffix: mpi
      nsize: {{2 3}}
      args: -malloc_debug
      output_file: output/ex22_mpi.out

TEST*/
