/* The transpose of a host CSR pattern, shared by the triangles' transposed solves, the host backend's sparse
   products and the explicit transposes of our seq types */
#include <ellgimpl.h>

/*
   ELLGCsrTranspose - the CSR of the transpose of an m x n CSR pattern (rowptr, colidx), columns sorted in each
   row, and the source of each entry: src[k] of the entry it comes from (src NULL: its position k). Free the
   three arrays with PetscFree3(trowptr, tcolidx, tsrc).
*/
PetscErrorCode ELLGCsrTranspose(PetscInt m, PetscInt n, const PetscInt rowptr[], const PetscInt colidx[], const PetscInt src[], PetscInt **trowptr, PetscInt **tcolidx, PetscInt **tsrc)
{
  PetscInt *tr, *tc, *ts, nnz = rowptr[m];

  PetscFunctionBegin;
  PetscCall(PetscMalloc3(n + 1, &tr, nnz, &tc, nnz, &ts));
  PetscCall(PetscArrayzero(tr, n + 1));
  for (PetscInt k = 0; k < nnz; k++) tr[colidx[k] + 1]++;
  for (PetscInt i = 0; i < n; i++) tr[i + 1] += tr[i];
  for (PetscInt i = 0; i < m; i++) {
    for (PetscInt k = rowptr[i]; k < rowptr[i + 1]; k++) {
      const PetscInt q = tr[colidx[k]]++;

      tc[q] = i;
      ts[q] = src ? src[k] : k;
    }
  }
  for (PetscInt i = n; i > 0; i--) tr[i] = tr[i - 1];
  tr[0]    = 0;
  *trowptr = tr;
  *tcolidx = tc;
  *tsrc    = ts;
  PetscFunctionReturn(PETSC_SUCCESS);
}
