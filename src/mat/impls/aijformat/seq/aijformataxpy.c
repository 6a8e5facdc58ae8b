/*
   MatAXPY() of our seq types with an X of a SeqAIJ-based type and a pattern other than SAME_NONZERO_PATTERN, on the
   host copy, where SeqAIJ's inserts entry by entry with MatSetValues():
   - X's nonzeros among Y's (SUBSET_NONZERO_PATTERN, as in PCGAMG's smoothing of its prolongator, Y = A P0 scaled,
     X = P0; or DIFFERENT_NONZERO_PATTERN that turns out to be one, as in PCGAMG's symmetrized graph A + A^T of a
     structurally symmetric A): a merge of the sorted rows, one pass over Y's entries; a built format takes the new
     values at once (a matrix changed so is about to be used);
   - DIFFERENT_NONZERO_PATTERN otherwise: the union of the rows in one pass, a matrix of Y's type and format
     options made from it at once (one build of its format), which then takes Y's place.
   SUBSET_NONZERO_PATTERN with an X that turns out not to be a subset, SAME_NONZERO_PATTERN and other types of X go
   to SeqAIJ's MatAXPY().
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

/* the union of one row of Y (ny entries: columns yj, values ya) and of a X (nx: xj, xa), both sorted: its length, and
   when cj is not NULL its columns and values (ya, xa may then not be NULL) */
static PetscInt MatAXPYMergeRow(PetscInt ny, const PetscInt *yj, const PetscScalar *ya, PetscInt nx, const PetscInt *xj, const PetscScalar *xa, PetscScalar a, PetscInt *cj, PetscScalar *ca)
{
  PetscInt k = 0, l = 0, c = 0;

  while (k < ny || l < nx) {
    const PetscInt cy = k < ny ? yj[k] : PETSC_MAX_INT, cx = l < nx ? xj[l] : PETSC_MAX_INT;

    if (cj) {
      cj[c] = PetscMin(cy, cx);
      ca[c] = (cy <= cx ? ya[k] : 0.0) + (cx <= cy ? a * xa[l] : 0.0);
    }
    k += cy <= cx;
    l += cx <= cy;
    c++;
  }
  return c;
}

/* Y + a X in a new matrix B of Y's type and options, whose rows are the union of those of Y and X */
static PetscErrorCode MatAXPYUnion(Mat Y, PetscScalar a, PetscInt m, const PetscInt *yi, const PetscInt *yj, const PetscInt *xi, const PetscInt *xj, Mat X, Mat *B)
{
  Mat_SeqAIJFormat  *e = (Mat_SeqAIJFormat *)Y->spptr;
  const PetscScalar *xa, *ya;
  PetscInt          *ci, *cj;
  PetscScalar       *ca;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(m + 1, &ci));
  ci[0] = 0;
  for (PetscInt r = 0; r < m; r++) ci[r + 1] = ci[r] + MatAXPYMergeRow(yi[r + 1] - yi[r], yj + yi[r], NULL, xi[r + 1] - xi[r], xj + xi[r], NULL, a, NULL, NULL);
  PetscCall(PetscMalloc2(ci[m], &cj, ci[m], &ca));
  PetscCall(MatSeqAIJGetArrayRead(Y, &ya));
  PetscCall(MatSeqAIJGetArrayRead(X, &xa));
  for (PetscInt r = 0; r < m; r++) (void)MatAXPYMergeRow(yi[r + 1] - yi[r], yj + yi[r], ya + yi[r], xi[r + 1] - xi[r], xj + xi[r], xa + xi[r], a, cj + ci[r], ca + ci[r]);
  PetscCall(MatSeqAIJRestoreArrayRead(X, &xa));
  PetscCall(MatSeqAIJRestoreArrayRead(Y, &ya));
  PetscCall(PetscLogFlops(2.0 * xi[m]));
  PetscCall(MatCreate(PetscObjectComm((PetscObject)Y), B));
  PetscCall(PetscObjectSetName((PetscObject)*B, ((PetscObject)Y)->name));
  PetscCall(MatSetLayouts(*B, Y->rmap, Y->cmap));
  PetscCall(MatSetType(*B, ((PetscObject)Y)->type_name));
  PetscCall(MatSeqAIJFormatCopyParameters(e->fmt, *B));
  if (e->choice) PetscCall(MatSeqAIJGPUChoiceCopy(e->choice, *B));
  PetscCall(MatSeqAIJFormatSetCSR(*B, ci, cj, ca));
  PetscCall(PetscFree(ci));
  PetscCall(PetscFree2(cj, ca));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Y becomes B (MatHeaderReplace(), as MatConvert() in place does), keeping its options prefix, with a nonzero state
   above its own, so that a preconditioner built on Y sees a new pattern; B's format, built for that pattern, stays */
