static char help[] = "Device vectors (VECGPU: VECSEQGPU, VECMPIGPU) against PETSc's standard vectors: every device\n\
operation on random data, local lengths 0, 1, 37 and 100003 (fewer on higher ranks, so that some\n\
own none), with the device vectors' values valid on the host, on the backend or on both; arguments of\n\
mixed types (plain vectors, vectors of another backend); synchronisation of the two copies\n\
(VecGetArray*, VecGPUGetArray*, VecPlaceArray/ResetArray/ReplaceArray, VecSetValues); operations\n\
while a host array of VecGetArray/VecGetArrayRead is out; duplicates; VecView and VecLoad.\n\
Prints pass/fail lines only.\n\
  -large <n>: the largest local length (default 100003)\n\n";

#include <petscellg.h>
#include <petsc/private/petscimpl.h> /* PetscObjectStateGet() */
#include "../src/include/ellgcompat.h"

#define RTOL 1e-12
#define NV   12 /* vectors of a test case: 0, 1 random, 2 random with zeros, 3 few distinct values (ties), 4.. random */
#define NS   12 /* scalar results of a test case */

typedef enum {
  STATE_HOST,
  STATE_DEVICE,
  STATE_BOTH
} State;
static const char *const StateNames[] = {"host", "device", "both"};

/* makes the host copy, the backend copy or both the valid ones */
static PetscErrorCode SetState(Vec v, State s)
{
  PetscScalar       *a;
  const PetscScalar *r;

  PetscFunctionBeginUser;
  if (s == STATE_HOST) {
    PetscCall(VecGetArray(v, &a));
    PetscCall(VecRestoreArray(v, &a));
  } else {
    PetscCall(VecGPUGetArray(v, &a));
    PetscCall(VecGPURestoreArray(v, &a));
    if (s == STATE_BOTH) {
      PetscCall(VecGetArrayRead(v, &r));
      PetscCall(VecRestoreArrayRead(v, &r));
    }
  }
  PetscFunctionReturn(0);
}

/* largest difference of the entries, relative to max(|reference|, 1) */
static PetscErrorCode VecDiff(Vec ref, Vec x, PetscReal *err)
{
  const PetscScalar *r, *a;
  PetscInt           n;

  PetscFunctionBeginUser;
  PetscCall(VecGetLocalSize(ref, &n));
  PetscCall(VecGetArrayRead(ref, &r));
  PetscCall(VecGetArrayRead(x, &a));
  for (PetscInt i = 0; i < n; i++) *err = PetscMax(*err, PetscAbsScalar(a[i] - r[i]) / PetscMax(PetscAbsScalar(r[i]), 1.0));
  PetscCall(VecRestoreArrayRead(ref, &r));
  PetscCall(VecRestoreArrayRead(x, &a));
  PetscFunctionReturn(0);
}

/* largest difference of scalar results, relative to max(|reference|, sqrt(N)): sums of N terms of
   size about 1 (dot products, norms) are about sqrt(N) even when they cancel out, and so are their
   rounding errors, which differ with the order of the additions and grow with the length (allowed
   for beyond 10^4 terms) */
static PetscErrorCode ScalarDiff(PetscInt n, const PetscScalar ref[], const PetscScalar s[], PetscInt N, PetscReal *err)
{
  const PetscReal sqrtN = PetscMax(PetscSqrtReal((PetscReal)N), 1.0);

  PetscFunctionBeginUser;
  for (PetscInt i = 0; i < n; i++) *err = PetscMax(*err, PetscAbsScalar(s[i] - ref[i]) / (PetscMax(PetscAbsScalar(ref[i]), sqrtN) * PetscMax(1.0, sqrtN / 100.0)));
  PetscFunctionReturn(0);
}

/* ------------------------------------------------------------------ the operations */

typedef PetscErrorCode (*OpFn)(Vec[], PetscScalar[]);
typedef struct {
  const char *name;
  OpFn        fn;
  PetscInt    nvec; /* it uses v[0 .. nvec-1] */
} Op;

static const PetscScalar alphas[NV] = {0.5, -1.25, 2.0, 0.75, -0.5, 1.5, -2.5, 0.125, 3.0, -0.625, 1.0, -1.0};

