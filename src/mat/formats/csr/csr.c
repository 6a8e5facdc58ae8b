/* CSRG: the stored rows in CSR, a layout without padding for matrices whose entries every padded layout reads at
   the same cost (scattered columns over a large x), multiplied by one of two kernels (-mat_csrg_kernel):
   - CSR-vector: T threads per row, consecutive threads reading consecutive entries of the row;
   - CSR-stream: CUDA blocks of whole consecutive rows (CSRG_STREAM_ENTRIES entries at most, or one longer row),
     whose threads read the block's entries in order whatever the row lengths, stage the products in shared
     memory and then add each row's. Every thread busy and every load coalesced: on scattered columns it issues
     as few requests to the L2 cache as a CSR can. It reads 32-bit column indices.
   The automatic choice (measured on an H200, docs/benchmarks.md) is CSR-stream for a matrix of at least
   CSRG_STREAM_MIN_NNZ entries whose row lengths spread (a standard deviation above their mean: CSR-vector's threads
   sized for the mean idle on the others) or whose columns are scattered over a large x (a column more than 16 bits
   from its row, and at least ELLG_LARGE_X_COLUMNS columns: there both kernels are bound by the L2 cache's request
   rate, and CSR-stream issues fewer); else CSR-vector, whose chain of dependent loads is shorter (on small
   matrices, bound by the launch and that chain, CSR-stream's two phases take about 1 us more). */
#include <ellgformat.h>
#include "csrkernels.h"

#define CSRG_STREAM_MIN_NNZ (1 << 17)

typedef enum {
  CSRG_KERNEL_AUTO,
  CSRG_KERNEL_VECTOR,
  CSRG_KERNEL_STREAM
} CSRGKernel;
static const char *const CSRGKernels[] = {"auto", "vector", "stream", "CSRGKernel", "CSRG_KERNEL_", NULL};

typedef struct {
  CSRGArrays a;                   /* in the backend's memory */
  PetscInt   T, bs;               /* threads per row, threads per block in use */
  CSRGKernel kernel;              /* -mat_csrg_kernel */
  ELLGRowStats stats;             /* the lengths of the stored rows of the last build */
  PetscBool  spread;              /* CSR-stream for the last build's rows, from their lengths alone (CSRGMultLongRows()) */
  PetscBool  stream;              /* CSR-stream for the last build */
} CSRG;

