static char help[] = "Factors of our seq types (MatSolverType ellg: PETSc's host symbolic factorization, ILU and ICC\n\
numeric factorizations in the backend's memory, LU and Cholesky ones on the host, triangular solves on the device)\n\
against PETSc's own factors (MATSOLVERPETSC of the same matrix as AIJ, host vectors). On one process: the solver\n\
type MatGetFactor() gives for LU, ILU, Cholesky and ICC; ILU(0), ILU(2), ICC(0), ICC(1) (reverse Cuthill-McKee),\n\
LU (nested dissection and natural ordering) and Cholesky of a 3D Laplacian, and ILU (also ILU(1) reverse\n\
Cuthill-McKee) and LU of a nonsymmetric convection-diffusion matrix and of a random diagonally dominant one:\n\
MatSolve, MatSolveAdd, MatSolveTranspose and MatSolveTransposeAdd on our device vectors and on VECSEQ ones; numeric\n\
factorization again with new values in the same pattern (no new solve structure: log events MatGPUTriBuild,\n\
MatGPUFactorNum for ILU and ICC, MatGPUTriValues for LU and Cholesky, MatGPUTriSolve); pivots that PETSc's shifts act\n\
on, and -pc_factor_mat_factor_on_host (SeqAIJ's numeric factorization); KSP solves with ICC, ILU(k) and LU\n\
preconditioners (iterations and solutions); a zero pivot (the factor's error) and a non-square matrix (the\n\
error); in-place ILU(0) and LU (MatILUFactor(), MatLUFactor(): the matrix becomes SeqAIJ). On several processes:\n\
GMRES with block Jacobi and ASM (ILU on the blocks) with our mpi type: AIJ's iterations and solution, and the solver\n\
type of the factors of the blocks. Prints pass/fail lines only.\n\
  -type <ellg,pjds,slicedell>: the type (root name); its options apply (MatSetFromOptions)\n\n";

#include <petscksp.h>
#include "ellgtest.h"

#ifndef MATSOLVERELLG
  #define MATSOLVERELLG "ellg"
#endif

#define WIDTH 70    /* of the descriptions in the result lines */
#define FTOL  1e-10 /* relative tolerance of the solves with the factors: the same factors, solved in another order */
#define GRID  12    /* the 3D grids: GRID^3 unknowns */

/* CSRGrid - 7-point convection-diffusion on a g^3 grid (natural ordering, Dirichlet boundary): the Laplacian of
   LaplacianRow() (diagonal 6) plus central differences of a first-order term with the coefficient b[d] in direction
   d, -1 - b[d] before the diagonal and -1 + b[d] after it; b = 0: the Laplacian (SPD), |b[d]| < 1: nonsymmetric
   M-matrix */
static PetscErrorCode CSRGrid(const char *name, PetscInt g, const PetscReal b[3], CSR *c)
{
  PetscInt row, nc, k, n = g * g * g;

  PetscFunctionBeginUser;
  PetscCall(CSRCreate(name, n, n, 7 * n, c));
  for (row = 0; row < n; row++) {
    PetscInt    *cols = c->ja + c->ia[row];
    PetscScalar *vals = c->va + c->ia[row];

    PetscCall(LaplacianRow(3, g, row, 6.0, &nc, cols, vals));
    for (k = 0; k < nc; k++) {
      PetscInt dist = PetscAbsInt(cols[k] - row), d = dist == 1 ? 0 : dist == g ? 1 : 2;

      if (cols[k] < row) vals[k] -= b[d];
      else if (cols[k] > row) vals[k] += b[d];
    }
    c->ia[row + 1] = c->ia[row] + nc;
  }
  PetscFunctionReturn(0);
}

/* CSRDominant - a random n x n matrix (CSRRandom(), irregular pattern) with a diagonal entry in every row, 1 plus the
   sum of the absolute values of the row's other entries: strictly diagonally dominant, nonsymmetric */
static PetscErrorCode CSRDominant(const char *name, PetscInt n, PetscReal density, unsigned long seed, CSR *c)
{
  CSR      r;
  PetscInt i, k, nz = 0;

  PetscFunctionBeginUser;
  PetscCall(CSRRandom(name, n, n, density, 0.0, NULL, seed, &r));
  PetscCall(CSRCreate(name, n, n, r.ia[n] + n, c));
  for (i = 0; i < n; i++) {
    PetscReal sum = 1.0;

    for (k = r.ia[i]; k < r.ia[i + 1]; k++)
      if (r.ja[k] != i) sum += PetscAbsScalar(r.va[k]);
    for (k = r.ia[i]; k < r.ia[i + 1] && r.ja[k] < i; k++) {
      c->ja[nz]   = r.ja[k];
      c->va[nz++] = r.va[k];
    }
    c->ja[nz]   = i;
    c->va[nz++] = sum;
    for (; k < r.ia[i + 1]; k++)
      if (r.ja[k] != i) {
        c->ja[nz]   = r.ja[k];
        c->va[nz++] = r.va[k];
      }
    c->ia[i + 1] = nz;
  }
  PetscCall(CSRDestroy(&r));
  PetscFunctionReturn(0);
}

/* CreatePair - the matrix of c as our type (A) and as AIJ (R), rows split by PETSc */
static PetscErrorCode CreatePair(MPI_Comm comm, const CSR *c, MatType type, Mat *A, Mat *R)
{
  PetscFunctionBeginUser;
  PetscCall(CreateMatCSR(comm, PETSC_DECIDE, PETSC_DECIDE, c, type, A));
  PetscCall(CreateMatCSR(comm, PETSC_DECIDE, PETSC_DECIDE, c, MATAIJ, R));
  PetscFunctionReturn(0);
}

/* SolverTypeIs - whether the factor F's solver type is stype */
static PetscErrorCode SolverTypeIs(Mat F, MatSolverType stype, PetscBool *flg)
{
  MatSolverType st;

  PetscFunctionBeginUser;
  PetscCall(MatFactorGetSolverType(F, &st));
  PetscCall(PetscStrcmp(st, stype, flg));
  PetscFunctionReturn(0);
}

/* InitInfo - the factorization's parameters: no shift, PCFactor's zero pivot tolerance, levels of fill (ILU, ICC) */
static PetscErrorCode InitInfo(MatFactorType ftype, PetscInt levels, MatFactorInfo *info)
{
  PetscFunctionBeginUser;
  PetscCall(MatFactorInfoInitialize(info));
  info->levels    = (PetscReal)levels;
  info->fill      = ftype == MAT_FACTOR_LU || ftype == MAT_FACTOR_CHOLESKY ? 5.0 : 1.0;
  info->shifttype = (PetscReal)MAT_SHIFT_NONE;
  info->zeropivot = 100.0 * PETSC_MACHINE_EPSILON;
  PetscFunctionReturn(0);
}

