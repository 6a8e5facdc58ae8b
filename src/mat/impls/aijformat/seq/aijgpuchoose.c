/*
   MATSEQAIJGPU: the seq type that chooses its storage format (ellg, pjds or slicedell by its rule, csrg too when it
   times them) at each build from the matrix's row lengths, or by timing products of each (-mat_aijgpu_format time),
   and never keeps one that stores a large matrix in more than MAT_AIJGPU_MAX_CSR times the bytes of CSR when another
   stores it in less.

   The rule (auto), from what the types' measurements showed (docs/benchmarks.md), the first that applies:
   - a small matrix (under MAT_AIJGPU_SMALL_NNZ entries, no row over MAT_AIJGPU_CSRG_ROW): csrg, whose CSR-vector
     product, bound by the launch and its chain of dependent loads, has the shortest chain;
   - every row of the same length: ellg, which then pads nothing and needs no permutation;
   - scattered columns over a large x (over half of the entries more than 2^15 columns from their row, counted in
     evenly spaced rows holding about MAT_AIJGPU_FAR_SAMPLE entries, and at least ELLG_LARGE_X_COLUMNS columns): csrg, whose CSR-stream product issues the fewest requests to the L2 cache
     that bounds every layout there;
   - row lengths spread widely (those of the rows not long of a standard deviation above 1.2 times their mean:
     power-law graphs): pjds, whose rows sorted by length pad least; and a small matrix with long rows: pjds, which
     multiplies them in the same launch as the others;
   - a matrix of fewer than MAT_AIJGPU_MEDIUM_NNZ entries, no row over MAT_AIJGPU_CSRG_ROW and rows of a mean
     length of at least MAT_AIJGPU_CSRG_MEAN: csrg;
   - otherwise (meshes, stencils, finite elements, most larger matrices): slicedell;
   - csrg when the one chosen, and then each of ellg, pjds and slicedell, stores the matrix in over
     MAT_AIJGPU_MAX_CSR times the bytes of CSR.
*/
#include "../aijformat.h"
#include <ellglongrowsrule.h>

/* the most bytes, relative to CSR, of a format kept for a matrix of at least MAT_AIJGPU_MIN_MB of CSR (in smaller
   ones the alignment of the columns alone can take more) */
#define MAT_AIJGPU_MAX_CSR 1.5
#define MAT_AIJGPU_MIN_MB  1.0
/* the rule's thresholds: pjds when the rows that are not long have lengths of a standard deviation above
   MAT_AIJGPU_SPREAD times their mean (power-law graphs), or when there are long rows and fewer than
   MAT_AIJGPU_FUSED_NNZ entries: pjds multiplies its long rows in the same launch as the others, while the long
   rows of ellg and slicedell take a launch of their own, a large part of a small matrix's product */
#define MAT_AIJGPU_SPREAD    1.2
#define MAT_AIJGPU_FUSED_NNZ (1 << 20)
/* csrg's ranges: small and medium matrices (entries), the longest row its CSR-vector takes in one launch without
   slowing (32 threads of 8 entries), the least mean length of a medium matrix's rows (shorter rows: slicedell's
   coalesced columns are faster) */
#define MAT_AIJGPU_SMALL_NNZ  (1 << 17)
#define MAT_AIJGPU_MEDIUM_NNZ (1 << 19)
#define MAT_AIJGPU_CSRG_ROW   256
#define MAT_AIJGPU_CSRG_MEAN  4.0
/* the entries the rule reads to tell how many lie far from their row (the rows they are in evenly spaced): a
   fraction within about a thousandth of the whole matrix's, without a pass over every entry of a large one */
#define MAT_AIJGPU_FAR_SAMPLE (1 << 20)
/* products timed for each format with -mat_aijgpu_format time, after one not timed */
#define MAT_AIJGPU_TIMED 10

