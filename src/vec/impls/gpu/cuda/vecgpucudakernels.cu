/* Kernels of the cuda backend: cuBLAS for BLAS-1 updates, own kernels for the rest and for the reductions */
#include <cuda_runtime.h>
#include <cublas_v2.h>
#include <climits>
#include <cmath>
#include "ellgcuda.h"
#include "vecgpukernels.h"

#define BLOCK     256   /* threads per block */
#define MAXGRID   65536 /* blocks of an elementwise kernel (grid-stride loop) */
#define MAXBLOCKS 1024  /* blocks of a reduction */
#define GROUP     8     /* vectors per kernel in mdot and maxpy */

/* Scratch of the reductions: per-block partial results, the blocks done (back to 0 by the last), and the final
   results of MaxLoc */
static __device__ double       partial[GROUP * MAXBLOCKS];
static __device__ int          partialidx[MAXBLOCKS];
static __device__ unsigned int blocksdone;
static __device__ double       result[GROUP];
static __device__ int          resultidx;

/* The final results of the sum and max reductions, in mapped pinned host memory that the last block writes: the
   host reads them once the default stream is synchronized, with no copy (a copy after the kernel costs a second
   round trip to the device, as much again as the kernel's launch and wait on a small vector) */
static double *hostresult;

static int HostResult(double **h)
{
  int err;

  if (!hostresult && (err = (int)cudaHostAlloc((void **)&hostresult, GROUP * sizeof(double), cudaHostAllocMapped | cudaHostAllocPortable))) {
    hostresult = nullptr;
    return err;
  }
  *h = hostresult;
  return 0;
}

extern "C" int ELLGCudaVecFreeResults(void)
{
  double *h = hostresult;

  hostresult = nullptr;
  return h ? (int)cudaFreeHost(h) : 0;
}

static int Blocks(int n, int max)
{
  const int b = (n + BLOCK - 1) / BLOCK;
  return b < max ? b : max;
}

/* The library's cuBLAS handle, set up for host scalars on the default stream */
static int Handle(cublasHandle_t *h)
{
  void          *p;
  int            err = ELLGCublasGetHandle(&p);
  cublasStatus_t s;

  if (err) return err;
  *h = (cublasHandle_t)p;
  if ((s = cublasSetPointerMode(*h, CUBLAS_POINTER_MODE_HOST)) != CUBLAS_STATUS_SUCCESS) return ELLG_CUDA_CUBLAS_BASE + (int)s;
  if ((s = cublasSetStream(*h, 0)) != CUBLAS_STATUS_SUCCESS) return ELLG_CUDA_CUBLAS_BASE + (int)s;
  return 0;
}

static int CublasError(cublasStatus_t s)
{
  return s == CUBLAS_STATUS_SUCCESS ? 0 : ELLG_CUDA_CUBLAS_BASE + (int)s;
}

/* ---------------------------------------------------------------- elementwise */

template <class F>
__global__ void Map(int n, F f)
{
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long long)blockDim.x * gridDim.x) f((int)i);
}

template <class F>
static int Launch(int n, F f)
{
  if (n <= 0) return 0;
  Map<<<Blocks(n, MAXGRID), BLOCK>>>(n, f);
  return (int)cudaGetLastError();
}

struct SetF {
  double          a;
  double         *x;
  __device__ void operator()(int i) const { x[i] = a; }
};

struct ShiftF {
  double          a;
  double         *x;
  __device__ void operator()(int i) const { x[i] += a; }
};

struct AXPBYF {
  double          a, b;
  const double   *x;
  double         *y;
  __device__ void operator()(int i) const { y[i] = (a != 0.0 ? a * x[i] : 0.0) + (b != 0.0 ? b * y[i] : 0.0); }
};

struct AXPBYPCZF {
  double          a, b, c;
  const double   *x, *y;
  double         *z;
  __device__ void operator()(int i) const { z[i] = (a != 0.0 ? a * x[i] : 0.0) + (b != 0.0 ? b * y[i] : 0.0) + (c != 0.0 ? c * z[i] : 0.0); }
};

