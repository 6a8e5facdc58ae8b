static char help[] = "MatMult and CG+Jacobi on a 3D 7-point Laplacian over MPI ranks (one GPU each), with the halo\n\
exchange overlapped with the diagonal block's product and without (our types on several ranks; on one rank, and\n\
for another type such as PETSc's aijcusparse, the no-ovl columns are -).\n\
  -n <N>                 grid points per dimension (strong scaling: N^3 in all; weak: N^3 per rank,\n\
                         N x N x (N ranks) in all)\n\
  -scaling <strong,weak>\n\
  -mat_type <type>       the matrix type (default ellg; any type of PETSc's with MatCreateVecs() vectors)\n\
  -vec_type <type>       the vectors' type (default the matrix's, that of MatCreateVecs())\n\
  -reps <r>              MatMult products per timed batch (default 100); 5 batches, the median counts\n\
  -cg_its <k>            CG iterations per timed solve (default 100)\n\
  -check_only            no timing: check A 1 (exact) with and without overlap\n\n";

#include <petscksp.h>
#include <petscellg.h>
#include "bench_common.h"

typedef struct {
  MPI_Comm  comm;
  PetscBool device; /* the matrix computes on a GPU: wait for it before reading the clock */
  PetscBool overlap; /* a parallel PETSc-ELLG type, whose halo exchange overlaps or not (-mat_gpu_halo_overlap) */
} Bench;

