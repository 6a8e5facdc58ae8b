/* CSR matrices on the device, their transposes (cuSPARSE csr2csc), products (cuSPARSE SpGEMMreuse) and products
   with vectors (cuSPARSE SpMV), behind
   ellgspgemmdevice.h; all of it on the legacy default stream, where the formats are built */
#include <cuda_runtime.h>
#include <cusparse.h>
#include <stdlib.h>
#include "ellgcuda.h"
#include "ellgspgemmdevice.h"

typedef struct {
  int                  m, n, nnz;
  int                 *i, *j; /* i: m + 1 row offsets; j and a: room for max(nnz, 1) entries, no NULL for cuSPARSE */
  double              *a;
  cusparseSpMatDescr_t d;
  void                *spmvbuf; /* the SpMV's buffer, from its first product */
  size_t               spmvbytes;
} Csr;

/* a product's SpGEMM descriptor and the buffers of cuSPARSE's SpGEMMreuse: the symbolic phase needs all five
   (buf[0..2] are freed at its end), the numeric phase (SpGEMMreuse_compute) buf[3] and buf[4], which are kept;
   d NULL for a product with an empty factor, which has no entries and nothing to compute */
#define PLAN_BUFFERS 5
typedef struct {
  cusparseSpGEMMDescr_t d;
  void                 *buf[PLAN_BUFFERS];
  size_t                bytes[PLAN_BUFFERS];
} Plan;

static const double one = 1.0, zero = 0.0;

static int Sp(cusparseStatus_t s) { return s == CUSPARSE_STATUS_SUCCESS ? 0 : ELLG_CUDA_CUSPARSE_BASE + (int)s; }

static int Handle(cusparseHandle_t *h)
{
  void *p   = NULL;
  int   err = ELLGCusparseGetHandle(&p);

  *h = (cusparseHandle_t)p;
  return err;
}

/* room for the nnz entries of c, and its descriptor pointed at them */
static int AllocEntries(Csr *c, int nnz)
{
  const size_t e   = nnz ? (size_t)nnz : 1;
  int          err = ELLGCudaMalloc((void **)&c->j, sizeof(int) * e);

  if (!err) err = ELLGCudaMalloc((void **)&c->a, sizeof(double) * e);
  if (!err) c->nnz = nnz;
  return err;
}

