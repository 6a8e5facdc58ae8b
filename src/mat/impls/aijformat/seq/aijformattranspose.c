/*
   The explicit transpose of our seq types for MatMultTranspose() and MatMultTransposeAdd(): with PETSc's hint
   MAT_FORM_EXPLICIT_TRANSPOSE (which PCGAMG sets on its prolongators, whose transposed products are the
   restrictions), A^T is made in the backend from A's CSR (cuSPARSE's csr2csc on the device) when the hint is
   set on an assembled matrix (at setup, for PCGAMG) or at the first transposed product, and again after A
   changes; the transposed products are then products with it in CSR
   (cuSPARSE's SpMV: A^T of a tall prolongator has few, long rows). Without the hint they run the formats'
   transposed kernels, which add into the output with atomics: no second copy, but slow where many rows add
   into few columns.
*/
#include "../aijformat.h"
#include <ellgspgemm.h>

struct _n_MatSeqAIJFormatTranspose {
  ELLGCsrMat       T;
  PetscObjectState state; /* A's state it matches */
};

PetscErrorCode MatSeqAIJFormatTransposeDestroy(MatSeqAIJFormatTranspose *t)
{
  PetscFunctionBegin;
  if (!*t) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(ELLGCsrMatDestroy(&(*t)->T));
  PetscCall(PetscFree(*t));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MatSeqAIJFormatGetExplicitTranspose - A^T in the backend, made to match A; NULL when A has no hint to form it */
PetscErrorCode MatSeqAIJFormatGetExplicitTranspose(Mat A, ELLGCsrMat *T)
{
  Mat_SeqAIJFormat *e = (Mat_SeqAIJFormat *)A->spptr;
  ELLGCsrInput      in;
  PetscInt          m;
  PetscBool         done;
  size_t            bytes;

  PetscFunctionBegin;
  *T = NULL;
  if (!A->form_explicit_transpose || sizeof(PetscInt) != sizeof(int)) {
    PetscCall(MatSeqAIJFormatTransposeDestroy(&e->transpose));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (!e->transpose || e->transpose->state != ((PetscObject)A)->state) {
    PetscCall(MatSeqAIJFormatTransposeDestroy(&e->transpose));
    PetscCall(PetscNew(&e->transpose));
    PetscCall(PetscLogEventBegin(ELLG_Build, A, 0, 0, 0));
    PetscCall(MatGetRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &m, &in.i, &in.j, &done));
    PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Cannot get the CSR structure of the matrix");
    PetscCall(MatSeqAIJGetArrayRead(A, &in.a));
    in.m = A->rmap->n;
    in.n = A->cmap->n;
    PetscCall(ELLGCsrMatCreateTranspose(e->fmt->backend, &in, &e->transpose->T));
    PetscCall(MatSeqAIJRestoreArrayRead(A, &in.a));
    PetscCall(MatRestoreRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &m, &in.i, &in.j, &done));
    PetscCall(PetscLogEventEnd(ELLG_Build, A, 0, 0, 0));
    PetscCall(ELLGCsrMatGetBytes(e->transpose->T, &bytes));
    PetscCall(PetscInfo(A, "Explicit transpose (MAT_FORM_EXPLICIT_TRANSPOSE) in CSR: %" PetscInt_FMT " x %" PetscInt_FMT ", %.3g MB in the %s backend\n", A->cmap->n, A->rmap->n, (double)bytes / 1048576.0, PetscELLGBackends[e->fmt->backend]));
    e->transpose->state = ((PetscObject)A)->state;
  }
  *T = e->transpose->T;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MatSetOption() of our seq types: SeqAIJ's, and the explicit transpose formed (or freed) as the hint is set on
   an assembled matrix */
PetscErrorCode MatSetOption_SeqAIJFormat(Mat A, MatOption op, PetscBool flg)
{
  Mat_SeqAIJFormat *e = (Mat_SeqAIJFormat *)A->spptr;
  ELLGCsrMat        T;
  PetscBool         bound;

  PetscFunctionBegin;
  PetscCall(e->aijops.setoption(A, op, flg));
  if (op != MAT_FORM_EXPLICIT_TRANSPOSE || !A->assembled) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatELLGBoundToCPU(A, &bound));
  if (!bound) PetscCall(MatSeqAIJFormatGetExplicitTranspose(A, &T));
  PetscFunctionReturn(PETSC_SUCCESS);
}
