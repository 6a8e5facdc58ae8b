static char help[] = "What a matrix of one of our types chooses itself (the default options) against the rules the README\n\
gives: which rows it multiplies apart as long rows, the blocks of pjds, the slices of slicedell and the threads per\n\
row of csrg; its products\n\
against AIJ's.\n\
  -type <ellg,pjds,slicedell,csrg>: the type (root name)\n\n";

#include "ellgtest.h"

/* A matrix of m rows of base entries but one, row m / 2, of wide entries; n columns */
typedef struct {
  const char *name;
  PetscInt    m, n, base, wide;
  PetscInt    expected[4]; /* long rows the README's rule gives ellg, pjds, slicedell and csrg */
} Case;

/* The rule: rows longer than 16 times the mean and than 128 are long (ellg), except that slicedell keeps
   every row when none has more than 1024 entries nor more than 64 for each thread its SpMV gives it (its
   threads per row: here 32 for 1000 and 2000 rows, 4 for 40000) and so does csrg (with the threads it gives every
   row: 32 for 1000 and 2000 rows, 4 for 40000), and that pjds, which multiplies its
   long rows in the same launch, splits out the rows longer than the least of 64, 128 and 256 of which
   there are at most 1024 (a block of 256 threads each, within 262144 threads), else the rows longer than
   256 and than 4 times the mean */
static const Case cases[] = {
  {"1000 rows, one of 300 entries",         1000,  400,  5,   300,  {1, 1, 0, 0}},
  {"40000 rows, one of 300 entries",        40000, 400,  5,   300,  {1, 1, 1, 1}},
  {"1000 rows, one of 1500 entries",        1000,  2000, 5,   1500, {1, 1, 1, 1}},
  {"40000 rows, one of 100 entries",        40000, 400,  5,   100,  {0, 1, 0, 0}},
  {"2000 rows of 100, one of 300 entries",  2000,  4000, 100, 300,  {0, 1, 0, 0}},
  {"2000 rows of 300, one of 1000 entries", 2000,  4000, 300, 1000, {0, 0, 0, 0}},
};

/* A matrix of m rows, row i of base + i % spread entries; n columns */
typedef struct {
  const char *name;
  PetscInt    m, n, base, spread;
  PetscInt    expected[3]; /* the block rows of pjds, the slice height of slicedell, the threads per row of csrg */
} LayoutCase;

/* The rules: pjds pads blocks of the most rows up to 4 below 524288 rows, else up to 32, within 1.05 times
   the bytes of CSR (here always the most); slicedell takes slices of one row (its rows as they are) when it
   has at most 65536 rows and slices of 32 would pad its rows, else slices of 32 (sorted within windows
   until they fit); csrg gives each row the least power of two threads that take at most 2 entries each of a row
   of the mean length (4 for 4 to 6 entries), more on a small matrix (up to the longest row and 65536 threads) */
static const LayoutCase layouts[] = {
  {"1000 rows of 5 entries",        1000,   400, 5, 1, {4, 32, 4}},
  {"1000 rows of 4 to 6 entries",   1000,   400, 4, 3, {4, 1, 4} },
  {"70000 rows of 4 to 6 entries",  70000,  400, 4, 3, {4, 32, 4}},
  {"600000 rows of 4 to 6 entries", 600000, 400, 4, 3, {32, 32, 4}},
};

/* the number after key in the ASCII info view of A (0 without key) */
static PetscErrorCode InfoNumber(Mat A, const char *key, PetscInt *value)
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
  PetscCall(PetscStrstr(buf, key, &s));
  *value = s ? (PetscInt)atoi(s + strlen(key)) : 0;
  PetscFunctionReturn(0);
}

/* a matrix of type seq with rows of len[] entries: the number after key in its info view against expected
   (key NULL: not checked), and its product against AIJ's; what names the number in the output */
