/* Internal declarations of the device dense matrices MATSEQDENSEGPU and MATMPIDENSEGPU, shared by src/mat/impls/densegpu */
#pragma once

#include <ellgimpl.h>
#include <ellgmirror.h>
#include <petsc/private/matimpl.h>
#include <vecgpubackend.h>

#if defined(PETSC_USE_COMPLEX) || !defined(PETSC_USE_REAL_DOUBLE)
  #error "PETSc-ELLG device dense matrices need PETSc configured with real double-precision scalars"
#endif

/*
   A seqdensegpu matrix is a MATSEQDENSE converted in place: PETSc's host array (leading dimension
   lda >= rows) is the master copy, the backend copy (device memory for cuda, a separate host
   allocation for host) is compact, leading dimension = rows, allocated on first use. mask says which
   copy is valid (ELLGMirror, ellgmirror.h).

   An mpidensegpu matrix is a MATMPIDENSE whose local block (MatDenseGetLocalMatrix()) is a
   seqdensegpu: its values and their state are the local block's. MPIDense makes its local block a
   plain MATSEQDENSE at preallocation; after every MPIDense operation such a block is converted.

   SeqDense and MPIDense code reads the host array directly: every operation of the base type runs
   through a wrapper (densegpubase.c) that first brings the host copy up to date when the operation
   reads it, and afterwards leaves the host copy the only valid one when it may have written it;
   the composed accessors (MatDenseGetArray() and friends, column vectors, submatrices, placed arrays)
   are intercepted the same way. A host array out through them (not yet restored) is checked out, as
   for the device vectors: meanwhile the operations run on the host copy.
*/
typedef struct {
  PetscErrorCode (*getarray)(Mat, PetscScalar **);
  PetscErrorCode (*restorearray)(Mat, PetscScalar **);
  PetscErrorCode (*getarrayread)(Mat, const PetscScalar **);
  PetscErrorCode (*restorearrayread)(Mat, const PetscScalar **);
  PetscErrorCode (*getarraywrite)(Mat, PetscScalar **);
  PetscErrorCode (*restorearraywrite)(Mat, PetscScalar **);
  PetscErrorCode (*placearray)(Mat, const PetscScalar *);
  PetscErrorCode (*resetarray)(Mat);
  PetscErrorCode (*replacearray)(Mat, const PetscScalar *);
  PetscErrorCode (*getcolumn)(Mat, PetscInt, PetscScalar **);
  PetscErrorCode (*restorecolumn)(Mat, PetscScalar **);
  PetscErrorCode (*getcolumnvec)(Mat, PetscInt, Vec *);
  PetscErrorCode (*restorecolumnvec)(Mat, PetscInt, Vec *);
  PetscErrorCode (*getcolumnvecread)(Mat, PetscInt, Vec *);
  PetscErrorCode (*restorecolumnvecread)(Mat, PetscInt, Vec *);
  PetscErrorCode (*getcolumnvecwrite)(Mat, PetscInt, Vec *);
  PetscErrorCode (*restorecolumnvecwrite)(Mat, PetscInt, Vec *);
  PetscErrorCode (*getsubmatrix)(Mat, PetscInt, PetscInt, PetscInt, PetscInt, Mat *);
  PetscErrorCode (*restoresubmatrix)(Mat, Mat *);
  PetscErrorCode (*qrfactor)(Mat, IS, const MatFactorInfo *);
  PetscErrorCode (*seqpreallocation)(Mat, PetscScalar *);
  PetscErrorCode (*mpipreallocation)(Mat, PetscScalar *);
} MatDenseGPUBaseFunctions;

typedef struct {
  PetscELLGBackend         backend;
  PetscBool                mpi;     /* mpidensegpu: the values are those of the local block */
  PetscErrorCode (*adoptlocal)(Mat); /* mpidensegpu: converts a local block that the base type made anew */
  struct _MatOps           baseops; /* the operations of the dense base type (host code) */
  struct _MatOps           gpuops;  /* ours, as set at conversion: converting back restores the base ones where ours still are */
  MatDenseGPUBaseFunctions base;    /* the composed functions of the base type we intercept */
  /* seqdensegpu */
  const VecGPUKernels *kernels;
  PetscScalar         *array; /* backend copy, leading dimension = rows; NULL until first needed */
  PetscOffloadMask     mask;
  ELLGMirror           mirror; /* the two copies, mask */
} Mat_DenseGPU;

static inline Mat_DenseGPU *MatDenseGPUData(Mat A)
{
  return (Mat_DenseGPU *)A->spptr;
}

