static char help[] = "Our matrix types with PETSc's own CUDA vectors (VECCUDA), on a PETSc built with CUDA: MatCreateVecs()\n\
gives them; MatMult, MatMultAdd, MatMultTranspose, MatMultTransposeAdd and MatGetDiagonal (rows and columns split alike) on them against AIJ's\n\
host products, each on the vectors' device arrays (PETSc's copy events VecCUDACopyTo/From count none during\n\
the products); the same products with our device vectors (VECGPU) mixed in as input or output; C = A B with B\n\
of PETSc's CUDA dense type, on the device arrays; the products with the vectors, then the matrix, bound to\n\
the CPU (MatBindToCPU(), VecBindToCPU()); CG with Jacobi on a 3D Laplacian with PETSc's CUDA vectors\n\
against AIJ's host solve. Prints pass/fail lines only.\n\
  -type <ellg,pjds,slicedell>: the type (root name)\n\n";

#include <petscksp.h>
#include "ellgtest.h"

#define WIDTH 58 /* of the descriptions in the result lines */

/* the counts of PETSc's copies of CUDA vectors between host and device */
typedef struct {
  PetscLogDouble to, from;
} Copies;

static PetscErrorCode GetCopies(Copies *c)
{
  PetscFunctionBeginUser;
  PetscCall(EventCount("VecCUDACopyTo", &c->to));
  PetscCall(EventCount("VecCUDACopyFrom", &c->from));
  PetscFunctionReturn(0);
}

/* ToDevice - makes the device copy of the CUDA vector v the valid one (copies it there if needed) */
static PetscErrorCode ToDevice(Vec v)
{
  PetscScalar *a;

  PetscFunctionBeginUser;
  PetscCall(VecCUDAGetArray(v, &a));
  PetscCall(VecCUDARestoreArray(v, &a));
  PetscFunctionReturn(0);
}

/* ProductsOnDevice - the products of A on the vectors x (columns), y (rows) and the like, whose values are set on the
   device first, against those of R on host vectors with the same values: right values, and no copy of PETSc's CUDA
   vectors between host and device during the products (device: whether x and y are PETSc's CUDA vectors, whose copies
   are counted) */
