/* Which rows of a format are long: the threshold of each build and the split (ellglongrowsrule.h) */
#include <ellglongrowsrule.h>

/* Rows longer than 16 times the mean row length and than 128 are long by default: one thread
   (or a few) on such a row would make a whole warp wait, and padding to it would waste memory. A format
   that pads blocks of rows keeps them all when the longest is within ELLG_LONG_ROWS_KEPT entries and
   ELLG_LONG_ROWS_THREAD_KEPT for each of the threads the format gives it. A format that multiplies its
   long rows in the same launch (fused: its default threshold, else 0) splits as it says. */
PetscInt ELLGLongRowsThreshold(ELLGFormat fmt, const ELLGRowStats *rows, PetscInt fused)
{
  if (fmt->long_threshold == -1) return PETSC_MAX_INT;
  if (fmt->long_threshold > 0) return fmt->long_threshold;
  if (fused) return fused;
  if (fmt->ops->longrowthreads && rows->width <= ELLG_LONG_ROWS_KEPT && rows->width <= ELLG_LONG_ROWS_THREAD_KEPT * fmt->ops->longrowthreads(rows->rows, rows->width, (PetscReal)rows->wmean)) return PETSC_MAX_INT;
  return ELLG_LONG_ROWS_DEFAULT(ELLGLongRowsMean(rows));
}

/* The threshold of a format whose thread blocks of long rows' chunks take the place of blocks of its other rows
   (pjds): the least of 64, 128 and 256 entries whose blocks (one per row of up to LONGROWS_CHUNK entries) fit in
   the threads the GPU runs at once, else ELLG_LONG_ROWS_FUSED and ELLG_LONG_ROWS_FUSED_MEAN times the mean */
PetscInt ELLGLongRowsBlockThreshold(ELLGFormat fmt, PetscInt m, const PetscInt *ai, const ELLGRowStats *rows)
{
  PetscInt64 over[3] = {0, 0, 0}; /* rows longer than 64, 128, 256 */

  for (PetscInt i = 0; i < m; i++)
    for (PetscInt k = 0; k < 3; k++) over[k] += ai[i + 1] - ai[i] > (ELLG_LONG_ROWS_FUSED_MIN << k);
  for (PetscInt k = 0; k < 3; k++)
    if (over[k] * LONGROWS_THREADS <= ELLG_THREADS_RESIDENT) return ELLG_LONG_ROWS_FUSED_MIN << k;
  return PetscMax(ELLG_LONG_ROWS_FUSED, ELLG_LONG_ROWS_FUSED_MEAN * ELLGLongRowsMean(rows));
}

/* the row lengths the format stores (ai: row starts of the stored rows): 0 for the long rows (those longer than the threshold of the
   last build), which are listed in rows[] */
PetscErrorCode ELLGLongRowsSplit(ELLGFormat fmt, const PetscInt *ai, PetscInt *len, PetscInt *nlong, PetscInt **rows)
{
  const PetscInt threshold = fmt->long_applied;

  PetscFunctionBegin;
  *nlong = 0;
  for (PetscInt i = 0; i < fmt->mstored; i++) {
    len[i] = ai[i + 1] - ai[i];
    if (len[i] > threshold) (*nlong)++;
  }
  PetscCall(PetscMalloc1(*nlong, rows));
  *nlong = 0;
  for (PetscInt i = 0; i < fmt->mstored; i++)
    if (len[i] > threshold) {
      (*rows)[(*nlong)++] = i;
      len[i]              = 0;
    }
  PetscFunctionReturn(PETSC_SUCCESS);
}
