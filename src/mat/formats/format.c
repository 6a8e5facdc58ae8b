/* Format-independent parts of the storage formats: options, upload of the CSR, long rows, viewing */
#include <limits.h>
#include <ellgformat.h>
#include <ellglongrowsrule.h>

const char *const ELLGUpdateBuffersTypes[] = {"none", "values", "all", "ELLGUpdateBuffers", "ELLG_UPDATE_KEEP_", NULL};
const char *const MatGPUValuePrecisions[]  = {"double", "single", "MatGPUValuePrecision", "MAT_GPU_VALUES_", NULL};

PetscErrorCode ELLGFormatCreate(const ELLGFormatOps *ops, PetscELLGBackend backend, ELLGFormat *fmt)
{
  PetscFunctionBegin;
  PetscCall(PetscNew(fmt));
  (*fmt)->ops         = ops;
  (*fmt)->backend     = backend;
  (*fmt)->update_keep = ELLG_UPDATE_KEEP_VALUES;
  (*fmt)->kernel.compact_indices = PETSC_TRUE;
  PetscCall(ops->create(*fmt));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* frees what values-only updates keep (at a build, which changes the pattern, and with the format) */
static PetscErrorCode ELLGFormatFreeUpdateBuffers(ELLGFormat fmt)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(fmt->update_index));
  PetscCall(PetscELLGFree(fmt->backend, fmt->update_dindex));
  PetscCall(PetscELLGFree(fmt->backend, fmt->update_val));
  fmt->update_dindex = NULL;
  fmt->update_val    = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* bytes kept in the backend's memory for values-only updates */
size_t ELLGFormatUpdateBytes(ELLGFormat fmt)
{
  return (fmt->update_dindex ? sizeof(int) * (2 * (size_t)fmt->m + 1) : 0) + (fmt->update_val ? sizeof(PetscScalar) * (size_t)fmt->nnz : 0);
}

/* Off-diagonal blocks are compressed when at most this fraction of their rows has entries (as
   PETSc's SeqAIJ does): the products then touch only the nonempty rows of the output */
#define ELLG_COMPRESS_RATIO 0.6

static PetscErrorCode ELLGFormatFreeRows(ELLGFormat fmt)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(fmt->rows));
  PetscCall(PetscELLGFree(fmt->backend, fmt->rows_d));
  PetscCall(PetscELLGFree(fmt->backend, fmt->rows_work));
  fmt->rows_d    = NULL;
  fmt->rows_work = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the row starts of the stored rows: ai itself, or (compressed) a new array */
