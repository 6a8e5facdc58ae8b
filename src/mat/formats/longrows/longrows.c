/* Rows split out of a storage format because they are far longer than the typical row */
#include <ellgformat.h>
#include "longrowskernels.h"

struct _p_ELLGLongRows {
  PetscELLGBackend backend;
  LongRowsArrays   a;   /* in the backend's memory */
  PetscInt         nnz; /* entries of the long rows */
  PetscInt         maxlen;
};

#define ELLGLongRowsCall(l, f, ...) PetscELLGBackendCall((l)->backend, LongRowsHost##f, LongRowsCuda##f, (__VA_ARGS__))

/* the nrows rows listed in rows[] (ascending) of the CSR, with their values */
PetscErrorCode ELLGLongRowsBuild(PetscELLGBackend be, const ELLGCSR *csr, PetscInt nrows, const PetscInt *rows, ELLGLongRows *lr)
{
  ELLGLongRows l;
  int         *ids, *ptr;

  PetscFunctionBegin;
  PetscCall(PetscNew(&l));
  l->backend = be;
  PetscCall(PetscMalloc2(nrows, &ids, nrows + 1, &ptr));
  ptr[0] = 0;
  for (PetscInt r = 0; r < nrows; r++) {
    const PetscInt len = csr->ai[rows[r] + 1] - csr->ai[rows[r]];

    ids[r]    = (int)rows[r];
    ptr[r + 1] = ptr[r] + (int)len;
    l->maxlen = PetscMax(l->maxlen, len);
  }
  l->a.nrows = (int)nrows;
  l->nnz     = ptr[nrows];
  PetscCall(PetscELLGMalloc(be, sizeof(int) * nrows, (void **)&l->a.ids));
  PetscCall(PetscELLGMalloc(be, sizeof(int) * (nrows + 1), (void **)&l->a.rowptr));
  PetscCall(PetscELLGMalloc(be, sizeof(int) * l->nnz, (void **)&l->a.col));
  PetscCall(PetscELLGMalloc(be, sizeof(PetscScalar) * l->nnz, (void **)&l->a.val));
  PetscCall(PetscELLGMemcpy(be, l->a.ids, ids, sizeof(int) * nrows, ELLG_MEMCPY_HTOD));
  PetscCall(PetscELLGMemcpy(be, l->a.rowptr, ptr, sizeof(int) * (nrows + 1), ELLG_MEMCPY_HTOD));
  PetscCall(PetscFree2(ids, ptr));
  ELLGLongRowsCall(l, Gather, &l->a, csr->rowptr, csr->col, csr->val);
  *lr = l;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ELLGLongRowsUpdateValues(ELLGLongRows l, const ELLGCSR *csr)
{
  PetscFunctionBegin;
  ELLGLongRowsCall(l, Gather, &l->a, csr->rowptr, NULL, csr->val);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ELLGLongRowsMultAdd(ELLGLongRows l, const PetscScalar *x, PetscScalar *y)
{
  PetscFunctionBegin;
  ELLGLongRowsCall(l, MultAdd, &l->a, x, y);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ELLGLongRowsMultTransposeAdd(ELLGLongRows l, const PetscScalar *x, PetscScalar *y)
{
  PetscFunctionBegin;
  ELLGLongRowsCall(l, MultTransposeAdd, &l->a, x, y);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ELLGLongRowsGetDiagonal(ELLGLongRows l, PetscScalar *d)
{
  PetscFunctionBegin;
  ELLGLongRowsCall(l, GetDiagonal, &l->a, d);
  PetscFunctionReturn(PETSC_SUCCESS);
}

size_t ELLGLongRowsBytes(ELLGLongRows l)
{
  return l ? (sizeof(int) + sizeof(PetscScalar)) * (size_t)l->nnz + sizeof(int) * (2 * (size_t)l->a.nrows + 1) : 0;
}

PetscErrorCode ELLGLongRowsView(ELLGLongRows l, PetscViewer viewer)
{
  PetscFunctionBegin;
  if (l) PetscCall(PetscViewerASCIIPrintf(viewer, "long rows: %d, with %" PetscInt_FMT " entries (longest %" PetscInt_FMT "), a thread block each\n", l->a.nrows, l->nnz, l->maxlen));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ELLGLongRowsDestroy(ELLGLongRows *l)
{
  PetscFunctionBegin;
  if (!*l) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscELLGFree((*l)->backend, (*l)->a.ids));
  PetscCall(PetscELLGFree((*l)->backend, (*l)->a.rowptr));
  PetscCall(PetscELLGFree((*l)->backend, (*l)->a.col));
  PetscCall(PetscELLGFree((*l)->backend, (*l)->a.val));
  PetscCall(PetscFree(*l));
  PetscFunctionReturn(PETSC_SUCCESS);
}