static PetscErrorCode OpSet(Vec v[], PetscScalar s[])
{
  return VecSet(v[0], 0.25);
}
static PetscErrorCode OpScale(Vec v[], PetscScalar s[])
{
  return VecScale(v[0], -1.5);
}
static PetscErrorCode OpScale0(Vec v[], PetscScalar s[])
{
  return VecScale(v[0], 0.0);
}
static PetscErrorCode OpShift(Vec v[], PetscScalar s[])
{
  return VecShift(v[0], 0.5);
}
static PetscErrorCode OpAbs(Vec v[], PetscScalar s[])
{
  return VecAbs(v[0]);
}
static PetscErrorCode OpReciprocal(Vec v[], PetscScalar s[])
{
  return VecReciprocal(v[2]);
}
static PetscErrorCode OpSqrtAbs(Vec v[], PetscScalar s[])
{
  return VecSqrtAbs(v[0]);
}
static PetscErrorCode OpExp(Vec v[], PetscScalar s[])
{
  return VecExp(v[0]);
}
static PetscErrorCode OpLog(Vec v[], PetscScalar s[])
{
  PetscFunctionBeginUser;
  PetscCall(VecAbs(v[0]));
  PetscCall(VecLog(v[0]));
  PetscFunctionReturn(0);
}
static PetscErrorCode OpConjugate(Vec v[], PetscScalar s[])
{
  return VecConjugate(v[0]);
}
static PetscErrorCode OpCopy(Vec v[], PetscScalar s[])
{
  return VecCopy(v[1], v[0]);
}
static PetscErrorCode OpSwap(Vec v[], PetscScalar s[])
{
  return VecSwap(v[0], v[1]);
}
static PetscErrorCode OpAXPY(Vec v[], PetscScalar s[])
{
  return VecAXPY(v[0], 0.7, v[1]);
}
static PetscErrorCode OpAYPX(Vec v[], PetscScalar s[])
{
  return VecAYPX(v[0], -0.3, v[1]);
}
static PetscErrorCode OpAYPX0(Vec v[], PetscScalar s[])
{
  return VecAYPX(v[0], 0.0, v[1]);
}
static PetscErrorCode OpAXPBY(Vec v[], PetscScalar s[])
{
  return VecAXPBY(v[0], 0.7, -1.2, v[1]);
}
static PetscErrorCode OpAXPBY0(Vec v[], PetscScalar s[])
{
  return VecAXPBY(v[0], 0.7, 0.0, v[1]);
}
static PetscErrorCode OpAXPBYPCZ(Vec v[], PetscScalar s[])
{
  return VecAXPBYPCZ(v[0], 0.5, -2.0, 1.5, v[1], v[2]);
}
static PetscErrorCode OpAXPBYPCZ0(Vec v[], PetscScalar s[])
{
  return VecAXPBYPCZ(v[0], 0.5, -2.0, 0.0, v[1], v[2]);
}
static PetscErrorCode OpWAXPY(Vec v[], PetscScalar s[])
{
  return VecWAXPY(v[0], 1.3, v[1], v[2]);
}
static PetscErrorCode OpMAXPY1(Vec v[], PetscScalar s[])
{
  return VecMAXPY(v[0], 1, alphas, v + 1);
}
static PetscErrorCode OpMAXPY3(Vec v[], PetscScalar s[])
{
  return VecMAXPY(v[0], 3, alphas, v + 1);
}
static PetscErrorCode OpMAXPY11(Vec v[], PetscScalar s[])
{
  return VecMAXPY(v[0], 11, alphas, v + 1);
}
static PetscErrorCode OpPointwiseMult(Vec v[], PetscScalar s[])
{
  return VecPointwiseMult(v[0], v[1], v[2]);
}
static PetscErrorCode OpPointwiseMultInPlace(Vec v[], PetscScalar s[])
{
  return VecPointwiseMult(v[0], v[0], v[1]);
}
static PetscErrorCode OpPointwiseDivide(Vec v[], PetscScalar s[])
{
  return VecPointwiseDivide(v[0], v[1], v[2]);
}
static PetscErrorCode OpPointwiseMax(Vec v[], PetscScalar s[])
{
  return VecPointwiseMax(v[0], v[1], v[2]);
}
static PetscErrorCode OpPointwiseMin(Vec v[], PetscScalar s[])
{
  return VecPointwiseMin(v[0], v[1], v[2]);
}
static PetscErrorCode OpPointwiseMaxAbs(Vec v[], PetscScalar s[])
{
  return VecPointwiseMaxAbs(v[0], v[1], v[2]);
}
static PetscErrorCode OpDot(Vec v[], PetscScalar s[])
{
  return VecDot(v[0], v[1], s);
}
static PetscErrorCode OpTDot(Vec v[], PetscScalar s[])
{
  return VecTDot(v[0], v[1], s);
}
static PetscErrorCode OpMDot1(Vec v[], PetscScalar s[])
{
  return VecMDot(v[0], 1, v + 1, s);
}
static PetscErrorCode OpMDot3(Vec v[], PetscScalar s[])
{
  return VecMDot(v[0], 3, v + 1, s);
}
static PetscErrorCode OpMDot11(Vec v[], PetscScalar s[])
{
  return VecMDot(v[0], 11, v + 1, s);
}
static PetscErrorCode OpMTDot11(Vec v[], PetscScalar s[])
{
  return VecMTDot(v[0], 11, v + 1, s);
}
static PetscErrorCode OpNorms(Vec v[], PetscScalar s[])
{
  PetscReal r[2];

  PetscFunctionBeginUser;
  PetscCall(VecNorm(v[0], NORM_1, r));
  s[0] = r[0];
  PetscCall(VecNorm(v[1], NORM_2, r));
  s[1] = r[0];
  PetscCall(VecNorm(v[2], NORM_INFINITY, r));
  s[2] = r[0];
  PetscCall(VecNorm(v[3], NORM_FROBENIUS, r));
  s[3] = r[0];
  PetscCall(VecNorm(v[0], NORM_1_AND_2, r));
  s[4] = r[0];
  s[5] = r[1];
  PetscFunctionReturn(0);
}
/* 2-norms whose sums of squares overflow (entries about 1e200) and underflow (about 1e-200), scaled back */
static PetscErrorCode OpNorm2Extreme(Vec v[], PetscScalar s[])
{
  PetscReal r;

  PetscFunctionBeginUser;
  PetscCall(VecScale(v[0], 1e200));
  PetscCall(VecNorm(v[0], NORM_2, &r));
  s[0] = r * 1e-200;
  PetscCall(VecScale(v[0], 1e-200));
  PetscCall(VecScale(v[0], 1e-200));
  PetscCall(VecNorm(v[0], NORM_2, &r));
  s[1] = r * 1e200;
  PetscCall(VecScale(v[0], 1e200));
  PetscFunctionReturn(0);
}
static PetscErrorCode OpNormalize(Vec v[], PetscScalar s[])
{
  PetscReal r;

  PetscFunctionBeginUser;
  PetscCall(VecNormalize(v[0], &r));
  s[0] = r;
  PetscFunctionReturn(0);
}
static PetscErrorCode OpDotNorm2(Vec v[], PetscScalar s[])
{
  return VecDotNorm2(v[0], v[1], &s[0], &s[1]);
}
static PetscErrorCode OpSum(Vec v[], PetscScalar s[])
{
  return VecSum(v[0], s);
}
static PetscErrorCode MaxMin(Vec v, PetscScalar s[])
{
  PetscInt  i;
  PetscReal r;

  PetscFunctionBeginUser;
  PetscCall(VecMax(v, &i, &r));
  s[0] = r;
  s[1] = i;
  PetscCall(VecMin(v, &i, &r));
  s[2] = r;
  s[3] = i;
  PetscCall(VecMax(v, NULL, &r));
  s[4] = r;
  PetscCall(VecMin(v, NULL, &r));
  s[5] = r;
  PetscFunctionReturn(0);
}
static PetscErrorCode OpMaxMin(Vec v[], PetscScalar s[])
{
  return MaxMin(v[0], s);
}
static PetscErrorCode OpMaxMinTies(Vec v[], PetscScalar s[])
{
  return MaxMin(v[3], s);
}
static PetscErrorCode OpMaxPointwiseDivide(Vec v[], PetscScalar s[])
{
  PetscReal r;

  PetscFunctionBeginUser;
  PetscCall(VecMaxPointwiseDivide(v[0], v[2], &r));
  s[0] = r;
  PetscFunctionReturn(0);
}
static PetscErrorCode OpSplitReductions(Vec v[], PetscScalar s[])
{
  PetscReal r;

  PetscFunctionBeginUser;
  PetscCall(VecDotBegin(v[0], v[1], &s[0]));
  PetscCall(VecTDotBegin(v[0], v[2], &s[1]));
  PetscCall(VecNormBegin(v[1], NORM_2, &r));
  PetscCall(VecMDotBegin(v[0], 3, v + 1, s + 2));
  PetscCall(VecDotEnd(v[0], v[1], &s[0]));
  PetscCall(VecTDotEnd(v[0], v[2], &s[1]));
  PetscCall(VecNormEnd(v[1], NORM_2, &r));
  PetscCall(VecMDotEnd(v[0], 3, v + 1, s + 2));
  s[5] = r;
  PetscFunctionReturn(0);
}
/* host code: ADD at the first local entry and at global entry 0 (off-process on other ranks) */
static PetscErrorCode OpSetValues(Vec v[], PetscScalar s[])
{
  PetscInt    N, lo, hi, i[2] = {0, 0};
  PetscScalar y[2] = {1.5, -0.5};

  PetscFunctionBeginUser;
  PetscCall(VecGetSize(v[0], &N));
  if (!N) PetscFunctionReturn(0);
  PetscCall(VecGetOwnershipRange(v[0], &lo, &hi));
  if (hi > lo) i[0] = lo;
  PetscCall(VecSetValues(v[0], 2, i, y, ADD_VALUES));
  PetscCall(VecAssemblyBegin(v[0]));
  PetscCall(VecAssemblyEnd(v[0]));
  PetscFunctionReturn(0);
}
static PetscErrorCode OpGetValues(Vec v[], PetscScalar s[])
{
  PetscInt lo, hi, i[3];

  PetscFunctionBeginUser;
  PetscCall(VecGetOwnershipRange(v[0], &lo, &hi));
  for (PetscInt k = 0; k < 3; k++) i[k] = lo + k;
  PetscCall(VecGetValues(v[0], PetscMin(hi - lo, 3), i, s));
  PetscFunctionReturn(0);
}
static PetscErrorCode OpSubVector(Vec v[], PetscScalar s[])
{
  PetscInt lo, hi;
  IS       is;
  Vec      sub;

  PetscFunctionBeginUser;
  PetscCall(VecGetOwnershipRange(v[0], &lo, &hi));
  PetscCall(ISCreateStride(PetscObjectComm((PetscObject)v[0]), (hi - lo) / 2, lo, 1, &is));
  PetscCall(VecGetSubVector(v[0], is, &sub));
  PetscCall(VecScale(sub, 3.0));
  PetscCall(VecRestoreSubVector(v[0], is, &sub));
  PetscCall(ISDestroy(&is));
  PetscCall(VecScale(v[0], 2.0)); /* v[0] must know where its values are */
  PetscFunctionReturn(0);
}
/* the duplicate starts on the host; a device operation between it and v */
static PetscErrorCode OpDuplicate(Vec v[], PetscScalar s[])
{
  Vec w;

  PetscFunctionBeginUser;
  PetscCall(VecDuplicate(v[0], &w));
  PetscCall(VecWAXPY(w, 2.0, v[0], v[1]));
  PetscCall(VecCopy(w, v[0]));
  PetscCall(VecDestroy(&w));
  PetscFunctionReturn(0);
}

