/*
   COO assembly of our seq types (MatSetPreallocationCOO(), MatSetValuesCOO()): the CSR pattern of the entries given
   (their rows and columns, those with a negative index ignored, repeats summed) and the map from the entries to the
   nonzeros, built once on the host; the sums of each MatSetValuesCOO() in host memory, or in the backend's memory
   from values there (ellgcookernels.h), without a pass on the host. A vector's (VecSetPreallocationCOO(),
   VecSetValuesCOO()) is the map onto its rows, every row a nonzero. The entries of other processes' rows travel to
   their owners through an ELLGCooSend.
*/
#pragma once
#include <ellgimpl.h>

typedef struct _n_ELLGCoo *ELLGCoo;

/* the m x n pattern of the ncoo entries (coo_i, coo_j), not changed: *ai (m + 1) and *aj (columns sorted in each
   row) to PetscFree() */
PETSC_INTERN PetscErrorCode ELLGCooCreate(PetscELLGBackend, PetscInt, PetscInt, PetscCount, const PetscInt[], const PetscInt[], ELLGCoo *, PetscInt **, PetscInt **);
/* the map of the ncoo entries coo_i (rows below m, checked by the caller, or negative: ignored) onto all m rows, each the sum of its
   entries (0 for a row without) */
PETSC_INTERN PetscErrorCode ELLGCooCreateRows(PetscELLGBackend, PetscInt, PetscCount, const PetscInt[], ELLGCoo *);
PETSC_INTERN PetscErrorCode ELLGCooDestroy(ELLGCoo *);
PETSC_INTERN PetscCount     ELLGCooEntries(ELLGCoo);
PETSC_INTERN PetscInt       ELLGCooNonzeros(ELLGCoo);
/* a[] (nonzeros) from the entries' values, added (ADD_VALUES) or in place (INSERT_VALUES, or any other mode: the
   caller checks it): entry e's value is v[e] for e < nv, else w[e - nv]; inbackend: v, w and a in the backend's
   memory, else all on the host */
PETSC_INTERN PetscErrorCode ELLGCooSum(ELLGCoo, PetscBool, PetscCount, const PetscScalar[], const PetscScalar[], InsertMode, PetscScalar[]);
/* whether the kernels of backend be read v where it is: device (or managed) memory for cuda, any for host */
PETSC_INTERN PetscErrorCode PetscELLGInBackendMemory(PetscELLGBackend, const void *, PetscBool *);
/* *hv: a host copy (to PetscFree()) of the n values v when they are in device memory, else NULL (v is on the host) */
PETSC_INTERN PetscErrorCode PetscELLGCooHostValues(PetscELLGBackend, PetscCount, const PetscScalar[], PetscScalar **);
/* *bv: a copy in the backend's memory (to PetscELLGFree()) of the n values v when they are not there, else NULL */
PETSC_INTERN PetscErrorCode PetscELLGCooBackendValues(PetscELLGBackend, PetscCount, const PetscScalar[], PetscScalar **);

/* the entries of other processes' rows, sent to their owners once (a PetscSF) and their values at each assembly */
typedef struct _n_ELLGCooSend *ELLGCooSend;

/* the entries k of (coo_i, coo_j) (coo_j may be NULL: rows only) whose row the layout gives another process, none with
   a negative index, or none at all with ignore (MAT_IGNORE_OFF_PROC_ENTRIES, VEC_NO_OFF_PROC_ENTRIES); *nrecv entries
   come from the others, their rows in *ri and columns in *rj (with coo_j), to PetscFree() */
PETSC_INTERN PetscErrorCode ELLGCooSendCreate(PetscLayout, PetscELLGBackend, PetscBool, PetscCount, const PetscInt[], const PetscInt[], ELLGCooSend *, PetscInt *, PetscInt **, PetscInt **);
PETSC_INTERN PetscErrorCode ELLGCooSendDestroy(ELLGCooSend *);
/* the values of the entries received, *w, from those of the ncoo entries, v: both in the backend's memory (inbackend),
   else on the host; *w stays the ELLGCooSend's until its next call */
PETSC_INTERN PetscErrorCode ELLGCooSendValues(ELLGCooSend, PetscBool, const PetscScalar[], const PetscScalar **);
PETSC_INTERN PetscInt       ELLGCooSendCount(ELLGCooSend);
