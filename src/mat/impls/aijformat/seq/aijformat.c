/*
   Sequential AIJ subclass whose products run in a GPU storage format.

   The host AIJ arrays are the master copy. The format is built (or, when the nonzero pattern is
   unchanged, only its values updated) at the first device operation after an assembly, not at
   MatAssemblyEnd(): before each device operation the object state is compared with the one the
   format matches, so that assemblies and changes made through any AIJ operation (MatScale,
   MatShift, MatZeroRows, MatSeqAIJGetArray, ...) reach the device without overriding each of them,
   and a matrix that no device operation reads (the zeros a DM preallocates with, a graph or
   product only host code reads) is never stored in the format. A matrix assembled by the program
   (MatAssemblyEnd()) is an operator about to be used: the operations of a preconditioner's setup
   that read it (MatGetDiagonal(), its factorization) store it then, so that the solve does not.
*/
#include "../aijformat.h"

PetscErrorCode MatSeqAIJFormatSyncForce(Mat A)
{
  Mat_SeqAIJFormat  *e = (Mat_SeqAIJFormat *)A->spptr;
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
    PetscCall(PetscLogEventBegin(MATGPU_UpdateValues, A, 0, 0, 0));
    ierr = ELLGFormatUpdateValues(e->fmt, ai, aa);
    PetscCall(PetscLogEventEnd(MATGPU_UpdateValues, A, 0, 0, 0));
    if (!ierr) PetscCall(PetscInfo(A, "Updated the values of %s for %" PetscInt_FMT " x %" PetscInt_FMT " with %" PetscInt_FMT " nonzeros\n", e->fmt->ops->name, m, A->cmap->n, e->fmt->nnz));
  } else {
    e->built = PETSC_FALSE;
    PetscCall(PetscLogEventBegin(MATGPU_Build, A, 0, 0, 0));
    ierr = MatSeqAIJFormatBuildFormat(A, m, A->cmap->n, ai, aj, aa);
    PetscCall(PetscLogEventEnd(MATGPU_Build, A, 0, 0, 0));
    if (!ierr) {
      PetscCall(PetscInfo(A, "Built %s for %" PetscInt_FMT " x %" PetscInt_FMT " with %" PetscInt_FMT " nonzeros: %.3g MB in the %s backend\n", e->fmt->ops->name, m, A->cmap->n, e->fmt->nnz, (double)e->fmt->bytes / 1048576.0, PetscELLGBackends[e->fmt->backend]));
      e->nzstate = A->nonzerostate;
      e->built   = PETSC_TRUE;
    }
  }
  PetscCall(MatRestoreRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &m, &ai, &aj, &done));
  PetscCall(MatSeqAIJRestoreArrayRead(A, &aa));
  PetscCall(ierr);
  e->state   = ((PetscObject)A)->state;
  e->pending = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* whether the stored format matches the host AIJ matrix */
static inline PetscBool MatSeqAIJFormatCurrent(Mat A)
{
  Mat_SeqAIJFormat *e = (Mat_SeqAIJFormat *)A->spptr;

  return (PetscBool)(e->built && ((PetscObject)A)->state == e->state);
}

