/*
   CSRG arrays, in the memory of the backend that computes with them:
     rowptr[i] .. rowptr[i+1]-1   the entries of row i (m+1 starts; rows split out as long are empty)
     col[k], val[k]               entry k: its column and value
     off[k]                       or, when every column is within 16 bits of its row, the column as
                                  i + off[k] (2 bytes an entry instead of 4); then col is NULL, else off is
     sval[k]                      or the value in single precision: the values are double (val) or single
                                  precision (sval), one of them NULL (ellgvalues.h)
     blockrow[2b] .. blockrow[2b+1]-1 for the CSR-stream kernel (NULL: CSR-vector): the rows of CUDA block b,
                                  nblocks of them, whose entries together number at most CSRG_STREAM_ENTRIES
                                  and which are at most CSRG_STREAM_THREADS, or one row of more entries
                                  (with col; the kernel reads every entry without its row); the long rows it
                                  multiplies (ellglongrows.h) are in no block
   The product with CSR-stream multiplies the long rows given (NULL: none) in the same launch, their chunks
   first, and writes every other row (the long rows' product is then added apart).
   Each function exists once per backend, with the same arguments (launch parameters are unused on
   the host): CSRGHost* (csrhost.c) and CSRGCuda* (csr.cu, returning 0 or a cudaError_t).
*/
#pragma once
#include <ellgspmmargs.h>
#include <ellglongrows.h>

#ifdef __cplusplus
extern "C" {
#endif

/* the CSR-stream kernel's blocks: threads, and the entries whose products they stage in shared memory */
#define CSRG_STREAM_THREADS 512
#define CSRG_STREAM_ENTRIES (4 * CSRG_STREAM_THREADS)

typedef struct {
  int     m, nblocks;
  int    *rowptr, *col, *blockrow;
  short  *off;
  double *val;
  float  *sval;
} CSRGArrays;

/* values (and, when csrcol is given, column indices) of each row from the CSR in backend memory whose row i
   starts at csrrowptr[i]: the first rowptr[i+1] - rowptr[i] entries of the row; with csrcol (a build), the CUDA
   backend also sets the CSR-stream kernel's shared-memory carveout on the current device */
int  CSRGCudaPack(const CSRGArrays *c, const int *csrrowptr, const int *csrcol, const double *csrval);
int  CSRGCudaMult(const CSRGArrays *c, const LongRowsArrays *l, int threads_per_row, int block_size, const double *x, const double *z, double *y);
int  CSRGCudaMultTransposeAdd(const CSRGArrays *c, int block_size, const double *x, double *y);
int  CSRGCudaGetDiagonal(const CSRGArrays *c, double *d);
/* C = A B (+ C), threads_per_row threads on a row, lc columns of C per pass over it */
int  CSRGCudaSpMM(const CSRGArrays *c, int threads_per_row, int block_size, int lc, const ELLGSpMMArgs *a);

void CSRGHostPack(const CSRGArrays *c, const int *csrrowptr, const int *csrcol, const double *csrval);
void CSRGHostMult(const CSRGArrays *c, const LongRowsArrays *l, int threads_per_row, int block_size, const double *x, const double *z, double *y);
void CSRGHostMultTransposeAdd(const CSRGArrays *c, int block_size, const double *x, double *y);
void CSRGHostGetDiagonal(const CSRGArrays *c, double *d);
void CSRGHostSpMM(const CSRGArrays *c, int threads_per_row, int block_size, int lc, const ELLGSpMMArgs *a);

#ifdef __cplusplus
}
#endif
