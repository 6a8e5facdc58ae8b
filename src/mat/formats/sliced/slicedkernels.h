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
   Shared column offsets (idx_ptr not NULL): slices whose C x w blocks of offsets from the row are equal (a stencil's
   rows away from the boundaries) keep one block, which they all read: slice s's offsets are off or rel (32-bit) at
   idx_ptr[s] + k*C + l, and col is NULL. A signature of each slice's block (its width and offsets) finds the equal
   ones; every slice is then checked against the block it reads.
   The values are double (val) or single precision (sval), one of them NULL (ellgvalues.h).
   x is read and y written in the matrix's own numbering: y[perm[r]].
   Each function exists once per backend, with the same arguments (launch parameters are unused on
   the host): SlicedHost* (slicedhost.c) and SlicedCuda* (sliced.cu, returning 0 or a cudaError_t).
*/
#pragma once
#include <ellgspmmargs.h>
#include <ellgcolumns.h>

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
  int    *idx_ptr;       /* nslices, or NULL: shared column offsets */
  int    *rel;           /* 32-bit offsets from the row, shared */
  double *val;
  float  *sval;
} SlicedArrays;

/* the signature of each slice's block of column offsets (zeroed by the caller), as the pack would write them from the
   CSR in backend memory, and the least and greatest offset (minmax[0], minmax[1], set to INT_MAX and INT_MIN by the
   caller) */
int  SlicedCudaSignatures(const SlicedArrays *a, const int *csrrowptr, const int *csrrowlen, const int *csrcol, unsigned long long *sig, int *minmax);
/* the shared blocks of the nrep slices reps[] into off or rel at idx_ptr */
int  SlicedCudaPackShared(const SlicedArrays *a, int nrep, const int *reps, const int *csrrowptr, const int *csrrowlen, const int *csrcol);
/* *bad = 1 (set to 0 by the caller) when a slice's offsets differ from the block it reads */
int  SlicedCudaCheckShared(const SlicedArrays *a, const int *csrrowptr, const int *csrrowlen, const int *csrcol, int *bad);

/* values (and, when csrcol is given, column indices) from the CSR in backend memory: the first
   csrrowlen[i] entries of each row i; padding as above */
int  SlicedCudaPack(const SlicedArrays *a, const int *csrrowptr, const int *csrrowlen, const int *csrcol, const double *csrval);
/* y = A x + z (z may be NULL or y), threads_per_row in {1, 2, 4, 8, 16, 32} */
int  SlicedCudaMult(const SlicedArrays *a, int threads_per_row, int block_size, const double *x, const double *z, double *y);
int  SlicedCudaMultTransposeAdd(const SlicedArrays *a, int block_size, const double *x, double *y);
int  SlicedCudaGetDiagonal(const SlicedArrays *a, int block_size, double *d);
/* C = A B (+ C), threads_per_row threads on a row, lc columns of C per pass over it */
int  SlicedCudaSpMM(const SlicedArrays *a, int threads_per_row, int block_size, int lc, const ELLGSpMMArgs *args);

void SlicedHostSignatures(const SlicedArrays *a, const int *csrrowptr, const int *csrrowlen, const int *csrcol, unsigned long long *sig, int *minmax);
void SlicedHostPackShared(const SlicedArrays *a, int nrep, const int *reps, const int *csrrowptr, const int *csrrowlen, const int *csrcol);
void SlicedHostCheckShared(const SlicedArrays *a, const int *csrrowptr, const int *csrrowlen, const int *csrcol, int *bad);
void SlicedHostPack(const SlicedArrays *a, const int *csrrowptr, const int *csrrowlen, const int *csrcol, const double *csrval);
void SlicedHostMult(const SlicedArrays *a, int threads_per_row, int block_size, const double *x, const double *z, double *y);
void SlicedHostMultTransposeAdd(const SlicedArrays *a, int block_size, const double *x, double *y);
void SlicedHostGetDiagonal(const SlicedArrays *a, int block_size, double *d);
void SlicedHostSpMM(const SlicedArrays *a, int threads_per_row, int block_size, int lc, const ELLGSpMMArgs *args);

#ifdef __cplusplus
}
#endif

/* the row in slot row r (r >= m: none, i = -1), where its entries start in the CSR (src), how many (len) and the
   column its padding reads (pad; 0 without columns) */
typedef struct {
  int i, src, len, pad;
} SlicedRow;

static inline ELLG_HOST_DEVICE SlicedRow SlicedRowOf(int m, int n, const int *perm, int r, const int *csrrowptr, const int *csrrowlen, const int *csrcol)
{
  SlicedRow R;

  R.i   = r < m ? (perm ? perm[r] : r) : -1;
  R.src = R.i >= 0 ? csrrowptr[R.i] : 0;
  R.len = R.i >= 0 ? csrrowlen[R.i] : 0;
  R.pad = !csrcol || R.i < 0 ? 0 : R.len ? csrcol[R.src + R.len - 1] : ELLGEmptyRowColumn(R.i, n);
  return R;
}

/* the column of slot k of the row (an entry, or padding) */
static inline ELLG_HOST_DEVICE int SlicedRowColumn(const SlicedRow *R, const int *csrcol, int k)
{
  return k < R->len ? csrcol[R->src + k] : R->pad;
}

/* the offset from the row of slot k (0 past the last row) */
static inline ELLG_HOST_DEVICE int SlicedRowOffset(const SlicedRow *R, const int *csrcol, int k)
{
  return R->i >= 0 ? SlicedRowColumn(R, csrcol, k) - R->i : 0;
}

/* a 64-bit mix (splitmix64's finalizer) */
static inline ELLG_HOST_DEVICE unsigned long long SlicedMix(unsigned long long z)
{
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/* the part of slot row l of a slice of width w in the slice's signature (the signature is the XOR of its rows' parts):
   the row's offsets in order, tagged with l; *lo and *hi take the least and greatest offset */
static inline ELLG_HOST_DEVICE unsigned long long SlicedRowSignature(const SlicedRow *R, const int *csrcol, int w, int l, int *lo, int *hi)
{
  unsigned long long h = SlicedMix((unsigned long long)w);

  for (int k = 0; k < w; k++) {
    const int o = SlicedRowOffset(R, csrcol, k);

    h   = SlicedMix(h ^ (unsigned long long)(unsigned int)o);
    *lo = o < *lo ? o : *lo;
    *hi = o > *hi ? o : *hi;
  }
  return SlicedMix(h ^ ((unsigned long long)(unsigned int)l << 32));
}

