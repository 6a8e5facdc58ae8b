/* Device vectors: the host and backend copies of the values, their synchronisation, access to them */
#include "vecgpuimpl.h"

static inline PetscScalar *VecGPUHostCopy(Vec v)
{
  return *(PetscScalar **)v->data;
}

static PetscErrorCode VecGPUAllocate(void *ctx)
{
  Vec      v = (Vec)ctx;
  Vec_GPU *g = VecGPUData(v);

  PetscFunctionBegin;
  if (!g->array) PetscCall(PetscELLGMalloc(g->backend, (size_t)v->map->n * sizeof(PetscScalar), (void **)&g->array));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode VecGPUToBackend(void *ctx)
{
  Vec          v     = (Vec)ctx;
  Vec_GPU     *g     = VecGPUData(v);
  const size_t bytes = (size_t)v->map->n * sizeof(PetscScalar);

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(VECGPU_CopyToGPU, v, 0, 0, 0));
  PetscCall(PetscELLGMemcpy(g->backend, g->array, VecGPUHostCopy(v), bytes, ELLG_MEMCPY_HTOD));
  PetscCall(PetscLogEventEnd(VECGPU_CopyToGPU, v, 0, 0, 0));
  g->constant = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* by a copy, or by filling the host copy with the value of VecSet() */
static PetscErrorCode VecGPUToHost(void *ctx)
{
  Vec          v     = (Vec)ctx;
  Vec_GPU     *g     = VecGPUData(v);
  const size_t bytes = (size_t)v->map->n * sizeof(PetscScalar);
  PetscScalar *h     = VecGPUHostCopy(v);

  PetscFunctionBegin;
  if (g->constant) {
    for (PetscInt i = 0; i < v->map->n; i++) h[i] = g->value;
  } else {
    PetscCall(PetscLogEventBegin(VECGPU_CopyFromGPU, v, 0, 0, 0));
    PetscCall(PetscELLGMemcpy(g->backend, h, g->array, bytes, ELLG_MEMCPY_DTOH));
    PetscCall(PetscLogEventEnd(VECGPU_CopyFromGPU, v, 0, 0, 0));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

const ELLGMirrorOps VecGPUMirrorOps = {VecGPUAllocate, VecGPUToBackend, VecGPUToHost};

/* the backend copy of the local values of device vector v, for access mode (ELLGMirrorBackendAccess()) */
static PetscErrorCode VecGPUBackendArrayOf(Vec v, Vec_GPU *g, ELLGAccess mode, PetscScalar **a)
{
  PetscFunctionBegin;
  PetscCall(ELLGMirrorBackendAccess(&g->mirror, mode));
  if (mode != ELLG_ACCESS_READ) g->constant = PETSC_FALSE;
  *a = g->array;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode VecGPUBackendArray_Private(Vec v, ELLGAccess mode, PetscScalar **a)
{
  PetscFunctionBegin;
  PetscCall(VecGPUBackendArrayOf(v, VecGPUData(v), mode, a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* how the host copy is made ready for access mode: writing gets the value of VecSet() too, as that
   costs no transfer */
static inline ELLGAccess VecGPUHostMode(const Vec_GPU *g, ELLGAccess mode)
{
  return mode == ELLG_ACCESS_WRITE && g->constant ? ELLG_ACCESS_READ_WRITE : mode;
}

/*
   The copy of the local values that an operation on v alone works on, for access mode, and the
   kernels to run on it: the backend copy and the backend's kernels, or while a host array of v is
   checked out the host copy and the host loops
*/
PetscErrorCode VecGPUArray_Private(Vec v, ELLGAccess mode, const VecGPUKernels **k, PetscScalar **a)
{
  Vec_GPU *g = VecGPUData(v);

  PetscFunctionBegin;
  if (ELLGMirrorCheckedOut(&g->mirror)) {
    *k = &VecGPUKernelsHost;
    PetscCall(ELLGMirrorHostBegin(&g->mirror, VecGPUHostMode(g, mode)));
    *a = VecGPUHostCopy(v);
  } else {
    *k = g->kernels;
    PetscCall(VecGPUBackendArrayOf(v, g, mode, a));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* VecGetArray*(): the host copy, for access mode, checked out until the matching VecRestoreArray*() */
static PetscErrorCode VecGPUCheckOut(Vec v, ELLGAccess mode, PetscScalar **a)
{
  Vec_GPU *g = VecGPUData(v);

  PetscFunctionBegin;
  PetscCall(ELLGMirrorCheckOut(&g->mirror, VecGPUHostMode(g, mode)));
  *a = VecGPUHostCopy(v);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode VecGetArray_GPU(Vec v, PetscScalar **a)
{
  PetscFunctionBegin;
  PetscCall(VecGPUCheckOut(v, ELLG_ACCESS_READ_WRITE, a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode VecGetArrayWrite_GPU(Vec v, PetscScalar **a)
{
  PetscFunctionBegin;
  PetscCall(VecGPUCheckOut(v, ELLG_ACCESS_WRITE, a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the backend copy stays valid too */
static PetscErrorCode VecGetArrayRead_GPU(Vec v, const PetscScalar **a)
{
  PetscFunctionBegin;
  PetscCall(VecGPUCheckOut(v, ELLG_ACCESS_READ, (PetscScalar **)a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* for VecRestoreArray() and VecRestoreArrayWrite() */
static PetscErrorCode VecRestoreArray_GPU(Vec v, PetscScalar **a)
{
  PetscFunctionBegin;
  PetscCall(ELLGMirrorCheckIn(&VecGPUData(v)->mirror, ELLG_ACCESS_READ_WRITE, "VecRestoreArray()"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PETSc calls it because the vectors are not petscnative */
static PetscErrorCode VecRestoreArrayRead_GPU(Vec v, const PetscScalar **a)
{
  PetscFunctionBegin;
  PetscCall(ELLGMirrorCheckIn(&VecGPUData(v)->mirror, ELLG_ACCESS_READ, "VecRestoreArrayRead()"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode VecGPUSetArrayOps_Private(Vec v)
{
  PetscFunctionBegin;
  v->ops->getarray          = VecGetArray_GPU;
  v->ops->restorearray      = VecRestoreArray_GPU;
  v->ops->getarrayread      = VecGetArrayRead_GPU;
  v->ops->restorearrayread  = VecRestoreArrayRead_GPU;
  v->ops->getarraywrite     = VecGetArrayWrite_GPU;
  v->ops->restorearraywrite = VecRestoreArray_GPU;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
   VecGPUGetArrayRead - read access to the local values of a device vector in the memory of its
   backend (GPU memory for the cuda backend)

   Not Collective

   Input Parameter:
.  v - a `VECSEQGPU` or `VECMPIGPU` vector

   Output Parameter:
.  a - the local values; `NULL` for a vector without local entries

   Level: developer

   Notes:
   The values are copied there first if only the host copy is current; both copies stay valid.
   While a host array of the vector is out for writing (`VecGetArray()` or `VecGetArrayWrite()` not
   yet restored) they are copied every time. Return the array with `VecGPURestoreArrayRead()`.

   With the host backend (`PetscELLGGetBackend()`) the array is host memory, separate from the
   array of `VecGetArray()`.

.seealso: `VecGPURestoreArrayRead()`, `VecGPUGetArrayWrite()`, `VecGPUGetArray()`, `VecGPUGetBackend()`, `VecGetArrayRead()`
@*/
PetscErrorCode VecGPUGetArrayRead(Vec v, const PetscScalar **a)
{
  Vec_GPU *g;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(v, VEC_CLASSID, 1);
  PetscAssertPointer(a, 2);
  PetscCall(VecGPUCheckType_Private(v, PETSC_FUNCTION_NAME, &g));
  PetscCall(VecGPUBackendArrayOf(v, g, ELLG_ACCESS_READ, (PetscScalar **)a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
   VecGPURestoreArrayRead - returns the array of `VecGPUGetArrayRead()`

   Not Collective

   Input Parameters:
+  v - the vector
-  a - the array, set to `NULL`

   Level: developer

.seealso: `VecGPUGetArrayRead()`
@*/
PetscErrorCode VecGPURestoreArrayRead(Vec v, const PetscScalar **a)
{
  Vec_GPU *g;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(v, VEC_CLASSID, 1);
  PetscCall(VecGPUCheckType_Private(v, PETSC_FUNCTION_NAME, &g));
  if (a) *a = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
   VecGPUGetArrayWrite - write access to the local values of a device vector in the memory of its
   backend, for overwriting all of them

   Logically Collective

   Input Parameter:
.  v - a `VECSEQGPU` or `VECMPIGPU` vector

   Output Parameter:
.  a - the local values, whose content is undefined; `NULL` for a vector without local entries

   Level: developer

   Note:
   Nothing is copied. After `VecGPURestoreArrayWrite()` the backend copy is the only valid one, or,
   while a host array of the vector is checked out (`VecGetArray()` and friends not yet restored),
   the values are copied back to the host copy at once.

.seealso: `VecGPURestoreArrayWrite()`, `VecGPUGetArrayRead()`, `VecGPUGetArray()`, `VecGetArrayWrite()`
@*/
PetscErrorCode VecGPUGetArrayWrite(Vec v, PetscScalar **a)
{
  Vec_GPU *g;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(v, VEC_CLASSID, 1);
  PetscAssertPointer(a, 2);
  PetscCall(VecGPUCheckType_Private(v, PETSC_FUNCTION_NAME, &g));
  PetscCall(VecSetErrorIfLocked(v, 1));
  PetscCall(VecGPUBackendArrayOf(v, g, ELLG_ACCESS_WRITE, a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the backend copy was written: it is the only valid one (copied back at once to a checked-out
   host copy), and the vector has changed */
static PetscErrorCode VecGPURestoreWritten(Vec v, Vec_GPU *g, PetscScalar **a)
{
  PetscFunctionBegin;
  PetscCall(ELLGMirrorBackendWritten(&g->mirror));
  PetscCall(PetscObjectStateIncrease((PetscObject)v));
  if (a) *a = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
   VecGPURestoreArrayWrite - returns the array of `VecGPUGetArrayWrite()`

   Logically Collective

   Input Parameters:
+  v - the vector
-  a - the array, set to `NULL`

   Level: developer

   Note:
   Increases the state of the vector, as `VecRestoreArray()` does: call it on every MPI process.

.seealso: `VecGPUGetArrayWrite()`
@*/
PetscErrorCode VecGPURestoreArrayWrite(Vec v, PetscScalar **a)
{
  Vec_GPU *g;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(v, VEC_CLASSID, 1);
  PetscCall(VecGPUCheckType_Private(v, PETSC_FUNCTION_NAME, &g));
  PetscCall(VecGPURestoreWritten(v, g, a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
   VecGPUGetArray - read and write access to the local values of a device vector in the memory of
   its backend

   Logically Collective

   Input Parameter:
.  v - a `VECSEQGPU` or `VECMPIGPU` vector

   Output Parameter:
.  a - the local values; `NULL` for a vector without local entries

   Level: developer

   Note:
   The values are copied there first if only the host copy is current (as for
   `VecGPUGetArrayRead()`). After `VecGPURestoreArray()` the backend copy is the only valid one, or
   they are copied back as after `VecGPURestoreArrayWrite()`.

.seealso: `VecGPURestoreArray()`, `VecGPUGetArrayRead()`, `VecGPUGetArrayWrite()`, `VecGPUGetBackend()`, `VecGetArray()`
@*/
PetscErrorCode VecGPUGetArray(Vec v, PetscScalar **a)
{
  Vec_GPU *g;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(v, VEC_CLASSID, 1);
  PetscAssertPointer(a, 2);
  PetscCall(VecGPUCheckType_Private(v, PETSC_FUNCTION_NAME, &g));
  PetscCall(VecSetErrorIfLocked(v, 1));
  PetscCall(VecGPUBackendArrayOf(v, g, ELLG_ACCESS_READ_WRITE, a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
   VecGPURestoreArray - returns the array of `VecGPUGetArray()`

   Logically Collective

   Input Parameters:
+  v - the vector
-  a - the array, set to `NULL`

   Level: developer

   Note:
   Increases the state of the vector, as `VecRestoreArray()` does: call it on every MPI process.

.seealso: `VecGPUGetArray()`
@*/
PetscErrorCode VecGPURestoreArray(Vec v, PetscScalar **a)
{
  Vec_GPU *g;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(v, VEC_CLASSID, 1);
  PetscCall(VecGPUCheckType_Private(v, PETSC_FUNCTION_NAME, &g));
  PetscCall(VecGPURestoreWritten(v, g, a));
  PetscFunctionReturn(PETSC_SUCCESS);
}