/* Symbolic - the symbolic factorization of kind ftype of A into F (row: the ordering of Cholesky and ICC) */
static PetscErrorCode Symbolic(Mat F, Mat A, MatFactorType ftype, IS row, IS col, const MatFactorInfo *info)
{
  PetscFunctionBeginUser;
  switch (ftype) {
  case MAT_FACTOR_LU:
    PetscCall(MatLUFactorSymbolic(F, A, row, col, info));
    break;
  case MAT_FACTOR_ILU:
    PetscCall(MatILUFactorSymbolic(F, A, row, col, info));
    break;
  case MAT_FACTOR_CHOLESKY:
    PetscCall(MatCholeskyFactorSymbolic(F, A, row, info));
    break;
  case MAT_FACTOR_ICC:
    PetscCall(MatICCFactorSymbolic(F, A, row, info));
    break;
  default:
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "factor type %d", (int)ftype);
  }
  PetscFunctionReturn(0);
}

/* Numeric - the numeric factorization of A into F, after Symbolic() */
static PetscErrorCode Numeric(Mat F, Mat A, MatFactorType ftype, const MatFactorInfo *info)
{
  PetscFunctionBeginUser;
  if (ftype == MAT_FACTOR_LU || ftype == MAT_FACTOR_ILU) PetscCall(MatLUFactorNumeric(F, A, info));
  else PetscCall(MatCholeskyFactorNumeric(F, A, info));
  PetscFunctionReturn(0);
}

/* ReferenceFactor - PETSc's own factor of kind ftype of the AIJ matrix R, symbolic and numeric */
static PetscErrorCode ReferenceFactor(Mat R, MatFactorType ftype, IS row, IS col, const MatFactorInfo *info, Mat *Fr)
{
  PetscFunctionBeginUser;
  PetscCall(MatGetFactor(R, MATSOLVERPETSC, ftype, Fr));
  PetscCall(Symbolic(*Fr, R, ftype, row, col, info));
  PetscCall(Numeric(*Fr, R, ftype, info));
  PetscFunctionReturn(0);
}

/* the four solves with a factor */
typedef enum {
  SOLVE,
  SOLVE_ADD,
  SOLVE_TRANSPOSE,
  SOLVE_TRANSPOSE_ADD
} SolveOp;
static const char *const SolveOps[] = {"MatSolve", "MatSolveAdd", "MatSolveTranspose", "MatSolveTransposeAdd"};

/* RunSolve - x = F^{-1} b (op SOLVE), y + F^{-1} b, F^{-T} b, y + F^{-T} b */
static PetscErrorCode RunSolve(Mat F, SolveOp op, Vec b, Vec y, Vec x)
{
  PetscFunctionBeginUser;
  switch (op) {
  case SOLVE:
    PetscCall(MatSolve(F, b, x));
    break;
  case SOLVE_ADD:
    PetscCall(MatSolveAdd(F, b, y, x));
    break;
  case SOLVE_TRANSPOSE:
    PetscCall(MatSolveTranspose(F, b, x));
    break;
  case SOLVE_TRANSPOSE_ADD:
    PetscCall(MatSolveTransposeAdd(F, b, y, x));
    break;
  }
  PetscFunctionReturn(0);
}

/* HasTransposeSolve - whether the factor F solves with its transpose (MatSolveTranspose() does not fail) */
static PetscErrorCode HasTransposeSolve(Mat F, PetscBool *flg)
{
  Vec            b, x;
  PetscInt       n;
  PetscErrorCode ierr;

  PetscFunctionBeginUser;
  PetscCall(MatGetLocalSize(F, &n, NULL));
  PetscCall(CreateVec(PETSC_COMM_SELF, n, n, VECSEQ, &b));
  PetscCall(VecDuplicate(b, &x));
  PetscCall(VecSet(b, 1.0));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = MatSolveTranspose(F, b, x);
  PetscCall(PetscPopErrorHandler());
  *flg = (PetscBool)!ierr;
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&x));
  PetscFunctionReturn(0);
}

/* CompareSolves - the four solves with F (of A) on vectors of the type vtype (NULL: those of MatCreateVecs(A), our
   device vectors) against those with Fr on VECSEQ vectors with the same values: each within FTOL times the largest
   entry of the reference result; the transpose solves only where Fr has them (transpose). *ok false on a failure */
static PetscErrorCode CompareSolves(Mat A, Mat F, Mat Fr, VecType vtype, PetscBool transpose, PetscRandom rnd, PetscBool *ok)
{
  Vec       b, y, x, br, yr, xr;
  PetscInt  n, op;
  PetscReal err, nrm;

  PetscFunctionBeginUser;
  PetscCall(MatGetLocalSize(A, &n, NULL));
  if (vtype) PetscCall(CreateVec(PETSC_COMM_SELF, n, n, vtype, &b));
  else PetscCall(MatCreateVecs(A, &b, NULL));
  PetscCall(VecDuplicate(b, &y));
  PetscCall(VecDuplicate(b, &x));
  PetscCall(CreateVec(PETSC_COMM_SELF, n, n, VECSEQ, &br));
  PetscCall(VecDuplicate(br, &yr));
  PetscCall(VecDuplicate(br, &xr));
  for (op = SOLVE; op <= SOLVE_TRANSPOSE_ADD; op++) {
    if (!transpose && op >= SOLVE_TRANSPOSE) break;
    PetscCall(VecSetRandom(br, rnd));
    PetscCall(VecSetRandom(yr, rnd));
    PetscCall(CopyValues(br, b));
    PetscCall(CopyValues(yr, y));
    PetscCall(RunSolve(F, (SolveOp)op, b, y, x));
    PetscCall(RunSolve(Fr, (SolveOp)op, br, yr, xr));
    PetscCall(MaxDifference(x, xr, &err, &nrm));
    if (!(err <= FTOL * nrm)) {
      *ok = PETSC_FALSE;
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "    FAILED %s on %s vectors: max difference %g, largest entry %g\n", SolveOps[op], vtype ? vtype : "MatCreateVecs", (double)err, (double)nrm));
    }
  }
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&y));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&br));
  PetscCall(VecDestroy(&yr));
  PetscCall(VecDestroy(&xr));
  PetscFunctionReturn(0);
}

/* the counts of our factor's log events */
typedef struct {
  PetscLogDouble build, values, solve, numeric;
} TriEvents;

static PetscErrorCode GetTriEvents(TriEvents *e)
{
  PetscFunctionBeginUser;
  PetscCall(EventCount("MatGPUTriBuild", &e->build));
  PetscCall(EventCount("MatGPUTriValues", &e->values));
  PetscCall(EventCount("MatGPUTriSolve", &e->solve));
  PetscCall(EventCount("MatGPUFactorNum", &e->numeric));
  PetscFunctionReturn(0);
}

