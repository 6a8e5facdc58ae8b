/* Numeric incomplete factorizations in the backend's memory, and their solves (ellgilu.h) */
#include <ellgilu.h>
#include <ellgilukernels.h>
#include <ellgtrisolve.h>

struct _n_ELLGILU {
  PetscELLGBackend be;
  ELLGTriMethod    method;
  PetscBool        single; /* the triangles' values in single precision */
  PetscInt         n, nnz, g, sweeps, nlevels;
  PetscLogDouble   flops;                       /* of a factorization, at most */
  PetscInt        *levptr;                      /* cuda: the level order's first position of each level */
  PetscInt        *rowptr, *colidx;             /* host: the pattern (for the triangles of levels and jacobi) */
  int             *browptr, *bcolidx, *bdiag;   /* the pattern in the backend's memory */
  int             *brows;                       /* cuda: the rows in level order */
  PetscScalar     *bval;                        /* the factor's values, then the inverse diagonal (nnz + n) */
  float           *bsval;                       /* cusparse with single values: the factor's values rounded (nnz) */
  PetscInt         na;                          /* entries of the matrix factored */
  int             *bmap, *bmapt;                /* their places in the pattern (NULL: the pattern is the matrix's) */
  PetscScalar     *ba;                          /* their values, uploaded (with a map) */
  int             *bbad;                        /* cuda: the first pivot flagged */
  void            *cuspL, *cuspU;               /* cusparse: SpSV of L and U on the factor's own arrays */
  ELLGTri          L, U, Lt, Ut;                /* levels, jacobi: the triangles (Lt, Ut at the first transposed solve) */
};