struct WAXPYF {
  double          a;
  const double   *x, *y;
  double         *w;
  __device__ void operator()(int i) const { w[i] = (a != 0.0 ? a * x[i] : 0.0) + y[i]; }
};

/* y += sum of the first m of a[j] x[j] */
struct MAXPYF {
  int             m;
  double          a[GROUP];
  const double   *x[GROUP];
  double         *y;
  __device__ void operator()(int i) const
  {
    double s = y[i];
#pragma unroll
    for (int j = 0; j < GROUP; j++)
      if (j < m) s += a[j] * x[j][i];
    y[i] = s;
  }
};

struct UnaryF {
  VecGPUUnaryOp   op;
  double         *x;
  __device__ void operator()(int i) const
  {
    const double a = x[i];

    switch (op) {
    case VECGPU_UNARY_ABS:
      x[i] = fabs(a);
      break;
    case VECGPU_UNARY_RECIPROCAL:
      if (a != 0.0) x[i] = 1.0 / a;
      break;
    case VECGPU_UNARY_SQRTABS:
      x[i] = sqrt(fabs(a));
      break;
    case VECGPU_UNARY_EXP:
      x[i] = exp(a);
      break;
    case VECGPU_UNARY_LOG:
      x[i] = log(a);
      break;
    }
  }
};

struct BinaryF {
  VecGPUBinaryOp  op;
  const double   *x, *y;
  double         *w;
  __device__ void operator()(int i) const
  {
    const double a = x[i], b = y[i];

    switch (op) {
    case VECGPU_BINARY_MULT:
      w[i] = a * b;
      break;
    case VECGPU_BINARY_DIVIDE:
      w[i] = b != 0.0 ? a / b : 0.0;
      break;
    case VECGPU_BINARY_MAX:
      w[i] = a < b ? b : a;
      break;
    case VECGPU_BINARY_MIN:
      w[i] = a < b ? a : b;
      break;
    case VECGPU_BINARY_MAXABS:
      w[i] = fabs(a) < fabs(b) ? fabs(b) : fabs(a);
      break;
    }
  }
};

/* ---------------------------------------------------------------- reductions */

struct SumOp {
  static __device__ double Identity() { return 0.0; }
  static __device__ double Combine(double a, double b) { return a + b; }
};

/* maximum of non-negative values; NaN wins */
struct MaxOp {
  static __device__ double Identity() { return 0.0; }
  static __device__ double Combine(double a, double b) { return (a != a || a > b) ? a : b; }
};

template <int NV, class Op>
__device__ void BlockReduce(double (*sh)[BLOCK])
{
  for (int s = BLOCK / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s)
      for (int k = 0; k < NV; k++) sh[k][threadIdx.x] = Op::Combine(sh[k][threadIdx.x], sh[k][threadIdx.x + s]);
    __syncthreads();
  }
}

/* block b reduces its part of the NV values f(i, v) into partial[k * gridDim.x + b]; the last block to finish then
   reduces the partial results in block order (the same result every run) into out[k] */
template <int NV, class Op, class F>
__global__ void ReduceKernel(int n, F f, double *out)
{
  __shared__ double sh[NV][BLOCK];
  __shared__ bool   last;
  double            acc[NV], v[NV];

  for (int k = 0; k < NV; k++) acc[k] = Op::Identity();
  for (long long i = (long long)blockIdx.x * BLOCK + threadIdx.x; i < n; i += (long long)BLOCK * gridDim.x) {
    f((int)i, v);
    for (int k = 0; k < NV; k++) acc[k] = Op::Combine(acc[k], v[k]);
  }
  for (int k = 0; k < NV; k++) sh[k][threadIdx.x] = acc[k];
  __syncthreads();
  BlockReduce<NV, Op>(sh);
  if (threadIdx.x == 0) {
    for (int k = 0; k < NV; k++) partial[k * gridDim.x + blockIdx.x] = sh[k][0];
    __threadfence();
    last = atomicInc(&blocksdone, gridDim.x - 1) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last) return;
  for (int k = 0; k < NV; k++) {
    double a = Op::Identity();

    for (int j = threadIdx.x; j < (int)gridDim.x; j += BLOCK) a = Op::Combine(a, ((volatile double *)partial)[k * gridDim.x + j]);
    sh[k][threadIdx.x] = a;
  }
  __syncthreads();
  BlockReduce<NV, Op>(sh);
  if (threadIdx.x == 0) {
    for (int k = 0; k < NV; k++) out[k] = sh[k][0];
    __threadfence_system();
  }
}

