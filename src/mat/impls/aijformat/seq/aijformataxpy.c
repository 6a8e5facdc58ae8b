/*
   MatAXPY() of our seq types with SUBSET_NONZERO_PATTERN (X's nonzeros among Y's, as in PCGAMG's smoothing of its
   prolongator, Y = A P0 scaled, X = P0): a merge of the sorted rows on the host copy, one pass over Y's entries,
   where SeqAIJ's inserts entry by entry with MatSetValues(). The format then takes the new values at its next use.
   The other patterns, and an X whose pattern turns out not to be a subset, go to SeqAIJ's MatAXPY().
*/
#include "../aijformat.h"

/* whether each row of X's pattern is within the same row of Y's (both sorted) */
static PetscBool MatAXPYSubset(PetscInt m, const PetscInt *yi, const PetscInt *yj, const PetscInt *xi, const PetscInt *xj)
{
  for (PetscInt r = 0; r < m; r++) {
    PetscInt k = yi[r];

    for (PetscInt l = xi[r]; l < xi[r + 1]; l++) {
      while (k < yi[r + 1] && yj[k] < xj[l]) k++;
      if (k == yi[r + 1] || yj[k] != xj[l]) return PETSC_FALSE;
    }
  }
  return PETSC_TRUE;
}

PetscErrorCode MatAXPY_SeqAIJFormat(Mat Y, PetscScalar a, Mat X, MatStructure str)
{
  Mat_SeqAIJFormat  *e                        = (Mat_SeqAIJFormat *)Y->spptr;
  const PetscInt    *yi, *yj, *xi, *xj;
  const PetscScalar *xa;
  PetscScalar       *ya;
  PetscInt           m, mx;
  PetscBool          aij, done, donex, subset = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(PetscObjectBaseTypeCompare((PetscObject)X, MATSEQAIJ, &aij));
  if (str != SUBSET_NONZERO_PATTERN || !aij) {
    if (str != SAME_NONZERO_PATTERN) PetscCall(PetscInfo(Y, "MatAXPY() with %s and X %s: SeqAIJ's MatAXPY() on the host copy\n", MatStructures[str], ((PetscObject)X)->type_name));
    PetscCall(e->aijops.axpy(Y, a, X, str));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(MatGetRowIJ(Y, 0, PETSC_FALSE, PETSC_FALSE, &m, &yi, &yj, &done));
  PetscCall(MatGetRowIJ(X, 0, PETSC_FALSE, PETSC_FALSE, &mx, &xi, &xj, &donex));
  if (done && donex && m == mx) subset = MatAXPYSubset(m, yi, yj, xi, xj);
  if (subset) {
    PetscCall(MatSeqAIJGetArray(Y, &ya));
    PetscCall(MatSeqAIJGetArrayRead(X, &xa));
    for (PetscInt r = 0; r < m; r++) {
      PetscInt k = yi[r];

      for (PetscInt l = xi[r]; l < xi[r + 1]; l++) {
        while (yj[k] < xj[l]) k++;
        ya[k] += a * xa[l];
      }
    }
    PetscCall(MatSeqAIJRestoreArrayRead(X, &xa));
    PetscCall(MatSeqAIJRestoreArray(Y, &ya));
    PetscCall(PetscLogFlops(2.0 * xi[m]));
  }
  PetscCall(MatRestoreRowIJ(X, 0, PETSC_FALSE, PETSC_FALSE, &mx, &xi, &xj, &donex));
  PetscCall(MatRestoreRowIJ(Y, 0, PETSC_FALSE, PETSC_FALSE, &m, &yi, &yj, &done));
  if (!subset) {
    PetscCall(PetscInfo(Y, "MatAXPY(): X's pattern is not a subset of Y's: SeqAIJ's MatAXPY()\n"));
    PetscCall(e->aijops.axpy(Y, a, X, str));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
