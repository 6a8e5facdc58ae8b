/*
   MATSEQAIJGPU: the seq type that chooses its storage format (ellg, pjds or slicedell) at each build from the
   matrix's row lengths, or by timing products of each (-mat_aijgpu_format time), and never keeps one that stores a
   large matrix in more than MAT_AIJGPU_MAX_CSR times the bytes of CSR when another stores it in less.

   The rule (auto), from what the types' measurements showed (docs/benchmarks.md):
   - every row of the same length: ellg, which then pads nothing and needs no permutation;
   - row lengths spread widely (standard deviation above the mean: power-law graphs): pjds, whose rows sorted by
     length pad least;
   - otherwise (meshes, stencils, finite elements, most matrices): slicedell.
*/
#include "../aijellg.h"

/* the most bytes, relative to CSR, of a format kept for a matrix of at least MAT_AIJGPU_MIN_MB of CSR (in smaller
   ones the alignment of the columns alone can take more) */
#define MAT_AIJGPU_MAX_CSR 1.5
#define MAT_AIJGPU_MIN_MB  1.0
/* products timed for each format with -mat_aijgpu_format time, after one not timed */
#define MAT_AIJGPU_TIMED 10

typedef enum {
  MAT_AIJGPU_AUTO,
  MAT_AIJGPU_ELLG,
  MAT_AIJGPU_PJDS,
  MAT_AIJGPU_SLICEDELL,
  MAT_AIJGPU_TIME
} MatAIJGPUFormat;
static const char *const MatAIJGPUFormats[] = {"auto", "ellg", "pjds", "slicedell", "time", "MatAIJGPUFormat", "MAT_AIJGPU_", NULL};

struct _n_MatSeqAIJGPUChoice {
  MatAIJGPUFormat mode;
  char            why[256]; /* what was chosen and why, for the view */
};

PetscErrorCode MatSeqAIJGPUChoiceCreate(MatSeqAIJGPUChoice *choice)
{
  PetscFunctionBegin;
  PetscCall(PetscNew(choice));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatSeqAIJGPUChoiceDestroy(MatSeqAIJGPUChoice *choice)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(*choice));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the choice's option of a duplicate, or of the blocks of a parallel matrix, for B (of MATSEQAIJGPU), chosen again at
   its next build */
