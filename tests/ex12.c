static char help[] = "MatSOR, explicit transposes and MatAXPY of our types against PETSc's AIJ code. On one process: multicolor\n\
SOR (forward, backward and symmetric sweeps, with and without a zero initial guess, omega 1 and 1.3, several\n\
sweeps, a shift) of a 2D 5-point Laplacian (red-black) and of a 2D grid with 2 coupled unknowns per point (block\n\
size 2) against SeqAIJ's SOR of the matrix permuted into the order of the colors, on the matrix's vectors and\n\
on VECSEQ; -mat_gpu_sor host, SOR_EISENSTAT and SOR_APPLY_UPPER give SeqAIJ's natural-order results exactly\n\
(the MatGPUSOR event does not run); SOR after new values and after a new nonzero; a zero diagonal fails with\n\
PETSC_ERR_MAT_LU_ZRPVT; CG with PCSOR converges within a factor 2 of AIJ's iterations; MatMultTranspose and\n\
MatMultTransposeAdd of a tall matrix with MAT_FORM_EXPLICIT_TRANSPOSE, after MatScale and without the option;\n\
MatAXPY with SUBSET_NONZERO_PATTERN and DIFFERENT_NONZERO_PATTERN (X ours or SeqAIJ, a subset of Y's pattern or\n\
not). On several processes:\n\
CG with PCSOR of our mpi type (multicolor on the local blocks) and MatMultTranspose with\n\
MAT_FORM_EXPLICIT_TRANSPOSE against MPIAIJ's. Prints pass/fail lines only, the same for every type.\n\
  -type <ellg,pjds,slicedell>: the type (root name); its options apply (MatSetFromOptions)\n\n";

#include <petscksp.h>
#include "ellgtest.h"

#define WIDTH 66 /* of the descriptions in the result lines */

#define GRID   12 /* the SOR grids: GRID x GRID points */
#define KSPN   32 /* the Laplacian solved with KSP: KSPN x KSPN */
#define TALL_M 400
#define TALL_N 37

/* ---------------------------------------------------------------------------------------------------------- */
/* matrices */

