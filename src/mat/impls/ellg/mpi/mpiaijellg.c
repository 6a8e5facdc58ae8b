/*
   Parallel types: MPIAIJ whose diagonal and off-diagonal blocks are of the matching seq format
   type, so both local products run in the format. The halo exchange is MPIAIJ's own.
*/
#include "../aijellg.h"

typedef struct {
  const MatELLGFormatEntry *entry;
  PetscErrorCode (*assemblyend)(Mat, MatAssemblyType);
  PetscErrorCode (*destroy)(Mat);
} Mat_MPIAIJELLG;

/* MPIAIJ creates its blocks as SEQAIJ (at preallocation, and anew when it disassembles):
   after each final assembly, blocks of another type are turned into the format type */
static PetscErrorCode MatAssemblyEnd_MPIAIJFormat(Mat A, MatAssemblyType type)
{
  Mat_MPIAIJELLG *e = (Mat_MPIAIJELLG *)A->spptr;
  Mat             blocks[2];
  PetscBool       same;

  PetscFunctionBegin;
  PetscCall(e->assemblyend(A, type));
  if (type == MAT_FLUSH_ASSEMBLY) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatMPIAIJGetSeqAIJ(A, &blocks[0], &blocks[1], NULL));
  for (PetscInt b = 0; b < 2; b++) {
    PetscCall(PetscObjectTypeCompare((PetscObject)blocks[b], e->entry->seqtype, &same));
    if (!same) PetscCall(MatConvert(blocks[b], e->entry->seqtype, MAT_INPLACE_MATRIX, &blocks[b]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatELLGGetBackend_MPIAIJFormat(Mat A, PetscELLGBackend *backend)
{
  Mat Ad;

  PetscFunctionBegin;
  PetscCall(MatMPIAIJGetSeqAIJ(A, &Ad, NULL, NULL));
  PetscCheck(A->assembled, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_WRONGSTATE, "The backend of a parallel PETSc-ELLG matrix is known after its first assembly");
  PetscCall(MatELLGGetBackend(Ad, backend));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatDestroy_MPIAIJFormat(Mat A)
{
  Mat_MPIAIJELLG *e = (Mat_MPIAIJELLG *)A->spptr;

  PetscFunctionBegin;
  A->ops->destroy = e->destroy;
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatELLGGetBackend_C", NULL));
  PetscCall(PetscFree(A->spptr));
  PetscCall((*A->ops->destroy)(A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatCreate_MPIAIJFormat(Mat A, MatType type)
{
  PetscErrorCode (*create)(Mat);
  Mat_MPIAIJELLG *e;
  PetscELLGBackend be;

  PetscFunctionBegin;
  PetscCall(PetscELLGGetBackend(&be)); /* fails early, on every rank, for an unusable backend */
  PetscCall(PetscFunctionListFind(MatList, MATMPIAIJ, &create));
  PetscCheck(create, PETSC_COMM_SELF, PETSC_ERR_PLIB, "MATMPIAIJ is not registered");
  PetscCall((*create)(A));
  PetscCall(PetscNew(&e));
  PetscCall(MatELLGFormatFind(type, &e->entry));
  e->assemblyend      = A->ops->assemblyend;
  e->destroy          = A->ops->destroy;
  A->spptr            = e;
  A->ops->assemblyend = MatAssemblyEnd_MPIAIJFormat;
  A->ops->destroy     = MatDestroy_MPIAIJFormat;
  PetscCall(PetscFree(A->defaultvectype));
  PetscCall(PetscStrallocpy(VECGPU, &A->defaultvectype));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatELLGGetBackend_C", MatELLGGetBackend_MPIAIJFormat));
  PetscCall(PetscObjectChangeTypeName((PetscObject)A, type));
  PetscFunctionReturn(PETSC_SUCCESS);
}
