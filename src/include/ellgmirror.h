/*
   Values kept twice, in host memory and in a backend's memory (src/sys/mirror.c): which copy is valid,
   each brought up to date for an access, and the host arrays given out. The device vectors and the
   device dense matrices keep their values this way.
*/
#pragma once

#include <ellgimpl.h>

/* the copies of one object, called with it (ctx) */
typedef struct {
  PetscErrorCode (*allocate)(void *);  /* allocates the backend copy unless it is there */
  PetscErrorCode (*tobackend)(void *); /* copies the host values into the backend copy (allocated) */
  PetscErrorCode (*tohost)(void *);    /* copies the backend values into the host copy */
} ELLGMirrorOps;

/*
   *mask says which copy is valid: PETSC_OFFLOAD_CPU (the host one), PETSC_OFFLOAD_GPU (the backend one)
   or PETSC_OFFLOAD_BOTH; it is the object's own field where PETSc has one (a vector's offloadmask).

   A host array given out (VecGetArray(), MatDenseGetArray() and the like) is checked out until it
   comes back: meanwhile the operations on the object run on the host copy, which stays valid, so that
   the array out sees what they compute and they see what is written through it.
*/
typedef struct {
  const ELLGMirrorOps *ops;
  void                *ctx;
  PetscOffloadMask    *mask;
  PetscInt             hostreads;  /* host arrays out for reading */
  PetscInt             hostwrites; /* host arrays out for writing (or both) */
} ELLGMirror;

PETSC_INTERN void           ELLGMirrorInit(ELLGMirror *, const ELLGMirrorOps *, void *, PetscOffloadMask *);
PETSC_INTERN PetscErrorCode ELLGMirrorSyncBackend(ELLGMirror *);
PETSC_INTERN PetscErrorCode ELLGMirrorSyncHost(ELLGMirror *);
PETSC_INTERN PetscErrorCode ELLGMirrorBackendAccess(ELLGMirror *, ELLGAccess);
PETSC_INTERN PetscErrorCode ELLGMirrorBackendWritten(ELLGMirror *);
PETSC_INTERN PetscErrorCode ELLGMirrorHostBegin(ELLGMirror *, ELLGAccess);
PETSC_INTERN void           ELLGMirrorHostEnd(ELLGMirror *, ELLGAccess);
PETSC_INTERN PetscErrorCode ELLGMirrorCheckOut(ELLGMirror *, ELLGAccess);
PETSC_INTERN PetscErrorCode ELLGMirrorCheckIn(ELLGMirror *, ELLGAccess, const char[]);

/* whether a host array is out: the operations then run on the host copy */
static inline PetscBool ELLGMirrorCheckedOut(const ELLGMirror *m)
{
  return (PetscBool)(m->hostreads > 0 || m->hostwrites > 0);
}