/* one factorization to compare */
typedef struct {
  const char     *name;
  MatFactorType   ftype;
  MatOrderingType ordering;
  PetscInt        levels; /* of fill: ILU, ICC */
} FactorCase;

/* CheckFactor - the factorization fc of the matrix c (name mname) as our type, by the default solver of the type,
   against that of AIJ by PETSc, with the same orderings (those of the AIJ matrix) and parameters: the solves
   (CompareSolves() on our device vectors and on VECSEQ ones); our log events: the solve structure built (once the
   factor is done, or with the first solve), ILU and ICC factored in the backend's memory, the solves logged; then new
   values in the same pattern (2 A + I), the numeric factorization again on the same factors: the solves again, and
   the values updated without a new build (ILU, ICC: factored again in the backend's memory) */
static PetscErrorCode CheckFactor(const CSR *c, const char *mname, MatType type, const FactorCase *fc, PetscRandom rnd, PetscInt *nfail)
{
  Mat           A, R, F, Fr;
  IS            row, col;
  MatFactorInfo info;
  TriEvents     e0, e1, e2;
  PetscBool     ok = PETSC_TRUE, transpose = PETSC_FALSE;
  const PetscBool incomplete = (PetscBool)(fc->ftype == MAT_FACTOR_ILU || fc->ftype == MAT_FACTOR_ICC);
  char          line[128];

  PetscFunctionBeginUser;
  PetscCall(CreatePair(PETSC_COMM_SELF, c, type, &A, &R));
  PetscCall(InitInfo(fc->ftype, fc->levels, &info));
  PetscCall(MatGetOrdering(R, fc->ordering, &row, &col));

  PetscCall(GetTriEvents(&e0));
  PetscCall(MatGetFactor(A, NULL, fc->ftype, &F));
  PetscCall(Symbolic(F, A, fc->ftype, row, col, &info));
  PetscCall(Numeric(F, A, fc->ftype, &info));
  PetscCall(ReferenceFactor(R, fc->ftype, row, col, &info, &Fr));
  /* Cholesky and ICC: the transpose solves where PETSc's own factor has them */
  PetscCall(HasTransposeSolve(Fr, &transpose));
  PetscCall(CompareSolves(A, F, Fr, NULL, transpose, rnd, &ok));
  PetscCall(CompareSolves(A, F, Fr, VECSEQ, transpose, rnd, &ok));
  PetscCall(GetTriEvents(&e1));
  PetscCall(PetscSNPrintf(line, sizeof(line), "%s %s: solves match AIJ's", mname, fc->name));
  PetscCall(PrintResult(PETSC_COMM_SELF, WIDTH, line, ok, nfail));
  PetscCall(PetscSNPrintf(line, sizeof(line), "%s %s: MatGPUTriBuild, %sMatGPUTriSolve logged", mname, fc->name, incomplete ? "MatGPUFactorNum, " : ""));
  PetscCall(PrintResult(PETSC_COMM_SELF, WIDTH, line, (PetscBool)(e1.build > e0.build && e1.solve > e0.solve && (e1.numeric > e0.numeric) == incomplete), nfail));

  /* new values, same pattern: numeric factorization only, on the same factors */
  ok = PETSC_TRUE;
  PetscCall(MatScale(A, 2.0));
  PetscCall(MatShift(A, 1.0));
  PetscCall(MatScale(R, 2.0));
  PetscCall(MatShift(R, 1.0));
  PetscCall(Numeric(F, A, fc->ftype, &info));
  PetscCall(Numeric(Fr, R, fc->ftype, &info));
  PetscCall(CompareSolves(A, F, Fr, NULL, transpose, rnd, &ok));
  PetscCall(CompareSolves(A, F, Fr, VECSEQ, transpose, rnd, &ok));
  PetscCall(GetTriEvents(&e2));
  PetscCall(PetscSNPrintf(line, sizeof(line), "%s %s, new values: solves match AIJ's", mname, fc->name));
  PetscCall(PrintResult(PETSC_COMM_SELF, WIDTH, line, ok, nfail));
  PetscCall(PetscSNPrintf(line, sizeof(line), "%s %s, new values: %s, no MatGPUTriBuild", mname, fc->name, incomplete ? "MatGPUFactorNum" : "MatGPUTriValues"));
  PetscCall(PrintResult(PETSC_COMM_SELF, WIDTH, line, (PetscBool)(e2.build == e1.build && (incomplete ? e2.numeric > e1.numeric && e2.values == e1.values : e2.values > e1.values)), nfail));

  PetscCall(ISDestroy(&row));
  PetscCall(ISDestroy(&col));
  PetscCall(MatDestroy(&F));
  PetscCall(MatDestroy(&Fr));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&R));
  PetscFunctionReturn(0);
}

/* CheckHostNumeric - factorizations our numeric factorization leaves to SeqAIJ's on the host: ICC(0) of a symmetric
   indefinite matrix with a positive definite shift and ILU(0) of a matrix with a zero pivot with a nonzero shift, whose
   pivots PETSc's shifts act on (the solves match AIJ's only with PETSc's shifted factors), and ILU(0) with
   -pc_factor_mat_factor_on_host (no MatGPUFactorNum) */
static PetscErrorCode CheckHostNumeric(const CSR *indef, const CSR *zeropivot, const CSR *lap, MatType type, PetscRandom rnd, PetscInt *nfail)
{
  const struct {
    const char        *name;
    const CSR         *c;
    MatFactorType      ftype;
    MatFactorShiftType shift;
    PetscBool          onhost;
  } cases[] = {
    {"ICC(0), positive definite shift",       indef,     MAT_FACTOR_ICC, MAT_SHIFT_POSITIVE_DEFINITE, PETSC_FALSE},
    {"ILU(0), nonzero shift",                 zeropivot, MAT_FACTOR_ILU, MAT_SHIFT_NONZERO,           PETSC_FALSE},
    {"ILU(0), -pc_factor_mat_factor_on_host", lap,       MAT_FACTOR_ILU, MAT_SHIFT_NONE,              PETSC_TRUE }
  };

  PetscFunctionBeginUser;
  for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
    Mat           A, R, F, Fr;
    IS            row, col;
    MatFactorInfo info;
    TriEvents     e0, e1;
    PetscBool     ok = PETSC_TRUE, transpose = PETSC_FALSE;
    char          line[128];

    PetscCall(CreatePair(PETSC_COMM_SELF, cases[k].c, type, &A, &R));
    PetscCall(InitInfo(cases[k].ftype, 0, &info));
    info.shifttype   = (PetscReal)cases[k].shift;
    info.shiftamount = 100.0 * PETSC_MACHINE_EPSILON; /* PCFactor's default */
    PetscCall(MatGetOrdering(R, MATORDERINGNATURAL, &row, &col));
    PetscCall(ReferenceFactor(R, cases[k].ftype, row, col, &info, &Fr));
    if (cases[k].onhost) PetscCall(PetscOptionsSetValue(NULL, "-pc_factor_mat_factor_on_host", "1"));
    PetscCall(GetTriEvents(&e0));
    PetscCall(MatGetFactor(A, NULL, cases[k].ftype, &F));
    PetscCall(Symbolic(F, A, cases[k].ftype, row, col, &info));
    PetscCall(Numeric(F, A, cases[k].ftype, &info));
    PetscCall(GetTriEvents(&e1));
    if (cases[k].onhost) PetscCall(PetscOptionsClearValue(NULL, "-pc_factor_mat_factor_on_host"));
    PetscCall(HasTransposeSolve(Fr, &transpose));
    PetscCall(CompareSolves(A, F, Fr, NULL, transpose, rnd, &ok));
    if (cases[k].onhost) ok = (PetscBool)(ok && e1.numeric == e0.numeric && e1.build > e0.build);
    PetscCall(PetscSNPrintf(line, sizeof(line), "%s %s: solves match AIJ's%s", cases[k].c->name, cases[k].name, cases[k].onhost ? ", on the host" : ""));
    PetscCall(PrintResult(PETSC_COMM_SELF, WIDTH, line, ok, nfail));
    PetscCall(ISDestroy(&row));
    PetscCall(ISDestroy(&col));
    PetscCall(MatDestroy(&F));
    PetscCall(MatDestroy(&Fr));
    PetscCall(MatDestroy(&A));
    PetscCall(MatDestroy(&R));
  }
  PetscFunctionReturn(0);
}

