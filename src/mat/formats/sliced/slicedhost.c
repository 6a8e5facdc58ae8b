/* Sliced ELL on the host backend: plain loops over the same arrays the CUDA kernels use */
#include <stddef.h>
#include <ellgcolumns.h>
#include <ellgvalues.h>
#include "slicedkernels.h"

static inline int SlicedWidth(const SlicedArrays *a, int s) { return (a->slice_ptr[s + 1] - a->slice_ptr[s]) >> a->logC; }

void SlicedHostPack(const SlicedArrays *a, const int *csrrowptr, const int *csrrowlen, const int *csrcol, const double *csrval)
{
  for (int s = 0; s < a->nslices; s++) {
    const int w = SlicedWidth(a, s);
    for (int l = 0; l < a->C; l++) {
      const int r     = s * a->C + l;
      const int i     = r < a->m ? (a->perm ? a->perm[r] : r) : -1;
      const int start = i >= 0 ? csrrowptr[i] : 0;
      const int len   = i >= 0 ? csrrowlen[i] : 0;
      const int pad   = !csrcol || i < 0 ? 0 : len ? csrcol[start + len - 1] : ELLGEmptyRowColumn(i, a->n);
      for (int k = 0; k < w; k++) {
        const int p = a->slice_ptr[s] + k * a->C + l;
        ELLGSetValue(a->val, a->sval, p, k < len ? csrval[start + k] : 0.0);
        if (!csrcol) continue;
        const int c = k < len ? csrcol[start + k] : pad;
        if (a->off) a->off[p] = (short)(i >= 0 ? c - i : 0);
        else a->col[p] = c;
      }
    }
  }
}

void SlicedHostMult(const SlicedArrays *a, int threads_per_row, int block_size, const double *x, const double *z, double *y)
{
  for (int r = 0; r < a->m; r++) {
    const int s = r >> a->logC, l = r & (a->C - 1), w = SlicedWidth(a, s), i = a->perm ? a->perm[r] : r;
    double    sum = 0.0;
    for (int k = 0; k < w; k++) {
      const int p = a->slice_ptr[s] + k * a->C + l;
      sum += ELLGValue(a->val, a->sval, p) * x[ELLGColumn(a->col, a->off, p, i)];
    }
    y[i] = z ? z[i] + sum : sum;
  }
}

/* as the kernel: each row read once per pass of lc columns, pass after pass */
void SlicedHostSpMM(const SlicedArrays *a, int threads_per_row, int block_size, int lc, const ELLGSpMMArgs *args)
{
  for (int j0 = 0; j0 < args->ncols; j0 += lc) {
    const int     nc = args->ncols - j0 < lc ? args->ncols - j0 : lc;
    const double *B  = args->B + (size_t)j0 * args->ldb;
    for (int r = 0; r < a->m; r++) {
      const int s = r >> a->logC, l = r & (a->C - 1), w = SlicedWidth(a, s), i = a->perm ? a->perm[r] : r;
      double    acc[ELLG_SPMM_MAX_COLUMNS];
      for (int j = 0; j < nc; j++) acc[j] = 0.0;
      for (int k = 0; k < w; k++) {
        const int     p = a->slice_ptr[s] + k * a->C + l;
        const double *b = B + ELLGColumn(a->col, a->off, p, i);
        const double  v = ELLGValue(a->val, a->sval, p);
        for (int j = 0; j < nc; j++) acc[j] += v * b[(size_t)j * args->ldb];
      }
      ELLGSpMMHostStore(acc, args, i, j0, nc);
    }
  }
}

void SlicedHostMultTransposeAdd(const SlicedArrays *a, int block_size, const double *x, double *y)
{
  for (int r = 0; r < a->m; r++) {
    const int    s = r >> a->logC, l = r & (a->C - 1), w = SlicedWidth(a, s), i = a->perm ? a->perm[r] : r;
    const double xi = x[i];
    if (xi == 0.0) continue;
    for (int k = 0; k < w; k++) {
      const int    p = a->slice_ptr[s] + k * a->C + l;
      const double v = ELLGValue(a->val, a->sval, p);
      if (v != 0.0) y[ELLGColumn(a->col, a->off, p, i)] += v * xi; /* padding adds nothing */
    }
  }
}

/* the first entry in column i: padding follows the entries and holds 0 */
void SlicedHostGetDiagonal(const SlicedArrays *a, int block_size, double *d)
{
  for (int r = 0; r < a->m; r++) {
    const int s = r >> a->logC, l = r & (a->C - 1), w = SlicedWidth(a, s), i = a->perm ? a->perm[r] : r;
    double    di = 0.0;
    for (int k = 0; k < w; k++) {
      const int p = a->slice_ptr[s] + k * a->C + l;
      if (ELLGColumn(a->col, a->off, p, i) == i) {
        di = ELLGValue(a->val, a->sval, p);
        break;
      }
    }
    d[i] = di;
  }
}
