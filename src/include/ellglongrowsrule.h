/*
   The rule that decides which rows of a format are long (multiplied apart, src/mat/formats/longrows): the
   threshold of a build, from the format's option (-mat_<format>_long_row_threshold) or from the row lengths,
   and the split of the stored rows by it.
*/
#pragma once
#include <ellgformat.h>

/* The longest rows that a format padding blocks of rows keeps by default: up to 1024 entries, and up to 64
   for each thread its SpMV gives them (ELLGFormatOps.longrowthreads). Multiplying such rows apart costs a
   kernel launch more than it saves; longer, or with fewer threads, they would hold up the product */
#define ELLG_LONG_ROWS_KEPT        1024
#define ELLG_LONG_ROWS_THREAD_KEPT 64

/* pjds, which multiplies its long rows in the same launch as the others (ELLGFormatOps.multlongrows),
   splits out by default the rows longer than the least of 64, 128 and 256 entries whose thread blocks
   (one per row of up to LONGROWS_CHUNK entries) fit in the threads the GPU runs at once: a split costs no
   launch there, and a block on such a row shortens the chain of loads that holds up a small matrix's
   product. When none fits, the rows longer than 256 and than 4 times the mean row length
   (ELLGLongRowsBlockThreshold()). */
#define ELLG_LONG_ROWS_FUSED_MIN  64
#define ELLG_LONG_ROWS_FUSED      256
#define ELLG_LONG_ROWS_FUSED_MEAN 4

/* rows longer than 16 times the mean row length and than 128 are long by default for most formats */
#define ELLG_LONG_ROWS_DEFAULT(mean) PetscMax(128, 16 * (mean))

/* the mean length of the rows, rounded up, that the thresholds scale */
static inline PetscInt ELLGLongRowsMean(const ELLGRowStats *rows)
{
  return rows->rows ? (rows->stored + rows->rows - 1) / rows->rows : 0;
}

/* the row length above which rows of the rows of those statistics are long for the format (PETSC_MAX_INT: none),
   given what its ELLGFormatOps.multlongrows said of them (fused) */
PETSC_INTERN PetscInt ELLGLongRowsThreshold(ELLGFormat, const ELLGRowStats *, PetscInt);
/* pjds's ELLGFormatOps.multlongrows */
PETSC_INTERN PetscInt ELLGLongRowsBlockThreshold(ELLGFormat, PetscInt, const PetscInt *, const ELLGRowStats *);
/* the lengths the format stores of its stored rows (0 for the long ones, those longer than the threshold of the
   build) and the long rows, ascending */
PETSC_INTERN PetscErrorCode ELLGLongRowsSplit(ELLGFormat, const PetscInt *, PetscInt *, PetscInt *, PetscInt **);
