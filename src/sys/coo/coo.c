/* The pattern and map of COO assembly (ellgcoo.h): matrices' and vectors' */
#include <ellgcoo.h>
#include <ellgcookernels.h>

struct _n_ELLGCoo {
  PetscELLGBackend be;
  PetscCount       ncoo;         /* entries given, ignored ones included */
  PetscInt         nnz;          /* nonzeros of the pattern */
  PetscCount      *jmap, *perm;  /* host: the entries of nonzero k are perm[jmap[k] .. jmap[k + 1] - 1]; jmap NULL: nonzero k is entry
                                    perm[k] alone, or entry k with perm NULL too */
  PetscCount      *djmap, *dperm; /* the same in the backend's memory, at the first sum there */
};

/* the entries by row, in their order within a row, the ignored ones (a negative index; coo_j NULL: rows only) left out:
   perm[start[r] .. start[r + 1] - 1] */
static PetscErrorCode ELLGCooSortRows(PetscInt m, PetscCount ncoo, const PetscInt coo_i[], const PetscInt coo_j[], const PetscCount start[], PetscCount perm[])
{
  PetscCount *next;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(m, &next));
  for (PetscInt r = 0; r < m; r++) next[r] = start[r];
  for (PetscCount k = 0; k < ncoo; k++)
    if (coo_i[k] >= 0 && (!coo_j || coo_j[k] >= 0)) perm[next[coo_i[k]]++] = k;
  PetscCall(PetscFree(next));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the general case: each row's entries sorted by column, repeats merged into one nonzero; without repeats nonzero k is
   entry perm[k] alone and there is no jmap. *aj may hold more room than the nonzeros */
static PetscErrorCode ELLGCooMerge(ELLGCoo coo, PetscInt m, const PetscInt coo_i[], const PetscInt coo_j[], const PetscCount start[], PetscInt *ai, PetscInt **aj)
{
  const PetscCount nvalid = start[m];
  PetscInt        *cols;
  PetscCount       nnz = 0;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(nvalid, &coo->perm));
  PetscCall(PetscMalloc1(nvalid, &cols));
  *aj = cols;
  PetscCall(ELLGCooSortRows(m, coo->ncoo, coo_i, coo_j, start, coo->perm));
  for (PetscCount p = 0; p < nvalid; p++) cols[p] = coo_j[coo->perm[p]];
  for (PetscInt r = 0; r < m; r++) {
    const PetscCount s = start[r], len = start[r + 1] - s;

    PetscCall(PetscSortIntWithCountArray(len, cols + s, coo->perm + s));
    for (PetscCount p = s; p < s + len; p++) nnz += p == s || cols[p] != cols[p - 1];
  }
  PetscCall(PetscIntCast(nnz, &coo->nnz));
  ai[0] = 0;
  if (nnz == nvalid) { /* no repeats */
    for (PetscInt r = 0; r < m; r++) ai[r + 1] = (PetscInt)start[r + 1];
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscMalloc1((size_t)nnz + 1, &coo->jmap));
  nnz = 0;
  for (PetscInt r = 0; r < m; r++) { /* in place: a nonzero is written at or before its first entry */
    for (PetscCount p = start[r]; p < start[r + 1]; p++) {
      if (p > start[r] && cols[p] == cols[p - 1]) continue;
      cols[nnz]        = cols[p];
      coo->jmap[nnz++] = p;
    }
    ai[r + 1] = (PetscInt)nnz;
  }
  coo->jmap[nnz] = nvalid;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the first entry whose row or column is out of range, or -1 */
static PetscCount ELLGCooOutOfRange(PetscInt m, PetscInt n, PetscCount ncoo, const PetscInt coo_i[], const PetscInt coo_j[])
{
  for (PetscCount k = 0; k < ncoo; k++)
    if (coo_i[k] >= m || coo_j[k] >= n) return k;
  return -1;
}

/* *start (m + 1, to PetscFree()): where each row's entries start among the valid ones (none negative; coo_j NULL: rows
   only, as column 0), and whether the valid entries are all of them, once each and in the order of CSR (rows, then
   columns, increasing) */
