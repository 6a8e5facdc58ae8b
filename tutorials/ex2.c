static char help[] = "A single-precision preconditioner inside a double solve: a 3D Laplacian (7-point stencil, variable\n\
coefficient) on an n^3 grid, solved with CG twice, each with the vectors MatCreateVecs() gives: once with the operator\n\
(Amat) as its own preconditioning matrix (Pmat), once with a Pmat that keeps its device values in single precision\n\
(MatGPUSetValuePrecision(), or -pmat_mat_gpu_value_precision single: the Pmat's options prefix is pmat_). The Krylov\n\
method multiplies by the double Amat, so its residuals and its answer are exact to double precision; the\n\
preconditioner reads only the Pmat and what it makes from it (GAMG's and Galerkin multigrid's coarse operators and\n\
smoothers, Jacobi's diagonal, the triangles of ILU, ICC and the sub-solves of block Jacobi and ASM), and runs on fp32\n\
values, summed in double. The program prints the iterations and the\n\
true residual of both solves.\n\
  -n <32>                  grid points per direction\n\
  -mat_type <aijgpu>       the type of both matrices (any of ours)\n\
  -timings <true>          print the iterations and KSPSolve's times (each of a second solve, after an untimed one);\n\
                           false gives output that is the same on every machine\n\
The solver is CG with GAMG unless the options say otherwise (-ksp_type, -pc_type, ...); multigrid is told to smooth\n\
with the Pmat (PCSetUseAmat(pc, PETSC_FALSE), which -pc_use_amat false also says).\n\n";

#include <petscksp.h>
#include <petscellg.h>

/* the operator: -div(k grad u) on the unit cube, Dirichlet boundary, with a coefficient k that varies smoothly over
   the grid (so that the values are not all of a few magnitudes that single precision holds exactly) */