/* CreateMatCSRBs - CreateMatCSR() on one process with the block size bs set before the preallocation */
static PetscErrorCode CreateMatCSRBs(const CSR *c, PetscInt bs, MatType type, Mat *A)
{
  PetscInt *nnz;
  PetscBool isaij;

  PetscFunctionBeginUser;
  PetscCall(MatCreate(PETSC_COMM_SELF, A));
  PetscCall(MatSetSizes(*A, c->M, c->N, c->M, c->N));
  PetscCall(MatSetBlockSize(*A, bs));
  PetscCall(MatSetType(*A, type));
  PetscCall(IsAIJType(type, &isaij));
  if (!isaij) PetscCall(MatSetFromOptions(*A));
  PetscCall(PetscMalloc1(c->M, &nnz));
  for (PetscInt i = 0; i < c->M; i++) nnz[i] = c->ia[i + 1] - c->ia[i];
  PetscCall(MatSeqAIJSetPreallocation(*A, 0, nnz));
  PetscCall(PetscFree(nnz));
  PetscCall(SetValuesCSR(*A, c, INSERT_VALUES));
  PetscCall(Assemble(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

/* CSRBlockGrid - a g x g grid with 2 unknowns per point (rows 2p, 2p + 1 of point p = x + g y): the two unknowns of
   a point fully coupled (a 2 x 2 block, nonsymmetric, varying with p), each unknown coupled to both unknowns of
   the 4 neighbouring points */
static PetscErrorCode CSRBlockGrid(PetscInt g, CSR *c)
{
  const PetscInt np = g * g;
  PetscInt       nz = 0;

  PetscFunctionBeginUser;
  PetscCall(CSRCreate("block grid", 2 * np, 2 * np, 2 * np * 10, c));
  for (PetscInt p = 0; p < np; p++) {
    const PetscInt x = p % g, y = p / g;
    PetscInt       nb[5], nn = 0;

    if (y > 0) nb[nn++] = p - g;
    if (x > 0) nb[nn++] = p - 1;
    nb[nn++] = p;
    if (x < g - 1) nb[nn++] = p + 1;
    if (y < g - 1) nb[nn++] = p + g;
    for (PetscInt d = 0; d < 2; d++) {
      const PetscInt row = 2 * p + d;

      for (PetscInt k = 0; k < nn; k++)
        for (PetscInt e = 0; e < 2; e++) {
          c->ja[nz] = 2 * nb[k] + e;
          if (nb[k] == p) c->va[nz] = d == e ? 8.0 + 0.01 * row : (d ? -0.7 : 0.4 + 0.001 * p);
          else c->va[nz] = d == e ? -1.0 - 0.002 * (nb[k] % 7) : -0.25;
          nz++;
        }
      c->ia[row + 1] = nz;
    }
  }
  PetscFunctionReturn(0);
}

/* RedBlackPerm - the order of the colors of the documented coloring of the grids: a g x g 5-point grid with bs
   unknowns per point (rows bs p + d), the points red when x + y is even; red points' unknowns 0, ..., red points'
   unknowns bs - 1, then the black ones' (each in increasing order of the points) */
static PetscErrorCode RedBlackPerm(PetscInt g, PetscInt bs, PetscInt perm[])
{
  PetscInt k = 0;

  PetscFunctionBeginUser;
  for (PetscInt parity = 0; parity < 2; parity++)
    for (PetscInt d = 0; d < bs; d++)
      for (PetscInt p = 0; p < g * g; p++)
        if ((p % g + p / g) % 2 == parity) perm[k++] = bs * p + d;
  PetscFunctionReturn(0);
}

/* GreedyPerm - the documented coloring (bs 1) computed here from R (AIJ): rows in order, each the smallest color
   that no earlier row coupled to it (a_ij or a_ji stored) has; perm lists the rows by color */
static PetscErrorCode GreedyPerm(Mat R, PetscInt perm[])
{
  Mat       Rt;
  PetscInt  m, ncolors = 0, *color, k = 0;
  PetscBool *used;

  PetscFunctionBeginUser;
  PetscCall(MatGetSize(R, &m, NULL));
  PetscCall(MatTranspose(R, MAT_INITIAL_MATRIX, &Rt));
  PetscCall(PetscMalloc2(m, &color, m + 1, &used));
  for (PetscInt i = 0; i < m; i++) {
    PetscInt        nc, c = 0;
    const PetscInt *cols;

    for (PetscInt j = 0; j <= m; j++) used[j] = PETSC_FALSE;
    for (PetscInt t = 0; t < 2; t++) {
      PetscCall(MatGetRow(t ? Rt : R, i, &nc, &cols, NULL));
      for (PetscInt j = 0; j < nc; j++)
        if (cols[j] < i) used[color[cols[j]]] = PETSC_TRUE;
      PetscCall(MatRestoreRow(t ? Rt : R, i, &nc, &cols, NULL));
    }
    while (used[c]) c++;
    color[i] = c;
    ncolors  = PetscMax(ncolors, c + 1);
  }
  for (PetscInt c = 0; c < ncolors; c++)
    for (PetscInt i = 0; i < m; i++)
      if (color[i] == c) perm[k++] = i;
  PetscCall(PetscFree2(color, used));
  PetscCall(MatDestroy(&Rt));
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------------------------------------------------- */
/* MatSOR */

/* PermutedSOR - the reference of multicolor SOR: SeqAIJ's MatSOR of R permuted symmetrically into the order perm
   (row k of the permuted matrix is row perm[k] of R), with b and x permuted alike, x permuted back */
static PetscErrorCode PermutedSOR(Mat R, const PetscInt perm[], Vec b, PetscReal omega, MatSORType flag, PetscReal shift, PetscInt its, PetscInt lits, Vec x)
{
  IS                 is;
  Mat                B;
  Vec                bp, xp;
  PetscInt           m;
  const PetscScalar *pb;
  PetscScalar       *px, *pbp, *pxp;

  PetscFunctionBeginUser;
  PetscCall(MatGetSize(R, &m, NULL));
  PetscCall(ISCreateGeneral(PETSC_COMM_SELF, m, perm, PETSC_COPY_VALUES, &is));
  PetscCall(ISSetPermutation(is));
  PetscCall(MatPermute(R, is, is, &B));
  PetscCall(MatCreateVecs(B, &xp, &bp));
  PetscCall(VecGetArrayRead(b, &pb));
  PetscCall(VecGetArray(x, &px));
  PetscCall(VecGetArray(bp, &pbp));
  PetscCall(VecGetArray(xp, &pxp));
  for (PetscInt k = 0; k < m; k++) {
    pbp[k] = pb[perm[k]];
    pxp[k] = px[perm[k]];
  }
  PetscCall(VecRestoreArray(bp, &pbp));
  PetscCall(VecRestoreArray(xp, &pxp));
  PetscCall(MatSOR(B, bp, omega, flag, shift, its, lits, xp));
  PetscCall(VecGetArray(xp, &pxp));
  for (PetscInt k = 0; k < m; k++) px[perm[k]] = pxp[k];
  PetscCall(VecRestoreArray(xp, &pxp));
  PetscCall(VecRestoreArray(x, &px));
  PetscCall(VecRestoreArrayRead(b, &pb));
  PetscCall(VecDestroy(&bp));
  PetscCall(VecDestroy(&xp));
  PetscCall(MatDestroy(&B));
  PetscCall(ISDestroy(&is));
  PetscFunctionReturn(0);
}

/* SORCase - one MatSOR() of A (ours) with x starting from x0 (ignored with SOR_ZERO_INITIAL_GUESS), on the matrix's
   vectors (devvec) or VECSEQ, against the reference: PermutedSOR() of R when perm is given, else SeqAIJ's MatSOR() of
   R (natural order), which must then give the same numbers exactly. Prints what failed and clears *ok */
static PetscErrorCode SORCase(Mat A, Mat R, const PetscInt perm[], PetscBool devvec, Vec b0, Vec x0, PetscReal omega, MatSORType flag, PetscReal shift, PetscInt its, PetscInt lits, PetscBool *ok)
{
  Vec       b, x, xr;
  PetscInt  m;
  PetscReal err, nrm;
  char      what[128];

  PetscFunctionBeginUser;
  PetscCall(VecGetSize(b0, &m));
  if (devvec) PetscCall(MatCreateVecs(A, &x, &b));
  else {
    PetscCall(CreateVec(PETSC_COMM_SELF, m, m, VECSEQ, &x));
    PetscCall(CreateVec(PETSC_COMM_SELF, m, m, VECSEQ, &b));
  }
  PetscCall(VecDuplicate(x0, &xr));
  PetscCall(CopyValues(b0, b));
  PetscCall(CopyValues(x0, x));
  PetscCall(VecCopy(x0, xr));
  PetscCall(MatSOR(A, b, omega, flag, shift, its, lits, x));
  if (perm) PetscCall(PermutedSOR(R, perm, b0, omega, flag, shift, its, lits, xr));
  else PetscCall(MatSOR(R, b0, omega, flag, shift, its, lits, xr));
  PetscCall(MaxDifference(x, xr, &err, &nrm));
  if (perm ? !(err <= RTOL * nrm) : err != 0.0) {
    *ok = PETSC_FALSE;
    PetscCall(PetscSNPrintf(what, sizeof(what), "flag %d, omega %g, shift %g, its %" PetscInt_FMT ", lits %" PetscInt_FMT, (int)flag, (double)omega, (double)shift, its, lits));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "    FAILED %s: max error %g, allowed %g\n", what, (double)err, perm ? (double)(RTOL * nrm) : 0.0));
  }
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&xr));
  PetscFunctionReturn(0);
}

