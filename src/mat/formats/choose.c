/*
   The format of a matrix of type aijgpu: built at each of its builds from the matrix's row lengths (auto), as
   named, or the fastest of a few products of each (time); never one that stores a large matrix in more than
   ELLG_CHOOSE_MAX_CSR times the bytes of CSR when another stores it in less.

   The rule (auto), from what the types' measurements showed (docs/benchmarks.md), the first that applies:
   - a small matrix (under ELLG_CHOOSE_SMALL_NNZ entries, no row over ELLG_CHOOSE_CSRG_ROW): csrg, whose CSR-vector
     product, bound by the launch and its chain of dependent loads, has the shortest chain;
   - every row of the same length: ellg, which then pads nothing and needs no permutation;
   - scattered columns over a large x (over half of the entries more than 2^15 columns from their row, counted in
     evenly spaced rows holding about ELLG_CHOOSE_FAR_SAMPLE entries, and at least ELLG_LARGE_X_COLUMNS columns):
     csrg, whose CSR-stream product issues the fewest requests to the L2 cache that bounds every layout there;
   - row lengths spread widely (those of the rows not long of a standard deviation above ELLG_CHOOSE_SPREAD times
     their mean: power-law graphs): pjds, whose rows sorted by length pad least; and a small matrix with long rows:
     pjds, which multiplies them in the same launch as the others;
   - a matrix of fewer than ELLG_CHOOSE_MEDIUM_NNZ entries, no row over ELLG_CHOOSE_CSRG_ROW and rows of a mean
     length of at least ELLG_CHOOSE_CSRG_MEAN: csrg;
   - otherwise (meshes, stencils, finite elements, most larger matrices): slicedell;
   - when the one chosen stores over ELLG_CHOOSE_MAX_CSR times the bytes of CSR, the next of ELLGFormatTable[] that
     does not, csrg (CSR) the last.
*/
#include <ellgchoose.h>
#include <ellglongrowsrule.h>

const ELLGFormatOps *const ELLGFormatTable[ELLG_NFORMATS] = {&ELLGFormatOps_SlicedELL, &ELLGFormatOps_PJDS, &ELLGFormatOps_ELLG, &ELLGFormatOps_CSRG};

/* the names of -mat_aijgpu_format (MatAIJGPUSetFormat()): a format of the table without a value of MatAIJGPUFormat
   (MAT_AIJGPU_ELLG to MAT_AIJGPU_CSRG) and its name here is one a user cannot name: the build stops here until it
   has them (and src/mat/impls/aijformat/types.c until it has a type) */
const char *const MatAIJGPUFormats[] = {"auto", "ellg", "pjds", "slicedell", "csrg", "time", "MatAIJGPUFormat", "MAT_AIJGPU_", NULL};
_Static_assert(MAT_AIJGPU_TIME - MAT_AIJGPU_AUTO - 1 == ELLG_NFORMATS, "every format needs a MatAIJGPUFormat value and a name in MatAIJGPUFormats[]");

/* the most bytes, relative to CSR, of a format kept for a matrix of at least ELLG_CHOOSE_MIN_MB of CSR (in smaller
   ones the alignment of the columns alone can take more) */
#define ELLG_CHOOSE_MAX_CSR 1.5
#define ELLG_CHOOSE_MIN_MB  1.0
/* pjds when the rows that are not long have lengths of a standard deviation above ELLG_CHOOSE_SPREAD times their
   mean (power-law graphs), or when there are long rows and fewer than ELLG_CHOOSE_FUSED_NNZ entries: pjds multiplies
   its long rows in the same launch as the others, while the long rows of ellg and slicedell take a launch of their
   own, a large part of a small matrix's product */
#define ELLG_CHOOSE_SPREAD    1.2
#define ELLG_CHOOSE_FUSED_NNZ (1 << 20)
/* csrg's ranges: small and medium matrices (entries), the longest row its CSR-vector takes in one launch without
   slowing (32 threads of 8 entries), the least mean length of a medium matrix's rows (shorter rows: slicedell's
   coalesced columns are faster) */