/* makes the stored format match the host AIJ matrix, if it does not already */
PetscErrorCode MatSeqAIJFormatSync(Mat A)
{
  Mat_SeqAIJFormat *e = (Mat_SeqAIJFormat *)A->spptr;

  PetscFunctionBegin;
  if (!MatSeqAIJFormatCurrent(A)) PetscCall(MatSeqAIJFormatSyncForce(A));
  PetscCheck(e->built, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "The matrix has a nonzero structure but no values yet (a symbolic result): compute its values first");
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   MatSeqAIJFormatWarm - the format made to match the host AIJ matrix ahead of its first use, where it has values:
   always, or (pending) only when the program assembled it since the format last matched (MatAssemblyEnd()); nothing
   for a matrix not of our seq types (a factor's numeric factorization may be given another)
*/
PetscErrorCode MatSeqAIJFormatWarm(Mat A, PetscBool pending)
{
  Mat_SeqAIJFormat *e = (Mat_SeqAIJFormat *)A->spptr;
  PetscBool         bound, seq, mpi;

  PetscFunctionBegin;
  PetscCall(MatELLGGetKind(A, &seq, &mpi));
  if (!seq) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatELLGBoundToCPU(A, &bound));
  if (bound || (pending && !e->pending) || MatSeqAIJFormatCurrent(A)) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatSeqAIJFormatSyncForce(A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The assembly MatSetValuesCOO() ends with keeps the format current when the values it summed in the backend's memory
   are stored (e->coostate): MatAssemblyEnd() increases the state once after this */
static PetscErrorCode MatAssemblyEnd_SeqAIJFormat(Mat A, MatAssemblyType type)
{
  Mat_SeqAIJFormat      *e     = (Mat_SeqAIJFormat *)A->spptr;
  const PetscObjectState state = ((PetscObject)A)->state;
  const PetscBool        coo   = (PetscBool)(e->coostate == state && MatSeqAIJFormatCurrent(A) && A->nonzerostate == e->nzstate);

  PetscFunctionBegin;
  e->coostate = 0;
  PetscCall(e->aijops.assemblyend(A, type));
  if (type == MAT_FINAL_ASSEMBLY) e->pending = PETSC_TRUE;
  if (coo && type == MAT_FINAL_ASSEMBLY && ((PetscObject)A)->state == state && A->nonzerostate == e->nzstate) {
    e->state   = state + 1;
    e->pending = PETSC_FALSE;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the stored format of A, made to match the host AIJ matrix first: for the products of other files */
PetscErrorCode MatSeqAIJFormatGetFormat(Mat A, ELLGFormat *fmt)
{
  PetscFunctionBegin;
  PetscCall(MatSeqAIJFormatSync(A));
  *fmt = ((Mat_SeqAIJFormat *)A->spptr)->fmt;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the input vector x in the backend's memory: its own array (our vectors of the matrix's backend,
   PETSc's CUDA vectors for cuda), or a copy in a work vector */
PetscErrorCode MatSeqAIJFormatGetInput(Mat A, Vec x, Vec *xb, const PetscScalar **px)
{
  Mat_SeqAIJFormat *e = (Mat_SeqAIJFormat *)A->spptr;
  PetscInt          n;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(x, &n));
  PetscCall(VecGPUGetBackendStandIn(x, e->fmt->backend, PETSC_TRUE, &e->work[0][n == A->rmap->n ? 0 : 1], xb));
  PetscCall(VecGPUGetBackendArray(*xb, ELLG_ACCESS_READ, (PetscScalar **)px));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the output vector y in the backend's memory; keep says whether its values are read (y += ...) */
PetscErrorCode MatSeqAIJFormatGetOutput(Mat A, Vec y, PetscBool keep, Vec *yb, PetscScalar **py)
{
  Mat_SeqAIJFormat *e = (Mat_SeqAIJFormat *)A->spptr;
  PetscInt          n;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(y, &n));
  PetscCall(VecGPUGetBackendStandIn(y, e->fmt->backend, keep, &e->work[1][n == A->rmap->n ? 0 : 1], yb));
  PetscCall(VecGPUGetBackendArray(*yb, keep ? ELLG_ACCESS_READ_WRITE : ELLG_ACCESS_WRITE, py));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatSeqAIJFormatRestoreOutput(Vec y, PetscBool keep, Vec yb, PetscScalar **py)
{
  PetscFunctionBegin;
  PetscCall(VecGPURestoreBackendArray(yb, keep ? ELLG_ACCESS_READ_WRITE : ELLG_ACCESS_WRITE, py));
  if (yb != y) PetscCall(VecCopy(yb, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y = op(A) x + z for op = identity or transpose; z may be NULL or y */
static PetscErrorCode MatMultAddKernel_SeqAIJFormat(Mat A, Vec x, Vec z, Vec y, PetscBool trans)
{
  Mat_SeqAIJFormat  *e     = (Mat_SeqAIJFormat *)A->spptr;
  PetscLogEvent      event = trans ? (z ? MATGPU_MultTAdd : MATGPU_MultT) : (z ? MATGPU_MultAdd : MATGPU_Mult);
  const PetscBool    plain = (PetscBool)(!z && !trans); /* A x alone */
  const PetscScalar *px;
  PetscScalar       *py;
  Vec                xb, yb;
  PetscBool          bound, keep;
  ELLGCsrMat         T     = NULL; /* A^T stored explicitly (MAT_FORM_EXPLICIT_TRANSPOSE) */

  PetscFunctionBegin;
  PetscCall(MatELLGBoundToCPU(A, &bound));
  if (bound) { /* MatBindToCPU(): SeqAIJ's products on the host copy */
    if (trans) PetscCall(z ? e->aijops.multtransposeadd(A, x, z, y) : e->aijops.multtranspose(A, x, y));
    else PetscCall(z ? e->aijops.multadd(A, x, z, y) : e->aijops.mult(A, x, y));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (trans && MatELLGKnownSymmetric(A)) trans = PETSC_FALSE; /* A^T x = A x */
  if (trans) PetscCall(MatSeqAIJFormatGetExplicitTranspose(A, &T));
  if (!T) PetscCall(MatSeqAIJFormatSync(A)); /* the explicit transpose comes from the host AIJ data, not the format */
  keep = (PetscBool)(z || (trans && !T)); /* the transposed kernels add into y */
  if (z && z != y) PetscCall(VecCopy(z, y));
  else if (!z && keep) PetscCall(VecSet(y, 0.0));
  PetscCall(PetscLogEventBegin(event, A, x, y, 0));
  PetscCall(MatSeqAIJFormatGetInput(A, x, &xb, &px));
  PetscCall(MatSeqAIJFormatGetOutput(A, y, keep, &yb, &py));
  PetscCall(PetscELLGLogGpuTimeBegin(e->fmt->backend));
  if (T) PetscCall(ELLGCsrMatMultAdd(T, px, z ? py : NULL, py));
  else if (trans) PetscCall(ELLGFormatMultTransposeAdd(e->fmt, px, py));
  else PetscCall(ELLGFormatMult(e->fmt, px, z ? py : NULL, py));
  PetscCall(PetscELLGLogGpuTimeEnd(e->fmt->backend));
  PetscCall(VecGPURestoreBackendArray(xb, ELLG_ACCESS_READ, (PetscScalar **)&px));
  PetscCall(MatSeqAIJFormatRestoreOutput(y, keep, yb, &py));
  /* the flops SeqAIJ's products log: 2 nnz, less a sum per nonempty row for A x alone */
  PetscCall(PetscELLGLogFlops(e->fmt->backend, 2.0 * e->fmt->nnz - (plain ? e->fmt->nzrows : 0)));
  PetscCall(PetscELLGLogSynchronize(e->fmt->backend));
  PetscCall(PetscLogEventEnd(event, A, x, y, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatMult_SeqAIJFormat(Mat A, Vec x, Vec y)
{
  PetscFunctionBegin;
  PetscCall(MatMultAddKernel_SeqAIJFormat(A, x, NULL, y, PETSC_FALSE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatMultAdd_SeqAIJFormat(Mat A, Vec x, Vec z, Vec y)
{
  PetscFunctionBegin;
  PetscCall(MatMultAddKernel_SeqAIJFormat(A, x, z, y, PETSC_FALSE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatMultTranspose_SeqAIJFormat(Mat A, Vec x, Vec y)
{
  PetscFunctionBegin;
  PetscCall(MatMultAddKernel_SeqAIJFormat(A, x, NULL, y, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatMultTransposeAdd_SeqAIJFormat(Mat A, Vec x, Vec z, Vec y)
{
  PetscFunctionBegin;
  PetscCall(MatMultAddKernel_SeqAIJFormat(A, x, z, y, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatGetDiagonal_SeqAIJFormat(Mat A, Vec d)
{
  Mat_SeqAIJFormat *e = (Mat_SeqAIJFormat *)A->spptr;
  PetscScalar      *pd;
  Vec               db;
  PetscInt          n;
  PetscBool         bound;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(d, &n));
  PetscCheck(n == A->rmap->n, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "Nonconforming matrix and vector: %" PetscInt_FMT " rows, vector of length %" PetscInt_FMT, A->rmap->n, n);
  PetscCall(MatELLGBoundToCPU(A, &bound));
  if (!bound && (e->built || e->pending)) PetscCall(MatSeqAIJFormatSync(A));
  /* bound to the CPU; a format not built (a matrix not used on the backend yet and not assembled by the program, such
     as PCGAMG's graph, a duplicate, is not built for its diagonal alone); or compressed rows (an off-diagonal block:
     the format cannot tell the diagonal) */
  if (bound || !e->built || e->fmt->rows) {
    PetscCall(e->aijops.getdiagonal(A, d));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscLogEventBegin(MATGPU_GetDiagonal, A, d, 0, 0));
  PetscCall(MatSeqAIJFormatGetOutput(A, d, PETSC_FALSE, &db, &pd));
  PetscCall(ELLGFormatGetDiagonal(e->fmt, pd));
  PetscCall(MatSeqAIJFormatRestoreOutput(d, PETSC_FALSE, db, &pd));
  PetscCall(PetscELLGLogSynchronize(e->fmt->backend));
  PetscCall(PetscLogEventEnd(MATGPU_GetDiagonal, A, d, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MatSeqAIJFormatGetCsrInput - M's host CSR (SeqAIJ's own arrays, not copied) for the backend's CSR operations;
   MatSeqAIJFormatRestoreCsrInput() gives it back */
PetscErrorCode MatSeqAIJFormatGetCsrInput(Mat M, ELLGCsrInput *in)
{
  PetscInt  m;
  PetscBool done;

  PetscFunctionBegin;
  PetscCall(MatGetRowIJ(M, 0, PETSC_FALSE, PETSC_FALSE, &m, &in->i, &in->j, &done));
  PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_SUP, "Cannot get the CSR structure of a %s matrix", ((PetscObject)M)->type_name);
  PetscCall(MatSeqAIJGetArrayRead(M, &in->a));
  in->m = M->rmap->n;
  in->n = M->cmap->n;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatSeqAIJFormatRestoreCsrInput(Mat M, ELLGCsrInput *in)
{
  PetscInt  m;
  PetscBool done;

  PetscFunctionBegin;
  PetscCall(MatRestoreRowIJ(M, 0, PETSC_FALSE, PETSC_FALSE, &m, &in->i, &in->j, &done));
  PetscCall(MatSeqAIJRestoreArrayRead(M, &in->a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   MatSeqAIJFormatSetCSRBegin - preallocates B's AIJ arrays exactly for the CSR row starts bi of its local rows,
   whose entries MatSeqAIJFormatSetCSRRows() then copies a row at a time (MAT_SORTED_FULL), where
   MatSeqAIJSetPreallocationCSR() inserts entry by entry, and MatSeqAIJFormatSetCSREnd() assembles; products and
   MatAXPY() give their results so
*/
PetscErrorCode MatSeqAIJFormatSetCSRBegin(Mat B, const PetscInt *bi)
{
  PetscInt m, *nnz;

  PetscFunctionBegin;
  PetscCall(PetscLayoutSetUp(B->rmap));
  PetscCall(PetscLayoutSetUp(B->cmap));
  m = B->rmap->n;
  PetscCall(PetscMalloc1(m, &nnz));
  for (PetscInt r = 0; r < m; r++) nnz[r] = bi[r + 1] - bi[r];
  PetscCall(MatSeqAIJSetPreallocation(B, 0, nnz));
  PetscCall(PetscFree(nnz));
  PetscCall(MatSetOption(B, MAT_SORTED_FULL, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* rows r0 to r1 - 1 of the CSR, whose entries from bi[r0] on are in bj and ba (columns sorted within each row) */
PetscErrorCode MatSeqAIJFormatSetCSRRows(Mat B, PetscInt r0, PetscInt r1, const PetscInt *bi, const PetscInt *bj, const PetscScalar *ba)
{
  PetscFunctionBegin;
  for (PetscInt r = r0; r < r1; r++)
    if (bi[r + 1] > bi[r]) PetscCall(MatSetValues(B, 1, &r, bi[r + 1] - bi[r], bj + (bi[r] - bi[r0]), ba + (bi[r] - bi[r0]), INSERT_VALUES));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatSeqAIJFormatSetCSREnd(Mat B)
{
  PetscFunctionBegin;
  PetscCall(MatSetOption(B, MAT_SORTED_FULL, PETSC_FALSE));
  PetscCall(MatAssemblyBegin(B, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(B, MAT_FINAL_ASSEMBLY));
  PetscCall(MatSetOption(B, MAT_NEW_NONZERO_LOCATION_ERR, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MatSeqAIJFormatSetCSR - B's AIJ arrays from the host CSR (bi, bj, ba) of its local rows, and its assembly */
PetscErrorCode MatSeqAIJFormatSetCSR(Mat B, const PetscInt *bi, const PetscInt *bj, const PetscScalar *ba)
{
  PetscFunctionBegin;
  PetscCall(MatSeqAIJFormatSetCSRBegin(B, bi));
  PetscCall(MatSeqAIJFormatSetCSRRows(B, 0, B->rmap->n, bi, bj, ba));
  PetscCall(MatSeqAIJFormatSetCSREnd(B));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* gives the seq matrix B the format options of fmt; a stored format whose options change is rebuilt at its next use */
PetscErrorCode MatSeqAIJFormatCopyParameters(ELLGFormat fmt, Mat B)
{
  Mat_SeqAIJFormat *b = (Mat_SeqAIJFormat *)B->spptr;

  PetscFunctionBegin;
  if (ELLGFormatSameParameters(fmt, b->fmt)) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(ELLGFormatCopyParameters(fmt, b->fmt));
  b->built = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the operations of this file, set on a matrix becoming one of our seq types */
void MatSeqAIJFormatSetProductOps(Mat A)
{
  A->ops->assemblyend      = MatAssemblyEnd_SeqAIJFormat;
  A->ops->mult             = MatMult_SeqAIJFormat;
  A->ops->multadd          = MatMultAdd_SeqAIJFormat;
  A->ops->multtranspose    = MatMultTranspose_SeqAIJFormat;
  A->ops->multtransposeadd = MatMultTransposeAdd_SeqAIJFormat;
  A->ops->getdiagonal      = MatGetDiagonal_SeqAIJFormat;
}
