/*
   Greedy aggregation on the device (ellggraphkernels.h) in rounds, a thread per row: an undecided vertex next to a
   root is taken; one with no undecided neighbor earlier in the order becomes a root. What a round decides is what
   the sequential pass decides, so the rounds end with its roots; each taken vertex then finds its earliest root.
   A random order takes a few dozen rounds; an order along a path of the graph as many as the path has vertices.
*/
#include <ellggraphkernels.h>
#include <ellgcuda.h>
#include <cuda_runtime.h>
#include <limits.h>

#define ELLG_AGG_THREADS 256

enum {
  AGG_UNDECIDED,
  AGG_ROOT,
  AGG_TAKEN,
  AGG_SINGLETON
};

static __device__ __forceinline__ int Vertex(const int *map, int r)
{
  return map ? map[r] : r;
}

static __device__ __forceinline__ int Priority(const int *prio, int v)
{
  return prio ? prio[v] : v;
}

__global__ void AggPositionsKernel(int nv, const int *__restrict__ order, int *__restrict__ prio)
{
  const int p = blockIdx.x * blockDim.x + threadIdx.x;

  if (p < nv) prio[order[p]] = p;
}

/* the least and greatest other vertex each vertex's rows reach, and whether they reach itself */
__global__ void AggReachKernel(int m, const int *__restrict__ ai, const int *__restrict__ aj, const int *__restrict__ map, int *self, int *lo, int *hi)
{
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  int       a, l = INT_MAX, h = -1, s = 0;

  if (r >= m || (a = Vertex(map, r)) < 0) return;
  for (int k = ai[r]; k < ai[r + 1]; k++) {
    const int b = Vertex(map, aj[k]);

    if (b < 0) continue;
    if (b == a) s = 1;
    else {
      l = min(l, b);
      h = max(h, b);
    }
  }
  if (s) self[a] = 1;
  if (h >= 0) {
    atomicMin(&lo[a], l);
    atomicMax(&hi[a], h);
  }
}

/* state: undecided, or a singleton; best: no undecided neighbor */
__global__ void AggStartKernel(int nv, const int *__restrict__ self, const int *__restrict__ lo, const int *__restrict__ hi, int *__restrict__ state, int *__restrict__ best)
{
  const int v = blockIdx.x * blockDim.x + threadIdx.x;

  if (v >= nv) return;
  const int others = hi[v] < 0 ? 0 : (lo[v] == hi[v] ? 1 : 2);

  state[v] = self[v] + others < 2 ? AGG_SINGLETON : AGG_UNDECIDED;
  best[v]  = INT_MAX;
}

/* for each undecided vertex: whether a root is adjacent (near), else the earliest adjacent undecided vertex (best) */
__global__ void AggScanKernel(int m, const int *__restrict__ ai, const int *__restrict__ aj, const int *__restrict__ map, const int *__restrict__ prio, const int *__restrict__ state, int *best, int *near)
{
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  int       a, p = INT_MAX;

  if (r >= m || (a = Vertex(map, r)) < 0 || state[a] != AGG_UNDECIDED) return;
  for (int k = ai[r]; k < ai[r + 1]; k++) {
    const int b = Vertex(map, aj[k]);

    if (b < 0 || b == a) continue;
    const int s = state[b];

    if (s == AGG_ROOT) {
      near[a] = 1;
      return;
    }
    if (s == AGG_UNDECIDED) p = min(p, Priority(prio, b));
  }
  if (p != INT_MAX) atomicMin(&best[a], p);
}

/* the round's decisions; left counts the vertices still undecided */
__global__ void AggDecideKernel(int nv, const int *__restrict__ prio, int *state, int *best, int *near, int *left)
{
  const int v    = blockIdx.x * blockDim.x + threadIdx.x;
  int       undo = 0;

  if (v < nv && state[v] == AGG_UNDECIDED) {
    if (near[v]) state[v] = AGG_TAKEN;
    else if (best[v] > Priority(prio, v)) state[v] = AGG_ROOT;
    else undo = 1;
    best[v] = INT_MAX;
    near[v] = 0;
  }
  undo = __syncthreads_count(undo);
  if (!threadIdx.x && undo) atomicAdd(left, undo);
}

