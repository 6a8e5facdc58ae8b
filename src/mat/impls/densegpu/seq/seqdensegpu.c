/*
   MATSEQDENSEGPU: a MATSEQDENSE converted in place, with a copy of its values in the backend's memory
   (see ../densegpuimpl.h): the two copies and their synchronisation, the intercepted accessors, the
   operations that run on the backend copy, conversion to and from MATSEQDENSE.
*/
#include "../densegpuimpl.h"

static PetscErrorCode MatSeqDenseGPUAllocate(void *ctx)
{
  Mat           A = (Mat)ctx;
  Mat_DenseGPU *d = MatDenseGPUData(A);
  const size_t  n = (size_t)A->rmap->n * (size_t)A->cmap->n;

  PetscFunctionBegin;
  if (d->array || !n) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(n <= (size_t)INT_MAX, PETSC_COMM_SELF, PETSC_ERR_SUP, "A local block of %" PetscInt_FMT " x %" PetscInt_FMT " entries is too large for the device kernels (at most %d entries)", A->rmap->n, A->cmap->n, INT_MAX);
  PetscCall(PetscELLGMalloc(d->backend, n * sizeof(PetscScalar), (void **)&d->array));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* entries of the backend copy, as the kernels take them (checked to fit when it is allocated) */
static inline int MatSeqDenseGPUSize(Mat A)
{
  return (int)(A->rmap->n * A->cmap->n);
}

static PetscErrorCode MatSeqDenseGPUToBackend(void *ctx)
{
  Mat                A = (Mat)ctx;
  Mat_DenseGPU      *d = MatDenseGPUData(A);
  const PetscScalar *h;
  PetscInt           lda;

  PetscFunctionBegin;
  if (!d->array) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatDenseGetLDA(A, &lda));
  PetscCall(PetscLogEventBegin(MATDENSEGPU_CopyToGPU, A, 0, 0, 0));
  PetscCall((*d->base.getarrayread)(A, &h));
  PetscCall(PetscELLGMemcpyColumns(d->backend, A->rmap->n, A->cmap->n, d->array, A->rmap->n, h, lda, ELLG_MEMCPY_HTOD));
  PetscCall((*d->base.restorearrayread)(A, &h));
  PetscCall(PetscLogEventEnd(MATDENSEGPU_CopyToGPU, A, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatSeqDenseGPUToHost(void *ctx)
{
  Mat           A = (Mat)ctx;
  Mat_DenseGPU *d = MatDenseGPUData(A);
  PetscScalar  *h;
  PetscInt      lda;

  PetscFunctionBegin;
  if (!d->array) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatDenseGetLDA(A, &lda));
  PetscCall(PetscLogEventBegin(MATDENSEGPU_CopyFromGPU, A, 0, 0, 0));
  PetscCall((*d->base.getarray)(A, &h));
  PetscCall(PetscELLGMemcpyColumns(d->backend, A->rmap->n, A->cmap->n, h, lda, d->array, A->rmap->n, ELLG_MEMCPY_DTOH));
  PetscCall((*d->base.restorearray)(A, &h));
  PetscCall(PetscLogEventEnd(MATDENSEGPU_CopyFromGPU, A, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static const ELLGMirrorOps MatSeqDenseGPUMirrorOps = {MatSeqDenseGPUAllocate, MatSeqDenseGPUToBackend, MatSeqDenseGPUToHost};

/* the backend copy of A for access mode (ELLGMirrorBackendAccess()) */
PetscErrorCode MatSeqDenseGPUBackendArray_Private(Mat A, ELLGAccess mode, PetscScalar **a)
{
  Mat_DenseGPU *d = MatDenseGPUData(A);

  PetscFunctionBegin;
  if (!A->preallocated) PetscCall(MatSetUp(A));
  PetscCall(ELLGMirrorBackendAccess(&d->mirror, mode));
  *a = d->array;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the backend copy was written (ELLGMirrorBackendWritten()), and the matrix has changed */
PetscErrorCode MatSeqDenseGPURestoreWritten_Private(Mat A)
{
  PetscFunctionBegin;
  PetscCall(ELLGMirrorBackendWritten(&MatDenseGPUData(A)->mirror));
  PetscCall(PetscObjectStateIncrease((PetscObject)A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---------------------------------------------------------------- the accessors of SeqDense */

/*
   The composed functions of SeqDense that give out its host array, or change it, are intercepted:
   OP(field, name, kind, mode, params, args), kind CHECKOUT (the host copy made ready for mode, then
   out), CHECKIN (back) or USE (made ready around the call, as an operation). A column written leaves
   the other columns as they were: read and write for the whole matrix. A matrix not yet set up is
   set up before its array goes out: SeqDense's duplicate leaves a matrix of a type other than its own
   without an array (as PETSc's GPU dense types allocate theirs on first access).
*/
#define MAT_SEQDENSEGPU_ACCESSORS(OP) \
  OP(getarray, "MatDenseGetArray_C", CHECKOUT, ELLG_ACCESS_READ_WRITE, (Mat A, PetscScalar **a), (A, a)) \
  OP(restorearray, "MatDenseRestoreArray_C", CHECKIN, ELLG_ACCESS_READ_WRITE, (Mat A, PetscScalar **a), (A, a)) \
  OP(getarrayread, "MatDenseGetArrayRead_C", CHECKOUT, ELLG_ACCESS_READ, (Mat A, const PetscScalar **a), (A, a)) \
  OP(restorearrayread, "MatDenseRestoreArrayRead_C", CHECKIN, ELLG_ACCESS_READ, (Mat A, const PetscScalar **a), (A, a)) \
  OP(getarraywrite, "MatDenseGetArrayWrite_C", CHECKOUT, ELLG_ACCESS_WRITE, (Mat A, PetscScalar **a), (A, a)) \
  OP(restorearraywrite, "MatDenseRestoreArrayWrite_C", CHECKIN, ELLG_ACCESS_WRITE, (Mat A, PetscScalar **a), (A, a)) \
  OP(placearray, "MatDensePlaceArray_C", USE, ELLG_ACCESS_READ_WRITE, (Mat A, const PetscScalar *a), (A, a)) \
  OP(resetarray, "MatDenseResetArray_C", USE, ELLG_ACCESS_READ_WRITE, (Mat A), (A)) \
  OP(replacearray, "MatDenseReplaceArray_C", USE, ELLG_ACCESS_WRITE, (Mat A, const PetscScalar *a), (A, a)) \
  OP(getcolumn, "MatDenseGetColumn_C", CHECKOUT, ELLG_ACCESS_READ_WRITE, (Mat A, PetscInt col, PetscScalar **a), (A, col, a)) \
  OP(restorecolumn, "MatDenseRestoreColumn_C", CHECKIN, ELLG_ACCESS_READ_WRITE, (Mat A, PetscScalar **a), (A, a)) \
  OP(getcolumnvec, "MatDenseGetColumnVec_C", CHECKOUT, ELLG_ACCESS_READ_WRITE, (Mat A, PetscInt col, Vec *v), (A, col, v)) \
  OP(restorecolumnvec, "MatDenseRestoreColumnVec_C", CHECKIN, ELLG_ACCESS_READ_WRITE, (Mat A, PetscInt col, Vec *v), (A, col, v)) \
  OP(getcolumnvecread, "MatDenseGetColumnVecRead_C", CHECKOUT, ELLG_ACCESS_READ, (Mat A, PetscInt col, Vec *v), (A, col, v)) \
  OP(restorecolumnvecread, "MatDenseRestoreColumnVecRead_C", CHECKIN, ELLG_ACCESS_READ, (Mat A, PetscInt col, Vec *v), (A, col, v)) \
  OP(getcolumnvecwrite, "MatDenseGetColumnVecWrite_C", CHECKOUT, ELLG_ACCESS_READ_WRITE, (Mat A, PetscInt col, Vec *v), (A, col, v)) \
  OP(restorecolumnvecwrite, "MatDenseRestoreColumnVecWrite_C", CHECKIN, ELLG_ACCESS_READ_WRITE, (Mat A, PetscInt col, Vec *v), (A, col, v)) \
  OP(getsubmatrix, "MatDenseGetSubMatrix_C", CHECKOUT, ELLG_ACCESS_READ_WRITE, (Mat A, PetscInt rbegin, PetscInt rend, PetscInt cbegin, PetscInt cend, Mat *v), (A, rbegin, rend, cbegin, cend, v)) \
  OP(restoresubmatrix, "MatDenseRestoreSubMatrix_C", CHECKIN, ELLG_ACCESS_READ_WRITE, (Mat A, Mat *v), (A, v)) \
  OP(qrfactor, "MatQRFactor_C", USE, ELLG_ACCESS_READ_WRITE, (Mat A, IS col, const MatFactorInfo *info), (A, col, info)) \
  OP(seqpreallocation, "MatSeqDenseSetPreallocation_C", USE, ELLG_ACCESS_WRITE, (Mat A, PetscScalar *data), (A, data))

#define MAT_SEQDENSEGPU_CHECKOUT(mode, name, args) \
  if (!A->preallocated) PetscCall(MatSetUp(A)); \
  PetscCall(ELLGMirrorCheckOut(&MatDenseGPUData(A)->mirror, mode)); \
  MatDenseGPUGiveOut_Private(A, (*base)args);
#define MAT_SEQDENSEGPU_CHECKIN(mode, name, args) \
  PetscCall((*base)args); \
  PetscCall(ELLGMirrorCheckIn(&MatDenseGPUData(A)->mirror, mode, name));
#define MAT_SEQDENSEGPU_USE(mode, name, args) \
  PetscCall(MatDenseGPUHostBegin_Private(A, mode)); \
  PetscCall((*base)args); \
  PetscCall(MatDenseGPUHostEnd_Private(A, mode));

#define MAT_SEQDENSEGPU_ACCESSOR(field, name, kind, mode, params, args) \
  static PetscErrorCode MatSeqDenseGPU_##field params \
  { \
    PetscErrorCode(*base) params = MatDenseGPUData(A)->base.field; \
\
    PetscFunctionBegin; \
    MAT_SEQDENSEGPU_##kind(mode, name, args) PetscFunctionReturn(PETSC_SUCCESS); \
  }
MAT_SEQDENSEGPU_ACCESSORS(MAT_SEQDENSEGPU_ACCESSOR)
#undef MAT_SEQDENSEGPU_ACCESSOR

/* ---------------------------------------------------------------- operations on the backend copy */

/* whether an operation on A runs on its backend copy: the host copy is not the only valid one, and no
   host array of A is out; otherwise it runs the base type's host code */
static PetscBool MatSeqDenseGPUOnBackend(Mat A)
{
  Mat_DenseGPU *d = MatDenseGPUData(A);

  return (PetscBool)(d->mask != PETSC_OFFLOAD_CPU && !MatDenseGPUCheckedOut(d));
}

/* whether B, the other matrix of an operation of A on the backend, is a seqdensegpu of A's backend and
   sizes without a host array out */
static PetscErrorCode MatSeqDenseGPUIsPeer(Mat A, Mat B, PetscBool *peer)
{
  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)B, MATSEQDENSEGPU, peer));
  *peer = (PetscBool)(*peer && B->spptr && MatDenseGPUData(B)->backend == MatDenseGPUData(A)->backend && !MatDenseGPUCheckedOut(MatDenseGPUData(B)) && A->rmap->n == B->rmap->n && A->cmap->n == B->cmap->n);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatZeroEntries_SeqDenseGPU(Mat A)
{
  PetscScalar *a;

  PetscFunctionBegin;
  if (!MatSeqDenseGPUOnBackend(A)) {
    PetscCall(MatDenseGPUBase_zeroentries(A));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(MatSeqDenseGPUBackendArray_Private(A, ELLG_ACCESS_WRITE, &a));
  PetscCallVecGPUKernelOf(MatDenseGPUData(A)->kernels, MatDenseGPUData(A)->kernels->set(MatSeqDenseGPUSize(A), 0.0, a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatScale_SeqDenseGPU(Mat A, PetscScalar alpha)
{
  PetscScalar *a;

  PetscFunctionBegin;
  if (!MatSeqDenseGPUOnBackend(A)) {
    PetscCall(MatDenseGPUBase_scale(A, alpha));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(MatSeqDenseGPUBackendArray_Private(A, alpha == 0.0 ? ELLG_ACCESS_WRITE : ELLG_ACCESS_READ_WRITE, &a));
  PetscCallVecGPUKernelOf(MatDenseGPUData(A)->kernels, MatDenseGPUData(A)->kernels->scale(MatSeqDenseGPUSize(A), alpha, a));
  PetscCall(PetscELLGLogFlops(MatDenseGPUData(A)->backend, MatSeqDenseGPUSize(A)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* B = A: on the backend when A's values are there and B is a seqdensegpu like A */
static PetscErrorCode MatCopy_SeqDenseGPU(Mat A, Mat B, MatStructure str)
{
  const PetscScalar *a;
  PetscScalar       *b;
  PetscBool          peer;

  PetscFunctionBegin;
  PetscCall(MatSeqDenseGPUIsPeer(A, B, &peer));
  if (!peer || !MatSeqDenseGPUOnBackend(A)) {
    PetscCall(MatDenseGPUBase_copy(A, B, str));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(MatSeqDenseGPUBackendArray_Private(A, ELLG_ACCESS_READ, (PetscScalar **)&a));
  PetscCall(MatSeqDenseGPUBackendArray_Private(B, ELLG_ACCESS_WRITE, &b));
  PetscCallVecGPUKernelOf(MatDenseGPUData(A)->kernels, MatDenseGPUData(A)->kernels->copy(MatSeqDenseGPUSize(A), a, b));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Y = Y + alpha X: on the backend when Y's values are there and X is a seqdensegpu like Y */
static PetscErrorCode MatAXPY_SeqDenseGPU(Mat Y, PetscScalar alpha, Mat X, MatStructure str)
{
  const PetscScalar *x;
  PetscScalar       *y;
  PetscBool          peer;

  PetscFunctionBegin;
  PetscCall(MatSeqDenseGPUIsPeer(Y, X, &peer));
  if (!peer || !MatSeqDenseGPUOnBackend(Y)) {
    PetscCall(MatDenseGPUBase_axpy(Y, alpha, X, str));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(MatSeqDenseGPUBackendArray_Private(X, ELLG_ACCESS_READ, (PetscScalar **)&x));
  PetscCall(MatSeqDenseGPUBackendArray_Private(Y, ELLG_ACCESS_READ_WRITE, &y));
  PetscCallVecGPUKernelOf(MatDenseGPUData(Y)->kernels, MatDenseGPUData(Y)->kernels->axpy(MatSeqDenseGPUSize(Y), alpha, x, y));
  PetscCall(PetscELLGLogFlops(MatDenseGPUData(Y)->backend, 2.0 * MatSeqDenseGPUSize(Y)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the Frobenius norm on the backend; the others on the host */
static PetscErrorCode MatNorm_SeqDenseGPU(Mat A, NormType type, PetscReal *nrm)
{
  const PetscScalar *a;

  PetscFunctionBegin;
  if (type != NORM_FROBENIUS || !MatSeqDenseGPUOnBackend(A)) {
    PetscCall(MatDenseGPUBase_norm(A, type, nrm));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(MatSeqDenseGPUBackendArray_Private(A, ELLG_ACCESS_READ, (PetscScalar **)&a));
  PetscCallVecGPUKernelOf(MatDenseGPUData(A)->kernels, MatDenseGPUData(A)->kernels->norm2(MatSeqDenseGPUSize(A), a, nrm));
  PetscCall(PetscELLGLogFlops(MatDenseGPUData(A)->backend, 2.0 * MatSeqDenseGPUSize(A)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the copy of the values on the backend when they are there: SeqDense's duplicate without them first */
static PetscErrorCode MatDuplicate_SeqDenseGPU(Mat A, MatDuplicateOption op, Mat *B)
{
  Mat_DenseGPU      *d = MatDenseGPUData(A), *b;
  const PetscScalar *a;
  PetscScalar       *bv;

  PetscFunctionBegin;
  if (op != MAT_COPY_VALUES || !MatSeqDenseGPUOnBackend(A)) {
    PetscCall(MatDenseGPUBase_duplicate(A, op, B));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall((*d->baseops.duplicate)(A, MAT_DO_NOT_COPY_VALUES, B)); /* creates *B with this type: nothing on its backend yet */
  b          = MatDenseGPUData(*B);
  b->backend = d->backend;
  b->kernels = d->kernels;
  PetscCall(MatSeqDenseGPUBackendArray_Private(A, ELLG_ACCESS_READ, (PetscScalar **)&a));
  PetscCall(MatSeqDenseGPUBackendArray_Private(*B, ELLG_ACCESS_WRITE, &bv));
  PetscCallVecGPUKernelOf(d->kernels, d->kernels->copy(MatSeqDenseGPUSize(A), a, bv));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---------------------------------------------------------------- conversion */

static PetscErrorCode MatConvert_SeqDenseGPU_SeqDense(Mat, MatType, MatReuse, Mat *);
static PetscErrorCode MatConvert_SeqDense_SeqDenseGPU(Mat, MatType, MatReuse, Mat *);

/* composes (compose) or removes the functions of A's type: accessors, conversions, those of the base
   type under our type name */
static PetscErrorCode MatSeqDenseGPUComposeFunctions(Mat A, PetscBool compose)
{
  Mat_DenseGPU *d = MatDenseGPUData(A);

  PetscFunctionBegin;
#define MAT_SEQDENSEGPU_COMPOSE(field, name, ...) \
  if (d->base.field) PetscCall(PetscObjectComposeFunction((PetscObject)A, name, compose ? MatSeqDenseGPU_##field : d->base.field));
  MAT_SEQDENSEGPU_ACCESSORS(MAT_SEQDENSEGPU_COMPOSE)
#undef MAT_SEQDENSEGPU_COMPOSE
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatConvert_seqdensegpu_seqdense_C", compose ? MatConvert_SeqDenseGPU_SeqDense : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatConvert_seqdense_seqdensegpu_C", compose ? MatConvert_SeqDense_SeqDenseGPU : NULL));
  PetscCall(MatDenseGPUComposeBaseFunctions_Private(A, MATSEQDENSE, MATSEQDENSEGPU, compose));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* back to SeqDense, in place, with the host copy brought up to date; or (keep = FALSE), for the
   destroy, only what the base type does not free */
PetscErrorCode MatSeqDenseGPURevert_Private(Mat A, PetscBool keep)
{
  Mat_DenseGPU *d = MatDenseGPUData(A);

  PetscFunctionBegin;
  if (keep) {
    PetscCheck(!MatDenseGPUCheckedOut(d), PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "Cannot convert a %s matrix while a host array of it is out (restore it first)", MATSEQDENSEGPU);
    PetscCall(ELLGMirrorSyncHost(&d->mirror));
  }
  PetscCall(MatSeqDenseGPUComposeFunctions(A, PETSC_FALSE));
  PetscCall(MatDenseGPUUnwrap_Private(A));
  PetscCall(PetscELLGFree(d->backend, d->array));
  PetscCall(PetscFree(A->spptr));
  if (!keep) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatDenseGPUSetTypeNames_Private(A, MATSEQDENSE, VECSTANDARD));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatDestroy_SeqDenseGPU(Mat A)
{
  PetscErrorCode (*destroy)(Mat) = MatDenseGPUData(A)->baseops.destroy;

  PetscFunctionBegin;
  PetscCall(MatSeqDenseGPURevert_Private(A, PETSC_FALSE));
  PetscCall((*destroy)(A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* turns the SeqDense matrix A into a seqdensegpu of the given backend, in place; nothing moves */
PetscErrorCode MatConvertInPlace_SeqDense_SeqDenseGPU(Mat A, PetscELLGBackend backend)
{
  Mat_DenseGPU *d;

  PetscFunctionBegin;
  PetscCall(PetscNew(&d));
  d->backend = backend;
  d->kernels = VecGPUKernelsOf(backend);
  d->baseops = *A->ops;
  ELLGMirrorInit(&d->mirror, &MatSeqDenseGPUMirrorOps, A, &d->mask);
#define MAT_SEQDENSEGPU_QUERY(field, name, ...) PetscCall(PetscObjectQueryFunction((PetscObject)A, name, &d->base.field));
  MAT_SEQDENSEGPU_ACCESSORS(MAT_SEQDENSEGPU_QUERY)
#undef MAT_SEQDENSEGPU_QUERY
  PetscCheck(d->base.getarray && d->base.restorearray && d->base.getarrayread && d->base.restorearrayread, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s has no MatDenseGetArray_C or MatDenseGetArrayRead_C", MATSEQDENSE);
  A->spptr = d;
  PetscCall(MatDenseGPUWrapBaseOps_Private(A, MATSEQDENSE));
  A->ops->zeroentries = MatZeroEntries_SeqDenseGPU;
  A->ops->scale       = MatScale_SeqDenseGPU;
  A->ops->copy        = MatCopy_SeqDenseGPU;
  A->ops->axpy        = MatAXPY_SeqDenseGPU;
  A->ops->norm        = MatNorm_SeqDenseGPU;
  A->ops->duplicate   = MatDuplicate_SeqDenseGPU;
  A->ops->destroy     = MatDestroy_SeqDenseGPU;
  d->gpuops           = *A->ops;
  PetscCall(MatSeqDenseGPUComposeFunctions(A, PETSC_TRUE));
  PetscCall(MatDenseGPUSetTypeNames_Private(A, MATSEQDENSEGPU, VECGPU));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatConvert_SeqDense_SeqDenseGPU(Mat A, MatType type, MatReuse reuse, Mat *B)
{
  PetscFunctionBegin;
  PetscCall(MatConvert_Dense_DenseGPU_Private(A, reuse, B, MatConvertInPlace_SeqDense_SeqDenseGPU));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatConvert_SeqDenseGPU_SeqDense(Mat A, MatType type, MatReuse reuse, Mat *B)
{
  PetscFunctionBegin;
  PetscCall(MatConvert_DenseGPU_Dense_Private(A, reuse, B, MatSeqDenseGPURevert_Private));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatCreate_SeqDenseGPU(Mat A)
{
  PetscFunctionBegin;
  PetscCall(MatCreate_DenseGPU_Private(A, MATSEQDENSE, MatConvertInPlace_SeqDense_SeqDenseGPU));
  PetscFunctionReturn(PETSC_SUCCESS);
}