/* RandomVecs - b and x0 (VECSEQ, m entries) with random values */
static PetscErrorCode RandomVecs(PetscInt m, PetscRandom rnd, Vec *b, Vec *x0)
{
  PetscFunctionBeginUser;
  PetscCall(CreateVec(PETSC_COMM_SELF, m, m, VECSEQ, b));
  PetscCall(CreateVec(PETSC_COMM_SELF, m, m, VECSEQ, x0));
  PetscCall(VecSetRandom(*b, rnd));
  PetscCall(VecSetRandom(*x0, rnd));
  PetscFunctionReturn(0);
}

/* CheckRuns - whether MatGPUSOR ran (more) since *count (ran: expected to run or not), which it then updates; prints
   what failed and clears *ok */
static PetscErrorCode CheckRuns(PetscLogDouble *count, PetscBool ran, const char *what, PetscBool *ok)
{
  PetscLogDouble now;

  PetscFunctionBeginUser;
  PetscCall(EventCount("MatGPUSOR", &now));
  if ((now > *count) != ran) {
    *ok = PETSC_FALSE;
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "    FAILED %s: MatGPUSOR ran %g times, expected %s\n", what, (double)(now - *count), ran ? "some" : "none"));
  }
  *count = now;
  PetscFunctionReturn(0);
}

static const MatSORType   Sweeps[]     = {SOR_FORWARD_SWEEP, SOR_BACKWARD_SWEEP, SOR_SYMMETRIC_SWEEP, SOR_LOCAL_SYMMETRIC_SWEEP};
static const char *const  SweepNames[] = {"forward", "backward", "symmetric", "local symmetric"};
static const PetscReal    Omegas[]     = {1.0, 1.3};
static const PetscReal    Shifts[]     = {0.0, 0.75};
static const PetscInt     Its[][2]     = {{1, 1}, {2, 3}};

/* CheckMulticolor - multicolor SOR of A (ours; R its AIJ copy; perm the order of its colors) for every sweep, on
   the matrix's vectors and on VECSEQ: with and without a zero initial guess, each omega, shift, its and lits,
   against PermutedSOR(); MatGPUSOR runs */
static PetscErrorCode CheckMulticolor(Mat A, Mat R, const PetscInt perm[], const char *name, PetscRandom rnd, PetscInt *nfail)
{
  PetscInt       m;
  Vec            b0, x0;
  PetscLogDouble count;
  char           line[128];

  PetscFunctionBeginUser;
  PetscCall(MatGetSize(A, &m, NULL));
  PetscCall(RandomVecs(m, rnd, &b0, &x0));
  for (size_t s = 0; s < PETSC_STATIC_ARRAY_LENGTH(Sweeps); s++)
    for (PetscInt dev = 1; dev >= 0; dev--) {
      PetscBool ok = PETSC_TRUE;

      PetscCall(EventCount("MatGPUSOR", &count));
      for (PetscInt zero = 0; zero < 2; zero++)
        for (size_t o = 0; o < PETSC_STATIC_ARRAY_LENGTH(Omegas); o++)
          for (size_t sh = 0; sh < PETSC_STATIC_ARRAY_LENGTH(Shifts); sh++)
            for (size_t it = 0; it < PETSC_STATIC_ARRAY_LENGTH(Its); it++)
              PetscCall(SORCase(A, R, perm, (PetscBool)dev, b0, x0, Omegas[o], Sweeps[s] | (zero ? SOR_ZERO_INITIAL_GUESS : 0), Shifts[sh], Its[it][0], Its[it][1], &ok));
      PetscCall(CheckRuns(&count, PETSC_TRUE, "multicolor", &ok));
      PetscCall(PetscSNPrintf(line, sizeof(line), "SOR %s, %s, %s vectors", name, SweepNames[s], dev ? "device" : "seq"));
      PetscCall(PrintResult(PETSC_COMM_SELF, WIDTH, line, ok, nfail));
    }
  PetscCall(VecDestroy(&b0));
  PetscCall(VecDestroy(&x0));
  PetscFunctionReturn(0);
}

/* CheckNatural - MatSOR() of A with flags that SeqAIJ's code applies (or with -mat_gpu_sor host, any flags) gives
   SeqAIJ's natural-order results exactly, without MatGPUSOR; flags: 0-terminated list of the sweeps to try */
static PetscErrorCode CheckNatural(Mat A, Mat R, const MatSORType flags[], PetscRandom rnd, PetscBool *ok)
{
  PetscInt       m;
  Vec            b0, x0;
  PetscLogDouble count;

  PetscFunctionBeginUser;
  PetscCall(MatGetSize(A, &m, NULL));
  PetscCall(RandomVecs(m, rnd, &b0, &x0));
  PetscCall(EventCount("MatGPUSOR", &count));
  for (PetscInt f = 0; flags[f]; f++)
    for (PetscInt dev = 0; dev < 2; dev++)
      for (size_t o = 0; o < PETSC_STATIC_ARRAY_LENGTH(Omegas); o++)
        for (size_t sh = 0; sh < PETSC_STATIC_ARRAY_LENGTH(Shifts); sh++) PetscCall(SORCase(A, R, NULL, (PetscBool)dev, b0, x0, Omegas[o], flags[f], Shifts[sh], 1, 1, ok));
  PetscCall(CheckRuns(&count, PETSC_FALSE, "natural order", ok));
  PetscCall(VecDestroy(&b0));
  PetscCall(VecDestroy(&x0));
  PetscFunctionReturn(0);
}

