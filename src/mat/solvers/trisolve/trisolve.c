/* Triangles of factors: level order, values from the factor, solves on the backend (ellgtri.h) */
#include <ellgtri.h>
#include <ellgtrisolve.h>

const char *const ELLGTriMethods[] = {"levels", "cusparse", "jacobi", "ELLGTriMethod", "ELLG_TRI_", NULL};

struct _n_ELLGTri {
  PetscELLGBackend be;
  ELLGTriMethod    method;
  PetscInt         n, nnz, nlevels, sweeps;
  PetscInt         g, ngroups, ndeps; /* rows per group, groups, entries of the groups' dependency lists */
  PetscBool        lower, divide;
  PetscBool        single; /* the values in single precision (bsval): the factor of a matrix of single-precision values */
  PetscScalar      sign;
  PetscInt *dsrc; /* host: the index of each row's inverse diagonal in the factor's array (natural order), or NULL */
  /* level order (host): row of each position, CSR over positions, value sources, values; the groups'
     first positions and the groups each reads (for the levels solve of the cuda backend with g > 1) */
  int         *perm, *rowptr, *colidx, *gptr, *dptr, *dgrp;
  PetscInt    *lsrc;
  PetscScalar *val, *dinv;
  /* level order in the backend's memory */
  int         *bperm, *browptr, *bcolidx, *bgptr, *bdptr, *bdgrp;
  PetscScalar *bval, *bdinv, *tmp;
  int         *bsrc; /* with values in the backend's memory: the sources of bval, then of bdinv */
  float       *bsval; /* the values in single precision, in place of bval */
  unsigned    *flags, epoch;
  /* cuSPARSE: the triangle in natural order with its diagonal (host), the sources of its values off the diagonal,
     and its SpSV */
  int         *crowptr, *ccolidx;
  PetscInt    *csrc;
  PetscScalar *cval;
  void        *cusp;
};

/* the groups in level order (a group's level is one more than the highest of the other groups its rows read),
   the rows of each in the order of the solve; for the levels solve on the device with g > 1, the groups' first
   positions and the other groups each reads; from the triangle in natural order (rowptr, colidx, src) */
