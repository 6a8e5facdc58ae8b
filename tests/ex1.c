static char help[] = "Products of matrices of one of our types against AIJ: MatMult, MatMultAdd (also y == z),\n\
MatMultTranspose, MatMultTransposeAdd (also y == z) and MatGetDiagonal on random and edge-case matrices\n\
(0x0, 1x1, empty rows, zero matrix, one dense row, skewed rows, tall and wide, explicit zeros, power-law\n\
row lengths, a single full row, rows of many thousand entries), with device vectors (MatCreateVecs) and\n\
plain host vectors; MatDuplicate, MatConvert and MatView.\n\
The reference is an AIJ matrix assembled from the same entries. Prints pass/fail lines only, which do\n\
not name the type, so that every type has the same expected output.\n\
  -type <ellg,pjds,slicedell>: the type (root name; seqaij<type>, mpiaij<type> for its kinds)\n\
  -empty_rank: the last MPI process owns no rows and no columns\n\
  -uneven: process r owns a share of the rows growing with r, of the columns shrinking with r\n\n";

#include "ellgtest.h"
#include <ctype.h>

/* CheckClose() of a product with gpu or host vectors, which the message names */
static PetscErrorCode CheckProduct(Vec y, Vec yref, PetscReal scale, const char *what, PetscBool gpu, PetscBool *ok)
{
  char label[128];

  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(label, sizeof(label), "%s with %s vectors", what, gpu ? "gpu" : "host"));
  PetscCall(CheckClose(y, yref, scale, label, ok));
  PetscFunctionReturn(0);
}

/* The two directions of CheckProducts(): t = 0: MatMult and MatMultAdd, t = 1: MatMultTranspose and MatMultTransposeAdd */
static PetscErrorCode (*const Mult[2])(Mat, Vec, Vec)         = {MatMult, MatMultTranspose};
static PetscErrorCode (*const MultAdd[2])(Mat, Vec, Vec, Vec) = {MatMultAdd, MatMultTransposeAdd};

static const char *const MultNames[2][3] = {
  {"MatMult",          "MatMultAdd",          "MatMultAdd (y == z)"         },
  {"MatMultTranspose", "MatMultTransposeAdd", "MatMultTransposeAdd (y == z)"}
};

/* All products of A against those of the reference R, in both directions, with vectors from MatCreateVecs(A)
   (gpu = TRUE) or host vectors. x[t] has the layout of the input of direction t, y[t], y0[t] and z[t] that of its
   output, which is the input's of the other direction */