/* CheckSORSeq - every MatSOR() check on one process */
static PetscErrorCode CheckSORSeq(const char *seq, PetscRandom rnd, PetscInt *nfail)
{
  const MatSORType sweeps[] = {SOR_FORWARD_SWEEP, SOR_BACKWARD_SWEEP | SOR_ZERO_INITIAL_GUESS, SOR_SYMMETRIC_SWEEP, SOR_LOCAL_SYMMETRIC_SWEEP | SOR_ZERO_INITIAL_GUESS, SOR_EISENSTAT, SOR_APPLY_UPPER, 0};
  const MatSORType triangles[] = {SOR_EISENSTAT, SOR_APPLY_UPPER, 0};
  CSR              lap, blk;
  Mat              A, R, B, RB;
  PetscInt        *perm, m;
  PetscBool        ok;

  PetscFunctionBeginUser;
  PetscCall(CSRLaplacian("laplacian", GRID, &lap));
  PetscCall(CSRBlockGrid(GRID, &blk));
  m = blk.M;
  PetscCall(PetscMalloc1(m, &perm));

  /* multicolor: the 5-point Laplacian (red-black) and the grid with 2 unknowns per point */
  PetscCall(CreateMatCSR(PETSC_COMM_SELF, PETSC_DECIDE, PETSC_DECIDE, &lap, seq, &A));
  PetscCall(CreateMatCSR(PETSC_COMM_SELF, PETSC_DECIDE, PETSC_DECIDE, &lap, MATSEQAIJ, &R));
  PetscCall(RedBlackPerm(GRID, 1, perm));
  PetscCall(CheckMulticolor(A, R, perm, "5-point", rnd, nfail));
  PetscCall(CreateMatCSRBs(&blk, 2, seq, &B));
  PetscCall(CreateMatCSRBs(&blk, 2, MATSEQAIJ, &RB));
  PetscCall(RedBlackPerm(GRID, 2, perm));
  PetscCall(CheckMulticolor(B, RB, perm, "bs 2", rnd, nfail));

  /* SOR_EISENSTAT and SOR_APPLY_UPPER: SeqAIJ's code, also on matrices that ran multicolor SOR */
  ok = PETSC_TRUE;
  PetscCall(CheckNatural(A, R, triangles, rnd, &ok));
  PetscCall(CheckNatural(B, RB, triangles, rnd, &ok));
  PetscCall(PrintResult(PETSC_COMM_SELF, WIDTH, "SOR_EISENSTAT, SOR_APPLY_UPPER: SeqAIJ's results exactly", ok, nfail));
  PetscCall(MatDestroy(&B));
  PetscCall(MatDestroy(&RB));

  /* -mat_gpu_sor host: set before the matrix is created (MatSetFromOptions), or before its first MatSOR(); then its
     deprecated name, at creation (PETSc's warning) and before the first MatSOR() */
  for (PetscInt when = 0; when < 4; when++) {
    const char *name    = when < 2 ? "-mat_gpu_sor" : "-mat_ellg_sor";
    const char *lines[] = {"-mat_gpu_sor host at creation: SeqAIJ's results exactly", "-mat_gpu_sor host before the first MatSOR: SeqAIJ's exactly", "-mat_ellg_sor host (deprecated) at creation: SeqAIJ's exactly", "-mat_ellg_sor host (deprecated) before the first MatSOR: the same"};

    ok = PETSC_TRUE;
    if (when % 2 == 0) PetscCall(PetscOptionsSetValue(NULL, name, "host"));
    PetscCall(CreateMatCSRBs(&blk, 2, seq, &B));
    PetscCall(CreateMatCSRBs(&blk, 2, MATSEQAIJ, &RB));
    if (when % 2 == 1) PetscCall(PetscOptionsSetValue(NULL, name, "host"));
    PetscCall(CheckNatural(B, RB, sweeps, rnd, &ok));
    PetscCall(PetscOptionsClearValue(NULL, name));
    PetscCall(PetscOptionsClearValue(NULL, "-mat_gpu_sor")); /* which PETSc sets from the deprecated name */
    PetscCall(CheckNatural(B, RB, sweeps, rnd, &ok));        /* the option holds for the matrix */
    PetscCall(MatDestroy(&B));
    PetscCall(MatDestroy(&RB));
    PetscCall(PrintResult(PETSC_COMM_SELF, WIDTH, lines[when], ok, nfail));
  }

  /* new values in the same pattern: MatScale, then values set again (ADD_VALUES) and assembled */
  ok = PETSC_TRUE;
  PetscCall(RedBlackPerm(GRID, 1, perm));
  for (PetscInt k = 0; k < 2; k++) {
    PetscLogDouble count;
    Vec            b0, x0;

    if (k == 0) {
      PetscCall(MatScale(A, 2.0));
      PetscCall(MatScale(R, 2.0));
    } else
      for (PetscInt i = 0; i < lap.M; i += 3) {
        PetscScalar v = 0.5 + 0.01 * i;

        PetscCall(MatSetValue(A, i, i, v, ADD_VALUES));
        PetscCall(MatSetValue(R, i, i, v, ADD_VALUES));
        if (i + 1 < lap.M) {
          PetscCall(MatSetValue(A, i, i + 1, -v, ADD_VALUES));
          PetscCall(MatSetValue(R, i, i + 1, -v, ADD_VALUES));
        }
      }
    PetscCall(Assemble(A, MAT_FINAL_ASSEMBLY));
    PetscCall(Assemble(R, MAT_FINAL_ASSEMBLY));
    PetscCall(RandomVecs(lap.M, rnd, &b0, &x0));
    PetscCall(EventCount("MatGPUSOR", &count));
    PetscCall(SORCase(A, R, perm, PETSC_TRUE, b0, x0, 1.3, SOR_SYMMETRIC_SWEEP, 0.0, 2, 1, &ok));
    PetscCall(SORCase(A, R, perm, PETSC_FALSE, b0, x0, 1.0, SOR_FORWARD_SWEEP | SOR_ZERO_INITIAL_GUESS, 0.0, 1, 1, &ok));
    PetscCall(CheckRuns(&count, PETSC_TRUE, "new values", &ok));
    PetscCall(VecDestroy(&b0));
    PetscCall(VecDestroy(&x0));
  }
  PetscCall(PrintResult(PETSC_COMM_SELF, WIDTH, "SOR after MatScale, after new values set", ok, nfail));

  /* a new nonzero coupling two rows of one color: new colors (computed here by the documented greedy coloring) */
  ok = PETSC_TRUE;
  {
    Vec       b0, x0;
    PetscBool same = PETSC_TRUE;
    PetscInt *rb;

    PetscCall(MatSetOption(A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
    PetscCall(MatSetOption(R, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
    PetscCall(MatSetValue(A, 0, 2, -0.5, INSERT_VALUES));
    PetscCall(MatSetValue(R, 0, 2, -0.5, INSERT_VALUES));
    PetscCall(Assemble(A, MAT_FINAL_ASSEMBLY));
    PetscCall(Assemble(R, MAT_FINAL_ASSEMBLY));
    PetscCall(PetscMalloc1(lap.M, &rb));
    PetscCall(RedBlackPerm(GRID, 1, rb));
    PetscCall(GreedyPerm(R, perm));
    for (PetscInt i = 0; i < lap.M; i++) same = (PetscBool)(same && rb[i] == perm[i]);
    if (same) {
      ok = PETSC_FALSE;
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "    FAILED: the new nonzero does not change the colors\n"));
    }
    PetscCall(PetscFree(rb));
    PetscCall(RandomVecs(lap.M, rnd, &b0, &x0));
    PetscCall(SORCase(A, R, perm, PETSC_TRUE, b0, x0, 1.3, SOR_SYMMETRIC_SWEEP, 0.0, 2, 1, &ok));
    PetscCall(SORCase(A, R, perm, PETSC_TRUE, b0, x0, 1.0, SOR_BACKWARD_SWEEP | SOR_ZERO_INITIAL_GUESS, 0.0, 1, 1, &ok));
    PetscCall(VecDestroy(&b0));
    PetscCall(VecDestroy(&x0));
  }
  PetscCall(PrintResult(PETSC_COMM_SELF, WIDTH, "SOR after a new nonzero: new colors", ok, nfail));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&R));

  /* a zero diagonal, stored or not: PETSC_ERR_MAT_LU_ZRPVT */
  for (PetscInt stored = 1; stored >= 0; stored--) {
    const PetscInt row = 5;
    CSR            z;
    Vec            b0, x0, b, x;
    PetscErrorCode ierr;

    ok = PETSC_TRUE;
    PetscCall(CSRCreate("zero diagonal", lap.M, lap.N, lap.ia[lap.M], &z));
    for (PetscInt i = 0, nz = 0; i < lap.M; i++) {
      for (PetscInt k = lap.ia[i]; k < lap.ia[i + 1]; k++) {
        if (i == row && lap.ja[k] == i && !stored) continue;
        z.ja[nz]   = lap.ja[k];
        z.va[nz++] = i == row && lap.ja[k] == i ? 0.0 : lap.va[k];
      }
      z.ia[i + 1] = nz;
    }
    PetscCall(CreateMatCSR(PETSC_COMM_SELF, PETSC_DECIDE, PETSC_DECIDE, &z, seq, &A));
    PetscCall(CreateMatCSR(PETSC_COMM_SELF, PETSC_DECIDE, PETSC_DECIDE, &z, MATSEQAIJ, &R));
    PetscCall(RandomVecs(lap.M, rnd, &b0, &x0));
    PetscCall(MatCreateVecs(A, &x, &b));
    PetscCall(CopyValues(b0, b));
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr = MatSOR(A, b, 1.0, SOR_SYMMETRIC_SWEEP | SOR_ZERO_INITIAL_GUESS, 0.0, 1, 1, x);
    PetscCall(PetscPopErrorHandler());
    if (ierr != PETSC_ERR_MAT_LU_ZRPVT) {
      ok = PETSC_FALSE;
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "    FAILED: error %d, expected PETSC_ERR_MAT_LU_ZRPVT (%d)\n", (int)ierr, (int)PETSC_ERR_MAT_LU_ZRPVT));
    }
    /* the matrix and the vectors work after the error: with a shift that makes the stored zero nonzero, the
       reference (SeqAIJ's SOR needs the diagonal entries) */
    PetscCall(RedBlackPerm(GRID, 1, perm));
    if (stored) {
      PetscLogDouble count;

      PetscCall(EventCount("MatGPUSOR", &count));
      PetscCall(SORCase(A, R, perm, PETSC_TRUE, b0, x0, 1.0, SOR_SYMMETRIC_SWEEP, 0.5, 1, 1, &ok));
      PetscCall(CheckRuns(&count, PETSC_TRUE, "after the error", &ok)); /* the event ended after the error */
    }
    PetscCall(VecSet(x, 1.0));
    PetscCall(MatMult(A, x, b));
    PetscCall(VecDestroy(&b));
    PetscCall(VecDestroy(&x));
    PetscCall(VecDestroy(&b0));
    PetscCall(VecDestroy(&x0));
    PetscCall(MatDestroy(&A));
    PetscCall(MatDestroy(&R));
    PetscCall(CSRDestroy(&z));
    PetscCall(PrintResult(PETSC_COMM_SELF, WIDTH, stored ? "SOR, zero diagonal stored: PETSC_ERR_MAT_LU_ZRPVT" : "SOR, diagonal entry missing: PETSC_ERR_MAT_LU_ZRPVT", ok, nfail));
  }

  PetscCall(PetscFree(perm));
  PetscCall(CSRDestroy(&lap));
  PetscCall(CSRDestroy(&blk));
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------------------------------------------------- */
/* KSP with PCSOR */

