/*
   The numeric incomplete factorization of the factors of our seq types in the backend's memory (plain C,
   nothing of PETSc; ellgilu.h for the PETSc side).

   The factor is one CSR of order n, columns sorted in each row, the diagonal of row i at diag[i]: its
   entries left of the diagonal hold L (unit diagonal), the others U, and val[nnz + i] the inverse of U's
   diagonal. Row i is factored as PETSc's row-oriented elimination does it:

       for each k < i of row i, ascending:  l = val[ik] / u_kk;  val[ij] -= l val[kj] for j > k in both rows;
       val[ik] = l

   (skipped when val[ik] is 0), after the rows it reads. The rows run by levels (a row's level is one more than
   the highest of the rows its L part reads): the device takes a level per launch, a warp a row.

   A pivot is flagged when PETSc's pivot check might act on it (a shift or a zero pivot): |u_ii| <= zeropivot
   rs_i or |u_ii| <= zeropivot, or with pd (a positive definite shift) u_ii <= zeropivot rs_i, rs_i the sum of
   the magnitudes of row i of U off the diagonal. bad[0] then becomes the least such row (it starts at n or
   more); the caller then factors on the host, where PETSc's checks act.

   Every function returns 0 or an error code of ellgcuda.h.
*/
#pragma once

#ifdef __cplusplus
extern "C" {
#endif

/* val[k] = 0 for k < nnz, then val[map[k]] = a[k] for the k < na with map[k] >= 0, and likewise with mapt when
   not NULL (the mirror of a symmetric matrix's upper triangle) */
int  ELLGCudaILUFill(int na, const int *map, const int *mapt, const double *a, int nnz, double *val);
void ELLGHostILUFill(int na, const int *map, const int *mapt, const double *a, int nnz, double *val);

/* factors rows rows[0 .. nr-1] (one level: none reads another) of the factor above; val holds nnz + n values */
int ELLGCudaILURows(int nr, const int *rows, int nnz, const int *rowptr, const int *colidx, const int *diag, double *val, int pd, double zeropivot, int *bad);
/* the host backend: rows 0 .. n-1 in order, bad[0] as above */
void ELLGHostILURows(int n, int nnz, const int *rowptr, const int *colidx, const int *diag, double *val, int pd, double zeropivot, int *bad);

/* y[i] = x[i] sqrt(dinv[i]) (inverse: x[i] / sqrt(dinv[i])), i < n: the halves of the diagonal of an ICC factor */
int  ELLGCudaILUScaleRoot(int n, const double *dinv, int inverse, const double *x, double *y);
void ELLGHostILUScaleRoot(int n, const double *dinv, int inverse, const double *x, double *y);

#ifdef __cplusplus
}
#endif
