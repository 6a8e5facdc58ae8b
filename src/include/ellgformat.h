/*
   The interface every GPU storage format implements (one folder per format under
   src/mat/formats). The matrix glue in src/mat/impls/ellg knows formats only through it.

   All array arguments of build/updatevalues are the host CSR of the AIJ master copy; vectors
   handed to mult/multtranspose/getdiagonal are arrays in the backend's memory space.
*/
#pragma once
#include <ellgimpl.h>

typedef struct _p_ELLGFormat *ELLGFormat;

typedef struct {
  const char *name;                                                      /* e.g. "ellg" */
  PetscErrorCode (*create)(ELLGFormat);                                  /* allocate data, set defaults */
  PetscErrorCode (*setfromoptions)(ELLGFormat, ELLG_OPTION_ITEMS);       /* within the matrix's options block */
  PetscErrorCode (*build)(ELLGFormat, const PetscInt *, const PetscInt *, const PetscScalar *); /* structure and values from CSR */
  PetscErrorCode (*updatevalues)(ELLGFormat, const PetscScalar *);       /* same pattern as the last build */
  PetscErrorCode (*mult)(ELLGFormat, const PetscScalar *, const PetscScalar *, PetscScalar *); /* y = A x + z (z may be NULL or y) */
  PetscErrorCode (*multtransposeadd)(ELLGFormat, const PetscScalar *, PetscScalar *);          /* y += A^T x */
  PetscErrorCode (*getdiagonal)(ELLGFormat, PetscScalar *);
  PetscErrorCode (*copyparameters)(ELLGFormat, ELLGFormat);              /* options of one matrix to its duplicate */
  PetscErrorCode (*view)(ELLGFormat, PetscViewer);                       /* ASCII info lines */
  PetscErrorCode (*reset)(ELLGFormat);                                   /* free the stored matrix, keep parameters */
  PetscErrorCode (*destroy)(ELLGFormat);                                 /* free data */
} ELLGFormatOps;

struct _p_ELLGFormat {
  const ELLGFormatOps *ops;
  PetscELLGBackend     backend;
  PetscInt             m, n, nnz; /* local rows, columns, stored nonzeros of the CSR it was built from */
  PetscInt             nzrows;    /* rows with at least one stored entry (for flop counts) */
  size_t               bytes;     /* bytes the format holds in the backend's memory */
  void                *data;
};

PETSC_INTERN const ELLGFormatOps ELLGFormatOps_ELLG;

PETSC_INTERN PetscErrorCode ELLGFormatCreate(const ELLGFormatOps *, PetscELLGBackend, ELLGFormat *);
PETSC_INTERN PetscErrorCode ELLGFormatDestroy(ELLGFormat *);
PETSC_INTERN PetscErrorCode ELLGFormatBuild(ELLGFormat, PetscInt, PetscInt, const PetscInt *, const PetscInt *, const PetscScalar *);
PETSC_INTERN PetscErrorCode ELLGFormatView(ELLGFormat, PetscViewer);

/* CSR index arrays as the 32-bit integers the formats store, in the backend's memory */
PETSC_INTERN PetscErrorCode ELLGCSRUploadIndices(PetscELLGBackend, PetscInt, const PetscInt *, PetscInt, const PetscInt *, int **, int **);
