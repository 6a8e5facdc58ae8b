/*
   Triangular solves on the device in one launch (ellgtrisolve.h): each thread takes a group of rows of the
   level order, waits until the groups they read are done, solves its rows one after the other and marks the
   group done. The blocks stay resident and take chunks of consecutive groups in turn (a ticket): every group a
   thread waits for is in a chunk taken before, by a block that is running, so the waits end. The blocks are
   as many as hold about ELLG_TRI_LEVELS_AHEAD levels' groups: enough for the next levels to start as the
   current ones end; more would only add waiting threads, whose polling takes memory bandwidth from the rows
   being computed.

   What makes a level cheap is that its latencies are paid once: the flags of all the groups a thread waits
   for are read together, and the values of the rows it reads after one fence, with the values of its own
   group's earlier rows in registers.
*/
#include <ellgtrisolve.h>
#include <ellgcuda.h>
#include <cuda_runtime.h>

#define ELLG_TRI_THREADS      128
#define ELLG_TRI_BLOCKS_PER_SM 4
#define ELLG_TRI_LEVELS_AHEAD 8

static __device__ __forceinline__ unsigned LoadVolatile(const unsigned *p)
{
  return *(const volatile unsigned *)p;
}

/* waits until the flags of the groups dep[0 .. nd-1] hold the epoch: their flags read four at a time (plain
   loads of L2, in flight together), with a short pause between rounds; then a fence, so that their values are
   read after */
static __device__ __forceinline__ void WaitForAll(const unsigned *flags, const int *dep, int nd, unsigned epoch)
{
  for (int d = 0; d < nd;) {
    unsigned f[4];

#pragma unroll
    for (int u = 0; u < 4; u++) f[u] = d + u < nd ? LoadVolatile(flags + dep[d + u]) : epoch;
    if (f[0] == epoch && f[1] == epoch && f[2] == epoch && f[3] == epoch) d += 4;
    else __nanosleep(32);
  }
  __threadfence();
}

static __device__ __forceinline__ void StoreRelease(unsigned *p, unsigned v)
{
  asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

static __global__ void __launch_bounds__(ELLG_TRI_THREADS) TriSolveLevels(int ng, int g, const int *__restrict__ gptr, const int *__restrict__ dptr, const int *__restrict__ dgrp, const int *__restrict__ perm, const int *__restrict__ rowptr, const int *__restrict__ colidx, const double *__restrict__ val, const double *__restrict__ dinv, unsigned *flags, unsigned epoch, int *ticket, const double *b, double *x)
{
  __shared__ int chunk;

  for (;;) {
    if (threadIdx.x == 0) chunk = atomicAdd(ticket, 1);
    __syncthreads();
    const int c = chunk * ELLG_TRI_THREADS + threadIdx.x;
    __syncthreads(); /* every thread has read chunk before the next ticket */
    if (c - (int)threadIdx.x >= ng) return;
    if (c < ng) {
      const int p0 = gptr ? gptr[c] : c, p1 = gptr ? gptr[c + 1] : c + 1;
      const int q = perm[p0] / g, base = q * g;
      double    xg[ELLG_TRI_GROUP_MAX];

      if (dptr) WaitForAll(flags, dgrp + dptr[c], dptr[c + 1] - dptr[c], epoch);
      else WaitForAll(flags, colidx + rowptr[p0], rowptr[p0 + 1] - rowptr[p0], epoch);
      for (int p = p0; p < p1; p++) {
        const int i = perm[p];
        double    s = b[i];

        for (int k = rowptr[p]; k < rowptr[p + 1]; k++) {
          const int      j = colidx[k];
          const unsigned o = (unsigned)(j - base);

          s -= val[k] * (o < (unsigned)g ? xg[o] : __ldcg(x + j));
        }
        if (dinv) s *= dinv[p];
        xg[i - base] = s;
        __stcg(x + i, s);
      }
      StoreRelease(flags + q, epoch);
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

extern "C" int ELLGCudaTriSolveLevels(void *stream, int ng, int g, int width, const int *gptr, const int *dptr, const int *dgrp, const int *perm, const int *rowptr, const int *colidx, const double *val, const double *dinv, unsigned *flags, unsigned epoch, int *ticket, const double *b, double *x)
{
  static int   sms = 0;
  long long    ahead;
  int          blocks, err;
  cudaStream_t s = (cudaStream_t)stream;

  if (ng <= 0) return 0;
  if (!sms) {
    int dev;

    if ((err = (int)cudaGetDevice(&dev))) return err;
    if ((err = (int)cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev))) return err;
  }
  ahead  = (long long)ELLG_TRI_LEVELS_AHEAD * (width > 0 ? width : 1);
  blocks = (int)((ahead < ng ? ahead : ng) + ELLG_TRI_THREADS - 1) / ELLG_TRI_THREADS;
  if (blocks > ELLG_TRI_BLOCKS_PER_SM * sms) blocks = ELLG_TRI_BLOCKS_PER_SM * sms;
  if ((err = (int)cudaMemsetAsync(ticket, 0, sizeof(int), s))) return err;
  TriSolveLevels<<<blocks, ELLG_TRI_THREADS, 0, s>>>(ng, g, gptr, dptr, dgrp, perm, rowptr, colidx, val, dinv, flags, epoch, ticket, b, x);
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