/* CheckILU0 - ILU(0) in the natural ordering, which our factor does without SeqAIJ's symbolic factorization until
   something reads its host structure: MatGetInfo() as SeqAIJ's factor tells it; a numeric factorization given a SeqAIJ
   matrix of the same pattern (not of our type); and a view, after which MatGetInfo() is SeqAIJ's own */
static PetscErrorCode CheckILU0(const CSR *c, MatType type, PetscRandom rnd, PetscInt *nfail)
{
  Mat           A, R, F, Fr;
  IS            row, col;
  MatFactorInfo info;
  MatInfo       fi, ri;
  PetscViewer   viewer;
  PetscBool     ok = PETSC_TRUE, same;
  char          line[128];

  PetscFunctionBeginUser;
  PetscCall(CreatePair(PETSC_COMM_SELF, c, type, &A, &R));
  PetscCall(InitInfo(MAT_FACTOR_ILU, 0, &info));
  PetscCall(MatGetOrdering(R, MATORDERINGNATURAL, &row, &col));
  PetscCall(ReferenceFactor(R, MAT_FACTOR_ILU, row, col, &info, &Fr));
  PetscCall(MatGetFactor(A, NULL, MAT_FACTOR_ILU, &F));
  PetscCall(MatILUFactorSymbolic(F, A, row, col, &info));
  PetscCall(MatGetInfo(F, MAT_LOCAL, &fi));
  PetscCall(MatGetInfo(Fr, MAT_LOCAL, &ri));
  same = (PetscBool)(fi.nz_used == ri.nz_used && fi.nz_allocated == ri.nz_allocated && fi.fill_ratio_given == ri.fill_ratio_given && fi.fill_ratio_needed == ri.fill_ratio_needed && fi.block_size == ri.block_size);
  PetscCall(PetscSNPrintf(line, sizeof(line), "%s ILU(0): MatGetInfo() of the factor as SeqAIJ's", c->name));
  PetscCall(PrintResult(PETSC_COMM_SELF, WIDTH, line, same, nfail));
  PetscCall(MatLUFactorNumeric(F, R, &info)); /* a SeqAIJ matrix of the pattern */
  PetscCall(CompareSolves(A, F, Fr, NULL, PETSC_TRUE, rnd, &ok));
  PetscCall(PetscSNPrintf(line, sizeof(line), "%s ILU(0) of a SeqAIJ matrix: solves match AIJ's", c->name));
  PetscCall(PrintResult(PETSC_COMM_SELF, WIDTH, line, ok, nfail));
  PetscCall(PetscViewerASCIIOpen(PETSC_COMM_SELF, "/dev/null", &viewer));
  PetscCall(PetscViewerPushFormat(viewer, PETSC_VIEWER_ASCII_INFO));
  PetscCall(MatView(F, viewer));
  PetscCall(PetscViewerPopFormat(viewer));
  PetscCall(PetscViewerDestroy(&viewer));
  PetscCall(MatGetInfo(F, MAT_LOCAL, &fi));
  same = (PetscBool)(fi.nz_used == ri.nz_used && fi.nz_allocated == ri.nz_allocated && fi.fill_ratio_needed == ri.fill_ratio_needed);
  PetscCall(PetscSNPrintf(line, sizeof(line), "%s ILU(0), viewed: MatGetInfo() SeqAIJ's", c->name));
  PetscCall(PrintResult(PETSC_COMM_SELF, WIDTH, line, same, nfail));
  /* in place (MatILUFactor(), MatLUFactor()): the matrix becomes SeqAIJ and is factored as PETSc's */
  for (PetscInt lu = 0; lu < 2; lu++) {
    Mat           D, Fref = Fr;
    MatFactorInfo dinfo = info;
    PetscBool     isaij;

    if (lu) {
      PetscCall(InitInfo(MAT_FACTOR_LU, 0, &dinfo));
      PetscCall(ReferenceFactor(R, MAT_FACTOR_LU, row, col, &dinfo, &Fref));
    }
    PetscCall(MatDuplicate(A, MAT_COPY_VALUES, &D));
    if (lu) PetscCall(MatLUFactor(D, row, col, &dinfo));
    else PetscCall(MatILUFactor(D, row, col, &dinfo));
    ok = PETSC_TRUE;
    PetscCall(CompareSolves(A, D, Fref, NULL, PETSC_FALSE, rnd, &ok));
    PetscCall(PetscObjectTypeCompare((PetscObject)D, MATSEQAIJ, &isaij));
    PetscCall(PetscSNPrintf(line, sizeof(line), "%s in-place %s: SeqAIJ, solves match AIJ's", c->name, lu ? "LU" : "ILU(0)"));
    PetscCall(PrintResult(PETSC_COMM_SELF, WIDTH, line, (PetscBool)(ok && isaij), nfail));
    PetscCall(MatDestroy(&D));
    if (lu) PetscCall(MatDestroy(&Fref));
  }
  PetscCall(ISDestroy(&row));
  PetscCall(ISDestroy(&col));
  PetscCall(MatDestroy(&F));
  PetscCall(MatDestroy(&Fr));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&R));
  PetscFunctionReturn(0);
}