static PetscErrorCode CheckProducts(Mat A, Mat R, PetscBool gpu, PetscRandom rnd, PetscBool *ok)
{
  MPI_Comm  comm = PetscObjectComm((PetscObject)A);
  PetscInt  m, n, M, N, t, k;
  PetscReal nrm[2], xn, yn;
  PetscBool square;
  Vec       xr[2], x2r, yr[2], y0r[2], zr[2], xs, dr; /* references: host vectors with R */
  Vec       x[2], y[2], y0[2], z[2];                  /* with A */

  PetscFunctionBeginUser;
  PetscCall(MatGetLocalSize(A, &m, &n));
  PetscCall(MatGetSize(A, &M, &N));
  PetscCall(CreateVec(comm, n, N, VECSTANDARD, &xr[0]));
  PetscCall(CreateVec(comm, m, M, VECSTANDARD, &xr[1]));
  if (gpu) {
    PetscCall(MatCreateVecs(A, &x[0], &x[1]));
  } else {
    PetscCall(VecDuplicate(xr[0], &x[0]));
    PetscCall(VecDuplicate(xr[1], &x[1]));
  }
  for (t = 0; t < 2; t++) { /* random values, in this order: x, new x (MatMult only), y0 */
    PetscCall(VecSetRandom(xr[t], rnd));
    if (!t) {
      PetscCall(VecDuplicate(xr[0], &x2r));
      PetscCall(VecSetRandom(x2r, rnd));
    }
    PetscCall(VecDuplicate(xr[!t], &y0r[t]));
    PetscCall(VecSetRandom(y0r[t], rnd));
    PetscCall(VecDuplicate(xr[!t], &yr[t]));
    PetscCall(VecDuplicate(xr[!t], &zr[t]));
    PetscCall(VecDuplicate(x[!t], &y[t]));
    PetscCall(VecDuplicate(x[!t], &y0[t]));
    PetscCall(VecDuplicate(x[!t], &z[t]));
  }

  /* scales: |(A x)_i| <= ||A||_inf ||x||_inf, |(A^T x)_j| <= ||A||_1 ||x||_inf */
  PetscCall(MatNorm(R, NORM_INFINITY, &nrm[0]));
  PetscCall(MatNorm(R, NORM_1, &nrm[1]));

  for (t = 0; t < 2; t++) {
    /* the product; MatMult twice, with new x values the second time: the old contents of y must not matter */
    for (k = 0; k < (t ? 1 : 2); k++) {
      xs = k ? x2r : xr[t];
      PetscCall(CopyValues(xs, x[t]));
      if (!k) PetscCall(VecSet(y[t], 1000.0));
      PetscCall(Mult[t](A, x[t], y[t]));
      PetscCall(Mult[t](R, xs, yr[t]));
      PetscCall(VecNorm(xs, NORM_INFINITY, &xn));
      PetscCall(CheckProduct(y[t], yr[t], nrm[t] * xn, k ? "MatMult (new x)" : MultNames[t][0], gpu, ok));
    }

    /* the product added: z = y0 + A x (y0 unchanged, checked for MatMultAdd), then in place y0 = y0 + A x */
    PetscCall(VecNorm(y0r[t], NORM_INFINITY, &yn));
    PetscCall(CopyValues(y0r[t], y0[t]));
    PetscCall(MultAdd[t](A, x[t], y0[t], z[t]));
    PetscCall(MultAdd[t](R, xs, y0r[t], zr[t]));
    PetscCall(CheckProduct(z[t], zr[t], nrm[t] * xn + yn, MultNames[t][1], gpu, ok));
    if (!t) PetscCall(CheckProduct(y0[t], y0r[t], 0.0, "MatMultAdd (y0 unchanged)", gpu, ok));
    PetscCall(MultAdd[t](A, x[t], y0[t], y0[t]));
    PetscCall(CheckProduct(y0[t], zr[t], nrm[t] * xn + yn, MultNames[t][2], gpu, ok));
  }

  /* MatGetDiagonal: square matrices whose row and column layouts agree */
  square = (PetscBool)(M == N && m == n);
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &square, 1, ELLG_MPI_BOOL, MPI_LAND, comm));
  if (square) {
    PetscCall(VecDuplicate(yr[0], &dr));
    PetscCall(VecSet(y[0], -7.0));
    PetscCall(MatGetDiagonal(A, y[0]));
    PetscCall(MatGetDiagonal(R, dr));
    PetscCall(CheckProduct(y[0], dr, 0.0, "MatGetDiagonal", gpu, ok));
    PetscCall(VecDestroy(&dr));
  }

  PetscCall(VecDestroy(&x2r));
  for (t = 0; t < 2; t++) {
    PetscCall(VecDestroy(&xr[t]));
    PetscCall(VecDestroy(&yr[t]));
    PetscCall(VecDestroy(&y0r[t]));
    PetscCall(VecDestroy(&zr[t]));
    PetscCall(VecDestroy(&x[t]));
    PetscCall(VecDestroy(&y[t]));
    PetscCall(VecDestroy(&y0[t]));
    PetscCall(VecDestroy(&z[t]));
  }
  PetscFunctionReturn(0);
}

/* Checks with both kinds of vectors; prints one line */
static PetscErrorCode CheckBoth(const char *what, Mat A, Mat R, PetscRandom rnd, PetscInt *nfail)
{
  PetscBool ok = PETSC_TRUE;

  PetscFunctionBeginUser;
  PetscCall(CheckProducts(A, R, PETSC_TRUE, rnd, &ok));
  PetscCall(CheckProducts(A, R, PETSC_FALSE, rnd, &ok));
  PetscCall(PetscPrintf(PetscObjectComm((PetscObject)A), "%-44s %s\n", what, ok ? "ok" : "FAILED"));
  if (!ok) (*nfail)++;
  PetscFunctionReturn(0);
}

