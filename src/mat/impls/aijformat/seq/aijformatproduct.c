/*
   Sparse products of our seq types in their backend: MatProduct AB, AtB, ABt, PtAP, RARt and ABC whose
   first matrix is of one of our seq types and whose others are of ours or SeqAIJ-based (ellgspgemm.h:
   cuSPARSE's SpGEMM on the device). The result is of the first matrix's type, with its format
   parameters: its AIJ arrays, the master copy, get the pattern and values from the backend, and its
   format is built from them. The numeric phase reuses the symbolic phase's transposes, intermediate
   products and plans, kept in the backend until the product is cleared.

   SeqAIJ's host products stay one option away, as with aijcusparse (-mat_product_algorithm_backend_cpu,
   or -matmatmult_backend_cpu, -matptap_backend_cpu, ... for MatMatMult(), MatPtAP(), ...), and take what
   the backend does not compute: dense operands, an operand bound to the CPU, 64-bit indices. -info says
   which ran.
*/
#include "../aijformat.h"
#include <ellgspgemm.h>

typedef struct {
  ELLGCsrProduct   sp;
  PetscInt         nin;
  PetscObjectState nzstate[3]; /* the operands' nonzero states at the symbolic phase */
  PetscObjectId    id[3];      /* the operands then (MAT_REUSE_MATRIX may bring others, MatProductReplaceMats()) */
  PetscInt         nnz[3];     /* and their entries */
  PetscObjectState cnzstate;   /* the result's, whose pattern the numeric phase writes the values in */
  PetscBool        fresh;      /* the symbolic phase computed the values (MatMatMult()-style calls) */
} MatProductData_SeqAIJFormat;

static PetscErrorCode MatProductDataDestroy_SeqAIJFormat_Sparse_Private(MatProductData_SeqAIJFormat **d)
{
  PetscFunctionBegin;
  PetscCall(ELLGCsrProductDestroy(&(*d)->sp));
  PetscCall(PetscFree(*d));
  PetscFunctionReturn(PETSC_SUCCESS);
}

ELLG_PRODUCT_DESTROY(MatProductDataDestroy_SeqAIJFormat_Sparse, MatProductData_SeqAIJFormat, MatProductDataDestroy_SeqAIJFormat_Sparse_Private)

/* the operands in the order of the product type: A, B (or P, R), and C for ABC */
static void MatProductOperands(Mat_Product *product, Mat op[3])
{
  op[0] = product->A;
  op[1] = product->B;
  op[2] = product->type == MATPRODUCT_ABC ? product->C : NULL;
}

/* the options that send a product to SeqAIJ's host code, as aijcusparse reads them: by the calling
   function's name, or -mat_product_algorithm_backend_cpu for MatProductSetFromOptions() */
static const struct {
  MatProductType type;
  const char    *api, *option;
} MatProductCPUOptions[] = {
  {MATPRODUCT_AB,   "MatMatMult",          "-matmatmult_backend_cpu"         },
  {MATPRODUCT_AtB,  "MatTransposeMatMult", "-mattransposematmult_backend_cpu"},
  {MATPRODUCT_ABt,  "MatMatTransposeMult", "-matmattransposemult_backend_cpu"},
  {MATPRODUCT_PtAP, "MatPtAP",             "-matptap_backend_cpu"            },
  {MATPRODUCT_RARt, "MatRARt",             "-matrart_backend_cpu"            },
  {MATPRODUCT_ABC,  "MatMatMatMult",       "-matmatmatmult_backend_cpu"      },
};

