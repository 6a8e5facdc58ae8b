static char help[] = "Safe failure on the GPU: a matrix that does not fit in device memory gives a clear PETSc error, leaves\n\
nothing allocated on the device, and the program goes on. Needs a GPU (cuda backend). Prints pass/fail lines only.\n\
  -type <ellg,pjds,slicedell>: the type (root name)\n\
  -case limit:   -ellg_device_memory_limit (set by the program) leaves a matrix (a 2D Laplacian with a dense\n\
                 first row, which the formats multiply apart as a long row) less room than it needs, from almost\n\
                 none up to enough: each build that does not fit fails (at the matrix's first use on the device,\n\
                 here MatELLGGetFormat() after the assembly) with PETSC_ERR_MEM and a\n\
                 message that says what was asked for, what the device has and what helps, the device memory\n\
                 the library holds (PetscELLGGetDeviceMemory()) is then what it was before, exactly, and the\n\
                 matrix can be destroyed; a device vector too large\n\
                 fails alike; then, without the limit, the matrix is built and multiplies right, and so does one\n\
                 of the host backend (-ellg_backend host, set by the program)\n\
  -case device:  run with -ellg_device <a number beyond the devices>: the first matrix gives a clear error\n\
                 (PETSC_ERR_ARG_OUTOFRANGE naming -ellg_device), not a hang\n\
  -n <g>: the grid is g x g (default 300)\n\n";

#include "ellgtest.h"

#define WIDTH 66             /* of the descriptions in the result lines */
#define MB    1048576.0

/* whether the message of the last error contains each of the strings of what (a NULL-terminated list) */
static PetscErrorCode MessageContains(PetscErrorCode ierr, const char *const what[], PetscBool *found)
{
  const char *msg = NULL;

  PetscFunctionBeginUser;
  *found = PETSC_FALSE;
  PetscCall(ELLGErrorMessage(ierr, NULL, &msg));
  if (!msg) PetscFunctionReturn(0);
  *found = PETSC_TRUE;
  for (PetscInt k = 0; what[k]; k++) {
    char *s;

    PetscCall(PetscStrstr(msg, what[k], &s));
    if (!s) {
      *found = PETSC_FALSE;
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "    the message does not name \"%s\": %s\n", what[k], msg));
    }
  }
  PetscFunctionReturn(0);
}

/* the matrix of c of the given type (MatSetFromOptions()), preallocated and assembled (CreateMatCSR()), and its
   format built (MatELLGGetFormat(): the format is stored at the first use on the device); *A is set by MatCreate(),
   first, so that it can be destroyed when an error is returned */
static PetscErrorCode Assembled(const CSR *c, MatType type, Mat *A)
{
  PetscFunctionBeginUser;
  PetscCall(CreateMatCSR(PETSC_COMM_WORLD, PETSC_DECIDE, PETSC_DECIDE, c, type, A));
  PetscCall(MatELLGGetFormat(*A, NULL, NULL, NULL));
  PetscFunctionReturn(0);
}

/* whether y = A 1 has the row sums of c, with our device vectors */
static PetscErrorCode MultRight(Mat A, const CSR *c, PetscBool *ok)
{
  Vec                x, y;
  const PetscScalar *ay;
  PetscReal          err = 0.0;

  PetscFunctionBeginUser;
  PetscCall(VecCreateSeqGPU(PETSC_COMM_SELF, c->N, &x));
  PetscCall(VecCreateSeqGPU(PETSC_COMM_SELF, c->M, &y));
  PetscCall(VecSet(x, 1.0));
  PetscCall(MatMult(A, x, y));
  PetscCall(VecGetArrayRead(y, &ay));
  for (PetscInt i = 0; i < c->M; i++) {
    PetscScalar s = 0.0;

    for (PetscInt k = c->ia[i]; k < c->ia[i + 1]; k++) s += c->va[k];
    err = PetscMax(err, PetscAbsScalar(ay[i] - s));
  }
  PetscCall(VecRestoreArrayRead(y, &ay));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  *ok = (PetscBool)(err <= 1e-10);
  PetscFunctionReturn(0);
}

/* -ellg_device_memory_limit that leaves the library room MB more than it holds now (the limit counts this
   process's allocations alone: the room does not move with what other processes do on the device) */
static PetscErrorCode SetRoom(PetscReal room)
{
  PetscLogDouble held;
  char           value[64];

  PetscFunctionBeginUser;
  PetscCall(PetscELLGGetDeviceMemory(NULL, NULL, &held));
  PetscCall(PetscSNPrintf(value, sizeof(value), "%.6f", held / MB + room));
  PetscCall(PetscOptionsSetValue(NULL, "-ellg_device_memory_limit", value));
  PetscFunctionReturn(0);
}

