/* Values rounded to single precision (a matrix of single-precision values, its SOR and factors): the check that they
   fit, and the conversion (ellgcuda.h) */
#include <cuda_runtime.h>
#include <float.h>

/* the first entry found beyond single precision's range (ULLONG_MAX: none) */
__device__ unsigned long long ELLGFirstBeyondSingle;

__global__ void BeyondSingleKernel(long n, const double *__restrict__ v)
{
  for (long k = blockIdx.x * (long)blockDim.x + threadIdx.x; k < n; k += (long)gridDim.x * blockDim.x) {
    const double a = fabs(v[k]);
    if (a > (double)FLT_MAX && a <= DBL_MAX) atomicMin(&ELLGFirstBeyondSingle, (unsigned long long)k);
  }
}

/* *first: the least index k < n of a finite v[k] (in device memory) whose magnitude is beyond FLT_MAX, -1 if none */
extern "C" int ELLGCudaValuesBeyondSingle(long n, const double *v, long long *first)
{
  unsigned long long none = ~0ull, k = ~0ull;
  cudaError_t        e;

  *first = -1;
  if (n <= 0) return 0;
  if ((e = cudaMemcpyToSymbol(ELLGFirstBeyondSingle, &none, sizeof(none)))) return (int)e;
  BeyondSingleKernel<<<(int)((n + 255) / 256 < 4096 ? (n + 255) / 256 : 4096), 256>>>(n, v);
  if ((e = cudaGetLastError())) return (int)e;
  if ((e = cudaMemcpyFromSymbol(&k, ELLGFirstBeyondSingle, sizeof(k)))) return (int)e;
  if (k != none) *first = (long long)k;
  return 0;
}

__global__ void ToSingleKernel(long n, const double *__restrict__ v, float *__restrict__ s)
{
  for (long k = blockIdx.x * (long)blockDim.x + threadIdx.x; k < n; k += (long)gridDim.x * blockDim.x) s[k] = (float)v[k];
}

__global__ void ToDoubleKernel(long n, const float *__restrict__ s, double *__restrict__ v)
{
  for (long k = blockIdx.x * (long)blockDim.x + threadIdx.x; k < n; k += (long)gridDim.x * blockDim.x) v[k] = (double)s[k];
}

/* v[k] = s[k], k < n, in device memory */
extern "C" int ELLGCudaToDouble(long n, const float *s, double *v)
{
  if (n <= 0) return 0;
  ToDoubleKernel<<<(int)((n + 255) / 256 < 4096 ? (n + 255) / 256 : 4096), 256>>>(n, s, v);
  return (int)cudaGetLastError();
}

/* s[k] = v[k] rounded to single precision, k < n, in device memory */
extern "C" int ELLGCudaToSingle(long n, const double *v, float *s)
{
  if (n <= 0) return 0;
  ToSingleKernel<<<(int)((n + 255) / 256 < 4096 ? (n + 255) / 256 : 4096), 256>>>(n, v, s);
  return (int)cudaGetLastError();
}
