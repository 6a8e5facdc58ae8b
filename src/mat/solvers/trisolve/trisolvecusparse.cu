/* Triangular solves with cuSPARSE's SpSV (the cusparse part of ellgtrisolve.h): the factor in CSR on
   the device, and an SpSV descriptor with its buffer and analysis per operation, T and T^T. SpSV takes
   one precision for the matrix and the vectors: a factor of single-precision values is solved on
   single-precision copies of the right-hand side and the solution, converted from and to double. */
#include <cuda_runtime.h>
#include <cusparse.h>
#include <stdlib.h>
#include "ellgcuda.h"
#include "ellgtrisolve.h"

/* cusparseSpSV_updateMatrix came with cuSPARSE 12.1 (CUDA 12.1 Update 1); without it, new values
   take a new analysis */
#if CUSPARSE_VERSION >= 12100
  #define ELLG_SPSV_UPDATE_MATRIX 1
#endif

#define ELLG_SPSV_ALG CUSPARSE_SPSV_ALG_DEFAULT

typedef struct {
  int                  n, nnz, nalloc; /* nalloc: entries allocated, at least 1 (see Setup) */
  int                  single;         /* float values, solved on fb and fx */
  int                 *rowptr, *colidx;
  void                *val;            /* double or float */
  float               *fb, *fx;        /* single: the right-hand side and the solution */
  cusparseSpMatDescr_t mat;
  cusparseDnVecDescr_t b, x;    /* cached, pointed at each solve's arrays */
  cusparseSpSVDescr_t  spsv[2]; /* [0]: solves with T, [1]: with T^T (NULL until the first of them) */
  void                *buf[2];
  size_t               bufbytes[2];
  int                  stale[2]; /* the values changed since the analysis (no updateMatrix) */
  int                  shared;   /* the CSR arrays are the caller's (not freed here) */
} ELLGCusparseTri;

static const double ellg_one   = 1.0;
static const float  ellg_one_f = 1.0f;

static cudaDataType ValueType(const ELLGCusparseTri *t) { return t->single ? CUDA_R_32F : CUDA_R_64F; }
static size_t       ValueSize(const ELLGCusparseTri *t) { return t->single ? sizeof(float) : sizeof(double); }
static const void  *One(const ELLGCusparseTri *t) { return t->single ? (const void *)&ellg_one_f : (const void *)&ellg_one; }

static int CusparseErr(cusparseStatus_t s) { return s == CUSPARSE_STATUS_SUCCESS ? 0 : ELLG_CUDA_CUSPARSE_BASE + (int)s; }

static cusparseOperation_t SpSVOp(int k) { return k ? CUSPARSE_OPERATION_TRANSPOSE : CUSPARSE_OPERATION_NON_TRANSPOSE; }

static int GetHandle(cusparseHandle_t *handle)
{
  void *h   = NULL;
  int   err = ELLGCusparseGetHandle(&h);

  *handle = (cusparseHandle_t)h;
  return err;
}

static int DevAlloc(void **ptr, size_t bytes)
{
  cudaError_t e = cudaMalloc(ptr, bytes);
  if (e != cudaSuccess) {
    (void)cudaGetLastError(); /* not sticky: clear it so that later calls do not report it */
    *ptr = NULL;
  }
  return (int)e;
}

static int Upload(void *dst, const void *src, size_t bytes) { return bytes ? (int)cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice) : 0; }

static int SetVectors(ELLGCusparseTri *t, const double *b, double *x)
{
  int err = CusparseErr(cusparseDnVecSetValues(t->b, (void *)b));
  return err ? err : CusparseErr(cusparseDnVecSetValues(t->x, x));
}

/* the SpSV descriptor of operation k, its buffer and its analysis, with the vectors' descriptors as they
   point now; kept only when all of it succeeds, so that a failure leaves nothing behind */
static int CreateSpSV(ELLGCusparseTri *t, int k)
{
  cusparseHandle_t    h;
  cusparseSpSVDescr_t d     = NULL;
  void               *buf   = NULL;
  size_t              bytes = 0;
  int                 err   = GetHandle(&h);

  if (!err) err = CusparseErr(cusparseSpSV_createDescr(&d));
  if (!err) err = CusparseErr(cusparseSpSV_bufferSize(h, SpSVOp(k), One(t), t->mat, t->b, t->x, ValueType(t), ELLG_SPSV_ALG, d, &bytes));
  if (!bytes) bytes = 1; /* a real buffer even when none is asked for: no NULL for cuSPARSE to refuse */
  if (!err) err = DevAlloc(&buf, bytes);
  if (!err) err = CusparseErr(cusparseSpSV_analysis(h, SpSVOp(k), One(t), t->mat, t->b, t->x, ValueType(t), ELLG_SPSV_ALG, d, buf));
  if (err) {
    if (d) (void)cusparseSpSV_destroyDescr(d);
    if (buf) (void)cudaFree(buf);
    return err;
  }
  t->spsv[k]     = d;
  t->buf[k]      = buf;
  t->bufbytes[k] = bytes;
  t->stale[k]    = 0;
  return 0;
}

