/* Format-independent parts of the storage formats: creation, upload of CSR indices, viewing */
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
  PetscCall((*fmt)->ops->reset(*fmt));
  PetscCall((*fmt)->ops->destroy(*fmt));
  PetscCall(PetscFree(*fmt));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* (Re)builds the stored matrix from the m x n CSR (ai, aj, aa) */
PetscErrorCode ELLGFormatBuild(ELLGFormat fmt, PetscInt m, PetscInt n, const PetscInt *ai, const PetscInt *aj, const PetscScalar *aa)
{
  PetscFunctionBegin;
  PetscCheck(ai[m] <= PETSC_MAX_INT && (PetscInt64)ai[m] < 2147483647 && m < 2147483647 && n < 2147483647, PETSC_COMM_SELF, PETSC_ERR_SUP, "PETSc-ELLG formats store 32-bit indices: a local block of %" PetscInt_FMT " x %" PetscInt_FMT " with %" PetscInt_FMT " nonzeros is too large", m, n, ai[m]);
  PetscCall(fmt->ops->reset(fmt));
  fmt->m      = m;
  fmt->n      = n;
  fmt->nnz    = ai[m];
  fmt->nzrows = 0;
  for (PetscInt i = 0; i < m; i++)
    if (ai[i + 1] > ai[i]) fmt->nzrows++;
  PetscCall(fmt->ops->build(fmt, ai, aj, aa));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ELLGFormatView(ELLGFormat fmt, PetscViewer viewer)
{
  const double csr = 12.0 * (double)fmt->nnz + 4.0 * (double)(fmt->m + 1);

  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(viewer, "format: %s, %" PetscInt_FMT " x %" PetscInt_FMT ", %" PetscInt_FMT " nonzeros in %" PetscInt_FMT " nonempty rows\n", fmt->ops->name, fmt->m, fmt->n, fmt->nnz, fmt->nzrows));
  PetscCall(fmt->ops->view(fmt, viewer));
  PetscCall(PetscViewerASCIIPrintf(viewer, "device bytes: %.6g MB (%.3f x CSR)\n", (double)fmt->bytes / 1048576.0, csr > 0 ? (double)fmt->bytes / csr : 1.0));
  PetscCall(PetscELLGBackendView(fmt->backend, viewer));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Copies the CSR row pointers (m+1) and column indices (nnz) into the backend's memory as
   32-bit integers; the caller frees them with PetscELLGFree(). Sizes were checked by the caller. */
PetscErrorCode ELLGCSRUploadIndices(PetscELLGBackend be, PetscInt m, const PetscInt *ai, PetscInt nnz, const PetscInt *aj, int **dai, int **daj)
{
  PetscFunctionBegin;
  PetscCall(PetscELLGMalloc(be, sizeof(int) * (m + 1), (void **)dai));
  PetscCall(PetscELLGMalloc(be, sizeof(int) * nnz, (void **)daj));
#if defined(PETSC_USE_64BIT_INDICES)
  {
    int *ti, *tj;

    PetscCall(PetscMalloc2(m + 1, &ti, nnz, &tj));
    for (PetscInt i = 0; i <= m; i++) ti[i] = (int)ai[i];
    for (PetscInt k = 0; k < nnz; k++) tj[k] = (int)aj[k];
    PetscCall(PetscELLGMemcpy(be, *dai, ti, sizeof(int) * (m + 1), ELLG_MEMCPY_HTOD));
    PetscCall(PetscELLGMemcpy(be, *daj, tj, sizeof(int) * nnz, ELLG_MEMCPY_HTOD));
    PetscCall(PetscFree2(ti, tj));
  }
#else
  PetscCall(PetscELLGMemcpy(be, *dai, ai, sizeof(int) * (m + 1), ELLG_MEMCPY_HTOD));
  PetscCall(PetscELLGMemcpy(be, *daj, aj, sizeof(int) * nnz, ELLG_MEMCPY_HTOD));
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}
