/* pJDS on the host backend: plain loops over the same arrays the CUDA kernels use */
#include <stddef.h>
#include <ellgcolumns.h>
#include "pjdskernels.h"

/* w(r), the diagonals of sorted row r, for r = 0, 1, ... in turn: it never grows with r */
static inline int RowWidth(const PJDSArrays *p, int r, int w)
{
  while (w > 0 && p->colstart[w] - p->colstart[w - 1] <= r) w--;
  return w;
}

void PJDSHostPack(const PJDSArrays *p, const int *csrrowptr, const int *csrrowlen, const int *csrcol, const double *csrval)
{
  int w = p->width;

  for (int r = 0; r < p->m && p->stored; r++) {
    const int i = p->perm[r], start = csrrowptr[i], len = csrrowlen[i];
    const int last = !csrcol ? 0 : len ? csrcol[start + len - 1] : ELLGEmptyRowColumn(i, p->n);

    w = RowWidth(p, r, w);
    for (int j = 0; j < w; j++) {
      const int q = p->colstart[j] + r;
      p->val[q]   = j < len ? csrval[start + j] : 0.0;
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
  int w = p->width;

  for (int r = 0; r < p->m; r++) {
    const int i   = p->perm[r];
    double    sum = 0.0;

    w = RowWidth(p, r, w);
    for (int j = 0; j < w; j++) {
      const int q = p->colstart[j] + r;
      sum += p->val[q] * x[ELLGColumn(p->col, p->off, q, i)];
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
    int           w  = p->width;
    for (int r = 0; r < p->m; r++) {
      const int i = p->perm[r];
      double    acc[ELLG_SPMM_MAX_COLUMNS];
      w = RowWidth(p, r, w);
      for (int k = 0; k < nc; k++) acc[k] = 0.0;
      for (int j = 0; j < w; j++) {
        const int     q = p->colstart[j] + r;
        const double *b = B + ELLGColumn(p->col, p->off, q, i);
        for (int k = 0; k < nc; k++) acc[k] += p->val[q] * b[(size_t)k * a->ldb];
      }
      ELLGSpMMHostStore(acc, a, i, j0, nc);
    }
  }
}

/* entries with value 0 (padding, explicit zeros) add nothing and are skipped, as on the GPU */
void PJDSHostMultTransposeAdd(const PJDSArrays *p, int block_size, const double *x, double *y)
{
  int w = p->width;

  for (int r = 0; r < p->m && p->stored; r++) {
    const int    i  = p->perm[r];
    const double xi = x[i];

    w = RowWidth(p, r, w);
    if (xi == 0.0) continue;
    for (int j = 0; j < w; j++) {
      const int q = p->colstart[j] + r;
      if (p->val[q] != 0.0) y[ELLGColumn(p->col, p->off, q, i)] += p->val[q] * xi;
    }
  }
}

void PJDSHostGetDiagonal(const PJDSArrays *p, int block_size, double *d)
{
  int w = p->width;

  for (int r = 0; r < p->m; r++) {
    const int i  = p->perm[r];
    double    di = 0.0;

    w = RowWidth(p, r, w);
    for (int j = 0; j < w; j++) {
      const int q = p->colstart[j] + r;
      if (ELLGColumn(p->col, p->off, q, i) == i) { /* a padding entry repeats the row's last column: the entry itself comes first */
        di = p->val[q];
        break;
      }
    }
    d[i] = di;
  }
}
