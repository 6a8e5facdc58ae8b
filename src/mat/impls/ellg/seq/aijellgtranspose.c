/*
   The explicit transpose of our seq types for MatMultTranspose() and MatMultTransposeAdd(): with PETSc's hint
   MAT_FORM_EXPLICIT_TRANSPOSE (which PCGAMG sets on its prolongators, whose transposed products are the
   restrictions), A^T is stored in A's format, built at the first transposed product and its values refreshed
   after a change of A's; the transposed products are then plain products with it. Without the hint they run
   the formats' transposed kernels, which add into the output with atomics: no second copy, but slow where
   many rows add into few columns (a tall prolongator).
*/
#include "../aijellg.h"

struct _n_MatSeqAIJELLGTranspose {
  ELLGFormat       fmt;
  PetscInt        *ti, *tj, *src; /* the transpose's CSR pattern on the host, and the AIJ entry of each of its entries */
  PetscScalar     *ta;
  PetscObjectState state, nzstate; /* A's states it matches */
};

PetscErrorCode MatSeqAIJELLGTransposeDestroy(MatSeqAIJELLGTranspose *t)
{
  PetscFunctionBegin;
  if (!*t) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(ELLGFormatDestroy(&(*t)->fmt));
  PetscCall(PetscFree3((*t)->ti, (*t)->tj, (*t)->src));
  PetscCall(PetscFree((*t)->ta));
  PetscCall(PetscFree(*t));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MatSeqAIJELLGGetExplicitTranspose - the format storing A^T, made to match A; NULL when A has no hint to form it */
PetscErrorCode MatSeqAIJELLGGetExplicitTranspose(Mat A, ELLGFormat *fmt)
{
  Mat_SeqAIJELLG        *e = (Mat_SeqAIJELLG *)A->spptr;
  MatSeqAIJELLGTranspose t;
  const PetscInt        *ai, *aj;
  const PetscScalar     *aa;
  PetscInt               m;
  PetscBool              done;

  PetscFunctionBegin;
  *fmt = NULL;
  if (!A->form_explicit_transpose) {
    PetscCall(MatSeqAIJELLGTransposeDestroy(&e->transpose));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  t = e->transpose;
  if (t && t->state == ((PetscObject)A)->state) {
    *fmt = t->fmt;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(MatSeqAIJGetArrayRead(A, &aa));
  if (t && t->nzstate == A->nonzerostate) { /* new values */
    for (PetscInt k = 0; k < t->ti[A->cmap->n]; k++) t->ta[k] = aa[t->src[k]];
    PetscCall(PetscLogEventBegin(ELLG_UpdateValues, A, 0, 0, 0));
    PetscCall(ELLGFormatUpdateValues(t->fmt, t->ti, t->ta));
    PetscCall(PetscLogEventEnd(ELLG_UpdateValues, A, 0, 0, 0));
  } else {
    PetscCall(MatSeqAIJELLGTransposeDestroy(&e->transpose));
    PetscCall(PetscNew(&t));
    e->transpose = t;
    PetscCall(ELLGFormatCreate(e->entry->ops, e->fmt->backend, &t->fmt));
    PetscCall(ELLGFormatCopyParameters(e->fmt, t->fmt));
    PetscCall(MatGetRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &m, &ai, &aj, &done));
    PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Cannot get the CSR structure of the matrix");
    PetscCall(ELLGCsrTranspose(A->rmap->n, A->cmap->n, ai, aj, NULL, &t->ti, &t->tj, &t->src));
    PetscCall(MatRestoreRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &m, &ai, &aj, &done));
    PetscCall(PetscMalloc1(t->ti[A->cmap->n], &t->ta));
    for (PetscInt k = 0; k < t->ti[A->cmap->n]; k++) t->ta[k] = aa[t->src[k]];
    PetscCall(PetscLogEventBegin(ELLG_Build, A, 0, 0, 0));
    PetscCall(ELLGFormatBuild(t->fmt, A->cmap->n, A->rmap->n, t->ti, t->tj, t->ta));
    PetscCall(PetscLogEventEnd(ELLG_Build, A, 0, 0, 0));
    PetscCall(PetscInfo(A, "Built the explicit transpose (MAT_FORM_EXPLICIT_TRANSPOSE) in %s: %" PetscInt_FMT " x %" PetscInt_FMT ", %.3g MB in the %s backend\n", t->fmt->ops->name, A->cmap->n, A->rmap->n, (double)t->fmt->bytes / 1048576.0, PetscELLGBackends[t->fmt->backend]));
    t->nzstate = A->nonzerostate;
  }
  PetscCall(MatSeqAIJRestoreArrayRead(A, &aa));
  t->state = ((PetscObject)A)->state;
  *fmt     = t->fmt;
  PetscFunctionReturn(PETSC_SUCCESS);
}