/* the descriptors of the device CSR, and the analysis of the solves with T */
static int Describe(ELLGCusparseTri *t, int upper, int unit)
{
  const int          n    = t->n;
  cusparseFillMode_t fill = upper ? CUSPARSE_FILL_MODE_UPPER : CUSPARSE_FILL_MODE_LOWER;
  cusparseDiagType_t diag = unit ? CUSPARSE_DIAG_TYPE_UNIT : CUSPARSE_DIAG_TYPE_NON_UNIT;
  double            *scratch;
  int                err;

  if ((err = CusparseErr(cusparseCreateCsr(&t->mat, n, n, t->nnz, t->rowptr, t->colidx, t->val, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, ValueType(t))))) return err;
  if ((err = CusparseErr(cusparseSpMatSetAttribute(t->mat, CUSPARSE_SPMAT_FILL_MODE, &fill, sizeof(fill))))) return err;
  if ((err = CusparseErr(cusparseSpMatSetAttribute(t->mat, CUSPARSE_SPMAT_DIAG_TYPE, &diag, sizeof(diag))))) return err;

  if (t->single) { /* the vectors' descriptors keep pointing at fb and fx */
    if ((err = DevAlloc((void **)&t->fb, sizeof(float) * n))) return err;
    if ((err = DevAlloc((void **)&t->fx, sizeof(float) * n))) return err;
    if ((err = CusparseErr(cusparseCreateDnVec(&t->b, n, t->fb, CUDA_R_32F)))) return err;
    if ((err = CusparseErr(cusparseCreateDnVec(&t->x, n, t->fx, CUDA_R_32F)))) return err;
    return CreateSpSV(t, 0);
  }
  /* the analysis takes vector descriptors but the solves' arrays are not known yet: a scratch pair of
     the right size, freed after it (the descriptors get each solve's arrays before it runs) */
  if ((err = DevAlloc((void **)&scratch, sizeof(double) * 2 * n))) return err;
  err = CusparseErr(cusparseCreateDnVec(&t->b, n, scratch, CUDA_R_64F));
  if (!err) err = CusparseErr(cusparseCreateDnVec(&t->x, n, scratch + n, CUDA_R_64F));
  if (!err) err = CreateSpSV(t, 0);
  const int ferr = (int)cudaFree(scratch); /* waits for the analysis */
  return err ? err : ferr;
}

/* the device CSR uploaded, its descriptors, and the analysis of the solves with T */
static int Setup(ELLGCusparseTri *t, const int *rowptr, const int *colidx, const void *val, int upper, int unit)
{
  const int n = t->n;
  int       err;

  /* at least one entry: a factor without any (a unit diagonal alone) still gets arrays, not the NULL
     that cuSPARSE may refuse */
  t->nalloc = t->nnz ? t->nnz : 1;
  if ((err = DevAlloc((void **)&t->rowptr, sizeof(int) * (n + 1)))) return err;
  if ((err = DevAlloc((void **)&t->colidx, sizeof(int) * t->nalloc))) return err;
  if ((err = DevAlloc(&t->val, ValueSize(t) * t->nalloc))) return err;
  if ((err = Upload(t->rowptr, rowptr, sizeof(int) * (n + 1)))) return err;
  if ((err = Upload(t->colidx, colidx, sizeof(int) * t->nnz))) return err;
  if ((err = Upload(t->val, val, ValueSize(t) * t->nnz))) return err;
  return Describe(t, upper, unit);
}

extern "C" int ELLGCusparseTriCreate(int n, const int *rowptr, const int *colidx, const void *val, int single, int upper, int unit, void **tri)
{
  ELLGCusparseTri *t;
  int              err;

  if (!tri) return (int)cudaErrorInvalidValue;
  *tri = NULL;
  if (n < 0 || (n && (!rowptr || rowptr[0] != 0 || rowptr[n] < 0 || (rowptr[n] && (!colidx || !val))))) return (int)cudaErrorInvalidValue;
  if (!(t = (ELLGCusparseTri *)calloc(1, sizeof(ELLGCusparseTri)))) return ELLG_CUDA_ERROR_MEMORY;
  t->n      = n;
  t->nnz    = n ? rowptr[n] : 0;
  t->single = single;
  /* order 0: nothing on the device, the solves do nothing */
  if (n && (err = Setup(t, rowptr, colidx, val, upper, unit))) {
    (void)ELLGCusparseTriDestroy(t);
    return err;
  }
  *tri = t;
  return 0;
}

extern "C" int ELLGCusparseTriCreateOnDevice(int n, int nnz, int *rowptr, int *colidx, void *val, int single, int upper, int unit, void **tri)
{
  ELLGCusparseTri *t;
  int              err;

  if (!tri) return (int)cudaErrorInvalidValue;
  *tri = NULL;
  if (n < 0 || nnz < 1 || (n && (!rowptr || !colidx || !val))) return (int)cudaErrorInvalidValue;
  if (!(t = (ELLGCusparseTri *)calloc(1, sizeof(ELLGCusparseTri)))) return ELLG_CUDA_ERROR_MEMORY;
  t->n      = n;
  t->nnz    = n ? nnz : 0;
  t->nalloc = nnz;
  t->single = single;
  t->shared = 1;
  t->rowptr = rowptr;
  t->colidx = colidx;
  t->val    = val;
  if (n && (err = Describe(t, upper, unit))) {
    (void)ELLGCusparseTriDestroy(t);
    return err;
  }
  *tri = t;
  return 0;
}

