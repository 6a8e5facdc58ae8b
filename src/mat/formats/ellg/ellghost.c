/* ELLG on the host backend: plain loops over the same arrays the CUDA kernels use */
#include <stddef.h>
#include <ellgcolumns.h>
#include <ellgvalues.h>
#include "ellgkernels.h"

void ELLGHostPack(const ELLGArrays *e, const int *csrrowptr, const int *csrcol, const double *csrval)
{
  for (int i = 0; i < e->pitch; i++) {
    const int start = i < e->m ? csrrowptr[i] : 0;
    const int len   = i < e->m ? e->rowlen[i] : 0;
    for (int k = 0; k < e->width; k++) {
      const size_t p = (size_t)k * e->pitch + i;
      ELLGSetValue(e->val, e->sval, p, k < len ? csrval[start + k] : 0.0);
      if (csrcol && e->off) e->off[p] = (short)(k < len ? csrcol[start + k] - i : 0);
      else if (csrcol) e->col[p] = k < len ? csrcol[start + k] : 0;
    }
  }
}

void ELLGHostMult(const ELLGArrays *e, int threads_per_row, int block_size, const double *x, const double *z, double *y)
{
  for (int i = 0; i < e->m; i++) {
    double sum = 0.0;
    for (int k = 0; k < e->rowlen[i]; k++) {
      const size_t p = (size_t)k * e->pitch + i;
      sum += ELLGValue(e->val, e->sval, p) * x[ELLGColumn(e->col, e->off, p, i)];
    }
    y[i] = z ? z[i] + sum : sum;
  }
}

/* as the kernel: each row read once per pass of lc columns; pass after pass, as the kernel's passes
   (blockIdx.y), so that the rows of a pass read nearby entries of the same columns of B */
void ELLGHostSpMM(const ELLGArrays *e, int threads_per_row, int block_size, int lc, const ELLGSpMMArgs *a)
{
  for (int j0 = 0; j0 < a->ncols; j0 += lc) {
    const int     nc = a->ncols - j0 < lc ? a->ncols - j0 : lc;
    const double *B  = a->B + (size_t)j0 * a->ldb;
    for (int i = 0; i < e->m; i++) {
      double acc[ELLG_SPMM_MAX_COLUMNS];
      for (int j = 0; j < nc; j++) acc[j] = 0.0;
      for (int k = 0; k < e->rowlen[i]; k++) {
        const size_t  p = (size_t)k * e->pitch + i;
        const double *b = B + ELLGColumn(e->col, e->off, p, i);
        const double  v = ELLGValue(e->val, e->sval, p);
        for (int j = 0; j < nc; j++) acc[j] += v * b[(size_t)j * a->ldb];
      }
      ELLGSpMMHostStore(acc, a, i, j0, nc);
    }
  }
}

void ELLGHostMultTransposeAdd(const ELLGArrays *e, int block_size, const double *x, double *y)
{
  for (int i = 0; i < e->m; i++)
    for (int k = 0; k < e->rowlen[i]; k++) {
      const size_t p = (size_t)k * e->pitch + i;
      y[ELLGColumn(e->col, e->off, p, i)] += ELLGValue(e->val, e->sval, p) * x[i];
    }
}

void ELLGHostGetDiagonal(const ELLGArrays *e, double *d)
{
  for (int i = 0; i < e->m; i++) {
    d[i] = 0.0;
    for (int k = 0; k < e->rowlen[i]; k++) {
      const size_t p = (size_t)k * e->pitch + i;
      if (ELLGColumn(e->col, e->off, p, i) == i) {
        d[i] = ELLGValue(e->val, e->sval, p);
        break;
      }
    }
  }
}
