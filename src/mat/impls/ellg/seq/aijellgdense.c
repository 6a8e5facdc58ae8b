/*
   MatProduct C = A B of our sequential types with MATSEQDENSE, in the stored format (FastSpMM; the
   columns of B and C go through the backend in chunks, src/mat/formats/spmm.c). The symbolic phase
   makes C a MATSEQDENSE of the product's size and keeps the streams and buffers in the product's data;
   each numeric phase brings A's format up to date first, so MatProductNumeric() after A's values
   change gives the new product.
*/
#include "../aijellg.h"
#include <ellgspmm.h>

static PetscErrorCode MatProductDataDestroy_SeqAIJELLG_SeqDense(void *data)
{
  ELLGSpMM spmm = (ELLGSpMM)data;

  PetscFunctionBegin;
  PetscCall(ELLGSpMMDestroy(&spmm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatProductNumeric_SeqAIJELLG_SeqDense(Mat C)
{
  Mat_Product *product = C->product;
  Mat          A, B;
  ELLGSpMMTerm term;
  PetscScalar *c;
  PetscInt     ldb, ldc;

  PetscFunctionBegin;
  MatCheckProduct(C, 1);
  PetscCheck(product->data, PetscObjectComm((PetscObject)C), PETSC_ERR_PLIB, "Product data empty");
  A = product->A;
  B = product->B;
  PetscCheck(A->cmap->n == B->rmap->n && A->rmap->n == C->rmap->n && B->cmap->n == C->cmap->n, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "Nonconforming matrices for C = A B: A %" PetscInt_FMT " x %" PetscInt_FMT ", B %" PetscInt_FMT " x %" PetscInt_FMT ", C %" PetscInt_FMT " x %" PetscInt_FMT,
             A->rmap->n, A->cmap->n, B->rmap->n, B->cmap->n, C->rmap->n, C->cmap->n);
  PetscCall(MatSeqAIJELLGGetFormat(A, &term.fmt));
  PetscCall(MatDenseGetLDA(B, &ldb));
  PetscCall(MatDenseGetLDA(C, &ldc));
  PetscCall(MatDenseGetArrayRead(B, &term.B));
  PetscCall(MatDenseGetArrayWrite(C, &c));
  term.rstride = 1;
  term.cstride = ldb;
  PetscCall(PetscLogEventBegin(ELLG_SpMM, A, B, C, 0));
  PetscCall(ELLGSpMMApply((ELLGSpMM)product->data, B->cmap->n, 1, &term, c, ldc));
  PetscCall(PetscLogFlops(ELLGSpMMFlops(B->cmap->n, 1, &term)));
  PetscCall(PetscLogEventEnd(ELLG_SpMM, A, B, C, 0));
  PetscCall(MatDenseRestoreArrayWrite(C, &c));
  PetscCall(MatDenseRestoreArrayRead(B, &term.B));
  PetscCall(MatAssemblyBegin(C, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(C, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatProductSymbolic_SeqAIJELLG_SeqDense(Mat C)
{
  Mat_Product *product = C->product;
  Mat          A, B;
  ELLGFormat   fmt;
  ELLGSpMM     spmm;
  PetscBool    isdense;

  PetscFunctionBegin;
  MatCheckProduct(C, 1);
  PetscCheck(!product->data, PetscObjectComm((PetscObject)C), PETSC_ERR_PLIB, "Product data not empty");
  A = product->A;
  B = product->B;
  PetscCall(MatSetSizes(C, A->rmap->n, B->cmap->n, A->rmap->n, B->cmap->n));
  PetscCall(PetscObjectBaseTypeCompare((PetscObject)C, MATSEQDENSE, &isdense));
  if (!isdense) {
    PetscCall(MatSetType(C, MATSEQDENSE));
    C->ops->productsymbolic = MatProductSymbolic_SeqAIJELLG_SeqDense; /* MatSetType() cleared it */
  }
  PetscCall(MatSetUp(C));
  PetscCall(MatSeqAIJELLGGetFormat(A, &fmt));
  PetscCall(ELLGSpMMCreate(fmt->backend, &spmm));
  product->data          = spmm;
  product->destroy       = MatProductDataDestroy_SeqAIJELLG_SeqDense;
  C->ops->productnumeric = MatProductNumeric_SeqAIJELLG_SeqDense;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* AB of one of our seq types with a MATSEQDENSE B (MatProductSetFromOptions_ELLGAnytype() checked the types) */
PetscErrorCode MatProductSetFromOptions_SeqAIJELLG_SeqDense(Mat C)
{
  PetscFunctionBegin;
  PetscCall(PetscInfo(C, "C = A B in the format of A (%s), B %s\n", ((PetscObject)C->product->A)->type_name, ((PetscObject)C->product->B)->type_name));
  C->ops->productsymbolic = MatProductSymbolic_SeqAIJELLG_SeqDense;
  PetscFunctionReturn(PETSC_SUCCESS);
}
