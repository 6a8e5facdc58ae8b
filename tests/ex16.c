static char help[] = "Our device vectors (VECGPU) with PETSc's own CUDA vectors (VECCUDA) as the arguments they read, on a PETSc\n\
built with CUDA: each operation of a device vector whose other vectors are CUDA vectors against the same operation\n\
on standard vectors with the same values, with no copy of either kind of vector between host and device during\n\
the operations (the CUDA vectors' device arrays are read in place); CG with Jacobi on a 2D Laplacian with our vectors,\n\
whose preconditioner keeps its diagonal in a CUDA vector (MatCreateVecs() of our matrix), against AIJ's host\n\
solve, with no copy during the solve. Prints pass/fail lines only.\n\
  -type <ellg,pjds,slicedell,csrg,aijgpu>: the matrix type of the solve (root name)\n\n";

#include <petscksp.h>
#include "ellgtest.h"

#define WIDTH 58 /* of the descriptions in the result lines */
#define NX    3  /* vectors an operation reads besides its own */
#define NS    3  /* scalars an operation returns */

typedef PetscErrorCode (*OpFn)(Vec, Vec[], PetscScalar[]);
typedef struct {
  const char *name;
  OpFn        fn;
} Op;

static PetscErrorCode OpAXPY(Vec y, Vec x[], PetscScalar s[])
{
  return VecAXPY(y, 0.5, x[0]);
}
static PetscErrorCode OpAYPX(Vec y, Vec x[], PetscScalar s[])
{
  return VecAYPX(y, -1.25, x[0]);
}
static PetscErrorCode OpAXPBY(Vec y, Vec x[], PetscScalar s[])
{
  return VecAXPBY(y, 2.0, 0.75, x[0]);
}
static PetscErrorCode OpAXPBYPCZ(Vec y, Vec x[], PetscScalar s[])
{
  return VecAXPBYPCZ(y, 0.5, -0.5, 1.5, x[0], x[1]);
}
static PetscErrorCode OpWAXPY(Vec y, Vec x[], PetscScalar s[])
{
  return VecWAXPY(y, 2.0, x[0], x[1]);
}
static PetscErrorCode OpMAXPY(Vec y, Vec x[], PetscScalar s[])
{
  const PetscScalar alpha[NX] = {0.5, -2.0, 0.25};

  return VecMAXPY(y, NX, alpha, x);
}
static PetscErrorCode OpPointwiseMult(Vec y, Vec x[], PetscScalar s[])
{
  return VecPointwiseMult(y, x[0], x[1]);
}
static PetscErrorCode OpPointwiseDivide(Vec y, Vec x[], PetscScalar s[])
{
  return VecPointwiseDivide(y, x[0], x[1]);
}
static PetscErrorCode OpPointwiseMaxMinMaxAbs(Vec y, Vec x[], PetscScalar s[])
{
  PetscFunctionBeginUser;
  PetscCall(VecPointwiseMax(y, x[0], x[1]));
  PetscCall(VecPointwiseMin(y, y, x[2]));
  PetscCall(VecPointwiseMaxAbs(y, y, x[0]));
  PetscFunctionReturn(0);
}
static PetscErrorCode OpDots(Vec y, Vec x[], PetscScalar s[])
{
  PetscFunctionBeginUser;
  PetscCall(VecDot(y, x[0], &s[0]));
  PetscCall(VecTDot(y, x[1], &s[1]));
  PetscFunctionReturn(0);
}
static PetscErrorCode OpMDot(Vec y, Vec x[], PetscScalar s[])
{
  return VecMDot(y, NX, x, s);
}
static PetscErrorCode OpDotNorm2(Vec y, Vec x[], PetscScalar s[])
{
  return VecDotNorm2(y, x[0], &s[0], &s[1]);
}
static PetscErrorCode OpMaxPointwiseDivide(Vec y, Vec x[], PetscScalar s[])
{
  PetscReal m;

  PetscFunctionBeginUser;
  PetscCall(VecMaxPointwiseDivide(y, x[0], &m));
  s[0] = m;
  PetscFunctionReturn(0);
}

static const Op ops[] = {
  {"VecAXPY",                            OpAXPY                 },
  {"VecAYPX",                            OpAYPX                 },
  {"VecAXPBY",                           OpAXPBY                },
  {"VecAXPBYPCZ",                        OpAXPBYPCZ             },
  {"VecWAXPY",                           OpWAXPY                },
  {"VecMAXPY",                           OpMAXPY                },
  {"VecPointwiseMult",                   OpPointwiseMult        },
  {"VecPointwiseDivide",                 OpPointwiseDivide      },
  {"VecPointwiseMax, Min, MaxAbs",       OpPointwiseMaxMinMaxAbs},
  {"VecDot, VecTDot",                    OpDots                 },
  {"VecMDot",                            OpMDot                 },
  {"VecDotNorm2",                        OpDotNorm2             },
  {"VecMaxPointwiseDivide",              OpMaxPointwiseDivide   },
};

