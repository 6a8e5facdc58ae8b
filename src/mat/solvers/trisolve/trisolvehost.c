/* The host backend's triangular solves: plain loops over the level-ordered arrays the cuda backend uses */
#include <ellgtrisolve.h>
#include <ellgvalues.h>

void ELLGHostTriSolveLevels(int n, const int *perm, const int *rowptr, const int *colidx, const double *val, const float *sval, const double *dinv, const double *b, double *x)
{
  for (int p = 0; p < n; p++) {
    const int i = perm[p];
    double    s = b[i];

    for (int k = rowptr[p]; k < rowptr[p + 1]; k++) s -= ELLGValue(val, sval, (size_t)k) * x[colidx[k]];
    x[i] = dinv ? dinv[p] * s : s;
  }
}

void ELLGHostPermute(void *stream, int n, const int *idx, const double *x, double *y)
{
  (void)stream;
  for (int i = 0; i < n; i++) y[i] = idx ? x[idx[i]] : x[i];
}
