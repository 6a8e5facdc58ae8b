/*
   COO assembly of the parallel types in the backend's memory (mpicoo.h). MPIAIJ's MatSetPreallocationCOO() builds the
   pattern of both blocks; beside it, the process sends the rows and columns of its entries of other processes' rows
   to their owners once (an ELLGCooSend), and each block gets the COO map (ellgcoo.h) of its entries among the
   process's own (0 .. ncoo - 1) and those received (ncoo ..). MatSetValuesCOO() with values in the backend's memory
   sends the values of the entries of other processes, and each block sums its entries there into its format and
   SeqAIJ's values, as the seq types' COO assembly does (MatSeqAIJFormatSetValuesCOOBackend()): the process's own
   values never leave the device.
*/
#include "../aijformat.h"
#include "mpicoo.h"

#define MAT_MPIAIJFORMAT_COO "MatMPIAIJFormatCoo"

typedef struct _n_MatMPIAIJFormatCoo *MatMPIAIJFormatCoo;
struct _n_MatMPIAIJFormatCoo {
  PetscCount  ncoo;   /* entries given on this process */
  ELLGCooSend send;   /* those of other processes' rows */
  ELLGCoo     coo[2]; /* the diagonal and off-diagonal blocks' maps */
};

static PetscErrorCode MatMPIAIJFormatCooDestroy(MatMPIAIJFormatCoo *coo)
{
  MatMPIAIJFormatCoo c = *coo;

  PetscFunctionBegin;
  if (!c) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(ELLGCooSendDestroy(&c->send));
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

/* block b's map of the n entries (bi, bj: its local rows and columns, -1 for an entry of the other block), which must
   give the block's pattern */
static PetscErrorCode MatMPIAIJFormatCooBlock(PetscELLGBackend be, Mat block, PetscCount n, const PetscInt bi[], const PetscInt bj[], ELLGCoo *coo)
{
  const PetscInt *ai, *aj;
  PetscInt       *ci, *cj, m;
  PetscBool       done, same;

  PetscFunctionBegin;
  PetscCall(ELLGCooCreate(be, block->rmap->n, block->cmap->n, n, bi, bj, coo, &ci, &cj));
  PetscCall(MatGetRowIJ(block, 0, PETSC_FALSE, PETSC_FALSE, &m, &ai, &aj, &done));
  PetscCall(PetscArraycmp(ci, ai, m + 1, &same));
  if (same) PetscCall(PetscArraycmp(cj, aj, ai[m], &same));
  PetscCall(MatRestoreRowIJ(block, 0, PETSC_FALSE, PETSC_FALSE, &m, &ai, &aj, &done));
  PetscCall(PetscFree(ci));
  PetscCall(PetscFree(cj));
  PetscCheck(same, PETSC_COMM_SELF, PETSC_ERR_PLIB, "The COO entries do not give the pattern MPIAIJ's preallocation gave a block");
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* each block's map, of the entries (ci, cj) followed by the nrecv received (ri, rj) */
static PetscErrorCode MatMPIAIJFormatCooBlocks(Mat A, PetscELLGBackend be, PetscCount ncoo, const PetscInt ci[], const PetscInt cj[], PetscInt nrecv, const PetscInt ri[], const PetscInt rj[], ELLGCoo coo[2])
{
  Mat              Ad, Ao;
  const PetscInt  *garray;
  PetscInt        *bi, *bj;
  const PetscInt   rstart = A->rmap->rstart, cstart = A->cmap->rstart, cend = A->cmap->rend;
  const PetscCount n      = ncoo + nrecv;

  PetscFunctionBegin;
  PetscCall(MatMPIAIJGetSeqAIJ(A, &Ad, &Ao, &garray));
  PetscCall(PetscMalloc2(n, &bi, n, &bj));
  for (PetscInt b = 0; b < 2; b++) {
    for (PetscCount k = 0; k < n; k++) {
      const PetscInt  i = k < ncoo ? ci[k] : ri[k - ncoo], j = k < ncoo ? cj[k] : rj[k - ncoo];
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
    PetscCall(MatMPIAIJFormatCooBlock(be, b ? Ao : Ad, n, bi, bj, &coo[b]));
  }
  PetscCall(PetscFree2(bi, bj));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatMPIAIJFormatCooCreate(Mat A, PetscELLGBackend be, PetscBool ignoreoffproc, PetscCount ncoo, const PetscInt ci[], const PetscInt cj[])
{
  MatMPIAIJFormatCoo c;
  PetscContainer     container;
  PetscInt           nrecv, *ri = NULL, *rj = NULL;
  PetscErrorCode     ierr;

  PetscFunctionBegin;
  PetscCall(PetscNew(&c));
  c->ncoo = ncoo;
  ierr    = ELLGCooSendCreate(A->rmap, be, ignoreoffproc, ncoo, ci, cj, &c->send, &nrecv, &ri, &rj);
  if (!ierr) ierr = MatMPIAIJFormatCooBlocks(A, be, ncoo, ci, cj, nrecv, ri, rj, c->coo);
  PetscCall(PetscFree(ri));
  PetscCall(PetscFree(rj));
  if (ierr) PetscCall(MatMPIAIJFormatCooDestroy(&c));
  PetscCall(ierr);
  PetscCall(PetscContainerCreate(PETSC_COMM_SELF, &container));
  PetscCall(PetscContainerSetPointer(container, c));
  PetscCall(ELLGContainerSetCtxDestroy(container, MatMPIAIJFormatCooDestroy_Ctx));
  PetscCall(PetscObjectCompose((PetscObject)A, MAT_MPIAIJFORMAT_COO, (PetscObject)container));
  PetscCall(PetscContainerDestroy(&container));
  PetscCall(PetscInfo(A, "COO map: %" PetscCount_FMT " entries, %" PetscInt_FMT " sent to other processes, %" PetscInt_FMT " received\n", ncoo, ELLGCooSendCount(c->send), nrecv));
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
  const PetscScalar *w;

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
  PetscCall(ELLGCooSendValues(c->send, PETSC_TRUE, v, &w));
  for (PetscInt b = 0; b < 2; b++) PetscCall(MatSeqAIJFormatSetValuesCOOBackend(blocks[b], c->coo[b], c->ncoo, v, w, imode));
  PetscFunctionReturn(PETSC_SUCCESS);
}
