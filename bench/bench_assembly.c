#include <petscdmda.h>
#include <petscellg.h>
#include "bench_common.h"

static char help[] = "Times the re-assembly of a Jacobian at every Newton step, as SNES and TS programs do: the\n\
Jacobian of the 2D Bratu problem of SNES ex5 (5-point stencil on a DMDA) is assembled with new values\n\
on the same nonzero pattern -steps times per matrix type (MatSetValuesStencil, MatAssemblyBegin/End),\n\
after one untimed assembly (the first Newton step, which builds the format). Per step, medians:\n\
  (s) MatSetValuesStencil of every row and MatAssemblyBegin (the user's part, for scale)\n\
  (a) MatAssemblyEnd alone (wall clock)\n\
  (b) from the start of MatAssemblyEnd until the matrix is ready on the device: the format is brought up to\n\
      date at the first device use after an assembly, so (b) is MatAssemblyEnd, then MatELLGGetFormat (which\n\
      makes the format current, as a product would before it multiplies) and a device synchronize\n\
  (c) the reference: one copy of the CSR values (8 nnz bytes) from the matrix's host array\n\
      (MatSeqAIJGetArrayRead) into the backend's memory: cudaMemcpy from that pageable array, as the\n\
      library's upload (a host memcpy on the host backend); also from pinned memory, for information\n\
The product after the last step is checked against AIJ's (run first, as the reference).\n\
  -da_grid_x <1024>, -da_grid_y <1024>  the grid (default 2^20 unknowns)\n\
  -steps <20>              timed re-assemblies per type\n\
  -formats <ellg,pjds,slicedell,csrg> matrix types (list), each after aij\n\
  -update_buffers <none,values,all> run each type with each of these -mat_<type>_update_buffers (list;\n\
                           default: once, with the library's default or the option given)\n\
  -lambda <6>              Bratu parameter, 0 <= lambda <= 6.81\n\
  -coo                     COO assembly instead, as GPU codes assemble: MatSetPreallocationCOO() once with the\n\
                           entries of the pattern in the order of CSR, then per step MatSetValuesCOO() with the\n\
                           values in the backend's memory (device memory for cuda; copied there untimed):\n\
                           (s) MatSetValuesCOO (with the assembly it ends with), (a) 0, (b) until the matrix is\n\
                           ready on the device, (c) one device-to-device copy of the values\n\
  -check_only              no timing: the builds and value updates of each type and the product check\n\
                           (output that is the same on every machine and backend)\n\
  -json <file>             also write the results as JSON\n\
Format options (-mat_ellg_*, ...) apply: MatSetFromOptions() is called on each matrix.\n\n";

#define MAX_FORMATS 16
#define MAX_MODES   3
#define MAX_ROWS    (MAX_FORMATS * MAX_MODES + 1)

/* the results of one matrix type: medians over the steps, in ms */
typedef struct {
  char      type[48], backend[8];
  PetscReal set_ms, end_ms, ready_ms, copy_ms, pinned_ms; /* pinned_ms < 0: not measured */
  PetscReal ready_first_ms;                               /* (b) of the first timed step (the first values-only update) */
  PetscReal bytes;                                        /* device bytes the type reports, -1 when none */
  PetscReal kept_bytes;                                   /* bytes of the buffers kept for value updates it reports, 0 when none */
  PetscInt  builds, updates;                              /* MatGPUBuild and MatGPUUpdateVals events in the timed steps (-1: unknown) */
  PetscReal relerr;                                       /* of the product after the last step, against AIJ's */
} Row;

typedef struct {
  PetscInt         steps;
  PetscReal        lambda;
  PetscBool        check_only;
  PetscBool        coo; /* MatSetValuesCOO() with values in the backend's memory */
  PetscELLGBackend backend; /* of PETSc-ELLG objects */
  PetscBool        device;  /* the CUDA helper is built in, a GPU is usable and the library computes on it */
  char             device_name[256];
  PetscLogEvent    ev_build, ev_update;
  PetscLogStage    stage; /* the timed steps, apart in -log_view */
  PetscInt         m, nnz; /* of the Jacobian */
  Row              rows[MAX_ROWS];
  PetscInt         nrows;
} Bench;

static PetscErrorCode DeviceSynchronize(Bench *b)
{
  PetscFunctionBeginUser;
#if defined(BENCH_HAVE_CUDA)
  if (b->device) PetscCallBenchCuda(BenchCudaSynchronize());
#endif
  PetscFunctionReturn(0);
}

