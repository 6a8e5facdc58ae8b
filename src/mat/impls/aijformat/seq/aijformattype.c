/*
   Our sequential types as PETSc sees them: a SeqAIJ matrix converted in place (and back), its operations, options,
   view, duplicate and destroy; the stored format and the products are aijformat.c's.
*/
#include "../aijformat.h"

/* our options in a block of their own (MatELLGOptionsTitle()): SeqAIJ's creation has printed the -help block of
   the Mat class's title before MatSetFromOptions() runs, which then prints nothing under that title */
static PetscErrorCode MatSetFromOptions_SeqAIJFormat(Mat A, ELLG_OPTION_ITEMS aijitems)
{
  Mat_SeqAIJFormat *e = (Mat_SeqAIJFormat *)A->spptr;
  char              title[128];

  PetscFunctionBegin;
  if (e->aijops.setfromoptions) PetscCall(e->aijops.setfromoptions(A, aijitems));
  PetscCall(MatELLGOptionsTitle(A, title, sizeof(title)));
  MatELLGOptionsBegin(A, title);
  if (e->choice) PetscCall(MatSeqAIJGPUChoiceSetFromOptions(e->choice, PetscOptionsObject, &e->built)); /* the format's options are read as it is chosen */
  else {
    ELLGFormat     before; /* the options before: a format whose options change is rebuilt at its next use */
    PetscErrorCode ierr;

    PetscCall(ELLGFormatCreate(e->fmt->ops, e->fmt->backend, &before));
    PetscCall(ELLGFormatCopyParameters(e->fmt, before));
    ierr = ELLGFormatSetFromOptions(e->fmt, PetscOptionsObject); /* a wrong value errors: before is freed first */
    if (!ierr && !ELLGFormatSameParameters(before, e->fmt)) e->built = PETSC_FALSE;
    PetscCall(ELLGFormatDestroy(&before));
    PetscCall(ierr);
  }
  PetscCall(MatELLGValuePrecisionOption(A, PetscOptionsObject));
  PetscCall(MatSeqAIJFormatSorOptions(A, PetscOptionsObject));
  PetscOptionsEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the info lines of the stored format (ASCII viewer) */
PetscErrorCode MatSeqAIJFormatViewFormat(Mat A, PetscViewer viewer)
{
  Mat_SeqAIJFormat *e = (Mat_SeqAIJFormat *)A->spptr;

  PetscFunctionBegin;
  if (A->assembled) PetscCall(MatSeqAIJFormatSync(A));
  if (e->choice) PetscCall(MatSeqAIJGPUChoiceView(e->choice, viewer));
  if (e->built) PetscCall(ELLGFormatView(e->fmt, viewer));
  else PetscCall(PetscViewerASCIIPrintf(viewer, "format: %s (%s at its first use on the device after assembly)\n", e->choice ? "chosen" : e->fmt->ops->name, e->choice ? "chosen and built" : "built"));
  PetscCall(MatSeqAIJFormatViewSor(A, viewer));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatView_SeqAIJFormat(Mat A, PetscViewer viewer)
{
  Mat_SeqAIJFormat *e = (Mat_SeqAIJFormat *)A->spptr;
  PetscBool         ascii;
  PetscViewerFormat format;

  PetscFunctionBegin;
  PetscCall(e->aijops.view(A, viewer));
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &ascii));
  if (!ascii) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscViewerGetFormat(viewer, &format));
  if (format != PETSC_VIEWER_ASCII_INFO && format != PETSC_VIEWER_ASCII_INFO_DETAIL) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscViewerASCIIPushTab(viewer));
  PetscCall(MatSeqAIJFormatViewFormat(A, viewer));
  PetscCall(PetscViewerASCIIPopTab(viewer));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the duplicate's format is built at its first use on the backend, not at once: PCGAMG duplicates the operator for its
   graph, which only the host's coarsening reads */
