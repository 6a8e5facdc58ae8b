/* The host backend's numeric incomplete factorization: the rows in their natural order, with the loops of the
   device's kernels (ellgilukernels.h) */
#include <ellgilukernels.h>
#include <math.h>
#include <string.h>

void ELLGHostILUFill(int na, const int *map, const int *mapt, const double *a, int nnz, double *val)
{
  if (nnz) memset(val, 0, sizeof(double) * (size_t)nnz);
  for (int k = 0; k < na; k++) {
    if (map[k] >= 0) val[map[k]] = a[k];
    if (mapt && mapt[k] >= 0) val[mapt[k]] = a[k];
  }
}

void ELLGHostILURows(int n, int nnz, const int *rowptr, const int *colidx, const int *diag, double *val, int pd, double zeropivot, int *bad)
{
  double *dinv = val + nnz;

  for (int i = 0; i < n; i++) {
    const int end = rowptr[i + 1], d = diag[i];
    double    rs  = 0.0, pv, tol;

    for (int p = rowptr[i]; p < d; p++) {
      const int k = colidx[p];
      int       pos = p + 1;
      double    l   = val[p];

      if (l == 0.0) continue;
      l *= dinv[k];
      /* both rows sorted: a merge finds the columns of row k's U part in the rest of row i */
      for (int q = diag[k] + 1; q < rowptr[k + 1]; q++) {
        while (pos < end && colidx[pos] < colidx[q]) pos++;
        if (pos == end) break;
        if (colidx[pos] == colidx[q]) val[pos] -= l * val[q];
      }
      val[p] = l;
    }
    for (int q = d + 1; q < end; q++) rs += fabs(val[q]);
    pv  = val[d];
    tol = zeropivot * rs;
    if ((fabs(pv) <= tol || fabs(pv) <= zeropivot || (pd && pv <= tol)) && i < *bad) *bad = i;
    dinv[i] = 1.0 / pv;
  }
}

void ELLGHostILUScaleRoot(int n, const double *dinv, int inverse, const double *x, double *y)
{
  for (int i = 0; i < n; i++) y[i] = inverse ? x[i] / sqrt(dinv[i]) : x[i] * sqrt(dinv[i]);
}