static PetscErrorCode CaseLimit(MatType type, PetscInt g, PetscInt *nfail)
{
  static const char *const what[] = {"Out of GPU memory", "MB", "free of", "-ellg_device_memory_limit", "-ellg_backend host", "more GPUs", NULL};
  const PetscReal          rooms[] = {0.25, 1, 2, 4, 6, 8, 10, 12, 14, 16, 20, 24, 32, 48, 64, 128, 256};
  CSR                      c;
  Mat                      A;
  Vec                      v;
  PetscScalar             *a;
  PetscELLGBackend         be;
  PetscLogDouble           before, after, afterdestroy;
  PetscErrorCode           ierr;
  PetscInt                 failed = 0;
  PetscBool                memerr = PETSC_TRUE, restored = PETSC_TRUE, message = PETSC_TRUE, destroyed = PETSC_TRUE, built = PETSC_FALSE, ok, found;

  PetscFunctionBeginUser;
  PetscCall(PetscELLGGetBackend(&be));
  PetscCheck(be == PETSCELLG_BACKEND_CUDA, PETSC_COMM_WORLD, PETSC_ERR_SUP_SYS, "This case needs the cuda backend (a GPU)");
  PetscCall(CSRLaplacianDenseRow(g, &c));

  /* a first matrix: the CUDA context, the handles and what else the first objects create once */
  PetscCall(Assembled(&c, type, &A));
  PetscCall(MultRight(A, &c, &ok));
  PetscCall(MatDestroy(&A));

  /* ever more room, until the matrix fits: the builds that do not fit fail at every stage (upload of the CSR,
     the format's arrays, the long rows) */
  for (size_t k = 0; k < sizeof(rooms) / sizeof(rooms[0]) && !built; k++) {
    PetscCall(SetRoom(rooms[k]));
    PetscCall(PetscELLGGetDeviceMemory(NULL, NULL, &before));
    A = NULL;
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr = Assembled(&c, type, &A);
    PetscCall(PetscPopErrorHandler());
    PetscCall(PetscELLGGetDeviceMemory(NULL, NULL, &after));
    if (!ierr) built = PETSC_TRUE;
    else {
      failed++;
      if (ierr != PETSC_ERR_MEM) {
        memerr = PETSC_FALSE;
        PetscCall(PetscPrintf(PETSC_COMM_SELF, "    room %g MB: error %d, not PETSC_ERR_MEM\n", (double)rooms[k], (int)ierr));
      }
      PetscCall(MessageContains(ierr, what, &found));
      if (!found) message = PETSC_FALSE;
      if (after != before) {
        restored = PETSC_FALSE;
        PetscCall(PetscPrintf(PETSC_COMM_SELF, "    room %g MB: %.0f bytes held before the build, %.0f after it failed\n", (double)rooms[k], before, after));
      }
    }
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr = MatDestroy(&A);
    PetscCall(PetscPopErrorHandler());
    PetscCall(PetscELLGGetDeviceMemory(NULL, NULL, &afterdestroy));
    if (ierr || afterdestroy != before) {
      destroyed = PETSC_FALSE;
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "    room %g MB: MatDestroy() error %d, %.0f bytes held before the build, %.0f after the destroy\n", (double)rooms[k], (int)ierr, before, afterdestroy));
    }
  }
  PetscCall(PrintResult(PETSC_COMM_WORLD, WIDTH, "matrices short of device memory fail in the build", (PetscBool)(failed >= 3), nfail));
  PetscCall(PrintResult(PETSC_COMM_WORLD, WIDTH, "... with PETSC_ERR_MEM", memerr, nfail));
  PetscCall(PrintResult(PETSC_COMM_WORLD, WIDTH, "... with a message: MB asked for, free, total, what helps", message, nfail));
  PetscCall(PrintResult(PETSC_COMM_WORLD, WIDTH, "... leaving the device memory the library holds as it was", restored, nfail));
  PetscCall(PrintResult(PETSC_COMM_WORLD, WIDTH, "... and MatDestroy() works, freeing nothing more", destroyed, nfail));
  PetscCall(PrintResult(PETSC_COMM_WORLD, WIDTH, "with enough room the build succeeds", built, nfail));

  /* a device vector larger than the room: the first access to its device array fails alike */
  PetscCall(SetRoom(1.0));
  PetscCall(PetscELLGGetDeviceMemory(NULL, NULL, &before));
  PetscCall(VecCreateSeqGPU(PETSC_COMM_SELF, 1048576, &v)); /* 8 MB */
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = VecGPUGetArrayWrite(v, &a);
  PetscCall(PetscPopErrorHandler());
  PetscCall(PetscELLGGetDeviceMemory(NULL, NULL, &after));
  if (!ierr) PetscCall(VecGPURestoreArrayWrite(v, &a));
  PetscCall(VecDestroy(&v));
  PetscCall(PetscELLGGetDeviceMemory(NULL, NULL, &afterdestroy));
  ok = (PetscBool)(ierr == PETSC_ERR_MEM && after == before && afterdestroy == before);
  PetscCall(PrintResult(PETSC_COMM_WORLD, WIDTH, "a device vector short of memory: PETSC_ERR_MEM, nothing left", ok, nfail));
  if (!ok) PetscCall(PetscPrintf(PETSC_COMM_SELF, "    error %d, %.0f bytes held before, %.0f after, %.0f after VecDestroy()\n", (int)ierr, before, after, afterdestroy));

  /* the limit removed (it is read at each allocation): the matrix is built and multiplies right */
  PetscCall(PetscOptionsClearValue(NULL, "-ellg_device_memory_limit"));
  PetscCall(Assembled(&c, type, &A));
  PetscCall(MatELLGGetBackend(A, &be));
  PetscCall(MultRight(A, &c, &ok));
  PetscCall(MatDestroy(&A));
  PetscCall(PrintResult(PETSC_COMM_WORLD, WIDTH, "then, without the limit, a matrix on the GPU works", (PetscBool)(ok && be == PETSCELLG_BACKEND_CUDA), nfail));

  /* and one of the host backend, chosen when the matrix is created */
  PetscCall(PetscOptionsSetValue(NULL, "-ellg_backend", "host"));
  PetscCall(Assembled(&c, type, &A));
  PetscCall(MatELLGGetBackend(A, &be));
  PetscCall(MultRight(A, &c, &ok));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscOptionsClearValue(NULL, "-ellg_backend"));
  PetscCall(PrintResult(PETSC_COMM_WORLD, WIDTH, "and a matrix of the host backend (-ellg_backend host) works", (PetscBool)(ok && be == PETSCELLG_BACKEND_HOST), nfail));
  PetscCall(CSRDestroy(&c));
  PetscFunctionReturn(0);
}

