/*
   Sparse matrices in CSR in device memory, their transposes, their products and their products with vectors
   with cuSPARSE (plain C, nothing of PETSc): the device side of the sparse matrix products of ellgspgemm.h. A CSR matrix is m x n
   with nnz entries, 0-based, its columns sorted in each row, 32-bit indices and double values.

   Every function returns 0 or an error code of ellgcuda.h; on an error, what it was creating is freed.
*/
#pragma once

#ifdef __cplusplus
extern "C" {
#endif

/* a device copy of a host CSR matrix (i of m + 1 entries, j and a of i[m]) */
int ELLGCudaCsrCreate(int m, int n, const int *i, const int *j, const double *a, void **csr);
/* new values in the same pattern, from the host */
int ELLGCudaCsrSetValues(void *csr, const double *a);
/* t = csr^T: *t NULL creates it, else recomputes it (same pattern) */
int ELLGCudaCsrTranspose(void *csr, void **t);
/* z = x y: *plan NULL creates z and the plan (cuSPARSE SpGEMMreuse, its descriptor and buffers), else only
   recomputes z's values (x and y in the patterns the plan was made for) */
int ELLGCudaCsrMultiply(void *x, void *y, void **z, void **plan);
/* y = csr x + z (z NULL: none; z may be y), device vectors */
int ELLGCudaCsrMultAdd(void *csr, const double *x, const double *z, double *y);
int ELLGCudaCsrGetSize(void *csr, int *m, int *n, int *nnz);
/* to the host: i (m + 1), j, a (nnz); any of them NULL for none */
int ELLGCudaCsrDownload(void *csr, int *i, long k0, long k1, int *j, double *a);
/* device memory held, in bytes */
int ELLGCudaCsrBytes(void *csr, size_t *bytes);
int ELLGCudaCsrPlanBytes(void *plan, size_t *bytes);
int ELLGCudaCsrDestroy(void *csr);
int ELLGCudaCsrPlanDestroy(void *plan);

#ifdef __cplusplus
}
#endif