/* r[k] = Op over i of the NV values f(i, v), in a fixed order (the same result every run): one kernel, whose result
   the host reads from mapped memory once the default stream is done */
template <int NV, class Op, class F>
static int Reduce(int n, F f, double *r)
{
  double *h;
  int     err;

  if (n <= 0) {
    for (int k = 0; k < NV; k++) r[k] = 0.0;
    return 0;
  }
  if ((err = HostResult(&h))) return err;
  ReduceKernel<NV, Op><<<Blocks(n, MAXBLOCKS), BLOCK>>>(n, f, h);
  if ((err = (int)cudaGetLastError()) || (err = (int)cudaStreamSynchronize(0))) return err;
  for (int k = 0; k < NV; k++) r[k] = ((volatile double *)h)[k];
  return 0;
}

struct ValueF {
  const double   *x;
  __device__ void operator()(int i, double *v) const { v[0] = x[i]; }
};

struct AbsF {
  const double   *x;
  __device__ void operator()(int i, double *v) const { v[0] = fabs(x[i]); }
};

struct DotF {
  const double   *x, *y;
  __device__ void operator()(int i, double *v) const { v[0] = x[i] * y[i]; }
};

struct SquareF {
  const double   *x;
  __device__ void operator()(int i, double *v) const { v[0] = x[i] * x[i]; }
};

struct DotNorm2F {
  const double   *s, *t;
  __device__ void operator()(int i, double *v) const
  {
    v[0] = s[i] * t[i];
    v[1] = t[i] * t[i];
  }
};

/* x^T y[j] for the first m of the y[j] */
struct MDotF {
  int             m;
  const double   *x;
  const double   *y[GROUP];
  __device__ void operator()(int i, double *v) const
  {
    const double a = x[i];
#pragma unroll
    for (int j = 0; j < GROUP; j++) v[j] = j < m ? a * y[j][i] : 0.0;
  }
};

struct PointwiseDivideAbsF {
  const double   *x, *y;
  __device__ void operator()(int i, double *v) const { v[0] = y[i] != 0.0 ? fabs(x[i] / y[i]) : fabs(x[i]); }
};

/* the first index wins among equal values */
template <bool MIN>
__device__ void Better(double &v, int &k, double w, int j)
{
  if ((MIN ? w < v : w > v) || (w == v && j < k)) {
    v = w;
    k = j;
  }
}

template <bool MIN>
__device__ void BlockReduceLoc(double *sv, int *sk)
{
  for (int s = BLOCK / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) Better<MIN>(sv[threadIdx.x], sk[threadIdx.x], sv[threadIdx.x + s], sk[threadIdx.x + s]);
    __syncthreads();
  }
}

template <bool MIN>
__global__ void MaxLocPartial(int n, const double *x)
{
  __shared__ double sv[BLOCK];
  __shared__ int    sk[BLOCK];
  double            v = MIN ? INFINITY : -INFINITY;
  int               k = INT_MAX;

  for (long long i = (long long)blockIdx.x * BLOCK + threadIdx.x; i < n; i += (long long)BLOCK * gridDim.x) Better<MIN>(v, k, x[i], (int)i);
  sv[threadIdx.x] = v;
  sk[threadIdx.x] = k;
  __syncthreads();
  BlockReduceLoc<MIN>(sv, sk);
  if (threadIdx.x == 0) {
    partial[blockIdx.x]    = sv[0];
    partialidx[blockIdx.x] = sk[0];
  }
}

