/* Sparse matrix products as programs of CSR transposes and products in a backend (ellgspgemm.h) */
#include <ellgspgemm.h>
#if defined(ELLG_HAVE_CUDA)
  #include <ellgspgemmdevice.h>
#endif

/* the CSR operations of a backend (as ELLGHostCsr* in ellgspgemm.h) */
typedef struct {
  PetscErrorCode (*create)(PetscInt, PetscInt, const PetscInt *, const PetscInt *, const PetscScalar *, void **);
  PetscErrorCode (*setvalues)(void *, const PetscScalar *);
  PetscErrorCode (*transpose)(void *, void **);
  PetscErrorCode (*multiply)(void *, void *, void **, void **);
  PetscErrorCode (*multadd)(void *, const PetscScalar *, const PetscScalar *, PetscScalar *);
  PetscErrorCode (*getsize)(void *, PetscInt *, PetscInt *, PetscInt *);
  PetscErrorCode (*download)(void *, PetscInt *, PetscInt, PetscInt, PetscInt *, PetscScalar *); /* row starts, entries k0 to k1 */
  PetscErrorCode (*bytes)(void *, size_t *);
  PetscErrorCode (*planbytes)(void *, size_t *);
  PetscErrorCode (*destroy)(void *);
  PetscErrorCode (*plandestroy)(void *);
} ELLGCsrOps;

static const ELLGCsrOps ELLGCsrOps_Host = {ELLGHostCsrCreate, ELLGHostCsrSetValues, ELLGHostCsrTranspose, ELLGHostCsrMultiply, ELLGHostCsrMultAdd, ELLGHostCsrGetSize, ELLGHostCsrDownload, ELLGHostCsrBytes, ELLGHostCsrPlanBytes, ELLGHostCsrDestroy, ELLGHostCsrPlanDestroy};

