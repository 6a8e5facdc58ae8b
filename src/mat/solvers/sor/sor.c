/* Multicolor SOR (ellgsor.h): the coloring and the arrays on the host, the sweeps in the backend */
#include <ellgsor.h>
#include <ellgsweep.h>

struct _n_ELLGSor {
  PetscELLGBackend be;
  PetscBool        single;       /* the values in single precision (bsval), those of a matrix of single-precision values */
  PetscInt         m, nnz, ncolors;
  PetscInt        *coloff;       /* host: the first position of each color, ncolors + 1 */
  int             *perm;         /* host: the row of each position */
  PetscInt        *src, *dsrc;   /* host: the AIJ entry of each stored entry, and of each diagonal (-1: none) */
  PetscScalar     *diag, shift;  /* host: the diagonal by position; the shift of the last sweep */
  PetscBool        dinvcurrent;  /* bdinv is 1 / (diag + shift) */
  int             *bperm, *browptr, *bcolidx; /* backend: the row of each position, CSR by position */
  PetscScalar     *bval, *bdinv;
  float           *bsval;
};

/* colors by greedy coloring of the symmetrized pattern, in row order: each row takes the smallest color
   none of its colored neighbours has */
static PetscErrorCode ELLGSorColor(PetscInt m, const PetscInt *ai, const PetscInt *aj, PetscInt *color, PetscInt *ncolors)
{
  PetscInt *ti, *tj, *ts, *used, n = m;

  PetscFunctionBegin;
  /* the transpose's pattern: the rows that store an entry in column i (of the columns up to the last one stored) */
  for (PetscInt k = 0; k < ai[m]; k++) n = PetscMax(n, aj[k] + 1);
  PetscCall(ELLGCsrTranspose(m, n, ai, aj, NULL, &ti, &tj, &ts));
  PetscCall(PetscMalloc1(m + 1, &used)); /* used[c] == i: a neighbour of row i has color c */
  for (PetscInt c = 0; c <= m; c++) used[c] = -1;
  *ncolors = 0;
  for (PetscInt i = 0; i < m; i++) {
    PetscInt c = 0;

    for (PetscInt k = ai[i]; k < ai[i + 1]; k++)
      if (aj[k] < i) used[color[aj[k]]] = i;
    for (PetscInt k = ti[i]; k < ti[i + 1]; k++)
      if (tj[k] < i) used[color[tj[k]]] = i;
    while (used[c] == i) c++;
    color[i] = c;
    *ncolors = PetscMax(*ncolors, c + 1);
  }
  PetscCall(PetscFree(used));
  PetscCall(PetscFree3(ti, tj, ts));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ELLGSorCreate(PetscELLGBackend be, ELLGSor *sor)
{
  PetscFunctionBegin;
  PetscCall(PetscNew(sor));
  (*sor)->be = be;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ELLGSorReset(ELLGSor s)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(s->coloff));
  PetscCall(PetscFree4(s->perm, s->src, s->dsrc, s->diag));
  PetscCall(PetscELLGFree(s->be, s->bperm));
  PetscCall(PetscELLGFree(s->be, s->browptr));
  PetscCall(PetscELLGFree(s->be, s->bcolidx));
  PetscCall(PetscELLGFree(s->be, s->bval));
  PetscCall(PetscELLGFree(s->be, s->bsval));
  PetscCall(PetscELLGFree(s->be, s->bdinv));
  s->bperm = s->browptr = s->bcolidx = NULL;
  s->bval = s->bdinv = NULL;
  s->bsval           = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* colors of the rows by blocks of bs rows (bs divides m): the blocks colored by the pattern between
   blocks, then the rows of a block of color c take colors c bs, ..., c bs + bs - 1 in their order */
static PetscErrorCode ELLGSorColorBlocks(PetscInt m, PetscInt bs, const PetscInt *ai, const PetscInt *aj, PetscInt *color, PetscInt *ncolors)
{
  const PetscInt mb = m / bs;
  PetscInt      *bi, *bj, *bcolor;

  PetscFunctionBegin;
  if (bs == 1) {
    PetscCall(ELLGSorColor(m, ai, aj, color, ncolors));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  /* the block pattern, with repeats (the coloring does not mind them) */
  PetscCall(PetscMalloc3(mb + 1, &bi, ai[m], &bj, mb, &bcolor));
  for (PetscInt b = 0; b <= mb; b++) bi[b] = ai[b * bs];
  for (PetscInt k = 0; k < ai[m]; k++) bj[k] = aj[k] < m ? aj[k] / bs : mb;
  PetscCall(ELLGSorColor(mb, bi, bj, bcolor, ncolors));
  for (PetscInt i = 0; i < m; i++) color[i] = bcolor[i / bs] * bs + i % bs;
  *ncolors *= bs;
  PetscCall(PetscFree3(bi, bj, bcolor));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ELLGSorBuild - the coloring and the arrays of the square m x m CSR matrix (ai, aj: host, columns may reach
   beyond m for an off-diagonal part: those entries are ignored) with its values aa; rows in blocks of bs
   (a divisor of m, 1 for none) are colored by blocks */
PetscErrorCode ELLGSorBuild(ELLGSor s, PetscBool single, PetscInt m, PetscInt bs, const PetscInt *ai, const PetscInt *aj, const PetscScalar *aa)
{
  PetscInt *color, *count, nnz = 0;
  int      *rowptr, *colidx; /* the backend's indices are int */

  PetscFunctionBegin;
  PetscCheck(bs >= 1 && m % bs == 0, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "Block size %" PetscInt_FMT " does not divide the %" PetscInt_FMT " rows", bs, m);
  PetscCall(ELLGSorReset(s));
  s->single = single;
  s->m      = m;
  for (PetscInt i = 0; i < m; i++)
    for (PetscInt k = ai[i]; k < ai[i + 1]; k++) nnz += (aj[k] != i && aj[k] < m);
  s->nnz = nnz;
  PetscCall(PetscMalloc4(m, &s->perm, nnz, &s->src, m, &s->dsrc, m, &s->diag));
  PetscCall(PetscMalloc1(m, &color));
  PetscCall(ELLGSorColorBlocks(m, bs, ai, aj, color, &s->ncolors));
  PetscCall(PetscCalloc1(s->ncolors + 1, &count));
  for (PetscInt i = 0; i < m; i++) count[color[i] + 1]++;
  for (PetscInt c = 0; c < s->ncolors; c++) count[c + 1] += count[c];
  PetscCall(PetscMalloc1(s->ncolors + 1, &s->coloff));
  PetscCall(PetscArraycpy(s->coloff, count, s->ncolors + 1));
  for (PetscInt i = 0; i < m; i++) s->perm[count[color[i]]++] = (int)i;
  PetscCall(PetscFree(count));
  PetscCall(PetscFree(color));
  PetscCall(PetscMalloc2(m + 1, &rowptr, nnz, &colidx));
  rowptr[0] = 0;
  for (PetscInt p = 0, q = 0; p < m; p++) {
    const PetscInt i = s->perm[p];

    s->dsrc[p] = -1;
    for (PetscInt k = ai[i]; k < ai[i + 1]; k++) {
      if (aj[k] == i) s->dsrc[p] = k;
      else if (aj[k] < m) {
        colidx[q]   = (int)aj[k];
        s->src[q++] = k;
      }
    }
    rowptr[p + 1] = (int)q;
  }
  PetscCall(PetscELLGMalloc(s->be, sizeof(int) * m, (void **)&s->bperm));
  PetscCall(PetscELLGMalloc(s->be, sizeof(int) * (m + 1), (void **)&s->browptr));
  PetscCall(PetscELLGMalloc(s->be, sizeof(int) * nnz, (void **)&s->bcolidx));
  if (s->single) PetscCall(PetscELLGMalloc(s->be, sizeof(float) * nnz, (void **)&s->bsval));
  else PetscCall(PetscELLGMalloc(s->be, sizeof(PetscScalar) * nnz, (void **)&s->bval));
  PetscCall(PetscELLGMalloc(s->be, sizeof(PetscScalar) * m, (void **)&s->bdinv));
  PetscCall(PetscELLGMemcpy(s->be, s->bperm, s->perm, sizeof(int) * m, ELLG_MEMCPY_HTOD));
  PetscCall(PetscELLGMemcpy(s->be, s->browptr, rowptr, sizeof(int) * (m + 1), ELLG_MEMCPY_HTOD));
  PetscCall(PetscELLGMemcpy(s->be, s->bcolidx, colidx, sizeof(int) * nnz, ELLG_MEMCPY_HTOD));
  PetscCall(PetscFree2(rowptr, colidx));
  PetscCall(ELLGSorSetValues(s, aa));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ELLGSorSetValues - new values aa of the AIJ matrix, in the pattern of the build (rounded to single precision for a
   single-precision SOR, which refuses values beyond its range) */
PetscErrorCode ELLGSorSetValues(ELLGSor s, const PetscScalar *aa)
{
  PetscScalar   *val;
  float         *sval = NULL;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(s->nnz, &val));
  for (PetscInt k = 0; k < s->nnz; k++) val[k] = aa[s->src[k]];
  if (s->single) { /* rounded on the host, where the values are; a value beyond the range frees what it took */
    ierr = PetscMalloc1(s->nnz, &sval);
    if (!ierr) ierr = PetscELLGToSingle(PETSCELLG_BACKEND_HOST, s->nnz, val, sval);
    if (!ierr) ierr = PetscELLGMemcpy(s->be, s->bsval, sval, sizeof(float) * s->nnz, ELLG_MEMCPY_HTOD);
  } else ierr = PetscELLGMemcpy(s->be, s->bval, val, sizeof(PetscScalar) * s->nnz, ELLG_MEMCPY_HTOD);
  PetscCall(PetscFree(val));
  PetscCall(PetscFree(sval));
  PetscCall(ierr);
  for (PetscInt p = 0; p < s->m; p++) s->diag[p] = s->dsrc[p] >= 0 ? aa[s->dsrc[p]] : 0.0;
  s->dinvcurrent = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ELLGSorSetShift - 1 / (diagonal + shift) in the backend; a zero is PETSc's error of a zero diagonal. ELLGSorApply()
   calls it; a caller calls it first to fail before it takes the vectors' arrays or begins a log event */
PetscErrorCode ELLGSorSetShift(ELLGSor s, PetscReal shift)
{
  PetscScalar *dinv;

  PetscFunctionBegin;
  if (s->dinvcurrent && s->shift == shift) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt p = 0; p < s->m; p++) PetscCheck(s->diag[p] + shift != 0.0, PETSC_COMM_SELF, PETSC_ERR_MAT_LU_ZRPVT, "Zero diagonal on row %d (with shift %g): SOR divides by it", s->perm[p], (double)shift);
  PetscCall(PetscMalloc1(s->m, &dinv));
  for (PetscInt p = 0; p < s->m; p++) dinv[p] = 1.0 / (s->diag[p] + shift);
  PetscCall(PetscELLGMemcpy(s->be, s->bdinv, dinv, sizeof(PetscScalar) * s->m, ELLG_MEMCPY_HTOD));
  PetscCall(PetscFree(dinv));
  s->shift       = shift;
  s->dinvcurrent = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   ELLGSorApply - sweeps of SOR with b and x in the backend's memory: flag as MatSOR() (forward, backward,
   symmetric, local or not, with SOR_ZERO_INITIAL_GUESS; not SOR_EISENSTAT, SOR_APPLY_UPPER, SOR_APPLY_LOWER,
   which the caller takes elsewhere), each of the sweeps a forward and/or backward sweep
*/
PetscErrorCode ELLGSorApply(ELLGSor s, const PetscScalar *b, PetscReal omega, MatSORType flag, PetscReal shift, PetscInt sweeps, PetscScalar *x)
{
  const PetscBool forward  = (PetscBool)((flag & (SOR_FORWARD_SWEEP | SOR_LOCAL_FORWARD_SWEEP)) != 0);
  const PetscBool backward = (PetscBool)((flag & (SOR_BACKWARD_SWEEP | SOR_LOCAL_BACKWARD_SWEEP)) != 0);

  PetscFunctionBegin;
  PetscCheck(!(flag & (SOR_EISENSTAT | SOR_APPLY_UPPER | SOR_APPLY_LOWER)), PETSC_COMM_SELF, PETSC_ERR_SUP, "Multicolor SOR does not apply Eisenstat's trick or the triangles");
  PetscCall(ELLGSorSetShift(s, shift));
  PetscCall(PetscELLGLogGpuTimeBegin(s->be));
  if (flag & SOR_ZERO_INITIAL_GUESS) PetscCall(PetscELLGMemset(s->be, x, 0, sizeof(PetscScalar) * s->m));
  for (PetscInt it = 0; it < sweeps; it++) {
    for (PetscInt dir = 0; dir < 2; dir++) {
      if (!(dir ? backward : forward)) continue;
      for (PetscInt k = 0; k < s->ncolors; k++) {
        const PetscInt c = dir ? s->ncolors - 1 - k : k, off = s->coloff[c];

        PetscELLGBackendCall(s->be, ELLGHostSweepRows, ELLGCudaSweepRows, (NULL, (int)(s->coloff[c + 1] - off), s->bperm + off, s->browptr + off, s->bcolidx, s->bval, s->bsval, s->bdinv + off, (double)omega, b, x, x));
      }
    }
  }
  PetscCall(PetscELLGLogGpuTimeEnd(s->be));
  PetscCall(PetscELLGLogFlops(s->be, (forward + backward) * sweeps * 2.0 * (s->nnz + s->m)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ELLGSorGetInfo - the number of colors and the backend memory held */
PetscErrorCode ELLGSorGetInfo(ELLGSor s, PetscInt *ncolors, size_t *bytes)
{
  PetscFunctionBegin;
  if (ncolors) *ncolors = s->ncolors;
  if (bytes) *bytes = sizeof(int) * (size_t)(2 * s->m + 1 + s->nnz) + (s->single ? sizeof(float) : sizeof(PetscScalar)) * (size_t)s->nnz + sizeof(PetscScalar) * (size_t)s->m;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ELLGSorDestroy(ELLGSor *s)
{
  PetscFunctionBegin;
  if (!*s) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(ELLGSorReset(*s));
  PetscCall(PetscFree(*s));
  PetscFunctionReturn(PETSC_SUCCESS);
}