#define ELLG_CHOOSE_SMALL_NNZ  (1 << 17)
#define ELLG_CHOOSE_MEDIUM_NNZ (1 << 19)
#define ELLG_CHOOSE_CSRG_ROW   256
#define ELLG_CHOOSE_CSRG_MEAN  4.0
/* the entries the rule reads to tell how many lie far from their row (the rows they are in evenly spaced): a
   fraction within about a thousandth of the whole matrix's, without a pass over every entry of a large one */
#define ELLG_CHOOSE_FAR_SAMPLE (1 << 20)
/* products timed for each format with -mat_aijgpu_format time, after one not timed */
#define ELLG_CHOOSE_TIMED 10

PetscErrorCode ELLGFormatTableFind(const char name[], const ELLGFormatOps **ops)
{
  PetscBool match;

  PetscFunctionBegin;
  for (PetscInt k = 0; k < ELLG_NFORMATS; k++) {
    PetscCall(PetscStrcmp(name, ELLGFormatTable[k]->name, &match));
    if (match) {
      *ops = ELLGFormatTable[k];
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  }
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_UNKNOWN_TYPE, "Not a PETSc-ELLG format: %s", name);
}

/* the statistics the rule reads: the lengths of the rows (the nonempty ones alone where the format stores those
   alone: an off-diagonal block, whose columns are compressed), of those not long (no longer than
   ELLG_LONG_ROWS_DEFAULT of the mean, which the formats split out by default), and the fraction of the entries more
   than 2^15 columns from their row (0 for compressed rows) */
typedef struct {
  ELLGRowStats all, rest;
  PetscInt     nlong;
  PetscReal    far;
} ELLGChooseStats;

static void ELLGChooseStatsCompute(PetscInt m, PetscInt n, const PetscInt *ai, const PetscInt *aj, PetscBool nonempty, ELLGChooseStats *st)
{
  PetscInt64 far = 0, seen = 0;

  ELLGRowStatsCompute(m, ai, NULL, nonempty, PETSC_MAX_INT, &st->all);
  ELLGRowStatsCompute(m, ai, NULL, nonempty, ELLG_LONG_ROWS_DEFAULT((PetscInt)PetscCeilReal(st->all.mean)), &st->rest);
  st->nlong = st->all.rows - st->rest.rows;
  if (!nonempty && n >= ELLG_LARGE_X_COLUMNS) { /* from evenly spaced rows holding about ELLG_CHOOSE_FAR_SAMPLE entries */
    const PetscInt step = PetscMax(1, (PetscInt)(ai[m] / ELLG_CHOOSE_FAR_SAMPLE));

    for (PetscInt i = 0; i < m; i += step) {
      seen += ai[i + 1] - ai[i];
      for (PetscInt k = ai[i]; k < ai[i + 1]; k++) far += PetscAbsInt(aj[k] - i) > 32767;
    }
  }
  st->far = seen ? (PetscReal)far / (PetscReal)seen : 0.0;
}

/* the rule's first choice */
static const ELLGFormatOps *ELLGChooseRule(const ELLGChooseStats *st)
{
  const ELLGRowStats *a = &st->all;

  if (a->stored < ELLG_CHOOSE_SMALL_NNZ && a->width <= ELLG_CHOOSE_CSRG_ROW) return &ELLGFormatOps_CSRG;
  if (a->minlen == a->width) return &ELLGFormatOps_ELLG;
  if (st->far > 0.5) return &ELLGFormatOps_CSRG;
  if ((st->nlong && a->stored < ELLG_CHOOSE_FUSED_NNZ) || st->rest.sd > ELLG_CHOOSE_SPREAD * st->rest.mean) return &ELLGFormatOps_PJDS;
  if (a->stored < ELLG_CHOOSE_MEDIUM_NNZ && a->width <= ELLG_CHOOSE_CSRG_ROW && a->mean >= ELLG_CHOOSE_CSRG_MEAN) return &ELLGFormatOps_CSRG;
  return &ELLGFormatOps_SlicedELL;
}