/* an m x n matrix: its row offsets, with room for nnz entries (nnz < 0: none yet), and its descriptor */
static int Alloc(int m, int n, int nnz, Csr **out)
{
  Csr *c = (Csr *)calloc(1, sizeof(Csr));
  int  err;

  *out = NULL;
  if (!c) return ELLG_CUDA_ERROR_MEMORY;
  c->m = m;
  c->n = n;
  err  = ELLGCudaMalloc((void **)&c->i, sizeof(int) * ((size_t)m + 1));
  if (!err && nnz >= 0) err = AllocEntries(c, nnz);
  if (!err) err = Sp(cusparseCreateCsr(&c->d, m, n, c->nnz, c->i, c->j, c->a, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
  if (err) {
    (void)ELLGCudaCsrDestroy(c);
    return err;
  }
  *out = c;
  return 0;
}

extern "C" int ELLGCudaCsrCreate(int m, int n, const int *i, const int *j, const double *a, void **csr)
{
  Csr *c;
  int  err;

  *csr = NULL;
  if (m < 0 || n < 0 || !i || i[m] < 0) return (int)cudaErrorInvalidValue;
  if ((err = Alloc(m, n, i[m], &c))) return err;
  err = ELLGCudaMemcpy(c->i, i, sizeof(int) * ((size_t)m + 1), 0);
  if (!err) err = ELLGCudaMemcpy(c->j, j, sizeof(int) * (size_t)c->nnz, 0);
  if (!err) err = ELLGCudaMemcpy(c->a, a, sizeof(double) * (size_t)c->nnz, 0);
  if (err) {
    (void)ELLGCudaCsrDestroy(c);
    return err;
  }
  *csr = c;
  return 0;
}

extern "C" int ELLGCudaCsrSetValues(void *csr, const double *a)
{
  Csr *c = (Csr *)csr;

  return ELLGCudaMemcpy(c->a, a, sizeof(double) * (size_t)c->nnz, 0);
}

extern "C" int ELLGCudaCsrTranspose(void *csr, void **t)
{
  Csr             *x = (Csr *)csr, *y = (Csr *)*t;
  cusparseHandle_t h;
  void            *buf   = NULL;
  size_t           bytes = 0;
  int              err   = 0;

  if (!y && (err = Alloc(x->n, x->m, x->nnz, &y))) return err;
  if (!x->nnz) err = ELLGCudaMemset(y->i, 0, sizeof(int) * ((size_t)y->m + 1));
  else {
    err = Handle(&h);
    if (!err)
      err = Sp(cusparseCsr2cscEx2_bufferSize(h, x->m, x->n, x->nnz, x->a, x->i, x->j, y->a, y->i, y->j, CUDA_R_64F, CUSPARSE_ACTION_NUMERIC, CUSPARSE_INDEX_BASE_ZERO, CUSPARSE_CSR2CSC_ALG1, &bytes));
    if (!err) err = ELLGCudaMalloc(&buf, bytes ? bytes : 1);
    if (!err) err = Sp(cusparseCsr2cscEx2(h, x->m, x->n, x->nnz, x->a, x->i, x->j, y->a, y->i, y->j, CUDA_R_64F, CUSPARSE_ACTION_NUMERIC, CUSPARSE_INDEX_BASE_ZERO, CUSPARSE_CSR2CSC_ALG1, buf));
    const int ferr = ELLGCudaFree(buf);
    if (!err) err = ferr;
  }
  if (err) {
    if (!*t) (void)ELLGCudaCsrDestroy(y);
    return err;
  }
  *t = y;
  return 0;
}

/* buffer k of the plan, bytes[k] of it (cuSPARSE asks for none, for some sizes: one byte then) */
static int PlanAlloc(Plan *p, int k) { return ELLGCudaMalloc(&p->buf[k], p->bytes[k] ? p->bytes[k] : 1); }

/* frees buffer k of the plan, which the rest of the product no longer needs */
static int PlanFree(Plan *p, int k)
{
  const int err = ELLGCudaFree(p->buf[k]);

  p->buf[k]   = NULL;
  p->bytes[k] = 0;
  return err;
}

/* the symbolic phase, with cuSPARSE's SpGEMMreuse (whose numeric phase keeps two of its five buffers, where plain
   SpGEMM keeps one as large as the intermediate products): z's pattern and the plan, with z's values computed */
static int MultiplySymbolic(Csr *x, Csr *y, Csr **zout, Plan **pout)
{
  const cusparseOperation_t op  = CUSPARSE_OPERATION_NON_TRANSPOSE;
  const cusparseSpGEMMAlg_t alg = CUSPARSE_SPGEMM_DEFAULT;
  Plan                     *p   = (Plan *)calloc(1, sizeof(Plan));
  Csr                      *z   = NULL;
  cusparseHandle_t          h;
  int64_t                   zm, zn, znnz;
  int                       err;

  if (!p) return ELLG_CUDA_ERROR_MEMORY;
  if (!x->nnz || !y->nnz) { /* no entries: empty rows, nothing for cuSPARSE */
    err = Alloc(x->m, y->n, 0, &z);
    if (!err) err = ELLGCudaMemset(z->i, 0, sizeof(int) * ((size_t)z->m + 1));
  } else {
    err = Handle(&h);
    if (!err) err = Alloc(x->m, y->n, -1, &z);
    if (!err) err = Sp(cusparseSpGEMM_createDescr(&p->d));
    if (!err) err = Sp(cusparseSpGEMMreuse_workEstimation(h, op, op, x->d, y->d, z->d, alg, p->d, &p->bytes[0], NULL));
    if (!err) err = PlanAlloc(p, 0);
    if (!err) err = Sp(cusparseSpGEMMreuse_workEstimation(h, op, op, x->d, y->d, z->d, alg, p->d, &p->bytes[0], p->buf[0]));
    if (!err) err = Sp(cusparseSpGEMMreuse_nnz(h, op, op, x->d, y->d, z->d, alg, p->d, &p->bytes[1], NULL, &p->bytes[2], NULL, &p->bytes[3], NULL));
    for (int k = 1; k <= 3 && !err; k++) err = PlanAlloc(p, k);
    if (!err) err = Sp(cusparseSpGEMMreuse_nnz(h, op, op, x->d, y->d, z->d, alg, p->d, &p->bytes[1], p->buf[1], &p->bytes[2], p->buf[2], &p->bytes[3], p->buf[3]));
    if (!err) err = PlanFree(p, 0);
    if (!err) err = PlanFree(p, 1);
    if (!err) err = Sp(cusparseSpMatGetSize(z->d, &zm, &zn, &znnz));
    if (!err && znnz > 2147483647) err = (int)cudaErrorInvalidValue; /* beyond 32-bit indices */
    if (!err) err = AllocEntries(z, (int)znnz);
    if (!err) err = Sp(cusparseCsrSetPointers(z->d, z->i, z->j, z->a));
    if (!err) err = Sp(cusparseSpGEMMreuse_copy(h, op, op, x->d, y->d, z->d, alg, p->d, &p->bytes[4], NULL));
    if (!err) err = PlanAlloc(p, 4);
    if (!err) err = Sp(cusparseSpGEMMreuse_copy(h, op, op, x->d, y->d, z->d, alg, p->d, &p->bytes[4], p->buf[4]));
    if (!err) err = PlanFree(p, 2);
    if (!err) err = Sp(cusparseSpGEMMreuse_compute(h, op, op, &one, x->d, y->d, &zero, z->d, CUDA_R_64F, alg, p->d));
  }
  if (err) {
    (void)ELLGCudaCsrDestroy(z);
    (void)ELLGCudaCsrPlanDestroy(p);
    return err;
  }
  *zout = z;
  *pout = p;
  return 0;
}

extern "C" int ELLGCudaCsrMultiply(void *x, void *y, void **z, void **plan)
{
  const cusparseOperation_t op  = CUSPARSE_OPERATION_NON_TRANSPOSE;
  const cusparseSpGEMMAlg_t alg = CUSPARSE_SPGEMM_DEFAULT;
  Csr                      *cx = (Csr *)x, *cy = (Csr *)y, *cz = (Csr *)*z;
  Plan                     *p  = (Plan *)*plan;
  cusparseHandle_t          h;
  int                       err;

  if (!p) {
    if ((err = MultiplySymbolic(cx, cy, &cz, &p))) return err;
    *z    = cz;
    *plan = p;
    return 0;
  }
  if (!p->d) return 0;
  if ((err = Handle(&h))) return err;
  return Sp(cusparseSpGEMMreuse_compute(h, op, op, &one, cx->d, cy->d, &zero, cz->d, CUDA_R_64F, alg, p->d));
}

extern "C" int ELLGCudaCsrMultAdd(void *csr, const double *x, const double *z, double *y)
{
  Csr                 *c    = (Csr *)csr;
  const double         beta = z ? 1.0 : 0.0;
  cusparseHandle_t     h;
  cusparseDnVecDescr_t dx = NULL, dy = NULL;
  size_t               bytes = 0;
  int                  err;

  if (!c->m) return 0;
  if (z && z != y && (err = ELLGCudaMemcpy(y, z, sizeof(double) * (size_t)c->m, 2))) return err;
  if (!c->nnz || !c->n) return z ? 0 : ELLGCudaMemset(y, 0, sizeof(double) * (size_t)c->m);
  if ((err = Handle(&h))) return err;
  err = Sp(cusparseCreateDnVec(&dx, c->n, (void *)x, CUDA_R_64F));
  if (!err) err = Sp(cusparseCreateDnVec(&dy, c->m, y, CUDA_R_64F));
  if (!err) err = Sp(cusparseSpMV_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, c->d, dx, &beta, dy, CUDA_R_64F, CUSPARSE_SPMV_ALG_DEFAULT, &bytes));
  if (!err && bytes > c->spmvbytes) {
    (void)ELLGCudaFree(c->spmvbuf);
    c->spmvbytes = 0;
    if (!(err = ELLGCudaMalloc(&c->spmvbuf, bytes))) c->spmvbytes = bytes;
  }
  if (!err) err = Sp(cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, c->d, dx, &beta, dy, CUDA_R_64F, CUSPARSE_SPMV_ALG_DEFAULT, c->spmvbuf));
  if (dx) (void)cusparseDestroyDnVec(dx);
  if (dy) (void)cusparseDestroyDnVec(dy);
  return err;
}

