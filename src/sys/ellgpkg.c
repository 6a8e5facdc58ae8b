/* Package registration: types, log events, finalization */
#include <ellgimpl.h>

static PetscBool PetscELLGPackageInitialized = PETSC_FALSE;

/*@C
   PetscELLGFinalizePackage - frees what `PetscELLGInitializePackage()` set up; called by `PetscFinalize()`

   Level: developer

.seealso: `PetscELLGInitializePackage()`
@*/
PetscErrorCode PetscELLGFinalizePackage(void)
{
  PetscFunctionBegin;
  PetscCall(PetscELLGFreeStaging_Private());
#if defined(ELLG_HAVE_CUDA)
  PetscCallELLGCuda(ELLGCublasDestroyHandle());
  PetscCallELLGCuda(ELLGCusparseDestroyHandle());
  PetscCallELLGCuda(ELLGCudaVecFreeResults());
#endif
  PetscELLGPackageInitialized = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
   PetscELLGInitializePackage - registers the PETSc-ELLG matrix and vector types, their options
   and log events. Called by `PetscDLLibraryRegister_petscellg()` when the library is loaded with
   -dll_append; programs that link the library call it after `PetscInitialize()`.

   Not Collective

   Level: beginner

.seealso: `MATELLG`, `MATDENSEGPU`, `VECGPU`, `PetscELLGFinalizePackage()`
@*/
PetscErrorCode PetscELLGInitializePackage(void)
{
  PetscFunctionBegin;
  if (PetscELLGPackageInitialized) PetscFunctionReturn(PETSC_SUCCESS);
  PetscELLGPackageInitialized = PETSC_TRUE;
  PetscCall(MatInitializePackage());
  PetscCall(VecInitializePackage());

  PetscCall(MatELLGRegisterTypes());
  PetscCall(MatELLGRegisterCoarsen());
  PetscCall(MatDenseGPURegisterTypes());

  PetscCall(VecRegister(VECSEQGPU, VecCreate_SeqGPU));
  PetscCall(VecRegister(VECMPIGPU, VecCreate_MPIGPU));
  PetscCall(VecRegister(VECGPU, VecCreate_GPU));

  PetscCall(PetscELLGRegisterEvents_Private());
  PetscCall(PetscRegisterFinalize(PetscELLGFinalizePackage));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
   PetscDLLibraryRegister_petscellg - entry point PETSc calls when -dll_append loads libpetscellg.so

   Level: developer

.seealso: `PetscELLGInitializePackage()`
@*/
PetscErrorCode PetscDLLibraryRegister_petscellg(void)
{
  PetscFunctionBegin;
  PetscCall(PetscELLGInitializePackage());
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PetscELLGGetBackend - the backend that new PETSc-ELLG objects use

   Not Collective

   Output Parameter:
.  backend - `PETSCELLG_BACKEND_CUDA` or `PETSCELLG_BACKEND_HOST`

   Options Database Keys:
+  -ellg_backend <host,cuda> - choose it; default cuda when a usable GPU is present, else host
-  -ellg_device <d> - the CUDA device; default: node-local rank modulo the devices (with a PETSc built with CUDA, PETSc's device, chosen by -device_select_cuda)

   Level: intermediate

   Note:
   Asking for cuda when the library was built without CUDA, or when no GPU is usable, is an error; so is a GPU
   that is present but cannot be started (e.g. no memory left for another CUDA context): there is no silent
   fall back to the host. With -ellg_backend host, no GPU is touched.

.seealso: `PetscELLGBackend`, `MatELLGGetBackend()`, `VecGPUGetBackend()`
@*/
PetscErrorCode PetscELLGGetBackend(PetscELLGBackend *backend)
{
  PetscFunctionBegin;
  PetscAssertPointer(backend, 1);
  PetscCall(PetscELLGInitializePackage());
  PetscCall(PetscELLGGetBackend_Private(backend));
  PetscFunctionReturn(PETSC_SUCCESS);
}
