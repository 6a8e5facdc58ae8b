/* The log events of the package: defined here, registered by PetscELLGInitializePackage() */
#include <ellgimpl.h>

PetscLogEvent ELLG_Build, ELLG_CopyToGPU, ELLG_UpdateValues, ELLG_Mult, ELLG_MultAdd, ELLG_MultT, ELLG_MultTAdd, ELLG_GetDiagonal, ELLG_HaloBegin, ELLG_HaloEnd, ELLG_SpMM, ELLG_SpMMChunks, ELLG_TriBuild, ELLG_TriValues, ELLG_TriSolve, ELLG_FactorNumeric, ELLG_SpGEMM, ELLG_SOR, MATGPU_CreateGraph, MATGPU_Coarsen;
PetscLogEvent VECGPU_CopyToGPU, VECGPU_CopyFromGPU, MATDENSEGPU_CopyToGPU, MATDENSEGPU_CopyFromGPU;

PetscErrorCode PetscELLGRegisterEvents_Private(void)
{
  PetscFunctionBegin;
  PetscCall(PetscLogEventRegister("ELLGBuild", MAT_CLASSID, &ELLG_Build));
  PetscCall(PetscLogEventRegister("ELLGCopyToGPU", MAT_CLASSID, &ELLG_CopyToGPU));
  PetscCall(PetscLogEventRegister("ELLGUpdateVals", MAT_CLASSID, &ELLG_UpdateValues));
  PetscCall(PetscLogEventRegister("ELLGMult", MAT_CLASSID, &ELLG_Mult));
  PetscCall(PetscLogEventRegister("ELLGMultAdd", MAT_CLASSID, &ELLG_MultAdd));
  PetscCall(PetscLogEventRegister("ELLGMultT", MAT_CLASSID, &ELLG_MultT));
  PetscCall(PetscLogEventRegister("ELLGMultTAdd", MAT_CLASSID, &ELLG_MultTAdd));
  PetscCall(PetscLogEventRegister("ELLGGetDiag", MAT_CLASSID, &ELLG_GetDiagonal));
  PetscCall(PetscLogEventRegister("ELLGHaloBegin", MAT_CLASSID, &ELLG_HaloBegin));
  PetscCall(PetscLogEventRegister("ELLGHaloEnd", MAT_CLASSID, &ELLG_HaloEnd));
  PetscCall(PetscLogEventRegister("ELLGSpMM", MAT_CLASSID, &ELLG_SpMM));
  PetscCall(PetscLogEventRegister("ELLGSpMMChunks", MAT_CLASSID, &ELLG_SpMMChunks));
  PetscCall(PetscLogEventRegister("ELLGTriBuild", MAT_CLASSID, &ELLG_TriBuild));
  PetscCall(PetscLogEventRegister("ELLGTriValues", MAT_CLASSID, &ELLG_TriValues));
  PetscCall(PetscLogEventRegister("ELLGTriSolve", MAT_CLASSID, &ELLG_TriSolve));
  PetscCall(PetscLogEventRegister("MatGPUFactorNum", MAT_CLASSID, &ELLG_FactorNumeric));
  PetscCall(PetscLogEventRegister("ELLGSpGEMM", MAT_CLASSID, &ELLG_SpGEMM));
  PetscCall(PetscLogEventRegister("ELLGSOR", MAT_CLASSID, &ELLG_SOR));
  PetscCall(PetscLogEventRegister("MatGPUCreateGraph", MAT_CLASSID, &MATGPU_CreateGraph));
  PetscCall(PetscLogEventRegister("MatGPUCoarsen", MAT_CLASSID, &MATGPU_Coarsen));
  PetscCall(PetscLogEventRegister("VecGPUCopyTo", VEC_CLASSID, &VECGPU_CopyToGPU));
  PetscCall(PetscLogEventRegister("VecGPUCopyFrom", VEC_CLASSID, &VECGPU_CopyFromGPU));
  PetscCall(PetscLogEventRegister("DenseGPUCopyTo", MAT_CLASSID, &MATDENSEGPU_CopyToGPU));
  PetscCall(PetscLogEventRegister("DenseGPUCopyFrom", MAT_CLASSID, &MATDENSEGPU_CopyFromGPU));
  /*
     Events that one process logs on its own: the copies between host and device happen when that
     process's part is out of date (a vector's on one rank only, for a parallel vector), and builds
     and value updates are of a process's blocks. With -log_sync (on in PETSc's test harness, -petsc_ci,
     from 3.21) a collective event begun with an object waits for the other processes of its communicator,
     which hangs when they do not log it too; PETSc marks its own device copies the same way.
  */
  {
    const PetscLogEvent local[] = {ELLG_Build, ELLG_CopyToGPU, ELLG_UpdateValues, ELLG_SpMMChunks, ELLG_TriBuild, ELLG_TriValues, ELLG_TriSolve, ELLG_FactorNumeric, MATGPU_CreateGraph, MATGPU_Coarsen, VECGPU_CopyToGPU, VECGPU_CopyFromGPU, MATDENSEGPU_CopyToGPU, MATDENSEGPU_CopyFromGPU};

    for (size_t i = 0; i < PETSC_STATIC_ARRAY_LENGTH(local); i++) PetscCall(PetscLogEventSetCollective(local[i], PETSC_FALSE));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