static PetscErrorCode MatProductUseCPU(Mat C, PetscBool *cpu)
{
  Mat_Product *product = C->product;
  char         title[64];

  PetscFunctionBegin;
  *cpu = PETSC_FALSE;
  for (size_t k = 0; k < PETSC_STATIC_ARRAY_LENGTH(MatProductCPUOptions); k++) {
    if (MatProductCPUOptions[k].type != product->type) continue;
    PetscCall(PetscSNPrintf(title, sizeof(title), "MatProduct_%s", MatProductTypes[product->type]));
    MatELLGOptionsBegin(C, product->api_user ? MatProductCPUOptions[k].api : title);
    PetscCall(PetscOptionsBool(product->api_user ? MatProductCPUOptions[k].option : "-mat_product_algorithm_backend_cpu", "Use SeqAIJ's host code", MatProductCPUOptions[k].api, *cpu, cpu, NULL));
    PetscOptionsEnd();
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* why the backend cannot compute the product (NULL: it can) */
static PetscErrorCode MatProductBackendRefusal(Mat C, const char **why)
{
  Mat_Product *product = C->product;
  Mat          op[3];
  PetscInt     nin;
  PetscBool    seq, mpi, aij, bound;

  PetscFunctionBegin;
  *why = NULL;
  PetscCall(ELLGCsrProductSupported(product->type, &nin));
  if (!nin) {
    *why = sizeof(PetscInt) == sizeof(int) ? "a product type the backend does not compute" : "64-bit indices";
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  MatProductOperands(product, op);
  for (PetscInt k = 0; k < nin; k++) {
    PetscCall(MatELLGGetKind(op[k], &seq, &mpi));
    PetscCall(PetscObjectBaseTypeCompare((PetscObject)op[k], MATSEQAIJ, &aij));
    if (!seq && !aij) *why = "an operand that is not sequential AIJ";
    if (seq) {
      PetscCall(MatELLGBoundToCPU(op[k], &bound));
      if (bound) *why = "an operand bound to the CPU";
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* C's block sizes, as PETSc's products give them (PETSc 3.18 leaves them to each implementation):
   PCGAMG takes the aggregates' block size from its prolongator A P0 */
static PetscErrorCode MatProductSetBlockSizes(Mat C)
{
  Mat_Product *product = C->product;
  Mat          A = product->A, B = product->B;

  PetscFunctionBegin;
  switch (product->type) {
  case MATPRODUCT_PtAP:
    PetscCall(MatSetBlockSizes(C, B->cmap->bs, B->cmap->bs));
    break;
  case MATPRODUCT_RARt:
    PetscCall(MatSetBlockSizes(C, B->rmap->bs, B->rmap->bs));
    break;
  case MATPRODUCT_ABC:
    PetscCall(MatSetBlockSizesFromMats(C, A, product->C));
    break;
  case MATPRODUCT_AB:
    PetscCall(MatSetBlockSizesFromMats(C, A, B));
    break;
  case MATPRODUCT_AtB:
    PetscCall(MatSetBlockSizes(C, A->cmap->bs, B->cmap->bs));
    break;
  default: /* ABt */
    PetscCall(MatSetBlockSizes(C, A->rmap->bs, B->rmap->bs));
    break;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* an operand of the numeric phase has the pattern of the symbolic phase's: the same nonzero state of the same
   matrix, or, for another matrix (MAT_REUSE_MATRIX with new operands), the same number of entries (the
   pattern itself is the caller's promise, as with PETSc's products) */
static PetscErrorCode MatProductCheckOperand(Mat M, MatProductData_SeqAIJFormat *d, PetscInt k, const char *type)
{
  const PetscInt *ai, *aj;
  PetscInt        m;
  PetscBool       done, same;

  PetscFunctionBegin;
  if (((PetscObject)M)->id == d->id[k]) same = (PetscBool)(M->nonzerostate == d->nzstate[k]);
  else {
    PetscCall(MatGetRowIJ(M, 0, PETSC_FALSE, PETSC_FALSE, &m, &ai, &aj, &done));
    same = (PetscBool)(done && ai[m] == d->nnz[k]);
    PetscCall(MatRestoreRowIJ(M, 0, PETSC_FALSE, PETSC_FALSE, &m, &ai, &aj, &done));
  }
  PetscCheck(same, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "The nonzero pattern of operand %" PetscInt_FMT " of the %s product changed after its symbolic phase: call MatProductSymbolic() again", k, type);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatProductNumeric_SeqAIJFormat_Sparse(Mat C)
{
  Mat_Product               *product = C->product;
  MatProductData_SeqAIJFormat *d;
  Mat                        op[3];
  const PetscScalar         *a[3];
  PetscScalar               *c;

  PetscFunctionBegin;
  MatCheckProduct(C, 1);
  d = (MatProductData_SeqAIJFormat *)product->data;
  if (d->fresh) { /* the symbolic phase just computed these values */
    d->fresh = PETSC_FALSE;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  /* the values are written in the result's pattern as the symbolic phase made it */
  PetscCheck(C->nonzerostate == d->cnzstate, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "The nonzero pattern of the result of the %s product changed after its symbolic phase: call MatProductSymbolic() again", MatProductTypes[product->type]);
  MatProductOperands(product, op);
  for (PetscInt k = 0; k < d->nin; k++) {
    PetscCall(MatProductCheckOperand(op[k], d, k, MatProductTypes[product->type]));
    PetscCall(MatSeqAIJGetArrayRead(op[k], &a[k]));
  }
  PetscCall(MatSeqAIJGetArrayWrite(C, &c));
  PetscCall(ELLGCsrProductNumeric(d->sp, a, c));
  PetscCall(MatSeqAIJRestoreArrayWrite(C, &c));
  for (PetscInt k = 0; k < d->nin; k++) PetscCall(MatSeqAIJRestoreArrayRead(op[k], &a[k]));
  PetscCall(MatAssemblyBegin(C, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(C, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* C's AIJ arrays from the product's result in the backend (row starts ci), its entries copied in pieces through
   the backend's staging buffer: no host copy of the whole result besides C's own arrays */
static PetscErrorCode MatProductSetResult(Mat C, ELLGCsrProduct sp, PetscELLGBackend be, const PetscInt *ci)
{
  const PetscInt m = C->rmap->n;
  void          *buf;
  size_t         bytes;
  PetscInt       cap;

  PetscFunctionBegin;
  PetscCall(PetscELLGGetStaging(be, &buf, &bytes));
  cap = (PetscInt)(bytes / (sizeof(PetscScalar) + sizeof(PetscInt)));
  PetscCall(MatSeqAIJFormatSetCSRBegin(C, ci));
  for (PetscInt r0 = 0, r1; r0 < m; r0 = r1) {
    PetscScalar *a = (PetscScalar *)buf, *ta = NULL;
    PetscInt    *j = (PetscInt *)(a + cap), *tj = NULL;

    for (r1 = r0 + 1; r1 < m && ci[r1 + 1] - ci[r0] <= cap; r1++);
    if (ci[r1] - ci[r0] > cap) { /* a row longer than the buffer */
      PetscCall(PetscMalloc2(ci[r1] - ci[r0], &tj, ci[r1] - ci[r0], &ta));
      j = tj;
      a = ta;
    }
    PetscCall(ELLGCsrProductGetEntries(sp, ci[r0], ci[r1], j, a));
    PetscCall(MatSeqAIJFormatSetCSRRows(C, r0, r1, ci, j, a));
    PetscCall(PetscFree2(tj, ta));
  }
  PetscCall(MatSeqAIJFormatSetCSREnd(C));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatProductSymbolic_SeqAIJFormat_Sparse(Mat C)
{
  Mat_Product               *product = C->product;
  Mat                        op[3], A;
  MatProductData_SeqAIJFormat *d;
  ELLGCsrInput               in[3];
  ELLGFormat                 fmt;
  PetscInt                   m, n, nnz, *ci;
  size_t                     bytes;
  MatProductType             type;

  PetscFunctionBegin;
  MatCheckProduct(C, 1);
  PetscCheck(!product->data, PetscObjectComm((PetscObject)C), PETSC_ERR_PLIB, "Product data not empty");
  MatProductOperands(product, op);
  A = op[0];
  fmt = ((Mat_SeqAIJFormat *)A->spptr)->fmt; /* its backend and parameters: A's values need not be there */
  type = product->type;
  if ((type == MATPRODUCT_AtB && MatELLGKnownSymmetric(A)) || (type == MATPRODUCT_ABt && MatELLGKnownSymmetric(op[1]))) { /* no transpose to make (PCGAMG's square of its graph) */
    if (type == MATPRODUCT_AtB) product->symbolic_used_the_fact_A_is_symmetric = PETSC_TRUE;
    else product->symbolic_used_the_fact_B_is_symmetric = PETSC_TRUE;
    type = MATPRODUCT_AB;
  }
  PetscCall(PetscNew(&d));
  PetscCall(ELLGCsrProductSupported(type, &d->nin));
  PetscCall(ELLGCsrProductCreate(fmt->backend, type, &d->sp));
  for (PetscInt k = 0; k < d->nin; k++) {
    PetscCall(MatSeqAIJFormatGetCsrInput(op[k], &in[k]));
    d->nzstate[k] = op[k]->nonzerostate;
    d->id[k]      = ((PetscObject)op[k])->id;
    d->nnz[k]     = in[k].i[in[k].m];
  }
  PetscCall(ELLGCsrProductSymbolic(d->sp, in, &m, &n, &ci));
  for (PetscInt k = 0; k < d->nin; k++) PetscCall(MatSeqAIJFormatRestoreCsrInput(op[k], &in[k]));

  /* C: of A's type with A's format parameters, then the result's CSR (one format build, at its assembly) */
  PetscCall(MatSetSizes(C, m, n, m, n));
  PetscCall(MatProductSetBlockSizes(C));
  PetscCall(MatSetType(C, ((PetscObject)A)->type_name));
  PetscCall(MatSeqAIJFormatCopyParameters(fmt, C));
  PetscCall(MatProductSetResult(C, d->sp, fmt->backend, ci));
  nnz = ci[m];
  PetscCall(PetscFree(ci));
  PetscCall(ELLGCsrProductGetBytes(d->sp, &bytes));
  PetscCall(PetscInfo(C, "MatProduct %s of %s in the %s backend: %" PetscInt_FMT " x %" PetscInt_FMT ", %" PetscInt_FMT " nonzeros; %.3g MB kept for the numeric phase\n", MatProductTypes[product->type], ((PetscObject)A)->type_name,
                      PetscELLGBackends[fmt->backend], m, n, nnz, (double)bytes / 1048576.0));
  d->cnzstate            = C->nonzerostate;
  d->fresh               = product->api_user;
  product->data          = d;
  product->destroy       = MatProductDataDestroy_SeqAIJFormat_Sparse;
  C->ops->productnumeric = MatProductNumeric_SeqAIJFormat_Sparse;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   MatProductSetFromOptions_SeqAIJFormat_Sparse - takes the product C (setting its symbolic phase, and
   *taken) when its first operand is of one of our seq types and the others are sequential AIJ: in the
   backend, or with SeqAIJ's host code when the options ask for it or the backend cannot (-info says why)
*/
PetscErrorCode MatProductSetFromOptions_SeqAIJFormat_Sparse(Mat C, PetscBool *taken)
{
  Mat_Product *product = C->product;
  Mat          op[3];
  PetscBool    seq, mpi, aij = PETSC_TRUE, cpu = PETSC_FALSE;
  const char  *why;

  PetscFunctionBegin;
  *taken = PETSC_FALSE;
  MatProductOperands(product, op);
  PetscCall(MatELLGGetKind(op[0], &seq, &mpi));
  for (PetscInt k = 1; k < 3 && op[k] && aij; k++) PetscCall(PetscObjectBaseTypeCompare((PetscObject)op[k], MATSEQAIJ, &aij));
  if (!seq || !aij) PetscFunctionReturn(PETSC_SUCCESS);
  *taken = PETSC_TRUE;
  PetscCall(MatProductBackendRefusal(C, &why));
  if (!why) {
    PetscCall(MatProductUseCPU(C, &cpu));
    if (cpu) why = "the option asks for it";
  }
  if (why) {
    Mat_SeqAIJFormat *e = (Mat_SeqAIJFormat *)op[0]->spptr;

    PetscCall(PetscInfo(C, "MatProduct %s of %s: SeqAIJ's host code (%s)\n", MatProductTypes[product->type], ((PetscObject)op[0])->type_name, why));
    PetscCall(e->aijops.productsetfromoptions(C));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  C->ops->productsymbolic = MatProductSymbolic_SeqAIJFormat_Sparse;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the productsetfromoptions of our seq types: MatProductSetFromOptions() calls it when every operand has
   it, so of our seq types */
PetscErrorCode MatProductSetFromOptions_SeqAIJFormat(Mat C)
{
  PetscBool taken;

  PetscFunctionBegin;
  MatCheckProduct(C, 1);
  PetscCall(MatProductSetFromOptions_SeqAIJFormat_Sparse(C, &taken));
  if (!taken) PetscCall(MatProductSetFromOptions_ELLGAnytype(C));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The products with a dense matrix that run in our formats: C = A B, A of one of our types, B
   MATSEQDENSE (seq types) or MATMPIDENSE (mpi types), or their subclasses MATSEQDENSEGPU and
   MATMPIDENSEGPU. Sets nothing for the others. */
static PetscErrorCode MatProductSetFromOptions_ELLGDense(Mat D)
{
  Mat_Product *product = D->product;
  PetscBool    seq, mpi, dense = PETSC_FALSE;

  PetscFunctionBegin;
  if (product->type != MATPRODUCT_AB) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatELLGGetKind(product->A, &seq, &mpi));
  if (seq || mpi) PetscCall(PetscObjectBaseTypeCompare((PetscObject)product->B, seq ? MATSEQDENSE : MATMPIDENSE, &dense));
  if (!dense) PetscFunctionReturn(PETSC_SUCCESS);
  if (seq) PetscCall(MatProductSetFromOptions_SeqAIJFormat_SeqDense(D));
  else PetscCall(MatProductSetFromOptions_MPIAIJFormat_MPIDense(D));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* whether every operand of the product is sequential AIJ and the first is not of ours */
static PetscErrorCode MatELLGSeqAIJFirst(Mat D, PetscBool *flg)
{
  Mat_Product *product = D->product;
  Mat          mats[3] = {product->A, product->B, product->type == MATPRODUCT_ABC ? product->C : NULL};
  PetscBool    seq, mpi, aij = PETSC_TRUE;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < 3 && mats[i] && aij; i++) PetscCall(PetscObjectBaseTypeCompare((PetscObject)mats[i], MATSEQAIJ, &aij));
  PetscCall(MatELLGGetKind(mats[0], &seq, &mpi));
  *flg = (PetscBool)(aij && !seq);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   MatProductSetFromOptions_anytype_C of our matrices. C = A B with a dense B runs in our formats
   (MatProductSetFromOptions_ELLGDense()); sparse products with A of our seq types and sequential AIJ
   operands in the backend (MatProductSetFromOptions_SeqAIJFormat_Sparse()); with a SeqAIJ-based A, A's
   handler takes them, as SeqAIJ's did when ours shared it. For the other products: PETSc finds the implementation of
   a product of matrices of different types by their type names: MatProductSetFromOptions_<A>_<B>[_<C>]_C,
   composed on one of them (e.g. MatProductSetFromOptions_seqaij_seqmaij_C on a MAIJ matrix, for the
   PtAP of PCHMG and GAMG). Our types are AIJ subclasses: look for the one of SeqAIJ or MPIAIJ in
   their place. When there is none, the anytype handlers of the other matrices get their turn, as
   they would have without ours.
*/
PetscErrorCode MatProductSetFromOptions_ELLGAnytype(Mat D)
{
  Mat_Product *product = D->product;
  Mat          mats[3] = {product->A, product->B, product->type == MATPRODUCT_ABC ? product->C : NULL};
  char         name[256];
  const char  *tname;
  PetscBool    taken, seqaij = PETSC_FALSE;
  PetscErrorCode (*f)(Mat) = NULL;

  PetscFunctionBegin;
  PetscCall(MatProductSetFromOptions_ELLGDense(D));
  if (D->ops->productsymbolic) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatProductSetFromOptions_SeqAIJFormat_Sparse(D, &taken));
  if (taken) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatELLGSeqAIJFirst(D, &seqaij));
  if (seqaij) { /* SeqAIJ-based A, ours among the others: A's own handler, as before ours had one */
    PetscCall((*mats[0]->ops->productsetfromoptions)(D));
    if (D->ops->productsymbolic) PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscStrncpy(name, "MatProductSetFromOptions", sizeof(name)));
  for (PetscInt i = 0; i < 3 && mats[i]; i++) {
    PetscCall(MatELLGProductTypeName(mats[i], &tname));
    PetscCall(PetscStrlcat(name, "_", sizeof(name)));
    PetscCall(PetscStrlcat(name, tname, sizeof(name)));
  }
  PetscCall(PetscStrlcat(name, "_C", sizeof(name)));
  for (PetscInt i = 0; i < 3 && mats[i] && !f; i++) PetscCall(PetscObjectQueryFunction((PetscObject)mats[i], name, &f));
  PetscCall(PetscInfo(D, "querying %s: %s\n", name, f ? "found" : "not found"));
  if (f) PetscCall((*f)(D));
  for (PetscInt i = 0; i < 3 && mats[i] && !D->ops->productsymbolic; i++) {
    PetscCall(PetscObjectQueryFunction((PetscObject)mats[i], "MatProductSetFromOptions_anytype_C", &f));
    if (f && f != MatProductSetFromOptions_ELLGAnytype) PetscCall((*f)(D));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
