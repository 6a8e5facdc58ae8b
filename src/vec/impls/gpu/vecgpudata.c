/* Device vectors: where the device state of a vector is kept (see vecgpuimpl.h), checks on it, its destroy */
#include "vecgpuimpl.h"

static PetscErrorCode VecGPUDataFree(Vec_GPU **g)
{
  PetscFunctionBegin;
  if (!*g) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscELLGFree((*g)->backend, (*g)->array));
  PetscCall(VecGPUResetCOO_Private(*g));
  PetscCall(PetscFree(*g));
  PetscFunctionReturn(PETSC_SUCCESS);
}

#if defined(PETSC_HAVE_DEVICE)
/* gives v the device state g (NULL: none), freeing the one it had */
PetscErrorCode VecGPUSetData_Private(Vec v, Vec_GPU *g)
{
  Vec_GPU *old;

  PetscFunctionBegin;
  PetscCall(VecGPUGetData_Private(v, &old));
  PetscCall(VecGPUDataFree(&old));
  v->spptr = g;
  PetscFunctionReturn(PETSC_SUCCESS);
}
#else
/* the same, composed with v in a container (no spptr in a PETSc without device support) */
static const char VecGPUDataKey[] = "VecGPU_Data";
ELLG_CONTAINER_DESTROY(VecGPUDataDestroy, Vec_GPU, VecGPUDataFree)

Vec_GPU *VecGPUData(Vec v)
{
  PetscObject c = NULL;
  void       *g = NULL;

  if (PetscObjectQuery((PetscObject)v, VecGPUDataKey, &c) || !c || PetscContainerGetPointer((PetscContainer)c, &g)) return NULL;
  return (Vec_GPU *)g;
}

PetscErrorCode VecGPUSetData_Private(Vec v, Vec_GPU *g)
{
  PetscContainer c = NULL;

  PetscFunctionBegin;
  if (g) {
    PetscCall(PetscContainerCreate(PETSC_COMM_SELF, &c));
    PetscCall(PetscContainerSetPointer(c, g));
    PetscCall(ELLGContainerSetCtxDestroy(c, VecGPUDataDestroy));
  }
  PetscCall(PetscObjectCompose((PetscObject)v, VecGPUDataKey, (PetscObject)c));
  PetscCall(PetscContainerDestroy(&c));
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

/* the device state of v, an error unless v is a device vector; func names the caller */
PetscErrorCode VecGPUCheckType_Private(Vec v, const char func[], Vec_GPU **g)
{
  PetscFunctionBegin;
  PetscCall(VecGPUGetData_Private(v, g));
  PetscCheck(*g, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "%s() needs a device vector (%s or %s), not one of type %s", func, VECSEQGPU, VECMPIGPU, ((PetscObject)v)->type_name);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* frees the device state of v, then runs the destroy of its base type */
PetscErrorCode VecDestroy_GPU(Vec v)
{
  PetscErrorCode (*destroy)(Vec) = VecGPUData(v)->baseops.destroy;

  PetscFunctionBegin;
  PetscCall(VecGPUSetData_Private(v, NULL));
  PetscCall((*destroy)(v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* reduces the local results buf of an operation on v over v's communicator, in place */
PetscErrorCode VecGPUAllreduce_Private(Vec v, void *buf, PetscMPIInt count, MPI_Datatype type, MPI_Op op)
{
  Vec_GPU *g;

  PetscFunctionBegin;
  PetscCall(VecGPUGetData_Private(v, &g));
  if (g->size > 1) PetscCall(MPIU_Allreduce(MPI_IN_PLACE, buf, count, type, op, PetscObjectComm((PetscObject)v)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

