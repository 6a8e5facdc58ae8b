/*
   The sums of COO assembly in the backend's memory (plain C, nothing of PETSc; ellgcoo.h for the PETSc side): nonzero
   k of the CSR pattern is the sum of the values of the COO entries perm[p] for p = jmap[k] .. jmap[k + 1] - 1, in that
   order, added to a[k] (add) or in its place. The value of entry e is v[e] for e < nv, else w[e - nv] (a parallel
   matrix's block: the entries of the process, then those it received). jmap NULL: nonzero k is entry perm[k] alone (no
   repeats), or entry k when perm is NULL too (the COO entries are the CSR's nonzeros, once each and in order). Every function returns 0 or an error code of ellgcuda.h.
*/
#pragma once

#ifdef __cplusplus
extern "C" {
#endif

int  ELLGCudaCooSum(long long nnz, const long long *jmap, const long long *perm, long long nv, const double *v, const double *w, int add, double *a);
void ELLGHostCooSum(long long nnz, const long long *jmap, const long long *perm, long long nv, const double *v, const double *w, int add, double *a);

#ifdef __cplusplus
}
#endif
