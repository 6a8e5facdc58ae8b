/* Internal declarations of the device vectors VECSEQGPU and VECMPIGPU, shared by src/vec/impls/gpu */
#pragma once

#include <ellgimpl.h>
#include <ellgmirror.h>
#include <ellgcoo.h>
#include <petsc/private/vecimpl.h>
#include <vecgpubackend.h>

#if defined(PETSC_USE_COMPLEX) || !defined(PETSC_USE_REAL_DOUBLE)
  #error "PETSc-ELLG device vectors need PETSc configured with real double-precision scalars"
#endif

/*
   A device vector is a seq or mpi vector converted in place: its host array is PETSc's own, the
   backend copy (device memory for cuda, a separate host allocation for host) is allocated on first
   use. v->offloadmask says which copy is valid (ELLGMirror, ellgmirror.h). This state is v->spptr,
   as PETSc's device vectors keep theirs.

   After VecSet() the backend copy is known to hold one value: the host copy is then brought up to
   date by filling it, without a transfer, and VecGetArrayWrite() fills it too (PETSc's PCHYPRE, for
   one, reads the "write-only" array of a vector it has just set to 0).

   A host array given out by VecGetArray*() is checked out until its VecRestoreArray*(): meanwhile
   every operation on the vector (or taking it as an argument) runs on the host copy. The vectors are not petscnative, so that PETSc calls VecRestoreArrayRead() on them
   too; PETSc code that keeps using an array after restoring it (KSPIBCGS, KSPFBCGSR check
   petscnative) refuses them rather than computing with stale values.
*/
typedef struct {
  PetscELLGBackend     backend;
  const VecGPUKernels *kernels;    /* the backend's kernels */
  PetscScalar         *array;      /* backend copy of the local values, NULL until first needed */
  PetscBool            constant;   /* whether every entry of the backend copy is value */
  PetscScalar          value;
  PetscMPIInt          size;       /* size of the communicator: local results are reduced over it when > 1 */
  ELLGMirror           mirror;     /* the two copies, v->offloadmask */
  struct _VecOps       baseops;    /* operations of the seq or mpi vector it was built from (host code) */
  PetscCount           ncoo;       /* VecSetPreallocationCOO(): the entries given on this process, */
  ELLGCoo              coo;        /* their map onto the local values, with those received after them, */
  ELLGCooSend          coosend;    /* and those of other processes' values (NULL on one process) */
} Vec_GPU;

PETSC_INTERN const ELLGMirrorOps VecGPUMirrorOps;
PETSC_INTERN PetscErrorCode      VecDestroy_GPU(Vec);
PETSC_INTERN PetscErrorCode      VecGPUSetData_Private(Vec, Vec_GPU *);
PETSC_INTERN PetscErrorCode      VecGPUCreateFromBase_Private(Vec, const char[], const char[]);
PETSC_INTERN PetscErrorCode      VecGPUCheckType_Private(Vec, const char[], Vec_GPU **);
PETSC_INTERN PetscErrorCode      VecGPUBackendArray_Private(Vec, ELLGAccess, PetscScalar **);
PETSC_INTERN PetscErrorCode      VecGPUArray_Private(Vec, ELLGAccess, const VecGPUKernels **, PetscScalar **);
PETSC_INTERN PetscErrorCode      VecGPUAllreduce_Private(Vec, void *, PetscMPIInt, MPI_Datatype, MPI_Op);
PETSC_INTERN PetscErrorCode      VecGPUSetArrayOps_Private(Vec);
PETSC_INTERN PetscErrorCode      VecGPUSetDeviceOps_Private(Vec);
PETSC_INTERN PetscErrorCode      VecGPUSetBaseOps_Private(Vec);
PETSC_INTERN PetscErrorCode      VecGPUSetCOOOps_Private(Vec);
PETSC_INTERN PetscErrorCode      VecGPUResetCOO_Private(Vec_GPU *);

/* the device state of a device vector */
#if defined(PETSC_HAVE_DEVICE)
static inline Vec_GPU *VecGPUData(Vec v)
{
  return (Vec_GPU *)v->spptr;
}
#else
PETSC_INTERN Vec_GPU *VecGPUData(Vec);
#endif

/* the device state of v, NULL when v is not a device vector (its destroy tells: the spptr of other
   types is theirs) */
static inline PetscErrorCode VecGPUGetData_Private(Vec v, Vec_GPU **g)
{
  *g = v->ops->destroy == VecDestroy_GPU ? VecGPUData(v) : NULL;
  return PETSC_SUCCESS;
}

/* whether a host array of the vector is checked out: its operations then run on the host copy */
static inline PetscBool VecGPUCheckedOut(const Vec_GPU *g)
{
  return ELLGMirrorCheckedOut(&g->mirror);
}

/* local length as the kernels take it (checked to fit when the vector is created) */
static inline int VecGPULocalSize(Vec v)
{
  return (int)v->map->n;
}

/*
   VecGPUUseBase_Private - runs the host code of the base type for operation op of v, with the
   argument list args, on the host copy made ready for access mode (ELLGMirrorHostBegin(),
   ELLGMirrorHostEnd()). Other device vectors among the arguments synchronise through their
   VecGetArray*() calls.
*/
#define VecGPUUseBase_Private(v, g, mode, op, args) \
  do { \
    PetscCall(ELLGMirrorHostBegin(&(g)->mirror, mode)); \
    PetscCall((*(g)->baseops.op)args); \
    ELLGMirrorHostEnd(&(g)->mirror, mode); \
  } while (0)