/* the copies between host and device so far on this process: PETSc's of its CUDA vectors, and ours */
static PetscErrorCode Copies(PetscLogDouble *count)
{
  PetscLogDouble c;

  PetscFunctionBeginUser;
  *count = 0;
  for (const char *const *e = (const char *const[]){"VecCUDACopyTo", "VecCUDACopyFrom", "VecGPUCopyTo", "VecGPUCopyFrom", NULL}; *e; e++) {
    PetscCall(EventCount(*e, &c));
    *count += c;
  }
  PetscFunctionReturn(0);
}

/* the values of src into v, then valid on the device alone (our vectors and CUDA vectors) */
static PetscErrorCode SetOnDevice(Vec src, Vec v)
{
  PetscScalar *a;
  PetscBool    cuda;

  PetscFunctionBeginUser;
  PetscCall(CopyValues(src, v));
  PetscCall(PetscObjectTypeCompareAny((PetscObject)v, &cuda, VECSEQCUDA, VECMPICUDA, ""));
  if (cuda) {
    PetscCall(VecCUDAGetArray(v, &a));
    PetscCall(VecCUDARestoreArray(v, &a));
  } else {
    PetscCall(VecGPUGetArray(v, &a));
    PetscCall(VecGPURestoreArray(v, &a));
  }
  PetscFunctionReturn(0);
}

/* each operation on our vector y with CUDA vectors x[], against the standard vectors' */
static PetscErrorCode TestOps(MPI_Comm comm, PetscInt n, PetscRandom rnd, PetscInt *nfail)
{
  Vec            orig[NX + 1], yr, yd, xr[NX], xc[NX];
  PetscScalar    sr[NS], sd[NS];
  PetscLogDouble before, after;
  PetscReal      err, nrm;
  PetscInt       N;

  PetscFunctionBeginUser;
  for (PetscInt k = 0; k <= NX; k++) {
    PetscCall(VecCreateMPI(comm, n, PETSC_DECIDE, &orig[k]));
    PetscCall(VecSetRandom(orig[k], rnd));
  }
  PetscCall(VecGetSize(orig[0], &N));
  PetscCall(VecDuplicate(orig[0], &yr));
  PetscCall(CreateVec(comm, n, PETSC_DETERMINE, VECGPU, &yd));
  for (PetscInt k = 0; k < NX; k++) {
    PetscCall(VecDuplicate(orig[0], &xr[k]));
    PetscCall(CreateVec(comm, n, PETSC_DETERMINE, VECCUDA, &xc[k]));
  }
  for (size_t o = 0; o < PETSC_STATIC_ARRAY_LENGTH(ops); o++) {
    PetscBool   ok;
    PetscMPIInt moved;

    PetscCall(CopyValues(orig[0], yr));
    PetscCall(SetOnDevice(orig[0], yd));
    for (PetscInt k = 0; k < NX; k++) {
      PetscCall(CopyValues(orig[k + 1], xr[k]));
      PetscCall(SetOnDevice(orig[k + 1], xc[k]));
    }
    PetscCall(PetscArrayzero(sr, NS));
    PetscCall(PetscArrayzero(sd, NS));
    PetscCall(ops[o].fn(yr, xr, sr));
    PetscCall(Copies(&before));
    PetscCall(ops[o].fn(yd, xc, sd));
    PetscCall(Copies(&after));
    moved = after != before;
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &moved, 1, MPI_INT, MPI_MAX, comm));
    PetscCall(MaxDifference(yd, yr, &err, &nrm));
    ok = (PetscBool)(err <= 1e-12 * PetscMax(nrm, 1.0));
    for (PetscInt i = 0; i < NS; i++) ok = (PetscBool)(ok && PetscAbsScalar(sd[i] - sr[i]) <= 1e-12 * PetscMax(PetscAbsScalar(sr[i]), PetscSqrtReal((PetscReal)N)));
    PetscCall(PrintNamedResult(comm, WIDTH, ops[o].name, "matches, in place", (PetscBool)(ok && !moved), nfail));
  }
  for (PetscInt k = 0; k <= NX; k++) PetscCall(VecDestroy(&orig[k]));
  for (PetscInt k = 0; k < NX; k++) {
    PetscCall(VecDestroy(&xr[k]));
    PetscCall(VecDestroy(&xc[k]));
  }
  PetscCall(VecDestroy(&yr));
  PetscCall(VecDestroy(&yd));
  PetscFunctionReturn(0);
}

