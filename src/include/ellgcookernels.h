/*
   The sums of COO assembly (MatSetValuesCOO()) in the backend's memory (plain C, nothing of PETSc; ellgcoo.h for the
   PETSc side): nonzero k of the CSR pattern is the sum of the COO values v[perm[p]] for p = jmap[k] .. jmap[k + 1] - 1,
   in that order, added to a[k] (add) or in its place. jmap and perm NULL: the COO entries are the CSR's nonzeros, once
   each and in order (v[k] for nonzero k). Every function returns 0 or an error code of ellgcuda.h.
*/
#pragma once

#ifdef __cplusplus
extern "C" {
#endif

int  ELLGCudaCooSum(long long nnz, const long long *jmap, const long long *perm, const double *v, int add, double *a);
void ELLGHostCooSum(long long nnz, const long long *jmap, const long long *perm, const double *v, int add, double *a);

#ifdef __cplusplus
}
#endif
