static char help[] = "PCGAMG's coarsener MATCOARSENMISK on graphs of our types against PETSc's own on their AIJ copies: the\n\
aggregates (each one's rows, in order, and the order of the aggregates) are the same, at distances 1, 2 and 3,\n\
in the natural order, a random one and the natural one given as an ordering (which on a path takes more rounds\n\
on the device than it is given: the host finishes), for a 3D Laplacian, a random symmetric pattern, a power law,\n\
a graph of singletons (rows of only a diagonal, empty rows, pairs and triangles without diagonals) and a path; the\n\
MatGPUCoarsen event runs for a graph known to be structurally symmetric, not for one that is not (PETSc's code).\n\
Then CG with PCGAMG on a 3D Laplacian of our type: its iterations are AIJ's and its coarsener ran.\n\
Prints pass/fail lines only, the same for every type.\n\
  -type <ellg,pjds,slicedell,csrg,aijgpu>: the type (root name); its options apply (MatSetFromOptions)\n\n";

#include <petscksp.h>
#include <petsc/private/matimpl.h>
#include "ellgtest.h"

#define WIDTH 70 /* of the descriptions in the result lines */

/* the aggregates of G by MISK at distance k, in the order perm (NULL: natural) */
static PetscErrorCode Aggregates(Mat G, PetscInt k, IS perm, PetscCoarsenData **lists)
{
  MatCoarsen crs;

  PetscFunctionBeginUser;
  PetscCall(MatCoarsenCreate(PetscObjectComm((PetscObject)G), &crs));
  PetscCall(MatCoarsenSetType(crs, MATCOARSENMISK));
  PetscCall(MatCoarsenMISKSetDistance(crs, k));
  PetscCall(MatCoarsenSetAdjacency(crs, G));
  PetscCall(MatCoarsenSetStrictAggs(crs, PETSC_TRUE));
  if (perm) PetscCall(MatCoarsenSetGreedyOrdering(crs, perm));
  PetscCall(MatCoarsenApply(crs));
  PetscCall(MatCoarsenGetData(crs, lists));
  PetscCall(MatCoarsenDestroy(&crs));
  PetscFunctionReturn(0);
}

/* whether the lists of a and b hold the same rows in the same order, and how many are not empty */
static PetscErrorCode SameLists(PetscCoarsenData *a, PetscCoarsenData *b, PetscInt n, PetscBool *same, PetscInt *naggs)
{
  PetscFunctionBeginUser;
  *same  = PETSC_TRUE;
  *naggs = 0;
  for (PetscInt l = 0; l < n && *same; l++) {
    PetscCDIntNd *pa, *pb;

    PetscCall(PetscCDGetHeadPos(a, l, &pa));
    PetscCall(PetscCDGetHeadPos(b, l, &pb));
    if (pa) (*naggs)++;
    while (pa && pb) {
      PetscInt ia, ib;

      PetscCall(PetscCDIntNdGetID(pa, &ia));
      PetscCall(PetscCDIntNdGetID(pb, &ib));
      if (ia != ib) *same = PETSC_FALSE;
      PetscCall(PetscCDGetNextPos(a, l, &pa));
      PetscCall(PetscCDGetNextPos(b, l, &pb));
    }
    if (pa || pb) *same = PETSC_FALSE;
  }
  PetscFunctionReturn(0);
}

/* a random order of 0 .. n - 1 */
static PetscErrorCode RandomOrder(PetscInt n, unsigned long seed, IS *perm)
{
  PetscRandom rnd;
  PetscInt   *p;

  PetscFunctionBeginUser;
  PetscCall(RandomCreate(PETSC_COMM_SELF, seed, &rnd));
  PetscCall(PetscRandomSetInterval(rnd, 0.0, 1.0));
  PetscCall(PetscMalloc1(n, &p));
  for (PetscInt i = 0; i < n; i++) p[i] = i;
  for (PetscInt i = n - 1; i > 0; i--) {
    PetscReal r;
    PetscInt  j, t;

    PetscCall(PetscRandomGetValueReal(rnd, &r));
    j    = PetscMin((PetscInt)(r * (i + 1)), i);
    t    = p[i];
    p[i] = p[j];
    p[j] = t;
  }
  PetscCall(ISCreateGeneral(PETSC_COMM_SELF, n, p, PETSC_OWN_POINTER, perm));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscFunctionReturn(0);
}

/* the aggregates of A (our type) and of its AIJ copy ref are the same at distances 1 to 3, in both orders, and the
   event ran for each of A's (backend) or for none */
