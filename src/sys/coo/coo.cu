/* The sums of COO assembly on the device (ellgcookernels.h): a thread per nonzero */
#include <ellgcookernels.h>
#include <ellgcuda.h>
#include <cuda_runtime.h>

#define ELLG_COO_THREADS 256

__global__ void CooSumKernel(long long nnz, const long long *__restrict__ jmap, const long long *__restrict__ perm, long long nv, const double *__restrict__ v, const double *__restrict__ w, int add, double *__restrict__ a)
{
  const long long k = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  double          s = 0.0;

  if (k >= nnz) return;
  if (jmap)
    for (long long p = jmap[k]; p < jmap[k + 1]; p++) {
      const long long e = perm[p];

      s += e < nv ? v[e] : w[e - nv];
    }
  else {
    const long long e = perm ? perm[k] : k;

    s = e < nv ? v[e] : w[e - nv];
  }
  a[k] = add ? a[k] + s : s;
}

extern "C" int ELLGCudaCooSum(long long nnz, const long long *jmap, const long long *perm, long long nv, const double *v, const double *w, int add, double *a)
{
  if (nnz <= 0) return 0;
  if (!jmap && !perm && !add && nv >= nnz) return (int)cudaMemcpyAsync(a, v, sizeof(double) * (size_t)nnz, cudaMemcpyDeviceToDevice, 0);
  CooSumKernel<<<(unsigned)((nnz + ELLG_COO_THREADS - 1) / ELLG_COO_THREADS), ELLG_COO_THREADS>>>(nnz, jmap, perm, nv, v, w, add, a);
  return (int)cudaGetLastError();
}
