static char help[] = "Solves a 3D Laplacian (7-point stencil, Dirichlet boundary) on an n^3 grid with CG and\n\
Jacobi once per matrix type, each with the vectors its MatCreateVecs() gives, and compares them.\n\
  -n <64>                  grid points per direction\n\
  -mat_types <aij,ellg,pjds,slicedell,csrg,aijgpu> matrix types to solve with; the first one is the reference\n\
  -nmult <50>              MatMult calls timed per type\n\
  -timings <true>          print backends and times; false gives output that is the same on every machine\n\n";

#include <petscksp.h>
#include <petscellg.h>

#define MAX_TYPES 16

/* Assembles the matrix as a user code would: preallocated, row by row, in the given type */
static PetscErrorCode AssembleLaplacian(PetscInt n, const char *type, Mat *A)
{
  PetscInt N = n * n * n, rstart, rend;

  PetscFunctionBeginUser;
  PetscCall(MatCreate(PETSC_COMM_WORLD, A));
  PetscCall(MatSetSizes(*A, PETSC_DECIDE, PETSC_DECIDE, N, N));
  PetscCall(MatSetType(*A, type));
  PetscCall(MatSetFromOptions(*A));
  PetscCall(MatSeqAIJSetPreallocation(*A, 7, NULL));
  PetscCall(MatMPIAIJSetPreallocation(*A, 7, NULL, 6, NULL));
  PetscCall(MatGetOwnershipRange(*A, &rstart, &rend));
  for (PetscInt row = rstart; row < rend; row++) {
    PetscInt    i = row % n, j = (row / n) % n, k = row / (n * n), cols[7], nc = 0;
    PetscScalar vals[7];

    /* columns in increasing order: z-, y-, x-, diagonal, x+, y+, z+ */
    if (k > 0) cols[nc++] = row - n * n;
    if (j > 0) cols[nc++] = row - n;
    if (i > 0) cols[nc++] = row - 1;
    cols[nc++] = row;
    if (i < n - 1) cols[nc++] = row + 1;
    if (j < n - 1) cols[nc++] = row + n;
    if (k < n - 1) cols[nc++] = row + n * n;
    for (PetscInt c = 0; c < nc; c++) vals[c] = cols[c] == row ? 6.0 : -1.0;
    PetscCall(MatSetValues(*A, 1, &row, nc, cols, vals, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

/* "host" for PETSc's own AIJ, else the backend PETSc-ELLG objects run on */
static PetscErrorCode GetBackendName(Mat A, const char **name)
{
  PetscBool        isaij;
  PetscELLGBackend be;

  PetscFunctionBeginUser;
  PetscCall(PetscObjectTypeCompareAny((PetscObject)A, &isaij, MATSEQAIJ, MATMPIAIJ, ""));
  if (isaij) *name = "host";
  else {
    PetscCall(PetscELLGGetBackend(&be));
    *name = PetscELLGBackends[be];
  }
  PetscFunctionReturn(0);
}

/* Average time of one MatMult over nmult calls; the VecNorm waits for a device to finish */
static PetscErrorCode TimeMatMult(Mat A, Vec x, Vec y, PetscInt nmult, PetscLogDouble *seconds)
{
  PetscLogDouble t0, t1;
  PetscReal      norm;

  PetscFunctionBeginUser;
  PetscCall(MatMult(A, x, y)); /* warm-up: uploads, first-touch allocations */
  PetscCall(VecNorm(y, NORM_2, &norm));
  PetscCall(PetscTime(&t0));
  for (PetscInt i = 0; i < nmult; i++) PetscCall(MatMult(A, x, y));
  PetscCall(VecNorm(y, NORM_2, &norm));
  PetscCall(PetscTime(&t1));
  *seconds = (t1 - t0) / nmult;
  PetscFunctionReturn(0);
}

/* What one solve gives */
typedef struct {
  char           type[32], vtype[32]; /* the types that ran: -mat_type in the options replaces the one asked for */
  const char    *backend;
  PetscInt       its;
  PetscReal      rnorm; /* ||b - A x|| / ||b|| */
  PetscLogDouble tsolve, tmult;
} Solve;

/* Assembles the matrix in the given type, times its MatMult, and solves A x = 1 with the vectors
   MatCreateVecs() gives; returns x */
static PetscErrorCode SolveWithType(PetscInt n, const char *type, PetscReal rtol, PetscInt nmult, Vec *x, Solve *s)
{
  Mat            A;
  Vec            b, r;
  KSP            ksp;
  PC             pc;
  PetscReal      bnorm, xnorm;
  PetscLogDouble t0, t1;
  const char    *vtype;
  MatType        mtype;

  PetscFunctionBeginUser;
  PetscCall(AssembleLaplacian(n, type, &A));
  PetscCall(MatGetType(A, &mtype));
  PetscCall(PetscStrncpy(s->type, mtype, sizeof(s->type)));
  PetscCall(MatCreateVecs(A, x, &b));
  PetscCall(VecDuplicate(b, &r));
  PetscCall(PetscObjectGetType((PetscObject)*x, &vtype));
  PetscCall(PetscStrncpy(s->vtype, vtype, sizeof(s->vtype)));
  PetscCall(GetBackendName(A, &s->backend));

  PetscCall(VecSet(*x, 1.0));
  PetscCall(TimeMatMult(A, *x, r, nmult, &s->tmult));

  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, KSPCG));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCJACOBI));
  PetscCall(KSPSetTolerances(ksp, rtol, PETSC_DEFAULT, PETSC_DEFAULT, 10000));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(VecSet(b, 1.0));
  PetscCall(VecSet(*x, 0.0));
  PetscCall(KSPSetUp(ksp));
  PetscCall(PetscTime(&t0));
  PetscCall(KSPSolve(ksp, b, *x));
  PetscCall(VecNorm(*x, NORM_2, &xnorm)); /* waits for the device */
  PetscCall(PetscTime(&t1));
  s->tsolve = t1 - t0;
  PetscCall(KSPGetIterationNumber(ksp, &s->its));

  PetscCall(MatMult(A, *x, r));
  PetscCall(VecAYPX(r, -1.0, b));
  PetscCall(VecNorm(r, NORM_2, &s->rnorm));
  PetscCall(VecNorm(b, NORM_2, &bnorm));
  s->rnorm /= bnorm;
  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&r));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(0);
}

