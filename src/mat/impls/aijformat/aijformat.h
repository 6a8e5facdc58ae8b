/* The AIJ subclasses of PETSc-ELLG: one glue for every storage format */
#pragma once
#include <ellgformat.h>
#include <ellgsor.h>
#include <ellgspgemm.h>
#include <ellgcoo.h>
#include <petsc/private/matimpl.h>

/* MatELLGSetBoundToCPU - records whether A computes on the CPU alone: PETSc creates every matrix bound to the CPU
   (with device support), and our types, like PETSc's device types, compute on their backend unless
   MatBindToCPU() binds them; a matrix converted back to AIJ is bound again. Nothing without device support. */
static inline void MatELLGSetBoundToCPU(Mat A, PetscBool flg)
{
#if defined(PETSC_HAVE_DEVICE)
  A->boundtocpu = flg;
#else
  (void)A;
  (void)flg;
#endif
}

/* whether A is known to equal its transpose (MAT_SYMMETRIC, real scalars): its transposed products are its products */
static inline PetscBool MatELLGKnownSymmetric(Mat A)
{
  return (PetscBool)(A->symmetric == PETSC_BOOL3_TRUE);
}

/* MatELLGOptionsBegin - PetscOptionsBegin() for object A with a title of our own, reading A's options database (the one
   PetscObjectSetOptions() gives it, else the global one) as PetscObjectOptionsBegin() does */
#define MatELLGOptionsBegin(A, title) \
  PetscOptionsBegin(PetscObjectComm((PetscObject)(A)), ((PetscObject)(A))->prefix, title, "Mat"); \
  PetscOptionsObject->options = ((PetscObject)(A))->options

typedef struct _n_MatSeqAIJFormatTranspose *MatSeqAIJFormatTranspose;

/* the seq type name of each format and its operations (choose: the type that chooses the format of each matrix at
   its builds, ops the one it starts with) */
typedef struct {
  const char          *root, *seqtype, *mpitype;
  const ELLGFormatOps *ops;
  PetscBool            choose;
} MatELLGFormatEntry;

#define MAT_ELLG_NTYPES 5 /* ellg, pjds, slicedell, csrg, aijgpu */
PETSC_INTERN const MatELLGFormatEntry MatELLGFormats[MAT_ELLG_NTYPES]; /* types.c */

typedef struct _n_MatSeqAIJGPUChoice *MatSeqAIJGPUChoice; /* how MATSEQAIJGPU chooses its format (aijgpuchoose.c) */

typedef struct {
  const MatELLGFormatEntry *entry;                /* the type: kept here, as MatHeaderMerge() destroys a matrix without its type name */
  ELLGFormat                fmt;
  MatSeqAIJGPUChoice        choice;               /* MATSEQAIJGPU: how it chooses fmt at each build; NULL for the types of one format */
  struct _MatOps            aijops;               /* SeqAIJ's operations: extended ones call them, converting back restores them */
  struct _MatOps            formatops;            /* the operations as we set them */
  PetscObjectState          state;                /* object state the stored format matches */
  PetscObjectState          nzstate;              /* nonzero state the structure was built at */
  PetscBool                 built;
  PetscBool                 pending;              /* assembled (MatAssemblyEnd()) since the format last matched it: an operator about to be used */
  Vec                       work[2][2];           /* backend vectors standing in for arguments of other types: [input, output][row or column length] */
  ELLGSor                   sor;                  /* the multicolor SOR (NULL until the first MatSOR()) */
  PetscObjectState          sorstate, sornzstate; /* the states it matches */
  PetscBool                 sorsingle;            /* and the precision of its values (the format's) */
  PetscBool                 sorhost;              /* -mat_gpu_sor host */
  MatSeqAIJFormatTranspose  transpose;            /* A^T in the format, with MAT_FORM_EXPLICIT_TRANSPOSE (NULL until a transposed product) */
  PetscObjectState          coostate;             /* the state MatSetValuesCOO() left with the format current (aijformatcoo.c) */
  PetscScalar              *coopinned;            /* SeqAIJ's values, page-locked for the copies of MatSetValuesCOO() from device values */
  PetscErrorCode (*aijpreallocationcoo)(Mat, PetscCount, PetscInt[], PetscInt[]); /* SeqAIJ's COO functions */
  PetscErrorCode (*aijsetvaluescoo)(Mat, const PetscScalar[], InsertMode);
  PetscErrorCode (*aijpreallocation)(Mat, PetscInt, const PetscInt[]); /* SeqAIJ's, which frees its arrays: ours unpins them first */
} Mat_SeqAIJFormat;

