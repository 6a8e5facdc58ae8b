/*
   Parallel types: MPIAIJ whose diagonal and off-diagonal blocks are of the matching seq format
   type, so both local products run in the format, with a halo exchange of our own (halo.c) for
   device vectors: the ghost values are gathered on the device and exchanged while the diagonal
   block's product runs, then the off-diagonal block's product adds in. Vectors of other types
   take MPIAIJ's products, whose VecScatter works on host arrays.
*/
#include "../aijformat.h"
#include "halo.h"
#include "mpicoo.h"

typedef struct {
  const MatELLGFormatEntry *entry;
  ELLGFormat                params[2]; /* never built: the format options of the diagonal and off-diagonal blocks (compressed rows) */
  MatSeqAIJGPUChoice        choice;    /* MATMPIAIJGPU: how the blocks choose their formats; NULL for the types of one format */
  PetscELLGBackend          backend;
  PetscBool                 gpu_aware; /* option: MPI takes device buffers */
  PetscBool                 overlap;   /* option: the diagonal block's product runs during the exchange */
  ELLGHalo                  halo;      /* the exchange of the pattern of nzstate, NULL until the first product */
  PetscObjectState          nzstate;
  Vec                       ghosts;    /* the ghost values (forward) or the ghost part of A^T x (reverse) */
  PetscErrorCode (*assemblyend)(Mat, MatAssemblyType);
  PetscErrorCode (*setfromoptions)(Mat, ELLG_OPTION_ITEMS);
  PetscErrorCode (*view)(Mat, PetscViewer);
  PetscErrorCode (*destroy)(Mat);
  PetscErrorCode (*mult)(Mat, Vec, Vec);
  PetscErrorCode (*multadd)(Mat, Vec, Vec, Vec);
  PetscErrorCode (*multtranspose)(Mat, Vec, Vec);
  PetscErrorCode (*multtransposeadd)(Mat, Vec, Vec, Vec);
  PetscErrorCode (*preallocationcoo)(Mat, PetscCount, PetscInt[], PetscInt[]); /* MPIAIJ's COO functions */
  PetscErrorCode (*setvaluescoo)(Mat, const PetscScalar[], InsertMode);
  PetscErrorCode (*productsetfromoptions)(Mat); /* MPIAIJ's, for products of matrices of our type */
  PetscErrorCode (*createsubmatrix)(Mat, IS, IS, MatReuse, Mat *);
  PetscErrorCode (*duplicate)(Mat, MatDuplicateOption, Mat *);
  PetscErrorCode (*setoption)(Mat, MatOption, PetscBool);
  PetscBool ignoreoffproc; /* MAT_IGNORE_OFF_PROC_ENTRIES, which MPIAIJ's COO preallocation follows */
} Mat_MPIAIJFormat;

/* the blocks, when they are of the format type (after the first final assembly) */
static PetscErrorCode MatMPIAIJFormatGetBlocks(Mat A, Mat blocks[2], PetscBool *ours)
{
  Mat_MPIAIJFormat *e = (Mat_MPIAIJFormat *)A->spptr;
  PetscBool         same;

  PetscFunctionBegin;
  *ours = PETSC_FALSE;
  if (!A->preallocated) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatMPIAIJGetSeqAIJ(A, &blocks[0], &blocks[1], NULL));
  PetscCall(PetscObjectTypeCompare((PetscObject)blocks[0], e->entry->seqtype, ours));
  PetscCall(PetscObjectTypeCompare((PetscObject)blocks[1], e->entry->seqtype, &same));
  *ours = (PetscBool)(*ours && same);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the blocks of an assembled matrix, those not of the format type yet turned into it */
