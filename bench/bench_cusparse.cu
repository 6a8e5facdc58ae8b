/* cuSPARSE references of the benchmarks: SpMV with A in CSR or in sliced ELL, CSR SpMM
   (bench_cusparse.h) */
#include <algorithm>
#include <climits>
#include <new>
#include <vector>
#include "bench_cudainternal.h"
#include "bench_cusparse.h"

static_assert(BENCH_CUSPARSE_NOT_SUPPORTED == BENCH_CUSPARSE_BASE + (int)CUSPARSE_STATUS_NOT_SUPPORTED, "BENCH_CUSPARSE_NOT_SUPPORTED");

/* a sparse matrix on the device, with its cuSPARSE descriptor and a work buffer for the products */
struct BenchSpMat {
  cusparseSpMatDescr_t A;
  int                  nrows, ncols, *ptr, *colidx; /* ptr: CSR row offsets, or SELL slice offsets */
  double              *val;
  size_t               bytes; /* of ptr, colidx and val */
  void                *buffer;
  size_t               buffersize;
};

/* the device arrays: nptr offsets, n column indices and values, copied from the host */
static int SpMatUpload(BenchSpMat *c, size_t nptr, const int *ptr, size_t n, const int *colidx, const double *val)
{
  CallCuda(cudaMalloc(&c->ptr, nptr * sizeof(int)));
  CallCuda(cudaMalloc(&c->colidx, n * sizeof(int)));
  CallCuda(cudaMalloc(&c->val, n * sizeof(double)));
  CallCuda(cudaMemcpy(c->ptr, ptr, nptr * sizeof(int), cudaMemcpyHostToDevice));
  CallCuda(cudaMemcpy(c->colidx, colidx, n * sizeof(int), cudaMemcpyHostToDevice));
  CallCuda(cudaMemcpy(c->val, val, n * sizeof(double), cudaMemcpyHostToDevice));
  c->bytes = nptr * sizeof(int) + n * (sizeof(int) + sizeof(double));
  return 0;
}

