/*
   The explicit transpose of our seq types for MatMultTranspose() and MatMultTransposeAdd(): with PETSc's hint
   MAT_FORM_EXPLICIT_TRANSPOSE (which PCGAMG sets on its prolongators, whose transposed products are the
   restrictions), A^T is made in the backend from A's CSR (cuSPARSE's csr2csc on the device) when the hint is
   set on an assembled matrix (at setup, for PCGAMG) or at the first transposed product, and again after A
   changes; the transposed products are then products with it in CSR
   (cuSPARSE's SpMV: A^T of a tall prolongator has few, long rows). Without the hint they run the formats'
   transposed kernels, which add into the output with atomics: no second copy, but slow where many rows add
   into few columns.

   MatTranspose() with MAT_INITIAL_MATRIX transposes in the backend too (cuSPARSE's csr2csc on the device): A's CSR
   goes up (or the explicit transpose that A keeps is taken), its transpose comes down into new arrays that the
   result, a SeqAIJ made on them and given A's type and format options, holds until it is destroyed. No host
   loop scatters the entries, and no row is copied again. The result's format is built at its first use on the
   backend (PCGAMG's graph symmetrization only adds the transpose to the graph on the host). MAT_REUSE_MATRIX,
   MAT_INPLACE_MATRIX, a matrix bound to the CPU, one without entries and 64-bit indices take SeqAIJ's host
   code.
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

/* MatSeqAIJFormatGetExplicitTranspose - A^T in the backend, made to match A; NULL when A has no hint to form it, or
   is known to be symmetric (A^T is A) */
