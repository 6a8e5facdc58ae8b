/*
   The strength graph on the device (ellggraphkernels.h): a thread per row, each entry's mirror found by bisection
   in the row of its column (the rows of the stencils and meshes PCGAMG coarsens are short and near each other)
*/
#include <ellggraphkernels.h>
#include <ellgcuda.h>
#include <cuda_runtime.h>

#define ELLG_GRAPH_THREADS 256

static __device__ __forceinline__ int GraphFind(const int *aj, int lo, int hi, int j)
{
  hi--;
  while (lo <= hi) {
    const int mid = (lo + hi) >> 1, c = aj[mid];

    if (c < j) lo = mid + 1;
    else if (c > j) hi = mid - 1;
    else return mid;
  }
  return -1;
}

__global__ void GraphValuesKernel(int m, const int *__restrict__ ai, const int *__restrict__ aj, const double *__restrict__ a, int absval, int mirror, double *__restrict__ g, int *missing)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  int       miss = 0;

  if (i >= m) return;
  for (int k = ai[i]; k < ai[i + 1]; k++) {
    double v = absval ? fabs(a[k]) : a[k];

    if (mirror) {
      const int j = aj[k], t = j < m ? GraphFind(aj, ai[j], ai[j + 1], i) : -1;

      if (t < 0) {
        miss++;
        continue;
      }
      v += absval ? fabs(a[t]) : a[t];
    }
    g[k] = v;
  }
  if (miss) atomicAdd(missing, miss);
}

__global__ void GraphScalingKernel(int m, const int *__restrict__ ai, const int *__restrict__ aj, const double *__restrict__ g, double *__restrict__ s)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;

  if (i >= m) return;
  const int d = GraphFind(aj, ai[i], ai[i + 1], i);
  double    v = d < 0 ? 0.0 : g[d];

  if (v != 0.0) v = 1.0 / v;
  s[i] = sqrt(fabs(v));
}

__global__ void GraphScaleKernel(int m, const int *__restrict__ ai, const int *__restrict__ aj, const double *__restrict__ s, double *__restrict__ g)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;

  if (i >= m) return;
  const double si = s[i];

  for (int k = ai[i]; k < ai[i + 1]; k++) g[k] = (g[k] * si) * s[aj[k]];
}

extern "C" int ELLGCudaGraphValues(int m, const int *ai, const int *aj, const double *a, int absval, int mirror, double *g, int *missing)
{
  int        *dmiss = NULL;
  cudaError_t e;

  *missing = 0;
  if (m <= 0) return 0;
  if ((e = cudaMalloc((void **)&dmiss, sizeof(int))) != cudaSuccess) return (int)e;
  if ((e = cudaMemsetAsync(dmiss, 0, sizeof(int), 0)) == cudaSuccess) {
    GraphValuesKernel<<<(m + ELLG_GRAPH_THREADS - 1) / ELLG_GRAPH_THREADS, ELLG_GRAPH_THREADS>>>(m, ai, aj, a, absval, mirror, g, dmiss);
    if ((e = cudaGetLastError()) == cudaSuccess) e = cudaMemcpy(missing, dmiss, sizeof(int), cudaMemcpyDeviceToHost);
  }
  cudaFree(dmiss);
  return (int)e;
}

extern "C" int ELLGCudaGraphScale(int m, const int *ai, const int *aj, double *s, double *g)
{
  const int blocks = (m + ELLG_GRAPH_THREADS - 1) / ELLG_GRAPH_THREADS;

  if (m <= 0) return 0;
  GraphScalingKernel<<<blocks, ELLG_GRAPH_THREADS>>>(m, ai, aj, g, s);
  GraphScaleKernel<<<blocks, ELLG_GRAPH_THREADS>>>(m, ai, aj, s, g);
  return (int)cudaGetLastError();
}
