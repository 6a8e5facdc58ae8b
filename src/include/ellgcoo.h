/*
   COO assembly of our seq types (MatSetPreallocationCOO(), MatSetValuesCOO()): the CSR pattern of the entries given
   (their rows and columns, those with a negative index ignored, repeats summed) and the map from the entries to the
   nonzeros, built once on the host; the sums of each MatSetValuesCOO() in host memory, or in the backend's memory
   from values there (ellgcookernels.h), without a pass on the host
*/
#pragma once
#include <ellgimpl.h>

typedef struct _n_ELLGCoo *ELLGCoo;

/* the m x n pattern of the ncoo entries (coo_i, coo_j), not changed: *ai (m + 1) and *aj (columns sorted in each
   row) to PetscFree() */
PETSC_INTERN PetscErrorCode ELLGCooCreate(PetscELLGBackend, PetscInt, PetscInt, PetscCount, const PetscInt[], const PetscInt[], ELLGCoo *, PetscInt **, PetscInt **);
PETSC_INTERN PetscErrorCode ELLGCooDestroy(ELLGCoo *);
PETSC_INTERN PetscCount     ELLGCooEntries(ELLGCoo);
PETSC_INTERN PetscInt       ELLGCooNonzeros(ELLGCoo);
/* a[] (nonzeros) from the entries' values, added (ADD_VALUES) or in place (INSERT_VALUES, or any other mode: the
   caller checks it): entry e's value is v[e] for e < nv, else w[e - nv]; inbackend: v, w and a in the backend's
   memory, else all on the host */
PETSC_INTERN PetscErrorCode ELLGCooSum(ELLGCoo, PetscBool, PetscCount, const PetscScalar[], const PetscScalar[], InsertMode, PetscScalar[]);
/* whether the kernels of backend be read v where it is: device (or managed) memory for cuda, any for host */
PETSC_INTERN PetscErrorCode PetscELLGInBackendMemory(PetscELLGBackend, const void *, PetscBool *);
/* *hv: a host copy (to PetscFree()) of the n values v when they are in device memory, else NULL (v is on the host) */
PETSC_INTERN PetscErrorCode PetscELLGCooHostValues(PetscELLGBackend, PetscCount, const PetscScalar[], PetscScalar **);
