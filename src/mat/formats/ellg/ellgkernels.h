/*
   ELLG (ELLPACK-R) arrays, in the memory of the backend that computes with them:
     val[k*pitch + i], col[k*pitch + i]  entry k of row i, k < rowlen[i] (column-major, pitch = rows
                                         rounded up to 32 so that every column starts 256-byte aligned)
     rowlen[i]                           stored entries of row i
     rowptr[i]                           CSR row start of row i (m+1 entries), used to scatter values
   Each function exists once per backend: ELLGHost* (ellghost.c) and ELLGCuda* (ellg.cu); the CUDA
   ones return 0 or a cudaError_t.
*/
#pragma once

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  int     m, pitch, width;
  int    *rowlen, *rowptr, *col;
  double *val;
} ELLGArrays;

/* from the CSR in backend memory: values, and with structure also rowlen and col; padding is zeroed */
int  ELLGCudaPack(const ELLGArrays *e, int structure, const int *csrcol, const double *csrval);
int  ELLGCudaMult(const ELLGArrays *e, int threads_per_row, int block_size, const double *x, const double *z, double *y);
int  ELLGCudaMultTransposeAdd(const ELLGArrays *e, int block_size, const double *x, double *y);
int  ELLGCudaGetDiagonal(const ELLGArrays *e, double *d);

void ELLGHostPack(const ELLGArrays *e, int structure, const int *csrcol, const double *csrval);
void ELLGHostMult(const ELLGArrays *e, const double *x, const double *z, double *y);
void ELLGHostMultTransposeAdd(const ELLGArrays *e, const double *x, double *y);
void ELLGHostGetDiagonal(const ELLGArrays *e, double *d);

#ifdef __cplusplus
}
#endif