static const Op ops[] = {
  {"VecSet",                           OpSet,                  1 },
  {"VecScale",                         OpScale,                1 },
  {"VecScale by 0",                    OpScale0,               1 },
  {"VecShift",                         OpShift,                1 },
  {"VecAbs",                           OpAbs,                  1 },
  {"VecReciprocal",                    OpReciprocal,           3 },
  {"VecSqrtAbs",                       OpSqrtAbs,              1 },
  {"VecExp",                           OpExp,                  1 },
  {"VecLog",                           OpLog,                  1 },
  {"VecConjugate",                     OpConjugate,            1 },
  {"VecCopy",                          OpCopy,                 2 },
  {"VecSwap",                          OpSwap,                 2 },
  {"VecAXPY",                          OpAXPY,                 2 },
  {"VecAYPX",                          OpAYPX,                 2 },
  {"VecAYPX alpha 0",                  OpAYPX0,                2 },
  {"VecAXPBY",                         OpAXPBY,                2 },
  {"VecAXPBY beta 0",                  OpAXPBY0,               2 },
  {"VecAXPBYPCZ",                      OpAXPBYPCZ,             3 },
  {"VecAXPBYPCZ gamma 0",              OpAXPBYPCZ0,            3 },
  {"VecWAXPY",                         OpWAXPY,                3 },
  {"VecMAXPY 1",                       OpMAXPY1,               2 },
  {"VecMAXPY 3",                       OpMAXPY3,               4 },
  {"VecMAXPY 11",                      OpMAXPY11,              NV},
  {"VecPointwiseMult",                 OpPointwiseMult,        3 },
  {"VecPointwiseMult in place",        OpPointwiseMultInPlace, 2 },
  {"VecPointwiseDivide",               OpPointwiseDivide,      3 },
  {"VecPointwiseMax",                  OpPointwiseMax,         3 },
  {"VecPointwiseMin",                  OpPointwiseMin,         3 },
  {"VecPointwiseMaxAbs",               OpPointwiseMaxAbs,      3 },
  {"VecDot",                           OpDot,                  2 },
  {"VecTDot",                          OpTDot,                 2 },
  {"VecMDot 1",                        OpMDot1,                2 },
  {"VecMDot 3",                        OpMDot3,                4 },
  {"VecMDot 11",                       OpMDot11,               NV},
  {"VecMTDot 11",                      OpMTDot11,              NV},
  {"VecNorm 1, 2, inf, frob, 1_and_2", OpNorms,                4 },
  {"VecNorm 2 near overflow, underflow", OpNorm2Extreme,        1 },
  {"VecNormalize",                     OpNormalize,            1 },
  {"VecDotNorm2",                      OpDotNorm2,             2 },
  {"VecSum",                           OpSum,                  1 },
  {"VecMax, VecMin",                   OpMaxMin,               1 },
  {"VecMax, VecMin with ties",         OpMaxMinTies,           4 },
  {"VecMaxPointwiseDivide",            OpMaxPointwiseDivide,   3 },
  {"VecDotBegin/End and friends",      OpSplitReductions,      4 },
  {"VecSetValues ADD_VALUES",          OpSetValues,            1 },
  {"VecGetValues",                     OpGetValues,            1 },
  {"VecGetSubVector",                  OpSubVector,            1 },
  {"VecDuplicate",                     OpDuplicate,            2 },
};

/* ------------------------------------------------------------------ test data */

typedef struct {
  Vec orig[NV];  /* the data (standard vectors) */
  Vec ref[NV];   /* standard vectors */
  Vec dev[NV];   /* device vectors (VECGPU) */
  Vec plain[NV]; /* standard vectors, for mixed arguments */
  Vec other[NV]; /* device vectors of the host backend, for mixed backends */
} Data;