/* SolveIts - iterations of KSP (ksptype) with PCSOR to rtol 1e-8 for A x = b, b = A 1; *converged: whether it
   converged */
static PetscErrorCode SolveIts(Mat A, KSPType ksptype, PetscInt *its, PetscBool *converged)
{
  KSP                ksp;
  PC                 pc;
  Vec                x, b, one;
  KSPConvergedReason reason;

  PetscFunctionBeginUser;
  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(VecDuplicate(x, &one));
  PetscCall(VecSet(one, 1.0));
  PetscCall(MatMult(A, one, b));
  PetscCall(KSPCreate(PetscObjectComm((PetscObject)A), &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, ksptype));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCSOR));
  PetscCall(KSPSetTolerances(ksp, 1e-8, PETSC_DEFAULT, PETSC_DEFAULT, 1000));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetIterationNumber(ksp, its));
  PetscCall(KSPGetConvergedReason(ksp, &reason));
  *converged = (PetscBool)(reason > 0);
  /* the solution: 1 */
  PetscCall(VecAXPY(x, -1.0, one));
  {
    PetscReal err;

    PetscCall(VecNorm(x, NORM_INFINITY, &err));
    if (!(err < 1e-4)) *converged = PETSC_FALSE;
  }
  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&one));
  PetscFunctionReturn(0);
}