#if defined(ELLG_HAVE_CUDA)
/* the device's operations in PETSc's calling convention (PetscInt and int are the same: see ELLGCsrProductSupported()) */
static PetscErrorCode CudaCreate(PetscInt m, PetscInt n, const PetscInt *i, const PetscInt *j, const PetscScalar *a, void **csr)
{
  PetscFunctionBegin;
  PetscCallELLGCuda(ELLGCudaCsrCreate((int)m, (int)n, (const int *)i, (const int *)j, a, csr));
  PetscCall(PetscELLGLogCopy(PETSCELLG_BACKEND_CUDA, sizeof(int) * (size_t)(m + 1 + i[m]) + (a ? sizeof(PetscScalar) * (size_t)i[m] : 0), ELLG_MEMCPY_HTOD));
  PetscFunctionReturn(PETSC_SUCCESS);
}
static PetscErrorCode CudaSetValues(void *csr, const PetscScalar *a)
{
  int m, n, nnz;

  PetscFunctionBegin;
  PetscCallELLGCuda(ELLGCudaCsrSetValues(csr, a));
  PetscCallELLGCuda(ELLGCudaCsrGetSize(csr, &m, &n, &nnz));
  PetscCall(PetscELLGLogCopy(PETSCELLG_BACKEND_CUDA, sizeof(PetscScalar) * (size_t)nnz, ELLG_MEMCPY_HTOD));
  PetscFunctionReturn(PETSC_SUCCESS);
}
static PetscErrorCode CudaTranspose(void *csr, void **t)
{
  PetscFunctionBegin;
  PetscCallELLGCuda(ELLGCudaCsrTranspose(csr, t));
  PetscFunctionReturn(PETSC_SUCCESS);
}
static PetscErrorCode CudaMultiply(void *x, void *y, void **z, void **plan)
{
  PetscFunctionBegin;
  PetscCallELLGCuda(ELLGCudaCsrMultiply(x, y, z, plan));
  PetscFunctionReturn(PETSC_SUCCESS);
}
static PetscErrorCode CudaMultAdd(void *csr, const PetscScalar *x, const PetscScalar *z, PetscScalar *y)
{
  PetscFunctionBegin;
  PetscCallELLGCuda(ELLGCudaCsrMultAdd(csr, x, z, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}
static PetscErrorCode CudaGetSize(void *csr, PetscInt *m, PetscInt *n, PetscInt *nnz)
{
  int im, in, innz;

  PetscFunctionBegin;
  PetscCallELLGCuda(ELLGCudaCsrGetSize(csr, &im, &in, &innz));
  *m   = im;
  *n   = in;
  *nnz = innz;
  PetscFunctionReturn(PETSC_SUCCESS);
}
static PetscErrorCode CudaDownload(void *csr, PetscInt *i, PetscInt k0, PetscInt k1, PetscInt *j, PetscScalar *a)
{
  int m, n, nnz;

  PetscFunctionBegin;
  PetscCallELLGCuda(ELLGCudaCsrDownload(csr, (int *)i, (long)k0, (long)k1, (int *)j, a));
  PetscCallELLGCuda(ELLGCudaCsrGetSize(csr, &m, &n, &nnz));
  PetscCall(PetscELLGLogCopy(PETSCELLG_BACKEND_CUDA, (i ? sizeof(int) * (size_t)(m + 1) : 0) + (size_t)(k1 - k0) * ((j ? sizeof(int) : 0) + (a ? sizeof(PetscScalar) : 0)), ELLG_MEMCPY_DTOH));
  PetscFunctionReturn(PETSC_SUCCESS);
}
static PetscErrorCode CudaBytes(void *csr, size_t *bytes)
{
  PetscFunctionBegin;
  PetscCallELLGCuda(ELLGCudaCsrBytes(csr, bytes));
  PetscFunctionReturn(PETSC_SUCCESS);
}
static PetscErrorCode CudaPlanBytes(void *plan, size_t *bytes)
{
  PetscFunctionBegin;
  PetscCallELLGCuda(ELLGCudaCsrPlanBytes(plan, bytes));
  PetscFunctionReturn(PETSC_SUCCESS);
}
static PetscErrorCode CudaDestroy(void *csr)
{
  PetscFunctionBegin;
  PetscCallELLGCuda(ELLGCudaCsrDestroy(csr));
  PetscFunctionReturn(PETSC_SUCCESS);
}
static PetscErrorCode CudaPlanDestroy(void *plan)
{
  PetscFunctionBegin;
  PetscCallELLGCuda(ELLGCudaCsrPlanDestroy(plan));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static const ELLGCsrOps ELLGCsrOps_Cuda = {CudaCreate, CudaSetValues, CudaTranspose, CudaMultiply, CudaMultAdd, CudaGetSize, CudaDownload, CudaBytes, CudaPlanBytes, CudaDestroy, CudaPlanDestroy};
#endif

static const ELLGCsrOps *ELLGCsrGetOps(PetscELLGBackend be)
{
#if defined(ELLG_HAVE_CUDA)
  if (be == PETSCELLG_BACKEND_CUDA) return &ELLGCsrOps_Cuda;
#endif
  return &ELLGCsrOps_Host;
}

struct _n_ELLGCsrMat {
  const ELLGCsrOps *ops;
  void             *csr;
};

/* ELLGCsrMatCreateTranspose - in's transpose in the backend: in uploaded, transposed there, and let go */
PetscErrorCode ELLGCsrMatCreateTranspose(PetscELLGBackend be, const ELLGCsrInput *in, ELLGCsrMat *t)
{
  void          *csr = NULL;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(PetscNew(t));
  (*t)->ops = ELLGCsrGetOps(be);
  ierr      = (*t)->ops->create(in->m, in->n, in->i, in->j, in->a, &csr);
  if (!ierr) ierr = (*t)->ops->transpose(csr, &(*t)->csr);
  PetscCall((*t)->ops->destroy(csr));
  if (ierr) PetscCall(ELLGCsrMatDestroy(t)); /* what a failed upload or transpose allocated is freed */
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ELLGCsrMatGetHost - t's size and CSR in new host arrays (PetscFree() each) */
PetscErrorCode ELLGCsrMatGetHost(ELLGCsrMat t, PetscInt *m, PetscInt *n, PetscInt **i, PetscInt **j, PetscScalar **a)
{
  PetscInt nnz;

  PetscFunctionBegin;
  PetscCall(t->ops->getsize(t->csr, m, n, &nnz));
  PetscCall(PetscMalloc1(*m + 1, i));
  PetscCall(PetscMalloc1(nnz, j));
  PetscCall(PetscMalloc1(nnz, a));
  PetscCall(t->ops->download(t->csr, *i, 0, nnz, *j, *a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ELLGCsrMatMultAdd - y = T x + z in the backend's memory (z NULL: none; z may be y) */
PetscErrorCode ELLGCsrMatMultAdd(ELLGCsrMat t, const PetscScalar *x, const PetscScalar *z, PetscScalar *y)
{
  PetscFunctionBegin;
  PetscCall(t->ops->multadd(t->csr, x, z, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ELLGCsrMatGetBytes(ELLGCsrMat t, size_t *bytes)
{
  PetscFunctionBegin;
  PetscCall(t->ops->bytes(t->csr, bytes));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ELLGCsrMatDestroy(ELLGCsrMat *t)
{
  PetscFunctionBegin;
  if (!*t) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall((*t)->ops->destroy((*t)->csr));
  PetscCall(PetscFree(*t));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A program works on six slots: the inputs in 0-2, transposes and intermediate products after them, the
   result in slot 5. Step 'T': slot dst = x^T; step 'M': slot dst = x y. */
#define ELLG_CSR_SLOTS  6
#define ELLG_CSR_RESULT 5

typedef struct {
  char op;
  int  dst, x, y;
} ELLGCsrStep;

typedef struct {
  MatProductType type;
  PetscInt       nin, nsteps;
  ELLGCsrStep    step[3];
} ELLGCsrProgram;

static const ELLGCsrProgram ELLGCsrPrograms[] = {
  {MATPRODUCT_AB,   2, 1, {{'M', 5, 0, 1}}                                },
  {MATPRODUCT_AtB,  2, 2, {{'T', 3, 0, 0}, {'M', 5, 3, 1}}                },
  {MATPRODUCT_ABt,  2, 2, {{'T', 3, 1, 1}, {'M', 5, 0, 3}}                },
  {MATPRODUCT_PtAP, 2, 3, {{'T', 3, 1, 1}, {'M', 4, 0, 1}, {'M', 5, 3, 4}}}, /* P^T (A P) */
  {MATPRODUCT_RARt, 2, 3, {{'T', 3, 1, 1}, {'M', 4, 0, 3}, {'M', 5, 1, 4}}}, /* R (A R^T) */
  {MATPRODUCT_ABC,  3, 2, {{'M', 4, 0, 1}, {'M', 5, 4, 2}}                }, /* (A B) C */
};

struct _n_ELLGCsrProduct {
  const ELLGCsrOps     *ops;
  const ELLGCsrProgram *prog;
  void                 *slot[ELLG_CSR_SLOTS], *plan[ELLG_CSR_SLOTS];
};

/*
   ELLGCsrProductSupported - the number of inputs of a product of this type (2 or 3), or 0 where it is
   not computed here: a type without a program, or PetscInt wider than the device's 32-bit indices
*/
PetscErrorCode ELLGCsrProductSupported(MatProductType type, PetscInt *nin)
{
  PetscFunctionBegin;
  *nin = 0;
  if (sizeof(PetscInt) != sizeof(int) || sizeof(PetscScalar) != sizeof(double)) PetscFunctionReturn(PETSC_SUCCESS);
  for (size_t k = 0; k < PETSC_STATIC_ARRAY_LENGTH(ELLGCsrPrograms); k++)
    if (ELLGCsrPrograms[k].type == type) *nin = ELLGCsrPrograms[k].nin;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ELLGCsrProductCreate(PetscELLGBackend be, MatProductType type, ELLGCsrProduct *p)
{
  PetscInt nin;

  PetscFunctionBegin;
  PetscCall(ELLGCsrProductSupported(type, &nin));
  PetscCheck(nin, PETSC_COMM_SELF, PETSC_ERR_SUP, "No sparse product %s in the backends", MatProductTypes[type]);
  PetscCall(PetscNew(p));
  for (size_t k = 0; k < PETSC_STATIC_ARRAY_LENGTH(ELLGCsrPrograms); k++)
    if (ELLGCsrPrograms[k].type == type) (*p)->prog = &ELLGCsrPrograms[k];
  (*p)->ops = ELLGCsrGetOps(be);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* runs the program (MATGPU_SpGEMM logs it with the uploads and downloads around it): the first time (no result yet) it makes the patterns and plans, then only values */
static PetscErrorCode ELLGCsrProductRun(ELLGCsrProduct p)
{
  PetscFunctionBegin;
  for (PetscInt s = 0; s < p->prog->nsteps; s++) {
    const ELLGCsrStep *st = &p->prog->step[s];

    if (st->op == 'T') PetscCall(p->ops->transpose(p->slot[st->x], &p->slot[st->dst]));
    else PetscCall(p->ops->multiply(p->slot[st->x], p->slot[st->y], &p->slot[st->dst], &p->plan[st->dst]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   ELLGCsrProductSymbolic - the result of the product of the inputs (prog->nin of them, as the MatProduct
   type orders its matrices): its size m x n and its row starts in a new host array (PetscFree(i)); the
   result stays in the backend, whence ELLGCsrProductGetEntries() copies its entries
*/
PetscErrorCode ELLGCsrProductSymbolic(ELLGCsrProduct p, const ELLGCsrInput in[], PetscInt *m, PetscInt *n, PetscInt **i)
{
  PetscInt nnz;

  PetscFunctionBegin;
  PetscCheck(!p->slot[ELLG_CSR_RESULT], PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "The symbolic phase of this product was done");
  PetscCall(PetscLogEventBegin(MATGPU_SpGEMM, 0, 0, 0, 0));
  for (PetscInt k = 0; k < p->prog->nin; k++) PetscCall(p->ops->create(in[k].m, in[k].n, in[k].i, in[k].j, in[k].a, &p->slot[k]));
  PetscCall(ELLGCsrProductRun(p));
  PetscCall(p->ops->getsize(p->slot[ELLG_CSR_RESULT], m, n, &nnz));
  PetscCall(PetscMalloc1(*m + 1, i));
  PetscCall(p->ops->download(p->slot[ELLG_CSR_RESULT], *i, 0, 0, NULL, NULL));
  PetscCall(PetscLogEventEnd(MATGPU_SpGEMM, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ELLGCsrProductGetEntries - the column indices and values of the result's entries k0 to k1 - 1 (in the order of
   its rows), into host arrays j and a: a copy in pieces, logged with the symbolic product that calls it, not
   with MATGPU_SpGEMM (one per run of the product) */
PetscErrorCode ELLGCsrProductGetEntries(ELLGCsrProduct p, PetscInt k0, PetscInt k1, PetscInt *j, PetscScalar *a)
{
  PetscFunctionBegin;
  PetscCheck(p->slot[ELLG_CSR_RESULT], PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "The entries of a product come after its symbolic phase");
  PetscCall(p->ops->download(p->slot[ELLG_CSR_RESULT], NULL, k0, k1, j, a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ELLGCsrProductNumeric - the result's values into c (its pattern as the symbolic phase gave it), from new
   values a[k] of the inputs in their patterns */
PetscErrorCode ELLGCsrProductNumeric(ELLGCsrProduct p, const PetscScalar *const a[], PetscScalar *c)
{
  PetscInt m, n, nnz;

  PetscFunctionBegin;
  PetscCheck(p->slot[ELLG_CSR_RESULT], PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "The numeric phase of a product comes after its symbolic phase");
  PetscCall(PetscLogEventBegin(MATGPU_SpGEMM, 0, 0, 0, 0));
  for (PetscInt k = 0; k < p->prog->nin; k++) PetscCall(p->ops->setvalues(p->slot[k], a[k]));
  PetscCall(ELLGCsrProductRun(p));
  PetscCall(p->ops->getsize(p->slot[ELLG_CSR_RESULT], &m, &n, &nnz));
  PetscCall(p->ops->download(p->slot[ELLG_CSR_RESULT], NULL, 0, nnz, NULL, c));
  PetscCall(PetscLogEventEnd(MATGPU_SpGEMM, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ELLGCsrProductGetBytes - the backend memory the product keeps for its numeric phase */
PetscErrorCode ELLGCsrProductGetBytes(ELLGCsrProduct p, size_t *bytes)
{
  size_t b;

  PetscFunctionBegin;
  *bytes = 0;
  for (PetscInt s = 0; s < ELLG_CSR_SLOTS; s++) {
    if (p->slot[s]) {
      PetscCall(p->ops->bytes(p->slot[s], &b));
      *bytes += b;
    }
    if (p->plan[s]) {
      PetscCall(p->ops->planbytes(p->plan[s], &b));
      *bytes += b;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ELLGCsrProductDestroy(ELLGCsrProduct *p)
{
  PetscFunctionBegin;
  if (!*p) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt s = 0; s < ELLG_CSR_SLOTS; s++) {
    PetscCall((*p)->ops->destroy((*p)->slot[s]));
    PetscCall((*p)->ops->plandestroy((*p)->plan[s]));
  }
  PetscCall(PetscFree(*p));
  PetscFunctionReturn(PETSC_SUCCESS);
}
