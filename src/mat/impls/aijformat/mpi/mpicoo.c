/*
   COO assembly of the parallel types in the backend's memory (mpicoo.h). MPIAIJ's MatSetPreallocationCOO() builds the
   pattern of both blocks; beside it, the process sends the rows and columns of its entries of other processes' rows
   to their owners once (a PetscSF), and each block gets the COO map (ellgcoo.h) of its entries among the process's
   own (0 .. ncoo - 1) and those received (ncoo ..). MatSetValuesCOO() with values in the backend's memory gathers the
   values of the entries sent there, sends them (through host buffers for cuda: they are the entries of the rows that
   processes share, few beside the rest), and each block sums its entries there into its format and SeqAIJ's values,
   as the seq types' COO assembly does (MatSeqAIJFormatSetValuesCOOBackend()): the process's own values never leave
   the device.
*/
#include "../aijformat.h"
#include "mpicoo.h"
#include <petscsf.h>

#define MAT_MPIAIJFORMAT_COO "MatMPIAIJFormatCoo"

typedef struct _n_MatMPIAIJFormatCoo *MatMPIAIJFormatCoo;
struct _n_MatMPIAIJFormatCoo {
  PetscELLGBackend be;
  PetscCount       ncoo;          /* entries given on this process */
  PetscInt         nsend, nrecv;  /* entries sent to the owners of their rows, and received */
  PetscSF          sf;            /* leaves: the entries sent, in the order of sendidx; roots: those received */
  int             *sendidx;       /* the entries sent, in the backend's memory */
  PetscScalar     *dsend, *drecv; /* their values in the backend's memory */
  PetscScalar     *hsend, *hrecv; /* and on the host, where the backend's memory is the device's */
  ELLGCoo          coo[2];        /* the diagonal and off-diagonal blocks' maps */
};

static PetscErrorCode MatMPIAIJFormatCooDestroy(MatMPIAIJFormatCoo *coo)
{
  MatMPIAIJFormatCoo c = *coo;

  PetscFunctionBegin;
  if (!c) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscSFDestroy(&c->sf));
  PetscCall(PetscELLGFree(c->be, c->sendidx));
  PetscCall(PetscELLGFree(c->be, c->dsend));
  PetscCall(PetscELLGFree(c->be, c->drecv));
  PetscCall(PetscFree2(c->hsend, c->hrecv));
  PetscCall(ELLGCooDestroy(&c->coo[0]));
  PetscCall(ELLGCooDestroy(&c->coo[1]));
  PetscCall(PetscFree(*coo));
  PetscFunctionReturn(PETSC_SUCCESS);
}

ELLG_CONTAINER_DESTROY(MatMPIAIJFormatCooDestroy_Ctx, struct _n_MatMPIAIJFormatCoo, MatMPIAIJFormatCooDestroy)