static PetscErrorCode ELLGCooRowStarts(PetscInt m, PetscInt n, PetscCount ncoo, const PetscInt coo_i[], const PetscInt coo_j[], PetscCount **start, PetscBool *inorder)
{
  PetscCount last = -1; /* the (row, column) of the last entry as row n + column, while they increase */

  PetscFunctionBegin;
  *inorder = PETSC_TRUE;
  PetscCall(PetscCalloc1((size_t)m + 1, start));
  for (PetscCount k = 0; k < ncoo; k++) {
    const PetscInt i = coo_i[k], j = coo_j ? coo_j[k] : 0;

    if (i < 0 || j < 0) {
      *inorder = PETSC_FALSE;
      continue;
    }
    (*start)[i + 1]++;
    if (*inorder) {
      const PetscCount key = (PetscCount)i * n + j;

      *inorder = (PetscBool)(key > last);
      last     = key;
    }
  }
  for (PetscInt r = 0; r < m; r++) (*start)[r + 1] += (*start)[r];
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ELLGCooCreate(PetscELLGBackend be, PetscInt m, PetscInt n, PetscCount ncoo, const PetscInt coo_i[], const PetscInt coo_j[], ELLGCoo *coo, PetscInt **ai, PetscInt **aj)
{
  const PetscCount bad = ELLGCooOutOfRange(m, n, ncoo, coo_i, coo_j);
  PetscCount      *start;
  PetscBool        inorder;
  PetscErrorCode   ierr = PETSC_SUCCESS;
  ELLGCoo          c;

  PetscFunctionBegin;
  PetscCheck(bad < 0 || coo_i[bad] < m, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "COO row index %" PetscInt_FMT " is >= the matrix row size %" PetscInt_FMT, coo_i[bad], m);
  PetscCheck(bad < 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "COO column index %" PetscInt_FMT " is >= the matrix column size %" PetscInt_FMT, coo_j[bad], n);
  PetscCall(PetscNew(&c));
  c->be   = be;
  c->ncoo = ncoo;
  PetscCall(ELLGCooRowStarts(m, n, ncoo, coo_i, coo_j, &start, &inorder));
  *aj = NULL;
  PetscCall(PetscMalloc1((size_t)m + 1, ai));
  if (inorder) { /* every entry once, in the order of CSR: nonzero k is entry k */
    ierr = PetscIntCast(ncoo, &c->nnz);
    for (PetscInt r = 0; r <= m && !ierr; r++) (*ai)[r] = (PetscInt)start[r];
    if (!ierr) ierr = PetscMalloc1(ncoo, aj);
    if (!ierr) ierr = PetscArraycpy(*aj, coo_j, ncoo);
  } else ierr = ELLGCooMerge(c, m, coo_i, coo_j, start, *ai, aj);
  PetscCall(PetscFree(start));
  if (ierr) {
    PetscCall(PetscFree(*ai));
    PetscCall(PetscFree(*aj));
    PetscCall(ELLGCooDestroy(&c));
  }
  PetscCall(ierr);
  *coo = c;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ELLGCooCreateRows(PetscELLGBackend be, PetscInt m, PetscCount ncoo, const PetscInt coo_i[], ELLGCoo *coo)
{
  PetscCount    *start;
  PetscBool      inorder;
  PetscErrorCode ierr = PETSC_SUCCESS;
  ELLGCoo        c;

  PetscFunctionBegin;
  PetscCall(PetscNew(&c));
  c->be   = be;
  c->ncoo = ncoo;
  c->nnz  = m;
  PetscCall(ELLGCooRowStarts(m, 1, ncoo, coo_i, NULL, &start, &inorder));
  if (inorder && ncoo == m) PetscCall(PetscFree(start)); /* entry k is row k: no map */
  else {
    c->jmap = start;
    ierr    = PetscMalloc1(PetscMax(start[m], 1), &c->perm);
    if (!ierr) ierr = ELLGCooSortRows(m, ncoo, coo_i, NULL, start, c->perm);
  }
  if (ierr) PetscCall(ELLGCooDestroy(&c));
  PetscCall(ierr);
  *coo = c;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ELLGCooDestroy(ELLGCoo *coo)
{
  PetscFunctionBegin;
  if (!*coo) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscFree((*coo)->jmap));
  PetscCall(PetscFree((*coo)->perm));
  PetscCall(PetscELLGFree((*coo)->be, (*coo)->djmap));
  PetscCall(PetscELLGFree((*coo)->be, (*coo)->dperm));
  PetscCall(PetscFree(*coo));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscCount ELLGCooEntries(ELLGCoo coo)
{
  return coo->ncoo;
}

PetscInt ELLGCooNonzeros(ELLGCoo coo)
{
  return coo->nnz;
}

PetscErrorCode ELLGCooSum(ELLGCoo coo, PetscBool inbackend, PetscCount nv, const PetscScalar v[], const PetscScalar w[], InsertMode imode, PetscScalar a[])
{
  const int add = imode == ADD_VALUES;

  PetscFunctionBegin;
  if (!inbackend || coo->be == PETSCELLG_BACKEND_HOST) {
    ELLGHostCooSum(coo->nnz, (const long long *)coo->jmap, (const long long *)coo->perm, (long long)nv, (const double *)v, (const double *)w, add, (double *)a);
    PetscCall(PetscLogFlops((PetscLogDouble)(coo->jmap ? coo->jmap[coo->nnz] : 0)));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
#if defined(ELLG_HAVE_CUDA)
  if (coo->jmap && !coo->djmap) {
    const size_t jbytes = sizeof(PetscCount) * ((size_t)coo->nnz + 1);

    PetscCall(PetscELLGMalloc(coo->be, jbytes, (void **)&coo->djmap));
    PetscCall(PetscELLGMemcpy(coo->be, coo->djmap, coo->jmap, jbytes, ELLG_MEMCPY_HTOD));
  }
  if (coo->perm && !coo->dperm) {
    const size_t pbytes = sizeof(PetscCount) * (size_t)(coo->jmap ? coo->jmap[coo->nnz] : coo->nnz);

    PetscCall(PetscELLGMalloc(coo->be, PetscMax(pbytes, sizeof(PetscCount)), (void **)&coo->dperm));
    PetscCall(PetscELLGMemcpy(coo->be, coo->dperm, coo->perm, pbytes, ELLG_MEMCPY_HTOD));
  }
  PetscCall(PetscELLGLogGpuTimeBegin(coo->be));
  PetscCallELLGCuda(ELLGCudaCooSum(coo->nnz, (const long long *)coo->djmap, (const long long *)coo->dperm, (long long)nv, (const double *)v, (const double *)w, add, (double *)a));
  PetscCall(PetscELLGLogGpuTimeEnd(coo->be));
  PetscCall(PetscELLGLogFlops(coo->be, (PetscLogDouble)(coo->jmap ? coo->jmap[coo->nnz] : 0)));
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PetscELLGInBackendMemory(PetscELLGBackend be, const void *v, PetscBool *in)
{
  PetscFunctionBegin;
  *in = PETSC_TRUE; /* the host backend reads any host memory */
#if defined(ELLG_HAVE_CUDA)
  if (be != PETSCELLG_BACKEND_HOST) {
    int dev = 0;

    if (v) PetscCallELLGCuda(ELLGCudaPointerIsDevice(v, &dev));
    *in = (PetscBool)dev;
  }
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PetscELLGCooBackendValues(PetscELLGBackend be, PetscCount n, const PetscScalar v[], PetscScalar **bv)
{
  const size_t bytes = sizeof(PetscScalar) * (size_t)n;
  PetscBool    in;

  PetscFunctionBegin;
  *bv = NULL;
  PetscCall(PetscELLGInBackendMemory(be, v, &in));
  if (in || !n) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscELLGMalloc(be, bytes, (void **)bv));
  PetscCall(PetscELLGMemcpy(be, *bv, v, bytes, ELLG_MEMCPY_HTOD));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PetscELLGCooHostValues(PetscELLGBackend be, PetscCount n, const PetscScalar v[], PetscScalar **hv)
{
  PetscBool in;

  PetscFunctionBegin;
  *hv = NULL;
  PetscCall(PetscELLGInBackendMemory(be, v, &in));
  if (!in || be == PETSCELLG_BACKEND_HOST) PetscFunctionReturn(PETSC_SUCCESS);
#if defined(ELLG_HAVE_PETSC_CUDA)
  PetscCall(PetscELLGWaitForPetsc()); /* the program may have computed v on PETSc's stream */
#endif
  PetscCall(PetscMalloc1(n, hv));
  PetscCall(PetscELLGMemcpy(be, *hv, v, sizeof(PetscScalar) * (size_t)n, ELLG_MEMCPY_DTOH));
  PetscFunctionReturn(PETSC_SUCCESS);
}