/* CheckKSP - CG and GMRES with PCSOR on the 2D Laplacian of type (ours) and of AIJ: both converge, ours within a
   factor 2 of AIJ's iterations, and multicolor SOR ran (MatGPUSOR) on every process */
static PetscErrorCode CheckKSP(MPI_Comm comm, MatType type, MatType aij, PetscInt *nfail)
{
  const KSPType ksptypes[] = {KSPCG, KSPGMRES};
  Mat           A, R;
  char          line[128];

  PetscFunctionBeginUser;
  PetscCall(MatCreate(comm, &A));
  PetscCall(FillLaplacian(A, 2, KSPN, 4.0, 0.0, type, PETSC_TRUE));
  PetscCall(MatCreate(comm, &R));
  PetscCall(FillLaplacian(R, 2, KSPN, 4.0, 0.0, aij, PETSC_FALSE));
  for (size_t k = 0; k < PETSC_STATIC_ARRAY_LENGTH(ksptypes); k++) {
    PetscInt       its, itsr;
    PetscBool      conv, convr, ran, ok;
    PetscLogDouble count, now;

    PetscCall(EventCount("MatGPUSOR", &count));
    PetscCall(SolveIts(A, ksptypes[k], &its, &conv));
    PetscCall(EventCount("MatGPUSOR", &now));
    ran = (PetscBool)(now > count);
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &ran, 1, ELLG_MPI_BOOL, MPI_LAND, comm));
    PetscCall(SolveIts(R, ksptypes[k], &itsr, &convr));
    ok = (PetscBool)(conv && convr && ran && 2 * its >= itsr && its <= 2 * itsr);
    if (!ok) PetscCall(PetscPrintf(comm, "    FAILED: %" PetscInt_FMT " iterations (converged %d, multicolor %d), AIJ's %" PetscInt_FMT " (converged %d)\n", its, (int)conv, (int)ran, itsr, (int)convr));
    PetscCall(PetscSNPrintf(line, sizeof(line), "KSP %s, PCSOR: converges, iterations within 2x of AIJ's", ksptypes[k]));
    PetscCall(PrintResult(comm, WIDTH, line, ok, nfail));
  }
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&R));
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------------------------------------------------- */
/* explicit transposes */

/* CheckTransposeProducts - MatMultTranspose, MatMultTransposeAdd with z != y and z == y of P (ours) against R's
   (AIJ), on the matrices' vectors; prints what failed and clears *ok */
