/*
   MATSOLVERELLG: the LU, ILU, Cholesky and ICC factors of our seq types, the default ones. The symbolic
   factorizations are SeqAIJ's, on the host. The numeric ILU and ICC factorizations run in the backend's memory
   (ellgilu.h), the triangles solved on the factor's own arrays there; LU and Cholesky, a pivot that PETSc's shifts or
   zero pivot check would act on, and -pc_factor_mat_factor_on_host take SeqAIJ's numeric factorization on the host,
   whose triangles (ellgtri.h) then take its values in the backend's memory. MatSolve() and its variants run there.

   ILU(0) in the natural ordering of a matrix with every diagonal entry, factored in the backend's memory, takes its
   pattern from the matrix, and SeqAIJ's symbolic factorization (the factor's host structure: a copy of the pattern
   in the layout below) is left until something reads that structure: a view, a numeric factorization on the host
   (a pivot PETSc's checks act on); MatGetInfo() tells what it would (as aijcusparse, which skips it too).

   The factor keeps SeqAIJ's layout (LU, ILU: a SeqAIJ matrix; Cholesky, ICC: a SeqSBAIJ one), read through
   MatGetRowIJ() and the value arrays:
   - LU: row i of L (unit diagonal) is ai[i] .. ai[i+1]; U's rows follow, from row n-1 down to row 0, each
     its entries right of the diagonal then the inverse of its diagonal, whose column index is the row's;
   - Cholesky (A = U^T D U, U of unit diagonal): row k holds -U(k,j), j > k, then 1/D(k).
*/
#include "../aijformat.h"
#include <ellgtri.h>
#include <ellgilu.h>
#include <ellgtrisolve.h>

typedef struct {
  PetscELLGBackend be;
  ELLGTriMethod    method;
  PetscBool        methodset;                   /* method given by -mat_gpu_factor_solve, else chosen at the build */
  PetscInt         sweeps;                      /* of the jacobi method */
  PetscInt         bs;                          /* block size of the matrix factored */
  PetscBool        cholesky;
  IS               row, col;                    /* orderings of the symbolic factorization (Cholesky: the same) */
  int             *r, *c, *rinv, *cinv;         /* them in the backend's memory, NULL for the identity */
  ELLGTri          L, U, Lt, Ut;                /* the solves with L, U; with U^T, L^T (LU: made at their first use) */
  PetscScalar     *work[2];                     /* backend arrays of the factor's order */
  PetscInt         nz;                          /* entries off the diagonal of both triangles */
  Vec              vwork[2], addwork;           /* stand-ins for vectors of other types, MatSolveAdd()'s solution */
  PetscBool        onhost;                      /* -pc_factor_mat_factor_on_host: SeqAIJ's numeric factorization */
  PetscBool        single;                      /* the triangles' values in single precision: those of the matrix factored */
  ELLGILU          ilu;                         /* ILU, ICC: the numeric factorization in the backend's memory */
  PetscObjectState anzstate;                    /* the nonzero state of the matrix whose entries ilu maps */
  PetscBool        mapped;                      /* all of them have their place in ilu's pattern */
  PetscBool        useilu;                      /* the last numeric factorization was ilu's (else SeqAIJ's, in L, U) */
  Mat              lazy;                        /* ILU(0): the matrix whose SeqAIJ symbolic factorization is left until the host reads the factor */
  MatFactorInfo    lazyinfo;                    /* its options */
  PetscObjectState lazynzstate;                 /* its nonzero state then */
  PetscErrorCode (*getinfo)(Mat, MatInfoType, MatInfo *);
  PetscErrorCode (*view)(Mat, PetscViewer);
  PetscErrorCode (*lusymbolic)(Mat, Mat, IS, IS, const MatFactorInfo *);
  PetscErrorCode (*ilusymbolic)(Mat, Mat, IS, IS, const MatFactorInfo *);
  PetscErrorCode (*cholsymbolic)(Mat, Mat, IS, const MatFactorInfo *);
  PetscErrorCode (*iccsymbolic)(Mat, Mat, IS, const MatFactorInfo *);
  PetscErrorCode (*lunumeric)(Mat, Mat, const MatFactorInfo *);
  PetscErrorCode (*cholnumeric)(Mat, Mat, const MatFactorInfo *);
  PetscErrorCode (*destroy)(Mat);
} Mat_FactorELLG;

