/*
   MatProduct C = A B of our parallel types with MATMPIDENSE or MATMPIDENSEGPU. PETSc's MPIAIJ x MPIDense
   multiplies the off-diagonal block with SeqAIJ's own (hidden) kernel on the host; here both blocks run
   in the stored format: the rows of B that the off-diagonal block Ao needs (its columns, garray) are
   gathered with a PetscSF whose unit is a row of B, then C's local rows = Ad B_local + Ao B_ghost, the
   first term writing C, the second adding. The SF is made again when A's nonzero pattern (and with it
   garray) changes.

   When B is an mpidensegpu whose local values are on A's backend and C an mpidensegpu of that backend,
   the kernels run on the backend copies of B's and C's local blocks; the rows of B that other processes
   need are gathered there, and they and the ghost rows go through the host (the SF works on host
   memory), so only those rows move. Otherwise both blocks run in one pass over the chunks of columns
   of the host arrays (src/mat/formats/spmm.c).
*/
#include "../aijformat.h"
#include <petscsf.h>
#include <ellgspmm.h>

typedef struct {
  ELLGSpMM         spmm;
  PetscInt         L;            /* columns of B and C */
  MPI_Datatype     row;          /* a row of B: L contiguous scalars */
  PetscScalar     *rows;         /* row-major copy of B's local rows (those in send[] filled): the SF's roots */
  PetscSF          sf;           /* leaves: Ao's columns, the rows garray[] of B; roots: B's local rows */
  PetscInt         nsend, *send; /* the local rows of B that other processes need, ascending */
  PetscScalar     *ghosts;       /* row-major: the rows garray[] of B, the SF's leaves */
  PetscObjectState nzstate;      /* what the SF was made for: A's nonzero state, garray, the number of ghosts */
  const PetscInt  *garray;
  PetscInt         nghost;
  /* products in the backend's memory: made with the SF, on first use */
  PetscBool    backend_ready;
  PetscELLGBackend backend;
  int         *send_d;                 /* backend: send[] */
  PetscScalar *sent_d, *sent;          /* backend, host: the rows of B sent, column-major (nsend x L) */
  PetscScalar *ghosts_d, *ghostcols;   /* backend, host: the ghost rows, column-major (nghost x L) */
} MatProductData_MPIAIJFormat_MPIDense;

/* frees the buffers of products in the backend's memory */
static PetscErrorCode MatProductFreeBackend_MPIAIJFormat_MPIDense(MatProductData_MPIAIJFormat_MPIDense *d)
{
  PetscFunctionBegin;
  if (!d->backend_ready) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscELLGFree(d->backend, d->send_d));
  PetscCall(PetscELLGFree(d->backend, d->sent_d));
  PetscCall(PetscELLGFree(d->backend, d->ghosts_d));
  PetscCall(PetscFree2(d->sent, d->ghostcols));
  d->backend_ready = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the buffers of products in the memory of backend be, for the present SF */