/* -ellg_device beyond the devices: the first matrix fails with a clear error */
static PetscErrorCode CaseDevice(MatType type, PetscInt *nfail)
{
  static const char *const what[] = {"-ellg_device", "is not a CUDA device", NULL};
  Mat                      A;
  PetscErrorCode           ierr;
  PetscBool                found;

  PetscFunctionBeginUser;
  PetscCall(MatCreate(PETSC_COMM_WORLD, &A));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = FillLaplacian(A, 1, 10, 2.0, 1.0, type, PETSC_TRUE);
  PetscCall(PetscPopErrorHandler());
  PetscCall(MessageContains(ierr, what, &found));
  PetscCall(PrintResult(PETSC_COMM_WORLD, WIDTH, "-ellg_device beyond the devices: a clear error, no hang", (PetscBool)(ierr == PETSC_ERR_ARG_OUTOFRANGE && found), nfail));
  if (ierr != PETSC_ERR_ARG_OUTOFRANGE) PetscCall(PetscPrintf(PETSC_COMM_SELF, "    error %d, not PETSC_ERR_ARG_OUTOFRANGE\n", (int)ierr));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = MatDestroy(&A);
  PetscCall(PetscPopErrorHandler());
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  char      type[TYPE_LEN], kase[32] = "limit";
  PetscInt  g = 300, nfail = 0;
  PetscBool islimit, isdevice;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscELLGInitializePackage());
  PetscCall(TestType(type, NULL, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-case", kase, sizeof(kase), NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &g, NULL));
  PetscCall(PetscStrcmp(kase, "limit", &islimit));
  PetscCall(PetscStrcmp(kase, "device", &isdevice));
  PetscCheck(islimit || isdevice, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "-case must be limit or device");
  if (islimit) PetscCall(CaseLimit(type, g, &nfail));
  else PetscCall(CaseDevice(type, &nfail));
  if (nfail) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%" PetscInt_FMT " FAILED\n", nfail));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   test:
      suffix: limit
      requires: gpu
      args: -case limit -type {{ellg pjds slicedell csrg}}
      output_file: output/ex14_limit.out

   # a bad device number fails where the device is chosen, before any object exists, with a GPU or without
   # one: PETSc's own copies of option strings may be left (see tests/ex5), the filter drops them
   test:
      suffix: device
      args: -case device -type ellg -ellg_device 4096
      filter: grep -v -e "PetscStrallocpy() at" -e "PetscOptionsGetEList() at"

TEST*/
