/* The matrix types of the package, each a storage format under an AIJ subclass */
#include "aijellg.h"

/* the seq and mpi constructors of a format type */
#define MAT_ELLG_FORMAT_CONSTRUCTORS(Name, seqtype, mpitype) \
  static PetscErrorCode MatCreate_SeqAIJ##Name(Mat A) \
  { \
    PetscFunctionBegin; \
    PetscCall(MatCreate_SeqAIJFormat(A, seqtype)); \
    PetscFunctionReturn(PETSC_SUCCESS); \
  } \
  static PetscErrorCode MatCreate_MPIAIJ##Name(Mat A) \
  { \
    PetscFunctionBegin; \
    PetscCall(MatCreate_MPIAIJFormat(A, mpitype)); \
    PetscFunctionReturn(PETSC_SUCCESS); \
  }

MAT_ELLG_FORMAT_CONSTRUCTORS(ELLG, MATSEQAIJELLG, MATMPIAIJELLG)
MAT_ELLG_FORMAT_CONSTRUCTORS(PJDS, MATSEQAIJPJDS, MATMPIAIJPJDS)
MAT_ELLG_FORMAT_CONSTRUCTORS(SlicedELL, MATSEQAIJSLICEDELL, MATMPIAIJSLICEDELL)

static const MatELLGFormatEntry MatELLGFormats[] = {
  {MATELLG, MATSEQAIJELLG, MATMPIAIJELLG, &ELLGFormatOps_ELLG, MatCreate_SeqAIJELLG, MatCreate_MPIAIJELLG},
  {MATPJDS, MATSEQAIJPJDS, MATMPIAIJPJDS, &ELLGFormatOps_PJDS, MatCreate_SeqAIJPJDS, MatCreate_MPIAIJPJDS},
  {MATSLICEDELL, MATSEQAIJSLICEDELL, MATMPIAIJSLICEDELL, &ELLGFormatOps_SlicedELL, MatCreate_SeqAIJSlicedELL, MatCreate_MPIAIJSlicedELL},
};

/* registers the seq, mpi and root type names of every format */
PetscErrorCode MatELLGRegisterTypes(void)
{
  PetscFunctionBegin;
  for (size_t i = 0; i < PETSC_STATIC_ARRAY_LENGTH(MatELLGFormats); i++) {
    const MatELLGFormatEntry *f = &MatELLGFormats[i];

    PetscCall(MatRegister(f->seqtype, f->createseq));
    PetscCall(MatRegister(f->mpitype, f->creatempi));
    PetscCall(MatRegisterRootName(f->root, f->seqtype, f->mpitype));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatELLGFormatFind(MatType type, const MatELLGFormatEntry **entry)
{
  PetscBool match;

  PetscFunctionBegin;
  for (size_t i = 0; i < PETSC_STATIC_ARRAY_LENGTH(MatELLGFormats); i++) {
    PetscCall(PetscStrcmp(type, MatELLGFormats[i].seqtype, &match));
    if (!match) PetscCall(PetscStrcmp(type, MatELLGFormats[i].mpitype, &match));
    if (!match) PetscCall(PetscStrcmp(type, MatELLGFormats[i].root, &match));
    if (match) {
      *entry = &MatELLGFormats[i];
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  }
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_UNKNOWN_TYPE, "Not a PETSc-ELLG matrix type: %s", type);
}

/*@C
   MatCreateSeqAIJELLG - creates a sequential sparse matrix that is assembled like `MATSEQAIJ` and
   multiplied in ELLG format on the GPU

   Collective

   Input Parameters:
+  comm - MPI communicator of size 1
.  m - number of rows
.  n - number of columns
.  nz - number of nonzeros per row (same for all rows)
-  nnz - array containing the number of nonzeros in the various rows (or NULL)

   Output Parameter:
.  A - the matrix

   Level: beginner

.seealso: `MATELLG`, `MatCreateSeqAIJ()`, `MatSetValues()`
@*/
PetscErrorCode MatCreateSeqAIJELLG(MPI_Comm comm, PetscInt m, PetscInt n, PetscInt nz, const PetscInt nnz[], Mat *A)
{
  PetscFunctionBegin;
  PetscCall(MatCreate(comm, A));
  PetscCall(MatSetSizes(*A, m, n, m, n));
  PetscCall(MatSetType(*A, MATSEQAIJELLG));
  PetscCall(MatSeqAIJSetPreallocation(*A, nz, nnz));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   MatELLGGetBackend - the backend (host or cuda) a PETSc-ELLG matrix computes its products with

   Not Collective

   Input Parameter:
.  A - a matrix of one of the PETSc-ELLG types

   Output Parameter:
.  backend - the backend

   Level: intermediate

.seealso: `PetscELLGGetBackend()`, `PetscELLGBackend`
@*/
PetscErrorCode MatELLGGetBackend(Mat A, PetscELLGBackend *backend)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscValidPointer(backend, 2);
  PetscUseMethod(A, "MatELLGGetBackend_C", (Mat, PetscELLGBackend *), (A, backend));
  PetscFunctionReturn(PETSC_SUCCESS);
}
