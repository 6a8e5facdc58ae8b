/* pJDS on the host backend: plain loops over the same arrays the CUDA kernels use */
#include <stddef.h>
#include <ellgcolumns.h>
#include <ellgvalues.h>
#include "pjdskernels.h"

void PJDSHostPack(const PJDSArrays *p, const int *csrrowptr, const int *csrrowlen, const int *csrcol, const double *csrval)
{
  for (int r = 0; r < p->m && p->stored; r++) {
    const int i = p->perm[r], start = csrrowptr[i], len = csrrowlen[i];
    const int last = !csrcol ? 0 : len ? csrcol[start + len - 1] : ELLGEmptyRowColumn(i, p->n), w = p->blockw[r >> p->logbr];

    for (int j = 0; j < w; j++) {
      const int q = p->colstart[j] + r;
      ELLGSetValue(p->val, p->sval, q, j < len ? csrval[start + j] : 0.0);
      if (!csrcol) continue;
      const int c = j < len ? csrcol[start + j] : last;
      if (p->off) p->off[q] = (short)(c - i);
      else p->col[q] = c;
    }
  }
}

/* the rows of the format (the long rows as rows without entries), then the long rows added */
void PJDSHostMult(const PJDSArrays *p, int block_size, const LongRowsArrays *l, const double *x, const double *z, double *y)
{
  for (int r = 0; r < p->m; r++) {
    const int i = p->perm[r], w = p->blockw[r >> p->logbr];
    double    sum = 0.0;

    for (int j = 0; j < w; j++) {
      const int q = p->colstart[j] + r;
      sum += ELLGValue(p->val, p->sval, q) * x[ELLGColumn(p->col, p->off, q, i)];
    }
    y[i] = z ? z[i] + sum : sum;
  }
  if (l) LongRowsHostMultAdd(l, x, y);
}

/* as the kernel: each row read once per pass of lc columns, pass after pass */
void PJDSHostSpMM(const PJDSArrays *p, int block_size, int lc, const ELLGSpMMArgs *a)
{
  for (int j0 = 0; j0 < a->ncols; j0 += lc) {
    const int     nc = a->ncols - j0 < lc ? a->ncols - j0 : lc;
    const double *B  = a->B + (size_t)j0 * a->ldb;
    for (int r = 0; r < p->m; r++) {
      const int i = p->perm[r], w = p->blockw[r >> p->logbr];
      double    acc[ELLG_SPMM_MAX_COLUMNS];
      for (int k = 0; k < nc; k++) acc[k] = 0.0;
      for (int j = 0; j < w; j++) {
        const int     q = p->colstart[j] + r;
        const double *b = B + ELLGColumn(p->col, p->off, q, i);
        const double  v = ELLGValue(p->val, p->sval, q);
        for (int k = 0; k < nc; k++) acc[k] += v * b[(size_t)k * a->ldb];
      }
      ELLGSpMMHostStore(acc, a, i, j0, nc);
    }
  }
}

/* entries with value 0 (padding, explicit zeros) add nothing and are skipped, as on the GPU */
void PJDSHostMultTransposeAdd(const PJDSArrays *p, int block_size, const double *x, double *y)
{
  for (int r = 0; r < p->m && p->stored; r++) {
    const int    i = p->perm[r], w = p->blockw[r >> p->logbr];
    const double xi = x[i];

    if (xi == 0.0) continue;
    for (int j = 0; j < w; j++) {
      const int    q = p->colstart[j] + r;
      const double v = ELLGValue(p->val, p->sval, q);
      if (v != 0.0) y[ELLGColumn(p->col, p->off, q, i)] += v * xi;
    }
  }
}

void PJDSHostGetDiagonal(const PJDSArrays *p, int block_size, double *d)
{
  for (int r = 0; r < p->m; r++) {
    const int i = p->perm[r], w = p->blockw[r >> p->logbr];
    double    di = 0.0;

    for (int j = 0; j < w; j++) {
      const int q = p->colstart[j] + r;
      if (ELLGColumn(p->col, p->off, q, i) == i) { /* a padding entry repeats the row's last column: the entry itself comes first */
        di = ELLGValue(p->val, p->sval, q);
        break;
      }
    }
    d[i] = di;
  }
}