static PetscErrorCode CheckType(Mat A, MatType type, const char *what, PetscInt *nfail)
{
  PetscBool same;

  PetscFunctionBeginUser;
  PetscCall(PetscObjectTypeCompare((PetscObject)A, type, &same));
  if (!same) {
    MatType t;
    PetscCall(MatGetType(A, &t));
    PetscCall(PetscPrintf(PetscObjectComm((PetscObject)A), "%-44s FAILED: type %s, expected %s\n", what, t, type));
    (*nfail)++;
  }
  PetscFunctionReturn(0);
}

/* Lower-case copy of the file's contents on process 0 (empty elsewhere) */
static PetscErrorCode ReadFile(MPI_Comm comm, const char *fname, char *buf, size_t len)
{
  PetscMPIInt rank;
  size_t      i, n = 0;
  FILE       *fp;

  PetscFunctionBeginUser;
  buf[0] = 0;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  if (rank) PetscFunctionReturn(0);
  fp = fopen(fname, "r");
  PetscCheck(fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot open %s", fname);
  n = fread(buf, 1, len - 1, fp);
  buf[n] = 0;
  fclose(fp);
  for (i = 0; i < n; i++) buf[i] = (char)tolower((unsigned char)buf[i]);
  PetscFunctionReturn(0);
}

static PetscErrorCode ViewToFile(Mat A, PetscViewerFormat format, const char *fname)
{
  PetscViewer v;

  PetscFunctionBeginUser;
  PetscCall(PetscViewerASCIIOpen(PetscObjectComm((PetscObject)A), fname, &v));
  PetscCall(PetscViewerPushFormat(v, format));
  PetscCall(MatView(A, v));
  PetscCall(PetscViewerPopFormat(v));
  PetscCall(PetscViewerDestroy(&v));
  PetscFunctionReturn(0);
}

/* MatView: INFO names the type and the backend; the default format lists the same entries as AIJ */
static PetscErrorCode CheckView(Mat A, Mat R, PetscInt *nfail)
{
  MPI_Comm    comm = PetscObjectComm((PetscObject)A);
  MatType     type;
  PetscMPIInt rank;
  char       *a, *b, lt[64], *s, *pa, *pb;
  size_t      len = 1 << 20, i;
  PetscBool   ok = PETSC_TRUE;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCall(PetscMalloc2(len, &a, len, &b));
  PetscCall(MatGetType(A, &type));
  PetscCall(PetscStrncpy(lt, type, sizeof(lt)));
  for (i = 0; lt[i]; i++) lt[i] = (char)tolower((unsigned char)lt[i]);
  PetscCall(ViewToFile(A, PETSC_VIEWER_ASCII_INFO, "view_info.txt"));
  PetscCall(ReadFile(comm, "view_info.txt", a, len));
  if (!rank) {
    PetscCall(PetscStrstr(a, lt, &s));
    if (!s) ok = PETSC_FALSE;
    PetscCall(PetscStrstr(a, "backend", &s));
    if (!s) ok = PETSC_FALSE;
  }
  PetscCallMPI(MPI_Bcast(&ok, 1, ELLG_MPI_BOOL, 0, comm));
  PetscCall(PetscPrintf(comm, "%-44s %s\n", "MatView info: type and backend", ok ? "ok" : "FAILED"));
  if (!ok) (*nfail)++;

  /* default format: the same text as AIJ's after the "type:" line */
  ok = PETSC_TRUE;
  PetscCall(ViewToFile(A, PETSC_VIEWER_DEFAULT, "view_format.txt"));
  PetscCall(ViewToFile(R, PETSC_VIEWER_DEFAULT, "view_aij.txt"));
  PetscCall(ReadFile(comm, "view_format.txt", a, len));
  PetscCall(ReadFile(comm, "view_aij.txt", b, len));
  if (!rank) {
    PetscCall(PetscStrstr(a, "type:", &pa));
    PetscCall(PetscStrstr(b, "type:", &pb));
    if (pa) PetscCall(PetscStrchr(pa, '\n', &pa));
    if (pb) PetscCall(PetscStrchr(pb, '\n', &pb));
    if (!pa || !pb) ok = PETSC_FALSE;
    else PetscCall(PetscStrcmp(pa, pb, &ok));
  }
  PetscCallMPI(MPI_Bcast(&ok, 1, ELLG_MPI_BOOL, 0, comm));
  PetscCall(PetscPrintf(comm, "%-44s %s\n", "MatView: same entries as AIJ", ok ? "ok" : "FAILED"));
  if (!ok) (*nfail)++;
  PetscCall(PetscFree2(a, b));
  PetscFunctionReturn(0);
}

/* MatConvert of S to type, compared with R; then MatScale(S, -2) and MatConvert with MAT_REUSE_MATRIX, compared with
   D (= -2 R afterwards; D may be S). dir names the direction in the messages */
static PetscErrorCode CheckConvert(Mat S, MatType type, const char *dir, Mat R, Mat D, PetscRandom rnd, PetscInt *nfail)
{
  char what[64];
  Mat  B;

  PetscFunctionBeginUser;
  PetscCall(MatConvert(S, type, MAT_INITIAL_MATRIX, &B));
  PetscCall(PetscSNPrintf(what, sizeof(what), "MatConvert(%s) type", dir));
  PetscCall(CheckType(B, type, what, nfail));
  PetscCall(PetscSNPrintf(what, sizeof(what), "MatConvert(%s, initial)", dir));
  PetscCall(CheckBoth(what, B, R, rnd, nfail));
  PetscCall(MatScale(S, -2.0));
  PetscCall(MatConvert(S, type, MAT_REUSE_MATRIX, &B));
  PetscCall(PetscSNPrintf(what, sizeof(what), "MatConvert(%s, reuse)", dir));
  PetscCall(CheckBoth(what, B, D, rnd, nfail));
  PetscCall(MatDestroy(&B));
  PetscFunctionReturn(0);
}

/* MatDuplicate, MatConvert aij <-> the type under test, whose sequential and parallel kinds are seqtype and mpitype
   (initial, reuse, in place) */
static PetscErrorCode CheckDuplicateConvert(Mat A, Mat R, const CSR *c, MatType seqtype, MatType mpitype, PetscRandom rnd, PetscInt *nfail)
{
  PetscMPIInt size;
  MatType     fmttype, aijtype, atype;
  Mat         B, C, D, E;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)A), &size));
  fmttype = size > 1 ? mpitype : seqtype;
  aijtype  = size > 1 ? MATMPIAIJ : MATSEQAIJ;
  PetscCall(MatGetType(A, &atype));

  PetscCall(MatDuplicate(A, MAT_COPY_VALUES, &B));
  PetscCall(CheckType(B, atype, "MatDuplicate type", nfail));
  PetscCall(CheckBoth("MatDuplicate(MAT_COPY_VALUES)", B, R, rnd, nfail));
  PetscCall(MatScale(B, 0.5));
  PetscCall(CheckBoth("original after scaling the duplicate", A, R, rnd, nfail));
  PetscCall(MatDestroy(&B));

  PetscCall(MatDuplicate(A, MAT_DO_NOT_COPY_VALUES, &B));
  PetscCall(MatDuplicate(R, MAT_DO_NOT_COPY_VALUES, &C));
  PetscCall(CheckBoth("MatDuplicate(MAT_DO_NOT_COPY_VALUES): zero", B, C, rnd, nfail));
  PetscCall(SetValuesCSR(B, c, INSERT_VALUES));
  PetscCall(Assemble(B, MAT_FINAL_ASSEMBLY));
  PetscCall(CheckBoth("MatDuplicate(MAT_DO_NOT_COPY_VALUES): set", B, R, rnd, nfail));
  PetscCall(MatDestroy(&B));
  PetscCall(MatDestroy(&C));

  /* aij -> format, from D = R (then D = -2 R) */
  PetscCall(MatDuplicate(R, MAT_COPY_VALUES, &D));
  PetscCall(CheckConvert(D, fmttype, "aij -> format", R, D, rnd, nfail));
  PetscCall(MatDuplicate(R, MAT_COPY_VALUES, &E));
  PetscCall(MatConvert(E, fmttype, MAT_INPLACE_MATRIX, &E));
  PetscCall(CheckType(E, fmttype, "MatConvert(aij -> format, in place) type", nfail));
  PetscCall(CheckBoth("MatConvert(aij -> format, in place)", E, R, rnd, nfail));
  PetscCall(MatDestroy(&E));

  /* format -> aij, from E = A (then E = -2 R) */
  PetscCall(MatConvert(A, fmttype, MAT_INITIAL_MATRIX, &E));
  PetscCall(CheckConvert(E, aijtype, "format -> aij", R, D, rnd, nfail));
  PetscCall(MatConvert(E, aijtype, MAT_INPLACE_MATRIX, &E));
  PetscCall(CheckType(E, aijtype, "MatConvert(format -> aij, in place) type", nfail));
  PetscCall(CheckBoth("MatConvert(format -> aij, in place)", E, D, rnd, nfail));
  PetscCall(MatDestroy(&E));
  PetscCall(MatDestroy(&D));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  MPI_Comm    comm;
  PetscBool   isgpu;
  Layout      layout = LAYOUT_EVEN;
  PetscInt    nfail = 0, i, ncase = 0;
  PetscRandom rnd;
  CSR         c[24];
  Mat         A, R;
  Vec         x, y;
  char        type[TYPE_LEN], seqtype[TYPE_LEN], mpitype[TYPE_LEN];

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscELLGInitializePackage());
  comm = PETSC_COMM_WORLD;
  PetscCall(TestType(type, seqtype, mpitype));
  PetscCall(GetLayout(&layout));
  PetscCall(PetscRandomCreate(comm, &rnd));
  PetscCall(PetscRandomSetSeed(rnd, 7));
  PetscCall(PetscRandomSeed(rnd));

  {
    PetscInt skew[300], dense[200], dense2000[2000], chunked[200];

    PetscCall(CSRRandom("0x0", 0, 0, 0.0, 0.0, NULL, 1, &c[ncase++]));
    PetscCall(CSRRandom("1x1", 1, 1, 1.0, 0.0, NULL, 2, &c[ncase++]));
    PetscCall(CSRRandom("1x1 without entries", 1, 1, 0.0, 0.0, NULL, 3, &c[ncase++]));
    PetscCall(CSRRandom("zero matrix 20x20", 20, 20, 0.0, 0.0, NULL, 4, &c[ncase++]));
    PetscCall(CSRRandom("random 7x7 dense", 7, 7, 1.0, 0.0, NULL, 5, &c[ncase++]));
    PetscCall(CSRRandom("random 33x33 density 0.2", 33, 33, 0.2, 0.0, NULL, 6, &c[ncase++]));
    PetscCall(CSRRandom("random 130x130 density 0.05", 130, 130, 0.05, 0.0, NULL, 7, &c[ncase++]));
    PetscCall(CSRRandom("random 257x257 density 0.02", 257, 257, 0.02, 0.0, NULL, 8, &c[ncase++]));
    PetscCall(CSRRandom("random 64x64 density 0.6", 64, 64, 0.6, 0.0, NULL, 9, &c[ncase++]));
    PetscCall(CSRRandom("empty rows 50x50", 50, 50, 0.02, 0.0, NULL, 10, &c[ncase++])); /* many rows without entries */
    PetscCall(CSRRandom("explicit zeros 60x60", 60, 60, 0.2, 0.5, NULL, 11, &c[ncase++]));
    PetscCall(CSRRandom("tall 90x25", 90, 25, 0.15, 0.0, NULL, 12, &c[ncase++]));
    PetscCall(CSRRandom("wide 25x90", 25, 90, 0.15, 0.0, NULL, 13, &c[ncase++]));
    PetscCall(CSRRandom("tall 40x1", 40, 1, 0.5, 0.0, NULL, 14, &c[ncase++]));
    PetscCall(CSRRandom("wide 1x40", 1, 40, 0.5, 0.0, NULL, 15, &c[ncase++]));
    for (i = 0; i < 200; i++) dense[i] = i == 3 ? 200 : (i % 4 == 1 ? 0 : 3);
    PetscCall(CSRRandom("one dense row 200x200", 200, 200, 0.0, 0.0, dense, 16, &c[ncase++]));
    for (i = 0; i < 300; i++) skew[i] = i == 5 ? 300 : (i == 100 ? 150 : (i % 50 == 0 ? 40 : 1 + i % 6));
    PetscCall(CSRRandom("skewed rows 300x300", 300, 300, 0.0, 0.0, skew, 17, &c[ncase++]));
    PetscCall(CSRLaplacian("Laplacian 2D 45x45", 45, &c[ncase++]));
    PetscCall(CSRPowerLaw("power-law rows 3000x3000", 3000, 2, 1.3, 18, &c[ncase++]));
    PetscCall(CSRRandom("single full row 1x2000", 1, 2000, 1.0, 0.0, NULL, 19, &c[ncase++]));
    for (i = 0; i < 2000; i++) dense2000[i] = i == 1234 ? 2000 : 0;
    PetscCall(CSRRandom("one full row, rest empty 2000x2000", 2000, 2000, 0.0, 0.0, dense2000, 20, &c[ncase++]));
    for (i = 0; i < 200; i++) chunked[i] = i == 7 ? 20000 : (i == 150 ? 17000 : 1 + i % 5); /* long rows of several GPU chunks */
    PetscCall(CSRRandom("rows of 20000 and 17000 entries 200x20000", 200, 20000, 0.0, 0.0, chunked, 21, &c[ncase++]));
  }

  for (i = 0; i < ncase; i++) {
    PetscCall(CreateMatSplit(comm, layout, &c[i], type, &A));
    PetscCall(CreateMatSplit(comm, layout, &c[i], MATAIJ, &R));
    PetscCall(CheckBoth(c[i].name, A, R, rnd, &nfail));
    if (i == 5) {
      PetscCall(MatCreateVecs(A, &x, &y));
      PetscCall(IsDeviceVec(A, x, &isgpu));
      if (isgpu) PetscCall(IsDeviceVec(A, y, &isgpu));
      PetscCall(PetscPrintf(comm, "%-44s %s\n", "MatCreateVecs gives device vectors", isgpu ? "ok" : "FAILED"));
      if (!isgpu) nfail++;
      PetscCall(VecDestroy(&x));
      PetscCall(VecDestroy(&y));
      PetscCall(CheckView(A, R, &nfail));
      PetscCall(CheckDuplicateConvert(A, R, &c[i], seqtype, mpitype, rnd, &nfail));
    }
    PetscCall(MatDestroy(&A));
    PetscCall(MatDestroy(&R));
    PetscCall(CSRDestroy(&c[i]));
  }
  PetscCall(PetscPrintf(comm, "%s\n", nfail ? "SOME CHECKS FAILED" : "all checks passed"));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   # every type with its default options; the output does not name the type
   test:
      suffix: 1
      args: -type {{ellg pjds slicedell csrg aijgpu}}
      output_file: output/ex1_1.out

   test:
      suffix: mpi
      nsize: {{2 3 4}}
      args: -type {{ellg pjds slicedell csrg aijgpu}}
      output_file: output/ex1_1.out

   test:
      suffix: empty_rank
      nsize: 3
      args: -type {{ellg pjds slicedell csrg aijgpu}} -empty_rank
      output_file: output/ex1_1.out

   test:
      suffix: uneven
      nsize: {{2 4}}
      args: -type {{ellg pjds slicedell csrg aijgpu}} -uneven
      output_file: output/ex1_1.out

   # ellg warns (one line on stderr) at the build of the first matrix it stores in more than 4 times the bytes of
   # CSR (and 1 MB), naming the type to use: the power-law matrix, pjds; the other types do not
   test:
      suffix: padding_warning
      args: -type ellg
      filter: Error: grep WARNING | sed -E "s/[0-9]+([.][0-9]+)?/N/g"
      output_file: output/ex1_padding_warning.out

   test:
      suffix: padding_warning_none
      args: -type {{pjds slicedell csrg}}
      filter: Error: grep -c WARNING
      output_file: output/ex1_padding_warning_none.out

   # aijgpu weighs the bytes of the formats itself: no warning when it builds ellg, asked to
   test:
      suffix: padding_warning_aijgpu
      args: -type aijgpu -mat_aijgpu_format ellg
      filter: Error: grep -c WARNING
      output_file: output/ex1_padding_warning_none.out

   # the halo exchange without overlap, and with MPI on the backend's buffers (host memory on the host backend)
   test:
      suffix: halo
      nsize: 3
      args: -type {{ellg pjds slicedell csrg}} -mat_gpu_halo_overlap 0
      output_file: output/ex1_1.out

   test:
      suffix: halo_gpu_aware
      nsize: 3
      args: -type ellg -ellg_backend host -mat_gpu_aware_mpi
      output_file: output/ex1_1.out

   # rows split out as long rows from 4 entries on (most of the random rows), or never (the power-law rows)
   test:
      suffix: long_rows_ellg
      args: -type ellg -mat_ellg_long_row_threshold {{3 -1}}
      output_file: output/ex1_1.out

   test:
      suffix: long_rows_ellg_mpi
      nsize: 2
      args: -type ellg -mat_ellg_long_row_threshold 3
      output_file: output/ex1_1.out

   test:
      suffix: long_rows_pjds
      args: -type pjds -mat_pjds_long_row_threshold {{3 -1}}
      output_file: output/ex1_1.out

   test:
      suffix: long_rows_pjds_mpi
      nsize: 2
      args: -type pjds -mat_pjds_long_row_threshold 3
      output_file: output/ex1_1.out

   test:
      suffix: long_rows_slicedell
      args: -type slicedell -mat_slicedell_long_row_threshold {{3 -1}}
      output_file: output/ex1_1.out

   test:
      suffix: long_rows_slicedell_mpi
      nsize: 2
      args: -type slicedell -mat_slicedell_long_row_threshold 3
      output_file: output/ex1_1.out

   # the options of each format

   test:
      suffix: ellg_threads_per_row
      args: -type ellg -mat_ellg_threads_per_row {{1 2 4 8 16 32}}
      output_file: output/ex1_1.out

   test:
      suffix: ellg_block_size
      args: -type ellg -mat_ellg_block_size {{32 64 256 1024}} -mat_ellg_threads_per_row {{0 32}}
      output_file: output/ex1_1.out

   test:
      suffix: ellg_mpi
      nsize: {{2 3}}
      args: -type ellg -mat_ellg_threads_per_row 4
      output_file: output/ex1_1.out

   # csrg's two kernels (CSR-stream blocks: a row of many thousand entries alone, most rows split out as long, none)
   test:
      suffix: csrg_kernel
      nsize: {{1 2}}
      args: -type csrg -mat_csrg_kernel {{vector stream}} -mat_csrg_long_row_threshold {{0 3 -1}}
      output_file: output/ex1_1.out

   # 32-bit column indices (16-bit offsets from the row are the default where they fit, as in these matrices)
   # the options of every type, of which the one run uses its own (-options_left no: PETSc from 3.20 lists the
   # others as unused)
   test:
      suffix: indices_32bit
      nsize: {{1 2}}
      args: -type {{ellg pjds slicedell csrg}} -mat_ellg_compact_indices false -mat_pjds_compact_indices false -mat_slicedell_compact_indices false -mat_csrg_compact_indices false -mat_ellg_threads_per_row {{1 4}} -mat_pjds_entries_per_thread 1 -mat_slicedell_threads_per_row 4 -mat_csrg_threads_per_row 1 -options_left no
      output_file: output/ex1_1.out

   test:
      suffix: pjds_block_rows
      args: -type pjds -mat_pjds_block_rows {{1 8 32 128}}
      output_file: output/ex1_1.out

   test:
      suffix: pjds_block_size
      args: -type pjds -mat_pjds_block_size {{32 1024}} -mat_pjds_block_rows 128
      output_file: output/ex1_1.out

   test:
      suffix: pjds_mpi
      nsize: 2
      args: -type pjds -mat_pjds_block_rows 1
      output_file: output/ex1_1.out

   # the SpMV's threads per row from the row widths: bins of every T from 32 to 1 (entries per thread 1 and 3),
   # with blocks of 1 and 8 rows
   test:
      suffix: pjds_entries_per_thread
      nsize: {{1 2}}
      args: -type pjds -mat_pjds_entries_per_thread {{1 3}} -mat_pjds_block_rows {{1 8}}
      output_file: output/ex1_1.out

   # slice height and sigma (0: automatic), threads per row (0: from the slice widths)
   test:
      suffix: slicedell_slice_height
      args: -type slicedell -mat_slicedell_slice_height {{4 32}} -mat_slicedell_sigma {{1 0}}
      output_file: output/ex1_1.out

   test:
      suffix: slicedell_threads_per_row
      args: -type slicedell -mat_slicedell_threads_per_row {{0 1 4 32}}
      output_file: output/ex1_1.out

   test:
      suffix: slicedell_block_size
      args: -type slicedell -mat_slicedell_block_size 32 -mat_slicedell_threads_per_row 32
      output_file: output/ex1_1.out

   test:
      suffix: slicedell_mpi
      nsize: 2
      args: -type slicedell -mat_slicedell_slice_height 4 -mat_slicedell_sigma 64
      output_file: output/ex1_1.out

TEST*/
