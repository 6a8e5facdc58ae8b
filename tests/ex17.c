static char help[] = "MatCreateGraph() of our types (PCGAMG's strength graph) against AIJ's: on one process, a matrix of block\n\
size 1 whose nonzero pattern is symmetric gets its graph in the backend (the MatGPUCreateGraph event runs), with\n\
AIJ's pattern and values exactly, for symmetrize and scale on and off and a filter (SeqAIJ's code before PETSc 3.21),\n\
its values symmetric or not, known to be symmetric or not; a pattern that is not symmetric (found so by the event)\n\
and block size 2 (the event does not run) take SeqAIJ's code, with the same graph. The graph is of the matrix's type. Then products of\n\
a matrix known to be symmetric (MAT_SYMMETRIC: its transpose is itself): MatTransposeMatMult(), MatMultTranspose()\n\
and MAT_FORM_EXPLICIT_TRANSPOSE against AIJ's. On several processes: the graphs of our mpi type against MPIAIJ's.\n\
Prints pass/fail lines only, the same for every type.\n\
  -type <ellg,pjds,slicedell,csrg,aijgpu>: the type (root name); its options apply (MatSetFromOptions)\n\n";

#include <petscmat.h>
#include "ellgtest.h"

#define WIDTH 70 /* of the descriptions in the result lines */
#define GRID  12 /* the Laplacian: GRID x GRID points */
#define NRAND 150

/* SameMatrix - whether A and B hold the same entries in every row, exactly (tol 0) or to tol relative to the largest */
static PetscErrorCode SameMatrix(Mat A, Mat B, PetscReal tol, PetscBool *same)
{
  PetscInt  rstart, rend, M, N, MB, NB;
  PetscReal err = 0.0, big = 0.0;
  PetscBool ok  = PETSC_TRUE;

  PetscFunctionBeginUser;
  PetscCall(MatGetSize(A, &M, &N));
  PetscCall(MatGetSize(B, &MB, &NB));
  ok = (PetscBool)(M == MB && N == NB);
  PetscCall(MatGetOwnershipRange(A, &rstart, &rend));
  for (PetscInt i = rstart; i < rend && ok; i++) {
    PetscInt           na, nb;
    const PetscInt    *ca, *cb;
    const PetscScalar *va, *vb;

    PetscCall(MatGetRow(A, i, &na, &ca, &va));
    PetscCall(MatGetRow(B, i, &nb, &cb, &vb));
    if (na != nb) ok = PETSC_FALSE;
    for (PetscInt k = 0; k < na && ok; k++) {
      const PetscReal d = PetscAbsScalar(va[k] - vb[k]);

      if (ca[k] != cb[k]) ok = PETSC_FALSE;
      if (!(d <= err)) err = d;
      big = PetscMax(big, PetscAbsScalar(vb[k]));
    }
    PetscCall(MatRestoreRow(B, i, &nb, &cb, &vb));
    PetscCall(MatRestoreRow(A, i, &na, &ca, &va));
  }
  if (ok) ok = (PetscBool)(tol > 0 ? err <= tol * big : err == 0.0);
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPIU_BOOL, MPI_LAND, PetscObjectComm((PetscObject)A)));
  *same = ok;
  PetscFunctionReturn(0);
}

/* SymmetricPattern - S = R + 2 R^T of the random square R (AIJ): a symmetric pattern, values that are not */
static PetscErrorCode SymmetricPattern(Mat R, Mat *S)
{
  Mat Rt;

  PetscFunctionBeginUser;
  PetscCall(MatTranspose(R, MAT_INITIAL_MATRIX, &Rt));
  PetscCall(MatDuplicate(R, MAT_COPY_VALUES, S));
  PetscCall(MatAXPY(*S, 2.0, Rt, DIFFERENT_NONZERO_PATTERN));
  PetscCall(MatDestroy(&Rt));
  PetscFunctionReturn(0);
}