/* CheckJacobiSweeps - -mat_gpu_factor_solve jacobi: with more sweeps than the triangles of ILU(0) have levels, the
   solves are exact (the sweeps of a triangular system end in its solution after as many sweeps as it has levels);
   with one sweep they are an approximation */
static PetscErrorCode CheckJacobiSweeps(const CSR *c, MatType type, PetscRandom rnd, PetscInt *nfail)
{
  const char   *sweeps[2] = {"40", "1"}; /* the 12^3 Laplacian's ILU(0) has 34 levels */
  Mat           A, R, F, Fr;
  IS            row, col;
  MatFactorInfo info;
  PetscBool     ok = PETSC_TRUE, given;
  char          method[32];

  PetscFunctionBeginUser;
  PetscCall(CreatePair(PETSC_COMM_SELF, c, type, &A, &R));
  PetscCall(InitInfo(MAT_FACTOR_ILU, 0, &info));
  PetscCall(MatGetOrdering(R, MATORDERINGNATURAL, &row, &col));
  PetscCall(ReferenceFactor(R, MAT_FACTOR_ILU, row, col, &info, &Fr));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-mat_gpu_factor_solve", method, sizeof(method), &given));
  PetscCall(PetscOptionsSetValue(NULL, "-mat_gpu_factor_solve", "jacobi"));
  for (int k = 0; k < 2; k++) {
    Vec       b, x, br, xr;
    PetscReal err, nrm;

    PetscCall(PetscOptionsSetValue(NULL, "-mat_gpu_factor_jacobi_sweeps", sweeps[k]));
    PetscCall(MatGetFactor(A, NULL, MAT_FACTOR_ILU, &F));
    PetscCall(Symbolic(F, A, MAT_FACTOR_ILU, row, col, &info));
    PetscCall(Numeric(F, A, MAT_FACTOR_ILU, &info));
    if (k == 0) {
      PetscCall(CompareSolves(A, F, Fr, NULL, PETSC_TRUE, rnd, &ok));
      PetscCall(PrintResult(PETSC_COMM_SELF, WIDTH, "ILU(0), Jacobi sweeps beyond its levels: solves match AIJ's", ok, nfail));
    } else {
      PetscCall(MatCreateVecs(A, &b, &x));
      PetscCall(MatCreateVecs(R, &br, &xr));
      PetscCall(VecSetRandom(br, rnd));
      PetscCall(CopyValues(br, b));
      PetscCall(MatSolve(F, b, x));
      PetscCall(MatSolve(Fr, br, xr));
      PetscCall(MaxDifference(x, xr, &err, &nrm));
      PetscCall(PrintResult(PETSC_COMM_SELF, WIDTH, "ILU(0), one Jacobi sweep: an approximate solve", (PetscBool)(err > FTOL * nrm), nfail));
      PetscCall(VecDestroy(&b));
      PetscCall(VecDestroy(&x));
      PetscCall(VecDestroy(&br));
      PetscCall(VecDestroy(&xr));
    }
    PetscCall(MatDestroy(&F));
  }
  if (given) PetscCall(PetscOptionsSetValue(NULL, "-mat_gpu_factor_solve", method)); /* the run's own, for the next checks */
  else PetscCall(PetscOptionsClearValue(NULL, "-mat_gpu_factor_solve"));
  PetscCall(PetscOptionsClearValue(NULL, "-mat_gpu_factor_jacobi_sweeps"));
  PetscCall(ISDestroy(&row));
  PetscCall(ISDestroy(&col));
  PetscCall(MatDestroy(&Fr));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&R));
  PetscFunctionReturn(0);
}

/* CheckSolverTypes - the solver type of the factors MatGetFactor() gives for a matrix of our seq type: ellg by default
   for the four kinds and when asked by name, petsc when asked for */
static PetscErrorCode CheckSolverTypes(const CSR *c, MatType type, PetscInt *nfail)
{
  const MatFactorType ftypes[] = {MAT_FACTOR_LU, MAT_FACTOR_ILU, MAT_FACTOR_CHOLESKY, MAT_FACTOR_ICC};
  Mat                 A, F;
  PetscBool           flg;
  PetscErrorCode      ierr;
  char                line[128];

  PetscFunctionBeginUser;
  PetscCall(CreateMatCSR(PETSC_COMM_SELF, PETSC_DECIDE, PETSC_DECIDE, c, type, &A));
  for (PetscInt k = 0; k < 4; k++) {
    PetscCall(MatGetFactor(A, NULL, ftypes[k], &F));
    PetscCall(SolverTypeIs(F, MATSOLVERELLG, &flg));
    PetscCall(PetscSNPrintf(line, sizeof(line), "MatGetFactor %s: solver type ellg", MatFactorTypes[ftypes[k]]));
    PetscCall(PrintResult(PETSC_COMM_SELF, WIDTH, line, flg, nfail));
    PetscCall(MatDestroy(&F));
  }
  /* asked by name: an error if there is no such solver */
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = MatGetFactor(A, MATSOLVERELLG, MAT_FACTOR_LU, &F);
  PetscCall(PetscPopErrorHandler());
  flg = PETSC_FALSE;
  if (!ierr) {
    PetscCall(SolverTypeIs(F, MATSOLVERELLG, &flg));
    PetscCall(MatDestroy(&F));
  }
  PetscCall(PrintResult(PETSC_COMM_SELF, WIDTH, "MatGetFactor MATSOLVERELLG LU: solver type ellg", flg, nfail));
  PetscCall(MatGetFactor(A, MATSOLVERPETSC, MAT_FACTOR_ILU, &F));
  PetscCall(SolverTypeIs(F, MATSOLVERPETSC, &flg));
  PetscCall(PrintResult(PETSC_COMM_SELF, WIDTH, "MatGetFactor MATSOLVERPETSC ILU: solver type petsc", flg, nfail));
  PetscCall(MatDestroy(&F));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(0);
}

/* one KSP solve to compare */
typedef struct {
  const char *name;
  const CSR  *c;
  KSPType     ktype;
  PCType      ptype;
  PetscInt    levels; /* of fill: ILU, ICC */
} KSPCase;

/* Solve - A x = b with the case's method from a zero guess to a relative tolerance of 1e-10; the iterations (-1: not
   converged) and whether the preconditioner's factor is of the solver type stype. prefix: the KSP's options prefix */
static PetscErrorCode Solve(Mat A, Vec b, Vec x, const KSPCase *kc, const char *prefix, MatSolverType stype, PetscInt *its, PetscBool *isstype)
{
  KSP                ksp;
  PC                 pc;
  Mat                F;
  KSPConvergedReason reason;

  PetscFunctionBeginUser;
  PetscCall(KSPCreate(PetscObjectComm((PetscObject)A), &ksp));
  PetscCall(KSPSetOptionsPrefix(ksp, prefix));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, kc->ktype));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, kc->ptype));
  if (kc->levels) PetscCall(PCFactorSetLevels(pc, kc->levels));
  PetscCall(KSPSetTolerances(ksp, 1e-10, PETSC_DEFAULT, PETSC_DEFAULT, 1000));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(VecSet(x, 0.0));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetIterationNumber(ksp, its));
  PetscCall(KSPGetConvergedReason(ksp, &reason));
  if (reason <= 0) *its = -1;
  PetscCall(PCFactorGetMatrix(pc, &F));
  PetscCall(SolverTypeIs(F, stype, isstype));
  PetscCall(KSPDestroy(&ksp));
  PetscFunctionReturn(0);
}

