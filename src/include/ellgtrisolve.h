/*
   Triangular solves of the factors of our seq types (plain C, nothing of PETSc). A triangular factor T
   of order n is its rows' entries off the diagonal and the inverse of each row's diagonal (none: a unit
   diagonal); a solve computes, row by row in an order where each row comes after those it reads,

       x[i] = dinv[i] (b[i] - sum_j T_ij x[j])

   Two ways run it on the device:
   - levels: the rows in groups of g consecutive ones (g the block size of the matrix, or 1), the groups
     sorted by level (a group's level is one more than the highest level of the other groups its rows
     read), the rows of a group in the order of the solve; stored in CSR in that order (pos is a row's place
     in it: row = perm[pos]). One kernel takes the groups in that order, a few lanes of a warp a group: they
     wait until the groups its rows read are done (a flag per group set to the solve's epoch, so the flags need
     no reset between solves), then solve the group's rows one after the other, keeping their values in
     registers;
   - cusparse: cuSPARSE's SpSV on the factor in CSR, its diagonal stored.
   An approximate solve takes a few Jacobi sweeps x <- D^{-1} (b - T x) instead, each a product with T.
   The host backend runs the same level-ordered arrays with plain loops (trisolvehost.c).

   Every function returns 0 or an error code of ellgcuda.h.
*/
#pragma once
#include <stddef.h>

#include <ellgsweep.h>

#ifdef __cplusplus
extern "C" {
#endif

/* the most rows per group */
#define ELLG_TRI_GROUP_MAX 8

/* levels: x[perm[p]] = dinv[p] (b[perm[p]] - sum_{k in [rowptr[p], rowptr[p+1])} val[k] x[colidx[k]]), in the
   order of p; dinv NULL: unit diagonal. b and x may be the same array. ng groups of g rows (row i in group i / g):
   group c of the level order is positions gptr[c] .. gptr[c+1] - 1 and reads the groups dgrp[dptr[c] ..
   dptr[c+1] - 1]; for g = 1, gptr, dptr and dgrp are NULL (group c is position c, and reads its columns).
   width: groups per level on average, which sets how many run at once; nnz: the entries (rowptr[n]), which set the
   lanes per group. flags[ng] holds epochs of earlier solves (zeros at first), epoch is new (not in flags). The values
   are val, or sval in single precision (the other NULL), read in double; the inverse diagonals double. */
int ELLGCudaTriSolveLevels(void *stream, int ng, int g, int width, int nnz, const int *gptr, const int *dptr, const int *dgrp, const int *perm, const int *rowptr, const int *colidx, const double *val, const float *sval, const double *dinv, unsigned *flags, unsigned epoch, const double *b, double *x);
void ELLGHostTriSolveLevels(int n, const int *perm, const int *rowptr, const int *colidx, const double *val, const float *sval, const double *dinv, const double *b, double *x);

/* on a stream: y[i] = x[idx[i]] (idx NULL: y[i] = x[i]), i < n, y and x distinct */
int  ELLGCudaPermute(void *stream, int n, const int *idx, const double *x, double *y);
void ELLGHostPermute(void *stream, int n, const int *idx, const double *x, double *y); /* stream unused */

/* cusparse: a triangular factor of order n (upper or lower) in CSR on the host, columns sorted in each
   row, with its diagonal entries (the diagonal itself, not its inverse) unless unit; uploaded, with the
   SpSV analysis of the solves with T (the analysis of the solves with T^T comes with the first of them).
   The values are double, or float when single: then each solve runs in single precision on copies of b
   and x rounded to it */
int ELLGCusparseTriCreate(int n, const int *rowptr, const int *colidx, const void *val, int single, int upper, int unit, void **tri);
/* the same on a CSR already on the device (columns sorted, the diagonal stored unless unit), whose arrays stay
   the caller's: a CSR holding both triangles of a factor serves both solves, each reading its own triangle */
int ELLGCusparseTriCreateOnDevice(int n, int nnz, int *rowptr, int *colidx, void *val, int single, int upper, int unit, void **tri);
/* new values in the same pattern (host array of the precision given to Create); NULL for a triangle made on
   the device, whose values the caller changed in place */
int ELLGCusparseTriSetValues(void *tri, const void *val);
/* x = T^{-1} b (transpose: T^{-T} b), double device arrays on the legacy default stream; b and x may not be the
   same */
int ELLGCusparseTriSolve(void *tri, int transpose, const double *b, double *x);
int ELLGCusparseTriDestroy(void *tri);
size_t ELLGCusparseTriBytes(void *tri); /* device memory it holds */

#ifdef __cplusplus
}
#endif