static PetscErrorCode MatFactorGetSolverType_ELLG(Mat F, MatSolverType *type)
{
  PetscFunctionBegin;
  *type = MATSOLVERELLG;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* frees what a symbolic factorization built: triangles and orderings */
static PetscErrorCode MatFactorELLGReset(Mat F)
{
  Mat_FactorELLG *f = (Mat_FactorELLG *)F->spptr;

  PetscFunctionBegin;
  PetscCall(ELLGTriDestroy(&f->L));
  PetscCall(ELLGTriDestroy(&f->U));
  PetscCall(ELLGTriDestroy(&f->Lt));
  PetscCall(ELLGTriDestroy(&f->Ut));
  PetscCall(ELLGILUDestroy(&f->ilu));
  f->useilu = PETSC_FALSE;
  if (f->lazy) {
    F->ops->getinfo = f->getinfo;
    F->ops->view    = f->view;
    PetscCall(MatDestroy(&f->lazy));
  }
  PetscCall(ISDestroy(&f->row));
  PetscCall(ISDestroy(&f->col));
  PetscCall(PetscELLGFree(f->be, f->r));
  PetscCall(PetscELLGFree(f->be, f->c));
  PetscCall(PetscELLGFree(f->be, f->rinv));
  PetscCall(PetscELLGFree(f->be, f->cinv));
  PetscCall(PetscELLGFree(f->be, f->work[0]));
  PetscCall(PetscELLGFree(f->be, f->work[1]));
  f->r = f->c = f->rinv = f->cinv = NULL;
  f->work[0] = f->work[1] = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatDestroy_FactorELLG(Mat F)
{
  Mat_FactorELLG *f = (Mat_FactorELLG *)F->spptr;

  PetscFunctionBegin;
  PetscCall(MatFactorELLGReset(F));
  PetscCall(VecDestroy(&f->vwork[0]));
  PetscCall(VecDestroy(&f->vwork[1]));
  PetscCall(VecDestroy(&f->addwork));
  F->ops->destroy = f->destroy;
  F->spptr        = NULL;
  PetscCall(PetscObjectComposeFunction((PetscObject)F, "MatFactorGetSolverType_C", NULL));
  PetscCall(PetscFree(f));
  PetscCall((*F->ops->destroy)(F));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the inverse of an ordering on the host (NULL for none or the identity) */
static PetscErrorCode MatFactorELLGInverse(IS is, PetscInt n, PetscInt **inv)
{
  const PetscInt *idx;
  PetscBool       identity = PETSC_TRUE;

  PetscFunctionBegin;
  *inv = NULL;
  if (is) PetscCall(ISIdentity(is, &identity));
  if (identity) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscMalloc1(n, inv));
  PetscCall(ISGetIndices(is, &idx));
  for (PetscInt i = 0; i < n; i++) (*inv)[idx[i]] = i;
  PetscCall(ISRestoreIndices(is, &idx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* an ordering and its inverse as gathers in the backend's memory (NULL for the identity) */
static PetscErrorCode MatFactorELLGOrdering(PetscELLGBackend be, IS is, PetscInt n, int **g, int **ginv)
{
  const PetscInt *idx;
  PetscInt       *inv;
  int            *h;

  PetscFunctionBegin;
  *g = *ginv = NULL;
  PetscCall(MatFactorELLGInverse(is, n, &inv));
  if (!inv) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(ISGetIndices(is, &idx));
  PetscCall(PetscMalloc1(2 * n, &h));
  for (PetscInt i = 0; i < n; i++) {
    h[i]     = (int)idx[i];
    h[n + i] = (int)inv[i];
  }
  PetscCall(ISRestoreIndices(is, &idx));
  PetscCall(PetscFree(inv));
  PetscCall(PetscELLGMalloc(be, (size_t)n * sizeof(int), (void **)g));
  PetscCall(PetscELLGMalloc(be, (size_t)n * sizeof(int), (void **)ginv));
  PetscCall(PetscELLGMemcpy(be, *g, h, (size_t)n * sizeof(int), ELLG_MEMCPY_HTOD));
  PetscCall(PetscELLGMemcpy(be, *ginv, h + n, (size_t)n * sizeof(int), ELLG_MEMCPY_HTOD));
  PetscCall(PetscFree(h));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* rows per group of the level-ordered solves: the matrix's blocks, when the factor keeps its rows in place (the
   rows of a block then read each other: one thread solves them one after the other) */
static inline PetscInt MatFactorELLGGroup(Mat_FactorELLG *f)
{
  return !f->r && !f->c && f->bs > 1 && f->bs <= ELLG_TRI_GROUP_MAX ? f->bs : 1;
}

/* the place of each row's diagonal in an LU factor of nz entries (see the top of the file): U's row r is adiag[r + 1] + 1
   .. adiag[r] - 1, adiag[n] = ai[n] - 1 */
static PetscErrorCode MatFactorELLGDiagLU(PetscInt n, const PetscInt ai[], const PetscInt aj[], PetscInt nz, PetscInt adiag[])
{
  PetscInt p = ai[n];

  PetscFunctionBegin;
  for (PetscInt r = n - 1; r >= 0; r--, p++) { /* U's rows from n - 1 down, each ending at its diagonal */
    while (p < nz && aj[p] != r) p++;
    PetscCheck(p < nz, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Unexpected layout of the LU factor: no diagonal entry in row %" PetscInt_FMT " of U", r);
    adiag[r] = p;
  }
  adiag[n] = ai[n] - 1;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the orderings and work arrays in the backend's memory, once per symbolic factorization */
static PetscErrorCode MatFactorELLGSetUpCommon(Mat F)
{
  Mat_FactorELLG *f = (Mat_FactorELLG *)F->spptr;
  const PetscInt  n = F->rmap->n;

  PetscFunctionBegin;
  if (f->work[0]) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatFactorELLGOrdering(f->be, f->row, n, &f->r, &f->rinv));
  PetscCall(MatFactorELLGOrdering(f->be, f->cholesky ? f->row : f->col, n, &f->c, &f->cinv));
  PetscCall(PetscELLGMalloc(f->be, (size_t)n * sizeof(PetscScalar), (void **)&f->work[0]));
  PetscCall(PetscELLGMalloc(f->be, (size_t)n * sizeof(PetscScalar), (void **)&f->work[1]));
  /* the faster by default (docs/preconditioners.md): our levels when a group holds a block's rows, which cuts the
     levels by the block size, cuSPARSE's SpSV otherwise */
  if (!f->methodset) f->method = MatFactorELLGGroup(f) > 1 ? ELLG_TRI_LEVELS : ELLG_TRI_CUSPARSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the triangles of an LU factor from its layout (see the top of the file) */
static PetscErrorCode MatFactorELLGBuildLU(Mat F, PetscInt n, const PetscInt ai[], const PetscInt aj[], PetscInt nz)
{
  Mat_FactorELLG *f = (Mat_FactorELLG *)F->spptr;
  PetscInt       *adiag, *src, *urowptr, *ucolidx, *usrc;

  PetscFunctionBegin;
  PetscCall(PetscMalloc2(n + 1, &adiag, nz, &src));
  for (PetscInt k = 0; k < nz; k++) src[k] = k;
  PetscCall(MatFactorELLGDiagLU(n, ai, aj, nz, adiag));
  PetscCall(PetscMalloc3(n + 1, &urowptr, nz, &ucolidx, nz, &usrc));
  urowptr[0] = 0;
  for (PetscInt i = 0; i < n; i++) {
    PetscInt c = urowptr[i];

    for (PetscInt k = adiag[i + 1] + 1; k < adiag[i]; k++, c++) {
      ucolidx[c] = aj[k];
      usrc[c]    = k;
    }
    urowptr[i + 1] = c;
  }
  PetscCall(ELLGTriCreate(f->be, f->method, n, MatFactorELLGGroup(f), PETSC_TRUE, ai, aj, src, NULL, 1.0, PETSC_FALSE, f->single, &f->L));
  PetscCall(ELLGTriCreate(f->be, f->method, n, MatFactorELLGGroup(f), PETSC_FALSE, urowptr, ucolidx, usrc, adiag, 1.0, PETSC_FALSE, f->single, &f->U));
  PetscCall(PetscFree3(urowptr, ucolidx, usrc));
  PetscCall(PetscFree2(adiag, src));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the triangles of a Cholesky factor A = U^T D U: z = U^{-T} b (unit diagonal, -U^T's entries stored), then
   x = D^{-1} z - U x, rows of U divided by the inverse diagonal */
static PetscErrorCode MatFactorELLGBuildCholesky(Mat F, PetscInt n, const PetscInt ai[], const PetscInt aj[])
{
  Mat_FactorELLG *f = (Mat_FactorELLG *)F->spptr;
  PetscInt       *rowptr, *colidx, *src, *dsrc, *trowptr, *tcolidx, *tsrc, nz = ai[n] - n;

  PetscFunctionBegin;
  PetscCall(PetscMalloc4(n + 1, &rowptr, nz, &colidx, nz, &src, n, &dsrc));
  rowptr[0] = 0;
  for (PetscInt k = 0; k < n; k++) {
    PetscInt c = rowptr[k];

    PetscCheck(ai[k + 1] > ai[k] && aj[ai[k + 1] - 1] == k, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Unexpected layout of the Cholesky factor: row %" PetscInt_FMT " does not end at its diagonal", k);
    for (PetscInt q = ai[k]; q < ai[k + 1] - 1; q++, c++) {
      colidx[c] = aj[q];
      src[c]    = q;
    }
    rowptr[k + 1] = c;
    dsrc[k]       = ai[k + 1] - 1;
  }
  PetscCall(ELLGCsrTranspose(n, n, rowptr, colidx, src, &trowptr, &tcolidx, &tsrc));
  PetscCall(ELLGTriCreate(f->be, f->method, n, MatFactorELLGGroup(f), PETSC_TRUE, trowptr, tcolidx, tsrc, NULL, -1.0, PETSC_FALSE, f->single, &f->L));
  PetscCall(ELLGTriCreate(f->be, f->method, n, MatFactorELLGGroup(f), PETSC_FALSE, rowptr, colidx, src, dsrc, -1.0, PETSC_TRUE, f->single, &f->U));
  PetscCall(PetscFree3(trowptr, tcolidx, tsrc));
  PetscCall(PetscFree4(rowptr, colidx, src, dsrc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the pattern of a factor as one CSR, each row sorted with its diagonal: LU, ILU (L's row, the diagonal, U's row);
   Cholesky, ICC (U^T's row, the diagonal, U's row) */
static PetscErrorCode MatFactorELLGPattern(Mat F, PetscInt n, const PetscInt ai[], const PetscInt aj[], PetscInt **rowptr, PetscInt **colidx)
{
  Mat_FactorELLG *f = (Mat_FactorELLG *)F->spptr;
  PetscInt       *adiag = NULL, *urow, *ucol, *trow = NULL, *tcol = NULL, *tsrc = NULL, *row, *col, nu = 0;
  PetscBool       sorted;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(n + 1, &urow));
  urow[0] = 0;
  if (f->cholesky) { /* row k: U's entries, then its diagonal */
    for (PetscInt k = 0; k < n; k++) {
      PetscCheck(ai[k + 1] > ai[k] && aj[ai[k + 1] - 1] == k, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Unexpected layout of the Cholesky factor: row %" PetscInt_FMT " does not end at its diagonal", k);
      urow[k + 1] = urow[k] + ai[k + 1] - ai[k] - 1;
    }
    PetscCall(PetscMalloc1(urow[n], &ucol));
    for (PetscInt k = 0; k < n; k++)
      for (PetscInt q = ai[k]; q < ai[k + 1] - 1; q++) ucol[nu++] = aj[q];
    PetscCall(ELLGCsrTranspose(n, n, urow, ucol, NULL, &trow, &tcol, &tsrc));
  } else {
    MatInfo info;

    PetscCall(MatGetInfo(F, MAT_LOCAL, &info));
    PetscCall(PetscMalloc1(n + 1, &adiag));
    PetscCall(MatFactorELLGDiagLU(n, ai, aj, (PetscInt)info.nz_used, adiag));
    for (PetscInt i = 0; i < n; i++) urow[i + 1] = urow[i] + adiag[i] - adiag[i + 1] - 1;
    PetscCall(PetscMalloc1(urow[n], &ucol));
    for (PetscInt i = 0; i < n; i++)
      for (PetscInt q = adiag[i + 1] + 1; q < adiag[i]; q++) ucol[nu++] = aj[q];
  }
  PetscCall(PetscMalloc2(n + 1, &row, 2 * urow[n] + n + (f->cholesky ? 0 : ai[n]), &col));
  row[0] = 0;
  for (PetscInt i = 0, c = 0; i < n; i++) {
    const PetscInt *lc = f->cholesky ? tcol + trow[i] : aj + ai[i];
    const PetscInt  nl = f->cholesky ? trow[i + 1] - trow[i] : ai[i + 1] - ai[i];

    for (PetscInt q = 0; q < nl; q++) col[c++] = lc[q];
    col[c++] = i;
    for (PetscInt q = urow[i]; q < urow[i + 1]; q++) col[c++] = ucol[q];
    PetscCall(PetscSortedInt(c - row[i], col + row[i], &sorted));
    if (!sorted) PetscCall(PetscSortInt(c - row[i], col + row[i]));
    row[i + 1] = c;
  }
  if (trow) PetscCall(PetscFree3(trow, tcol, tsrc));
  PetscCall(PetscFree(adiag));
  PetscCall(PetscFree(urow));
  PetscCall(PetscFree(ucol));
  *rowptr = row;
  *colidx = col;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* whether every row of A (columns sorted in each row) has its diagonal entry */
static PetscErrorCode MatFactorELLGDiagonalComplete(Mat A, PetscBool *complete)
{
  const PetscInt *ai, *aj;
  PetscInt        m;
  PetscBool       done;

  PetscFunctionBegin;
  *complete = PETSC_FALSE;
  PetscCall(MatGetRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &m, &ai, &aj, &done));
  if (!done) PetscFunctionReturn(PETSC_SUCCESS);
  *complete = PETSC_TRUE;
  for (PetscInt i = 0; i < m && *complete; i++) {
    PetscInt loc;

    PetscCall(PetscFindInt(i, ai[i + 1] - ai[i], aj + ai[i], &loc));
    *complete = (PetscBool)(loc >= 0);
  }
  PetscCall(MatRestoreRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &m, &ai, &aj, &done));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ILU(0) in the natural ordering of a matrix with every diagonal entry, whose factor's pattern (SeqAIJ's symbolic
   factorization) is the matrix's */
static PetscErrorCode MatFactorELLGIsILU0(Mat F, Mat A, IS row, IS col, PetscInt levels, PetscBool *ilu0)
{
  PetscBool rid = PETSC_TRUE, cid = PETSC_TRUE;

  PetscFunctionBegin;
  *ilu0 = PETSC_FALSE;
  if (F->factortype != MAT_FACTOR_ILU || levels) PetscFunctionReturn(PETSC_SUCCESS);
  if (row) PetscCall(ISIdentity(row, &rid));
  if (col) PetscCall(ISIdentity(col, &cid));
  if (rid && cid) PetscCall(MatFactorELLGDiagonalComplete(A, ilu0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ILU(0): the factor's pattern, copied from the matrix's */
static PetscErrorCode MatFactorELLGPatternOfMatrix(Mat F, Mat A, PetscInt **rowptr, PetscInt **colidx)
{
  const PetscInt *ai, *aj;
  PetscInt        m;
  PetscBool       done;

  PetscFunctionBegin;
  PetscCall(MatGetRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &m, &ai, &aj, &done));
  PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_SUP, "Cannot read the structure of the matrix factored");
  PetscCall(PetscMalloc2(m + 1, rowptr, ai[m], colidx));
  PetscCall(PetscArraycpy(*rowptr, ai, m + 1));
  PetscCall(PetscArraycpy(*colidx, aj, ai[m]));
  PetscCall(MatRestoreRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &m, &ai, &aj, &done));
  PetscCall(PetscInfo(F, "ILU(0) in the natural ordering: the factor's pattern is the matrix's\n"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* where A's entries go in the factorization's pattern (copied: the pattern was just copied from A's); *complete false
   when some has no place there */
static PetscErrorCode MatFactorELLGMapILU(Mat F, Mat A, PetscBool copied, PetscBool *complete)
{
  Mat_FactorELLG *f = (Mat_FactorELLG *)F->spptr;
  const PetscInt *ai, *aj, n = F->rmap->n;
  PetscInt       *rinv, *cinv, m;
  PetscBool       done;

  PetscFunctionBegin;
  PetscCall(MatGetRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &m, &ai, &aj, &done));
  PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_SUP, "Cannot read the structure of the matrix factored");
  PetscCall(MatFactorELLGInverse(f->row, n, &rinv));
  PetscCall(MatFactorELLGInverse(f->cholesky ? f->row : f->col, n, &cinv));
  PetscCall(ELLGILUSetMap(f->ilu, m, ai, aj, rinv, cinv, f->cholesky, copied, complete));
  f->mapped = *complete;
  PetscCall(PetscFree(rinv));
  PetscCall(PetscFree(cinv));
  PetscCall(MatRestoreRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &m, &ai, &aj, &done));
  f->anzstate = A->nonzerostate;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* after the symbolic ILU or ICC factorization: the factorization in the backend's memory, from the factor's pattern
   (ilu0: the matrix's); none (SeqAIJ's numeric factorization then) when that pattern cannot be read */
static PetscErrorCode MatFactorELLGBuildILU(Mat F, Mat A, PetscBool ilu0)
{
  Mat_FactorELLG *f = (Mat_FactorELLG *)F->spptr;
  const PetscInt *ai, *aj, n = F->rmap->n;
  PetscInt       *rowptr = NULL, *colidx = NULL, m, nnz, nlev;
  PetscBool       done, complete;
  ELLGTriMethod   method;
  size_t          bytes;

  PetscFunctionBegin;
  if (!ilu0) {
    PetscCall(MatGetRowIJ(F, 0, PETSC_FALSE, PETSC_FALSE, &m, &ai, &aj, &done));
    if (!done) {
      PetscCall(PetscInfo(F, "The structure of the %s factor cannot be read: its numeric factorization runs on the host\n", MatFactorTypes[F->factortype]));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  }
  PetscCall(PetscLogEventBegin(MATGPU_TriBuild, F, 0, 0, 0));
  PetscCall(MatFactorELLGSetUpCommon(F));
  if (ilu0) PetscCall(MatFactorELLGPatternOfMatrix(F, A, &rowptr, &colidx));
  else {
    PetscCall(MatFactorELLGPattern(F, n, ai, aj, &rowptr, &colidx));
    PetscCall(MatRestoreRowIJ(F, 0, PETSC_FALSE, PETSC_FALSE, &m, &ai, &aj, &done));
  }
  PetscCall(ELLGILUCreate(f->be, f->method, f->single, MatFactorELLGGroup(f), f->sweeps, n, rowptr, colidx, &f->ilu)); /* the pattern becomes the factorization's */
  PetscCall(MatFactorELLGMapILU(F, A, ilu0, &complete));
  PetscCall(PetscELLGLogSynchronize(f->be));
  PetscCall(PetscLogEventEnd(MATGPU_TriBuild, F, 0, 0, 0));
  PetscCall(ELLGILUGetInfo(f->ilu, &method, &nnz, &nlev, &bytes));
  f->nz = nnz - n;
  PetscCall(PetscInfo(F, "%s numeric factorization on the %s backend in %" PetscInt_FMT " levels, %" PetscInt_FMT " entries%s, solved with %s, %.1f MB\n", MatFactorTypes[F->factortype], PetscELLGBackends[f->be], nlev, nnz, complete ? "" : " (some of the matrix's entries have no place: it runs on the host)", ELLGTriMethods[method], (double)bytes / 1048576.0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the factor's values array (host) */
static PetscErrorCode MatFactorELLGGetValues(Mat F, PetscBool get, const PetscScalar **a)
{
  Mat_FactorELLG *f = (Mat_FactorELLG *)F->spptr;

  PetscFunctionBegin;
  if (f->cholesky) {
    if (get) PetscCall(MatSeqSBAIJGetArray(F, (PetscScalar **)a));
    else PetscCall(MatSeqSBAIJRestoreArray(F, (PetscScalar **)a));
  } else if (get) PetscCall(MatSeqAIJGetArrayRead(F, a));
  else PetscCall(MatSeqAIJRestoreArrayRead(F, a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* after a numeric factorization: the triangles built (first after a symbolic factorization) or their values updated;
   *ours false when the factor's structure cannot be read (its solves stay SeqAIJ's) */
static PetscErrorCode MatFactorELLGSetUp(Mat F, PetscBool *ours)
{
  Mat_FactorELLG    *f     = (Mat_FactorELLG *)F->spptr;
  const PetscBool    build = (PetscBool)!f->L;
  ELLGTri            tris[4];
  const PetscScalar *a;

  PetscFunctionBegin;
  *ours = PETSC_TRUE;
  if (build) {
    const PetscInt *ai, *aj, n = F->rmap->n;
    PetscInt        m;
    PetscBool       done;
    MatInfo         info;

    /* m: rows, or the inodes of a factor that has them (PETSc 3.18), whatever the arrays */
    PetscCall(MatGetRowIJ(F, 0, PETSC_FALSE, PETSC_FALSE, &m, &ai, &aj, &done));
    if (!done) {
      PetscCall(PetscInfo(F, "The structure of the %s factor cannot be read: its solves run on the host\n", MatFactorTypes[F->factortype]));
      *ours = PETSC_FALSE;
      PetscFunctionReturn(PETSC_SUCCESS);
    }
    PetscCall(PetscLogEventBegin(MATGPU_TriBuild, F, 0, 0, 0));
    PetscCall(MatFactorELLGSetUpCommon(F));
    if (f->cholesky) PetscCall(MatFactorELLGBuildCholesky(F, n, ai, aj));
    else {
      PetscCall(MatGetInfo(F, MAT_LOCAL, &info));
      PetscCall(MatFactorELLGBuildLU(F, n, ai, aj, (PetscInt)info.nz_used));
    }
    PetscCall(MatRestoreRowIJ(F, 0, PETSC_FALSE, PETSC_FALSE, &m, &ai, &aj, &done));
    PetscCall(ELLGTriSetJacobiSweeps(f->L, f->sweeps));
    PetscCall(ELLGTriSetJacobiSweeps(f->U, f->sweeps));
  } else PetscCall(PetscLogEventBegin(MATGPU_TriValues, F, 0, 0, 0));
  tris[0] = f->L;
  tris[1] = f->U;
  tris[2] = f->Lt;
  tris[3] = f->Ut;
  PetscCall(MatFactorELLGGetValues(F, PETSC_TRUE, &a));
  for (int k = 0; k < 4; k++)
    if (tris[k]) PetscCall(ELLGTriSetValues(tris[k], a));
  PetscCall(MatFactorELLGGetValues(F, PETSC_FALSE, &a));
  PetscCall(PetscELLGLogSynchronize(f->be));
  PetscCall(PetscLogEventEnd(build ? MATGPU_TriBuild : MATGPU_TriValues, F, 0, 0, 0));
  if (build) {
    PetscInt      nz[2], lev[2];
    size_t        bytes[2];
    ELLGTriMethod method;
    char          sweeps[64] = "";

    PetscCall(ELLGTriGetInfo(f->L, &method, &nz[0], &lev[0], &bytes[0]));
    PetscCall(ELLGTriGetInfo(f->U, &method, &nz[1], &lev[1], &bytes[1]));
    f->nz = nz[0] + nz[1];
    if (method == ELLG_TRI_JACOBI) PetscCall(PetscSNPrintf(sweeps, sizeof(sweeps), " (%" PetscInt_FMT " sweeps, approximate)", f->sweeps));
    else if (method == ELLG_TRI_LEVELS) PetscCall(PetscSNPrintf(sweeps, sizeof(sweeps), " (groups of %" PetscInt_FMT " rows)", MatFactorELLGGroup(f)));
    PetscCall(PetscInfo(F, "%s factor solved with %s%s on the %s backend: lower triangle %" PetscInt_FMT " entries in %" PetscInt_FMT " levels, upper %" PetscInt_FMT " in %" PetscInt_FMT ", %.1f MB%s\n", MatFactorTypes[F->factortype], ELLGTriMethods[method], sweeps,
                        PetscELLGBackends[f->be], nz[0], lev[0], nz[1], lev[1], (double)(bytes[0] + bytes[1]) / 1048576.0, f->single ? ", single-precision values" : ""));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y = gather of x by idx, or x itself without idx */
static PetscErrorCode MatFactorELLGPermute(Mat_FactorELLG *f, PetscInt n, const int *idx, const PetscScalar *x, PetscScalar *y)
{
  PetscFunctionBegin;
  PetscELLGBackendCall(f->be, ELLGHostPermute, ELLGCudaPermute, (NULL, (int)n, idx, x, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* x = T^{-1} b with the first (step 0) or second triangle of the solve with the factor (trans: its transpose) */
static PetscErrorCode MatFactorELLGTriangleSolve(Mat F, PetscBool trans, PetscInt step, const PetscScalar *b, PetscScalar *x)
{
  Mat_FactorELLG *f = (Mat_FactorELLG *)F->spptr;

  PetscFunctionBegin;
  if (f->useilu) {
    PetscCall(ELLGILUSolve(f->ilu, trans, step, b, x));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (trans && !f->cholesky) {
    if (!f->Ut) { /* the transposed triangles at the first transposed solve */
      const PetscScalar *a;

      PetscCall(ELLGTriCreateTranspose(f->U, &f->Ut));
      PetscCall(ELLGTriCreateTranspose(f->L, &f->Lt));
      PetscCall(MatFactorELLGGetValues(F, PETSC_TRUE, &a));
      PetscCall(ELLGTriSetValues(f->Ut, a));
      PetscCall(ELLGTriSetValues(f->Lt, a));
      PetscCall(MatFactorELLGGetValues(F, PETSC_FALSE, &a));
    }
    PetscCall(ELLGTriSolve(step ? f->Lt : f->Ut, b, x));
  } else PetscCall(ELLGTriSolve(step ? f->U : f->L, b, x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* which part of a solve: all of it, or of an ICC factor (A = L D L^T, ours) the halves MatForwardSolve(),
   x = D^{-1/2} L^{-1} b, and MatBackwardSolve(), x = L^{-T} D^{-1/2} b */
typedef enum {
  ELLG_SOLVE_FULL,
  ELLG_SOLVE_FORWARD,
  ELLG_SOLVE_BACKWARD
} ELLGSolvePart;

/* x = F^{-1} b (trans: F^{-T} b), or a part of it, on backend arrays: gather by the first ordering, the two
   triangles, gather by the inverse of the second */
static PetscErrorCode MatFactorELLGSolveArrays(Mat F, PetscBool trans, ELLGSolvePart part, const PetscScalar *b, PetscScalar *x)
{
  Mat_FactorELLG    *f = (Mat_FactorELLG *)F->spptr;
  const PetscInt     n = F->rmap->n;
  const int         *in  = part == ELLG_SOLVE_BACKWARD ? NULL : trans ? f->c : f->r;
  const int         *out = part == ELLG_SOLVE_FORWARD ? NULL : trans ? f->rinv : f->cinv;
  const PetscScalar *y = b;

  PetscFunctionBegin;
  if (in) {
    PetscCall(MatFactorELLGPermute(f, n, in, b, f->work[0]));
    y = f->work[0];
  }
  if (part == ELLG_SOLVE_BACKWARD) PetscCall(ELLGILUScaleRoot(f->ilu, PETSC_TRUE, y, f->work[1]));
  else PetscCall(MatFactorELLGTriangleSolve(F, trans, 0, y, f->work[1]));
  if (part == ELLG_SOLVE_FORWARD) PetscCall(ELLGILUScaleRoot(f->ilu, PETSC_FALSE, f->work[1], x));
  else if (out) {
    PetscCall(MatFactorELLGTriangleSolve(F, trans, 1, f->work[1], f->work[0]));
    PetscCall(MatFactorELLGPermute(f, n, out, f->work[0], x));
  } else PetscCall(MatFactorELLGTriangleSolve(F, trans, 1, f->work[1], x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatSolveKernel_FactorELLG(Mat F, Vec b, Vec x, PetscBool trans, ELLGSolvePart part)
{
  Mat_FactorELLG    *f = (Mat_FactorELLG *)F->spptr;
  const PetscScalar *pb;
  PetscScalar       *px;
  Vec                bb, xb;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(MATGPU_TriSolve, F, b, x, 0));
  PetscCall(VecGPUGetBackendStandIn(b, f->be, PETSC_TRUE, &f->vwork[0], &bb));
  PetscCall(VecGPUGetBackendStandIn(x, f->be, PETSC_FALSE, &f->vwork[1], &xb));
  PetscCall(VecGPUGetBackendArray(bb, ELLG_ACCESS_READ, (PetscScalar **)&pb));
  PetscCall(VecGPUGetBackendArray(xb, ELLG_ACCESS_WRITE, &px));
  PetscCall(PetscELLGLogGpuTimeBegin(f->be));
  PetscCall(MatFactorELLGSolveArrays(F, trans, part, pb, px));
  PetscCall(PetscELLGLogGpuTimeEnd(f->be));
  PetscCall(VecGPURestoreBackendArray(bb, ELLG_ACCESS_READ, (PetscScalar **)&pb));
  PetscCall(VecGPURestoreBackendArray(xb, ELLG_ACCESS_WRITE, &px));
  if (xb != x) PetscCall(VecCopy(xb, x));
  PetscCall(PetscELLGLogFlops(f->be, 2.0 * f->nz + F->rmap->n));
  PetscCall(PetscELLGLogSynchronize(f->be));
  PetscCall(PetscLogEventEnd(MATGPU_TriSolve, F, b, x, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* x = F^{-1} b + y: the solve into x, or, when y is x, into a vector of x's type */
static PetscErrorCode MatSolveAddKernel_FactorELLG(Mat F, Vec b, Vec y, Vec x, PetscBool trans)
{
  Mat_FactorELLG *f = (Mat_FactorELLG *)F->spptr;
  PetscBool       same = PETSC_FALSE;

  PetscFunctionBegin;
  if (y != x) {
    PetscCall(MatSolveKernel_FactorELLG(F, b, x, trans, ELLG_SOLVE_FULL));
    PetscCall(VecAXPY(x, 1.0, y));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (f->addwork) PetscCall(PetscObjectTypeCompare((PetscObject)f->addwork, ((PetscObject)x)->type_name, &same));
  if (!same) {
    PetscCall(VecDestroy(&f->addwork));
    PetscCall(VecDuplicate(x, &f->addwork));
  }
  PetscCall(MatSolveKernel_FactorELLG(F, b, f->addwork, trans, ELLG_SOLVE_FULL));
  PetscCall(VecAXPY(x, 1.0, f->addwork));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatSolve_FactorELLG(Mat F, Vec b, Vec x)
{
  PetscFunctionBegin;
  PetscCall(MatSolveKernel_FactorELLG(F, b, x, PETSC_FALSE, ELLG_SOLVE_FULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatSolveTranspose_FactorELLG(Mat F, Vec b, Vec x)
{
  PetscFunctionBegin;
  PetscCall(MatSolveKernel_FactorELLG(F, b, x, PETSC_TRUE, ELLG_SOLVE_FULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatForwardSolve_FactorELLG(Mat F, Vec b, Vec x)
{
  PetscFunctionBegin;
  PetscCall(MatSolveKernel_FactorELLG(F, b, x, PETSC_FALSE, ELLG_SOLVE_FORWARD));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatBackwardSolve_FactorELLG(Mat F, Vec b, Vec x)
{
  PetscFunctionBegin;
  PetscCall(MatSolveKernel_FactorELLG(F, b, x, PETSC_FALSE, ELLG_SOLVE_BACKWARD));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatSolveAdd_FactorELLG(Mat F, Vec b, Vec y, Vec x)
{
  PetscFunctionBegin;
  PetscCall(MatSolveAddKernel_FactorELLG(F, b, y, x, PETSC_FALSE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatSolveTransposeAdd_FactorELLG(Mat F, Vec b, Vec y, Vec x)
{
  PetscFunctionBegin;
  PetscCall(MatSolveAddKernel_FactorELLG(F, b, y, x, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the numeric factorization in the backend's memory; *done false when there is none (LU, Cholesky, a pattern
   that does not hold the matrix's entries, -pc_factor_mat_factor_on_host) or a pivot needs PETSc's checks */
static PetscErrorCode MatFactorELLGNumericILU(Mat F, Mat A, const MatFactorInfo *info, PetscBool *done)
{
  Mat_FactorELLG    *f = (Mat_FactorELLG *)F->spptr;
  const PetscScalar *a;
  PetscInt           bad;
  PetscBool          complete;

  PetscFunctionBegin;
  *done = PETSC_FALSE;
  if (!f->ilu) PetscFunctionReturn(PETSC_SUCCESS);
  if (A->nonzerostate != f->anzstate) PetscCall(MatFactorELLGMapILU(F, A, PETSC_FALSE, &complete));
  if (!f->mapped) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscLogEventBegin(MATGPU_FactorNumeric, F, A, 0, 0));
  PetscCall(MatSeqAIJGetArrayRead(A, &a));
  PetscCall(ELLGILUFactor(f->ilu, a, (PetscBool)(info->shifttype == (PetscReal)MAT_SHIFT_POSITIVE_DEFINITE), info->zeropivot, &bad));
  PetscCall(MatSeqAIJRestoreArrayRead(A, &a));
  PetscCall(PetscELLGLogSynchronize(f->be));
  PetscCall(PetscLogEventEnd(MATGPU_FactorNumeric, F, A, 0, 0));
  if (bad < F->rmap->n) {
    PetscCall(PetscInfo(F, "The pivot of row %" PetscInt_FMT " is one PETSc's shift or zero pivot check (%s) may act on: SeqAIJ's numeric factorization on the host\n", bad, MatFactorShiftTypes[(int)info->shifttype]));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  F->assembled       = PETSC_TRUE;
  F->preallocated    = PETSC_TRUE;
  F->factorerrortype = MAT_FACTOR_NOERROR;
  *done              = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatFactorELLGSymbolicNow(Mat);

/* the numeric factorization in the backend's memory, or SeqAIJ's, then the triangles; a failed factorization (zero
   pivot) keeps SeqAIJ's solves, which MatSolve() does not call then */
static PetscErrorCode MatFactorELLGNumeric(Mat F, Mat A, const MatFactorInfo *info)
{
  Mat_FactorELLG *f = (Mat_FactorELLG *)F->spptr;
  PetscBool       ours;

  PetscFunctionBegin;
  PetscCall(MatSeqAIJFormatWarm(A, PETSC_TRUE)); /* the operator factored, assembled by the program: the solve multiplies with it */
  PetscCall(MatFactorELLGNumericILU(F, A, info, &f->useilu));
  if (!f->useilu) {
    PetscCall(MatFactorELLGSymbolicNow(F));
    if (f->cholesky) PetscCall((*f->cholnumeric)(F, A, info));
    else PetscCall((*f->lunumeric)(F, A, info));
    if (F->factorerrortype != MAT_FACTOR_NOERROR) PetscFunctionReturn(PETSC_SUCCESS);
    PetscCall(MatFactorELLGSetUp(F, &ours));
    if (!ours) PetscFunctionReturn(PETSC_SUCCESS);
  }
  F->ops->solve             = MatSolve_FactorELLG;
  F->ops->solveadd          = MatSolveAdd_FactorELLG;
  F->ops->solvetranspose    = f->cholesky ? MatSolve_FactorELLG : MatSolveTranspose_FactorELLG;
  F->ops->solvetransposeadd = f->cholesky ? MatSolveAdd_FactorELLG : MatSolveTransposeAdd_FactorELLG;
  F->ops->matsolve          = NULL; /* column by column through MatSolve() */
  if (f->useilu) { /* SeqAIJ's halves would read the factor's host values, which the device factorization leaves */
    F->ops->forwardsolve  = f->cholesky ? MatForwardSolve_FactorELLG : NULL;
    F->ops->backwardsolve = f->cholesky ? MatBackwardSolve_FactorELLG : NULL;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatLUFactorNumeric_FactorELLG(Mat F, Mat A, const MatFactorInfo *info)
{
  PetscFunctionBegin;
  PetscCall(MatFactorELLGNumeric(F, A, info));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatCholeskyFactorNumeric_FactorELLG(Mat F, Mat A, const MatFactorInfo *info)
{
  PetscFunctionBegin;
  PetscCall(MatFactorELLGNumeric(F, A, info));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the factor's options (it has its prefix now), read at each symbolic factorization */
static PetscErrorCode MatFactorELLGOptions(Mat F, const MatFactorInfo *info)
{
  Mat_FactorELLG *f = (Mat_FactorELLG *)F->spptr;

  PetscFunctionBegin;
  MatELLGOptionsBegin(F, "Factor solves of PETSc-ELLG");
  PetscCall(PetscOptionsDeprecated("-mat_ellg_factor_solve", "-mat_gpu_factor_solve", "0.2.0", NULL));
  PetscCall(PetscOptionsDeprecated("-mat_ellg_factor_jacobi_sweeps", "-mat_gpu_factor_jacobi_sweeps", "0.2.0", NULL));
  PetscCall(PetscOptionsEnum("-mat_gpu_factor_solve", "How the triangular solves run on the GPU (default: levels for a matrix with blocks, cusparse otherwise)", "MATSOLVERELLG", ELLGTriMethods, (PetscEnum)f->method, (PetscEnum *)&f->method, &f->methodset));
  PetscCall(PetscOptionsInt("-mat_gpu_factor_jacobi_sweeps", "Jacobi sweeps of each triangular solve with -mat_gpu_factor_solve jacobi (approximate)", "MATSOLVERELLG", f->sweeps, &f->sweeps, NULL));
  PetscCheck(f->sweeps >= 0, PetscObjectComm((PetscObject)F), PETSC_ERR_ARG_OUTOFRANGE, "-mat_gpu_factor_jacobi_sweeps %" PetscInt_FMT " must be 0 or more", f->sweeps);
  f->onhost = ELLGFactorInfoOnHost(info);
  PetscCall(PetscOptionsBool("-pc_factor_mat_factor_on_host", "Numeric factorization on the host (SeqAIJ's), not in the GPU's memory", "MATSOLVERELLG", f->onhost, &f->onhost, NULL));
  PetscOptionsEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* after SeqAIJ's symbolic factorization (or with it left, lazy: ILU(0) of the matrix's pattern): the orderings kept,
   ours as the numeric factorization; ILU, ICC: the numeric factorization in the backend's memory set up */
static PetscErrorCode MatFactorELLGSymbolicDone(Mat F, Mat A, IS row, IS col, const MatFactorInfo *info, PetscBool ilu0)
{
  Mat_FactorELLG *f = (Mat_FactorELLG *)F->spptr;

  PetscFunctionBegin;
  PetscCall(MatELLGFactorRemoveFunctions(F));
  PetscCall(MatFactorELLGReset(F));
  if (row) PetscCall(PetscObjectReference((PetscObject)row));
  if (col) PetscCall(PetscObjectReference((PetscObject)col));
  f->row = row;
  f->col = col;
  if (f->cholesky) {
    f->cholnumeric                = F->ops->choleskyfactornumeric;
    F->ops->choleskyfactornumeric = MatCholeskyFactorNumeric_FactorELLG;
  } else {
    f->lunumeric            = F->ops->lufactornumeric; /* lazy: set when SeqAIJ's symbolic factorization runs */
    F->ops->lufactornumeric = MatLUFactorNumeric_FactorELLG;
  }
  if ((F->factortype == MAT_FACTOR_ILU || F->factortype == MAT_FACTOR_ICC) && !f->onhost) PetscCall(MatFactorELLGBuildILU(F, A, ilu0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the lazy factor's SeqAIJ symbolic factorization, run as something reads its host structure */
static PetscErrorCode MatFactorELLGSymbolicNow(Mat F)
{
  Mat_FactorELLG *f = (Mat_FactorELLG *)F->spptr;
  Mat             A = f->lazy;

  PetscFunctionBegin;
  if (!A) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(A->nonzerostate == f->lazynzstate, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "The nonzero pattern of the matrix factored changed since its symbolic factorization: factor it again");
  F->ops->getinfo = f->getinfo;
  F->ops->view    = f->view;
  f->lazy         = NULL;
  PetscCall(PetscInfo(F, "SeqAIJ's symbolic ILU(0) factorization, for the factor's host structure\n"));
  PetscCall((*f->ilusymbolic)(F, A, f->row, f->col, &f->lazyinfo));
  PetscCall(MatELLGFactorRemoveFunctions(F)); /* what SeqAIJ's symbolic factorization copied from A */
  f->lunumeric            = F->ops->lufactornumeric;
  F->ops->lufactornumeric = MatLUFactorNumeric_FactorELLG;
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MatGetInfo() of the lazy factor: what SeqAIJ's ILU(0) factor tells, its entries the matrix's */
static PetscErrorCode MatGetInfo_FactorELLGLazy(Mat F, MatInfoType flag, MatInfo *info)
{
  Mat_FactorELLG *f = (Mat_FactorELLG *)F->spptr;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(info, sizeof(*info)));
  info->block_size        = 1.0;
  info->nz_allocated      = (PetscLogDouble)(f->nz + F->rmap->n); /* the matrix's entries */
  info->nz_used           = info->nz_allocated;
  info->assemblies        = (PetscLogDouble)F->num_ass;
  info->mallocs           = F->info.mallocs;
  info->fill_ratio_given  = F->info.fill_ratio_given;
  info->fill_ratio_needed = F->info.fill_ratio_needed;
  info->factor_mallocs    = F->info.factor_mallocs;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatView_FactorELLGLazy(Mat F, PetscViewer viewer)
{
  PetscFunctionBegin;
  PetscCall(MatFactorELLGSymbolicNow(F));
  PetscCall((*F->ops->view)(F, viewer));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ILU(0) of the matrix's pattern factored in the backend's memory: SeqAIJ's symbolic factorization left */
static PetscErrorCode MatFactorELLGSymbolicLazy(Mat F, Mat A, const MatFactorInfo *info)
{
  Mat_FactorELLG *f = (Mat_FactorELLG *)F->spptr;

  PetscFunctionBegin;
  PetscCall(PetscObjectReference((PetscObject)A));
  f->lazy                   = A;
  f->lazyinfo               = *info;
  f->lazynzstate            = A->nonzerostate;
  f->getinfo                = F->ops->getinfo;
  f->view                   = F->ops->view;
  F->ops->getinfo           = MatGetInfo_FactorELLGLazy;
  F->ops->view              = MatView_FactorELLGLazy;
  F->info.factor_mallocs    = 0;
  F->info.fill_ratio_given  = info->fill;
  F->info.fill_ratio_needed = 1.0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatLUFactorSymbolic_FactorELLG(Mat F, Mat A, IS row, IS col, const MatFactorInfo *info)
{
  Mat_FactorELLG *f = (Mat_FactorELLG *)F->spptr;

  PetscFunctionBegin;
  PetscCall(MatFactorELLGOptions(F, info));
  PetscCall((*f->lusymbolic)(F, A, row, col, info));
  PetscCall(MatFactorELLGSymbolicDone(F, A, row, col, info, PETSC_FALSE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatILUFactorSymbolic_FactorELLG(Mat F, Mat A, IS row, IS col, const MatFactorInfo *info)
{
  Mat_FactorELLG *f = (Mat_FactorELLG *)F->spptr;
  PetscBool       ilu0;

  PetscFunctionBegin;
  PetscCall(MatFactorELLGOptions(F, info));
  PetscCall(MatFactorELLGIsILU0(F, A, row, col, (PetscInt)info->levels, &ilu0));
  if (!ilu0 || f->onhost) PetscCall((*f->ilusymbolic)(F, A, row, col, info));
  PetscCall(MatFactorELLGSymbolicDone(F, A, row, col, info, ilu0));
  if (ilu0 && !f->onhost) PetscCall(MatFactorELLGSymbolicLazy(F, A, info)); /* after the reset of SymbolicDone() */
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatCholeskyFactorSymbolic_FactorELLG(Mat F, Mat A, IS perm, const MatFactorInfo *info)
{
  Mat_FactorELLG *f = (Mat_FactorELLG *)F->spptr;

  PetscFunctionBegin;
  PetscCall(MatFactorELLGOptions(F, info));
  PetscCall((*f->cholsymbolic)(F, A, perm, info));
  PetscCall(MatFactorELLGSymbolicDone(F, A, perm, NULL, info, PETSC_FALSE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatICCFactorSymbolic_FactorELLG(Mat F, Mat A, IS perm, const MatFactorInfo *info)
{
  Mat_FactorELLG *f = (Mat_FactorELLG *)F->spptr;

  PetscFunctionBegin;
  PetscCall(MatFactorELLGOptions(F, info));
  PetscCall((*f->iccsymbolic)(F, A, perm, info));
  PetscCall(MatFactorELLGSymbolicDone(F, A, perm, NULL, info, PETSC_FALSE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*MC
   MATSOLVERELLG - "ellg" - A matrix factor type whose triangular solves run on the GPU, for `MATSEQAIJELLG`,
   `MATSEQAIJPJDS` and `MATSEQAIJSLICEDELL`, and their default: LU, ILU, Cholesky and ICC.

   Options Database Keys:
+  -pc_factor_mat_solver_type ellg - selects it (the default for these matrices; `petsc` gives PETSc's host
     factor)
.  -mat_gpu_factor_solve <cusparse,levels,jacobi> - how the triangular solves run: cuSPARSE's SpSV, our
     level-ordered solve (the default for a matrix with a block size of 2 to 8 factored in place, cuSPARSE's
     otherwise), or approximately by Jacobi sweeps
.  -mat_gpu_factor_jacobi_sweeps <k> - Jacobi sweeps of each triangular solve with
     `-mat_gpu_factor_solve jacobi` (default 2)
-  -pc_factor_mat_factor_on_host - ILU and ICC factored on the host (SeqAIJ's numeric factorization)

   Level: beginner

   Notes:
   The symbolic factorizations are SeqAIJ's, on the host, with all their options (orderings, fill, levels),
   but for ILU(0) in the natural ordering of a matrix with every diagonal entry factored in the GPU's memory,
   whose pattern is the matrix's: SeqAIJ's is left until something reads the factor's host structure (a view,
   a numeric factorization on the host), as aijcusparse skips it too.
   The numeric ILU and ICC factorizations run in the GPU's memory, where a refactorization with new values on
   the same pattern stays: the values uploaded, factored, the triangles updated in place. LU, Cholesky, a pivot
   that PETSc's shifts or zero pivot check may act on, and `-pc_factor_mat_factor_on_host` take SeqAIJ's numeric
   factorization on the host, whose triangles then go to the device. `MatSolve()`, `MatSolveAdd()`,
   `MatSolveTranspose()`, `MatSolveTransposeAdd()` (and for ICC `MatForwardSolve()`, `MatBackwardSolve()`)
   run there, on `VECGPU` vectors or PETSc's CUDA vectors. After a numeric factorization in the GPU's memory
   the factor's host values are not filled.
   `-pc_type ilu|icc|lu|cholesky`, the blocks of `PCBJACOBI` and `PCASM` and multigrid coarse solves use it
   with no new option.

   The options are read with the factor's options prefix: `-sub_mat_gpu_factor_solve` for the blocks of
   `PCBJACOBI`. Jacobi sweeps, x <- D^-1 (b - T x) from x = D^-1 b, give an approximate, cheap solve that
   changes the iterations. `-info` says how each factor is solved, and falls back, saying so, to SeqAIJ's
   host solves for a factor whose layout it cannot read.

.seealso: `MatGetFactor()`, `PCFactorSetMatSolverType()`, `MatSolverType`, `MATSOLVERPETSC`, `MATELLG`,
          `MATPJDS`, `MATSLICEDELL`, `VECGPU`
M*/
/* MatGetFactor() of MATSOLVERELLG for our seq types: SeqAIJ's factor of the same kind, with our solves */
PetscErrorCode MatGetFactor_SeqAIJFormat_ELLG(Mat A, MatFactorType ftype, Mat *F)
{
  PetscErrorCode (*create)(Mat, MatFactorType, Mat *) = NULL;
  Mat_FactorELLG *f;
  Mat             B;

  PetscFunctionBegin;
  PetscCall(MatSolverTypeGet(MATSOLVERPETSC, MATSEQAIJ, ftype, NULL, NULL, &create));
  PetscCheck(create, PetscObjectComm((PetscObject)A), PETSC_ERR_SUP, "PETSc has no %s factorization of %s", MatFactorTypes[ftype], MATSEQAIJ);
  PetscCall((*create)(A, ftype, F));
  B = *F;
  if (!B) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscNew(&f));
  PetscCall(MatELLGGetBackend(A, &f->be));
  {
    MatGPUValuePrecision p;

    PetscCall(MatGPUGetValuePrecision(A, &p));
    f->single = (PetscBool)(p == MAT_GPU_VALUES_SINGLE);
  }
  f->method   = ELLG_TRI_CUSPARSE; /* unless the build chooses levels (MatFactorELLGSetUp()) */
  f->sweeps   = 2;
  f->bs       = PetscAbs(A->rmap->bs);
  f->cholesky = (PetscBool)(ftype == MAT_FACTOR_CHOLESKY || ftype == MAT_FACTOR_ICC);
  f->destroy  = B->ops->destroy;
  B->spptr    = f;
  /* SeqAIJ's factor creation sets the symbolic factorization of its kind alone */
  f->lusymbolic                   = B->ops->lufactorsymbolic;
  f->ilusymbolic                  = B->ops->ilufactorsymbolic;
  f->cholsymbolic                 = B->ops->choleskyfactorsymbolic;
  f->iccsymbolic                  = B->ops->iccfactorsymbolic;
  B->ops->lufactorsymbolic        = f->lusymbolic ? MatLUFactorSymbolic_FactorELLG : NULL;
  B->ops->ilufactorsymbolic       = f->ilusymbolic ? MatILUFactorSymbolic_FactorELLG : NULL;
  B->ops->choleskyfactorsymbolic  = f->cholsymbolic ? MatCholeskyFactorSymbolic_FactorELLG : NULL;
  B->ops->iccfactorsymbolic       = f->iccsymbolic ? MatICCFactorSymbolic_FactorELLG : NULL;
  B->ops->destroy                 = MatDestroy_FactorELLG;
  PetscCall(PetscFree(B->solvertype));
  PetscCall(PetscStrallocpy(MATSOLVERELLG, &B->solvertype));
  PetscCall(PetscObjectComposeFunction((PetscObject)B, "MatFactorGetSolverType_C", MatFactorGetSolverType_ELLG));
  PetscFunctionReturn(PETSC_SUCCESS);
}
