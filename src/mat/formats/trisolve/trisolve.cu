/*
   Triangular solves on the device in one launch (ellgtrisolve.h): each thread takes a row of the level order,
   waits until the rows it reads are done, and marks its own row done. The blocks stay resident and take chunks
   of consecutive positions in turn (a ticket): every row a thread waits for is in a chunk taken before, by a
   block that is running, so the waits end. Few blocks per multiprocessor keep the threads that wait, and
   their polling of the flags, few: enough rows for several levels at once, no more.
*/
#include <ellgtrisolve.h>
#include <ellgcuda.h>
#include <cuda_runtime.h>

#define ELLG_TRI_THREADS 128
#define ELLG_TRI_BLOCKS_PER_SM 4

/* waits until the row's flag holds the epoch: plain loads of L2, pausing longer and longer between them (the
   waiting threads then leave the memory system to the rows being computed), then a fence so that its value is
   read after */
static __device__ __forceinline__ void WaitFor(const unsigned *flag, unsigned epoch)
{
  unsigned pause = 16;

  while (*(const volatile unsigned *)flag != epoch) {
    __nanosleep(pause);
    if (pause < 512) pause *= 2;
  }
  __threadfence();
}

static __device__ __forceinline__ void StoreRelease(unsigned *p, unsigned v)
{
  asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

static __global__ void __launch_bounds__(ELLG_TRI_THREADS) TriSolveLevels(int n, const int *__restrict__ perm, const int *__restrict__ rowptr, const int *__restrict__ colidx, const double *__restrict__ val, const double *__restrict__ dinv, unsigned *flags, unsigned epoch, int *ticket, const double *b, double *x)
{
  __shared__ int chunk;

  for (;;) {
    if (threadIdx.x == 0) chunk = atomicAdd(ticket, 1);
    __syncthreads();
    const int p = chunk * ELLG_TRI_THREADS + threadIdx.x;
    __syncthreads(); /* every thread has read chunk before the next ticket */
    if (p - (int)threadIdx.x >= n) return;
    if (p < n) {
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
  }
}

/* xold and xnew may be the same array (a color of the multicolor SOR, whose rows read other rows only) */
static __global__ void SweepRows(int n, const int *__restrict__ perm, const int *__restrict__ rowptr, const int *__restrict__ colidx, const double *__restrict__ val, const double *__restrict__ dinv, double omega, const double *__restrict__ b, const double *xold, double *xnew)
{
  const int p = blockIdx.x * blockDim.x + threadIdx.x;

  if (p >= n) return;
  const int i = perm[p];
  double    s = b[i];

  if (xold)
    for (int k = rowptr[p]; k < rowptr[p + 1]; k++) s -= val[k] * xold[colidx[k]];
  s = omega * (dinv ? dinv[p] * s : s);
  if (xold && omega != 1.0) s += (1.0 - omega) * xold[i];
  xnew[i] = s;
}

static __global__ void Permute(int n, const int *__restrict__ idx, const double *__restrict__ x, double *__restrict__ y)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;

  if (i < n) y[i] = idx ? x[idx[i]] : x[i];
}

extern "C" int ELLGCudaTriSolveLevels(void *stream, int n, const int *perm, const int *rowptr, const int *colidx, const double *val, const double *dinv, unsigned *flags, unsigned epoch, int *ticket, const double *b, double *x)
{
  static int   sms = 0;
  int          blocks, err;
  cudaStream_t s = (cudaStream_t)stream;

  if (n <= 0) return 0;
  if (!sms) {
    int dev;

    if ((err = (int)cudaGetDevice(&dev))) return err;
    if ((err = (int)cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev))) return err;
  }
  blocks = (n + ELLG_TRI_THREADS - 1) / ELLG_TRI_THREADS;
  if (blocks > ELLG_TRI_BLOCKS_PER_SM * sms) blocks = ELLG_TRI_BLOCKS_PER_SM * sms;
  if ((err = (int)cudaMemsetAsync(ticket, 0, sizeof(int), s))) return err;
  TriSolveLevels<<<blocks, ELLG_TRI_THREADS, 0, s>>>(n, perm, rowptr, colidx, val, dinv, flags, epoch, ticket, b, x);
  return (int)cudaGetLastError();
}

extern "C" int ELLGCudaSweepRows(void *stream, int n, const int *perm, const int *rowptr, const int *colidx, const double *val, const double *dinv, double omega, const double *b, const double *xold, double *xnew)
{
  if (n <= 0) return 0;
  SweepRows<<<(n + 255) / 256, 256, 0, (cudaStream_t)stream>>>(n, perm, rowptr, colidx, val, dinv, omega, b, xold, xnew);
  return (int)cudaGetLastError();
}

extern "C" int ELLGCudaPermute(void *stream, int n, const int *idx, const double *x, double *y)
{
  if (n <= 0) return 0;
  Permute<<<(n + 255) / 256, 256, 0, (cudaStream_t)stream>>>(n, idx, x, y);
  return (int)cudaGetLastError();
}