static PetscErrorCode ELLGFormatStoredRowStarts(ELLGFormat fmt, const PetscInt *ai, const PetscInt **sai)
{
  PetscInt *c;

  PetscFunctionBegin;
  *sai = ai;
  if (!fmt->rows) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscMalloc1(fmt->mstored + 1, &c));
  for (PetscInt i = 0; i < fmt->mstored; i++) c[i] = ai[fmt->rows[i]];
  c[fmt->mstored] = ai[fmt->m];
  *sai            = c;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ELLGFormatDestroy(ELLGFormat *fmt)
{
  PetscFunctionBegin;
  if (!*fmt) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(ELLGFormatFreeUpdateBuffers(*fmt));
  PetscCall(ELLGFormatFreeRows(*fmt));
  PetscCall(ELLGLongRowsDestroy(&(*fmt)->longrows));
  PetscCall((*fmt)->ops->reset(*fmt));
  PetscCall((*fmt)->ops->destroy(*fmt));
  PetscCall(PetscFree(*fmt));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the kernel options the format takes (ELLGFormatOps.kernel), under its heading */
static PetscErrorCode ELLGFormatKernelOptions(ELLGFormat fmt, ELLG_OPTION_ITEMS PetscOptionsObject)
{
  ELLGKernelOptions *k = &fmt->kernel;
  char               opt[64];

  PetscFunctionBegin;
  if (fmt->ops->kernel & ELLG_KERNEL_THREADS_PER_ROW) {
    PetscCall(PetscSNPrintf(opt, sizeof(opt), "-mat_%s_threads_per_row", fmt->ops->name));
    PetscCall(PetscOptionsInt(opt, "Threads per row of the SpMV kernel: 1, 2, 4, 8, 16 or 32 (0: from the row lengths, and the rows of a small matrix)", "MATELLG", k->threads_per_row, &k->threads_per_row, NULL));
    PetscCheck(k->threads_per_row >= 0 && k->threads_per_row <= 32 && !(k->threads_per_row & (k->threads_per_row - 1)), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%s %" PetscInt_FMT ": must be 0 (automatic) or a power of two from 1 to 32", opt, k->threads_per_row);
  }
  if (fmt->ops->kernel & ELLG_KERNEL_BLOCK_SIZE) {
    PetscCall(PetscSNPrintf(opt, sizeof(opt), "-mat_%s_block_size", fmt->ops->name));
    PetscCall(PetscOptionsInt(opt, "Threads per block of the format's kernels: a multiple of 32 up to 1024 (0: automatic)", "MATELLG", k->block_size, &k->block_size, NULL));
    PetscCheck(k->block_size >= 0 && k->block_size <= 1024 && k->block_size % 32 == 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%s %" PetscInt_FMT ": must be 0 (automatic) or a multiple of 32 from 32 to 1024", opt, k->block_size);
  }
  if (fmt->ops->kernel & ELLG_KERNEL_COMPACT_INDICES) {
    PetscCall(PetscSNPrintf(opt, sizeof(opt), "-mat_%s_compact_indices", fmt->ops->name));
    PetscCall(PetscOptionsBool(opt, "Store the column indices as 16-bit offsets from the row when every column is within 16 bits of its row", "MATELLG", k->compact_indices, &k->compact_indices, NULL));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ELLGFormatSetFromOptions(ELLGFormat fmt, ELLG_OPTION_ITEMS PetscOptionsObject)
{
  char opt[64];

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(opt, sizeof(opt), "-mat_%s_long_row_threshold", fmt->ops->name));
  PetscOptionsHeadBegin(PetscOptionsObject, "Long rows");
  PetscCall(PetscOptionsInt(opt, "Rows with more entries are multiplied apart, a thread block each (0: automatic, -1: never)", "MATELLG", fmt->long_threshold, &fmt->long_threshold, NULL));
  PetscCheck(fmt->long_threshold >= -1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%s %" PetscInt_FMT ": must be a number of entries, 0 (automatic) or -1 (never)", opt, fmt->long_threshold);
  PetscOptionsHeadEnd();
  PetscCall(PetscSNPrintf(opt, sizeof(opt), "-mat_%s_update_buffers", fmt->ops->name));
  PetscCall(PetscOptionsEnum(opt, "What a values-only update (re-assembly on the same pattern) keeps in the backend's memory for the next, until the next build: none, the values buffer (8 nnz bytes), all (and the row starts and lengths, 4 (2 m + 1) bytes)", "MATELLG", ELLGUpdateBuffersTypes,
                             (PetscEnum)fmt->update_keep, (PetscEnum *)&fmt->update_keep, NULL));
  PetscOptionsHeadBegin(PetscOptionsObject, "Sparse times dense (MatMatMult with a dense matrix)");
  PetscCall(PetscSNPrintf(opt, sizeof(opt), "-mat_%s_spmm_columns", fmt->ops->name));
  PetscCall(PetscOptionsInt(opt, "Columns of C the threads of a row accumulate per pass over the row, which they read once for all of them: 1 to 32 (0: automatic)", "MatMatMult", fmt->spmm_columns, &fmt->spmm_columns, NULL));
  PetscCheck(fmt->spmm_columns >= 0 && fmt->spmm_columns <= ELLG_SPMM_MAX_COLUMNS, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%s %" PetscInt_FMT ": must be 0 (automatic) or a number of columns from 1 to %d", opt, fmt->spmm_columns, ELLG_SPMM_MAX_COLUMNS);
  PetscCall(PetscSNPrintf(opt, sizeof(opt), "-mat_%s_spmm_chunk_columns", fmt->ops->name));
  PetscCall(PetscOptionsInt(opt, "Columns of B and C that move between host and device at a time, the chunks going round the streams (0: automatic)", "MatMatMult", fmt->spmm_chunk, &fmt->spmm_chunk, NULL));
  PetscCheck(fmt->spmm_chunk >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%s %" PetscInt_FMT ": must be 0 (automatic) or a number of columns", opt, fmt->spmm_chunk);
  PetscCall(PetscSNPrintf(opt, sizeof(opt), "-mat_%s_spmm_streams", fmt->ops->name));
  PetscCall(PetscOptionsInt(opt, "CUDA streams the chunks go round, so that the copies of one overlap the products of another: 1 to 16 (0: automatic)", "MatMatMult", fmt->spmm_streams, &fmt->spmm_streams, NULL));
  PetscCheck(fmt->spmm_streams >= 0 && fmt->spmm_streams <= ELLG_SPMM_MAX_STREAMS, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%s %" PetscInt_FMT ": must be 0 (automatic) or a number of streams from 1 to %d", opt, fmt->spmm_streams, ELLG_SPMM_MAX_STREAMS);
  PetscOptionsHeadEnd();
  PetscOptionsHeadBegin(PetscOptionsObject, fmt->ops->title);
  PetscCall(ELLGFormatKernelOptions(fmt, PetscOptionsObject));
  if (fmt->ops->setfromoptions) PetscCall(fmt->ops->setfromoptions(fmt, PetscOptionsObject));
  PetscOptionsHeadEnd();
  fmt->ops->parameters(fmt);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* threads per row (a power of two up to a warp) of a matrix of m rows whose longest has w entries: the
   most that keep the m rows within ELLG_THREADS_SMALL threads, without more threads than entries;
   1 from ELLG_THREADS_SMALL / 2 rows */
PetscInt ELLGFormatSmallThreadsPerRow(PetscInt m, PetscInt w)
{
  PetscInt T = 1;

  while (T < 32 && 2 * T <= w && (PetscInt64)m * 2 * T <= ELLG_THREADS_SMALL) T *= 2;
  return T;
}

/* whether 16-bit offsets from the row hold every column of the stored entries of csr, and the column a
   padding entry of an empty row reads (the nearest one, min(i, n - 1)) */
PetscBool ELLGFormatCompactIndices(const ELLGCSR *csr)
{
  if (csr->m - csr->n > SHRT_MAX) return PETSC_FALSE;
  for (PetscInt i = 0; i < csr->m; i++)
    for (PetscInt k = csr->ai[i]; k < csr->ai[i] + csr->len[i]; k++)
      if (csr->aj[k] - i < SHRT_MIN || csr->aj[k] - i > SHRT_MAX) return PETSC_FALSE;
  return PETSC_TRUE;
}

/* the MatView() line that says how the column indices are stored */
PetscErrorCode ELLGFormatViewCompactIndices(ELLGFormat fmt, PetscViewer viewer, PetscBool stored_compact)
{
  PetscFunctionBegin;
  if (stored_compact) PetscCall(PetscViewerASCIIPrintf(viewer, "column indices: 16-bit offsets from the row\n"));
  else if (fmt->kernel.compact_indices) PetscCall(PetscViewerASCIIPrintf(viewer, "column indices: 32-bit (a column is more than 16 bits from its row)\n"));
  else PetscCall(PetscViewerASCIIPrintf(viewer, "column indices: 32-bit (-mat_%s_compact_indices false)\n", fmt->ops->name));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* room for n values in the backend's memory, in the format's precision: *val (double) or *sval (single), the
   other NULL */
PetscErrorCode ELLGFormatMallocValues(ELLGFormat fmt, size_t n, double **val, float **sval)
{
  PetscFunctionBegin;
  *val  = NULL;
  *sval = NULL;
  if (fmt->single) PetscCall(PetscELLGMalloc(fmt->backend, sizeof(float) * n, (void **)sval));
  else PetscCall(PetscELLGMalloc(fmt->backend, sizeof(double) * n, (void **)val));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a format of single-precision values refuses values (n of them in the backend's memory) that are finite but
   beyond its range, which would become infinities */
static PetscErrorCode ELLGFormatCheckSingle(ELLGFormat fmt, PetscInt n, const PetscScalar *val)
{
  PetscFunctionBegin;
  if (fmt->single) PetscCall(PetscELLGCheckSingle(fmt->backend, n, val));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ELLGFormatCopyParameters(ELLGFormat from, ELLGFormat to)
{
  PetscFunctionBegin;
  to->single         = from->single;
  to->long_threshold = from->long_threshold;
  to->update_keep    = from->update_keep;
  to->compress_rows  = from->compress_rows;
  to->spmm_columns   = from->spmm_columns;
  to->spmm_chunk     = from->spmm_chunk;
  to->spmm_streams   = from->spmm_streams;
  if (from->ops == to->ops) { /* those of the format: of the same one only */
    to->kernel = from->kernel;
    if (from->ops->copyparameters) PetscCall(from->ops->copyparameters(from, to));
    to->ops->parameters(to);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* whether ELLGFormatCopyParameters(from, to) would leave the options of to as they are */
PetscBool ELLGFormatSameParameters(ELLGFormat from, ELLGFormat to)
{
  if (from->long_threshold != to->long_threshold || from->update_keep != to->update_keep || from->compress_rows != to->compress_rows || from->single != to->single) return PETSC_FALSE;
  if (from->spmm_columns != to->spmm_columns || from->spmm_chunk != to->spmm_chunk || from->spmm_streams != to->spmm_streams) return PETSC_FALSE;
  if (from->ops != to->ops) return PETSC_TRUE;
  if (from->kernel.threads_per_row != to->kernel.threads_per_row || from->kernel.block_size != to->kernel.block_size || from->kernel.compact_indices != to->kernel.compact_indices) return PETSC_FALSE;
  return (PetscBool)(!from->ops->sameparameters || from->ops->sameparameters(from, to));
}

/* the CSR values, row starts and effective row lengths (and, for a build, column indices) in the
   backend's memory; each array is in csr as soon as it is allocated, so that ELLGCSRFree() frees what a
   failed upload allocated */
static PetscErrorCode ELLGCSRUploadArrays(PetscELLGBackend be, ELLGCSR *csr, const PetscInt *len, const PetscInt *aj, const PetscScalar *aa, int **ti, int **tj)
{
  const PetscInt m = csr->m, nnz = csr->nnz;
  void          *p;

  PetscFunctionBegin;
  PetscCall(PetscELLGMalloc(be, sizeof(int) * (2 * m + 1), &p));
  csr->rowptr = (const int *)p;
  csr->rowlen = csr->rowptr + m + 1;
#if defined(PETSC_USE_64BIT_INDICES)
  PetscCall(PetscMalloc1(2 * m + 1, ti));
  for (PetscInt i = 0; i <= m; i++) (*ti)[i] = (int)csr->ai[i];
  for (PetscInt i = 0; i < m; i++) (*ti)[m + 1 + i] = (int)len[i];
  PetscCall(PetscELLGMemcpy(be, p, *ti, sizeof(int) * (2 * m + 1), ELLG_MEMCPY_HTOD));
#else /* straight from the host arrays, with no converted copy (new host memory costs its first touch) */
  PetscCall(PetscELLGMemcpy(be, p, csr->ai, sizeof(int) * (m + 1), ELLG_MEMCPY_HTOD));
  PetscCall(PetscELLGMemcpy(be, (int *)p + m + 1, len, sizeof(int) * m, ELLG_MEMCPY_HTOD));
#endif
  PetscCall(PetscELLGMalloc(be, sizeof(PetscScalar) * nnz, &p));
  csr->val = (const PetscScalar *)p;
  PetscCall(PetscELLGMemcpy(be, p, aa, sizeof(PetscScalar) * nnz, ELLG_MEMCPY_HTOD));
  csr->col = NULL;
  if (aj) {
    PetscCall(PetscELLGMalloc(be, sizeof(int) * nnz, &p));
    csr->col = (const int *)p;
#if defined(PETSC_USE_64BIT_INDICES)
    PetscCall(PetscMalloc1(nnz, tj));
    for (PetscInt k = 0; k < nnz; k++) (*tj)[k] = (int)aj[k];
    PetscCall(PetscELLGMemcpy(be, p, *tj, sizeof(int) * nnz, ELLG_MEMCPY_HTOD));
#else
    PetscCall(PetscELLGMemcpy(be, p, aj, sizeof(int) * nnz, ELLG_MEMCPY_HTOD));
#endif
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ELLGCSRUpload(PetscELLGBackend be, ELLGCSR *csr, const PetscInt *len, const PetscInt *aj, const PetscScalar *aa)
{
  int           *ti = NULL, *tj = NULL;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(MATGPU_CopyToGPU, 0, 0, 0, 0));
  ierr = ELLGCSRUploadArrays(be, csr, len, aj, aa, &ti, &tj);
  PetscCall(PetscFree(ti));
  PetscCall(PetscFree(tj));
  PetscCall(PetscLogEventEnd(MATGPU_CopyToGPU, 0, 0, 0, 0));
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ELLGCSRFree(PetscELLGBackend be, ELLGCSR *csr)
{
  PetscFunctionBegin;
  PetscCall(PetscELLGFree(be, (void *)csr->rowptr));
  PetscCall(PetscELLGFree(be, (void *)csr->val));
  PetscCall(PetscELLGFree(be, (void *)csr->col));
  csr->rowptr = csr->rowlen = csr->col = NULL;
  csr->val                          = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* frees everything the format stores in the backend's memory (and the host arrays that go with it), keeping its parameters */
static PetscErrorCode ELLGFormatFreeStored(ELLGFormat fmt)
{
  PetscFunctionBegin;
  PetscCall(ELLGFormatFreeUpdateBuffers(fmt));
  PetscCall(ELLGFormatFreeRows(fmt));
  PetscCall(ELLGLongRowsDestroy(&fmt->longrows));
  PetscCall(fmt->ops->reset(fmt));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ELLGRowStatsCompute - the statistics of the lengths of m rows, len[i] or ai[i+1] - ai[i] without len: of those of
   at most above entries, the empty ones aside when nonempty */
void ELLGRowStatsCompute(PetscInt m, const PetscInt *ai, const PetscInt *len, PetscBool nonempty, PetscInt above, ELLGRowStats *st)
{
  double sq = 0.0;

  st->rows = st->stored = st->width = 0;
  st->minlen                        = PETSC_MAX_INT;
  for (PetscInt i = 0; i < m; i++) {
    const PetscInt l = len ? len[i] : ai[i + 1] - ai[i];

    if ((nonempty && !l) || l > above) continue;
    st->rows++;
    st->stored += l;
    st->minlen = PetscMin(st->minlen, l);
    st->width  = PetscMax(st->width, l);
    sq += (double)l * (double)l;
  }
  if (!st->rows) st->minlen = 0;
  st->mean  = st->rows ? (double)st->stored / (double)st->rows : 0.0;
  st->sd    = st->rows ? PetscSqrtReal((PetscReal)PetscMax(0.0, sq / (double)st->rows - st->mean * st->mean)) : 0.0;
  st->wmean = st->stored ? sq / (double)st->stored : 0.0;
}

/* the build of ELLGFormatBuild(), its uploaded CSR in csr and its host work arrays in *sai, *len and *rows:
   the caller frees them, also when the build fails */
static PetscErrorCode ELLGFormatBuildWith(ELLGFormat fmt, PetscInt m, PetscInt n, const PetscInt *ai, const PetscInt *aj, const PetscScalar *aa, ELLGCSR *csr, const PetscInt **sai, PetscInt **len, PetscInt **rows)
{
  PetscInt     nlong, fused;
  ELLGRowStats stored;

  PetscFunctionBegin;
  fmt->m      = m;
  fmt->n      = n;
  fmt->nnz    = ai[m];
  fmt->nzrows = 0;
  for (PetscInt i = 0; i < m; i++)
    if (ai[i + 1] > ai[i]) fmt->nzrows++;
  fmt->mstored = m;
  if (fmt->compress_rows && fmt->nzrows <= ELLG_COMPRESS_RATIO * m) {
    fmt->mstored = fmt->nzrows;
    PetscCall(PetscMalloc1(fmt->nzrows, &fmt->rows));
    for (PetscInt i = 0, k = 0; i < m; i++)
      if (ai[i + 1] > ai[i]) fmt->rows[k++] = (int)i;
    PetscCall(PetscELLGMalloc(fmt->backend, sizeof(int) * fmt->mstored, (void **)&fmt->rows_d));
    PetscCall(PetscELLGMemcpy(fmt->backend, fmt->rows_d, fmt->rows, sizeof(int) * fmt->mstored, ELLG_MEMCPY_HTOD));
    PetscCall(PetscELLGMalloc(fmt->backend, sizeof(PetscScalar) * fmt->mstored, (void **)&fmt->rows_work));
  }
  PetscCall(ELLGFormatStoredRowStarts(fmt, ai, sai));
  csr->m            = fmt->mstored;
  csr->ai           = *sai;
  ELLGRowStatsCompute(fmt->mstored, *sai, NULL, PETSC_FALSE, PETSC_MAX_INT, &stored);
  fused             = fmt->ops->multlongrows ? fmt->ops->multlongrows(fmt, fmt->mstored, *sai, &stored) : 0;
  fmt->long_fused   = (PetscBool)(fused > 0);
  fmt->long_applied = ELLGLongRowsThreshold(fmt, &stored, fused);
  PetscCall(PetscMalloc1(fmt->mstored, len));
  PetscCall(ELLGLongRowsSplit(fmt, *sai, *len, &nlong, rows));
  csr->len      = *len;
  csr->nlong    = nlong;
  csr->longrows = *rows;
  ELLGRowStatsCompute(csr->m, NULL, *len, PETSC_FALSE, PETSC_MAX_INT, &csr->stats);
  PetscCall(ELLGCSRUpload(fmt->backend, csr, *len, aj, aa));
  PetscCall(ELLGFormatCheckSingle(fmt, csr->nnz, csr->val));
  PetscCall(fmt->ops->build(fmt, csr));
  if (nlong) PetscCall(ELLGLongRowsBuild(fmt->backend, fmt->single, csr, &fmt->longrows));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* (Re)builds the stored matrix from the m x n CSR (ai, aj, aa) of the host. A build that fails (out of device
   memory, -ellg_device_memory_limit) frees all it allocated, and what the format stored before: the format is
   then empty, as after ELLGFormatCreate() */
PetscErrorCode ELLGFormatBuild(ELLGFormat fmt, PetscInt m, PetscInt n, const PetscInt *ai, const PetscInt *aj, const PetscScalar *aa)
{
  ELLGCSR         csr  = {0, n, ai[m], NULL, aj, NULL, 0, NULL, NULL, NULL, NULL, NULL};
  PetscInt       *len  = NULL, *rows = NULL;
  const PetscInt *sai  = ai;
  PetscErrorCode  ierr;

  PetscFunctionBegin;
  PetscCheck((PetscInt64)ai[m] < 2147483647 && (PetscInt64)m < 2147483647 && (PetscInt64)n < 2147483647, PETSC_COMM_SELF, PETSC_ERR_SUP, "PETSc-ELLG formats store 32-bit indices: a local block of %" PetscInt_FMT " x %" PetscInt_FMT " with %" PetscInt_FMT " nonzeros is too large", m, n, ai[m]);
  PetscCall(ELLGFormatFreeStored(fmt));
  ierr = ELLGFormatBuildWith(fmt, m, n, ai, aj, aa, &csr, &sai, &len, &rows);
  PetscCall(ELLGCSRFree(fmt->backend, &csr));
  PetscCall(PetscFree(len));
  PetscCall(PetscFree(rows));
  if (sai != ai) PetscCall(PetscFree(sai));
  if (ierr) {
    PetscCall(ELLGFormatFreeStored(fmt));
    fmt->m = fmt->n = fmt->nnz = fmt->nzrows = fmt->mstored = 0;
    PetscCall(PetscInfo(NULL, "Building the %s format of a %" PetscInt_FMT " x %" PetscInt_FMT " block with %" PetscInt_FMT " nonzeros failed: what it had allocated is freed\n", fmt->ops->name, m, n, ai[m]));
  }
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the backend buffers of a values-only update: the row index and room for the values, those kept from the last
   update, else new ones, which are kept as -mat_<format>_update_buffers says. *dindex and *dval are set as soon as
   they are allocated, so that ELLGFormatUpdateValuesEnd() frees them (those not kept) also on failure */
static PetscErrorCode ELLGFormatUpdateBuffers(ELLGFormat fmt, size_t ibytes, size_t vbytes, int **dindex, PetscScalar **dval)
{
  PetscFunctionBegin;
  if (!*dindex) {
    PetscCall(PetscELLGMalloc(fmt->backend, ibytes, (void **)dindex));
    PetscCall(PetscELLGMemcpy(fmt->backend, *dindex, fmt->update_index, ibytes, ELLG_MEMCPY_HTOD));
    if (fmt->update_keep == ELLG_UPDATE_KEEP_ALL) fmt->update_dindex = *dindex;
  }
  if (!*dval) {
    PetscCall(PetscELLGMalloc(fmt->backend, vbytes, (void **)dval));
    if (fmt->update_keep != ELLG_UPDATE_KEEP_NONE) fmt->update_val = *dval;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   New values, same pattern as the last build: ELLGFormatUpdateValuesBegin() gives room in the backend's memory for
   the values (nnz, in the order of the CSR the format was built from), which the caller fills there;
   ELLGFormatUpdateValuesEnd() packs the format (and the long rows) from them, with the row starts and stored row
   lengths (0 for the long rows of the last build) as 32-bit ints in the backend's memory. The row index is computed
   on the host at the first update after a build and kept (the pattern is the build's until the next build), so an
   update loops over no rows on the host; the backend buffers are kept from one update to the next as
   -mat_<format>_update_buffers says. With all kept, an update is the values and the packing, with no allocation.
   The End is called after every Begin, also when filling the values failed (the format keeps its old values then:
   fail true).
*/
PetscErrorCode ELLGFormatUpdateValuesBegin(ELLGFormat fmt, const PetscInt *ai, PetscScalar **val)
{
  const PetscInt m      = fmt->mstored;
  const size_t   ibytes = sizeof(int) * (2 * (size_t)m + 1), vbytes = sizeof(PetscScalar) * (size_t)fmt->nnz;

  PetscFunctionBegin;
  fmt->update_pending = fmt->update_dindex;
  *val                = fmt->update_val;
  if (!fmt->update_index) {
    const PetscInt *sai;
    int            *ti;

    PetscCall(ELLGFormatStoredRowStarts(fmt, ai, &sai));
    PetscCall(PetscMalloc1(2 * m + 1, &ti));
    for (PetscInt i = 0; i <= m; i++) ti[i] = (int)sai[i];
    for (PetscInt i = 0; i < m; i++) ti[m + 1 + i] = sai[i + 1] - sai[i] > fmt->long_applied ? 0 : (int)(sai[i + 1] - sai[i]);
    fmt->update_index = ti;
    if (sai != ai) PetscCall(PetscFree(sai));
  }
  PetscCall(ELLGFormatUpdateBuffers(fmt, ibytes, vbytes, &fmt->update_pending, val));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ELLGFormatUpdateValuesEnd(ELLGFormat fmt, PetscBool fail, PetscScalar **val)
{
  ELLGCSR        csr    = {fmt->mstored, fmt->n, fmt->nnz, NULL, NULL, NULL, 0, NULL, NULL, NULL, NULL, NULL};
  int           *dindex = fmt->update_pending;
  PetscErrorCode ierr   = PETSC_SUCCESS;

  PetscFunctionBegin;
  fmt->update_pending = NULL;
  if (!fail && dindex && *val) {
    csr.rowptr = dindex;
    csr.rowlen = dindex + fmt->mstored + 1;
    csr.val    = *val;
    ierr       = ELLGFormatCheckSingle(fmt, fmt->nnz, *val);
    if (!ierr) ierr = fmt->ops->updatevalues(fmt, &csr);
    if (!ierr && fmt->longrows) ierr = ELLGLongRowsUpdateValues(fmt->longrows, &csr);
  }
  /* the buffers not kept, also when the update failed (the format keeps its old values then) */
  if (dindex != fmt->update_dindex) PetscCall(PetscELLGFree(fmt->backend, dindex));
  if (*val != fmt->update_val) PetscCall(PetscELLGFree(fmt->backend, *val));
  *val = NULL;
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* new values aa (host), same pattern as the last build */
PetscErrorCode ELLGFormatUpdateValues(ELLGFormat fmt, const PetscInt *ai, const PetscScalar *aa)
{
  PetscScalar   *dval = NULL;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(MATGPU_CopyToGPU, 0, 0, 0, 0));
  ierr = ELLGFormatUpdateValuesBegin(fmt, ai, &dval);
  if (!ierr) ierr = PetscELLGMemcpy(fmt->backend, dval, aa, sizeof(PetscScalar) * (size_t)fmt->nnz, ELLG_MEMCPY_HTOD);
  PetscCall(PetscLogEventEnd(MATGPU_CopyToGPU, 0, 0, 0, 0));
  PetscCall(ELLGFormatUpdateValuesEnd(fmt, (PetscBool)(ierr != PETSC_SUCCESS), &dval));
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y = A x + z (z may be NULL or y); compressed, the stored rows' product is added into z's values */
PetscErrorCode ELLGFormatMult(ELLGFormat fmt, const PetscScalar *x, const PetscScalar *z, PetscScalar *y)
{
  PetscFunctionBegin;
  if (!fmt->rows) {
    PetscCall(fmt->ops->mult(fmt, x, z, y));
    if (fmt->longrows && !fmt->long_fused) PetscCall(ELLGLongRowsMultAdd(fmt->longrows, x, y));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(fmt->ops->mult(fmt, x, NULL, fmt->rows_work));
  if (fmt->longrows && !fmt->long_fused) PetscCall(ELLGLongRowsMultAdd(fmt->longrows, x, fmt->rows_work));
  if (!z) PetscCall(PetscELLGMemset(fmt->backend, y, 0, sizeof(PetscScalar) * fmt->m));
  else if (z != y) PetscCall(PetscELLGMemcpy(fmt->backend, y, z, sizeof(PetscScalar) * fmt->m, ELLG_MEMCPY_DTOD));
  PetscELLGBackendCall(fmt->backend, ELLGHostScatter, ELLGCudaScatter, (NULL, (int)fmt->mstored, fmt->rows_d, fmt->rows_work, y, 1));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y += A^T x; compressed, only the stored rows' entries of x are read */
PetscErrorCode ELLGFormatMultTransposeAdd(ELLGFormat fmt, const PetscScalar *x, PetscScalar *y)
{
  const PetscScalar *xs = x;

  PetscFunctionBegin;
  if (fmt->rows) {
    PetscELLGBackendCall(fmt->backend, ELLGHostGather, ELLGCudaGather, (NULL, (int)fmt->mstored, fmt->rows_d, x, fmt->rows_work));
    xs = fmt->rows_work;
  }
  PetscCall(fmt->ops->multtransposeadd(fmt, xs, y));
  if (fmt->longrows) PetscCall(ELLGLongRowsMultTransposeAdd(fmt->longrows, xs, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* d_i = a_ii; a format with compressed rows does not know which stored entries are on the diagonal */
PetscErrorCode ELLGFormatGetDiagonal(ELLGFormat fmt, PetscScalar *d)
{
  PetscFunctionBegin;
  PetscCheck(!fmt->rows, PETSC_COMM_SELF, PETSC_ERR_SUP, "The diagonal of a format with compressed rows is taken from the host matrix");
  PetscCall(fmt->ops->getdiagonal(fmt, d));
  if (fmt->longrows) PetscCall(ELLGLongRowsGetDiagonal(fmt->longrows, d));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* C = A B (+ C when args->add): the format's kernel, then the long rows; compressed, the stored rows'
   product goes to the start of args->work and is added into their rows of C (an off-diagonal block,
   which never comes first: C already holds the diagonal block's product). One column on the default
   stream is a product with a vector: the SpMV kernels, which take a fifth less time than a pass of one
   column (7-point Laplacian) */
PetscErrorCode ELLGFormatSpMM(ELLGFormat fmt, const ELLGSpMMArgs *args)
{
  ELLGSpMMArgs a = *args;

  PetscFunctionBegin;
  if (args->ncols == 1 && !args->stream) {
    PetscCall(ELLGFormatMult(fmt, args->B, args->add ? args->C : NULL, args->C));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (fmt->rows) {
    PetscCheck(args->add, PETSC_COMM_SELF, PETSC_ERR_PLIB, "A format with compressed rows only adds to a product");
    a.C    = args->work;
    a.ldc  = (int)fmt->mstored;
    a.add  = 0;
    a.work = args->work + fmt->mstored * args->ncols;
  }
  PetscCall(fmt->ops->spmm(fmt, &a));
  if (fmt->longrows) PetscCall(ELLGLongRowsSpMMAdd(fmt->longrows, fmt->spmm_columns, &a));
  if (fmt->rows) PetscELLGBackendCall(fmt->backend, ELLGHostScatterColumns, ELLGCudaScatterColumns, (args->stream, (int)fmt->mstored, args->ncols, fmt->rows_d, a.C, a.ldc, args->C, args->ldc, 1));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* scalars of backend memory ELLGFormatSpMM() needs in args->work for ncols columns */
size_t ELLGFormatSpMMWorkSize(ELLGFormat fmt, PetscInt ncols)
{
  return ELLGLongRowsSpMMWorkSize(fmt->longrows, ncols) + (fmt->rows ? (size_t)fmt->mstored * (size_t)ncols : 0);
}

/* ELLGFormatGetBytes - the backend memory the stored matrix takes (the format, its long rows, the compressed rows'
   indices and work space), and that of the same matrix in CSR with 32-bit indices */
void ELLGFormatGetBytes(ELLGFormat fmt, double *bytes, double *csr)
{
  *csr   = (4.0 + (double)ELLGFormatValueSize(fmt)) * (double)fmt->nnz + 4.0 * (double)(fmt->m + 1); /* CSR in the same precision */
  *bytes = (double)fmt->bytes + (double)ELLGLongRowsBytes(fmt->longrows) + (fmt->rows ? (double)(sizeof(int) + sizeof(PetscScalar)) * (double)fmt->mstored : 0.0);
}

PetscErrorCode ELLGFormatView(ELLGFormat fmt, PetscViewer viewer)
{
  double csr, bytes;

  PetscFunctionBegin;
  ELLGFormatGetBytes(fmt, &bytes, &csr);
  PetscCall(PetscViewerASCIIPrintf(viewer, "format: %s, %" PetscInt_FMT " x %" PetscInt_FMT ", %" PetscInt_FMT " nonzeros in %" PetscInt_FMT " nonempty rows%s\n", fmt->ops->name, fmt->m, fmt->n, fmt->nnz, fmt->nzrows, fmt->rows ? ", only those stored (compressed rows)" : ""));
  if (fmt->single) PetscCall(PetscViewerASCIIPrintf(viewer, "values: single precision (4 bytes each, -mat_gpu_value_precision single), summed in double; the host copy stays double\n"));
  PetscCall(fmt->ops->view(fmt, viewer));
  PetscCall(ELLGLongRowsView(fmt->longrows, viewer));
  PetscCall(PetscViewerASCIIPrintf(viewer, "device bytes: %.6g MB (%.3f x CSR)%s\n", bytes / 1048576.0, csr > 0 ? bytes / csr : 1.0, fmt->backend == PETSCELLG_BACKEND_HOST ? ", in host memory (host backend)" : ""));
  if (ELLGFormatUpdateBytes(fmt))
    PetscCall(PetscViewerASCIIPrintf(viewer, "update buffers: %.6g MB (%.3f x CSR) more, kept for the next values-only update (-mat_%s_update_buffers %s)\n", (double)ELLGFormatUpdateBytes(fmt) / 1048576.0, csr > 0 ? (double)ELLGFormatUpdateBytes(fmt) / csr : 1.0, fmt->ops->name,
                                     ELLGUpdateBuffersTypes[fmt->update_keep]));
  PetscCall(PetscELLGBackendView(fmt->backend, viewer));
  PetscFunctionReturn(PETSC_SUCCESS);
}
