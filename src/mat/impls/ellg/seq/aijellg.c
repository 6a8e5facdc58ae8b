/*
   Sequential AIJ subclass whose products run in a GPU storage format.

   The host AIJ arrays are the master copy. MatAssemblyEnd(MAT_FINAL_ASSEMBLY) builds the format
   (or, when the nonzero pattern is unchanged, only updates its values); before each device
   operation the object state is compared with the one the format matches, so that changes made
   through any AIJ operation (MatScale, MatShift, MatZeroRows, MatSeqAIJGetArray, ...) reach the
   device without overriding each of them.
*/
#include "../aijellg.h"

/* ellg pads every row to the longest of its rows (but the long ones split out): more than this many times the
   bytes of CSR tells that another type suits the matrix; the line on stderr is for matrices of at least
   MAT_ELLG_PADDING_WARN_MB (a tiny matrix takes more than that ratio for the alignment of its columns alone) */
#define MAT_ELLG_PADDING_WARN    4.0
#define MAT_ELLG_PADDING_WARN_MB 1.0

/* after a build of ellg: one line on the process's stderr (not PETSC_STDERR, which -error_output_stdout sends to
   stdout: a warning, not an error) for the first matrix of the process that takes more than
   MAT_ELLG_PADDING_WARN times the bytes of CSR and at least MAT_ELLG_PADDING_WARN_MB, naming the type to use
   (pjds where the longest row is many times the mean, else slicedell), and PetscInfo for each over the ratio */
static PetscErrorCode MatSeqAIJELLGCheckPadding(Mat A, PetscInt m, const PetscInt *ai)
{
  static PetscBool warned = PETSC_FALSE;
  Mat_SeqAIJELLG  *e      = (Mat_SeqAIJELLG *)A->spptr;
  PetscInt         maxlen = 0;
  double           bytes, csr;
  const char      *other;

  PetscFunctionBegin;
  if (e->choice || e->fmt->ops != &ELLGFormatOps_ELLG) PetscFunctionReturn(PETSC_SUCCESS);
  ELLGFormatGetBytes(e->fmt, &bytes, &csr);
  if (!(csr > 0 && bytes > MAT_ELLG_PADDING_WARN * csr)) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt i = 0; i < m; i++) maxlen = PetscMax(maxlen, ai[i + 1] - ai[i]);
  other = (double)maxlen > 16.0 * (double)ai[m] / (double)PetscMax(m, 1) ? MATPJDS : MATSLICEDELL;
  PetscCall(PetscInfo(A, "ellg stores %.1f times the bytes of CSR (%.3g MB): -mat_type %s would store it closer to CSR\n", bytes / csr, bytes / 1048576.0, other));
  if (!warned && bytes >= MAT_ELLG_PADDING_WARN_MB * 1048576.0) {
    warned = PETSC_TRUE;
    PetscCall(PetscFPrintf(PETSC_COMM_SELF, stderr, "WARNING: type ellg stores %.1f times the bytes of CSR for a %" PetscInt_FMT " x %" PetscInt_FMT " matrix (%.3g MB): use -mat_type %s\n", bytes / csr, m, A->cmap->n, bytes / 1048576.0, other));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatSeqAIJELLGSyncForce(Mat A)
{
  Mat_SeqAIJELLG    *e = (Mat_SeqAIJELLG *)A->spptr;
  const PetscInt    *ai, *aj;
  const PetscScalar *aa;
  PetscInt           m;
  PetscBool          done;
  PetscErrorCode     ierr;

  PetscFunctionBegin;
  PetscCall(MatSeqAIJGetArrayRead(A, &aa));
  PetscCall(MatGetRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &m, &ai, &aj, &done));
  PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Cannot get the CSR structure of the matrix");
  if (!aa && ai[m]) { /* a structure without values (MatTransposeSymbolic(), symbolic products): nothing to store yet */
    e->built = PETSC_FALSE;
    PetscCall(MatRestoreRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &m, &ai, &aj, &done));
    PetscCall(MatSeqAIJRestoreArrayRead(A, &aa));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  /* the sizes too: MPIAIJ renumbers the columns of its off-diagonal block in place. A build or update that
     fails (out of device memory) leaves the matrix to be built at its next use: a failed build frees all
     the format stored, a failed update keeps the old values on the device */
  if (e->built && A->nonzerostate == e->nzstate && e->fmt->n == A->cmap->n && e->fmt->nnz == ai[m]) {
    PetscCall(PetscLogEventBegin(ELLG_UpdateValues, A, 0, 0, 0));
    ierr = ELLGFormatUpdateValues(e->fmt, ai, aa);
    PetscCall(PetscLogEventEnd(ELLG_UpdateValues, A, 0, 0, 0));
  } else {
    e->built = PETSC_FALSE;
    PetscCall(PetscLogEventBegin(ELLG_Build, A, 0, 0, 0));
    ierr = MatSeqAIJELLGBuildFormat(A, m, A->cmap->n, ai, aj, aa);
    PetscCall(PetscLogEventEnd(ELLG_Build, A, 0, 0, 0));
    if (!ierr) {
      PetscCall(PetscInfo(A, "Built %s for %" PetscInt_FMT " x %" PetscInt_FMT " with %" PetscInt_FMT " nonzeros: %.3g MB in the %s backend\n", e->fmt->ops->name, m, A->cmap->n, e->fmt->nnz, (double)e->fmt->bytes / 1048576.0, PetscELLGBackends[e->fmt->backend]));
      e->nzstate = A->nonzerostate;
      e->built   = PETSC_TRUE;
      ierr       = MatSeqAIJELLGCheckPadding(A, m, ai);
    }
  }
  PetscCall(MatRestoreRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &m, &ai, &aj, &done));
  PetscCall(MatSeqAIJRestoreArrayRead(A, &aa));
  PetscCall(ierr);
  e->state = ((PetscObject)A)->state;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* makes the stored format match the host AIJ matrix, if it does not already */
