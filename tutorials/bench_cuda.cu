/* CUDA helper of the benchmarks: event timing, copy bandwidth, memory and copies, cuSPARSE CSR
   references SpMV and SpMM (bench_cuda.h) */
#include <cuda_runtime.h>
#include <cusparse.h>
#include <algorithm>
#include <vector>
#include <string.h>
#include "bench_cuda.h"

#define CallCuda(call) \
  do { \
    cudaError_t e_ = (call); \
    if (e_ != cudaSuccess) { \
      (void)cudaGetLastError(); \
      return (int)e_; \
    } \
  } while (0)
#define CallCusparse(call) \
  do { \
    cusparseStatus_t s_ = (call); \
    if (s_ != CUSPARSE_STATUS_SUCCESS) return BENCH_CUSPARSE_BASE + (int)s_; \
  } while (0)
static_assert(BENCH_CUSPARSE_NOT_SUPPORTED == BENCH_CUSPARSE_BASE + (int)CUSPARSE_STATUS_NOT_SUPPORTED, "BENCH_CUSPARSE_NOT_SUPPORTED");

#define CallBench(call) \
  do { \
    int e_ = (call); \
    if (e_) return e_; \
  } while (0)

extern "C" const char *BenchCudaErrorString(int err)
{
  if (err >= BENCH_CUSPARSE_BASE) return cusparseGetErrorString((cusparseStatus_t)(err - BENCH_CUSPARSE_BASE));
  return cudaGetErrorString((cudaError_t)err);
}

extern "C" int BenchCudaGetDeviceCount(int *count)
{
  if (cudaGetDeviceCount(count) != cudaSuccess) {
    *count = 0; /* no driver, no device, or a driver too old for this runtime */
    (void)cudaGetLastError();
  }
  return 0;
}

extern "C" int BenchCudaDeviceName(char *name, size_t len)
{
  cudaDeviceProp prop;
  int            dev;

  CallCuda(cudaGetDevice(&dev));
  CallCuda(cudaGetDeviceProperties(&prop, dev));
  strncpy(name, prop.name, len - 1);
  name[len - 1] = 0;
  return 0;
}

extern "C" int BenchCudaSynchronize(void)
{
  CallCuda(cudaDeviceSynchronize());
  return 0;
}

extern "C" int BenchCudaMalloc(void **ptr, size_t bytes)
{
  *ptr = NULL;
  if (bytes) CallCuda(cudaMalloc(ptr, bytes));
  return 0;
}

extern "C" int BenchCudaFree(void *ptr)
{
  if (ptr) CallCuda(cudaFree(ptr));
  return 0;
}

extern "C" int BenchCudaMallocHost(void **ptr, size_t bytes)
{
  *ptr = NULL;
  if (bytes) CallCuda(cudaMallocHost(ptr, bytes));
  return 0;
}

extern "C" int BenchCudaFreeHost(void *ptr)
{
  if (ptr) CallCuda(cudaFreeHost(ptr));
  return 0;
}

/* cudaMemcpy returns once src may be reused: from pageable memory the last DMA to the device may
   still run, so a timing synchronizes after it */
extern "C" int BenchCudaMemcpyHtoD(void *dst, const void *src, size_t bytes)
{
  if (bytes) CallCuda(cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice));
  return 0;
}

struct _n_BenchCudaTimer {
  cudaEvent_t start, stop;
};

extern "C" int BenchCudaTimerCreate(BenchCudaTimer *timer)
{
  BenchCudaTimer t = new _n_BenchCudaTimer();

  *timer = t;
  CallCuda(cudaEventCreate(&t->start));
  CallCuda(cudaEventCreate(&t->stop));
  return 0;
}

extern "C" int BenchCudaTimerStart(BenchCudaTimer timer)
{
  CallCuda(cudaEventRecord(timer->start, 0));
  return 0;
}

