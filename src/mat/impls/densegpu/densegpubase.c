/*
   Device dense matrices: the operations and composed functions of the dense base type (SeqDense or
   MPIDense), which read and write its host array directly, run through wrappers that keep the two
   copies of the values right around them (see densegpuimpl.h).
*/
#include "densegpuimpl.h"

/* the seqdensegpu holding the values of M (M itself, or the local block of an mpidensegpu); NULL when
   M is not a device dense matrix or has no local block (yet) */
PetscErrorCode MatDenseGPUGetValues_Private(Mat M, Mat *S)
{
  PetscBool match;

  PetscFunctionBegin;
  *S = NULL;
  if (!M) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscObjectTypeCompare((PetscObject)M, MATSEQDENSEGPU, &match));
  if (match) *S = M;
  else {
    PetscCall(PetscObjectTypeCompare((PetscObject)M, MATMPIDENSEGPU, &match));
    if (match) PetscCall(MatDenseGetLocalMatrix(M, S));
    if (*S) PetscCall(PetscObjectTypeCompare((PetscObject)*S, MATSEQDENSEGPU, &match));
    if (!match) *S = NULL;
  }
  if (*S && !(*S)->spptr) *S = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* errors unless A is a device dense matrix; func names the caller */
PetscErrorCode MatDenseGPUCheckType_Private(Mat A, const char func[])
{
  PetscBool match;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompareAny((PetscObject)A, &match, MATSEQDENSEGPU, MATMPIDENSEGPU, ""));
  PetscCheck(match, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_WRONG, "%s() needs a device dense matrix (%s or %s), not one of type %s", func, MATSEQDENSEGPU, MATMPIDENSEGPU, ((PetscObject)A)->type_name);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* before host code of the base type uses the values of M (any matrix: nothing happens unless it is a
   device dense matrix) as mode says: reading brings the host copy up to date, writing makes it the
   valid copy */
PetscErrorCode MatDenseGPUHostBegin_Private(Mat M, ELLGAccess mode)
{
  Mat S;

  PetscFunctionBegin;
  if (mode == ELLG_ACCESS_NONE) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatDenseGPUGetValues_Private(M, &S));
  if (S) PetscCall(ELLGMirrorHostBegin(&MatDenseGPUData(S)->mirror, mode));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* after it: the local block of an mpidensegpu that MPIDense made anew is converted; after writing, the
   host copy is the valid one (unless the operation itself ended on the backend) */
PetscErrorCode MatDenseGPUHostEnd_Private(Mat M, ELLGAccess mode)
{
  Mat       S;
  PetscBool mpi;

  PetscFunctionBegin;
  if (!M) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscObjectTypeCompare((PetscObject)M, MATMPIDENSEGPU, &mpi));
  if (mpi && M->spptr) PetscCall((*MatDenseGPUData(M)->adoptlocal)(M));
  if (mode != ELLG_ACCESS_WRITE && mode != ELLG_ACCESS_READ_WRITE) PetscFunctionReturn(PETSC_SUCCESS); /* nothing to mark */
  PetscCall(MatDenseGPUGetValues_Private(M, &S));
  if (S) ELLGMirrorHostEnd(&MatDenseGPUData(S)->mirror, mode);
  PetscFunctionReturn(PETSC_SUCCESS);
}

#define HOST_BEGIN(M, mode) PetscCall(MatDenseGPUHostBegin_Private(M, mode))
#define HOST_END(M, mode)   PetscCall(MatDenseGPUHostEnd_Private(M, mode))
#define R                   ELLG_ACCESS_READ
#define W                   ELLG_ACCESS_WRITE
#define RW                  ELLG_ACCESS_READ_WRITE
#define N                   ELLG_ACCESS_NONE

