/*
   Sparse times dense, C = sum_t A_t B_t, with the B_t and C on the host (C column-major with leading
   dimension ldc): the columns go through the backend in chunks of w columns, chunk k in slot k mod S,
   each slot with its own stream and buffers. To start a chunk the host packs its columns of every B_t,
   one after the other, into the slot's pinned buffer; on the slot's stream they are copied to the
   device, the formats' kernels compute the chunk of C (ELLGFormatSpMM(): the first term writes it, the
   others add to it) and it is copied back into the slot's pinned buffer, which the host copies into C
   before it starts the slot's next chunk (or at the end). So while the host packs a chunk, the copies
   and kernels of the S - 1 chunks before it run, and the device holds S chunks whatever the number of
   columns.

   Chunk width and streams: -mat_<format>_spmm_chunk_columns and -mat_<format>_spmm_streams of the
   first term's format, else 3 streams and
     - one chunk (w = L) when the B_t and C hold at most 8 MB (too little to overlap), and on the host
       backend;
     - else ceil(L / 2S) columns, so that each stream takes two chunks or more, but at least 2 MB of
       them (copies that size run near full bandwidth), and no more than the S slots fit in a quarter of
       the free device memory.
   The host backend runs the same loop with its own memory in place of the device's: no streams, no
   pinned buffers; the chunks are packed straight into the slots' buffers. Log event MatGPUSpMMChunks.

   When the B_t and C are in the backend's memory already (device dense matrices), ELLGSpMMApplyBackend()
   runs the formats' kernels on them, all columns at once, on the default stream.
*/
#include <ellgspmm.h>

#define SPMM_DEFAULT_STREAMS 3
#define SPMM_ONE_CHUNK_BYTES (8.0 * 1048576.0)
#define SPMM_MIN_CHUNK_BYTES (2.0 * 1048576.0)

typedef struct {
  void        *stream;       /* cudaStream_t; NULL on the host backend */
  PetscScalar *B, *C, *work; /* backend: the chunk's columns of the B_t, one after the other, and of C; the long rows' sums */
  PetscScalar *hB, *hC;      /* pinned host memory the chunks of B and C are staged in (cuda) */
  PetscInt     j0, w;        /* the chunk in the slot: columns j0 .. j0 + w - 1 of C; w = 0 when none */
} ELLGSpMMSlot;

struct _p_ELLGSpMM {
  PetscELLGBackend backend;
  PetscInt         nslots;
  ELLGSpMMSlot    *slots;
  size_t           bsize, csize, wsize; /* scalars the buffers of each slot hold: B, C, work */
  PetscScalar     *work;                /* backend: the work space of ELLGSpMMApplyBackend(), of worksize scalars */
  size_t           worksize;
};

