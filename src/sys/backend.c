/* Backend choice (-ellg_backend), device selection, and memory in the backend's space */
#include <float.h>
#include <ellgimpl.h>

const char *const PetscELLGBackends[] = {"host", "cuda", "PetscELLGBackend", "PETSCELLG_BACKEND_", NULL};

static PetscBool ellg_device_probed = PETSC_FALSE;
static PetscInt  ellg_device        = -1; /* the CUDA device this process uses, -1: none usable */

/* without a usable device: -ellg_device naming one is an error, as one beyond the devices is */
static PetscErrorCode PetscELLGNoDevice(const char *why)
{
  PetscInt  dev = -1;
  PetscBool set;

  PetscFunctionBegin;
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-ellg_device", &dev, &set));
  PetscCheck(!set || dev < 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-ellg_device %" PetscInt_FMT " is not a CUDA device: %s; use -ellg_backend host", dev, why);
  PetscCall(PetscInfo(NULL, "%s: PETSc-ELLG objects use the host backend\n", why));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Picks this rank's GPU once: node-local rank modulo the device count, or -ellg_device */
static PetscErrorCode PetscELLGProbeDevice(void)
{
  PetscFunctionBegin;
  if (ellg_device_probed) PetscFunctionReturn(PETSC_SUCCESS);
  ellg_device_probed = PETSC_TRUE;
#if !defined(ELLG_HAVE_CUDA)
  PetscCall(PetscELLGNoDevice("PETSc-ELLG was built without CUDA"));
#else
  {
    int         ndev = 0, cerr;
    PetscMPIInt lrank;
    MPI_Comm    node;
    PetscBool   set;
    PetscInt    dev;

    PetscCallELLGCuda(ELLGCudaGetDeviceCount(&ndev));
    if (!ndev) {
      PetscCall(PetscELLGNoDevice("no usable CUDA device (no GPU, or no driver)"));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
    PetscCallMPI(MPI_Comm_split_type(PETSC_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
    PetscCallMPI(MPI_Comm_rank(node, &lrank));
    PetscCallMPI(MPI_Comm_free(&node));
    dev = lrank % ndev;
    PetscCall(PetscOptionsGetInt(NULL, NULL, "-ellg_device", &dev, &set));
    PetscCheck(dev >= 0 && dev < ndev, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-ellg_device %" PetscInt_FMT " is not a CUDA device: %d device(s) visible", dev, ndev);
  #if defined(ELLG_HAVE_PETSC_CUDA)
    { /* PETSc's CUDA objects and ours share PETSc's device */
      PetscDeviceContext dctx;
      PetscDevice        pdev;
      PetscInt           pid;

      PetscCall(PetscDeviceInitialize(PETSC_DEVICE_CUDA));
      PetscCall(PetscDeviceContextGetCurrentContext(&dctx));
      PetscCall(PetscDeviceContextGetDevice(dctx, &pdev));
      PetscCall(PetscDeviceGetDeviceId(pdev, &pid));
      PetscCheck(!set || dev == pid, PETSC_COMM_SELF, PETSC_ERR_ARG_INCOMP, "-ellg_device %" PetscInt_FMT ": PETSc uses CUDA device %" PetscInt_FMT ", which PETSc-ELLG shares; choose it with -device_select_cuda instead", dev, pid);
      dev = pid;
    }
  #endif
    cerr = ELLGCudaSetDevice((int)dev);
    PetscCheck(!cerr, PETSC_COMM_SELF, cerr == ELLG_CUDA_ERROR_MEMORY ? PETSC_ERR_MEM : PETSC_ERR_GPU, "Cannot start CUDA on device %" PetscInt_FMT " for node-local rank %d: CUDA error %d (%s): %s%s", dev, lrank, cerr, ELLGCudaErrorName(cerr), ELLGCudaErrorString(cerr),
               cerr == ELLG_CUDA_ERROR_MEMORY ? " (no memory for this process's CUDA context: run fewer processes per GPU, choose another GPU with -ellg_device, or use -ellg_backend host)" : "");
    ellg_device = dev;
    PetscCall(PetscInfo(NULL, "Node-local rank %d uses CUDA device %" PetscInt_FMT " of %d\n", lrank, dev, ndev));
  }
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -ellg_device_memory_limit <MB>: the most device memory the library's own device allocations may hold in the
   process (0, the default: no limit but the device's). Read at each allocation of the cuda backend, so that a
   program may change it between objects (PetscOptionsSetValue()/PetscOptionsClearValue()) */
static PetscErrorCode PetscELLGDeviceMemoryLimit(PetscReal *mb)
{
  PetscFunctionBegin;
  *mb = 0.0;
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-ellg_device_memory_limit", mb, NULL));
  PetscCheck(*mb >= 0.0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-ellg_device_memory_limit %g: must be a number of MB, at least 0", (double)*mb);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -help: the options that choose the backend and the device, with the values they have (shown once, by the first
   process: the backend is chosen by each process on its own, not in an object's options) */
static PetscErrorCode PetscELLGBackendHelp(PetscELLGBackend be)
{
  static PetscBool shown = PETSC_FALSE;
  PetscBool        help;
  PetscMPIInt      rank;
  PetscEnum        e   = (PetscEnum)be;
  PetscInt         dev = ellg_device;
  PetscReal        limit;

  PetscFunctionBegin;
  if (shown) PetscFunctionReturn(PETSC_SUCCESS);
  shown = PETSC_TRUE;
  PetscCall(PetscOptionsHasHelp(NULL, &help));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  if (!help || rank) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscELLGDeviceMemoryLimit(&limit));
  PetscOptionsBegin(PETSC_COMM_SELF, NULL, "PETSc-ELLG backend options", "Sys");
  PetscCall(PetscOptionsEnum("-ellg_backend", "Where products and vector operations run (default: cuda when a usable GPU is present, else host)", "PetscELLGGetBackend", PetscELLGBackends, e, &e, NULL));
  PetscCall(PetscOptionsInt("-ellg_device", "CUDA device of this process, -1: none (default: node-local rank modulo the devices; with a PETSc built with CUDA, PETSc's device)", "PetscELLGGetBackend", dev, &dev, NULL));
  PetscCall(PetscOptionsReal("-ellg_device_memory_limit", "Most device memory (MB) that the library's device allocations may hold in this process (0 for no limit); one beyond fails with PETSC_ERR_MEM (cuda backend, read at each allocation)", "PetscELLGGetDeviceMemory", limit, &limit, NULL));
  PetscOptionsEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the backend that new objects use (PetscELLGGetBackend(), without initializing the package) */
PetscErrorCode PetscELLGGetBackend_Private(PetscELLGBackend *backend)
{
  PetscEnum e   = ENUM_DUMMY;
  PetscBool set = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(PetscOptionsGetEnum(NULL, NULL, "-ellg_backend", PetscELLGBackends, &e, &set));
  if (!set || (PetscELLGBackend)e == PETSCELLG_BACKEND_CUDA) PetscCall(PetscELLGProbeDevice()); /* the host backend needs no GPU */
  if (set) {
    *backend = (PetscELLGBackend)e;
#if !defined(ELLG_HAVE_CUDA)
    PetscCheck(*backend != PETSCELLG_BACKEND_CUDA, PETSC_COMM_SELF, PETSC_ERR_SUP_SYS, "-ellg_backend cuda: PETSc-ELLG was built without CUDA (no nvcc at build time); use -ellg_backend host");
#else
    PetscCheck(*backend != PETSCELLG_BACKEND_CUDA || ellg_device >= 0, PETSC_COMM_SELF, PETSC_ERR_SUP_SYS, "-ellg_backend cuda: no usable CUDA device (no GPU, or no driver); use -ellg_backend host");
#endif
  } else *backend = ellg_device >= 0 ? PETSCELLG_BACKEND_CUDA : PETSCELLG_BACKEND_HOST;
  PetscCall(PetscELLGBackendHelp(*backend));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PetscELLGGetDeviceMemory - the free and the total memory of the CUDA device that the cuda backend of this
   process uses, as `cudaMemGetInfo()` tells them, and the memory that the library's own device allocations
   hold in this process

   Not Collective

   Output Parameters:
+  freebytes  - bytes free on the device (`NULL` if not wanted)
.  totalbytes - bytes of the device (`NULL` if not wanted)
-  heldbytes  - bytes that this process's device allocations by the library hold now (`NULL` if not wanted): the
   formats, vectors, factors and products, not the work space that cuSPARSE allocates itself

   Options Database Key:
.  -ellg_device_memory_limit <MB> - the most device memory that the library's own device allocations may hold in
   this process (default 0: no limit): an allocation beyond it fails with `PETSC_ERR_MEM`, as one beyond the memory
   of the device does, freeing what the failed operation had allocated. Read at each allocation; nothing with the
   host backend

   Level: intermediate

   Notes:
   All are 0 with the host backend (`-ellg_backend host`, or no usable GPU), which touches no GPU.

   The free memory is that of the whole device, which other processes and libraries share. The held memory is
   this process's alone: comparing it before and after some work tells exactly what the work left allocated.

.seealso: `PetscELLGGetBackend()`, `PetscMallocGetCurrentUsage()`
@*/
PetscErrorCode PetscELLGGetDeviceMemory(PetscLogDouble *freebytes, PetscLogDouble *totalbytes, PetscLogDouble *heldbytes)
{
  PetscELLGBackend be;

  PetscFunctionBegin;
  if (freebytes) *freebytes = 0.0;
  if (totalbytes) *totalbytes = 0.0;
  if (heldbytes) *heldbytes = 0.0;
  PetscCall(PetscELLGGetBackend_Private(&be));
#if defined(ELLG_HAVE_CUDA)
  if (be == PETSCELLG_BACKEND_CUDA) {
    size_t f = 0, t = 0, h = 0;

    PetscCallELLGCuda(ELLGCudaMemGetInfo(&f, &t));
    PetscCallELLGCuda(ELLGCudaMemHeld(&h));
    if (freebytes) *freebytes = (PetscLogDouble)f;
    if (totalbytes) *totalbytes = (PetscLogDouble)t;
    if (heldbytes) *heldbytes = (PetscLogDouble)h;
  }
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

#if defined(ELLG_HAVE_CUDA)
/* the error of a device allocation of bytes that does not fit (free of total bytes free; limit MB allowed by
   -ellg_device_memory_limit, of which the library holds held bytes): what was asked for, what the device has, and
   what helps */
static PetscErrorCode PetscELLGOutOfDeviceMemory(size_t bytes, size_t freeb, size_t total, PetscReal limit, size_t held)
{
  char kept[160] = "";

  PetscFunctionBegin;
  if (limit > 0) PetscCall(PetscSNPrintf(kept, sizeof(kept), "; -ellg_device_memory_limit allows the library %.1f MB, of which it holds %.1f MB", (double)limit, (double)held / 1048576.0));
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_MEM,
          "Out of GPU memory: allocating %.1f MB on CUDA device %" PetscInt_FMT ", which has %.1f MB free of %.1f MB%s. Use -ellg_backend host to run on the host, or split the matrix over more GPUs (more MPI processes)",
          (double)bytes / 1048576.0, ellg_device, (double)freeb / 1048576.0, (double)total / 1048576.0, kept);
}
#endif

/* bytes in the backend's memory; for cuda, an allocation that does not fit on the device, or that would take the
   library's device memory beyond -ellg_device_memory_limit, fails with PETSC_ERR_MEM and allocates nothing */
PetscErrorCode PetscELLGMalloc(PetscELLGBackend be, size_t bytes, void **ptr)
{
  PetscFunctionBegin;
  *ptr = NULL;
  if (!bytes) PetscFunctionReturn(PETSC_SUCCESS);
  if (be == PETSCELLG_BACKEND_HOST) PetscCall(PetscMallocA(1, PETSC_FALSE, __LINE__, PETSC_FUNCTION_NAME, __FILE__, bytes, ptr));
#if defined(ELLG_HAVE_CUDA)
  else {
    PetscReal limit;
    size_t    freeb = 0, total = 0, held = 0;
    int       err;

    PetscCall(PetscELLGDeviceMemoryLimit(&limit));
    if (limit > 0) {
      PetscCallELLGCuda(ELLGCudaMemHeld(&held));
      if ((double)held + (double)bytes > (double)limit * 1048576.0) {
        PetscCallELLGCuda(ELLGCudaMemGetInfo(&freeb, &total));
        PetscCall(PetscELLGOutOfDeviceMemory(bytes, freeb, total, limit, held));
      }
    }
    err = ELLGCudaMalloc(ptr, bytes);
    if (err == ELLG_CUDA_ERROR_MEMORY) {
      if (ELLGCudaMemGetInfo(&freeb, &total)) freeb = total = 0; /* the error is about the allocation: its numbers as far as known */
      PetscCall(PetscELLGOutOfDeviceMemory(bytes, freeb, total, limit, held));
    }
    PetscCallELLGCuda(err);
  }
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PetscELLGFree(PetscELLGBackend be, void *ptr)
{
  PetscFunctionBegin;
  if (!ptr) PetscFunctionReturn(PETSC_SUCCESS);
  if (be == PETSCELLG_BACKEND_HOST) PetscCall(PetscFreeA(1, __LINE__, PETSC_FUNCTION_NAME, __FILE__, &ptr));
#if defined(ELLG_HAVE_CUDA)
  else PetscCallELLGCuda(ELLGCudaFree(ptr));
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* logs a copy of bytes between host and device memory (-log_view's "CpuToGpu" and "GpuToCpu" columns, as
   PETSc's CUDA types log theirs); copies within one memory, and all of the host backend's, are not logged */
PetscErrorCode PetscELLGLogCopy(PetscELLGBackend be, size_t bytes, ELLGMemcpyKind kind)
{
  PetscFunctionBegin;
  if (be == PETSCELLG_BACKEND_HOST) PetscFunctionReturn(PETSC_SUCCESS);
  if (kind == ELLG_MEMCPY_HTOD) PetscCall(PetscLogCpuToGpu((PetscLogDouble)bytes));
  else if (kind == ELLG_MEMCPY_DTOH) PetscCall(PetscLogGpuToCpu((PetscLogDouble)bytes));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PetscELLGMemcpy(PetscELLGBackend be, void *dst, const void *src, size_t bytes, ELLGMemcpyKind kind)
{
  PetscFunctionBegin;
  if (!bytes || dst == src) PetscFunctionReturn(PETSC_SUCCESS);
  if (be == PETSCELLG_BACKEND_HOST) PetscCall(PetscMemcpy(dst, src, bytes));
#if defined(ELLG_HAVE_CUDA)
  else PetscCallELLGCuda(ELLGCudaMemcpy(dst, src, bytes, (int)kind));
#endif
  PetscCall(PetscELLGLogCopy(be, bytes, kind));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The staging buffer: host memory kept from its first use to PetscFinalize() (pinned, for cuda), through which
   large downloads go in pieces into their host arrays. A download into memory that the process has never touched
   pays the kernel's first touch of each page, several times the copy itself; a download in pieces through memory
   touched once pays it only on its destination. -ellg_staging_bytes sets its size (read once; small sizes test
   the pieces) */
#define PETSCELLG_STAGING_BYTES (32 << 20)
static void  *PetscELLGStagingBuffer[PETSCELLG_BACKEND_CUDA + 1];
static size_t PetscELLGStagingSize;

PetscErrorCode PetscELLGGetStaging(PetscELLGBackend be, void **buf, size_t *bytes)
{
  PetscFunctionBegin;
  if (!PetscELLGStagingSize) {
    PetscInt b = PETSCELLG_STAGING_BYTES;

    PetscCall(PetscOptionsGetInt(NULL, NULL, "-ellg_staging_bytes", &b, NULL));
    PetscCheck(b >= (PetscInt)(sizeof(PetscScalar) + sizeof(PetscInt)), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-ellg_staging_bytes %" PetscInt_FMT ": must hold one entry of a matrix, %d bytes", b, (int)(sizeof(PetscScalar) + sizeof(PetscInt)));
    PetscELLGStagingSize = (size_t)b;
  }
  if (!PetscELLGStagingBuffer[be]) {
    if (be == PETSCELLG_BACKEND_HOST) PetscCall(PetscMallocA(1, PETSC_FALSE, __LINE__, PETSC_FUNCTION_NAME, __FILE__, PetscELLGStagingSize, &PetscELLGStagingBuffer[be]));
#if defined(ELLG_HAVE_CUDA)
    else PetscCallELLGCuda(ELLGCudaMallocHost(&PetscELLGStagingBuffer[be], PetscELLGStagingSize));
#endif
  }
  *buf   = PetscELLGStagingBuffer[be];
  *bytes = PetscELLGStagingSize;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PetscELLGFreeStaging_Private(void)
{
  PetscFunctionBegin;
  PetscELLGStagingSize = 0;
  PetscCall(PetscFreeA(1, __LINE__, PETSC_FUNCTION_NAME, __FILE__, &PetscELLGStagingBuffer[PETSCELLG_BACKEND_HOST]));
#if defined(ELLG_HAVE_CUDA)
  PetscCallELLGCuda(ELLGCudaFreeHost(PetscELLGStagingBuffer[PETSCELLG_BACKEND_CUDA]));
  PetscELLGStagingBuffer[PETSCELLG_BACKEND_CUDA] = NULL;
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PetscELLGHostRegister(PetscELLGBackend be, void *ptr, size_t bytes, PetscBool *done)
{
  PetscFunctionBegin;
  *done = PETSC_FALSE;
#if defined(ELLG_HAVE_CUDA)
  if (be == PETSCELLG_BACKEND_CUDA && ptr && bytes) {
    int err = ELLGCudaHostRegister(ptr, bytes);

    *done = (PetscBool)!err;
    if (err) PetscCall(PetscInfo(NULL, "%.3g MB of host memory not page-locked (CUDA error %d): its copies stay pageable\n", (double)bytes / 1048576.0, err));
  }
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PetscELLGHostUnregister(PetscELLGBackend be, void *ptr)
{
  PetscFunctionBegin;
#if defined(ELLG_HAVE_CUDA)
  if (be == PETSCELLG_BACKEND_CUDA && ptr) {
    int err = ELLGCudaHostUnregister(ptr);

    if (err) PetscCall(PetscInfo(NULL, "Host memory not unregistered (CUDA error %d)\n", err));
  }
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the m x n column-major array src (leading dimension lds) into dst (leading dimension ldd): one
   copy when both are contiguous, else one of n columns of m scalars */
PetscErrorCode PetscELLGMemcpyColumns(PetscELLGBackend be, PetscInt m, PetscInt n, PetscScalar *dst, PetscInt ldd, const PetscScalar *src, PetscInt lds, ELLGMemcpyKind kind)
{
  const size_t sz = sizeof(PetscScalar);

  PetscFunctionBegin;
  if (!m || !n) PetscFunctionReturn(PETSC_SUCCESS);
  if (ldd == m && lds == m) {
    PetscCall(PetscELLGMemcpy(be, dst, src, sz * (size_t)m * (size_t)n, kind));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (be == PETSCELLG_BACKEND_HOST)
    for (PetscInt j = 0; j < n; j++) PetscCall(PetscArraycpy(dst + j * ldd, src + j * lds, m));
#if defined(ELLG_HAVE_CUDA)
  else PetscCallELLGCuda(ELLGCudaMemcpy2D(dst, sz * (size_t)ldd, src, sz * (size_t)lds, sz * (size_t)m, (size_t)n, (int)kind));
#endif
  PetscCall(PetscELLGLogCopy(be, sz * (size_t)m * (size_t)n, kind));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PetscELLGMemset(PetscELLGBackend be, void *ptr, int value, size_t bytes)
{
  PetscFunctionBegin;
  if (!bytes) PetscFunctionReturn(PETSC_SUCCESS);
  if (be == PETSCELLG_BACKEND_HOST) memset(ptr, value, bytes);
#if defined(ELLG_HAVE_CUDA)
  else PetscCallELLGCuda(ELLGCudaMemset(ptr, value, bytes));
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PetscELLGSynchronize(PetscELLGBackend be)
{
  PetscFunctionBegin;
#if defined(ELLG_HAVE_CUDA)
  if (be == PETSCELLG_BACKEND_CUDA) PetscCallELLGCuda(ELLGCudaSynchronize());
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* logs the flops of an operation that ran in backend be: as GPU flops (-log_view's "GPU Mflop/s" and "%F"
   columns, as PETSc's CUDA types log theirs) for the cuda backend where PETSc has device support, else as
   flops of the CPU (a PETSc without it logs no GPU flops) */
PetscErrorCode PetscELLGLogFlops(PetscELLGBackend be, PetscLogDouble n)
{
  PetscFunctionBegin;
#if defined(PETSC_HAVE_DEVICE)
  if (be != PETSCELLG_BACKEND_HOST) {
    PetscCall(PetscLogGpuFlops(n));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
#else
  (void)be;
#endif
  PetscCall(PetscLogFlops(n));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PetscELLGCheckSingle - an error (PETSC_ERR_FP) if one of the n values val (in the memory of backend be) is finite
   but beyond single precision's range: rounded, it would become an infinity */
PetscErrorCode PetscELLGCheckSingle(PetscELLGBackend be, PetscInt n, const PetscScalar *val)
{
  long long   first = -1;
  PetscScalar v     = 0.0;

  PetscFunctionBegin;
  if (be == PETSCELLG_BACKEND_HOST) {
    for (PetscInt k = 0; k < n && first < 0; k++)
      if (PetscAbsScalar(val[k]) > (PetscReal)FLT_MAX && !PetscIsInfOrNanScalar(val[k])) first = k;
  }
#if defined(ELLG_HAVE_CUDA)
  else PetscCallELLGCuda(ELLGCudaValuesBeyondSingle((long)n, val, &first));
#endif
  if (first < 0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscELLGMemcpy(be, &v, val + first, sizeof(PetscScalar), ELLG_MEMCPY_DTOH));
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_FP, "Value %g (of %" PetscInt_FMT ", number %lld) is beyond the range of single precision (%g): a matrix of single-precision values on the device (-mat_gpu_value_precision single) cannot hold it; use -mat_gpu_value_precision double", (double)PetscRealPart(v), n, first, (double)FLT_MAX);
}

/* PetscELLGToSingle - s[k] = val[k] rounded to single precision, k < n, both in the memory of backend be; refuses values
   beyond its range (PetscELLGCheckSingle()) */
PetscErrorCode PetscELLGToSingle(PetscELLGBackend be, PetscInt n, const PetscScalar *val, float *s)
{
  PetscFunctionBegin;
  PetscCall(PetscELLGCheckSingle(be, n, val));
  if (be == PETSCELLG_BACKEND_HOST)
    for (PetscInt k = 0; k < n; k++) s[k] = (float)PetscRealPart(val[k]);
#if defined(ELLG_HAVE_CUDA)
  else PetscCallELLGCuda(ELLGCudaToSingle((long)n, val, s));
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PETSc's timer of the device's work (-log_view's "GPU Mflop/s", with -log_view_gpu_time in PETSc from 3.20) around
   the kernels of an operation that runs in backend be, as PETSc's CUDA types time theirs: nothing for the host
   backend, or in a PETSc without device support */
PetscErrorCode PetscELLGLogGpuTimeBegin(PetscELLGBackend be)
{
  PetscFunctionBegin;
#if defined(PETSC_HAVE_DEVICE)
  if (be != PETSCELLG_BACKEND_HOST) PetscCall(PetscLogGpuTimeBegin());
#else
  (void)be;
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PetscELLGLogGpuTimeEnd(PetscELLGBackend be)
{
  PetscFunctionBegin;
#if defined(PETSC_HAVE_DEVICE)
  if (be != PETSCELLG_BACKEND_HOST) PetscCall(PetscLogGpuTimeEnd());
#else
  (void)be;
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* waits for the backend when PETSc is logging, so that the time of an event that launched
   kernels covers them (-log_view); costs nothing otherwise */
PetscErrorCode PetscELLGLogSynchronize(PetscELLGBackend be)
{
  PetscBool logging;

  PetscFunctionBegin;
  PetscCall(PetscLogIsActive(&logging));
  if (logging) PetscCall(PetscELLGSynchronize(be));
  PetscFunctionReturn(PETSC_SUCCESS);
}

#if defined(ELLG_HAVE_PETSC_CUDA)
/*
   PETSc queues its device work on the stream of its current device context, our kernels run on the
   legacy default stream (PETSc's default stream is that one too, which needs nothing): after taking a
   device array from one of PETSc's objects our stream waits for PETSc's, and before giving it back
   PETSc's waits for ours.
*/
static PetscErrorCode PetscELLGPetscStream(void **stream)
{
  PetscDeviceContext dctx;
  void              *handle;

  PetscFunctionBegin;
  PetscCall(PetscDeviceContextGetCurrentContext(&dctx));
  PetscCall(PetscDeviceContextGetStreamHandle(dctx, &handle));
  *stream = *(void **)handle; /* a pointer to the cudaStream_t, NULL for the legacy default stream */
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PetscELLGWaitForPetsc(void)
{
  void *stream;

  PetscFunctionBegin;
  PetscCall(PetscELLGPetscStream(&stream));
  if (stream) PetscCallELLGCuda(ELLGCudaDefaultStreamWait(stream));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PetscELLGPetscWaitForUs(void)
{
  void *stream;

  PetscFunctionBegin;
  PetscCall(PetscELLGPetscStream(&stream));
  if (stream) PetscCallELLGCuda(ELLGCudaStreamWaitDefault(stream));
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

/* one line naming the backend (and the device) for MatView/VecView info */
PetscErrorCode PetscELLGBackendView(PetscELLGBackend be, PetscViewer viewer)
{
  PetscFunctionBegin;
#if defined(ELLG_HAVE_CUDA)
  if (be == PETSCELLG_BACKEND_CUDA) {
    char name[256];

    PetscCallELLGCuda(ELLGCudaDeviceName((int)ellg_device, name, sizeof(name)));
    PetscCall(PetscViewerASCIIPrintf(viewer, "backend: cuda (device %" PetscInt_FMT ": %s)\n", ellg_device, name));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
#endif
  PetscCall(PetscViewerASCIIPrintf(viewer, "backend: host (plain loops on the CPU over the same arrays: the kernel settings above are what the cuda backend would run, and the copy events of -log_view time copies between host arrays)\n"));
  PetscFunctionReturn(PETSC_SUCCESS);
}
