/*
   Triangular solves on the device in one launch (ellgtrisolve.h). A team of S lanes of a warp (8, or 32 for
   groups of many entries) solves a group: it loads the group's entries, right-hand sides and inverse diagonals,
   waits until the groups they read are done (each lane polls some of their flags), reads the values of those
   groups, then solves the group's rows one after the other (each row's sum split over the lanes and reduced by
   shuffles; the group's own values stay in registers) and marks the group done. Team t takes the groups t,
   t + T, t + 2T, ... of the level order (T teams): all teams are resident at once, so each group a team waits for,
   an earlier one, is taken by a running team, and the waits end. The teams are about as many as the groups of
   ELLG_TRI_LEVELS_AHEAD levels: enough for the next levels to start as the current ones end; more would only
   add waiting teams, whose polling takes memory bandwidth from the rows being computed.

   A level then costs about two memory latencies (the flags, then the values read), not one per entry: the
   loads that do not depend on other groups are issued before the wait.
*/
#include <ellgtrisolve.h>
#include <ellgcuda.h>
#include <cuda_runtime.h>

#define ELLG_TRI_THREADS       256
#define ELLG_TRI_BLOCKS_PER_SM 4
#define ELLG_TRI_LEVELS_AHEAD  8

static __device__ __forceinline__ unsigned LoadVolatile(const unsigned *p)
{
  return *(const volatile unsigned *)p;
}

static __device__ __forceinline__ void StoreRelease(unsigned *p, unsigned v)
{
  asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

/* the team (mask, lane of S) waits until the flags of the groups dep[0 .. nd-1] hold the epoch, then fences, so
   that their values are read after */
template <int S>
static __device__ __forceinline__ void WaitForGroups(const unsigned *flags, const int *dep, int nd, unsigned epoch, int lane, unsigned mask)
{
  for (int d0 = 0; d0 < nd; d0 += S) {
    const unsigned *f = d0 + lane < nd ? flags + dep[d0 + lane] : NULL;

    while (!__all_sync(mask, !f || LoadVolatile(f) == epoch)) __nanosleep(32);
  }
  __threadfence();
}

template <int S, class V>
static __global__ void __launch_bounds__(ELLG_TRI_THREADS, ELLG_TRI_BLOCKS_PER_SM) TriSolveLevels(int ng, int g, const int *__restrict__ gptr, const int *__restrict__ dptr, const int *__restrict__ dgrp, const int *__restrict__ perm, const int *__restrict__ rowptr, const int *__restrict__ colidx, const V *__restrict__ val, const double *__restrict__ dinv, unsigned *flags, unsigned epoch, const double *b, double *x)
{
  const int      lane  = threadIdx.x % S;
  const unsigned mask  = S == 32 ? 0xffffffffu : ((1u << S) - 1) << (threadIdx.x % 32 / S * S);
  const int      teams = gridDim.x * (ELLG_TRI_THREADS / S);
  double         xg[ELLG_TRI_GROUP_MAX];

  for (int c = (blockIdx.x * ELLG_TRI_THREADS + threadIdx.x) / S; c < ng; c += teams) {
    const int p0 = gptr ? gptr[c] : c, nr = (gptr ? gptr[c + 1] : c + 1) - p0;
    const int kb = rowptr[p0], ke = rowptr[p0 + nr], q = perm[p0] / g, base = q * g;
    const int fast = ke - kb <= 2 * S; /* the entries in two loads of the team, held in registers */
    int       j[2], r[2];
    double    v[2], xe[2], bi = 0.0, di = 1.0;

    /* what does not depend on other groups: the entries (with their rows in the group), b and the inverse diagonals */
#pragma unroll
    for (int t = 0; t < 2; t++) {
      const int k = kb + t * S + lane;

      j[t] = -1;
      r[t] = -1;
      v[t] = 0.0;
      if (fast && k < ke) {
        j[t] = colidx[k];
        v[t] = (double)val[k];
        for (r[t] = 0; rowptr[p0 + r[t] + 1] <= k; r[t]++);
      }
    }
    if (lane < nr) {
      bi = b[perm[p0 + lane]];
      if (dinv) di = dinv[p0 + lane];
    }
    if (dptr) WaitForGroups<S>(flags, dgrp + dptr[c], dptr[c + 1] - dptr[c], epoch, lane, mask);
    else WaitForGroups<S>(flags, colidx + kb, ke - kb, epoch, lane, mask);
#pragma unroll
    for (int t = 0; t < 2; t++) xe[t] = j[t] >= 0 && (unsigned)(j[t] - base) >= (unsigned)g ? __ldcg(x + j[t]) : 0.0;
    for (int rr = 0; rr < nr; rr++) {
      const int i = perm[p0 + rr];
      double    part = 0.0, xi;

      if (fast) {
#pragma unroll
        for (int t = 0; t < 2; t++)
          if (r[t] == rr) {
            const unsigned o = (unsigned)(j[t] - base);

            part += v[t] * (o < (unsigned)g ? xg[o] : xe[t]);
          }
      } else
        for (int k = rowptr[p0 + rr] + lane; k < rowptr[p0 + rr + 1]; k += S) {
          const int      jj = colidx[k];
          const unsigned o  = (unsigned)(jj - base);

          part += (double)val[k] * (o < (unsigned)g ? xg[o] : __ldcg(x + jj));
        }
#pragma unroll
      for (int off = S / 2; off > 0; off /= 2) part += __shfl_xor_sync(mask, part, off, S);
      xi            = (__shfl_sync(mask, bi, rr, S) - part) * __shfl_sync(mask, di, rr, S);
      xg[i - base] = xi;
      if (!lane) __stcg(x + i, xi);
    }
    __syncwarp(mask);
    if (!lane) StoreRelease(flags + q, epoch);
  }
}

static __global__ void Permute(int n, const int *__restrict__ idx, const double *__restrict__ x, double *__restrict__ y)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;

  if (i < n) y[i] = idx ? x[idx[i]] : x[i];
}

