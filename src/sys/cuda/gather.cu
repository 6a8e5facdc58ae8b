/* Gather and scatter kernels through an index list, on a given stream (the host backend's: gatherhost.c) */
#include <cuda_runtime.h>
#include "ellgcuda.h"

/* the rows idx of the columns blockIdx.y, blockIdx.y + gridDim.y, ... of x (leading dimension ldx) into those of buf (leading dimension ldb) */
__global__ void GatherKernel(int n, int ncols, const int *__restrict__ idx, const double *__restrict__ x, size_t ldx, double *__restrict__ buf, size_t ldb)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  for (int j = blockIdx.y; j < ncols; j += gridDim.y) buf[j * ldb + i] = x[j * ldx + idx[i]];
}

/* column blockIdx.y of buf (leading dimension ldb) into the rows idx of column blockIdx.y of y (leading dimension ldy) */
__global__ void ScatterKernel(int n, const int *__restrict__ idx, const double *__restrict__ buf, size_t ldb, double *__restrict__ y, size_t ldy, int add)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const double v = buf[blockIdx.y * ldb + i];
  double      *t = y + blockIdx.y * ldy + idx[i];
  *t             = add ? *t + v : v;
}

extern "C" int ELLGCudaGather(void *stream, int n, const int *idx, const double *x, double *buf)
{
  return ELLGCudaGatherColumns(stream, n, 1, idx, x, 0, buf, 0);
}

extern "C" int ELLGCudaGatherColumns(void *stream, int n, int ncols, const int *idx, const double *x, int ldx, double *buf, int ldb)
{
  if (n <= 0 || ncols <= 0) return 0;
  GatherKernel<<<dim3((n + 255) / 256, ncols < 65535 ? ncols : 65535), 256, 0, (cudaStream_t)stream>>>(n, ncols, idx, x, (size_t)ldx, buf, (size_t)ldb);
  return (int)cudaGetLastError();
}

extern "C" int ELLGCudaScatter(void *stream, int n, const int *idx, const double *buf, double *y, int add)
{
  return ELLGCudaScatterColumns(stream, n, 1, idx, buf, 0, y, 0, add);
}

extern "C" int ELLGCudaScatterColumns(void *stream, int n, int ncols, const int *idx, const double *buf, int ldb, double *y, int ldy, int add)
{
  if (n <= 0 || ncols <= 0) return 0;
  ScatterKernel<<<dim3((n + 255) / 256, ncols), 256, 0, (cudaStream_t)stream>>>(n, idx, buf, (size_t)ldb, y, (size_t)ldy, add);
  return (int)cudaGetLastError();
}
