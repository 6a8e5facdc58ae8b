static char help[] = "Sparse products of matrices of one of our types (MatProduct AB, AtB, ABt, PtAP, RARt, ABC) against the\n\
same products of AIJ copies of their operands. On one process: random rectangular operands with empty rows, a\n\
full row and explicit zeros, all-empty ones, and one square matrix as every operand; operands all of our seq\n\
type, ours first with SeqAIJ ones after it, and SeqAIJ first with ours after it (not for A B^T: PETSc's SeqAIJ\n\
code loses B^T of a SeqAIJ subclass B). Products whose first operand is ours run in the backend (log event\n\
MatGPUSpGEMM: one run per MatProduct phase; the MatMatMult()-style functions compute the values in their symbolic\n\
phase) and give a result of that operand's type: its size, nonzeros, values and MatMult (the result's format)\n\
against AIJ's; the numeric phase again after new values of every operand in the same patterns; the\n\
MatMatMult()-style functions with MAT_INITIAL_MATRIX, then MAT_REUSE_MATRIX after new values;\n\
-matptap_backend_cpu and -mat_product_algorithm_backend_cpu send PtAP to SeqAIJ's host code (no MatGPUSpGEMM); a\n\
new nonzero in an operand or in the result after the symbolic phase makes the numeric phase fail with\n\
PETSC_ERR_ARG_WRONGSTATE. On several processes: MatPtAP and MatMatMult of our mpi type (with ours or MPIAIJ as\n\
the other operand), initial and reused after new values, against MPIAIJ's; MPIAIJ's PtAP multiplies our seq\n\
blocks in the backend. A product's result comes to the host in pieces of -ellg_staging_bytes (small: many pieces,\n\
and rows longer than one). Prints pass/fail lines only, the same for every type.\n\
  -type <ellg,pjds,slicedell>: the type (root name); its options apply (MatSetFromOptions)\n\n";

#include "ellgtest.h"

#define WIDTH 66 /* of the descriptions in the result lines */

/* the operands' sizes: A m x k (k x m for AtB, k x k for PtAP and RARt), the others to match, the result m x n
   (n x n for PtAP and RARt) */
#define SIZE_M 23
#define SIZE_K 31
#define SIZE_N 17
#define SIZE_L 19

static const MatProductType ProductTypes[] = {MATPRODUCT_AB, MATPRODUCT_AtB, MATPRODUCT_ABt, MATPRODUCT_PtAP, MATPRODUCT_RARt, MATPRODUCT_ABC};

/* how the operands are made: all random, the first or the last one without entries, or one square random matrix
   for every operand (C = A A, A^T A, A A^T, A^T A A, A A A^T, A A A) */
typedef enum {
  CASE_RANDOM,
  CASE_EMPTY_FIRST,
  CASE_EMPTY_LAST,
  CASE_SAME
} OperandCase;
static const char *const CaseNames[] = {"random", "empty first", "empty last", "one matrix"};

/* the operands' types: all ours, ours first and SeqAIJ after it, SeqAIJ first and ours after it */
typedef enum {
  MIX_OURS,
  MIX_OURS_AIJ,
  MIX_AIJ_OURS
} OperandMix;
static const char *const MixNames[] = {"ours", "ours x aij", "aij x ours"};

/* SetShape - operand i is rows x cols */
static void SetShape(PetscInt shape[][2], PetscInt i, PetscInt rows, PetscInt cols)
{
  shape[i][0] = rows;
  shape[i][1] = cols;
}