/* SameSolve - whether the iterations its (ours) and itsr (AIJ's) and the solutions x and xr agree; else prints them.
   The factors are the same numbers, but our products, reductions and triangular solves may sum in other orders
   (on the device): the residual norms differ by roundoff, and one that ends right at the tolerance may pass it an
   iteration earlier or later; more than one iteration apart would mean another preconditioner */
static PetscErrorCode SameSolve(PetscInt its, PetscInt itsr, Vec x, Vec xr, PetscBool *ok)
{
  PetscReal err, nrm;

  PetscFunctionBeginUser;
  PetscCall(MaxDifference(x, xr, &err, &nrm));
  *ok = (PetscBool)(its >= 0 && itsr >= 0 && PetscAbsInt(its - itsr) <= 1 && err <= 1e-8 * nrm);
  if (!*ok) PetscCall(PetscPrintf(PetscObjectComm((PetscObject)x), "    ours %" PetscInt_FMT " iterations, aij %" PetscInt_FMT ", solution difference %g (relative)\n", its, itsr, (double)(nrm > 0 ? err / nrm : err)));
  PetscFunctionReturn(0);
}

/* CheckKSP - KSP solves of the cases with our type (our device vectors) and with AIJ (VECSEQ): iterations and
   solutions; the preconditioners' factors of our matrices are ellg, and petsc with -pc_factor_mat_solver_type petsc */
static PetscErrorCode CheckKSP(const KSPCase cases[], PetscInt ncases, MatType type, PetscRandom rnd, PetscInt *nfail)
{
  Mat       A, R;
  Vec       x, b, xr, br;
  PetscInt  its, itsr;
  PetscBool ok, isellg, allellg = PETSC_TRUE, dummy;
  char      line[128];

  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < ncases; k++) {
    const KSPCase *kc = &cases[k];

    PetscCall(CreatePair(PETSC_COMM_SELF, kc->c, type, &A, &R));
    PetscCall(MatCreateVecs(A, &x, &b));
    PetscCall(MatCreateVecs(R, &xr, &br));
    PetscCall(VecSetRandom(br, rnd));
    PetscCall(CopyValues(br, b));
    PetscCall(Solve(A, b, x, kc, NULL, MATSOLVERELLG, &its, &isellg));
    PetscCall(Solve(R, br, xr, kc, NULL, MATSOLVERPETSC, &itsr, &dummy));
    allellg = (PetscBool)(allellg && isellg);
    PetscCall(SameSolve(its, itsr, x, xr, &ok));
    PetscCall(PetscSNPrintf(line, sizeof(line), "KSP %s %s: AIJ's iterations and solution", kc->c->name, kc->name));
    PetscCall(PrintResult(PETSC_COMM_SELF, WIDTH, line, ok, nfail));
    if (k == ncases - 1) { /* PETSc's factor asked for by option */
      PetscCall(PetscOptionsSetValue(NULL, "-petscfactor_pc_factor_mat_solver_type", MATSOLVERPETSC));
      PetscCall(Solve(A, b, x, kc, "petscfactor_", MATSOLVERPETSC, &its, &ok));
      PetscCall(PetscOptionsClearValue(NULL, "-petscfactor_pc_factor_mat_solver_type"));
      PetscCall(PetscSNPrintf(line, sizeof(line), "KSP %s %s, -pc_factor_mat_solver_type petsc: petsc", kc->c->name, kc->name));
      PetscCall(PrintResult(PETSC_COMM_SELF, WIDTH, line, ok, nfail));
    }
    PetscCall(VecDestroy(&x));
    PetscCall(VecDestroy(&b));
    PetscCall(VecDestroy(&xr));
    PetscCall(VecDestroy(&br));
    PetscCall(MatDestroy(&A));
    PetscCall(MatDestroy(&R));
  }
  PetscCall(PrintResult(PETSC_COMM_SELF, WIDTH, "KSP: the preconditioners' factors are ellg", allellg, nfail));
  PetscFunctionReturn(0);
}

/* FactorError - the factorization of kind ftype (natural ordering) of A by solver: the error code of MatGetFactor()
   and the symbolic factorization (numeric: also the numeric one) and, when those succeed, the factor's error */
static PetscErrorCode FactorError(Mat A, MatSolverType solver, MatFactorType ftype, PetscBool numeric, PetscErrorCode *ierr, MatFactorError *ferr)
{
  Mat           F = NULL;
  IS            row, col;
  PetscInt      m, n;
  MatFactorInfo info;

  PetscFunctionBeginUser;
  PetscCall(MatGetSize(A, &m, &n));
  PetscCall(ISCreateStride(PETSC_COMM_SELF, m, 0, 1, &row));
  PetscCall(ISCreateStride(PETSC_COMM_SELF, n, 0, 1, &col));
  PetscCall(InitInfo(ftype, 0, &info));
  *ferr = MAT_FACTOR_NOERROR;
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  *ierr = MatGetFactor(A, solver, ftype, &F);
  if (!*ierr) *ierr = Symbolic(F, A, ftype, row, col, &info);
  if (!*ierr && numeric) *ierr = Numeric(F, A, ftype, &info);
  PetscCall(PetscPopErrorHandler());
  if (!*ierr && numeric) PetscCall(MatFactorGetError(F, ferr));
  PetscCall(MatDestroy(&F));
  PetscCall(ISDestroy(&row));
  PetscCall(ISDestroy(&col));
  PetscFunctionReturn(0);
}

/* CheckBadUse - a zero pivot (natural ordering, no shift): the numeric factorization records it in the factor, as
   PETSc's does; a non-square matrix: MatGetFactor() with the symbolic factorization fails as AIJ's does */