/*
   The operations SeqDense and MPIDense set (PETSc 3.18 to 3.26), but productsetfromoptions, which uses no
   values and must stay the base one (PETSc takes a product of two matrices with the same
   productsetfromoptions to be theirs), and destroy: OP(op, self, mode, params, args, before, after)
   - self: the matrix whose operation it is (the product C for the numeric phases of products)
   - mode: how the operation uses the values of self
   - before, after: statements for the other matrices among the arguments (inputs read, outputs reused)
*/
#define MAT_DENSEGPU_BASE_OPS(OP) \
  OP(setvalues, A, RW, (Mat A, PetscInt m, const PetscInt im[], PetscInt n, const PetscInt in[], const PetscScalar v[], InsertMode addv), (A, m, im, n, in, v, addv), , ) \
  OP(getrow, A, R, (Mat A, PetscInt row, PetscInt *nz, PetscInt *idx[], PetscScalar *v[]), (A, row, nz, idx, v), , ) \
  OP(restorerow, A, N, (Mat A, PetscInt row, PetscInt *nz, PetscInt *idx[], PetscScalar *v[]), (A, row, nz, idx, v), , ) \
  OP(mult, A, R, (Mat A, Vec x, Vec y), (A, x, y), , ) \
  OP(multadd, A, R, (Mat A, Vec x, Vec y, Vec z), (A, x, y, z), , ) \
  OP(multtranspose, A, R, (Mat A, Vec x, Vec y), (A, x, y), , ) \
  OP(multtransposeadd, A, R, (Mat A, Vec x, Vec y, Vec z), (A, x, y, z), , ) \
  OP(multhermitiantranspose, A, R, (Mat A, Vec x, Vec y), (A, x, y), , ) \
  OP(multhermitiantransposeadd, A, R, (Mat A, Vec x, Vec y, Vec z), (A, x, y, z), , ) \
  OP(setinf, A, W, (Mat A), (A), , ) \
  OP(lufactor, A, RW, (Mat A, IS row, IS col, const MatFactorInfo *info), (A, row, col, info), , ) \
  OP(choleskyfactor, A, RW, (Mat A, IS perm, const MatFactorInfo *info), (A, perm, info), , ) \
  OP(sor, A, R, (Mat A, Vec b, PetscReal omega, MatSORType flag, PetscReal shift, PetscInt its, PetscInt lits, Vec x), (A, b, omega, flag, shift, its, lits, x), , ) \
  OP(transpose, A, reuse == MAT_INPLACE_MATRIX ? RW : R, (Mat A, MatReuse reuse, Mat *B), (A, reuse, B), if (reuse == MAT_REUSE_MATRIX) HOST_BEGIN(*B, W), if (reuse == MAT_REUSE_MATRIX) HOST_END(*B, W)) \
  OP(getinfo, A, N, (Mat A, MatInfoType flag, MatInfo *info), (A, flag, info), , ) \
  OP(equal, A, R, (Mat A, Mat B, PetscBool *flg), (A, B, flg), HOST_BEGIN(B, R), ) \
  OP(getdiagonal, A, R, (Mat A, Vec v), (A, v), , ) \
  OP(diagonalscale, A, RW, (Mat A, Vec l, Vec r), (A, l, r), , ) \
  OP(norm, A, R, (Mat A, NormType type, PetscReal *nrm), (A, type, nrm), , ) \
  OP(assemblybegin, A, N, (Mat A, MatAssemblyType type), (A, type), , ) \
  OP(assemblyend, A, N, (Mat A, MatAssemblyType type), (A, type), , ) \
  OP(setoption, A, N, (Mat A, MatOption option, PetscBool flg), (A, option, flg), , ) \
  OP(zeroentries, A, W, (Mat A), (A), , ) \
  OP(zerorows, A, RW, (Mat A, PetscInt n, const PetscInt rows[], PetscScalar diag, Vec x, Vec b), (A, n, rows, diag, x, b), , ) \
  OP(setup, A, N, (Mat A), (A), , ) \
  OP(getdiagonalblock, A, R, (Mat A, Mat *a), (A, a), , ) \
  OP(duplicate, A, op == MAT_COPY_VALUES ? R : N, (Mat A, MatDuplicateOption op, Mat *B), (A, op, B), , ) \
  OP(axpy, Y, RW, (Mat Y, PetscScalar a, Mat X, MatStructure str), (Y, a, X, str), HOST_BEGIN(X, R), ) \
  OP(createsubmatrices, A, R, (Mat A, PetscInt n, const IS irow[], const IS icol[], MatReuse scall, Mat *submat[]), (A, n, irow, icol, scall, submat), \
     for (PetscInt i = 0; scall == MAT_REUSE_MATRIX && i < n; i++) HOST_BEGIN((*submat)[i], W), for (PetscInt i = 0; scall == MAT_REUSE_MATRIX && i < n; i++) HOST_END((*submat)[i], W)) \
  OP(getvalues, A, R, (Mat A, PetscInt m, const PetscInt im[], PetscInt n, const PetscInt in[], PetscScalar v[]), (A, m, im, n, in, v), , ) \
  OP(copy, A, R, (Mat A, Mat B, MatStructure str), (A, B, str), HOST_BEGIN(B, W), HOST_END(B, W)) \
  OP(getrowmax, A, R, (Mat A, Vec v, PetscInt idx[]), (A, v, idx), , ) \
  OP(scale, A, RW, (Mat A, PetscScalar a), (A, a), , ) \
  OP(shift, A, RW, (Mat A, PetscScalar a), (A, a), , ) \
  OP(zerorowscolumns, A, RW, (Mat A, PetscInt n, const PetscInt rows[], PetscScalar diag, Vec x, Vec b), (A, n, rows, diag, x, b), , ) \
  OP(setrandom, A, W, (Mat A, PetscRandom r), (A, r), , ) \
  OP(createsubmatrix, A, R, (Mat A, IS isrow, IS iscol, MatReuse reuse, Mat *B), (A, isrow, iscol, reuse, B), if (reuse == MAT_REUSE_MATRIX) HOST_BEGIN(*B, W), if (reuse == MAT_REUSE_MATRIX) HOST_END(*B, W)) \
  OP(view, A, R, (Mat A, PetscViewer viewer), (A, viewer), , ) \
  OP(getrowmaxabs, A, R, (Mat A, Vec v, PetscInt idx[]), (A, v, idx), , ) \
  OP(load, A, W, (Mat A, PetscViewer viewer), (A, viewer), , ) \
  OP(issymmetric, A, R, (Mat A, PetscReal tol, PetscBool *flg), (A, tol, flg), , ) \
  OP(ishermitian, A, R, (Mat A, PetscReal tol, PetscBool *flg), (A, tol, flg), , ) \
  OP(matmultnumeric, C, W, (Mat A, Mat B, Mat C), (A, B, C), HOST_BEGIN(A, R); HOST_BEGIN(B, R), ) \
  OP(mattransposemultsymbolic, C, N, (Mat A, Mat B, PetscReal fill, Mat C), (A, B, fill, C), , ) \
  OP(mattransposemultnumeric, C, W, (Mat A, Mat B, Mat C), (A, B, C), HOST_BEGIN(A, R); HOST_BEGIN(B, R), ) \
  OP(conjugate, A, RW, (Mat A), (A), , ) \
  OP(realpart, A, RW, (Mat A), (A), , ) \
  OP(imaginarypart, A, RW, (Mat A), (A), , ) \
  OP(getrowmin, A, R, (Mat A, Vec v, PetscInt idx[]), (A, v, idx), , ) \
  OP(getcolumnvector, A, R, (Mat A, Vec v, PetscInt col), (A, v, col), , ) \
  ELLG_IF_MATOP_MISSINGDIAGONAL(OP(missingdiagonal, A, R, (Mat A, PetscBool *missing, PetscInt *dd), (A, missing, dd), , )) \
  OP(getcolumnreductions, A, R, (Mat A, PetscInt type, PetscReal *reductions), (A, type, reductions), , ) \
  OP(transposematmultsymbolic, C, N, (Mat A, Mat B, PetscReal fill, Mat C), (A, B, fill, C), , ) \
  OP(transposematmultnumeric, C, W, (Mat A, Mat B, Mat C), (A, B, C), HOST_BEGIN(A, R); HOST_BEGIN(B, R), ) \
  OP(creatempimatconcatenateseqmat, inmat, R, (MPI_Comm comm, Mat inmat, PetscInt n, MatReuse scall, Mat *outmat), (comm, inmat, n, scall, outmat), if (scall == MAT_REUSE_MATRIX) HOST_BEGIN(*outmat, W), \
     if (scall == MAT_REUSE_MATRIX) HOST_END(*outmat, W))