/* device vectors of the backend -ellg_backend names (the default when it is absent) */
static PetscErrorCode CreateGPU(Vec tmpl, const char backend[], Vec *v)
{
  char        saved[16];
  PetscBool   set;
  PetscLayout map;

  PetscFunctionBeginUser;
  PetscCall(PetscOptionsGetString(NULL, NULL, "-ellg_backend", saved, sizeof(saved), &set));
  if (backend) PetscCall(PetscOptionsSetValue(NULL, "-ellg_backend", backend));
  PetscCall(VecCreate(PetscObjectComm((PetscObject)tmpl), v));
  PetscCall(VecGetLayout(tmpl, &map));
  PetscCall(VecSetLayout(*v, map));
  PetscCall(VecSetType(*v, VECGPU));
  if (backend) {
    if (set) PetscCall(PetscOptionsSetValue(NULL, "-ellg_backend", saved));
    else PetscCall(PetscOptionsClearValue(NULL, "-ellg_backend"));
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode DataCreate(MPI_Comm comm, PetscInt n, PetscRandom rnd, Data *d)
{
  PetscScalar *a;

  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < NV; k++) {
    PetscCall(VecCreate(comm, &d->orig[k]));
    PetscCall(VecSetSizes(d->orig[k], n, PETSC_DECIDE));
    PetscCall(VecSetType(d->orig[k], VECSTANDARD));
    PetscCall(VecSetRandom(d->orig[k], rnd));
    PetscCall(VecDuplicate(d->orig[k], &d->ref[k]));
    PetscCall(VecDuplicate(d->orig[k], &d->plain[k]));
    PetscCall(CreateGPU(d->orig[k], NULL, &d->dev[k]));
    PetscCall(CreateGPU(d->orig[k], "host", &d->other[k]));
  }
  PetscCall(VecGetArray(d->orig[2], &a));
  for (PetscInt i = 0; i < n; i += 3) a[i] = 0.0;
  PetscCall(VecRestoreArray(d->orig[2], &a));
  PetscCall(VecGetArray(d->orig[3], &a));
  for (PetscInt i = 0; i < n; i++) a[i] = PetscFloorReal(1.5 * (PetscRealPart(a[i]) + 1.0));
  PetscCall(VecRestoreArray(d->orig[3], &a));
  PetscFunctionReturn(0);
}

static PetscErrorCode DataDestroy(Data *d)
{
  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < NV; k++) {
    PetscCall(VecDestroy(&d->orig[k]));
    PetscCall(VecDestroy(&d->ref[k]));
    PetscCall(VecDestroy(&d->dev[k]));
    PetscCall(VecDestroy(&d->plain[k]));
    PetscCall(VecDestroy(&d->other[k]));
  }
  PetscFunctionReturn(0);
}

/* sets the first nvec vectors of v (and of ref) to the data, device ones in state s; returns the error of op */
static PetscErrorCode RunOp(const Op *op, Data *d, Vec v[], State s, PetscReal *err)
{
  PetscScalar sr[NS], sv[NS];
  PetscBool   isgpu;
  PetscInt    N;

  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < op->nvec; k++) {
    PetscCall(VecCopy(d->orig[k], d->ref[k]));
    PetscCall(VecCopy(d->orig[k], v[k]));
    PetscCall(PetscObjectTypeCompareAny((PetscObject)v[k], &isgpu, VECSEQGPU, VECMPIGPU, ""));
    if (isgpu) PetscCall(SetState(v[k], s));
  }
  PetscCall(PetscArrayzero(sr, NS));
  PetscCall(PetscArrayzero(sv, NS));
  PetscCall(op->fn(d->ref, sr));
  PetscCall(op->fn(v, sv));
  *err = 0.0;
  for (PetscInt k = 0; k < op->nvec; k++) PetscCall(VecDiff(d->ref[k], v[k], err));
  PetscCall(VecGetSize(v[0], &N));
  PetscCall(ScalarDiff(NS, sr, sv, N, err));
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, err, 1, MPIU_REAL, MPIU_MAX, PetscObjectComm((PetscObject)v[0])));
  PetscFunctionReturn(0);
}

/* mixed arguments: which vectors of a test case are device vectors of the default backend */
typedef enum {
  MIX_FIRST_PLAIN,  /* v[0] standard, the others device vectors */
  MIX_FIRST_DEVICE, /* v[0] a device vector, the others standard */
  MIX_ALTERNATE,    /* device and standard vectors alternate */
  MIX_OTHER_BACKEND /* v[0] of the default backend, the others of the host backend */
} Mix;
static const char *const MixNames[] = {"first argument standard", "first argument on the device", "alternating", "other backend"};

static void MixVecs(Data *d, Mix m, Vec v[])
{
  for (PetscInt k = 0; k < NV; k++) {
    switch (m) {
    case MIX_FIRST_PLAIN:
      v[k] = k ? d->dev[k] : d->plain[k];
      break;
    case MIX_FIRST_DEVICE:
      v[k] = k ? d->plain[k] : d->dev[k];
      break;
    case MIX_ALTERNATE:
      v[k] = k % 2 ? d->plain[k] : d->dev[k];
      break;
    case MIX_OTHER_BACKEND:
      v[k] = k ? d->other[k] : d->dev[k];
      break;
    }
  }
}

static PetscErrorCode Report(MPI_Comm comm, const char what[], PetscReal err, const char where[])
{
  PetscFunctionBeginUser;
  if (err <= RTOL) PetscCall(PetscPrintf(comm, "%s: ok\n", what));
  else PetscCall(PetscPrintf(comm, "%s: FAILED, relative error %g (%s)\n", what, (double)err, where));
  PetscFunctionReturn(0);
}

static PetscErrorCode TestOps(MPI_Comm comm, PetscInt nlen, const PetscInt len[], Data data[])
{
  const PetscInt nops       = (PetscInt)PETSC_STATIC_ARRAY_LENGTH(ops);
  char           where[128] = "";
  PetscReal      err, worst;

  PetscFunctionBeginUser;
  PetscCall(PetscPrintf(comm, "Device operations against the standard vectors (every length; values valid on the host, the backend, both):\n"));
  for (PetscInt o = 0; o < nops; o++) {
    worst = 0.0;
    for (PetscInt l = 0; l < nlen; l++) {
      for (State s = STATE_HOST; s <= STATE_BOTH; s++) {
        PetscCall(RunOp(&ops[o], &data[l], data[l].dev, s, &err));
        if (err > worst) PetscCall(PetscSNPrintf(where, sizeof(where), "local length %" PetscInt_FMT " on rank 0, %s valid", len[l], StateNames[s]));
        worst = PetscMax(worst, err);
      }
    }
    PetscCall(Report(comm, ops[o].name, worst, where));
  }
  PetscCall(PetscPrintf(comm, "Mixed arguments (every operation, every length):\n"));
  for (Mix m = MIX_FIRST_PLAIN; m <= MIX_OTHER_BACKEND; m++) {
    worst = 0.0;
    for (PetscInt o = 0; o < nops; o++) {
      for (PetscInt l = 0; l < nlen; l++) {
        Vec v[NV];

        MixVecs(&data[l], m, v);
        PetscCall(RunOp(&ops[o], &data[l], v, STATE_DEVICE, &err));
        if (err > worst) PetscCall(PetscSNPrintf(where, sizeof(where), "%s, local length %" PetscInt_FMT " on rank 0", ops[o].name, len[l]));
        worst = PetscMax(worst, err);
      }
    }
    PetscCall(Report(comm, MixNames[m], worst, where));
  }
  PetscFunctionReturn(0);
}