static PetscErrorCode CheckTransposeProducts(Mat P, Mat R, PetscRandom rnd, const char *when, PetscBool *ok)
{
  Vec       x, y, z, xr, yr, zr;
  PetscReal nrm;
  char      what[128];

  PetscFunctionBeginUser;
  PetscCall(MatCreateVecs(P, &y, &x));
  PetscCall(VecDuplicate(y, &z));
  PetscCall(MatCreateVecs(R, &yr, &xr));
  PetscCall(VecDuplicate(yr, &zr));
  PetscCall(VecSetRandom(xr, rnd));
  PetscCall(VecSetRandom(zr, rnd));
  PetscCall(CopyValues(xr, x));
  PetscCall(CopyValues(zr, z));
  PetscCall(MatNorm(R, NORM_1, &nrm)); /* |(R^T x)_j| <= || R ||_1 for |x_i| <= 1 */
  nrm += 1.0;
  PetscCall(MatMultTranspose(P, x, y));
  PetscCall(MatMultTranspose(R, xr, yr));
  PetscCall(PetscSNPrintf(what, sizeof(what), "MatMultTranspose, %s", when));
  PetscCall(CheckClose(y, yr, nrm, what, ok));
  PetscCall(MatMultTransposeAdd(P, x, z, y));
  PetscCall(MatMultTransposeAdd(R, xr, zr, yr));
  PetscCall(PetscSNPrintf(what, sizeof(what), "MatMultTransposeAdd z != y, %s", when));
  PetscCall(CheckClose(y, yr, nrm, what, ok));
  PetscCall(MatMultTransposeAdd(P, x, y, y));
  PetscCall(MatMultTransposeAdd(R, xr, yr, yr));
  PetscCall(PetscSNPrintf(what, sizeof(what), "MatMultTransposeAdd z == y, %s", when));
  PetscCall(CheckClose(y, yr, 2 * nrm, what, ok));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(VecDestroy(&z));
  PetscCall(VecDestroy(&xr));
  PetscCall(VecDestroy(&yr));
  PetscCall(VecDestroy(&zr));
  PetscFunctionReturn(0);
}

/* CheckTranspose - a tall random P (ours, on comm) with MAT_FORM_EXPLICIT_TRANSPOSE: the transposed products
   against AIJ's, after MatScale(P, 2) (new values: a new transpose), after new values set, and with the option off */
static PetscErrorCode CheckTranspose(MPI_Comm comm, MatType type, MatType aij, PetscRandom rnd, PetscInt *nfail)
{
  CSR       c;
  Mat       P, R;
  PetscInt *len, rstart, rend;
  PetscBool ok = PETSC_TRUE;
  char      line[128];

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(TALL_M, &len));
  for (PetscInt i = 0; i < TALL_M; i++) len[i] = i % 9 == 4 ? 0 : i == 7 ? TALL_N : -1; /* empty rows, a full row */
  PetscCall(CSRRandom("tall", TALL_M, TALL_N, 0.1, 0.02, len, 12, &c));
  PetscCall(PetscFree(len));
  PetscCall(CreateMatCSR(comm, PETSC_DECIDE, PETSC_DECIDE, &c, type, &P));
  PetscCall(CreateMatCSR(comm, PETSC_DECIDE, PETSC_DECIDE, &c, aij, &R));
  PetscCall(MatSetOption(P, MAT_FORM_EXPLICIT_TRANSPOSE, PETSC_TRUE));
  PetscCall(CheckTransposeProducts(P, R, rnd, "first", &ok));
  PetscCall(CheckTransposeProducts(P, R, rnd, "again", &ok));
  PetscCall(MatScale(P, 2.0));
  PetscCall(MatScale(R, 2.0));
  PetscCall(CheckTransposeProducts(P, R, rnd, "after MatScale", &ok));
  PetscCall(MatGetOwnershipRange(P, &rstart, &rend));
  for (PetscInt i = rstart; i < rend; i++)
    if (c.ia[i + 1] > c.ia[i]) {
      PetscCall(MatSetValue(P, i, c.ja[c.ia[i]], 3.0, INSERT_VALUES));
      PetscCall(MatSetValue(R, i, c.ja[c.ia[i]], 3.0, INSERT_VALUES));
    }
  PetscCall(Assemble(P, MAT_FINAL_ASSEMBLY));
  PetscCall(Assemble(R, MAT_FINAL_ASSEMBLY));
  PetscCall(CheckTransposeProducts(P, R, rnd, "after new values", &ok));
  PetscCall(PetscSNPrintf(line, sizeof(line), "%sMatMultTranspose(Add), MAT_FORM_EXPLICIT_TRANSPOSE, new values", comm == PETSC_COMM_SELF ? "" : "mpi "));
  PetscCall(PrintResult(comm, WIDTH, line, ok, nfail));

  ok = PETSC_TRUE;
  PetscCall(MatSetOption(P, MAT_FORM_EXPLICIT_TRANSPOSE, PETSC_FALSE));
  PetscCall(CheckTransposeProducts(P, R, rnd, "option off", &ok));
  PetscCall(MatScale(P, 0.5));
  PetscCall(MatScale(R, 0.5));
  PetscCall(CheckTransposeProducts(P, R, rnd, "option off, after MatScale", &ok));
  PetscCall(MatSetOption(P, MAT_FORM_EXPLICIT_TRANSPOSE, PETSC_TRUE));
  PetscCall(CheckTransposeProducts(P, R, rnd, "option on again", &ok));
  PetscCall(PetscSNPrintf(line, sizeof(line), "%sMatMultTranspose(Add), the option off, on again", comm == PETSC_COMM_SELF ? "" : "mpi "));
  PetscCall(PrintResult(comm, WIDTH, line, ok, nfail));
  PetscCall(MatDestroy(&P));
  PetscCall(MatDestroy(&R));
  PetscCall(CSRDestroy(&c));
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------------------------------------------------- */
/* MatAXPY */

/* CheckAXPY - MatAXPY(Y, a, X, str) with Y ours and X ours or SeqAIJ, str SUBSET_NONZERO_PATTERN and
   DIFFERENT_NONZERO_PATTERN: X's pattern a subset of Y's (every other entry of Y's, rows emptied), then X with an
   entry outside Y's pattern (the same call on AIJ copies, new nonzeros allowed); Y used (MatMult) before, so its
   format has to take the new values, or the new pattern */