static PetscErrorCode MatSeqAIJELLGSync(Mat A)
{
  Mat_SeqAIJELLG  *e     = (Mat_SeqAIJELLG *)A->spptr;
  PetscObjectState state = ((PetscObject)A)->state;

  PetscFunctionBegin;
  if (!(e->built && (state == e->state || (e->assembled && state == e->state + 1)))) PetscCall(MatSeqAIJELLGSyncForce(A));
  PetscCheck(e->built, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "The matrix has a nonzero structure but no values yet (a symbolic result): compute its values first");
  e->state     = ((PetscObject)A)->state;
  e->assembled = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the stored format of A, made to match the host AIJ matrix first: for the products of other files */
PetscErrorCode MatSeqAIJELLGGetFormat(Mat A, ELLGFormat *fmt)
{
  PetscFunctionBegin;
  PetscCall(MatSeqAIJELLGSync(A));
  *fmt = ((Mat_SeqAIJELLG *)A->spptr)->fmt;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatAssemblyEnd_SeqAIJELLG(Mat A, MatAssemblyType type)
{
  Mat_SeqAIJELLG *e = (Mat_SeqAIJELLG *)A->spptr;

  PetscFunctionBegin;
  PetscCall(e->aijops.assemblyend(A, type));
  if (type == MAT_FLUSH_ASSEMBLY) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatSeqAIJELLGSyncForce(A));
  e->assembled = PETSC_TRUE; /* MatAssemblyEnd() increases the state once more after this */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the input vector x in the backend's memory: its own array (our vectors of the matrix's backend,
   PETSc's CUDA vectors for cuda), or a copy in a work vector */
PetscErrorCode MatSeqAIJELLGGetInput(Mat A, Vec x, Vec *xb, const PetscScalar **px)
{
  Mat_SeqAIJELLG *e = (Mat_SeqAIJELLG *)A->spptr;
  PetscInt        n;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(x, &n));
  PetscCall(VecGPUGetBackendStandIn(x, e->fmt->backend, PETSC_TRUE, &e->work[0][n == A->rmap->n ? 0 : 1], xb));
  PetscCall(VecGPUGetBackendArray(*xb, ELLG_ACCESS_READ, (PetscScalar **)px));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the output vector y in the backend's memory; keep says whether its values are read (y += ...) */
PetscErrorCode MatSeqAIJELLGGetOutput(Mat A, Vec y, PetscBool keep, Vec *yb, PetscScalar **py)
{
  Mat_SeqAIJELLG *e = (Mat_SeqAIJELLG *)A->spptr;
  PetscInt        n;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(y, &n));
  PetscCall(VecGPUGetBackendStandIn(y, e->fmt->backend, keep, &e->work[1][n == A->rmap->n ? 0 : 1], yb));
  PetscCall(VecGPUGetBackendArray(*yb, keep ? ELLG_ACCESS_READ_WRITE : ELLG_ACCESS_WRITE, py));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatSeqAIJELLGRestoreOutput(Vec y, PetscBool keep, Vec yb, PetscScalar **py)
{
  PetscFunctionBegin;
  PetscCall(VecGPURestoreBackendArray(yb, keep ? ELLG_ACCESS_READ_WRITE : ELLG_ACCESS_WRITE, py));
  if (yb != y) PetscCall(VecCopy(yb, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y = op(A) x + z for op = identity or transpose; z may be NULL or y */
static PetscErrorCode MatMultAddKernel_SeqAIJELLG(Mat A, Vec x, Vec z, Vec y, PetscBool trans)
{
  Mat_SeqAIJELLG    *e     = (Mat_SeqAIJELLG *)A->spptr;
  PetscLogEvent      event = trans ? (z ? ELLG_MultTAdd : ELLG_MultT) : (z ? ELLG_MultAdd : ELLG_Mult);
  const PetscScalar *px;
  PetscScalar       *py;
  Vec                xb, yb;
  PetscBool          bound, keep;
  ELLGCsrMat         T = NULL; /* A^T stored explicitly (MAT_FORM_EXPLICIT_TRANSPOSE) */

  PetscFunctionBegin;
  PetscCall(MatELLGBoundToCPU(A, &bound));
  if (bound) { /* MatBindToCPU(): SeqAIJ's products on the host copy */
    if (trans) PetscCall(z ? e->aijops.multtransposeadd(A, x, z, y) : e->aijops.multtranspose(A, x, y));
    else PetscCall(z ? e->aijops.multadd(A, x, z, y) : e->aijops.mult(A, x, y));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (trans) PetscCall(MatSeqAIJELLGGetExplicitTranspose(A, &T));
  if (!T) PetscCall(MatSeqAIJELLGSync(A)); /* the explicit transpose comes from the host AIJ data, not the format */
  keep = (PetscBool)(z || (trans && !T)); /* the transposed kernels add into y */
  if (z && z != y) PetscCall(VecCopy(z, y));
  else if (!z && keep) PetscCall(VecSet(y, 0.0));
  PetscCall(PetscLogEventBegin(event, A, x, y, 0));
  PetscCall(MatSeqAIJELLGGetInput(A, x, &xb, &px));
  PetscCall(MatSeqAIJELLGGetOutput(A, y, keep, &yb, &py));
  if (T) PetscCall(ELLGCsrMatMultAdd(T, px, z ? py : NULL, py));
  else if (trans) PetscCall(ELLGFormatMultTransposeAdd(e->fmt, px, py));
  else PetscCall(ELLGFormatMult(e->fmt, px, z ? py : NULL, py));
  PetscCall(VecGPURestoreBackendArray(xb, ELLG_ACCESS_READ, (PetscScalar **)&px));
  PetscCall(MatSeqAIJELLGRestoreOutput(y, keep, yb, &py));
  PetscCall(PetscLogFlops(2.0 * e->fmt->nnz - (z ? 0 : e->fmt->nzrows)));
  PetscCall(PetscELLGLogSynchronize(e->fmt->backend));
  PetscCall(PetscLogEventEnd(event, A, x, y, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatMult_SeqAIJELLG(Mat A, Vec x, Vec y)
{
  PetscFunctionBegin;
  PetscCall(MatMultAddKernel_SeqAIJELLG(A, x, NULL, y, PETSC_FALSE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatMultAdd_SeqAIJELLG(Mat A, Vec x, Vec z, Vec y)
{
  PetscFunctionBegin;
  PetscCall(MatMultAddKernel_SeqAIJELLG(A, x, z, y, PETSC_FALSE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatMultTranspose_SeqAIJELLG(Mat A, Vec x, Vec y)
{
  PetscFunctionBegin;
  PetscCall(MatMultAddKernel_SeqAIJELLG(A, x, NULL, y, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatMultTransposeAdd_SeqAIJELLG(Mat A, Vec x, Vec z, Vec y)
{
  PetscFunctionBegin;
  PetscCall(MatMultAddKernel_SeqAIJELLG(A, x, z, y, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatGetDiagonal_SeqAIJELLG(Mat A, Vec d)
{
  Mat_SeqAIJELLG *e = (Mat_SeqAIJELLG *)A->spptr;
  PetscScalar    *pd;
  Vec             db;
  PetscInt        n;
  PetscBool       bound;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(d, &n));
  PetscCheck(n == A->rmap->n, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "Nonconforming matrix and vector: %" PetscInt_FMT " rows, vector of length %" PetscInt_FMT, A->rmap->n, n);
  PetscCall(MatELLGBoundToCPU(A, &bound));
  if (!bound) PetscCall(MatSeqAIJELLGSync(A)); /* bound to the CPU: the format is not needed */
  if (bound || e->fmt->rows) { /* bound to the CPU, or compressed rows (an off-diagonal block: the format cannot tell the diagonal) */
    PetscCall(e->aijops.getdiagonal(A, d));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscLogEventBegin(ELLG_GetDiagonal, A, d, 0, 0));
  PetscCall(MatSeqAIJELLGGetOutput(A, d, PETSC_FALSE, &db, &pd));
  PetscCall(ELLGFormatGetDiagonal(e->fmt, pd));
  PetscCall(MatSeqAIJELLGRestoreOutput(d, PETSC_FALSE, db, &pd));
  PetscCall(PetscELLGLogSynchronize(e->fmt->backend));
  PetscCall(PetscLogEventEnd(ELLG_GetDiagonal, A, d, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatSetFromOptions_SeqAIJELLG(Mat A, ELLG_OPTION_ITEMS PetscOptionsObject)
{
  Mat_SeqAIJELLG *e = (Mat_SeqAIJELLG *)A->spptr;

  PetscFunctionBegin;
  if (e->aijops.setfromoptions) PetscCall(e->aijops.setfromoptions(A, PetscOptionsObject));
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
  PetscCall(MatSeqAIJELLGSorOptions(A, PetscOptionsObject));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the info lines of the stored format (ASCII viewer) */
PetscErrorCode MatSeqAIJELLGViewFormat(Mat A, PetscViewer viewer)
{
  Mat_SeqAIJELLG *e = (Mat_SeqAIJELLG *)A->spptr;

  PetscFunctionBegin;
  if (A->assembled) PetscCall(MatSeqAIJELLGSync(A));
  if (e->choice) PetscCall(MatSeqAIJGPUChoiceView(e->choice, viewer));
  if (e->built) PetscCall(ELLGFormatView(e->fmt, viewer));
  else PetscCall(PetscViewerASCIIPrintf(viewer, "format: %s (%s at final assembly)\n", e->choice ? "chosen" : e->fmt->ops->name, e->choice ? "chosen and built" : "built"));
  PetscCall(MatSeqAIJELLGViewSor(A, viewer));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatView_SeqAIJELLG(Mat A, PetscViewer viewer)
{
  Mat_SeqAIJELLG   *e = (Mat_SeqAIJELLG *)A->spptr;
  PetscBool         ascii;
  PetscViewerFormat format;

  PetscFunctionBegin;
  PetscCall(e->aijops.view(A, viewer));
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &ascii));
  if (!ascii) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscViewerGetFormat(viewer, &format));
  if (format != PETSC_VIEWER_ASCII_INFO && format != PETSC_VIEWER_ASCII_INFO_DETAIL) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscViewerASCIIPushTab(viewer));
  PetscCall(MatSeqAIJELLGViewFormat(A, viewer));
  PetscCall(PetscViewerASCIIPopTab(viewer));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* gives the seq matrix B the format options of fmt; a stored format whose options change is rebuilt at its next use */
PetscErrorCode MatSeqAIJELLGCopyParameters(ELLGFormat fmt, Mat B)
{
  Mat_SeqAIJELLG *b = (Mat_SeqAIJELLG *)B->spptr;

  PetscFunctionBegin;
  if (ELLGFormatSameParameters(fmt, b->fmt)) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(ELLGFormatCopyParameters(fmt, b->fmt));
  b->built = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatDuplicate_SeqAIJELLG(Mat A, MatDuplicateOption op, Mat *B)
{
  Mat_SeqAIJELLG *e = (Mat_SeqAIJELLG *)A->spptr;

  PetscFunctionBegin;
  PetscCall(e->aijops.duplicate(A, op, B)); /* creates *B with this type, then copies the AIJ data */
  PetscCall(MatSeqAIJELLGCopyParameters(e->fmt, *B));
  if (e->choice) PetscCall(MatSeqAIJGPUChoiceCopy(e->choice, *B));
  if ((*B)->assembled) PetscCall(MatSeqAIJELLGSyncForce(*B));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatELLGGetBackend_SeqAIJELLG(Mat A, PetscELLGBackend *backend)
{
  PetscFunctionBegin;
  *backend = ((Mat_SeqAIJELLG *)A->spptr)->fmt->backend;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatELLGGetFormat_SeqAIJELLG(Mat A, const char **format, PetscLogDouble *bytes, PetscLogDouble *updatebytes)
{
  Mat_SeqAIJELLG *e = (Mat_SeqAIJELLG *)A->spptr;
  double          b, csr;

  PetscFunctionBegin;
  PetscCall(MatSeqAIJELLGSync(A));
  ELLGFormatGetBytes(e->fmt, &b, &csr);
  *format      = e->fmt->ops->name;
  *bytes       = (PetscLogDouble)b;
  *updatebytes = (PetscLogDouble)ELLGFormatUpdateBytes(e->fmt);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatConvert_SeqAIJFormat_SeqAIJ(Mat, MatType, MatReuse, Mat *);

static PetscErrorCode MatSeqAIJELLGComposeConvert(Mat A, const char *from, const char *to, PetscErrorCode (*f)(Mat, MatType, MatReuse, Mat *))
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
static PetscErrorCode MatSeqAIJELLGComposeConverts(Mat A, const MatELLGFormatEntry *entry, PetscBool compose)
{
  PetscFunctionBegin;
  PetscCall(MatSeqAIJELLGComposeConvert(A, entry->seqtype, MATSEQAIJ, compose ? MatConvert_SeqAIJFormat_SeqAIJ : NULL));
  PetscCall(MatSeqAIJELLGComposeConvert(A, MATSEQAIJ, entry->seqtype, compose ? MatConvert_SeqAIJ_SeqAIJFormat : NULL));
  PetscCall(MatSeqAIJELLGComposeConvert(A, MATSEQAIJ, entry->root, compose ? MatConvert_SeqAIJ_SeqAIJFormat : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatELLGGetBackend_C", compose ? MatELLGGetBackend_SeqAIJELLG : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatELLGGetFormat_C", compose ? MatELLGGetFormat_SeqAIJELLG : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatProductSetFromOptions_anytype_C", compose ? MatProductSetFromOptions_ELLGAnytype : NULL));
  PetscCall(MatELLGComposeBaseConverts(A, MATSEQAIJ, entry->seqtype, compose));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the operations our types replace (in MatConvertInPlace_SeqAIJ_SeqAIJFormat()) */
#define MAT_SEQAIJELLG_OPS(OP) OP(assemblyend) OP(mult) OP(multadd) OP(multtranspose) OP(multtransposeadd) OP(getdiagonal) OP(setfromoptions) OP(view) OP(duplicate) OP(destroy) OP(lufactor) OP(productsetfromoptions) OP(sor) OP(axpy) OP(setoption)

static PetscErrorCode MatDestroy_SeqAIJELLG(Mat);

/*
   back to plain SeqAIJ: gives back SeqAIJ's operations where ours are, keeping those that other code
   set since (PETSc's submatrices replace the destroy, and keep ours to call it), and frees the
   stored format. If our destroy is kept elsewhere, SeqAIJ's is composed for it to find.
*/
static PetscErrorCode MatSeqAIJELLGRevert(Mat A)
{
  Mat_SeqAIJELLG *e = (Mat_SeqAIJELLG *)A->spptr;
  PetscBool       kept;

  PetscFunctionBegin;
  PetscCall(MatSeqAIJELLGComposeConverts(A, e->entry, PETSC_FALSE));
  PetscCall(ELLGFormatDestroy(&e->fmt));
  PetscCall(MatSeqAIJGPUChoiceDestroy(&e->choice));
  PetscCall(ELLGSorDestroy(&e->sor));
  PetscCall(MatSeqAIJELLGTransposeDestroy(&e->transpose));
  for (PetscInt i = 0; i < 4; i++) PetscCall(VecDestroy(&e->work[i / 2][i % 2]));
  kept = (PetscBool)(A->ops->destroy != MatDestroy_SeqAIJELLG);
#define MAT_SEQAIJELLG_RESTORE(op) \
  if (A->ops->op == e->ellgops.op) A->ops->op = e->aijops.op;
  MAT_SEQAIJELLG_OPS(MAT_SEQAIJELLG_RESTORE)
#undef MAT_SEQAIJELLG_RESTORE
  if (kept) PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatDestroy_SeqAIJELLG_Base_C", e->aijops.destroy));
  PetscCall(PetscFree(A->spptr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* also called, through a pointer kept by other code, for a matrix that is SeqAIJ again */
static PetscErrorCode MatDestroy_SeqAIJELLG(Mat A)
{
  PetscErrorCode (*destroy)(Mat) = NULL;

  PetscFunctionBegin;
  if (A->spptr) {
    destroy = ((Mat_SeqAIJELLG *)A->spptr)->aijops.destroy;
    PetscCall(MatSeqAIJELLGRevert(A));
  } else PetscCall(PetscObjectQueryFunction((PetscObject)A, "MatDestroy_SeqAIJELLG_Base_C", &destroy));
  PetscCheck(destroy, PETSC_COMM_SELF, PETSC_ERR_PLIB, "No SeqAIJ destroy for a matrix that is no longer %s", MATSEQAIJELLG);
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatDestroy_SeqAIJELLG_Base_C", NULL));
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
  PetscCall(MatSeqAIJELLGRevert(*B));
  MatELLGSetBoundToCPU(*B, PETSC_TRUE);
  PetscCall(PetscFree((*B)->defaultvectype));
  PetscCall(PetscStrallocpy(VECSTANDARD, &(*B)->defaultvectype));
  PetscCall(PetscObjectChangeTypeName((PetscObject)*B, MATSEQAIJ));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   in-place LU: SeqAIJ's merges the factor's header into A keeping A's operations, which would leave
   ours on a SeqAIJ factor; a factor is not stored in the format, so A becomes SeqAIJ first
*/
static PetscErrorCode MatLUFactor_SeqAIJELLG(Mat A, IS row, IS col, const MatFactorInfo *info)
{
  PetscFunctionBegin;
  PetscCall(PetscInfo(A, "In-place LU factorization: the matrix becomes %s\n", MATSEQAIJ));
  PetscCall(MatConvert(A, MATSEQAIJ, MAT_INPLACE_MATRIX, &A));
  PetscUseTypeMethod(A, lufactor, row, col, info);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* turns the SeqAIJ matrix A into the given format type, in place, with the format options of
   params (if not NULL); an assembled matrix is stored in the format at once */
PetscErrorCode MatConvertInPlace_SeqAIJ_SeqAIJFormat(Mat A, MatType type, ELLGFormat params)
{
  const MatELLGFormatEntry *entry;
  Mat_SeqAIJELLG           *e;
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

  A->ops->assemblyend      = MatAssemblyEnd_SeqAIJELLG;
  A->ops->mult             = MatMult_SeqAIJELLG;
  A->ops->multadd          = MatMultAdd_SeqAIJELLG;
  A->ops->multtranspose    = MatMultTranspose_SeqAIJELLG;
  A->ops->multtransposeadd = MatMultTransposeAdd_SeqAIJELLG;
  A->ops->getdiagonal      = MatGetDiagonal_SeqAIJELLG;
  A->ops->setfromoptions   = MatSetFromOptions_SeqAIJELLG;
  A->ops->view             = MatView_SeqAIJELLG;
  A->ops->duplicate        = MatDuplicate_SeqAIJELLG;
  A->ops->destroy          = MatDestroy_SeqAIJELLG;
  A->ops->lufactor         = MatLUFactor_SeqAIJELLG;
  A->ops->productsetfromoptions = MatProductSetFromOptions_SeqAIJELLG;
  A->ops->sor                   = MatSOR_SeqAIJELLG;
  A->ops->axpy                  = MatAXPY_SeqAIJELLG;
  A->ops->setoption             = MatSetOption_SeqAIJELLG;
  PetscCall(PetscMemcpy(&e->ellgops, A->ops, sizeof(struct _MatOps)));
  MatELLGSetBoundToCPU(A, PETSC_FALSE);

  PetscCall(PetscFree(A->defaultvectype));
  PetscCall(PetscELLGDefaultVecType(be, &vtype));
  PetscCall(PetscStrallocpy(vtype, &A->defaultvectype));
  PetscCall(MatSeqAIJELLGComposeConverts(A, entry, PETSC_TRUE));
  PetscCall(PetscObjectChangeTypeName((PetscObject)A, entry->seqtype));
  if (A->assembled) PetscCall(MatSeqAIJELLGSyncForce(A));
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