/* ||x - xref|| / ||xref|| */
static PetscErrorCode RelativeDifference(Vec x, Vec xref, PetscReal *diff)
{
  Vec       d;
  PetscReal nref;

  PetscFunctionBeginUser;
  PetscCall(VecDuplicate(x, &d));
  PetscCall(VecWAXPY(d, -1.0, xref, x));
  PetscCall(VecNorm(d, NORM_2, diff));
  PetscCall(VecNorm(xref, NORM_2, &nref));
  *diff /= nref;
  PetscCall(VecDestroy(&d));
  PetscFunctionReturn(0);
}

/* what the columns mean, the fastest rows, and what times on the host backend say */
static PetscErrorCode PrintSummary(PetscInt ntypes, const Solve *solves, PetscInt fastest, PetscInt fastestmult)
{
  PetscBool host = PETSC_FALSE, isaij;

  PetscFunctionBeginUser;
  for (PetscInt t = 0; t < ntypes; t++) {
    PetscCall(PetscStrendswith(solves[t].type, "aij", &isaij)); /* PETSc's own CPU type */
    if (!isaij && !strcmp(solves[t].backend, "host")) host = PETSC_TRUE;
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "\nFastest solve: %s, %.4f s (first row: %.4f s); fastest MatMult: %s, %.4f ms (first row: %.4f ms)\n", solves[fastest].type, solves[fastest].tsolve, solves[0].tsolve, solves[fastestmult].type, 1e3 * solves[fastestmult].tmult, 1e3 * solves[0].tmult));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "type: the matrix type that ran (-mat_types asks for them; -mat_type would replace them all)\n"));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "vectors: the type MatCreateVecs() gives it; backend: where it computes (host: the CPU)\n"));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "solve: KSPSolve's time; MatMult: one product, the mean of -nmult of them after one to warm up\n"));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "difference: ||x - x1|| / ||x1||, x1 the first row's solution\n"));
  if (host) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "The host backend ran our types (no usable GPU, or -ellg_backend host): their times are one CPU core's loops over\nthe GPU formats, which check the results, not the GPU's speed; aij is PETSc's own CPU code.\n"));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  char           *types[MAX_TYPES];
  Solve           solves[MAX_TYPES];
  PetscInt        n = 64, ntypes = MAX_TYPES, nmult = 50, fastest = 0, fastestmult = 0;
  PetscBool       timings = PETSC_TRUE, set, agree = PETSC_TRUE;
  const PetscReal rtol = 1e-8, restol = 10 * rtol, difftol = 1e-6;
  PetscReal       maxdiff = 0;
  Vec             xref = NULL;
  PetscMPIInt     size;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscELLGInitializePackage());
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "3D Laplacian with every matrix type", NULL);
  PetscCall(PetscOptionsInt("-n", "grid points per direction", NULL, n, &n, NULL));
  PetscCall(PetscOptionsStringArray("-mat_types", "matrix types to solve with, the first is the reference", NULL, types, &ntypes, &set));
  PetscCall(PetscOptionsInt("-nmult", "MatMult calls timed per type", NULL, nmult, &nmult, NULL));
  PetscCall(PetscOptionsBool("-timings", "print backends and times", NULL, timings, &timings, NULL));
  PetscOptionsEnd();
  PetscCheck(n > 0 && (PetscInt64)n * n * n <= PETSC_MAX_INT, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-n %" PetscInt_FMT ": must be positive, with n^3 unknowns in a PetscInt", n);
  PetscCheck(nmult > 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-nmult %" PetscInt_FMT " must be positive", nmult);
  if (!set) {
    const MatType defaults[] = {MATAIJ, MATELLG, MATPJDS, MATSLICEDELL, MATCSRG, MATAIJGPU};

    ntypes = PETSC_STATIC_ARRAY_LENGTH(defaults);
    for (PetscInt t = 0; t < ntypes; t++) PetscCall(PetscStrallocpy(defaults[t], &types[t]));
  }
  PetscCheck(ntypes > 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "-mat_types needs at least one type");

  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "3D Laplacian, 7-point stencil, %" PetscInt_FMT "^3 grid: %" PetscInt_FMT " unknowns, %" PetscInt_FMT " nonzeros, %d process%s\n", n, n * n * n, 7 * n * n * n - 6 * n * n, size, size > 1 ? "es" : ""));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "KSP cg, PC jacobi, rtol %g; solutions compared with the first row's\n", (double)rtol));
  if (timings) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-16s %-8s %-7s %10s %14s %10s %13s %12s\n", "type", "vectors", "backend", "iterations", "||b-Ax||/||b||", "solve (s)", "MatMult (ms)", "difference"));
  else PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-16s %-8s %10s %14s %12s\n", "type", "vectors", "iterations", "||b-Ax||/||b||", "difference"));
  for (PetscInt t = 0; t < ntypes; t++) {
    Vec       x;
    PetscReal diff = 0;
    char      res[32], dstr[32] = "reference";

    PetscCall(SolveWithType(n, types[t], rtol, nmult, &x, &solves[t]));
    if (t) {
      PetscCall(RelativeDifference(x, xref, &diff));
      maxdiff = PetscMax(maxdiff, diff);
      if (!(diff < difftol)) agree = PETSC_FALSE;
    }
    if (solves[t].tsolve < solves[fastest].tsolve) fastest = t;
    if (solves[t].tmult < solves[fastestmult].tmult) fastestmult = t;
    if (timings) {
      if (t) PetscCall(PetscSNPrintf(dstr, sizeof(dstr), "%.2e", (double)diff));
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-16s %-8s %-7s %10" PetscInt_FMT " %14.2e %10.4f %13.4f %12s\n", solves[t].type, solves[t].vtype, solves[t].backend, solves[t].its, (double)solves[t].rnorm, solves[t].tsolve, 1e3 * solves[t].tmult, dstr));
    } else { /* thresholds instead of values: the same output on every machine */
      if (t) PetscCall(PetscSNPrintf(dstr, sizeof(dstr), diff < difftol ? "< %g" : "ABOVE %g", (double)difftol));
      PetscCall(PetscSNPrintf(res, sizeof(res), solves[t].rnorm < restol ? "< %g" : "ABOVE %g", (double)restol));
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-16s %-8s %10" PetscInt_FMT " %14s %12s\n", solves[t].type, solves[t].vtype, solves[t].its, res, dstr));
    }
    if (t) PetscCall(VecDestroy(&x));
    else xref = x;
  }
  if (ntypes > 1) {
    if (timings) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "Solutions agree with %s: %s (largest relative difference %.1e, tolerance %g)\n", solves[0].type, agree ? "yes" : "NO", (double)maxdiff, (double)difftol));
    else PetscCall(PetscPrintf(PETSC_COMM_WORLD, "Solutions agree with %s: %s\n", solves[0].type, agree ? "yes" : "NO"));
  }
  if (timings) PetscCall(PrintSummary(ntypes, solves, fastest, fastestmult));
  for (PetscInt t = 0; t < ntypes; t++) PetscCall(PetscFree(types[t]));
  PetscCall(VecDestroy(&xref));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   test:
      # with a PETSc built with CUDA and a GPU, MatCreateVecs() gives PETSc's CUDA vectors
      args: -n 8 -timings 0
      filter: sed -e "s/ seqcuda / seqgpu  /"

TEST*/
