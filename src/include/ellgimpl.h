/* Internal declarations shared by the parts of PETSc-ELLG (not installed). */
#pragma once

#include <petscellg.h>
#include <petsc/private/petscimpl.h>
#include <ellgconf.h>
#include <ellgcompat.h>
#if defined(ELLG_HAVE_CUDA)
  #include <ellgcuda.h>
#endif

/* With a PETSc built with CUDA (ELLG_HAVE_PETSC_CUDA, 3.20 or later), the products of the cuda backend
   use PETSc's own CUDA vectors in place, and new vectors of our matrices are PETSc's CUDA vectors */
#if defined(ELLG_HAVE_PETSC_CUDA)
  #include <petscdevice.h>
PETSC_INTERN PetscErrorCode PetscELLGWaitForPetsc(void);
PETSC_INTERN PetscErrorCode PetscELLGPetscWaitForUs(void);
#endif

#if defined(ELLG_HAVE_CUDA)
  /* PetscCallELLGCuda - turns the return code of an ellgcuda.h function into a PETSc error */
  #define PetscCallELLGCuda(...) \
    do { \
      int ellg_cerr_ = (__VA_ARGS__); \
      if (PetscUnlikely(ellg_cerr_)) \
        SETERRQ(PETSC_COMM_SELF, ellg_cerr_ == ELLG_CUDA_ERROR_MEMORY ? PETSC_ERR_MEM : PETSC_ERR_GPU, "CUDA error %d (%s): %s", ellg_cerr_, ELLGCudaErrorName(ellg_cerr_), \
                ELLGCudaErrorString(ellg_cerr_)); \
    } while (0)
#endif

/* PetscELLGBackendCall - runs host(args) on the host backend, cuda(args) on the cuda backend (a
   function of an ellgcuda-style interface, whose nonzero return becomes a PETSc error) */
#if defined(ELLG_HAVE_CUDA)
  #define PetscELLGBackendCall(be, host, cuda, args) \
    do { \
      if ((be) == PETSCELLG_BACKEND_HOST) host args; \
      else PetscCallELLGCuda(cuda args); \
    } while (0)
#else
  #define PetscELLGBackendCall(be, host, cuda, args) host args
#endif

