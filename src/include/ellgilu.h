/*
   The numeric incomplete factorizations (ILU(k), ICC(k)) of our seq types in the backend's memory, and the
   solves with their factors (src/mat/solvers/trisolve/ilu.c; ellgilukernels.h for the kernels).

   The pattern comes once from PETSc's symbolic factorization, as one CSR of order n in the factor's numbering
   (rows sorted, each with its diagonal): L left of the diagonal, U the rest; for ICC the upper triangle and its
   mirror, so that the factorization A = L U gives U = D L^T. A map sends each entry of the matrix factored to
   its place in it (through the orderings); each numeric factorization uploads the matrix's values, scatters them
   into the pattern and factors there, a level of rows at a time, then refreshes the triangles' values in place.
*/
#pragma once
#include <ellgtri.h>

typedef struct _n_ELLGILU *ELLGILU;

PETSC_INTERN PetscErrorCode ELLGILUCreate(PetscELLGBackend, ELLGTriMethod, PetscBool, PetscInt, PetscInt, PetscInt, PetscInt[], PetscInt[], ELLGILU *);
PETSC_INTERN PetscErrorCode ELLGILUSetMap(ELLGILU, PetscInt, const PetscInt[], const PetscInt[], const PetscInt[], const PetscInt[], PetscBool, PetscBool, PetscBool *);
PETSC_INTERN PetscErrorCode ELLGILUFactor(ELLGILU, const PetscScalar[], PetscBool, PetscReal, PetscInt *);
PETSC_INTERN PetscErrorCode ELLGILUSolve(ELLGILU, PetscBool, PetscInt, const PetscScalar[], PetscScalar[]);
PETSC_INTERN PetscErrorCode ELLGILUScaleRoot(ELLGILU, PetscBool, const PetscScalar[], PetscScalar[]);
PETSC_INTERN PetscErrorCode ELLGILUGetInfo(ELLGILU, ELLGTriMethod *, PetscInt *, PetscInt *, size_t *);
PETSC_INTERN PetscErrorCode ELLGILUDestroy(ELLGILU *);
