/*
   Sparse times dense products of stored formats with dense matrices: C = sum_t A_t B_t, with the B_t and
   C on the host (PETSc's dense matrices), moving through the backend's memory in chunks of columns, or
   in the backend's memory already (device dense matrices) (src/mat/formats/spmm.c). One ELLGSpMM keeps
   the streams and buffers from one product to the next (MatProductNumeric() after MatProductSymbolic()).
*/
#pragma once
#include <ellgformat.h>

/* a term A_t B_t: A_t stored (built and up to date), entry (i, j) of B_t at B[i * rstride + j * cstride]
   for i < fmt->n, so that B_t may be column-major (rstride 1) or row-major (cstride 1) */
typedef struct {
  ELLGFormat         fmt;
  const PetscScalar *B;
  PetscInt           rstride, cstride;
} ELLGSpMMTerm;

typedef struct _p_ELLGSpMM *ELLGSpMM;

PETSC_INTERN PetscErrorCode ELLGSpMMCreate(PetscELLGBackend, ELLGSpMM *);
PETSC_INTERN PetscErrorCode ELLGSpMMApply(ELLGSpMM, PetscInt, PetscInt, const ELLGSpMMTerm[], PetscScalar *, PetscInt);
PETSC_INTERN PetscErrorCode ELLGSpMMApplyBackend(ELLGSpMM, PetscInt, PetscInt, const ELLGSpMMTerm[], PetscScalar *, PetscInt);
PETSC_INTERN PetscErrorCode ELLGSpMMDestroy(ELLGSpMM *);
PETSC_INTERN PetscLogDouble ELLGSpMMFlops(PetscInt, PetscInt, const ELLGSpMMTerm[]);