static PetscErrorCode ProductsOnDevice(const char *what, Mat A, Mat R, Vec x, Vec y, Vec z, Vec w, PetscBool device, PetscRandom rnd, PetscInt *nfail)
{
  MPI_Comm  comm = PetscObjectComm((PetscObject)A);
  Vec       xr, yr, zr, wr;
  Copies    before, after;
  PetscBool ok = PETSC_TRUE, moved, diagonal;
  PetscInt  rstart, rend, cstart, cend;
  char      line[128];

  PetscFunctionBeginUser;
  PetscCall(MatCreateVecs(R, &xr, &yr));
  PetscCall(VecDuplicate(yr, &zr));
  PetscCall(VecDuplicate(xr, &wr));
  PetscCall(VecSetRandom(xr, rnd));
  PetscCall(VecSetRandom(zr, rnd));
  PetscCall(VecSetRandom(wr, rnd));
  PetscCall(CopyValues(xr, x));
  PetscCall(CopyValues(zr, z));
  PetscCall(CopyValues(wr, w));
  if (device) {
    PetscCall(ToDevice(x));
    PetscCall(ToDevice(z));
    PetscCall(ToDevice(w));
  }

  PetscCall(GetCopies(&before));
  PetscCall(MatMult(A, x, y));
  PetscCall(MatMultAdd(A, x, z, z));
  PetscCall(GetCopies(&after));
  moved = (PetscBool)(after.to != before.to || after.from != before.from);
  PetscCall(MatMult(R, xr, yr));
  PetscCall(MatMultAdd(R, xr, zr, zr));
  PetscCall(CheckClose(y, yr, 1.0, "MatMult", &ok));
  PetscCall(CheckClose(z, zr, 1.0, "MatMultAdd", &ok));

  PetscCall(VecSetRandom(yr, rnd));
  PetscCall(CopyValues(yr, y));
  if (device) PetscCall(ToDevice(y));
  PetscCall(MatGetOwnershipRange(A, &rstart, &rend));
  PetscCall(MatGetOwnershipRangeColumn(A, &cstart, &cend));
  diagonal = (PetscBool)(rstart == cstart && rend == cend); /* MPIAIJ's MatGetDiagonal() needs it */
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &diagonal, 1, ELLG_MPI_BOOL, MPI_LAND, comm));
  PetscCall(GetCopies(&before));
  PetscCall(MatMultTranspose(A, y, x));
  PetscCall(MatMultTransposeAdd(A, y, w, w));
  if (diagonal) PetscCall(MatGetDiagonal(A, z));
  PetscCall(GetCopies(&after));
  moved = (PetscBool)(moved || after.to != before.to || after.from != before.from);
  PetscCall(MatMultTranspose(R, yr, xr));
  PetscCall(MatMultTransposeAdd(R, yr, wr, wr));
  PetscCall(CheckClose(x, xr, 1.0, "MatMultTranspose", &ok));
  PetscCall(CheckClose(w, wr, 1.0, "MatMultTransposeAdd", &ok));
  if (diagonal) {
    PetscCall(MatGetDiagonal(R, zr));
    PetscCall(CheckClose(z, zr, 1.0, "MatGetDiagonal", &ok));
  }
  PetscCall(PetscSNPrintf(line, sizeof(line), "%s: products match AIJ", what));
  PetscCall(PrintResult(comm, WIDTH, line, ok, nfail));
  if (device) {
    PetscCall(PetscSNPrintf(line, sizeof(line), "%s: no host-device copies in the products", what));
    PetscCall(PrintResult(comm, WIDTH, line, (PetscBool)!moved, nfail));
  }
  PetscCall(VecDestroy(&xr));
  PetscCall(VecDestroy(&yr));
  PetscCall(VecDestroy(&zr));
  PetscCall(VecDestroy(&wr));
  PetscFunctionReturn(0);
}

/* DenseProduct - C = A B with B of PETSc's CUDA dense type, its values on the device, against AIJ times dense: C of
   B's type, computed on the device arrays of B and C (no chunks through the host, no copy of PETSc's) */
static PetscErrorCode DenseProduct(Mat A, Mat R, PetscRandom rnd, PetscInt *nfail)
{
  MPI_Comm       comm = PetscObjectComm((PetscObject)A);
  Mat            B, Bh, C, Cref;
  PetscInt       n, N;
  PetscScalar   *b;
  PetscLogDouble chunks[2], to[2], from[2];
  PetscReal      err, nrm;
  PetscBool      same;

  PetscFunctionBeginUser;
  PetscCall(MatGetLocalSize(A, NULL, &n));
  PetscCall(MatGetSize(A, NULL, &N));
  PetscCall(DenseRandom(comm, MATDENSECUDA, n, N, 5, 0, rnd, &B));
  PetscCall(MatConvert(B, MATDENSE, MAT_INITIAL_MATRIX, &Bh));
  PetscCall(MatDenseCUDAGetArray(B, &b));
  PetscCall(MatDenseCUDARestoreArray(B, &b));
  PetscCall(EventCount("MatGPUSpMMChunks", &chunks[0]));
  PetscCall(EventCount("MatDenseCopyTo", &to[0]));
  PetscCall(EventCount("MatDenseCopyFrom", &from[0]));
  PetscCall(MatMatMult(A, B, MAT_INITIAL_MATRIX, 2.0, &C));
  PetscCall(EventCount("MatGPUSpMMChunks", &chunks[1]));
  PetscCall(EventCount("MatDenseCopyTo", &to[1]));
  PetscCall(EventCount("MatDenseCopyFrom", &from[1]));
  PetscCall(MatMatMult(R, Bh, MAT_INITIAL_MATRIX, 2.0, &Cref));
  PetscCall(MaxDenseDifference(C, Cref, &err, &nrm));
  PetscCall(PrintResult(comm, WIDTH, "C = A B, B CUDA dense: matches AIJ times dense", (PetscBool)(err <= RTOL * PetscMax(nrm, 1.0)), nfail));
  PetscCall(PetscObjectTypeCompareAny((PetscObject)C, &same, MATSEQDENSECUDA, MATMPIDENSECUDA, ""));
  same = (PetscBool)(same && chunks[1] == chunks[0] && to[1] == to[0] && from[1] == from[0]);
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &same, 1, ELLG_MPI_BOOL, MPI_LAND, comm));
  PetscCall(PrintResult(comm, WIDTH, "C = A B, B CUDA dense: C of B's type, on the device", same, nfail));
  PetscCall(MatDestroy(&B));
  PetscCall(MatDestroy(&Bh));
  PetscCall(MatDestroy(&C));
  PetscCall(MatDestroy(&Cref));
  PetscFunctionReturn(0);
}

