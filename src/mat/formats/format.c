/* Format-independent parts of the storage formats: options, upload of the CSR, long rows, viewing */
#include <ellgformat.h>

PetscErrorCode ELLGFormatCreate(const ELLGFormatOps *ops, PetscELLGBackend backend, ELLGFormat *fmt)
{
  PetscFunctionBegin;
  PetscCall(PetscNew(fmt));
  (*fmt)->ops     = ops;
  (*fmt)->backend = backend;
  PetscCall(ops->create(*fmt));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ELLGFormatDestroy(ELLGFormat *fmt)
{
  PetscFunctionBegin;
  if (!*fmt) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(ELLGLongRowsDestroy(&(*fmt)->longrows));
  PetscCall((*fmt)->ops->reset(*fmt));
  PetscCall((*fmt)->ops->destroy(*fmt));
  PetscCall(PetscFree(*fmt));
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
  PetscCall(fmt->ops->setfromoptions(fmt, PetscOptionsObject));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -mat_<format>_threads_per_row: 0 (automatic) or a power of two up to a warp */
PetscErrorCode ELLGFormatOptionsThreadsPerRow(ELLGFormat fmt, ELLG_OPTION_ITEMS PetscOptionsObject, PetscInt *T)
{
  char opt[64];

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(opt, sizeof(opt), "-mat_%s_threads_per_row", fmt->ops->name));
  PetscCall(PetscOptionsInt(opt, "Threads per row of the SpMV kernel: 1, 2, 4, 8, 16 or 32 (0: from the row lengths)", "MATELLG", *T, T, NULL));
  PetscCheck(*T >= 0 && *T <= 32 && !(*T & (*T - 1)), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%s %" PetscInt_FMT ": must be 0 (automatic) or a power of two from 1 to 32", opt, *T);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -mat_<format>_block_size: 0 (automatic) or a multiple of 32 up to 1024 threads per CUDA block */
PetscErrorCode ELLGFormatOptionsBlockSize(ELLGFormat fmt, ELLG_OPTION_ITEMS PetscOptionsObject, PetscInt *bs)
{
  char opt[64];

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(opt, sizeof(opt), "-mat_%s_block_size", fmt->ops->name));
  PetscCall(PetscOptionsInt(opt, "Threads per block of the format's kernels: a multiple of 32 up to 1024 (0: automatic)", "MATELLG", *bs, bs, NULL));
  PetscCheck(*bs >= 0 && *bs <= 1024 && *bs % 32 == 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%s %" PetscInt_FMT ": must be 0 (automatic) or a multiple of 32 from 32 to 1024", opt, *bs);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ELLGFormatCopyParameters(ELLGFormat from, ELLGFormat to)
{
  PetscFunctionBegin;
  to->long_threshold = from->long_threshold;
  PetscCall(from->ops->copyparameters(from, to));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Rows longer than 16 times the mean row length and than 128 are long by default: one thread
   (or a few) on such a row would make a whole warp wait, and padding to it would waste memory */
static PetscInt ELLGFormatLongThreshold(ELLGFormat fmt, PetscInt m, PetscInt nnz)
{
  const PetscInt mean = m ? (nnz + m - 1) / m : 0;

  if (fmt->long_threshold == -1) return PETSC_MAX_INT;
  if (fmt->long_threshold > 0) return fmt->long_threshold;
  return PetscMax(128, 16 * mean);
}

/* the CSR values, row starts and effective row lengths (and, for a build, column indices) in the
   backend's memory */
static PetscErrorCode ELLGCSRUpload(PetscELLGBackend be, ELLGCSR *csr, const PetscInt *len, const PetscInt *aj, const PetscScalar *aa)
{
  const PetscInt m = csr->m, nnz = csr->nnz;
  int           *ti;
  void          *p;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(ELLG_CopyToGPU, 0, 0, 0, 0));
  PetscCall(PetscMalloc1(2 * m + 1, &ti));
  for (PetscInt i = 0; i <= m; i++) ti[i] = (int)csr->ai[i];
  for (PetscInt i = 0; i < m; i++) ti[m + 1 + i] = (int)len[i];
  PetscCall(PetscELLGMalloc(be, sizeof(int) * (2 * m + 1), &p));
  PetscCall(PetscELLGMemcpy(be, p, ti, sizeof(int) * (2 * m + 1), ELLG_MEMCPY_HTOD));
  csr->rowptr = (const int *)p;
  csr->rowlen = csr->rowptr + m + 1;
  PetscCall(PetscFree(ti));
  PetscCall(PetscELLGMalloc(be, sizeof(PetscScalar) * nnz, &p));
  PetscCall(PetscELLGMemcpy(be, p, aa, sizeof(PetscScalar) * nnz, ELLG_MEMCPY_HTOD));
  csr->val = (const PetscScalar *)p;
  csr->col = NULL;
  if (aj) {
    PetscCall(PetscELLGMalloc(be, sizeof(int) * nnz, &p));
#if defined(PETSC_USE_64BIT_INDICES)
    {
      int *tj;

      PetscCall(PetscMalloc1(nnz, &tj));
      for (PetscInt k = 0; k < nnz; k++) tj[k] = (int)aj[k];
      PetscCall(PetscELLGMemcpy(be, p, tj, sizeof(int) * nnz, ELLG_MEMCPY_HTOD));
      PetscCall(PetscFree(tj));
    }
#else
    PetscCall(PetscELLGMemcpy(be, p, aj, sizeof(int) * nnz, ELLG_MEMCPY_HTOD));
#endif
    csr->col = (const int *)p;
  }
  PetscCall(PetscLogEventEnd(ELLG_CopyToGPU, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ELLGCSRFree(PetscELLGBackend be, ELLGCSR *csr)
{
  PetscFunctionBegin;
  PetscCall(PetscELLGFree(be, (void *)csr->rowptr));
  PetscCall(PetscELLGFree(be, (void *)csr->val));
  PetscCall(PetscELLGFree(be, (void *)csr->col));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the row lengths the format stores: 0 for the long rows (those longer than the threshold of the
   last build), which are listed in rows[] */
static PetscErrorCode ELLGFormatSplitRows(ELLGFormat fmt, const PetscInt *ai, PetscInt *len, PetscInt *nlong, PetscInt **rows)
{
  const PetscInt threshold = fmt->long_applied;

  PetscFunctionBegin;
  *nlong = 0;
  for (PetscInt i = 0; i < fmt->m; i++) {
    len[i] = ai[i + 1] - ai[i];
    if (len[i] > threshold) (*nlong)++;
  }
  PetscCall(PetscMalloc1(*nlong, rows));
  *nlong = 0;
  for (PetscInt i = 0; i < fmt->m; i++)
    if (len[i] > threshold) {
      (*rows)[(*nlong)++] = i;
      len[i]              = 0;
    }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* (Re)builds the stored matrix from the m x n CSR (ai, aj, aa) of the host */
PetscErrorCode ELLGFormatBuild(ELLGFormat fmt, PetscInt m, PetscInt n, const PetscInt *ai, const PetscInt *aj, const PetscScalar *aa)
{
  ELLGCSR   csr = {m, n, ai[m], ai, aj, NULL, NULL, NULL, NULL, NULL};
  PetscInt *len, *rows, nlong;

  PetscFunctionBegin;
  PetscCheck((PetscInt64)ai[m] < 2147483647 && (PetscInt64)m < 2147483647 && (PetscInt64)n < 2147483647, PETSC_COMM_SELF, PETSC_ERR_SUP, "PETSc-ELLG formats store 32-bit indices: a local block of %" PetscInt_FMT " x %" PetscInt_FMT " with %" PetscInt_FMT " nonzeros is too large", m, n, ai[m]);
  PetscCall(ELLGLongRowsDestroy(&fmt->longrows));
  PetscCall(fmt->ops->reset(fmt));
  fmt->m      = m;
  fmt->n      = n;
  fmt->nnz    = ai[m];
  fmt->nzrows = 0;
  for (PetscInt i = 0; i < m; i++)
    if (ai[i + 1] > ai[i]) fmt->nzrows++;
  fmt->long_applied = ELLGFormatLongThreshold(fmt, m, ai[m]);
  PetscCall(PetscMalloc1(m, &len));
  PetscCall(ELLGFormatSplitRows(fmt, ai, len, &nlong, &rows));
  csr.len = len;
  PetscCall(ELLGCSRUpload(fmt->backend, &csr, len, aj, aa));
  PetscCall(fmt->ops->build(fmt, &csr));
  if (nlong) PetscCall(ELLGLongRowsBuild(fmt->backend, &csr, nlong, rows, &fmt->longrows));
  PetscCall(ELLGCSRFree(fmt->backend, &csr));
  PetscCall(PetscFree(len));
  PetscCall(PetscFree(rows));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* new values, same pattern as the last build */
PetscErrorCode ELLGFormatUpdateValues(ELLGFormat fmt, const PetscInt *ai, const PetscScalar *aa)
{
  ELLGCSR   csr = {fmt->m, fmt->n, fmt->nnz, ai, NULL, NULL, NULL, NULL, NULL, NULL};
  PetscInt *len, *rows, nlong;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(fmt->m, &len));
  PetscCall(ELLGFormatSplitRows(fmt, ai, len, &nlong, &rows));
  PetscCall(ELLGCSRUpload(fmt->backend, &csr, len, NULL, aa));
  PetscCall(fmt->ops->updatevalues(fmt, &csr));
  if (fmt->longrows) PetscCall(ELLGLongRowsUpdateValues(fmt->longrows, &csr));
  PetscCall(ELLGCSRFree(fmt->backend, &csr));
  PetscCall(PetscFree(len));
  PetscCall(PetscFree(rows));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ELLGFormatMult(ELLGFormat fmt, const PetscScalar *x, const PetscScalar *z, PetscScalar *y)
{
  PetscFunctionBegin;
  PetscCall(fmt->ops->mult(fmt, x, z, y));
  if (fmt->longrows) PetscCall(ELLGLongRowsMultAdd(fmt->longrows, x, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ELLGFormatMultTransposeAdd(ELLGFormat fmt, const PetscScalar *x, PetscScalar *y)
{
  PetscFunctionBegin;
  PetscCall(fmt->ops->multtransposeadd(fmt, x, y));
  if (fmt->longrows) PetscCall(ELLGLongRowsMultTransposeAdd(fmt->longrows, x, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ELLGFormatGetDiagonal(ELLGFormat fmt, PetscScalar *d)
{
  PetscFunctionBegin;
  PetscCall(fmt->ops->getdiagonal(fmt, d));
  if (fmt->longrows) PetscCall(ELLGLongRowsGetDiagonal(fmt->longrows, d));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ELLGFormatView(ELLGFormat fmt, PetscViewer viewer)
{
  const double csr   = 12.0 * (double)fmt->nnz + 4.0 * (double)(fmt->m + 1);
  const double bytes = (double)fmt->bytes + (double)ELLGLongRowsBytes(fmt->longrows);

  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(viewer, "format: %s, %" PetscInt_FMT " x %" PetscInt_FMT ", %" PetscInt_FMT " nonzeros in %" PetscInt_FMT " nonempty rows\n", fmt->ops->name, fmt->m, fmt->n, fmt->nnz, fmt->nzrows));
  PetscCall(fmt->ops->view(fmt, viewer));
  PetscCall(ELLGLongRowsView(fmt->longrows, viewer));
  PetscCall(PetscViewerASCIIPrintf(viewer, "device bytes: %.6g MB (%.3f x CSR)\n", bytes / 1048576.0, csr > 0 ? bytes / csr : 1.0));
  PetscCall(PetscELLGBackendView(fmt->backend, viewer));
  PetscFunctionReturn(PETSC_SUCCESS);
}