PetscErrorCode MatSeqAIJGPUChoiceCopy(MatSeqAIJGPUChoice from, Mat B)
{
  Mat_SeqAIJELLG *b = (Mat_SeqAIJELLG *)B->spptr;

  PetscFunctionBegin;
  PetscCheck(b->choice, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Not a matrix of type %s", MATSEQAIJGPU);
  if (b->choice->mode != from->mode) b->built = PETSC_FALSE;
  b->choice->mode = from->mode;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -mat_aijgpu_format, within the matrix's options block */
PetscErrorCode MatSeqAIJGPUChoiceSetFromOptions(MatSeqAIJGPUChoice choice, ELLG_OPTION_ITEMS PetscOptionsObject)
{
  PetscFunctionBegin;
  PetscCall(PetscOptionsEnum("-mat_aijgpu_format", "Storage format: auto (from the row lengths), ellg, pjds, slicedell, or time (the fastest of a few products of each)", "MATAIJGPU", MatAIJGPUFormats, (PetscEnum)choice->mode, (PetscEnum *)&choice->mode, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatSeqAIJGPUChoiceView(MatSeqAIJGPUChoice choice, PetscViewer viewer)
{
  PetscFunctionBegin;
  if (choice->why[0]) PetscCall(PetscViewerASCIIPrintf(viewer, "aijgpu chose %s\n", choice->why));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the format of A becomes one of ops (its options read, the shared ones kept: the compressed rows of an
   off-diagonal block too) */
static PetscErrorCode MatSeqAIJGPUSwitch(Mat A, const ELLGFormatOps *ops)
{
  Mat_SeqAIJELLG *e = (Mat_SeqAIJELLG *)A->spptr;

  PetscFunctionBegin;
  if (e->fmt->ops != ops) {
    ELLGFormat f;

    PetscCall(ELLGFormatCreate(ops, e->fmt->backend, &f));
    PetscCall(ELLGFormatCopyParameters(e->fmt, f));
    PetscCall(ELLGFormatDestroy(&e->fmt));
    e->fmt = f;
  }
  PetscObjectOptionsBegin((PetscObject)A);
  PetscCall(ELLGFormatSetFromOptions(e->fmt, PetscOptionsObject));
  PetscOptionsEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* builds the format of A in the format f (its operations from the registry of the types), and gives its bytes
   relative to CSR and whether it is within the limit */
static PetscErrorCode MatSeqAIJGPUBuildOne(Mat A, MatAIJGPUFormat f, PetscInt m, PetscInt n, const PetscInt *ai, const PetscInt *aj, const PetscScalar *aa, double *ratio, PetscBool *fits)
{
  Mat_SeqAIJELLG           *e = (Mat_SeqAIJELLG *)A->spptr;
  const MatELLGFormatEntry *entry;
  double                    bytes, csr;

  PetscFunctionBegin;
  PetscCall(MatELLGFormatFind(MatAIJGPUFormats[f], &entry));
  PetscCall(MatSeqAIJGPUSwitch(A, entry->ops));
  PetscCall(ELLGFormatBuild(e->fmt, m, n, ai, aj, aa));
  ELLGFormatGetBytes(e->fmt, &bytes, &csr);
  *ratio = csr > 0 ? bytes / csr : 1.0;
  *fits  = (PetscBool)(csr < MAT_AIJGPU_MIN_MB * 1048576.0 || *ratio <= MAT_AIJGPU_MAX_CSR);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* seconds per product of the built format */
static PetscErrorCode MatSeqAIJGPUTimeProduct(ELLGFormat f, PetscReal *t)
{
  PetscScalar   *x, *y;
  PetscLogDouble t0, t1;

  PetscFunctionBegin;
  PetscCall(PetscELLGMalloc(f->backend, (size_t)PetscMax(f->n, 1) * sizeof(PetscScalar), (void **)&x));
  PetscCall(PetscELLGMalloc(f->backend, (size_t)PetscMax(f->m, 1) * sizeof(PetscScalar), (void **)&y));
  PetscCall(PetscELLGMemset(f->backend, x, 0, (size_t)f->n * sizeof(PetscScalar)));
  PetscCall(ELLGFormatMult(f, x, NULL, y));
  PetscCall(PetscELLGSynchronize(f->backend));
  PetscCall(PetscTime(&t0));
  for (int k = 0; k < MAT_AIJGPU_TIMED; k++) PetscCall(ELLGFormatMult(f, x, NULL, y));
  PetscCall(PetscELLGSynchronize(f->backend));
  PetscCall(PetscTime(&t1));
  *t = (PetscReal)(t1 - t0) / MAT_AIJGPU_TIMED;
  PetscCall(PetscELLGFree(f->backend, x));
  PetscCall(PetscELLGFree(f->backend, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the formats in the order the rule prefers them for the row lengths of ai (of the nonempty rows alone where the
   format stores those alone: an off-diagonal block), and the statistics it read */
static void MatSeqAIJGPURule(PetscInt m, const PetscInt *ai, PetscBool nonempty, MatAIJGPUFormat order[3], PetscInt *minlen, PetscInt *maxlen, PetscReal *mean, PetscReal *sd)
{
  PetscReal sq = 0.0;
  PetscInt  rows = 0;

  *minlen = PETSC_MAX_INT;
  *maxlen = 0;
  for (PetscInt i = 0; i < m; i++) rows += !nonempty || ai[i + 1] > ai[i];
  *mean = rows ? (PetscReal)ai[m] / (PetscReal)rows : 0.0;
  for (PetscInt i = 0; i < m; i++) {
    const PetscInt len = ai[i + 1] - ai[i];

    if (nonempty && !len) continue;
    *minlen = PetscMin(*minlen, len);
    *maxlen = PetscMax(*maxlen, len);
    sq += ((PetscReal)len - *mean) * ((PetscReal)len - *mean);
  }
  if (!rows) *minlen = 0;
  *sd      = rows ? PetscSqrtReal(sq / (PetscReal)rows) : 0.0;
  order[0] = *minlen == *maxlen ? MAT_AIJGPU_ELLG : *sd > *mean ? MAT_AIJGPU_PJDS : MAT_AIJGPU_SLICEDELL;
  order[1] = order[0] == MAT_AIJGPU_SLICEDELL ? MAT_AIJGPU_PJDS : MAT_AIJGPU_SLICEDELL;
  order[2] = order[0] == MAT_AIJGPU_ELLG ? MAT_AIJGPU_PJDS : MAT_AIJGPU_ELLG;
}

/*
  MatSeqAIJELLGBuildFormat - builds the stored format of A from its CSR; for MATSEQAIJGPU, chooses the format first
  (a build that fails frees what it allocated, as ELLGFormatBuild() does)
*/
PetscErrorCode MatSeqAIJELLGBuildFormat(Mat A, PetscInt m, PetscInt n, const PetscInt *ai, const PetscInt *aj, const PetscScalar *aa)
{
  Mat_SeqAIJELLG    *e = (Mat_SeqAIJELLG *)A->spptr;
  MatSeqAIJGPUChoice c = e->choice;
  MatAIJGPUFormat    order[3], best = MAT_AIJGPU_AUTO;
  PetscInt           minlen, maxlen;
  PetscReal          mean, sd, t[3] = {0, 0, 0}, tbest = PETSC_MAX_REAL;
  double             ratio[3] = {0, 0, 0};
  PetscBool          fits[3]  = {PETSC_FALSE, PETSC_FALSE, PETSC_FALSE};
  char               how[128];

  PetscFunctionBegin;
  if (!c) {
    PetscCall(ELLGFormatBuild(e->fmt, m, n, ai, aj, aa));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  MatSeqAIJGPURule(m, ai, e->fmt->compress_rows, order, &minlen, &maxlen, &mean, &sd);
  if (c->mode != MAT_AIJGPU_AUTO && c->mode != MAT_AIJGPU_TIME) { /* as asked */
    PetscCall(MatSeqAIJGPUBuildOne(A, c->mode, m, n, ai, aj, aa, &ratio[0], &fits[0]));
    PetscCall(PetscSNPrintf(c->why, sizeof(c->why), "%s (-mat_aijgpu_format %s; %.2f x CSR)", e->fmt->ops->name, MatAIJGPUFormats[c->mode], ratio[0]));
  } else if (c->mode == MAT_AIJGPU_AUTO) { /* the rule's first that fits, else the smallest */
    PetscInt k, small = 0;

    for (k = 0; k < 3; k++) {
      PetscCall(MatSeqAIJGPUBuildOne(A, order[k], m, n, ai, aj, aa, &ratio[k], &fits[k]));
      if (fits[k]) break;
      if (ratio[k] < ratio[small]) small = k;
    }
    if (k == 3 && small != 2) PetscCall(MatSeqAIJGPUBuildOne(A, order[small], m, n, ai, aj, aa, &ratio[small], &fits[small]));
    how[0] = 0;
    if (k > 0) PetscCall(PetscSNPrintf(how, sizeof(how), "; %s stored over %.1f x CSR", MatAIJGPUFormats[order[0]], (double)MAT_AIJGPU_MAX_CSR));
    PetscCall(PetscSNPrintf(c->why, sizeof(c->why), "%s (auto: row lengths %" PetscInt_FMT " to %" PetscInt_FMT ", mean %.3g, standard deviation %.3g%s; %.2f x CSR)", e->fmt->ops->name, minlen, maxlen, (double)mean, (double)sd, how, ratio[k == 3 ? small : k]));
  } else { /* the fastest of those that fit (all if none does) */
    PetscBool any = PETSC_FALSE;

    for (PetscInt k = 0; k < 3; k++) {
      PetscCall(MatSeqAIJGPUBuildOne(A, (MatAIJGPUFormat)(k + 1), m, n, ai, aj, aa, &ratio[k], &fits[k]));
      PetscCall(MatSeqAIJGPUTimeProduct(e->fmt, &t[k]));
      any = (PetscBool)(any || fits[k]);
    }
    for (PetscInt k = 0; k < 3; k++)
      if ((fits[k] || !any) && t[k] < tbest) {
        tbest = t[k];
        best  = (MatAIJGPUFormat)(k + 1);
      }
    if (best != MAT_AIJGPU_SLICEDELL) PetscCall(MatSeqAIJGPUBuildOne(A, best, m, n, ai, aj, aa, &ratio[best - 1], &fits[best - 1]));
    PetscCall(PetscSNPrintf(c->why, sizeof(c->why), "%s (timed, %d products each: ellg %.3g ms at %.2f x CSR, pjds %.3g ms at %.2f x, slicedell %.3g ms at %.2f x)", e->fmt->ops->name, MAT_AIJGPU_TIMED, 1e3 * (double)t[0], ratio[0], 1e3 * (double)t[1], ratio[1], 1e3 * (double)t[2], ratio[2]));
  }
  PetscCall(PetscInfo(A, "aijgpu chose %s\n", c->why));
  PetscFunctionReturn(PETSC_SUCCESS);
}
