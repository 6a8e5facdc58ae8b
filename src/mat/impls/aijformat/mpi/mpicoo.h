/*
   COO assembly of the parallel types in the backend's memory (mpicoo.c)
*/
#pragma once
#include <ellgimpl.h>

/* the map of the ncoo entries (coo_i, coo_j: global indices, not changed) of A, whose MPIAIJ COO preallocation is done
   and whose blocks are of our seq types; ignoreoffproc: the entries of other processes' rows are ignored
   (MAT_IGNORE_OFF_PROC_ENTRIES). Collective. */
PETSC_INTERN PetscErrorCode MatMPIAIJFormatCooCreate(Mat, PetscELLGBackend, PetscBool, PetscCount, const PetscInt[], const PetscInt[]);
/* *has: whether A has the map; *ncoo: its entries */
PETSC_INTERN PetscErrorCode MatMPIAIJFormatCooGet(Mat, PetscBool *, PetscCount *);
/* B (A's duplicate) shares A's map; A NULL: B has none */
PETSC_INTERN PetscErrorCode MatMPIAIJFormatCooShare(Mat, Mat);
/* the values v of the entries, in the backend's memory, summed there into the blocks. Collective. */
PETSC_INTERN PetscErrorCode MatMPIAIJFormatCooSetValues(Mat, const PetscScalar[], InsertMode);
