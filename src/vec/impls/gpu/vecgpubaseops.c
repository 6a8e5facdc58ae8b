/* Device vectors: operations that run the host code of the seq or mpi type on the host copy */
#include "vecgpuimpl.h"

/* defines VecGPUBase_<op>(params), which runs the base type's op with args (see VecGPUUseBase_Private()) */
#define VECGPU_BASE_OP(op, mode, params, args) \
  static PetscErrorCode VecGPUBase_##op params \
  { \
    Vec_GPU *g; \
\
    PetscFunctionBegin; \
    PetscCall(VecGPUGetData_Private(v, &g)); \
    VecGPUUseBase_Private(v, g, mode, op, args); \
    PetscFunctionReturn(PETSC_SUCCESS); \
  }

/* operations that change some values */
VECGPU_BASE_OP(setvalues, ELLG_ACCESS_READ_WRITE, (Vec v, PetscInt n, const PetscInt i[], const PetscScalar y[], InsertMode m), (v, n, i, y, m))
VECGPU_BASE_OP(setvaluesblocked, ELLG_ACCESS_READ_WRITE, (Vec v, PetscInt n, const PetscInt i[], const PetscScalar y[], InsertMode m), (v, n, i, y, m))
VECGPU_BASE_OP(assemblyend, ELLG_ACCESS_READ_WRITE, (Vec v), (v))
VECGPU_BASE_OP(setrandom, ELLG_ACCESS_WRITE, (Vec v, PetscRandom r), (v, r))
VECGPU_BASE_OP(load, ELLG_ACCESS_READ_WRITE, (Vec v, PetscViewer viewer), (v, viewer))
/* the host array changes: the current values go to the array that is left (VecResetArray() gives
   them to the placed array, VecPlaceArray() keeps them in the original one); VecReplaceArray()
   brings its own values */
VECGPU_BASE_OP(placearray, ELLG_ACCESS_READ_WRITE, (Vec v, const PetscScalar *a), (v, a))
VECGPU_BASE_OP(replacearray, ELLG_ACCESS_WRITE, (Vec v, const PetscScalar *a), (v, a))
VECGPU_BASE_OP(resetarray, ELLG_ACCESS_READ_WRITE, (Vec v), (v))

/* operations that only read the values of v (an output vector among the arguments syncs in its VecGetArray()) */
VECGPU_BASE_OP(view, ELLG_ACCESS_READ, (Vec v, PetscViewer viewer), (v, viewer))
VECGPU_BASE_OP(viewnative, ELLG_ACCESS_READ, (Vec v, PetscViewer viewer), (v, viewer))
VECGPU_BASE_OP(getvalues, ELLG_ACCESS_READ, (Vec v, PetscInt n, const PetscInt i[], PetscScalar y[]), (v, n, i, y))
VECGPU_BASE_OP(stridegather, ELLG_ACCESS_READ, (Vec v, PetscInt start, Vec s, InsertMode m), (v, start, s, m))
VECGPU_BASE_OP(stridescatter, ELLG_ACCESS_READ, (Vec v, PetscInt start, Vec s, InsertMode m), (v, start, s, m))
VECGPU_BASE_OP(stridesubsetgather, ELLG_ACCESS_READ, (Vec v, PetscInt nidx, const PetscInt idxv[], const PetscInt idxs[], Vec s, InsertMode m), (v, nidx, idxv, idxs, s, m))
VECGPU_BASE_OP(stridesubsetscatter, ELLG_ACCESS_READ, (Vec v, PetscInt nidx, const PetscInt idxv[], const PetscInt idxs[], Vec s, InsertMode m), (v, nidx, idxv, idxs, s, m))

/*
   PETSc's default VecGetSubVector() places a contiguous piece of the host array of v into the
   subvector, and so changes to the subvector land in the host copy of v: make it the valid copy,
   as VecGetArray() does, then run the default (VecGetSubVector() without this operation).
*/
static PetscErrorCode VecGetSubVector_GPU(Vec v, IS is, Vec *y)
{
  Vec_GPU       *g;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(VecGPUGetData_Private(v, &g));
  PetscCall(ELLGMirrorHostBegin(&g->mirror, ELLG_ACCESS_READ_WRITE));
  v->ops->getsubvector = NULL;
  ierr                 = VecGetSubVector(v, is, y);
  v->ops->getsubvector = VecGetSubVector_GPU;
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* wraps the operations above that the base type has; an operation it lacks runs PETSc's default code, which accesses the values with VecGetArray*() */
#define VECGPU_SET_BASE_OP(v, op) \
  do { \
    if ((v)->ops->op) (v)->ops->op = VecGPUBase_##op; \
  } while (0)

PetscErrorCode VecGPUSetBaseOps_Private(Vec v)
{
  PetscFunctionBegin;
  VECGPU_SET_BASE_OP(v, setvalues);
  VECGPU_SET_BASE_OP(v, setvaluesblocked);
  VECGPU_SET_BASE_OP(v, assemblyend);
  VECGPU_SET_BASE_OP(v, setrandom);
  VECGPU_SET_BASE_OP(v, load);
  VECGPU_SET_BASE_OP(v, placearray);
  VECGPU_SET_BASE_OP(v, replacearray);
  VECGPU_SET_BASE_OP(v, resetarray);
  VECGPU_SET_BASE_OP(v, view);
  VECGPU_SET_BASE_OP(v, viewnative);
  VECGPU_SET_BASE_OP(v, getvalues);
  VECGPU_SET_BASE_OP(v, stridegather);
  VECGPU_SET_BASE_OP(v, stridescatter);
  VECGPU_SET_BASE_OP(v, stridesubsetgather);
  VECGPU_SET_BASE_OP(v, stridesubsetscatter);
  v->ops->getsubvector = VecGetSubVector_GPU;
  PetscFunctionReturn(PETSC_SUCCESS);
}
