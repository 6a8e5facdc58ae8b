/* The host backend's greedy aggregation (ellggraphkernels.h): the sequential pass itself */
#include <ellggraphkernels.h>
#include <limits.h>

enum {
  AGG_UNDECIDED,
  AGG_ROOT,
  AGG_TAKEN,
  AGG_SINGLETON
};

static inline int Vertex(const int *map, int r)
{
  return map ? map[r] : r;
}

void ELLGHostGraphMIS(int m, const int *ai, const int *aj, const int *map, int nv, const int *order, int *root, int *work)
{
  int *self = work, *lo = self + nv, *hi = lo + nv, *state = hi + nv, *start = state + nv, *rows = start + nv + 1;

  for (int v = 0; v < nv; v++) {
    self[v] = 0;
    lo[v]   = INT_MAX;
    hi[v]   = -1;
    root[v] = -1;
  }
  for (int r = 0; r < m; r++) { /* the distinct vertices each vertex's rows reach */
    const int a = Vertex(map, r);

    if (a < 0) continue;
    for (int k = ai[r]; k < ai[r + 1]; k++) {
      const int b = Vertex(map, aj[k]);

      if (b < 0) continue;
      if (b == a) self[a] = 1;
      else {
        if (b < lo[a]) lo[a] = b;
        if (b > hi[a]) hi[a] = b;
      }
    }
  }
  for (int v = 0; v < nv; v++) {
    const int others = hi[v] < 0 ? 0 : (lo[v] == hi[v] ? 1 : 2);

    state[v] = self[v] + others < 2 ? AGG_SINGLETON : AGG_UNDECIDED;
  }
  /* the rows of each vertex, in order */
  for (int v = 0; v <= nv; v++) start[v] = 0;
  if (map) {
    for (int r = 0; r < m; r++)
      if (map[r] >= 0) start[map[r] + 1]++;
    for (int v = 0; v < nv; v++) start[v + 1] += start[v];
    for (int r = 0; r < m; r++)
      if (map[r] >= 0) rows[start[map[r]]++] = r;
    for (int v = nv; v > 0; v--) start[v] = start[v - 1];
    start[0] = 0;
  }
  for (int p = 0; p < nv; p++) {
    const int a = order ? order[p] : p;

    if (state[a] != AGG_UNDECIDED) continue;
    state[a] = AGG_ROOT;
    root[a]  = a;
    for (int q = map ? start[a] : a; q < (map ? start[a + 1] : a + 1); q++) {
      const int r = map ? rows[q] : q;

      for (int k = ai[r]; k < ai[r + 1]; k++) {
        const int b = Vertex(map, aj[k]);

        if (b < 0 || b == a || root[b] >= 0) continue; /* not yet taken: undecided or a singleton */
        if (state[b] == AGG_UNDECIDED) state[b] = AGG_TAKEN;
        root[b] = a;
      }
    }
  }
}
