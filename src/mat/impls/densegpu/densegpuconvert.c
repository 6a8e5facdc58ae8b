/* Device dense matrices: the conversions and constructors that the seq and mpi types share */
#include "densegpuimpl.h"

/* the names of a conversion: the matrix type and the type of the vectors of MatCreateVecs() */
PetscErrorCode MatDenseGPUSetTypeNames_Private(Mat A, MatType type, VecType vtype)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(A->defaultvectype));
  PetscCall(PetscStrallocpy(vtype, &A->defaultvectype));
  PetscCall(PetscObjectChangeTypeName((PetscObject)A, type));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the values of the dense matrix A into the dense matrix B of the same local sizes (MatConvert() with
   MAT_REUSE_MATRIX), through the host arrays of the local blocks */
PetscErrorCode MatDenseGPUCopyHostValues_Private(Mat A, Mat B)
{
  Mat                Al, Bl;
  const PetscScalar *a;
  PetscScalar       *b;
  PetscInt           lda, ldb;

  PetscFunctionBegin;
  PetscCall(MatDenseGetLocalMatrix(A, &Al));
  PetscCall(MatDenseGetLocalMatrix(B, &Bl));
  PetscCheck(Al->rmap->n == Bl->rmap->n && Al->cmap->n == Bl->cmap->n, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "Cannot reuse a matrix with local blocks of %" PetscInt_FMT " x %" PetscInt_FMT " for one of %" PetscInt_FMT " x %" PetscInt_FMT, Bl->rmap->n, Bl->cmap->n, Al->rmap->n, Al->cmap->n);
  PetscCall(MatDenseGetLDA(Al, &lda));
  PetscCall(MatDenseGetLDA(Bl, &ldb));
  PetscCall(MatDenseGetArrayRead(Al, &a));
  PetscCall(MatDenseGetArrayWrite(Bl, &b));
  for (PetscInt j = 0; j < Al->cmap->n; j++) PetscCall(PetscArraycpy(b + j * ldb, a + j * lda, Al->rmap->n));
  PetscCall(MatDenseRestoreArrayWrite(Bl, &b));
  PetscCall(MatDenseRestoreArrayRead(Al, &a));
  PetscCall(PetscObjectStateIncrease((PetscObject)B));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MatConvert() from a dense base type to its device type, whose in-place conversion is inplace: the
   values go to the backend at once */
PetscErrorCode MatConvert_Dense_DenseGPU_Private(Mat A, MatReuse reuse, Mat *B, PetscErrorCode (*inplace)(Mat, PetscELLGBackend))
{
  PetscELLGBackend backend;
  Mat              S;

  PetscFunctionBegin;
  if (reuse == MAT_REUSE_MATRIX) {
    PetscCall(MatDenseGPUCheckType_Private(*B, "MatConvert"));
    PetscCall(MatDenseGPUCopyHostValues_Private(A, *B));
  } else {
    PetscCall(PetscELLGGetBackend_Private(&backend));
    if (reuse == MAT_INITIAL_MATRIX) PetscCall(MatDuplicate(A, MAT_COPY_VALUES, B));
    else *B = A;
    PetscCall((*inplace)(*B, backend));
  }
  PetscCall(MatDenseGPUGetValues_Private(*B, &S));
  if (S && S->preallocated) PetscCall(ELLGMirrorSyncBackend(&MatDenseGPUData(S)->mirror));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MatConvert() from a device dense type to its base type, back in place by revert */
PetscErrorCode MatConvert_DenseGPU_Dense_Private(Mat A, MatReuse reuse, Mat *B, PetscErrorCode (*revert)(Mat, PetscBool))
{
  PetscFunctionBegin;
  if (reuse == MAT_REUSE_MATRIX) {
    PetscCall(MatDenseGPUCopyHostValues_Private(A, *B));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (reuse == MAT_INITIAL_MATRIX) PetscCall(MatDuplicate(A, MAT_COPY_VALUES, B));
  else *B = A;
  PetscCall((*revert)(*B, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the constructor of a device dense type: that of its base type, then the conversion in place */
PetscErrorCode MatCreate_DenseGPU_Private(Mat A, MatType base, PetscErrorCode (*inplace)(Mat, PetscELLGBackend))
{
  PetscErrorCode (*create)(Mat) = NULL;
  PetscELLGBackend backend;

  PetscFunctionBegin;
  PetscCall(PetscELLGGetBackend_Private(&backend));
  PetscCall(PetscFunctionListFind(MatList, base, &create));
  PetscCheck(create, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s is not registered", base);
  PetscCall((*create)(A));
  PetscCall((*inplace)(A, backend));
  PetscFunctionReturn(PETSC_SUCCESS);
}
