/* The host backend's sweep over a set of rows (ellgsweep.h): plain loops over the arrays the cuda backend uses */
#include <ellgsweep.h>
#include <ellgvalues.h>

void ELLGHostSweepRows(void *stream, int n, const int *perm, const int *rowptr, const int *colidx, const double *val, const float *sval, const double *dinv, double omega, const double *b, const double *xold, double *xnew)
{
  (void)stream;
  for (int p = 0; p < n; p++) {
    const int i = perm[p];
    double    s = b[i];

    if (xold)
      for (int k = rowptr[p]; k < rowptr[p + 1]; k++) s -= ELLGValue(val, sval, (size_t)k) * xold[colidx[k]];
    s = omega * (dinv ? dinv[p] * s : s);
    if (xold && omega != 1.0) s += (1.0 - omega) * xold[i];
    xnew[i] = s;
  }
}
