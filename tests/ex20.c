static char help[] = "PETSc's log counts of the operations of a type, against AIJ's: a 2D Laplacian of the type and one of AIJ\n\
(standard vectors) run the same operations, MatMult, MatMultAdd, MatMultTranspose, MatSolve with an ILU(0) factor,\n\
VecAXPY, VecDot and VecNorm, in a log stage of their own; the flops of each event (-log_view's counts) must be\n\
AIJ's. Where the library runs on the GPU in a PETSc with device support they must all be GPU flops (-log_view's\n\
\"GPU Mflop/s\" and \"%F\" columns) in GPU time (PETSc's GPU timer, on as -log_view_gpu_time turns it on), and\n\
the first product after the assembly must log the upload of the matrix (\"CpuToGpu\"), the products after it no\n\
copy; elsewhere no GPU flops, GPU time or copies are logged.\n\
Prints pass/fail lines only.\n\
  -type <ellg,pjds,slicedell,csrg,aijgpu>: the type (root name)\n\
  -n <g>: the grid is g x g (default 20)\n\n";

#include "ellgtest.h"

#define WIDTH 66 /* of the descriptions in the result lines */
#define REPS  3  /* of each operation in the stage */

static const char *const Events[] = {"MatMult", "MatMultAdd", "MatMultTranspose", "MatSolve", "VecAXPY", "VecDot", "VecNorm"};
#define NEVENTS ((int)(sizeof(Events) / sizeof(Events[0])))

typedef struct {
  PetscInt           nz;               /* the matrix's nonzeros */
  PetscEventPerfInfo first;            /* the first MatMult after the assembly */
  PetscEventPerfInfo events[NEVENTS]; /* the operations after it */
} Counts;

/* the GPU counts of an event: PETSc keeps them only with device support (none logged without) */
typedef struct {
  PetscLogDouble flops, time, c2g, c2gbytes, g2c, g2cbytes;
} GpuCounts;

static GpuCounts GpuOf(const PetscEventPerfInfo *info)
{
  GpuCounts g = {0, 0, 0, 0, 0, 0};

#if defined(PETSC_HAVE_DEVICE)
  g.flops    = info->GpuFlops;
  g.time     = info->GpuTime;
  g.c2g      = info->CpuToGpuCount;
  g.c2gbytes = info->CpuToGpuSize;
  g.g2c      = info->GpuToCpuCount;
  g.g2cbytes = info->GpuToCpuSize;
#else
  (void)info;
#endif
  return g;
}

/* the event's counts in the stage */
static PetscErrorCode EventInfo(PetscLogStage stage, const char *name, PetscEventPerfInfo *info)
{
  PetscLogEvent event;

  PetscFunctionBeginUser;
  PetscCall(PetscLogEventGetId(name, &event));
  PetscCall(PetscLogEventGetPerfInfo(stage, event, info));
  PetscFunctionReturn(0);
}

/* the operations on a Laplacian of type type, its vectors from MatCreateVecs() and its ILU(0) factor of package
   solver: the first product in one stage, the rest in another */
static PetscErrorCode Run(MPI_Comm comm, PetscInt g, MatType type, MatSolverType solver, const char *tag, Counts *c)
{
  Mat           A, F;
  Vec           x, y, z;
  IS            rperm, cperm;
  MatFactorInfo info;
  MatInfo       minfo;
  PetscScalar   dot;
  PetscReal     nrm;
  PetscLogStage first, rest;
  char          name[64];

  PetscFunctionBeginUser;
  PetscCall(MatCreate(comm, &A));
  PetscCall(FillLaplacian(A, 2, g, 4.0, 0.0, type, PETSC_FALSE));
  PetscCall(MatGetInfo(A, MAT_LOCAL, &minfo));
  c->nz = (PetscInt)minfo.nz_used;
  PetscCall(MatCreateVecs(A, &x, &y));
  PetscCall(VecDuplicate(x, &z));
  PetscCall(VecSet(x, 1.0));
  PetscCall(VecSet(z, 2.0));
  PetscCall(PetscSNPrintf(name, sizeof(name), "First %s", tag));
  PetscCall(PetscLogStageRegister(name, &first));
  PetscCall(PetscSNPrintf(name, sizeof(name), "Rest %s", tag));
  PetscCall(PetscLogStageRegister(name, &rest));
  PetscCall(PetscLogStagePush(first));
  PetscCall(MatMult(A, x, y));
  PetscCall(PetscLogStagePop());
  PetscCall(EventInfo(first, "MatMult", &c->first));

  PetscCall(MatGetFactor(A, solver, MAT_FACTOR_ILU, &F));
  PetscCall(MatGetOrdering(A, MATORDERINGNATURAL, &rperm, &cperm));
  PetscCall(MatFactorInfoInitialize(&info));
  info.fill = 1.0;
  PetscCall(MatILUFactorSymbolic(F, A, rperm, cperm, &info));
  PetscCall(MatLUFactorNumeric(F, A, &info));
  PetscCall(MatSolve(F, y, x)); /* the factor's first solve stores what its solves read */

  PetscCall(PetscLogStagePush(rest));
  for (int k = 0; k < REPS; k++) {
    PetscCall(MatMult(A, x, y));
    PetscCall(MatMultAdd(A, x, z, y));
    PetscCall(MatMultTranspose(A, y, x));
    PetscCall(MatSolve(F, y, x));
    PetscCall(VecAXPY(y, 0.5, x));
    PetscCall(VecDot(x, y, &dot));
    PetscCall(VecNorm(y, NORM_2, &nrm));
  }
  PetscCall(PetscLogStagePop());
  for (int e = 0; e < NEVENTS; e++) PetscCall(EventInfo(rest, Events[e], &c->events[e]));

  PetscCall(ISDestroy(&rperm));
  PetscCall(ISDestroy(&cperm));
  PetscCall(MatDestroy(&F));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(VecDestroy(&z));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  MPI_Comm         comm;
  char             type[TYPE_LEN], line[128];
  PetscInt         g = 20, nfail = 0;
  PetscBool        gpu = PETSC_FALSE, ok;
  PetscELLGBackend be;
  Counts           ours, aij;
  PetscInt         nz;
  GpuCounts        first;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscELLGInitializePackage());
  PetscCall(PetscLogDefaultBegin());
  PetscCall(PetscLogGpuTime()); /* the GPU timer of every event (-log_view_gpu_time) */
  comm = PETSC_COMM_SELF;
  PetscCall(TestType(type, NULL, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &g, NULL));
  PetscCall(PetscELLGGetBackend(&be));
