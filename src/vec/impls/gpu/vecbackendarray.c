/*
   The local values of a vector in the memory of a backend, for the products of the matrix types:
   those of our device vectors of that backend and, with a PETSc built with CUDA, those of PETSc's own
   CUDA vectors (VECSEQCUDA, VECMPICUDA) for the cuda backend, used in place.

   The device arrays of PETSc's vectors are ordered against PETSc's stream: PetscELLGWaitForPetsc()
   after taking one, PetscELLGPetscWaitForUs() before giving it back.
*/
#include "vecgpuimpl.h"

#if defined(ELLG_HAVE_PETSC_CUDA)
static PetscErrorCode VecGPUIsPetscCUDA(Vec v, PetscBool *cuda)
{
  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompareAny((PetscObject)v, cuda, VECSEQCUDA, VECMPICUDA, ""));
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

/* VecGPUGetBackendStandIn - the vector whose backend array an operation of backend be uses for v: v itself when it
   can be used in place, else *work, a seqgpu vector of v's local length created at its first use, with v's values
   copied in when copy */
PetscErrorCode VecGPUGetBackendStandIn(Vec v, PetscELLGBackend be, PetscBool copy, Vec *work, Vec *vb)
{
  PetscBool        native;
  PetscInt         n;
  PetscELLGBackend wbe;

  PetscFunctionBegin;
  PetscCall(VecGPUInBackend(v, be, &native));
  *vb = v;
  if (native) PetscFunctionReturn(PETSC_SUCCESS);
  if (!*work) {
    PetscCall(VecGetLocalSize(v, &n));
    PetscCall(VecCreateSeqGPU_Private(n, work));
    PetscCall(VecGPUGetBackend(*work, &wbe));
    PetscCheck(wbe == be, PETSC_COMM_SELF, PETSC_ERR_ARG_INCOMP, "The matrix uses the %s backend but new vectors get the %s backend: -ellg_backend changed between them", PetscELLGBackends[be], PetscELLGBackends[wbe]);
  }
  *vb = *work;
  if (copy) PetscCall(VecCopy(v, *vb));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* whether the products can use the values of v in place in backend be's memory (not for a PETSc vector
   bound to the CPU): no error for other vectors */
PetscErrorCode VecGPUInBackend(Vec v, PetscELLGBackend be, PetscBool *flg)
{
  Vec_GPU *g;

  PetscFunctionBegin;
  PetscCall(VecGPUGetData_Private(v, &g));
  *flg = (PetscBool)(g && g->backend == be);
#if defined(ELLG_HAVE_PETSC_CUDA)
  if (!g && be == PETSCELLG_BACKEND_CUDA) {
    PetscBool bound;

    PetscCall(VecGPUIsPetscCUDA(v, flg));
    PetscCall(VecBoundToCPU(v, &bound)); /* its host array is then the only one PETSc reads */
    *flg = (PetscBool)(*flg && !bound);
  }
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the local values of v (for which VecGPUInBackend() holds) in its backend's memory, for access mode */
PetscErrorCode VecGPUGetBackendArray(Vec v, ELLGAccess mode, PetscScalar **a)
{
  Vec_GPU *g;

  PetscFunctionBegin;
  PetscCall(VecGPUGetData_Private(v, &g));
  if (g) {
    if (mode == ELLG_ACCESS_READ) PetscCall(VecGPUGetArrayRead(v, (const PetscScalar **)a));
    else if (mode == ELLG_ACCESS_WRITE) PetscCall(VecGPUGetArrayWrite(v, a));
    else PetscCall(VecGPUGetArray(v, a));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
#if defined(ELLG_HAVE_PETSC_CUDA)
  if (mode == ELLG_ACCESS_READ) PetscCall(VecCUDAGetArrayRead(v, (const PetscScalar **)a));
  else if (mode == ELLG_ACCESS_WRITE) PetscCall(VecCUDAGetArrayWrite(v, a));
  else PetscCall(VecCUDAGetArray(v, a));
  PetscCall(PetscELLGWaitForPetsc());
  PetscFunctionReturn(PETSC_SUCCESS);
#else
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_PLIB, "Vector of type %s has no array in a backend's memory", ((PetscObject)v)->type_name);
#endif
}

/* gives back the array of VecGPUGetBackendArray() */
PetscErrorCode VecGPURestoreBackendArray(Vec v, ELLGAccess mode, PetscScalar **a)
{
  Vec_GPU *g;

  PetscFunctionBegin;
  PetscCall(VecGPUGetData_Private(v, &g));
  if (g) {
    if (mode == ELLG_ACCESS_READ) PetscCall(VecGPURestoreArrayRead(v, (const PetscScalar **)a));
    else if (mode == ELLG_ACCESS_WRITE) PetscCall(VecGPURestoreArrayWrite(v, a));
    else PetscCall(VecGPURestoreArray(v, a));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
#if defined(ELLG_HAVE_PETSC_CUDA)
  PetscCall(PetscELLGPetscWaitForUs());
  if (mode == ELLG_ACCESS_READ) PetscCall(VecCUDARestoreArrayRead(v, (const PetscScalar **)a));
  else if (mode == ELLG_ACCESS_WRITE) PetscCall(VecCUDARestoreArrayWrite(v, a));
  else PetscCall(VecCUDARestoreArray(v, a));
  PetscFunctionReturn(PETSC_SUCCESS);
#else
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_PLIB, "Vector of type %s has no array in a backend's memory", ((PetscObject)v)->type_name);
#endif
}

/* the type of the vectors of MatCreateVecs() for a matrix of backend be: PETSc's CUDA vectors for
   cuda with a PETSc built with CUDA, ours otherwise */
PetscErrorCode PetscELLGDefaultVecType(PetscELLGBackend be, VecType *type)
{
  PetscFunctionBegin;
  *type = VECGPU;
#if defined(ELLG_HAVE_PETSC_CUDA)
  if (be == PETSCELLG_BACKEND_CUDA) *type = VECCUDA;
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}
