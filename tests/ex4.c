static char help[] = "KSP solves with a matrix of one of our types and device vectors against the same solves with AIJ\n\
and host vectors: CG, GMRES and BiCGStab with Jacobi and ILU (block Jacobi with ILU blocks in parallel) on a\n\
2D (5-point) or 3D (7-point) Laplacian. Both must converge, in about the same number of iterations (5%, BiCGStab 10%)\n\
(reductions on the GPU sum in another order), and agree on the solution.\n\
  -type <ellg,pjds,slicedell>: the type (root name); its options apply (MatSetFromOptions)\n\
  -dim <2,3>: dimension of the grid\n\
  -n <n>: grid points per direction\n\n";

#include <petscksp.h>
#include "ellgtest.h"

/* Laplacian (diagonal 2 dim) on an n^dim grid with Dirichlet boundary, natural ordering, rows split by PETSc; with
   MatSetFromOptions() for the types under test (not AIJ, the reference) */
static PetscErrorCode Laplacian(PetscInt dim, PetscInt n, MatType type, Mat *A)
{
  PetscBool isaij;

  PetscFunctionBeginUser;
  PetscCall(IsAIJType(type, &isaij));
  PetscCall(MatCreate(PETSC_COMM_WORLD, A));
  PetscCall(FillLaplacian(*A, dim, n, 2.0 * dim, 0.0, type, (PetscBool)!isaij));
  PetscFunctionReturn(0);
}

