/* Long rows on the host backend: plain loops over the same arrays the CUDA kernels use */
#include <stddef.h>
#include <ellglongrows.h>
#include <ellgvalues.h>

void LongRowsHostGather(const LongRowsArrays *l, const int *csrrowptr, const int *csrcol, const double *csrval)
{
  for (int r = 0; r < l->nrows; r++) {
    const int src = csrrowptr[l->ids[r]];
    for (int k = l->rowptr[r]; k < l->rowptr[r + 1]; k++) {
      ELLGSetValue(l->val, l->sval, k, csrval[src + k - l->rowptr[r]]);
      if (csrcol) l->col[k] = csrcol[src + k - l->rowptr[r]];
    }
  }
}

void LongRowsHostMultAdd(const LongRowsArrays *l, const double *x, double *y)
{
  for (int r = 0; r < l->nrows; r++) {
    double sum = 0.0;
    for (int k = l->rowptr[r]; k < l->rowptr[r + 1]; k++) sum += ELLGValue(l->val, l->sval, k) * x[l->col[k]];
    y[l->ids[r]] += sum;
  }
}

/* each long row read once per pass of lc columns, pass after pass; its sums added to C */
void LongRowsHostSpMMAdd(const LongRowsArrays *l, int lc, const ELLGSpMMArgs *a)
{
  for (int j0 = 0; j0 < a->ncols; j0 += lc) {
    const int     nc = a->ncols - j0 < lc ? a->ncols - j0 : lc;
    const double *B  = a->B + (size_t)j0 * a->ldb;
    for (int r = 0; r < l->nrows; r++) {
      double acc[ELLG_SPMM_MAX_COLUMNS];
      for (int j = 0; j < nc; j++) acc[j] = 0.0;
      for (int k = l->rowptr[r]; k < l->rowptr[r + 1]; k++) {
        const double *b = B + l->col[k];
        const double v = ELLGValue(l->val, l->sval, k);
        for (int j = 0; j < nc; j++) acc[j] += v * b[(size_t)j * a->ldb];
      }
      for (int j = 0; j < nc; j++) a->C[l->ids[r] + (size_t)(j0 + j) * a->ldc] += acc[j];
    }
  }
}

void LongRowsHostMultTransposeAdd(const LongRowsArrays *l, const double *x, double *y)
{
  for (int r = 0; r < l->nrows; r++)
    for (int k = l->rowptr[r]; k < l->rowptr[r + 1]; k++) y[l->col[k]] += ELLGValue(l->val, l->sval, k) * x[l->ids[r]];
}

void LongRowsHostGetDiagonal(const LongRowsArrays *l, double *d)
{
  for (int r = 0; r < l->nrows; r++)
    for (int k = l->rowptr[r]; k < l->rowptr[r + 1]; k++)
      if (l->col[k] == l->ids[r]) d[l->ids[r]] = ELLGValue(l->val, l->sval, k);
}
