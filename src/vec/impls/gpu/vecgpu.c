/* Device vectors: conversion of a seq or mpi vector in place, duplicate, the root type VECGPU */
#include "vecgpuimpl.h"

/* gives v fresh device state (nothing allocated, the host copy valid), replacing any it had */
static PetscErrorCode VecGPUAttach(Vec v, PetscELLGBackend backend, const struct _VecOps *baseops)
{
  Vec_GPU *g;

  PetscFunctionBegin;
  PetscCheck((size_t)v->map->n <= (size_t)INT_MAX, PETSC_COMM_SELF, PETSC_ERR_SUP, "Local length %" PetscInt_FMT " is too large for the vector kernels (at most %d)", v->map->n, INT_MAX);
  PetscCall(PetscNew(&g));
  g->backend = backend;
  g->kernels = VecGPUKernelsOf(backend);
  g->baseops = *baseops;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)v), &g->size));
  ELLGMirrorInit(&g->mirror, &VecGPUMirrorOps, v, &v->offloadmask);
  PetscCall(VecGPUSetData_Private(v, g));
  v->petscnative = PETSC_FALSE; /* its host array is not always current (see vecgpuimpl.h) */
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode VecDuplicate_GPU(Vec v, Vec *w)
{
  Vec_GPU *g;

  PetscFunctionBegin;
  PetscCall(VecGPUGetData_Private(v, &g));
  PetscCall((*g->baseops.duplicate)(v, w));
  /* the base duplicate makes w a device vector through VecSetType() (seq), or copies the operations
     of v without its device state and names the type "mpi" (mpi): give w its own */
  PetscCall(VecGPUAttach(*w, g->backend, &g->baseops));
  PetscCall(PetscObjectChangeTypeName((PetscObject)*w, ((PetscObject)v)->type_name));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* one VecDuplicate() each, so that every vector is a device vector of its own (PETSc's sequential
   vectors duplicate groups of vectors in one array from PETSc 3.21 on) */
static PetscErrorCode VecDuplicateVecs_GPU(Vec v, PetscInt m, Vec *V[])
{
  PetscFunctionBegin;
  PetscCall(PetscMalloc1(m, V));
  for (PetscInt i = 0; i < m; i++) PetscCall(VecDuplicate(v, *V + i));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode VecDestroyVecs_GPU(PetscInt m, Vec V[])
{
  PetscFunctionBegin;
  for (PetscInt i = 0; i < m; i++) PetscCall(VecDestroy(&V[i]));
  PetscCall(PetscFree(V));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* creates v as PETSc's vector type base and converts it in place into the device type type */
PetscErrorCode VecGPUCreateFromBase_Private(Vec v, const char base[], const char type[])
{
  PetscErrorCode (*create)(Vec) = NULL;
  PetscELLGBackend backend;

  PetscFunctionBegin;
  PetscCall(PetscELLGGetBackend_Private(&backend));
  PetscCall(PetscFunctionListFind(VecList, base, &create));
  PetscCheck(create, PetscObjectComm((PetscObject)v), PETSC_ERR_LIB, "PETSc has no vector type %s to build %s on", base, type);
  PetscCall((*create)(v));
  PetscCall(VecGPUAttach(v, backend, v->ops));
  PetscCall(VecGPUSetBaseOps_Private(v));
  PetscCall(VecGPUSetDeviceOps_Private(v));
  PetscCall(VecGPUSetArrayOps_Private(v));
  PetscCall(VecGPUSetCOOOps_Private(v));
  v->ops->destroy       = VecDestroy_GPU;
  v->ops->duplicate     = VecDuplicate_GPU;
  v->ops->duplicatevecs = VecDuplicateVecs_GPU;
  v->ops->destroyvecs   = VecDestroyVecs_GPU;
  PetscCall(PetscObjectChangeTypeName((PetscObject)v, type));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*MC
   VECGPU - "gpu" - a device-resident vector: `VECSEQGPU` on one MPI process, `VECMPIGPU` on more

   Options Database Keys:
+  -vec_type gpu - makes `VecSetFromOptions()` create this type
-  -ellg_backend <host,cuda> - where the vector operations run (see `PetscELLGGetBackend()`)

   Level: beginner

   Notes:
   The vector keeps PETSc's host array, so that `VecGetArray()` and every PETSc routine work, and a
   copy in the backend's memory (GPU memory for cuda), allocated on first use, on which the common
   Krylov operations run (copy, set, scale, axpy, aypx, axpby, axpbypcz, waxpy, maxpy, dot, tdot,
   mdot, norms, pointwise mult/divide/max/min, reciprocal, shift, abs, max/min, sum, dotnorm2, swap).
   Data moves between the two copies only when the other one is needed. Any other operation runs
   PETSc's host code on the host copy. Other codes reach the backend copy with `VecGPUGetArray()`.

   While an array of `VecGetArray()`, `VecGetArrayRead()` or `VecGetArrayWrite()` is out (not yet
   restored), every operation on the vector runs on the host copy, so that values written through
   the array and values the operations compute are seen on both sides. An array must not be used
   after it is restored: the Krylov methods that do so, `KSPIBCGS` and `KSPFBCGSR`, refuse these
   vectors ("Only coded for PETSc vectors").

.seealso: `VECSEQGPU`, `VECMPIGPU`, `VecCreateSeqGPU()`, `VecGPUGetArray()`, `VecGPUGetBackend()`
M*/
PetscErrorCode VecCreate_GPU(Vec v)
{
  PetscMPIInt size;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)v), &size));
  /* VecSetType(v, VECGPU) on a seqgpu or mpigpu vector destroys it before calling this but keeps
     its type name, which would make the VecSetType() below return at once: forget the name */
  PetscCall(PetscObjectChangeTypeName((PetscObject)v, NULL));
  PetscCall(VecSetType(v, size > 1 ? VECMPIGPU : VECSEQGPU));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   VecGPUGetBackend - the backend that the operations of a device vector run on

   Not Collective

   Input Parameter:
.  v - a `VECSEQGPU` or `VECMPIGPU` vector

   Output Parameter:
.  backend - `PETSCELLG_BACKEND_CUDA` or `PETSCELLG_BACKEND_HOST`

   Level: intermediate

   Note:
   A vector keeps the backend it was created with (`PetscELLGGetBackend()` at that time); its
   duplicates have it too.

.seealso: `VECGPU`, `PetscELLGGetBackend()`, `VecGPUGetArray()`
@*/
PetscErrorCode VecGPUGetBackend(Vec v, PetscELLGBackend *backend)
{
  Vec_GPU *g;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(v, VEC_CLASSID, 1);
  PetscAssertPointer(backend, 2);
  PetscCall(VecGPUCheckType_Private(v, PETSC_FUNCTION_NAME, &g));
  *backend = g->backend;
  PetscFunctionReturn(PETSC_SUCCESS);
}
