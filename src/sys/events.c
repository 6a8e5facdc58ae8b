/* The log events of the package: defined here, registered by PetscELLGInitializePackage() */
#include <ellgimpl.h>

PetscLogEvent MATGPU_Build, MATGPU_CopyToGPU, MATGPU_UpdateValues, MATGPU_Mult, MATGPU_MultAdd, MATGPU_MultT, MATGPU_MultTAdd, MATGPU_GetDiagonal, MATGPU_HaloBegin, MATGPU_HaloEnd, MATGPU_SpMM, MATGPU_SpMMChunks, MATGPU_TriBuild, MATGPU_TriValues, MATGPU_TriSolve, MATGPU_FactorNumeric, MATGPU_SpGEMM, MATGPU_SOR, MATGPU_CreateGraph, MATGPU_Coarsen;
PetscLogEvent VECGPU_CopyToGPU, VECGPU_CopyFromGPU, MATDENSEGPU_CopyToGPU, MATDENSEGPU_CopyFromGPU;

PetscErrorCode PetscELLGRegisterEvents_Private(void)
{
  PetscFunctionBegin;
  PetscCall(PetscLogEventRegister("MatGPUBuild", MAT_CLASSID, &MATGPU_Build));
  PetscCall(PetscLogEventRegister("MatGPUCopyTo", MAT_CLASSID, &MATGPU_CopyToGPU));
  PetscCall(PetscLogEventRegister("MatGPUUpdateVals", MAT_CLASSID, &MATGPU_UpdateValues));
  PetscCall(PetscLogEventRegister("MatGPUMult", MAT_CLASSID, &MATGPU_Mult));
  PetscCall(PetscLogEventRegister("MatGPUMultAdd", MAT_CLASSID, &MATGPU_MultAdd));
  PetscCall(PetscLogEventRegister("MatGPUMultT", MAT_CLASSID, &MATGPU_MultT));
  PetscCall(PetscLogEventRegister("MatGPUMultTAdd", MAT_CLASSID, &MATGPU_MultTAdd));
  PetscCall(PetscLogEventRegister("MatGPUGetDiag", MAT_CLASSID, &MATGPU_GetDiagonal));
  PetscCall(PetscLogEventRegister("MatGPUHaloBegin", MAT_CLASSID, &MATGPU_HaloBegin));
  PetscCall(PetscLogEventRegister("MatGPUHaloEnd", MAT_CLASSID, &MATGPU_HaloEnd));
  PetscCall(PetscLogEventRegister("MatGPUSpMM", MAT_CLASSID, &MATGPU_SpMM));
  PetscCall(PetscLogEventRegister("MatGPUSpMMChunks", MAT_CLASSID, &MATGPU_SpMMChunks));
  PetscCall(PetscLogEventRegister("MatGPUTriBuild", MAT_CLASSID, &MATGPU_TriBuild));
  PetscCall(PetscLogEventRegister("MatGPUTriValues", MAT_CLASSID, &MATGPU_TriValues));
  PetscCall(PetscLogEventRegister("MatGPUTriSolve", MAT_CLASSID, &MATGPU_TriSolve));
  PetscCall(PetscLogEventRegister("MatGPUFactorNum", MAT_CLASSID, &MATGPU_FactorNumeric));
  PetscCall(PetscLogEventRegister("MatGPUSpGEMM", MAT_CLASSID, &MATGPU_SpGEMM));
  PetscCall(PetscLogEventRegister("MatGPUSOR", MAT_CLASSID, &MATGPU_SOR));
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
    const PetscLogEvent local[] = {MATGPU_Build, MATGPU_CopyToGPU, MATGPU_UpdateValues, MATGPU_SpMMChunks, MATGPU_TriBuild, MATGPU_TriValues, MATGPU_TriSolve, MATGPU_FactorNumeric, MATGPU_CreateGraph, MATGPU_Coarsen, VECGPU_CopyToGPU, VECGPU_CopyFromGPU, MATDENSEGPU_CopyToGPU, MATDENSEGPU_CopyFromGPU};

    for (size_t i = 0; i < PETSC_STATIC_ARRAY_LENGTH(local); i++) PetscCall(PetscLogEventSetCollective(local[i], PETSC_FALSE));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