/* a test matrix as AIJ (ref) and as the type under test (A), from the same entries */
static PetscErrorCode CopyAs(Mat ref, MatType type, Mat *A)
{
  PetscFunctionBeginUser;
  PetscCall(MatConvert(ref, type, MAT_INITIAL_MATRIX, A));
  PetscCall(MatSetFromOptions(*A));
  PetscFunctionReturn(0);
}

/* CreateMatBs - the seq matrix of c with the block size bs set before its preallocation, as AIJ (ref) and as type (A) */
static PetscErrorCode CreateMatBs(const CSR *c, PetscInt bs, MatType type, Mat *ref, Mat *A)
{
  PetscInt *nnz;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(c->M, &nnz));
  for (PetscInt i = 0; i < c->M; i++) nnz[i] = c->ia[i + 1] - c->ia[i];
  for (PetscInt k = 0; k < 2; k++) {
    Mat *M = k ? A : ref;

    PetscCall(MatCreate(PETSC_COMM_SELF, M));
    PetscCall(MatSetSizes(*M, c->M, c->N, c->M, c->N));
    PetscCall(MatSetBlockSize(*M, bs));
    PetscCall(MatSetType(*M, k ? type : MATSEQAIJ));
    if (k) PetscCall(MatSetFromOptions(*M));
    PetscCall(MatSeqAIJSetPreallocation(*M, 0, nnz));
    PetscCall(SetValuesCSR(*M, c, INSERT_VALUES));
    PetscCall(Assemble(*M, MAT_FINAL_ASSEMBLY));
  }
  PetscCall(PetscFree(nnz));
  PetscFunctionReturn(0);
}

/* CheckGraph - MatCreateGraph() of A and of its AIJ copy ref are the same, the graph of A is of A's type (or A itself
   when nothing is computed), and the MatGPUCreateGraph event ran once (backend: the backend computed it or found the
   pattern not symmetric) or not at all */
static PetscErrorCode CheckGraph(Mat A, Mat ref, PetscBool sym, PetscBool scale, PetscReal filter, PetscBool backend, const char *what, PetscInt *nfail)
{
  Mat            G, Gref;
  PetscLogDouble before, after;
  PetscBool      same, typed;
  MatType        type;
  char           line[128];

  PetscFunctionBeginUser;
  PetscCall(EventCount("MatGPUCreateGraph", &before));
#if PETSC_VERSION_GE(3, 21, 0)
  PetscCall(MatCreateGraph(A, sym, scale, filter, 0, NULL, &G));
  PetscCall(MatCreateGraph(ref, sym, scale, filter, 0, NULL, &Gref));
#else
  PetscCall(MatCreateGraph(A, sym, scale, filter, &G));
  PetscCall(MatCreateGraph(ref, sym, scale, filter, &Gref));
#endif
  PetscCall(EventCount("MatGPUCreateGraph", &after));
  PetscCall(SameMatrix(G, Gref, 0.0, &same));
  PetscCall(MatGetType(A, &type));
  PetscCall(PetscObjectTypeCompare((PetscObject)G, type, &typed));
  if (filter < 0) PetscCall(PetscSNPrintf(line, sizeof(line), "%s, sym %d scale %d", what, (int)sym, (int)scale));
  else PetscCall(PetscSNPrintf(line, sizeof(line), "%s, sym %d scale %d filter %.2f", what, (int)sym, (int)scale, (double)filter));
  PetscCall(PrintResult(PETSC_COMM_WORLD, WIDTH, line, (PetscBool)(same && typed && (after - before == (backend ? 1 : 0))), nfail));
  PetscCall(MatDestroy(&G));
  PetscCall(MatDestroy(&Gref));
  PetscFunctionReturn(0);
}

