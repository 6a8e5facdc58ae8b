/*
   Multicolor SOR of our seq types: MatSOR() in the backend.

   The rows are colored so that no two rows of one color are coupled (greedy coloring, in row order, of the
   symmetrized pattern: i and j conflict when a_ij or a_ji is stored). A matrix with a block size bs (several
   unknowns per grid point) is colored by blocks, and the rows of a block get bs consecutive colors in their
   order: point Gauss-Seidel within a block, the blocks in color order (red-black for a 5- or 7-point stencil). A forward sweep updates the colors
   in increasing order, a backward sweep in decreasing order, each color in one pass over its rows:

       x_i <- (1 - omega) x_i + omega (b_i - sum_{j != i} a_ij x_j) / (a_ii + shift)

   This is Gauss-Seidel (SOR) in the ordering by colors, not in the natural order of PETSc's SeqAIJ
   MatSOR(): the same method for a symmetrically permuted matrix, so iteration counts differ a little.
   The rows of a color are stored in CSR without their diagonal, in color order, in the backend.
*/
#pragma once
#include <ellgimpl.h>

typedef struct _n_ELLGSor *ELLGSor;

PETSC_INTERN PetscErrorCode ELLGSorCreate(PetscELLGBackend, ELLGSor *);
PETSC_INTERN PetscErrorCode ELLGSorBuild(ELLGSor, PetscBool, PetscInt, PetscInt, const PetscInt *, const PetscInt *, const PetscScalar *); /* single: the values in single precision */
PETSC_INTERN PetscErrorCode ELLGSorSetValues(ELLGSor, const PetscScalar *);
PETSC_INTERN PetscErrorCode ELLGSorSetShift(ELLGSor, PetscReal);
PETSC_INTERN PetscErrorCode ELLGSorApply(ELLGSor, const PetscScalar *, PetscReal, MatSORType, PetscReal, PetscInt, PetscScalar *);
PETSC_INTERN PetscErrorCode ELLGSorGetInfo(ELLGSor, PetscInt *, size_t *);
PETSC_INTERN PetscErrorCode ELLGSorDestroy(ELLGSor *);