template <bool MIN>
__global__ void MaxLocFinal(int nb, const double *x)
{
  __shared__ double sv[BLOCK];
  __shared__ int    sk[BLOCK];
  double            v = MIN ? INFINITY : -INFINITY;
  int               k = INT_MAX;

  for (int j = threadIdx.x; j < nb; j += BLOCK) Better<MIN>(v, k, partial[j], partialidx[j]);
  sv[threadIdx.x] = v;
  sk[threadIdx.x] = k;
  __syncthreads();
  BlockReduceLoc<MIN>(sv, sk);
  if (threadIdx.x == 0) {
    /* as in PETSc's sequential loop, which compares against x[0] first: a NaN there is the result */
    if (x[0] != x[0]) {
      sv[0] = x[0];
      sk[0] = 0;
    }
    result[0] = sv[0];
    resultidx = sk[0];
  }
}

/* ---------------------------------------------------------------- the table */

static int Set(int n, double alpha, double *x)
{
  return Launch(n, SetF{alpha, x});
}

static int Scale(int n, double alpha, double *x)
{
  cublasHandle_t h;
  int            err;

  if (n <= 0) return 0;
  if (alpha == 0.0) return Set(n, 0.0, x);
  if ((err = Handle(&h))) return err;
  return CublasError(cublasDscal(h, n, &alpha, x, 1));
}

static int Shift(int n, double alpha, double *x)
{
  return Launch(n, ShiftF{alpha, x});
}

static int Copy(int n, const double *x, double *y)
{
  cublasHandle_t h;
  int            err;

  if (n <= 0) return 0;
  if ((err = Handle(&h))) return err;
  return CublasError(cublasDcopy(h, n, x, 1, y, 1));
}

static int Swap(int n, double *x, double *y)
{
  cublasHandle_t h;
  int            err;

  if (n <= 0) return 0;
  if ((err = Handle(&h))) return err;
  return CublasError(cublasDswap(h, n, x, 1, y, 1));
}

static int AXPY(int n, double alpha, const double *x, double *y)
{
  cublasHandle_t h;
  int            err;

  if (n <= 0) return 0;
  if ((err = Handle(&h))) return err;
  return CublasError(cublasDaxpy(h, n, &alpha, x, 1, y, 1));
}

static int AXPBY(int n, double alpha, double beta, const double *x, double *y)
{
  return Launch(n, AXPBYF{alpha, beta, x, y});
}

static int AXPBYPCZ(int n, double alpha, double beta, double gamma, const double *x, const double *y, double *z)
{
  return Launch(n, AXPBYPCZF{alpha, beta, gamma, x, y, z});
}

static int WAXPY(int n, double alpha, const double *x, const double *y, double *w)
{
  return Launch(n, WAXPYF{alpha, x, y, w});
}

static int MAXPY(int n, int nv, const double *alpha, const double *const *x, double *y)
{
  for (int j = 0; j < nv; j += GROUP) {
    MAXPYF f;
    int    err;

    f.m = nv - j < GROUP ? nv - j : GROUP;
    f.y = y;
    for (int k = 0; k < GROUP; k++) {
      f.a[k] = k < f.m ? alpha[j + k] : 0.0;
      f.x[k] = k < f.m ? x[j + k] : nullptr;
    }
    if ((err = Launch(n, f))) return err;
  }
  return 0;
}

static int Unary(VecGPUUnaryOp op, int n, double *x)
{
  return Launch(n, UnaryF{op, x});
}

static int Binary(VecGPUBinaryOp op, int n, const double *x, const double *y, double *w)
{
  return Launch(n, BinaryF{op, x, y, w});
}

static int Dot(int n, const double *x, const double *y, double *r)
{
  return Reduce<1, SumOp>(n, DotF{x, y}, r);
}