static int SpMatCsr(BenchSpMat *c, int nrows, int ncols, const int *rowptr, const int *colidx, const double *val)
{
  const int nnz = rowptr[nrows];

  c->nrows = nrows;
  c->ncols = ncols;
  CallBench(SpMatUpload(c, (size_t)nrows + 1, rowptr, (size_t)nnz, colidx, val));
  CallCusparse(cusparseCreateCsr(&c->A, nrows, ncols, nnz, c->ptr, c->colidx, c->val, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
  return 0;
}

/* the sliced ELL arrays of a CSR matrix (the layout of BenchCusparseSetMatrix()): entry k of row r of
   slice s at offsets[s] + k S + r mod S */
static int SellOnHost(int nrows, const int *rowptr, const int *colidx, const double *val, std::vector<int> &offsets, std::vector<int> &col, std::vector<double> &v)
{
  const int S = BENCH_CUSPARSE_SELL_SLICE, nslices = (nrows + S - 1) / S;
  long long size = 0;

  offsets.assign((size_t)nslices + 1, 0);
  for (int s = 0; s < nslices; s++) {
    int width = 0;

    for (int r = s * S; r < std::min(nrows, (s + 1) * S); r++) width = std::max(width, rowptr[r + 1] - rowptr[r]);
    size += (long long)S * width;
    if (size > INT_MAX) return BENCH_SELL_TOO_LARGE;
    offsets[s + 1] = (int)size;
  }
  col.assign((size_t)size, -1);
  v.assign((size_t)size, 0.0);
  for (int r = 0; r < nrows; r++)
    for (int k = rowptr[r]; k < rowptr[r + 1]; k++) {
      const size_t p = (size_t)offsets[r / S] + (size_t)(k - rowptr[r]) * S + r % S;

      col[p] = colidx[k];
      v[p]   = val[k];
    }
  return 0;
}

static int SpMatSell(BenchSpMat *c, int nrows, int ncols, const int *rowptr, const int *colidx, const double *val)
{
  std::vector<int>    offsets, col;
  std::vector<double> v;

  c->nrows = nrows;
  c->ncols = ncols;
  try {
    CallBench(SellOnHost(nrows, rowptr, colidx, val, offsets, col, v));
  } catch (const std::bad_alloc &) {
    return BENCH_HOST_NO_MEMORY;
  }
  CallBench(SpMatUpload(c, offsets.size(), offsets.data(), col.size(), col.data(), v.data()));
  CallCusparse(cusparseCreateSlicedEll(&c->A, nrows, ncols, rowptr[nrows], (int64_t)col.size(), BENCH_CUSPARSE_SELL_SLICE, c->ptr, c->colidx, c->val, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
  return 0;
}

/* a work buffer of at least size bytes */
static int SpMatBuffer(BenchSpMat *c, size_t size)
{
  if (size > c->buffersize) {
    CallCuda(cudaFree(c->buffer));
    c->buffer = NULL;
    CallCuda(cudaMalloc(&c->buffer, size));
    c->buffersize = size;
  }
  return 0;
}

/* frees what the matrix holds, and leaves it empty */
static int SpMatDestroy(BenchSpMat *c)
{
  if (c->A) CallCusparse(cusparseDestroySpMat(c->A));
  CallCuda(cudaFree(c->ptr));
  CallCuda(cudaFree(c->colidx));
  CallCuda(cudaFree(c->val));
  CallCuda(cudaFree(c->buffer));
  *c = BenchSpMat();
  return 0;
}

struct _n_BenchCusparse {
  cusparseHandle_t     handle;
  BenchSpMat           A;
  int                  nrows, ncols;
  cusparseDnVecDescr_t x, y;
  double              *dx, *dy;
};

static int CusparseSetUp(BenchCusparse cs, int nrows, int ncols, const double *x)
{
  cs->nrows = nrows;
  cs->ncols = ncols;
  CallCusparse(cusparseCreate(&cs->handle));
  CallCuda(cudaMalloc(&cs->dx, (size_t)ncols * sizeof(double)));
  CallCuda(cudaMalloc(&cs->dy, (size_t)nrows * sizeof(double)));
  CallCuda(cudaMemcpy(cs->dx, x, (size_t)ncols * sizeof(double), cudaMemcpyHostToDevice));
  CallCusparse(cusparseCreateDnVec(&cs->x, ncols, cs->dx, CUDA_R_64F));
  CallCusparse(cusparseCreateDnVec(&cs->y, nrows, cs->dy, CUDA_R_64F));
  return 0;
}

extern "C" int BenchCusparseCreate(int nrows, int ncols, const double *x, BenchCusparse *cs)
{
  int err;

  *cs = new _n_BenchCusparse();
  if ((err = CusparseSetUp(*cs, nrows, ncols, x))) BenchCusparseDestroy(cs);
  return err;
}

extern "C" int BenchCusparseSetMatrix(BenchCusparse cs, BenchCusparseFormat format, const int *rowptr, const int *colidx, const double *val, size_t *bytes)
{
  CallBench(SpMatDestroy(&cs->A));
  if (format == BENCH_CUSPARSE_SELL) CallBench(SpMatSell(&cs->A, cs->nrows, cs->ncols, rowptr, colidx, val));
  else CallBench(SpMatCsr(&cs->A, cs->nrows, cs->ncols, rowptr, colidx, val));
  *bytes = cs->A.bytes;
  return 0;
}

static cusparseSpMVAlg_t CusparseAlg(BenchCusparseAlg alg)
{
  return alg == BENCH_CUSPARSE_CSR_ALG1 ? CUSPARSE_SPMV_CSR_ALG1 : alg == BENCH_CUSPARSE_CSR_ALG2 ? CUSPARSE_SPMV_CSR_ALG2 : CUSPARSE_SPMV_SELL_ALG1;
}

extern "C" int BenchCusparseTime(BenchCusparse cs, BenchCusparseAlg alg, int queued, int warmup, int reps, double *ms)
{
  const double      one = 1.0, zero = 0.0;
  cusparseSpMVAlg_t a = CusparseAlg(alg);
  BenchSpMat       *c = &cs->A;
  size_t            size;

  CallCusparse(cusparseSpMV_bufferSize(cs->handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, c->A, cs->x, &zero, cs->y, CUDA_R_64F, a, &size));
  CallBench(SpMatBuffer(c, size));
  CallCusparse(cusparseSpMV_preprocess(cs->handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, c->A, cs->x, &zero, cs->y, CUDA_R_64F, a, c->buffer));
  return TimeRuns(queued, warmup, reps, ms, [&]() -> int {
    CallCusparse(cusparseSpMV(cs->handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, c->A, cs->x, &zero, cs->y, CUDA_R_64F, a, c->buffer));
    return 0;
  });
}

extern "C" int BenchCusparseGetResult(BenchCusparse cs, double *y)
{
  CallCuda(cudaMemcpy(y, cs->dy, (size_t)cs->nrows * sizeof(double), cudaMemcpyDeviceToHost));
  return 0;
}

extern "C" int BenchCusparseDestroy(BenchCusparse *cs)
{
  BenchCusparse c = *cs;

  *cs = NULL;
  if (!c) return 0;
  if (c->x) CallCusparse(cusparseDestroyDnVec(c->x));
  if (c->y) CallCusparse(cusparseDestroyDnVec(c->y));
  CallBench(SpMatDestroy(&c->A));
  if (c->handle) CallCusparse(cusparseDestroy(c->handle));
  CallCuda(cudaFree(c->dx));
  CallCuda(cudaFree(c->dy));
  delete c;
  return 0;
}

struct _n_BenchCusparseSpMM {
  cusparseHandle_t     handle;
  BenchSpMat           A;
  cusparseDnMatDescr_t B, C;
  int                  L, ldb;
  const double        *hB; /* B on the host, where the copies with transfers come from */
  double              *dB, *dC, *hC;
};

static int CusparseSpMMSetUp(BenchCusparseSpMM cs, int nrows, int ncols, const int *rowptr, const int *colidx, const double *val, int L, const double *B, int ldb)
{
  CallCusparse(cusparseCreate(&cs->handle));
  CallBench(SpMatCsr(&cs->A, nrows, ncols, rowptr, colidx, val));
  cs->L   = L;
  cs->ldb = ldb;
  cs->hB  = B;
  CallCuda(cudaMalloc(&cs->dB, (size_t)ncols * L * sizeof(double)));
  CallCuda(cudaMalloc(&cs->dC, (size_t)nrows * L * sizeof(double)));
  cs->hC = new double[(size_t)nrows * L];
  CallCuda(cudaMemcpy2D(cs->dB, (size_t)ncols * sizeof(double), B, (size_t)ldb * sizeof(double), (size_t)ncols * sizeof(double), L, cudaMemcpyHostToDevice));
  CallCusparse(cusparseCreateDnMat(&cs->B, ncols, L, ncols, cs->dB, CUDA_R_64F, CUSPARSE_ORDER_COL));
  CallCusparse(cusparseCreateDnMat(&cs->C, nrows, L, nrows, cs->dC, CUDA_R_64F, CUSPARSE_ORDER_COL));
  return 0;
}

extern "C" int BenchCusparseSpMMCreate(int nrows, int ncols, const int *rowptr, const int *colidx, const double *val, int L, const double *B, int ldb, BenchCusparseSpMM *cs)
{
  int err;

  *cs = new _n_BenchCusparseSpMM();
  if ((err = CusparseSpMMSetUp(*cs, nrows, ncols, rowptr, colidx, val, L, B, ldb))) BenchCusparseSpMMDestroy(cs);
  return err;
}

static cusparseSpMMAlg_t CusparseSpMMAlg(BenchCusparseSpMMAlg alg)
{
  return alg == BENCH_CUSPARSE_SPMM_CSR_ALG1 ? CUSPARSE_SPMM_CSR_ALG1 : alg == BENCH_CUSPARSE_SPMM_CSR_ALG3 ? CUSPARSE_SPMM_CSR_ALG3 : CUSPARSE_SPMM_ALG_DEFAULT;
}

extern "C" int BenchCusparseSpMMTime(BenchCusparseSpMM cs, BenchCusparseSpMMAlg alg, int transfers, int warmup, int reps, double *ms)
{
  const double      one = 1.0, zero = 0.0;
  cusparseSpMMAlg_t a   = CusparseSpMMAlg(alg);
  BenchSpMat       *c   = &cs->A;
  const size_t      row = sizeof(double), L = (size_t)cs->L;
  size_t            size;

  CallCusparse(cusparseSpMM_bufferSize(cs->handle, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, c->A, cs->B, &zero, cs->C, CUDA_R_64F, a, &size));
  CallBench(SpMatBuffer(c, size));
  if (alg != BENCH_CUSPARSE_SPMM_DEFAULT) CallCusparse(cusparseSpMM_preprocess(cs->handle, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, c->A, cs->B, &zero, cs->C, CUDA_R_64F, a, c->buffer));
  return TimeRuns(0, warmup, reps, ms, [&]() -> int {
    if (transfers) CallCuda(cudaMemcpy2D(cs->dB, c->ncols * row, cs->hB, (size_t)cs->ldb * row, c->ncols * row, L, cudaMemcpyHostToDevice));
    CallCusparse(cusparseSpMM(cs->handle, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, c->A, cs->B, &zero, cs->C, CUDA_R_64F, a, c->buffer));
    if (transfers) CallCuda(cudaMemcpy(cs->hC, cs->dC, c->nrows * L * row, cudaMemcpyDeviceToHost));
    return 0;
  });
}

extern "C" int BenchCusparseSpMMGetResult(BenchCusparseSpMM cs, double *C, int ldc)
{
  const size_t row = sizeof(double);

  CallCuda(cudaMemcpy2D(C, (size_t)ldc * row, cs->dC, (size_t)cs->A.nrows * row, (size_t)cs->A.nrows * row, (size_t)cs->L, cudaMemcpyDeviceToHost));
  return 0;
}

extern "C" int BenchCusparseSpMMDestroy(BenchCusparseSpMM *cs)
{
  BenchCusparseSpMM c = *cs;

  *cs = NULL;
  if (!c) return 0;
  if (c->B) CallCusparse(cusparseDestroyDnMat(c->B));
  if (c->C) CallCusparse(cusparseDestroyDnMat(c->C));
  CallBench(SpMatDestroy(&c->A));
  if (c->handle) CallCusparse(cusparseDestroy(c->handle));
  CallCuda(cudaFree(c->dB));
  CallCuda(cudaFree(c->dC));
  delete[] c->hC;
  delete c;
  return 0;
}
