/* Device dense matrices: the public functions on them (backend, arrays in the backend's memory) */
#include "densegpuimpl.h"

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
