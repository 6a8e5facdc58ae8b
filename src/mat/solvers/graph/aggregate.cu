/*
   Greedy aggregation on the device (ellggraphkernels.h) in rounds, a thread per vertex (row): an undecided vertex
   next to a root is taken; one with no undecided neighbor earlier in the order becomes a root. What a round decides is what
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

/* prio: each vertex's position in the order; state: undecided, or a singleton (fewer than two distinct vertices in
   its row, itself counted) */
__global__ void AggStartKernel(int m, const int *__restrict__ ai, const int *__restrict__ aj, const int *__restrict__ order, int *__restrict__ prio, int *__restrict__ state)
{
  const int v = blockIdx.x * blockDim.x + threadIdx.x;
  int       s = 0, other = -1, distinct = 0;

  if (v >= m) return;
  prio[order[v]] = v;
  for (int k = ai[v]; k < ai[v + 1] && s + distinct < 2; k++) {
    const int b = aj[k];

    if (b == v) s = 1;
    else if (other < 0) {
      other    = b;
      distinct = 1;
    } else if (b != other) distinct = 2;
  }
  state[v] = s + distinct < 2 ? AGG_SINGLETON : AGG_UNDECIDED;
}

/* each undecided vertex: taken if a root is adjacent, a root if no adjacent undecided vertex comes earlier in the
   order (decided from the last round's states into next); left counts those still undecided */
__global__ void AggRoundKernel(int m, const int *__restrict__ ai, const int *__restrict__ aj, const int *__restrict__ prio, const int *__restrict__ state, int *__restrict__ next, int *left)
{
  const int v = blockIdx.x * blockDim.x + threadIdx.x;
  int       s = AGG_SINGLETON, undo = 0;

  if (v < m && (s = state[v]) == AGG_UNDECIDED) {
    const int p = prio[v];

    s = AGG_ROOT;
    for (int k = ai[v]; k < ai[v + 1]; k++) {
      const int b = aj[k], t = state[b];

      if (b == v) continue;
      if (t == AGG_ROOT) {
        s = AGG_TAKEN;
        break;
      }
      if (t == AGG_UNDECIDED && prio[b] < p) s = AGG_UNDECIDED;
    }
    undo = s == AGG_UNDECIDED;
  }
  if (v < m) next[v] = s;
  undo = __syncthreads_count(undo);
  if (!threadIdx.x && undo) atomicAdd(left, undo);
}

/* each vertex's root: itself for a root, else its earliest adjacent root in the order, -1 for none */
__global__ void AggRootKernel(int m, const int *__restrict__ ai, const int *__restrict__ aj, const int *__restrict__ prio, const int *__restrict__ state, int *__restrict__ root)
{
  const int v = blockIdx.x * blockDim.x + threadIdx.x;
  int       r = -1, p = INT_MAX;

  if (v >= m) return;
  if (state[v] == AGG_ROOT) r = v;
  else
    for (int k = ai[v]; k < ai[v + 1]; k++) {
      const int b = aj[k];

      if (b != v && state[b] == AGG_ROOT && prio[b] < p) {
        p = prio[b];
        r = b;
      }
    }
  root[v] = r;
}

/* the rounds, with the work arrays of ELLGCudaGraphMIS() */
static cudaError_t AggRounds(int m, const int *ai, const int *aj, const int *order, int maxrounds, int *root, int *rounds, int *w)
{
  int        *prio = w, *state = prio + m, *next = state + m, *left = next + m;
  const int   nb = (m + ELLG_AGG_THREADS - 1) / ELLG_AGG_THREADS;
  cudaError_t e;
  int         undecided = m;

  AggStartKernel<<<nb, ELLG_AGG_THREADS>>>(m, ai, aj, order, prio, state);
  if ((e = cudaGetLastError())) return e;
  for (*rounds = 0; undecided; (*rounds)++) { /* each round decides at least the earliest undecided vertex */
    int *t = state;

    if (*rounds == maxrounds) {
      *rounds = -1;
      return cudaSuccess;
    }
    if ((e = cudaMemsetAsync(left, 0, sizeof(int), 0))) return e;
    AggRoundKernel<<<nb, ELLG_AGG_THREADS>>>(m, ai, aj, prio, state, next, left);
    if ((e = cudaGetLastError()) || (e = cudaMemcpy(&undecided, left, sizeof(int), cudaMemcpyDeviceToHost))) return e;
    state = next;
    next  = t;
  }
  AggRootKernel<<<nb, ELLG_AGG_THREADS>>>(m, ai, aj, prio, state, root);
  return cudaGetLastError();
}

extern "C" int ELLGCudaGraphMIS(int m, const int *ai, const int *aj, const int *order, int maxrounds, int *root, int *rounds)
{
  int        *w = NULL;
  cudaError_t e;

  *rounds = 0;
  if (m <= 0) return 0;
  if ((e = cudaMalloc((void **)&w, sizeof(int) * (3 * (size_t)m + 1))) == cudaSuccess) e = AggRounds(m, ai, aj, order, maxrounds, root, rounds, w);
  cudaFree(w);
  return (int)e;
}
