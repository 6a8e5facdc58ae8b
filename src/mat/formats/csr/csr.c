/* CSRG: the stored rows in CSR, multiplied by CSR-vector (T threads per row), a layout without padding for
   matrices whose entries every padded layout reads at the same cost (scattered columns over a large x) */
#include <ellgformat.h>
#include "csrkernels.h"

typedef struct {
  CSRGArrays a;                   /* in the backend's memory */
  PetscInt   nnz;                 /* entries stored */
  PetscInt   T, bs;               /* threads per row, threads per block in use */
  PetscInt   T_option, bs_option; /* 0: chosen from the row lengths */
  PetscBool  compact;             /* -mat_csrg_compact_indices: 16-bit offsets where they fit (default) */
  double     mean;                /* mean length of the stored rows of the last build */
  PetscInt   width;               /* the longest stored row of the last build */
} CSRG;

static PetscErrorCode CSRGCreate(ELLGFormat fmt)
{
  CSRG *c;

  PetscFunctionBegin;
  PetscCall(PetscNew(&c));
  c->compact = PETSC_TRUE;
  fmt->data  = c;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CSRGDestroy(ELLGFormat fmt)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(fmt->data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CSRGReset(ELLGFormat fmt)
{
  CSRG *c = (CSRG *)fmt->data;

  PetscFunctionBegin;
  PetscCall(PetscELLGFree(fmt->backend, c->a.rowptr));
  PetscCall(PetscELLGFree(fmt->backend, c->a.col));
  PetscCall(PetscELLGFree(fmt->backend, c->a.off));
  PetscCall(PetscELLGFree(fmt->backend, c->a.val));
  PetscCall(PetscMemzero(&c->a, sizeof(c->a)));
  fmt->bytes = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* T for rows of mean length mean, the longest w, m of them: the smallest power of two that gives each thread
   at most 2 entries of a row of the mean length, up to a warp, or more on a small matrix
   (ELLGFormatSmallThreadsPerRow) */
static PetscInt CSRGAutoThreads(PetscInt m, PetscInt w, PetscReal mean)
{
  PetscInt T = 1;

  while (T < 32 && 2 * T < mean) T *= 2;
  return PetscMax(T, ELLGFormatSmallThreadsPerRow(m, w));
}

static void CSRGChooseParameters(CSRG *c)
{
  c->T  = c->T_option ? c->T_option : CSRGAutoThreads(c->a.m, c->width, (PetscReal)c->mean);
  c->bs = c->bs_option ? c->bs_option : (c->T >= 8 ? 128 : 256);
  if (c->bs < c->T) c->bs = 32;
}

static PetscErrorCode CSRGSetFromOptions(ELLGFormat fmt, ELLG_OPTION_ITEMS PetscOptionsObject)
{
  CSRG *c = (CSRG *)fmt->data;

  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "CSRG format options");
  PetscCall(ELLGFormatOptionsThreadsPerRow(fmt, PetscOptionsObject, &c->T_option));
  PetscCall(ELLGFormatOptionsBlockSize(fmt, PetscOptionsObject, &c->bs_option));
  PetscCall(ELLGFormatOptionsCompactIndices(fmt, PetscOptionsObject, &c->compact));
  PetscOptionsHeadEnd();
  CSRGChooseParameters(c);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CSRGCopyParameters(ELLGFormat from, ELLGFormat to)
{
  CSRG *a = (CSRG *)from->data, *b = (CSRG *)to->data;

  PetscFunctionBegin;
  b->T_option  = a->T_option;
  b->bs_option = a->bs_option;
  b->compact   = a->compact;
  CSRGChooseParameters(b);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscBool CSRGSameParameters(ELLGFormat from, ELLGFormat to)
{
  const CSRG *a = (const CSRG *)from->data, *b = (const CSRG *)to->data;

  return (PetscBool)(a->T_option == b->T_option && a->bs_option == b->bs_option && a->compact == b->compact);
}

static PetscErrorCode CSRGBuild(ELLGFormat fmt, const ELLGCSR *csr)
{
  CSRG          *c = (CSRG *)fmt->data;
  const PetscInt m = csr->m;
  int           *rowptr;
  PetscBool      compact;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(m + 1, &rowptr));
  rowptr[0] = 0;
  c->width  = 0;
  for (PetscInt i = 0; i < m; i++) {
    rowptr[i + 1] = rowptr[i] + (int)csr->len[i];
    c->width      = PetscMax(c->width, csr->len[i]);
  }
  c->nnz  = rowptr[m];
  c->mean = m ? (double)c->nnz / (double)m : 0.0;
  c->a.m  = (int)m;
  CSRGChooseParameters(c);
  compact = (PetscBool)(c->compact && ELLGFormatCompactIndices(csr));
  /* the row starts go to the backend first, so that the host copy is freed whether or not the backend has room */
  ierr = PetscELLGMalloc(fmt->backend, sizeof(int) * (m + 1), (void **)&c->a.rowptr);
  if (!ierr) ierr = PetscELLGMemcpy(fmt->backend, c->a.rowptr, rowptr, sizeof(int) * (m + 1), ELLG_MEMCPY_HTOD);
  PetscCall(PetscFree(rowptr));
  PetscCall(ierr);
  if (compact) PetscCall(PetscELLGMalloc(fmt->backend, sizeof(short) * (size_t)c->nnz, (void **)&c->a.off));
  else PetscCall(PetscELLGMalloc(fmt->backend, sizeof(int) * (size_t)c->nnz, (void **)&c->a.col));
  PetscCall(PetscELLGMalloc(fmt->backend, sizeof(PetscScalar) * (size_t)c->nnz, (void **)&c->a.val));
  PetscELLGBackendCall(fmt->backend, CSRGHostPack, CSRGCudaPack, (&c->a, csr->rowptr, csr->col, csr->val));
  fmt->bytes = ((compact ? sizeof(short) : sizeof(int)) + sizeof(PetscScalar)) * (size_t)c->nnz + sizeof(int) * (size_t)(m + 1);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CSRGUpdateValues(ELLGFormat fmt, const ELLGCSR *csr)
{
  CSRG *c = (CSRG *)fmt->data;

  PetscFunctionBegin;
  PetscELLGBackendCall(fmt->backend, CSRGHostPack, CSRGCudaPack, (&c->a, csr->rowptr, NULL, csr->val));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CSRGMult(ELLGFormat fmt, const PetscScalar *x, const PetscScalar *z, PetscScalar *y)
{
  CSRG *c = (CSRG *)fmt->data;

  PetscFunctionBegin;
  PetscELLGBackendCall(fmt->backend, CSRGHostMult, CSRGCudaMult, (&c->a, (int)c->T, (int)c->bs, x, z, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CSRGSpMM(ELLGFormat fmt, const ELLGSpMMArgs *a)
{
  CSRG     *c  = (CSRG *)fmt->data;
  const int lc = ELLGSpMMColumns(fmt->spmm_columns, (PetscInt64)c->a.m * c->T, a->ncols);

  PetscFunctionBegin;
  PetscELLGBackendCall(fmt->backend, CSRGHostSpMM, CSRGCudaSpMM, (&c->a, (int)c->T, (int)c->bs, lc, a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CSRGMultTransposeAdd(ELLGFormat fmt, const PetscScalar *x, PetscScalar *y)
{
  CSRG *c = (CSRG *)fmt->data;

  PetscFunctionBegin;
  PetscELLGBackendCall(fmt->backend, CSRGHostMultTransposeAdd, CSRGCudaMultTransposeAdd, (&c->a, (int)c->bs, x, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CSRGGetDiagonal(ELLGFormat fmt, PetscScalar *d)
{
  CSRG *c = (CSRG *)fmt->data;

  PetscFunctionBegin;
  PetscELLGBackendCall(fmt->backend, CSRGHostGetDiagonal, CSRGCudaGetDiagonal, (&c->a, d));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CSRGView(ELLGFormat fmt, PetscViewer viewer)
{
  CSRG *c = (CSRG *)fmt->data;

  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(viewer, "CSRG rows %d, stored entries %" PetscInt_FMT ", row length mean %.3g, longest %" PetscInt_FMT "\n", c->a.m, c->nnz, c->mean, c->width));
  PetscCall(ELLGFormatViewCompactIndices(fmt, viewer, (PetscBool)!!c->a.off, c->compact));
  PetscCall(PetscViewerASCIIPrintf(viewer, "kernel CSR-vector: %" PetscInt_FMT " threads per row%s, %" PetscInt_FMT " threads per block%s\n", c->T, c->T_option ? "" : " (automatic)", c->bs, c->bs_option ? "" : " (automatic)"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

const ELLGFormatOps ELLGFormatOps_CSRG = {
  .name             = "csrg",
  .longrowthreads   = CSRGAutoThreads, /* the threads every row gets, the longest too */
  .create           = CSRGCreate,
  .setfromoptions   = CSRGSetFromOptions,
  .build            = CSRGBuild,
  .updatevalues     = CSRGUpdateValues,
  .mult             = CSRGMult,
  .multtransposeadd = CSRGMultTransposeAdd,
  .getdiagonal      = CSRGGetDiagonal,
  .spmm             = CSRGSpMM,
  .copyparameters   = CSRGCopyParameters,
  .sameparameters   = CSRGSameParameters,
  .view             = CSRGView,
  .reset            = CSRGReset,
  .destroy          = CSRGDestroy,
};