/* Shapes - the number of operands of a product of type t and their sizes (rows, columns) */
static PetscErrorCode Shapes(MatProductType t, PetscInt *nin, PetscInt shape[3][2])
{
  const PetscInt m = SIZE_M, k = SIZE_K, n = SIZE_N, l = SIZE_L;

  PetscFunctionBeginUser;
  *nin = t == MATPRODUCT_ABC ? 3 : 2;
  switch (t) {
  case MATPRODUCT_AB: /* (m x k) (k x n) */
    SetShape(shape, 0, m, k);
    SetShape(shape, 1, k, n);
    break;
  case MATPRODUCT_AtB: /* (k x m)^T (k x n) */
    SetShape(shape, 0, k, m);
    SetShape(shape, 1, k, n);
    break;
  case MATPRODUCT_ABt: /* (m x k) (n x k)^T */
    SetShape(shape, 0, m, k);
    SetShape(shape, 1, n, k);
    break;
  case MATPRODUCT_PtAP: /* (k x n)^T (k x k) (k x n) */
    SetShape(shape, 0, k, k);
    SetShape(shape, 1, k, n);
    break;
  case MATPRODUCT_RARt: /* (n x k) (k x k) (n x k)^T */
    SetShape(shape, 0, k, k);
    SetShape(shape, 1, n, k);
    break;
  case MATPRODUCT_ABC: /* (m x k) (k x l) (l x n) */
    SetShape(shape, 0, m, k);
    SetShape(shape, 1, k, l);
    SetShape(shape, 2, l, n);
    break;
  default:
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "No product type %d here", (int)t);
  }
  PetscFunctionReturn(0);
}

/* ApiName - the MatMatMult()-style function of a product type */
static const char *ApiName(MatProductType t)
{
  switch (t) {
  case MATPRODUCT_AB:
    return "MatMatMult";
  case MATPRODUCT_AtB:
    return "MatTransposeMatMult";
  case MATPRODUCT_ABt:
    return "MatMatTransposeMult";
  case MATPRODUCT_PtAP:
    return "MatPtAP";
  case MATPRODUCT_RARt:
    return "MatRARt";
  case MATPRODUCT_ABC:
    return "MatMatMatMult";
  default:
    return "?";
  }
}

/* ProductApi - *C = the product of type t of X[] with its MatMatMult()-style function */
static PetscErrorCode ProductApi(MatProductType t, Mat X[], MatReuse reuse, Mat *C)
{
  PetscFunctionBeginUser;
  switch (t) {
  case MATPRODUCT_AB:
    PetscCall(MatMatMult(X[0], X[1], reuse, PETSC_DEFAULT, C));
    break;
  case MATPRODUCT_AtB:
    PetscCall(MatTransposeMatMult(X[0], X[1], reuse, PETSC_DEFAULT, C));
    break;
  case MATPRODUCT_ABt:
    PetscCall(MatMatTransposeMult(X[0], X[1], reuse, PETSC_DEFAULT, C));
    break;
  case MATPRODUCT_PtAP:
    PetscCall(MatPtAP(X[0], X[1], reuse, PETSC_DEFAULT, C));
    break;
  case MATPRODUCT_RARt:
    PetscCall(MatRARt(X[0], X[1], reuse, PETSC_DEFAULT, C));
    break;
  case MATPRODUCT_ABC:
    PetscCall(MatMatMatMult(X[0], X[1], X[2], reuse, PETSC_DEFAULT, C));
    break;
  default:
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "No product type %d here", (int)t);
  }
  PetscFunctionReturn(0);
}

/* ProductSymbolic - the product of type t of X[] through the MatProduct interface, up to its symbolic phase */
static PetscErrorCode ProductSymbolic(MatProductType t, Mat X[], Mat *C)
{
  PetscFunctionBeginUser;
  PetscCall(MatProductCreate(X[0], X[1], t == MATPRODUCT_ABC ? X[2] : NULL, C));
  PetscCall(MatProductSetType(*C, t));
  PetscCall(MatProductSetFromOptions(*C));
  PetscCall(MatProductSymbolic(*C));
  PetscFunctionReturn(0);
}

/* OperandCSR - operand i of nin (rows x columns) for the case: no entries when the case empties it, else random
   entries (5% of them explicit zeros) with every fifth row empty from the third on and the second row full */
static PetscErrorCode OperandCSR(OperandCase cs, PetscInt i, PetscInt nin, PetscInt M, PetscInt N, unsigned long seed, CSR *c)
{
  PetscInt *len;
  PetscBool empty = (PetscBool)((cs == CASE_EMPTY_FIRST && i == 0) || (cs == CASE_EMPTY_LAST && i == nin - 1));

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(M, &len));
  for (PetscInt r = 0; r < M; r++) len[r] = empty || r % 5 == 2 ? 0 : r == 1 ? N : -1;
  PetscCall(CSRRandom("operand", M, N, 0.15, 0.05, len, seed, c));
  PetscCall(PetscFree(len));
  PetscFunctionReturn(0);
}