/* the graphs of A (and ref) for the combinations of symmetrize, scale and filter; backend: whether they are made in the backend */
static PetscErrorCode CheckGraphs(Mat A, Mat ref, PetscBool backend, const char *what, PetscInt *nfail)
{
  const PetscBool flags[][2] = {
    {PETSC_TRUE,  PETSC_TRUE },
    {PETSC_TRUE,  PETSC_FALSE},
    {PETSC_FALSE, PETSC_TRUE }
  };

  PetscFunctionBeginUser;
  for (size_t k = 0; k < PETSC_STATIC_ARRAY_LENGTH(flags); k++) PetscCall(CheckGraph(A, ref, flags[k][0], flags[k][1], -1.0, backend, what, nfail));
  /* a filter: PETSc's MatFilter() after the backend's graph from PETSc 3.21, SeqAIJ's code before */
  PetscCall(CheckGraph(A, ref, PETSC_TRUE, PETSC_TRUE, 0.05, (PetscBool)(backend && PETSC_VERSION_GE(3, 21, 0)), what, nfail));
  PetscCall(CheckGraph(A, ref, PETSC_FALSE, PETSC_FALSE, 0.5, (PetscBool)(backend && PETSC_VERSION_GE(3, 21, 0)), what, nfail));
  PetscFunctionReturn(0);
}

/* one process: the matrices the backend takes and those it leaves to SeqAIJ */
static PetscErrorCode TestSeq(MatType type, PetscInt *nfail)
{
  CSR       lap, rnd;
  Mat       ref, A, R, S;
  PetscBool same;

  PetscFunctionBeginUser;
  /* a Laplacian: symmetric pattern and values, not known to be symmetric, then known */
  PetscCall(CSRLaplacian("laplacian", GRID, &lap));
  PetscCall(CreateMatCSR(PETSC_COMM_SELF, PETSC_DECIDE, PETSC_DECIDE, &lap, MATSEQAIJ, &ref));
  PetscCall(CopyAs(ref, type, &A));
  PetscCall(CheckGraphs(A, ref, PETSC_TRUE, "Laplacian", nfail));
  PetscCall(MatSetOption(A, MAT_SYMMETRIC, PETSC_TRUE));
  PetscCall(MatSetOption(ref, MAT_SYMMETRIC, PETSC_TRUE));
  PetscCall(CheckGraphs(A, ref, PETSC_TRUE, "Laplacian known symmetric", nfail));
  {
    Mat G;

#if PETSC_VERSION_GE(3, 21, 0)
    PetscCall(MatCreateGraph(A, PETSC_FALSE, PETSC_FALSE, -1.0, 0, NULL, &G));
#else
    PetscCall(MatCreateGraph(A, PETSC_FALSE, PETSC_FALSE, -1.0, &G));
#endif
    PetscCall(PrintResult(PETSC_COMM_WORLD, WIDTH, "Laplacian, nothing to compute: the matrix itself", (PetscBool)(G == A), nfail));
    PetscCall(MatDestroy(&G));
  }
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&ref));

  /* block size 2: SeqAIJ's code */
  PetscCall(CreateMatBs(&lap, 2, type, &ref, &A));
  PetscCall(CheckGraph(A, ref, PETSC_TRUE, PETSC_TRUE, -1.0, PETSC_FALSE, "Laplacian, block size 2", nfail));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&ref));
  PetscCall(CSRDestroy(&lap));

  /* random: a pattern that is not symmetric (SeqAIJ's code), then R + 2 R^T (symmetric pattern, values not; some
     rows without a diagonal entry) */
  PetscCall(CSRRandom("random", NRAND, NRAND, 0.04, 0.1, NULL, 17, &rnd));
  PetscCall(CreateMatCSR(PETSC_COMM_SELF, PETSC_DECIDE, PETSC_DECIDE, &rnd, MATSEQAIJ, &R));
  PetscCall(CopyAs(R, type, &A));
  PetscCall(CheckGraph(A, R, PETSC_TRUE, PETSC_TRUE, -1.0, PETSC_TRUE, "random, pattern not symmetric", nfail));
  PetscCall(MatDestroy(&A));
  PetscCall(SymmetricPattern(R, &S));
  PetscCall(CopyAs(S, type, &A));
  PetscCall(CheckGraphs(A, S, PETSC_TRUE, "R + 2 R^T", nfail));

  /* products of a matrix known to be symmetric: G^T G, G^T x, with and without MAT_FORM_EXPLICIT_TRANSPOSE */
  {
    Mat G, Gref, C, Cref;
    Vec x, y, yref;

#if PETSC_VERSION_GE(3, 21, 0)
    PetscCall(MatCreateGraph(A, PETSC_TRUE, PETSC_TRUE, -1.0, 0, NULL, &G));
    PetscCall(MatCreateGraph(S, PETSC_TRUE, PETSC_TRUE, -1.0, 0, NULL, &Gref));
#else
    PetscCall(MatCreateGraph(A, PETSC_TRUE, PETSC_TRUE, -1.0, &G));
    PetscCall(MatCreateGraph(S, PETSC_TRUE, PETSC_TRUE, -1.0, &Gref));
#endif
    PetscCall(MatTransposeMatMult(G, G, MAT_INITIAL_MATRIX, PETSC_DETERMINE, &C));
    PetscCall(MatTransposeMatMult(Gref, Gref, MAT_INITIAL_MATRIX, PETSC_DETERMINE, &Cref));
    PetscCall(SameMatrix(C, Cref, 1e-12, &same));
    PetscCall(PrintResult(PETSC_COMM_WORLD, WIDTH, "G^T G of the graph (known symmetric)", same, nfail));
    PetscCall(MatDestroy(&C));
    PetscCall(MatDestroy(&Cref));
    PetscCall(MatCreateVecs(G, &x, &y));
    PetscCall(MatCreateVecs(Gref, NULL, &yref));
    PetscCall(VecSetRandom(x, NULL));
    for (PetscInt explicit = 0; explicit < 2; explicit++) {
      PetscReal err, nrm;

      PetscCall(MatSetOption(G, MAT_FORM_EXPLICIT_TRANSPOSE, (PetscBool)explicit));
      PetscCall(MatMultTranspose(G, x, y));
      PetscCall(MatMultTranspose(Gref, x, yref));
      PetscCall(MaxDifference(y, yref, &err, &nrm));
      PetscCall(PrintResult(PETSC_COMM_WORLD, WIDTH, explicit ? "G^T x with MAT_FORM_EXPLICIT_TRANSPOSE" : "G^T x", (PetscBool)(err <= RTOL * nrm), nfail));
    }
    PetscCall(VecDestroy(&x));
    PetscCall(VecDestroy(&y));
    PetscCall(VecDestroy(&yref));
    PetscCall(MatDestroy(&G));
    PetscCall(MatDestroy(&Gref));
  }
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&S));
  PetscCall(MatDestroy(&R));
  PetscCall(CSRDestroy(&rnd));
  PetscFunctionReturn(0);
}