static PetscErrorCode CheckAggregates(Mat A, Mat ref, PetscBool backend, const char *what, PetscInt *nfail)
{
  const char *orders[] = {"natural", "random", "given natural"};
  PetscInt    n;
  IS          perms[3] = {NULL, NULL, NULL};

  PetscFunctionBeginUser;
  PetscCall(MatGetLocalSize(A, &n, NULL));
  PetscCall(RandomOrder(n, 7, &perms[1]));
  PetscCall(ISCreateStride(PETSC_COMM_SELF, n, 0, 1, &perms[2]));
  for (PetscInt k = 1; k <= 3; k++)
    for (PetscInt o = 0; o < 3; o++) {
      PetscCoarsenData *la, *lr;
      PetscLogDouble    before, after;
      PetscBool         same;
      PetscInt          naggs;
      char              line[128];

      PetscCall(EventCount("MatGPUCoarsen", &before));
      PetscCall(Aggregates(A, k, perms[o], &la));
      PetscCall(EventCount("MatGPUCoarsen", &after));
      PetscCall(Aggregates(ref, k, perms[o], &lr));
      PetscCall(SameLists(la, lr, n, &same, &naggs));
      PetscCall(PetscSNPrintf(line, sizeof(line), "%s, distance %" PetscInt_FMT ", %s order", what, k, orders[o]));
      PetscCall(PrintResult(PETSC_COMM_WORLD, WIDTH, line, (PetscBool)(same && naggs > 0 && after - before == (backend ? 1 : 0)), nfail));
      PetscCall(PetscCDDestroy(la));
      PetscCall(PetscCDDestroy(lr));
    }
  for (PetscInt o = 0; o < 3; o++) PetscCall(ISDestroy(&perms[o]));
  PetscFunctionReturn(0);
}

/* the graph of c's pattern made symmetric (c + c^T) as AIJ (ref) and as type (A), A known to be structurally symmetric */
static PetscErrorCode SymmetricGraph(const CSR *c, MatType type, Mat *ref, Mat *A)
{
  Mat R, Rt;

  PetscFunctionBeginUser;
  PetscCall(CreateMatCSR(PETSC_COMM_SELF, PETSC_DECIDE, PETSC_DECIDE, c, MATSEQAIJ, &R));
  PetscCall(MatTranspose(R, MAT_INITIAL_MATRIX, &Rt));
  PetscCall(MatDuplicate(R, MAT_COPY_VALUES, ref));
  PetscCall(MatAXPY(*ref, 1.0, Rt, DIFFERENT_NONZERO_PATTERN));
  PetscCall(MatConvert(*ref, type, MAT_INITIAL_MATRIX, A));
  PetscCall(MatSetFromOptions(*A));
  PetscCall(MatSetOption(*A, MAT_STRUCTURALLY_SYMMETRIC, PETSC_TRUE));
  PetscCall(MatDestroy(&R));
  PetscCall(MatDestroy(&Rt));
  PetscFunctionReturn(0);
}

/* singletons: 0 a diagonal alone, 1 empty, 2-3 a pair without diagonals, 4-5-6 a path, 7-8 a pair where only 7
   has its diagonal, 9-10-11 a triangle without diagonals, then a path 12 .. 19 */
static PetscErrorCode CSRSingletons(CSR *c)
{
  const PetscInt rows[][4] = {
    {0,  -1, -1, -1},
    {-1, -1, -1, -1},
    {3,  -1, -1, -1},
    {2,  -1, -1, -1},
    {4,  5,  -1, -1},
    {4,  5,  6,  -1},
    {5,  6,  -1, -1},
    {7,  8,  -1, -1},
    {7,  -1, -1, -1},
    {10, 11, -1, -1},
    {9,  11, -1, -1},
    {9,  10, -1, -1}
  };
  const PetscInt n = 20;

  PetscFunctionBeginUser;
  PetscCall(CSRCreate("singletons", n, n, 4 * n, c));
  for (PetscInt i = 0; i < n; i++) {
    PetscInt nc = 0;

    if (i < 12) {
      for (PetscInt k = 0; k < 4; k++)
        if (rows[i][k] >= 0) c->ja[c->ia[i] + nc++] = rows[i][k];
    } else
      for (PetscInt j = PetscMax(i - 1, 12); j <= PetscMin(i + 1, n - 1); j++) c->ja[c->ia[i] + nc++] = j;
    for (PetscInt k = 0; k < nc; k++) c->va[c->ia[i] + k] = 1.0;
    c->ia[i + 1] = c->ia[i] + nc;
  }
  PetscFunctionReturn(0);
}

/* the (2 dim + 1)-point Laplacian on a g^dim grid (dim 1: a path, whose natural order the device's rounds take in
   about g / 2) */
