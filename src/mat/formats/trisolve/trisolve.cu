/*
   Triangular solves on the device in one launch (ellgtrisolve.h): each thread takes a row of the level
   order, waits until the rows it reads are done, and marks its own row done. Blocks take their rows in
   the order they start (a ticket), so every row a thread waits for belongs to a block that has started:
   the waits always end.
*/
#include <ellgtrisolve.h>
#include <ellgcuda.h>
#include <cuda_runtime.h>

#define ELLG_TRI_THREADS 128

/* waits until the row's flag holds the epoch: plain loads of L2 with a pause between them (the waiting threads
   then leave the memory system to the rows being computed), then a fence so that its value is read after */
static __device__ __forceinline__ void WaitFor(const unsigned *flag, unsigned epoch)
{
  while (*(const volatile unsigned *)flag != epoch) __nanosleep(64);
  __threadfence();
}

static __device__ __forceinline__ void StoreRelease(unsigned *p, unsigned v)
{
  asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

static __global__ void TriSolveLevels(int n, const int *__restrict__ perm, const int *__restrict__ rowptr, const int *__restrict__ colidx, const double *__restrict__ val, const double *__restrict__ dinv, unsigned *flags, unsigned epoch, int *ticket, const double *b, double *x)
{
  __shared__ int first;

  if (threadIdx.x == 0) {
    const int t = atomicAdd(ticket, 1);

    if (t == (int)gridDim.x - 1) *ticket = 0; /* every block has its ticket: ready for the next solve */
    first = t * blockDim.x;
  }
  __syncthreads();
  const int p = first + threadIdx.x;
  if (p >= n) return;
  const int i = perm[p];
  double    s = b[i];

  for (int k = rowptr[p]; k < rowptr[p + 1]; k++) {
    const int j = colidx[k];

    WaitFor(flags + j, epoch);
    s -= val[k] * __ldcg(x + j);
  }
  if (dinv) s *= dinv[p];
  __stcg(x + i, s);
  StoreRelease(flags + i, epoch);
}

static __global__ void Permute(int n, const int *__restrict__ idx, const double *__restrict__ x, double *__restrict__ y)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;

  if (i < n) y[i] = idx ? x[idx[i]] : x[i];
}

extern "C" int ELLGCudaTriSolveLevels(void *stream, int n, const int *perm, const int *rowptr, const int *colidx, const double *val, const double *dinv, unsigned *flags, unsigned epoch, int *ticket, const double *b, double *x)
{
  if (n <= 0) return 0;
  TriSolveLevels<<<(n + ELLG_TRI_THREADS - 1) / ELLG_TRI_THREADS, ELLG_TRI_THREADS, 0, (cudaStream_t)stream>>>(n, perm, rowptr, colidx, val, dinv, flags, epoch, ticket, b, x);
  return (int)cudaGetLastError();
}

extern "C" int ELLGCudaPermute(void *stream, int n, const int *idx, const double *x, double *y)
{
  if (n <= 0) return 0;
  Permute<<<(n + 255) / 256, 256, 0, (cudaStream_t)stream>>>(n, idx, x, y);
  return (int)cudaGetLastError();
}