/* MatDenseGPUBase_<op>: the base operation with the host copy made right around it */
#define MAT_DENSEGPU_WRAPPER(op, self, mode, params, args, before, after) \
  PETSC_INTERN PetscErrorCode MatDenseGPUBase_##op params; \
  PetscErrorCode              MatDenseGPUBase_##op params \
  { \
    const ELLGAccess access = (mode); \
    PetscErrorCode(*base) params   = MatDenseGPUData(self)->baseops.op; \
\
    PetscFunctionBegin; \
    before; \
    HOST_BEGIN(self, access); \
    PetscCall((*base)args); \
    HOST_END(self, access); \
    after; \
    PetscFunctionReturn(PETSC_SUCCESS); \
  }
MAT_DENSEGPU_BASE_OPS(MAT_DENSEGPU_WRAPPER)
#undef MAT_DENSEGPU_WRAPPER

/*
   sets the wrappers in place of the base operations of A (whose Mat_DenseGPU holds them), and checks
   that no operation of the base type is left unwrapped: PETSc versions after 3.26 may have more
   (type: the base type, for the message)
*/
PetscErrorCode MatDenseGPUWrapBaseOps_Private(Mat A, const char type[])
{
  Mat_DenseGPU         *d      = MatDenseGPUData(A);
  const size_t          nops   = sizeof(struct _MatOps) / sizeof(PetscErrorCode(*)(void));
  const size_t          keep[] = {offsetof(struct _MatOps, productsetfromoptions), offsetof(struct _MatOps, destroy)};
  PetscErrorCode (**ops)(void) = (PetscErrorCode(**)(void))A->ops;

  PetscFunctionBegin;
#define MAT_DENSEGPU_INSTALL(op, ...) \
  if (A->ops->op) A->ops->op = MatDenseGPUBase_##op;
  MAT_DENSEGPU_BASE_OPS(MAT_DENSEGPU_INSTALL)
#undef MAT_DENSEGPU_INSTALL
  for (size_t i = 0; i < nops; i++) {
    PetscBool kept = PETSC_FALSE;

    for (size_t k = 0; k < PETSC_STATIC_ARRAY_LENGTH(keep); k++) kept = (PetscBool)(kept || keep[k] == i * sizeof(*ops));
    PetscCheck(!ops[i] || kept || ops[i] != ((PetscErrorCode(**)(void))&d->baseops)[i], PETSC_COMM_SELF, PETSC_ERR_SUP, "%s sets operation %d (MatOperation), which %s does not wrap: this PETSc is not the one it was written for", type, (int)i, ((PetscObject)A)->type_name);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* gives A back the base operations where ours still are (other code may have set some since) */
PetscErrorCode MatDenseGPUUnwrap_Private(Mat A)
{
  Mat_DenseGPU *d    = MatDenseGPUData(A);
  const size_t  nops = sizeof(struct _MatOps) / sizeof(PetscErrorCode(*)(void));
  PetscErrorCode (**ops)(void) = (PetscErrorCode(**)(void))A->ops;

  PetscFunctionBegin;
  for (size_t i = 0; i < nops; i++)
    if (ops[i] == ((PetscErrorCode(**)(void))&d->gpuops)[i]) ops[i] = ((PetscErrorCode(**)(void))&d->baseops)[i];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   MatConvert() from a device dense matrix to another type finds MatConvert_<type>_<to>_C composed on
   it: the base type's conversion to <to>, run on the host copy brought up to date. MatConvert()
   tries the names with <to> = seq<newtype>, mpi<newtype> and <newtype>: so does this.
*/
static PetscErrorCode MatConvert_DenseGPU_Base(Mat A, MatType newtype, MatReuse reuse, Mat *B)
{
  const char *prefix[] = {"seq", "mpi", ""};
  const char *base     = MatDenseGPUData(A)->mpi ? MATMPIDENSE : MATSEQDENSE;
  char        name[256];
  PetscErrorCode (*conv)(Mat, MatType, MatReuse, Mat *) = NULL;

  PetscFunctionBegin;
  for (size_t i = 0; i < PETSC_STATIC_ARRAY_LENGTH(prefix) && !conv; i++) {
    PetscCall(PetscSNPrintf(name, sizeof(name), "MatConvert_%s_%s%s_C", base, prefix[i], newtype));
    PetscCall(PetscObjectQueryFunction((PetscObject)A, name, &conv));
  }
  PetscCheck(conv, PETSC_COMM_SELF, PETSC_ERR_PLIB, "No conversion of %s to %s", base, newtype);
  PetscCall(MatDenseGPUHostBegin_Private(A, reuse == MAT_INPLACE_MATRIX ? ELLG_ACCESS_READ_WRITE : ELLG_ACCESS_READ));
  PetscCall((*conv)(A, newtype, reuse, B));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* out = in with every token from (between underscores) replaced by to; found: whether there was one */
static PetscErrorCode MatDenseGPURenameToken(const char in[], const char from[], const char to[], char out[], size_t len, PetscBool *found)
{
  const char *s = in;

  PetscFunctionBegin;
  out[0] = 0;
  *found = PETSC_FALSE;
  while (*s) {
    const char *e = strchr(s, '_');
    size_t      n = e ? (size_t)(e - s) : strlen(s);
    PetscBool   match;

    match = (PetscBool)(n == strlen(from) && !strncmp(s, from, n));
    if (match) PetscCall(PetscStrlcat(out, to, len));
    else {
      const size_t l = strlen(out);

      PetscCheck(l + n < len, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Function name too long: %s", in);
      PetscCall(PetscStrncpy(out + l, s, n + 1));
    }
    *found = (PetscBool)(*found || match);
    if (!e) break;
    PetscCall(PetscStrlcat(out, "_", len));
    s = e + 1;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   PETSc finds conversions and products of matrices of different types by their type names,
   MatConvert_<from>_<to>_C and MatProductSetFromOptions_<A>_<B>_C, composed on one of them. compose:
   for each such function of the base type composed on A, compose one with the name of A's type in
   place of the base's: for conversions from the base to another type the wrapper above, for products
   the base's function itself, which reaches the values through the accessors; or (compose = FALSE)
   remove those. The conversions between the base type and A's type are A's own: left alone.
*/
PetscErrorCode MatDenseGPUComposeBaseFunctions_Private(Mat A, const char base[], const char type[], PetscBool compose)
{
  const char  *from = compose ? base : type;
  const char **names;
  char         cprefix[64];
  size_t       clen;
  int          n;

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(cprefix, sizeof(cprefix), "MatConvert_%s_", from));
  PetscCall(PetscStrlen(cprefix, &clen));
  PetscCall(PetscFunctionListGet(((PetscObject)A)->qlist, &names, &n));
  for (int i = 0; i < n && names[i]; i++) { /* PETSc 3.18 ends the array with a NULL, which n counts; later versions do not */
    char      name[256];
    PetscBool conv, prod, ours = PETSC_FALSE, found = PETSC_FALSE;
    ELLGVoidFunction f = NULL;

    PetscCall(PetscStrncmp(names[i], cprefix, clen, &conv));
    PetscCall(PetscStrbeginswith(names[i], "MatProductSetFromOptions_", &prod));
    if (conv) PetscCall(PetscStrbeginswith(names[i] + clen, base, &ours));
    if ((conv && !ours) || prod) PetscCall(MatDenseGPURenameToken(names[i], from, compose ? type : base, name, sizeof(name), &found));
    if (!found) continue;
    if (!compose) PetscCall(PetscObjectComposeFunction((PetscObject)A, names[i], NULL));
    else {
      if (conv) f = (ELLGVoidFunction)MatConvert_DenseGPU_Base;
      else PetscCall(PetscObjectQueryFunction((PetscObject)A, names[i], &f));
      PetscCall(PetscObjectComposeFunction((PetscObject)A, name, f));
    }
  }
  PetscCall(PetscFree(names));
  PetscFunctionReturn(PETSC_SUCCESS);
}
