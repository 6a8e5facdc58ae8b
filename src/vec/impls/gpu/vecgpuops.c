/* Device vectors: the operations that run on the backend copy, through the backend's kernels */
#include "vecgpuimpl.h"

/*
   Whether an operation of v with the vector arguments w[] runs on the backend: they must all be
   device vectors of v's backend, none with a host array checked out, or, when read only, vectors
   whose values the backend reads in place (PETSc's CUDA vectors for cuda: VecGPUInBackend(),
   VecGPURead()). Otherwise (a plain VECSEQ among them, say) the operation runs the host code of
   v's base type (VecGPUUseBase_Private()). Operations on v alone choose with VecGPUArray_Private().
*/
static PetscErrorCode VecGPUOnBackendArgs(Vec v, PetscInt nw, const Vec w[], PetscBool readonly, Vec_GPU **g, PetscBool *on)
{
  PetscFunctionBegin;
  PetscCall(VecGPUGetData_Private(v, g));
  *on = (PetscBool)!VecGPUCheckedOut(*g);
  for (PetscInt i = 0; i < nw && *on; i++) {
    Vec_GPU *gw;

    PetscCall(VecGPUGetData_Private(w[i], &gw));
    if (gw) *on = (PetscBool)(gw->backend == (*g)->backend && !VecGPUCheckedOut(gw));
    else if (readonly) PetscCall(VecGPUInBackend(w[i], (*g)->backend, on));
    else *on = PETSC_FALSE;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* VecGPUOnBackendArgs() for arguments w[] that the operation only reads */
static PetscErrorCode VecGPUOnBackend(Vec v, PetscInt nw, const Vec w[], Vec_GPU **g, PetscBool *on)
{
  PetscFunctionBegin;
  PetscCall(VecGPUOnBackendArgs(v, nw, w, PETSC_TRUE, g, on));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the backend array of an argument v for reading: ours, or in place that of another type's vector (PETSc's CUDA
   vector), to give back with VecGPUReadDone() once the operation's kernels are queued */
static PetscErrorCode VecGPURead(Vec v, const PetscScalar **a)
{
  Vec_GPU *g;

  PetscFunctionBegin;
  PetscCall(VecGPUGetData_Private(v, &g));
  if (g) PetscCall(VecGPUBackendArray_Private(v, ELLG_ACCESS_READ, (PetscScalar **)a));
  else PetscCall(VecGPUGetBackendArray(v, ELLG_ACCESS_READ, (PetscScalar **)a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode VecGPUReadDone(Vec v, const PetscScalar **a)
{
  Vec_GPU *g;

  PetscFunctionBegin;
  PetscCall(VecGPUGetData_Private(v, &g));
  if (!g) PetscCall(VecGPURestoreBackendArray(v, ELLG_ACCESS_READ, (PetscScalar **)a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the backend arrays of vectors v[] for reading, in an array that VecGPUReadVecsDone() gives back and frees */
static PetscErrorCode VecGPUReadVecs(PetscInt n, const Vec v[], const PetscScalar ***a)
{
  PetscFunctionBegin;
  PetscCall(PetscMalloc1(n, (PetscScalar ***)a));
  for (PetscInt i = 0; i < n; i++) PetscCall(VecGPURead(v[i], &(*a)[i]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode VecGPUReadVecsDone(PetscInt n, const Vec v[], const PetscScalar ***a)
{
  PetscFunctionBegin;
  for (PetscInt i = 0; i < n; i++) PetscCall(VecGPUReadDone(v[i], &(*a)[i]));
  PetscCall(PetscFree(*a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---------------------------------------------------------------- one vector */

/* the backend copy holds alpha when it is the copy set (not the host copy of a checked-out vector) */
static PetscErrorCode VecSet_GPU(Vec x, PetscScalar alpha)
{
  Vec_GPU             *g;
  const VecGPUKernels *k;
  PetscScalar         *xa;

  PetscFunctionBegin;
  PetscCall(VecGPUGetData_Private(x, &g));
  PetscCall(VecGPUArray_Private(x, ELLG_ACCESS_WRITE, &k, &xa));
  PetscCallVecGPUKernelOf(k, k->set(VecGPULocalSize(x), alpha, xa));
  g->constant = (PetscBool)(x->offloadmask == PETSC_OFFLOAD_GPU);
  g->value    = alpha;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* logs the flops of kernels k ran: GPU flops for the device's (PetscELLGLogFlops()) */
static PetscErrorCode VecGPULogFlops(const VecGPUKernels *k, PetscLogDouble n)
{
  PetscFunctionBegin;
  PetscCall(PetscELLGLogFlops(VecGPUKernelsBackend(k), n));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode VecScale_GPU(Vec x, PetscScalar alpha)
{
  const VecGPUKernels *k;
  PetscScalar         *xa;

  PetscFunctionBegin;
  PetscCall(VecGPUArray_Private(x, alpha == 0.0 ? ELLG_ACCESS_WRITE : ELLG_ACCESS_READ_WRITE, &k, &xa));
  PetscCallVecGPUKernelOf(k, k->scale(VecGPULocalSize(x), alpha, xa));
  PetscCall(VecGPULogFlops(k, x->map->n));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode VecShift_GPU(Vec x, PetscScalar alpha)
{
  const VecGPUKernels *k;
  PetscScalar         *xa;

  PetscFunctionBegin;
  PetscCall(VecGPUArray_Private(x, ELLG_ACCESS_READ_WRITE, &k, &xa));
  PetscCallVecGPUKernelOf(k, k->shift(VecGPULocalSize(x), alpha, xa));
  PetscCall(VecGPULogFlops(k, x->map->n));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode VecGPUUnary(Vec x, VecGPUUnaryOp op)
{
  const VecGPUKernels *k;
  PetscScalar         *xa;

  PetscFunctionBegin;
  PetscCall(VecGPUArray_Private(x, ELLG_ACCESS_READ_WRITE, &k, &xa));
  PetscCallVecGPUKernelOf(k, k->unary(op, VecGPULocalSize(x), xa));
  PetscCall(VecGPULogFlops(k, x->map->n));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* defines Vec<Name>_GPU(Vec x), x = op(x) elementwise */
#define VECGPU_UNARY_OP(Name, op) \
  static PetscErrorCode Vec##Name##_GPU(Vec x) \
  { \
    PetscFunctionBegin; \
    PetscCall(VecGPUUnary(x, op)); \
    PetscFunctionReturn(PETSC_SUCCESS); \
  }

VECGPU_UNARY_OP(Abs, VECGPU_UNARY_ABS)
VECGPU_UNARY_OP(Reciprocal, VECGPU_UNARY_RECIPROCAL)
VECGPU_UNARY_OP(SqrtAbs, VECGPU_UNARY_SQRTABS)
VECGPU_UNARY_OP(Exp, VECGPU_UNARY_EXP)
VECGPU_UNARY_OP(Log, VECGPU_UNARY_LOG)

/* real scalars: nothing to do */
static PetscErrorCode VecConjugate_GPU(Vec x)
{
  PetscFunctionBegin;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---------------------------------------------------------------- several vectors */

static PetscErrorCode VecCopy_GPU(Vec x, Vec y)
{
  Vec_GPU           *g;
  PetscBool          on;
  const PetscScalar *xa;
  PetscScalar       *ya;

  PetscFunctionBegin;
  PetscCall(VecGPUOnBackendArgs(x, 1, &y, PETSC_FALSE, &g, &on));
  if (on) {
    PetscCall(VecGPURead(x, &xa));
    PetscCall(VecGPUBackendArray_Private(y, ELLG_ACCESS_WRITE, &ya));
    PetscCallVecGPUKernelOf(g->kernels, g->kernels->copy(VecGPULocalSize(x), xa, ya));
  } else VecGPUUseBase_Private(x, g, ELLG_ACCESS_READ, copy, (x, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode VecSwap_GPU(Vec x, Vec y)
{
  Vec_GPU     *g;
  PetscBool    on;
  PetscScalar *xa, *ya;

  PetscFunctionBegin;
  PetscCall(VecGPUOnBackendArgs(x, 1, &y, PETSC_FALSE, &g, &on));
  if (on) {
    PetscCall(VecGPUBackendArray_Private(x, ELLG_ACCESS_READ_WRITE, &xa));
    PetscCall(VecGPUBackendArray_Private(y, ELLG_ACCESS_READ_WRITE, &ya));
    PetscCallVecGPUKernelOf(g->kernels, g->kernels->swap(VecGPULocalSize(x), xa, ya));
  } else VecGPUUseBase_Private(x, g, ELLG_ACCESS_READ_WRITE, swap, (x, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode VecAXPY_GPU(Vec y, PetscScalar alpha, Vec x)
{
  Vec_GPU           *g;
  PetscBool          on;
  const PetscScalar *xa;
  PetscScalar       *ya;

  PetscFunctionBegin;
  PetscCall(VecGPUOnBackend(y, 1, &x, &g, &on));
  if (on) {
    PetscCall(VecGPURead(x, &xa));
    PetscCall(VecGPUBackendArray_Private(y, ELLG_ACCESS_READ_WRITE, &ya));
    PetscCallVecGPUKernelOf(g->kernels, g->kernels->axpy(VecGPULocalSize(y), alpha, xa, ya));
    PetscCall(VecGPUReadDone(x, &xa));
    PetscCall(VecGPULogFlops(g->kernels, 2.0 * y->map->n));
  } else VecGPUUseBase_Private(y, g, ELLG_ACCESS_READ_WRITE, axpy, (y, alpha, x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y = alpha x + beta y, for VecAXPBY() and VecAYPX() */
static PetscErrorCode VecGPUAXPBY(Vec y, Vec_GPU *g, PetscScalar alpha, PetscScalar beta, Vec x)
{
  const PetscScalar *xa;
  PetscScalar       *ya;

  PetscFunctionBegin;
  PetscCall(VecGPURead(x, &xa));
  PetscCall(VecGPUBackendArray_Private(y, beta == 0.0 ? ELLG_ACCESS_WRITE : ELLG_ACCESS_READ_WRITE, &ya));
  PetscCallVecGPUKernelOf(g->kernels, g->kernels->axpby(VecGPULocalSize(y), alpha, beta, xa, ya));
  PetscCall(VecGPUReadDone(x, &xa));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode VecAYPX_GPU(Vec y, PetscScalar alpha, Vec x)
{
  Vec_GPU  *g;
  PetscBool on;

  PetscFunctionBegin;
  PetscCall(VecGPUOnBackend(y, 1, &x, &g, &on));
  if (on) {
    PetscCall(VecGPUAXPBY(y, g, 1.0, alpha, x));
    PetscCall(VecGPULogFlops(g->kernels, 2.0 * y->map->n));
  } else VecGPUUseBase_Private(y, g, ELLG_ACCESS_READ_WRITE, aypx, (y, alpha, x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode VecAXPBY_GPU(Vec y, PetscScalar alpha, PetscScalar beta, Vec x)
{
  Vec_GPU  *g;
  PetscBool on;

  PetscFunctionBegin;
  PetscCall(VecGPUOnBackend(y, 1, &x, &g, &on));
  if (on) {
    PetscCall(VecGPUAXPBY(y, g, alpha, beta, x));
    PetscCall(VecGPULogFlops(g->kernels, 3.0 * y->map->n));
  } else VecGPUUseBase_Private(y, g, ELLG_ACCESS_READ_WRITE, axpby, (y, alpha, beta, x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode VecAXPBYPCZ_GPU(Vec z, PetscScalar alpha, PetscScalar beta, PetscScalar gamma, Vec x, Vec y)
{
  Vec_GPU           *g;
  PetscBool          on;
  const Vec          in[2] = {x, y};
  const PetscScalar *xa, *ya;
  PetscScalar       *za;

  PetscFunctionBegin;
  PetscCall(VecGPUOnBackend(z, 2, in, &g, &on));
  if (on) {
    PetscCall(VecGPURead(x, &xa));
    PetscCall(VecGPURead(y, &ya));
    PetscCall(VecGPUBackendArray_Private(z, gamma == 0.0 ? ELLG_ACCESS_WRITE : ELLG_ACCESS_READ_WRITE, &za));
    PetscCallVecGPUKernelOf(g->kernels, g->kernels->axpbypcz(VecGPULocalSize(z), alpha, beta, gamma, xa, ya, za));
    PetscCall(VecGPUReadDone(x, &xa));
    PetscCall(VecGPUReadDone(y, &ya));
    PetscCall(VecGPULogFlops(g->kernels, 5.0 * z->map->n));
  } else VecGPUUseBase_Private(z, g, ELLG_ACCESS_READ_WRITE, axpbypcz, (z, alpha, beta, gamma, x, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode VecWAXPY_GPU(Vec w, PetscScalar alpha, Vec x, Vec y)
{
  Vec_GPU           *g;
  PetscBool          on;
  const Vec          in[2] = {x, y};
  const PetscScalar *xa, *ya;
  PetscScalar       *wa;

  PetscFunctionBegin;
  PetscCall(VecGPUOnBackend(w, 2, in, &g, &on));
  if (on) {
    PetscCall(VecGPURead(x, &xa));
    PetscCall(VecGPURead(y, &ya));
    PetscCall(VecGPUBackendArray_Private(w, ELLG_ACCESS_WRITE, &wa));
    PetscCallVecGPUKernelOf(g->kernels, g->kernels->waxpy(VecGPULocalSize(w), alpha, xa, ya, wa));
    PetscCall(VecGPUReadDone(x, &xa));
    PetscCall(VecGPUReadDone(y, &ya));
    PetscCall(VecGPULogFlops(g->kernels, 2.0 * w->map->n));
  } else VecGPUUseBase_Private(w, g, ELLG_ACCESS_READ_WRITE, waxpy, (w, alpha, x, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode VecMAXPY_GPU(Vec y, PetscInt nv, const PetscScalar *alpha, Vec *x)
{
  Vec_GPU            *g;
  PetscBool           on;
  const PetscScalar **xa;
  PetscScalar        *ya;

  PetscFunctionBegin;
  PetscCall(VecGPUOnBackend(y, nv, x, &g, &on));
  if (on) {
    PetscCall(VecGPUReadVecs(nv, x, &xa));
    PetscCall(VecGPUBackendArray_Private(y, ELLG_ACCESS_READ_WRITE, &ya));
    PetscCallVecGPUKernelOf(g->kernels, g->kernels->maxpy(VecGPULocalSize(y), (int)nv, alpha, xa, ya));
    PetscCall(VecGPUReadVecsDone(nv, x, &xa));
    PetscCall(VecGPULogFlops(g->kernels, 2.0 * nv * y->map->n));
  } else VecGPUUseBase_Private(y, g, ELLG_ACCESS_READ_WRITE, maxpy, (y, nv, alpha, x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* w = op(x, y) elementwise */
static PetscErrorCode VecGPUBinary(Vec w, Vec_GPU *g, VecGPUBinaryOp op, Vec x, Vec y)
{
  const PetscScalar *xa, *ya;
  PetscScalar       *wa;

  PetscFunctionBegin;
  PetscCall(VecGPURead(x, &xa));
  PetscCall(VecGPURead(y, &ya));
  PetscCall(VecGPUBackendArray_Private(w, ELLG_ACCESS_WRITE, &wa));
  PetscCallVecGPUKernelOf(g->kernels, g->kernels->binary(op, VecGPULocalSize(w), xa, ya, wa));
  PetscCall(VecGPUReadDone(x, &xa));
  PetscCall(VecGPUReadDone(y, &ya));
  PetscCall(VecGPULogFlops(g->kernels, w->map->n));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* defines VecPointwise<Name>_GPU(Vec w, Vec x, Vec y), w = op(x, y) elementwise; baseop is the base type's */
#define VECGPU_POINTWISE_OP(Name, op, baseop) \
  static PetscErrorCode VecPointwise##Name##_GPU(Vec w, Vec x, Vec y) \
  { \
    Vec_GPU  *g; \
    PetscBool on; \
    const Vec in[2] = {x, y}; \
\
    PetscFunctionBegin; \
    PetscCall(VecGPUOnBackend(w, 2, in, &g, &on)); \
    if (on) PetscCall(VecGPUBinary(w, g, op, x, y)); \
    else VecGPUUseBase_Private(w, g, ELLG_ACCESS_READ_WRITE, baseop, (w, x, y)); \
    PetscFunctionReturn(PETSC_SUCCESS); \
  }

VECGPU_POINTWISE_OP(Mult, VECGPU_BINARY_MULT, pointwisemult)
VECGPU_POINTWISE_OP(Divide, VECGPU_BINARY_DIVIDE, pointwisedivide)
VECGPU_POINTWISE_OP(Max, VECGPU_BINARY_MAX, pointwisemax)
VECGPU_POINTWISE_OP(Min, VECGPU_BINARY_MIN, pointwisemin)
VECGPU_POINTWISE_OP(MaxAbs, VECGPU_BINARY_MAXABS, pointwisemaxabs)

/* ---------------------------------------------------------------- reductions: local result, then over MPI */

static PetscErrorCode VecDotLocal_GPU(Vec x, Vec y, PetscScalar *z)
{
  Vec_GPU           *g;
  PetscBool          on;
  const PetscScalar *xa, *ya;

  PetscFunctionBegin;
  PetscCall(VecGPUOnBackend(x, 1, &y, &g, &on));
  if (on) {
    PetscCall(VecGPURead(x, &xa));
    PetscCall(VecGPURead(y, &ya));
    PetscCallVecGPUKernelOf(g->kernels, g->kernels->dot(VecGPULocalSize(x), xa, ya, z));
    PetscCall(VecGPUReadDone(y, &ya));
    PetscCall(VecGPULogFlops(g->kernels, PetscMax(2.0 * x->map->n - 1, 0.0)));
  } else VecGPUUseBase_Private(x, g, ELLG_ACCESS_READ, dot_local, (x, y, z));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode VecDot_GPU(Vec x, Vec y, PetscScalar *z)
{
  PetscFunctionBegin;
  PetscCall(VecDotLocal_GPU(x, y, z));
  PetscCall(VecGPUAllreduce_Private(x, z, 1, MPIU_SCALAR, MPIU_SUM));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode VecMDotLocal_GPU(Vec x, PetscInt nv, const Vec y[], PetscScalar *z)
{
  Vec_GPU           *g;
  PetscBool          on;
  const PetscScalar *xa, **ya;

  PetscFunctionBegin;
  PetscCall(VecGPUOnBackend(x, nv, y, &g, &on));
  if (on) {
    PetscCall(VecGPURead(x, &xa));
    PetscCall(VecGPUReadVecs(nv, y, &ya));
    PetscCallVecGPUKernelOf(g->kernels, g->kernels->mdot(VecGPULocalSize(x), (int)nv, xa, ya, z));
    PetscCall(VecGPUReadVecsDone(nv, y, &ya));
    PetscCall(VecGPULogFlops(g->kernels, PetscMax(nv * (2.0 * x->map->n - 1), 0.0)));
  } else VecGPUUseBase_Private(x, g, ELLG_ACCESS_READ, mdot_local, (x, nv, y, z));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode VecMDot_GPU(Vec x, PetscInt nv, const Vec y[], PetscScalar *z)
{
  PetscMPIInt count;

  PetscFunctionBegin;
  PetscCall(VecMDotLocal_GPU(x, nv, y, z));
  PetscCall(PetscMPIIntCast(nv, &count));
  PetscCall(VecGPUAllreduce_Private(x, z, count, MPIU_SCALAR, MPIU_SUM));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode VecNormLocal_GPU(Vec x, NormType type, PetscReal *z)
{
  const VecGPUKernels *k;
  PetscScalar         *xa;
  const int            n = VecGPULocalSize(x);

  PetscFunctionBegin;
  PetscCall(VecGPUArray_Private(x, ELLG_ACCESS_READ, &k, &xa));
  switch (type) {
  case NORM_1:
    PetscCallVecGPUKernelOf(k, k->norm1(n, xa, z));
    PetscCall(VecGPULogFlops(k, PetscMax(n - 1.0, 0.0)));
    break;
  case NORM_2:
  case NORM_FROBENIUS:
    PetscCallVecGPUKernelOf(k, k->norm2(n, xa, z));
    PetscCall(VecGPULogFlops(k, PetscMax(2.0 * n - 1, 0.0)));
    break;
  case NORM_INFINITY:
    PetscCallVecGPUKernelOf(k, k->norminf(n, xa, z));
    break;
  case NORM_1_AND_2:
    PetscCallVecGPUKernelOf(k, k->norm1(n, xa, z));
    PetscCallVecGPUKernelOf(k, k->norm2(n, xa, z + 1));
    PetscCall(VecGPULogFlops(k, PetscMax(3.0 * n - 2, 0.0)));
    break;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode VecNorm_GPU(Vec x, NormType type, PetscReal *z)
{
  PetscFunctionBegin;
  PetscCall(VecNormLocal_GPU(x, type, z));
  switch (type) {
  case NORM_1:
    PetscCall(VecGPUAllreduce_Private(x, z, 1, MPIU_REAL, MPIU_SUM));
    break;
  case NORM_2:
  case NORM_FROBENIUS:
    *z = PetscSqr(*z);
    PetscCall(VecGPUAllreduce_Private(x, z, 1, MPIU_REAL, MPIU_SUM));
    *z = PetscSqrtReal(*z);
    break;
  case NORM_INFINITY:
    PetscCall(VecGPUAllreduce_Private(x, z, 1, MPIU_REAL, MPIU_MAX));
    break;
  case NORM_1_AND_2:
    z[1] = PetscSqr(z[1]);
    PetscCall(VecGPUAllreduce_Private(x, z, 2, MPIU_REAL, MPIU_SUM));
    z[1] = PetscSqrtReal(z[1]);
    break;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode VecDotNorm2_GPU(Vec s, Vec t, PetscScalar *dp, PetscScalar *nm)
{
  Vec_GPU           *g;
  PetscBool          on;
  PetscScalar        r[2];
  const PetscScalar *sa, *ta;

  PetscFunctionBegin;
  PetscCall(VecGPUOnBackend(s, 1, &t, &g, &on));
  if (on) {
    PetscCall(VecGPURead(s, &sa));
    PetscCall(VecGPURead(t, &ta));
    PetscCallVecGPUKernelOf(g->kernels, g->kernels->dotnorm2(VecGPULocalSize(s), sa, ta, &r[0], &r[1]));
    PetscCall(VecGPUReadDone(t, &ta));
    PetscCall(VecGPULogFlops(g->kernels, PetscMax(4.0 * s->map->n - 2, 0.0)));
  } else { /* the base types have no dotnorm2: two local dots of the host code */
    VecGPUUseBase_Private(s, g, ELLG_ACCESS_READ, dot_local, (s, t, &r[0]));
    VecGPUUseBase_Private(s, g, ELLG_ACCESS_READ, dot_local, (t, t, &r[1]));
  }
  PetscCall(VecGPUAllreduce_Private(s, r, 2, MPIU_SCALAR, MPIU_SUM));
  *dp = r[0];
  *nm = r[1];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* local: VecSum() reduces over MPI itself */
static PetscErrorCode VecSum_GPU(Vec x, PetscScalar *sum)
{
  const VecGPUKernels *k;
  PetscScalar         *xa;

  PetscFunctionBegin;
  PetscCall(VecGPUArray_Private(x, ELLG_ACCESS_READ, &k, &xa));
  PetscCallVecGPUKernelOf(k, k->sum(VecGPULocalSize(x), xa, sum));
  PetscCall(VecGPULogFlops(k, PetscMax(x->map->n - 1.0, 0.0)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* largest (min: smallest) entry and the first global index where it is, as VecMax_Seq()/VecMax_MPI() */
static PetscErrorCode VecGPUMaxLoc(Vec x, PetscBool min, PetscInt *idx, PetscReal *z)
{
  Vec_GPU                   *g;
  const VecGPUKernels       *k;
  PetscScalar               *xa;
  struct petsc_mpiu_real_int loc;
  int                        i = -1;

  PetscFunctionBegin;
  PetscCall(VecGPUGetData_Private(x, &g));
  PetscCall(VecGPUArray_Private(x, ELLG_ACCESS_READ, &k, &xa));
  *z = min ? PETSC_MAX_REAL : PETSC_MIN_REAL;
  if (x->map->n) PetscCallVecGPUKernelOf(k, k->maxloc(VecGPULocalSize(x), (int)min, xa, z, &i));
  if (g->size == 1) {
    if (idx) *idx = i;
  } else if (!idx) {
    PetscCall(VecGPUAllreduce_Private(x, z, 1, MPIU_REAL, min ? MPIU_MIN : MPIU_MAX));
  } else {
    loc.v = *z;
    loc.i = i + x->map->rstart;
    PetscCall(VecGPUAllreduce_Private(x, &loc, 1, MPIU_REAL_INT, min ? MPIU_MINLOC : MPIU_MAXLOC));
    *z   = loc.v;
    *idx = loc.i;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode VecMax_GPU(Vec x, PetscInt *idx, PetscReal *z)
{
  PetscFunctionBegin;
  PetscCall(VecGPUMaxLoc(x, PETSC_FALSE, idx, z));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode VecMin_GPU(Vec x, PetscInt *idx, PetscReal *z)
{
  PetscFunctionBegin;
  PetscCall(VecGPUMaxLoc(x, PETSC_TRUE, idx, z));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode VecMaxPointwiseDivide_GPU(Vec x, Vec y, PetscReal *m)
{
  Vec_GPU           *g;
  PetscBool          on;
  const PetscScalar *xa, *ya;

  PetscFunctionBegin;
  PetscCall(VecGPUOnBackend(x, 1, &y, &g, &on));
  if (on) {
    PetscCall(VecGPURead(x, &xa));
    PetscCall(VecGPURead(y, &ya));
    PetscCallVecGPUKernelOf(g->kernels, g->kernels->maxpointwisedivide(VecGPULocalSize(x), xa, ya, m));
    PetscCall(VecGPUReadDone(y, &ya));
    PetscCall(VecGPULogFlops(g->kernels, x->map->n));
    PetscCall(VecGPUAllreduce_Private(x, m, 1, MPIU_REAL, MPIU_MAX));
  } else VecGPUUseBase_Private(x, g, ELLG_ACCESS_READ, maxpointwisedivide, (x, y, m)); /* reduces over MPI itself */
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode VecGPUSetDeviceOps_Private(Vec v)
{
  PetscFunctionBegin;
  v->ops->set                = VecSet_GPU;
  v->ops->scale              = VecScale_GPU;
  v->ops->shift              = VecShift_GPU;
  v->ops->abs                = VecAbs_GPU;
  v->ops->reciprocal         = VecReciprocal_GPU;
  v->ops->sqrt               = VecSqrtAbs_GPU;
  v->ops->exp                = VecExp_GPU;
  v->ops->log                = VecLog_GPU;
  v->ops->conjugate          = VecConjugate_GPU;
  v->ops->copy               = VecCopy_GPU;
  v->ops->swap               = VecSwap_GPU;
  v->ops->axpy               = VecAXPY_GPU;
  v->ops->aypx               = VecAYPX_GPU;
  v->ops->axpby              = VecAXPBY_GPU;
  v->ops->axpbypcz           = VecAXPBYPCZ_GPU;
  v->ops->waxpy              = VecWAXPY_GPU;
  v->ops->maxpy              = VecMAXPY_GPU;
  v->ops->pointwisemult      = VecPointwiseMult_GPU;
  v->ops->pointwisedivide    = VecPointwiseDivide_GPU;
  v->ops->pointwisemax       = VecPointwiseMax_GPU;
  v->ops->pointwisemin       = VecPointwiseMin_GPU;
  v->ops->pointwisemaxabs    = VecPointwiseMaxAbs_GPU;
  v->ops->dot                = VecDot_GPU;
  v->ops->tdot               = VecDot_GPU;
  v->ops->dot_local          = VecDotLocal_GPU;
  v->ops->tdot_local         = VecDotLocal_GPU;
  v->ops->mdot               = VecMDot_GPU;
  v->ops->mtdot              = VecMDot_GPU;
  v->ops->mdot_local         = VecMDotLocal_GPU;
  v->ops->mtdot_local        = VecMDotLocal_GPU;
  v->ops->norm               = VecNorm_GPU;
  v->ops->norm_local         = VecNormLocal_GPU;
  v->ops->dotnorm2           = VecDotNorm2_GPU;
  v->ops->sum                = VecSum_GPU;
  v->ops->max                = VecMax_GPU;
  v->ops->min                = VecMin_GPU;
  v->ops->maxpointwisedivide = VecMaxPointwiseDivide_GPU;
  PetscFunctionReturn(PETSC_SUCCESS);
}
