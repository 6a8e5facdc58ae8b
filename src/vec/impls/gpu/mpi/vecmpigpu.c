/* VECMPIGPU: a VECMPI vector converted in place into a device vector */
#include "../vecgpuimpl.h"

/*MC
   VECMPIGPU - "mpigpu" - a parallel device-resident vector

   Level: beginner

   Notes:
   See `VECGPU` for how it keeps its values. Each process holds its local part on the device;
   reductions (dot products, norms, max/min, sum) reduce the local results over MPI, and
   `VecGPUGetArray()` gives the local part. Build one with `VecSetType()` and `-vec_type gpu`,
   which picks this type on more than one MPI process. Ghosted vectors are not supported.

.seealso: `VECGPU`, `VECSEQGPU`, `VecGPUGetArray()`
M*/
PetscErrorCode VecCreate_MPIGPU(Vec v)
{
  PetscFunctionBegin;
  PetscCall(VecGPUCreateFromBase_Private(v, VECMPI, VECMPIGPU));
  PetscFunctionReturn(PETSC_SUCCESS);
}
