static char help[] = "Memory stays flat over many create/assemble/multiply/destroy cycles: each cycle assembles a matrix of\n\
the type under test (a 2D Laplacian with a dense first row, which the formats multiply apart as a long row),\n\
takes its vectors from MatCreateVecs(), multiplies (MatMult, checked against the row sums) and destroys all.\n\
After the last cycle the host memory PETSc tracks (PetscMallocGetCurrentUsage(), with -malloc_debug) is what it\n\
was after the first (a warm-up), and on the cuda backend so is the device memory the library's allocations hold\n\
(PetscELLGGetDeviceMemory(), exactly); on the host backend its emulated device memory is host memory PETSc tracks.\n\
Prints pass/fail lines only.\n\
  -type <ellg,pjds,slicedell>: the type (root name)\n\
  -cycles <n>: the cycles after the first (default 1000)\n\
  -n <g>: the grid is g x g (default 12)\n\n";

#include "ellgtest.h"

#define WIDTH 62 /* of the descriptions in the result lines */

/* one cycle: the matrix of c of type type, its vectors, y = A 1 against the row sums of c (*ok false when they
   differ), everything destroyed */
static PetscErrorCode Cycle(MPI_Comm comm, const CSR *c, MatType type, PetscBool *ok)
{
  Mat                A;
  Vec                x, y;
  const PetscScalar *ay;
  PetscInt           rstart, rend;
  PetscReal          err = 0.0;

  PetscFunctionBeginUser;
  PetscCall(CreateMatCSR(comm, PETSC_DECIDE, PETSC_DECIDE, c, type, &A));
  PetscCall(MatCreateVecs(A, &x, &y));
  PetscCall(VecSet(x, 1.0));
  PetscCall(MatMult(A, x, y));
  PetscCall(MatGetOwnershipRange(A, &rstart, &rend));
  PetscCall(VecGetArrayRead(y, &ay));
  for (PetscInt i = rstart; i < rend; i++) {
    PetscScalar s = 0.0;

    for (PetscInt k = c->ia[i]; k < c->ia[i + 1]; k++) s += c->va[k];
    err = PetscMax(err, PetscAbsScalar(ay[i - rstart] - s));
  }
  PetscCall(VecRestoreArrayRead(y, &ay));
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &err, 1, MPIU_REAL, MPIU_MAX, comm));
  if (!(err <= 1e-10)) *ok = PETSC_FALSE;
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(0);
}

/* the host memory PETSc tracks and the device memory the library's allocations hold (0 on the host backend) in
   this process */
static PetscErrorCode Usage(PetscLogDouble *host, PetscLogDouble *dev)
{
  PetscFunctionBeginUser;
  PetscCall(PetscMallocGetCurrentUsage(host));
  PetscCall(PetscELLGGetDeviceMemory(NULL, NULL, dev));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  MPI_Comm         comm;
  char             type[TYPE_LEN], line[128];
  PetscInt         g = 12, cycles = 1000, nfail = 0;
  CSR              c;
  PetscBool        ok = PETSC_TRUE, tracked, flat;
  PetscLogDouble   host0, host1, dev0, dev1, diff[2];
  PetscELLGBackend be;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscELLGInitializePackage());
  comm = PETSC_COMM_WORLD;
  PetscCall(TestType(type, NULL, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-cycles", &cycles, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &g, NULL));
  PetscCall(PetscELLGGetBackend(&be));
  PetscCall(CSRLaplacianDenseRow(g, &c));

  /* the warm-up: what the first objects create once (the CUDA context, handles, PETSc's registries) */
  PetscCall(Cycle(comm, &c, type, &ok));
  PetscCall(Usage(&host0, &dev0));
  for (PetscInt k = 0; k < cycles; k++) PetscCall(Cycle(comm, &c, type, &ok));
  PetscCall(Usage(&host1, &dev1));

  PetscCall(PetscSNPrintf(line, sizeof(line), "products right in every cycle"));
  PetscCall(PrintResult(comm, WIDTH, line, ok, &nfail));

  PetscCall(PetscMallocGetDebug(&tracked, NULL, NULL));
  diff[0] = PetscAbsReal(host1 - host0);
  diff[1] = PetscAbsReal(dev1 - dev0);
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, diff, 2, MPIU_PETSCLOGDOUBLE, MPI_MAX, comm));
  flat = (PetscBool)(tracked && host0 > 0 && diff[0] == 0);
  PetscCall(PrintResult(comm, WIDTH, "host memory (PETSc's malloc) flat over the cycles", flat, &nfail));
  if (!tracked || !(host0 > 0)) PetscCall(PetscPrintf(comm, "    PETSc tracks no memory: run with -malloc_debug\n"));
  else if (!flat) PetscCall(PetscPrintf(comm, "    %g bytes after the first cycle, %g after the last\n", (double)host0, (double)host1));

  /* the device memory of this process's allocations by the library, exactly */
  flat = (PetscBool)(diff[1] == 0);
  PetscCall(PrintResult(comm, WIDTH, "device memory the library holds flat over the cycles", flat, &nfail));
  if (!flat) PetscCall(PetscPrintf(PETSC_COMM_SELF, "    %s backend: %.0f bytes held after the first cycle, %.0f after the last\n", PetscELLGBackends[be], dev0, dev1));

  PetscCall(CSRDestroy(&c));
  if (nfail) PetscCall(PetscPrintf(comm, "%" PetscInt_FMT " FAILED\n", nfail));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   # -malloc_debug: PETSc tracks its allocations, so that PetscMallocGetCurrentUsage() counts them
   # timeoutfactor: on a GPU shared by the other tests each cycle's device allocations take longer
   testset:
      args: -malloc_debug
      output_file: output/ex13_1.out
      timeoutfactor: 5
      test:
         suffix: 1
         args: -type {{ellg pjds slicedell csrg}}
      test:
         suffix: mpi
         nsize: 2
         args: -type {{ellg slicedell}} -cycles 300

TEST*/