static PetscErrorCode CSRGCreate(ELLGFormat fmt)
{
  CSRG *c;

  PetscFunctionBegin;
  PetscCall(PetscNew(&c));
  fmt->data = c;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CSRGDestroy(ELLGFormat fmt)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(fmt->data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CSRGReset(ELLGFormat fmt)
{
  CSRG *c = (CSRG *)fmt->data;

  PetscFunctionBegin;
  PetscCall(PetscELLGFree(fmt->backend, c->a.rowptr));
  PetscCall(PetscELLGFree(fmt->backend, c->a.col));
  PetscCall(PetscELLGFree(fmt->backend, c->a.off));
  PetscCall(PetscELLGFree(fmt->backend, c->a.val));
  PetscCall(PetscELLGFree(fmt->backend, c->a.sval));
  PetscCall(PetscELLGFree(fmt->backend, c->a.blockrow));
  PetscCall(PetscMemzero(&c->a, sizeof(c->a)));
  fmt->bytes = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* T for rows of mean length mean, the longest w, m of them: the smallest power of two that gives each thread
   at most 2 entries of a row of the mean length, up to a warp, or more on a small matrix
   (ELLGFormatSmallThreadsPerRow) */
static PetscInt CSRGAutoThreads(PetscInt m, PetscInt w, PetscReal mean)
{
  PetscInt T = 1;

  while (T < 32 && 2 * T < mean) T *= 2;
  return PetscMax(T, ELLGFormatSmallThreadsPerRow(m, w));
}

static void CSRGChooseParameters(ELLGFormat fmt)
{
  CSRG *c = (CSRG *)fmt->data;

  c->T  = fmt->kernel.threads_per_row ? fmt->kernel.threads_per_row : CSRGAutoThreads(c->a.m, c->stats.width, (PetscReal)c->stats.mean);
  c->bs = fmt->kernel.block_size ? fmt->kernel.block_size : (c->T >= 8 ? 128 : 256);
  if (c->bs < c->T) c->bs = 32;
}

static PetscErrorCode CSRGSetFromOptions(ELLGFormat fmt, ELLG_OPTION_ITEMS PetscOptionsObject)
{
  CSRG *c = (CSRG *)fmt->data;

  PetscFunctionBegin;
  PetscCall(PetscOptionsEnum("-mat_csrg_kernel", "SpMV kernel: auto (stream on large matrices of spread row lengths or scattered columns, else vector), vector (threads per row) or stream (blocks of whole rows)", "MATCSRG", CSRGKernels, (PetscEnum)c->kernel, (PetscEnum *)&c->kernel, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CSRGCopyParameters(ELLGFormat from, ELLGFormat to)
{
  CSRG *a = (CSRG *)from->data, *b = (CSRG *)to->data;

  PetscFunctionBegin;
  b->kernel = a->kernel;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscBool CSRGSameParameters(ELLGFormat from, ELLGFormat to)
{
  const CSRG *a = (const CSRG *)from->data, *b = (const CSRG *)to->data;

  return (PetscBool)(a->kernel == b->kernel);
}

/* the CSR-stream kernel's blocks of the rows of lengths len (blockrow, a start and an end for each of *nblocks,
   allocated here): each takes rows while their entries fit CSRG_STREAM_ENTRIES and they are at most
   CSRG_STREAM_THREADS; a row of more entries is a block of its own. The nlong rows longrows[] (ascending; none
   when the long rows are multiplied apart) are in no block. */
static PetscErrorCode CSRGStreamBlocks(PetscInt m, const PetscInt *len, PetscInt nlong, const PetscInt *longrows, int **blockrow, int *nblocks)
{
  PetscFunctionBegin;
  for (int pass = 0; pass < 2; pass++) {
    int      nb = 0;
    PetscInt l  = 0;

    for (PetscInt i = 0; i < m; nb++) {
      PetscInt rows = 0, nnz = 0;

      for (; l < nlong && longrows[l] == i; l++) i++;
      if (i == m) break;
      if (pass) (*blockrow)[2 * nb] = (int)i;
      do nnz += len[i++];
      while (i < m && ++rows < CSRG_STREAM_THREADS && nnz + len[i] <= CSRG_STREAM_ENTRIES && !(l < nlong && longrows[l] == i));
      if (pass) (*blockrow)[2 * nb + 1] = (int)i;
    }
    if (!pass) PetscCall(PetscMalloc1(2 * nb, blockrow));
    *nblocks = nb;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ELLGFormatOps.multlongrows: CSR-stream, when it runs on these rows for their lengths alone (the kernel option, or
   CSRG_STREAM_MIN_NNZ entries or more whose lengths have a standard deviation above their mean), multiplies the
   rows longer than its blocks hold in the same launch, their chunks first: a block per CSRG_STREAM_ENTRIES entries
   of a long row keeps every block of the launch as short as the others */
static PetscInt CSRGMultLongRows(ELLGFormat fmt, PetscInt m, const PetscInt *ai, const ELLGRowStats *rows)
{
  CSRG *c = (CSRG *)fmt->data;

  (void)m;
  (void)ai;
  c->spread = (PetscBool)(c->kernel == CSRG_KERNEL_STREAM || (c->kernel == CSRG_KERNEL_AUTO && rows->stored >= CSRG_STREAM_MIN_NNZ && rows->sd > rows->mean));
  return c->spread ? CSRG_STREAM_ENTRIES : 0;
}

static PetscErrorCode CSRGBuild(ELLGFormat fmt, const ELLGCSR *csr)
{
  CSRG          *c = (CSRG *)fmt->data;
  const PetscInt m = csr->m;
  int           *rowptr, *blockrow = NULL;
  PetscBool      fits16, compact, stream;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(m + 1, &rowptr));
  rowptr[0] = 0;
  for (PetscInt i = 0; i < m; i++) rowptr[i + 1] = rowptr[i] + (int)csr->len[i];
  c->stats = csr->stats;
  c->a.m  = (int)m;
  CSRGChooseParameters(fmt);
  fits16  = (PetscBool)((c->kernel == CSRG_KERNEL_AUTO || (c->kernel == CSRG_KERNEL_VECTOR && fmt->kernel.compact_indices)) && ELLGFormatCompactIndices(csr)); /* read only where it decides */
  stream  = (PetscBool)(c->spread || (c->kernel == CSRG_KERNEL_AUTO && c->stats.stored >= CSRG_STREAM_MIN_NNZ && !fits16 && csr->n >= ELLG_LARGE_X_COLUMNS));
  compact = (PetscBool)(fits16 && fmt->kernel.compact_indices && !stream);
  c->stream = stream;
  /* the row starts go to the backend first, so that the host copy is freed whether or not the backend has room */
  ierr = PetscELLGMalloc(fmt->backend, sizeof(int) * (m + 1), (void **)&c->a.rowptr);
  if (!ierr) ierr = PetscELLGMemcpy(fmt->backend, c->a.rowptr, rowptr, sizeof(int) * (m + 1), ELLG_MEMCPY_HTOD);
  PetscCall(PetscFree(rowptr));
  PetscCall(ierr);
  if (stream) { /* likewise the blocks */
    PetscCall(CSRGStreamBlocks(m, csr->len, fmt->long_fused ? csr->nlong : 0, csr->longrows, &blockrow, &c->a.nblocks));
    ierr = PetscELLGMalloc(fmt->backend, sizeof(int) * 2 * (size_t)c->a.nblocks, (void **)&c->a.blockrow);
    if (!ierr) ierr = PetscELLGMemcpy(fmt->backend, c->a.blockrow, blockrow, sizeof(int) * 2 * (size_t)c->a.nblocks, ELLG_MEMCPY_HTOD);
    PetscCall(PetscFree(blockrow));
    PetscCall(ierr);
  }
  if (compact) PetscCall(PetscELLGMalloc(fmt->backend, sizeof(short) * (size_t)c->stats.stored, (void **)&c->a.off));
  else PetscCall(PetscELLGMalloc(fmt->backend, sizeof(int) * (size_t)c->stats.stored, (void **)&c->a.col));
  PetscCall(ELLGFormatMallocValues(fmt, (size_t)c->stats.stored, &c->a.val, &c->a.sval));
  PetscELLGBackendCall(fmt->backend, CSRGHostPack, CSRGCudaPack, (&c->a, csr->rowptr, csr->col, csr->val));
  fmt->bytes = ((compact ? sizeof(short) : sizeof(int)) + ELLGFormatValueSize(fmt)) * (size_t)c->stats.stored + sizeof(int) * (size_t)(m + 1) + (stream ? sizeof(int) * 2 * (size_t)c->a.nblocks : 0);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CSRGUpdateValues(ELLGFormat fmt, const ELLGCSR *csr)
{
  CSRG *c = (CSRG *)fmt->data;

  PetscFunctionBegin;
  PetscELLGBackendCall(fmt->backend, CSRGHostPack, CSRGCudaPack, (&c->a, csr->rowptr, NULL, csr->val));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CSRGMult(ELLGFormat fmt, const PetscScalar *x, const PetscScalar *z, PetscScalar *y)
{
  CSRG *c = (CSRG *)fmt->data;

  PetscFunctionBegin;
  PetscELLGBackendCall(fmt->backend, CSRGHostMult, CSRGCudaMult, (&c->a, fmt->long_fused ? ELLGLongRowsArrays(fmt->longrows) : NULL, (int)c->T, (int)c->bs, x, z, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CSRGSpMM(ELLGFormat fmt, const ELLGSpMMArgs *a)
{
  CSRG     *c  = (CSRG *)fmt->data;
  const int lc = ELLGSpMMColumns(fmt->spmm_columns, (PetscInt64)c->a.m * c->T, a->ncols);

  PetscFunctionBegin;
  PetscELLGBackendCall(fmt->backend, CSRGHostSpMM, CSRGCudaSpMM, (&c->a, (int)c->T, (int)c->bs, lc, a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CSRGMultTransposeAdd(ELLGFormat fmt, const PetscScalar *x, PetscScalar *y)
{
  CSRG *c = (CSRG *)fmt->data;

  PetscFunctionBegin;
  PetscELLGBackendCall(fmt->backend, CSRGHostMultTransposeAdd, CSRGCudaMultTransposeAdd, (&c->a, (int)c->bs, x, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CSRGGetDiagonal(ELLGFormat fmt, PetscScalar *d)
{
  CSRG *c = (CSRG *)fmt->data;

  PetscFunctionBegin;
  PetscELLGBackendCall(fmt->backend, CSRGHostGetDiagonal, CSRGCudaGetDiagonal, (&c->a, d));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CSRGView(ELLGFormat fmt, PetscViewer viewer)
{
  CSRG *c = (CSRG *)fmt->data;

  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(viewer, "CSRG rows %d, stored entries %" PetscInt_FMT ", row length mean %.3g, standard deviation %.3g, longest %" PetscInt_FMT "\n", c->a.m, c->stats.stored, c->stats.mean, c->stats.sd, c->stats.width));
  if (c->stream) PetscCall(PetscViewerASCIIPrintf(viewer, "column indices: 32-bit (the CSR-stream kernel reads an entry without its row)\n"));
  else PetscCall(ELLGFormatViewCompactIndices(fmt, viewer, (PetscBool)!!c->a.off));
  if (c->stream) PetscCall(PetscViewerASCIIPrintf(viewer, "kernel CSR-stream%s: %d blocks of %d threads, each of whole rows of at most %d entries together%s\n", c->kernel == CSRG_KERNEL_AUTO ? " (automatic: spread row lengths or scattered columns)" : "", c->a.nblocks, CSRG_STREAM_THREADS, CSRG_STREAM_ENTRIES,
                                                 !fmt->long_fused ? ", or of one longer row" : fmt->longrows ? "; before them a block for each chunk of the long rows, in the same launch" : ""));
  else PetscCall(PetscViewerASCIIPrintf(viewer, "kernel CSR-vector: %" PetscInt_FMT " threads per row%s, %" PetscInt_FMT " threads per block%s%s\n", c->T, fmt->kernel.threads_per_row ? "" : " (automatic)", c->bs, fmt->kernel.block_size ? "" : " (automatic)", c->kernel == CSRG_KERNEL_AUTO ? "; the kernel chosen automatically" : ""));
  PetscFunctionReturn(PETSC_SUCCESS);
}

const ELLGFormatOps ELLGFormatOps_CSRG = {
  .name             = "csrg",
  .title            = "CSRG format options",
  .kernel           = ELLG_KERNEL_THREADS_PER_ROW | ELLG_KERNEL_BLOCK_SIZE | ELLG_KERNEL_COMPACT_INDICES,
  .longrowthreads   = CSRGAutoThreads, /* the threads every row gets, the longest too */
  .multlongrows     = CSRGMultLongRows,
  .create           = CSRGCreate,
  .setfromoptions   = CSRGSetFromOptions,
  .parameters       = CSRGChooseParameters,
  .build            = CSRGBuild,
  .updatevalues     = CSRGUpdateValues,
  .mult             = CSRGMult,
  .multtransposeadd = CSRGMultTransposeAdd,
  .getdiagonal      = CSRGGetDiagonal,
  .spmm             = CSRGSpMM,
  .copyparameters   = CSRGCopyParameters,
  .sameparameters   = CSRGSameParameters,
  .view             = CSRGView,
  .reset            = CSRGReset,
  .destroy          = CSRGDestroy,
};