#if defined(PETSC_HAVE_DEVICE)
  gpu = (PetscBool)(be != PETSCELLG_BACKEND_HOST); /* where PETSc logs GPU flops and copies at all */
#endif
  PetscCall(Run(comm, g, type, MATSOLVERELLG, "ours", &ours));
  PetscCall(Run(comm, g, MATAIJ, MATSOLVERPETSC, "AIJ", &aij));

  for (int e = 0; e < NEVENTS; e++) {
    const PetscEventPerfInfo *o = &ours.events[e], *r = &aij.events[e];
    const GpuCounts           og = GpuOf(o);

    ok = (PetscBool)(o->count == REPS && r->count == REPS && r->flops > 0 && o->flops == r->flops);
    PetscCall(PetscSNPrintf(line, sizeof(line), "%s: AIJ's flops", Events[e]));
    PetscCall(PrintResult(comm, WIDTH, line, ok, &nfail));
    if (!ok) PetscCall(PetscPrintf(comm, "    %g calls, %g flops; AIJ %g calls, %g flops\n", (double)o->count, o->flops, (double)r->count, r->flops));
    ok = (PetscBool)(og.flops == (gpu ? o->flops : 0.0));
    PetscCall(PetscSNPrintf(line, sizeof(line), "%s: GPU flops all on a GPU, else none", Events[e]));
    PetscCall(PrintResult(comm, WIDTH, line, ok, &nfail));
    if (!ok) PetscCall(PetscPrintf(comm, "    %g GPU flops of %g\n", og.flops, o->flops));
    ok = (PetscBool)(gpu ? og.time > 0 : og.time == 0);
    PetscCall(PetscSNPrintf(line, sizeof(line), "%s: GPU time on a GPU, else none", Events[e]));
    PetscCall(PrintResult(comm, WIDTH, line, ok, &nfail));
    if (!ok) PetscCall(PetscPrintf(comm, "    %g s of GPU time\n", og.time));
    ok = (PetscBool)(og.c2g == 0 && og.g2c == 0);
    PetscCall(PetscSNPrintf(line, sizeof(line), "%s: no copy between host and device", Events[e]));
    PetscCall(PrintResult(comm, WIDTH, line, ok, &nfail));
    if (!ok) PetscCall(PetscPrintf(comm, "    %g copies to the GPU (%g bytes), %g from it (%g bytes)\n", og.c2g, og.c2gbytes, og.g2c, og.g2cbytes));
  }

  /* the upload of the matrix in its first product: at least its values (8 bytes a nonzero) */
  nz = aij.nz;
  first = GpuOf(&ours.first);
  ok    = (PetscBool)(gpu ? first.c2gbytes >= (PetscLogDouble)sizeof(PetscScalar) * nz : first.c2g == 0);
  PetscCall(PrintResult(comm, WIDTH, "first MatMult: the upload of the matrix on a GPU, else no copy", ok, &nfail));
  if (!ok) PetscCall(PetscPrintf(comm, "    %g copies to the GPU, %g bytes; %" PetscInt_FMT " nonzeros\n", first.c2g, first.c2gbytes, nz));
  ok = (PetscBool)(ours.first.flops == aij.first.flops && first.flops == (gpu ? ours.first.flops : 0.0));
  PetscCall(PrintResult(comm, WIDTH, "first MatMult: AIJ's flops, GPU flops on a GPU", ok, &nfail));

  if (nfail) PetscCall(PetscPrintf(comm, "%" PetscInt_FMT " FAILED\n", nfail));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   test:
      suffix: 1
      args: -type {{ellg pjds slicedell csrg aijgpu}}
      output_file: output/ex20_1.out

TEST*/
