/* The sums of COO assembly on the host (ellgcookernels.h) */
#include <ellgcookernels.h>

void ELLGHostCooSum(long long nnz, const long long *jmap, const long long *perm, long long nv, const double *v, const double *w, int add, double *a)
{
  for (long long k = 0; k < nnz; k++) {
    double s = 0.0;

    if (jmap)
      for (long long p = jmap[k]; p < jmap[k + 1]; p++) s += perm[p] < nv ? v[perm[p]] : w[perm[p] - nv];
    else {
      const long long e = perm ? perm[k] : k;

      s = e < nv ? v[e] : w[e - nv];
    }
    a[k] = add ? a[k] + s : s;
  }
}
