/*
   The halo exchange of the parallel types.

   The ghost pattern is the PetscSF of the off-diagonal block's ghost columns (garray) over the
   column layout: its root ranks say which ranks own the ghost values this rank receives and into
   which ghost slots they go, its leaf ranks which ranks need which owned values. Both index lists
   live in the backend's memory.

   Forward (A x): Begin gathers the owned values other ranks need into one buffer on the exchange
   stream and queues its copy to a pinned host buffer, without waiting, so that the diagonal block's
   product can start meanwhile; End waits for the copy, exchanges the values with non-blocking MPI,
   queues the received ghost values to the device, and makes later products wait for them. Reverse
   (A^T x): the ghost parts of the product travel back to their owners, who add them in. With
   GPU-aware MPI the backend's buffers go to MPI directly, without the host copies.

   All MPI requests are posted after the exchange stream has been synchronised, so that neither MPI
   nor the host copies touch a buffer that queued device work still uses.
*/
#include "halo.h"
#include <petscsf.h>
#include <limits.h>
#if defined(ELLG_HAVE_CUDA) && defined(OPEN_MPI) && OPEN_MPI
  #include <mpi-ext.h>
#endif

/* the ranks on one side of the exchange and the slices of the value buffer that go to/from each */
typedef struct {
  PetscMPIInt  n;       /* neighbour ranks */
  PetscMPIInt *rank;    /* their ranks */
  PetscInt    *offset;  /* n+1: values for/from rank[i] are offset[i] ... offset[i+1]-1 */
  int          count;   /* offset[n] */
  int         *index_d; /* backend: the local index of each value (owned entry, or ghost slot); for ghosts, NULL when it is the position */
} HaloSide;

struct _p_ELLGHalo {
  MPI_Comm         comm;
  PetscMPIInt      tag;
  PetscELLGBackend backend;
  PetscBool        gpu_aware; /* MPI takes the backend's buffers */
  void            *exchange;  /* cuda: the exchange stream */
  void            *stream;    /* cuda: its handle */
  HaloSide         own;       /* owned values, sent forward, received and added in reverse */
  HaloSide         ghost;     /* ghost values, received forward, sent in reverse */
  PetscScalar     *own_d, *ghost_d; /* backend buffers (ghost_d only when the ghost slots are not in order) */
  PetscScalar     *own_h, *ghost_h; /* pinned host buffers */
  const PetscScalar *reverse_src;   /* backend: the ghost values of the reverse exchange in progress */
  MPI_Request     *req;
};

#if defined(ELLG_HAVE_CUDA)
  #define ELLGHaloCudaCall(h, call) \
    do { \
      if ((h)->backend == PETSCELLG_BACKEND_CUDA) PetscCallELLGCuda(call); \
    } while (0)
#else
  #define ELLGHaloCudaCall(h, call) (void)(h)
#endif

