/*
   The sweep of multicolor SOR over a set of rows (src/mat/solvers/sor: sweep.cu, sweephost.c), which the approximate
   triangular solves (ellgtrisolve.h: Jacobi sweeps) take too. Plain C, nothing of PETSc; returns 0 or an error code
   of ellgcuda.h.
*/
#pragma once

#ifdef __cplusplus
extern "C" {
#endif

/* one sweep over rows in the same arrays: xnew[perm[p]] = (1 - omega) xold[perm[p]] + omega dinv[p] (b[perm[p]] -
   sum val[k] xold[colidx[k]]), p < n (dinv NULL: 1); xold NULL for none (xnew = omega D^{-1} b). A Jacobi sweep of a
   triangle (omega 1, xnew distinct from b and xold), and a color of the multicolor SOR (ellgsor.h: in place, xnew =
   xold, which its rows do not read) */
/* the values val, or sval in single precision (the other NULL), read in double */
int  ELLGCudaSweepRows(void *stream, int n, const int *perm, const int *rowptr, const int *colidx, const double *val, const float *sval, const double *dinv, double omega, const double *b, const double *xold, double *xnew);
void ELLGHostSweepRows(void *stream, int n, const int *perm, const int *rowptr, const int *colidx, const double *val, const float *sval, const double *dinv, double omega, const double *b, const double *xold, double *xnew); /* stream unused */

#ifdef __cplusplus
}
#endif