/* Solves A x = b with the given methods; x starts from zero */
static PetscErrorCode Solve(Mat A, Vec b, Vec x, KSPType ktype, PCType ptype, PetscInt *its, KSPConvergedReason *reason)
{
  KSP ksp;
  PC  pc;

  PetscFunctionBeginUser;
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, ktype));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, ptype));
  PetscCall(KSPSetTolerances(ksp, 1e-10, PETSC_DEFAULT, PETSC_DEFAULT, 2000));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(VecSet(x, 0.0));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetIterationNumber(ksp, its));
  PetscCall(KSPGetConvergedReason(ksp, reason));
  PetscCall(KSPDestroy(&ksp));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  const char        *ktypes[] = {KSPCG, KSPGMRES, KSPBCGS};
  PetscInt           dim = 2, n = 16, k, p, its, itsr, nfail = 0;
  PetscMPIInt        size;
  KSPConvergedReason reason, reasonr;
  PCType             ptypes[2];
  Mat                A, R;
  Vec                x, b, xr, br;
  PetscRandom        rnd;
  PetscReal          err, nrm;
  PetscBool          isgpu;
  char               type[TYPE_LEN];

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscELLGInitializePackage());
  PetscCall(TestType(type, NULL, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-dim", &dim, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCheck(dim == 2 || dim == 3, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-dim must be 2 or 3");
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  ptypes[0] = PCJACOBI;
  ptypes[1] = size == 1 ? PCILU : PCBJACOBI; /* ILU blocks in parallel */

  PetscCall(Laplacian(dim, n, type, &A));
  PetscCall(Laplacian(dim, n, MATAIJ, &R));
  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(IsDeviceVec(A, x, &isgpu));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%dD Laplacian, %" PetscInt_FMT " unknowns, our type with %s vectors\n", (int)dim, dim == 2 ? n * n : n * n * n, isgpu ? "device" : "OTHER"));
  if (!isgpu) nfail++;
  PetscCall(MatCreateVecs(R, &xr, &br));
  PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  PetscCall(PetscRandomSetSeed(rnd, 11));
  PetscCall(PetscRandomSeed(rnd));
  PetscCall(VecSetRandom(br, rnd));
  PetscCall(CopyValues(br, b));

  for (k = 0; k < 3; k++) {
    for (p = 0; p < 2; p++) {
      PetscBool ok = PETSC_TRUE;
      PetscInt  slack;

      PetscCall(Solve(A, b, x, ktypes[k], ptypes[p], &its, &reason));
      PetscCall(Solve(R, br, xr, ktypes[k], ptypes[p], &itsr, &reasonr));
      /* BiCGStab's residuals do not decrease monotonically: sums in another order (the reductions of other
         processes, the device's) move its count by several iterations on the problems of many processes */
      slack = k == 2 ? PetscMax(2, itsr / 10) : PetscMax(1, itsr / 20);
      if (PetscAbsInt(its - itsr) > slack || reason <= 0 || reasonr <= 0) ok = PETSC_FALSE;
      /* the solutions: relative difference in the max norm, from the arrays */
      PetscCall(MaxDifference(x, xr, &err, &nrm));
      if (!(err <= 1e-8 * nrm)) ok = PETSC_FALSE;
      if (ok) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-8s %-8s converged in %3" PetscInt_FMT " iterations with aij, ours alike: ok\n", ktypes[k], ptypes[p], itsr));
      else {
        PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-8s %-8s FAILED: ours %" PetscInt_FMT " iterations (%s), aij %" PetscInt_FMT " (%s), solution difference %g (relative)\n", ktypes[k], ptypes[p], its, KSPConvergedReasons[reason], itsr, KSPConvergedReasons[reasonr], (double)(nrm > 0 ? err / nrm : err)));
        nfail++;
      }
    }
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s\n", nfail ? "SOME CHECKS FAILED" : "all checks passed"));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&xr));
  PetscCall(VecDestroy(&br));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&R));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   test:
      suffix: 2d
      args: -type {{ellg pjds slicedell csrg aijgpu}} -dim 2 -n 16

   test:
      suffix: 3d
      args: -type {{ellg pjds slicedell csrg aijgpu}} -dim 3 -n 8

   test:
      suffix: 2d_mpi
      nsize: 2
      args: -type {{ellg pjds slicedell csrg aijgpu}} -dim 2 -n 16

   test:
      suffix: 3d_mpi
      nsize: 3
      args: -type {{ellg pjds slicedell csrg aijgpu}} -dim 3 -n 8

   test:
      suffix: 3d_mpi_4
      nsize: 4
      args: -type {{ellg pjds slicedell csrg aijgpu}} -dim 3 -n 8

   # many processes on one device, as users run to split the host's share of the setup: 8 and 16 ranks
   # (on a machine of one GPU, all of them on it); timeoutfactor: each process starts its own CUDA context, and
   # beside the other tests of the harness its ranks wait for cores
   test:
      suffix: 3d_ranks_8
      nsize: 8
      timeoutfactor: 5
      args: -type {{slicedell aijgpu}} -dim 3 -n 16

   test:
      suffix: 3d_ranks_16
      nsize: 16
      timeoutfactor: 5
      args: -type {{slicedell aijgpu}} -dim 3 -n 16

   # rows of more than 3 entries multiplied as long rows (most rows: 5 in 2D, 7 in 3D)
   test:
      suffix: long_rows_ellg
      args: -type ellg -mat_ellg_long_row_threshold 3 -dim 3 -n 8
      output_file: output/ex4_3d.out

   test:
      suffix: long_rows_ellg_mpi
      nsize: 2
      args: -type ellg -mat_ellg_long_row_threshold 3 -dim 2 -n 16
      output_file: output/ex4_2d_mpi.out

   test:
      suffix: long_rows_pjds
      args: -type pjds -mat_pjds_long_row_threshold 3 -dim 3 -n 8
      output_file: output/ex4_3d.out

   test:
      suffix: long_rows_pjds_mpi
      nsize: 2
      args: -type pjds -mat_pjds_long_row_threshold 3 -dim 2 -n 16
      output_file: output/ex4_2d_mpi.out

   test:
      suffix: long_rows_slicedell
      args: -type slicedell -mat_slicedell_long_row_threshold 3 -dim 3 -n 8
      output_file: output/ex4_3d.out

   test:
      suffix: long_rows_slicedell_mpi
      nsize: 2
      args: -type slicedell -mat_slicedell_long_row_threshold 3 -dim 2 -n 16
      output_file: output/ex4_2d_mpi.out

TEST*/