/* The Jacobian of SNES ex5's FormJacobianLocal at the state u = s * (ex5's initial guess), s growing
   with the step: boundary rows get their diagonal only, interior rows the 5-point stencil with
   -lambda h^2 exp(u) on the diagonal. The values of a step are the same for every matrix type. */
static PetscErrorCode FormJacobian(DM da, Mat J, PetscReal lambda, PetscReal s)
{
  PetscInt  mx, my, xs, ys, xm, ym;
  PetscReal hx, hy, hxdhy, hydhx, sc, temp1;

  PetscFunctionBeginUser;
  PetscCall(DMDAGetInfo(da, NULL, &mx, &my, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCall(DMDAGetCorners(da, &xs, &ys, NULL, &xm, &ym, NULL));
  hx    = 1.0 / (PetscReal)(mx - 1);
  hy    = 1.0 / (PetscReal)(my - 1);
  sc    = hx * hy * lambda;
  hxdhy = hx / hy;
  hydhx = hy / hx;
  temp1 = lambda / (lambda + 1.0);
  for (PetscInt j = ys; j < ys + ym; j++) {
    for (PetscInt i = xs; i < xs + xm; i++) {
      MatStencil  row = {.i = i, .j = j}, col[5];
      PetscScalar v[5];

      if (i == 0 || j == 0 || i == mx - 1 || j == my - 1) {
        v[0] = 2.0 * (hydhx + hxdhy);
        PetscCall(MatSetValuesStencil(J, 1, &row, 1, &row, v, INSERT_VALUES));
      } else {
        const PetscReal u = s * temp1 * PetscSqrtReal(PetscMin((PetscReal)PetscMin(i, mx - i - 1) * hx, (PetscReal)PetscMin(j, my - j - 1) * hy));

        v[0]     = -hxdhy;
        col[0].j = j - 1;
        col[0].i = i;
        v[1]     = -hydhx;
        col[1].j = j;
        col[1].i = i - 1;
        v[2]     = 2.0 * (hydhx + hxdhy) - sc * PetscExpReal(u);
        col[2].j = row.j;
        col[2].i = row.i;
        v[3]     = -hydhx;
        col[3].j = j;
        col[3].i = i + 1;
        v[4]     = -hxdhy;
        col[4].j = j + 1;
        col[4].i = i;
        PetscCall(MatSetValuesStencil(J, 1, &row, 5, col, v, INSERT_VALUES));
      }
    }
  }
  PetscFunctionReturn(0);
}

/* times the event ran in the stage of the timed steps */
static PetscErrorCode EventCount(Bench *b, PetscLogEvent ev, PetscInt *count)
{
  PetscFunctionBeginUser;
  *count = -1;
#if defined(PETSC_USE_LOG)
  if (ev >= 0) {
    PetscEventPerfInfo info;

    PetscCall(PetscLogEventGetPerfInfo(b->stage, ev, &info));
    *count = info.count;
  }
#endif
  PetscFunctionReturn(0);
}

/* the buffers of the reference copy (c): in the backend's memory, and a pinned host copy of the values */
typedef struct {
  void *dst, *pinned;
} RefCopy;

static PetscErrorCode RefCopyCreate(Bench *b, size_t bytes, RefCopy *rc)
{
  PetscFunctionBeginUser;
  rc->dst = rc->pinned = NULL;
#if defined(BENCH_HAVE_CUDA)
  if (b->device) {
    PetscCallBenchCuda(BenchCudaMalloc(&rc->dst, bytes));
    PetscCallBenchCuda(BenchCudaMallocHost(&rc->pinned, bytes));
    PetscFunctionReturn(0);
  }
#endif
  PetscCall(PetscMalloc(bytes, &rc->dst));
  PetscFunctionReturn(0);
}

static PetscErrorCode RefCopyDestroy(Bench *b, RefCopy *rc)
{
  PetscFunctionBeginUser;
#if defined(BENCH_HAVE_CUDA)
  if (b->device) {
    PetscCallBenchCuda(BenchCudaFree(rc->dst));
    PetscCallBenchCuda(BenchCudaFreeHost(rc->pinned));
    rc->dst = rc->pinned = NULL;
    PetscFunctionReturn(0);
  }
#endif
  PetscCall(PetscFree(rc->dst));
  PetscFunctionReturn(0);
}

/* (c): the values of A copied into the backend's memory, from A's own (pageable) array, then from
   pinned memory (device only; the copy into the pinned buffer is not timed) */
static PetscErrorCode RefCopyTime(Bench *b, Mat A, RefCopy *rc, PetscReal *copy_ms, PetscReal *pinned_ms)
{
  const PetscScalar *aa;
  const size_t       bytes = sizeof(PetscScalar) * (size_t)b->nnz;
  PetscLogDouble     t0, t1;

  PetscFunctionBeginUser;
  *pinned_ms = -1;
  PetscCall(MatSeqAIJGetArrayRead(A, &aa));
#if defined(BENCH_HAVE_CUDA)
  if (b->device) {
    PetscCall(DeviceSynchronize(b));
    PetscCall(PetscTime(&t0));
    PetscCallBenchCuda(BenchCudaMemcpyHtoD(rc->dst, aa, bytes));
    PetscCall(DeviceSynchronize(b));
    PetscCall(PetscTime(&t1));
    *copy_ms = 1e3 * (t1 - t0);
    PetscCall(PetscMemcpy(rc->pinned, aa, bytes));
    PetscCall(PetscTime(&t0));
    PetscCallBenchCuda(BenchCudaMemcpyHtoD(rc->dst, rc->pinned, bytes));
    PetscCall(DeviceSynchronize(b));
    PetscCall(PetscTime(&t1));
    *pinned_ms = 1e3 * (t1 - t0);
  } else
#endif
  {
    PetscCall(PetscTime(&t0));
    PetscCall(PetscMemcpy(rc->dst, aa, bytes));
    PetscCall(PetscTime(&t1));
    *copy_ms = 1e3 * (t1 - t0);
  }
  PetscCall(MatSeqAIJRestoreArrayRead(A, &aa));
  PetscFunctionReturn(0);
}

/* -coo: the entries of J's pattern in the order of CSR (MatSetPreallocationCOO()), and room for their values in the
   backend's memory (device memory for cuda), with that of the reference copy */
typedef struct {
  Mat          V;        /* AIJ of the DMDA: FormJacobian() gives each step's values in the order of CSR */
  PetscScalar *dv, *dst; /* the values in the backend's memory; the destination of the reference copy */
  PetscBool    host;     /* the reference, AIJ, takes the values on the host */
} Coo;

static PetscErrorCode CooCreate(Bench *b, DM da, Mat J, Coo *c)
{
  const PetscInt *ai, *aj;
  PetscInt       *ci, *cj, m;
  PetscBool       done;
  const size_t    bytes = sizeof(PetscScalar) * (size_t)b->nnz;

  PetscFunctionBeginUser;
  PetscCall(DMSetMatType(da, MATAIJ));
  PetscCall(DMCreateMatrix(da, &c->V));
  PetscCall(MatGetRowIJ(c->V, 0, PETSC_FALSE, PETSC_FALSE, &m, &ai, &aj, &done));
  PetscCheck(done && ai[m] == b->nnz, PETSC_COMM_SELF, PETSC_ERR_PLIB, "The DMDA's AIJ pattern differs");
  PetscCall(PetscMalloc2(b->nnz, &ci, b->nnz, &cj));
  for (PetscInt r = 0; r < m; r++)
    for (PetscInt k = ai[r]; k < ai[r + 1]; k++) ci[k] = r;
  PetscCall(PetscArraycpy(cj, aj, b->nnz));
  PetscCall(MatRestoreRowIJ(c->V, 0, PETSC_FALSE, PETSC_FALSE, &m, &ai, &aj, &done));
  PetscCall(MatSetPreallocationCOO(J, b->nnz, ci, cj));
  PetscCall(PetscFree2(ci, cj));
#if defined(BENCH_HAVE_CUDA)
  if (b->device) {
    PetscCallBenchCuda(BenchCudaMalloc((void **)&c->dv, bytes));
    PetscCallBenchCuda(BenchCudaMalloc((void **)&c->dst, bytes));
    PetscFunctionReturn(0);
  }
#endif
  PetscCall(PetscMalloc2(b->nnz, &c->dv, b->nnz, &c->dst));
  PetscFunctionReturn(0);
}

static PetscErrorCode CooDestroy(Bench *b, Coo *c)
{
  PetscFunctionBeginUser;
  PetscCall(MatDestroy(&c->V));
#if defined(BENCH_HAVE_CUDA)
  if (b->device) {
    PetscCallBenchCuda(BenchCudaFree(c->dv));
    PetscCallBenchCuda(BenchCudaFree(c->dst));
    PetscFunctionReturn(0);
  }
#endif
  PetscCall(PetscFree2(c->dv, c->dst));
  PetscFunctionReturn(0);
}

/* one step of -coo: the values into the backend's memory (untimed), then (s), (b) and (c) */
static PetscErrorCode CooStep(Bench *b, DM da, Mat J, Coo *c, PetscReal s, PetscReal *set_ms, PetscReal *ready_ms, PetscReal *copy_ms)
{
  const PetscScalar *va;
  const size_t       bytes = sizeof(PetscScalar) * (size_t)b->nnz;
  PetscLogDouble     t0, t1, t2;

  PetscFunctionBeginUser;
  PetscCall(FormJacobian(da, c->V, b->lambda, s));
  PetscCall(MatAssemblyBegin(c->V, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(c->V, MAT_FINAL_ASSEMBLY));
  PetscCall(MatSeqAIJGetArrayRead(c->V, &va));
#if defined(BENCH_HAVE_CUDA)
  if (b->device) PetscCallBenchCuda(BenchCudaMemcpyHtoD(c->dv, va, bytes));
  else
#endif
    PetscCall(PetscMemcpy(c->dv, va, bytes));
  PetscCall(DeviceSynchronize(b));
  PetscCall(PetscTime(&t0));
  PetscCall(MatSetValuesCOO(J, c->host ? va : c->dv, INSERT_VALUES));
  PetscCall(MatSeqAIJRestoreArrayRead(c->V, &va));
  PetscCall(DeviceSynchronize(b));
  PetscCall(PetscTime(&t1));
  PetscCall(MatELLGGetFormat(J, NULL, NULL, NULL));
  PetscCall(DeviceSynchronize(b));
  PetscCall(PetscTime(&t2));
  *set_ms   = 1e3 * (t1 - t0);
  *ready_ms = 1e3 * (t2 - t0);
  PetscCall(PetscTime(&t0));
#if defined(BENCH_HAVE_CUDA)
  if (b->device) PetscCallBenchCuda(BenchCudaMemcpyDtoD(c->dst, c->dv, bytes));
  else
#endif
    PetscCall(PetscMemcpy(c->dst, c->dv, bytes));
  PetscCall(DeviceSynchronize(b));
  PetscCall(PetscTime(&t1));
  *copy_ms = 1e3 * (t1 - t0);
  PetscFunctionReturn(0);
}

/* One matrix type: created by the DMDA, assembled once untimed, then -steps times timed; the product
   after the last step goes into yref for the reference (aij), else is compared with it */
static PetscErrorCode BenchType(Bench *b, DM da, const char *type, const char *mode, Vec x, Vec yref, PetscBool reference, Row *r)
{
  Mat        J;
  Vec        xt, y;
  RefCopy    rc;
  Coo        coo = {NULL, NULL, NULL, PETSC_FALSE};
  PetscReal *t[5];
  PetscInt   builds0 = 0, updates0 = 0, builds1, updates1;
  PetscBool  isaij;
  MatInfo    info;

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(r, sizeof(*r)));
  PetscCall(PetscSNPrintf(r->type, sizeof(r->type), "%s%s%s", type, mode ? "/" : "", mode ? mode : ""));
  PetscCall(DMSetMatType(da, type));
  PetscCall(DMCreateMatrix(da, &J));
  if (mode) { /* -mat_<format>_update_buffers <mode>: the format's name is the type's, less seqaij/mpiaij */
    char        opt[96];
    const char *name = type;

    if (!strncmp(type, "seqaij", 6) || !strncmp(type, "mpiaij", 6)) name = type + 6;
    PetscCall(PetscSNPrintf(opt, sizeof(opt), "-mat_%s_update_buffers", name));
    PetscCall(PetscOptionsSetValue(NULL, opt, mode));
    PetscCall(MatSetFromOptions(J));
    PetscCall(PetscOptionsClearValue(NULL, opt));
  } else PetscCall(MatSetFromOptions(J));
  PetscCall(MatSetOption(J, MAT_NEW_NONZERO_LOCATION_ERR, PETSC_TRUE)); /* a Newton code's pattern is fixed */
  PetscCall(PetscObjectTypeCompare((PetscObject)J, MATSEQAIJ, &isaij));
  PetscCall(PetscStrncpy(r->backend, isaij ? "host" : PetscELLGBackends[b->backend], sizeof(r->backend)));
  PetscCall(MatGetInfo(J, MAT_LOCAL, &info));
  PetscCall(MatGetLocalSize(J, &b->m, NULL));
  b->nnz = (PetscInt)info.nz_used;
  coo.host = isaij;
  if (b->coo) PetscCall(CooCreate(b, da, J, &coo));
  else if (!b->check_only) PetscCall(RefCopyCreate(b, sizeof(PetscScalar) * (size_t)b->nnz, &rc));
  for (PetscInt k = 0; k < 5; k++) PetscCall(PetscMalloc1(b->steps, &t[k]));
  for (PetscInt step = -1; step < b->steps; step++) { /* step -1: the first Newton step, untimed */
    PetscLogDouble t0, t1, t2, t3;
    PetscReal      copy_ms = 0, pinned_ms = 0;

    if (step == 0) {
      PetscCall(EventCount(b, b->ev_build, &builds0));
      PetscCall(EventCount(b, b->ev_update, &updates0));
      PetscCall(PetscLogStagePush(b->stage));
    }
    if (b->coo) {
      PetscReal set_ms = 0, ready_ms = 0;

      PetscCall(CooStep(b, da, J, &coo, (PetscReal)(step + 2) / (PetscReal)(b->steps + 1), &set_ms, &ready_ms, &copy_ms));
      if (step >= 0) {
        t[0][step] = set_ms;
        t[1][step] = 0;
        t[2][step] = ready_ms;
        t[3][step] = copy_ms;
        t[4][step] = -1;
      }
      continue;
    }
    PetscCall(PetscTime(&t0));
    PetscCall(FormJacobian(da, J, b->lambda, (PetscReal)(step + 2) / (PetscReal)(b->steps + 1)));
    PetscCall(MatAssemblyBegin(J, MAT_FINAL_ASSEMBLY));
    PetscCall(DeviceSynchronize(b));
    PetscCall(PetscTime(&t1));
    PetscCall(MatAssemblyEnd(J, MAT_FINAL_ASSEMBLY));
    PetscCall(PetscTime(&t2));
    PetscCall(MatELLGGetFormat(J, NULL, NULL, NULL));
    PetscCall(DeviceSynchronize(b));
    PetscCall(PetscTime(&t3));
    if (!b->check_only) PetscCall(RefCopyTime(b, J, &rc, &copy_ms, &pinned_ms));
    if (step >= 0) {
      t[0][step] = 1e3 * (t1 - t0);
      t[1][step] = 1e3 * (t2 - t1);
      t[2][step] = 1e3 * (t3 - t1);
      t[3][step] = copy_ms;
      t[4][step] = pinned_ms;
    }
  }
  PetscCall(PetscLogStagePop());
  PetscCall(EventCount(b, b->ev_build, &builds1));
  PetscCall(EventCount(b, b->ev_update, &updates1));
  r->ready_first_ms = t[2][0];
  r->builds  = builds1 < 0 ? -1 : builds1 - builds0;
  r->updates = updates1 < 0 ? -1 : updates1 - updates0;
  PetscCall(Median(b->steps, t[0], &r->set_ms));
  PetscCall(Median(b->steps, t[1], &r->end_ms));
  PetscCall(Median(b->steps, t[2], &r->ready_ms));
  PetscCall(Median(b->steps, t[3], &r->copy_ms));
  PetscCall(Median(b->steps, t[4], &r->pinned_ms));
  for (PetscInt k = 0; k < 5; k++) PetscCall(PetscFree(t[k]));
  if (b->coo) PetscCall(CooDestroy(b, &coo));
  else if (!b->check_only) PetscCall(RefCopyDestroy(b, &rc));
  r->bytes = -1;
  if (!isaij && !b->check_only) PetscCall(BenchDeviceBytes(J, &r->bytes, &r->kept_bytes));

  /* the product after the last step, with the vectors of the type */
  PetscCall(MatCreateVecs(J, &xt, &y));
  PetscCall(VecCopy(x, xt));
  PetscCall(MatMult(J, xt, y));
  if (reference) PetscCall(VecCopy(y, yref));
  else PetscCall(RelativeError(y, yref, &r->relerr));
  PetscCall(VecDestroy(&xt));
  PetscCall(VecDestroy(&y));
  PetscCall(MatDestroy(&J));
  PetscFunctionReturn(0);
}

static PetscErrorCode PrintTable(Bench *b)
{
  const Row      *ref     = &b->rows[0];
  const PetscReal csrMB   = (12.0 * b->nnz + 4.0 * (b->m + 1)) / 1048576.0;
  const PetscReal valMB   = 8.0 * b->nnz / 1048576.0;

  PetscFunctionBeginUser;
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "values: %.2f MB (8 nnz), CSR: %.2f MB (12 nnz + 4 (rows + 1)); ms per step, medians of %" PetscInt_FMT " steps\n", (double)valMB, (double)csrMB, b->steps));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "(s) set values, MatAssemblyBegin  (a) MatAssemblyEnd  (b) MatAssemblyEnd until ready on the device  (c) copy of the values, pageable\n"));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "added: (b) - aij's (a), what the type adds to AIJ's assembly; pinned: (c) from pinned memory; (b) 1st: (b) of the first\n"));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "timed step; upd/bld: value updates/builds in the timed steps; x CSR: device bytes of the format / CSR bytes, + those kept for updates\n"));
  if (b->coo) PetscCall(PetscPrintf(PETSC_COMM_SELF, "-coo: (s) is MatSetValuesCOO() with the values in the backend's memory (aij's on the host), (a) 0, (c) one copy of the values within the backend's memory\n"));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%-16s %-7s %9s %9s %9s %9s %7s %9s %9s %9s %9s %8s %7s %7s %9s\n", "type", "backend", "(s) set", "(a) end", "(b) ready", "(c) copy", "(b)/(c)", "added", "added/(c)", "pinned", "(b) 1st", "upd/bld", "x CSR", "+kept", "rel.err"));
  for (PetscInt i = 0; i < b->nrows; i++) {
    const Row *r = &b->rows[i];
    PetscReal  added = r->ready_ms - ref->end_ms;
    char       pinned[16] = "-", counts[16] = "-", xcsr[16] = "-", kept[16] = "-", err[16] = "reference";

    if (r->pinned_ms >= 0) PetscCall(PetscSNPrintf(pinned, sizeof(pinned), "%.3f", (double)r->pinned_ms));
    if (r->updates >= 0) PetscCall(PetscSNPrintf(counts, sizeof(counts), "%" PetscInt_FMT "/%" PetscInt_FMT, r->updates, r->builds));
    if (r->bytes >= 0) PetscCall(PetscSNPrintf(xcsr, sizeof(xcsr), "%.3f", (double)(r->bytes / 1048576.0 / csrMB)));
    if (r->bytes >= 0) PetscCall(PetscSNPrintf(kept, sizeof(kept), "%.3f", (double)(r->kept_bytes / 1048576.0 / csrMB)));
    if (i) PetscCall(PetscSNPrintf(err, sizeof(err), "%.1e", (double)r->relerr));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "%-16s %-7s %9.3f %9.3f %9.3f %9.3f %7.2f %9.3f %9.2f %9s %9.3f %8s %7s %7s %9s\n", r->type, r->backend, (double)r->set_ms, (double)r->end_ms, (double)r->ready_ms, (double)r->copy_ms, (double)(r->ready_ms / r->copy_ms), (double)added, (double)(added / r->copy_ms), pinned,
                          (double)r->ready_first_ms, counts, xcsr, kept, err));
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode PrintChecks(Bench *b)
{
  PetscFunctionBeginUser;
  for (PetscInt i = 0; i < b->nrows; i++) {
    const Row *r = &b->rows[i];
    char       counts[96] = "";

    if (r->updates >= 0) PetscCall(PetscSNPrintf(counts, sizeof(counts), ": %" PetscInt_FMT " value updates, %" PetscInt_FMT " builds", r->updates, r->builds));
    if (!i) PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %-16s %" PetscInt_FMT " re-assemblies; the reference product\n", r->type, b->steps));
    else if (r->relerr < REL_TOL) PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %-16s %" PetscInt_FMT " re-assemblies%s; product agrees with aij (relative error < %g)\n", r->type, b->steps, counts, REL_TOL));
    else PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %-16s %" PetscInt_FMT " re-assemblies%s; product DIFFERS from aij: relative error %g\n", r->type, b->steps, counts, (double)r->relerr));
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode WriteJSON(Bench *b, const char *path, PetscInt mx, PetscInt my)
{
  FILE *fp;

  PetscFunctionBeginUser;
  PetscCall(PetscFOpen(PETSC_COMM_SELF, path, "w", &fp));
  PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "{\n  \"benchmark\": \"bench_assembly\", \"problem\": \"bratu2d\", \"grid\": [%" PetscInt_FMT ", %" PetscInt_FMT "], \"rows\": %" PetscInt_FMT ", \"nnz\": %" PetscInt_FMT ", \"steps\": %" PetscInt_FMT ",\n", mx, my, b->m, b->nnz, b->steps));
  PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "  \"device\": \"%s\", \"backend\": \"%s\",\n  \"results\": [\n", b->device ? b->device_name : "none", PetscELLGBackends[b->backend]));
  for (PetscInt i = 0; i < b->nrows; i++) {
    const Row *r = &b->rows[i];

    PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "    {\"type\": \"%s\", \"backend\": \"%s\", \"set_ms\": %.6g, \"end_ms\": %.6g, \"ready_ms\": %.6g, \"copy_ms\": %.6g, \"ready_vs_copy\": %.6g, ", r->type, r->backend, (double)r->set_ms, (double)r->end_ms, (double)r->ready_ms, (double)r->copy_ms, (double)(r->ready_ms / r->copy_ms)));
    PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "\"added_ms\": %.6g, \"ready_first_ms\": %.6g, ", (double)(r->ready_ms - b->rows[0].end_ms), (double)r->ready_first_ms));
    if (r->pinned_ms >= 0) PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "\"pinned_copy_ms\": %.6g, ", (double)r->pinned_ms));
    else PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "\"pinned_copy_ms\": null, "));
    if (r->bytes >= 0) PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "\"device_bytes\": %.6g, \"update_buffer_bytes\": %.6g, ", (double)r->bytes, (double)r->kept_bytes));
    else PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "\"device_bytes\": null, \"update_buffer_bytes\": null, "));
    PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "\"updates\": %" PetscInt_FMT ", \"builds\": %" PetscInt_FMT ", ", r->updates, r->builds));
    if (i) PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "\"rel_error\": %.6g}%s\n", (double)r->relerr, i + 1 < b->nrows ? "," : ""));
    else PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "\"rel_error\": null}%s\n", i + 1 < b->nrows ? "," : ""));
  }
  PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "  ]\n}\n"));
  PetscCall(PetscFClose(PETSC_COMM_SELF, fp));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  Bench        b = {.steps = 20, .lambda = 6.0, .ev_build = -1, .ev_update = -1, .stage = -1};
  char        *formats[MAX_FORMATS], *modes[MAX_MODES], json[PETSC_MAX_PATH_LEN] = "";
  PetscInt     nformats = MAX_FORMATS, nmodes = MAX_MODES, mx, my;
  PetscBool    setformats, setmodes, bad = PETSC_FALSE;
  PetscMPIInt  size;
  DM           da;
  Vec          x, yref;
  PetscScalar *xa;
  PetscInt     n;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscELLGInitializePackage());
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCheck(size == 1, PETSC_COMM_WORLD, PETSC_ERR_WRONG_MPI_SIZE, "bench_assembly times sequential matrices: run it on one process");
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Jacobian re-assembly benchmark", NULL);
  PetscCall(PetscOptionsInt("-steps", "timed re-assemblies per type", NULL, b.steps, &b.steps, NULL));
  PetscCall(PetscOptionsStringArray("-formats", "matrix types", NULL, formats, &nformats, &setformats));
  PetscCall(PetscOptionsStringArray("-update_buffers", "each type with each of these -mat_<type>_update_buffers: none, values, all", NULL, modes, &nmodes, &setmodes));
  PetscCall(PetscOptionsReal("-lambda", "Bratu parameter", NULL, b.lambda, &b.lambda, NULL));
  PetscCall(PetscOptionsBool("-coo", "COO assembly with values in the backend's memory", NULL, b.coo, &b.coo, NULL));
  PetscCall(PetscOptionsBool("-check_only", "no timing: builds, updates and the product check", NULL, b.check_only, &b.check_only, NULL));
  PetscCall(PetscOptionsString("-json", "write the results as JSON to this file", NULL, json, json, sizeof(json), NULL));
  PetscOptionsEnd();
  PetscCheck(b.steps >= 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-steps %" PetscInt_FMT ": at least 1", b.steps);
  PetscCheck(b.lambda >= 0 && b.lambda <= 6.81, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-lambda %g: must be in [0, 6.81]", (double)b.lambda);
  if (!setformats) PetscCall(BenchDefaultFormats(&nformats, formats));
  if (!setmodes) nmodes = 0;

  PetscCall(DMDACreate2d(PETSC_COMM_WORLD, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR, 1024, 1024, PETSC_DECIDE, PETSC_DECIDE, 1, 1, NULL, NULL, &da));
  PetscCall(DMSetFromOptions(da));
  PetscCall(DMSetUp(da));
  PetscCall(DMDAGetInfo(da, NULL, &mx, &my, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCheck(mx >= 2 && my >= 2, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-da_grid_x %" PetscInt_FMT " -da_grid_y %" PetscInt_FMT ": at least 2 points each", mx, my);

  /* the library's backend and, for the cuda backend, the device the bench times on */
  PetscCall(PetscELLGGetBackend(&b.backend));
#if defined(BENCH_HAVE_CUDA)
  if (b.backend == PETSCELLG_BACKEND_CUDA) {
    int ndev;

    PetscCallBenchCuda(BenchCudaGetDeviceCount(&ndev));
    PetscCheck(ndev > 0, PETSC_COMM_WORLD, PETSC_ERR_LIB, "The library's backend is cuda but the bench sees no CUDA device");
    b.device = PETSC_TRUE;
    PetscCallBenchCuda(BenchCudaDeviceName(b.device_name, sizeof(b.device_name)));
  }
#else
  PetscCheck(b.check_only || b.backend != PETSCELLG_BACKEND_CUDA, PETSC_COMM_WORLD, PETSC_ERR_SUP, "The library's backend is cuda but this bench was built without its CUDA helper, so it cannot wait for the device: build it with `make bench-assembly`, or use -check_only");
#endif
  /* event counts: which assemblies built the format and which only updated its values */
  PetscCall(PetscLogDefaultBegin());
  PetscCall(PetscLogStageRegister("Re-assemblies", &b.stage));
  PetscCall(PetscLogEventGetId("MatGPUBuild", &b.ev_build));
  PetscCall(PetscLogEventGetId("MatGPUUpdateVals", &b.ev_update));

  PetscCall(DMCreateGlobalVector(da, &x));
  PetscCall(VecDuplicate(x, &yref));
  PetscCall(VecGetLocalSize(x, &n));
  PetscCall(VecGetArrayWrite(x, &xa));
  for (PetscInt i = 0; i < n; i++) xa[i] = 0.5 + (PetscReal)(((PetscInt64)i * 7919) % 1013) / 1013;
  PetscCall(VecRestoreArrayWrite(x, &xa));

  if (!b.check_only) {
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "bench_assembly: 2D Bratu Jacobian (SNES ex5), %" PetscInt_FMT " x %" PetscInt_FMT " DMDA; PETSc-ELLG backend %s; GPU: %s\n", mx, my, PetscELLGBackends[b.backend], b.device ? b.device_name : "none used"));
    if (!b.device) PetscCall(PetscPrintf(PETSC_COMM_SELF, "host backend: (b) has no device to wait for and (c) is a host memcpy; the times only indicate the host work\n"));
  }
  PetscCall(BenchType(&b, da, MATAIJ, NULL, x, yref, PETSC_TRUE, &b.rows[b.nrows++]));
  if (b.check_only) PetscCall(PetscPrintf(PETSC_COMM_SELF, "bench_assembly: 2D Bratu Jacobian (SNES ex5) on a %" PetscInt_FMT " x %" PetscInt_FMT " DMDA: %" PetscInt_FMT " rows, %" PetscInt_FMT " nonzeros; %" PetscInt_FMT " re-assemblies per type after the first\n", mx, my, b.m, b.nnz, b.steps));
  else PetscCall(PetscPrintf(PETSC_COMM_SELF, "%" PetscInt_FMT " rows, %" PetscInt_FMT " nonzeros; %" PetscInt_FMT " timed re-assemblies per type after an untimed first one\n", b.m, b.nnz, b.steps));
  for (PetscInt f = 0; f < nformats; f++)
    for (PetscInt k = 0; k < PetscMax(nmodes, 1); k++) PetscCall(BenchType(&b, da, formats[f], nmodes ? modes[k] : NULL, x, yref, PETSC_FALSE, &b.rows[b.nrows++]));
  for (PetscInt i = 1; i < b.nrows; i++)
    if (!(b.rows[i].relerr < REL_TOL)) bad = PETSC_TRUE;
  if (b.check_only) PetscCall(PrintChecks(&b));
  else {
    PetscCall(PrintTable(&b));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s\n", bad ? "SOME PRODUCTS DIFFER FROM AIJ'S: see rel.err" : "All products after the last step agree with AIJ's (relative error < 1e-12)"));
  }
  if (json[0]) PetscCall(WriteJSON(&b, json, mx, my));

  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&yref));
  PetscCall(DMDestroy(&da));
  for (PetscInt f = 0; f < nformats; f++) PetscCall(PetscFree(formats[f]));
  for (PetscInt k = 0; k < nmodes; k++) PetscCall(PetscFree(modes[k]));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   test:
      args: -da_grid_x 12 -da_grid_y 10 -steps 3 -check_only

   # rows of 4 and 5 entries split out as long rows, whose values are updated apart; each setting
   # of the buffers that value updates keep
   # COO assembly: the values in the backend's memory
   test:
      suffix: coo
      args: -da_grid_x 12 -da_grid_y 10 -steps 3 -check_only -coo

   test:
      suffix: long_rows
      args: -da_grid_x 9 -da_grid_y 7 -steps 2 -check_only -update_buffers none,values,all -mat_ellg_long_row_threshold 3 -mat_pjds_long_row_threshold 4 -mat_slicedell_long_row_threshold 3

TEST*/
