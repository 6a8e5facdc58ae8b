/*
   Long rows: rows split out of a format, kept as a small CSR over those rows
     ids[r]                 the matrix row of long row r
     rowptr[r]..rowptr[r+1] its entries in col[], val[] (or sval[] in single precision: ellgvalues.h)
   cut into chunks of LONGROWS_CHUNK entries, each a thread block's work on the GPU:
     chunkrow[c]                    the long row of chunk c
     rowchunk[r]..rowchunk[r+1]     the chunks of long row r
     partial[c]                     the sum of chunk c, added up per row in a fixed order (deterministic)
                                    by the last block of the row to finish, which arrived[r] counts
   Sparse times dense adds the long rows' part to C (ellgspmmargs.h) the same way, a thread block per
   chunk and pass of lc columns, the sums of chunk c for column j in work[c + nchunks j].
   Each function exists once per backend: LongRowsHost* (longrowshost.c, plain loops over the rows),
   LongRowsCuda* (longrows.cu, returning 0 or a cudaError_t).
*/
#pragma once
#include <ellgspmmargs.h>

#ifdef __cplusplus
extern "C" {
#endif

#define LONGROWS_CHUNK 2048
#define LONGROWS_THREADS 256 /* threads of the block that takes a chunk */

typedef struct {
  int     nrows, nchunks;
  int    *ids, *rowptr, *col, *chunkrow, *rowchunk, *arrived;
  double *val, *partial;
  float  *sval;
} LongRowsArrays;

/* *l, or no long rows (l NULL) */
static inline LongRowsArrays LongRowsArraysOrNone(const LongRowsArrays *l)
{
  const LongRowsArrays none = {0, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL};

  return l ? *l : none;
}

/* entries of the long rows from the CSR of the whole matrix (csrcol NULL: values only) */
int  LongRowsCudaGather(const LongRowsArrays *l, const int *csrrowptr, const int *csrcol, const double *csrval);
int  LongRowsCudaMultAdd(const LongRowsArrays *l, const double *x, double *y);
int  LongRowsCudaMultTransposeAdd(const LongRowsArrays *l, const double *x, double *y);
int  LongRowsCudaGetDiagonal(const LongRowsArrays *l, double *d);
int  LongRowsCudaSpMMAdd(const LongRowsArrays *l, int lc, const ELLGSpMMArgs *a);

void LongRowsHostGather(const LongRowsArrays *l, const int *csrrowptr, const int *csrcol, const double *csrval);
void LongRowsHostMultAdd(const LongRowsArrays *l, const double *x, double *y);
void LongRowsHostMultTransposeAdd(const LongRowsArrays *l, const double *x, double *y);
void LongRowsHostGetDiagonal(const LongRowsArrays *l, double *d);
void LongRowsHostSpMMAdd(const LongRowsArrays *l, int lc, const ELLGSpMMArgs *a);

#ifdef __cplusplus
}
#endif