/* ------------------------------------------------------------------ synchronisation */

/* copies between the host and the backend so far on this process */
static PetscErrorCode Copies(PetscInt *to, PetscInt *from)
{
  PetscLogEvent      e;
  PetscEventPerfInfo info;

  PetscFunctionBeginUser;
  PetscCall(PetscLogEventGetId("VecGPUCopyTo", &e));
  PetscCall(PetscLogEventGetPerfInfo(0, e, &info));
  *to = info.count;
  PetscCall(PetscLogEventGetId("VecGPUCopyFrom", &e));
  PetscCall(PetscLogEventGetPerfInfo(0, e, &info));
  *from = info.count;
  PetscFunctionReturn(0);
}

typedef struct {
  MPI_Comm comm;
  PetscInt to, from; /* copy counts at the last Check() */
} Sync;

/* checks on every process that ok holds and that dto and dfrom copies happened since the last check */
static PetscErrorCode Check(Sync *s, const char what[], PetscBool ok, PetscInt dto, PetscInt dfrom)
{
  PetscInt    to, from;
  PetscMPIInt good;

  PetscFunctionBeginUser;
  PetscCall(Copies(&to, &from));
  good = ok && (!PetscDefined(USE_LOG) || (to - s->to == dto && from - s->from == dfrom));
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &good, 1, MPI_INT, MPI_LAND, s->comm));
  PetscCall(PetscPrintf(s->comm, "%s: %s\n", what, good ? "ok" : "FAILED"));
  s->to   = to;
  s->from = from;
  PetscFunctionReturn(0);
}

/* whether all local entries of v equal value */
static PetscErrorCode AllEqual(Vec v, PetscScalar value, PetscBool *eq)
{
  const PetscScalar *a;
  PetscInt           n;

  PetscFunctionBeginUser;
  PetscCall(VecGetLocalSize(v, &n));
  PetscCall(VecGetArrayRead(v, &a));
  *eq = PETSC_TRUE;
  for (PetscInt i = 0; i < n; i++) *eq = (PetscBool)(*eq && a[i] == value);
  PetscCall(VecRestoreArrayRead(v, &a));
  PetscFunctionReturn(0);
}

static PetscErrorCode TestSync(MPI_Comm comm, PetscInt n)
{
  Sync               s = {comm, 0, 0};
  Vec                v, plain;
  PetscScalar       *a, *user, sum;
  const PetscScalar *r;
  PetscInt           N, nown, lo, hi;
  PetscObjectState   st0, st1;
  PetscBool          eq, eq2;
  PetscErrorCode     ierr;
  PetscELLGBackend   be;

  PetscFunctionBeginUser;
  PetscCall(PetscPrintf(comm, "Synchronisation:\n"));
  PetscCall(VecCreate(comm, &v));
  PetscCall(VecSetSizes(v, n, PETSC_DECIDE));
  PetscCall(VecSetType(v, VECGPU));
  PetscCall(VecGetSize(v, &N));
  PetscCall(VecGetOwnershipRange(v, &lo, &hi));
  nown = hi > lo ? 1 : 0;
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &nown, 1, MPIU_INT, MPI_SUM, comm));
  PetscCall(Copies(&s.to, &s.from));

  PetscCall(VecSet(v, 2.0));
  PetscCall(Check(&s, "VecSet copies nothing", PETSC_TRUE, 0, 0));
  PetscCall(AllEqual(v, 2.0, &eq));
  PetscCall(Check(&s, "VecGetArrayRead after VecSet fills the host copy without a copy", eq, 0, 0));
  PetscCall(VecScale(v, 1.5));
  PetscCall(AllEqual(v, 3.0, &eq));
  PetscCall(AllEqual(v, 3.0, &eq2));
  PetscCall(Check(&s, "VecGetArrayRead copies from the backend once", (PetscBool)(eq && eq2), 0, 1));
  PetscCall(VecSum(v, &sum));
  PetscCall(Check(&s, "VecGetArrayRead keeps the backend copy valid", (PetscBool)(sum == 3.0 * N), 0, 0));

  PetscCall(VecGetArray(v, &a));
  if (hi > lo) a[0] += 1.0;
  PetscCall(VecRestoreArray(v, &a));
  PetscCall(Check(&s, "VecGetArray copies nothing more", PETSC_TRUE, 0, 0));
  PetscCall(VecSum(v, &sum));
  PetscCall(Check(&s, "VecRestoreArray makes the host copy the valid one", (PetscBool)(sum == 3.0 * N + nown), 1, 0));

  PetscCall(VecSet(v, 3.0));
  PetscCall(VecScale(v, 2.0));
  PetscCall(VecGetArrayWrite(v, &a));
  for (PetscInt i = 0; i < hi - lo; i++) a[i] = 4.0;
  PetscCall(VecRestoreArrayWrite(v, &a));
  PetscCall(Check(&s, "VecGetArrayWrite copies nothing", PETSC_TRUE, 0, 0));
  PetscCall(VecSum(v, &sum));
  PetscCall(Check(&s, "VecRestoreArrayWrite makes the host copy the valid one", (PetscBool)(sum == 4.0 * N), 1, 0));

  /* as PCHYPRE does: set to 0, then write through the host array starting from those values */
  PetscCall(VecSet(v, 6.0));
  PetscCall(VecGetArrayWrite(v, &a));
  eq = PETSC_TRUE;
  for (PetscInt i = 0; i < hi - lo; i++) eq = (PetscBool)(eq && a[i] == 6.0);
  PetscCall(VecRestoreArrayWrite(v, &a));
  PetscCall(Check(&s, "VecGetArrayWrite after VecSet has the value, without a copy", eq, 0, 0));

  PetscCall(SetState(v, STATE_HOST));
  PetscCall(Copies(&s.to, &s.from));
  PetscCall(VecGPUGetArrayRead(v, (const PetscScalar **)&a));
  PetscCall(VecGPURestoreArrayRead(v, (const PetscScalar **)&a));
  PetscCall(AllEqual(v, 6.0, &eq));
  PetscCall(Check(&s, "VecGPUGetArrayRead copies to the backend, keeps the host copy valid", eq, 1, 0));

  PetscCall(PetscObjectStateGet((PetscObject)v, &st0));
  PetscCall(VecGPUGetArrayWrite(v, &a));
  PetscCall(VecGPURestoreArrayWrite(v, &a));
  PetscCall(PetscObjectStateGet((PetscObject)v, &st1));
  PetscCall(Check(&s, "VecGPUGetArrayWrite copies nothing, increases the state", (PetscBool)(st1 > st0), 0, 0));
  PetscCall(VecGetArrayRead(v, &r));
  PetscCall(VecRestoreArrayRead(v, &r));
  PetscCall(Check(&s, "VecGPURestoreArrayWrite makes the backend copy the valid one", PETSC_TRUE, 0, 1));

  PetscCall(VecSet(v, 5.0));
  PetscCall(SetState(v, STATE_HOST));
  PetscCall(Copies(&s.to, &s.from));
  PetscCall(PetscObjectStateGet((PetscObject)v, &st0));
  PetscCall(VecGPUGetArray(v, &a));
  PetscCall(VecGPURestoreArray(v, &a));
  PetscCall(PetscObjectStateGet((PetscObject)v, &st1));
  PetscCall(AllEqual(v, 5.0, &eq));
  PetscCall(Check(&s, "VecGPUGetArray copies to the backend, VecGPURestoreArray makes it the valid one", (PetscBool)(eq && st1 > st0), 1, 1));

  /* the placed array gets the values computed while it is in place; the original values come back */
  PetscCall(VecSet(v, 3.0));
  PetscCall(PetscMalloc1(hi - lo, &user));
  for (PetscInt i = 0; i < hi - lo; i++) user[i] = 5.0;
  PetscCall(VecPlaceArray(v, user));
  PetscCall(VecSum(v, &sum));
  eq = (PetscBool)(sum == 5.0 * N);
  PetscCall(VecScale(v, 2.0));
  PetscCall(VecResetArray(v));
  for (PetscInt i = 0; i < hi - lo; i++) eq = (PetscBool)(eq && user[i] == 10.0);
  PetscCall(VecSum(v, &sum));
  PetscCall(Check(&s, "VecPlaceArray, VecResetArray", (PetscBool)(eq && sum == 3.0 * N), 2, 1));
  for (PetscInt i = 0; i < hi - lo; i++) user[i] = 7.0;
  PetscCall(VecScale(v, 2.0));
  PetscCall(VecReplaceArray(v, user));
  PetscCall(VecSum(v, &sum));
  PetscCall(Check(&s, "VecReplaceArray", (PetscBool)(sum == 7.0 * N), 1, 0));

  /* VecSetType() again, from VecSetFromOptions() with -vec_type gpu for instance */
  PetscCall(VecSetType(v, VECGPU));
  PetscCall(VecSet(v, 1.0));
  PetscCall(VecSum(v, &sum));
  PetscCall(VecGPUGetBackend(v, &be));
  PetscCall(Check(&s, "VecSetType(VECGPU) on a device vector", (PetscBool)(sum == 1.0 * N), 0, 0));

  /* the device interface rejects other vectors */
  PetscCall(VecCreate(comm, &plain));
  PetscCall(VecSetSizes(plain, n, PETSC_DECIDE));
  PetscCall(VecSetType(plain, VECSTANDARD));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = VecGPUGetArrayRead(plain, (const PetscScalar **)&a);
  eq   = (PetscBool)(ierr == PETSC_ERR_ARG_WRONG);
  ierr = VecGPUGetBackend(plain, &be);
  eq   = (PetscBool)(eq && ierr == PETSC_ERR_ARG_WRONG);
  PetscCall(PetscPopErrorHandler());
  PetscCall(Check(&s, "VecGPUGetArrayRead, VecGPUGetBackend on a standard vector fail", eq, 0, 0));
  PetscCall(VecDestroy(&plain));
  PetscCall(VecDestroy(&v));
  PetscFunctionReturn(0);
}

