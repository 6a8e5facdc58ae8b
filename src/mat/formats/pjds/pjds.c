/* pJDS: padded jagged diagonals (Kreutzer et al.). The rows are sorted by stored length,
   grouped in blocks of b_r rows padded to their longest row, and stored diagonal by diagonal; only the
   rows are permuted, so x and y keep the original numbering. */
#include <ellgformat.h>
#include <ellglongrowsrule.h>
#include "pjdskernels.h"

typedef struct {
  PJDSArrays a;                   /* in the backend's memory */
  PetscInt   br;                  /* option: rows per block (a power of two, 1 to 1024; 0 automatic) */
  PetscInt   br_applied;          /* the block rows of the last build */
  PetscInt   ept, ept_option;     /* most entries a thread of a row takes in the CUDA SpMV; option (0: automatic) */
  PetscInt   bs;                  /* threads per CUDA block in use */
  PetscInt   nblocks, nzblocks;   /* blocks of rows, those of them with at least one diagonal */
  ELLGRowStats stats;             /* the row lengths of the last build (stored: the entries it holds, the matrix's less the long rows') */
} PJDS;

static PetscErrorCode PJDSCreate(ELLGFormat fmt)
{
  PJDS *p;

  PetscFunctionBegin;
  PetscCall(PetscNew(&p));
  p->br_applied = 32;
  fmt->data     = p;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PJDSDestroy(ELLGFormat fmt)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(fmt->data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PJDSReset(ELLGFormat fmt)
{
  PJDS *p = (PJDS *)fmt->data;

  PetscFunctionBegin;
  PetscCall(PetscELLGFree(fmt->backend, p->a.perm));
  PetscCall(PetscELLGFree(fmt->backend, p->a.colstart));
  PetscCall(PetscELLGFree(fmt->backend, p->a.blockw));
  PetscCall(PetscELLGFree(fmt->backend, p->a.col));
  PetscCall(PetscELLGFree(fmt->backend, p->a.off));
  PetscCall(PetscELLGFree(fmt->backend, p->a.val));
  PetscCall(PetscELLGFree(fmt->backend, p->a.sval));
  PetscCall(PetscMemzero(&p->a, sizeof(p->a)));
  p->nblocks = p->nzblocks = 0;
  PetscCall(PetscMemzero(&p->stats, sizeof(p->stats)));
  fmt->bytes                        = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the fewest entries per thread a small matrix's SpMV bins take (PJDSEntriesPerThread): with fewer, the
   threads of a row spend more on summing than on loading */
#define PJDS_MIN_ENTRIES_PER_THREAD 4

/* the entries per thread of the SpMV bins unless a small matrix takes fewer (PJDSEntriesPerThread) */
static PetscInt PJDSDefaultEntriesPerThread(PetscInt m)
{
  return m >= ELLG_ROWS_FILL_GPU ? 64 : 16;
}

/* the threads of the SpMV bins for a row of w entries: the least power of two, up to 32, with
   ceil(w / T) <= ept */
static PetscInt PJDSRowThreads(PetscInt w, PetscInt ept)
{
  PetscInt T = 1;

  while (T < 32 && w > ept * T) T *= 2;
  return T;
}

/* Entries per thread of the SpMV bins for the m sorted rows len[perm[]] in blocks of br: the option, else
   the fewest (a power of two, from PJDS_MIN_ENTRIES_PER_THREAD) whose bins keep a small matrix within the
   threads the GPU runs at once (ELLG_THREADS_RESIDENT), so that its product, which would leave part of
   the GPU idle, waits on the shortest chains of loads; PJDSDefaultEntriesPerThread() when none does */
static PetscInt PJDSEntriesPerThread(const PJDS *p, PetscInt m, const PetscInt *len, const int *perm, PetscInt br)
{
  const PetscInt ept0 = PJDSDefaultEntriesPerThread(m);

  if (p->ept_option) return p->ept_option;
  for (PetscInt ept = PJDS_MIN_ENTRIES_PER_THREAD; ept < ept0; ept *= 2) {
    PetscInt64 threads = 0;

    for (PetscInt b = 0; b * br < m && threads <= ELLG_THREADS_RESIDENT; b++) threads += PJDSRowThreads(len[perm[b * br]], ept) * PetscMin(br, m - b * br);
    if (threads <= ELLG_THREADS_RESIDENT) return ept;
  }
  return ept0;
}

/* Threads per CUDA block of the kernel with a thread per row: 256, halved (down to 64) while that leaves
   fewer than 256 blocks, so that small matrices still spread over the multiprocessors */
static void PJDSChooseParameters(ELLGFormat fmt)
{
  PJDS *p = (PJDS *)fmt->data;

  p->bs = 256;
  while (p->bs > 64 && ((PetscInt64)p->a.m + p->bs - 1) / p->bs < 256) p->bs /= 2;
  if (fmt->kernel.block_size) p->bs = fmt->kernel.block_size;
}

static PetscErrorCode PJDSSetFromOptions(ELLGFormat fmt, ELLG_OPTION_ITEMS PetscOptionsObject)
{
  PJDS *p = (PJDS *)fmt->data;

  PetscFunctionBegin;
  PetscCall(PetscOptionsInt("-mat_pjds_block_rows", "Rows per block, each padded to its longest row: a power of two from 1 to 1024 (0: the most up to 32, 4 below 524288 rows, within 1.05 times the bytes of CSR)", "MATPJDS", p->br, &p->br, NULL));
  PetscCheck(p->br >= 0 && p->br <= 1024 && !(p->br & (p->br - 1)), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-mat_pjds_block_rows %" PetscInt_FMT ": must be 0 (automatic) or a power of two from 1 to 1024", p->br);
  PetscCall(PetscOptionsInt("-mat_pjds_entries_per_thread", "The CUDA SpMV gives a row as many threads (a power of two, up to 32) as keep each at most this many of its entries (0: automatic, 16, or 64 from 524288 rows; for a small matrix the fewest from 4 that keep it within 262144 threads)", "MATPJDS", p->ept_option, &p->ept_option, NULL));
  PetscCheck(p->ept_option >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-mat_pjds_entries_per_thread %" PetscInt_FMT ": must be 0 (automatic) or positive", p->ept_option);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PJDSCopyParameters(ELLGFormat from, ELLGFormat to)
{
  PJDS *a = (PJDS *)from->data, *b = (PJDS *)to->data;

  PetscFunctionBegin;
  b->br         = a->br;
  b->ept_option = a->ept_option;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscBool PJDSSameParameters(ELLGFormat from, ELLGFormat to)
{
  const PJDS *a = (const PJDS *)from->data, *b = (const PJDS *)to->data;

  return (PetscBool)(a->br == b->br && a->ept_option == b->ept_option);
}

/* perm[] by a stable counting sort of the stored row lengths len[]: longest rows first, then the rows
   without stored entries, then the nlong long rows longrows[] (ascending), which the SpMV bins leave to
   the long-row blocks of their kernel */
static PetscErrorCode PJDSSort(PetscInt m, const PetscInt *len, PetscInt maxlen, PetscInt nlong, const PetscInt *longrows, int *perm)
{
  PetscInt  *first;
  PetscInt64 pos = 0;

  PetscFunctionBegin;
  PetscCall(PetscCalloc1(maxlen + 1, &first));
  for (PetscInt i = 0; i < m; i++) first[len[i]]++;
  first[0] -= nlong;
  for (PetscInt l = maxlen; l >= 0; l--) { /* first[l]: first sorted position of the rows of length l */
    const PetscInt c = first[l];

    first[l] = (PetscInt)pos;
    pos += c;
  }
  for (PetscInt i = 0, k = 0; i < m; i++) {
    if (k < nlong && longrows[k] == i) perm[m - nlong + k++] = (int)i;
    else perm[first[len[i]]++] = (int)i;
  }
  PetscCall(PetscFree(first));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* entries stored with blocks of br sorted rows, each padded to its first (longest) row */
static PetscInt64 PJDSPadded(PetscInt m, const PetscInt *len, const int *perm, PetscInt br)
{
  PetscInt64 padded = 0;

  for (PetscInt b = 0; b * br < m; b++) padded += (PetscInt64)len[perm[b * br]] * PetscMin(br, m - b * br);
  return padded;
}

/* The automatic block rows: the most, up to 32 (a warp), whose padding keeps the format within 1.05
   times the CSR of the entries it stores (1 row per block needs no padding at all); the format's bytes
   here are its entries, perm and colstart, not the block widths (an int per block, which smaller
   blocks only make more). A matrix of fewer than ELLG_ROWS_FILL_GPU rows starts from
   PJDS_SMALL_BLOCK_ROWS: its product is bound by the latency of its threads' chains of loads, which
   padding lengthens, more than by its bytes (entry j of consecutive rows is contiguous whatever the
   blocks, so smaller blocks cost no coalescing) */
#define PJDS_SMALL_BLOCK_ROWS 4
static PetscInt PJDSAutoBlockRows(PetscInt m, const PetscInt *len, const int *perm, PetscInt width, PetscInt nnz)
{
  const double csr = 12.0 * (double)nnz + 4.0 * (double)(m + 1);
  PetscInt     br  = m < ELLG_ROWS_FILL_GPU ? PJDS_SMALL_BLOCK_ROWS : 32;

  while (br > 1 && 4.0 * (double)(m + width + 1) + 12.0 * (double)PJDSPadded(m, len, perm, br) > 1.05 * csr) br /= 2;
  return br;
}

/* the block widths blockw[] (the length of each block's first row) and colstart[] from them: diagonal j
   holds the rows of the blocks wider than j, a prefix of the sorted rows */
static PetscErrorCode PJDSColStart(PetscInt m, const PetscInt *len, const int *perm, PetscInt width, PetscInt br, int **blockw, int **colstart, PetscInt *nblocks, PetscInt *nzblocks)
{
  PetscInt  *rows;
  PetscInt64 pos = 0;

  PetscFunctionBegin;
  *nblocks  = (m + br - 1) / br;
  *nzblocks = 0;
  PetscCall(PetscCalloc1(width + 1, &rows)); /* rows[w]: rows of the blocks of width w */
  PetscCall(PetscMalloc1(*nblocks, blockw));
  for (PetscInt b = 0; b < *nblocks; b++) {
    const PetscInt w = len[perm[b * br]];

    (*blockw)[b] = (int)w;
    rows[w] += PetscMin(br, m - b * br);
    if (w) (*nzblocks)++;
  }
  PetscCall(PetscMalloc1(width + 1, colstart));
  (*colstart)[width] = 0;
  for (PetscInt j = width - 1; j >= 0; j--) { /* pos: rows of the blocks wider than j */
    pos += rows[j + 1];
    (*colstart)[j] = (int)pos;
  }
  for (PetscInt j = 0, start = 0; j <= width; j++) { /* lengths of the diagonals to their starts */
    const PetscInt len_j = j < width ? (*colstart)[j] : 0;

    (*colstart)[j] = (int)start;
    start += len_j;
  }
  PetscCall(PetscFree(rows));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the bins of the CUDA SpMV (pjdskernels.h) over the first m sorted rows (the long rows excluded): T for a
   block of width w from PJDSRowThreads(); the widths (of the blocks, in sorted order) never grow, nor does T */
static void PJDSBins(PetscInt m, const PetscInt *len, const int *perm, PetscInt br, PetscInt ept, PJDSArrays *a)
{
  a->nbins      = 0;
  a->binrow[0]  = 0;
  a->binwarp[0] = 0;
  for (PetscInt b = 0; b * br < m; b++) {
    const int T = (int)PJDSRowThreads(len[perm[b * br]], ept);

    if (!a->nbins || T != a->binT[a->nbins - 1]) a->binT[a->nbins++] = T;
    a->binrow[a->nbins] = (int)PetscMin((b + 1) * br, m);
  }
  for (int k = 0; k < a->nbins; k++) a->binwarp[k + 1] = a->binwarp[k] + (int)(((PetscInt64)(a->binrow[k + 1] - a->binrow[k]) * a->binT[k] + 31) / 32);
}

/* the build, with its host work arrays (freed by the caller, also when the build fails) */
static PetscErrorCode PJDSBuildWith(ELLGFormat fmt, const ELLGCSR *csr, int **pperm, int **pcolstart, int **pblockw)
{
  PJDS          *p = (PJDS *)fmt->data;
  const PetscInt m = csr->m, width = csr->stats.width, stored = csr->stats.stored;
  PetscInt64     padded = 0;
  int           *perm, *colstart, *blockw;

  PetscFunctionBegin;
  p->stats = csr->stats;
  PetscCall(PetscMalloc1(m, pperm));
  perm = *pperm;
  PetscCall(PJDSSort(m, csr->len, width, csr->nlong, csr->longrows, perm));
  p->br_applied = p->br ? p->br : PJDSAutoBlockRows(m, csr->len, perm, width, stored);
  padded        = PJDSPadded(m, csr->len, perm, p->br_applied);
  PetscCheck(padded < 2147483647, PETSC_COMM_SELF, PETSC_ERR_SUP, "pJDS stores 32-bit offsets: %" PetscInt64_FMT " entries with padding are too many; use fewer block rows (-mat_pjds_block_rows) or split the matrix over more processes", padded);
  PetscCall(PJDSColStart(m, csr->len, perm, width, p->br_applied, pblockw, pcolstart, &p->nblocks, &p->nzblocks));
  blockw   = *pblockw;
  colstart = *pcolstart;
  p->a.m      = (int)m;
  p->a.n      = (int)csr->n;
  p->a.width  = (int)width;
  p->a.stored = (int)padded;
  p->a.logbr  = ELLGFormatLog2(p->br_applied);
  PJDSChooseParameters(fmt);
  p->ept = PJDSEntriesPerThread(p, m - csr->nlong, csr->len, perm, p->br_applied);
  PJDSBins(m - csr->nlong, csr->len, perm, p->br_applied, p->ept, &p->a);
  PetscCall(PetscELLGMalloc(fmt->backend, sizeof(int) * m, (void **)&p->a.perm));
  PetscCall(PetscELLGMalloc(fmt->backend, sizeof(int) * (width + 1), (void **)&p->a.colstart));
  PetscCall(PetscELLGMalloc(fmt->backend, sizeof(int) * p->nblocks, (void **)&p->a.blockw));
  if (fmt->kernel.compact_indices && ELLGFormatCompactIndices(csr)) PetscCall(PetscELLGMalloc(fmt->backend, sizeof(short) * (size_t)padded, (void **)&p->a.off));
  else PetscCall(PetscELLGMalloc(fmt->backend, sizeof(int) * (size_t)padded, (void **)&p->a.col));
  PetscCall(ELLGFormatMallocValues(fmt, (size_t)padded, &p->a.val, &p->a.sval));
  PetscCall(PetscELLGMemcpy(fmt->backend, p->a.perm, perm, sizeof(int) * m, ELLG_MEMCPY_HTOD));
  PetscCall(PetscELLGMemcpy(fmt->backend, p->a.colstart, colstart, sizeof(int) * (width + 1), ELLG_MEMCPY_HTOD));
  PetscCall(PetscELLGMemcpy(fmt->backend, p->a.blockw, blockw, sizeof(int) * p->nblocks, ELLG_MEMCPY_HTOD));
  PetscELLGBackendCall(fmt->backend, PJDSHostPack, PJDSCudaPack, (&p->a, csr->rowptr, csr->rowlen, csr->col, csr->val));
  fmt->bytes = sizeof(int) * ((size_t)m + (size_t)width + 1 + (size_t)p->nblocks) + ((p->a.off ? sizeof(short) : sizeof(int)) + ELLGFormatValueSize(fmt)) * (size_t)padded;
  if (stored && (double)padded > 1.2 * (double)stored) PetscCall(PetscInfo(NULL, "pJDS stores %.2f times the entries of the matrix (blocks of %" PetscInt_FMT " rows padded to their longest): fewer block rows (-mat_pjds_block_rows) pad less\n", (double)padded / (double)stored, p->br_applied));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PJDSBuild(ELLGFormat fmt, const ELLGCSR *csr)
{
  int           *perm = NULL, *colstart = NULL, *blockw = NULL;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  ierr = PJDSBuildWith(fmt, csr, &perm, &colstart, &blockw); /* a failed build leaves its device arrays to ELLGFormatBuild() */
  PetscCall(PetscFree(perm));
  PetscCall(PetscFree(colstart));
  PetscCall(PetscFree(blockw));
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* new values into the sorted structure of the last build */
static PetscErrorCode PJDSUpdateValues(ELLGFormat fmt, const ELLGCSR *csr)
{
  PJDS *p = (PJDS *)fmt->data;

  PetscFunctionBegin;
  PetscELLGBackendCall(fmt->backend, PJDSHostPack, PJDSCudaPack, (&p->a, csr->rowptr, csr->rowlen, NULL, csr->val));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PJDSMult(ELLGFormat fmt, const PetscScalar *x, const PetscScalar *z, PetscScalar *y)
{
  PJDS *p = (PJDS *)fmt->data;

  PetscFunctionBegin;
  PetscELLGBackendCall(fmt->backend, PJDSHostMult, PJDSCudaMult, (&p->a, (int)p->bs, ELLGLongRowsArrays(fmt->longrows), x, z, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PJDSSpMM(ELLGFormat fmt, const ELLGSpMMArgs *a)
{
  PJDS *p = (PJDS *)fmt->data;
  const int lc = ELLGSpMMColumns(fmt->spmm_columns, (PetscInt64)p->a.m, a->ncols);

  PetscFunctionBegin;
  PetscELLGBackendCall(fmt->backend, PJDSHostSpMM, PJDSCudaSpMM, (&p->a, (int)p->bs, lc, a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PJDSMultTransposeAdd(ELLGFormat fmt, const PetscScalar *x, PetscScalar *y)
{
  PJDS *p = (PJDS *)fmt->data;

  PetscFunctionBegin;
  PetscELLGBackendCall(fmt->backend, PJDSHostMultTransposeAdd, PJDSCudaMultTransposeAdd, (&p->a, (int)p->bs, x, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PJDSGetDiagonal(ELLGFormat fmt, PetscScalar *d)
{
  PJDS *p = (PJDS *)fmt->data;

  PetscFunctionBegin;
  PetscELLGBackendCall(fmt->backend, PJDSHostGetDiagonal, PJDSCudaGetDiagonal, (&p->a, (int)p->bs, d));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PJDSView(ELLGFormat fmt, PetscViewer viewer)
{
  PJDS *p = (PJDS *)fmt->data;
  char  bins[PJDS_MAX_BINS * 32];

  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(viewer, "pJDS %" PetscInt_FMT " block rows (%" PetscInt_FMT " blocks, %" PetscInt_FMT " with entries), width %d, row length mean %.3g std %.3g\n", p->br_applied, p->nblocks, p->nzblocks, p->a.width, p->stats.mean, p->stats.sd));
  PetscCall(PetscViewerASCIIPrintf(viewer, "pJDS stored entries %d for %" PetscInt_FMT " nonzeros (padding ratio %.3f)\n", p->a.stored, p->stats.stored, p->stats.stored ? (double)p->a.stored / (double)p->stats.stored : 1.0));
  bins[0] = 0;
  for (int k = 0; k < p->a.nbins; k++) {
    char bin[32];

    PetscCall(PetscSNPrintf(bin, sizeof(bin), "%s %d for %d rows", k ? "," : "", p->a.binT[k], p->a.binrow[k + 1] - p->a.binrow[k]));
    PetscCall(PetscStrlcat(bins, bin, sizeof(bins)));
  }
  PetscCall(ELLGFormatViewCompactIndices(fmt, viewer, (PetscBool)!!p->a.off));
  PetscCall(PetscViewerASCIIPrintf(viewer, "kernel pJDS: %" PetscInt_FMT " threads per block%s; SpMV threads per row (at most %" PetscInt_FMT " entries each%s):%s\n", p->bs, fmt->kernel.block_size ? "" : " (automatic)", p->ept, p->ept_option ? "" : ", automatic", p->a.nbins ? bins : " none (no rows)"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

const ELLGFormatOps ELLGFormatOps_PJDS = {
  .name             = "pjds",
  .title            = "pJDS format options",
  .kernel           = ELLG_KERNEL_BLOCK_SIZE | ELLG_KERNEL_COMPACT_INDICES,
  .multlongrows     = ELLGLongRowsBlockThreshold,
  .create           = PJDSCreate,
  .setfromoptions   = PJDSSetFromOptions,
  .parameters       = PJDSChooseParameters,
  .build            = PJDSBuild,
  .updatevalues     = PJDSUpdateValues,
  .mult             = PJDSMult,
  .multtransposeadd = PJDSMultTransposeAdd,
  .getdiagonal      = PJDSGetDiagonal,
  .spmm             = PJDSSpMM,
  .copyparameters   = PJDSCopyParameters,
  .sameparameters   = PJDSSameParameters,
  .view             = PJDSView,
  .reset            = PJDSReset,
  .destroy          = PJDSDestroy,
};
