/* ELLG: ELLPACK-R with pitched column-major arrays and a row-length array */
#include <ellgformat.h>
#include "ellgkernels.h"

typedef struct {
  ELLGArrays a;                  /* in the backend's memory */
  PetscInt   T, bs;              /* threads per row, threads per block in use */
  PetscInt   T_option, bs_option; /* 0: chosen from the row lengths */
  PetscBool  compact;            /* -mat_ellg_compact_indices: 16-bit offsets where they fit (default) */
  ELLGRowStats stats;            /* the row lengths of the last build */
} ELLG;

static PetscErrorCode ELLGCreate(ELLGFormat fmt)
{
  ELLG *e;

  PetscFunctionBegin;
  PetscCall(PetscNew(&e));
  e->compact = PETSC_TRUE;
  fmt->data  = e;
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
  PetscCall(PetscELLGFree(fmt->backend, e->a.col));
  PetscCall(PetscELLGFree(fmt->backend, e->a.off));
  PetscCall(PetscELLGFree(fmt->backend, e->a.val));
  PetscCall(PetscMemzero(&e->a, sizeof(e->a)));
  fmt->bytes = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* T from the mean row length: the smallest power of two that gives each thread fewer than 16 entries
   (64 with ELLG_ROWS_FILL_GPU rows or more), up to a warp; short rows keep one thread per row (best
   coalescing), unless the matrix is small enough for more (ELLGFormatSmallThreadsPerRow of the width) */
static void ELLGChooseParameters(ELLG *e)
{
  const double ept = e->a.m >= ELLG_ROWS_FILL_GPU ? 64.0 : 16.0;

  e->T = ELLGFormatSmallThreadsPerRow(e->a.m, e->a.width);
  while (e->T < 32 && e->stats.mean >= ept * e->T) e->T *= 2;
  if (e->T_option) e->T = e->T_option;
  e->bs = e->bs_option ? e->bs_option : (e->T >= 8 ? 128 : 256);
  if (e->bs < e->T) e->bs = 32;
}

static PetscErrorCode ELLGSetFromOptions(ELLGFormat fmt, ELLG_OPTION_ITEMS PetscOptionsObject)
{
  ELLG *e = (ELLG *)fmt->data;

  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "ELLG format options");
  PetscCall(ELLGFormatOptionsThreadsPerRow(fmt, PetscOptionsObject, &e->T_option));
  PetscCall(ELLGFormatOptionsBlockSize(fmt, PetscOptionsObject, &e->bs_option));
  PetscCall(ELLGFormatOptionsCompactIndices(fmt, PetscOptionsObject, &e->compact));
  PetscOptionsHeadEnd();
  ELLGChooseParameters(e);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ELLGCopyParameters(ELLGFormat from, ELLGFormat to)
{
  ELLG *a = (ELLG *)from->data, *b = (ELLG *)to->data;

  PetscFunctionBegin;
  b->T_option    = a->T_option;
  b->bs_option   = a->bs_option;
  b->compact     = a->compact;
  ELLGChooseParameters(b);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscBool ELLGSameParameters(ELLGFormat from, ELLGFormat to)
{
  const ELLG *a = (const ELLG *)from->data, *b = (const ELLG *)to->data;

  return (PetscBool)(a->T_option == b->T_option && a->bs_option == b->bs_option && a->compact == b->compact);
}

static PetscErrorCode ELLGBuild(ELLGFormat fmt, const ELLGCSR *csr)
{
  ELLG          *e = (ELLG *)fmt->data;
  const PetscInt m = csr->m, width = csr->stats.width, stored = csr->stats.stored;
  PetscBool      compact;

  PetscFunctionBegin;
  e->stats   = csr->stats;
  e->a.m     = (int)m;
  e->a.pitch = (int)(((m + 31) / 32) * 32);
  e->a.width = (int)width;
  ELLGChooseParameters(e);
  compact = (PetscBool)(e->compact && ELLGFormatCompactIndices(csr));
  PetscCall(PetscELLGMalloc(fmt->backend, sizeof(int) * m, (void **)&e->a.rowlen));
  if (compact) PetscCall(PetscELLGMalloc(fmt->backend, sizeof(short) * (size_t)width * e->a.pitch, (void **)&e->a.off));
  else PetscCall(PetscELLGMalloc(fmt->backend, sizeof(int) * (size_t)width * e->a.pitch, (void **)&e->a.col));
  PetscCall(PetscELLGMalloc(fmt->backend, sizeof(PetscScalar) * (size_t)width * e->a.pitch, (void **)&e->a.val));
  PetscCall(PetscELLGMemcpy(fmt->backend, e->a.rowlen, csr->rowlen, sizeof(int) * m, ELLG_MEMCPY_DTOD));
  PetscELLGBackendCall(fmt->backend, ELLGHostPack, ELLGCudaPack, (&e->a, csr->rowptr, csr->col, csr->val));
  fmt->bytes = ((compact ? sizeof(short) : sizeof(int)) + sizeof(PetscScalar)) * (size_t)width * e->a.pitch + sizeof(int) * (size_t)m;
  if (stored && (double)width * e->a.pitch > 1.5 * (double)stored) PetscCall(PetscInfo(NULL, "ELLG stores %.1f times the entries of the matrix (padding to the longest row, %" PetscInt_FMT "): pjds or slicedell store far less\n", (double)width * e->a.pitch / (double)stored, width));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ELLGUpdateValues(ELLGFormat fmt, const ELLGCSR *csr)
{
  ELLG *e = (ELLG *)fmt->data;

  PetscFunctionBegin;
  PetscELLGBackendCall(fmt->backend, ELLGHostPack, ELLGCudaPack, (&e->a, csr->rowptr, NULL, csr->val));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ELLGMult(ELLGFormat fmt, const PetscScalar *x, const PetscScalar *z, PetscScalar *y)
{
  ELLG *e = (ELLG *)fmt->data;

  PetscFunctionBegin;
  PetscELLGBackendCall(fmt->backend, ELLGHostMult, ELLGCudaMult, (&e->a, (int)e->T, (int)e->bs, x, z, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ELLGSpMM(ELLGFormat fmt, const ELLGSpMMArgs *a)
{
  ELLG *e = (ELLG *)fmt->data;
  const int lc = ELLGSpMMColumns(fmt->spmm_columns, (PetscInt64)e->a.m * e->T, a->ncols);

  PetscFunctionBegin;
  PetscELLGBackendCall(fmt->backend, ELLGHostSpMM, ELLGCudaSpMM, (&e->a, (int)e->T, (int)e->bs, lc, a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ELLGMultTransposeAdd(ELLGFormat fmt, const PetscScalar *x, PetscScalar *y)
{
  ELLG *e = (ELLG *)fmt->data;

  PetscFunctionBegin;
  PetscELLGBackendCall(fmt->backend, ELLGHostMultTransposeAdd, ELLGCudaMultTransposeAdd, (&e->a, (int)e->bs, x, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ELLGGetDiagonal(ELLGFormat fmt, PetscScalar *d)
{
  ELLG *e = (ELLG *)fmt->data;

  PetscFunctionBegin;
  PetscELLGBackendCall(fmt->backend, ELLGHostGetDiagonal, ELLGCudaGetDiagonal, (&e->a, d));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ELLGView(ELLGFormat fmt, PetscViewer viewer)
{
  ELLG        *e      = (ELLG *)fmt->data;
  const double stored = (double)e->a.width * (double)e->a.pitch;

  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(viewer, "ELLG width %d, pitch %d, row length mean %.3g std %.3g, stored entries %.0f (padding ratio %.3f)\n", e->a.width, e->a.pitch, e->stats.mean, e->stats.sd, stored, fmt->nnz ? stored / (double)fmt->nnz : 1.0));
  PetscCall(ELLGFormatViewCompactIndices(fmt, viewer, (PetscBool)!!e->a.off, e->compact));
  PetscCall(PetscViewerASCIIPrintf(viewer, "kernel ELLR-T: %" PetscInt_FMT " threads per row%s, %" PetscInt_FMT " threads per block%s\n", e->T, e->T_option ? "" : " (automatic)", e->bs, e->bs_option ? "" : " (automatic)"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

const ELLGFormatOps ELLGFormatOps_ELLG = {
  .name             = "ellg",
  .longrowthreads   = NULL,
  .create           = ELLGCreate,
  .setfromoptions   = ELLGSetFromOptions,
  .build            = ELLGBuild,
  .updatevalues     = ELLGUpdateValues,
  .mult             = ELLGMult,
  .multtransposeadd = ELLGMultTransposeAdd,
  .getdiagonal      = ELLGGetDiagonal,
  .spmm             = ELLGSpMM,
  .copyparameters   = ELLGCopyParameters,
  .sameparameters   = ELLGSameParameters,
  .view             = ELLGView,
  .reset            = ELLGReset,
  .destroy          = ELLGDestroy,
};
