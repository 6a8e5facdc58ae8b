/*
   The matrix bench_spmv works on: CSR owned by the bench (the generators and file readers fill
   it, each format is assembled from it), and the conversion of triplets to it (bench_csr.c).
*/
#pragma once
#include <petscsys.h>

typedef struct {
  char         name[64];
  PetscInt     nrows, ncols, nnz;
  PetscInt    *rowptr, *colidx; /* columns sorted and distinct in each row */
  PetscScalar *val;
} CSR;

PetscErrorCode CSRDestroy(CSR *A);

/* nnz as a PetscInt, or an error naming the matrix when it does not fit */
PetscErrorCode CSRCheckSize(const char *what, PetscInt64 nnz);

PetscErrorCode CSRAllocate(CSR *A, PetscInt nrows, PetscInt ncols, PetscInt nnz);

/* The m x n CSR of nt 0-based triplets (ti, tj, tv): rows by counting sort, columns sorted in
   each row, duplicates summed */
PetscErrorCode CSRFromTriplets(PetscInt m, PetscInt n, PetscInt nt, const PetscInt *ti, const PetscInt *tj, const PetscScalar *tv, CSR *A);