PETSC_INTERN PetscErrorCode MatELLGFormatFind(MatType, const MatELLGFormatEntry **);
PETSC_INTERN PetscErrorCode MatELLGValuePrecisionOption(Mat, ELLG_OPTION_ITEMS);
PETSC_INTERN PetscErrorCode MatELLGInheritValuePrecision(Mat, Mat);
PETSC_INTERN PetscErrorCode MatSeqAIJGPUChoiceCreate(MatSeqAIJGPUChoice *);
PETSC_INTERN PetscErrorCode MatSeqAIJGPUChoiceDestroy(MatSeqAIJGPUChoice *);
PETSC_INTERN PetscErrorCode MatSeqAIJGPUChoiceCopy(MatSeqAIJGPUChoice, Mat);
PETSC_INTERN PetscErrorCode MatSeqAIJGPUChoiceSetMode(MatSeqAIJGPUChoice, MatAIJGPUFormat, PetscBool *);
PETSC_INTERN PetscErrorCode MatSeqAIJGPUChoiceSetFromOptions(MatSeqAIJGPUChoice, ELLG_OPTION_ITEMS, PetscBool *);
PETSC_INTERN PetscErrorCode MatSeqAIJGPUChoiceView(MatSeqAIJGPUChoice, PetscViewer);
PETSC_INTERN PetscErrorCode MatSeqAIJFormatBuildFormat(Mat, PetscInt, PetscInt, const PetscInt *, const PetscInt *, const PetscScalar *);
PETSC_INTERN PetscErrorCode MatProductSetFromOptions_ELLGAnytype(Mat);
PETSC_INTERN PetscErrorCode MatELLGGetKind(Mat, PetscBool *, PetscBool *);
PETSC_INTERN PetscErrorCode MatELLGOptionsTitle(Mat, char[], size_t);
PETSC_INTERN PetscErrorCode MatELLGProductTypeName(Mat, const char **);
PETSC_INTERN PetscErrorCode MatProductSetFromOptions_SeqAIJFormat(Mat);
PETSC_INTERN PetscErrorCode MatSOR_SeqAIJFormat(Mat, Vec, PetscReal, MatSORType, PetscReal, PetscInt, PetscInt, Vec);
PETSC_INTERN PetscErrorCode MatSeqAIJFormatSorOptions(Mat, ELLG_OPTION_ITEMS);
PETSC_INTERN PetscErrorCode MatSeqAIJFormatViewSor(Mat, PetscViewer);
PETSC_INTERN PetscErrorCode MatSeqAIJFormatGetExplicitTranspose(Mat, ELLGCsrMat *);
PETSC_INTERN PetscErrorCode MatAXPY_SeqAIJFormat(Mat, PetscScalar, Mat, MatStructure);
PETSC_INTERN PetscErrorCode MatSeqAIJFormatTransposeDestroy(MatSeqAIJFormatTranspose *);
PETSC_INTERN PetscErrorCode MatSetOption_SeqAIJFormat(Mat, MatOption, PetscBool);
PETSC_INTERN PetscErrorCode MatTranspose_SeqAIJFormat(Mat, MatReuse, Mat *);
PETSC_INTERN PetscErrorCode MatSeqAIJFormatGetInput(Mat, Vec, Vec *, const PetscScalar **);
PETSC_INTERN PetscErrorCode MatSeqAIJFormatGetOutput(Mat, Vec, PetscBool, Vec *, PetscScalar **);
PETSC_INTERN PetscErrorCode MatSeqAIJFormatRestoreOutput(Vec, PetscBool, Vec, PetscScalar **);
PETSC_INTERN PetscErrorCode MatProductSetFromOptions_SeqAIJFormat_Sparse(Mat, PetscBool *);
PETSC_INTERN PetscErrorCode MatELLGComposeBaseConverts(Mat, const char[], const char[], PetscBool);
PETSC_INTERN PetscErrorCode MatELLGConvertTarget(Mat, MatReuse, Mat *, Mat *);
PETSC_INTERN PetscErrorCode MatConvert_SeqAIJ_SeqAIJFormat(Mat, MatType, MatReuse, Mat *);
PETSC_INTERN PetscErrorCode MatConvertInPlace_SeqAIJ_SeqAIJFormat(Mat, MatType, ELLGFormat);
PETSC_INTERN PetscErrorCode MatCreate_SeqAIJFormat(Mat, MatType);
PETSC_INTERN PetscErrorCode MatCreate_MPIAIJFormat(Mat, MatType);
PETSC_INTERN PetscErrorCode MatSeqAIJFormatViewFormat(Mat, PetscViewer);
PETSC_INTERN PetscErrorCode MatSeqAIJFormatCopyParameters(ELLGFormat, Mat);
PETSC_INTERN PetscErrorCode MatSeqAIJFormatGetCsrInput(Mat, ELLGCsrInput *);
PETSC_INTERN PetscErrorCode MatSeqAIJFormatRestoreCsrInput(Mat, ELLGCsrInput *);
PETSC_INTERN PetscErrorCode MatSeqAIJFormatSetCSR(Mat, const PetscInt *, const PetscInt *, const PetscScalar *);
PETSC_INTERN PetscErrorCode MatSeqAIJFormatSetCSRBegin(Mat, const PetscInt *);
PETSC_INTERN PetscErrorCode MatSeqAIJFormatSetCSRRows(Mat, PetscInt, PetscInt, const PetscInt *, const PetscInt *, const PetscScalar *);
PETSC_INTERN PetscErrorCode MatSeqAIJFormatSetCSREnd(Mat);
PETSC_INTERN PetscErrorCode MatSeqAIJFormatGetFormat(Mat, ELLGFormat *);
PETSC_INTERN PetscErrorCode MatSeqAIJFormatSync(Mat);
PETSC_INTERN PetscErrorCode MatSeqAIJFormatSyncForce(Mat);
PETSC_INTERN PetscErrorCode MatSeqAIJFormatWarm(Mat, PetscBool);
PETSC_INTERN void           MatSeqAIJFormatSetProductOps(Mat);
PETSC_INTERN void           MatSeqAIJFormatSetGraphOp(Mat);
PETSC_INTERN PetscErrorCode MatProductSetFromOptions_SeqAIJFormat_SeqDense(Mat);
PETSC_INTERN PetscErrorCode MatProductSetFromOptions_MPIAIJFormat_MPIDense(Mat);
PETSC_INTERN PetscErrorCode MatSeqAIJFormatComposeCoo(Mat, PetscBool);
PETSC_INTERN PetscErrorCode MatSeqAIJFormatUnpinCoo(Mat);
PETSC_INTERN PetscErrorCode MatSeqAIJFormatSetValuesCOOBackend(Mat, ELLGCoo, PetscCount, const PetscScalar[], const PetscScalar[], InsertMode);
PETSC_INTERN PetscErrorCode MatSeqAIJFormatShareCoo(Mat, Mat);
PETSC_INTERN PetscErrorCode MatGetFactor_SeqAIJFormat_ELLG(Mat, MatFactorType, Mat *);
PETSC_INTERN PetscErrorCode MatELLGFactorRemoveFunctions(Mat);
