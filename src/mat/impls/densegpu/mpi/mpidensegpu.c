/*
   MATMPIDENSEGPU: a MATMPIDENSE converted in place whose local block is a seqdensegpu (see
   ../densegpuimpl.h). The operations on the backend copy are those of the local block; the others
   run MPIDense's code through the wrappers of ../densegpubase.c.
*/
#include "../densegpuimpl.h"

/* MPIDense makes its local block a MATSEQDENSE (at preallocation): converted in place */
static PetscErrorCode MatMPIDenseGPUAdoptLocal(Mat A)
{
  Mat       Al;
  PetscBool ours;

  PetscFunctionBegin;
  PetscCall(MatDenseGetLocalMatrix(A, &Al));
  if (!Al) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscObjectTypeCompare((PetscObject)Al, MATSEQDENSEGPU, &ours));
  if (!ours) PetscCall(MatConvertInPlace_SeqDense_SeqDenseGPU(Al, MatDenseGPUData(A)->backend));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatMPIDenseSetPreallocation_MPIDenseGPU(Mat A, PetscScalar *data)
{
  PetscFunctionBegin;
  PetscCall((*MatDenseGPUData(A)->base.mpipreallocation)(A, data));
  PetscCall(MatMPIDenseGPUAdoptLocal(A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   MPIDense gives out columns, column vectors and submatrices through the accessors of its local block,
   which count them out and back; but for a column written it takes the local array for writing only
   (MatDenseGetArrayWrite()): the other columns must be up to date on the host first. OP(field, name,
   mode, params, args)
*/
#define MAT_MPIDENSEGPU_GETTERS(OP) \
  OP(getcolumn, "MatDenseGetColumn_C", ELLG_ACCESS_READ_WRITE, (Mat A, PetscInt col, PetscScalar **a), (A, col, a)) \
  OP(getcolumnvec, "MatDenseGetColumnVec_C", ELLG_ACCESS_READ_WRITE, (Mat A, PetscInt col, Vec *v), (A, col, v)) \
  OP(getcolumnvecread, "MatDenseGetColumnVecRead_C", ELLG_ACCESS_READ, (Mat A, PetscInt col, Vec *v), (A, col, v)) \
  OP(getcolumnvecwrite, "MatDenseGetColumnVecWrite_C", ELLG_ACCESS_READ_WRITE, (Mat A, PetscInt col, Vec *v), (A, col, v)) \
  OP(getsubmatrix, "MatDenseGetSubMatrix_C", ELLG_ACCESS_READ_WRITE, (Mat A, PetscInt rbegin, PetscInt rend, PetscInt cbegin, PetscInt cend, Mat *v), (A, rbegin, rend, cbegin, cend, v))

#define MAT_MPIDENSEGPU_GETTER(field, name, mode, params, args) \
  static PetscErrorCode MatMPIDenseGPU_##field params \
  { \
    PetscErrorCode(*base) params = MatDenseGPUData(A)->base.field; \
\
    PetscFunctionBegin; \
    PetscCall(MatDenseGPUHostBegin_Private(A, mode)); \
    MatDenseGPUGiveOut_Private(A, (*base)args); \
    PetscFunctionReturn(PETSC_SUCCESS); \
  }
MAT_MPIDENSEGPU_GETTERS(MAT_MPIDENSEGPU_GETTER)
#undef MAT_MPIDENSEGPU_GETTER

/* ---------------------------------------------------------------- operations of the local blocks */

static PetscErrorCode MatZeroEntries_MPIDenseGPU(Mat A)
{
  Mat Al;

  PetscFunctionBegin;
  PetscCall(MatDenseGetLocalMatrix(A, &Al));
  PetscCall(MatZeroEntries(Al));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatScale_MPIDenseGPU(Mat A, PetscScalar alpha)
{
  Mat Al;

  PetscFunctionBegin;
  PetscCall(MatDenseGetLocalMatrix(A, &Al));
  PetscCall(MatScale(Al, alpha));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatCopy_MPIDenseGPU(Mat A, Mat B, MatStructure str)
{
  Mat       Al, Bl;
  PetscBool peer;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)B, MATMPIDENSEGPU, &peer));
  if (!peer) {
    PetscCall(MatDenseGPUBase_copy(A, B, str));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(MatDenseGetLocalMatrix(A, &Al));
  PetscCall(MatDenseGetLocalMatrix(B, &Bl));
  PetscCall(MatCopy(Al, Bl, str));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatAXPY_MPIDenseGPU(Mat Y, PetscScalar alpha, Mat X, MatStructure str)
{
  Mat       Yl, Xl;
  PetscBool peer;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)X, MATMPIDENSEGPU, &peer));
  if (!peer) {
    PetscCall(MatDenseGPUBase_axpy(Y, alpha, X, str));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(MatDenseGetLocalMatrix(Y, &Yl));
  PetscCall(MatDenseGetLocalMatrix(X, &Xl));
  PetscCall(MatAXPY(Yl, alpha, Xl, str));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the Frobenius norm from those of the local blocks; the others by MPIDense */
static PetscErrorCode MatNorm_MPIDenseGPU(Mat A, NormType type, PetscReal *nrm)
{
  Mat       Al;
  PetscReal local;

  PetscFunctionBegin;
  if (type != NORM_FROBENIUS) {
    PetscCall(MatDenseGPUBase_norm(A, type, nrm));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(MatDenseGetLocalMatrix(A, &Al));
  PetscCall(MatNorm(Al, NORM_FROBENIUS, &local));
  local *= local;
  PetscCall(MPIU_Allreduce(&local, nrm, 1, MPIU_REAL, MPIU_SUM, PetscObjectComm((PetscObject)A)));
  *nrm = PetscSqrtReal(*nrm);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MPIDense's duplicate duplicates the local block with MatDuplicate(): on the backend when the values are there */
static PetscErrorCode MatDuplicate_MPIDenseGPU(Mat A, MatDuplicateOption op, Mat *B)
{
  PetscFunctionBegin;
  PetscCall((*MatDenseGPUData(A)->baseops.duplicate)(A, op, B));
  MatDenseGPUData(*B)->backend = MatDenseGPUData(A)->backend;
  PetscCall(MatMPIDenseGPUAdoptLocal(*B));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---------------------------------------------------------------- conversion */

static PetscErrorCode MatConvert_MPIDenseGPU_MPIDense(Mat, MatType, MatReuse, Mat *);
static PetscErrorCode MatConvert_MPIDense_MPIDenseGPU(Mat, MatType, MatReuse, Mat *);

static PetscErrorCode MatMPIDenseGPUComposeFunctions(Mat A, PetscBool compose)
{
  Mat_DenseGPU *d = MatDenseGPUData(A);

  PetscFunctionBegin;
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatMPIDenseSetPreallocation_C", compose ? MatMPIDenseSetPreallocation_MPIDenseGPU : d->base.mpipreallocation));
#define MAT_MPIDENSEGPU_COMPOSE(field, name, ...) \
  if (d->base.field) PetscCall(PetscObjectComposeFunction((PetscObject)A, name, compose ? MatMPIDenseGPU_##field : d->base.field));
  MAT_MPIDENSEGPU_GETTERS(MAT_MPIDENSEGPU_COMPOSE)
#undef MAT_MPIDENSEGPU_COMPOSE
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatConvert_mpidensegpu_mpidense_C", compose ? MatConvert_MPIDenseGPU_MPIDense : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatConvert_mpidense_mpidensegpu_C", compose ? MatConvert_MPIDense_MPIDenseGPU : NULL));
  PetscCall(MatDenseGPUComposeBaseFunctions_Private(A, MATMPIDENSE, MATMPIDENSEGPU, compose));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* back to MPIDense, in place, the local block too with its host copy brought up to date; or (keep =
   FALSE), for the destroy, only what the base type does not free */
static PetscErrorCode MatMPIDenseGPURevert(Mat A, PetscBool keep)
{
  Mat       Al;
  PetscBool ours = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(MatDenseGetLocalMatrix(A, &Al));
  if (Al) PetscCall(PetscObjectTypeCompare((PetscObject)Al, MATSEQDENSEGPU, &ours));
  if (keep && ours) PetscCall(MatSeqDenseGPURevert_Private(Al, PETSC_TRUE));
  PetscCall(MatMPIDenseGPUComposeFunctions(A, PETSC_FALSE));
  PetscCall(MatDenseGPUUnwrap_Private(A));
  PetscCall(PetscFree(A->spptr));
  if (!keep) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatDenseGPUSetTypeNames_Private(A, MATMPIDENSE, VECSTANDARD));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatDestroy_MPIDenseGPU(Mat A)
{
  PetscErrorCode (*destroy)(Mat) = MatDenseGPUData(A)->baseops.destroy;

  PetscFunctionBegin;
  PetscCall(MatMPIDenseGPURevert(A, PETSC_FALSE));
  PetscCall((*destroy)(A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* turns the MPIDense matrix A (and its local block) into an mpidensegpu of the given backend, in place; nothing moves */
static PetscErrorCode MatConvertInPlace_MPIDense_MPIDenseGPU(Mat A, PetscELLGBackend backend)
{
  Mat_DenseGPU *d;

  PetscFunctionBegin;
  PetscCall(PetscNew(&d));
  d->backend    = backend;
  d->mpi        = PETSC_TRUE;
  d->adoptlocal = MatMPIDenseGPUAdoptLocal;
  d->baseops    = *A->ops;
  PetscCall(PetscObjectQueryFunction((PetscObject)A, "MatMPIDenseSetPreallocation_C", &d->base.mpipreallocation));
  PetscCheck(d->base.mpipreallocation, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s has no MatMPIDenseSetPreallocation_C", MATMPIDENSE);
#define MAT_MPIDENSEGPU_QUERY(field, name, ...) PetscCall(PetscObjectQueryFunction((PetscObject)A, name, &d->base.field));
  MAT_MPIDENSEGPU_GETTERS(MAT_MPIDENSEGPU_QUERY)
#undef MAT_MPIDENSEGPU_QUERY
  A->spptr = d;
  PetscCall(MatDenseGPUWrapBaseOps_Private(A, MATMPIDENSE));
  A->ops->zeroentries = MatZeroEntries_MPIDenseGPU;
  A->ops->scale       = MatScale_MPIDenseGPU;
  A->ops->copy        = MatCopy_MPIDenseGPU;
  A->ops->axpy        = MatAXPY_MPIDenseGPU;
  A->ops->norm        = MatNorm_MPIDenseGPU;
  A->ops->duplicate   = MatDuplicate_MPIDenseGPU;
  A->ops->destroy     = MatDestroy_MPIDenseGPU;
  d->gpuops           = *A->ops;
  PetscCall(MatMPIDenseGPUComposeFunctions(A, PETSC_TRUE));
  PetscCall(MatDenseGPUSetTypeNames_Private(A, MATMPIDENSEGPU, VECGPU));
  PetscCall(MatMPIDenseGPUAdoptLocal(A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatConvert_MPIDense_MPIDenseGPU(Mat A, MatType type, MatReuse reuse, Mat *B)
{
  PetscFunctionBegin;
  PetscCall(MatConvert_Dense_DenseGPU_Private(A, reuse, B, MatConvertInPlace_MPIDense_MPIDenseGPU));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatConvert_MPIDenseGPU_MPIDense(Mat A, MatType type, MatReuse reuse, Mat *B)
{
  PetscFunctionBegin;
  PetscCall(MatConvert_DenseGPU_Dense_Private(A, reuse, B, MatMPIDenseGPURevert));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatCreate_MPIDenseGPU(Mat A)
{
  PetscFunctionBegin;
  PetscCall(MatCreate_DenseGPU_Private(A, MATMPIDENSE, MatConvertInPlace_MPIDense_MPIDenseGPU));
  PetscFunctionReturn(PETSC_SUCCESS);
}
