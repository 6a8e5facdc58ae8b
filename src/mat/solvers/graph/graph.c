/* The strength graph's values in the backend (ellggraph.h): the CSR goes up, the values come down */
#include <ellggraph.h>
#include <ellggraphkernels.h>

#if defined(ELLG_HAVE_CUDA)
/* the device arrays of one computation; each is set as soon as it is allocated, so that the caller frees what a
   failed one allocated */
typedef struct {
  int    *ai, *aj;
  double *a, *g, *s;
} ELLGGraphDevice;

static PetscErrorCode ELLGGraphValuesDevice(PetscInt m, const PetscInt *ai, const PetscInt *aj, const PetscScalar *aa, PetscBool absval, PetscBool mirror, PetscBool scale, PetscScalar *g, int *missing, ELLGGraphDevice *d)
{
  const PetscELLGBackend be  = PETSCELLG_BACKEND_CUDA;
  const size_t           nnz = (size_t)ai[m];

  PetscFunctionBegin;
  PetscCall(PetscELLGMalloc(be, sizeof(int) * (size_t)(m + 1), (void **)&d->ai));
  PetscCall(PetscELLGMalloc(be, sizeof(int) * PetscMax(nnz, 1), (void **)&d->aj));
  PetscCall(PetscELLGMalloc(be, sizeof(double) * PetscMax(nnz, 1), (void **)&d->a));
  PetscCall(PetscELLGMalloc(be, sizeof(double) * PetscMax(nnz, 1), (void **)&d->g));
  if (scale) PetscCall(PetscELLGMalloc(be, sizeof(double) * (size_t)m, (void **)&d->s));
  PetscCall(PetscELLGMemcpy(be, d->ai, ai, sizeof(int) * (size_t)(m + 1), ELLG_MEMCPY_HTOD));
  PetscCall(PetscELLGMemcpy(be, d->aj, aj, sizeof(int) * nnz, ELLG_MEMCPY_HTOD));
  PetscCall(PetscELLGMemcpy(be, d->a, aa, sizeof(double) * nnz, ELLG_MEMCPY_HTOD));
  PetscCallELLGCuda(ELLGCudaGraphValues((int)m, d->ai, d->aj, d->a, absval, mirror, d->g, missing));
  if (*missing) PetscFunctionReturn(PETSC_SUCCESS);
  if (scale) PetscCallELLGCuda(ELLGCudaGraphScale((int)m, d->ai, d->aj, d->s, d->g));
  PetscCall(PetscELLGMemcpy(be, g, d->g, sizeof(double) * nnz, ELLG_MEMCPY_DTOH));
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

PetscErrorCode ELLGGraphValues(PetscELLGBackend be, PetscInt m, const PetscInt *ai, const PetscInt *aj, const PetscScalar *aa, PetscBool absval, PetscBool mirror, PetscBool scale, PetscScalar *g, PetscBool *symmetric)
{
  int missing = 0;

  PetscFunctionBegin;
  PetscCheck(sizeof(PetscInt) == sizeof(int) && sizeof(PetscScalar) == sizeof(double), PETSC_COMM_SELF, PETSC_ERR_SUP, "The backend's graph takes 32-bit indices and real double values");
  if (be == PETSCELLG_BACKEND_HOST) {
    ELLGHostGraphValues((int)m, (const int *)ai, (const int *)aj, (const double *)aa, absval, mirror, (double *)g, &missing);
    if (!missing && scale) {
      PetscScalar *s;

      PetscCall(PetscMalloc1(m, &s));
      ELLGHostGraphScale((int)m, (const int *)ai, (const int *)aj, (double *)s, (double *)g);
      PetscCall(PetscFree(s));
    }
  }
#if defined(ELLG_HAVE_CUDA)
  else {
    ELLGGraphDevice d = {NULL, NULL, NULL, NULL, NULL};
    PetscErrorCode  ierr;

    PetscCall(PetscELLGLogGpuTimeBegin(be));
    ierr = ELLGGraphValuesDevice(m, ai, aj, aa, absval, mirror, scale, g, &missing, &d);
    PetscCall(PetscELLGLogGpuTimeEnd(be));
    PetscCall(PetscELLGFree(be, d.ai));
    PetscCall(PetscELLGFree(be, d.aj));
    PetscCall(PetscELLGFree(be, d.a));
    PetscCall(PetscELLGFree(be, d.g));
    PetscCall(PetscELLGFree(be, d.s));
    PetscCall(ierr);
  }
#endif
  *symmetric = (PetscBool)!missing;
  if (!missing) PetscCall(PetscELLGLogFlops(be, (PetscLogDouble)ai[m] * ((mirror ? 1 : 0) + (scale ? 2 : 0))));
  PetscFunctionReturn(PETSC_SUCCESS);
}
