/* Values kept on the host and in a backend's memory: which copy is valid, and the copies made for an
   access (see ellgmirror.h) */
#include <ellgmirror.h>

/* m keeps the copies of ctx with ops; only the host copy is valid */
void ELLGMirrorInit(ELLGMirror *m, const ELLGMirrorOps *ops, void *ctx, PetscOffloadMask *mask)
{
  m->ops        = ops;
  m->ctx        = ctx;
  m->mask       = mask;
  m->hostreads  = 0;
  m->hostwrites = 0;
  *mask         = PETSC_OFFLOAD_CPU;
}

/* brings the backend copy up to date, allocating it first */
PetscErrorCode ELLGMirrorSyncBackend(ELLGMirror *m)
{
  PetscFunctionBegin;
  PetscCall((*m->ops->allocate)(m->ctx));
  if (*m->mask != PETSC_OFFLOAD_CPU) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall((*m->ops->tobackend)(m->ctx));
  *m->mask = PETSC_OFFLOAD_BOTH;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* brings the host copy up to date */
PetscErrorCode ELLGMirrorSyncHost(ELLGMirror *m)
{
  PetscFunctionBegin;
  if (*m->mask != PETSC_OFFLOAD_GPU) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall((*m->ops->tohost)(m->ctx));
  *m->mask = PETSC_OFFLOAD_BOTH;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   The backend copy made ready for access mode: reading brings it up to date; writing makes it the
   valid copy at once, so an operation takes the arrays it reads before those it writes (an object may
   be both). While a host array is out for writing, the host copy may have changed since it was last
   copied: it is copied again.
*/
PetscErrorCode ELLGMirrorBackendAccess(ELLGMirror *m, ELLGAccess mode)
{
  PetscFunctionBegin;
  if (mode == ELLG_ACCESS_NONE) PetscFunctionReturn(PETSC_SUCCESS);
  if (m->hostwrites && *m->mask == PETSC_OFFLOAD_BOTH) *m->mask = PETSC_OFFLOAD_CPU;
  if (mode == ELLG_ACCESS_WRITE) PetscCall((*m->ops->allocate)(m->ctx));
  else PetscCall(ELLGMirrorSyncBackend(m));
  if (mode != ELLG_ACCESS_READ) *m->mask = PETSC_OFFLOAD_GPU;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the backend copy was written: it is the only valid one, copied back at once while a host array is out */
PetscErrorCode ELLGMirrorBackendWritten(ELLGMirror *m)
{
  PetscFunctionBegin;
  *m->mask = PETSC_OFFLOAD_GPU;
  if (ELLGMirrorCheckedOut(m)) PetscCall(ELLGMirrorSyncHost(m));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the host copy made ready for access mode, before host code uses it: read, brought up to date;
   written, the valid copy */
PetscErrorCode ELLGMirrorHostBegin(ELLGMirror *m, ELLGAccess mode)
{
  PetscFunctionBegin;
  if (mode == ELLG_ACCESS_NONE) PetscFunctionReturn(PETSC_SUCCESS);
  if (mode != ELLG_ACCESS_WRITE) PetscCall(ELLGMirrorSyncHost(m));
  if (mode != ELLG_ACCESS_READ) *m->mask = PETSC_OFFLOAD_CPU;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* after host code wrote: the host copy is the valid one, unless that code itself ended on the backend */
void ELLGMirrorHostEnd(ELLGMirror *m, ELLGAccess mode)
{
  if ((mode == ELLG_ACCESS_WRITE || mode == ELLG_ACCESS_READ_WRITE) && *m->mask == PETSC_OFFLOAD_BOTH) *m->mask = PETSC_OFFLOAD_CPU;
}

/* a host array goes out for access mode */
PetscErrorCode ELLGMirrorCheckOut(ELLGMirror *m, ELLGAccess mode)
{
  PetscFunctionBegin;
  PetscCall(ELLGMirrorHostBegin(m, mode));
  if (mode == ELLG_ACCESS_READ) m->hostreads++;
  else m->hostwrites++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a host array out for access mode comes back through restore (named in the error when none is out);
   one that was out for writing leaves the host copy the valid one, even if the backend read it meanwhile */
PetscErrorCode ELLGMirrorCheckIn(ELLGMirror *m, ELLGAccess mode, const char restore[])
{
  PetscInt *out = mode == ELLG_ACCESS_READ ? &m->hostreads : &m->hostwrites;

  PetscFunctionBegin;
  PetscCheck(*out > 0, PETSC_COMM_SELF, PETSC_ERR_ORDER, "%s without a matching get of the array", restore);
  (*out)--;
  if (mode != ELLG_ACCESS_READ) *m->mask = PETSC_OFFLOAD_CPU;
  PetscFunctionReturn(PETSC_SUCCESS);
}