static int MDot(int n, int nv, const double *x, const double *const *y, double *r)
{
  for (int j = 0; j < nv; j += GROUP) {
    MDotF  f;
    double g[GROUP];
    int    err;

    f.m = nv - j < GROUP ? nv - j : GROUP;
    f.x = x;
    for (int k = 0; k < GROUP; k++) f.y[k] = k < f.m ? y[j + k] : nullptr;
    if ((err = Reduce<GROUP, SumOp>(n, f, g))) return err;
    for (int k = 0; k < f.m; k++) r[j + k] = g[k];
  }
  return 0;
}

static int DotNorm2(int n, const double *s, const double *t, double *dp, double *nm)
{
  double v[2];
  int    err = Reduce<2, SumOp>(n, DotNorm2F{s, t}, v);

  *dp = v[0];
  *nm = v[1];
  return err;
}

static int Norm1(int n, const double *x, double *r)
{
  return Reduce<1, SumOp>(n, AbsF{x}, r);
}

/* below this sum of squares, squares that underflowed could matter: cuBLAS's scaled norm then (as above overflow) */
#define NORM2_SAFE_SUM 1e-250

/* the square root of the sum of squares, one reduction; cuBLAS's scaled nrm2 when that sum overflowed or is so
   small that entries whose squares underflow could count (a zero vector too) */
static int Norm2(int n, const double *x, double *r)
{
  cublasHandle_t h;
  double         s;
  int            err;

  if ((err = Reduce<1, SumOp>(n, SquareF{x}, &s))) return err;
  if (n <= 0 || (std::isfinite(s) && s >= NORM2_SAFE_SUM)) {
    *r = std::sqrt(s);
    return 0;
  }
  if (s != s) { /* a NaN entry: the norm is NaN */
    *r = s;
    return 0;
  }
  if ((err = Handle(&h))) return err;
  return CublasError(cublasDnrm2(h, n, x, 1, r));
}

static int NormInf(int n, const double *x, double *r)
{
  return Reduce<1, MaxOp>(n, AbsF{x}, r);
}

static int Sum(int n, const double *x, double *r)
{
  return Reduce<1, SumOp>(n, ValueF{x}, r);
}

static int MaxLoc(int n, int min, const double *x, double *val, int *idx)
{
  const int nb = Blocks(n, MAXBLOCKS);
  int       err;

  if (min) {
    MaxLocPartial<true><<<nb, BLOCK>>>(n, x);
    MaxLocFinal<true><<<1, BLOCK>>>(nb, x);
  } else {
    MaxLocPartial<false><<<nb, BLOCK>>>(n, x);
    MaxLocFinal<false><<<1, BLOCK>>>(nb, x);
  }
  if ((err = (int)cudaGetLastError())) return err;
  if ((err = (int)cudaMemcpyFromSymbol(val, result, sizeof(double)))) return err;
  return (int)cudaMemcpyFromSymbol(idx, resultidx, sizeof(int));
}

static int MaxPointwiseDivide(int n, const double *x, const double *y, double *r)
{
  return Reduce<1, MaxOp>(n, PointwiseDivideAbsF{x, y}, r);
}

extern "C" const VecGPUKernels VecGPUKernelsCuda = {
  .set                = Set,
  .scale              = Scale,
  .shift              = Shift,
  .copy               = Copy,
  .swap               = Swap,
  .axpy               = AXPY,
  .axpby              = AXPBY,
  .axpbypcz           = AXPBYPCZ,
  .waxpy              = WAXPY,
  .maxpy              = MAXPY,
  .unary              = Unary,
  .binary             = Binary,
  .dot                = Dot,
  .mdot               = MDot,
  .dotnorm2           = DotNorm2,
  .norm1              = Norm1,
  .norm2              = Norm2,
  .norminf            = NormInf,
  .sum                = Sum,
  .maxloc             = MaxLoc,
  .maxpointwisedivide = MaxPointwiseDivide,
};
