/* The values of dense matrices in a backend's memory, for the sparse times dense products of the matrix types: ours of
   that backend and, with a PETSc built with CUDA, PETSc's CUDA dense matrices */
#include "densegpuimpl.h"

/* whether M is a device dense matrix of backend be and, when valid, whether its values are valid in the
   backend's memory, so that reading them there costs no copy */
PetscErrorCode MatDenseGPUInBackend(Mat M, PetscELLGBackend be, PetscBool valid, PetscBool *in)
{
  Mat           S;
  Mat_DenseGPU *d;

  PetscFunctionBegin;
  PetscCall(MatDenseGPUGetValues_Private(M, &S));
  *in = PETSC_FALSE;
#if defined(ELLG_HAVE_PETSC_CUDA)
  if (!S && be == PETSCELLG_BACKEND_CUDA) {
    PetscBool bound;

    PetscCall(PetscObjectTypeCompareAny((PetscObject)M, in, MATSEQDENSECUDA, MATMPIDENSECUDA, ""));
    PetscCall(MatBoundToCPU(M, &bound)); /* its host array is then the only one PETSc reads */
    *in = (PetscBool)(*in && !bound);
  }
#endif
  if (!S) PetscFunctionReturn(PETSC_SUCCESS);
  d   = MatDenseGPUData(S);
  *in = (PetscBool)(d->backend == be && (!valid || (d->mask != PETSC_OFFLOAD_CPU && !d->mirror.hostwrites)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the local values of M (a matrix for which MatDenseGPUInBackend() holds) in its backend's memory for
   reading, and their leading dimension */
PetscErrorCode MatDenseGPUGetBackendArrayRead(Mat M, const PetscScalar **a, PetscInt *lda)
{
  Mat S;

  PetscFunctionBegin;
  PetscCall(MatDenseGPUGetValues_Private(M, &S));
  if (S) PetscCall(MatDenseGPUGetArrayRead(M, a, lda));
#if defined(ELLG_HAVE_PETSC_CUDA)
  else {
    PetscCall(MatDenseCUDAGetArrayRead(M, a));
    PetscCall(MatDenseGetLDA(M, lda));
    PetscCall(PetscELLGWaitForPetsc());
  }
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatDenseGPURestoreBackendArrayRead(Mat M, const PetscScalar **a)
{
  Mat S;

  PetscFunctionBegin;
  PetscCall(MatDenseGPUGetValues_Private(M, &S));
  if (S) PetscCall(MatDenseGPURestoreArrayRead(M, a));
#if defined(ELLG_HAVE_PETSC_CUDA)
  else {
    PetscCall(PetscELLGPetscWaitForUs());
    PetscCall(MatDenseCUDARestoreArrayRead(M, a));
  }
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the local values of M in its backend's memory for overwriting, and their leading dimension */
PetscErrorCode MatDenseGPUGetBackendArrayWrite(Mat M, PetscScalar **a, PetscInt *lda)
{
  Mat S;

  PetscFunctionBegin;
  PetscCall(MatDenseGPUGetValues_Private(M, &S));
  if (S) PetscCall(MatDenseGPUGetArrayWrite(M, a, lda));
#if defined(ELLG_HAVE_PETSC_CUDA)
  else {
    PetscCall(MatDenseCUDAGetArrayWrite(M, a));
    PetscCall(MatDenseGetLDA(M, lda));
    PetscCall(PetscELLGWaitForPetsc());
  }
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatDenseGPURestoreBackendArrayWrite(Mat M, PetscScalar **a)
{
  Mat S;

  PetscFunctionBegin;
  PetscCall(MatDenseGPUGetValues_Private(M, &S));
  if (S) PetscCall(MatDenseGPURestoreArrayWrite(M, a));
#if defined(ELLG_HAVE_PETSC_CUDA)
  else {
    PetscCall(PetscELLGPetscWaitForUs());
    PetscCall(MatDenseCUDARestoreArrayWrite(M, a));
  }
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}