const char *const MatAIJGPUFormats[] = {"auto", "ellg", "pjds", "slicedell", "csrg", "time", "MatAIJGPUFormat", "MAT_AIJGPU_", NULL};
#define MAT_AIJGPU_NFORMATS (MAT_AIJGPU_CSRG - MAT_AIJGPU_AUTO) /* the formats, MAT_AIJGPU_ELLG to MAT_AIJGPU_CSRG */
/* a format type (MatELLGFormats[], aijgpu aside) without a value of MatAIJGPUFormat, and a name in MatAIJGPUFormats[], is
   one aijgpu can never choose: the build stops here until it has them (and the rule in MatSeqAIJGPURule() a case) */
_Static_assert(MAT_AIJGPU_NFORMATS == MAT_ELLG_NTYPES - 1, "every format type needs a MatAIJGPUFormat value and a name in MatAIJGPUFormats[]");

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
  Mat_SeqAIJFormat *b = (Mat_SeqAIJFormat *)B->spptr;

  PetscFunctionBegin;
  PetscCheck(b->choice, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Not a matrix of type %s", MATSEQAIJGPU);
  if (b->choice->mode != from->mode) b->built = PETSC_FALSE;
  b->choice->mode = from->mode;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MatAIJGPUSetFormat(): another mode than before clears *built (unless NULL), so that the format is chosen again at
   its next use */
PetscErrorCode MatSeqAIJGPUChoiceSetMode(MatSeqAIJGPUChoice choice, MatAIJGPUFormat mode, PetscBool *built)
{
  PetscFunctionBegin;
  PetscCheck(mode >= MAT_AIJGPU_AUTO && mode <= MAT_AIJGPU_TIME, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Not a MatAIJGPUFormat: %d", (int)mode);
  if (built && choice->mode != mode) *built = PETSC_FALSE;
  choice->mode = mode;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -mat_aijgpu_format, within the matrix's options block; another mode than before clears *built (unless NULL), so that
   the format is chosen again at its next use */
PetscErrorCode MatSeqAIJGPUChoiceSetFromOptions(MatSeqAIJGPUChoice choice, ELLG_OPTION_ITEMS PetscOptionsObject, PetscBool *built)
{
  const MatAIJGPUFormat before = choice->mode;

  PetscFunctionBegin;
  PetscCall(PetscOptionsEnum("-mat_aijgpu_format", "Storage format: auto (from the row lengths), ellg, pjds, slicedell, csrg, or time (the fastest of a few products of each)", "MATAIJGPU", MatAIJGPUFormats, (PetscEnum)choice->mode, (PetscEnum *)&choice->mode, NULL));
  if (built && choice->mode != before) *built = PETSC_FALSE;
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
  Mat_SeqAIJFormat *e = (Mat_SeqAIJFormat *)A->spptr;

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
  Mat_SeqAIJFormat         *e = (Mat_SeqAIJFormat *)A->spptr;
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

/* the statistics the rule reads: the row lengths, the long rows (those longer than ELLG_LONG_ROWS_DEFAULT(mean),
   which the formats split out by default) and the lengths of the others */
typedef struct {
  PetscInt  minlen, maxlen, nlong;
  PetscReal mean, smean, ssd; /* mean length; mean and standard deviation of the lengths of the rows not long */
  PetscReal far;              /* the fraction of the entries more than 2^15 columns from their row (0 for compressed rows) */
} MatAIJGPURowStats;

/* the formats in the order the rule prefers them for the rows of ai, aj with n columns (the nonempty rows alone where
   the format stores those alone: an off-diagonal block, whose columns are compressed), and the statistics it read */
static void MatSeqAIJGPURule(PetscInt m, PetscInt n, const PetscInt *ai, const PetscInt *aj, PetscBool nonempty, MatAIJGPUFormat order[3], MatAIJGPURowStats *st)
{
  PetscReal sq = 0.0, sum = 0.0;
  PetscInt  rows = 0, threshold;
  PetscInt64 far = 0, seen = 0;

  st->minlen = PETSC_MAX_INT;
  st->maxlen = 0;
  st->nlong  = 0;
  for (PetscInt i = 0; i < m; i++) rows += !nonempty || ai[i + 1] > ai[i];
  st->mean  = rows ? (PetscReal)ai[m] / (PetscReal)rows : 0.0;
  threshold = ELLG_LONG_ROWS_DEFAULT((PetscInt)PetscCeilReal(st->mean));
  for (PetscInt i = 0; i < m; i++) {
    const PetscInt len = ai[i + 1] - ai[i];

    if (nonempty && !len) continue;
    st->minlen = PetscMin(st->minlen, len);
    st->maxlen = PetscMax(st->maxlen, len);
    if (len > threshold) st->nlong++;
    else sum += (PetscReal)len;
  }
  if (!rows) st->minlen = 0;
  st->smean = rows > st->nlong ? sum / (PetscReal)(rows - st->nlong) : 0.0;
  for (PetscInt i = 0; i < m; i++) {
    const PetscInt len = ai[i + 1] - ai[i];

    if ((nonempty && !len) || len > threshold) continue;
    sq += ((PetscReal)len - st->smean) * ((PetscReal)len - st->smean);
  }
  st->ssd = rows > st->nlong ? PetscSqrtReal(sq / (PetscReal)(rows - st->nlong)) : 0.0;
  if (!nonempty && n >= ELLG_LARGE_X_COLUMNS) { /* from evenly spaced rows holding about MAT_AIJGPU_FAR_SAMPLE entries */
    const PetscInt step = PetscMax(1, (PetscInt)(ai[m] / MAT_AIJGPU_FAR_SAMPLE));

    for (PetscInt i = 0; i < m; i += step) {
      seen += ai[i + 1] - ai[i];
      for (PetscInt k = ai[i]; k < ai[i + 1]; k++) far += PetscAbsInt(aj[k] - i) > 32767;
    }
  }
  st->far = seen ? (PetscReal)far / (PetscReal)seen : 0.0;
  if (ai[m] < MAT_AIJGPU_SMALL_NNZ && st->maxlen <= MAT_AIJGPU_CSRG_ROW) order[0] = MAT_AIJGPU_CSRG;
  else if (st->minlen == st->maxlen) order[0] = MAT_AIJGPU_ELLG;
  else if (st->far > 0.5) order[0] = MAT_AIJGPU_CSRG;
  else if ((st->nlong && ai[m] < MAT_AIJGPU_FUSED_NNZ) || st->ssd > MAT_AIJGPU_SPREAD * st->smean) order[0] = MAT_AIJGPU_PJDS;
  else if (ai[m] < MAT_AIJGPU_MEDIUM_NNZ && st->maxlen <= MAT_AIJGPU_CSRG_ROW && st->mean >= MAT_AIJGPU_CSRG_MEAN) order[0] = MAT_AIJGPU_CSRG;
  else order[0] = MAT_AIJGPU_SLICEDELL;
  /* then the padded formats (csrg, which stores CSR, is the last resort of all) */
  order[1] = order[0] == MAT_AIJGPU_SLICEDELL ? MAT_AIJGPU_PJDS : MAT_AIJGPU_SLICEDELL;
  order[2] = order[0] == MAT_AIJGPU_ELLG ? MAT_AIJGPU_PJDS : MAT_AIJGPU_ELLG;
}

/*
  MatSeqAIJFormatBuildFormat - builds the stored format of A from its CSR; for MATSEQAIJGPU, chooses the format first
  (a build that fails frees what it allocated, as ELLGFormatBuild() does)
*/
PetscErrorCode MatSeqAIJFormatBuildFormat(Mat A, PetscInt m, PetscInt n, const PetscInt *ai, const PetscInt *aj, const PetscScalar *aa)
{
  Mat_SeqAIJFormat  *e              = (Mat_SeqAIJFormat *)A->spptr;
  MatSeqAIJGPUChoice c              = e->choice;
  MatAIJGPUFormat    order[3], best = MAT_AIJGPU_AUTO;
  MatAIJGPURowStats  st;
  PetscReal          t[MAT_AIJGPU_NFORMATS] = {0}, tbest = PETSC_MAX_REAL;
  double             ratio[MAT_AIJGPU_NFORMATS] = {0};
  PetscBool          fits[MAT_AIJGPU_NFORMATS]  = {PETSC_FALSE};
  char               how[128];

  PetscFunctionBegin;
  if (!c) {
    PetscCall(ELLGFormatBuild(e->fmt, m, n, ai, aj, aa));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  MatSeqAIJGPURule(m, n, ai, aj, e->fmt->compress_rows, order, &st);
  if (c->mode != MAT_AIJGPU_AUTO && c->mode != MAT_AIJGPU_TIME) { /* as asked */
    PetscCall(MatSeqAIJGPUBuildOne(A, c->mode, m, n, ai, aj, aa, &ratio[0], &fits[0]));
    PetscCall(PetscSNPrintf(c->why, sizeof(c->why), "%s (-mat_aijgpu_format %s; %.2f x CSR)", e->fmt->ops->name, MatAIJGPUFormats[c->mode], ratio[0]));
  } else if (c->mode == MAT_AIJGPU_AUTO) { /* the rule's first that fits, else csrg, which stores CSR */
    PetscInt k;

    for (k = 0; k < 3; k++) {
      PetscCall(MatSeqAIJGPUBuildOne(A, order[k], m, n, ai, aj, aa, &ratio[k], &fits[k]));
      if (fits[k]) break;
    }
    if (k == 3) PetscCall(MatSeqAIJGPUBuildOne(A, MAT_AIJGPU_CSRG, m, n, ai, aj, aa, &ratio[k], &fits[k]));
    how[0] = 0;
    if (k == 3) PetscCall(PetscSNPrintf(how, sizeof(how), "; ellg, pjds and slicedell each stored over %.1f x CSR", (double)MAT_AIJGPU_MAX_CSR));
    else if (k > 0) PetscCall(PetscSNPrintf(how, sizeof(how), "; %s stored over %.1f x CSR", MatAIJGPUFormats[order[0]], (double)MAT_AIJGPU_MAX_CSR));
    PetscCall(PetscSNPrintf(c->why, sizeof(c->why), "%s (auto: %" PetscInt_FMT " entries, row lengths %" PetscInt_FMT " to %" PetscInt_FMT ", mean %.3g; %" PetscInt_FMT " long, the others of mean %.3g, standard deviation %.3g; %.0f%% of the entries far from their row%s; %.2f x CSR)", e->fmt->ops->name, ai[m], st.minlen, st.maxlen, (double)st.mean, st.nlong, (double)st.smean, (double)st.ssd, 100.0 * (double)st.far, how, ratio[k]));
  } else { /* the fastest of those that fit (all if none does) */
    PetscBool any = PETSC_FALSE;

    for (PetscInt k = 0; k < MAT_AIJGPU_NFORMATS; k++) {
      PetscCall(MatSeqAIJGPUBuildOne(A, (MatAIJGPUFormat)(k + 1), m, n, ai, aj, aa, &ratio[k], &fits[k]));
      PetscCall(MatSeqAIJGPUTimeProduct(e->fmt, &t[k]));
      any = (PetscBool)(any || fits[k]);
    }
    for (PetscInt k = 0; k < MAT_AIJGPU_NFORMATS; k++)
      if ((fits[k] || !any) && t[k] < tbest) {
        tbest = t[k];
        best  = (MatAIJGPUFormat)(k + 1);
      }
    if (best != MAT_AIJGPU_CSRG) /* not the last one built */
      PetscCall(MatSeqAIJGPUBuildOne(A, best, m, n, ai, aj, aa, &ratio[best - 1], &fits[best - 1]));
    PetscCall(PetscSNPrintf(c->why, sizeof(c->why), "%s (timed, %d products each: ellg %.3g ms at %.2f x CSR, pjds %.3g ms at %.2f x, slicedell %.3g ms at %.2f x, csrg %.3g ms at %.2f x)", e->fmt->ops->name, MAT_AIJGPU_TIMED, 1e3 * (double)t[0], ratio[0], 1e3 * (double)t[1], ratio[1], 1e3 * (double)t[2], ratio[2], 1e3 * (double)t[3], ratio[3]));
  }
  PetscCall(PetscInfo(A, "aijgpu chose %s\n", c->why));
  PetscFunctionReturn(PETSC_SUCCESS);
}
