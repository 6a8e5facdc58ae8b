/*
   The arguments of the formats' sparse-times-dense kernels, C = A B (+ C), shared by the host loops
   and the CUDA kernels (plain C, no PETSc). B and C hold ncols columns, column-major, in the memory
   of the backend. After FastSpMM (Ortega et al.), each format runs a group of threads per row (the
   T of its SpMV kernel) that reads the row once per pass and accumulates lc columns of C in
   registers; ceil(ncols / lc) passes cover the columns. The long rows split out of a format add
   their part after the format's kernel, on the same stream.
*/
#pragma once
#include <stddef.h>

#define ELLG_SPMM_MAX_COLUMNS 32 /* the most columns of C a pass accumulates */

typedef struct {
  int           ncols;  /* columns of B and C */
  const double *B;      /* rows: the columns of A */
  int           ldb;    /* leading dimension of B */
  double       *C;      /* rows: the rows of A */
  int           ldc;    /* leading dimension of C */
  int           add;    /* C += A B instead of C = A B */
  double       *work;   /* room for the long rows' partial sums: chunks of the long rows times ncols */
  void         *stream; /* the cudaStream_t the kernels run on; unused on the host */
} ELLGSpMMArgs;

/* the host loops' store of the sums of row i for columns j0 .. j0 + nc - 1, as ELLGSpMMStore() on the GPU */
static inline void ELLGSpMMHostStore(const double *acc, const ELLGSpMMArgs *a, int i, int j0, int nc)
{
  for (int j = 0; j < nc; j++) {
    double *c = a->C + (size_t)(j0 + j) * a->ldc + i;
    *c        = a->add ? *c + acc[j] : acc[j];
  }
}