static PetscErrorCode CheckAXPY(const char *seq, PetscRandom rnd, PetscInt *nfail)
{
  const PetscInt     M = 53, N = 41;
  const MatStructure strs[] = {SUBSET_NONZERO_PATTERN, DIFFERENT_NONZERO_PATTERN};
  CSR                cy, cx;
  char               line[128];

  PetscFunctionBeginUser;
  PetscCall(CSRRandom("Y", M, N, 0.2, 0.05, NULL, 21, &cy));
  for (PetscInt c = 0; c < 8; c++) { /* the pattern flag, X a subset or not, X ours or SeqAIJ */
    const MatStructure str    = strs[c / 4];
    const PetscInt     subset = 1 - (c / 2) % 2, xours = 1 - c % 2;
    Mat                Y, X, Yr, Xr;
    PetscBool          ok = PETSC_TRUE;
    PetscInt           nz = 0;

    /* X: every other entry of Y's rows (not rows 3, 4 mod 7), values of their own; not a subset: one more entry */
    PetscCall(CSRCreate("X", M, N, cy.ia[M] + 1, &cx));
    for (PetscInt i = 0; i < M; i++) {
      PetscBool added = PETSC_FALSE;

      if (i % 7 != 3 && i % 7 != 4)
        for (PetscInt k = cy.ia[i]; k < cy.ia[i + 1]; k++) {
          if (!subset && i == 12 && !added && (k == cy.ia[i] ? cy.ja[k] > 0 : cy.ja[k] > cy.ja[k - 1] + 1)) {
            /* a column just before this entry, not in Y's row */
            cx.ja[nz]   = k == cy.ia[i] ? 0 : cy.ja[k - 1] + 1;
            cx.va[nz++] = 2.5;
            added       = PETSC_TRUE;
          }
          if ((k - cy.ia[i]) % 2 == 0) {
            cx.ja[nz]   = cy.ja[k];
            cx.va[nz++] = 0.1 * (PetscReal)(i % 5) - 0.3 + 0.01 * (PetscReal)k;
          }
        }
      cx.ia[i + 1] = nz;
    }
    PetscCall(CreateMatCSR(PETSC_COMM_SELF, PETSC_DECIDE, PETSC_DECIDE, &cy, seq, &Y));
    PetscCall(CreateMatCSR(PETSC_COMM_SELF, PETSC_DECIDE, PETSC_DECIDE, &cy, MATSEQAIJ, &Yr));
    PetscCall(CreateMatCSR(PETSC_COMM_SELF, PETSC_DECIDE, PETSC_DECIDE, &cx, xours ? seq : MATSEQAIJ, &X));
    PetscCall(CreateMatCSR(PETSC_COMM_SELF, PETSC_DECIDE, PETSC_DECIDE, &cx, MATSEQAIJ, &Xr));
    if (!subset) {
      PetscCall(MatSetOption(Y, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
      PetscCall(MatSetOption(Yr, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
    }
    PetscCall(CheckMat(Y, Yr, rnd, "before", &ok));
    PetscCall(MatAXPY(Y, -1.5, X, str));
    PetscCall(MatAXPY(Yr, -1.5, Xr, str));
    PetscCall(CheckMat(Y, Yr, rnd, "Y + a X", &ok));
    PetscCall(MatAXPY(Y, 0.75, X, str));
    PetscCall(MatAXPY(Yr, 0.75, Xr, str));
    PetscCall(CheckMat(Y, Yr, rnd, "again", &ok));
    PetscCall(MatDestroy(&Y));
    PetscCall(MatDestroy(&Yr));
    PetscCall(MatDestroy(&X));
    PetscCall(MatDestroy(&Xr));
    PetscCall(CSRDestroy(&cx));
    PetscCall(PetscSNPrintf(line, sizeof(line), "MatAXPY %s, X %s, %s", str == SUBSET_NONZERO_PATTERN ? "SUBSET_NONZERO_PATTERN" : "DIFFERENT_NONZERO_PATTERN", xours ? "ours" : "seqaij", subset ? "a subset" : "not a subset"));
    PetscCall(PrintResult(PETSC_COMM_SELF, WIDTH, line, ok, nfail));
  }
  PetscCall(CSRDestroy(&cy));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  PetscMPIInt size;
  PetscRandom rnd;
  PetscInt    nfail = 0;
  char        type[TYPE_LEN], seq[TYPE_LEN], mpi[TYPE_LEN];

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscELLGInitializePackage());
  PetscCall(PetscLogDefaultBegin());
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(TestType(type, seq, mpi));
  PetscCall(RandomCreate(PETSC_COMM_WORLD, 12, &rnd));

  if (size == 1) {
    PetscCall(CheckSORSeq(seq, rnd, &nfail));
    PetscCall(CheckKSP(PETSC_COMM_SELF, seq, MATSEQAIJ, &nfail));
    PetscCall(CheckTranspose(PETSC_COMM_SELF, seq, MATSEQAIJ, rnd, &nfail));
    PetscCall(CheckAXPY(seq, rnd, &nfail));
  } else {
    PetscCall(CheckKSP(PETSC_COMM_WORLD, mpi, MATMPIAIJ, &nfail));
    PetscCall(CheckTranspose(PETSC_COMM_WORLD, mpi, MATMPIAIJ, rnd, &nfail));
  }

  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s\n", nfail ? "SOME CHECKS FAILED" : "all checks passed"));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   # PETSc's deprecation warning (of -mat_ellg_sor), cut to what every version prints
   test:
      suffix: 1
      args: -type {{ellg pjds slicedell csrg aijgpu}} -malloc_debug
      output_file: output/ex12_1.out
      filter: sed -e "s/ and will be removed.*$//" -e "/^ *Use the option/d"

   test:
      suffix: mpi
      nsize: {{2 3}}
      args: -type {{ellg pjds slicedell csrg aijgpu}} -malloc_debug
      output_file: output/ex12_mpi.out

TEST*/
