/* Device dense matrices: registration, the root type MATDENSEGPU, the public functions */
#include "densegpuimpl.h"

PetscErrorCode MatDenseGPURegisterTypes(void)
{
  PetscFunctionBegin;
  PetscCall(MatRegister(MATSEQDENSEGPU, MatCreate_SeqDenseGPU));
  PetscCall(MatRegister(MATMPIDENSEGPU, MatCreate_MPIDenseGPU));
  PetscCall(MatRegisterRootName(MATDENSEGPU, MATSEQDENSEGPU, MATMPIDENSEGPU));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* whether M is a device dense matrix of backend be and, when valid, whether its values are valid in the
   backend's memory, so that reading them there costs no copy */
PetscErrorCode MatDenseGPUInBackend(Mat M, PetscELLGBackend be, PetscBool valid, PetscBool *in)
{
  Mat           S;
  Mat_DenseGPU *d;

  PetscFunctionBegin;
  PetscCall(MatDenseGPUGetValues_Private(M, &S));
  *in = PETSC_FALSE;
#if defined(ELLG_HAVE_PETSC_CUDA)
  if (!S && be == PETSCELLG_BACKEND_CUDA) {
    PetscBool bound;

    PetscCall(PetscObjectTypeCompareAny((PetscObject)M, in, MATSEQDENSECUDA, MATMPIDENSECUDA, ""));
    PetscCall(MatBoundToCPU(M, &bound)); /* its host array is then the only one PETSc reads */
    *in = (PetscBool)(*in && !bound);
  }
#endif
  if (!S) PetscFunctionReturn(PETSC_SUCCESS);
  d   = MatDenseGPUData(S);
  *in = (PetscBool)(d->backend == be && (!valid || (d->mask != PETSC_OFFLOAD_CPU && !d->mirror.hostwrites)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the local values of M (a matrix for which MatDenseGPUInBackend() holds) in its backend's memory for
   reading, and their leading dimension */
PetscErrorCode MatDenseGPUGetBackendArrayRead(Mat M, const PetscScalar **a, PetscInt *lda)
{
  Mat S;

  PetscFunctionBegin;
  PetscCall(MatDenseGPUGetValues_Private(M, &S));
  if (S) PetscCall(MatDenseGPUGetArrayRead(M, a, lda));
#if defined(ELLG_HAVE_PETSC_CUDA)
  else {
    PetscCall(MatDenseCUDAGetArrayRead(M, a));
    PetscCall(MatDenseGetLDA(M, lda));
    PetscCall(PetscELLGWaitForPetsc());
  }
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatDenseGPURestoreBackendArrayRead(Mat M, const PetscScalar **a)
{
  Mat S;

  PetscFunctionBegin;
  PetscCall(MatDenseGPUGetValues_Private(M, &S));
  if (S) PetscCall(MatDenseGPURestoreArrayRead(M, a));
#if defined(ELLG_HAVE_PETSC_CUDA)
  else {
    PetscCall(PetscELLGPetscWaitForUs());
    PetscCall(MatDenseCUDARestoreArrayRead(M, a));
  }
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the local values of M in its backend's memory for overwriting, and their leading dimension */
PetscErrorCode MatDenseGPUGetBackendArrayWrite(Mat M, PetscScalar **a, PetscInt *lda)
{
  Mat S;

  PetscFunctionBegin;
  PetscCall(MatDenseGPUGetValues_Private(M, &S));
  if (S) PetscCall(MatDenseGPUGetArrayWrite(M, a, lda));
#if defined(ELLG_HAVE_PETSC_CUDA)
  else {
    PetscCall(MatDenseCUDAGetArrayWrite(M, a));
    PetscCall(MatDenseGetLDA(M, lda));
    PetscCall(PetscELLGWaitForPetsc());
  }
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatDenseGPURestoreBackendArrayWrite(Mat M, PetscScalar **a)
{
  Mat S;

  PetscFunctionBegin;
  PetscCall(MatDenseGPUGetValues_Private(M, &S));
  if (S) PetscCall(MatDenseGPURestoreArrayWrite(M, a));
#if defined(ELLG_HAVE_PETSC_CUDA)
  else {
    PetscCall(PetscELLGPetscWaitForUs());
    PetscCall(MatDenseCUDARestoreArrayWrite(M, a));
  }
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*MC
   MATDENSEGPU - "densegpu" - a dense matrix with a copy of its values in GPU memory: `MATSEQDENSEGPU`
   on one MPI process, `MATMPIDENSEGPU` on more

   Options Database Keys:
+  -mat_type densegpu - makes `MatSetFromOptions()` create this type
-  -ellg_backend <host,cuda> - where the copy lives and its operations run (see `PetscELLGGetBackend()`)

   Level: beginner

   Notes:
   A `MATSEQDENSE` (`MATMPIDENSE`) matrix whose host array stays PETSc's own, so that every dense
   operation and `MatDenseGetArray()` work, with a copy of the local values in the backend's memory
   (column-major, leading dimension the number of local rows), allocated on first use. Values move
   between the two copies only when the other one is needed: `MatConvert()` to this type puts them on
   the backend; host code of the dense type (`MatSetValues()`, `MatGetValues()`, `MatView()`,
   `MatMult()`, `MatTranspose()`, ..., `MatDenseGetArray()` and friends) brings the host copy up to
   date first, and leaves it the only valid one when it may have written it.

   `MatZeroEntries()`, `MatScale()`, `MatCopy()` and `MatAXPY()` between matrices of this type,
   `MatNorm()` with `NORM_FROBENIUS` and `MatDuplicate()` run on the backend copy when it is valid (no
   host array out); otherwise on the host. `MatMatMult()` of a `MATELLG`, `MATPJDS` or `MATSLICEDELL`
   matrix with a B of this type whose values are on the backend runs on the backend copies of B and
   C, and C (of this type) stays there. Other codes reach the backend copy with
   `MatDenseGPUGetArray()`.

.seealso: `MATSEQDENSEGPU`, `MATMPIDENSEGPU`, `MatCreateDenseGPU()`, `MatDenseGPUGetArray()`, `MatDenseGPUGetBackend()`, `MATDENSE`
M*/

/*MC
   MATSEQDENSEGPU - "seqdensegpu" - `MATDENSEGPU` on one MPI process

   Level: beginner

.seealso: `MATDENSEGPU`, `MATMPIDENSEGPU`, `MATSEQDENSE`
M*/

/*MC
   MATMPIDENSEGPU - "mpidensegpu" - `MATDENSEGPU` on several MPI processes: a `MATMPIDENSE` whose local
   block (`MatDenseGetLocalMatrix()`) is a `MATSEQDENSEGPU`

   Level: beginner

.seealso: `MATDENSEGPU`, `MATSEQDENSEGPU`, `MATMPIDENSE`
M*/

/*@C
   MatCreateDenseGPU - creates a dense matrix with a copy of its values in GPU memory

   Collective

   Input Parameters:
+  comm - MPI communicator
.  m - number of local rows (or `PETSC_DECIDE` to have it calculated if M is given)
.  n - number of local columns (or `PETSC_DECIDE` to have it calculated if N is given)
.  M - number of global rows (or `PETSC_DECIDE` to have it calculated if m is given)
.  N - number of global columns (or `PETSC_DECIDE` to have it calculated if n is given)
-  data - optional host array of the local values, column-major with leading dimension m (`NULL`: PETSc allocates it)

   Output Parameter:
.  A - the matrix, of type `MATSEQDENSEGPU` or `MATMPIDENSEGPU`

   Level: intermediate

   Note:
   As `MatCreateDense()`: the host array is the matrix's; the backend copy is made when needed.

.seealso: `MATDENSEGPU`, `MatCreateDense()`, `MatDenseGPUGetArray()`
@*/
PetscErrorCode MatCreateDenseGPU(MPI_Comm comm, PetscInt m, PetscInt n, PetscInt M, PetscInt N, PetscScalar *data, Mat *A)
{
  PetscFunctionBegin;
  PetscCall(PetscELLGInitializePackage());
  PetscCall(MatCreate(comm, A));
  PetscCall(MatSetSizes(*A, m, n, M, N));
  PetscCall(MatSetType(*A, MATDENSEGPU));
  PetscCall(MatSeqDenseSetPreallocation(*A, data));
  PetscCall(MatMPIDenseSetPreallocation(*A, data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   MatDenseGPUGetBackend - the backend that holds the copy of the values of a device dense matrix and
   runs its operations

   Not Collective

   Input Parameter:
.  A - a `MATSEQDENSEGPU` or `MATMPIDENSEGPU` matrix

   Output Parameter:
.  backend - `PETSCELLG_BACKEND_CUDA` or `PETSCELLG_BACKEND_HOST`

   Level: intermediate

.seealso: `MATDENSEGPU`, `PetscELLGGetBackend()`
@*/
PetscErrorCode MatDenseGPUGetBackend(Mat A, PetscELLGBackend *backend)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscAssertPointer(backend, 2);
  PetscCall(MatDenseGPUCheckType_Private(A, PETSC_FUNCTION_NAME));
  *backend = MatDenseGPUData(A)->backend;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the seqdensegpu holding the values of the device dense matrix A, set up; func names the caller */
static PetscErrorCode MatDenseGPUGetValuesSetUp(Mat A, const char func[], Mat *S)
{
  PetscFunctionBegin;
  PetscCall(MatDenseGPUCheckType_Private(A, func));
  if (!A->preallocated) PetscCall(MatSetUp(A));
  PetscCall(MatDenseGPUGetValues_Private(A, S));
  PetscCheck(*S, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s matrix without a local block of type %s", ((PetscObject)A)->type_name, MATSEQDENSEGPU);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MatDenseGPUGetArray*(): the backend copy of the local values for mode, and its leading dimension */
static PetscErrorCode MatDenseGPUGetArray_Private(Mat A, ELLGAccess mode, const char func[], PetscScalar **a, PetscInt *lda)
{
  Mat S;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscAssertPointer(a, 2);
  PetscCall(MatDenseGPUGetValuesSetUp(A, func, &S));
  PetscCall(MatSeqDenseGPUBackendArray_Private(S, mode, a));
  if (lda) *lda = PetscMax(S->rmap->n, 1);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MatDenseGPURestoreArray() and MatDenseGPURestoreArrayWrite(): A has changed */
static PetscErrorCode MatDenseGPURestoreWritten(Mat A, const char func[], PetscScalar **a)
{
  Mat S;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscCall(MatDenseGPUGetValuesSetUp(A, func, &S));
  PetscCall(MatSeqDenseGPURestoreWritten_Private(S));
  if (S != A) PetscCall(PetscObjectStateIncrease((PetscObject)A));
  if (a) *a = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
   MatDenseGPUGetArrayRead - read access to the local values of a device dense matrix in the memory of
   its backend (GPU memory for the cuda backend)

   Not Collective

   Input Parameter:
.  A - a `MATSEQDENSEGPU` or `MATMPIDENSEGPU` matrix

   Output Parameters:
+  a - the local values, column-major; `NULL` for a matrix without local entries
-  lda - the leading dimension of a, the number of local rows (1 when there are none); may be `NULL`

   Level: developer

   Notes:
   The values are copied there first if only the host copy is current; both copies stay valid. While a
   host array of the matrix is out for writing (`MatDenseGetArray()` and friends not yet restored) they
   are copied every time. Return the array with `MatDenseGPURestoreArrayRead()`.

   With the host backend the array is host memory, separate from that of `MatDenseGetArray()`.

.seealso: `MatDenseGPURestoreArrayRead()`, `MatDenseGPUGetArrayWrite()`, `MatDenseGPUGetArray()`, `MatDenseGPUGetBackend()`, `MatDenseGetArrayRead()`
@*/
PetscErrorCode MatDenseGPUGetArrayRead(Mat A, const PetscScalar **a, PetscInt *lda)
{
  PetscFunctionBegin;
  PetscCall(MatDenseGPUGetArray_Private(A, ELLG_ACCESS_READ, PETSC_FUNCTION_NAME, (PetscScalar **)a, lda));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
   MatDenseGPURestoreArrayRead - returns the array of `MatDenseGPUGetArrayRead()`

   Not Collective

   Input Parameters:
+  A - the matrix
-  a - the array, set to `NULL`

   Level: developer

.seealso: `MatDenseGPUGetArrayRead()`
@*/
PetscErrorCode MatDenseGPURestoreArrayRead(Mat A, const PetscScalar **a)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscCall(MatDenseGPUCheckType_Private(A, PETSC_FUNCTION_NAME));
  if (a) *a = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
   MatDenseGPUGetArrayWrite - write access to the local values of a device dense matrix in the memory
   of its backend, for overwriting all of them

   Not Collective

   Input Parameter:
.  A - a `MATSEQDENSEGPU` or `MATMPIDENSEGPU` matrix

   Output Parameters:
+  a - the local values, column-major, whose content is undefined; `NULL` for a matrix without local entries
-  lda - the leading dimension of a, the number of local rows (1 when there are none); may be `NULL`

   Level: developer

   Note:
   Nothing is copied. After `MatDenseGPURestoreArrayWrite()` the backend copy is the only valid one,
   or, while a host array of the matrix is out (`MatDenseGetArray()` and friends not yet restored),
   the values are copied back to the host copy at once.

.seealso: `MatDenseGPURestoreArrayWrite()`, `MatDenseGPUGetArrayRead()`, `MatDenseGPUGetArray()`, `MatDenseGetArrayWrite()`
@*/
PetscErrorCode MatDenseGPUGetArrayWrite(Mat A, PetscScalar **a, PetscInt *lda)
{
  PetscFunctionBegin;
  PetscCall(MatDenseGPUGetArray_Private(A, ELLG_ACCESS_WRITE, PETSC_FUNCTION_NAME, a, lda));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
   MatDenseGPURestoreArrayWrite - returns the array of `MatDenseGPUGetArrayWrite()`

   Not Collective

   Input Parameters:
+  A - the matrix
-  a - the array, set to `NULL`

   Level: developer

   Note:
   Increases the state of the matrix, as `MatDenseRestoreArrayWrite()` does.

.seealso: `MatDenseGPUGetArrayWrite()`
@*/
PetscErrorCode MatDenseGPURestoreArrayWrite(Mat A, PetscScalar **a)
{
  PetscFunctionBegin;
  PetscCall(MatDenseGPURestoreWritten(A, PETSC_FUNCTION_NAME, a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
   MatDenseGPUGetArray - read and write access to the local values of a device dense matrix in the
   memory of its backend

   Not Collective

   Input Parameter:
.  A - a `MATSEQDENSEGPU` or `MATMPIDENSEGPU` matrix

   Output Parameters:
+  a - the local values, column-major; `NULL` for a matrix without local entries
-  lda - the leading dimension of a, the number of local rows (1 when there are none); may be `NULL`

   Level: developer

   Note:
   The values are copied there first if only the host copy is current (as for
   `MatDenseGPUGetArrayRead()`). After `MatDenseGPURestoreArray()` the backend copy is the only valid
   one, or they are copied back as after `MatDenseGPURestoreArrayWrite()`.

.seealso: `MatDenseGPURestoreArray()`, `MatDenseGPUGetArrayRead()`, `MatDenseGPUGetArrayWrite()`, `MatDenseGPUGetBackend()`, `MatDenseGetArray()`
@*/
PetscErrorCode MatDenseGPUGetArray(Mat A, PetscScalar **a, PetscInt *lda)
{
  PetscFunctionBegin;
  PetscCall(MatDenseGPUGetArray_Private(A, ELLG_ACCESS_READ_WRITE, PETSC_FUNCTION_NAME, a, lda));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
   MatDenseGPURestoreArray - returns the array of `MatDenseGPUGetArray()`

   Not Collective

   Input Parameters:
+  A - the matrix
-  a - the array, set to `NULL`

   Level: developer

   Note:
   Increases the state of the matrix, as `MatDenseRestoreArray()` does.

.seealso: `MatDenseGPUGetArray()`
@*/
PetscErrorCode MatDenseGPURestoreArray(Mat A, PetscScalar **a)
{
  PetscFunctionBegin;
  PetscCall(MatDenseGPURestoreWritten(A, PETSC_FUNCTION_NAME, a));
  PetscFunctionReturn(PETSC_SUCCESS);
}