/* the rows [rstart, rend) of the 7-point Laplacian (6 on the diagonal, -1 off it) on an nx x ny x nz grid, x fastest */
static PetscErrorCode LaplacianRows(PetscInt nx, PetscInt ny, PetscInt nz, PetscInt rstart, PetscInt rend, PetscInt **ai, PetscInt **aj, PetscScalar **aa)
{
  const PetscInt m = rend - rstart, plane = nx * ny;
  PetscInt       nz_ = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc3(m + 1, ai, 7 * m, aj, 7 * m, aa));
  (*ai)[0] = 0;
  for (PetscInt r = rstart; r < rend; r++) {
    const PetscInt i = r % nx, j = (r / nx) % ny, k = r / plane;
    const PetscInt cols[7] = {k > 0 ? r - plane : -1, j > 0 ? r - nx : -1, i > 0 ? r - 1 : -1, r, i < nx - 1 ? r + 1 : -1, j < ny - 1 ? r + nx : -1, k < nz - 1 ? r + plane : -1};

    for (PetscInt c = 0; c < 7; c++) {
      if (cols[c] < 0) continue;
      (*aj)[nz_]   = cols[c];
      (*aa)[nz_++] = cols[c] == r ? 6.0 : -1.0;
    }
    (*ai)[r - rstart + 1] = nz_;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* max |y_r - (A 1)_r| over the rows, A 1 being 6 less the number of neighbours of point r: exact */
static PetscErrorCode RowSumError(Vec y, PetscInt nx, PetscInt ny, PetscInt nz, PetscReal *err)
{
  const PetscScalar *py;
  PetscInt           rstart, rend;
  PetscReal          local = 0.0;

  PetscFunctionBeginUser;
  PetscCall(VecGetOwnershipRange(y, &rstart, &rend));
  PetscCall(VecGetArrayRead(y, &py));
  for (PetscInt r = rstart; r < rend; r++) {
    const PetscInt i = r % nx, j = (r / nx) % ny, k = r / (nx * ny);
    const PetscInt nb = (i > 0) + (i < nx - 1) + (j > 0) + (j < ny - 1) + (k > 0) + (k < nz - 1);

    local = PetscMax(local, PetscAbsScalar(py[r - rstart] - (PetscScalar)(6 - nb)));
  }
  PetscCall(VecRestoreArrayRead(y, &py));
  PetscCallMPI(MPI_Allreduce(&local, err, 1, MPIU_REAL, MPIU_MAX, PetscObjectComm((PetscObject)y)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Synchronize(Bench *b)
{
  PetscFunctionBeginUser;
#if defined(BENCH_HAVE_CUDA)
  if (b->device) PetscCallBenchCuda(BenchCudaSynchronize());
#endif
  PetscCallMPI(MPI_Barrier(b->comm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ms per product of A (or of its diagonal block, through local vectors): median over 5 batches of reps, slowest rank */
static PetscErrorCode TimeMult(Bench *b, Mat A, Vec x, Vec y, PetscInt reps, PetscReal *ms)
{
  PetscReal t[5];

  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < 10; k++) PetscCall(MatMult(A, x, y));
  for (PetscInt batch = 0; batch < 5; batch++) {
    PetscLogDouble t0, t1;
    PetscReal      local;

    PetscCall(Synchronize(b));
    PetscCall(PetscTime(&t0));
    for (PetscInt k = 0; k < reps; k++) PetscCall(MatMult(A, x, y));
    PetscCall(Synchronize(b));
    PetscCall(PetscTime(&t1));
    local = (PetscReal)(1e3 * (t1 - t0) / reps);
    PetscCall(MPIU_Allreduce(&local, &t[batch], 1, MPIU_REAL, MPIU_MAX, b->comm));
  }
  PetscCall(Median(5, t, ms));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ms per CG+Jacobi iteration: its iterations from x = 0, median of 3 solves */
static PetscErrorCode TimeCG(Bench *b, Mat A, Vec rhs, Vec x, PetscInt its, PetscReal *ms)
{
  KSP       ksp;
  PC        pc;
  PetscReal t[3];
  PetscInt  done;

  PetscFunctionBeginUser;
  PetscCall(KSPCreate(b->comm, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, KSPCG));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCJACOBI));
  PetscCall(KSPSetTolerances(ksp, 1e-50, 0.0, PETSC_DEFAULT, its));
  PetscCall(KSPSetUp(ksp));
  PetscCall(KSPSolve(ksp, rhs, x)); /* warm-up */
  for (PetscInt s = 0; s < 3; s++) {
    PetscLogDouble t0, t1;

    PetscCall(VecSet(x, 0.0));
    PetscCall(Synchronize(b));
    PetscCall(PetscTime(&t0));
    PetscCall(KSPSolve(ksp, rhs, x));
    PetscCall(Synchronize(b));
    PetscCall(PetscTime(&t1));
    PetscCall(KSPGetIterationNumber(ksp, &done));
    t[s] = (PetscReal)(1e3 * (t1 - t0) / PetscMax(done, 1));
  }
  PetscCall(KSPDestroy(&ksp));
  PetscCall(Median(3, t, ms)); /* the same on every rank: the solve ends with a reduction */
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  Bench             b;
  PetscInt          n = 100, reps = 100, its = 100, nz, N, m, rstart, *ai, *aj, nnz, nnzg;
  PetscScalar      *aa;
  PetscBool         weak = PETSC_FALSE, check = PETSC_FALSE;
  const char *const scalings[] = {"strong", "weak", "Scaling", "", NULL};
  PetscEnum         sc = (PetscEnum)0;
  PetscMPIInt       size;
  Mat               A, Ad;
  Vec               x, y, xd, yd;
  PetscReal         ms[2] = {-1, -1}, cg[2] = {-1, -1}, msd;
  PetscReal         err[2] = {0, 0};
  PetscInt          nruns;
  char              vtype[64] = "";
  void (*getbackend)(void);

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscELLGInitializePackage());
  b.comm = PETSC_COMM_WORLD;
  PetscCallMPI(MPI_Comm_size(b.comm, &size));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-reps", &reps, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-cg_its", &its, NULL));
  PetscCall(PetscOptionsGetEnum(NULL, NULL, "-scaling", scalings, &sc, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-check_only", &check, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-vec_type", vtype, sizeof(vtype), NULL));
  weak = (PetscBool)(sc == 1);
  PetscCheck(n > 1 && reps > 0 && its > 0, b.comm, PETSC_ERR_ARG_OUTOFRANGE, "-n must be > 1, -reps and -cg_its > 0");
  nz = weak ? n * size : n;
  PetscCheck((PetscInt64)n * n * nz < PETSC_MAX_INT, b.comm, PETSC_ERR_ARG_OUTOFRANGE, "Grid too large for 32-bit indices");
  N = n * n * nz;
  m = PETSC_DECIDE;
  PetscCall(PetscSplitOwnership(b.comm, &m, &N));
  PetscCallMPI(MPI_Scan(&m, &rstart, 1, MPIU_INT, MPI_SUM, b.comm));
  rstart -= m;

  PetscCall(LaplacianRows(n, n, nz, rstart, rstart + m, &ai, &aj, &aa));
  PetscCall(MatCreate(b.comm, &A));
  PetscCall(MatSetSizes(A, m, m, N, N));
  PetscCall(MatSetType(A, MATELLG));
  PetscCall(MatSetFromOptions(A));
  PetscCall(MatSeqAIJSetPreallocationCSR(A, ai, aj, aa));
  PetscCall(MatMPIAIJSetPreallocationCSR(A, ai, aj, aa));
  nnz = ai[m];
  PetscCall(PetscFree3(ai, aj, aa));
  PetscCallMPI(MPI_Allreduce(&nnz, &nnzg, 1, MPIU_INT, MPI_SUM, b.comm));
  if (vtype[0]) PetscCall(MatSetVecType(A, vtype));
  PetscCall(MatCreateVecs(A, &x, &y));
  PetscCall(VecSet(x, 1.0));
  /* ours: the backend says where it computes; another type computes on the GPU when its vectors are PETSc's CUDA vectors */
  PetscCall(PetscObjectQueryFunction((PetscObject)A, "MatELLGGetBackend_C", &getbackend));
  if (getbackend) {
    PetscELLGBackend be;

    PetscCall(MatELLGGetBackend(A, &be));
    b.device = (PetscBool)(be == PETSCELLG_BACKEND_CUDA);
  } else PetscCall(PetscObjectTypeCompareAny((PetscObject)x, &b.device, VECSEQCUDA, VECMPICUDA, ""));
  b.overlap = (PetscBool)(getbackend && size > 1);
  nruns     = b.overlap ? 2 : 1;

  if (check) {
    for (PetscInt o = 0; o < nruns; o++) {
      if (b.overlap) {
        PetscCall(PetscOptionsSetValue(NULL, "-mat_gpu_halo_overlap", o ? "0" : "1"));
        PetscCall(MatSetFromOptions(A));
      }
      PetscCall(MatMult(A, x, y));
      PetscCall(RowSumError(y, n, n, nz, &err[o]));
      PetscCall(PetscPrintf(b.comm, "A 1 on a %" PetscInt_FMT "^2 x %" PetscInt_FMT " grid%s: %s\n", n, nz, b.overlap ? (o ? " without overlap" : " with overlap") : "", err[o] == 0.0 ? "exact" : "WRONG"));
    }
    PetscCall(VecDestroy(&x));
    PetscCall(VecDestroy(&y));
    PetscCall(MatDestroy(&A));
    PetscCall(PetscFinalize());
    return 0;
  }

  /* the diagonal block alone, on vectors of the local part */
  if (size > 1) PetscCall(MatMPIAIJGetSeqAIJ(A, &Ad, NULL, NULL));
  else Ad = A;
  PetscCall(MatCreateVecs(Ad, &xd, &yd));
  PetscCall(VecSet(xd, 1.0));
  {
    Bench local = {PETSC_COMM_SELF, b.device, PETSC_FALSE};

    PetscCall(TimeMult(&local, Ad, xd, yd, reps, &msd));
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &msd, 1, MPIU_REAL, MPIU_MAX, b.comm));
  }

  for (PetscInt o = 0; o < nruns; o++) { /* with overlap, then without */
    if (b.overlap) {
      PetscCall(PetscOptionsSetValue(NULL, "-mat_gpu_halo_overlap", o ? "0" : "1"));
      PetscCall(MatSetFromOptions(A));
    }
    PetscCall(TimeMult(&b, A, x, y, reps, &ms[o]));
    PetscCall(RowSumError(y, n, n, nz, &err[o]));
    PetscCall(VecCopy(y, x)); /* A 1 as the right-hand side */
    PetscCall(TimeCG(&b, A, x, y, its, &cg[o]));
    PetscCall(VecSet(x, 1.0));
  }

  PetscCall(PetscPrintf(b.comm, "%-7s %5s %-16s %10s %11s %-10s %10s %10s %10s %8s %10s %10s %9s\n", "scaling", "ranks", "grid", "rows", "nnz", "type", "diag ms", "mult ms", "no-ovl ms", "GB/s", "cg it ms", "no-ovl ms", "max err"));
  {
    char    grid[64], noovl[2][16] = {"-", "-"};
    MatType type;

    PetscCall(MatGetType(A, &type));
    PetscCall(PetscSNPrintf(grid, sizeof(grid), "%" PetscInt_FMT "x%" PetscInt_FMT "x%" PetscInt_FMT, n, n, nz));
    if (b.overlap) {
      PetscCall(PetscSNPrintf(noovl[0], sizeof(noovl[0]), "%.4f", (double)ms[1]));
      PetscCall(PetscSNPrintf(noovl[1], sizeof(noovl[1]), "%.4f", (double)cg[1]));
    }
    PetscCall(PetscPrintf(b.comm, "%-7s %5d %-16s %10" PetscInt_FMT " %11" PetscInt_FMT " %-10s %10.4f %10.4f %10s %8.1f %10.4f %10s %9.1e\n", weak ? "weak" : "strong", size, grid, N, nnzg, type, (double)msd, (double)ms[0], noovl[0],
                          (12.0 * nnzg + 20.0 * N) / (ms[0] * 1e6), (double)cg[0], noovl[1], (double)PetscMax(err[0], err[1])));
  }
  PetscCall(VecDestroy(&xd));
  PetscCall(VecDestroy(&yd));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   # one process: the matrix is sequential and has no halo exchange
   test:
      args: -n 6 -check_only

   test:
      suffix: weak
      nsize: 3
      args: -n 5 -scaling weak -check_only -mat_type {{ellg pjds slicedell csrg}}
      output_file: output/bench_mpi_weak.out

   # another type is timed as it runs (here PETSc's aij on the host): the table without its times
   test:
      suffix: other_type
      nsize: 2
      args: -n 6 -reps 2 -cg_its 3 -mat_type aij
      filter: cut -c 1-65,88-98,119-138

TEST*/