/* the earliest adjacent root of each vertex not a root, as (priority, vertex) */
__global__ void AggJoinKernel(int m, const int *__restrict__ ai, const int *__restrict__ aj, const int *__restrict__ map, const int *__restrict__ prio, const int *__restrict__ state, unsigned long long *key)
{
  const int          r = blockIdx.x * blockDim.x + threadIdx.x;
  int                a;
  unsigned long long k = ~0ULL;

  if (r >= m || (a = Vertex(map, r)) < 0 || state[a] == AGG_ROOT) return;
  for (int q = ai[r]; q < ai[r + 1]; q++) {
    const int b = Vertex(map, aj[q]);

    if (b < 0 || b == a || state[b] != AGG_ROOT) continue;
    k = min(k, ((unsigned long long)(unsigned)Priority(prio, b) << 32) | (unsigned)b);
  }
  if (k != ~0ULL) atomicMin(&key[a], k);
}

__global__ void AggRootKernel(int nv, const int *__restrict__ state, const unsigned long long *__restrict__ key, int *__restrict__ root)
{
  const int v = blockIdx.x * blockDim.x + threadIdx.x;

  if (v < nv) root[v] = state[v] == AGG_ROOT ? v : (key[v] == ~0ULL ? -1 : (int)(key[v] & 0xffffffffULL));
}

/* the rounds, with the work arrays of ELLGCudaGraphMIS() */
static cudaError_t AggRounds(int m, const int *ai, const int *aj, const int *map, int nv, const int *order, int maxrounds, int *root, int *rounds, int *w, unsigned long long *key)
{
  int        *self = w, *lo = self + nv, *hi = lo + nv, *state = hi + nv, *best = state + nv, *near = best + nv, *prio = order ? near + nv : NULL, *left = near + nv + (order ? nv : 0);
  const int   rb = (m + ELLG_AGG_THREADS - 1) / ELLG_AGG_THREADS, vb = (nv + ELLG_AGG_THREADS - 1) / ELLG_AGG_THREADS;
  cudaError_t e;
  int         undecided = nv;

  if ((e = cudaMemsetAsync(self, 0, sizeof(int) * nv, 0)) || (e = cudaMemsetAsync(lo, 0x7f, sizeof(int) * nv, 0)) || (e = cudaMemsetAsync(hi, 0xff, sizeof(int) * nv, 0)) || (e = cudaMemsetAsync(near, 0, sizeof(int) * nv, 0))) return e;
  if (order) AggPositionsKernel<<<vb, ELLG_AGG_THREADS>>>(nv, order, prio);
  AggReachKernel<<<rb, ELLG_AGG_THREADS>>>(m, ai, aj, map, self, lo, hi);
  AggStartKernel<<<vb, ELLG_AGG_THREADS>>>(nv, self, lo, hi, state, best);
  if ((e = cudaGetLastError())) return e;
  for (*rounds = 0; undecided; (*rounds)++) { /* each round decides at least the earliest undecided vertex */
    if (*rounds == maxrounds) {
      *rounds = -1;
      return cudaSuccess;
    }
    if ((e = cudaMemsetAsync(left, 0, sizeof(int), 0))) return e;
    AggScanKernel<<<rb, ELLG_AGG_THREADS>>>(m, ai, aj, map, prio, state, best, near);
    AggDecideKernel<<<vb, ELLG_AGG_THREADS>>>(nv, prio, state, best, near, left);
    if ((e = cudaGetLastError()) || (e = cudaMemcpy(&undecided, left, sizeof(int), cudaMemcpyDeviceToHost))) return e;
  }
  if ((e = cudaMemsetAsync(key, 0xff, sizeof(unsigned long long) * nv, 0))) return e;
  AggJoinKernel<<<rb, ELLG_AGG_THREADS>>>(m, ai, aj, map, prio, state, key);
  AggRootKernel<<<vb, ELLG_AGG_THREADS>>>(nv, state, key, root);
  return cudaGetLastError();
}

extern "C" int ELLGCudaGraphMIS(int m, const int *ai, const int *aj, const int *map, int nv, const int *order, int maxrounds, int *root, int *rounds)
{
  int                *w   = NULL;
  unsigned long long *key = NULL;
  cudaError_t         e;

  *rounds = 0;
  if (nv <= 0) return 0;
  if ((e = cudaMalloc((void **)&w, sizeof(int) * (7 * (size_t)nv + 1))) == cudaSuccess && (e = cudaMalloc((void **)&key, sizeof(unsigned long long) * (size_t)nv)) == cudaSuccess) e = AggRounds(m, ai, aj, map, nv, order, maxrounds, root, rounds, w, key);
  cudaFree(w);
  cudaFree(key);
  return (int)e;
}
