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

/* the backend of kernels k */
static inline PetscELLGBackend VecGPUKernelsBackend(const VecGPUKernels *k)
{
  return k == &VecGPUKernelsHost ? PETSCELLG_BACKEND_HOST : PETSCELLG_BACKEND_CUDA;
}

/* a call of a kernel of k, timed by PETSc's GPU timer where k runs on the device (PetscELLGLogGpuTimeBegin()) */
#define PetscCallVecGPUKernelOf(k, ...) \
  do { \
    const PetscELLGBackend be_ = VecGPUKernelsBackend(k); \
    PetscCall(PetscELLGLogGpuTimeBegin(be_)); \
    PetscCallVecGPUKernel(__VA_ARGS__); \
    PetscCall(PetscELLGLogGpuTimeEnd(be_)); \
  } while (0)

/* the kernels of a backend */
static inline const VecGPUKernels *VecGPUKernelsOf(PetscELLGBackend backend)
{
#if defined(ELLG_HAVE_CUDA)
  if (backend == PETSCELLG_BACKEND_CUDA) return &VecGPUKernelsCuda;
#endif
  (void)backend;
  return &VecGPUKernelsHost;
}