extern "C" int ELLGCudaTriSolveLevels(void *stream, int ng, int g, int width, int nnz, const int *gptr, const int *dptr, const int *dgrp, const int *perm, const int *rowptr, const int *colidx, const double *val, const float *sval, const double *dinv, unsigned *flags, unsigned epoch, const double *b, double *x)
{
  static int   sms = 0;
  const int    lanes = nnz > 12LL * ng ? 32 : 8; /* lanes per group: a warp for groups of more than 12 entries */
  long long    teams;
  int          blocks, err;
  cudaStream_t s = (cudaStream_t)stream;

  if (ng <= 0) return 0;
  if (!sms) {
    int dev;

    if ((err = (int)cudaGetDevice(&dev))) return err;
    if ((err = (int)cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev))) return err;
  }
  teams = (long long)ELLG_TRI_LEVELS_AHEAD * (width > 0 ? width : 1);
  if (teams > ng) teams = ng;
  blocks = (int)((teams * lanes + ELLG_TRI_THREADS - 1) / ELLG_TRI_THREADS);
  if (blocks > ELLG_TRI_BLOCKS_PER_SM * sms) blocks = ELLG_TRI_BLOCKS_PER_SM * sms;
  if (sval && lanes == 32) TriSolveLevels<32><<<blocks, ELLG_TRI_THREADS, 0, s>>>(ng, g, gptr, dptr, dgrp, perm, rowptr, colidx, sval, dinv, flags, epoch, b, x);
  else if (sval) TriSolveLevels<8><<<blocks, ELLG_TRI_THREADS, 0, s>>>(ng, g, gptr, dptr, dgrp, perm, rowptr, colidx, sval, dinv, flags, epoch, b, x);
  else if (lanes == 32) TriSolveLevels<32><<<blocks, ELLG_TRI_THREADS, 0, s>>>(ng, g, gptr, dptr, dgrp, perm, rowptr, colidx, val, dinv, flags, epoch, b, x);
  else TriSolveLevels<8><<<blocks, ELLG_TRI_THREADS, 0, s>>>(ng, g, gptr, dptr, dgrp, perm, rowptr, colidx, val, dinv, flags, epoch, b, x);
  return (int)cudaGetLastError();
}

extern "C" int ELLGCudaPermute(void *stream, int n, const int *idx, const double *x, double *y)
{
  if (n <= 0) return 0;
  Permute<<<(n + 255) / 256, 256, 0, (cudaStream_t)stream>>>(n, idx, x, y);
  return (int)cudaGetLastError();
}