/* *fmt becomes a format of ops (the options of the one before kept: the compressed rows of an off-diagonal block
   too), with the options of obj's prefix */
static PetscErrorCode ELLGChooseSwitch(ELLGFormat *fmt, const ELLGFormatOps *ops, PetscObject obj)
{
  PetscFunctionBegin;
  if ((*fmt)->ops != ops) {
    ELLGFormat f;

    PetscCall(ELLGFormatCreate(ops, (*fmt)->backend, &f));
    PetscCall(ELLGFormatCopyParameters(*fmt, f));
    PetscCall(ELLGFormatDestroy(fmt));
    *fmt = f;
  }
  (*fmt)->chosen = PETSC_TRUE;
  PetscObjectOptionsBegin(obj);
  PetscCall(ELLGFormatSetFromOptions(*fmt, PetscOptionsObject));
  PetscOptionsEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* builds *fmt in the format of ops, and gives its bytes relative to CSR and whether it is within the limit */
static PetscErrorCode ELLGChooseBuild(ELLGFormat *fmt, const ELLGFormatOps *ops, PetscObject obj, PetscInt m, PetscInt n, const PetscInt *ai, const PetscInt *aj, const PetscScalar *aa, double *ratio, PetscBool *fits)
{
  double bytes, csr;

  PetscFunctionBegin;
  PetscCall(ELLGChooseSwitch(fmt, ops, obj));
  PetscCall(ELLGFormatBuild(*fmt, m, n, ai, aj, aa));
  ELLGFormatGetBytes(*fmt, &bytes, &csr);
  *ratio = csr > 0 ? bytes / csr : 1.0;
  *fits  = (PetscBool)(csr < ELLG_CHOOSE_MIN_MB * 1048576.0 || *ratio <= ELLG_CHOOSE_MAX_CSR);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* seconds per product of the built format */
static PetscErrorCode ELLGChooseTimeProduct(ELLGFormat f, PetscReal *t)
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
  for (int k = 0; k < ELLG_CHOOSE_TIMED; k++) PetscCall(ELLGFormatMult(f, x, NULL, y));
  PetscCall(PetscELLGSynchronize(f->backend));
  PetscCall(PetscTime(&t1));
  *t = (PetscReal)(t1 - t0) / ELLG_CHOOSE_TIMED;
  PetscCall(PetscELLGFree(f->backend, x));
  PetscCall(PetscELLGFree(f->backend, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  ELLGFormatChoose - builds *fmt (which it replaces by a format of another kind where it chooses one) from the m x n
  CSR (ai, aj, aa) of the host in the format mode says, with the options of obj's prefix, and says in why what it
  chose and why; a build that fails frees what it allocated, as ELLGFormatBuild() does
*/
PetscErrorCode ELLGFormatChoose(ELLGFormat *fmt, MatAIJGPUFormat mode, PetscObject obj, PetscInt m, PetscInt n, const PetscInt *ai, const PetscInt *aj, const PetscScalar *aa, char why[], size_t len)
{
  const ELLGFormatOps *ops;
  double               ratio[ELLG_NFORMATS] = {0};
  PetscBool            fits[ELLG_NFORMATS]  = {PETSC_FALSE};
  size_t               used;

  PetscFunctionBegin;
  if (mode == MAT_AIJGPU_TIME) { /* the fastest of those that fit (all if none does) */
    PetscReal t[ELLG_NFORMATS], tbest = PETSC_MAX_REAL;
    PetscInt  best = 0;
    PetscBool any  = PETSC_FALSE;

    for (PetscInt k = 0; k < ELLG_NFORMATS; k++) {
      PetscCall(ELLGChooseBuild(fmt, ELLGFormatTable[k], obj, m, n, ai, aj, aa, &ratio[k], &fits[k]));
      PetscCall(ELLGChooseTimeProduct(*fmt, &t[k]));
      any = (PetscBool)(any || fits[k]);
    }
    for (PetscInt k = 0; k < ELLG_NFORMATS; k++)
      if ((fits[k] || !any) && t[k] < tbest) {
        tbest = t[k];
        best  = k;
      }
    if (best != ELLG_NFORMATS - 1) PetscCall(ELLGChooseBuild(fmt, ELLGFormatTable[best], obj, m, n, ai, aj, aa, &ratio[best], &fits[best])); /* not the last one built */
    PetscCall(PetscSNPrintf(why, len, "%s (timed, %d products each:", (*fmt)->ops->name, ELLG_CHOOSE_TIMED));
    for (PetscInt k = 0; k < ELLG_NFORMATS; k++) {
      PetscCall(PetscStrlen(why, &used));
      PetscCall(PetscSNPrintf(why + used, len - used, "%s %s %.3g ms at %.2f x CSR", k ? "," : "", ELLGFormatTable[k]->name, 1e3 * (double)t[k], ratio[k]));
    }
    PetscCall(PetscStrlcat(why, ")", len));
  } else if (mode == MAT_AIJGPU_AUTO) { /* the rule's first choice if it fits, else the first in the table that does */
    ELLGChooseStats st;
    char            over[64] = ""; /* the formats that stored over the limit */

    ELLGChooseStatsCompute(m, n, ai, aj, (*fmt)->compress_rows, &st);
    ops = ELLGChooseRule(&st);
    PetscCall(ELLGChooseBuild(fmt, ops, obj, m, n, ai, aj, aa, &ratio[0], &fits[0]));
    for (PetscInt k = 0; !fits[0] && k < ELLG_NFORMATS; k++) {
      if (ELLGFormatTable[k] == ops) continue;
      if (over[0]) PetscCall(PetscStrlcat(over, ", ", sizeof(over)));
      PetscCall(PetscStrlcat(over, (*fmt)->ops->name, sizeof(over)));
      PetscCall(ELLGChooseBuild(fmt, ELLGFormatTable[k], obj, m, n, ai, aj, aa, &ratio[0], &fits[0]));
    }
    if (!fits[0] && (*fmt)->ops != ELLGFormatTable[ELLG_NFORMATS - 1]) { /* the last resort */
      PetscCall(PetscStrlcat(over, ", ", sizeof(over)));
      PetscCall(PetscStrlcat(over, (*fmt)->ops->name, sizeof(over)));
      PetscCall(ELLGChooseBuild(fmt, ELLGFormatTable[ELLG_NFORMATS - 1], obj, m, n, ai, aj, aa, &ratio[0], &fits[0]));
    }
    PetscCall(PetscSNPrintf(why, len, "%s (auto: %" PetscInt_FMT " entries, row lengths %" PetscInt_FMT " to %" PetscInt_FMT ", mean %.3g; %" PetscInt_FMT " long, the others of mean %.3g, standard deviation %.3g; %.0f%% of the entries far from their row", (*fmt)->ops->name, ai[m], st.all.minlen, st.all.width, st.all.mean, st.nlong, st.rest.mean, st.rest.sd, 100.0 * (double)st.far));
    PetscCall(PetscStrlen(why, &used));
    if (over[0]) PetscCall(PetscSNPrintf(why + used, len - used, "; %s stored over %.1f x CSR", over, (double)ELLG_CHOOSE_MAX_CSR));
    PetscCall(PetscStrlen(why, &used));
    PetscCall(PetscSNPrintf(why + used, len - used, "; %.2f x CSR)", ratio[0]));
  } else { /* as asked */
    PetscCheck(mode > MAT_AIJGPU_AUTO && mode < MAT_AIJGPU_TIME, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Not a MatAIJGPUFormat: %d", (int)mode);
    PetscCall(ELLGFormatTableFind(MatAIJGPUFormats[mode], &ops));
    PetscCall(ELLGChooseBuild(fmt, ops, obj, m, n, ai, aj, aa, &ratio[0], &fits[0]));
    PetscCall(PetscSNPrintf(why, len, "%s (-mat_aijgpu_format %s; %.2f x CSR)", ops->name, MatAIJGPUFormats[mode], ratio[0]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
