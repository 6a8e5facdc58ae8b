/* The host backend's CSR operations of ellgspgemm.h: copies, transposes (ELLGCsrTranspose()), products with
   vectors, and a product by
   rows (the pattern with a marker per column, the values with a dense accumulator) */
#include <ellgspgemm.h>

typedef struct {
  PetscInt     m, n, nnz;
  PetscInt    *i, *j;
  PetscScalar *a;
} HostCsr;

/* the accumulator of a product's rows, one entry per column of the result */
typedef struct {
  PetscInt     n;
  PetscScalar *w;
} HostPlan;

static PetscErrorCode HostCsrAlloc(PetscInt m, PetscInt n, PetscInt nnz, HostCsr **c)
{
  PetscFunctionBegin;
  PetscCall(PetscNew(c));
  (*c)->m   = m;
  (*c)->n   = n;
  (*c)->nnz = nnz;
  PetscCall(PetscMalloc3(m + 1, &(*c)->i, nnz, &(*c)->j, nnz, &(*c)->a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ELLGHostCsrCreate(PetscInt m, PetscInt n, const PetscInt *i, const PetscInt *j, const PetscScalar *a, void **csr)
{
  HostCsr *c;

  PetscFunctionBegin;
  PetscCall(HostCsrAlloc(m, n, i[m], &c));
  PetscCall(PetscArraycpy(c->i, i, m + 1));
  PetscCall(PetscArraycpy(c->j, j, c->nnz));
  PetscCall(PetscArraycpy(c->a, a, c->nnz));
  *csr = c;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ELLGHostCsrSetValues(void *csr, const PetscScalar *a)
{
  HostCsr *c = (HostCsr *)csr;

  PetscFunctionBegin;
  PetscCall(PetscArraycpy(c->a, a, c->nnz));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ELLGHostCsrTranspose(void *csr, void **t)
{
  HostCsr  *x = (HostCsr *)csr, *y = (HostCsr *)*t;
  PetscInt *ti, *tj, *src;

  PetscFunctionBegin;
  PetscCall(ELLGCsrTranspose(x->m, x->n, x->i, x->j, NULL, &ti, &tj, &src));
  if (!y) PetscCall(HostCsrAlloc(x->n, x->m, x->nnz, &y));
  PetscCall(PetscArraycpy(y->i, ti, y->m + 1));
  PetscCall(PetscArraycpy(y->j, tj, y->nnz));
  for (PetscInt k = 0; k < y->nnz; k++) y->a[k] = x->a[src[k]];
  PetscCall(PetscFree3(ti, tj, src));
  *t = y;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* z's pattern: the union of the rows of y that each row of x selects, sorted */
static PetscErrorCode HostCsrMultiplySymbolic(const HostCsr *x, const HostCsr *y, HostCsr **zout)
{
  PetscInt *mark, *cnt, nnz = 0;
  HostCsr  *z;

  PetscFunctionBegin;
  PetscCall(PetscMalloc2(y->n, &mark, x->m + 1, &cnt));
  for (PetscInt c = 0; c < y->n; c++) mark[c] = -1;
  for (PetscInt r = 0; r < x->m; r++) {
    cnt[r] = 0;
    for (PetscInt k = x->i[r]; k < x->i[r + 1]; k++)
      for (PetscInt l = y->i[x->j[k]]; l < y->i[x->j[k] + 1]; l++)
        if (mark[y->j[l]] != r) {
          mark[y->j[l]] = r;
          cnt[r]++;
        }
    nnz += cnt[r];
  }
  PetscCall(HostCsrAlloc(x->m, y->n, nnz, &z));
  for (PetscInt c = 0; c < y->n; c++) mark[c] = -1;
  z->i[0] = 0;
  for (PetscInt r = 0; r < x->m; r++) {
    PetscInt p = z->i[r];

    for (PetscInt k = x->i[r]; k < x->i[r + 1]; k++)
      for (PetscInt l = y->i[x->j[k]]; l < y->i[x->j[k] + 1]; l++)
        if (mark[y->j[l]] != r) {
          mark[y->j[l]] = r;
          z->j[p++]     = y->j[l];
        }
    z->i[r + 1] = p;
    PetscCall(PetscSortInt(p - z->i[r], z->j + z->i[r]));
  }
  PetscCall(PetscFree2(mark, cnt));
  *zout = z;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ELLGHostCsrMultiply(void *xv, void *yv, void **zv, void **planv)
{
  const HostCsr *x = (HostCsr *)xv, *y = (HostCsr *)yv;
  HostCsr       *z;
  HostPlan      *p = (HostPlan *)*planv;

  PetscFunctionBegin;
  if (!p) {
    PetscCall(HostCsrMultiplySymbolic(x, y, (HostCsr **)zv));
    PetscCall(PetscNew(&p));
    p->n = y->n;
    PetscCall(PetscCalloc1(p->n, &p->w));
    *planv = p;
  }
  z = (HostCsr *)*zv;
  for (PetscInt r = 0; r < x->m; r++) {
    for (PetscInt k = x->i[r]; k < x->i[r + 1]; k++)
      for (PetscInt l = y->i[x->j[k]]; l < y->i[x->j[k] + 1]; l++) p->w[y->j[l]] += x->a[k] * y->a[l];
    for (PetscInt q = z->i[r]; q < z->i[r + 1]; q++) {
      z->a[q]        = p->w[z->j[q]];
      p->w[z->j[q]] = 0.0;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ELLGHostCsrMultAdd(void *csr, const PetscScalar *x, const PetscScalar *z, PetscScalar *y)
{
  HostCsr *c = (HostCsr *)csr;

  PetscFunctionBegin;
  for (PetscInt r = 0; r < c->m; r++) {
    PetscScalar sum = z ? z[r] : 0.0;

    for (PetscInt k = c->i[r]; k < c->i[r + 1]; k++) sum += c->a[k] * x[c->j[k]];
    y[r] = sum;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ELLGHostCsrGetSize(void *csr, PetscInt *m, PetscInt *n, PetscInt *nnz)
{
  HostCsr *c = (HostCsr *)csr;

  PetscFunctionBegin;
  *m   = c->m;
  *n   = c->n;
  *nnz = c->nnz;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ELLGHostCsrDownload(void *csr, PetscInt *i, PetscInt k0, PetscInt k1, PetscInt *j, PetscScalar *a)
{
  HostCsr *c = (HostCsr *)csr;

  PetscFunctionBegin;
  if (i) PetscCall(PetscArraycpy(i, c->i, c->m + 1));
  if (j) PetscCall(PetscArraycpy(j, c->j + k0, k1 - k0));
  if (a) PetscCall(PetscArraycpy(a, c->a + k0, k1 - k0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ELLGHostCsrBytes(void *csr, size_t *bytes)
{
  HostCsr *c = (HostCsr *)csr;

  PetscFunctionBegin;
  *bytes = sizeof(PetscInt) * (size_t)(c->m + 1) + (sizeof(PetscInt) + sizeof(PetscScalar)) * (size_t)c->nnz;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ELLGHostCsrPlanBytes(void *plan, size_t *bytes)
{
  PetscFunctionBegin;
  *bytes = sizeof(PetscScalar) * (size_t)((HostPlan *)plan)->n;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ELLGHostCsrDestroy(void *csr)
{
  HostCsr *c = (HostCsr *)csr;

  PetscFunctionBegin;
  if (!c) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscFree3(c->i, c->j, c->a));
  PetscCall(PetscFree(c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ELLGHostCsrPlanDestroy(void *plan)
{
  HostPlan *p = (HostPlan *)plan;

  PetscFunctionBegin;
  if (!p) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscFree(p->w));
  PetscCall(PetscFree(p));
  PetscFunctionReturn(PETSC_SUCCESS);
}