/* ------------------------------------------------------------------ host arrays held during operations */

/* copies the local values a into the standard vector seen */
static PetscErrorCode Seen(Vec seen, const PetscScalar a[])
{
  PetscScalar *c;
  PetscInt     n;

  PetscFunctionBeginUser;
  PetscCall(VecGetLocalSize(seen, &n));
  PetscCall(VecGetArray(seen, &c));
  PetscCall(PetscArraycpy(c, a, n));
  PetscCall(VecRestoreArray(seen, &c));
  PetscFunctionReturn(0);
}

/* operations on x, and with x as an argument, while the array of VecGetArray(x) is out: they see
   what is written through it, it sees what they compute (copied into seen) */
static PetscErrorCode HeldArray(Vec x, Vec y, Vec seen, PetscScalar s[])
{
  PetscScalar *a;
  PetscReal    nrm;
  PetscInt     n;

  PetscFunctionBeginUser;
  PetscCall(VecGetLocalSize(x, &n));
  PetscCall(VecGetArray(x, &a));
  for (PetscInt i = 0; i < n; i++) a[i] += 1.0;
  PetscCall(VecAXPY(x, 0.5, y));
  PetscCall(VecScale(x, -2.0));
  PetscCall(VecShift(x, 0.25));
  PetscCall(VecDot(x, y, &s[0]));
  PetscCall(VecNorm(x, NORM_2, &nrm));
  s[1] = nrm;
  PetscCall(Seen(seen, a));
  for (PetscInt i = 0; i < n; i++) a[i] *= 0.5;
  PetscCall(VecDot(y, x, &s[2]));
  PetscCall(VecAXPY(y, 1.5, x));
  PetscCall(VecRestoreArray(x, &a));
  PetscCall(VecScale(x, 3.0));
  PetscFunctionReturn(0);
}

/* the same with the array of VecGetArrayRead(x): it sees what the operations compute */
static PetscErrorCode HeldArrayRead(Vec x, Vec y, Vec seen, PetscScalar s[])
{
  const PetscScalar *a;
  PetscReal          nrm;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(x, &a));
  PetscCall(VecAXPY(x, 0.5, y));
  PetscCall(VecScale(x, -2.0));
  PetscCall(VecDot(x, y, &s[0]));
  PetscCall(VecNorm(x, NORM_1, &nrm));
  s[1] = nrm;
  PetscCall(VecAXPY(y, 1.5, x));
  PetscCall(Seen(seen, a));
  PetscCall(VecRestoreArrayRead(x, &a));
  PetscCall(VecScale(x, 3.0));
  PetscFunctionReturn(0);
}

typedef PetscErrorCode (*HeldFn)(Vec, Vec, Vec, PetscScalar[]);

