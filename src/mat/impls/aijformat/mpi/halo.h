/*
   The halo exchange of the parallel types: the off-diagonal block's ghost values, gathered on the
   device by the ranks that own them and exchanged through MPI (forward, for A x), and the
   reverse, which adds the ghost parts of A^T x into their owners' entries.
*/
#pragma once
#include <ellgimpl.h>

typedef struct _p_ELLGHalo *ELLGHalo;

PETSC_INTERN PetscErrorCode ELLGHaloCreate(MPI_Comm, PetscELLGBackend, PetscLayout, PetscInt, const PetscInt[], ELLGHalo *);
PETSC_INTERN PetscErrorCode ELLGHaloDestroy(ELLGHalo *);
PETSC_INTERN PetscErrorCode ELLGHaloSetGPUAware(ELLGHalo, PetscBool);
PETSC_INTERN PetscErrorCode ELLGHaloForwardBegin(ELLGHalo, const PetscScalar *);
PETSC_INTERN PetscErrorCode ELLGHaloForwardEnd(ELLGHalo, PetscScalar *);
PETSC_INTERN PetscErrorCode ELLGHaloReverseBegin(ELLGHalo, const PetscScalar *);
PETSC_INTERN PetscErrorCode ELLGHaloReverseEnd(ELLGHalo, PetscScalar *);
PETSC_INTERN PetscErrorCode ELLGHaloView(ELLGHalo, PetscViewer);
