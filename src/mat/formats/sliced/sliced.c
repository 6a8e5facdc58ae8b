/*
   Sliced ELL, SELL-C-sigma (Monakov et al., Kreutzer et al.): slices of C rows, each
   padded to its own width, rows optionally sorted by length within windows of sigma rows.

   Layout choice at each build (options -mat_slicedell_slice_height and -mat_slicedell_sigma, 0 =
   automatic): the format must not hold more than 1.05 times the bytes of the CSR of the entries it
   stores, 12 nnz + 4 (m + 1). Automatic sigma: 1 (no sorting, no permutation) if that fits, else
   the smallest of 2C, 4C, 8C, ... (the last one covers every row) that fits. Automatic C: 32 (a
   warp per slice with a thread per row), halved only while no sigma fits. C = 1 with sigma = 1 is
   the CSR itself, so the automatic choice always fits; with C or sigma given the layout of fewest
   bytes is taken and PetscInfo() says it does not fit. A small matrix, of at most ELLG_THREADS_SMALL
   rows, is the exception: its product is bound by the latency of its threads' chains of loads, not
   by its bytes, and padding lengthens those chains; when its slices of 32 rows as they are would
   hold padding, it takes C = 1 (with C automatic and sigma automatic or 1).

   Shared column offsets (-mat_slicedell_shared_indices, default true): the slices of a stencil's rows away from the
   boundaries hold the same offsets from the row, so each distinct block of offsets is stored once and the slices
   read it from the caches, where a product otherwise reads an index beside each value (slicedkernels.h). Found on
   the backend (a signature per slice, grouped on the host, each slice then checked against its block); kept when the
   distinct blocks hold at most half the slots.
*/
#include <ellgformat.h>
#include <stdint.h>
#include <limits.h>
#include "slicedkernels.h"

#define SLICED_MAX_BYTES_RATIO 1.05
#define SLICED_DEFAULT_C       32
#define SLICED_COUNT_ROWS      4 /* windows of this many rows per length or more are counted, not sorted, to weigh a layout */
#define SLICED_SHARED_MAX      0.5 /* shared offsets are kept when their blocks hold at most this share of the slots */

typedef struct {
  SlicedArrays a;                                           /* in the backend's memory */
  PetscInt     C_option, sigma_option;                      /* 0: automatic */
  PetscInt     C, sigma, T, bs;                             /* in use */
  PetscInt     C_built_option, sigma_built_option;          /* C_option, sigma_option at the last build (the layout follows them) */
  PetscBool    shared_option;                               /* -mat_slicedell_shared_indices */
  PetscInt     nblocks;                                     /* distinct blocks of shared offsets (0: none shared) */
  PetscInt64   shared_slots;                                /* their slots */
  PetscInt64   stored;                                      /* slots: entries and padding */
  PetscInt64   entries;                                     /* entries of the rows the format stores */
  PetscInt     maxwidth;                                    /* widest slice */
  double       meanwidth;                                   /* mean width of the slices */
  double       workwidth;                                   /* mean width of the slice an entry is in: sum w^2 / sum w */
} Sliced;

