/*
   Sparse matrix products in CSR, computed in a backend's memory: C = A B, A^T B, A B^T, P^T A P, R A R^T and
   A B C for the MatProduct types of the same names, with host CSR matrices as inputs and the result's CSR
   copied to the host (its entries in pieces, by the caller). The symbolic phase makes the result's pattern
   (and its values); the numeric phase, given new values of the inputs in the patterns of the symbolic
   phase, recomputes only the values, reusing the transposes, intermediate products and plans kept in the
   backend.

   Each product is a short program of transposes and two-factor products (P^T A P: P^T (A P); R A R^T:
   R (A R^T)), run in the backend by a small table of CSR operations: cuSPARSE's csr2csc and SpGEMM
   on the device (ellgspgemmdevice.h), plain loops on the host (spgemmhost.c).
*/
#pragma once
#include <ellgimpl.h>

typedef struct _n_ELLGCsrProduct *ELLGCsrProduct;

/* a host CSR input: m x n, i of m + 1 row offsets, j sorted in each row, a the values */
typedef struct {
  PetscInt           m, n;
  const PetscInt    *i, *j;
  const PetscScalar *a;
} ELLGCsrInput;

PETSC_INTERN PetscErrorCode ELLGCsrProductSupported(MatProductType, PetscInt *);
PETSC_INTERN PetscErrorCode ELLGCsrProductCreate(PetscELLGBackend, MatProductType, ELLGCsrProduct *);
PETSC_INTERN PetscErrorCode ELLGCsrProductSymbolic(ELLGCsrProduct, const ELLGCsrInput[], PetscInt *, PetscInt *, PetscInt **);
PETSC_INTERN PetscErrorCode ELLGCsrProductGetEntries(ELLGCsrProduct, PetscInt, PetscInt, PetscInt *, PetscScalar *);
PETSC_INTERN PetscErrorCode ELLGCsrProductNumeric(ELLGCsrProduct, const PetscScalar *const[], PetscScalar *);
PETSC_INTERN PetscErrorCode ELLGCsrProductGetBytes(ELLGCsrProduct, size_t *);
PETSC_INTERN PetscErrorCode ELLGCsrProductDestroy(ELLGCsrProduct *);

/* A CSR matrix in a backend's memory, for products with vectors: the transpose of a host CSR matrix, made in
   the backend (the explicit transposes of our seq types); or copied to the host (MatTranspose()) */
typedef struct _n_ELLGCsrMat *ELLGCsrMat;

PETSC_INTERN PetscErrorCode ELLGCsrMatCreateTranspose(PetscELLGBackend, const ELLGCsrInput *, ELLGCsrMat *);
PETSC_INTERN PetscErrorCode ELLGCsrMatGetHost(ELLGCsrMat, PetscInt *, PetscInt *, PetscInt **, PetscInt **, PetscScalar **);
PETSC_INTERN PetscErrorCode ELLGCsrMatMultAdd(ELLGCsrMat, const PetscScalar *, const PetscScalar *, PetscScalar *);
PETSC_INTERN PetscErrorCode ELLGCsrMatGetBytes(ELLGCsrMat, size_t *);
PETSC_INTERN PetscErrorCode ELLGCsrMatDestroy(ELLGCsrMat *);

/* the host backend's CSR operations (spgemmhost.c), as the device's in ellgspgemmdevice.h */
PETSC_INTERN PetscErrorCode ELLGHostCsrCreate(PetscInt, PetscInt, const PetscInt *, const PetscInt *, const PetscScalar *, void **);
PETSC_INTERN PetscErrorCode ELLGHostCsrSetValues(void *, const PetscScalar *);
PETSC_INTERN PetscErrorCode ELLGHostCsrTranspose(void *, void **);
PETSC_INTERN PetscErrorCode ELLGHostCsrMultiply(void *, void *, void **, void **);
PETSC_INTERN PetscErrorCode ELLGHostCsrMultAdd(void *, const PetscScalar *, const PetscScalar *, PetscScalar *);
PETSC_INTERN PetscErrorCode ELLGHostCsrGetSize(void *, PetscInt *, PetscInt *, PetscInt *);
PETSC_INTERN PetscErrorCode ELLGHostCsrDownload(void *, PetscInt *, PetscInt, PetscInt, PetscInt *, PetscScalar *);
PETSC_INTERN PetscErrorCode ELLGHostCsrBytes(void *, size_t *);
PETSC_INTERN PetscErrorCode ELLGHostCsrPlanBytes(void *, size_t *);
PETSC_INTERN PetscErrorCode ELLGHostCsrDestroy(void *);
PETSC_INTERN PetscErrorCode ELLGHostCsrPlanDestroy(void *);