static PetscErrorCode CheckBadUse(MatType type, PetscInt *nfail)
{
  const MatFactorType ftypes[] = {MAT_FACTOR_LU, MAT_FACTOR_ILU, MAT_FACTOR_CHOLESKY, MAT_FACTOR_ICC};
  const PetscReal     b[3]     = {0.0, 0.0, 0.0};
  CSR                 c;
  Mat                 A, R;
  PetscErrorCode      ierr, ierrr;
  MatFactorError      ferr, ferrr;
  PetscBool           ok;
  char                line[128];

  PetscFunctionBeginUser;
  /* the Laplacian with an explicit zero as the first diagonal entry: the first pivot */
  PetscCall(CSRGrid("zero pivot", 4, b, &c));
  c.va[0] = 0.0;
  PetscCall(CreatePair(PETSC_COMM_SELF, &c, type, &A, &R));
  for (PetscInt k = 0; k < 2; k++) {
    PetscCall(FactorError(A, NULL, ftypes[k], PETSC_TRUE, &ierr, &ferr));
    PetscCall(FactorError(R, MATSOLVERPETSC, ftypes[k], PETSC_TRUE, &ierrr, &ferrr));
    ok = (PetscBool)(!ierr && !ierrr && ferrr == MAT_FACTOR_NUMERIC_ZEROPIVOT && ferr == ferrr);
    if (!ok) PetscCall(PetscPrintf(PETSC_COMM_SELF, "    ours: error %d, factor error %d; aij: error %d, factor error %d\n", (int)ierr, (int)ferr, (int)ierrr, (int)ferrr));
    PetscCall(PetscSNPrintf(line, sizeof(line), "zero pivot %s: MatFactorGetError zero pivot, as AIJ's", MatFactorTypes[ftypes[k]]));
    PetscCall(PrintResult(PETSC_COMM_SELF, WIDTH, line, ok, nfail));
  }
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&R));
  PetscCall(CSRDestroy(&c));

  PetscCall(CSRRandom("non-square", 20, 30, 0.2, 0.0, NULL, 3, &c));
  PetscCall(CreatePair(PETSC_COMM_SELF, &c, type, &A, &R));
  for (PetscInt k = 0; k < 4; k++) {
    PetscCall(FactorError(A, NULL, ftypes[k], PETSC_FALSE, &ierr, &ferr));
    PetscCall(FactorError(R, MATSOLVERPETSC, ftypes[k], PETSC_FALSE, &ierrr, &ferrr));
    ok = (PetscBool)(ierrr && ierr == ierrr);
    if (!ok) PetscCall(PetscPrintf(PETSC_COMM_SELF, "    ours: error %d; aij: error %d\n", (int)ierr, (int)ierrr));
    PetscCall(PetscSNPrintf(line, sizeof(line), "non-square %s: MatGetFactor + symbolic fail as AIJ's", MatFactorTypes[ftypes[k]]));
    PetscCall(PrintResult(PETSC_COMM_SELF, WIDTH, line, ok, nfail));
  }
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&R));
  PetscCall(CSRDestroy(&c));
  PetscFunctionReturn(0);
}

/* SubKSP - the sub-KSP of this process of the block Jacobi or ASM preconditioner pc (one block per process) */
static PetscErrorCode SubKSP(PC pc, PetscBool isasm, KSP *sub)
{
  KSP     *subs;
  PetscInt nlocal, first;

  PetscFunctionBeginUser;
  if (isasm) PetscCall(PCASMGetSubKSP(pc, &nlocal, &first, &subs));
  else PetscCall(PCBJacobiGetSubKSP(pc, &nlocal, &first, &subs));
  PetscCheck(nlocal == 1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%" PetscInt_FMT " blocks on a process, expected 1", nlocal);
  *sub = subs[0];
  PetscFunctionReturn(0);
}

/* BlockSolve - GMRES with block Jacobi or ASM, ILU(0) on the blocks, from a zero guess to a relative tolerance of
   1e-10: the iterations (-1: not converged), whether this process's block is of the type seq (NULL: not asked) and
   whether its factor is ellg */
static PetscErrorCode BlockSolve(Mat A, Vec b, Vec x, PCType ptype, const char *seq, PetscInt *its, PetscBool *ourblock, PetscBool *ellgfactor)
{
  KSP                ksp, sub = NULL;
  PC                 pc, subpc;
  Mat                P, F;
  PetscBool          isasm;
  KSPConvergedReason reason;

  PetscFunctionBeginUser;
  PetscCall(PetscStrcmp(ptype, PCASM, &isasm));
  PetscCall(KSPCreate(PetscObjectComm((PetscObject)A), &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, KSPGMRES));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, ptype));
  PetscCall(KSPSetTolerances(ksp, 1e-10, PETSC_DEFAULT, PETSC_DEFAULT, 1000));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(KSPSetUp(ksp));
  PetscCall(SubKSP(pc, isasm, &sub));
  PetscCall(KSPGetPC(sub, &subpc));
  PetscCall(PCSetType(subpc, PCILU));
  PetscCall(VecSet(x, 0.0));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetIterationNumber(ksp, its));
  PetscCall(KSPGetConvergedReason(ksp, &reason));
  if (reason <= 0) *its = -1;
  if (seq) {
    PetscCall(KSPGetOperators(sub, NULL, &P));
    PetscCall(PetscObjectTypeCompare((PetscObject)P, seq, ourblock));
    PetscCall(PCFactorGetMatrix(subpc, &F));
    PetscCall(SolverTypeIs(F, MATSOLVERELLG, ellgfactor));
  }
  PetscCall(KSPDestroy(&ksp));
  PetscFunctionReturn(0);
}

/* CheckBlocks - GMRES with block Jacobi and ASM (ILU(0) blocks) with our mpi type (device vectors) against AIJ:
   iterations and solution; the blocks are of our seq type (block Jacobi's: the diagonal blocks of our mpi type; ASM's:
   PETSc's MatCreateSubMatrices(), which gives them the type of the diagonal block), so PCFactor gets them the ellg
   factor */
