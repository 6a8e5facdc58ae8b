/*
   COO assembly of our seq types (ellgcoo.h). MatSetPreallocationCOO() builds the pattern of the entries and their map
   once and gives SeqAIJ the pattern, which is then fixed (a new nonzero is an error). MatSetValuesCOO() sums the values
   where they are:
   - values the backend reads (device memory for cuda, any memory for host) are summed there into the buffer the
     format is packed from, which is then copied into SeqAIJ's values: no pass over the entries on the host, and the
     format current at once; SeqAIJ's values are page-locked (cuda) from the first such call until the matrix is
     destroyed, its COO preallocation done again, or it is no longer of our type, so that the copy runs at the host
     link's speed;
   - host values for cuda (and any values of a matrix bound to the CPU) are summed into SeqAIJ's values on the host,
     which the format takes at its next use, as after MatSetValues().
   SeqAIJ's values stay the master copy that PETSc's host code reads, as everywhere in our types.
*/
#include "../aijformat.h"
#include <ellgcoo.h>

#define MAT_SEQAIJFORMAT_COO "MatSeqAIJFormatCoo"

ELLG_CONTAINER_DESTROY(ELLGCooDestroy_Ctx, struct _n_ELLGCoo, ELLGCooDestroy)

static PetscErrorCode MatSeqAIJFormatGetCoo(Mat A, ELLGCoo *coo)
{
  void *p = NULL;

  PetscFunctionBegin;
  PetscCall(PetscELLGQueryContainer((PetscObject)A, MAT_SEQAIJFORMAT_COO, &p));
  PetscCheck(p, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "MatSetValuesCOO() needs MatSetPreallocationCOO() first");
  *coo = (ELLGCoo)p;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* B shares A's COO map, as its duplicate */
PetscErrorCode MatSeqAIJFormatShareCoo(Mat A, Mat B)
{
  PetscObject c = NULL;

  PetscFunctionBegin;
  PetscCall(PetscObjectQuery((PetscObject)A, MAT_SEQAIJFORMAT_COO, &c));
  if (c) PetscCall(PetscObjectCompose((PetscObject)B, MAT_SEQAIJFORMAT_COO, c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A's AIJ pattern (ai, aj), its values 0 */
static PetscErrorCode MatSeqAIJFormatSetPattern(Mat A, const PetscInt *ai, const PetscInt *aj)
{
  PetscInt     maxlen = 0;
  PetscScalar *zeros;

  PetscFunctionBegin;
  for (PetscInt r = 0; r < A->rmap->n; r++) maxlen = PetscMax(maxlen, ai[r + 1] - ai[r]);
  PetscCall(PetscCalloc1(maxlen, &zeros));
  PetscCall(MatSeqAIJFormatSetCSRBegin(A, ai));
  PetscCall(MatSetOption(A, MAT_NEW_NONZERO_LOCATION_ERR, PETSC_FALSE));
  for (PetscInt r = 0; r < A->rmap->n; r++)
    if (ai[r + 1] > ai[r]) PetscCall(MatSetValues(A, 1, &r, ai[r + 1] - ai[r], aj + ai[r], zeros, INSERT_VALUES));
  PetscCall(PetscFree(zeros));
  PetscCall(MatSeqAIJFormatSetCSREnd(A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* SeqAIJ's values no longer page-locked: before PETSc frees or replaces them */
PetscErrorCode MatSeqAIJFormatUnpinCoo(Mat A)
{
  Mat_SeqAIJFormat *e = (Mat_SeqAIJFormat *)A->spptr;

  PetscFunctionBegin;
  if (!e->coopinned) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscELLGHostUnregister(e->fmt->backend, e->coopinned));
  e->coopinned = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* SeqAIJ's values aa (bytes) page-locked for the copies from the device, once */
static PetscErrorCode MatSeqAIJFormatPinCoo(Mat A, PetscScalar *aa, size_t bytes)
{
  Mat_SeqAIJFormat *e = (Mat_SeqAIJFormat *)A->spptr;
  PetscBool         done;

  PetscFunctionBegin;
  if (aa == e->coopinned || !bytes) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatSeqAIJFormatUnpinCoo(A));
  PetscCall(PetscELLGHostRegister(e->fmt->backend, aa, bytes, &done));
  if (done) e->coopinned = aa;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatSetPreallocationCOO_SeqAIJFormat(Mat A, PetscCount ncoo, PetscInt coo_i[], PetscInt coo_j[])
{
  Mat_SeqAIJFormat *e = (Mat_SeqAIJFormat *)A->spptr;
  ELLGCoo           coo = NULL;
  PetscContainer    c;
  PetscInt         *ai, *aj;
  PetscErrorCode    ierr;

  PetscFunctionBegin;
  PetscCall(MatSeqAIJFormatUnpinCoo(A)); /* the pattern, and so SeqAIJ's arrays, may change */
  PetscCall(ELLGCooCreate(e->fmt->backend, A->rmap->n, A->cmap->n, ncoo, coo_i, coo_j, &coo, &ai, &aj));
  ierr = MatSeqAIJFormatSetPattern(A, ai, aj);
  PetscCall(PetscFree(ai));
  PetscCall(PetscFree(aj));
  if (ierr) PetscCall(ELLGCooDestroy(&coo));
  PetscCall(ierr);
  PetscCall(PetscContainerCreate(PETSC_COMM_SELF, &c));
  PetscCall(PetscContainerSetPointer(c, coo));
  PetscCall(ELLGContainerSetCtxDestroy(c, ELLGCooDestroy_Ctx));
  PetscCall(PetscObjectCompose((PetscObject)A, MAT_SEQAIJFORMAT_COO, (PetscObject)c));
  PetscCall(PetscContainerDestroy(&c));
  e->coostate = 0;
  PetscCall(PetscInfo(A, "COO preallocation: %" PetscCount_FMT " entries, %" PetscInt_FMT " nonzeros\n", ncoo, ELLGCooNonzeros(coo)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the sums of the map coo in the backend's memory (entry e's value v[e] for e < nv, else w[e - nv]), into the format's
   update buffer, copied into SeqAIJ's values; also the blocks' of the parallel types (mpicoo.c) */
PetscErrorCode MatSeqAIJFormatSetValuesCOOBackend(Mat A, ELLGCoo coo, PetscCount nv, const PetscScalar v[], const PetscScalar w[], InsertMode imode)
{
  Mat_SeqAIJFormat  *e   = (Mat_SeqAIJFormat *)A->spptr;
  const size_t       vb  = sizeof(PetscScalar) * (size_t)ELLGCooNonzeros(coo);
  PetscELLGBackend   be  = e->fmt->backend;
  PetscScalar       *val = NULL, *aa;
  const PetscScalar *ra;
  const PetscInt    *ai, *aj;
  PetscInt           m;
  PetscBool          done;
  PetscErrorCode     ierr;

  PetscFunctionBegin;
  PetscCall(MatSeqAIJFormatSync(A)); /* the structure stored (at the first assembly: the values too) */
  PetscCall(PetscLogEventBegin(MATGPU_UpdateValues, A, 0, 0, 0));
  PetscCall(MatGetRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &m, &ai, &aj, &done));
  ierr = ELLGFormatUpdateValuesBegin(e->fmt, ai, &val);
  if (!ierr && imode == ADD_VALUES) { /* to the values the host holds */
    ierr = MatSeqAIJGetArrayRead(A, &ra);
    if (!ierr) ierr = PetscELLGMemcpy(be, val, ra, vb, ELLG_MEMCPY_HTOD);
    if (!ierr) ierr = MatSeqAIJRestoreArrayRead(A, &ra);
  }
#if defined(ELLG_HAVE_PETSC_CUDA)
  if (!ierr && be != PETSCELLG_BACKEND_HOST) ierr = PetscELLGWaitForPetsc(); /* the program may have computed v on PETSc's stream */
#endif
  if (!ierr) ierr = ELLGCooSum(coo, PETSC_TRUE, nv, v, w, imode, val);
  if (!ierr) ierr = MatSeqAIJGetArrayWrite(A, &aa);
  if (!ierr) ierr = MatSeqAIJFormatPinCoo(A, aa, vb);
  if (!ierr) {
    ierr = PetscELLGMemcpy(be, aa, val, vb, ELLG_MEMCPY_DTOH);
    PetscCall(MatSeqAIJRestoreArrayWrite(A, &aa));
  }
  PetscCall(MatRestoreRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &m, &ai, &aj, &done));
  PetscCall(ELLGFormatUpdateValuesEnd(e->fmt, (PetscBool)(ierr != PETSC_SUCCESS), &val));
  PetscCall(PetscLogEventEnd(MATGPU_UpdateValues, A, 0, 0, 0));
  PetscCall(ierr);
  e->state    = ((PetscObject)A)->state; /* the format holds SeqAIJ's new values */
  e->coostate = e->state;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatSetValuesCOO_SeqAIJFormat(Mat A, const PetscScalar v[], InsertMode imode)
{
  Mat_SeqAIJFormat *e = (Mat_SeqAIJFormat *)A->spptr;
  ELLGCoo           coo = NULL;
  const PetscInt   *ai, *aj;
  PetscInt          m, nnz;
  PetscBool         done, inbackend, bound;
  PetscScalar      *aa, *hv;
  PetscErrorCode    ierr;

  PetscFunctionBegin;
  PetscCall(MatSeqAIJFormatGetCoo(A, &coo));
  PetscCheck(imode == ADD_VALUES || imode == INSERT_VALUES, PETSC_COMM_SELF, PETSC_ERR_SUP, "MatSetValuesCOO() takes INSERT_VALUES or ADD_VALUES");
  PetscCall(MatGetRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &m, &ai, &aj, &done));
  nnz = ai[m];
  PetscCall(MatRestoreRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &m, &ai, &aj, &done));
  PetscCheck(nnz == ELLGCooNonzeros(coo), PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "The matrix has %" PetscInt_FMT " nonzeros where MatSetPreallocationCOO() gave it %" PetscInt_FMT ": call it again after changing the pattern", nnz, ELLGCooNonzeros(coo));
  if (ELLGCooEntries(coo) && !v) SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "MatSetValuesCOO() needs the values of the %" PetscCount_FMT " entries", ELLGCooEntries(coo));
  PetscCall(MatELLGBoundToCPU(A, &bound));
  PetscCall(PetscELLGInBackendMemory(e->fmt->backend, v, &inbackend));
  if (inbackend && !bound) {
    PetscCall(MatSeqAIJFormatSetValuesCOOBackend(A, coo, ELLGCooEntries(coo), v, NULL, imode));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscELLGCooHostValues(e->fmt->backend, ELLGCooEntries(coo), v, &hv)); /* device values of a matrix bound to the CPU */
  if (hv) v = hv;
  if (imode == INSERT_VALUES) PetscCall(MatSeqAIJGetArrayWrite(A, &aa));
  else PetscCall(MatSeqAIJGetArray(A, &aa));
  ierr = ELLGCooSum(coo, PETSC_FALSE, ELLGCooEntries(coo), v, NULL, imode, aa);
  if (imode == INSERT_VALUES) PetscCall(MatSeqAIJRestoreArrayWrite(A, &aa));
  else PetscCall(MatSeqAIJRestoreArray(A, &aa));
  PetscCall(PetscFree(hv));
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* SeqAIJ's preallocation, which frees the values that may be page-locked */
static PetscErrorCode MatSeqAIJSetPreallocation_SeqAIJFormat(Mat A, PetscInt nz, const PetscInt nnz[])
{
  Mat_SeqAIJFormat *e = (Mat_SeqAIJFormat *)A->spptr;

  PetscFunctionBegin;
  PetscCall(MatSeqAIJFormatUnpinCoo(A));
  PetscCall((*e->aijpreallocation)(A, nz, nnz));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the COO functions of our seq types (compose), or SeqAIJ's again where ours are */
PetscErrorCode MatSeqAIJFormatComposeCoo(Mat A, PetscBool compose)
{
  Mat_SeqAIJFormat *e = (Mat_SeqAIJFormat *)A->spptr;
  PetscErrorCode (*f)(Mat, PetscCount, PetscInt[], PetscInt[]) = NULL;

  PetscFunctionBegin;
  if (compose) {
    PetscCall(PetscObjectQueryFunction((PetscObject)A, "MatSetPreallocationCOO_C", &e->aijpreallocationcoo));
    PetscCall(PetscObjectQueryFunction((PetscObject)A, "MatSetValuesCOO_C", &e->aijsetvaluescoo));
    PetscCall(PetscObjectQueryFunction((PetscObject)A, "MatSeqAIJSetPreallocation_C", &e->aijpreallocation));
    PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatSetPreallocationCOO_C", MatSetPreallocationCOO_SeqAIJFormat));
    PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatSetValuesCOO_C", MatSetValuesCOO_SeqAIJFormat));
    if (e->aijpreallocation) PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatSeqAIJSetPreallocation_C", MatSeqAIJSetPreallocation_SeqAIJFormat));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscObjectQueryFunction((PetscObject)A, "MatSetPreallocationCOO_C", &f));
  if (f != MatSetPreallocationCOO_SeqAIJFormat) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatSetPreallocationCOO_C", e->aijpreallocationcoo));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatSetValuesCOO_C", e->aijsetvaluescoo));
  if (e->aijpreallocation) PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatSeqAIJSetPreallocation_C", e->aijpreallocation));
  PetscFunctionReturn(PETSC_SUCCESS);
}