static PetscErrorCode MatMPIAIJFormatCooFind(Mat A, MatMPIAIJFormatCoo *coo)
{
  void *p = NULL;

  PetscFunctionBegin;
  PetscCall(PetscELLGQueryContainer((PetscObject)A, MAT_MPIAIJFORMAT_COO, &p));
  *coo = (MatMPIAIJFormatCoo)p;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the entries of other processes' rows, by owner: sendidx (to PetscFree()) and the PetscSF that sends them, whose
   roots on each process are those it receives, by sender */
static PetscErrorCode MatMPIAIJFormatCooSendGraph(Mat A, PetscBool ignoreoffproc, PetscCount ncoo, const PetscInt ci[], const PetscInt cj[], PetscInt *nsend, PetscInt **sendidx, PetscInt *nrecv, PetscSF *sf)
{
  MPI_Comm     comm = PetscObjectComm((PetscObject)A);
  PetscMPIInt  size, rank;
  PetscInt    *owner, *scount, *rcount, *sstart, *rstart, *sdispl, *idx, n = 0;
  PetscSFNode *iremote;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCall(PetscMalloc1(ncoo, &owner));
  PetscCall(PetscCalloc5(size, &scount, size, &rcount, size + 1, &sstart, size + 1, &rstart, size, &sdispl));
  for (PetscCount k = 0; k < ncoo; k++) {
    PetscMPIInt p;

    owner[k] = -1;
    if (ci[k] < 0 || cj[k] < 0 || (ci[k] >= A->rmap->rstart && ci[k] < A->rmap->rend) || ignoreoffproc) continue;
    PetscCall(PetscLayoutFindOwner(A->rmap, ci[k], &p));
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

/* block b's map of the n entries (bi, bj: its local rows and columns, -1 for an entry of the other block), which must
   give the block's pattern */
static PetscErrorCode MatMPIAIJFormatCooBlock(MatMPIAIJFormatCoo c, Mat block, PetscCount n, const PetscInt bi[], const PetscInt bj[], ELLGCoo *coo)
{
  const PetscInt *ai, *aj;
  PetscInt       *ci, *cj, m;
  PetscBool       done, same;

  PetscFunctionBegin;
  PetscCall(ELLGCooCreate(c->be, block->rmap->n, block->cmap->n, n, bi, bj, coo, &ci, &cj));
  PetscCall(MatGetRowIJ(block, 0, PETSC_FALSE, PETSC_FALSE, &m, &ai, &aj, &done));
  PetscCall(PetscArraycmp(ci, ai, m + 1, &same));
  if (same) PetscCall(PetscArraycmp(cj, aj, ai[m], &same));
  PetscCall(MatRestoreRowIJ(block, 0, PETSC_FALSE, PETSC_FALSE, &m, &ai, &aj, &done));
  PetscCall(PetscFree(ci));
  PetscCall(PetscFree(cj));
  PetscCheck(same, PETSC_COMM_SELF, PETSC_ERR_PLIB, "The COO entries do not give the pattern MPIAIJ's preallocation gave a block");
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatMPIAIJFormatCooCreate(Mat A, PetscELLGBackend be, PetscBool ignoreoffproc, PetscCount ncoo, const PetscInt ci[], const PetscInt cj[])
{
  MatMPIAIJFormatCoo c;
  PetscContainer     container;
  Mat                Ad, Ao;
  const PetscInt    *garray;
  PetscInt          *sendidx, *sbuf, *rbuf, *bi, *bj;
  PetscCount         n;
  int               *idx;
  const PetscInt     rstart = A->rmap->rstart, cstart = A->cmap->rstart, cend = A->cmap->rend;

  PetscFunctionBegin;
  PetscCheck(ncoo < INT_MAX, PETSC_COMM_SELF, PETSC_ERR_SUP, "%" PetscCount_FMT " COO entries on one process: at most %d", ncoo, INT_MAX - 1);
  PetscCall(PetscNew(&c));
  c->be   = be;
  c->ncoo = ncoo;
  PetscCall(MatMPIAIJFormatCooSendGraph(A, ignoreoffproc, ncoo, ci, cj, &c->nsend, &sendidx, &c->nrecv, &c->sf));
  /* the rows and columns of the entries sent, to their owners */
  n = ncoo + c->nrecv;
  PetscCall(PetscMalloc4(2 * c->nsend, &sbuf, 2 * c->nrecv, &rbuf, n, &bi, n, &bj));
  for (PetscInt l = 0; l < c->nsend; l++) {
    sbuf[l]            = ci[sendidx[l]];
    sbuf[c->nsend + l] = cj[sendidx[l]];
  }
  for (PetscInt h = 0; h < 2; h++) {
    PetscCall(PetscSFReduceBegin(c->sf, MPIU_INT, sbuf + h * c->nsend, rbuf + h * c->nrecv, MPI_REPLACE));
    PetscCall(PetscSFReduceEnd(c->sf, MPIU_INT, sbuf + h * c->nsend, rbuf + h * c->nrecv, MPI_REPLACE));
  }
  /* each block's entries among the process's and those received */
  PetscCall(MatMPIAIJGetSeqAIJ(A, &Ad, &Ao, &garray));
  for (PetscInt b = 0; b < 2; b++) {
    for (PetscCount k = 0; k < n; k++) {
      const PetscInt i = k < ncoo ? ci[k] : rbuf[k - ncoo], j = k < ncoo ? cj[k] : rbuf[c->nrecv + k - ncoo];
      const PetscBool diag = (PetscBool)(j >= cstart && j < cend);
      PetscInt        col  = -1;

      bi[k] = bj[k] = -1;
      if (i < rstart || i >= A->rmap->rend || j < 0 || (b == 0) != diag) continue;
      if (b == 0) col = j - cstart;
      else PetscCall(PetscFindInt(j, Ao->cmap->n, garray, &col));
      PetscCheck(col >= 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "COO entry (%" PetscInt_FMT ", %" PetscInt_FMT ") is not in the off-diagonal block's columns", i, j);
      bi[k] = i - rstart;
      bj[k] = col;
    }
    PetscCall(MatMPIAIJFormatCooBlock(c, b ? Ao : Ad, n, bi, bj, &c->coo[b]));
  }
  PetscCall(PetscFree4(sbuf, rbuf, bi, bj));
  /* the buffers of the values */
  PetscCall(PetscMalloc1(c->nsend, &idx));
  for (PetscInt l = 0; l < c->nsend; l++) idx[l] = (int)sendidx[l];
  PetscCall(PetscFree(sendidx));
  PetscCall(PetscELLGMalloc(be, sizeof(int) * (size_t)c->nsend, (void **)&c->sendidx));
  PetscCall(PetscELLGMemcpy(be, c->sendidx, idx, sizeof(int) * (size_t)c->nsend, ELLG_MEMCPY_HTOD));
  PetscCall(PetscFree(idx));
  PetscCall(PetscELLGMalloc(be, sizeof(PetscScalar) * (size_t)c->nsend, (void **)&c->dsend));
  PetscCall(PetscELLGMalloc(be, sizeof(PetscScalar) * (size_t)c->nrecv, (void **)&c->drecv));
  if (be != PETSCELLG_BACKEND_HOST) PetscCall(PetscMalloc2(c->nsend, &c->hsend, c->nrecv, &c->hrecv));
  PetscCall(PetscContainerCreate(PETSC_COMM_SELF, &container));
  PetscCall(PetscContainerSetPointer(container, c));
  PetscCall(ELLGContainerSetCtxDestroy(container, MatMPIAIJFormatCooDestroy_Ctx));
  PetscCall(PetscObjectCompose((PetscObject)A, MAT_MPIAIJFORMAT_COO, (PetscObject)container));
  PetscCall(PetscContainerDestroy(&container));
  PetscCall(PetscInfo(A, "COO map: %" PetscCount_FMT " entries, %" PetscInt_FMT " sent to other processes, %" PetscInt_FMT " received\n", ncoo, c->nsend, c->nrecv));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatMPIAIJFormatCooGet(Mat A, PetscBool *has, PetscCount *ncoo)
{
  MatMPIAIJFormatCoo c;

  PetscFunctionBegin;
  PetscCall(MatMPIAIJFormatCooFind(A, &c));
  *has  = (PetscBool)(c != NULL);
  *ncoo = c ? c->ncoo : 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatMPIAIJFormatCooShare(Mat A, Mat B)
{
  PetscObject c = NULL;

  PetscFunctionBegin;
  if (A) PetscCall(PetscObjectQuery((PetscObject)A, MAT_MPIAIJFORMAT_COO, &c));
  if (c || !A) PetscCall(PetscObjectCompose((PetscObject)B, MAT_MPIAIJFORMAT_COO, c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatMPIAIJFormatCooSetValues(Mat A, const PetscScalar v[], InsertMode imode)
{
  MatMPIAIJFormatCoo c;
  Mat                blocks[2];
  PetscScalar       *send, *recv;

  PetscFunctionBegin;
  PetscCall(MatMPIAIJFormatCooFind(A, &c));
  PetscCheck(c, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "MatSetValuesCOO() needs MatSetPreallocationCOO() first");
  PetscCall(MatMPIAIJGetSeqAIJ(A, &blocks[0], &blocks[1], NULL));
  for (PetscInt b = 0; b < 2; b++) {
    const PetscInt *ai, *aj;
    PetscInt        m;
    PetscBool       done;

    PetscCall(MatGetRowIJ(blocks[b], 0, PETSC_FALSE, PETSC_FALSE, &m, &ai, &aj, &done));
    PetscCheck(ai[m] == ELLGCooNonzeros(c->coo[b]), PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "A block has %" PetscInt_FMT " nonzeros where MatSetPreallocationCOO() gave it %" PetscInt_FMT ": call it again after changing the pattern", ai[m], ELLGCooNonzeros(c->coo[b]));
    PetscCall(MatRestoreRowIJ(blocks[b], 0, PETSC_FALSE, PETSC_FALSE, &m, &ai, &aj, &done));
  }
  send = c->hsend ? c->hsend : c->dsend;
  recv = c->hrecv ? c->hrecv : c->drecv;
  if (c->nsend) {
#if defined(ELLG_HAVE_PETSC_CUDA)
    if (c->be != PETSCELLG_BACKEND_HOST) PetscCall(PetscELLGWaitForPetsc()); /* the program may have computed v on PETSc's stream */
#endif
    PetscCall(PetscELLGLogGpuTimeBegin(c->be));
    PetscELLGBackendCall(c->be, ELLGHostGather, ELLGCudaGather, (NULL, (int)c->nsend, c->sendidx, v, c->dsend));
    PetscCall(PetscELLGLogGpuTimeEnd(c->be));
    PetscCall(PetscELLGMemcpy(c->be, send, c->dsend, sizeof(PetscScalar) * (size_t)c->nsend, ELLG_MEMCPY_DTOH));
  }
  PetscCall(PetscSFReduceBegin(c->sf, MPIU_SCALAR, send, recv, MPI_REPLACE));
  PetscCall(PetscSFReduceEnd(c->sf, MPIU_SCALAR, send, recv, MPI_REPLACE));
  PetscCall(PetscELLGMemcpy(c->be, c->drecv, recv, sizeof(PetscScalar) * (size_t)c->nrecv, ELLG_MEMCPY_HTOD));
  for (PetscInt b = 0; b < 2; b++) PetscCall(MatSeqAIJFormatSetValuesCOOBackend(blocks[b], c->coo[b], c->ncoo, v, c->drecv, imode));
  PetscFunctionReturn(PETSC_SUCCESS);
}
