/* The host backend's strength graph (ellggraphkernels.h): the loops of the device's kernels, row by row */
#include <ellggraphkernels.h>
#include <math.h>

/* the position of column j in aj[lo .. hi - 1] (sorted), or -1 */
static int GraphFind(const int *aj, int lo, int hi, int j)
{
  hi--;
  while (lo <= hi) {
    const int mid = (lo + hi) >> 1;

    if (aj[mid] < j) lo = mid + 1;
    else if (aj[mid] > j) hi = mid - 1;
    else return mid;
  }
  return -1;
}

void ELLGHostGraphValues(int m, const int *ai, const int *aj, const double *a, int absval, int mirror, double *g, int *missing)
{
  int miss = 0;

  for (int i = 0; i < m; i++)
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
  *missing = miss;
}

void ELLGHostGraphScale(int m, const int *ai, const int *aj, double *s, double *g)
{
  for (int i = 0; i < m; i++) {
    const int d = GraphFind(aj, ai[i], ai[i + 1], i);
    double    v = d < 0 ? 0.0 : g[d];

    if (v != 0.0) v = 1.0 / v;
    s[i] = sqrt(fabs(v));
  }
  for (int i = 0; i < m; i++)
    for (int k = ai[i]; k < ai[i + 1]; k++) g[k] = (g[k] * s[i]) * s[aj[k]];
}