static PetscErrorCode CheckCase(const char *name, PetscInt m, PetscInt n, const PetscInt len[], unsigned long seed, const char *seq, const char *key, PetscInt expected, const char *what, PetscInt *nfail)
{
  CSR         csr;
  PetscInt    value, maxlen = 0;
  Mat         A, R;
  Vec         x, y, yref;
  PetscRandom rnd;
  PetscBool   ok = PETSC_TRUE;

  PetscFunctionBeginUser;
  for (PetscInt i = 0; i < m; i++) maxlen = PetscMax(maxlen, len[i]);
  PetscCall(CSRRandom(name, m, n, 0.0, 0.0, len, seed, &csr));
  PetscCall(CreateMatCSR(PETSC_COMM_WORLD, PETSC_DECIDE, PETSC_DECIDE, &csr, seq, &A));
  PetscCall(CreateMatCSR(PETSC_COMM_WORLD, PETSC_DECIDE, PETSC_DECIDE, &csr, MATSEQAIJ, &R));
  if (key) {
    PetscCall(InfoNumber(A, key, &value));
    if (value != expected) {
      ok = PETSC_FALSE;
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "    FAILED %s: %s %" PetscInt_FMT ", expected %" PetscInt_FMT "\n", name, what, value, expected));
    }
  }
  PetscCall(MatCreateVecs(A, &x, &y));
  PetscCall(MatCreateVecs(R, NULL, &yref));
  PetscCall(RandomCreate(PETSC_COMM_WORLD, seed + 7, &rnd));
  PetscCall(VecSetRandom(x, rnd));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(MatMult(A, x, y));
  PetscCall(MatMult(R, x, yref));
  PetscCall(CheckClose(y, yref, (PetscReal)maxlen, "A x", &ok));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-42s %s as documented, product: %s\n", name, what, ok ? "ok" : "FAILED"));
  if (!ok) (*nfail)++;
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(VecDestroy(&yref));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&R));
  PetscCall(CSRDestroy(&csr));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  char        root[TYPE_LEN], seq[TYPE_LEN];
  PetscInt    t, k, nfail = 0, *len;
  PetscMPIInt size;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscELLGInitializePackage());
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCheck(size == 1, PETSC_COMM_WORLD, PETSC_ERR_WRONG_MPI_SIZE, "A test of one process");
  PetscCall(TestType(root, seq, NULL));
  for (t = 0; t < 4; t++) {
    PetscBool match;

    PetscCall(PetscStrcmp(root, (const char *[]){MATELLG, MATPJDS, MATSLICEDELL, MATCSRG}[t], &match));
    if (match) break;
  }
  PetscCheck(t < 4, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "-type %s: not one of ellg, pjds, slicedell, csrg", root);
  for (k = 0; k < (PetscInt)(sizeof(cases) / sizeof(cases[0])); k++) {
    const Case *c = &cases[k];

    PetscCall(PetscMalloc1(c->m, &len));
    for (PetscInt i = 0; i < c->m; i++) len[i] = i == c->m / 2 ? c->wide : c->base;
    PetscCall(CheckCase(c->name, c->m, c->n, len, 100 + k, seq, "long rows: ", c->expected[t], "long rows", &nfail));
    PetscCall(PetscFree(len));
  }
  for (k = 0; k < (PetscInt)(sizeof(layouts) / sizeof(layouts[0])); k++) {
    const LayoutCase *c = &layouts[k];

    PetscCall(PetscMalloc1(c->m, &len));
    for (PetscInt i = 0; i < c->m; i++) len[i] = c->base + i % c->spread;
    PetscCall(CheckCase(c->name, c->m, c->n, len, 200 + k, seq, (const char *[]){NULL, "pJDS ", "slice height C ", "kernel CSR-vector: "}[t], t ? c->expected[t - 1] : 0, (const char *[]){"layout", "block rows", "slice height", "threads per row"}[t], &nfail));
    PetscCall(PetscFree(len));
  }
  PetscCheck(!nfail, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%" PetscInt_FMT " case(s) failed", nfail);
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   test:
      args: -type {{ellg pjds slicedell csrg}separate output}

TEST*/
