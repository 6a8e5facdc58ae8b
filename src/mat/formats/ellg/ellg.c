/* ELLG: ELLPACK-R with pitched column-major arrays and a row-length array (design.md §4) */
#include <ellgformat.h>
#include "ellgkernels.h"

typedef struct {
  ELLGArrays a;                  /* in the backend's memory */
  PetscInt   T, bs;              /* threads per row, threads per block in use */
  PetscInt   T_option, bs_option; /* 0: chosen from the row lengths */
  double     mean, stddev;       /* row-length statistics of the last build */
} ELLG;

static PetscErrorCode ELLGCreate(ELLGFormat fmt)
{
  PetscFunctionBegin;
  PetscCall(PetscNew((ELLG **)&fmt->data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ELLGDestroy(ELLGFormat fmt)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(fmt->data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ELLGReset(ELLGFormat fmt)
{
  ELLG *e = (ELLG *)fmt->data;

  PetscFunctionBegin;
  PetscCall(PetscELLGFree(fmt->backend, e->a.rowlen));
  PetscCall(PetscELLGFree(fmt->backend, e->a.rowptr));
  PetscCall(PetscELLGFree(fmt->backend, e->a.col));
  PetscCall(PetscELLGFree(fmt->backend, e->a.val));
  PetscCall(PetscMemzero(&e->a, sizeof(e->a)));
  fmt->bytes = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* T from the mean row length: the smallest power of two that gives each thread about 8 or more
   entries, up to a warp; short rows keep one thread per row (best coalescing) */
static void ELLGChooseParameters(ELLG *e)
{
  e->T = 1;
  while (e->T < 32 && e->mean >= 16.0 * e->T) e->T *= 2;
  if (e->T_option) e->T = e->T_option;
  e->bs = e->bs_option ? e->bs_option : (e->T >= 8 ? 128 : 256);
  if (e->bs < e->T) e->bs = 32;
}

static PetscErrorCode ELLGSetFromOptions(ELLGFormat fmt, ELLG_OPTION_ITEMS PetscOptionsObject)
{
  ELLG *e = (ELLG *)fmt->data;

  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "ELLG format options");
  PetscCall(PetscOptionsInt("-mat_ellg_threads_per_row", "Threads per row of the ELLR-T kernel: 1, 2, 4, 8, 16 or 32 (0: from the row lengths)", "MATELLG", e->T_option, &e->T_option, NULL));
  PetscCheck(e->T_option >= 0 && e->T_option <= 32 && !(e->T_option & (e->T_option - 1)), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-mat_ellg_threads_per_row %" PetscInt_FMT ": must be 0 (automatic) or a power of two from 1 to 32", e->T_option);
  PetscCall(PetscOptionsInt("-mat_ellg_block_size", "Threads per block of the ELLG kernels: a multiple of 32 up to 1024 (0: automatic)", "MATELLG", e->bs_option, &e->bs_option, NULL));
  PetscCheck(e->bs_option >= 0 && e->bs_option <= 1024 && e->bs_option % 32 == 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-mat_ellg_block_size %" PetscInt_FMT ": must be 0 (automatic) or a multiple of 32 from 32 to 1024", e->bs_option);
  PetscOptionsHeadEnd();
  ELLGChooseParameters(e);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ELLGCopyParameters(ELLGFormat from, ELLGFormat to)
{
  ELLG *a = (ELLG *)from->data, *b = (ELLG *)to->data;

  PetscFunctionBegin;
  b->T_option  = a->T_option;
  b->bs_option = a->bs_option;
  ELLGChooseParameters(b);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* values from the host CSR; with the structure, col holds the CSR column indices in backend memory */
static PetscErrorCode ELLGPack(ELLGFormat fmt, PetscBool structure, const int *col, const PetscScalar *aa)
{
  ELLG        *e   = (ELLG *)fmt->data;
  PetscScalar *val = NULL;

  PetscFunctionBegin;
  PetscCall(PetscELLGMalloc(fmt->backend, sizeof(PetscScalar) * fmt->nnz, (void **)&val));
  PetscCall(PetscLogEventBegin(ELLG_CopyToGPU, 0, 0, 0, 0));
  PetscCall(PetscELLGMemcpy(fmt->backend, val, aa, sizeof(PetscScalar) * fmt->nnz, ELLG_MEMCPY_HTOD));
  PetscCall(PetscLogEventEnd(ELLG_CopyToGPU, 0, 0, 0, 0));
  if (fmt->backend == PETSCELLG_BACKEND_HOST) ELLGHostPack(&e->a, (int)structure, col, val);
#if defined(ELLG_HAVE_CUDA)
  else PetscCallELLGCuda(ELLGCudaPack(&e->a, (int)structure, col, val));
#endif
  PetscCall(PetscELLGFree(fmt->backend, val));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ELLGBuild(ELLGFormat fmt, const PetscInt *ai, const PetscInt *aj, const PetscScalar *aa)
{
  ELLG          *e = (ELLG *)fmt->data;
  const PetscInt m = fmt->m;
  PetscInt       width = 0;
  double         s2    = 0.0;
  int           *csrcol;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < m; i++) {
    const PetscInt len = ai[i + 1] - ai[i];
    width              = PetscMax(width, len);
    s2 += (double)len * (double)len;
  }
  e->mean   = m ? (double)fmt->nnz / (double)m : 0.0;
  e->stddev = m ? PetscSqrtReal(PetscMax(s2 / (double)m - e->mean * e->mean, 0.0)) : 0.0;
  e->a.m     = (int)m;
  e->a.pitch = (int)(((m + 31) / 32) * 32);
  e->a.width = (int)width;
  ELLGChooseParameters(e);
  PetscCall(PetscELLGMalloc(fmt->backend, sizeof(int) * m, (void **)&e->a.rowlen));
  PetscCall(PetscELLGMalloc(fmt->backend, sizeof(int) * (size_t)width * e->a.pitch, (void **)&e->a.col));
  PetscCall(PetscELLGMalloc(fmt->backend, sizeof(PetscScalar) * (size_t)width * e->a.pitch, (void **)&e->a.val));
  PetscCall(PetscLogEventBegin(ELLG_CopyToGPU, 0, 0, 0, 0));
  PetscCall(ELLGCSRUploadIndices(fmt->backend, m, ai, fmt->nnz, aj, &e->a.rowptr, &csrcol));
  PetscCall(PetscLogEventEnd(ELLG_CopyToGPU, 0, 0, 0, 0));
  PetscCall(ELLGPack(fmt, PETSC_TRUE, csrcol, aa));
  PetscCall(PetscELLGFree(fmt->backend, csrcol));
  fmt->bytes = (sizeof(int) + sizeof(PetscScalar)) * (size_t)width * e->a.pitch + sizeof(int) * (2 * (size_t)m + 1);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ELLGUpdateValues(ELLGFormat fmt, const PetscScalar *aa)
{
  PetscFunctionBegin;
  PetscCall(ELLGPack(fmt, PETSC_FALSE, NULL, aa));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ELLGMult(ELLGFormat fmt, const PetscScalar *x, const PetscScalar *z, PetscScalar *y)
{
  ELLG *e = (ELLG *)fmt->data;

  PetscFunctionBegin;
  if (fmt->backend == PETSCELLG_BACKEND_HOST) ELLGHostMult(&e->a, x, z, y);
#if defined(ELLG_HAVE_CUDA)
  else PetscCallELLGCuda(ELLGCudaMult(&e->a, (int)e->T, (int)e->bs, x, z, y));
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ELLGMultTransposeAdd(ELLGFormat fmt, const PetscScalar *x, PetscScalar *y)
{
  ELLG *e = (ELLG *)fmt->data;

  PetscFunctionBegin;
  if (fmt->backend == PETSCELLG_BACKEND_HOST) ELLGHostMultTransposeAdd(&e->a, x, y);
#if defined(ELLG_HAVE_CUDA)
  else PetscCallELLGCuda(ELLGCudaMultTransposeAdd(&e->a, (int)e->bs, x, y));
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ELLGGetDiagonal(ELLGFormat fmt, PetscScalar *d)
{
  ELLG *e = (ELLG *)fmt->data;

  PetscFunctionBegin;
  if (fmt->backend == PETSCELLG_BACKEND_HOST) ELLGHostGetDiagonal(&e->a, d);
#if defined(ELLG_HAVE_CUDA)
  else PetscCallELLGCuda(ELLGCudaGetDiagonal(&e->a, d));
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ELLGView(ELLGFormat fmt, PetscViewer viewer)
{
  ELLG        *e      = (ELLG *)fmt->data;
  const double stored = (double)e->a.width * (double)e->a.pitch;

  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(viewer, "ELLG width %d, pitch %d, row length mean %.3g std %.3g, stored entries %.0f (padding ratio %.3f)\n", e->a.width, e->a.pitch, e->mean, e->stddev, stored, fmt->nnz ? stored / (double)fmt->nnz : 1.0));
  PetscCall(PetscViewerASCIIPrintf(viewer, "kernel ELLR-T: %" PetscInt_FMT " threads per row%s, %" PetscInt_FMT " threads per block%s\n", e->T, e->T_option ? "" : " (automatic)", e->bs, e->bs_option ? "" : " (automatic)"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

const ELLGFormatOps ELLGFormatOps_ELLG = {
  .name             = "ellg",
  .create           = ELLGCreate,
  .setfromoptions   = ELLGSetFromOptions,
  .build            = ELLGBuild,
  .updatevalues     = ELLGUpdateValues,
  .mult             = ELLGMult,
  .multtransposeadd = ELLGMultTransposeAdd,
  .getdiagonal      = ELLGGetDiagonal,
  .copyparameters   = ELLGCopyParameters,
  .view             = ELLGView,
  .reset            = ELLGReset,
  .destroy          = ELLGDestroy,
};