extern "C" int BenchCudaTimerStop(BenchCudaTimer timer, double *ms)
{
  float elapsed;

  CallCuda(cudaEventRecord(timer->stop, 0));
  CallCuda(cudaEventSynchronize(timer->stop));
  CallCuda(cudaEventElapsedTime(&elapsed, timer->start, timer->stop));
  *ms = elapsed;
  return 0;
}

extern "C" int BenchCudaTimerDestroy(BenchCudaTimer *timer)
{
  BenchCudaTimer t = *timer;

  *timer = NULL;
  if (!t) return 0;
  if (t->start) CallCuda(cudaEventDestroy(t->start));
  if (t->stop) CallCuda(cudaEventDestroy(t->stop));
  delete t;
  return 0;
}

static double Median(std::vector<double> v)
{
  std::sort(v.begin(), v.end());
  size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

__global__ void CopyKernel(size_t n, const double *__restrict__ src, double *__restrict__ dst)
{
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) dst[i] = src[i];
}

static int CopyBandwidth(size_t n, int reps, double *src, double *dst, double *memcpy_Bps, double *kernel_Bps)
{
  const int           threads = 256;
  int                 blocks, dev, sms;
  std::vector<double> tm, tk;
  BenchCudaTimer      timer = NULL;
  double              ms;

  CallCuda(cudaGetDevice(&dev));
  CallCuda(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  blocks = 32 * sms;
  CallCuda(cudaMemset(src, 0, n * sizeof(double)));
  CallBench(BenchCudaTimerCreate(&timer));
  for (int r = -1; r < reps; r++) { /* r = -1: warm-up */
    CallBench(BenchCudaTimerStart(timer));
    CallCuda(cudaMemcpyAsync(dst, src, n * sizeof(double), cudaMemcpyDeviceToDevice, 0));
    CallBench(BenchCudaTimerStop(timer, &ms));
    if (r >= 0) tm.push_back(ms);
    CallBench(BenchCudaTimerStart(timer));
    CopyKernel<<<blocks, threads>>>(n, src, dst);
    CallCuda(cudaGetLastError());
    CallBench(BenchCudaTimerStop(timer, &ms));
    if (r >= 0) tk.push_back(ms);
  }
  CallBench(BenchCudaTimerDestroy(&timer));
  *memcpy_Bps = 2.0 * n * sizeof(double) / (1e-3 * Median(tm));
  *kernel_Bps = 2.0 * n * sizeof(double) / (1e-3 * Median(tk));
  return 0;
}

extern "C" int BenchCudaCopyBandwidth(size_t bytes, int reps, double *memcpy_Bps, double *kernel_Bps)
{
  size_t  n = bytes / sizeof(double);
  double *src = NULL, *dst = NULL;
  int     err;

  CallCuda(cudaMalloc(&src, n * sizeof(double)));
  if ((err = (int)cudaMalloc(&dst, n * sizeof(double)))) {
    (void)cudaGetLastError();
    cudaFree(src);
    return err;
  }
  err = CopyBandwidth(n, reps, src, dst, memcpy_Bps, kernel_Bps);
  cudaFree(src);
  cudaFree(dst);
  return err;
}

/* a CSR matrix on the device, with a cuSPARSE handle and descriptor, and a work buffer for the products */
struct BenchCsr {
  cusparseHandle_t     handle;
  cusparseSpMatDescr_t A;
  int                  nrows, ncols, *rowptr, *colidx;
  double              *val;
  void                *buffer;
  size_t               buffersize;
};

static int CsrSetUp(BenchCsr *c, int nrows, int ncols, const int *rowptr, const int *colidx, const double *val)
{
  int nnz = rowptr[nrows];

  c->nrows = nrows;
  c->ncols = ncols;
  CallCuda(cudaMalloc(&c->rowptr, (nrows + 1) * sizeof(int)));
  CallCuda(cudaMalloc(&c->colidx, (size_t)nnz * sizeof(int)));
  CallCuda(cudaMalloc(&c->val, (size_t)nnz * sizeof(double)));
  CallCuda(cudaMemcpy(c->rowptr, rowptr, (nrows + 1) * sizeof(int), cudaMemcpyHostToDevice));
  CallCuda(cudaMemcpy(c->colidx, colidx, (size_t)nnz * sizeof(int), cudaMemcpyHostToDevice));
  CallCuda(cudaMemcpy(c->val, val, (size_t)nnz * sizeof(double), cudaMemcpyHostToDevice));
  CallCusparse(cusparseCreate(&c->handle));
  CallCusparse(cusparseCreateCsr(&c->A, nrows, ncols, nnz, c->rowptr, c->colidx, c->val, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
  return 0;
}

/* a work buffer of at least size bytes */
static int CsrBuffer(BenchCsr *c, size_t size)
{
  if (size > c->buffersize) {
    CallCuda(cudaFree(c->buffer));
    c->buffer = NULL;
    CallCuda(cudaMalloc(&c->buffer, size));
    c->buffersize = size;
  }
  return 0;
}

static int CsrDestroy(BenchCsr *c)
{
  if (c->A) CallCusparse(cusparseDestroySpMat(c->A));
  if (c->handle) CallCusparse(cusparseDestroy(c->handle));
  CallCuda(cudaFree(c->rowptr));
  CallCuda(cudaFree(c->colidx));
  CallCuda(cudaFree(c->val));
  CallCuda(cudaFree(c->buffer));
  return 0;
}

struct _n_BenchCusparse {
  BenchCsr             csr;
  cusparseDnVecDescr_t x, y;
  double              *dx, *dy;
};

static int CusparseSetUp(BenchCusparse cs, int nrows, int ncols, const int *rowptr, const int *colidx, const double *val, const double *x)
{
  CallBench(CsrSetUp(&cs->csr, nrows, ncols, rowptr, colidx, val));
  CallCuda(cudaMalloc(&cs->dx, (size_t)ncols * sizeof(double)));
  CallCuda(cudaMalloc(&cs->dy, (size_t)nrows * sizeof(double)));
  CallCuda(cudaMemcpy(cs->dx, x, (size_t)ncols * sizeof(double), cudaMemcpyHostToDevice));
  CallCusparse(cusparseCreateDnVec(&cs->x, ncols, cs->dx, CUDA_R_64F));
  CallCusparse(cusparseCreateDnVec(&cs->y, nrows, cs->dy, CUDA_R_64F));
  return 0;
}

extern "C" int BenchCusparseCreate(int nrows, int ncols, const int *rowptr, const int *colidx, const double *val, const double *x, BenchCusparse *cs)
{
  int err;

  *cs = new _n_BenchCusparse();
  if ((err = CusparseSetUp(*cs, nrows, ncols, rowptr, colidx, val, x))) BenchCusparseDestroy(cs);
  return err;
}

static cusparseSpMVAlg_t CusparseAlg(BenchCusparseAlg alg)
{
  return alg == BENCH_CUSPARSE_CSR_ALG1 ? CUSPARSE_SPMV_CSR_ALG1 : CUSPARSE_SPMV_CSR_ALG2;
}

extern "C" int BenchCusparseTime(BenchCusparse cs, BenchCusparseAlg alg, int warmup, int reps, double *ms)
{
  const double      one = 1.0, zero = 0.0;
  cusparseSpMVAlg_t a   = CusparseAlg(alg);
  BenchCsr         *c   = &cs->csr;
  size_t            size;
  BenchCudaTimer    timer = NULL;

  CallCusparse(cusparseSpMV_bufferSize(c->handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, c->A, cs->x, &zero, cs->y, CUDA_R_64F, a, &size));
  CallBench(CsrBuffer(c, size));
  CallBench(BenchCudaTimerCreate(&timer));
  for (int r = -warmup; r < reps; r++) {
    double t;

    CallBench(BenchCudaTimerStart(timer));
    CallCusparse(cusparseSpMV(c->handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, c->A, cs->x, &zero, cs->y, CUDA_R_64F, a, c->buffer));
    CallBench(BenchCudaTimerStop(timer, &t));
    if (r >= 0) ms[r] = t;
  }
  return BenchCudaTimerDestroy(&timer);
}

extern "C" int BenchCusparseGetResult(BenchCusparse cs, double *y)
{
  CallCuda(cudaMemcpy(y, cs->dy, (size_t)cs->csr.nrows * sizeof(double), cudaMemcpyDeviceToHost));
  return 0;
}

extern "C" int BenchCusparseDestroy(BenchCusparse *cs)
{
  BenchCusparse c = *cs;

  *cs = NULL;
  if (!c) return 0;
  if (c->x) CallCusparse(cusparseDestroyDnVec(c->x));
  if (c->y) CallCusparse(cusparseDestroyDnVec(c->y));
  CallBench(CsrDestroy(&c->csr));
  CallCuda(cudaFree(c->dx));
  CallCuda(cudaFree(c->dy));
  delete c;
  return 0;
}

struct _n_BenchCusparseSpMM {
  BenchCsr             csr;
  cusparseDnMatDescr_t B, C;
  int                  L, ldb;
  const double        *hB; /* B on the host, where the copies with transfers come from */
  double              *dB, *dC, *hC;
};

static int CusparseSpMMSetUp(BenchCusparseSpMM cs, int nrows, int ncols, const int *rowptr, const int *colidx, const double *val, int L, const double *B, int ldb)
{
  CallBench(CsrSetUp(&cs->csr, nrows, ncols, rowptr, colidx, val));
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
  BenchCsr         *c   = &cs->csr;
  const size_t      row = sizeof(double), L = (size_t)cs->L;
  size_t            size;
  BenchCudaTimer    timer = NULL;

  CallCusparse(cusparseSpMM_bufferSize(c->handle, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, c->A, cs->B, &zero, cs->C, CUDA_R_64F, a, &size));
  CallBench(CsrBuffer(c, size));
  if (alg != BENCH_CUSPARSE_SPMM_DEFAULT) CallCusparse(cusparseSpMM_preprocess(c->handle, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, c->A, cs->B, &zero, cs->C, CUDA_R_64F, a, c->buffer));
  CallBench(BenchCudaTimerCreate(&timer));
  for (int r = -warmup; r < reps; r++) {
    double t;

    CallBench(BenchCudaTimerStart(timer));
    if (transfers) CallCuda(cudaMemcpy2D(cs->dB, c->ncols * row, cs->hB, (size_t)cs->ldb * row, c->ncols * row, L, cudaMemcpyHostToDevice));
    CallCusparse(cusparseSpMM(c->handle, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, c->A, cs->B, &zero, cs->C, CUDA_R_64F, a, c->buffer));
    if (transfers) CallCuda(cudaMemcpy(cs->hC, cs->dC, c->nrows * L * row, cudaMemcpyDeviceToHost));
    CallBench(BenchCudaTimerStop(timer, &t));
    if (r >= 0) ms[r] = t;
  }
  return BenchCudaTimerDestroy(&timer);
}

extern "C" int BenchCusparseSpMMGetResult(BenchCusparseSpMM cs, double *C, int ldc)
{
  const size_t row = sizeof(double);

  CallCuda(cudaMemcpy2D(C, (size_t)ldc * row, cs->dC, (size_t)cs->csr.nrows * row, (size_t)cs->csr.nrows * row, (size_t)cs->L, cudaMemcpyDeviceToHost));
  return 0;
}

extern "C" int BenchCusparseSpMMDestroy(BenchCusparseSpMM *cs)
{
  BenchCusparseSpMM c = *cs;

  *cs = NULL;
  if (!c) return 0;
  if (c->B) CallCusparse(cusparseDestroyDnMat(c->B));
  if (c->C) CallCusparse(cusparseDestroyDnMat(c->C));
  CallBench(CsrDestroy(&c->csr));
  CallCuda(cudaFree(c->dB));
  CallCuda(cudaFree(c->dC));
  delete[] c->hC;
  delete c;
  return 0;
}