static PetscErrorCode Assemble(PetscInt n, Mat A)
{
  PetscInt rstart, rend;

  PetscFunctionBeginUser;
  PetscCall(MatSeqAIJSetPreallocation(A, 7, NULL));
  PetscCall(MatMPIAIJSetPreallocation(A, 7, NULL, 6, NULL));
  PetscCall(MatGetOwnershipRange(A, &rstart, &rend));
  for (PetscInt row = rstart; row < rend; row++) {
    const PetscInt  i = row % n, j = (row / n) % n, k = row / (n * n);
    const PetscReal kc = 1.0 + 0.5 * PetscSinReal(0.3 * i + 0.2 * j + 0.1 * k) / 3.0;
    PetscInt        cols[7], nc = 0;
    PetscScalar     vals[7];

    /* columns in increasing order: z-, y-, x-, diagonal, x+, y+, z+ */
    if (k > 0) cols[nc++] = row - n * n;
    if (j > 0) cols[nc++] = row - n;
    if (i > 0) cols[nc++] = row - 1;
    cols[nc++] = row;
    if (i < n - 1) cols[nc++] = row + 1;
    if (j < n - 1) cols[nc++] = row + n;
    if (k < n - 1) cols[nc++] = row + n * n;
    for (PetscInt c = 0; c < nc; c++) vals[c] = cols[c] == row ? 6.0 * kc : -kc;
    PetscCall(MatSetValues(A, 1, &row, nc, cols, vals, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* solves A x = b with Pmat P, twice from a zero guess; gives the iterations, the true residual ||b - A x|| / ||b|| and
   the second KSPSolve's time */
static PetscErrorCode Solve(Mat A, Mat P, Vec b, PetscInt *its, PetscReal *res, PetscLogDouble *t)
{
  KSP            ksp;
  PC             pc;
  Vec            x, r;
  PetscReal      nb;
  PetscLogDouble t0, t1;

  PetscFunctionBeginUser;
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, A, P));
  PetscCall(KSPSetType(ksp, KSPCG));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCGAMG));
  PetscCall(PCSetUseAmat(pc, PETSC_FALSE)); /* multigrid smooths with the Pmat: in single precision */
  PetscCall(KSPSetNormType(ksp, KSP_NORM_UNPRECONDITIONED)); /* the tolerance on the true residual, A's (double) */
  PetscCall(KSPSetTolerances(ksp, 1e-8, PETSC_DEFAULT, PETSC_DEFAULT, 500));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(VecDuplicate(b, &x));
  PetscCall(VecDuplicate(b, &r));
  PetscCall(KSPSetUp(ksp));
  PetscCall(KSPSolve(ksp, b, x)); /* once untimed, so that neither timed solve pays for first uses on the device */
  PetscCall(PetscTime(&t0));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(PetscTime(&t1));
  *t = t1 - t0;
  PetscCall(KSPGetIterationNumber(ksp, its));
  PetscCall(MatMult(A, x, r));
  PetscCall(VecAYPX(r, -1.0, b));
  PetscCall(VecNorm(r, NORM_2, res));
  PetscCall(VecNorm(b, NORM_2, &nb));
  *res /= nb;
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&r));
  PetscCall(KSPDestroy(&ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  Mat                  A, P;
  Vec                  b;
  PetscInt             n = 32, its[2];
  PetscReal            res[2];
  PetscLogDouble       t[2];
  PetscBool            timings = PETSC_TRUE, set;
  char                 type[64] = MATAIJGPU;
  MatGPUValuePrecision p;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscELLGInitializePackage());
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-mat_type", type, sizeof(type), NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-timings", &timings, NULL));

  /* the operator, double */
  PetscCall(MatCreate(PETSC_COMM_WORLD, &A));
  PetscCall(MatSetSizes(A, PETSC_DECIDE, PETSC_DECIDE, n * n * n, n * n * n));
  PetscCall(MatSetType(A, type));
  PetscCall(MatSetFromOptions(A));
  PetscCall(Assemble(n, A));
  PetscCall(MatSetOption(A, MAT_SPD, PETSC_TRUE));

  /* the preconditioning matrix: the same values, kept in single precision on the device unless its options
     (prefix pmat_) say otherwise */
  PetscCall(MatCreate(PETSC_COMM_WORLD, &P));
  PetscCall(MatSetOptionsPrefix(P, "pmat_"));
  PetscCall(MatSetSizes(P, PETSC_DECIDE, PETSC_DECIDE, n * n * n, n * n * n));
  PetscCall(MatSetType(P, type));
  PetscCall(MatGPUSetValuePrecision(P, MAT_GPU_VALUES_SINGLE));
  PetscCall(MatSetFromOptions(P));
  PetscCall(Assemble(n, P));
  PetscCall(MatSetOption(P, MAT_SPD, PETSC_TRUE));
  PetscCall(MatGPUGetValuePrecision(P, &p));

  PetscCall(MatCreateVecs(A, NULL, &b));
  PetscCall(VecSet(b, 1.0));
  PetscCall(Solve(A, A, b, &its[0], &res[0], &t[0]));
  PetscCall(Solve(A, P, b, &its[1], &res[1], &t[1]));

  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "3D Laplacian, %" PetscInt_FMT "^3 rows, type %s\n", n, type));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "Pmat = Amat (double):     true residual %s 1e-8\n", res[0] < 1.01e-8 ? "below" : "ABOVE"));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "Pmat in %s precision: true residual %s 1e-8\n", MatGPUValuePrecisions[p], res[1] < 1.01e-8 ? "below" : "ABOVE"));
  set = (PetscBool)(PetscAbsInt(its[1] - its[0]) <= PetscMax(1, its[0] / 50));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "iterations with the single Pmat within 2%% (or 1) of those with the double one: %s\n", set ? "yes" : "NO"));
  if (timings) { /* iterations and times differ from one machine (and process count) to another */
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "iterations: %" PetscInt_FMT " with the double Pmat, %" PetscInt_FMT " with the single one\n", its[0], its[1]));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "KSPSolve: %.4g s with the double Pmat, %.4g s with the single one (%.2fx)\n", t[0], t[1], t[1] > 0 ? t[0] / t[1] : 0.0));
  }

  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&P));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   test:
      suffix: 1
      nsize: {{1 2}}
      args: -n 16 -timings 0 -mat_type {{aijgpu slicedell}}
      output_file: output/ex2_1.out
      filter: sed -e "s/type slicedell/type aijgpu/"

   # Jacobi reads only the Pmat's diagonal, in single precision
   test:
      suffix: jacobi
      args: -n 16 -timings 0 -pc_type jacobi
      output_file: output/ex2_jacobi.out

TEST*/
