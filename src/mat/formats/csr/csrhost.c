/* CSRG on the host backend: plain loops over the same arrays the CUDA kernels use */
#include <stddef.h>
#include <ellgcolumns.h>
#include <ellgvalues.h>
#include "csrkernels.h"

void CSRGHostPack(const CSRGArrays *c, const int *csrrowptr, const int *csrcol, const double *csrval)
{
  for (int i = 0; i < c->m; i++)
    for (int k = c->rowptr[i]; k < c->rowptr[i + 1]; k++) {
      const int q = csrrowptr[i] + (k - c->rowptr[i]);

      ELLGSetValue(c->val, c->sval, k, csrval[q]);
      if (csrcol && c->off) c->off[k] = (short)(csrcol[q] - i);
      else if (csrcol) c->col[k] = csrcol[q];
    }
}

/* the rows block by block for CSR-stream (as its kernel: a row left out of the blocks is left out here too), then
   the long rows it multiplies (l, or NULL) */
void CSRGHostMult(const CSRGArrays *c, const LongRowsArrays *l, int threads_per_row, int block_size, const double *x, const double *z, double *y)
{
  const int nb = c->blockrow ? c->nblocks : 1;

  for (int b = 0; b < nb; b++) {
    const int i0 = c->blockrow ? c->blockrow[2 * b] : 0, i1 = c->blockrow ? c->blockrow[2 * b + 1] : c->m;

    for (int i = i0; i < i1; i++) {
      double sum = 0.0;

      for (int k = c->rowptr[i]; k < c->rowptr[i + 1]; k++) sum += ELLGValue(c->val, c->sval, k) * x[ELLGColumn(c->col, c->off, (size_t)k, i)];
      y[i] = z ? z[i] + sum : sum;
    }
  }
  if (l) {
    for (int r = 0; r < l->nrows; r++) y[l->ids[r]] = z ? z[l->ids[r]] : 0.0;
    LongRowsHostMultAdd(l, x, y);
  }
}

/* as the kernel: each row read once per pass of lc columns, pass after pass */
void CSRGHostSpMM(const CSRGArrays *c, int threads_per_row, int block_size, int lc, const ELLGSpMMArgs *a)
{
  for (int j0 = 0; j0 < a->ncols; j0 += lc) {
    const int     nc = a->ncols - j0 < lc ? a->ncols - j0 : lc;
    const double *B  = a->B + (size_t)j0 * a->ldb;

    for (int i = 0; i < c->m; i++) {
      double acc[ELLG_SPMM_MAX_COLUMNS];

      for (int j = 0; j < nc; j++) acc[j] = 0.0;
      for (int k = c->rowptr[i]; k < c->rowptr[i + 1]; k++) {
        const double *b = B + ELLGColumn(c->col, c->off, (size_t)k, i);
        const double  v = ELLGValue(c->val, c->sval, k);

        for (int j = 0; j < nc; j++) acc[j] += v * b[(size_t)j * a->ldb];
      }
      ELLGSpMMHostStore(acc, a, i, j0, nc);
    }
  }
}

void CSRGHostMultTransposeAdd(const CSRGArrays *c, int block_size, const double *x, double *y)
{
  for (int i = 0; i < c->m; i++)
    for (int k = c->rowptr[i]; k < c->rowptr[i + 1]; k++) y[ELLGColumn(c->col, c->off, (size_t)k, i)] += ELLGValue(c->val, c->sval, k) * x[i];
}

void CSRGHostGetDiagonal(const CSRGArrays *c, double *d)
{
  for (int i = 0; i < c->m; i++) {
    d[i] = 0.0;
    for (int k = c->rowptr[i]; k < c->rowptr[i + 1]; k++)
      if (ELLGColumn(c->col, c->off, (size_t)k, i) == i) {
        d[i] = ELLGValue(c->val, c->sval, k);
        break;
      }
  }
}