static PetscErrorCode MatDuplicate_SeqAIJFormat(Mat A, MatDuplicateOption op, Mat *B)
{
  Mat_SeqAIJFormat *e = (Mat_SeqAIJFormat *)A->spptr;

  PetscFunctionBegin;
  PetscCall(e->aijops.duplicate(A, op, B)); /* creates *B with this type, then copies the AIJ data */
  PetscCall(MatSeqAIJFormatCopyParameters(e->fmt, *B));
  if (e->choice) PetscCall(MatSeqAIJGPUChoiceCopy(e->choice, *B));
  PetscCall(MatSeqAIJFormatShareCoo(A, *B));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatELLGGetBackend_SeqAIJFormat(Mat A, PetscELLGBackend *backend)
{
  PetscFunctionBegin;
  *backend = ((Mat_SeqAIJFormat *)A->spptr)->fmt->backend;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatELLGGetFormat_SeqAIJFormat(Mat A, const char **format, PetscLogDouble *bytes, PetscLogDouble *updatebytes)
{
  Mat_SeqAIJFormat *e = (Mat_SeqAIJFormat *)A->spptr;
  double            b, csr;

  PetscFunctionBegin;
  PetscCall(MatSeqAIJFormatSync(A));
  ELLGFormatGetBytes(e->fmt, &b, &csr);
  *format      = e->fmt->ops->name;
  *bytes       = (PetscLogDouble)b;
  *updatebytes = (PetscLogDouble)ELLGFormatUpdateBytes(e->fmt);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatAIJGPUSetFormat_SeqAIJFormat(Mat A, MatAIJGPUFormat format)
{
  Mat_SeqAIJFormat *e = (Mat_SeqAIJFormat *)A->spptr;

  PetscFunctionBegin;
  PetscCall(MatSeqAIJGPUChoiceSetMode(e->choice, format, &e->built));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* another precision than before: the format is built again at its next use */
static PetscErrorCode MatGPUSetValuePrecision_SeqAIJFormat(Mat A, MatGPUValuePrecision precision)
{
  Mat_SeqAIJFormat *e      = (Mat_SeqAIJFormat *)A->spptr;
  const PetscBool   single = (PetscBool)(precision == MAT_GPU_VALUES_SINGLE);

  PetscFunctionBegin;
  PetscCheck(precision == MAT_GPU_VALUES_DOUBLE || precision == MAT_GPU_VALUES_SINGLE, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Not a MatGPUValuePrecision: %d", (int)precision);
  if (e->fmt->single != single) e->built = PETSC_FALSE;
  e->fmt->single = single;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatGPUGetValuePrecision_SeqAIJFormat(Mat A, MatGPUValuePrecision *precision)
{
  PetscFunctionBegin;
  *precision = ((Mat_SeqAIJFormat *)A->spptr)->fmt->single ? MAT_GPU_VALUES_SINGLE : MAT_GPU_VALUES_DOUBLE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* SeqAIJ's submatrices (MatCreateSubMatrix(), the blocks of PCASM), of A's value precision */
static PetscErrorCode MatCreateSubMatrices_SeqAIJFormat(Mat A, PetscInt n, const IS irow[], const IS icol[], MatReuse reuse, Mat *B[])
{
  Mat_SeqAIJFormat *e = (Mat_SeqAIJFormat *)A->spptr;

  PetscFunctionBegin;
  PetscCall(e->aijops.createsubmatrices(A, n, irow, icol, reuse, B));
  for (PetscInt i = 0; reuse == MAT_INITIAL_MATRIX && i < n; i++) PetscCall(MatELLGInheritValuePrecision(A, (*B)[i]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatConvert_SeqAIJFormat_SeqAIJ(Mat, MatType, MatReuse, Mat *);

static PetscErrorCode MatSeqAIJFormatComposeConvert(Mat A, const char *from, const char *to, PetscErrorCode (*f)(Mat, MatType, MatReuse, Mat *))
{
  char name[256];

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(name, sizeof(name), "MatConvert_%s_%s_C", from, to));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, name, f));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MatConvert() finds conversions composed on either matrix: ours to seqaij, seqaij to ours (by
   type and by root name), ours to other types as SeqAIJ's; products with matrices of other types
   find SeqAIJ's (by the anytype handler) */
static PetscErrorCode MatSeqAIJFormatComposeConverts(Mat A, const MatELLGFormatEntry *entry, PetscBool compose)
{
  PetscFunctionBegin;
  PetscCall(MatSeqAIJFormatComposeConvert(A, entry->seqtype, MATSEQAIJ, compose ? MatConvert_SeqAIJFormat_SeqAIJ : NULL));
  PetscCall(MatSeqAIJFormatComposeConvert(A, MATSEQAIJ, entry->seqtype, compose ? MatConvert_SeqAIJ_SeqAIJFormat : NULL));
  PetscCall(MatSeqAIJFormatComposeConvert(A, MATSEQAIJ, entry->root, compose ? MatConvert_SeqAIJ_SeqAIJFormat : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatELLGGetBackend_C", compose ? MatELLGGetBackend_SeqAIJFormat : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatELLGGetFormat_C", compose ? MatELLGGetFormat_SeqAIJFormat : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatAIJGPUSetFormat_C", compose && entry->choose ? MatAIJGPUSetFormat_SeqAIJFormat : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatGPUSetValuePrecision_C", compose ? MatGPUSetValuePrecision_SeqAIJFormat : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatGPUGetValuePrecision_C", compose ? MatGPUGetValuePrecision_SeqAIJFormat : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatProductSetFromOptions_anytype_C", compose ? MatProductSetFromOptions_ELLGAnytype : NULL));
  PetscCall(MatELLGComposeBaseConverts(A, MATSEQAIJ, entry->seqtype, compose));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the operations our types replace (in MatConvertInPlace_SeqAIJ_SeqAIJFormat()) */
#define MAT_SEQAIJFORMAT_OPS(OP) OP(assemblyend) OP(mult) OP(multadd) OP(multtranspose) OP(multtransposeadd) OP(getdiagonal) OP(setfromoptions) OP(view) OP(duplicate) OP(destroy) OP(lufactor) OP(ilufactor) OP(productsetfromoptions) OP(sor) OP(axpy) OP(setoption) OP(transpose) OP(creategraph) OP(createsubmatrices)

static PetscErrorCode MatDestroy_SeqAIJFormat(Mat);

/*
   back to plain SeqAIJ: gives back SeqAIJ's operations where ours are, keeping those that other code
   set since (PETSc's submatrices replace the destroy, and keep ours to call it), and frees the
   stored format. If our destroy is kept elsewhere, SeqAIJ's is composed for it to find.
*/
static PetscErrorCode MatSeqAIJFormatRevert(Mat A)
{
  Mat_SeqAIJFormat *e = (Mat_SeqAIJFormat *)A->spptr;
  PetscBool         kept;

  PetscFunctionBegin;
  PetscCall(MatSeqAIJFormatComposeConverts(A, e->entry, PETSC_FALSE));
  PetscCall(MatSeqAIJFormatUnpinCoo(A));
  PetscCall(MatSeqAIJFormatComposeCoo(A, PETSC_FALSE));
  PetscCall(ELLGFormatDestroy(&e->fmt));
  PetscCall(MatSeqAIJGPUChoiceDestroy(&e->choice));
  PetscCall(ELLGSorDestroy(&e->sor));
  PetscCall(MatSeqAIJFormatTransposeDestroy(&e->transpose));
  for (PetscInt i = 0; i < 4; i++) PetscCall(VecDestroy(&e->work[i / 2][i % 2]));
  kept = (PetscBool)(A->ops->destroy != MatDestroy_SeqAIJFormat);
#define MAT_SEQAIJFORMAT_RESTORE(op) \
  if (A->ops->op == e->formatops.op) A->ops->op = e->aijops.op;
  MAT_SEQAIJFORMAT_OPS(MAT_SEQAIJFORMAT_RESTORE)
#undef MAT_SEQAIJFORMAT_RESTORE
  if (kept) PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatDestroy_SeqAIJFormat_Base_C", e->aijops.destroy));
  PetscCall(PetscFree(A->spptr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* also called, through a pointer kept by other code, for a matrix that is SeqAIJ again */
static PetscErrorCode MatDestroy_SeqAIJFormat(Mat A)
{
  PetscErrorCode (*destroy)(Mat) = NULL;

  PetscFunctionBegin;
  if (A->spptr) {
    destroy = ((Mat_SeqAIJFormat *)A->spptr)->aijops.destroy;
    PetscCall(MatSeqAIJFormatRevert(A));
  } else PetscCall(PetscObjectQueryFunction((PetscObject)A, "MatDestroy_SeqAIJFormat_Base_C", &destroy));
  PetscCheck(destroy, PETSC_COMM_SELF, PETSC_ERR_PLIB, "No SeqAIJ destroy for a matrix that is no longer of a PETSc-ELLG type");
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatDestroy_SeqAIJFormat_Base_C", NULL));
  PetscCall((*destroy)(A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatConvert_SeqAIJFormat_SeqAIJ(Mat A, MatType type, MatReuse reuse, Mat *B)
{
  PetscFunctionBegin;
  if (reuse == MAT_REUSE_MATRIX) {
    PetscCall(MatCopy(A, *B, SAME_NONZERO_PATTERN));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (reuse == MAT_INITIAL_MATRIX) PetscCall(MatDuplicate(A, MAT_COPY_VALUES, B));
  else *B = A;
  PetscCall(MatSeqAIJFormatRevert(*B));
  MatELLGSetBoundToCPU(*B, PETSC_TRUE);
  PetscCall(PetscFree((*B)->defaultvectype));
  PetscCall(PetscStrallocpy(VECSTANDARD, &(*B)->defaultvectype));
  PetscCall(PetscObjectChangeTypeName((PetscObject)*B, MATSEQAIJ));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   in-place LU and ILU(0): SeqAIJ's factor A in its own arrays and keep A's operations (LU merges the factor's header
   into A), which would leave ours on a SeqAIJ factor; a factor is not stored in the format, so A becomes SeqAIJ first
*/
static PetscErrorCode MatSeqAIJFormatFactorInPlace(Mat A, PetscBool ilu, IS row, IS col, const MatFactorInfo *info)
{
  PetscFunctionBegin;
  PetscCall(PetscInfo(A, "In-place %s factorization: the matrix becomes %s\n", ilu ? "ILU" : "LU", MATSEQAIJ));
  PetscCall(MatConvert(A, MATSEQAIJ, MAT_INPLACE_MATRIX, &A));
  if (ilu) PetscUseTypeMethod(A, ilufactor, row, col, info);
  else PetscUseTypeMethod(A, lufactor, row, col, info);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatLUFactor_SeqAIJFormat(Mat A, IS row, IS col, const MatFactorInfo *info)
{
  PetscFunctionBegin;
  PetscCall(MatSeqAIJFormatFactorInPlace(A, PETSC_FALSE, row, col, info));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatILUFactor_SeqAIJFormat(Mat A, IS row, IS col, const MatFactorInfo *info)
{
  PetscFunctionBegin;
  PetscCall(MatSeqAIJFormatFactorInPlace(A, PETSC_TRUE, row, col, info));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* turns the SeqAIJ matrix A into the given format type, in place, with the format options of
   params (if not NULL). An assembled matrix is stored in the format at its first use on the backend, as a
   duplicate is: SeqAIJ's MatTranspose() makes the transpose as SeqAIJ and then sets its type, and PCGAMG's
   graph symmetrization only adds the transpose of its graph to the graph on the host */
PetscErrorCode MatConvertInPlace_SeqAIJ_SeqAIJFormat(Mat A, MatType type, ELLGFormat params)
{
  const MatELLGFormatEntry *entry;
  Mat_SeqAIJFormat         *e;
  PetscELLGBackend          be;
  VecType                   vtype;

  PetscFunctionBegin;
  PetscCall(MatELLGFormatFind(type, &entry));
  PetscCall(PetscELLGGetBackend_Private(&be));
  PetscCall(PetscNew(&e));
  e->entry = entry;
  PetscCall(PetscMemcpy(&e->aijops, A->ops, sizeof(struct _MatOps)));
  PetscCall(ELLGFormatCreate(entry->ops, be, &e->fmt));
  if (params) PetscCall(ELLGFormatCopyParameters(params, e->fmt));
  if (entry->choose) PetscCall(MatSeqAIJGPUChoiceCreate(&e->choice));
  A->spptr = e;

  MatSeqAIJFormatSetProductOps(A);
  A->ops->setfromoptions   = MatSetFromOptions_SeqAIJFormat;
  A->ops->view             = MatView_SeqAIJFormat;
  A->ops->duplicate        = MatDuplicate_SeqAIJFormat;
  A->ops->destroy          = MatDestroy_SeqAIJFormat;
  A->ops->lufactor         = MatLUFactor_SeqAIJFormat;
  A->ops->ilufactor        = MatILUFactor_SeqAIJFormat;
  A->ops->productsetfromoptions = MatProductSetFromOptions_SeqAIJFormat;
  A->ops->sor                   = MatSOR_SeqAIJFormat;
  A->ops->axpy                  = MatAXPY_SeqAIJFormat;
  A->ops->setoption             = MatSetOption_SeqAIJFormat;
  A->ops->transpose             = MatTranspose_SeqAIJFormat;
  A->ops->createsubmatrices     = MatCreateSubMatrices_SeqAIJFormat;
  MatSeqAIJFormatSetGraphOp(A);
  PetscCall(PetscMemcpy(&e->formatops, A->ops, sizeof(struct _MatOps)));
  MatELLGSetBoundToCPU(A, PETSC_FALSE);

  PetscCall(PetscFree(A->defaultvectype));
  PetscCall(PetscELLGDefaultVecType(be, &vtype));
  PetscCall(PetscStrallocpy(vtype, &A->defaultvectype));
  PetscCall(MatSeqAIJFormatComposeConverts(A, entry, PETSC_TRUE));
  PetscCall(MatSeqAIJFormatComposeCoo(A, PETSC_TRUE));
  PetscCall(PetscObjectChangeTypeName((PetscObject)A, entry->seqtype));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MatConvert from SeqAIJ (or any of our seq types, through their AIJ data) to a format type */
PetscErrorCode MatConvert_SeqAIJ_SeqAIJFormat(Mat A, MatType type, MatReuse reuse, Mat *B)
{
  Mat T;

  PetscFunctionBegin;
  PetscCall(MatELLGConvertTarget(A, reuse, B, &T));
  if (T) PetscCall(MatConvertInPlace_SeqAIJ_SeqAIJFormat(T, type, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatCreate_SeqAIJFormat(Mat A, MatType type)
{
  PetscErrorCode (*create)(Mat);

  PetscFunctionBegin;
  PetscCall(PetscFunctionListFind(MatList, MATSEQAIJ, &create));
  PetscCheck(create, PETSC_COMM_SELF, PETSC_ERR_PLIB, "MATSEQAIJ is not registered");
  PetscCall((*create)(A));
  PetscCall(MatConvertInPlace_SeqAIJ_SeqAIJFormat(A, type, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}
