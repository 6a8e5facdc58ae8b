static char help[] = "Which rows a matrix of one of our types multiplies apart as long rows when it chooses itself\n\
(-mat_<type>_long_row_threshold 0, the default), against the rule the README gives, and its products against AIJ's.\n\
  -type <ellg,pjds,slicedell>: the type (root name)\n\n";

#include "ellgtest.h"

/* A matrix of m rows of base entries but one, row m / 2, of wide entries; n columns */
typedef struct {
  const char *name;
  PetscInt    m, n, base, wide;
  PetscInt    expected[3]; /* long rows the README's rule gives ellg, pjds and slicedell */
} Case;

/* The rule: rows longer than 16 times the mean and than 128 are long (ellg), except that slicedell keeps
   every row when none has more than 1024 entries nor more than 64 for each thread its SpMV gives it (its
   threads per row: here 32 for 1000 rows, 1 for 40000, 16 for 2000), and that pjds, which multiplies its
   long rows in the same launch, splits out the rows longer than the least of 64, 128 and 256 of which
   there are at most 1024 (a block of 256 threads each, within 262144 threads), else the rows longer than
   256 and than 4 times the mean */
static const Case cases[] = {
  {"1000 rows, one of 300 entries",         1000,  400,  5,   300,  {1, 1, 0}},
  {"40000 rows, one of 300 entries",        40000, 400,  5,   300,  {1, 1, 1}},
  {"1000 rows, one of 1500 entries",        1000,  2000, 5,   1500, {1, 1, 1}},
  {"40000 rows, one of 100 entries",        40000, 400,  5,   100,  {0, 1, 0}},
  {"2000 rows of 100, one of 300 entries",  2000,  4000, 100, 300,  {0, 1, 0}},
  {"2000 rows of 300, one of 1000 entries", 2000,  4000, 300, 1000, {0, 0, 0}},
};

/* the number after "long rows: " in the ASCII info view of A (0 without that line) */
static PetscErrorCode LongRows(Mat A, PetscInt *nlong)
{
  PetscViewer v;
  char        buf[4096], *s;
  size_t      n;
  FILE       *fp;

  PetscFunctionBeginUser;
  PetscCall(PetscViewerASCIIOpen(PETSC_COMM_SELF, "ex8_info.txt", &v));
  PetscCall(PetscViewerPushFormat(v, PETSC_VIEWER_ASCII_INFO));
  PetscCall(MatView(A, v));
  PetscCall(PetscViewerPopFormat(v));
  PetscCall(PetscViewerDestroy(&v));
  fp = fopen("ex8_info.txt", "r");
  PetscCheck(fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot open ex8_info.txt");
  n = fread(buf, 1, sizeof(buf) - 1, fp);
  buf[n] = 0;
  fclose(fp);
  PetscCall(PetscStrstr(buf, "long rows: ", &s));
  *nlong = s ? (PetscInt)atoi(s + strlen("long rows: ")) : 0;
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  char        root[TYPE_LEN], seq[TYPE_LEN];
  PetscInt    t, k, nfail = 0;
  PetscMPIInt size;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscELLGInitializePackage());
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCheck(size == 1, PETSC_COMM_WORLD, PETSC_ERR_WRONG_MPI_SIZE, "A test of one process");
  PetscCall(TestType(root, seq, NULL));
  for (t = 0; t < 3; t++) {
    PetscBool match;

    PetscCall(PetscStrcmp(root, (const char *[]){MATELLG, MATPJDS, MATSLICEDELL}[t], &match));
    if (match) break;
  }
  PetscCheck(t < 3, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "-type %s: not one of ellg, pjds, slicedell", root);
  for (k = 0; k < (PetscInt)(sizeof(cases) / sizeof(cases[0])); k++) {
    const Case *c = &cases[k];
    CSR         csr;
    PetscInt   *len, i, nlong;
    Mat         A, R;
    Vec         x, y, yref;
    PetscRandom rnd;
    PetscBool   ok = PETSC_TRUE;

    PetscCall(PetscMalloc1(c->m, &len));
    for (i = 0; i < c->m; i++) len[i] = i == c->m / 2 ? c->wide : c->base;
    PetscCall(CSRRandom(c->name, c->m, c->n, 0.0, 0.0, len, 100 + k, &csr));
    PetscCall(PetscFree(len));
    PetscCall(CreateMatCSR(PETSC_COMM_WORLD, PETSC_DECIDE, PETSC_DECIDE, &csr, seq, &A));
    PetscCall(CreateMatCSR(PETSC_COMM_WORLD, PETSC_DECIDE, PETSC_DECIDE, &csr, MATSEQAIJ, &R));
    PetscCall(LongRows(A, &nlong));
    if (nlong != c->expected[t]) {
      ok = PETSC_FALSE;
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "    FAILED %s: %" PetscInt_FMT " long rows, expected %" PetscInt_FMT "\n", c->name, nlong, c->expected[t]));
    }
    PetscCall(MatCreateVecs(A, &x, &y));
    PetscCall(MatCreateVecs(R, NULL, &yref));
    PetscCall(RandomCreate(PETSC_COMM_WORLD, 7 + k, &rnd));
    PetscCall(VecSetRandom(x, rnd));
    PetscCall(PetscRandomDestroy(&rnd));
    PetscCall(MatMult(A, x, y));
    PetscCall(MatMult(R, x, yref));
    PetscCall(CheckClose(y, yref, (PetscReal)c->wide, "A x", &ok));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-42s long rows as documented, product: %s\n", c->name, ok ? "ok" : "FAILED"));
    if (!ok) nfail++;
    PetscCall(VecDestroy(&x));
    PetscCall(VecDestroy(&y));
    PetscCall(VecDestroy(&yref));
    PetscCall(MatDestroy(&A));
    PetscCall(MatDestroy(&R));
    PetscCall(CSRDestroy(&csr));
  }
  PetscCheck(!nfail, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%" PetscInt_FMT " case(s) failed", nfail);
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   test:
      args: -type {{ellg pjds slicedell}}
      output_file: output/ex8_1.out

TEST*/