/* NewValues - new values in the same pattern, as MatScale() and MatSetValues(ADD_VALUES) give them: X / 2, plus 1 in
   the first entry of every third row of this process that has entries (c: X's CSR); assembled */
static PetscErrorCode NewValues(Mat X, const CSR *c)
{
  PetscInt rstart, rend;

  PetscFunctionBeginUser;
  PetscCall(MatScale(X, 0.5));
  PetscCall(MatGetOwnershipRange(X, &rstart, &rend));
  for (PetscInt i = rstart; i < rend; i++)
    if (i % 3 == 0 && c->ia[i + 1] > c->ia[i]) PetscCall(MatSetValue(X, i, c->ja[c->ia[i]], 1.0, ADD_VALUES));
  PetscCall(Assemble(X, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

/* CheckResult - C against the reference Cref: C's type (when type is not NULL), sizes, nonzeros (MatGetInfo()),
   values (|| C - Cref ||_F <= RTOL || Cref ||_F) and C x against Cref x for a random x (MatMult on vectors of
   MatCreateVecs(), so through C's format); prints what failed and clears *ok */
static PetscErrorCode CheckResult(Mat C, Mat Cref, const char *type, PetscRandom rnd, const char *what, PetscBool *ok)
{
  MPI_Comm  comm = PetscObjectComm((PetscObject)Cref);
  PetscInt  M, N, Mr, Nr;
  MatInfo   info, inforef;
  PetscBool same;

  PetscFunctionBeginUser;
  if (type) {
    MatType ctype;

    PetscCall(MatGetType(C, &ctype));
    PetscCall(PetscStrcmp(ctype, type, &same));
    if (!same) {
      *ok = PETSC_FALSE;
      PetscCall(PetscPrintf(comm, "    FAILED %s: the result is of type %s, expected %s\n", what, ctype, type));
    }
  }
  PetscCall(MatGetSize(C, &M, &N));
  PetscCall(MatGetSize(Cref, &Mr, &Nr));
  if (M != Mr || N != Nr) {
    *ok = PETSC_FALSE;
    PetscCall(PetscPrintf(comm, "    FAILED %s: the result is %" PetscInt_FMT " x %" PetscInt_FMT ", AIJ's %" PetscInt_FMT " x %" PetscInt_FMT "\n", what, M, N, Mr, Nr));
    PetscFunctionReturn(0);
  }
  PetscCall(MatGetInfo(C, MAT_GLOBAL_SUM, &info));
  PetscCall(MatGetInfo(Cref, MAT_GLOBAL_SUM, &inforef));
  if (info.nz_used != inforef.nz_used) {
    *ok = PETSC_FALSE;
    PetscCall(PetscPrintf(comm, "    FAILED %s: the result has %g nonzeros, AIJ's %g\n", what, (double)info.nz_used, (double)inforef.nz_used));
  }
  PetscCall(CheckMat(C, Cref, rnd, what, ok));
  PetscFunctionReturn(0);
}

/* CheckRuns - whether the backend's products ran expected times since *count, which it then updates; prints what
   failed and clears *ok */
static PetscErrorCode CheckRuns(PetscLogDouble *count, PetscLogDouble expected, const char *what, PetscBool *ok)
{
  PetscLogDouble now;

  PetscFunctionBeginUser;
  PetscCall(EventCount("MatGPUSpGEMM", &now));
  if (now - *count != expected) {
    *ok = PETSC_FALSE;
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "    FAILED %s: MatGPUSpGEMM ran %g times, expected %g\n", what, (double)(now - *count), (double)expected));
  }
  *count = now;
  PetscFunctionReturn(0);
}

/* CheckProduct - the product of type t of the operands of the case and mix (CASE_SAME: MIX_OURS only) against AIJ's:
   through MatProduct (symbolic and numeric phases, then the numeric phase after new values), and through its
   MatMatMult()-style function (MAT_INITIAL_MATRIX, then MAT_REUSE_MATRIX after new values). With our first operand,
   the result is of its type and each phase runs in the backend (the MatMatMult()-style function's symbolic phase
   computes the values, its numeric phase then runs nothing); with SeqAIJ's first, SeqAIJ's code computes it */
static PetscErrorCode CheckProduct(MatProductType t, OperandCase cs, OperandMix mix, const char *seq, PetscRandom rnd, PetscInt *nfail)
{
  PetscInt       nin, nmat, shape[3][2];
  CSR            c[3];
  Mat            X[3], R[3], C, Cref;
  PetscLogDouble count;
  PetscBool      ok, backend = (PetscBool)(mix != MIX_AIJ_OURS);
  const char    *restype = backend ? seq : NULL;
  char           name[64], what[64];

  PetscFunctionBeginUser;
  PetscCall(Shapes(t, &nin, shape));
  if (cs == CASE_SAME) SetShape(shape, 0, SIZE_K, SIZE_K);
  nmat = cs == CASE_SAME ? 1 : nin; /* the operands made; the others are the first */
  if (cs == CASE_SAME) PetscCall(PetscSNPrintf(name, sizeof(name), "%s %s", MatProductTypes[t], CaseNames[cs]));
  else PetscCall(PetscSNPrintf(name, sizeof(name), "%s %s, %s", MatProductTypes[t], CaseNames[cs], MixNames[mix]));
  for (PetscInt i = 0; i < nmat; i++) {
    PetscBool ours = (PetscBool)(mix == MIX_OURS || (mix == MIX_OURS_AIJ && i == 0) || (mix == MIX_AIJ_OURS && i > 0));

    PetscCall(OperandCSR(cs, i, nin, shape[i][0], shape[i][1], 100 * (unsigned long)t + 10 * (unsigned long)cs + (unsigned long)i, &c[i]));
    PetscCall(CreateMatCSR(PETSC_COMM_SELF, PETSC_DECIDE, PETSC_DECIDE, &c[i], ours ? seq : MATSEQAIJ, &X[i]));
    PetscCall(CreateMatCSR(PETSC_COMM_SELF, PETSC_DECIDE, PETSC_DECIDE, &c[i], MATSEQAIJ, &R[i]));
  }
  for (PetscInt i = nmat; i < nin; i++) {
    X[i] = X[0];
    R[i] = R[0];
  }

  /* MatProduct: symbolic and numeric phases; the numeric phase again after new values */
  ok = PETSC_TRUE;
  PetscCall(EventCount("MatGPUSpGEMM", &count));
  PetscCall(ProductSymbolic(t, X, &C));
  PetscCall(MatProductNumeric(C));
  PetscCall(CheckRuns(&count, backend ? 2 : 0, "symbolic and numeric", &ok));
  PetscCall(ProductApi(t, R, MAT_INITIAL_MATRIX, &Cref));
  PetscCall(CheckResult(C, Cref, restype, rnd, "symbolic and numeric", &ok));
  PetscCall(MatDestroy(&Cref));
  for (PetscInt i = 0; i < nmat; i++) {
    PetscCall(NewValues(X[i], &c[i]));
    PetscCall(NewValues(R[i], &c[i]));
  }
  PetscCall(MatProductNumeric(C));
  PetscCall(CheckRuns(&count, backend ? 1 : 0, "numeric after new values", &ok));
  PetscCall(ProductApi(t, R, MAT_INITIAL_MATRIX, &Cref));
  PetscCall(CheckResult(C, Cref, restype, rnd, "numeric after new values", &ok));
  PetscCall(MatDestroy(&Cref));
  PetscCall(MatDestroy(&C));
  PetscCall(PrintNamedResult(PETSC_COMM_SELF, WIDTH, name, "MatProduct, new values", ok, nfail));

  /* the MatMatMult()-style function, then with MAT_REUSE_MATRIX after new values */
  ok = PETSC_TRUE;
  PetscCall(ProductApi(t, X, MAT_INITIAL_MATRIX, &C));
  PetscCall(CheckRuns(&count, backend ? 1 : 0, "MAT_INITIAL_MATRIX", &ok));
  PetscCall(ProductApi(t, R, MAT_INITIAL_MATRIX, &Cref));
  PetscCall(CheckResult(C, Cref, restype, rnd, "MAT_INITIAL_MATRIX", &ok));
  PetscCall(MatDestroy(&Cref));
  for (PetscInt i = 0; i < nmat; i++) {
    PetscCall(NewValues(X[i], &c[i]));
    PetscCall(NewValues(R[i], &c[i]));
  }
  PetscCall(ProductApi(t, X, MAT_REUSE_MATRIX, &C));
  PetscCall(CheckRuns(&count, backend ? 1 : 0, "MAT_REUSE_MATRIX", &ok));
  PetscCall(ProductApi(t, R, MAT_INITIAL_MATRIX, &Cref));
  PetscCall(CheckResult(C, Cref, restype, rnd, "MAT_REUSE_MATRIX", &ok));
  PetscCall(MatDestroy(&Cref));
  PetscCall(MatDestroy(&C));
  PetscCall(PetscSNPrintf(what, sizeof(what), "%s initial, reuse", ApiName(t)));
  PetscCall(PrintNamedResult(PETSC_COMM_SELF, WIDTH, name, what, ok, nfail));

  for (PetscInt i = 0; i < nmat; i++) {
    PetscCall(MatDestroy(&X[i]));
    PetscCall(MatDestroy(&R[i]));
    PetscCall(CSRDestroy(&c[i]));
  }
  PetscFunctionReturn(0);
}

/* CheckCPUOptions - -matptap_backend_cpu (MatPtAP) and -mat_product_algorithm_backend_cpu (MatProduct) send the
   PtAP of operands of ours to SeqAIJ's host code: AIJ's result, MatGPUSpGEMM does not run; without them it runs again */
static PetscErrorCode CheckCPUOptions(const char *seq, PetscRandom rnd, PetscInt *nfail)
{
  PetscInt       nin, shape[3][2];
  CSR            c[2];
  Mat            X[2], R[2], C, Cref;
  PetscLogDouble count;
  PetscBool      ok;

  PetscFunctionBeginUser;
  PetscCall(Shapes(MATPRODUCT_PtAP, &nin, shape));
  for (PetscInt i = 0; i < nin; i++) {
    PetscCall(OperandCSR(CASE_RANDOM, i, nin, shape[i][0], shape[i][1], 1000 + (unsigned long)i, &c[i]));
    PetscCall(CreateMatCSR(PETSC_COMM_SELF, PETSC_DECIDE, PETSC_DECIDE, &c[i], seq, &X[i]));
    PetscCall(CreateMatCSR(PETSC_COMM_SELF, PETSC_DECIDE, PETSC_DECIDE, &c[i], MATSEQAIJ, &R[i]));
  }
  PetscCall(EventCount("MatGPUSpGEMM", &count));

  /* MatPtAP with -matptap_backend_cpu, initial and reused after new values */
  ok = PETSC_TRUE;
  PetscCall(PetscOptionsSetValue(NULL, "-matptap_backend_cpu", NULL));
  PetscCall(MatPtAP(X[0], X[1], MAT_INITIAL_MATRIX, PETSC_DEFAULT, &C));
  PetscCall(MatPtAP(R[0], R[1], MAT_INITIAL_MATRIX, PETSC_DEFAULT, &Cref));
  PetscCall(CheckRuns(&count, 0, "MatPtAP, -matptap_backend_cpu", &ok));
  PetscCall(CheckResult(C, Cref, NULL, rnd, "MatPtAP, -matptap_backend_cpu", &ok));
  PetscCall(MatDestroy(&Cref));
  for (PetscInt i = 0; i < nin; i++) {
    PetscCall(NewValues(X[i], &c[i]));
    PetscCall(NewValues(R[i], &c[i]));
  }
  PetscCall(MatPtAP(X[0], X[1], MAT_REUSE_MATRIX, PETSC_DEFAULT, &C));
  PetscCall(MatPtAP(R[0], R[1], MAT_INITIAL_MATRIX, PETSC_DEFAULT, &Cref));
  PetscCall(CheckRuns(&count, 0, "MatPtAP reuse, -matptap_backend_cpu", &ok));
  PetscCall(CheckResult(C, Cref, NULL, rnd, "MatPtAP reuse, -matptap_backend_cpu", &ok));
  PetscCall(MatDestroy(&Cref));
  PetscCall(MatDestroy(&C));
  PetscCall(PetscOptionsClearValue(NULL, "-matptap_backend_cpu"));
  PetscCall(PrintResult(PETSC_COMM_SELF, WIDTH, "PtAP -matptap_backend_cpu: MatPtAP in SeqAIJ's code", ok, nfail));

  /* MatProduct with -mat_product_algorithm_backend_cpu */
  ok = PETSC_TRUE;
  PetscCall(PetscOptionsSetValue(NULL, "-mat_product_algorithm_backend_cpu", NULL));
  PetscCall(ProductSymbolic(MATPRODUCT_PtAP, X, &C));
  PetscCall(MatProductNumeric(C));
  PetscCall(MatPtAP(R[0], R[1], MAT_INITIAL_MATRIX, PETSC_DEFAULT, &Cref));
  PetscCall(CheckRuns(&count, 0, "MatProduct, -mat_product_algorithm_backend_cpu", &ok));
  PetscCall(CheckResult(C, Cref, NULL, rnd, "MatProduct, -mat_product_algorithm_backend_cpu", &ok));
  PetscCall(MatDestroy(&Cref));
  PetscCall(MatDestroy(&C));
  PetscCall(PetscOptionsClearValue(NULL, "-mat_product_algorithm_backend_cpu"));
  PetscCall(PrintResult(PETSC_COMM_SELF, WIDTH, "PtAP -mat_product_algorithm_backend_cpu: in SeqAIJ's code", ok, nfail));

  /* without the options: the backend again */
  ok = PETSC_TRUE;
  PetscCall(MatPtAP(X[0], X[1], MAT_INITIAL_MATRIX, PETSC_DEFAULT, &C));
  PetscCall(MatPtAP(R[0], R[1], MAT_INITIAL_MATRIX, PETSC_DEFAULT, &Cref));
  PetscCall(CheckRuns(&count, 1, "MatPtAP, options cleared", &ok));
  PetscCall(CheckResult(C, Cref, seq, rnd, "MatPtAP, options cleared", &ok));
  PetscCall(MatDestroy(&Cref));
  PetscCall(MatDestroy(&C));
  PetscCall(PrintResult(PETSC_COMM_SELF, WIDTH, "PtAP, options cleared: MatPtAP in the backend", ok, nfail));

  for (PetscInt i = 0; i < nin; i++) {
    PetscCall(MatDestroy(&X[i]));
    PetscCall(MatDestroy(&R[i]));
    PetscCall(CSRDestroy(&c[i]));
  }
  PetscFunctionReturn(0);
}

/* NewNonzero - a nonzero at (row, 0) of X, where there was none; assembled */
static PetscErrorCode NewNonzero(Mat X, PetscInt row)
{
  PetscFunctionBeginUser;
  PetscCall(MatSetOption(X, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
  PetscCall(MatSetValue(X, row, 0, 1.0, INSERT_VALUES));
  PetscCall(Assemble(X, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

/* CheckBadUse - a new nonzero after the symbolic phase, in the first operand (ours), in the second (ours or SeqAIJ)
   or in the result: the numeric phase of MatProduct, or MatMatMult with MAT_REUSE_MATRIX, fails with
   PETSC_ERR_ARG_WRONGSTATE; a new product of the operands then gives AIJ's result */
static PetscErrorCode CheckBadUse(const char *seq, PetscRandom rnd, PetscInt *nfail)
{
  const char *const which[] = {"new nonzero in A", "new nonzero in B (ours)", "new nonzero in B (aij)", "new nonzero in C"};
  PetscInt          nin, shape[3][2];
  CSR               c[2];
  Mat               X[2], R[2], C, Cref;
  PetscErrorCode    ierr;
  PetscBool         ok;
  char              name[64];

  PetscFunctionBeginUser;
  PetscCall(Shapes(MATPRODUCT_AB, &nin, shape));
  for (PetscInt w = 0; w < 4; w++) {
    const PetscInt changed = w ? 1 : 0;

    for (PetscInt api = 0; api < 2; api++) {
      ok = PETSC_TRUE;
      for (PetscInt i = 0; i < nin; i++) {
        PetscCall(OperandCSR(CASE_RANDOM, i, nin, shape[i][0], shape[i][1], 2000 + (unsigned long)i, &c[i]));
        PetscCall(CreateMatCSR(PETSC_COMM_SELF, PETSC_DECIDE, PETSC_DECIDE, &c[i], i == 1 && w == 2 ? MATSEQAIJ : seq, &X[i]));
        PetscCall(CreateMatCSR(PETSC_COMM_SELF, PETSC_DECIDE, PETSC_DECIDE, &c[i], MATSEQAIJ, &R[i]));
      }
      if (api) PetscCall(MatMatMult(X[0], X[1], MAT_INITIAL_MATRIX, PETSC_DEFAULT, &C));
      else {
        PetscCall(ProductSymbolic(MATPRODUCT_AB, X, &C));
        PetscCall(MatProductNumeric(C));
      }
      /* row 2 of each operand, and so of C, is empty (OperandCSR()) */
      if (w == 3) PetscCall(NewNonzero(C, 2));
      else {
        PetscCall(NewNonzero(X[changed], 2));
        PetscCall(NewNonzero(R[changed], 2));
      }
      PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
      if (api) ierr = MatMatMult(X[0], X[1], MAT_REUSE_MATRIX, PETSC_DEFAULT, &C);
      else ierr = MatProductNumeric(C);
      PetscCall(PetscPopErrorHandler());
      if (ierr != PETSC_ERR_ARG_WRONGSTATE) {
        ok = PETSC_FALSE;
        PetscCall(PetscPrintf(PETSC_COMM_SELF, "    FAILED: error %d, expected PETSC_ERR_ARG_WRONGSTATE (%d)\n", (int)ierr, (int)PETSC_ERR_ARG_WRONGSTATE));
      }
      PetscCall(MatDestroy(&C));
      /* a new product of the operands */
      PetscCall(MatMatMult(X[0], X[1], MAT_INITIAL_MATRIX, PETSC_DEFAULT, &C));
      PetscCall(MatMatMult(R[0], R[1], MAT_INITIAL_MATRIX, PETSC_DEFAULT, &Cref));
      PetscCall(CheckResult(C, Cref, seq, rnd, "a new product", &ok));
      PetscCall(MatDestroy(&C));
      PetscCall(MatDestroy(&Cref));
      for (PetscInt i = 0; i < nin; i++) {
        PetscCall(MatDestroy(&X[i]));
        PetscCall(MatDestroy(&R[i]));
        PetscCall(CSRDestroy(&c[i]));
      }
      PetscCall(PetscSNPrintf(name, sizeof(name), "AB %s", which[w]));
      PetscCall(PrintNamedResult(PETSC_COMM_SELF, WIDTH, name, api ? "MatMatMult reuse fails, wrong state" : "MatProductNumeric fails, wrong state", ok, nfail));
    }
  }
  PetscFunctionReturn(0);
}

/* CheckMPI - MatPtAP (A square, P rectangular) and MatMatMult (A times a rectangular B) of our mpi type, with the
   second operand ours or MPIAIJ, against MPIAIJ's products of AIJ copies: initial, then reused after new values of
   both operands */
static PetscErrorCode CheckMPI(const char *mpi, PetscRandom rnd, PetscInt *nfail)
{
  MPI_Comm       comm = PETSC_COMM_WORLD;
  CSR            c[2];
  Mat            X[2], R[2], C, Cref;
  PetscInt       nin, shape[3][2];
  PetscLogDouble count, now;
  PetscBool      ran;
  char           name[64], what[64];

  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < 2; k++) {
    const MatProductType t = k ? MATPRODUCT_AB : MATPRODUCT_PtAP;

    PetscCall(Shapes(t, &nin, shape));
    if (t == MATPRODUCT_AB) SetShape(shape, 0, SIZE_K, SIZE_K); /* a square A, as PtAP's */
    for (PetscInt second = 0; second < 2; second++) {
      PetscBool ok = PETSC_TRUE;

      for (PetscInt i = 0; i < nin; i++) {
        PetscCall(OperandCSR(CASE_RANDOM, i, nin, shape[i][0], shape[i][1], 3000 + 10 * (unsigned long)k + (unsigned long)i, &c[i]));
        PetscCall(CreateMatCSR(comm, PETSC_DECIDE, PETSC_DECIDE, &c[i], i == 1 && second ? MATMPIAIJ : mpi, &X[i]));
        PetscCall(CreateMatCSR(comm, PETSC_DECIDE, PETSC_DECIDE, &c[i], MATMPIAIJ, &R[i]));
      }
      PetscCall(EventCount("MatGPUSpGEMM", &count));
      PetscCall(ProductApi(t, X, MAT_INITIAL_MATRIX, &C));
      PetscCall(EventCount("MatGPUSpGEMM", &now));
      ran = (PetscBool)(now > count);
      PetscCall(ProductApi(t, R, MAT_INITIAL_MATRIX, &Cref));
      PetscCall(CheckResult(C, Cref, NULL, rnd, "MAT_INITIAL_MATRIX", &ok));
      PetscCall(MatDestroy(&Cref));
      for (PetscInt i = 0; i < nin; i++) {
        PetscCall(NewValues(X[i], &c[i]));
        PetscCall(NewValues(R[i], &c[i]));
      }
      PetscCall(ProductApi(t, X, MAT_REUSE_MATRIX, &C));
      PetscCall(ProductApi(t, R, MAT_INITIAL_MATRIX, &Cref));
      PetscCall(CheckResult(C, Cref, NULL, rnd, "MAT_REUSE_MATRIX", &ok));
      PetscCall(MatDestroy(&Cref));
      PetscCall(MatDestroy(&C));
      for (PetscInt i = 0; i < nin; i++) {
        PetscCall(MatDestroy(&X[i]));
        PetscCall(MatDestroy(&R[i]));
        PetscCall(CSRDestroy(&c[i]));
      }
      PetscCall(PetscSNPrintf(name, sizeof(name), "mpi %s, %s", MatProductTypes[t], second ? "ours x mpiaij" : "ours"));
      PetscCall(PetscSNPrintf(what, sizeof(what), "%s initial, reuse = MPIAIJ's", ApiName(t)));
      PetscCall(PrintNamedResult(comm, WIDTH, name, what, ok, nfail));
      /* MPIAIJ's PtAP (its default algorithm) multiplies the seq blocks of A and P: of our seq type, in the backend */
      if (t == MATPRODUCT_PtAP && !second) {
        PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &ran, 1, ELLG_MPI_BOOL, MPI_LAND, comm));
        PetscCall(PrintNamedResult(comm, WIDTH, name, "the seq blocks' products in the backend", ran, nfail));
      }
    }
  }
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  PetscMPIInt size;
  PetscRandom rnd;
  PetscInt    nfail = 0;
  char        type[TYPE_LEN], seq[TYPE_LEN], mpi[TYPE_LEN];

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscELLGInitializePackage());
  PetscCall(PetscLogDefaultBegin());
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(TestType(type, seq, mpi));
  PetscCall(RandomCreate(PETSC_COMM_WORLD, 11, &rnd));

  if (size == 1) {
    for (size_t t = 0; t < PETSC_STATIC_ARRAY_LENGTH(ProductTypes); t++) {
      for (PetscInt cs = CASE_RANDOM; cs <= CASE_EMPTY_LAST; cs++)
        for (PetscInt mix = MIX_OURS; mix <= MIX_AIJ_OURS; mix++) {
          /* PETSc's SeqAIJ A B^T makes B^T of B's type (MatTransposeSymbolic()), then sets it to A's type, which
             destroys the data of a SeqAIJ subclass (PETSc's own seqaijperm too): not with ours as B */
          if (ProductTypes[t] == MATPRODUCT_ABt && mix == MIX_AIJ_OURS) continue;
          PetscCall(CheckProduct(ProductTypes[t], (OperandCase)cs, (OperandMix)mix, seq, rnd, &nfail));
        }
      PetscCall(CheckProduct(ProductTypes[t], CASE_SAME, MIX_OURS, seq, rnd, &nfail));
    }
    PetscCall(CheckCPUOptions(seq, rnd, &nfail));
    PetscCall(CheckBadUse(seq, rnd, &nfail));
  } else PetscCall(CheckMPI(mpi, rnd, &nfail));

  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s\n", nfail ? "SOME CHECKS FAILED" : "all checks passed"));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   test:
      suffix: 1
      args: -type {{ellg pjds slicedell csrg aijgpu}} -malloc_debug
      output_file: output/ex11_1.out

   test:
      suffix: staging
      args: -type {{ellg slicedell}} -ellg_staging_bytes 100
      output_file: output/ex11_1.out

   test:
      suffix: mpi
      nsize: {{2 3}}
      args: -type {{ellg pjds slicedell csrg aijgpu}} -malloc_debug
      output_file: output/ex11_mpi.out

TEST*/
