/* Triangles of factors: level order, values from the factor, solves on the backend (ellgtri.h) */
#include <ellgtri.h>
#include <ellgtrisolve.h>

const char *const ELLGTriMethods[] = {"levels", "cusparse", "jacobi", "ELLGTriMethod", "ELLG_TRI_", NULL};

struct _n_ELLGTri {
  PetscELLGBackend be;
  ELLGTriMethod    method;
  PetscInt         n, nnz, nlevels, sweeps;
  PetscBool        lower, divide;
  PetscScalar      sign;
  /* natural order (host): for transposes and cuSPARSE */
  PetscInt *nrowptr, *ncolidx, *nsrc, *dsrc;
  /* level order (host): row of each position, CSR over positions, value sources, values */
  int         *perm, *rowptr, *colidx;
  PetscInt    *lsrc;
  PetscScalar *val, *dinv;
  /* level order in the backend's memory */
  int         *bperm, *browptr, *bcolidx, *ticket;
  PetscScalar *bval, *bdinv, *tmp;
  unsigned    *flags, epoch;
  /* cuSPARSE: the triangle in natural order with its diagonal (host), and its SpSV */
  int         *crowptr, *ccolidx;
  PetscScalar *cval;
  void        *cusp;
};

/* the rows in level order: a row's level is one more than the highest of the rows it reads */
static PetscErrorCode ELLGTriLevelOrder(ELLGTri t)
{
  PetscInt *level, *count, n = t->n;

  PetscFunctionBegin;
  PetscCall(PetscCalloc1(n, &level));
  t->nlevels = n ? 1 : 0;
  for (PetscInt r = 0; r < n; r++) {
    const PetscInt i = t->lower ? r : n - 1 - r;

    for (PetscInt k = t->nrowptr[i]; k < t->nrowptr[i + 1]; k++) level[i] = PetscMax(level[i], level[t->ncolidx[k]] + 1);
    t->nlevels = PetscMax(t->nlevels, level[i] + 1);
  }
  PetscCall(PetscCalloc1(t->nlevels + 1, &count));
  for (PetscInt i = 0; i < n; i++) count[level[i] + 1]++;
  for (PetscInt l = 0; l < t->nlevels; l++) count[l + 1] += count[l];
  PetscCall(PetscMalloc4(n, &t->perm, n + 1, &t->rowptr, t->nnz, &t->colidx, t->nnz, &t->lsrc));
  for (PetscInt i = 0; i < n; i++) t->perm[count[level[i]]++] = (int)i;
  t->rowptr[0] = 0;
  for (PetscInt p = 0; p < n; p++) {
    const PetscInt i = t->perm[p];
    PetscInt       k = t->rowptr[p];

    for (PetscInt q = t->nrowptr[i]; q < t->nrowptr[i + 1]; q++, k++) {
      t->colidx[k] = (int)t->ncolidx[q];
      t->lsrc[k]   = t->nsrc[q];
    }
    t->rowptr[p + 1] = (int)k;
  }
  PetscCall(PetscFree(count));
  PetscCall(PetscFree(level));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the structure in the backend's memory (values come with ELLGTriSetValues()) */
static PetscErrorCode ELLGTriUpload(ELLGTri t)
{
  const size_t n = (size_t)t->n, nnz = (size_t)t->nnz;

  PetscFunctionBegin;
  if (t->method == ELLG_TRI_CUSPARSE) { /* the diagonal stored, 1 for a unit one */
    PetscCall(PetscMalloc3(n + 1, &t->crowptr, nnz + n, &t->ccolidx, nnz + n, &t->cval));
    t->crowptr[0] = 0;
    for (PetscInt i = 0, c = 0; i < t->n; i++) {
      if (!t->lower) t->ccolidx[c++] = (int)i;
      for (PetscInt k = t->nrowptr[i]; k < t->nrowptr[i + 1]; k++) t->ccolidx[c++] = (int)t->ncolidx[k];
      if (t->lower) t->ccolidx[c++] = (int)i;
      t->crowptr[i + 1] = (int)c;
    }
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscMalloc2(nnz, &t->val, t->dsrc ? n : 0, &t->dinv));
  PetscCall(PetscELLGMalloc(t->be, n * sizeof(int), (void **)&t->bperm));
  PetscCall(PetscELLGMalloc(t->be, (n + 1) * sizeof(int), (void **)&t->browptr));
  PetscCall(PetscELLGMalloc(t->be, nnz * sizeof(int), (void **)&t->bcolidx));
  PetscCall(PetscELLGMalloc(t->be, nnz * sizeof(PetscScalar), (void **)&t->bval));
  if (t->dsrc) PetscCall(PetscELLGMalloc(t->be, n * sizeof(PetscScalar), (void **)&t->bdinv));
  PetscCall(PetscELLGMemcpy(t->be, t->bperm, t->perm, n * sizeof(int), ELLG_MEMCPY_HTOD));
  PetscCall(PetscELLGMemcpy(t->be, t->browptr, t->rowptr, (n + 1) * sizeof(int), ELLG_MEMCPY_HTOD));
  PetscCall(PetscELLGMemcpy(t->be, t->bcolidx, t->colidx, nnz * sizeof(int), ELLG_MEMCPY_HTOD));
  if (t->method == ELLG_TRI_JACOBI) PetscCall(PetscELLGMalloc(t->be, n * sizeof(PetscScalar), (void **)&t->tmp));
  else if (t->be == PETSCELLG_BACKEND_CUDA) {
    PetscCall(PetscELLGMalloc(t->be, n * sizeof(unsigned), (void **)&t->flags));
    PetscCall(PetscELLGMalloc(t->be, sizeof(int), (void **)&t->ticket));
    PetscCall(PetscELLGMemset(t->be, t->flags, 0, n * sizeof(unsigned)));
    PetscCall(PetscELLGMemset(t->be, t->ticket, 0, sizeof(int)));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  ELLGTriCreate - a triangle of a factor from its structure in natural order (ellgtri.h); the arrays are copied

  Input Parameters:
+ be, method - where and how it is solved (cusparse needs the cuda backend: the host backend takes levels for it)
. n - order
. lower - whether rows read lower rows (else higher ones)
. rowptr, colidx, src - CSR of the entries off the diagonal, src the index of each value in the factor's array
. dsrc - the index of each row's inverse diagonal in the factor's array, or NULL for a unit diagonal
- sign, divide - the values are sign a[src], divided by a[dsrc] of the row when divide
*/
PetscErrorCode ELLGTriCreate(PetscELLGBackend be, ELLGTriMethod method, PetscInt n, PetscBool lower, const PetscInt rowptr[], const PetscInt colidx[], const PetscInt src[], const PetscInt dsrc[], PetscScalar sign, PetscBool divide, ELLGTri *tri)
{
  ELLGTri  t;
  PetscInt nnz = rowptr[n];

  PetscFunctionBegin;
  PetscCheck(!divide || dsrc, PETSC_COMM_SELF, PETSC_ERR_ARG_INCOMP, "A unit diagonal cannot divide the rows");
  PetscCall(PetscNew(&t));
  t->be     = be;
  t->method = be == PETSCELLG_BACKEND_HOST && method == ELLG_TRI_CUSPARSE ? ELLG_TRI_LEVELS : method;
  t->sweeps = 2;
  t->n      = n;
  t->nnz    = nnz;
  t->lower  = lower;
  t->sign   = sign;
  t->divide = divide;
  PetscCall(PetscMalloc3(n + 1, &t->nrowptr, nnz, &t->ncolidx, nnz, &t->nsrc));
  PetscCall(PetscArraycpy(t->nrowptr, rowptr, n + 1));
  PetscCall(PetscArraycpy(t->ncolidx, colidx, nnz));
  PetscCall(PetscArraycpy(t->nsrc, src, nnz));
  if (dsrc) {
    PetscCall(PetscMalloc1(n, &t->dsrc));
    PetscCall(PetscArraycpy(t->dsrc, dsrc, n));
  }
  PetscCall(ELLGTriLevelOrder(t));
  PetscCall(ELLGTriUpload(t));
  *tri = t;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ELLGTriCreateTranspose - the triangle T^T (rows read the other way, each keeping its diagonal), for the
   transposed solves; the values come with ELLGTriSetValues() */
PetscErrorCode ELLGTriCreateTranspose(ELLGTri t, ELLGTri *tt)
{
  PetscInt *rowptr, *colidx, *src;

  PetscFunctionBegin;
  PetscCheck(!t->divide, PETSC_COMM_SELF, PETSC_ERR_SUP, "No transpose of a triangle whose rows are divided by their diagonal");
  PetscCall(ELLGCsrTranspose(t->n, t->n, t->nrowptr, t->ncolidx, t->nsrc, &rowptr, &colidx, &src));
  PetscCall(ELLGTriCreate(t->be, t->method, t->n, (PetscBool)!t->lower, rowptr, colidx, src, t->dsrc, t->sign, PETSC_FALSE, tt));
  PetscCall(ELLGTriSetJacobiSweeps(*tt, t->sweeps));
  PetscCall(PetscFree3(rowptr, colidx, src));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ELLGTriSetJacobiSweeps - the sweeps of an approximate solve (method jacobi): k >= 0 */
PetscErrorCode ELLGTriSetJacobiSweeps(ELLGTri t, PetscInt k)
{
  PetscFunctionBegin;
  PetscCheck(k >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Jacobi sweeps %" PetscInt_FMT " must be 0 or more", k);
  t->sweeps = k;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ELLGTriSetValues - the values of the triangle from the factor's value array a (host), into the backend */
PetscErrorCode ELLGTriSetValues(ELLGTri t, const PetscScalar a[])
{
  const size_t n = (size_t)t->n, nnz = (size_t)t->nnz;

  PetscFunctionBegin;
  if (t->method == ELLG_TRI_CUSPARSE) {
#if defined(ELLG_HAVE_CUDA)
    for (PetscInt i = 0, c = 0; i < t->n; i++) {
      const PetscScalar scale = t->divide ? t->sign / a[t->dsrc[i]] : t->sign;

      const PetscScalar d     = t->dsrc ? 1.0 / a[t->dsrc[i]] : 1.0;

      if (!t->lower) t->cval[c++] = d;
      for (PetscInt k = t->nrowptr[i]; k < t->nrowptr[i + 1]; k++) t->cval[c++] = scale * a[t->nsrc[k]];
      if (t->lower) t->cval[c++] = d;
    }
    if (t->cusp) PetscCallELLGCuda(ELLGCusparseTriSetValues(t->cusp, t->cval));
    else PetscCallELLGCuda(ELLGCusparseTriCreate((int)t->n, t->crowptr, t->ccolidx, t->cval, t->lower ? 0 : 1, 0, &t->cusp));
#endif
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  for (PetscInt p = 0; p < t->n; p++) {
    const PetscInt    i     = t->perm[p];
    const PetscScalar scale = t->divide ? t->sign / a[t->dsrc[i]] : t->sign;

    for (PetscInt k = t->rowptr[p]; k < t->rowptr[p + 1]; k++) t->val[k] = scale * a[t->lsrc[k]];
    if (t->dsrc) t->dinv[p] = a[t->dsrc[i]];
  }
  PetscCall(PetscELLGMemcpy(t->be, t->bval, t->val, nnz * sizeof(PetscScalar), ELLG_MEMCPY_HTOD));
  if (t->dsrc) PetscCall(PetscELLGMemcpy(t->be, t->bdinv, t->dinv, n * sizeof(PetscScalar), ELLG_MEMCPY_HTOD));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ELLGTriSolve - x = T^{-1} b in the backend's memory (x and b distinct: cuSPARSE needs it) */
PetscErrorCode ELLGTriSolve(ELLGTri t, const PetscScalar b[], PetscScalar x[])
{
  PetscFunctionBegin;
  if (t->method == ELLG_TRI_JACOBI) { /* x_0 = D^{-1} b, x_s = D^{-1} (b - T x_{s-1}); x_s in x when sweeps - s is even */
    for (PetscInt s = 0; s <= t->sweeps; s++) {
      PetscScalar       *xs   = (t->sweeps - s) % 2 ? t->tmp : x;
      const PetscScalar *prev = s ? ((t->sweeps - s) % 2 ? x : t->tmp) : NULL;

      PetscELLGBackendCall(t->be, ELLGHostSweepRows, ELLGCudaSweepRows, (NULL, (int)t->n, t->bperm, t->browptr, t->bcolidx, t->bval, t->bdinv, 1.0, b, prev, xs));
    }
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (t->be == PETSCELLG_BACKEND_HOST) {
    ELLGHostTriSolveLevels((int)t->n, t->bperm, t->browptr, t->bcolidx, t->bval, t->bdinv, b, x);
    PetscFunctionReturn(PETSC_SUCCESS);
  }
#if defined(ELLG_HAVE_CUDA)
  if (t->method == ELLG_TRI_CUSPARSE) {
    PetscCallELLGCuda(ELLGCusparseTriSolve(t->cusp, 0, b, x));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (++t->epoch == 0) { /* the flags went round: clear them */
    PetscCall(PetscELLGMemset(t->be, t->flags, 0, (size_t)t->n * sizeof(unsigned)));
    t->epoch = 1;
  }
  PetscCallELLGCuda(ELLGCudaTriSolveLevels(NULL, (int)t->n, t->bperm, t->browptr, t->bcolidx, t->bval, t->bdinv, t->flags, t->epoch, t->ticket, b, x));
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ELLGTriGetInfo - how it is solved, its entries off the diagonal, levels and bytes in the backend's memory */
PetscErrorCode ELLGTriGetInfo(ELLGTri t, ELLGTriMethod *method, PetscInt *nnz, PetscInt *nlevels, size_t *bytes)
{
  const size_t n = (size_t)t->n, nz = (size_t)t->nnz;

  PetscFunctionBegin;
  *method  = t->method;
  *nnz     = t->nnz;
  *nlevels = t->nlevels;
  if (t->method == ELLG_TRI_CUSPARSE) {
    *bytes = 0;
#if defined(ELLG_HAVE_CUDA)
    if (t->cusp) *bytes = ELLGCusparseTriBytes(t->cusp);
#endif
  } else *bytes = (2 * n + 1 + nz) * sizeof(int) + (nz + (t->dsrc ? n : 0)) * sizeof(PetscScalar) + (t->flags ? n * sizeof(unsigned) : 0) + (t->tmp ? n * sizeof(PetscScalar) : 0);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ELLGTriDestroy(ELLGTri *tri)
{
  ELLGTri t = *tri;

  PetscFunctionBegin;
  if (!t) PetscFunctionReturn(PETSC_SUCCESS);
#if defined(ELLG_HAVE_CUDA)
  if (t->cusp) PetscCallELLGCuda(ELLGCusparseTriDestroy(t->cusp));
#endif
  PetscCall(PetscELLGFree(t->be, t->bperm));
  PetscCall(PetscELLGFree(t->be, t->browptr));
  PetscCall(PetscELLGFree(t->be, t->bcolidx));
  PetscCall(PetscELLGFree(t->be, t->bval));
  PetscCall(PetscELLGFree(t->be, t->bdinv));
  PetscCall(PetscELLGFree(t->be, t->flags));
  PetscCall(PetscELLGFree(t->be, t->ticket));
  PetscCall(PetscELLGFree(t->be, t->tmp));
  PetscCall(PetscFree3(t->crowptr, t->ccolidx, t->cval));
  PetscCall(PetscFree2(t->val, t->dinv));
  PetscCall(PetscFree4(t->perm, t->rowptr, t->colidx, t->lsrc));
  PetscCall(PetscFree3(t->nrowptr, t->ncolidx, t->nsrc));
  PetscCall(PetscFree(t->dsrc));
  PetscCall(PetscFree(t));
  *tri = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}