/* BindToCPU - VecBindToCPU() of the four vectors */
static PetscErrorCode BindToCPU(Vec x, Vec y, Vec z, Vec w, PetscBool flg)
{
  PetscFunctionBeginUser;
  PetscCall(VecBindToCPU(x, flg));
  PetscCall(VecBindToCPU(y, flg));
  PetscCall(VecBindToCPU(z, flg));
  PetscCall(VecBindToCPU(w, flg));
  PetscFunctionReturn(0);
}

/* Solve - CG with Jacobi from a zero guess to a relative tolerance of 1e-10; the iterations */
static PetscErrorCode Solve(Mat A, Vec b, Vec x, PetscInt *its)
{
  KSP                ksp;
  PC                 pc;
  KSPConvergedReason reason;

  PetscFunctionBeginUser;
  PetscCall(KSPCreate(PetscObjectComm((PetscObject)A), &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, KSPCG));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCJACOBI));
  PetscCall(KSPSetTolerances(ksp, 1e-10, PETSC_DEFAULT, PETSC_DEFAULT, 1000));
  PetscCall(VecSet(x, 0.0));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetIterationNumber(ksp, its));
  PetscCall(KSPGetConvergedReason(ksp, &reason));
  if (reason <= 0) *its = -1;
  PetscCall(KSPDestroy(&ksp));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  MPI_Comm    comm;
  Layout      layout = LAYOUT_EVEN;
  CSR         c;
  Mat         A, R;
  Vec         x, y, z, w, xg, yg, b, u, br, ur;
  PetscRandom rnd;
  PetscInt    nfail = 0, its, itsr;
  PetscBool   ok;
  PetscReal   err, nrm;
  char        type[TYPE_LEN];

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscELLGInitializePackage());
  PetscCall(PetscLogDefaultBegin());
  comm = PETSC_COMM_WORLD;
  PetscCall(TestType(type, NULL, NULL));
  PetscCall(GetLayout(&layout));
  PetscCall(RandomCreate(comm, 5, &rnd));

  /* square, with empty rows and a few long ones (long-row paths of the formats) */
  PetscCall(CSRPowerLaw("power-law rows 4000x4000", 4000, 1, 1.4, 7, &c));
  PetscCall(CreateMatSplit(comm, layout, &c, type, &A));
  PetscCall(CreateMatSplit(comm, layout, &c, MATAIJ, &R));

  PetscCall(MatCreateVecs(A, &x, &y));
  PetscCall(PetscObjectTypeCompareAny((PetscObject)x, &ok, VECSEQCUDA, VECMPICUDA, ""));
  PetscCall(PrintResult(comm, WIDTH, "MatCreateVecs gives PETSc's CUDA vectors", ok, &nfail));
  PetscCall(VecDuplicate(y, &z));
  PetscCall(VecDuplicate(x, &w));
  PetscCall(ProductsOnDevice("CUDA vectors", A, R, x, y, z, w, PETSC_TRUE, rnd, &nfail));

  /* our device vectors mixed in: as input, then as output */
  PetscCall(VecDuplicate(x, &xg));
  PetscCall(VecSetType(xg, VECGPU));
  PetscCall(VecDuplicate(y, &yg));
  PetscCall(VecSetType(yg, VECGPU));
  PetscCall(ProductsOnDevice("gpu input, CUDA output", A, R, xg, y, z, w, PETSC_FALSE, rnd, &nfail));
  PetscCall(ProductsOnDevice("CUDA input, gpu output", A, R, x, yg, z, w, PETSC_FALSE, rnd, &nfail));
  PetscCall(DenseProduct(A, R, rnd, &nfail));

  /* bound to the CPU, as PETSc binds coarse levels: the vectors (their host arrays are then the ones PETSc
     reads), then the matrix (its products then run on the host) */
  PetscCall(BindToCPU(x, y, z, w, PETSC_TRUE));
  PetscCall(ProductsOnDevice("vectors bound to the CPU", A, R, x, y, z, w, PETSC_FALSE, rnd, &nfail));
  PetscCall(BindToCPU(x, y, z, w, PETSC_FALSE));
  PetscCall(MatBindToCPU(A, PETSC_TRUE));
  PetscCall(ProductsOnDevice("matrix bound to the CPU", A, R, x, y, z, w, PETSC_FALSE, rnd, &nfail));
  PetscCall(MatBindToCPU(A, PETSC_FALSE));
  PetscCall(VecDestroy(&xg));
  PetscCall(VecDestroy(&yg));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(VecDestroy(&z));
  PetscCall(VecDestroy(&w));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&R));
  PetscCall(CSRDestroy(&c));

  /* CG with Jacobi on PETSc's CUDA vectors against AIJ's host solve */
  PetscCall(MatCreate(comm, &A));
  PetscCall(FillLaplacian(A, 3, 12, 6.0, 0.0, type, PETSC_FALSE));
  PetscCall(MatCreate(comm, &R));
  PetscCall(FillLaplacian(R, 3, 12, 6.0, 0.0, MATAIJ, PETSC_FALSE));
  PetscCall(MatCreateVecs(A, &u, &b));
  PetscCall(MatCreateVecs(R, &ur, &br));
  PetscCall(VecSetRandom(br, rnd));
  PetscCall(CopyValues(br, b));
  PetscCall(Solve(A, b, u, &its));
  PetscCall(Solve(R, br, ur, &itsr));
  PetscCall(MaxDifference(u, ur, &err, &nrm));
  ok = (PetscBool)(its >= 0 && itsr >= 0 && PetscAbsInt(its - itsr) <= PetscMax(1, itsr / 20) && err <= 1e-8 * nrm);
  PetscCall(PrintResult(comm, WIDTH, "CG+Jacobi on CUDA vectors: AIJ's iterations and solution", ok, &nfail));
  if (!ok) PetscCall(PetscPrintf(comm, "    ours %" PetscInt_FMT " iterations, aij %" PetscInt_FMT ", solution difference %g (relative)\n", its, itsr, (double)(nrm > 0 ? err / nrm : err)));
  PetscCall(VecDestroy(&u));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&ur));
  PetscCall(VecDestroy(&br));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&R));

  PetscCall(PetscPrintf(comm, "%s\n", nfail ? "SOME CHECKS FAILED" : "all checks passed"));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   build:
      requires: petsc_cuda

   testset:
      requires: petsc_cuda gpu
      output_file: output/ex9_1.out
      test:
         suffix: 1
         args: -type {{ellg pjds slicedell csrg aijgpu}}
      test:
         suffix: mpi
         nsize: {{2 3}}
         args: -type {{ellg pjds slicedell csrg aijgpu}}
      test:
         suffix: uneven
         nsize: 3
         args: -type slicedell -uneven

TEST*/