static PetscErrorCode MatAXPYReplace(Mat Y, Mat *B)
{
  const PetscObjectState nz = Y->nonzerostate;
  Mat_SeqAIJFormat      *e;

  PetscFunctionBegin;
  PetscCall(MatSetOptionsPrefix(*B, ((PetscObject)Y)->prefix));
  PetscCall(MatHeaderReplace(Y, B));
  Y->nonzerostate = PetscMax(nz, Y->nonzerostate) + 1;
  PetscCall(PetscObjectStateIncrease((PetscObject)Y));
  e            = (Mat_SeqAIJFormat *)Y->spptr;
  e->nzstate = Y->nonzerostate;
  e->state   = ((PetscObject)Y)->state;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatAXPY_SeqAIJFormat(Mat Y, PetscScalar a, Mat X, MatStructure str)
{
  Mat_SeqAIJFormat  *e                        = (Mat_SeqAIJFormat *)Y->spptr;
  const PetscInt    *yi, *yj, *xi, *xj;
  const PetscScalar *xa;
  PetscScalar       *ya;
  PetscInt           m, mx;
  PetscBool          aij, done, donex, subset = PETSC_FALSE;
  Mat                B                        = NULL;

  PetscFunctionBegin;
  PetscCall(PetscObjectBaseTypeCompare((PetscObject)X, MATSEQAIJ, &aij));
  if ((str != SUBSET_NONZERO_PATTERN && str != DIFFERENT_NONZERO_PATTERN) || !aij) {
    if (str != SAME_NONZERO_PATTERN) PetscCall(PetscInfo(Y, "MatAXPY() with %s and X %s: SeqAIJ's MatAXPY() on the host copy\n", MatStructures[str], ((PetscObject)X)->type_name));
    PetscCall(e->aijops.axpy(Y, a, X, str));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(MatGetRowIJ(Y, 0, PETSC_FALSE, PETSC_FALSE, &m, &yi, &yj, &done));
  PetscCall(MatGetRowIJ(X, 0, PETSC_FALSE, PETSC_FALSE, &mx, &xi, &xj, &donex));
  if (done && donex && m == mx) subset = MatAXPYSubset(m, yi, yj, xi, xj);
  if (subset) {
    PetscCall(PetscInfo(Y, "MatAXPY() with %s: X's pattern is within Y's, added row by row on the host copy\n", MatStructures[str]));
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
  if (!subset && str == DIFFERENT_NONZERO_PATTERN && done && donex && m == mx) {
    PetscCall(PetscInfo(Y, "MatAXPY() with %s: the union of the rows of X and Y in a new matrix of type %s\n", MatStructures[str], ((PetscObject)Y)->type_name));
    PetscCall(MatAXPYUnion(Y, a, m, yi, yj, xi, xj, X, &B));
  }
  PetscCall(MatRestoreRowIJ(X, 0, PETSC_FALSE, PETSC_FALSE, &mx, &xi, &xj, &donex));
  PetscCall(MatRestoreRowIJ(Y, 0, PETSC_FALSE, PETSC_FALSE, &m, &yi, &yj, &done));
  if (B) PetscCall(MatAXPYReplace(Y, &B));
  else if (!subset) {
    PetscCall(PetscInfo(Y, "MatAXPY(): X's pattern is not a subset of Y's: SeqAIJ's MatAXPY()\n"));
    PetscCall(e->aijops.axpy(Y, a, X, str));
  } else if (e->built) {
    PetscBool bound;

    /* the format takes the new values now, not at the next product: a matrix made by MatAXPY() is one about to be
       used (PCGAMG's smoothed prolongator, last changed so, else updated at its first interpolation in the solve) */
    PetscCall(MatELLGBoundToCPU(Y, &bound));
    if (!bound) PetscCall(MatSeqAIJFormatSync(Y));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
