/* The bench's CSR (bench_csr.h) */
#include "bench_csr.h"

PetscErrorCode CSRDestroy(CSR *A)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree(A->rowptr));
  PetscCall(PetscFree(A->colidx));
  PetscCall(PetscFree(A->val));
  PetscFunctionReturn(0);
}

PetscErrorCode CSRCheckSize(const char *what, PetscInt64 nnz)
{
  PetscFunctionBeginUser;
  PetscCheck(nnz >= 0 && nnz <= PETSC_MAX_INT, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%s: %" PetscInt64_FMT " nonzeros are more than PetscInt holds", what, nnz);
  PetscFunctionReturn(0);
}

PetscErrorCode CSRAllocate(CSR *A, PetscInt nrows, PetscInt ncols, PetscInt nnz)
{
  PetscFunctionBeginUser;
  A->nrows = nrows;
  A->ncols = ncols;
  A->nnz   = nnz;
  PetscCall(PetscMalloc1(nrows + 1, &A->rowptr));
  PetscCall(PetscMalloc1(nnz, &A->colidx));
  PetscCall(PetscMalloc1(nnz, &A->val));
  A->rowptr[0] = 0;
  PetscFunctionReturn(0);
}

PetscErrorCode CSRFromTriplets(PetscInt m, PetscInt n, PetscInt nt, const PetscInt *ti, const PetscInt *tj, const PetscScalar *tv, CSR *A)
{
  PetscInt *next, start = 0, nz = 0;

  PetscFunctionBeginUser;
  A->nrows = m;
  A->ncols = n;
  PetscCall(PetscCalloc1(m + 1, &A->rowptr));
  PetscCall(PetscMalloc1(nt, &A->colidx));
  PetscCall(PetscMalloc1(nt, &A->val));
  for (PetscInt k = 0; k < nt; k++) A->rowptr[ti[k] + 1]++;
  for (PetscInt i = 0; i < m; i++) A->rowptr[i + 1] += A->rowptr[i];
  PetscCall(PetscMalloc1(m, &next));
  PetscCall(PetscArraycpy(next, A->rowptr, m));
  for (PetscInt k = 0; k < nt; k++) {
    const PetscInt p = next[ti[k]]++;

    A->colidx[p] = tj[k];
    A->val[p]    = tv[k];
  }
  PetscCall(PetscFree(next));
  for (PetscInt i = 0; i < m; i++) { /* sort, then merge duplicates, compacting towards the front */
    const PetscInt end = A->rowptr[i + 1], first = nz;

    PetscCall(PetscSortIntWithScalarArray(end - start, A->colidx + start, A->val + start));
    for (PetscInt k = start; k < end; k++) {
      if (nz > first && A->colidx[nz - 1] == A->colidx[k]) A->val[nz - 1] += A->val[k];
      else {
        A->colidx[nz] = A->colidx[k];
        A->val[nz++]  = A->val[k];
      }
    }
    A->rowptr[i] = first;
    start        = end;
  }
  A->rowptr[m] = nz;
  A->nnz       = nz;
  PetscFunctionReturn(0);
}
