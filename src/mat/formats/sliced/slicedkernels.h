/*
   Sliced ELL (SELL-C-sigma) arrays, in the memory of the backend that computes with them:
     slices of C consecutive rows of the (sorted) row order, slice s padded to its own width
     w_s = (slice_ptr[s+1] - slice_ptr[s]) / C and stored column-major:
       val[slice_ptr[s] + k*C + l], col[...]  entry k of local row l (row r = s*C + l), k < w_s
     padding (k >= the row's length): value 0 and the column of the row's last entry (for a row with
     no entry the nearest column, min(i, n - 1)), so that the products may read it; slots past the
     last row (r >= m): 0, 0
     off[...]  or, when they fit (ellgcolumns.h), the columns as 16-bit offsets from the matrix row
               (perm[r]); then col is NULL, else off is
     perm[r]  the matrix row of sorted row r; NULL when the rows are not sorted (sigma = 1)
   The values are double (val) or single precision (sval), one of them NULL (ellgvalues.h).
   x is read and y written in the matrix's own numbering: y[perm[r]].
   Each function exists once per backend, with the same arguments (launch parameters are unused on
   the host): SlicedHost* (slicedhost.c) and SlicedCuda* (sliced.cu, returning 0 or a cudaError_t).
*/
#pragma once
#include <ellgspmmargs.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  int     m, n;          /* rows, columns */
  int     C, logC;       /* slice height, a power of two, and its base-2 logarithm */
  int     nslices;       /* ceil(m / C) */
  int    *slice_ptr;     /* nslices + 1 */
  int    *perm;          /* m, or NULL */
  int    *col;
  short  *off;
  double *val;
  float  *sval;
} SlicedArrays;

/* values (and, when csrcol is given, column indices) from the CSR in backend memory: the first
   csrrowlen[i] entries of each row i; padding as above */
int  SlicedCudaPack(const SlicedArrays *a, const int *csrrowptr, const int *csrrowlen, const int *csrcol, const double *csrval);
/* y = A x + z (z may be NULL or y), threads_per_row in {1, 2, 4, 8, 16, 32} */
int  SlicedCudaMult(const SlicedArrays *a, int threads_per_row, int block_size, const double *x, const double *z, double *y);
int  SlicedCudaMultTransposeAdd(const SlicedArrays *a, int block_size, const double *x, double *y);
int  SlicedCudaGetDiagonal(const SlicedArrays *a, int block_size, double *d);
/* C = A B (+ C), threads_per_row threads on a row, lc columns of C per pass over it */
int  SlicedCudaSpMM(const SlicedArrays *a, int threads_per_row, int block_size, int lc, const ELLGSpMMArgs *args);

void SlicedHostPack(const SlicedArrays *a, const int *csrrowptr, const int *csrrowlen, const int *csrcol, const double *csrval);
void SlicedHostMult(const SlicedArrays *a, int threads_per_row, int block_size, const double *x, const double *z, double *y);
void SlicedHostMultTransposeAdd(const SlicedArrays *a, int block_size, const double *x, double *y);
void SlicedHostGetDiagonal(const SlicedArrays *a, int block_size, double *d);
void SlicedHostSpMM(const SlicedArrays *a, int threads_per_row, int block_size, int lc, const ELLGSpMMArgs *args);

#ifdef __cplusplus
}
#endif