static PetscErrorCode SlicedCreate(ELLGFormat fmt)
{
  Sliced *sl;

  PetscFunctionBegin;
  PetscCall(PetscNew(&sl));
  sl->shared_option = PETSC_TRUE;
  fmt->data         = sl;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SlicedDestroy(ELLGFormat fmt)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(fmt->data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SlicedReset(ELLGFormat fmt)
{
  Sliced *sl = (Sliced *)fmt->data;

  PetscFunctionBegin;
  PetscCall(PetscELLGFree(fmt->backend, sl->a.slice_ptr));
  PetscCall(PetscELLGFree(fmt->backend, sl->a.perm));
  PetscCall(PetscELLGFree(fmt->backend, sl->a.col));
  PetscCall(PetscELLGFree(fmt->backend, sl->a.off));
  PetscCall(PetscELLGFree(fmt->backend, sl->a.idx_ptr));
  PetscCall(PetscELLGFree(fmt->backend, sl->a.rel));
  PetscCall(PetscELLGFree(fmt->backend, sl->a.val));
  PetscCall(PetscELLGFree(fmt->backend, sl->a.sval));
  PetscCall(PetscMemzero(&sl->a, sizeof(sl->a)));
  sl->stored = sl->entries = 0;
  sl->maxwidth             = 0;
  sl->nblocks              = 0;
  sl->shared_slots         = 0;
  sl->meanwidth = sl->workwidth = 0.0;
  fmt->bytes                    = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* T from the slice widths, weighted by the entries in them (where the work is): the smallest power
   of two that gives each thread fewer than 16 entries of the slice (64 with ELLG_ROWS_FILL_GPU rows or
   more), up to a warp; narrow slices keep a thread per row (with C = 32, every load of a warp is one
   contiguous segment). The threads of a slice read T*C consecutive entries per step: with small C
   (chosen for irregular matrices), T grows until that is a 32-byte sector of values, as long as the
   rows are that long. A small matrix starts from ELLGFormatSmallThreadsPerRow of the widest slice */
static PetscInt SlicedThreadsPerRow(PetscInt m, PetscInt maxwidth, PetscReal workwidth)
{
  const PetscReal ept = m >= ELLG_ROWS_FILL_GPU ? 64.0 : 16.0;
  PetscInt        T   = ELLGFormatSmallThreadsPerRow(m, maxwidth);

  while (T < 32 && workwidth >= ept * T) T *= 2;
  return T;
}

static void SlicedChooseParameters(ELLGFormat fmt)
{
  Sliced *sl = (Sliced *)fmt->data;

  sl->T = SlicedThreadsPerRow(sl->a.m, sl->maxwidth, sl->workwidth);
  while (sl->T < 32 && sl->T * sl->C < 4 && sl->workwidth >= 2.0 * sl->T) sl->T *= 2;
  if (fmt->kernel.threads_per_row) sl->T = fmt->kernel.threads_per_row;
  sl->bs = fmt->kernel.block_size ? fmt->kernel.block_size : (sl->T >= 8 ? 128 : 256);
}

static PetscBool SlicedIsPow2(PetscInt v) { return (PetscBool)(v > 0 && !(v & (v - 1))); }

static PetscErrorCode SlicedSetFromOptions(ELLGFormat fmt, ELLG_OPTION_ITEMS PetscOptionsObject)
{
  Sliced *sl = (Sliced *)fmt->data;

  PetscFunctionBegin;
  PetscCall(PetscOptionsInt("-mat_slicedell_slice_height", "Rows per slice C: a power of two from 1 to 1024 (0: automatic, 32 unless the padding needs fewer)", "MATSLICEDELL", sl->C_option, &sl->C_option, NULL));
  PetscCheck(sl->C_option == 0 || (SlicedIsPow2(sl->C_option) && sl->C_option <= 1024), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-mat_slicedell_slice_height %" PetscInt_FMT ": must be a power of two from 1 to 1024, or 0 (automatic)", sl->C_option);
  PetscCall(PetscOptionsInt("-mat_slicedell_sigma", "Rows are sorted by length within windows of sigma rows: 1 (no sorting) or a multiple of the slice height (0: automatic)", "MATSLICEDELL", sl->sigma_option, &sl->sigma_option, NULL));
  PetscCheck(sl->sigma_option >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-mat_slicedell_sigma %" PetscInt_FMT ": must be 0 (automatic), 1 (no sorting) or a multiple of the slice height", sl->sigma_option);
  PetscCheck(sl->sigma_option <= 1 || !sl->C_option || sl->sigma_option % sl->C_option == 0, PETSC_COMM_SELF, PETSC_ERR_ARG_INCOMP, "-mat_slicedell_sigma %" PetscInt_FMT ": must be 1 or a multiple of the slice height %" PetscInt_FMT " (or 0, automatic)", sl->sigma_option, sl->C_option);
  PetscCall(PetscOptionsBool("-mat_slicedell_shared_indices", "Slices whose column offsets from their rows are equal (a stencil's) share one stored block of them", "MATSLICEDELL", sl->shared_option, &sl->shared_option, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SlicedCopyParameters(ELLGFormat from, ELLGFormat to)
{
  Sliced *a = (Sliced *)from->data, *b = (Sliced *)to->data;

  PetscFunctionBegin;
  b->C_option      = a->C_option;
  b->sigma_option  = a->sigma_option;
  b->shared_option = a->shared_option;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscBool SlicedSameParameters(ELLGFormat from, ELLGFormat to)
{
  const Sliced *a = (const Sliced *)from->data, *b = (const Sliced *)to->data;

  return (PetscBool)(a->C_option == b->C_option && a->sigma_option == b->sigma_option && a->shared_option == b->shared_option);
}

/* bytes of a layout of slice height C holding slots entries and padding; sorted: a permutation is stored */
static PetscInt64 SlicedLayoutBytes(PetscInt m, PetscInt C, PetscInt64 slots, PetscBool sorted)
{
  const PetscInt nslices = (m + C - 1) / C;

  return (PetscInt64)(sizeof(PetscScalar) + sizeof(int)) * slots + (PetscInt64)sizeof(int) * (nslices + 1) + (sorted ? (PetscInt64)sizeof(int) * m : 0);
}

/* bytes of slice height C over the row lengths L[] in stored order; sorted: L is sorted (descending)
   within windows that are multiples of C, so a slice's width is its first length, and a permutation
   is stored */
static PetscInt64 SlicedBytes(PetscInt m, const PetscInt *L, PetscInt C, PetscBool sorted)
{
  const PetscInt nslices = (m + C - 1) / C;
  PetscInt64     slots   = 0;

  for (PetscInt s = 0; s < nslices; s++) {
    PetscInt w = L[s * C];

    if (!sorted)
      for (PetscInt r = s * C + 1; r < PetscMin(m, (s + 1) * C); r++) w = PetscMax(w, L[r]);
    slots += (PetscInt64)C * w;
  }
  return SlicedLayoutBytes(m, C, slots, sorted);
}

/* the count of each length (at most maxlen) in each window of 2^logW rows: hist[w (maxlen + 1) + l] */
static void SlicedCountLengths(PetscInt m, const PetscInt *len, int logW, PetscInt maxlen, PetscInt *hist)
{
  const PetscInt nl = maxlen + 1, nw = (PetscInt)(((PetscInt64)m + ((PetscInt64)1 << logW) - 1) >> logW);

  for (PetscInt k = 0; k < nw * nl; k++) hist[k] = 0;
  for (PetscInt i = 0; i < m; i++) hist[(i >> logW) * nl + len[i]]++;
}

/* the counts of windows twice as wide, in place: those of nw windows added in pairs */
static void SlicedMergeCounts(PetscInt nw, PetscInt maxlen, PetscInt *hist)
{
  const PetscInt nl = maxlen + 1;

  for (PetscInt w = 0; 2 * w < nw; w++)
    for (PetscInt l = 0; l < nl; l++) hist[w * nl + l] = hist[2 * w * nl + l] + (2 * w + 1 < nw ? hist[(2 * w + 1) * nl + l] : 0);
}

/* the slots of the layouts of slice heights cand[c] with want[c] (powers of two, each dividing the windows' rows)
   with the rows sorted within windows, from the count of each length in each of the nw windows, without sorting:
   sorted descending, a window's slice starting at position p is as wide as the row there */
static void SlicedSortedSlots(PetscInt nw, const PetscInt *hist, PetscInt maxlen, PetscInt nc, const PetscInt *cand, const PetscBool *want, PetscInt64 *slots)
{
  for (PetscInt c = 0; c < nc; c++) slots[c] = 0;
  for (PetscInt w = 0; w < nw; w++) {
    const PetscInt *h = hist + w * (maxlen + 1);

    for (PetscInt c = 0; c < nc; c++) {
      const int  logC = ELLGFormatLog2(cand[c]);
      PetscInt64 pos = 0, first = 0; /* sorted position in the window of the first row of the next length, and the slices starting before it */

      if (!want[c]) continue;
      for (PetscInt l = maxlen; l >= 0; l--) {
        const PetscInt64 next = pos + h[l], upto = (next + cand[c] - 1) >> logC;

        /* the slices starting at the positions k C in [pos, next) are l wide */
        slots[c] += (PetscInt64)cand[c] * l * (upto - first);
        pos   = next;
        first = upto;
      }
    }
  }
}

/* whether slices of C rows of lengths len[], unsorted, pad any row: rows of different lengths in a slice */
static PetscBool SlicedPadsRows(PetscInt m, const PetscInt *len, PetscInt C)
{
  for (PetscInt r = 1; r < m; r++)
    if (r % C && len[r] != len[r - 1]) return PETSC_TRUE;
  return PETSC_FALSE;
}

/* runs of R lengths sorted descending (the last one may be shorter) merged into runs of 2R */
static void SlicedMergePass(PetscInt m, PetscInt64 R, const PetscInt *in, PetscInt *out)
{
  for (PetscInt64 lo = 0; lo < m; lo += 2 * R) {
    const PetscInt mid = (PetscInt)PetscMin(lo + R, m), hi = (PetscInt)PetscMin(lo + 2 * R, m);
    PetscInt       i = (PetscInt)lo, j = mid, o = (PetscInt)lo;

    while (i < mid && j < hi) out[o++] = in[i] >= in[j] ? in[i++] : in[j++];
    while (i < mid) out[o++] = in[i++];
    while (j < hi) out[o++] = in[j++];
  }
}

/* the rows of window [lo, lo + nw) by a stable counting sort of their lengths (at most maxlen), longest first,
   with first[] (maxlen + 1 counters) as work space */
static void SlicedCountingSortWindow(PetscInt lo, PetscInt nw, const PetscInt *len, PetscInt maxlen, PetscInt *first, int *perm, PetscInt *L)
{
  PetscInt pos = lo;

  for (PetscInt l = 0; l <= maxlen; l++) first[l] = 0;
  for (PetscInt i = lo; i < lo + nw; i++) first[len[i]]++;
  for (PetscInt l = maxlen; l >= 0; l--) { /* first[l]: first sorted position of the rows of length l */
    const PetscInt c = first[l];

    first[l] = pos;
    pos += c;
  }
  for (PetscInt i = lo; i < lo + nw; i++) {
    const PetscInt k = first[len[i]]++;

    perm[k] = (int)i;
    L[k]    = len[i];
  }
}

/* the rows sorted by length, descending and stable, within windows of sigma rows: perm[r] = row of
   sorted position r, L[r] = its length. A counting sort when the lengths are fewer than the rows of a
   window (the usual case: one pass over the rows), else a comparison sort of (length, row) keys. */
static PetscErrorCode SlicedSortRows(PetscInt m, PetscInt sigma, const PetscInt *len, int *perm, PetscInt *L)
{
  const PetscInt w      = PetscMin(sigma, m);
  PetscInt       maxlen = 0;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < m; i++) maxlen = PetscMax(maxlen, len[i]);
  if (maxlen < w) {
    PetscInt *first;

    PetscCall(PetscMalloc1(maxlen + 1, &first));
    for (PetscInt lo = 0; lo < m; lo += PetscMin(sigma, m - lo)) SlicedCountingSortWindow(lo, PetscMin(sigma, m - lo), len, maxlen, first, perm, L);
    PetscCall(PetscFree(first));
  } else {
    PetscInt64 *key;

    PetscCall(PetscMalloc1(w, &key));
    for (PetscInt lo = 0; lo < m; lo += PetscMin(sigma, m - lo)) {
      const PetscInt nw = PetscMin(sigma, m - lo);

      /* longer first, then lower row: unique keys, so the order is stable */
      for (PetscInt i = 0; i < nw; i++) key[i] = ((PetscInt64)(maxlen - len[lo + i]) << 32) | (PetscInt64)(lo + i);
      PetscCall(PetscSortInt64(nw, key));
      for (PetscInt i = 0; i < nw; i++) {
        perm[lo + i] = (int)(key[i] & 0xffffffff);
        L[lo + i]    = len[perm[lo + i]];
      }
    }
    PetscCall(PetscFree(key));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the slice height C and window sigma of the next build (see the top of the file) */
static PetscErrorCode SlicedChooseLayout(Sliced *sl, PetscInt m, const PetscInt *len, PetscInt *C, PetscInt *sigma)
{
  const double budget = SLICED_MAX_BYTES_RATIO * ((double)(sizeof(PetscScalar) + sizeof(int)) * (double)sl->entries + (double)sizeof(int) * (double)(m + 1));
  PetscInt     cand[11], nc = 0, fit[11] = {0}, bestC = 1, bestsigma = 1, c;
  PetscInt64   best = INT64_MAX, b;

  PetscFunctionBegin;
  if (!sl->C_option && sl->sigma_option <= 1 && m <= ELLG_THREADS_SMALL && SlicedPadsRows(m, len, SLICED_DEFAULT_C)) {
    *C     = 1;
    *sigma = 1;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (sl->C_option) cand[nc++] = sl->C_option;
  else
    for (c = SLICED_DEFAULT_C; c >= 1; c /= 2)
      if (sl->sigma_option <= 1 || sl->sigma_option % c == 0) cand[nc++] = c;
  if (sl->sigma_option) {
    PetscInt *L = (PetscInt *)len;
    int      *perm;

    if (sl->sigma_option > 1) {
      PetscCall(PetscMalloc2(m, &L, m, &perm));
      PetscCall(SlicedSortRows(m, sl->sigma_option, len, perm, L));
    }
    for (c = 0; c < nc; c++) {
      b = SlicedBytes(m, L, cand[c], (PetscBool)(sl->sigma_option > 1));
      if (b < best) {
        best      = b;
        bestC     = cand[c];
        bestsigma = sl->sigma_option;
      }
      if ((double)b <= budget) {
        fit[c] = sl->sigma_option;
        break;
      }
    }
    if (sl->sigma_option > 1) PetscCall(PetscFree2(L, perm));
  } else {
    /* sigma = 1, then the powers of two from 2C up, each level of a bottom-up merge sort of the
       lengths (windows of 2R rows sorted from those of R), until the preferred C fits; windows of at
       least SLICED_COUNT_ROWS times the number of lengths are weighed by counting the lengths in each window (the
       counts of a level are the sums of pairs of the last level's) instead of sorting them */
    PetscInt  *L[2] = {NULL, NULL}, cur = 0, maxlen = 0, *hist = NULL, nw = 0;
    PetscInt64 slots[11];
    PetscBool  want[11];

    for (c = 0; c < nc && !fit[0]; c++) {
      b = SlicedBytes(m, len, cand[c], PETSC_FALSE);
      if (b < best) {
        best      = b;
        bestC     = cand[c];
        bestsigma = 1;
      }
      if ((double)b <= budget) fit[c] = 1;
    }
    if (!fit[0] && m > 1 && cand[0] > 1) {
      for (PetscInt i = 0; i < m; i++) maxlen = PetscMax(maxlen, len[i]);
      for (PetscInt64 R = 1; R < m && !fit[0]; R *= 2) {
        const PetscBool counted = (PetscBool)(2 * R >= SLICED_COUNT_ROWS * (maxlen + 1));

        for (c = 0; c < nc; c++) want[c] = (PetscBool)(!fit[c] && cand[c] > 1 && R >= cand[c]);
        if (counted) { /* the first counted level counts the rows of its windows; the next ones add pairs of windows */
          if (!hist) {
            nw = (PetscInt)((m + 2 * R - 1) / (2 * R));
            PetscCall(PetscMalloc1(nw * (maxlen + 1), &hist));
            SlicedCountLengths(m, len, ELLGFormatLog2(2 * R), maxlen, hist);
          } else {
            SlicedMergeCounts(nw, maxlen, hist);
            nw = (nw + 1) / 2;
          }
          SlicedSortedSlots(nw, hist, maxlen, nc, cand, want, slots);
        } else {
          if (!L[0]) {
            PetscCall(PetscMalloc2(m, &L[0], m, &L[1]));
            PetscCall(PetscArraycpy(L[0], len, m));
          }
          SlicedMergePass(m, R, L[cur], L[1 - cur]);
          cur = 1 - cur;
        }
        for (c = 0; c < nc; c++) {
          /* windows of 2R >= 2C rows; the last level sorts the whole matrix: sigma = m rounded up to C */
          const PetscInt sigma = (PetscInt)PetscMin(2 * R, (m + cand[c] - 1) / cand[c] * cand[c]);

          if (!want[c]) continue;
          b = counted ? SlicedLayoutBytes(m, cand[c], slots[c], PETSC_TRUE) : SlicedBytes(m, L[cur], cand[c], PETSC_TRUE);
          if (b < best) {
            best      = b;
            bestC     = cand[c];
            bestsigma = sigma;
          }
          if ((double)b <= budget) fit[c] = sigma;
        }
      }
      PetscCall(PetscFree(hist));
      if (L[0]) PetscCall(PetscFree2(L[0], L[1]));
    }
  }
  for (c = 0; c < nc; c++)
    if (fit[c]) break;
  if (c < nc) {
    *C     = cand[c];
    *sigma = fit[c];
  } else {
    *C     = bestC;
    *sigma = bestsigma;
    PetscCall(PetscInfo(NULL, "slicedell: with -mat_slicedell_slice_height %" PetscInt_FMT " and -mat_slicedell_sigma %" PetscInt_FMT " (0: automatic) no layout stays within %g times the CSR bytes; the smallest, C %" PetscInt_FMT " and sigma %" PetscInt_FMT ", takes %.3f times\n", sl->C_option,
                         sl->sigma_option, SLICED_MAX_BYTES_RATIO, *C, *sigma, budget > 0 ? SLICED_MAX_BYTES_RATIO * (double)best / budget : 1.0));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the ns slices (host slice starts sp) grouped by signature (open addressing over a table of at least twice the slices,
   a power of two): idx[s] where slice s's block starts, reps[] the first slice of each group (*nrep), *nrel the
   groups' slots; stops once those exceed max */
static PetscErrorCode SlicedGroupSignatures(PetscInt ns, const int *sp, const unsigned long long *sig, PetscInt64 max, int *idx, int *reps, PetscInt *nrep, PetscInt64 *nrel)
{
  size_t              nt = 2;
  unsigned long long *key;
  int                *rep;

  PetscFunctionBegin;
  while (nt < 2 * (size_t)ns) nt *= 2;
  PetscCall(PetscMalloc2(nt, &key, nt, &rep));
  for (size_t t = 0; t < nt; t++) rep[t] = -1;
  *nrep = 0;
  *nrel = 0;
  for (PetscInt s = 0; s < ns && *nrel <= max; s++) {
    size_t t = (size_t)(sig[s] & (nt - 1));

    while (rep[t] >= 0 && key[t] != sig[s]) t = (t + 1) & (nt - 1);
    if (rep[t] < 0) {
      key[t]          = sig[s];
      rep[t]          = (int)s;
      idx[s]          = (int)*nrel;
      reps[(*nrep)++] = (int)s;
      *nrel += (PetscInt64)(sp[s + 1] - sp[s]);
    } else idx[s] = idx[rep[t]];
  }
  PetscCall(PetscFree2(key, rep));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the signatures and offset range of the slices (SlicedCudaSignatures()) on the backend */
static PetscErrorCode SlicedSignatures(ELLGFormat fmt, const ELLGCSR *csr, unsigned long long *dsig, int *dmm)
{
  Sliced *sl = (Sliced *)fmt->data;

  PetscFunctionBegin;
  PetscELLGBackendCall(fmt->backend, SlicedHostSignatures, SlicedCudaSignatures, (&sl->a, csr->rowptr, csr->rowlen, csr->col, dsig, dmm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the shared blocks from the slices dreps[], then every slice checked against its block (*dbad) on the backend */
static PetscErrorCode SlicedPackAndCheckShared(ELLGFormat fmt, const ELLGCSR *csr, int nrep, const int *dreps, int *dbad)
{
  Sliced *sl = (Sliced *)fmt->data;

  PetscFunctionBegin;
  PetscELLGBackendCall(fmt->backend, SlicedHostPackShared, SlicedCudaPackShared, (&sl->a, nrep, dreps, csr->rowptr, csr->rowlen, csr->col));
  PetscELLGBackendCall(fmt->backend, SlicedHostCheckShared, SlicedCudaCheckShared, (&sl->a, csr->rowptr, csr->rowlen, csr->col, dbad));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the shared blocks of offsets, in 16 bits with compact: written from the groups' first slices (reps, on the backend),
   then every slice checked against its block; *shared false when a signature was shared by different blocks */
static PetscErrorCode SlicedStoreShared(ELLGFormat fmt, const ELLGCSR *csr, const int *idx, PetscInt nrep, const int *reps, PetscInt64 nrel, PetscBool compact, PetscBool *shared)
{
  Sliced        *sl = (Sliced *)fmt->data;
  SlicedArrays  *a  = &sl->a;
  int           *dreps = NULL, *dbad = NULL, bad = 0;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(PetscELLGMalloc(fmt->backend, sizeof(int) * (size_t)a->nslices, (void **)&a->idx_ptr));
  PetscCall(PetscELLGMemcpy(fmt->backend, a->idx_ptr, idx, sizeof(int) * (size_t)a->nslices, ELLG_MEMCPY_HTOD));
  if (compact) PetscCall(PetscELLGMalloc(fmt->backend, sizeof(short) * (size_t)PetscMax(nrel, 1), (void **)&a->off));
  else PetscCall(PetscELLGMalloc(fmt->backend, sizeof(int) * (size_t)PetscMax(nrel, 1), (void **)&a->rel));
  ierr = PetscELLGMalloc(fmt->backend, sizeof(int) * (size_t)PetscMax(nrep, 1), (void **)&dreps);
  if (!ierr) ierr = PetscELLGMalloc(fmt->backend, sizeof(int), (void **)&dbad);
  if (!ierr) ierr = PetscELLGMemcpy(fmt->backend, dreps, reps, sizeof(int) * (size_t)nrep, ELLG_MEMCPY_HTOD);
  if (!ierr) ierr = PetscELLGMemcpy(fmt->backend, dbad, &bad, sizeof(int), ELLG_MEMCPY_HTOD);
  if (!ierr) ierr = SlicedPackAndCheckShared(fmt, csr, (int)nrep, dreps, dbad);
  if (!ierr) ierr = PetscELLGMemcpy(fmt->backend, &bad, dbad, sizeof(int), ELLG_MEMCPY_DTOH);
  PetscCall(PetscELLGFree(fmt->backend, dreps));
  PetscCall(PetscELLGFree(fmt->backend, dbad));
  PetscCall(ierr);
  *shared = (PetscBool)!bad;
  if (bad) { /* each slice its own columns after all */
    PetscCall(PetscInfo(NULL, "slicedell: two slices with different column offsets have the same signature: the slices keep their own columns\n"));
    PetscCall(PetscELLGFree(fmt->backend, a->idx_ptr));
    PetscCall(PetscELLGFree(fmt->backend, a->off));
    PetscCall(PetscELLGFree(fmt->backend, a->rel));
    a->idx_ptr = a->rel = NULL;
    a->off              = NULL;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* shared column offsets, where the distinct blocks hold at most SLICED_SHARED_MAX of the slots (sp: the host slice
   starts); *fits16: every offset, padding included, fits 16 bits (the signatures' pass finds it) */
static PetscErrorCode SlicedShareColumns(ELLGFormat fmt, const ELLGCSR *csr, const int *sp, PetscBool *shared, PetscBool *fits16)
{
  Sliced             *sl = (Sliced *)fmt->data;
  SlicedArrays       *a  = &sl->a;
  const PetscInt      ns = a->nslices;
  unsigned long long *dsig = NULL, *sig;
  int                *dmm  = NULL, mm[2] = {INT_MAX, INT_MIN}, *idx, *reps;
  PetscInt            nrep = 0;
  PetscInt64          nrel = 0;
  PetscErrorCode      ierr;

  PetscFunctionBegin;
  *shared = PETSC_FALSE;
  *fits16 = (PetscBool)!ns; /* no slice, no offset */
  if (!ns) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscMalloc3(ns, &sig, ns, &idx, ns, &reps));
  ierr = PetscELLGMalloc(fmt->backend, sizeof(unsigned long long) * (size_t)ns, (void **)&dsig);
  if (!ierr) ierr = PetscELLGMalloc(fmt->backend, sizeof(mm), (void **)&dmm);
  if (!ierr) ierr = PetscELLGMemset(fmt->backend, dsig, 0, sizeof(unsigned long long) * (size_t)ns);
  if (!ierr) ierr = PetscELLGMemcpy(fmt->backend, dmm, mm, sizeof(mm), ELLG_MEMCPY_HTOD);
  if (!ierr) ierr = SlicedSignatures(fmt, csr, dsig, dmm);
  if (!ierr) ierr = PetscELLGMemcpy(fmt->backend, sig, dsig, sizeof(unsigned long long) * (size_t)ns, ELLG_MEMCPY_DTOH);
  if (!ierr) ierr = PetscELLGMemcpy(fmt->backend, mm, dmm, sizeof(mm), ELLG_MEMCPY_DTOH);
  PetscCall(PetscELLGFree(fmt->backend, dsig));
  PetscCall(PetscELLGFree(fmt->backend, dmm));
  if (!ierr) ierr = SlicedGroupSignatures(ns, sp, sig, (PetscInt64)(SLICED_SHARED_MAX * (double)sl->stored), idx, reps, &nrep, &nrel);
  *fits16 = (PetscBool)(mm[0] >= SHRT_MIN && mm[1] <= SHRT_MAX);
  if (!ierr && (double)nrel <= SLICED_SHARED_MAX * (double)sl->stored) ierr = SlicedStoreShared(fmt, csr, idx, nrep, reps, nrel, (PetscBool)(fmt->kernel.compact_indices && *fits16), shared);
  PetscCall(PetscFree3(sig, idx, reps));
  PetscCall(ierr);
  sl->nblocks      = *shared ? nrep : 0;
  sl->shared_slots = *shared ? nrel : 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the build, with its host work arrays (freed by the caller, also when the build fails) */
static PetscErrorCode SlicedBuildWith(ELLGFormat fmt, const ELLGCSR *csr, PetscInt **pL, int **psorted, int **psp)
{
  Sliced        *sl = (Sliced *)fmt->data;
  const PetscInt m  = csr->m;
  PetscInt       C = 1, sigma = 1, nslices, logC, *L = NULL;
  int           *sorted = NULL, *perm = NULL, *sp;
  PetscInt64     stored = 0, w2 = 0;
  PetscBool      shared = PETSC_FALSE, fits16 = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCheck(m <= PETSC_MAX_INT - 1024, PETSC_COMM_SELF, PETSC_ERR_SUP, "slicedell: %" PetscInt_FMT " rows exceed 32-bit indices", m);
  sl->entries = 0;
  for (PetscInt i = 0; i < m; i++) sl->entries += csr->len[i];
  PetscCall(SlicedChooseLayout(sl, m, csr->len, &C, &sigma));
  logC = ELLGFormatLog2(C);
  nslices = (m + C - 1) / C;
  if (sigma > 1) {
    PetscBool identity = PETSC_TRUE;

    PetscCall(PetscMalloc2(m, pL, m, psorted));
    L      = *pL;
    sorted = *psorted;
    PetscCall(SlicedSortRows(m, sigma, csr->len, sorted, L));
    for (PetscInt r = 0; r < m && identity; r++) identity = (PetscBool)(sorted[r] == r);
    if (!identity) perm = sorted; /* else the order needs no permutation */
  }
  PetscCall(PetscMalloc1(nslices + 1, psp));
  sp = *psp;
  sp[0]        = 0;
  sl->maxwidth = 0;
  for (PetscInt s = 0; s < nslices; s++) {
    const PetscInt *ls = (L ? L : csr->len) + s * C;
    PetscInt        w  = 0;

    for (PetscInt l = 0; l < PetscMin(C, m - s * C); l++) w = PetscMax(w, ls[l]);
    sl->maxwidth = PetscMax(sl->maxwidth, w);
    stored += (PetscInt64)C * w;
    w2 += (PetscInt64)w * w;
    PetscCheck(stored <= PETSC_MAX_INT, PETSC_COMM_SELF, PETSC_ERR_SUP, "slicedell: slice height %" PetscInt_FMT " and sigma %" PetscInt_FMT " pad the matrix to more than 2^31 entries (32-bit indices); choose other -mat_slicedell_slice_height/-mat_slicedell_sigma", C, sigma);
    sp[s + 1] = (int)stored;
  }
  sl->C                  = C;
  sl->sigma              = sigma;
  sl->C_built_option     = sl->C_option;
  sl->sigma_built_option = sl->sigma_option;
  sl->stored             = stored;
  sl->meanwidth          = nslices ? (double)stored / ((double)C * (double)nslices) : 0.0;
  sl->workwidth          = stored ? (double)C * (double)w2 / (double)stored : 0.0;
  sl->a.m       = (int)m;
  sl->a.n       = (int)csr->n;
  sl->a.C       = (int)C;
  sl->a.logC    = (int)logC;
  sl->a.nslices = (int)nslices;
  SlicedChooseParameters(fmt);
  PetscCall(PetscELLGMalloc(fmt->backend, sizeof(int) * (nslices + 1), (void **)&sl->a.slice_ptr));
  PetscCall(PetscELLGMemcpy(fmt->backend, sl->a.slice_ptr, sp, sizeof(int) * (nslices + 1), ELLG_MEMCPY_HTOD));
  if (perm) {
    PetscCall(PetscELLGMalloc(fmt->backend, sizeof(int) * m, (void **)&sl->a.perm));
    PetscCall(PetscELLGMemcpy(fmt->backend, sl->a.perm, perm, sizeof(int) * m, ELLG_MEMCPY_HTOD));
  }
  if (sl->shared_option) PetscCall(SlicedShareColumns(fmt, csr, sp, &shared, &fits16));
  if (!shared) {
    if (fmt->kernel.compact_indices && (sl->shared_option ? fits16 : ELLGFormatCompactIndices(csr))) PetscCall(PetscELLGMalloc(fmt->backend, sizeof(short) * (size_t)stored, (void **)&sl->a.off));
    else PetscCall(PetscELLGMalloc(fmt->backend, sizeof(int) * (size_t)stored, (void **)&sl->a.col));
  }
  PetscCall(ELLGFormatMallocValues(fmt, (size_t)stored, &sl->a.val, &sl->a.sval));
  PetscELLGBackendCall(fmt->backend, SlicedHostPack, SlicedCudaPack, (&sl->a, csr->rowptr, csr->rowlen, shared ? NULL : csr->col, csr->val));
  fmt->bytes = (sl->a.off ? sizeof(short) : sizeof(int)) * (size_t)(shared ? sl->shared_slots : stored) + (shared ? sizeof(int) * (size_t)nslices : 0) + ELLGFormatValueSize(fmt) * (size_t)stored + sizeof(int) * (size_t)(nslices + 1) + (perm ? sizeof(int) * (size_t)m : 0);
  {
    const double csrbytes = (double)(ELLGFormatValueSize(fmt) + sizeof(int)) * (double)sl->entries + (double)sizeof(int) * (double)(m + 1);

    PetscCall(PetscInfo(NULL, "slicedell: C %" PetscInt_FMT ", sigma %" PetscInt_FMT "%s, %" PetscInt_FMT " slices, %" PetscInt64_FMT " slots for %" PetscInt64_FMT " entries: %.3f x the CSR bytes of those entries\n", C, sigma, sigma > 1 && !sl->a.perm ? " (order unchanged, no permutation)" : "", nslices, stored, sl->entries,
                         csrbytes > 0 ? (double)fmt->bytes / csrbytes : 1.0));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SlicedBuild(ELLGFormat fmt, const ELLGCSR *csr)
{
  PetscInt      *L      = NULL;
  int           *sorted = NULL, *sp = NULL;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  ierr = SlicedBuildWith(fmt, csr, &L, &sorted, &sp); /* a failed build leaves its device arrays to ELLGFormatBuild() */
  PetscCall(PetscFree(sp));
  if (L) PetscCall(PetscFree2(L, sorted));
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* values only: the structure, order and padding of the last build are kept */
static PetscErrorCode SlicedUpdateValues(ELLGFormat fmt, const ELLGCSR *csr)
{
  Sliced *sl = (Sliced *)fmt->data;

  PetscFunctionBegin;
  PetscELLGBackendCall(fmt->backend, SlicedHostPack, SlicedCudaPack, (&sl->a, csr->rowptr, csr->rowlen, NULL, csr->val));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SlicedMult(ELLGFormat fmt, const PetscScalar *x, const PetscScalar *z, PetscScalar *y)
{
  Sliced *sl = (Sliced *)fmt->data;

  PetscFunctionBegin;
  PetscELLGBackendCall(fmt->backend, SlicedHostMult, SlicedCudaMult, (&sl->a, (int)sl->T, (int)sl->bs, x, z, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SlicedSpMM(ELLGFormat fmt, const ELLGSpMMArgs *a)
{
  Sliced *sl = (Sliced *)fmt->data;
  const int lc = ELLGSpMMColumns(fmt->spmm_columns, (PetscInt64)sl->a.m * sl->T, a->ncols);

  PetscFunctionBegin;
  PetscELLGBackendCall(fmt->backend, SlicedHostSpMM, SlicedCudaSpMM, (&sl->a, (int)sl->T, (int)sl->bs, lc, a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SlicedMultTransposeAdd(ELLGFormat fmt, const PetscScalar *x, PetscScalar *y)
{
  Sliced *sl = (Sliced *)fmt->data;

  PetscFunctionBegin;
  PetscELLGBackendCall(fmt->backend, SlicedHostMultTransposeAdd, SlicedCudaMultTransposeAdd, (&sl->a, (int)sl->bs, x, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SlicedGetDiagonal(ELLGFormat fmt, PetscScalar *d)
{
  Sliced *sl = (Sliced *)fmt->data;

  PetscFunctionBegin;
  PetscELLGBackendCall(fmt->backend, SlicedHostGetDiagonal, SlicedCudaGetDiagonal, (&sl->a, (int)sl->bs, d));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SlicedView(ELLGFormat fmt, PetscViewer viewer)
{
  Sliced *sl = (Sliced *)fmt->data;
  char    order[96];

  PetscFunctionBegin;
  if (sl->sigma <= 1) PetscCall(PetscSNPrintf(order, sizeof(order), "rows not sorted"));
  else if (!sl->a.perm) PetscCall(PetscSNPrintf(order, sizeof(order), "sorting leaves the rows in order: no permutation stored"));
  else if (sl->sigma >= fmt->mstored) PetscCall(PetscSNPrintf(order, sizeof(order), "rows sorted by length over the whole matrix"));
  else PetscCall(PetscSNPrintf(order, sizeof(order), "rows sorted by length within windows of %" PetscInt_FMT, sl->sigma));
  PetscCall(PetscViewerASCIIPrintf(viewer, "SELL-C-sigma: slice height C %" PetscInt_FMT "%s, sigma %" PetscInt_FMT "%s (%s)\n", sl->C, sl->C_built_option ? "" : " (automatic)", sl->sigma, sl->sigma_built_option ? "" : " (automatic)", order));
  if (sl->C_option != sl->C_built_option || sl->sigma_option != sl->sigma_built_option)
    PetscCall(PetscViewerASCIIPrintf(viewer, "(options since the build: slice height %" PetscInt_FMT ", sigma %" PetscInt_FMT ", 0 = automatic; they apply when the matrix is next built)\n", sl->C_option, sl->sigma_option));
  PetscCall(PetscViewerASCIIPrintf(viewer, "slices %d, width mean %.3g max %" PetscInt_FMT ", stored entries %" PetscInt64_FMT " for %" PetscInt64_FMT " (padding ratio %.3f)\n", sl->a.nslices, sl->meanwidth, sl->maxwidth, sl->stored, sl->entries, sl->entries ? (double)sl->stored / (double)sl->entries : 1.0));
  if (sl->a.idx_ptr)
    PetscCall(PetscViewerASCIIPrintf(viewer, "column indices: %s offsets from the row in %" PetscInt_FMT " blocks that the %d slices share (%.3g of the slots)\n", sl->a.off ? "16-bit" : "32-bit", sl->nblocks, sl->a.nslices, sl->stored ? (double)sl->shared_slots / (double)sl->stored : 0.0));
  else {
    PetscCall(ELLGFormatViewCompactIndices(fmt, viewer, (PetscBool)!!sl->a.off));
    if (!sl->shared_option) PetscCall(PetscViewerASCIIPrintf(viewer, "column indices: not shared between slices (-mat_slicedell_shared_indices false)\n"));
  }
  PetscCall(PetscViewerASCIIPrintf(viewer, "kernel: %" PetscInt_FMT " threads per row%s, %" PetscInt_FMT " threads per block%s (entry-weighted slice width %.3g)\n", sl->T, fmt->kernel.threads_per_row ? "" : " (automatic)", sl->bs, fmt->kernel.block_size ? "" : " (automatic)", sl->workwidth));
  PetscFunctionReturn(PETSC_SUCCESS);
}

const ELLGFormatOps ELLGFormatOps_SlicedELL = {
  .name             = "slicedell",
  .title            = "Sliced ELL (SELL-C-sigma) format options",
  .kernel           = ELLG_KERNEL_THREADS_PER_ROW | ELLG_KERNEL_BLOCK_SIZE | ELLG_KERNEL_COMPACT_INDICES,
  .longrowthreads   = SlicedThreadsPerRow, /* the rows' entry-weighted mean length is at most the slices' */
  .create           = SlicedCreate,
  .setfromoptions   = SlicedSetFromOptions,
  .parameters       = SlicedChooseParameters,
  .build            = SlicedBuild,
  .updatevalues     = SlicedUpdateValues,
  .mult             = SlicedMult,
  .multtransposeadd = SlicedMultTransposeAdd,
  .getdiagonal      = SlicedGetDiagonal,
  .spmm             = SlicedSpMM,
  .copyparameters   = SlicedCopyParameters,
  .sameparameters   = SlicedSameParameters,
  .view             = SlicedView,
  .reset            = SlicedReset,
  .destroy          = SlicedDestroy,
};
