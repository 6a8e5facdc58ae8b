/*
   Device vectors: COO assembly (VecSetPreallocationCOO(), VecSetValuesCOO()) where the values are. The preallocation
   maps the entries onto the local values once, those of other processes' values sent to their owners (ellgcoo.h);
   VecSetValuesCOO() with values in the backend's memory (device memory for cuda) sums them there into the backend copy,
   as the matrices' COO assembly does, with no pass on the host; values on the host are first copied there. While a
   host array of the vector is checked out, the sums are made on the host copy. The semantics are PETSc's: repeated
   entries summed, INSERT_VALUES sets every local value (0 where no entry falls), a negative index is an error unless
   VEC_IGNORE_NEGATIVE_INDICES is set, and entries of other processes are sent unless VEC_NO_OFF_PROC_ENTRIES is.
*/
#include "vecgpuimpl.h"

PetscErrorCode VecGPUResetCOO_Private(Vec_GPU *g)
{
  PetscFunctionBegin;
  PetscCall(ELLGCooDestroy(&g->coo));
  PetscCall(ELLGCooSendDestroy(&g->coosend));
  g->ncoo = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PETSc's checks of the indices */
static PetscErrorCode VecGPUCheckCOO(Vec x, PetscCount ncoo, const PetscInt coo_i[])
{
  PetscFunctionBegin;
  for (PetscCount k = 0; k < ncoo; k++) {
    PetscCheck(coo_i[k] >= 0 || x->stash.ignorenegidx, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Found a negative index in VecSetPreallocateCOO() but VEC_IGNORE_NEGATIVE_INDICES was not set");
    PetscCheck(coo_i[k] < x->map->N, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Found index %" PetscInt_FMT " in VecSetPreallocateCOO() larger than the global size %" PetscInt_FMT, coo_i[k], x->map->N);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the map of g: the local index of each entry of this process (-1: another's, or ignored), then of each received */
static PetscErrorCode VecGPUCreateCOO(Vec x, Vec_GPU *g, PetscCount ncoo, const PetscInt coo_i[])
{
  const PetscInt rstart = x->map->rstart, rend = x->map->rend;
  PetscInt       nrecv  = 0, *ri = NULL, *li;
  PetscCount     n;

  PetscFunctionBegin;
  if (g->size > 1) PetscCall(ELLGCooSendCreate(x->map, g->backend, x->stash.donotstash, ncoo, coo_i, NULL, &g->coosend, &nrecv, &ri, NULL));
  n = ncoo + nrecv;
  PetscCall(PetscMalloc1(n, &li));
  for (PetscCount k = 0; k < n; k++) {
    const PetscInt i = k < ncoo ? coo_i[k] : ri[k - ncoo];

    li[k] = i >= rstart && i < rend ? i - rstart : -1;
  }
  PetscCall(PetscFree(ri));
  PetscCall(ELLGCooCreateRows(g->backend, x->map->n, n, li, &g->coo));
  PetscCall(PetscFree(li));
  g->ncoo = ncoo;
  PetscCall(PetscInfo(x, "COO map: %" PetscCount_FMT " entries, %" PetscInt_FMT " sent to other processes, %" PetscInt_FMT " received\n", ncoo, g->coosend ? ELLGCooSendCount(g->coosend) : 0, nrecv));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode VecSetPreallocationCOO_GPU(Vec x, PetscCount ncoo, const PetscInt coo_i[])
{
  Vec_GPU       *g;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(VecGPUGetData_Private(x, &g));
  PetscCall(VecGPUResetCOO_Private(g));
  PetscCall(VecGPUCheckCOO(x, ncoo, coo_i));
  ierr = VecGPUCreateCOO(x, g, ncoo, coo_i);
  if (ierr) PetscCall(VecGPUResetCOO_Private(g));
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode VecSetValuesCOO_GPU(Vec x, const PetscScalar v[], InsertMode imode)
{
  Vec_GPU             *g;
  const VecGPUKernels *k;
  const PetscScalar   *vv, *w = NULL;
  PetscScalar         *xa, *tmp = NULL;
  PetscBool            inbackend;
  PetscErrorCode       ierr;

  PetscFunctionBegin;
  PetscCall(VecGPUGetData_Private(x, &g));
  PetscCheck(g->coo, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "VecSetValuesCOO() needs VecSetPreallocationCOO() first");
  PetscCheck(imode == INSERT_VALUES || imode == ADD_VALUES, PETSC_COMM_SELF, PETSC_ERR_SUP, "VecSetValuesCOO() takes INSERT_VALUES or ADD_VALUES");
  PetscCall(VecGPUArray_Private(x, imode == INSERT_VALUES ? ELLG_ACCESS_WRITE : ELLG_ACCESS_READ_WRITE, &k, &xa));
  inbackend = (PetscBool)(VecGPUKernelsBackend(k) != PETSCELLG_BACKEND_HOST);
  /* the values where the sums are made: a copy of them there when they are not */
  if (inbackend) PetscCall(PetscELLGCooBackendValues(g->backend, g->ncoo, v, &tmp));
  else PetscCall(PetscELLGCooHostValues(g->backend, g->ncoo, v, &tmp));
  vv = tmp ? tmp : v;
#if defined(ELLG_HAVE_PETSC_CUDA)
  if (inbackend && !tmp) PetscCall(PetscELLGWaitForPetsc()); /* the program may have computed v on PETSc's stream */
#endif
  ierr = g->coosend ? ELLGCooSendValues(g->coosend, inbackend, vv, &w) : PETSC_SUCCESS;
  if (!ierr) ierr = ELLGCooSum(g->coo, inbackend, g->ncoo, vv, w, imode, xa);
  if (inbackend) PetscCall(PetscELLGFree(g->backend, tmp));
  else PetscCall(PetscFree(tmp));
  PetscCall(ierr);
  g->constant = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode VecGPUSetCOOOps_Private(Vec v)
{
  PetscFunctionBegin;
  v->ops->setpreallocationcoo = VecSetPreallocationCOO_GPU;
  v->ops->setvaluescoo        = VecSetValuesCOO_GPU;
  PetscFunctionReturn(PETSC_SUCCESS);
}
