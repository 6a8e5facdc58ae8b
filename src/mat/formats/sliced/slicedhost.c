/* Sliced ELL on the host backend: plain loops over the same arrays the CUDA kernels use */
#include <stddef.h>
#include <ellgcolumns.h>
#include <ellgvalues.h>
#include "slicedkernels.h"

static inline int SlicedWidth(const SlicedArrays *a, int s) { return (a->slice_ptr[s + 1] - a->slice_ptr[s]) >> a->logC; }

/* the column of slot p of row i in slice s (its block of shared offsets, or its own slots) */
static inline int SlicedColumn(const SlicedArrays *a, int s, int p, int i)
{
  const size_t q = a->idx_ptr ? (size_t)(p - a->slice_ptr[s] + a->idx_ptr[s]) : (size_t)p;

  return a->idx_ptr ? i + (a->off ? a->off[q] : a->rel[q]) : ELLGColumn(a->col, a->off, q, i);
}

void SlicedHostPack(const SlicedArrays *a, const int *csrrowptr, const int *csrrowlen, const int *csrcol, const double *csrval)
{
  for (int s = 0; s < a->nslices; s++) {
    const int w = SlicedWidth(a, s);
    for (int l = 0; l < a->C; l++) {
      const SlicedRow R = SlicedRowOf(a->m, a->n, a->perm, s * a->C + l, csrrowptr, csrrowlen, csrcol);
      for (int k = 0; k < w; k++) {
        const int p = a->slice_ptr[s] + k * a->C + l;
        ELLGSetValue(a->val, a->sval, p, k < R.len ? csrval[R.src + k] : 0.0);
        if (!csrcol) continue;
        if (a->off) a->off[p] = (short)SlicedRowOffset(&R, csrcol, k);
        else a->col[p] = SlicedRowColumn(&R, csrcol, k);
      }
    }
  }
}

void SlicedHostSignatures(const SlicedArrays *a, const int *csrrowptr, const int *csrrowlen, const int *csrcol, unsigned long long *sig, int *minmax)
{
  for (int s = 0; s < a->nslices; s++) {
    const int w = SlicedWidth(a, s);
    for (int l = 0; l < a->C; l++) {
      const SlicedRow R = SlicedRowOf(a->m, a->n, a->perm, s * a->C + l, csrrowptr, csrrowlen, csrcol);
      sig[s] ^= SlicedRowSignature(&R, csrcol, w, l, &minmax[0], &minmax[1]);
    }
  }
}

void SlicedHostPackShared(const SlicedArrays *a, int nrep, const int *reps, const int *csrrowptr, const int *csrrowlen, const int *csrcol)
{
  for (int t = 0; t < nrep; t++) {
    const int s = reps[t], w = SlicedWidth(a, s);
    for (int l = 0; l < a->C; l++) {
      const SlicedRow R = SlicedRowOf(a->m, a->n, a->perm, s * a->C + l, csrrowptr, csrrowlen, csrcol);
      for (int k = 0; k < w; k++) {
        const size_t q = (size_t)a->idx_ptr[s] + (size_t)k * a->C + l;
        const int    o = SlicedRowOffset(&R, csrcol, k);
        if (a->off) a->off[q] = (short)o;
        else a->rel[q] = o;
      }
    }
  }
}

void SlicedHostCheckShared(const SlicedArrays *a, const int *csrrowptr, const int *csrrowlen, const int *csrcol, int *bad)
{
  for (int s = 0; s < a->nslices; s++) {
    const int w = SlicedWidth(a, s);
    for (int l = 0; l < a->C; l++) {
      const SlicedRow R = SlicedRowOf(a->m, a->n, a->perm, s * a->C + l, csrrowptr, csrrowlen, csrcol);
      for (int k = 0; k < w; k++) {
        const size_t q = (size_t)a->idx_ptr[s] + (size_t)k * a->C + l;
        if (SlicedRowOffset(&R, csrcol, k) != (a->off ? a->off[q] : a->rel[q])) *bad = 1;
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
      sum += ELLGValue(a->val, a->sval, p) * x[SlicedColumn(a, s, p, i)];
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
        const double *b = B + SlicedColumn(a, s, p, i);
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
      if (v != 0.0) y[SlicedColumn(a, s, p, i)] += v * xi; /* padding adds nothing */
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
      if (SlicedColumn(a, s, p, i) == i) {
        di = ELLGValue(a->val, a->sval, p);
        break;
      }
    }
    d[i] = di;
  }
}