static PetscErrorCode TestHeld(MPI_Comm comm, PetscInt nlen, const PetscInt len[], Data data[])
{
  const char *const names[2] = {"VecGetArray array out during VecAXPY, VecScale, VecShift, VecDot, VecNorm", "VecGetArrayRead array out during VecAXPY, VecScale, VecDot, VecNorm"};
  const HeldFn      fns[2]   = {HeldArray, HeldArrayRead};
  char              where[128] = "";
  PetscScalar       sr[3], sv[3];
  PetscReal         err, worst;
  PetscInt          N;

  PetscFunctionBeginUser;
  PetscCall(PetscPrintf(comm, "Host arrays out during operations, against the standard vectors (every length; values valid on the host, the backend, both):\n"));
  for (PetscInt c = 0; c < 2; c++) {
    worst = 0.0;
    for (PetscInt l = 0; l < nlen; l++) {
      Data *d = &data[l];

      for (State s = STATE_HOST; s <= STATE_BOTH; s++) {
        for (PetscInt k = 0; k < 2; k++) {
          PetscCall(VecCopy(d->orig[k], d->ref[k]));
          PetscCall(VecCopy(d->orig[k], d->dev[k]));
          PetscCall(SetState(d->dev[k], s));
        }
        PetscCall(PetscArrayzero(sr, 3));
        PetscCall(PetscArrayzero(sv, 3));
        PetscCall(fns[c](d->ref[0], d->ref[1], d->ref[2], sr));
        PetscCall(fns[c](d->dev[0], d->dev[1], d->plain[2], sv));
        err = 0.0;
        for (PetscInt k = 0; k < 2; k++) PetscCall(VecDiff(d->ref[k], d->dev[k], &err));
        PetscCall(VecDiff(d->ref[2], d->plain[2], &err));
        PetscCall(VecGetSize(d->dev[0], &N));
        PetscCall(ScalarDiff(3, sr, sv, N, &err));
        PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &err, 1, MPIU_REAL, MPIU_MAX, comm));
        if (err > worst) PetscCall(PetscSNPrintf(where, sizeof(where), "local length %" PetscInt_FMT " on rank 0, %s valid", len[l], StateNames[s]));
        worst = PetscMax(worst, err);
      }
    }
    PetscCall(Report(comm, names[c], worst, where));
  }
  PetscFunctionReturn(0);
}

/* whether the local entries of a are all value */
static PetscBool ArrayEqual(PetscInt n, const PetscScalar a[], PetscScalar value)
{
  PetscBool eq = PETSC_TRUE;

  for (PetscInt i = 0; i < n; i++) eq = (PetscBool)(eq && a[i] == value);
  return eq;
}

/* where the values are while host arrays are out, and the device access meanwhile (the values of
   the backend copy are checked with the host backend only, whose memory the test can read) */
static PetscErrorCode TestHeldSync(MPI_Comm comm, PetscInt n)
{
  Sync               s = {comm, 0, 0};
  Vec                v;
  PetscScalar       *a, *b, sum;
  const PetscScalar *r, *rb;
  PetscReal          nrm;
  PetscInt           N;
  PetscBool          eq, host;
  PetscErrorCode     ierr;
  PetscELLGBackend   be;

  PetscFunctionBeginUser;
  PetscCall(PetscPrintf(comm, "Host arrays out:\n"));
  PetscCall(VecCreate(comm, &v));
  PetscCall(VecSetSizes(v, n, PETSC_DECIDE));
  PetscCall(VecSetType(v, VECGPU));
  PetscCall(VecGetSize(v, &N));
  PetscCall(VecGPUGetBackend(v, &be));
  host = (PetscBool)(be == PETSCELLG_BACKEND_HOST);
  PetscCall(VecSet(v, 1.0));
  PetscCall(VecScale(v, 2.0));
  PetscCall(Copies(&s.to, &s.from));

  PetscCall(VecGetArray(v, &a));
  for (PetscInt i = 0; i < n; i++) a[i] += 1.0;
  PetscCall(VecScale(v, 2.0));
  PetscCall(VecShift(v, 1.0));
  PetscCall(VecSum(v, &sum));
  PetscCall(Check(&s, "VecGetArray array out: operations run on the host copy, seen through the array", (PetscBool)(ArrayEqual(n, a, 7.0) && sum == 7.0 * N), 0, 1));

  for (PetscInt i = 0; i < n; i++) a[i] = 4.0;
  PetscCall(VecGPUGetArrayRead(v, &rb));
  eq = (PetscBool)(!host || ArrayEqual(n, rb, 4.0));
  PetscCall(VecGPURestoreArrayRead(v, &rb));
  for (PetscInt i = 0; i < n; i++) a[i] = 5.0;
  PetscCall(VecGPUGetArrayRead(v, &rb));
  eq = (PetscBool)(eq && (!host || ArrayEqual(n, rb, 5.0)));
  PetscCall(VecGPURestoreArrayRead(v, &rb));
  PetscCall(Check(&s, "VecGetArray array out: VecGPUGetArrayRead copies what was written through it, every time", eq, 2, 0));

  PetscCall(VecGPUGetArray(v, &b));
  if (host)
    for (PetscInt i = 0; i < n; i++) b[i] = 8.0;
  PetscCall(VecGPURestoreArray(v, &b));
  PetscCall(Check(&s, "VecGetArray array out: VecGPURestoreArray copies back to it", ArrayEqual(n, a, host ? 8.0 : 5.0), 1, 1));

  PetscCall(VecRestoreArray(v, &a));
  PetscCall(VecScale(v, 2.0));
  PetscCall(VecGetArrayRead(v, &r));
  PetscCall(Check(&s, "After VecRestoreArray the operations run on the backend again", ArrayEqual(n, r, host ? 16.0 : 10.0), 1, 1));

  PetscCall(VecGPUGetArrayRead(v, &rb));
  PetscCall(VecGPURestoreArrayRead(v, &rb));
  PetscCall(VecScale(v, 0.5));
  PetscCall(VecNorm(v, NORM_1, &nrm));
  PetscCall(Check(&s, "VecGetArrayRead array out: VecGPUGetArrayRead copies nothing, operations run on the host copy", (PetscBool)(ArrayEqual(n, r, host ? 8.0 : 5.0) && nrm == (host ? 8.0 : 5.0) * N), 0, 0));

  PetscCall(VecRestoreArrayRead(v, &r));
  PetscCall(VecScale(v, 2.0));
  PetscCall(AllEqual(v, host ? 16.0 : 10.0, &eq));
  PetscCall(Check(&s, "After VecRestoreArrayRead the operations run on the backend again", eq, 1, 1));

  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = VecRestoreArrayRead(v, &r);
  PetscCall(PetscPopErrorHandler());
  PetscCall(Check(&s, "VecRestoreArrayRead without VecGetArrayRead fails", (PetscBool)(ierr == PETSC_ERR_ORDER), 0, 0));
  PetscCall(VecDestroy(&v));
  PetscFunctionReturn(0);
}

