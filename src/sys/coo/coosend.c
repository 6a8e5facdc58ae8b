/*
   The entries of COO assembly that belong to other processes (ellgcoo.h): their rows (and columns) go to the owners
   once, through a PetscSF whose leaves on each process are the entries it sends, in the order of sendidx, and whose
   roots are those it receives, by sender; at each assembly the values of the entries sent are gathered (on the device
   from values there), sent through host buffers (for cuda: they are the entries of the rows processes share, few beside
   the rest), and put where the values were. Shared by the parallel matrices (mpicoo.c) and vectors.
*/
#include <ellgcoo.h>
#include <petscsf.h>
#include <limits.h>

struct _n_ELLGCooSend {
  PetscELLGBackend be;
  PetscInt         nsend, nrecv;  /* entries sent to the owners of their rows, and received */
  PetscSF          sf;
  int             *sendidx;       /* the entries sent, in the backend's memory */
  int             *hsendidx;      /* and on the host, where the backend's memory is the device's */
  PetscScalar     *dsend, *drecv; /* their values in the backend's memory */
  PetscScalar     *hsend, *hrecv; /* and on the host, where the backend's memory is the device's */
};

/* the entries of other processes' rows, by owner: sendidx (to PetscFree()) and the PetscSF that sends them */
static PetscErrorCode ELLGCooSendGraph(PetscLayout map, PetscBool ignore, PetscCount ncoo, const PetscInt ci[], const PetscInt cj[], PetscInt *nsend, PetscInt **sendidx, PetscInt *nrecv, PetscSF *sf)
{
  MPI_Comm     comm = map->comm;
  PetscMPIInt  size;
  PetscInt    *owner, *scount, *rcount, *sstart, *rstart, *sdispl, *idx, n = 0;
  PetscSFNode *iremote;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(PetscMalloc1(ncoo, &owner));
  PetscCall(PetscCalloc5(size, &scount, size, &rcount, size + 1, &sstart, size + 1, &rstart, size, &sdispl));
  for (PetscCount k = 0; k < ncoo; k++) {
    PetscMPIInt p;

    owner[k] = -1;
    if (ignore || ci[k] < 0 || (cj && cj[k] < 0) || (ci[k] >= map->rstart && ci[k] < map->rend)) continue;
    PetscCall(PetscLayoutFindOwner(map, ci[k], &p));
    owner[k] = p;
    scount[p]++;
    n++;
  }
  PetscCallMPI(MPI_Alltoall(scount, 1, MPIU_INT, rcount, 1, MPIU_INT, comm));
  for (PetscMPIInt p = 0; p < size; p++) {
    sstart[p + 1] = sstart[p] + scount[p];
    rstart[p + 1] = rstart[p] + rcount[p];
  }
  PetscCallMPI(MPI_Alltoall(rstart, 1, MPIU_INT, sdispl, 1, MPIU_INT, comm)); /* where this process's entries start at each owner */
  PetscCall(PetscMalloc1(n, &idx));
  PetscCall(PetscMalloc1(n, &iremote));
  for (PetscCount k = 0; k < ncoo; k++) {
    if (owner[k] < 0) continue;
    const PetscInt p = owner[k], l = sstart[p]++;

    idx[l]           = (PetscInt)k;
    iremote[l].rank  = p;
    iremote[l].index = sdispl[p]++;
  }
  PetscCall(PetscSFCreate(comm, sf));
  PetscCall(PetscSFSetGraph(*sf, rstart[size], n, NULL, PETSC_OWN_POINTER, iremote, PETSC_OWN_POINTER));
  PetscCall(PetscSFSetUp(*sf));
  *nsend   = n;
  *nrecv   = rstart[size];
  *sendidx = idx;
  PetscCall(PetscFree(owner));
  PetscCall(PetscFree5(scount, rcount, sstart, rstart, sdispl));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the rows and columns (with cj) of the entries sent, to their owners: *ri and *rj */
static PetscErrorCode ELLGCooSendIndices(ELLGCooSend s, const PetscInt ci[], const PetscInt cj[], const PetscInt sendidx[], PetscInt **ri, PetscInt **rj)
{
  const PetscInt *c[2] = {ci, cj};
  PetscInt      **r[2] = {ri, rj}, *sbuf;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(s->nsend, &sbuf));
  for (PetscInt h = 0; h < (cj ? 2 : 1); h++) {
    for (PetscInt l = 0; l < s->nsend; l++) sbuf[l] = c[h][sendidx[l]];
    PetscCall(PetscMalloc1(s->nrecv, r[h]));
    PetscCall(PetscSFReduceBegin(s->sf, MPIU_INT, sbuf, *r[h], MPI_REPLACE));
    PetscCall(PetscSFReduceEnd(s->sf, MPIU_INT, sbuf, *r[h], MPI_REPLACE));
  }
  PetscCall(PetscFree(sbuf));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the index of the entries sent and the buffers of their values */
static PetscErrorCode ELLGCooSendBuffers(ELLGCooSend s, const PetscInt sendidx[])
{
  PetscFunctionBegin;
  PetscCall(PetscMalloc1(s->nsend, &s->hsendidx));
  for (PetscInt l = 0; l < s->nsend; l++) s->hsendidx[l] = (int)sendidx[l];
  PetscCall(PetscELLGMalloc(s->be, sizeof(int) * (size_t)s->nsend, (void **)&s->sendidx));
  PetscCall(PetscELLGMemcpy(s->be, s->sendidx, s->hsendidx, sizeof(int) * (size_t)s->nsend, ELLG_MEMCPY_HTOD));
  PetscCall(PetscELLGMalloc(s->be, sizeof(PetscScalar) * (size_t)s->nsend, (void **)&s->dsend));
  PetscCall(PetscELLGMalloc(s->be, sizeof(PetscScalar) * (size_t)s->nrecv, (void **)&s->drecv));
  if (s->be != PETSCELLG_BACKEND_HOST) PetscCall(PetscMalloc2(s->nsend, &s->hsend, s->nrecv, &s->hrecv));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ELLGCooSendCreate(PetscLayout map, PetscELLGBackend be, PetscBool ignore, PetscCount ncoo, const PetscInt ci[], const PetscInt cj[], ELLGCooSend *send, PetscInt *nrecv, PetscInt **ri, PetscInt **rj)
{
  ELLGCooSend    s;
  PetscInt      *sendidx = NULL;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCheck(ncoo < INT_MAX, PETSC_COMM_SELF, PETSC_ERR_SUP, "%" PetscCount_FMT " COO entries on one process: at most %d", ncoo, INT_MAX - 1);
  PetscCall(PetscNew(&s));
  s->be = be;
  ierr  = ELLGCooSendGraph(map, ignore, ncoo, ci, cj, &s->nsend, &sendidx, &s->nrecv, &s->sf);
  if (!ierr) ierr = ELLGCooSendIndices(s, ci, cj, sendidx, ri, rj);
  if (!ierr) ierr = ELLGCooSendBuffers(s, sendidx);
  PetscCall(PetscFree(sendidx));
  if (ierr) PetscCall(ELLGCooSendDestroy(&s));
  PetscCall(ierr);
  *nrecv = s->nrecv;
  *send  = s;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ELLGCooSendDestroy(ELLGCooSend *send)
{
  ELLGCooSend s = *send;

  PetscFunctionBegin;
  if (!s) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscSFDestroy(&s->sf));
  PetscCall(PetscELLGFree(s->be, s->sendidx));
  PetscCall(PetscELLGFree(s->be, s->dsend));
  PetscCall(PetscELLGFree(s->be, s->drecv));
  PetscCall(PetscFree(s->hsendidx));
  PetscCall(PetscFree2(s->hsend, s->hrecv));
  PetscCall(PetscFree(*send));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscInt ELLGCooSendCount(ELLGCooSend s)
{
  return s->nsend;
}

PetscErrorCode ELLGCooSendValues(ELLGCooSend s, PetscBool inbackend, const PetscScalar v[], const PetscScalar **w)
{
  const PetscBool device = (PetscBool)(inbackend && s->be != PETSCELLG_BACKEND_HOST);
  PetscScalar    *send   = s->hsend ? s->hsend : s->dsend, *recv = s->hrecv ? s->hrecv : s->drecv;

  PetscFunctionBegin;
  if (s->nsend && device) {
#if defined(ELLG_HAVE_PETSC_CUDA)
    PetscCall(PetscELLGWaitForPetsc()); /* the program may have computed v on PETSc's stream */
#endif
    PetscCall(PetscELLGLogGpuTimeBegin(s->be));
    PetscELLGBackendCall(s->be, ELLGHostGather, ELLGCudaGather, (NULL, (int)s->nsend, s->sendidx, v, s->dsend));
    PetscCall(PetscELLGLogGpuTimeEnd(s->be));
    PetscCall(PetscELLGMemcpy(s->be, send, s->dsend, sizeof(PetscScalar) * (size_t)s->nsend, ELLG_MEMCPY_DTOH));
  } else if (s->nsend) ELLGHostGather(NULL, (int)s->nsend, s->hsendidx, v, send);
  PetscCall(PetscSFReduceBegin(s->sf, MPIU_SCALAR, send, recv, MPI_REPLACE));
  PetscCall(PetscSFReduceEnd(s->sf, MPIU_SCALAR, send, recv, MPI_REPLACE));
  if (device) PetscCall(PetscELLGMemcpy(s->be, s->drecv, recv, sizeof(PetscScalar) * (size_t)s->nrecv, ELLG_MEMCPY_HTOD));
  *w = device ? s->drecv : recv;
  PetscFunctionReturn(PETSC_SUCCESS);
}
