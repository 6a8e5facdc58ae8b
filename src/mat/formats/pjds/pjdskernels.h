/*
   pJDS (padded jagged diagonals, Kreutzer et al.) arrays, in the memory of the backend that computes
   with them. The rows are sorted by stored length (descending) and grouped in blocks of b_r rows, each
   block padded to its longest row; sorted row r holds the entries j < w(r), w(r) = width of its block:
     perm[r]                         the matrix row of sorted row r (m entries)
     colstart[j]                     start of jagged diagonal j (width + 1 entries); the rows of
                                     diagonal j are the prefix r < colstart[j+1] - colstart[j]
     blockw[b]                       the width of block b (ceil(m / b_r) entries, b_r = 2^logbr), so
                                     w(r) = blockw[r >> logbr]: one load where a search of colstart
                                     would be a chain of them
     val[colstart[j] + r],           entry j of sorted row r (padding: value 0, column of the row's last
     col[colstart[j] + r]            entry; for a row without entries the nearest column, min(i, n - 1))
     off[colstart[j] + r]            or, when they fit (ellgcolumns.h), the columns as 16-bit offsets from
                                     the matrix row perm[r]; then col is NULL, else off is
   The values are double (val) or single precision (sval), one of them NULL (ellgvalues.h).
   x is read and y written in the original numbering (y[perm[r]]); nothing else is stored per row.
   The CUDA SpMV gives each row T threads, T from the row's width so that a thread takes a bounded number
   of entries: the sorted rows fall into bins of equal T (32, 16, ..., 1, in that order), bin k the rows
   binrow[k] .. binrow[k+1] - 1 and the warps binwarp[k] .. binwarp[k+1] - 1, 32 / T rows per warp. The
   rows split out of the format (ellglongrows.h) are the last sorted ones, past binrow[nbins]: the same
   kernel multiplies them, a block of it per chunk.
   Each function exists once per backend, with the same arguments (launch parameters are unused on
   the host): PJDSHost* (pjdshost.c) and PJDSCuda* (pjds.cu, returning 0 or a cudaError_t).
*/
#pragma once
#include <ellgspmmargs.h>
#include <ellglongrows.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PJDS_MAX_BINS 6 /* T = 32, 16, 8, 4, 2, 1 */

typedef struct {
  int     m, n, width, stored; /* rows, columns, diagonals, stored entries (colstart[width]) */
  int     logbr;               /* log2 of the rows per block */
  int    *perm, *colstart, *blockw, *col;
  short  *off;
  double *val;
  float  *sval;
  int     nbins, binT[PJDS_MAX_BINS], binrow[PJDS_MAX_BINS + 1], binwarp[PJDS_MAX_BINS + 1];
} PJDSArrays;

/* values (and, when csrcol is given, column indices) from the CSR in backend memory, for the
   csrrowlen[] entries of each row; padding as above */
int  PJDSCudaPack(const PJDSArrays *p, const int *csrrowptr, const int *csrrowlen, const int *csrcol, const double *csrval);
/* y = A x + z (z may be NULL or y), with the long rows l (NULL when none) */
int  PJDSCudaMult(const PJDSArrays *p, int block_size, const LongRowsArrays *l, const double *x, const double *z, double *y);
int  PJDSCudaMultTransposeAdd(const PJDSArrays *p, int block_size, const double *x, double *y);
int  PJDSCudaGetDiagonal(const PJDSArrays *p, int block_size, double *d);
/* C = A B (+ C), a thread per row, lc columns of C per pass over it */
int  PJDSCudaSpMM(const PJDSArrays *p, int block_size, int lc, const ELLGSpMMArgs *a);

void PJDSHostPack(const PJDSArrays *p, const int *csrrowptr, const int *csrrowlen, const int *csrcol, const double *csrval);
void PJDSHostMult(const PJDSArrays *p, int block_size, const LongRowsArrays *l, const double *x, const double *z, double *y);
void PJDSHostMultTransposeAdd(const PJDSArrays *p, int block_size, const double *x, double *y);
void PJDSHostGetDiagonal(const PJDSArrays *p, int block_size, double *d);
void PJDSHostSpMM(const PJDSArrays *p, int block_size, int lc, const ELLGSpMMArgs *a);

#ifdef __cplusplus
}
#endif