/* ------------------------------------------------------------------ duplicates, view, load */

static PetscErrorCode TestDuplicates(MPI_Comm comm, Data *d)
{
  Vec             *w;
  VecType          type;
  PetscBool        ok = PETSC_TRUE, same;
  PetscELLGBackend b0, b1;
  PetscScalar      sum;
  PetscInt         N;
  PetscReal        err = 0.0;
  PetscMPIInt      good;

  PetscFunctionBeginUser;
  PetscCall(PetscPrintf(comm, "Duplicates, view, load:\n"));
  PetscCall(VecCopy(d->orig[0], d->dev[0]));
  PetscCall(VecGetSize(d->dev[0], &N));
  PetscCall(VecGPUGetBackend(d->dev[0], &b0));
  PetscCall(VecDuplicateVecs(d->dev[0], 3, &w));
  for (PetscInt i = 0; i < 3; i++) {
    PetscCall(VecGetType(d->dev[0], &type));
    PetscCall(PetscObjectTypeCompare((PetscObject)w[i], type, &same));
    PetscCall(VecGPUGetBackend(w[i], &b1));
    ok = (PetscBool)(ok && same && b0 == b1);
    PetscCall(VecSet(w[i], i + 1.0));
  }
  for (PetscInt i = 0; i < 3; i++) {
    PetscCall(VecSum(w[i], &sum));
    ok = (PetscBool)(ok && sum == (i + 1.0) * N);
  }
  PetscCall(VecDiff(d->orig[0], d->dev[0], &err));
  good = ok && err == 0.0;
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &good, 1, MPI_INT, MPI_LAND, comm));
  PetscCall(PetscPrintf(comm, "VecDuplicateVecs (type, backend, separate values): %s\n", good ? "ok" : "FAILED"));
  PetscCall(VecDestroyVecs(3, &w));
  PetscFunctionReturn(0);
}

/* whether two files have the same bytes */
static PetscErrorCode SameFiles(const char a[], const char b[], PetscBool *same)
{
  FILE *fa, *fb;
  int   ca, cb;

  PetscFunctionBeginUser;
  PetscCall(PetscFOpen(PETSC_COMM_SELF, a, "rb", &fa));
  PetscCall(PetscFOpen(PETSC_COMM_SELF, b, "rb", &fb));
  do {
    ca = fgetc(fa);
    cb = fgetc(fb);
  } while (ca == cb && ca != EOF);
  *same = (PetscBool)(ca == cb);
  PetscCall(PetscFClose(PETSC_COMM_SELF, fa));
  PetscCall(PetscFClose(PETSC_COMM_SELF, fb));
  PetscFunctionReturn(0);
}

/* VecView of a vector valid on the backend writes what the standard vector writes; VecLoad reads it back */
static PetscErrorCode TestViewLoad(MPI_Comm comm, Data *d)
{
  const char *files[2] = {"ex3_ref.bin", "ex3_dev.bin"};
  Vec         src[2]   = {d->orig[1], d->dev[1]}, loaded;
  PetscViewer viewer;
  PetscBool   same = PETSC_TRUE;
  PetscReal   err  = 0.0;
  PetscMPIInt rank;

  PetscFunctionBeginUser;
  PetscCall(VecCopy(d->orig[1], d->dev[1]));
  PetscCall(SetState(d->dev[1], STATE_DEVICE));
  for (PetscInt i = 0; i < 2; i++) {
    PetscCall(PetscViewerBinaryOpen(comm, files[i], FILE_MODE_WRITE, &viewer));
    PetscCall(PetscViewerBinarySetSkipInfo(viewer, PETSC_TRUE));
    PetscCall(VecView(src[i], viewer));
    PetscCall(PetscViewerDestroy(&viewer));
  }
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  if (!rank) PetscCall(SameFiles(files[0], files[1], &same));
  PetscCallMPI(MPI_Bcast(&same, 1, ELLG_MPI_BOOL, 0, comm));
  PetscCall(PetscPrintf(comm, "VecView: %s\n", same ? "ok" : "FAILED"));

  PetscCall(CreateGPU(d->orig[1], NULL, &loaded));
  PetscCall(PetscViewerBinaryOpen(comm, files[1], FILE_MODE_READ, &viewer));
  PetscCall(PetscViewerBinarySetSkipInfo(viewer, PETSC_TRUE));
  PetscCall(VecLoad(loaded, viewer));
  PetscCall(PetscViewerDestroy(&viewer));
  PetscCall(VecDiff(d->orig[1], loaded, &err));
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &err, 1, MPIU_REAL, MPIU_MAX, comm));
  PetscCall(Report(comm, "VecLoad", err, "loaded values"));
  PetscCall(VecDestroy(&loaded));
  if (!rank)
    for (PetscInt i = 0; i < 2; i++) PetscCheck(!remove(files[i]), PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "Cannot remove %s", files[i]);
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  MPI_Comm    comm;
  PetscMPIInt rank;
  PetscInt    large = 100003, len[4] = {0, 1, 37, 0};
  Data        data[4];
  PetscRandom rnd;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscELLGInitializePackage());
  PetscCall(PetscLogDefaultBegin());
  comm = PETSC_COMM_WORLD;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-large", &large, NULL));
  len[3] = large;

  PetscCall(PetscRandomCreate(comm, &rnd));
  PetscCall(PetscRandomSetInterval(rnd, -1.0, 1.0));
  PetscCall(PetscRandomSetSeed(rnd, 17));
  PetscCall(PetscRandomSeed(rnd));
  /* rank r owns len - r entries (at least none) */
  for (PetscInt l = 0; l < 4; l++) PetscCall(DataCreate(comm, PetscMax(len[l] - rank, 0), rnd, &data[l]));

  PetscCall(TestOps(comm, 4, len, data));
  PetscCall(TestHeld(comm, 4, len, data));
  PetscCall(TestSync(comm, PetscMax(37 - rank, 0)));
  PetscCall(TestSync(comm, PetscMax(1 - rank, 0)));
  PetscCall(TestHeldSync(comm, PetscMax(37 - rank, 0)));
  PetscCall(TestHeldSync(comm, PetscMax(1 - rank, 0)));
  PetscCall(TestDuplicates(comm, &data[2]));
  PetscCall(TestViewLoad(comm, &data[2]));

  for (PetscInt l = 0; l < 4; l++) PetscCall(DataDestroy(&data[l]));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   test:
      suffix: 1

   test:
      suffix: host
      args: -ellg_backend host
      output_file: output/ex3_1.out

   test:
      suffix: mpi
      nsize: {{2 3 4}}
      output_file: output/ex3_1.out

   test:
      suffix: mpi_host
      nsize: 2
      args: -ellg_backend host
      output_file: output/ex3_1.out

TEST*/