/* whether a host array of the seqdensegpu matrix is checked out: its operations then run on the host copy */
static inline PetscBool MatDenseGPUCheckedOut(const Mat_DenseGPU *d)
{
  return ELLGMirrorCheckedOut(&d->mirror);
}

/* device dense matrix of either kind: type check, the seqdensegpu holding the values */
PETSC_INTERN PetscErrorCode MatDenseGPUCheckType_Private(Mat, const char[]);
PETSC_INTERN PetscErrorCode MatDenseGPUGetValues_Private(Mat, Mat *);
PETSC_INTERN PetscErrorCode MatDenseGPUSetTypeNames_Private(Mat, MatType, VecType);

/*
   MatDenseGPUGiveOut_Private(A, call) - runs call, a base accessor that gives out part of A's host array,
   with A's default vector type VECSTANDARD: dense matrices create their column vectors of that type,
   and PETSc 3.26's know no other than its own; the column vectors of device dense matrices are plain
   vectors on the host array
*/
#define MatDenseGPUGiveOut_Private(A, call) \
  do { \
    char          *vtype_ = (A)->defaultvectype; \
    PetscErrorCode ierr_; \
\
    (A)->defaultvectype = (char *)VECSTANDARD; \
    ierr_               = (call); \
    (A)->defaultvectype = vtype_; \
    PetscCall(ierr_); \
  } while (0)

/* host copy around an operation of the base type (densegpubase.c) */
PETSC_INTERN PetscErrorCode MatDenseGPUHostBegin_Private(Mat, ELLGAccess);
PETSC_INTERN PetscErrorCode MatDenseGPUHostEnd_Private(Mat, ELLGAccess);
PETSC_INTERN PetscErrorCode MatDenseGPUWrapBaseOps_Private(Mat, const char[]);
PETSC_INTERN PetscErrorCode MatDenseGPUComposeBaseFunctions_Private(Mat, const char[], const char[], PetscBool);
PETSC_INTERN PetscErrorCode MatDenseGPUUnwrap_Private(Mat);

/* the base wrappers the device operations fall back to */
PETSC_INTERN PetscErrorCode MatDenseGPUBase_zeroentries(Mat);
PETSC_INTERN PetscErrorCode MatDenseGPUBase_scale(Mat, PetscScalar);
PETSC_INTERN PetscErrorCode MatDenseGPUBase_copy(Mat, Mat, MatStructure);
PETSC_INTERN PetscErrorCode MatDenseGPUBase_axpy(Mat, PetscScalar, Mat, MatStructure);
PETSC_INTERN PetscErrorCode MatDenseGPUBase_norm(Mat, NormType, PetscReal *);
PETSC_INTERN PetscErrorCode MatDenseGPUBase_duplicate(Mat, MatDuplicateOption, Mat *);

/* seqdensegpu (seq/seqdensegpu.c) */
PETSC_INTERN PetscErrorCode MatConvertInPlace_SeqDense_SeqDenseGPU(Mat, PetscELLGBackend);
PETSC_INTERN PetscErrorCode MatSeqDenseGPURevert_Private(Mat, PetscBool);
PETSC_INTERN PetscErrorCode MatSeqDenseGPUBackendArray_Private(Mat, ELLGAccess, PetscScalar **);
PETSC_INTERN PetscErrorCode MatSeqDenseGPURestoreWritten_Private(Mat);
PETSC_INTERN PetscErrorCode MatCreate_SeqDenseGPU(Mat);

/* mpidensegpu (mpi/mpidensegpu.c) */
PETSC_INTERN PetscErrorCode MatCreate_MPIDenseGPU(Mat);

/* both: conversions and constructors from those of a kind, values of one dense matrix into another of
   the same local sizes through the host arrays (densegpu.c) */
PETSC_INTERN PetscErrorCode MatConvert_Dense_DenseGPU_Private(Mat, MatReuse, Mat *, PetscErrorCode (*)(Mat, PetscELLGBackend));
PETSC_INTERN PetscErrorCode MatConvert_DenseGPU_Dense_Private(Mat, MatReuse, Mat *, PetscErrorCode (*)(Mat, PetscBool));
PETSC_INTERN PetscErrorCode MatCreate_DenseGPU_Private(Mat, MatType, PetscErrorCode (*)(Mat, PetscELLGBackend));
PETSC_INTERN PetscErrorCode MatDenseGPUCopyHostValues_Private(Mat, Mat);