extern "C" int ELLGCusparseTriSetValues(void *tri, const void *val)
{
  ELLGCusparseTri *t = (ELLGCusparseTri *)tri;
  int              err;

  if (!t) return (int)cudaErrorInvalidValue;
  if (!t->nnz) return 0;
  if (!val != t->shared) return (int)cudaErrorInvalidValue;
  /* ordered after the solves queued before on the legacy default stream, which read the old values */
  if (val && (err = Upload(t->val, val, ValueSize(t) * t->nnz))) return err;
  /* the analyses keep values of their own (in their order): refresh them. The analysis of T^T, when not
     done yet, comes later and reads the new values. */
#if defined(ELLG_SPSV_UPDATE_MATRIX)
  cusparseHandle_t h;
  if ((err = GetHandle(&h))) return err;
  for (int k = 0; k < 2; k++)
    if (t->spsv[k] && (err = CusparseErr(cusparseSpSV_updateMatrix(h, t->spsv[k], t->val, CUSPARSE_SPSV_UPDATE_GENERAL)))) return err;
#else
  /* a new analysis before the next solve of each, when the vector descriptors point at live arrays */
  for (int k = 0; k < 2; k++) t->stale[k] = t->spsv[k] != NULL;
#endif
  return 0;
}

extern "C" int ELLGCusparseTriSolve(void *tri, int transpose, const double *b, double *x)
{
  ELLGCusparseTri *t = (ELLGCusparseTri *)tri;
  const int        k = transpose ? 1 : 0;
  cusparseHandle_t h;
  int              err;

  if (!t) return (int)cudaErrorInvalidValue;
  if (!t->n) return 0;
  if ((err = GetHandle(&h))) return err;
  if (t->single) err = ELLGCudaToSingle(t->n, b, t->fb);
  else err = SetVectors(t, b, x);
  if (err) return err;
  if (!t->spsv[k]) err = CreateSpSV(t, k); /* the first solve with T^T */
  else if (t->stale[k]) err = CusparseErr(cusparseSpSV_analysis(h, SpSVOp(k), One(t), t->mat, t->b, t->x, ValueType(t), ELLG_SPSV_ALG, t->spsv[k], t->buf[k]));
  if (err) return err;
  t->stale[k] = 0;
  if ((err = CusparseErr(cusparseSpSV_solve(h, SpSVOp(k), One(t), t->mat, t->b, t->x, ValueType(t), ELLG_SPSV_ALG, t->spsv[k])))) return err;
  return t->single ? ELLGCudaToDouble(t->n, t->fx, x) : 0;
}

/* frees all it holds, also when Create stopped half way; the first error is returned */
extern "C" int ELLGCusparseTriDestroy(void *tri)
{
  ELLGCusparseTri *t   = (ELLGCusparseTri *)tri;
  int              err = 0, e;

  if (!t) return 0;
#define ELLG_KEEP_FIRST(call) \
  do { \
    e = (call); \
    if (!err) err = e; \
  } while (0)
  for (int k = 0; k < 2; k++) {
    if (t->spsv[k]) ELLG_KEEP_FIRST(CusparseErr(cusparseSpSV_destroyDescr(t->spsv[k])));
    if (t->buf[k]) ELLG_KEEP_FIRST((int)cudaFree(t->buf[k]));
  }
  if (t->b) ELLG_KEEP_FIRST(CusparseErr(cusparseDestroyDnVec(t->b)));
  if (t->x) ELLG_KEEP_FIRST(CusparseErr(cusparseDestroyDnVec(t->x)));
  if (t->mat) ELLG_KEEP_FIRST(CusparseErr(cusparseDestroySpMat(t->mat)));
  if (t->fb) ELLG_KEEP_FIRST((int)cudaFree(t->fb));
  if (t->fx) ELLG_KEEP_FIRST((int)cudaFree(t->fx));
  if (!t->shared) {
    if (t->rowptr) ELLG_KEEP_FIRST((int)cudaFree(t->rowptr));
    if (t->colidx) ELLG_KEEP_FIRST((int)cudaFree(t->colidx));
    if (t->val) ELLG_KEEP_FIRST((int)cudaFree(t->val));
  }
#undef ELLG_KEEP_FIRST
  free(t);
  return err;
}

extern "C" size_t ELLGCusparseTriBytes(void *tri)
{
  ELLGCusparseTri *t = (ELLGCusparseTri *)tri;

  if (!t || !t->n) return 0;
  return (t->shared ? 0 : sizeof(int) * (size_t)(t->n + 1) + (sizeof(int) + ValueSize(t)) * (size_t)t->nalloc) + t->bufbytes[0] + t->bufbytes[1] + (t->single ? 2 * sizeof(float) * (size_t)t->n : 0);
}
