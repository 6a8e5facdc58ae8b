/*
   The triangles of the factors of our seq types (src/mat/solvers/trisolve): built once per symbolic
   factorization from the factor's structure, their values refreshed from the factor's value array
   after each numeric factorization, solved in the backend's memory (ellgtrisolve.h for the kernels).

   A triangle T of order n is given in CSR in the natural row order: for each row i, its entries off
   the diagonal (column, and src: the index of its value in the factor's value array a), and dsrc[i],
   the index of the inverse of its diagonal (dsrc NULL: a unit diagonal). Its values are
   sign a[src] (divided by a[dsrc[i]] when divide), and a solve computes
   x[i] = a[dsrc[i]] (b[i] - sum_j T_ij x[j]) in the order of the rows' dependencies.
*/
#pragma once
#include <ellgimpl.h>

/* how the solves run: level-ordered rows in one launch (ours), cuSPARSE's SpSV, or approximately by Jacobi sweeps */
typedef enum {
  ELLG_TRI_LEVELS,
  ELLG_TRI_CUSPARSE,
  ELLG_TRI_JACOBI
} ELLGTriMethod;
PETSC_INTERN const char *const ELLGTriMethods[];

typedef struct _n_ELLGTri *ELLGTri;

PETSC_INTERN PetscErrorCode ELLGTriCreate(PetscELLGBackend, ELLGTriMethod, PetscInt, PetscInt, PetscBool, const PetscInt[], const PetscInt[], const PetscInt[], const PetscInt[], PetscScalar, PetscBool, PetscBool, ELLGTri *);
PETSC_INTERN PetscErrorCode ELLGTriCreateTranspose(ELLGTri, ELLGTri *);
PETSC_INTERN PetscErrorCode ELLGTriSetJacobiSweeps(ELLGTri, PetscInt);
PETSC_INTERN PetscErrorCode ELLGTriSetValues(ELLGTri, const PetscScalar[]);
PETSC_INTERN PetscErrorCode ELLGTriSetValuesBackend(ELLGTri, const PetscScalar[]);
PETSC_INTERN PetscErrorCode ELLGTriSolve(ELLGTri, const PetscScalar[], PetscScalar[]);
PETSC_INTERN PetscErrorCode ELLGTriGetInfo(ELLGTri, ELLGTriMethod *, PetscInt *, PetscInt *, size_t *);
PETSC_INTERN PetscErrorCode ELLGTriDestroy(ELLGTri *);