static PetscErrorCode MatProductSetUpBackend_MPIAIJFormat_MPIDense(MatProductData_MPIAIJFormat_MPIDense *d, PetscELLGBackend be)
{
  const size_t sz = sizeof(PetscScalar);
  int         *send;

  PetscFunctionBegin;
  if (d->backend_ready) PetscFunctionReturn(PETSC_SUCCESS);
  d->backend = be;
  PetscCall(PetscMalloc1(d->nsend, &send));
  for (PetscInt k = 0; k < d->nsend; k++) send[k] = (int)d->send[k];
  PetscCall(PetscELLGMalloc(be, sizeof(int) * d->nsend, (void **)&d->send_d));
  PetscCall(PetscELLGMemcpy(be, d->send_d, send, sizeof(int) * d->nsend, ELLG_MEMCPY_HTOD));
  PetscCall(PetscFree(send));
  PetscCall(PetscELLGMalloc(be, sz * d->nsend * d->L, (void **)&d->sent_d));
  PetscCall(PetscELLGMalloc(be, sz * d->nghost * d->L, (void **)&d->ghosts_d));
  PetscCall(PetscMalloc2(d->nsend * d->L, &d->sent, d->nghost * d->L, &d->ghostcols));
  d->backend_ready = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatProductDataFree_MPIAIJFormat_MPIDense(MatProductData_MPIAIJFormat_MPIDense **dp)
{
  MatProductData_MPIAIJFormat_MPIDense *d = *dp;

  PetscFunctionBegin;
  PetscCall(ELLGSpMMDestroy(&d->spmm));
  PetscCall(MatProductFreeBackend_MPIAIJFormat_MPIDense(d));
  if (d->row != MPI_DATATYPE_NULL) PetscCallMPI(MPI_Type_free(&d->row));
  PetscCall(PetscSFDestroy(&d->sf));
  PetscCall(PetscFree(d->send));
  PetscCall(PetscFree(d->rows));
  PetscCall(PetscFree(d->ghosts));
  PetscCall(PetscFree(*dp));
  PetscFunctionReturn(PETSC_SUCCESS);
}
ELLG_PRODUCT_DESTROY(MatProductDataDestroy_MPIAIJFormat_MPIDense, MatProductData_MPIAIJFormat_MPIDense, MatProductDataFree_MPIAIJFormat_MPIDense)

/* the SF of the ghost rows of B, the rows to send and room for the ghosts, for A's present pattern */
static PetscErrorCode MatProductSetUpGhosts_MPIAIJFormat_MPIDense(Mat A, MatProductData_MPIAIJFormat_MPIDense *d)
{
  Mat                Ao;
  const PetscInt    *garray, *ioffset, *irootloc;
  const PetscMPIInt *iranks;
  PetscInt           nghost, niranks;

  PetscFunctionBegin;
  PetscCall(MatMPIAIJGetSeqAIJ(A, NULL, &Ao, &garray));
  nghost = Ao->cmap->n;
  if (d->sf && d->nzstate == A->nonzerostate && d->garray == garray && d->nghost == nghost) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatProductFreeBackend_MPIAIJFormat_MPIDense(d));
  PetscCall(PetscSFDestroy(&d->sf));
  PetscCall(PetscFree(d->send));
  PetscCall(PetscFree(d->ghosts));
  PetscCall(PetscSFCreate(PetscObjectComm((PetscObject)A), &d->sf));
  PetscCall(PetscSFSetGraphLayout(d->sf, A->cmap, nghost, NULL, PETSC_COPY_VALUES, garray));
  PetscCall(PetscSFSetUp(d->sf));
  PetscCall(PetscSFGetLeafRanks(d->sf, &niranks, &iranks, &ioffset, &irootloc));
  d->nsend = ioffset[niranks];
  PetscCall(PetscMalloc1(d->nsend, &d->send));
  PetscCall(PetscArraycpy(d->send, irootloc, d->nsend));
  PetscCall(PetscSortRemoveDupsInt(&d->nsend, d->send));
  PetscCall(PetscMalloc1(nghost * d->L, &d->ghosts));
  d->nzstate = A->nonzerostate;
  d->garray  = garray;
  d->nghost  = nghost;
  PetscCall(PetscInfo(A, "Ghost rows of B for C = A B: %" PetscInt_FMT " received, %" PetscInt_FMT " local rows sent, from and to %" PetscInt_FMT " processes\n", nghost, d->nsend, niranks));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the ghost rows of B into d->ghosts from the rows B sends, column-major in src with leading dimension
   ld: B's local rows (packed = FALSE) or only those sent, in the order of send[] (packed = TRUE) */
static PetscErrorCode MatProductExchangeGhosts_MPIAIJFormat_MPIDense(MatProductData_MPIAIJFormat_MPIDense *d, const PetscScalar *src, PetscInt ld, PetscBool packed)
{
  const PetscInt L = d->L;

  PetscFunctionBegin;
  for (PetscInt k = 0; k < d->nsend; k++) {
    const PetscInt i = d->send[k], r = packed ? k : i;

    for (PetscInt j = 0; j < L; j++) d->rows[i * L + j] = src[r + j * ld];
  }
  PetscCall(PetscSFBcastBegin(d->sf, d->row, d->rows, d->ghosts, MPI_REPLACE));
  PetscCall(PetscSFBcastEnd(d->sf, d->row, d->rows, d->ghosts, MPI_REPLACE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* C's local rows from the host arrays of the local blocks Bl and Cl, the columns in chunks through the backend */
static PetscErrorCode MatProductNumericHost_MPIAIJFormat_MPIDense(MatProductData_MPIAIJFormat_MPIDense *d, Mat Bl, Mat Cl, ELLGSpMMTerm terms[2])
{
  const PetscScalar *b;
  PetscScalar       *c;
  PetscInt           ldb, ldc;

  PetscFunctionBegin;
  PetscCall(MatDenseGetLDA(Bl, &ldb));
  PetscCall(MatDenseGetLDA(Cl, &ldc));
  PetscCall(MatDenseGetArrayRead(Bl, &b));
  if (d->L) PetscCall(MatProductExchangeGhosts_MPIAIJFormat_MPIDense(d, b, ldb, PETSC_FALSE));
  terms[0].B       = b;
  terms[0].rstride = 1;
  terms[0].cstride = ldb;
  terms[1].B       = d->ghosts;
  terms[1].rstride = d->L;
  terms[1].cstride = 1;
  PetscCall(MatDenseGetArrayWrite(Cl, &c));
  PetscCall(ELLGSpMMApply(d->spmm, d->L, 2, terms, c, ldc));
  PetscCall(MatDenseRestoreArrayWrite(Cl, &c));
  PetscCall(MatDenseRestoreArrayRead(Bl, &b));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* C's local rows on the backend copies of the local blocks Bl and Cl: the rows sent are gathered there,
   the ghost rows go there through the host */
static PetscErrorCode MatProductNumericBackend_MPIAIJFormat_MPIDense(MatProductData_MPIAIJFormat_MPIDense *d, Mat Bl, Mat Cl, ELLGSpMMTerm terms[2])
{
  const PetscELLGBackend be = terms[0].fmt->backend;
  const PetscInt         L  = d->L;
  const PetscScalar     *b;
  PetscScalar           *c;
  PetscInt               ldb, ldc;

  PetscFunctionBegin;
  PetscCall(MatProductSetUpBackend_MPIAIJFormat_MPIDense(d, be));
  PetscCall(MatDenseGPUGetBackendArrayRead(Bl, &b, &ldb));
  if (L) {
    PetscELLGBackendCall(be, ELLGHostGatherColumns, ELLGCudaGatherColumns, (NULL, (int)d->nsend, (int)L, d->send_d, b, (int)ldb, d->sent_d, (int)d->nsend));
    PetscCall(PetscELLGMemcpy(be, d->sent, d->sent_d, sizeof(PetscScalar) * d->nsend * L, ELLG_MEMCPY_DTOH));
    PetscCall(MatProductExchangeGhosts_MPIAIJFormat_MPIDense(d, d->sent, d->nsend, PETSC_TRUE));
    for (PetscInt g = 0; g < d->nghost; g++)
      for (PetscInt j = 0; j < L; j++) d->ghostcols[g + j * d->nghost] = d->ghosts[g * L + j];
    PetscCall(PetscELLGMemcpy(be, d->ghosts_d, d->ghostcols, sizeof(PetscScalar) * d->nghost * L, ELLG_MEMCPY_HTOD));
  }
  terms[0].B       = b;
  terms[0].rstride = 1;
  terms[0].cstride = ldb;
  terms[1].B       = d->ghosts_d;
  terms[1].rstride = 1;
  terms[1].cstride = d->nghost;
  PetscCall(MatDenseGPUGetBackendArrayWrite(Cl, &c, &ldc));
  PetscCall(PetscELLGLogGpuTimeBegin(be)); /* the products alone, not the exchange of the ghost rows */
  PetscCall(ELLGSpMMApplyBackend(d->spmm, L, 2, terms, c, ldc));
  PetscCall(PetscELLGLogGpuTimeEnd(be));
  PetscCall(MatDenseGPURestoreBackendArrayWrite(Cl, &c));
  PetscCall(MatDenseGPURestoreBackendArrayRead(Bl, &b));
  PetscCall(PetscELLGLogSynchronize(be));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatProductNumeric_MPIAIJFormat_MPIDense(Mat C)
{
  Mat_Product                        *product = C->product;
  MatProductData_MPIAIJFormat_MPIDense *d;
  Mat                                 A, B, Ad, Ao, Bl, Cl;
  ELLGSpMMTerm                        terms[2];
  PetscInt                            L;
  PetscBool                           bdev, cdev;

  PetscFunctionBegin;
  MatCheckProduct(C, 1);
  PetscCheck(product->data, PetscObjectComm((PetscObject)C), PETSC_ERR_PLIB, "Product data empty");
  d = (MatProductData_MPIAIJFormat_MPIDense *)product->data;
  A = product->A;
  B = product->B;
  L = d->L;
  PetscCheck(B->cmap->N == L && C->cmap->N == L, PetscObjectComm((PetscObject)C), PETSC_ERR_ARG_SIZ, "C = A B was set up for %" PetscInt_FMT " columns, B has %" PetscInt_FMT " and C %" PetscInt_FMT, L, B->cmap->N, C->cmap->N);
  PetscCall(MatMPIAIJGetSeqAIJ(A, &Ad, &Ao, NULL));
  PetscCall(MatProductSetUpGhosts_MPIAIJFormat_MPIDense(A, d));
  PetscCall(MatSeqAIJFormatGetFormat(Ad, &terms[0].fmt));
  PetscCall(MatSeqAIJFormatGetFormat(Ao, &terms[1].fmt));
  PetscCall(MatDenseGetLocalMatrix(B, &Bl));
  PetscCall(MatDenseGetLocalMatrix(C, &Cl));
  PetscCall(MatDenseGPUInBackend(Bl, terms[0].fmt->backend, PETSC_TRUE, &bdev));
  PetscCall(MatDenseGPUInBackend(Cl, terms[0].fmt->backend, PETSC_FALSE, &cdev));
  PetscCall(PetscLogEventBegin(MATGPU_SpMM, A, B, C, 0));
  if (bdev && cdev) PetscCall(MatProductNumericBackend_MPIAIJFormat_MPIDense(d, Bl, Cl, terms));
  else PetscCall(MatProductNumericHost_MPIAIJFormat_MPIDense(d, Bl, Cl, terms));
  PetscCall(PetscELLGLogFlops(terms[0].fmt->backend, ELLGSpMMFlops(L, 2, terms)));
  PetscCall(PetscLogEventEnd(MATGPU_SpMM, A, B, C, 0));
  PetscCall(MatAssemblyBegin(C, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(C, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatProductSymbolic_MPIAIJFormat_MPIDense(Mat C)
{
  Mat_Product                        *product = C->product;
  MatProductData_MPIAIJFormat_MPIDense *d;
  Mat                                 A, B, Ad;
  ELLGFormat                          fmt;
  PetscBool                           isdense, device, conforming;

  PetscFunctionBegin;
  MatCheckProduct(C, 1);
  PetscCheck(!product->data, PetscObjectComm((PetscObject)C), PETSC_ERR_PLIB, "Product data not empty");
  A          = product->A;
  B          = product->B;
  conforming = (PetscBool)(A->cmap->rstart == B->rmap->rstart && A->cmap->rend == B->rmap->rend);
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &conforming, 1, ELLG_MPI_BOOL, MPI_LAND, PetscObjectComm((PetscObject)A)));
  PetscCheck(conforming, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_SIZ, "Matrix local dimensions are incompatible for C = A B: on every process the local rows of B must be the local columns of A (MatGetOwnershipRangeColumn())");
  PetscCall(MatSetSizes(C, A->rmap->n, B->cmap->n, A->rmap->N, B->cmap->N));
  PetscCall(PetscObjectBaseTypeCompare((PetscObject)C, MATMPIDENSE, &isdense));
  if (!isdense) {
    PetscCall(PetscObjectTypeCompareAny((PetscObject)B, &device, MATMPIDENSEGPU, MATMPIDENSECUDA, ""));
    PetscCall(MatSetType(C, device ? ((PetscObject)B)->type_name : MATMPIDENSE));
    C->ops->productsymbolic = MatProductSymbolic_MPIAIJFormat_MPIDense; /* MatSetType() cleared it */
  }
  PetscCall(MatSetUp(C));
  PetscCall(MatMPIAIJGetSeqAIJ(A, &Ad, NULL, NULL));
  PetscCall(MatSeqAIJFormatGetFormat(Ad, &fmt));
  PetscCall(PetscNew(&d));
  d->L   = B->cmap->N;
  d->row = MPI_DATATYPE_NULL;
  if (d->L) {
    PetscCallMPI(MPI_Type_contiguous((PetscMPIInt)d->L, MPIU_SCALAR, &d->row));
    PetscCallMPI(MPI_Type_commit(&d->row));
  }
  PetscCall(PetscMalloc1(A->cmap->n * d->L, &d->rows));
  PetscCall(ELLGSpMMCreate(fmt->backend, &d->spmm));
  product->data          = d;
  product->destroy       = MatProductDataDestroy_MPIAIJFormat_MPIDense;
  C->ops->productnumeric = MatProductNumeric_MPIAIJFormat_MPIDense;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   AB of one of our mpi types with a MATMPIDENSE or MATMPIDENSEGPU B (MatProductSetFromOptions_ELLGAnytype() checked the
   types): ours when both blocks of A are of the format type (after A's first final assembly), on every
   process; else nothing is set and MPIAIJ's product runs
*/
PetscErrorCode MatProductSetFromOptions_MPIAIJFormat_MPIDense(Mat C)
{
  Mat                       A = C->product->A, blocks[2];
  const MatELLGFormatEntry *entry;
  PetscBool                 ours = PETSC_TRUE, same;

  PetscFunctionBegin;
  PetscCall(MatELLGFormatFind(((PetscObject)A)->type_name, &entry));
  PetscCall(MatMPIAIJGetSeqAIJ(A, &blocks[0], &blocks[1], NULL));
  for (PetscInt b = 0; b < 2; b++) {
    PetscCall(PetscObjectTypeCompare((PetscObject)blocks[b], entry->seqtype, &same));
    ours = (PetscBool)(ours && same);
  }
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &ours, 1, ELLG_MPI_BOOL, MPI_LAND, PetscObjectComm((PetscObject)A)));
  PetscCall(PetscInfo(C, "C = A B %s (A %s, B %s)\n", ours ? "in the format of A's blocks" : "by MPIAIJ: A's blocks are not of the format type", ((PetscObject)A)->type_name, ((PetscObject)C->product->B)->type_name));
  if (ours) C->ops->productsymbolic = MatProductSymbolic_MPIAIJFormat_MPIDense;
  PetscFunctionReturn(PETSC_SUCCESS);
}
