/* VECSEQGPU: a VECSEQ vector converted in place into a device vector */
#include "../vecgpuimpl.h"

/*MC
   VECSEQGPU - "seqgpu" - a sequential device-resident vector

   Level: beginner

   Note:
   See `VECGPU` for how it keeps its values; build one with `VecCreateSeqGPU()`, or with
   `VecSetType()` and `-vec_type gpu` (which picks this type on one MPI process).

.seealso: `VECGPU`, `VECMPIGPU`, `VecCreateSeqGPU()`, `VecGPUGetArray()`
M*/
PetscErrorCode VecCreate_SeqGPU(Vec v)
{
  PetscFunctionBegin;
  PetscCall(VecGPUCreateFromBase_Private(v, VECSEQ, VECSEQGPU));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   VecCreateSeqGPU - creates a sequential device-resident vector

   Collective

   Input Parameters:
+  comm - the communicator, of one MPI process
-  n - the length

   Output Parameter:
.  v - the vector, all zero

   Level: intermediate

   Note:
   The vector works on the backend of `PetscELLGGetBackend()`.

.seealso: `VECSEQGPU`, `VECGPU`, `VecCreateSeq()`, `VecGPUGetArray()`
@*/
PetscErrorCode VecCreateSeqGPU(MPI_Comm comm, PetscInt n, Vec *v)
{
  PetscFunctionBegin;
  PetscAssertPointer(v, 3);
  PetscCall(PetscELLGInitializePackage());
  PetscCall(VecCreate(comm, v));
  PetscCall(VecSetSizes(*v, n, n));
  PetscCall(VecSetType(*v, VECSEQGPU));
  PetscFunctionReturn(PETSC_SUCCESS);
}
