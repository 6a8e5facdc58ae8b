/* The PETSc side of the kernels of vecgpukernels.h, shared by the device vectors and the device dense
   matrices: the table of a backend and the error check of its calls */
#pragma once
#include <ellgimpl.h>
#include <vecgpukernels.h>

#if defined(ELLG_HAVE_CUDA)
  #define PetscCallVecGPUKernel(...) PetscCallELLGCuda(__VA_ARGS__)
#else
  #define PetscCallVecGPUKernel(...) PetscCheck(!(__VA_ARGS__), PETSC_COMM_SELF, PETSC_ERR_LIB, "Vector kernel failed")
#endif

/* the kernels of a backend */
static inline const VecGPUKernels *VecGPUKernelsOf(PetscELLGBackend backend)
{
#if defined(ELLG_HAVE_CUDA)
  if (backend == PETSCELLG_BACKEND_CUDA) return &VecGPUKernelsCuda;
#endif
  (void)backend;
  return &VecGPUKernelsHost;
}