/* several processes: MPIAIJ's code on our mpi type gives MPIAIJ's graph */
static PetscErrorCode TestMPI(MatType type, PetscInt *nfail)
{
  CSR lap;
  Mat ref, A;

  PetscFunctionBeginUser;
  PetscCall(CSRLaplacian("laplacian", GRID, &lap));
  PetscCall(CreateMatCSR(PETSC_COMM_WORLD, PETSC_DECIDE, PETSC_DECIDE, &lap, MATMPIAIJ, &ref));
  PetscCall(CopyAs(ref, type, &A));
  PetscCall(CheckGraph(A, ref, PETSC_TRUE, PETSC_TRUE, -1.0, PETSC_FALSE, "Laplacian, mpi", nfail));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&ref));
  PetscCall(CSRDestroy(&lap));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  char        root[TYPE_LEN], seq[TYPE_LEN], mpi[TYPE_LEN];
  PetscInt    nfail = 0;
  PetscMPIInt size;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscELLGInitializePackage());
  PetscCall(PetscLogDefaultBegin());
  PetscCall(TestType(root, seq, mpi));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  if (size == 1) PetscCall(TestSeq(seq, &nfail));
  else PetscCall(TestMPI(mpi, &nfail));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s\n", nfail ? "Some checks FAILED" : "All checks passed"));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   test:
      suffix: 1
      args: -type {{ellg pjds slicedell csrg aijgpu}} -malloc_debug
      output_file: output/ex17_1.out

   test:
      suffix: mpi
      nsize: {{2 3}}
      args: -type {{ellg pjds slicedell csrg aijgpu}} -malloc_debug
      output_file: output/ex17_mpi.out

TEST*/
