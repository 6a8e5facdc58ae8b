/* Rows split out of a storage format because they are far longer than the typical row: a CSR of
   those rows, cut into chunks that the GPU works on a thread block each */
#include <ellgformat.h>
#include <ellglongrows.h>

struct _p_ELLGLongRows {
  PetscELLGBackend backend;
  LongRowsArrays   a;   /* in the backend's memory */
  PetscInt         nnz; /* entries of the long rows */
  PetscInt         maxlen;
  PetscBool        single; /* values in single precision (sval) */
};

#define ELLGLongRowsCall(l, f, ...) PetscELLGBackendCall((l)->backend, LongRowsHost##f, LongRowsCuda##f, (__VA_ARGS__))

/* the arrays in the backend's memory, the index arrays copied from the host */
static PetscErrorCode ELLGLongRowsAlloc(ELLGLongRows l, const int *ids, const int *ptr, const int *rowchunk, const int *chunkrow)
{
  const PetscELLGBackend be = l->backend;
  const size_t           nr = (size_t)l->a.nrows, nc = (size_t)l->a.nchunks;

  PetscFunctionBegin;
  PetscCall(PetscELLGMalloc(be, sizeof(int) * nr, (void **)&l->a.ids));
  PetscCall(PetscELLGMalloc(be, sizeof(int) * (nr + 1), (void **)&l->a.rowptr));
  PetscCall(PetscELLGMalloc(be, sizeof(int) * (nr + 1), (void **)&l->a.rowchunk));
  PetscCall(PetscELLGMalloc(be, sizeof(int) * nr, (void **)&l->a.arrived));
  PetscCall(PetscELLGMalloc(be, sizeof(int) * nc, (void **)&l->a.chunkrow));
  PetscCall(PetscELLGMalloc(be, sizeof(PetscScalar) * nc, (void **)&l->a.partial));
  PetscCall(PetscELLGMalloc(be, sizeof(int) * l->nnz, (void **)&l->a.col));
  if (l->single) PetscCall(PetscELLGMalloc(be, sizeof(float) * l->nnz, (void **)&l->a.sval));
  else PetscCall(PetscELLGMalloc(be, sizeof(double) * l->nnz, (void **)&l->a.val));
  PetscCall(PetscELLGMemcpy(be, l->a.ids, ids, sizeof(int) * nr, ELLG_MEMCPY_HTOD));
  PetscCall(PetscELLGMemcpy(be, l->a.rowptr, ptr, sizeof(int) * (nr + 1), ELLG_MEMCPY_HTOD));
  PetscCall(PetscELLGMemcpy(be, l->a.rowchunk, rowchunk, sizeof(int) * (nr + 1), ELLG_MEMCPY_HTOD));
  PetscCall(PetscELLGMemcpy(be, l->a.chunkrow, chunkrow, sizeof(int) * nc, ELLG_MEMCPY_HTOD));
  PetscCall(PetscELLGMemset(be, l->a.arrived, 0, sizeof(int) * nr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the arrays of the long rows in the backend's memory, for a format that multiplies them in its own
   kernel (ELLGFormatOps.multlongrows); NULL when there are none */
const LongRowsArrays *ELLGLongRowsArrays(ELLGLongRows l)
{
  return l ? &l->a : NULL;
}

/* the rows the CSR splits out (csr->longrows, ascending), with their values (in single precision if single); *lr is
   set first, so that what a failed build allocated is freed by ELLGLongRowsDestroy() */
PetscErrorCode ELLGLongRowsBuild(PetscELLGBackend be, PetscBool single, const ELLGCSR *csr, ELLGLongRows *lr)
{
  const PetscInt  nrows = csr->nlong;
  const PetscInt *rows  = csr->longrows;
  ELLGLongRows    l;
  int            *ids, *ptr, *rowchunk, *chunkrow = NULL;
  PetscErrorCode  ierr;

  PetscFunctionBegin;
  PetscCall(PetscNew(&l));
  l->backend = be;
  l->single  = single;
  *lr        = l;
  PetscCall(PetscMalloc3(nrows, &ids, nrows + 1, &ptr, nrows + 1, &rowchunk));
  ptr[0] = rowchunk[0] = 0;
  for (PetscInt r = 0; r < nrows; r++) {
    const PetscInt len = csr->ai[rows[r] + 1] - csr->ai[rows[r]];

    ids[r]          = (int)rows[r];
    ptr[r + 1]      = ptr[r] + (int)len;
    rowchunk[r + 1] = rowchunk[r] + (int)((len + LONGROWS_CHUNK - 1) / LONGROWS_CHUNK);
    l->maxlen       = PetscMax(l->maxlen, len);
  }
  l->a.nrows   = (int)nrows;
  l->a.nchunks = rowchunk[nrows];
  l->nnz       = ptr[nrows];
  ierr = PetscMalloc1(l->a.nchunks, &chunkrow);
  if (!ierr) {
    for (PetscInt r = 0; r < nrows; r++)
      for (int c = rowchunk[r]; c < rowchunk[r + 1]; c++) chunkrow[c] = (int)r;
    ierr = ELLGLongRowsAlloc(l, ids, ptr, rowchunk, chunkrow);
  }
  PetscCall(PetscFree3(ids, ptr, rowchunk));
  PetscCall(PetscFree(chunkrow));
  PetscCall(ierr);
  ELLGLongRowsCall(l, Gather, &l->a, csr->rowptr, csr->col, csr->val);
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

/* C += the long rows' part of A B; columns_option: the format's -mat_<format>_spmm_columns */
PetscErrorCode ELLGLongRowsSpMMAdd(ELLGLongRows l, PetscInt columns_option, const ELLGSpMMArgs *a)
{
  const int lc = ELLGSpMMColumns(columns_option, (PetscInt64)l->a.nchunks * LONGROWS_THREADS, a->ncols);

  PetscFunctionBegin;
  ELLGLongRowsCall(l, SpMMAdd, &l->a, lc, a);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* scalars of the work space of ELLGLongRowsSpMMAdd() for ncols columns: the chunks' sums */
size_t ELLGLongRowsSpMMWorkSize(ELLGLongRows l, PetscInt ncols)
{
  return l ? (size_t)l->a.nchunks * (size_t)ncols : 0;
}

size_t ELLGLongRowsBytes(ELLGLongRows l)
{
  return l ? (sizeof(int) + (l->single ? sizeof(float) : sizeof(double))) * (size_t)l->nnz + (sizeof(int) + sizeof(double)) * (size_t)l->a.nchunks + sizeof(int) * (4 * (size_t)l->a.nrows + 2) : 0;
}

PetscErrorCode ELLGLongRowsView(ELLGLongRows l, PetscViewer viewer)
{
  PetscFunctionBegin;
  if (l) PetscCall(PetscViewerASCIIPrintf(viewer, "long rows: %d, with %" PetscInt_FMT " entries (longest %" PetscInt_FMT "), in %d chunks of up to %d entries, a thread block each\n", l->a.nrows, l->nnz, l->maxlen, l->a.nchunks, LONGROWS_CHUNK));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ELLGLongRowsDestroy(ELLGLongRows *l)
{
  PetscFunctionBegin;
  if (!*l) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscELLGFree((*l)->backend, (*l)->a.ids));
  PetscCall(PetscELLGFree((*l)->backend, (*l)->a.rowptr));
  PetscCall(PetscELLGFree((*l)->backend, (*l)->a.rowchunk));
  PetscCall(PetscELLGFree((*l)->backend, (*l)->a.arrived));
  PetscCall(PetscELLGFree((*l)->backend, (*l)->a.chunkrow));
  PetscCall(PetscELLGFree((*l)->backend, (*l)->a.partial));
  PetscCall(PetscELLGFree((*l)->backend, (*l)->a.col));
  PetscCall(PetscELLGFree((*l)->backend, (*l)->a.val));
  PetscCall(PetscELLGFree((*l)->backend, (*l)->a.sval));
  PetscCall(PetscFree(*l));
  PetscFunctionReturn(PETSC_SUCCESS);
}
