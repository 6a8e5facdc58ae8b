/*
   Parallel types: MPIAIJ whose diagonal and off-diagonal blocks are of the matching seq format
   type, so both local products run in the format. The halo exchange is MPIAIJ's own.
*/
#include "../aijellg.h"

typedef struct {
  const MatELLGFormatEntry *entry;
  ELLGFormat                params; /* never built: holds the format options the blocks get */
  PetscErrorCode (*assemblyend)(Mat, MatAssemblyType);
  PetscErrorCode (*setfromoptions)(Mat, ELLG_OPTION_ITEMS);
  PetscErrorCode (*view)(Mat, PetscViewer);
  PetscErrorCode (*destroy)(Mat);
} Mat_MPIAIJELLG;

/* the blocks, when they are of the format type (after the first final assembly) */
static PetscErrorCode MatMPIAIJFormatGetBlocks(Mat A, Mat blocks[2], PetscBool *ours)
{
  Mat_MPIAIJELLG *e = (Mat_MPIAIJELLG *)A->spptr;
  PetscBool       same;

  PetscFunctionBegin;
  *ours = PETSC_FALSE;
  if (!A->preallocated) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatMPIAIJGetSeqAIJ(A, &blocks[0], &blocks[1], NULL));
  PetscCall(PetscObjectTypeCompare((PetscObject)blocks[0], e->entry->seqtype, ours));
  PetscCall(PetscObjectTypeCompare((PetscObject)blocks[1], e->entry->seqtype, &same));
  *ours = (PetscBool)(*ours && same);
  PetscFunctionReturn(PETSC_SUCCESS);
}

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
    if (!same) PetscCall(MatConvertInPlace_SeqAIJ_SeqAIJFormat(blocks[b], e->entry->seqtype, e->params));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatSetFromOptions_MPIAIJFormat(Mat A, ELLG_OPTION_ITEMS PetscOptionsObject)
{
  Mat_MPIAIJELLG *e = (Mat_MPIAIJELLG *)A->spptr;
  Mat             blocks[2];
  PetscBool       ours;

  PetscFunctionBegin;
  if (e->setfromoptions) PetscCall(e->setfromoptions(A, PetscOptionsObject));
  PetscCall(ELLGFormatSetFromOptions(e->params, PetscOptionsObject));
  PetscCall(MatMPIAIJFormatGetBlocks(A, blocks, &ours));
  for (PetscInt b = 0; ours && b < 2; b++) PetscCall(MatSeqAIJELLGCopyParameters(e->params, blocks[b]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MPIAIJ's view, and for ASCII info the stored format of the first rank's blocks */
static PetscErrorCode MatView_MPIAIJFormat(Mat A, PetscViewer viewer)
{
  Mat_MPIAIJELLG   *e = (Mat_MPIAIJELLG *)A->spptr;
  Mat               blocks[2];
  PetscBool         ascii, ours;
  PetscViewerFormat format;
  PetscViewer       sv;
  PetscMPIInt       rank;
  const char       *names[2] = {"diagonal", "off-diagonal"};

  PetscFunctionBegin;
  PetscCall(e->view(A, viewer));
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &ascii));
  if (!ascii) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscViewerGetFormat(viewer, &format));
  if (format != PETSC_VIEWER_ASCII_INFO && format != PETSC_VIEWER_ASCII_INFO_DETAIL) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatMPIAIJFormatGetBlocks(A, blocks, &ours));
  if (!ours) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCallMPI(MPI_Comm_rank(PetscObjectComm((PetscObject)A), &rank));
  PetscCall(PetscViewerGetSubViewer(viewer, PETSC_COMM_SELF, &sv));
  if (rank == 0) {
    PetscCall(PetscViewerASCIIPushTab(sv));
    for (PetscInt b = 0; b < 2; b++) {
      PetscCall(PetscViewerASCIIPrintf(sv, "rank 0, %s block:\n", names[b]));
      PetscCall(PetscViewerASCIIPushTab(sv));
      PetscCall(MatSeqAIJELLGViewFormat(blocks[b], sv));
      PetscCall(PetscViewerASCIIPopTab(sv));
    }
    PetscCall(PetscViewerASCIIPopTab(sv));
  }
  PetscCall(PetscViewerRestoreSubViewer(viewer, PETSC_COMM_SELF, &sv));
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
  PetscCall(ELLGFormatDestroy(&e->params));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatELLGGetBackend_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatProductSetFromOptions_anytype_C", NULL));
  PetscCall(MatELLGComposeBaseConverts(A, MATMPIAIJ, e->entry->mpitype, PETSC_FALSE));
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
  PetscCall(ELLGFormatCreate(e->entry->ops, be, &e->params));
  e->assemblyend         = A->ops->assemblyend;
  e->setfromoptions      = A->ops->setfromoptions;
  e->view                = A->ops->view;
  e->destroy             = A->ops->destroy;
  A->spptr               = e;
  A->ops->assemblyend    = MatAssemblyEnd_MPIAIJFormat;
  A->ops->setfromoptions = MatSetFromOptions_MPIAIJFormat;
  A->ops->view           = MatView_MPIAIJFormat;
  A->ops->destroy        = MatDestroy_MPIAIJFormat;
  PetscCall(PetscFree(A->defaultvectype));
  PetscCall(PetscStrallocpy(VECGPU, &A->defaultvectype));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatELLGGetBackend_C", MatELLGGetBackend_MPIAIJFormat));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatProductSetFromOptions_anytype_C", MatProductSetFromOptions_ELLGAnytype));
  PetscCall(MatELLGComposeBaseConverts(A, MATMPIAIJ, e->entry->mpitype, PETSC_TRUE));
  PetscCall(PetscObjectChangeTypeName((PetscObject)A, type));
  PetscFunctionReturn(PETSC_SUCCESS);
}