/* CG+Jacobi on a 2D Laplacian with our vectors and our matrix (Jacobi's diagonal: a CUDA vector), against AIJ's host
   solve: the same iterations and solution, and no copy between host and device in the second solve */
static PetscErrorCode TestSolve(MPI_Comm comm, const char type[], PetscInt *nfail)
{
  CSR            c;
  Mat            A, R;
  Vec            b, x, br, xr, d;
  KSP            ksp, kspr;
  PC             pc;
  PetscInt       its, itsr, m;
  PetscLogDouble before, after;
  PetscReal      err, nrm;
  PetscBool      cuda;
  PetscMPIInt    moved;

  PetscFunctionBeginUser;
  PetscCall(CSRLaplacian("laplacian 40x40", 40, &c));
  PetscCall(CreateMatSplit(comm, LAYOUT_EVEN, &c, type, &A));
  PetscCall(CreateMatSplit(comm, LAYOUT_EVEN, &c, MATAIJ, &R));
  PetscCall(MatCreateVecs(A, &d, NULL));
  PetscCall(PetscObjectTypeCompareAny((PetscObject)d, &cuda, VECSEQCUDA, VECMPICUDA, ""));
  PetscCall(PrintResult(comm, WIDTH, "MatCreateVecs of our matrix gives CUDA vectors", cuda, nfail));
  PetscCall(VecDestroy(&d));
  PetscCall(MatCreateVecs(R, &xr, &br));
  PetscCall(VecSet(br, 1.0));
  PetscCall(VecGetLocalSize(br, &m));
  PetscCall(CreateVec(comm, m, PETSC_DETERMINE, VECGPU, &b));
  PetscCall(VecSet(b, 1.0));
  PetscCall(VecDuplicate(b, &x));
  for (PetscInt s = 0; s < 2; s++) {
    Mat M = s ? R : A;
    Vec rhs = s ? br : b, sol = s ? xr : x;
    KSP k;

    PetscCall(KSPCreate(comm, &k));
    PetscCall(KSPSetOperators(k, M, M));
    PetscCall(KSPSetType(k, KSPCG));
    PetscCall(KSPGetPC(k, &pc));
    PetscCall(PCSetType(pc, PCJACOBI));
    PetscCall(KSPSetTolerances(k, 1e-10, PETSC_DEFAULT, PETSC_DEFAULT, 500));
    PetscCall(KSPSolve(k, rhs, sol));
    if (s) kspr = k;
    else ksp = k;
  }
  PetscCall(VecSet(x, 0.0));
  PetscCall(Copies(&before));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(Copies(&after));
  moved = after != before;
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &moved, 1, MPI_INT, MPI_MAX, comm));
  PetscCall(KSPGetIterationNumber(ksp, &its));
  PetscCall(KSPGetIterationNumber(kspr, &itsr));
  PetscCall(MaxDifference(x, xr, &err, &nrm));
  PetscCall(PrintResult(comm, WIDTH, "CG+Jacobi on our vectors: AIJ's iterations and solution", (PetscBool)(its == itsr && err <= 1e-8 * nrm), nfail));
  PetscCall(PrintResult(comm, WIDTH, "CG+Jacobi on our vectors: no host-device copies", (PetscBool)!moved, nfail));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(KSPDestroy(&kspr));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&br));
  PetscCall(VecDestroy(&xr));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&R));
  PetscCall(CSRDestroy(&c));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  MPI_Comm    comm;
  PetscRandom rnd;
  PetscInt    nfail = 0;
  char        type[TYPE_LEN];

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscELLGInitializePackage());
  PetscCall(PetscLogDefaultBegin());
  comm = PETSC_COMM_WORLD;
  PetscCall(TestType(type, NULL, NULL));
  PetscCall(RandomCreate(comm, 7, &rnd));
  PetscCall(TestOps(comm, 1000, rnd, &nfail));
  PetscCall(TestSolve(comm, type, &nfail));
  PetscCall(PetscPrintf(comm, nfail ? "%" PetscInt_FMT " checks FAILED\n" : "all checks passed\n", nfail));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(PetscFinalize());
  return nfail ? 1 : 0;
}

/*TEST

   build:
      requires: petsc_cuda

   testset:
      requires: petsc_cuda gpu
      output_file: output/ex16_1.out
      test:
         suffix: 1
         args: -type {{slicedell aijgpu}}
      test:
         suffix: mpi
         nsize: 2
         args: -type aijgpu

TEST*/