static PetscErrorCode ELLGTriLevelOrder(ELLGTri t, const PetscInt rowptr[], const PetscInt colidx[], const PetscInt src[])
{
  PetscInt       *level, *count, *order, *mark, n = t->n, g = t->g, ng = t->ngroups, pos = 0, nd = 0;
  const PetscBool deps = (PetscBool)(g > 1 && t->be == PETSCELLG_BACKEND_CUDA && t->method == ELLG_TRI_LEVELS);

  PetscFunctionBegin;
  PetscCall(PetscCalloc2(ng, &level, ng, &mark));
  t->nlevels = ng ? 1 : 0;
  t->ndeps   = 0;
  for (PetscInt r = 0; r < ng; r++) {
    const PetscInt q = t->lower ? r : ng - 1 - r;

    for (PetscInt i = q * g; i < PetscMin(n, q * g + g); i++)
      for (PetscInt k = rowptr[i]; k < rowptr[i + 1]; k++) {
        const PetscInt d = colidx[k] / g;

        if (d == q || mark[d] == q + 1) continue;
        mark[d] = q + 1;
        t->ndeps++;
        level[q] = PetscMax(level[q], level[d] + 1);
      }
    t->nlevels = PetscMax(t->nlevels, level[q] + 1);
  }
  PetscCall(PetscCalloc1(t->nlevels + 1, &count));
  PetscCall(PetscMalloc1(ng, &order));
  for (PetscInt q = 0; q < ng; q++) count[level[q] + 1]++;
  for (PetscInt l = 0; l < t->nlevels; l++) count[l + 1] += count[l];
  for (PetscInt q = 0; q < ng; q++) order[count[level[q]]++] = q;
  PetscCall(PetscMalloc4(n, &t->perm, n + 1, &t->rowptr, t->nnz, &t->colidx, t->nnz, &t->lsrc));
  if (deps) PetscCall(PetscMalloc3(ng + 1, &t->gptr, ng + 1, &t->dptr, t->ndeps, &t->dgrp));
  for (PetscInt c = 0; c < ng; c++) {
    const PetscInt q = order[c], last = PetscMin(n, q * g + g) - 1;

    if (deps) {
      t->gptr[c] = (int)pos;
      t->dptr[c] = (int)nd;
    }
    for (PetscInt r = q * g; r <= last; r++) {
      const PetscInt i = t->lower ? r : q * g + last - r;

      t->perm[pos++] = (int)i;
      if (deps)
        for (PetscInt k = rowptr[i]; k < rowptr[i + 1]; k++) {
          const PetscInt d = colidx[k] / g;

          if (d == q || mark[d] == -(q + 1)) continue;
          mark[d]     = -(q + 1);
          t->dgrp[nd++] = (int)d;
        }
    }
  }
  if (deps) {
    t->gptr[ng] = (int)n;
    t->dptr[ng] = (int)nd;
  }
  t->rowptr[0] = 0;
  for (PetscInt p = 0; p < n; p++) {
    const PetscInt i = t->perm[p];
    PetscInt       k = t->rowptr[p];

    for (PetscInt q = rowptr[i]; q < rowptr[i + 1]; q++, k++) {
      t->colidx[k] = (int)colidx[q];
      t->lsrc[k]   = src[q];
    }
    t->rowptr[p + 1] = (int)k;
  }
  PetscCall(PetscFree(order));
  PetscCall(PetscFree(count));
  PetscCall(PetscFree2(level, mark));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the structure in the backend's memory (values come with ELLGTriSetValues()); cuSPARSE: the triangle in natural
   order (rowptr, colidx, src) with its diagonal */
static PetscErrorCode ELLGTriUpload(ELLGTri t, const PetscInt rowptr[], const PetscInt colidx[], const PetscInt src[])
{
  const size_t n = (size_t)t->n, nnz = (size_t)t->nnz;

  PetscFunctionBegin;
  if (t->method == ELLG_TRI_CUSPARSE) { /* the diagonal stored, 1 for a unit one */
    PetscCall(PetscMalloc3(n + 1, &t->crowptr, nnz + n, &t->ccolidx, nnz + n, &t->cval));
    PetscCall(PetscMalloc1(nnz, &t->csrc));
    PetscCall(PetscArraycpy(t->csrc, src, nnz));
    t->crowptr[0] = 0;
    for (PetscInt i = 0, c = 0; i < t->n; i++) {
      if (!t->lower) t->ccolidx[c++] = (int)i;
      for (PetscInt k = rowptr[i]; k < rowptr[i + 1]; k++) t->ccolidx[c++] = (int)colidx[k];
      if (t->lower) t->ccolidx[c++] = (int)i;
      t->crowptr[i + 1] = (int)c;
    }
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscMalloc2(nnz, &t->val, t->dsrc ? n : 0, &t->dinv));
  PetscCall(PetscELLGMalloc(t->be, n * sizeof(int), (void **)&t->bperm));
  PetscCall(PetscELLGMalloc(t->be, (n + 1) * sizeof(int), (void **)&t->browptr));
  PetscCall(PetscELLGMalloc(t->be, nnz * sizeof(int), (void **)&t->bcolidx));
  if (t->single) PetscCall(PetscELLGMalloc(t->be, nnz * sizeof(float), (void **)&t->bsval));
  else PetscCall(PetscELLGMalloc(t->be, nnz * sizeof(PetscScalar), (void **)&t->bval));
  if (t->dsrc) PetscCall(PetscELLGMalloc(t->be, n * sizeof(PetscScalar), (void **)&t->bdinv));
  PetscCall(PetscELLGMemcpy(t->be, t->bperm, t->perm, n * sizeof(int), ELLG_MEMCPY_HTOD));
  PetscCall(PetscELLGMemcpy(t->be, t->browptr, t->rowptr, (n + 1) * sizeof(int), ELLG_MEMCPY_HTOD));
  PetscCall(PetscELLGMemcpy(t->be, t->bcolidx, t->colidx, nnz * sizeof(int), ELLG_MEMCPY_HTOD));
  if (t->method == ELLG_TRI_JACOBI) PetscCall(PetscELLGMalloc(t->be, n * sizeof(PetscScalar), (void **)&t->tmp));
  else if (t->be == PETSCELLG_BACKEND_CUDA) {
    const size_t ng = (size_t)t->ngroups;

    if (t->gptr) {
      PetscCall(PetscELLGMalloc(t->be, (ng + 1) * sizeof(int), (void **)&t->bgptr));
      PetscCall(PetscELLGMalloc(t->be, (ng + 1) * sizeof(int), (void **)&t->bdptr));
      PetscCall(PetscELLGMalloc(t->be, (size_t)t->ndeps * sizeof(int), (void **)&t->bdgrp));
      PetscCall(PetscELLGMemcpy(t->be, t->bgptr, t->gptr, (ng + 1) * sizeof(int), ELLG_MEMCPY_HTOD));
      PetscCall(PetscELLGMemcpy(t->be, t->bdptr, t->dptr, (ng + 1) * sizeof(int), ELLG_MEMCPY_HTOD));
      PetscCall(PetscELLGMemcpy(t->be, t->bdgrp, t->dgrp, (size_t)t->ndeps * sizeof(int), ELLG_MEMCPY_HTOD));
    }
    PetscCall(PetscELLGMalloc(t->be, ng * sizeof(unsigned), (void **)&t->flags));
    PetscCall(PetscELLGMemset(t->be, t->flags, 0, ng * sizeof(unsigned)));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  ELLGTriCreate - a triangle of a factor from its structure in natural order (ellgtri.h); the arrays are not kept (the
  triangle keeps its level order)

  Input Parameters:
+ be, method - where and how it is solved (cusparse needs the cuda backend: the host backend takes levels for it;
                cuSPARSE solves single values on single-precision copies of the vectors)
. n - order
. g - rows per group for the levels method on the device (rows g k .. g k + g - 1, a block of the matrix, are solved
      one after the other by one thread, which waits for the other groups they read): 1 to ELLG_TRI_GROUP_MAX
. lower - whether rows read lower rows (else higher ones)
. rowptr, colidx, src - CSR of the entries off the diagonal, src the index of each value in the factor's array
. dsrc - the index of each row's inverse diagonal in the factor's array, or NULL for a unit diagonal
. sign, divide - the values are sign a[src], divided by a[dsrc] of the row when divide
- single - the values in single precision, refusing those beyond its range (levels and jacobi read them in double, the
           inverse diagonals double; cusparse stores the diagonal in single precision too)
*/
PetscErrorCode ELLGTriCreate(PetscELLGBackend be, ELLGTriMethod method, PetscInt n, PetscInt g, PetscBool lower, const PetscInt rowptr[], const PetscInt colidx[], const PetscInt src[], const PetscInt dsrc[], PetscScalar sign, PetscBool divide, PetscBool single, ELLGTri *tri)
{
  ELLGTri  t;
  PetscInt nnz = rowptr[n];

  PetscFunctionBegin;
  PetscCheck(!divide || dsrc, PETSC_COMM_SELF, PETSC_ERR_ARG_INCOMP, "A unit diagonal cannot divide the rows");
  PetscCheck(g >= 1 && g <= ELLG_TRI_GROUP_MAX, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Rows per group %" PetscInt_FMT " must be 1 to %d", g, ELLG_TRI_GROUP_MAX);
  PetscCall(PetscNew(&t));
  t->be     = be;
  t->method = be == PETSCELLG_BACKEND_HOST && method == ELLG_TRI_CUSPARSE ? ELLG_TRI_LEVELS : method;
  t->single = single;
  t->sweeps = 2;
  t->n      = n;
  t->g      = g;
  t->ngroups = (n + g - 1) / g;
  t->nnz    = nnz;
  t->lower  = lower;
  t->sign   = sign;
  t->divide = divide;
  if (dsrc) {
    PetscCall(PetscMalloc1(n, &t->dsrc));
    PetscCall(PetscArraycpy(t->dsrc, dsrc, n));
  }
  PetscCall(ELLGTriLevelOrder(t, rowptr, colidx, src));
  PetscCall(ELLGTriUpload(t, rowptr, colidx, src));
  PetscCall(PetscFree3(t->gptr, t->dptr, t->dgrp)); /* in the backend's memory now, if used */
  *tri = t;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ELLGTriCreateTranspose - the triangle T^T (rows read the other way, each keeping its diagonal), for the
   transposed solves; the values come with ELLGTriSetValues() */
PetscErrorCode ELLGTriCreateTranspose(ELLGTri t, ELLGTri *tt)
{
  PetscInt *nrowptr, *ncolidx, *nsrc, *rowptr, *colidx, *src;

  PetscFunctionBegin;
  PetscCheck(!t->divide, PETSC_COMM_SELF, PETSC_ERR_SUP, "No transpose of a triangle whose rows are divided by their diagonal");
  /* the natural order from the level order: row perm[p] is at position p */
  PetscCall(PetscMalloc3(t->n + 1, &nrowptr, t->nnz, &ncolidx, t->nnz, &nsrc));
  nrowptr[0] = 0;
  for (PetscInt p = 0; p < t->n; p++) nrowptr[t->perm[p] + 1] = t->rowptr[p + 1] - t->rowptr[p];
  for (PetscInt i = 0; i < t->n; i++) nrowptr[i + 1] += nrowptr[i];
  for (PetscInt p = 0; p < t->n; p++)
    for (PetscInt k = t->rowptr[p], q = nrowptr[t->perm[p]]; k < t->rowptr[p + 1]; k++, q++) {
      ncolidx[q] = t->colidx[k];
      nsrc[q]    = t->lsrc[k];
    }
  PetscCall(ELLGCsrTranspose(t->n, t->n, nrowptr, ncolidx, nsrc, &rowptr, &colidx, &src));
  PetscCall(PetscFree3(nrowptr, ncolidx, nsrc));
  PetscCall(ELLGTriCreate(t->be, t->method, t->n, t->g, (PetscBool)!t->lower, rowptr, colidx, src, t->dsrc, t->sign, PETSC_FALSE, t->single, tt));
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
    for (PetscInt i = 0, c = 0, k = 0; i < t->n; i++) {
      const PetscScalar scale = t->divide ? t->sign / a[t->dsrc[i]] : t->sign;
      const PetscScalar d     = t->dsrc ? 1.0 / a[t->dsrc[i]] : 1.0;
      const PetscInt    end   = k + t->crowptr[i + 1] - t->crowptr[i] - 1; /* the row's entries off the diagonal */

      if (!t->lower) t->cval[c++] = d;
      for (; k < end; k++) t->cval[c++] = scale * a[t->csrc[k]];
      if (t->lower) t->cval[c++] = d;
    }
    {
      const PetscInt nc  = t->crowptr[t->n];
      float         *s   = NULL;
      const void    *val = t->cval;

      if (t->single) { /* rounded on the host, where the values are */
        PetscErrorCode ierr;

        PetscCall(PetscMalloc1(nc, &s));
        ierr = PetscELLGToSingle(PETSCELLG_BACKEND_HOST, nc, t->cval, s);
        if (ierr) PetscCall(PetscFree(s));
        PetscCall(ierr);
        val = s;
      }
      if (t->cusp) PetscCallELLGCuda(ELLGCusparseTriSetValues(t->cusp, val));
      else {
        PetscCallELLGCuda(ELLGCusparseTriCreate((int)t->n, t->crowptr, t->ccolidx, val, t->single, t->lower ? 0 : 1, 0, &t->cusp));
        PetscCall(PetscELLGLogCopy(t->be, sizeof(int) * (size_t)(t->n + 1 + nc), ELLG_MEMCPY_HTOD));
      }
      PetscCall(PetscFree(s));
      PetscCall(PetscELLGLogCopy(t->be, (t->single ? sizeof(float) : sizeof(PetscScalar)) * (size_t)nc, ELLG_MEMCPY_HTOD));
    }
#endif
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  for (PetscInt p = 0; p < t->n; p++) {
    const PetscInt    i     = t->perm[p];
    const PetscScalar scale = t->divide ? t->sign / a[t->dsrc[i]] : t->sign;

    for (PetscInt k = t->rowptr[p]; k < t->rowptr[p + 1]; k++) t->val[k] = scale * a[t->lsrc[k]];
    if (t->dsrc) t->dinv[p] = a[t->dsrc[i]];
  }
  if (t->single) { /* rounded on the host, where the values are */
    float         *s;
    PetscErrorCode ierr;

    PetscCall(PetscMalloc1(nnz, &s));
    ierr = PetscELLGToSingle(PETSCELLG_BACKEND_HOST, (PetscInt)nnz, t->val, s);
    if (!ierr) ierr = PetscELLGMemcpy(t->be, t->bsval, s, nnz * sizeof(float), ELLG_MEMCPY_HTOD);
    PetscCall(PetscFree(s));
    PetscCall(ierr);
  } else PetscCall(PetscELLGMemcpy(t->be, t->bval, t->val, nnz * sizeof(PetscScalar), ELLG_MEMCPY_HTOD));
  if (t->dsrc) PetscCall(PetscELLGMemcpy(t->be, t->bdinv, t->dinv, n * sizeof(PetscScalar), ELLG_MEMCPY_HTOD));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ELLGTriSetValuesBackend - the values of the triangle from the factor's value array a in the backend's memory
   (levels and jacobi, values a[src] and inverse diagonals a[dsrc]: a sign of 1, rows not divided), gathered there */
PetscErrorCode ELLGTriSetValuesBackend(ELLGTri t, const PetscScalar a[])
{
  const PetscInt nd = t->dsrc ? t->n : 0;

  PetscFunctionBegin;
  PetscCheck(t->method != ELLG_TRI_CUSPARSE && t->sign == 1.0 && !t->divide, PETSC_COMM_SELF, PETSC_ERR_SUP, "Values in the backend's memory need the levels or jacobi method, a sign of 1 and rows not divided");
  if (!t->bsrc) {
    int *h;

    PetscCall(PetscMalloc1(t->nnz + nd, &h));
    for (PetscInt k = 0; k < t->nnz; k++) h[k] = (int)t->lsrc[k];
    for (PetscInt p = 0; p < nd; p++) h[t->nnz + p] = (int)t->dsrc[t->perm[p]];
    PetscCall(PetscELLGMalloc(t->be, (size_t)(t->nnz + nd) * sizeof(int), (void **)&t->bsrc));
    PetscCall(PetscELLGMemcpy(t->be, t->bsrc, h, (size_t)(t->nnz + nd) * sizeof(int), ELLG_MEMCPY_HTOD));
    PetscCall(PetscFree(h));
  }
  if (t->single) { /* gathered in double, then rounded */
    PetscScalar   *v;
    PetscErrorCode ierr;

    PetscCall(PetscELLGMalloc(t->be, (size_t)t->nnz * sizeof(PetscScalar), (void **)&v));
    PetscELLGBackendCall(t->be, ELLGHostGather, ELLGCudaGather, (NULL, (int)t->nnz, t->bsrc, a, v));
    ierr = PetscELLGToSingle(t->be, t->nnz, v, t->bsval);
    PetscCall(PetscELLGFree(t->be, v));
    PetscCall(ierr);
  } else PetscELLGBackendCall(t->be, ELLGHostGather, ELLGCudaGather, (NULL, (int)t->nnz, t->bsrc, a, t->bval));
  if (nd) PetscELLGBackendCall(t->be, ELLGHostGather, ELLGCudaGather, (NULL, (int)nd, t->bsrc + t->nnz, a, t->bdinv));
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

      PetscELLGBackendCall(t->be, ELLGHostSweepRows, ELLGCudaSweepRows, (NULL, (int)t->n, t->bperm, t->browptr, t->bcolidx, t->bval, t->bsval, t->bdinv, 1.0, b, prev, xs));
    }
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (t->be == PETSCELLG_BACKEND_HOST) {
    ELLGHostTriSolveLevels((int)t->n, t->bperm, t->browptr, t->bcolidx, t->bval, t->bsval, t->bdinv, b, x);
    PetscFunctionReturn(PETSC_SUCCESS);
  }
#if defined(ELLG_HAVE_CUDA)
  if (t->method == ELLG_TRI_CUSPARSE) {
    PetscCallELLGCuda(ELLGCusparseTriSolve(t->cusp, 0, b, x));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (++t->epoch == 0) { /* the flags went round: clear them */
    PetscCall(PetscELLGMemset(t->be, t->flags, 0, (size_t)t->ngroups * sizeof(unsigned)));
    t->epoch = 1;
  }
  PetscCallELLGCuda(ELLGCudaTriSolveLevels(NULL, (int)t->ngroups, (int)t->g, (int)((t->ngroups + t->nlevels - 1) / PetscMax(t->nlevels, 1)), (int)t->nnz, t->bgptr, t->bdptr, t->bdgrp, t->bperm, t->browptr, t->bcolidx, t->bval, t->bsval, t->bdinv, t->flags, t->epoch, b, x));
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
  } else *bytes = (2 * n + 1 + nz) * sizeof(int) + nz * (t->single ? sizeof(float) : sizeof(PetscScalar)) + (t->dsrc ? n : 0) * sizeof(PetscScalar) + (t->flags ? (size_t)t->ngroups * sizeof(unsigned) : 0) + (t->tmp ? n * sizeof(PetscScalar) : 0) + (t->bgptr ? (2 * (size_t)t->ngroups + 2 + (size_t)t->ndeps) * sizeof(int) : 0) + (t->bsrc ? (nz + (t->dsrc ? n : 0)) * sizeof(int) : 0);
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
  PetscCall(PetscELLGFree(t->be, t->bsval));
  PetscCall(PetscELLGFree(t->be, t->bdinv));
  PetscCall(PetscELLGFree(t->be, t->flags));
  PetscCall(PetscELLGFree(t->be, t->bgptr));
  PetscCall(PetscELLGFree(t->be, t->bdptr));
  PetscCall(PetscELLGFree(t->be, t->bdgrp));
  PetscCall(PetscELLGFree(t->be, t->tmp));
  PetscCall(PetscELLGFree(t->be, t->bsrc));
  PetscCall(PetscFree3(t->crowptr, t->ccolidx, t->cval));
  PetscCall(PetscFree(t->csrc));
  PetscCall(PetscFree2(t->val, t->dinv));
  PetscCall(PetscFree4(t->perm, t->rowptr, t->colidx, t->lsrc));
  PetscCall(PetscFree(t->dsrc));
  PetscCall(PetscFree(t));
  *tri = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}
