/* ELLG: ELLPACK-R with pitched column-major arrays and a row-length array */
#include <ellgformat.h>
#include "ellgkernels.h"

typedef struct {
  ELLGArrays a;                  /* in the backend's memory */
  PetscInt   T, bs;              /* threads per row, threads per block in use */
  ELLGRowStats stats;            /* the row lengths of the last build */
} ELLG;

static PetscErrorCode ELLGCreate(ELLGFormat fmt)
{
  ELLG *e;

  PetscFunctionBegin;
  PetscCall(PetscNew(&e));
  fmt->data = e;
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
  PetscCall(PetscELLGFree(fmt->backend, e->a.sval));
  PetscCall(PetscMemzero(&e->a, sizeof(e->a)));
  fmt->bytes = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* T from the mean row length: the smallest power of two that gives each thread fewer than 16 entries
   (64 with ELLG_ROWS_FILL_GPU rows or more), up to a warp; short rows keep one thread per row (best
   coalescing), unless the matrix is small enough for more (ELLGFormatSmallThreadsPerRow of the width) */
static void ELLGChooseParameters(ELLGFormat fmt)
{
  ELLG        *e   = (ELLG *)fmt->data;
  const double ept = e->a.m >= ELLG_ROWS_FILL_GPU ? 64.0 : 16.0;

  e->T = ELLGFormatSmallThreadsPerRow(e->a.m, e->a.width);
  while (e->T < 32 && e->stats.mean >= ept * e->T) e->T *= 2;
  if (fmt->kernel.threads_per_row) e->T = fmt->kernel.threads_per_row;
  e->bs = fmt->kernel.block_size ? fmt->kernel.block_size : (e->T >= 8 ? 128 : 256);
  if (e->bs < e->T) e->bs = 32;
}

/* ellg pads every row to the longest of its rows (but the long ones split out): more than this many times the
   bytes of CSR tells that another type suits the matrix; the line on stderr is for matrices of at least
   ELLG_PADDING_WARN_MB (a tiny matrix takes more than that ratio for the alignment of its columns alone) */
#define ELLG_PADDING_WARN    4.0
#define ELLG_PADDING_WARN_MB 1.0

/* after a build that stores over ELLG_PADDING_WARN times the bytes of CSR, naming the type to use (pjds where there
   are long rows or the longest is many times the mean, else slicedell): PetscInfo for each, and one line on the
   process's stderr (not PETSC_STDERR, which -error_output_stdout sends to stdout: a warning, not an error) for the
   first of the process of at least ELLG_PADDING_WARN_MB, unless aijgpu chose the format (weighing its bytes) */
static PetscErrorCode ELLGCheckPadding(ELLGFormat fmt, const ELLGCSR *csr)
{
  static PetscBool warned = PETSC_FALSE;
  const double     bytes  = (double)fmt->bytes, csrbytes = (4.0 + (double)ELLGFormatValueSize(fmt)) * (double)csr->stats.stored + 4.0 * (double)(csr->m + 1);
  const char      *other  = csr->nlong || (double)csr->stats.width > 16.0 * csr->stats.mean ? "pjds" : "slicedell";

  PetscFunctionBegin;
  if (fmt->chosen || !(bytes > ELLG_PADDING_WARN * csrbytes)) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscInfo(NULL, "ellg stores %.1f times the bytes of CSR (%.3g MB), padding to the longest row (%" PetscInt_FMT "): -mat_type %s would store it closer to CSR\n", bytes / csrbytes, bytes / 1048576.0, csr->stats.width, other));
  if (!warned && bytes >= ELLG_PADDING_WARN_MB * 1048576.0) {
    warned = PETSC_TRUE;
    PetscCall(PetscFPrintf(PETSC_COMM_SELF, stderr, "WARNING: type ellg stores %.1f times the bytes of CSR for a %" PetscInt_FMT " x %" PetscInt_FMT " matrix (%.3g MB): use -mat_type %s\n", bytes / csrbytes, fmt->m, fmt->n, bytes / 1048576.0, other));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ELLGBuild(ELLGFormat fmt, const ELLGCSR *csr)
{
  ELLG          *e = (ELLG *)fmt->data;
  const PetscInt m = csr->m, width = csr->stats.width;
  PetscBool      compact;

  PetscFunctionBegin;
  e->stats   = csr->stats;
  e->a.m     = (int)m;
  e->a.pitch = (int)(((m + 31) / 32) * 32);
  e->a.width = (int)width;
  ELLGChooseParameters(fmt);
  compact = (PetscBool)(fmt->kernel.compact_indices && ELLGFormatCompactIndices(csr));
  PetscCall(PetscELLGMalloc(fmt->backend, sizeof(int) * m, (void **)&e->a.rowlen));
  if (compact) PetscCall(PetscELLGMalloc(fmt->backend, sizeof(short) * (size_t)width * e->a.pitch, (void **)&e->a.off));
  else PetscCall(PetscELLGMalloc(fmt->backend, sizeof(int) * (size_t)width * e->a.pitch, (void **)&e->a.col));
  PetscCall(ELLGFormatMallocValues(fmt, (size_t)width * e->a.pitch, &e->a.val, &e->a.sval));
  PetscCall(PetscELLGMemcpy(fmt->backend, e->a.rowlen, csr->rowlen, sizeof(int) * m, ELLG_MEMCPY_DTOD));
  PetscELLGBackendCall(fmt->backend, ELLGHostPack, ELLGCudaPack, (&e->a, csr->rowptr, csr->col, csr->val));
  fmt->bytes = ((compact ? sizeof(short) : sizeof(int)) + ELLGFormatValueSize(fmt)) * (size_t)width * e->a.pitch + sizeof(int) * (size_t)m;
  PetscCall(ELLGCheckPadding(fmt, csr));
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
  PetscCall(ELLGFormatViewCompactIndices(fmt, viewer, (PetscBool)!!e->a.off));
  PetscCall(PetscViewerASCIIPrintf(viewer, "kernel ELLR-T: %" PetscInt_FMT " threads per row%s, %" PetscInt_FMT " threads per block%s\n", e->T, fmt->kernel.threads_per_row ? "" : " (automatic)", e->bs, fmt->kernel.block_size ? "" : " (automatic)"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

const ELLGFormatOps ELLGFormatOps_ELLG = {
  .name             = "ellg",
  .title            = "ELLG format options",
  .kernel           = ELLG_KERNEL_THREADS_PER_ROW | ELLG_KERNEL_BLOCK_SIZE | ELLG_KERNEL_COMPACT_INDICES,
  .longrowthreads   = NULL,
  .create           = ELLGCreate,
  .parameters       = ELLGChooseParameters,
  .build            = ELLGBuild,
  .updatevalues     = ELLGUpdateValues,
  .mult             = ELLGMult,
  .multtransposeadd = ELLGMultTransposeAdd,
  .getdiagonal      = ELLGGetDiagonal,
  .spmm             = ELLGSpMM,
  .view             = ELLGView,
  .reset            = ELLGReset,
  .destroy          = ELLGDestroy,
};
