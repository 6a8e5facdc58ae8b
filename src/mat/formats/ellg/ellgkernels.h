/*
   ELLG (ELLPACK-R) arrays, in the memory of the backend that computes with them:
     val[k*pitch + i], col[k*pitch + i]  entry k of row i, k < rowlen[i] (column-major, pitch = rows
                                         rounded up to 32 so that every column starts 256-byte aligned)
     off[k*pitch + i]                    or, when every column is within 16 bits of its row, the
                                         column as i + off[...] (2 bytes an entry instead of 4); then
                                         col is NULL, else off is
     rowlen[i]                           stored entries of row i
   The values are double (val) or single precision (sval), one of them NULL (ellgvalues.h).
   Each function exists once per backend, with the same arguments (launch parameters are unused on
   the host): ELLGHost* (ellghost.c) and ELLGCuda* (ellg.cu, returning 0 or a cudaError_t).
*/
#pragma once
#include <ellgspmmargs.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  int     m, pitch, width;
  int    *rowlen, *col;
  short  *off;
  double *val;
  float  *sval;
} ELLGArrays;

/* values (and, when csrcol is given, column indices) from the CSR in backend memory, for the
   rowlen[] entries of each row; padding is zeroed */
int  ELLGCudaPack(const ELLGArrays *e, const int *csrrowptr, const int *csrcol, const double *csrval);
int  ELLGCudaMult(const ELLGArrays *e, int threads_per_row, int block_size, const double *x, const double *z, double *y);
int  ELLGCudaMultTransposeAdd(const ELLGArrays *e, int block_size, const double *x, double *y);
int  ELLGCudaGetDiagonal(const ELLGArrays *e, double *d);
/* C = A B (+ C), threads_per_row threads on a row, lc columns of C per pass over it */
int  ELLGCudaSpMM(const ELLGArrays *e, int threads_per_row, int block_size, int lc, const ELLGSpMMArgs *a);

void ELLGHostPack(const ELLGArrays *e, const int *csrrowptr, const int *csrcol, const double *csrval);
void ELLGHostMult(const ELLGArrays *e, int threads_per_row, int block_size, const double *x, const double *z, double *y);
void ELLGHostMultTransposeAdd(const ELLGArrays *e, int block_size, const double *x, double *y);
void ELLGHostGetDiagonal(const ELLGArrays *e, double *d);
void ELLGHostSpMM(const ELLGArrays *e, int threads_per_row, int block_size, int lc, const ELLGSpMMArgs *a);

#ifdef __cplusplus
}
#endif