static PetscErrorCode CheckBlocks(const CSR *c, MatType type, const char *seq, PetscRandom rnd, PetscInt *nfail)
{
  MPI_Comm  comm = PETSC_COMM_WORLD;
  Mat       A, R;
  Vec       x, b, xr, br;
  PetscInt  its, itsr;
  PetscBool ok, flg[2];
  char      line[128];

  PetscFunctionBeginUser;
  PetscCall(CreatePair(comm, c, type, &A, &R));
  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(MatCreateVecs(R, &xr, &br));
  PetscCall(VecSetRandom(br, rnd));
  PetscCall(CopyValues(br, b));
  for (PetscInt k = 0; k < 2; k++) {
    PCType ptype = k ? PCASM : PCBJACOBI;

    PetscCall(BlockSolve(A, b, x, ptype, seq, &its, &flg[0], &flg[1]));
    PetscCall(BlockSolve(R, br, xr, ptype, NULL, &itsr, NULL, NULL));
    PetscCall(SameSolve(its, itsr, x, xr, &ok));
    PetscCall(PetscSNPrintf(line, sizeof(line), "GMRES %s, ILU(0) blocks: AIJ's iterations and solution", ptype));
    PetscCall(PrintResult(comm, WIDTH, line, ok, nfail));
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, flg, 2, ELLG_MPI_BOOL, MPI_LAND, comm));
    PetscCall(PetscSNPrintf(line, sizeof(line), "GMRES %s: the blocks are of our seq type", ptype));
    PetscCall(PrintResult(comm, WIDTH, line, flg[0], nfail));
    PetscCall(PetscSNPrintf(line, sizeof(line), "GMRES %s: the blocks' factors are ellg", ptype));
    PetscCall(PrintResult(comm, WIDTH, line, flg[1], nfail));
  }
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&xr));
  PetscCall(VecDestroy(&br));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&R));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  const PetscReal   zero[3] = {0.0, 0.0, 0.0}, wind[3] = {0.5, 0.3, 0.1};
  const FactorCase  spd[]   = {
    {"ILU(0)",     MAT_FACTOR_ILU,      MATORDERINGNATURAL, 0},
    {"ILU(2)",     MAT_FACTOR_ILU,      MATORDERINGNATURAL, 2},
    {"ICC(0)",     MAT_FACTOR_ICC,      MATORDERINGNATURAL, 0},
    {"LU nd",      MAT_FACTOR_LU,       MATORDERINGND,      0},
    {"LU natural", MAT_FACTOR_LU,       MATORDERINGNATURAL, 0},
    {"Cholesky",   MAT_FACTOR_CHOLESKY, MATORDERINGNATURAL, 0},
    {"ICC(1) rcm", MAT_FACTOR_ICC,      MATORDERINGRCM,     1}
  };
  const FactorCase  nonsym[] = {
    {"ILU(0)",     MAT_FACTOR_ILU, MATORDERINGNATURAL, 0},
    {"ILU(2)",     MAT_FACTOR_ILU, MATORDERINGNATURAL, 2},
    {"LU nd",      MAT_FACTOR_LU,  MATORDERINGND,      0},
    {"LU natural", MAT_FACTOR_LU,  MATORDERINGNATURAL, 0},
    {"ILU(1) rcm", MAT_FACTOR_ILU, MATORDERINGRCM,     1}
  };
  PetscMPIInt       size;
  PetscRandom       rnd;
  PetscInt          nfail = 0, k;
  CSR               lap, lapb, cd, cdb, rd, indef, zp;
  char              type[TYPE_LEN], seq[TYPE_LEN];

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscELLGInitializePackage());
  PetscCall(PetscLogDefaultBegin());
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(TestType(type, seq, NULL));
  PetscCall(RandomCreate(PETSC_COMM_WORLD, 10, &rnd));
  PetscCall(CSRGrid("laplacian", GRID, zero, &lap));
  PetscCall(CSRGrid("convdiff", GRID, wind, &cd));
  PetscCall(CSRGrid("laplacian bs 4", GRID, zero, &lapb));
  PetscCall(CSRGrid("convdiff bs 4", GRID, wind, &cdb));
  lapb.bs = cdb.bs = 4; /* the rows of a block solved together on the device (the factor's groups) */
  PetscCall(CSRDominant("random", 400, 0.01, 17, &rd));
  /* the Laplacian with a diagonal of 1: symmetric indefinite; the convection-diffusion matrix with a zero pivot */
  PetscCall(CSRGrid("indefinite", GRID, zero, &indef));
  PetscCall(CSRGrid("zero pivot", GRID, wind, &zp));
  for (PetscInt i = 0; i < indef.M; i++)
    for (PetscInt q = indef.ia[i]; q < indef.ia[i + 1]; q++)
      if (indef.ja[q] == i) indef.va[q] = 1.0;
  for (PetscInt q = zp.ia[0]; q < zp.ia[1]; q++)
    if (zp.ja[q] == 0) zp.va[q] = 0.0;

  if (size == 1) {
    const KSPCase kspcases[] = {
      {"CG ICC(0)",    &lap, KSPCG,    PCICC, 0},
      {"CG ILU(0)",    &lap, KSPCG,    PCILU, 0},
      {"GMRES ILU(0)", &cd,  KSPGMRES, PCILU, 0},
      {"GMRES ILU(1)", &cd,  KSPGMRES, PCILU, 1},
      {"GMRES LU",     &cd,  KSPGMRES, PCLU,  0}
    };

    PetscCall(CheckSolverTypes(&lap, type, &nfail));
    for (k = 0; k < (PetscInt)(sizeof(spd) / sizeof(spd[0])); k++) PetscCall(CheckFactor(&lap, lap.name, type, &spd[k], rnd, &nfail));
    for (k = 0; k < (PetscInt)(sizeof(nonsym) / sizeof(nonsym[0])); k++) PetscCall(CheckFactor(&cd, cd.name, type, &nonsym[k], rnd, &nfail));
    PetscCall(CheckFactor(&lapb, lapb.name, type, &spd[2], rnd, &nfail));
    PetscCall(CheckFactor(&lapb, lapb.name, type, &spd[5], rnd, &nfail));
    for (k = 0; k < (PetscInt)(sizeof(nonsym) / sizeof(nonsym[0])); k++) PetscCall(CheckFactor(&cdb, cdb.name, type, &nonsym[k], rnd, &nfail));
    PetscCall(CheckFactor(&rd, rd.name, type, &nonsym[0], rnd, &nfail));
    PetscCall(CheckFactor(&rd, rd.name, type, &nonsym[2], rnd, &nfail));
    PetscCall(CheckHostNumeric(&indef, &zp, &lap, type, rnd, &nfail));
    PetscCall(CheckILU0(&cd, type, rnd, &nfail));
    PetscCall(CheckJacobiSweeps(&lap, type, rnd, &nfail));
    PetscCall(CheckKSP(kspcases, (PetscInt)(sizeof(kspcases) / sizeof(kspcases[0])), type, rnd, &nfail));
    PetscCall(CheckBadUse(type, &nfail));
  } else PetscCall(CheckBlocks(&cd, type, seq, rnd, &nfail));

  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s\n", nfail ? "SOME CHECKS FAILED" : "all checks passed"));
  PetscCall(CSRDestroy(&lap));
  PetscCall(CSRDestroy(&cd));
  PetscCall(CSRDestroy(&lapb));
  PetscCall(CSRDestroy(&cdb));
  PetscCall(CSRDestroy(&rd));
  PetscCall(CSRDestroy(&indef));
  PetscCall(CSRDestroy(&zp));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   test:
      suffix: 1
      args: -type {{ellg pjds slicedell csrg aijgpu}}
      output_file: output/ex10_1.out

   # our level-ordered solves on the device (the host backend runs the same order for every method)
   test:
      suffix: levels
      requires: gpu
      args: -type {{ellg pjds slicedell csrg}} -mat_gpu_factor_solve levels
      output_file: output/ex10_1.out

   test:
      suffix: mpi
      nsize: {{2 3}}
      args: -type {{ellg pjds slicedell csrg aijgpu}}
      output_file: output/ex10_mpi.out

TEST*/
