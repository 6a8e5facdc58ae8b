/*
   PETSc-ELLG: GPU sparse matrix formats and device-resident vectors for PETSc.

   Programs load the types at run time with -dll_append <libdir>/libpetscellg.so, or link
   -lpetscellg and call PetscELLGInitializePackage() after PetscInitialize().
*/
#pragma once

#include <petscmat.h>

/* the library's version (its petscellg.pc says the same) */
#define PETSCELLG_VERSION "0.2.0"

#if !defined(PETSC_SUCCESS) /* PETSc < 3.19 */
  #define PETSC_SUCCESS 0
#endif

/* Matrix types: AIJ subclasses whose product runs in a GPU format */
#define MATELLG         "ellg"
#define MATSEQAIJELLG   "seqaijellg"
#define MATMPIAIJELLG   "mpiaijellg"
#define MATPJDS         "pjds"
#define MATSEQAIJPJDS   "seqaijpjds"
#define MATMPIAIJPJDS   "mpiaijpjds"
#define MATSLICEDELL       "slicedell"
#define MATSEQAIJSLICEDELL "seqaijslicedell"
#define MATMPIAIJSLICEDELL "mpiaijslicedell"
#define MATCSRG       "csrg"
#define MATSEQAIJCSRG "seqaijcsrg"
#define MATMPIAIJCSRG "mpiaijcsrg"
/* the type that chooses one of the formats above for each matrix (each block of a parallel one) */
#define MATAIJGPU    "aijgpu"
#define MATSEQAIJGPU "seqaijgpu"
#define MATMPIAIJGPU "mpiaijgpu"
/* how MATAIJGPU chooses the format: from the row lengths (auto), one named, or the fastest of a few products of each
   (time); MatAIJGPUSetFormat() or -mat_aijgpu_format */
typedef enum {
  MAT_AIJGPU_AUTO,
  MAT_AIJGPU_ELLG,
  MAT_AIJGPU_PJDS,
  MAT_AIJGPU_SLICEDELL,
  MAT_AIJGPU_CSRG,
  MAT_AIJGPU_TIME
} MatAIJGPUFormat;
PETSC_EXTERN const char *const MatAIJGPUFormats[];

/* the precision of the values the device copy of any of our matrices keeps (MatGPUSetValuePrecision() or
   -mat_gpu_value_precision): double, or single for a matrix that only preconditions (summed in double; the host
   copy stays double) */
typedef enum {
  MAT_GPU_VALUES_DOUBLE,
  MAT_GPU_VALUES_SINGLE
} MatGPUValuePrecision;
PETSC_EXTERN const char *const MatGPUValuePrecisions[];

/* The factor type (MatSolverType) of the seq types, their default: LU, ILU, Cholesky and ICC factors whose
   solves run on the GPU */
#define MATSOLVERELLG "ellg"

/* Dense matrices with a copy of their values in GPU memory */
#define MATDENSEGPU    "densegpu"
#define MATSEQDENSEGPU "seqdensegpu"
#define MATMPIDENSEGPU "mpidensegpu"

/* Device-resident vectors */
#define VECGPU    "gpu"
#define VECSEQGPU "seqgpu"
#define VECMPIGPU "mpigpu"

/*E
   PetscELLGBackend - where the products and vector operations of PETSc-ELLG objects run

$  PETSCELLG_BACKEND_HOST - plain C loops over the same data structures, in host memory
$  PETSCELLG_BACKEND_CUDA - CUDA kernels on an NVIDIA GPU

   Options Database Key:
.  -ellg_backend <host,cuda> - default: cuda when a usable GPU is present, else host

   Level: beginner

.seealso: `PetscELLGGetBackend()`
E*/
typedef enum {
  PETSCELLG_BACKEND_HOST,
  PETSCELLG_BACKEND_CUDA
} PetscELLGBackend;
PETSC_EXTERN const char *const PetscELLGBackends[];

PETSC_EXTERN PetscErrorCode PetscELLGInitializePackage(void);
PETSC_EXTERN PetscErrorCode PetscELLGFinalizePackage(void);
PETSC_EXTERN PetscErrorCode PetscELLGGetBackend(PetscELLGBackend *);
PETSC_EXTERN PetscErrorCode PetscELLGGetDeviceMemory(PetscLogDouble *, PetscLogDouble *, PetscLogDouble *);
PETSC_EXTERN PetscErrorCode PetscDLLibraryRegister_petscellg(void);

PETSC_EXTERN PetscErrorCode MatCreateSeqAIJELLG(MPI_Comm, PetscInt, PetscInt, PetscInt, const PetscInt[], Mat *);
PETSC_EXTERN PetscErrorCode MatELLGGetBackend(Mat, PetscELLGBackend *);
PETSC_EXTERN PetscErrorCode MatELLGGetFormat(Mat, const char *[], PetscLogDouble *, PetscLogDouble *);
PETSC_EXTERN PetscErrorCode MatAIJGPUSetFormat(Mat, MatAIJGPUFormat);
PETSC_EXTERN PetscErrorCode MatGPUSetValuePrecision(Mat, MatGPUValuePrecision);
PETSC_EXTERN PetscErrorCode MatGPUGetValuePrecision(Mat, MatGPUValuePrecision *);

PETSC_EXTERN PetscErrorCode MatCreateDenseGPU(MPI_Comm, PetscInt, PetscInt, PetscInt, PetscInt, PetscScalar *, Mat *);
PETSC_EXTERN PetscErrorCode MatDenseGPUGetBackend(Mat, PetscELLGBackend *);
PETSC_EXTERN PetscErrorCode MatDenseGPUGetArrayRead(Mat, const PetscScalar **, PetscInt *);
PETSC_EXTERN PetscErrorCode MatDenseGPURestoreArrayRead(Mat, const PetscScalar **);
PETSC_EXTERN PetscErrorCode MatDenseGPUGetArrayWrite(Mat, PetscScalar **, PetscInt *);
PETSC_EXTERN PetscErrorCode MatDenseGPURestoreArrayWrite(Mat, PetscScalar **);
PETSC_EXTERN PetscErrorCode MatDenseGPUGetArray(Mat, PetscScalar **, PetscInt *);
PETSC_EXTERN PetscErrorCode MatDenseGPURestoreArray(Mat, PetscScalar **);

PETSC_EXTERN PetscErrorCode VecCreateSeqGPU(MPI_Comm, PetscInt, Vec *);
PETSC_EXTERN PetscErrorCode VecGPUGetBackend(Vec, PetscELLGBackend *);
PETSC_EXTERN PetscErrorCode VecGPUGetArrayRead(Vec, const PetscScalar **);
PETSC_EXTERN PetscErrorCode VecGPURestoreArrayRead(Vec, const PetscScalar **);
PETSC_EXTERN PetscErrorCode VecGPUGetArrayWrite(Vec, PetscScalar **);
PETSC_EXTERN PetscErrorCode VecGPURestoreArrayWrite(Vec, PetscScalar **);
PETSC_EXTERN PetscErrorCode VecGPUGetArray(Vec, PetscScalar **);
PETSC_EXTERN PetscErrorCode VecGPURestoreArray(Vec, PetscScalar **);
