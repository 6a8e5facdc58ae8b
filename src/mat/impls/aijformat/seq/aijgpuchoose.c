/*
   MATSEQAIJGPU's choice of its format: the option (-mat_aijgpu_format, MatAIJGPUSetFormat()), what it chose and why
   (the view); the choice itself is the formats layer's (ELLGFormatChoose(), src/mat/formats/choose.c)
*/
#include "../aijformat.h"
#include <ellgchoose.h>

struct _n_MatSeqAIJGPUChoice {
  MatAIJGPUFormat mode;
  char            why[256]; /* what was chosen and why, for the view */
};

PetscErrorCode MatSeqAIJGPUChoiceCreate(MatSeqAIJGPUChoice *choice)
{
  PetscFunctionBegin;
  PetscCall(PetscNew(choice));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatSeqAIJGPUChoiceDestroy(MatSeqAIJGPUChoice *choice)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(*choice));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the choice's option of a duplicate, or of the blocks of a parallel matrix, for B (of MATSEQAIJGPU), chosen again at
   its next build */
PetscErrorCode MatSeqAIJGPUChoiceCopy(MatSeqAIJGPUChoice from, Mat B)
{
  Mat_SeqAIJFormat *b = (Mat_SeqAIJFormat *)B->spptr;

  PetscFunctionBegin;
  PetscCheck(b->choice, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Not a matrix of type %s", MATSEQAIJGPU);
  if (b->choice->mode != from->mode) b->built = PETSC_FALSE;
  b->choice->mode = from->mode;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MatAIJGPUSetFormat(): another mode than before clears *built (unless NULL), so that the format is chosen again at
   its next use */
PetscErrorCode MatSeqAIJGPUChoiceSetMode(MatSeqAIJGPUChoice choice, MatAIJGPUFormat mode, PetscBool *built)
{
  PetscFunctionBegin;
  PetscCheck(mode >= MAT_AIJGPU_AUTO && mode <= MAT_AIJGPU_TIME, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Not a MatAIJGPUFormat: %d", (int)mode);
  if (built && choice->mode != mode) *built = PETSC_FALSE;
  choice->mode = mode;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -mat_aijgpu_format, within the matrix's options block; another mode than before clears *built (unless NULL), so that
   the format is chosen again at its next use */
PetscErrorCode MatSeqAIJGPUChoiceSetFromOptions(MatSeqAIJGPUChoice choice, ELLG_OPTION_ITEMS PetscOptionsObject, PetscBool *built)
{
  const MatAIJGPUFormat before = choice->mode;

  PetscFunctionBegin;
  PetscCall(PetscOptionsEnum("-mat_aijgpu_format", "Storage format: auto (from the row lengths), ellg, pjds, slicedell, csrg, or time (the fastest of a few products of each)", "MATAIJGPU", MatAIJGPUFormats, (PetscEnum)choice->mode, (PetscEnum *)&choice->mode, NULL));
  if (built && choice->mode != before) *built = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatSeqAIJGPUChoiceView(MatSeqAIJGPUChoice choice, PetscViewer viewer)
{
  PetscFunctionBegin;
  if (choice->why[0]) PetscCall(PetscViewerASCIIPrintf(viewer, "aijgpu chose %s\n", choice->why));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  MatSeqAIJFormatBuildFormat - builds the stored format of A from its CSR; for MATSEQAIJGPU, chooses the format first
  (a build that fails frees what it allocated, as ELLGFormatBuild() does)
*/
PetscErrorCode MatSeqAIJFormatBuildFormat(Mat A, PetscInt m, PetscInt n, const PetscInt *ai, const PetscInt *aj, const PetscScalar *aa)
{
  Mat_SeqAIJFormat  *e = (Mat_SeqAIJFormat *)A->spptr;
  MatSeqAIJGPUChoice c = e->choice;

  PetscFunctionBegin;
  if (!c) {
    PetscCall(ELLGFormatBuild(e->fmt, m, n, ai, aj, aa));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(ELLGFormatChoose(&e->fmt, c->mode, (PetscObject)A, m, n, ai, aj, aa, c->why, sizeof(c->why)));
  PetscCall(PetscInfo(A, "aijgpu chose %s\n", c->why));
  PetscFunctionReturn(PETSC_SUCCESS);
}