extern "C" int ELLGCudaCsrGetSize(void *csr, int *m, int *n, int *nnz)
{
  Csr *c = (Csr *)csr;

  *m   = c->m;
  *n   = c->n;
  *nnz = c->nnz;
  return 0;
}

extern "C" int ELLGCudaCsrDownload(void *csr, int *i, long k0, long k1, int *j, double *a)
{
  Csr *c   = (Csr *)csr;
  int  err = 0;

  if (i) err = ELLGCudaMemcpy(i, c->i, sizeof(int) * ((size_t)c->m + 1), 1);
  if (!err && j) err = ELLGCudaMemcpy(j, c->j + k0, sizeof(int) * (size_t)(k1 - k0), 1);
  if (!err && a) err = ELLGCudaMemcpy(a, c->a + k0, sizeof(double) * (size_t)(k1 - k0), 1);
  return err;
}

extern "C" int ELLGCudaCsrBytes(void *csr, size_t *bytes)
{
  Csr *c = (Csr *)csr;

  *bytes = sizeof(int) * ((size_t)c->m + 1) + (sizeof(int) + sizeof(double)) * (c->nnz ? (size_t)c->nnz : 1) + c->spmvbytes;
  return 0;
}

extern "C" int ELLGCudaCsrPlanBytes(void *plan, size_t *bytes)
{
  Plan *p = (Plan *)plan;

  *bytes = 0;
  for (int k = 0; k < PLAN_BUFFERS; k++) *bytes += p->bytes[k];
  return 0;
}

extern "C" int ELLGCudaCsrDestroy(void *csr)
{
  Csr *c   = (Csr *)csr;
  int  err = 0, e;

  if (!c) return 0;
  if (c->d && (e = Sp(cusparseDestroySpMat(c->d))) && !err) err = e;
  if ((e = ELLGCudaFree(c->i)) && !err) err = e;
  if ((e = ELLGCudaFree(c->j)) && !err) err = e;
  if ((e = ELLGCudaFree(c->a)) && !err) err = e;
  if ((e = ELLGCudaFree(c->spmvbuf)) && !err) err = e;
  free(c);
  return err;
}

extern "C" int ELLGCudaCsrPlanDestroy(void *plan)
{
  Plan *p   = (Plan *)plan;
  int   err = 0, e;

  if (!p) return 0;
  if (p->d && (e = Sp(cusparseSpGEMM_destroyDescr(p->d))) && !err) err = e;
  for (int k = 0; k < PLAN_BUFFERS; k++)
    if ((e = ELLGCudaFree(p->buf[k])) && !err) err = e;
  free(p);
  return err;
}
