/* Built by `make check-pkgconfig` with a plain C compiler and nothing but the flags of the installed
   petscellg.pc: PETSc's headers need mpi.h, and MPI_Comm_size() below needs the MPI library on the
   link line. Multiplies by a diagonal MATSEQAIJELLG matrix and prints "ok" when the product is right. */
#include <petscellg.h>

int main(int argc, char **argv)
{
  Mat         A;
  Vec         x, y;
  PetscReal   norm;
  PetscMPIInt size;

  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(PetscELLGInitializePackage());
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(MatCreate(PETSC_COMM_SELF, &A));
  PetscCall(MatSetSizes(A, 4, 4, 4, 4));
  PetscCall(MatSetType(A, MATSEQAIJELLG));
  PetscCall(MatSeqAIJSetPreallocation(A, 1, NULL));
  for (PetscInt i = 0; i < 4; i++) PetscCall(MatSetValue(A, i, i, 2.0, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatCreateVecs(A, &x, &y));
  PetscCall(VecSet(x, 1.0));
  PetscCall(MatMult(A, x, y));
  PetscCall(VecNorm(y, NORM_1, &norm));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s\n", size > 0 && norm == 8.0 ? "ok" : "wrong"));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscFinalize());
  return 0;
}