static PetscErrorCode CSRLaplacianGrid(const char *name, PetscInt dim, PetscInt g, CSR *c)
{
  PetscInt n = 1;

  PetscFunctionBeginUser;
  for (PetscInt d = 0; d < dim; d++) n *= g;
  PetscCall(CSRCreate(name, n, n, (2 * dim + 1) * n, c));
  for (PetscInt row = 0; row < n; row++) {
    PetscInt nc;

    PetscCall(LaplacianRow(dim, g, row, 2.0 * dim, &nc, c->ja + c->ia[row], c->va + c->ia[row]));
    c->ia[row + 1] = c->ia[row] + nc;
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode TestAggregates(MatType type, PetscInt *nfail)
{
  CSR lap, rnd, pow, single, path;
  Mat ref, A;

  PetscFunctionBeginUser;
  PetscCall(CSRLaplacianGrid("laplacian 3D", 3, 24, &lap));
  PetscCall(CSRRandom("random", 400, 400, 0.01, 0.0, NULL, 11, &rnd));
  PetscCall(CSRPowerLaw("power law", 2000, 2, 1.8, 5, &pow));
  PetscCall(CSRLaplacianGrid("path", 1, 3000, &path));
  PetscCall(CSRSingletons(&single));
  {
    const CSR *graphs[] = {&lap, &rnd, &pow, &single, &path};

    for (size_t i = 0; i < PETSC_STATIC_ARRAY_LENGTH(graphs); i++) {
      PetscCall(SymmetricGraph(graphs[i], type, &ref, &A));
      PetscCall(CheckAggregates(A, ref, PETSC_TRUE, graphs[i]->name, nfail));
      if (!i) { /* not known to be symmetric: PETSc's code */
        PetscCall(MatSetOption(A, MAT_STRUCTURALLY_SYMMETRIC, PETSC_FALSE));
        PetscCall(CheckAggregates(A, ref, PETSC_FALSE, "laplacian 3D not known symmetric", nfail));
      }
      PetscCall(MatDestroy(&A));
      PetscCall(MatDestroy(&ref));
    }
  }
  PetscCall(CSRDestroy(&lap));
  PetscCall(CSRDestroy(&rnd));
  PetscCall(CSRDestroy(&pow));
  PetscCall(CSRDestroy(&single));
  PetscCall(CSRDestroy(&path));
  PetscFunctionReturn(0);
}

/* CG + PCGAMG on a 3D Laplacian of type; its iterations */
static PetscErrorCode SolveGAMG(MatType type, PetscInt *its)
{
  Mat A;
  Vec x, b;
  KSP ksp;
  PC  pc;

  PetscFunctionBeginUser;
  PetscCall(MatCreate(PETSC_COMM_WORLD, &A));
  PetscCall(FillLaplacian(A, 3, 24, 6.0, 0.0, type, PETSC_TRUE));
  PetscCall(MatSetOption(A, MAT_SYMMETRIC, PETSC_TRUE));
  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(VecSet(b, 1.0));
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, KSPCG));
  PetscCall(KSPSetTolerances(ksp, 1e-8, PETSC_DEFAULT, PETSC_DEFAULT, 200));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCGAMG));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetIterationNumber(ksp, its));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(0);
}

static PetscErrorCode TestGAMG(MatType type, PetscInt *nfail)
{
  PetscInt       its, itsref;
  PetscLogDouble before, after;

  PetscFunctionBeginUser;
#if PETSC_VERSION_GE(3, 20, 0)
  PetscCall(PetscOptionsSetValue(NULL, "-pc_gamg_aggressive_square_graph", "false")); /* MISK at distance 2 on the finest level */
#endif
  PetscCall(SolveGAMG(MATAIJ, &itsref));
  PetscCall(EventCount("MatGPUCoarsen", &before));
  PetscCall(SolveGAMG(type, &its));
  PetscCall(EventCount("MatGPUCoarsen", &after));
  PetscCall(PrintResult(PETSC_COMM_WORLD, WIDTH, "CG + GAMG, 3D Laplacian: AIJ's iterations, our coarsener", (PetscBool)(its == itsref && after > before), nfail));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  char     root[TYPE_LEN], seq[TYPE_LEN], mpi[TYPE_LEN];
  PetscInt nfail = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscELLGInitializePackage());
  PetscCall(PetscLogDefaultBegin());
  PetscCall(TestType(root, seq, mpi));
  PetscCall(TestAggregates(seq, &nfail));
  PetscCall(TestGAMG(root, &nfail));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s\n", nfail ? "Some checks FAILED" : "All checks passed"));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   test:
      suffix: 1
      args: -type {{ellg pjds slicedell csrg aijgpu}} -malloc_debug
      output_file: output/ex18_1.out

TEST*/
