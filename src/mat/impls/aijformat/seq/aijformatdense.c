/*
   MatProduct C = A B of our sequential types with MATSEQDENSE or MATSEQDENSEGPU, in the stored format
   (FastSpMM, src/mat/formats/spmm.c). When B is a seqdensegpu whose values are on A's backend and C a
   seqdensegpu of that backend, the kernels run on their backend copies and C stays there; otherwise
   the columns of B and C go through the backend in chunks from and to their host arrays. The symbolic
   phase makes C a MATSEQDENSE (MATSEQDENSEGPU for a seqdensegpu B) of the product's size and keeps the
   streams and buffers in the product's data; each numeric phase brings A's format up to date first,
   so MatProductNumeric() after A's or B's values change gives the new product.
*/
#include "../aijformat.h"
#include <ellgspmm.h>

ELLG_PRODUCT_DESTROY(MatProductDataDestroy_SeqAIJFormat_SeqDense, struct _p_ELLGSpMM, ELLGSpMMDestroy)

static PetscErrorCode MatProductNumeric_SeqAIJFormat_SeqDense(Mat C)
{
  Mat_Product *product = C->product;
  Mat          A, B;
  ELLGSpMMTerm term;
  PetscScalar *c;
  PetscInt     ldc;
  PetscBool    bdev, cdev;

  PetscFunctionBegin;
  MatCheckProduct(C, 1);
  PetscCheck(product->data, PetscObjectComm((PetscObject)C), PETSC_ERR_PLIB, "Product data empty");
  A = product->A;
  B = product->B;
  PetscCheck(A->cmap->n == B->rmap->n && A->rmap->n == C->rmap->n && B->cmap->n == C->cmap->n, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "Nonconforming matrices for C = A B: A %" PetscInt_FMT " x %" PetscInt_FMT ", B %" PetscInt_FMT " x %" PetscInt_FMT ", C %" PetscInt_FMT " x %" PetscInt_FMT,
             A->rmap->n, A->cmap->n, B->rmap->n, B->cmap->n, C->rmap->n, C->cmap->n);
  PetscCall(MatSeqAIJFormatGetFormat(A, &term.fmt));
  PetscCall(MatDenseGPUInBackend(B, term.fmt->backend, PETSC_TRUE, &bdev));
  PetscCall(MatDenseGPUInBackend(C, term.fmt->backend, PETSC_FALSE, &cdev));
  term.rstride = 1;
  PetscCall(PetscLogEventBegin(MATGPU_SpMM, A, B, C, 0));
  if (bdev && cdev) {
    PetscCall(MatDenseGPUGetBackendArrayRead(B, &term.B, &term.cstride));
    PetscCall(MatDenseGPUGetBackendArrayWrite(C, &c, &ldc));
    PetscCall(PetscELLGLogGpuTimeBegin(term.fmt->backend));
    PetscCall(ELLGSpMMApplyBackend((ELLGSpMM)product->data, B->cmap->n, 1, &term, c, ldc));
    PetscCall(PetscELLGLogGpuTimeEnd(term.fmt->backend));
    PetscCall(MatDenseGPURestoreBackendArrayWrite(C, &c));
    PetscCall(MatDenseGPURestoreBackendArrayRead(B, &term.B));
    PetscCall(PetscELLGLogSynchronize(term.fmt->backend));
  } else {
    PetscCall(MatDenseGetLDA(B, &term.cstride));
    PetscCall(MatDenseGetLDA(C, &ldc));
    PetscCall(MatDenseGetArrayRead(B, &term.B));
    PetscCall(MatDenseGetArrayWrite(C, &c));
    PetscCall(ELLGSpMMApply((ELLGSpMM)product->data, B->cmap->n, 1, &term, c, ldc));
    PetscCall(MatDenseRestoreArrayWrite(C, &c));
    PetscCall(MatDenseRestoreArrayRead(B, &term.B));
  }
  PetscCall(PetscELLGLogFlops(term.fmt->backend, ELLGSpMMFlops(B->cmap->n, 1, &term)));
  PetscCall(PetscLogEventEnd(MATGPU_SpMM, A, B, C, 0));
  PetscCall(MatAssemblyBegin(C, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(C, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatProductSymbolic_SeqAIJFormat_SeqDense(Mat C)
{
  Mat_Product *product = C->product;
  Mat          A, B;
  ELLGFormat   fmt;
  ELLGSpMM     spmm;
  PetscBool    isdense, device;

  PetscFunctionBegin;
  MatCheckProduct(C, 1);
  PetscCheck(!product->data, PetscObjectComm((PetscObject)C), PETSC_ERR_PLIB, "Product data not empty");
  A = product->A;
  B = product->B;
  PetscCall(MatSetSizes(C, A->rmap->n, B->cmap->n, A->rmap->n, B->cmap->n));
  PetscCall(PetscObjectBaseTypeCompare((PetscObject)C, MATSEQDENSE, &isdense));
  if (!isdense) {
    PetscCall(PetscObjectTypeCompareAny((PetscObject)B, &device, MATSEQDENSEGPU, MATSEQDENSECUDA, ""));
    PetscCall(MatSetType(C, device ? ((PetscObject)B)->type_name : MATSEQDENSE));
    C->ops->productsymbolic = MatProductSymbolic_SeqAIJFormat_SeqDense; /* MatSetType() cleared it */
  }
  PetscCall(MatSetUp(C));
  PetscCall(MatSeqAIJFormatGetFormat(A, &fmt));
  PetscCall(ELLGSpMMCreate(fmt->backend, &spmm));
  product->data          = spmm;
  product->destroy       = MatProductDataDestroy_SeqAIJFormat_SeqDense;
  C->ops->productnumeric = MatProductNumeric_SeqAIJFormat_SeqDense;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* AB of one of our seq types with a MATSEQDENSE or MATSEQDENSEGPU B (MatProductSetFromOptions_ELLGAnytype() checked the types) */
PetscErrorCode MatProductSetFromOptions_SeqAIJFormat_SeqDense(Mat C)
{
  PetscFunctionBegin;
  PetscCall(PetscInfo(C, "C = A B in the format of A (%s), B %s\n", ((PetscObject)C->product->A)->type_name, ((PetscObject)C->product->B)->type_name));
  C->ops->productsymbolic = MatProductSymbolic_SeqAIJFormat_SeqDense;
  PetscFunctionReturn(PETSC_SUCCESS);
}