PetscErrorCode MatSeqAIJFormatGetExplicitTranspose(Mat A, ELLGCsrMat *T)
{
  Mat_SeqAIJFormat *e = (Mat_SeqAIJFormat *)A->spptr;
  ELLGCsrInput      in;
  size_t            bytes;

  PetscFunctionBegin;
  *T = NULL;
  if (!A->form_explicit_transpose || MatELLGKnownSymmetric(A) || sizeof(PetscInt) != sizeof(int)) {
    PetscCall(MatSeqAIJFormatTransposeDestroy(&e->transpose));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (!e->transpose || e->transpose->state != ((PetscObject)A)->state) {
    PetscCall(MatSeqAIJFormatTransposeDestroy(&e->transpose));
    PetscCall(PetscNew(&e->transpose));
    PetscCall(PetscLogEventBegin(MATGPU_Build, A, 0, 0, 0));
    PetscCall(MatSeqAIJFormatGetCsrInput(A, &in));
    PetscCall(ELLGCsrMatCreateTranspose(e->fmt->backend, &in, &e->transpose->T));
    PetscCall(MatSeqAIJFormatRestoreCsrInput(A, &in));
    PetscCall(PetscLogEventEnd(MATGPU_Build, A, 0, 0, 0));
    PetscCall(ELLGCsrMatGetBytes(e->transpose->T, &bytes));
    PetscCall(PetscInfo(A, "Explicit transpose (MAT_FORM_EXPLICIT_TRANSPOSE) in CSR: %" PetscInt_FMT " x %" PetscInt_FMT ", %.3g MB in the %s backend\n", A->cmap->n, A->rmap->n, (double)bytes / 1048576.0, PetscELLGBackends[e->fmt->backend]));
    e->transpose->state = ((PetscObject)A)->state;
  }
  *T = e->transpose->T;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the arrays of a matrix made on them by MatCreateSeqAIJWithArrays(), which SeqAIJ does not free: freed with it */
typedef struct {
  PetscInt    *i, *j;
  PetscScalar *a;
} MatTransposeArrays;

static PetscErrorCode MatTransposeArraysDestroy(MatTransposeArrays **t)
{
  PetscFunctionBegin;
  if (!*t) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscFree((*t)->i));
  PetscCall(PetscFree((*t)->j));
  PetscCall(PetscFree((*t)->a));
  PetscCall(PetscFree(*t));
  PetscFunctionReturn(PETSC_SUCCESS);
}
ELLG_CONTAINER_DESTROY(MatTransposeArraysDestroy_Ctx, MatTransposeArrays, MatTransposeArraysDestroy)

PetscErrorCode MatTranspose_SeqAIJFormat(Mat A, MatReuse reuse, Mat *B)
{
  Mat_SeqAIJFormat   *e = (Mat_SeqAIJFormat *)A->spptr;
  ELLGCsrInput        in;
  ELLGCsrMat          T = NULL, kept;
  MatTransposeArrays *t;
  PetscContainer      c;
  PetscInt            tm, tn;
  PetscBool           bound;
  Mat                 At;
  PetscErrorCode      ierr;

  PetscFunctionBegin;
  PetscCall(MatELLGBoundToCPU(A, &bound));
  PetscCall(MatSeqAIJFormatGetCsrInput(A, &in));
  if (reuse != MAT_INITIAL_MATRIX || bound || !in.i[in.m] || sizeof(PetscInt) != sizeof(int)) {
    PetscCall(MatSeqAIJFormatRestoreCsrInput(A, &in));
    PetscCall(e->aijops.transpose(A, reuse, B));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  /* the explicit transpose A keeps for its transposed products (MAT_FORM_EXPLICIT_TRANSPOSE), else one made here */
  PetscCall(MatSeqAIJFormatGetExplicitTranspose(A, &kept));
  ierr = kept ? PETSC_SUCCESS : ELLGCsrMatCreateTranspose(e->fmt->backend, &in, &T);
  PetscCall(MatSeqAIJFormatRestoreCsrInput(A, &in));
  PetscCall(ierr);
  PetscCall(PetscNew(&t));
  ierr = ELLGCsrMatGetHost(kept ? kept : T, &tm, &tn, &t->i, &t->j, &t->a);
  PetscCall(ELLGCsrMatDestroy(&T));
  if (ierr) PetscCall(MatTransposeArraysDestroy(&t));
  PetscCall(ierr);
  PetscCall(MatCreateSeqAIJWithArrays(PetscObjectComm((PetscObject)A), tm, tn, t->i, t->j, t->a, &At));
  PetscCall(PetscContainerCreate(PETSC_COMM_SELF, &c));
  PetscCall(PetscContainerSetPointer(c, t));
  PetscCall(ELLGContainerSetCtxDestroy(c, MatTransposeArraysDestroy_Ctx));
  PetscCall(PetscObjectCompose((PetscObject)At, "MatSeqAIJFormatTransposeArrays", (PetscObject)c));
  PetscCall(PetscContainerDestroy(&c));
  PetscCall(MatSetBlockSizes(At, A->cmap->bs, A->rmap->bs));
  PetscCall(MatConvertInPlace_SeqAIJ_SeqAIJFormat(At, ((PetscObject)A)->type_name, e->fmt));
  if (e->choice) PetscCall(MatSeqAIJGPUChoiceCopy(e->choice, At));
  PetscCall(PetscInfo(A, "MatTranspose of %s in the %s backend: %" PetscInt_FMT " x %" PetscInt_FMT ", its format built at its first use\n", ((PetscObject)A)->type_name, PetscELLGBackends[e->fmt->backend], tm, tn));
  *B = At;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MatSetOption() of our seq types: SeqAIJ's, and the explicit transpose formed (or freed) as the hint is set on
   an assembled matrix; the hint tells of products with the matrix to come (PCGAMG's interpolations), for which its
   format is made then, in the setup. A matrix known to be symmetric has nothing to form (PCGAMG sets the hint on its
   graph, before a product of the graph with itself, which reads the host copy) */
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
  if (flg && !MatELLGKnownSymmetric(A)) PetscCall(MatSeqAIJFormatWarm(A, PETSC_FALSE));
  PetscFunctionReturn(PETSC_SUCCESS);
}