/* *ptr: the pointer held by the PetscContainer composed on obj as name, NULL when there is none */
static inline PetscErrorCode PetscELLGQueryContainer(PetscObject obj, const char name[], void **ptr)
{
  PetscObject c = NULL;
  void       *p = NULL;

  PetscFunctionBegin;
  PetscCall(PetscObjectQuery(obj, name, &c));
  if (c) PetscCall(PetscContainerGetPointer((PetscContainer)c, &p));
  *ptr = p;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* whether MatBindToCPU() bound A to the CPU (a PETSc without device support, whose MatBoundToCPU() says
   so of every matrix, binds none) */
static inline PetscErrorCode MatELLGBoundToCPU(Mat A, PetscBool *bound)
{
  PetscFunctionBegin;
  *bound = PETSC_FALSE;
#if defined(PETSC_HAVE_DEVICE)
  PetscCall(MatBoundToCPU(A, bound));
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Log events (src/sys/events.c, registered in PetscELLGInitializePackage()) */
PETSC_INTERN PetscErrorCode PetscELLGRegisterEvents_Private(void);
PETSC_INTERN PetscLogEvent MATGPU_Build, MATGPU_CopyToGPU, MATGPU_UpdateValues, MATGPU_Mult, MATGPU_MultAdd, MATGPU_MultT, MATGPU_MultTAdd, MATGPU_GetDiagonal, MATGPU_HaloBegin, MATGPU_HaloEnd, MATGPU_SpMM, MATGPU_SpMMChunks, MATGPU_TriBuild, MATGPU_TriValues, MATGPU_TriSolve, MATGPU_FactorNumeric, MATGPU_SpGEMM, MATGPU_SOR, MATGPU_CreateGraph, MATGPU_Coarsen;
PETSC_INTERN PetscLogEvent VECGPU_CopyToGPU, VECGPU_CopyFromGPU, MATDENSEGPU_CopyToGPU, MATDENSEGPU_CopyFromGPU;

/* Memory in the space a backend computes in: device memory for cuda, a separate host
   allocation for host (so that the host backend exercises the same synchronisation). */
typedef enum {
  ELLG_MEMCPY_HTOD,
  ELLG_MEMCPY_DTOH,
  ELLG_MEMCPY_DTOD
} ELLGMemcpyKind;

PETSC_INTERN PetscErrorCode PetscELLGGetBackend_Private(PetscELLGBackend *);
PETSC_INTERN PetscErrorCode PetscELLGMalloc(PetscELLGBackend, size_t, void **);
PETSC_INTERN PetscErrorCode PetscELLGFree(PetscELLGBackend, void *);
PETSC_INTERN PetscErrorCode PetscELLGMemcpy(PetscELLGBackend, void *, const void *, size_t, ELLGMemcpyKind);
PETSC_INTERN PetscErrorCode PetscELLGGetStaging(PetscELLGBackend, void **, size_t *);
/* host memory allocated elsewhere page-locked for the backend's copies (cuda), while it is registered: *done says
   whether it is (a refusal of the driver is not an error); unregister before the memory is freed */
PETSC_INTERN PetscErrorCode PetscELLGHostRegister(PetscELLGBackend, void *, size_t, PetscBool *);
PETSC_INTERN PetscErrorCode PetscELLGHostUnregister(PetscELLGBackend, void *);
PETSC_INTERN PetscErrorCode PetscELLGFreeStaging_Private(void);
PETSC_INTERN PetscErrorCode PetscELLGMemcpyColumns(PetscELLGBackend, PetscInt, PetscInt, PetscScalar *, PetscInt, const PetscScalar *, PetscInt, ELLGMemcpyKind);
PETSC_INTERN PetscErrorCode PetscELLGMemset(PetscELLGBackend, void *, int, size_t);
PETSC_INTERN PetscErrorCode PetscELLGSynchronize(PetscELLGBackend);
PETSC_INTERN PetscErrorCode PetscELLGLogSynchronize(PetscELLGBackend);
PETSC_INTERN PetscErrorCode PetscELLGLogFlops(PetscELLGBackend, PetscLogDouble);
PETSC_INTERN PetscErrorCode PetscELLGCheckSingle(PetscELLGBackend, PetscInt, const PetscScalar *);
PETSC_INTERN PetscErrorCode PetscELLGToSingle(PetscELLGBackend, PetscInt, const PetscScalar *, float *);
PETSC_INTERN PetscErrorCode PetscELLGLogGpuTimeBegin(PetscELLGBackend);
PETSC_INTERN PetscErrorCode PetscELLGLogGpuTimeEnd(PetscELLGBackend);
PETSC_INTERN PetscErrorCode PetscELLGLogCopy(PetscELLGBackend, size_t, ELLGMemcpyKind);
PETSC_INTERN PetscErrorCode PetscELLGBackendView(PetscELLGBackend, PetscViewer);

/* the transpose of a host CSR pattern with the source of each entry (src/mat/formats/csrtranspose.c) */
PETSC_INTERN PetscErrorCode ELLGCsrTranspose(PetscInt, PetscInt, const PetscInt[], const PetscInt[], const PetscInt[], PetscInt **, PetscInt **, PetscInt **);

/* the host backend's versions of the gather and scatter functions of ellgcuda.h (same arguments) */
PETSC_INTERN void ELLGHostGather(void *, int, const int *, const double *, double *);
PETSC_INTERN void ELLGHostGatherColumns(void *, int, int, const int *, const double *, int, double *, int);
PETSC_INTERN void ELLGHostScatter(void *, int, const int *, const double *, double *, int);
PETSC_INTERN void ELLGHostScatterColumns(void *, int, int, const int *, const double *, int, double *, int, int);

/* how an operation uses the values of an object kept on the host and in a backend's memory (device
   vectors, device dense matrices) */
typedef enum {
  ELLG_ACCESS_NONE, /* not at all (assembly, options, symbolic products) */
  ELLG_ACCESS_READ,
  ELLG_ACCESS_WRITE, /* every entry is overwritten: nothing is copied to the copy it works on */
  ELLG_ACCESS_READ_WRITE
} ELLGAccess;

/* Dense matrices whose values the sparse times dense products use in a backend's memory: whether a
   matrix is one (ours of that backend, when asked with its values valid there, or PETSc's CUDA dense
   matrices for cuda), and its local array and leading dimension */
PETSC_INTERN PetscErrorCode MatDenseGPUInBackend(Mat, PetscELLGBackend, PetscBool, PetscBool *);
PETSC_INTERN PetscErrorCode MatDenseGPUGetBackendArrayRead(Mat, const PetscScalar **, PetscInt *);
PETSC_INTERN PetscErrorCode MatDenseGPURestoreBackendArrayRead(Mat, const PetscScalar **);
PETSC_INTERN PetscErrorCode MatDenseGPUGetBackendArrayWrite(Mat, PetscScalar **, PetscInt *);
PETSC_INTERN PetscErrorCode MatDenseGPURestoreBackendArrayWrite(Mat, PetscScalar **);


/* Vectors whose values the products use in a backend's memory (src/vec/impls/gpu/vecbackendarray.c):
   whether a vector is one (ours of that backend, or PETSc's CUDA vectors for cuda), and its array */
PETSC_INTERN PetscErrorCode VecGPUInBackend(Vec, PetscELLGBackend, PetscBool *);
PETSC_INTERN PetscErrorCode VecGPUGetBackendStandIn(Vec, PetscELLGBackend, PetscBool, Vec *, Vec *);
PETSC_INTERN PetscErrorCode VecGPUGetBackendArray(Vec, ELLGAccess, PetscScalar **);
PETSC_INTERN PetscErrorCode VecGPURestoreBackendArray(Vec, ELLGAccess, PetscScalar **);
PETSC_INTERN PetscErrorCode PetscELLGDefaultVecType(PetscELLGBackend, VecType *);

/* a VECSEQGPU of length n on PETSC_COMM_SELF, for the library's own work (VecCreateSeqGPU() without the package's
   initialization, which any object of ours implies) */
static inline PetscErrorCode VecCreateSeqGPU_Private(PetscInt n, Vec *v)
{
  PetscFunctionBegin;
  PetscCall(VecCreate(PETSC_COMM_SELF, v));
  PetscCall(VecSetSizes(*v, n, n));
  PetscCall(VecSetType(*v, VECSEQGPU));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Type constructors registered by the package */
PETSC_INTERN PetscErrorCode MatELLGRegisterTypes(void);
PETSC_INTERN PetscErrorCode MatELLGRegisterCoarsen(void);
PETSC_INTERN PetscErrorCode MatDenseGPURegisterTypes(void);
PETSC_INTERN PetscErrorCode VecCreate_SeqGPU(Vec);
PETSC_INTERN PetscErrorCode VecCreate_MPIGPU(Vec);
PETSC_INTERN PetscErrorCode VecCreate_GPU(Vec);