static PetscErrorCode MatMPIAIJFormatConvertBlocks(Mat A)
{
  Mat_MPIAIJFormat *e = (Mat_MPIAIJFormat *)A->spptr;
  Mat               blocks[2];
  PetscBool         same;

  PetscFunctionBegin;
  PetscCall(MatMPIAIJGetSeqAIJ(A, &blocks[0], &blocks[1], NULL));
  for (PetscInt b = 0; b < 2; b++) {
    PetscCall(PetscObjectTypeCompare((PetscObject)blocks[b], e->entry->seqtype, &same));
    if (same) continue;
    PetscCall(MatConvertInPlace_SeqAIJ_SeqAIJFormat(blocks[b], e->entry->seqtype, e->params[b]));
    if (e->choice) PetscCall(MatSeqAIJGPUChoiceCopy(e->choice, blocks[b]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MPIAIJ creates its blocks as SEQAIJ (at preallocation, and anew when it disassembles):
   after each final assembly, blocks of another type are turned into the format type */
static PetscErrorCode MatAssemblyEnd_MPIAIJFormat(Mat A, MatAssemblyType type)
{
  Mat_MPIAIJFormat *e = (Mat_MPIAIJFormat *)A->spptr;

  PetscFunctionBegin;
  PetscCall(e->assemblyend(A, type));
  if (type == MAT_FLUSH_ASSEMBLY) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatMPIAIJFormatConvertBlocks(A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* COO assembly: MPIAIJ's preallocation (the blocks' patterns, with the entries of other processes sent to their owners)
   and our map of the entries beside it (mpicoo.c), through which the values are summed in the backend's memory into the
   blocks' formats (host values copied there first); a matrix bound to the CPU takes MPIAIJ's code, which sums on the
   host into the blocks (whose formats take the values at their next use) */
static PetscErrorCode MatSetPreallocationCOO_MPIAIJFormat(Mat A, PetscCount ncoo, PetscInt coo_i[], PetscInt coo_j[])
{
  Mat_MPIAIJFormat *e = (Mat_MPIAIJFormat *)A->spptr;
  PetscInt         *ci, *cj;
  PetscErrorCode    ierr;

  PetscFunctionBegin;
  PetscCall(MatMPIAIJFormatCooShare(NULL, A)); /* no map until the new one is made */
  PetscCall(PetscMalloc2(ncoo, &ci, ncoo, &cj)); /* MPIAIJ changes the arrays */
  PetscCall(PetscArraycpy(ci, coo_i, ncoo));
  PetscCall(PetscArraycpy(cj, coo_j, ncoo));
  ierr = e->preallocationcoo(A, ncoo, coo_i, coo_j);
  if (!ierr) ierr = MatMPIAIJFormatConvertBlocks(A);
  if (!ierr) ierr = MatMPIAIJFormatCooCreate(A, e->backend, e->ignoreoffproc, ncoo, ci, cj);
  PetscCall(PetscFree2(ci, cj));
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatSetValuesCOO_MPIAIJFormat(Mat A, const PetscScalar v[], InsertMode imode)
{
  Mat_MPIAIJFormat *e = (Mat_MPIAIJFormat *)A->spptr;
  PetscScalar      *cv;
  PetscCount        ncoo;
  PetscBool         has, bound;
  PetscErrorCode    ierr;

  PetscFunctionBegin;
  PetscCheck(imode == ADD_VALUES || imode == INSERT_VALUES, PETSC_COMM_SELF, PETSC_ERR_SUP, "MatSetValuesCOO() takes INSERT_VALUES or ADD_VALUES");
  PetscCall(MatMPIAIJFormatCooGet(A, &has, &ncoo));
  PetscCall(MatELLGBoundToCPU(A, &bound));
  if (!has || bound) { /* the same on every process */
    PetscCall(PetscELLGCooHostValues(e->backend, ncoo, v, &cv));
    ierr = e->setvaluescoo(A, cv ? cv : v, imode);
    PetscCall(PetscFree(cv));
  } else {
    PetscCall(PetscELLGCooBackendValues(e->backend, ncoo, v, &cv));
    ierr = MatMPIAIJFormatCooSetValues(A, cv ? cv : v, imode);
    PetscCall(PetscELLGFree(e->backend, cv));
  }
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MPIAIJ's, which keeps MAT_IGNORE_OFF_PROC_ENTRIES where we cannot read it */
static PetscErrorCode MatSetOption_MPIAIJFormat(Mat A, MatOption op, PetscBool flg)
{
  Mat_MPIAIJFormat *e = (Mat_MPIAIJFormat *)A->spptr;

  PetscFunctionBegin;
  PetscCall(e->setoption(A, op, flg));
  if (op == MAT_IGNORE_OFF_PROC_ENTRIES) e->ignoreoffproc = flg;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the off-diagonal block takes the diagonal block's options, and stores only its nonempty rows when they are few */
static PetscErrorCode MatMPIAIJFormatOffDiagonalParameters(Mat_MPIAIJFormat *e)
{
  PetscFunctionBegin;
  PetscCall(ELLGFormatCopyParameters(e->params[0], e->params[1]));
  e->params[1]->compress_rows = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the option named name of the options database, else the deprecated one it replaces (no prefix: read at the
   creation, before the matrix has one) */
static PetscErrorCode MatMPIAIJFormatGetBool(Mat A, const char name[], const char deprecated[], PetscBool *flg)
{
  PetscBool set;

  PetscFunctionBegin;
  PetscCall(PetscOptionsGetBool(((PetscObject)A)->options, NULL, name, flg, &set));
  if (!set) PetscCall(PetscOptionsGetBool(((PetscObject)A)->options, NULL, deprecated, flg, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the blocks (those of our type yet) choose as the parent does */
static PetscErrorCode MatAIJGPUSetFormat_MPIAIJFormat(Mat A, MatAIJGPUFormat format)
{
  Mat_MPIAIJFormat *e = (Mat_MPIAIJFormat *)A->spptr;
  Mat               blocks[2];
  PetscBool         ours;

  PetscFunctionBegin;
  PetscCall(MatSeqAIJGPUChoiceSetMode(e->choice, format, NULL)); /* the parent stores no format */
  PetscCall(MatMPIAIJFormatGetBlocks(A, blocks, &ours));
  for (PetscInt b = 0; ours && b < 2; b++) PetscCall(MatSeqAIJGPUChoiceCopy(e->choice, blocks[b]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the precision of both blocks' values (their formats built again at their next use if it changes) */
static PetscErrorCode MatGPUSetValuePrecision_MPIAIJFormat(Mat A, MatGPUValuePrecision precision)
{
  Mat_MPIAIJFormat *e = (Mat_MPIAIJFormat *)A->spptr;
  Mat               blocks[2];
  PetscBool         ours;

  PetscFunctionBegin;
  PetscCheck(precision == MAT_GPU_VALUES_DOUBLE || precision == MAT_GPU_VALUES_SINGLE, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Not a MatGPUValuePrecision: %d", (int)precision);
  for (PetscInt b = 0; b < 2; b++) e->params[b]->single = (PetscBool)(precision == MAT_GPU_VALUES_SINGLE);
  PetscCall(MatMPIAIJFormatGetBlocks(A, blocks, &ours));
  for (PetscInt b = 0; ours && b < 2; b++) PetscCall(MatGPUSetValuePrecision(blocks[b], precision));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatGPUGetValuePrecision_MPIAIJFormat(Mat A, MatGPUValuePrecision *precision)
{
  PetscFunctionBegin;
  *precision = ((Mat_MPIAIJFormat *)A->spptr)->params[0]->single ? MAT_GPU_VALUES_SINGLE : MAT_GPU_VALUES_DOUBLE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the symbolic phase of a product that PETSc's MPIAIJ code makes from matrices of our type (PtAP, AB, ...: GAMG's and
   Galerkin multigrid's coarse operators): MPIAIJ's (composed on C), then C takes the value precision of the product's
   A, as the products of our seq types do */
static PetscErrorCode MatProductSymbolic_MPIAIJFormat(Mat C)
{
  PetscErrorCode (*symbolic)(Mat) = NULL;

  PetscFunctionBegin;
  PetscCall(PetscObjectQueryFunction((PetscObject)C, "MatProductSymbolic_MPIAIJFormat_Base_C", &symbolic));
  PetscCheck(symbolic, PetscObjectComm((PetscObject)C), PETSC_ERR_PLIB, "No symbolic phase of the product");
  PetscCall(PetscObjectComposeFunction((PetscObject)C, "MatProductSymbolic_MPIAIJFormat_Base_C", NULL));
  PetscCall((*symbolic)(C));
  PetscCall(MatELLGInheritValuePrecision(C->product->A, C));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the products of matrices of our type: MPIAIJ's, their results of A's value precision */
static PetscErrorCode MatProductSetFromOptions_MPIAIJFormat(Mat C)
{
  Mat_MPIAIJFormat *e = (Mat_MPIAIJFormat *)C->product->A->spptr;

  PetscFunctionBegin;
  PetscCall((*e->productsetfromoptions)(C));
  if (!C->ops->productsymbolic) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscObjectComposeFunction((PetscObject)C, "MatProductSymbolic_MPIAIJFormat_Base_C", C->ops->productsymbolic));
  C->ops->productsymbolic = MatProductSymbolic_MPIAIJFormat;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MPIAIJ's submatrix (PCGAMG's coarse operators moved to fewer processes), of A's value precision */
static PetscErrorCode MatCreateSubMatrix_MPIAIJFormat(Mat A, IS isrow, IS iscol, MatReuse reuse, Mat *B)
{
  Mat_MPIAIJFormat *e = (Mat_MPIAIJFormat *)A->spptr;

  PetscFunctionBegin;
  PetscCall((*e->createsubmatrix)(A, isrow, iscol, reuse, B));
  if (reuse == MAT_INITIAL_MATRIX) PetscCall(MatELLGInheritValuePrecision(A, *B));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MPIAIJ's duplicate, of A's value precision (its blocks, our seq types' duplicates, have it already) */
static PetscErrorCode MatDuplicate_MPIAIJFormat(Mat A, MatDuplicateOption op, Mat *B)
{
  Mat_MPIAIJFormat *e = (Mat_MPIAIJFormat *)A->spptr;

  PetscFunctionBegin;
  PetscCall((*e->duplicate)(A, op, B));
  PetscCall(MatELLGInheritValuePrecision(A, *B));
  PetscCall(MatMPIAIJFormatCooShare(A, *B)); /* as MPIAIJ's duplicate shares its COO map */
  ((Mat_MPIAIJFormat *)(*B)->spptr)->ignoreoffproc = e->ignoreoffproc;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* our options in a block of their own, as the seq types' (MatSetFromOptions_SeqAIJFormat()) */
static PetscErrorCode MatSetFromOptions_MPIAIJFormat(Mat A, ELLG_OPTION_ITEMS aijitems)
{
  Mat_MPIAIJFormat *e = (Mat_MPIAIJFormat *)A->spptr;
  Mat               blocks[2];
  PetscBool         ours;
  char              title[128];

  PetscFunctionBegin;
  if (e->setfromoptions) PetscCall(e->setfromoptions(A, aijitems));
  PetscCall(MatELLGOptionsTitle(A, title, sizeof(title)));
  MatELLGOptionsBegin(A, title);
  if (e->choice) PetscCall(MatSeqAIJGPUChoiceSetFromOptions(e->choice, PetscOptionsObject, NULL)); /* the blocks read their format's */
  else PetscCall(ELLGFormatSetFromOptions(e->params[0], PetscOptionsObject));
  PetscCall(MatMPIAIJFormatOffDiagonalParameters(e));
  PetscCall(MatELLGValuePrecisionOption(A, PetscOptionsObject));
  PetscCall(PetscOptionsDeprecated("-ellg_gpu_aware_mpi", "-mat_gpu_aware_mpi", "0.2.0", NULL));
  PetscCall(PetscOptionsDeprecated("-ellg_halo_overlap", "-mat_gpu_halo_overlap", "0.2.0", NULL));
  PetscCall(PetscOptionsBool("-mat_gpu_aware_mpi", "MPI takes device buffers in the halo exchange (CUDA-aware MPI)", "MatMult", e->gpu_aware, &e->gpu_aware, NULL));
  PetscCall(PetscOptionsBool("-mat_gpu_halo_overlap", "Multiply by the diagonal block during the halo exchange", "MatMult", e->overlap, &e->overlap, NULL));
  PetscOptionsEnd();
  if (e->halo) PetscCall(ELLGHaloSetGPUAware(e->halo, e->gpu_aware));
  PetscCall(MatMPIAIJFormatGetBlocks(A, blocks, &ours));
  for (PetscInt b = 0; ours && b < 2; b++) {
    PetscCall(MatSeqAIJFormatCopyParameters(e->params[b], blocks[b]));
    if (e->choice) PetscCall(MatSeqAIJGPUChoiceCopy(e->choice, blocks[b]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the exchange of the current nonzero pattern (collective: the parent's nonzero state is the same on every rank) */
static PetscErrorCode MatMPIAIJFormatGetHalo(Mat A, ELLGHalo *halo)
{
  Mat_MPIAIJFormat *e = (Mat_MPIAIJFormat *)A->spptr;
  Mat               Ao;
  const PetscInt   *garray;

  PetscFunctionBegin;
  if (!e->halo || e->nzstate != A->nonzerostate) {
    PetscCall(ELLGHaloDestroy(&e->halo));
    PetscCall(VecDestroy(&e->ghosts));
    PetscCall(MatMPIAIJGetSeqAIJ(A, NULL, &Ao, &garray));
    PetscCall(ELLGHaloCreate(PetscObjectComm((PetscObject)A), e->backend, A->cmap, Ao->cmap->n, garray, &e->halo));
    PetscCall(ELLGHaloSetGPUAware(e->halo, e->gpu_aware));
    PetscCall(VecCreateSeqGPU_Private(Ao->cmap->n, &e->ghosts));
    e->nzstate = A->nonzerostate;
  }
  *halo = e->halo;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* whether the products can run through our exchange: blocks of the format, and parallel vectors whose
   values are in the matrix's backend (ours of that backend, or PETSc's CUDA vectors for cuda) */
static PetscErrorCode MatMPIAIJFormatUsesHalo(Mat A, Vec x, Vec z, Vec y, PetscBool *ours)
{
  Mat_MPIAIJFormat *e    = (Mat_MPIAIJFormat *)A->spptr;
  Vec               v[3] = {x, z, y};
  Mat               blocks[2];

  PetscFunctionBegin;
  PetscCall(MatMPIAIJFormatGetBlocks(A, blocks, ours));
  for (PetscInt k = 0; k < 3 && *ours; k++) {
    if (!v[k]) continue;
    PetscCall(PetscObjectTypeCompareAny((PetscObject)v[k], ours, VECMPIGPU, VECMPICUDA, ""));
    if (*ours) PetscCall(VecGPUInBackend(v[k], e->backend, ours));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y = A x + z (z may be NULL or y): the diagonal block's product during the exchange, then the off-diagonal block's */
static PetscErrorCode MatMultAddHalo_MPIAIJFormat(Mat A, Vec x, Vec z, Vec y)
{
  Mat_MPIAIJFormat  *e = (Mat_MPIAIJFormat *)A->spptr;
  Mat                Ad, Ao;
  ELLGHalo           halo;
  const PetscScalar *px;
  PetscScalar       *pg;

  PetscFunctionBegin;
  PetscCall(MatMPIAIJGetSeqAIJ(A, &Ad, &Ao, NULL));
  PetscCall(MatMPIAIJFormatGetHalo(A, &halo));
  PetscCall(VecGPUGetBackendArray(x, ELLG_ACCESS_READ, (PetscScalar **)&px));
  PetscCall(ELLGHaloForwardBegin(halo, px));
  PetscCall(VecGPURestoreBackendArray(x, ELLG_ACCESS_READ, (PetscScalar **)&px));
  PetscCall(VecGPUGetArrayWrite(e->ghosts, &pg));
  if (!e->overlap) PetscCall(ELLGHaloForwardEnd(halo, pg));
  if (z) PetscCall((*Ad->ops->multadd)(Ad, x, z, y));
  else PetscCall((*Ad->ops->mult)(Ad, x, y));
  if (e->overlap) PetscCall(ELLGHaloForwardEnd(halo, pg));
  PetscCall(VecGPURestoreArrayWrite(e->ghosts, &pg));
  if (Ao->cmap->n) PetscCall((*Ao->ops->multadd)(Ao, e->ghosts, y, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y = A^T x + z (z may be NULL or y): the off-diagonal block's part goes back to its owners during the diagonal block's product */
static PetscErrorCode MatMultTransposeAddHalo_MPIAIJFormat(Mat A, Vec x, Vec z, Vec y)
{
  Mat_MPIAIJFormat  *e = (Mat_MPIAIJFormat *)A->spptr;
  Mat                Ad, Ao;
  ELLGHalo           halo;
  const PetscScalar *pg;
  PetscScalar       *py;

  PetscFunctionBegin;
  PetscCall(MatMPIAIJGetSeqAIJ(A, &Ad, &Ao, NULL));
  PetscCall(MatMPIAIJFormatGetHalo(A, &halo));
  if (Ao->cmap->n) PetscCall((*Ao->ops->multtranspose)(Ao, x, e->ghosts));
  PetscCall(VecGPUGetArrayRead(e->ghosts, &pg));
  if (e->overlap) PetscCall(ELLGHaloReverseBegin(halo, pg));
  if (z) PetscCall((*Ad->ops->multtransposeadd)(Ad, x, z, y));
  else PetscCall((*Ad->ops->multtranspose)(Ad, x, y));
  if (!e->overlap) PetscCall(ELLGHaloReverseBegin(halo, pg));
  PetscCall(VecGPUGetBackendArray(y, ELLG_ACCESS_READ_WRITE, &py));
  PetscCall(ELLGHaloReverseEnd(halo, py));
  PetscCall(VecGPURestoreBackendArray(y, ELLG_ACCESS_READ_WRITE, &py));
  PetscCall(VecGPURestoreArrayRead(e->ghosts, &pg));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y = op(A) x + z (z may be NULL or y) for op = identity or transpose: through our exchange, or MPIAIJ's product */
static PetscErrorCode MatMPIAIJFormatProduct(Mat A, Vec x, Vec z, Vec y, PetscBool trans)
{
  Mat_MPIAIJFormat *e = (Mat_MPIAIJFormat *)A->spptr;
  PetscBool         ours;

  PetscFunctionBegin;
  PetscCall(MatMPIAIJFormatUsesHalo(A, x, z, y, &ours));
  if (ours && trans) PetscCall(MatMultTransposeAddHalo_MPIAIJFormat(A, x, z, y));
  else if (ours) PetscCall(MatMultAddHalo_MPIAIJFormat(A, x, z, y));
  else if (trans) PetscCall(z ? e->multtransposeadd(A, x, z, y) : e->multtranspose(A, x, y));
  else PetscCall(z ? e->multadd(A, x, z, y) : e->mult(A, x, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatMult_MPIAIJFormat(Mat A, Vec x, Vec y)
{
  PetscFunctionBegin;
  PetscCall(MatMPIAIJFormatProduct(A, x, NULL, y, PETSC_FALSE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatMultAdd_MPIAIJFormat(Mat A, Vec x, Vec z, Vec y)
{
  PetscFunctionBegin;
  PetscCall(MatMPIAIJFormatProduct(A, x, z, y, PETSC_FALSE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatMultTranspose_MPIAIJFormat(Mat A, Vec x, Vec y)
{
  PetscFunctionBegin;
  PetscCall(MatMPIAIJFormatProduct(A, x, NULL, y, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatMultTransposeAdd_MPIAIJFormat(Mat A, Vec x, Vec z, Vec y)
{
  PetscFunctionBegin;
  PetscCall(MatMPIAIJFormatProduct(A, x, z, y, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MPIAIJ's view, and for ASCII info the stored format of the first rank's blocks */
static PetscErrorCode MatView_MPIAIJFormat(Mat A, PetscViewer viewer)
{
  Mat_MPIAIJFormat *e        = (Mat_MPIAIJFormat *)A->spptr;
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
      PetscCall(MatSeqAIJFormatViewFormat(blocks[b], sv));
      PetscCall(PetscViewerASCIIPopTab(sv));
    }
    if (e->halo) PetscCall(ELLGHaloView(e->halo, sv));
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

/* the diagonal block's format, and the bytes of both blocks */
static PetscErrorCode MatELLGGetFormat_MPIAIJFormat(Mat A, const char **format, PetscLogDouble *bytes, PetscLogDouble *updatebytes)
{
  Mat            blocks[2];
  PetscLogDouble b, u;
  PetscBool      ours;

  PetscFunctionBegin;
  PetscCall(MatMPIAIJFormatGetBlocks(A, blocks, &ours));
  PetscCheck(ours, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "The blocks are not stored in the format yet");
  *bytes = *updatebytes = 0;
  for (PetscInt k = 1; k >= 0; k--) {
    PetscCall(MatELLGGetFormat(blocks[k], format, &b, &u));
    *bytes += b;
    *updatebytes += u;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatConvert_MPIAIJ_MPIAIJFormat(Mat, MatType, MatReuse, Mat *);

/* the conversions from MPIAIJ to the type (by its mpi and root names), found on a matrix of the type */
static PetscErrorCode MatMPIAIJFormatComposeConverts(Mat A, const MatELLGFormatEntry *entry, PetscBool compose)
{
  const char *names[2] = {entry->mpitype, entry->root};
  char        name[256];

  PetscFunctionBegin;
  for (PetscInt k = 0; k < 2; k++) {
    PetscCall(PetscSNPrintf(name, sizeof(name), "MatConvert_%s_%s_C", MATMPIAIJ, names[k]));
    PetscCall(PetscObjectComposeFunction((PetscObject)A, name, compose ? MatConvert_MPIAIJ_MPIAIJFormat : NULL));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatDestroy_MPIAIJFormat(Mat A)
{
  Mat_MPIAIJFormat *e = (Mat_MPIAIJFormat *)A->spptr;

  PetscFunctionBegin;
  A->ops->destroy = e->destroy;
  PetscCall(ELLGFormatDestroy(&e->params[0]));
  PetscCall(ELLGFormatDestroy(&e->params[1]));
  PetscCall(MatSeqAIJGPUChoiceDestroy(&e->choice));
  PetscCall(ELLGHaloDestroy(&e->halo));
  PetscCall(VecDestroy(&e->ghosts));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatELLGGetBackend_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatELLGGetFormat_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatAIJGPUSetFormat_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatGPUSetValuePrecision_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatGPUGetValuePrecision_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatProductSetFromOptions_anytype_C", NULL));
  PetscCall(MatELLGComposeBaseConverts(A, MATMPIAIJ, e->entry->mpitype, PETSC_FALSE));
  PetscCall(MatMPIAIJFormatComposeConverts(A, e->entry, PETSC_FALSE));
  PetscCall(PetscFree(A->spptr));
  PetscCall((*A->ops->destroy)(A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* turns an MPIAIJ matrix into the format type, keeping MPIAIJ's data; the blocks of an assembled one at once */
static PetscErrorCode MatConvertInPlace_MPIAIJ_MPIAIJFormat(Mat A, MatType type)
{
  Mat_MPIAIJFormat *e;
  PetscELLGBackend  be;
  VecType           vtype;

  PetscFunctionBegin;
  PetscCall(PetscELLGGetBackend_Private(&be)); /* fails early, on every rank, for an unusable backend */
  PetscCall(PetscNew(&e));
  PetscCall(MatELLGFormatFind(type, &e->entry));
  PetscCall(ELLGFormatCreate(e->entry->ops, be, &e->params[0]));
  PetscCall(ELLGFormatCreate(e->entry->ops, be, &e->params[1]));
  if (e->entry->choose) PetscCall(MatSeqAIJGPUChoiceCreate(&e->choice));
  PetscCall(MatMPIAIJFormatOffDiagonalParameters(e));
  e->backend = be;
  e->overlap = PETSC_TRUE;
  PetscCall(MatMPIAIJFormatGetBool(A, "-mat_gpu_aware_mpi", "-ellg_gpu_aware_mpi", &e->gpu_aware));
  PetscCall(MatMPIAIJFormatGetBool(A, "-mat_gpu_halo_overlap", "-ellg_halo_overlap", &e->overlap));
  e->assemblyend           = A->ops->assemblyend;
  e->setfromoptions        = A->ops->setfromoptions;
  e->view                  = A->ops->view;
  e->destroy               = A->ops->destroy;
  e->mult                  = A->ops->mult;
  e->multadd               = A->ops->multadd;
  e->multtranspose         = A->ops->multtranspose;
  e->multtransposeadd      = A->ops->multtransposeadd;
  e->productsetfromoptions = A->ops->productsetfromoptions;
  e->createsubmatrix       = A->ops->createsubmatrix;
  e->duplicate             = A->ops->duplicate;
  e->setoption             = A->ops->setoption;
  A->spptr                 = e;
  A->ops->assemblyend      = MatAssemblyEnd_MPIAIJFormat;
  A->ops->setfromoptions   = MatSetFromOptions_MPIAIJFormat;
  A->ops->view             = MatView_MPIAIJFormat;
  A->ops->destroy          = MatDestroy_MPIAIJFormat;
  A->ops->mult             = MatMult_MPIAIJFormat;
  A->ops->multadd          = MatMultAdd_MPIAIJFormat;
  A->ops->multtranspose    = MatMultTranspose_MPIAIJFormat;
  A->ops->multtransposeadd = MatMultTransposeAdd_MPIAIJFormat;
  A->ops->productsetfromoptions = MatProductSetFromOptions_MPIAIJFormat;
  A->ops->createsubmatrix       = MatCreateSubMatrix_MPIAIJFormat;
  A->ops->duplicate             = MatDuplicate_MPIAIJFormat;
  A->ops->setoption             = MatSetOption_MPIAIJFormat;
  MatELLGSetBoundToCPU(A, PETSC_FALSE);
  PetscCall(PetscFree(A->defaultvectype));
  PetscCall(PetscELLGDefaultVecType(e->backend, &vtype));
  PetscCall(PetscStrallocpy(vtype, &A->defaultvectype));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatELLGGetBackend_C", MatELLGGetBackend_MPIAIJFormat));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatELLGGetFormat_C", MatELLGGetFormat_MPIAIJFormat));
  if (e->choice) PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatAIJGPUSetFormat_C", MatAIJGPUSetFormat_MPIAIJFormat));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatGPUSetValuePrecision_C", MatGPUSetValuePrecision_MPIAIJFormat));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatGPUGetValuePrecision_C", MatGPUGetValuePrecision_MPIAIJFormat));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatProductSetFromOptions_anytype_C", MatProductSetFromOptions_ELLGAnytype));
  PetscCall(PetscObjectQueryFunction((PetscObject)A, "MatSetPreallocationCOO_C", &e->preallocationcoo));
  PetscCall(PetscObjectQueryFunction((PetscObject)A, "MatSetValuesCOO_C", &e->setvaluescoo));
  PetscCheck(e->preallocationcoo && e->setvaluescoo, PETSC_COMM_SELF, PETSC_ERR_PLIB, "MPIAIJ has no COO functions");
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatSetPreallocationCOO_C", MatSetPreallocationCOO_MPIAIJFormat));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatSetValuesCOO_C", MatSetValuesCOO_MPIAIJFormat));
  PetscCall(MatELLGComposeBaseConverts(A, MATMPIAIJ, e->entry->mpitype, PETSC_TRUE));
  PetscCall(MatMPIAIJFormatComposeConverts(A, e->entry, PETSC_TRUE));
  PetscCall(PetscObjectChangeTypeName((PetscObject)A, e->entry->mpitype));
  if (A->assembled) PetscCall(MatMPIAIJFormatConvertBlocks(A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MPIAIJ to a format type: in place (MatSetType() on an assembled MPIAIJ matrix) keeps MPIAIJ's data, as
   MatUpdateMPIAIJWithArray() needs */
static PetscErrorCode MatConvert_MPIAIJ_MPIAIJFormat(Mat A, MatType type, MatReuse reuse, Mat *B)
{
  Mat T;

  PetscFunctionBegin;
  PetscCall(MatELLGConvertTarget(A, reuse, B, &T));
  if (T) PetscCall(MatConvertInPlace_MPIAIJ_MPIAIJFormat(T, type));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatCreate_MPIAIJFormat(Mat A, MatType type)
{
  PetscErrorCode (*create)(Mat);

  PetscFunctionBegin;
  PetscCall(PetscFunctionListFind(MatList, MATMPIAIJ, &create));
  PetscCheck(create, PETSC_COMM_SELF, PETSC_ERR_PLIB, "MATMPIAIJ is not registered");
  PetscCall((*create)(A));
  PetscCall(MatConvertInPlace_MPIAIJ_MPIAIJFormat(A, type));
  PetscFunctionReturn(PETSC_SUCCESS);
}