/* the side's ranks and offsets, and its index list in the backend's memory unless in order may do without it */
static PetscErrorCode HaloSideSetUp(ELLGHalo h, PetscInt n, const PetscMPIInt rank[], const PetscInt offset[], const PetscInt index[], PetscBool inorder_ok, HaloSide *s)
{
  PetscBool inorder = inorder_ok;
  int      *idx;

  PetscFunctionBegin;
  PetscCall(PetscMPIIntCast(n, &s->n));
  PetscCall(PetscMalloc2(s->n, &s->rank, s->n + 1, &s->offset));
  PetscCall(PetscArraycpy(s->rank, rank, s->n));
  PetscCall(PetscArraycpy(s->offset, offset, s->n + 1));
  PetscCheck(offset[n] < INT_MAX, PETSC_COMM_SELF, PETSC_ERR_SUP, "Halo of %" PetscInt_FMT " values: too many for the kernels' 32-bit indices", offset[n]);
  s->count = (int)offset[n];
  for (PetscInt k = 0; k < offset[n] && inorder; k++) inorder = (PetscBool)(index[k] == k);
  if (!inorder) {
    PetscCall(PetscMalloc1(s->count, &idx));
    for (int k = 0; k < s->count; k++) idx[k] = (int)index[k];
    PetscCall(PetscELLGMalloc(h->backend, sizeof(int) * s->count, (void **)&s->index_d));
    PetscCall(PetscELLGMemcpy(h->backend, s->index_d, idx, sizeof(int) * s->count, ELLG_MEMCPY_HTOD));
    PetscCall(PetscFree(idx));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode HaloSideDestroy(ELLGHalo h, HaloSide *s)
{
  PetscFunctionBegin;
  PetscCall(PetscFree2(s->rank, s->offset));
  PetscCall(PetscELLGFree(h->backend, s->index_d));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode HaloMallocPinned(ELLGHalo h, int n, PetscScalar **p)
{
  PetscFunctionBegin;
  *p = NULL;
  if (!n) PetscFunctionReturn(PETSC_SUCCESS);
  if (h->backend == PETSCELLG_BACKEND_HOST) PetscCall(PetscMalloc1(n, p));
#if defined(ELLG_HAVE_CUDA)
  else PetscCallELLGCuda(ELLGCudaMallocHost((void **)p, sizeof(PetscScalar) * n));
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode HaloFreePinned(ELLGHalo h, PetscScalar **p)
{
  PetscFunctionBegin;
  if (h->backend == PETSCELLG_BACKEND_HOST) PetscCall(PetscFree(*p));
#if defined(ELLG_HAVE_CUDA)
  else PetscCallELLGCuda(ELLGCudaFreeHost(*p));
#endif
  *p = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* n values between a pinned host buffer and the backend, on the exchange stream (cuda) */
static PetscErrorCode HaloCopy(ELLGHalo h, void *dst, const void *src, int n, ELLGMemcpyKind kind)
{
  PetscFunctionBegin;
  if (h->backend == PETSCELLG_BACKEND_HOST) PetscCall(PetscArraycpy((PetscScalar *)dst, (const PetscScalar *)src, n));
#if defined(ELLG_HAVE_CUDA)
  else PetscCallELLGCuda(ELLGCudaMemcpyAsync(dst, src, sizeof(PetscScalar) * n, (int)kind, h->stream));
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   ELLGHaloCreate - the halo exchange of an off-diagonal block whose local column k is global
   column garray[k] of the layout cmap

   Collective
*/
PetscErrorCode ELLGHaloCreate(MPI_Comm comm, PetscELLGBackend backend, PetscLayout cmap, PetscInt nghost, const PetscInt garray[], ELLGHalo *halo)
{
  ELLGHalo           h;
  PetscSF            sf;
  PetscInt           nr, nl;
  const PetscMPIInt *ranks, *iranks;
  const PetscInt    *roffset, *rmine, *ioffset, *irootloc;

  PetscFunctionBegin;
  PetscCall(PetscNew(&h));
  h->comm    = comm;
  h->backend = backend;
  PetscCall(PetscCommGetNewTag(comm, &h->tag));
  PetscCall(PetscSFCreate(comm, &sf));
  PetscCall(PetscSFSetGraphLayout(sf, cmap, nghost, NULL, PETSC_COPY_VALUES, garray));
  PetscCall(PetscSFSetUp(sf));
  PetscCall(PetscSFGetRootRanks(sf, &nr, &ranks, &roffset, &rmine, NULL));
  PetscCall(PetscSFGetLeafRanks(sf, &nl, &iranks, &ioffset, &irootloc));
  PetscCall(HaloSideSetUp(h, nr, ranks, roffset, rmine, PETSC_TRUE, &h->ghost));
  PetscCall(HaloSideSetUp(h, nl, iranks, ioffset, irootloc, PETSC_FALSE, &h->own));
  PetscCall(PetscSFDestroy(&sf));
  PetscCheck(h->ghost.count == nghost, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Halo of %d values for %" PetscInt_FMT " ghost columns", h->ghost.count, nghost);

  PetscCall(PetscELLGMalloc(backend, sizeof(PetscScalar) * h->own.count, (void **)&h->own_d));
  if (h->ghost.index_d) PetscCall(PetscELLGMalloc(backend, sizeof(PetscScalar) * h->ghost.count, (void **)&h->ghost_d));
  PetscCall(HaloMallocPinned(h, h->own.count, &h->own_h));
  PetscCall(HaloMallocPinned(h, h->ghost.count, &h->ghost_h));
  PetscCall(PetscMalloc1(h->own.n + h->ghost.n, &h->req));
#if defined(ELLG_HAVE_CUDA)
  if (backend == PETSCELLG_BACKEND_CUDA) {
    PetscCallELLGCuda(ELLGCudaExchangeStreamCreate(&h->exchange));
    h->stream = ELLGCudaExchangeStreamHandle(h->exchange);
  }
#endif
  PetscCall(PetscInfo(NULL, "Halo: %d ghost values from %d ranks, %d owned values to %d ranks\n", h->ghost.count, h->ghost.n, h->own.count, h->own.n));
  *halo = h;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ELLGHaloDestroy(ELLGHalo *halo)
{
  ELLGHalo h = *halo;

  PetscFunctionBegin;
  if (!h) PetscFunctionReturn(PETSC_SUCCESS);
#if defined(ELLG_HAVE_CUDA)
  if (h->backend == PETSCELLG_BACKEND_CUDA) PetscCallELLGCuda(ELLGCudaExchangeStreamDestroy(h->exchange));
#endif
  PetscCall(HaloSideDestroy(h, &h->own));
  PetscCall(HaloSideDestroy(h, &h->ghost));
  PetscCall(PetscELLGFree(h->backend, h->own_d));
  PetscCall(PetscELLGFree(h->backend, h->ghost_d));
  PetscCall(HaloFreePinned(h, &h->own_h));
  PetscCall(HaloFreePinned(h, &h->ghost_h));
  PetscCall(PetscFree(h->req));
  PetscCall(PetscFree(*halo));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   ELLGHaloSetGPUAware - whether MPI takes the backend's buffers directly (memory of the host
   backend is host memory; with cuda, MPI must be CUDA-aware)

   Not Collective
*/
PetscErrorCode ELLGHaloSetGPUAware(ELLGHalo h, PetscBool flg)
{
  PetscFunctionBegin;
#if defined(ELLG_HAVE_CUDA) && defined(MPIX_CUDA_AWARE_SUPPORT)
  PetscCheck(!flg || h->backend != PETSCELLG_BACKEND_CUDA || MPIX_Query_cuda_support(), PETSC_COMM_SELF, PETSC_ERR_SUP_SYS, "GPU-aware MPI was asked for (-mat_gpu_aware_mpi), but this MPI library cannot take device memory");
#endif
  h->gpu_aware = flg;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* receives from one side's ranks into recvbuf and sends to the other side's ranks from sendbuf, and waits */
static PetscErrorCode HaloExchange(ELLGHalo h, const HaloSide *from, PetscScalar *recvbuf, const HaloSide *to, const PetscScalar *sendbuf)
{
  PetscMPIInt cnt;

  PetscFunctionBegin;
  for (PetscMPIInt i = 0; i < from->n; i++) {
    PetscCall(PetscMPIIntCast(from->offset[i + 1] - from->offset[i], &cnt));
    PetscCallMPI(MPI_Irecv(recvbuf + from->offset[i], cnt, MPIU_SCALAR, from->rank[i], h->tag, h->comm, &h->req[i]));
  }
  for (PetscMPIInt i = 0; i < to->n; i++) {
    PetscCall(PetscMPIIntCast(to->offset[i + 1] - to->offset[i], &cnt));
    PetscCallMPI(MPI_Isend(sendbuf + to->offset[i], cnt, MPIU_SCALAR, to->rank[i], h->tag, h->comm, &h->req[from->n + i]));
  }
  PetscCallMPI(MPI_Waitall(from->n + to->n, h->req, MPI_STATUSES_IGNORE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   ELLGHaloForwardBegin - starts gathering the ghost values other ranks need from x (the backend
   array of the local part of the input vector); the products queued before it are waited for

   Not Collective
*/
PetscErrorCode ELLGHaloForwardBegin(ELLGHalo h, const PetscScalar *x)
{
  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(MATGPU_HaloBegin, 0, 0, 0, 0));
  ELLGHaloCudaCall(h, ELLGCudaExchangeStreamWaitCompute(h->exchange));
  PetscELLGBackendCall(h->backend, ELLGHostGather, ELLGCudaGather, (h->stream, h->own.count, h->own.index_d, x, h->own_d));
  if (!h->gpu_aware) PetscCall(HaloCopy(h, h->own_h, h->own_d, h->own.count, ELLG_MEMCPY_DTOH));
  PetscCall(PetscLogEventEnd(MATGPU_HaloBegin, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   ELLGHaloForwardEnd - completes the forward exchange into ghost (the backend array of the ghost
   values, one per column of the off-diagonal block); products queued after it see them

   Collective (with the ranks of the exchange)
*/
PetscErrorCode ELLGHaloForwardEnd(ELLGHalo h, PetscScalar *ghost)
{
  PetscScalar *dst = h->ghost_d ? h->ghost_d : ghost;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(MATGPU_HaloEnd, 0, 0, 0, 0));
  ELLGHaloCudaCall(h, ELLGCudaStreamSynchronize(h->stream));
  if (h->gpu_aware) PetscCall(HaloExchange(h, &h->ghost, dst, &h->own, h->own_d));
  else {
    PetscCall(HaloExchange(h, &h->ghost, h->ghost_h, &h->own, h->own_h));
    PetscCall(HaloCopy(h, dst, h->ghost_h, h->ghost.count, ELLG_MEMCPY_HTOD));
  }
  if (h->ghost_d) PetscELLGBackendCall(h->backend, ELLGHostScatter, ELLGCudaScatter, (h->stream, h->ghost.count, h->ghost.index_d, h->ghost_d, ghost, 0));
  ELLGHaloCudaCall(h, ELLGCudaComputeWaitExchangeStream(h->exchange));
  PetscCall(PetscLogEventEnd(MATGPU_HaloEnd, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   ELLGHaloReverseBegin - starts sending the ghost parts of a transpose product, ghost (backend
   array, one value per column of the off-diagonal block), back to the ranks that own them; the
   products queued before it are waited for

   Not Collective
*/
PetscErrorCode ELLGHaloReverseBegin(ELLGHalo h, const PetscScalar *ghost)
{
  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(MATGPU_HaloBegin, 0, 0, 0, 0));
  ELLGHaloCudaCall(h, ELLGCudaExchangeStreamWaitCompute(h->exchange));
  h->reverse_src = ghost;
  if (h->ghost_d) {
    PetscELLGBackendCall(h->backend, ELLGHostGather, ELLGCudaGather, (h->stream, h->ghost.count, h->ghost.index_d, ghost, h->ghost_d));
    h->reverse_src = h->ghost_d;
  }
  if (!h->gpu_aware) PetscCall(HaloCopy(h, h->ghost_h, h->reverse_src, h->ghost.count, ELLG_MEMCPY_DTOH));
  PetscCall(PetscLogEventEnd(MATGPU_HaloBegin, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   ELLGHaloReverseEnd - completes the reverse exchange, adding the values received into y (the
   backend array of the local part of the output vector) after the products queued before it

   Collective (with the ranks of the exchange)
*/
PetscErrorCode ELLGHaloReverseEnd(ELLGHalo h, PetscScalar *y)
{
  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(MATGPU_HaloEnd, 0, 0, 0, 0));
  ELLGHaloCudaCall(h, ELLGCudaStreamSynchronize(h->stream));
  if (h->gpu_aware) PetscCall(HaloExchange(h, &h->own, h->own_d, &h->ghost, h->reverse_src));
  else {
    PetscCall(HaloExchange(h, &h->own, h->own_h, &h->ghost, h->ghost_h));
    PetscCall(HaloCopy(h, h->own_d, h->own_h, h->own.count, ELLG_MEMCPY_HTOD));
  }
  h->reverse_src = NULL;
  ELLGHaloCudaCall(h, ELLGCudaComputeWaitExchangeStream(h->exchange));
  /* one neighbour at a time, in order: an owned entry may be a ghost of several */
  for (PetscMPIInt i = 0; i < h->own.n; i++) {
    const PetscInt off = h->own.offset[i];
    const int      cnt = (int)(h->own.offset[i + 1] - off);

    PetscELLGBackendCall(h->backend, ELLGHostScatter, ELLGCudaScatter, (NULL, cnt, h->own.index_d + off, h->own_d + off, y, 1));
  }
  PetscCall(PetscLogEventEnd(MATGPU_HaloEnd, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ASCII info: the exchange of this rank */
PetscErrorCode ELLGHaloView(ELLGHalo h, PetscViewer viewer)
{
  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(viewer, "halo exchange: %d ghost values from %d ranks, %d owned values to %d ranks, %s\n", h->ghost.count, h->ghost.n, h->own.count, h->own.n,
                                   h->gpu_aware ? "GPU-aware MPI on the backend's buffers" : "through pinned host buffers"));
  PetscFunctionReturn(PETSC_SUCCESS);
}