/* the position of column j in row i of the pattern (columns sorted), or -1 */
static PetscErrorCode ELLGILUFind(ELLGILU f, PetscInt i, PetscInt j, PetscInt *pos)
{
  PetscInt loc;

  PetscFunctionBegin;
  PetscCall(PetscFindInt(j, f->rowptr[i + 1] - f->rowptr[i], f->colidx + f->rowptr[i], &loc));
  *pos = loc < 0 ? -1 : f->rowptr[i] + loc;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a copy of a host index array as int in the backend's memory */
static PetscErrorCode ELLGILUUploadIndices(PetscELLGBackend be, PetscInt n, const PetscInt src[], int **dst)
{
  int *h = NULL;

  PetscFunctionBegin;
  if (sizeof(PetscInt) != sizeof(int)) { /* 64-bit indices */
    PetscCall(PetscMalloc1(n, &h));
    for (PetscInt k = 0; k < n; k++) h[k] = (int)src[k];
  }
  PetscCall(PetscELLGMalloc(be, (size_t)n * sizeof(int), (void **)dst));
  PetscCall(PetscELLGMemcpy(be, *dst, h ? (const void *)h : (const void *)src, (size_t)n * sizeof(int), ELLG_MEMCPY_HTOD));
  PetscCall(PetscFree(h));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the rows by level (one more than the highest level of the rows their L part reads): the count, the levels'
   first positions, and for cuda the rows in that order in the backend's memory */
static PetscErrorCode ELLGILULevels(ELLGILU f, const PetscInt diag[])
{
  PetscInt *level, *rows, n = f->n;

  PetscFunctionBegin;
  PetscCall(PetscMalloc2(n, &level, n, &rows));
  f->nlevels = 0;
  for (PetscInt i = 0; i < n; i++) {
    level[i] = 0;
    for (PetscInt p = f->rowptr[i]; p < diag[i]; p++) level[i] = PetscMax(level[i], level[f->colidx[p]] + 1);
    f->nlevels = PetscMax(f->nlevels, level[i] + 1);
  }
  if (f->be == PETSCELLG_BACKEND_CUDA) { /* the host backend takes the rows in order */
    PetscCall(PetscCalloc1(f->nlevels + 1, &f->levptr));
    for (PetscInt i = 0; i < n; i++) f->levptr[level[i] + 1]++;
    for (PetscInt l = 0; l < f->nlevels; l++) f->levptr[l + 1] += f->levptr[l];
    for (PetscInt i = 0; i < n; i++) rows[f->levptr[level[i]]++] = i;
    for (PetscInt l = f->nlevels; l > 0; l--) f->levptr[l] = f->levptr[l - 1];
    f->levptr[0] = 0;
    PetscCall(ELLGILUUploadIndices(f->be, n, rows, &f->brows));
  }
  PetscCall(PetscFree2(level, rows));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* levels, jacobi: the triangles of the pattern, their values taken from the backend's array (L: the entries left
   of the diagonal, unit diagonal; U: the others, the inverse diagonals after the nnz values) */
static PetscErrorCode ELLGILUTriangles(ELLGILU f, const PetscInt diag[])
{
  PetscInt *lrow, *lcol, *lsrc, *urow, *ucol, *usrc, *dsrc, n = f->n, nl = 0, nu = 0;

  PetscFunctionBegin;
  PetscCall(PetscMalloc4(n + 1, &lrow, n + 1, &urow, f->nnz, &lcol, f->nnz, &ucol));
  PetscCall(PetscMalloc3(f->nnz, &lsrc, f->nnz, &usrc, n, &dsrc));
  lrow[0] = urow[0] = 0;
  for (PetscInt i = 0; i < n; i++) {
    for (PetscInt p = f->rowptr[i]; p < f->rowptr[i + 1]; p++) {
      if (p < diag[i]) {
        lcol[nl]   = f->colidx[p];
        lsrc[nl++] = p;
      } else if (p > diag[i]) {
        ucol[nu]   = f->colidx[p];
        usrc[nu++] = p;
      }
    }
    lrow[i + 1] = nl;
    urow[i + 1] = nu;
    dsrc[i]     = f->nnz + i;
  }
  PetscCall(ELLGTriCreate(f->be, f->method, n, f->g, PETSC_TRUE, lrow, lcol, lsrc, NULL, 1.0, PETSC_FALSE, f->single, &f->L));
  PetscCall(ELLGTriCreate(f->be, f->method, n, f->g, PETSC_FALSE, urow, ucol, usrc, dsrc, 1.0, PETSC_FALSE, f->single, &f->U));
  PetscCall(ELLGTriSetJacobiSweeps(f->L, f->sweeps));
  PetscCall(ELLGTriSetJacobiSweeps(f->U, f->sweeps));
  PetscCall(PetscFree4(lrow, urow, lcol, ucol));
  PetscCall(PetscFree3(lsrc, usrc, dsrc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  ELLGILUCreate - the factorization of a pattern (ellgilu.h) in the backend's memory

  Input Parameters:
+ be, method - where, and how the triangles are solved (cusparse: cuSPARSE's SpSV on the factor's own arrays, or on
               their values rounded to single precision; the host backend takes levels for it)
. single - the triangles' values in single precision (the factorization itself in double)
. g, sweeps - rows per group of the levels method, Jacobi sweeps of the jacobi method (ELLGTriCreate())
. n - order
- rowptr, colidx - the pattern: columns sorted in each row, every row with its diagonal; allocated together with
                   PetscMalloc2(), they become the factorization's (freed by ELLGILUDestroy())
*/
PetscErrorCode ELLGILUCreate(PetscELLGBackend be, ELLGTriMethod method, PetscBool single, PetscInt g, PetscInt sweeps, PetscInt n, PetscInt rowptr[], PetscInt colidx[], ELLGILU *ilu)
{
  ELLGILU   f;
  PetscInt *diag;

  PetscFunctionBegin;
  PetscCall(PetscNew(&f));
  f->be     = be;
  f->method = be == PETSCELLG_BACKEND_HOST && method == ELLG_TRI_CUSPARSE ? ELLG_TRI_LEVELS : method;
  f->single = single;
  f->g      = g;
  f->sweeps = sweeps;
  f->n      = n;
  f->nnz    = rowptr[n];
  f->rowptr = rowptr;
  f->colidx = colidx;
  PetscCall(PetscMalloc1(n, &diag));
  for (PetscInt i = 0; i < n; i++) {
    for (PetscInt p = rowptr[i]; p < rowptr[i + 1]; p++) PetscCheck(p == rowptr[i] || colidx[p] > colidx[p - 1], PETSC_COMM_SELF, PETSC_ERR_PLIB, "Row %" PetscInt_FMT " of the factor's pattern is not sorted", i);
    PetscCall(ELLGILUFind(f, i, i, &diag[i]));
    PetscCheck(diag[i] >= 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Row %" PetscInt_FMT " of the factor's pattern has no diagonal", i);
    for (PetscInt p = rowptr[i]; p < diag[i]; p++) f->flops += 1 + 2 * (rowptr[colidx[p] + 1] - diag[colidx[p]] - 1);
  }
  PetscCall(ELLGILUUploadIndices(be, n + 1, rowptr, &f->browptr));
  PetscCall(ELLGILUUploadIndices(be, f->nnz, colidx, &f->bcolidx));
  PetscCall(ELLGILUUploadIndices(be, n, diag, &f->bdiag));
  PetscCall(PetscELLGMalloc(be, (size_t)(f->nnz + n) * sizeof(PetscScalar), (void **)&f->bval));
  if (be == PETSCELLG_BACKEND_CUDA) PetscCall(PetscELLGMalloc(be, sizeof(int), (void **)&f->bbad));
  PetscCall(ELLGILULevels(f, diag));
  if (f->method != ELLG_TRI_CUSPARSE) PetscCall(ELLGILUTriangles(f, diag));
  PetscCall(PetscFree(diag));
  *ilu = f;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  ELLGILUSetMap - where the entries of the matrix factored go in the pattern

  Input Parameters:
+ f - the factorization
. m, ai, aj - the matrix's CSR pattern (m = n rows)
. rinv, cinv - the factor's row and column of the matrix's rows and columns (NULL: the same)
. symmetric - ICC: the entries on and right of the factor's diagonal alone, each also put at its mirror
- copied - the pattern was copied from this matrix (ILU(0) in the natural ordering): no map, nothing compared

  Output Parameter:
. complete - whether every such entry has its place (else the factorization cannot run: the pattern is not the
             matrix's)
*/
PetscErrorCode ELLGILUSetMap(ELLGILU f, PetscInt m, const PetscInt ai[], const PetscInt aj[], const PetscInt rinv[], const PetscInt cinv[], PetscBool symmetric, PetscBool copied, PetscBool *complete)
{
  PetscInt *map, *mapt = NULL, na = ai[m];
  PetscBool identity = (PetscBool)(!symmetric && !rinv && !cinv && m == f->n && na == f->nnz);

  PetscFunctionBegin;
  PetscCall(PetscELLGFree(f->be, f->bmap));
  PetscCall(PetscELLGFree(f->be, f->bmapt));
  PetscCall(PetscELLGFree(f->be, f->ba));
  f->bmap = f->bmapt = NULL;
  f->ba              = NULL;
  f->na              = na;
  *complete          = PETSC_TRUE;
  if (identity && !copied) { /* the pattern may be the matrix's (ILU(0) in the natural ordering): then no map */
    PetscCall(PetscArraycmp(ai, f->rowptr, m + 1, &identity));
    if (identity) PetscCall(PetscArraycmp(aj, f->colidx, na, &identity));
  }
  if (identity) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscMalloc1(na, &map));
  if (symmetric) PetscCall(PetscMalloc1(na, &mapt));
  for (PetscInt r = 0; r < m; r++) {
    const PetscInt i = rinv ? rinv[r] : r;

    for (PetscInt k = ai[r]; k < ai[r + 1]; k++) {
      const PetscInt j = cinv ? cinv[aj[k]] : aj[k];

      if (symmetric) {
        map[k] = mapt[k] = -1;
        if (j < i) continue;
        PetscCall(ELLGILUFind(f, i, j, &map[k]));
        if (j > i) PetscCall(ELLGILUFind(f, j, i, &mapt[k]));
      } else PetscCall(ELLGILUFind(f, i, j, &map[k]));
      if (map[k] < 0 || (symmetric && j > i && mapt[k] < 0)) *complete = PETSC_FALSE;
      if (map[k] != k) identity = PETSC_FALSE;
    }
  }
  if (*complete && !identity) {
    PetscCall(ELLGILUUploadIndices(f->be, na, map, &f->bmap));
    if (mapt) PetscCall(ELLGILUUploadIndices(f->be, na, mapt, &f->bmapt));
    PetscCall(PetscELLGMalloc(f->be, (size_t)na * sizeof(PetscScalar), (void **)&f->ba));
  }
  PetscCall(PetscFree(map));
  PetscCall(PetscFree(mapt));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  ELLGILUFactor - the numeric factorization of the matrix whose values (host, in the order of the pattern given
  to ELLGILUSetMap()) are a

  Input Parameters:
+ f - the factorization
. a - the matrix's values
. pd - whether the factorization asks for a positive definite shift where a pivot needs one
- zeropivot - PETSc's zero pivot tolerance

  Output Parameter:
. bad - the first row whose pivot PETSc's checks might act on (shift or zero pivot), n if none: the values are
        then those of an unshifted factorization, which the triangles take
*/
PetscErrorCode ELLGILUFactor(ELLGILU f, const PetscScalar a[], PetscBool pd, PetscReal zeropivot, PetscInt *bad)
{
  int first = (int)f->n;

  PetscFunctionBegin;
  if (f->bmap) {
    PetscCall(PetscELLGMemcpy(f->be, f->ba, a, (size_t)f->na * sizeof(PetscScalar), ELLG_MEMCPY_HTOD));
    PetscELLGBackendCall(f->be, ELLGHostILUFill, ELLGCudaILUFill, ((int)f->na, f->bmap, f->bmapt, f->ba, (int)f->nnz, f->bval));
  } else PetscCall(PetscELLGMemcpy(f->be, f->bval, a, (size_t)f->nnz * sizeof(PetscScalar), ELLG_MEMCPY_HTOD));
  if (f->be == PETSCELLG_BACKEND_HOST) ELLGHostILURows((int)f->n, (int)f->nnz, f->browptr, f->bcolidx, f->bdiag, f->bval, pd ? 1 : 0, (double)zeropivot, &first);
#if defined(ELLG_HAVE_CUDA)
  else {
    PetscCall(PetscELLGMemcpy(f->be, f->bbad, &first, sizeof(int), ELLG_MEMCPY_HTOD));
    PetscCall(PetscELLGLogGpuTimeBegin(f->be));
    for (PetscInt l = 0; l < f->nlevels; l++) PetscCallELLGCuda(ELLGCudaILURows((int)(f->levptr[l + 1] - f->levptr[l]), f->brows + f->levptr[l], (int)f->nnz, f->browptr, f->bcolidx, f->bdiag, f->bval, pd ? 1 : 0, (double)zeropivot, f->bbad));
    PetscCall(PetscELLGLogGpuTimeEnd(f->be));
    PetscCall(PetscELLGMemcpy(f->be, &first, f->bbad, sizeof(int), ELLG_MEMCPY_DTOH));
  }
#endif
  *bad = first;
  PetscCall(PetscELLGLogFlops(f->be, f->flops + f->n));
  if (first < f->n) PetscFunctionReturn(PETSC_SUCCESS);
  if (f->method != ELLG_TRI_CUSPARSE) {
    ELLGTri tris[4] = {f->L, f->U, f->Lt, f->Ut};

    for (int k = 0; k < 4; k++)
      if (tris[k]) PetscCall(ELLGTriSetValuesBackend(tris[k], f->bval));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
#if defined(ELLG_HAVE_CUDA)
  if (f->single) { /* SpSV solves a single-precision factor on single-precision vectors */
    if (!f->bsval) PetscCall(PetscELLGMalloc(f->be, (size_t)f->nnz * sizeof(float), (void **)&f->bsval));
    PetscCall(PetscELLGToSingle(f->be, f->nnz, f->bval, f->bsval));
  }
  if (f->cuspL) {
    PetscCallELLGCuda(ELLGCusparseTriSetValues(f->cuspL, NULL));
    PetscCallELLGCuda(ELLGCusparseTriSetValues(f->cuspU, NULL));
  } else if (f->n) { /* the analyses need the values: at the first factorization */
    void *val = f->single ? (void *)f->bsval : (void *)f->bval;

    PetscCallELLGCuda(ELLGCusparseTriCreateOnDevice((int)f->n, (int)f->nnz, f->browptr, f->bcolidx, val, f->single, 0, 1, &f->cuspL));
    PetscCallELLGCuda(ELLGCusparseTriCreateOnDevice((int)f->n, (int)f->nnz, f->browptr, f->bcolidx, val, f->single, 1, 0, &f->cuspU));
  }
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ELLGILUSolve - x = T^{-1} b with the first (step 0) or second triangle of the solve with the factor, L then U, or
   with its transpose, U^T then L^T; backend arrays, x and b distinct */
PetscErrorCode ELLGILUSolve(ELLGILU f, PetscBool trans, PetscInt step, const PetscScalar b[], PetscScalar x[])
{
  const PetscBool lower = (PetscBool)((step == 0) != trans);

  PetscFunctionBegin;
  if (f->method == ELLG_TRI_CUSPARSE) {
#if defined(ELLG_HAVE_CUDA)
    if (f->n) PetscCallELLGCuda(ELLGCusparseTriSolve(lower ? f->cuspL : f->cuspU, trans ? 1 : 0, b, x));
#endif
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (trans && !f->Ut) {
    PetscCall(ELLGTriCreateTranspose(f->U, &f->Ut));
    PetscCall(ELLGTriCreateTranspose(f->L, &f->Lt));
    PetscCall(ELLGTriSetValuesBackend(f->Ut, f->bval));
    PetscCall(ELLGTriSetValuesBackend(f->Lt, f->bval));
  }
  PetscCall(ELLGTriSolve(trans ? (lower ? f->Lt : f->Ut) : (lower ? f->L : f->U), b, x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ELLGILUScaleRoot - y = D^{-1/2} x (inverse: D^{1/2} x), D the diagonal of U (of an ICC factor, A = L D L^T);
   backend arrays */
PetscErrorCode ELLGILUScaleRoot(ELLGILU f, PetscBool inverse, const PetscScalar x[], PetscScalar y[])
{
  PetscFunctionBegin;
  PetscELLGBackendCall(f->be, ELLGHostILUScaleRoot, ELLGCudaILUScaleRoot, ((int)f->n, f->bval + f->nnz, inverse ? 1 : 0, x, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ELLGILUGetInfo - how the triangles are solved, the entries of the pattern, the levels of the factorization and the
   bytes held in the backend's memory */
PetscErrorCode ELLGILUGetInfo(ELLGILU f, ELLGTriMethod *method, PetscInt *nnz, PetscInt *nlevels, size_t *bytes)
{
  const size_t n = (size_t)f->n, nz = (size_t)f->nnz, na = (size_t)f->na;
  ELLGTriMethod m;
  PetscInt      tnz, tlev;
  size_t        tb;

  PetscFunctionBegin;
  *method  = f->method;
  *nnz     = f->nnz;
  *nlevels = f->nlevels;
  *bytes   = (2 * n + 1 + nz + (f->brows ? n : 0) + (f->bmap ? na : 0) + (f->bmapt ? na : 0)) * sizeof(int) + (nz + n + (f->ba ? na : 0)) * sizeof(PetscScalar);
#if defined(ELLG_HAVE_CUDA)
  if (f->cuspL) *bytes += ELLGCusparseTriBytes(f->cuspL) + ELLGCusparseTriBytes(f->cuspU);
  if (f->bsval) *bytes += (size_t)nz * sizeof(float);
#endif
  {
    ELLGTri tris[4] = {f->L, f->U, f->Lt, f->Ut};

    for (int k = 0; k < 4; k++)
      if (tris[k]) {
        PetscCall(ELLGTriGetInfo(tris[k], &m, &tnz, &tlev, &tb));
        *bytes += tb;
      }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ELLGILUDestroy(ELLGILU *ilu)
{
  ELLGILU f = *ilu;

  PetscFunctionBegin;
  if (!f) PetscFunctionReturn(PETSC_SUCCESS);
#if defined(ELLG_HAVE_CUDA)
  if (f->cuspL) PetscCallELLGCuda(ELLGCusparseTriDestroy(f->cuspL));
  if (f->cuspU) PetscCallELLGCuda(ELLGCusparseTriDestroy(f->cuspU));
#endif
  PetscCall(ELLGTriDestroy(&f->L));
  PetscCall(ELLGTriDestroy(&f->U));
  PetscCall(ELLGTriDestroy(&f->Lt));
  PetscCall(ELLGTriDestroy(&f->Ut));
  PetscCall(PetscELLGFree(f->be, f->browptr));
  PetscCall(PetscELLGFree(f->be, f->bcolidx));
  PetscCall(PetscELLGFree(f->be, f->bdiag));
  PetscCall(PetscELLGFree(f->be, f->brows));
  PetscCall(PetscELLGFree(f->be, f->bval));
  PetscCall(PetscELLGFree(f->be, f->bsval));
  PetscCall(PetscELLGFree(f->be, f->bmap));
  PetscCall(PetscELLGFree(f->be, f->bmapt));
  PetscCall(PetscELLGFree(f->be, f->ba));
  PetscCall(PetscELLGFree(f->be, f->bbad));
  PetscCall(PetscFree(f->levptr));
  PetscCall(PetscFree2(f->rowptr, f->colidx));
  PetscCall(PetscFree(f));
  *ilu = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}