PetscErrorCode ELLGSpMMCreate(PetscELLGBackend backend, ELLGSpMM *p)
{
  PetscFunctionBegin;
  PetscCall(PetscNew(p));
  (*p)->backend = backend;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* frees the slots; no chunk is in flight (ELLGSpMMApply() waits for all) */
static PetscErrorCode ELLGSpMMFreeSlots(ELLGSpMM p)
{
  PetscFunctionBegin;
  for (PetscInt s = 0; s < p->nslots; s++) {
    ELLGSpMMSlot *slot = &p->slots[s];

    PetscCall(PetscELLGFree(p->backend, slot->B));
    PetscCall(PetscELLGFree(p->backend, slot->C));
    PetscCall(PetscELLGFree(p->backend, slot->work));
#if defined(ELLG_HAVE_CUDA)
    if (p->backend == PETSCELLG_BACKEND_CUDA) {
      PetscCallELLGCuda(ELLGCudaFreeHost(slot->hB));
      PetscCallELLGCuda(ELLGCudaFreeHost(slot->hC));
      PetscCallELLGCuda(ELLGCudaStreamDestroy(slot->stream));
    }
#endif
  }
  PetscCall(PetscFree(p->slots));
  p->nslots = 0;
  p->bsize = p->csize = p->wsize = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ELLGSpMMDestroy(ELLGSpMM *p)
{
  PetscFunctionBegin;
  if (!*p) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(ELLGSpMMFreeSlots(*p));
  PetscCall(PetscELLGFree((*p)->backend, (*p)->work));
  PetscCall(PetscFree(*p));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* S slots whose buffers hold bsize, csize and wsize scalars (chunks of w of the L columns), kept when those
   there are large enough */
/* the buffers of the p->nslots slots (each one's stream and pinned host buffers for cuda); a slot's are in it as
   soon as they are allocated, so that ELLGSpMMFreeSlots() frees them when this fails */
static PetscErrorCode ELLGSpMMAllocSlots(ELLGSpMM p, size_t bsize, size_t csize, size_t wsize)
{
  const size_t sz = sizeof(PetscScalar);

  PetscFunctionBegin;
  for (PetscInt s = 0; s < p->nslots; s++) {
    ELLGSpMMSlot *slot = &p->slots[s];

#if defined(ELLG_HAVE_CUDA)
    if (p->backend == PETSCELLG_BACKEND_CUDA) {
      PetscCallELLGCuda(ELLGCudaStreamCreate(&slot->stream));
      PetscCallELLGCuda(ELLGCudaMallocHost((void **)&slot->hB, sz * bsize));
      PetscCallELLGCuda(ELLGCudaMallocHost((void **)&slot->hC, sz * csize));
    }
#endif
    PetscCall(PetscELLGMalloc(p->backend, sz * bsize, (void **)&slot->B));
    PetscCall(PetscELLGMalloc(p->backend, sz * csize, (void **)&slot->C));
    PetscCall(PetscELLGMalloc(p->backend, sz * wsize, (void **)&slot->work));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ELLGSpMMSetUp(ELLGSpMM p, PetscInt L, PetscInt w, PetscInt S, size_t bsize, size_t csize, size_t wsize)
{
  const size_t   sz = sizeof(PetscScalar);
  PetscErrorCode ierr;

  PetscFunctionBegin;
  if (S == p->nslots && bsize <= p->bsize && csize <= p->csize && wsize <= p->wsize) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(ELLGSpMMFreeSlots(p));
  PetscCall(PetscCalloc1(S, &p->slots));
  p->nslots = S;
  ierr      = ELLGSpMMAllocSlots(p, bsize, csize, wsize);
  if (ierr) PetscCall(ELLGSpMMFreeSlots(p)); /* out of device memory: nothing kept, the next product starts afresh */
  PetscCall(ierr);
  p->bsize = bsize;
  p->csize = csize;
  p->wsize = wsize;
  PetscCall(PetscInfo(NULL, "Sparse times dense with %" PetscInt_FMT " columns: chunks of %" PetscInt_FMT " columns in %" PetscInt_FMT " slots of %.3g MB in the %s backend%s\n", L, w, S, (double)(sz * (bsize + csize + wsize)) / 1048576.0, PetscELLGBackends[p->backend], p->backend == PETSCELLG_BACKEND_CUDA ? ", a stream each (and pinned host memory for the chunks of B and C)" : ""));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the streams S and the columns w of a chunk (see the top of the file); brows, crows: rows of the B_t, of C */
static PetscErrorCode ELLGSpMMChooseChunks(ELLGSpMM p, ELLGFormat f, PetscInt L, PetscInt brows, PetscInt crows, PetscInt *S, PetscInt *w)
{
  PetscFunctionBegin;
  *S = f->spmm_streams ? f->spmm_streams : SPMM_DEFAULT_STREAMS;
  *w = f->spmm_chunk ? f->spmm_chunk : L;
#if defined(ELLG_HAVE_CUDA)
  if (!f->spmm_chunk && p->backend == PETSCELLG_BACKEND_CUDA) {
    const double column = (double)sizeof(PetscScalar) * (double)(brows + crows); /* bytes of a column of the B_t and C */
    size_t       free, total;

    if (column * (double)L > SPMM_ONE_CHUNK_BYTES) {
      PetscCallELLGCuda(ELLGCudaMemGetInfo(&free, &total));
      *w = PetscMax((L + 2 * *S - 1) / (2 * *S), (PetscInt)PetscCeilReal(SPMM_MIN_CHUNK_BYTES / column));
      *w = PetscMin(*w, PetscMax(1, (PetscInt)(0.25 * (double)free / (column * (double)*S))));
    }
  }
#endif
  *w = PetscMin(*w, L);
  *S = PetscMin(*S, (L + *w - 1) / *w); /* a stream per chunk at most */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* columns j0 .. j0 + w - 1 of B_t, packed column-major (leading dimension n) into dst */
static PetscErrorCode ELLGSpMMPack(const ELLGSpMMTerm *t, PetscInt j0, PetscInt w, PetscScalar *dst)
{
  const PetscInt n = t->fmt->n;

  PetscFunctionBegin;
  for (PetscInt j = 0; j < w; j++) {
    const PetscScalar *b = t->B + (j0 + j) * t->cstride;
    PetscScalar       *d = dst + j * n;

    if (t->rstride == 1) PetscCall(PetscArraycpy(d, b, n));
    else
      for (PetscInt i = 0; i < n; i++) d[i] = b[i * t->rstride];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* C = A_t B_t (add: C += A_t B_t) for w columns in the backend's memory, B_t with leading dimension ldb */
static PetscErrorCode ELLGSpMMTermRun(const ELLGSpMMTerm *term, PetscBool add, PetscInt w, const PetscScalar *B, PetscInt ldb, PetscScalar *C, PetscInt ldc, PetscScalar *work, void *stream)
{
  const ELLGFormat   f = term->fmt;
  const ELLGSpMMArgs a = {(int)w, B, (int)ldb, C, (int)ldc, (int)add, work, stream};

  PetscFunctionBegin;
  if (!add || f->nnz) PetscCall(ELLGFormatSpMM(f, &a)); /* the first term writes C, the others add nothing when empty */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* starts the chunk of columns j0 .. j0 + w - 1 in the slot (see the top of the file) */
static PetscErrorCode ELLGSpMMStart(ELLGSpMM p, ELLGSpMMSlot *slot, PetscInt j0, PetscInt w, PetscInt m, PetscInt nterms, const ELLGSpMMTerm terms[])
{
  PetscScalar *pack = p->backend == PETSCELLG_BACKEND_CUDA ? slot->hB : slot->B;
  PetscInt     off  = 0; /* rows of the B_t before term t */

  PetscFunctionBegin;
  for (PetscInt t = 0; t < nterms; t++) {
    PetscCall(ELLGSpMMPack(&terms[t], j0, w, pack + off * w));
    off += terms[t].fmt->n;
  }
#if defined(ELLG_HAVE_CUDA)
  if (p->backend == PETSCELLG_BACKEND_CUDA) PetscCallELLGCuda(ELLGCudaMemcpyAsync(slot->B, slot->hB, sizeof(PetscScalar) * off * w, (int)ELLG_MEMCPY_HTOD, slot->stream));
#endif
  off = 0;
  for (PetscInt t = 0; t < nterms; t++) {
    PetscCall(ELLGSpMMTermRun(&terms[t], (PetscBool)(t > 0), w, slot->B + off * w, terms[t].fmt->n, slot->C, m, slot->work, slot->stream));
    off += terms[t].fmt->n;
  }
#if defined(ELLG_HAVE_CUDA)
  if (p->backend == PETSCELLG_BACKEND_CUDA) PetscCallELLGCuda(ELLGCudaMemcpyAsync(slot->hC, slot->C, sizeof(PetscScalar) * m * w, (int)ELLG_MEMCPY_DTOH, slot->stream));
#endif
  slot->j0 = j0;
  slot->w  = w;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* waits for the chunk in the slot and copies it into C */
static PetscErrorCode ELLGSpMMFinish(ELLGSpMM p, ELLGSpMMSlot *slot, PetscInt m, PetscScalar *C, PetscInt ldc)
{
  const PetscScalar *src = slot->C;

  PetscFunctionBegin;
#if defined(ELLG_HAVE_CUDA)
  if (p->backend == PETSCELLG_BACKEND_CUDA) {
    PetscCallELLGCuda(ELLGCudaStreamSynchronize(slot->stream));
    src = slot->hC;
  }
#endif
  for (PetscInt j = 0; j < slot->w; j++) PetscCall(PetscArraycpy(C + (slot->j0 + j) * ldc, src + j * m, m));
  slot->w = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* checks that the terms' formats are in the backend of p with as many rows as C, of leading dimension
   ldc; brows: the rows of the B_t together */
static PetscErrorCode ELLGSpMMCheckTerms(ELLGSpMM p, PetscInt nterms, const ELLGSpMMTerm terms[], PetscInt ldc, PetscInt *brows)
{
  const PetscInt m = terms[0].fmt->m;

  PetscFunctionBegin;
  *brows = 0;
  for (PetscInt t = 0; t < nterms; t++) {
    PetscCheck(terms[t].fmt->m == m && terms[t].fmt->backend == p->backend, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Term %" PetscInt_FMT " of a sparse times dense product has %" PetscInt_FMT " rows in the %s backend, not %" PetscInt_FMT " in the %s backend", t,
               terms[t].fmt->m, PetscELLGBackends[terms[t].fmt->backend], m, PetscELLGBackends[p->backend]);
    *brows += terms[t].fmt->n;
  }
  PetscCheck(ldc >= m, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Leading dimension %" PetscInt_FMT " of C below its %" PetscInt_FMT " rows", ldc, m);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   ELLGSpMMApply - C = sum_t A_t B_t for the L columns of the B_t, on the host; every term's format must
   be up to date with its matrix, in the backend of p, with as many rows as C (m, leading dimension ldc)
*/
PetscErrorCode ELLGSpMMApply(ELLGSpMM p, PetscInt L, PetscInt nterms, const ELLGSpMMTerm terms[], PetscScalar *C, PetscInt ldc)
{
  const PetscInt m = terms[0].fmt->m;
  PetscInt       brows, S, w, nchunks;
  size_t         wsize = 0;

  PetscFunctionBegin;
  PetscCall(ELLGSpMMCheckTerms(p, nterms, terms, ldc, &brows));
  for (PetscInt s = 0; s < p->nslots; s++) p->slots[s].w = 0; /* a chunk that an earlier product failed to finish is dropped */
  if (!m || !L) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscLogEventBegin(MATGPU_SpMMChunks, 0, 0, 0, 0));
  PetscCall(ELLGSpMMChooseChunks(p, terms[0].fmt, L, brows, m, &S, &w));
  for (PetscInt t = 0; t < nterms; t++) wsize = PetscMax(wsize, ELLGFormatSpMMWorkSize(terms[t].fmt, w));
  PetscCall(ELLGSpMMSetUp(p, L, w, S, (size_t)brows * w, (size_t)m * w, wsize));
  nchunks = (L + w - 1) / w;
  for (PetscInt k = 0; k < nchunks; k++) {
    ELLGSpMMSlot *slot = &p->slots[k % S];

    if (slot->w) PetscCall(ELLGSpMMFinish(p, slot, m, C, ldc));
    PetscCall(ELLGSpMMStart(p, slot, k * w, PetscMin(w, L - k * w), m, nterms, terms));
  }
  for (PetscInt k = PetscMax(0, nchunks - S); k < nchunks; k++) PetscCall(ELLGSpMMFinish(p, &p->slots[k % S], m, C, ldc));
  PetscCall(PetscLogEventEnd(MATGPU_SpMMChunks, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   ELLGSpMMApplyBackend - C = sum_t A_t B_t for the L columns of the B_t, with the B_t and C in the memory
   of the backend of p, column-major (the B_t with rstride 1, leading dimension cstride): the formats'
   kernels run on them directly, all columns at once, on the default stream (that of the vector and
   dense matrix operations); every term's format up to date with its matrix, with as many rows as C
*/
PetscErrorCode ELLGSpMMApplyBackend(ELLGSpMM p, PetscInt L, PetscInt nterms, const ELLGSpMMTerm terms[], PetscScalar *C, PetscInt ldc)
{
  const PetscInt m     = terms[0].fmt->m;
  size_t         wsize = 0;
  PetscInt       brows;

  PetscFunctionBegin;
  PetscCall(ELLGSpMMCheckTerms(p, nterms, terms, ldc, &brows));
  if (!m || !L) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt t = 0; t < nterms; t++) {
    PetscCheck(terms[t].rstride == 1 && terms[t].cstride >= terms[t].fmt->n, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Term %" PetscInt_FMT " of a sparse times dense product in the backend is not column-major", t);
    wsize = PetscMax(wsize, ELLGFormatSpMMWorkSize(terms[t].fmt, L));
  }
  if (wsize > p->worksize) {
    PetscCall(PetscELLGFree(p->backend, p->work));
    p->work     = NULL;
    p->worksize = 0;
    PetscCall(PetscELLGMalloc(p->backend, sizeof(PetscScalar) * wsize, (void **)&p->work));
    p->worksize = wsize;
  }
  for (PetscInt t = 0; t < nterms; t++) PetscCall(ELLGSpMMTermRun(&terms[t], (PetscBool)(t > 0), L, terms[t].B, terms[t].cstride, C, ldc, p->work, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the flops of ELLGSpMMApply() with these terms: a multiply and an add per entry and column, but the
   first entry of each row of the first term */
PetscLogDouble ELLGSpMMFlops(PetscInt L, PetscInt nterms, const ELLGSpMMTerm terms[])
{
  PetscLogDouble flops = 0.0;

  for (PetscInt t = 0; t < nterms; t++) flops += (PetscLogDouble)L * (2.0 * (PetscLogDouble)terms[t].fmt->nnz - (t ? 0.0 : (PetscLogDouble)terms[t].fmt->nzrows));
  return flops;
}
