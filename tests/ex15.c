static char help[] = "MATAIJGPU, the type that chooses its storage format: the format -mat_aijgpu_format auto chooses for\n\
small matrices (a small Laplacian: csrg), matrices of equal row lengths (ellg), of columns scattered over a large\n\
x (csrg), of row lengths that spread widely or with a long row among few entries (a power-law graph, a Laplacian\n\
with a dense row: pjds), of under 2^19 entries in rows of 4 or more (a Laplacian: csrg) and of others (a Laplacian\n\
with a dense row among over 2^20 entries: slicedell), as MatELLGGetFormat() tells it; its bytes within\n\
1.5 times CSR for the matrices of 1 MB or more; the format asked for by name; a choice by timing products; a\n\
re-assembly with new values that keeps the choice and one with a new pattern that chooses again; on several\n\
processes, the blocks of our seq type, each with its own choice; csrg (CSR) when the options make every padded\n\
format store over 1.5 times CSR. Each product against AIJ's. Prints pass/fail\n\
lines and the formats chosen.\n\
  -n <g>: the Laplacians' grids are g x g (default 300)\n\
  -scattered: only the matrix of columns scattered over a large x (2^21 rows)\n\n";

#include "ellgtest.h"

#define WIDTH 60

/* n x n, row i of 2 + i % 5 entries in columns spread over all n (sorted, distinct), nearly all far from the row */
static PetscErrorCode CSRScattered(const char *name, PetscInt n, CSR *c)
{
  PetscFunctionBeginUser;
  PetscCall(CSRCreate(name, n, n, 6 * n, c));
  for (PetscInt i = 0; i < n; i++) {
    const PetscInt len = 2 + i % 5, k0 = c->ia[i];

    for (PetscInt k = 0; k < len; k++) {
      c->ja[k0 + k] = (PetscInt)(((PetscInt64)i * 7919 + (PetscInt64)k * (n / len)) % n);
      c->va[k0 + k] = 1.0 + 0.001 * (PetscReal)(k + i % 7);
    }
    PetscCall(PetscSortInt(len, c->ja + k0));
    c->ia[i + 1] = k0 + len;
  }
  PetscFunctionReturn(0);
}

/* the format A chose (MatELLGGetFormat()) and its bytes relative to CSR's 12 nnz + 4 (m + 1) */
static PetscErrorCode Chosen(Mat A, char name[], size_t len, PetscReal *ratio)
{
  const char    *format;
  PetscLogDouble bytes;
  MatInfo        info;
  PetscInt       m;

  PetscFunctionBeginUser;
  PetscCall(MatELLGGetFormat(A, &format, &bytes, NULL));
  PetscCall(PetscStrncpy(name, format ? format : "", len));
  PetscCall(MatGetInfo(A, MAT_LOCAL, &info));
  PetscCall(MatGetLocalSize(A, &m, NULL));
  *ratio = (PetscReal)(bytes / (12.0 * info.nz_used + 4.0 * (m + 1)));
  PetscFunctionReturn(0);
}

/* the matrix of c as aijgpu (with -mat_aijgpu_format mode, NULL for the default) and as AIJ: the format chosen
   (printed when print), its bytes, and its product checked */
static PetscErrorCode CheckChoice(const CSR *c, const char *mode, const char *expect, PetscRandom rnd, PetscInt *nfail)
{
  Mat       A, R;
  char      name[16], line[128];
  PetscReal ratio;
  PetscBool ok = PETSC_TRUE, same = PETSC_TRUE, large = (PetscBool)(12.0 * c->ia[c->M] >= 1048576.0);

  PetscFunctionBeginUser;
  if (mode) PetscCall(PetscOptionsSetValue(NULL, "-mat_aijgpu_format", mode));
  PetscCall(CreateMatCSR(PETSC_COMM_SELF, PETSC_DECIDE, PETSC_DECIDE, c, MATAIJGPU, &A));
  PetscCall(CreateMatCSR(PETSC_COMM_SELF, PETSC_DECIDE, PETSC_DECIDE, c, MATAIJ, &R));
  if (mode) PetscCall(PetscOptionsClearValue(NULL, "-mat_aijgpu_format"));
  PetscCall(Chosen(A, name, sizeof(name), &ratio));
  if (expect) PetscCall(PetscStrcmp(name, expect, &same));
  else same = (PetscBool)(name[0] != 0);
  PetscCall(PetscSNPrintf(line, sizeof(line), "%s, %s: chose %s", c->name, mode ? mode : "auto", expect ? name : "a format"));
  PetscCall(PrintResult(PETSC_COMM_SELF, WIDTH, line, same, nfail));
  if (!same) PetscCall(PetscPrintf(PETSC_COMM_SELF, "    chose %s, expected %s\n", name, expect ? expect : "one"));
  if (large && (!mode || !expect)) {
    PetscCall(PetscSNPrintf(line, sizeof(line), "%s, %s: within 1.5 x CSR", c->name, mode ? mode : "auto"));
    PetscCall(PrintResult(PETSC_COMM_SELF, WIDTH, line, (PetscBool)(ratio > 0 && ratio <= 1.5), nfail));
    if (!(ratio > 0 && ratio <= 1.5)) PetscCall(PetscPrintf(PETSC_COMM_SELF, "    %g x CSR\n", (double)ratio));
  }
  PetscCall(CheckMat(A, R, rnd, c->name, &ok));
  PetscCall(PetscSNPrintf(line, sizeof(line), "%s, %s: product as AIJ's", c->name, mode ? mode : "auto"));
  PetscCall(PrintResult(PETSC_COMM_SELF, WIDTH, line, ok, nfail));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&R));
  PetscFunctionReturn(0);
}

/* new values in the same pattern keep the format; a new pattern (a full first row added to a Laplacian) chooses
   again */
static PetscErrorCode CheckReassembly(const CSR *lap, PetscRandom rnd, PetscInt *nfail)
{
  Mat          A, R;
  char         first[16], second[16];
  PetscReal    ratio;
  PetscBool    ok = PETSC_TRUE, same, ispjds;
  PetscInt     n = lap->M, *cols, zero = 0;
  PetscScalar *vals;

  PetscFunctionBeginUser;
  PetscCall(CreateMatCSR(PETSC_COMM_SELF, PETSC_DECIDE, PETSC_DECIDE, lap, MATAIJGPU, &A));
  PetscCall(Chosen(A, first, sizeof(first), &ratio));
  PetscCall(MatScale(A, 2.0));
  PetscCall(SetValuesCSR(A, lap, ADD_VALUES));
  PetscCall(Assemble(A, MAT_FINAL_ASSEMBLY));
  PetscCall(Chosen(A, second, sizeof(second), &ratio));
  PetscCall(PetscStrcmp(first, second, &same));
  PetscCall(PrintResult(PETSC_COMM_SELF, WIDTH, "new values, same pattern: the same format", same, nfail));

  PetscCall(PetscMalloc2(n, &cols, n, &vals));
  for (PetscInt j = 0; j < n; j++) {
    cols[j] = j;
    vals[j] = 0.5;
  }
  PetscCall(MatSetOption(A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
  PetscCall(MatSetValues(A, 1, &zero, n, cols, vals, ADD_VALUES));
  PetscCall(Assemble(A, MAT_FINAL_ASSEMBLY));
  PetscCall(PetscFree2(cols, vals));
  PetscCall(MatConvert(A, MATAIJ, MAT_INITIAL_MATRIX, &R));
  PetscCall(Chosen(A, second, sizeof(second), &ratio));
  PetscCall(PetscStrcmp(second, MATPJDS, &ispjds));
  PetscCall(PrintResult(PETSC_COMM_SELF, WIDTH, "new pattern with a full row: chosen again, pjds", ispjds, nfail));
  PetscCall(CheckMat(A, R, rnd, "new pattern", &ok));
  PetscCall(PrintResult(PETSC_COMM_SELF, WIDTH, "new pattern: product as AIJ's", ok, nfail));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&R));
  PetscFunctionReturn(0);
}

/* MatAIJGPUSetFormat() after the assembly: the format named at the next use, then auto's again; nothing on a
   matrix of one format */
static PetscErrorCode CheckSetFormat(const CSR *c, PetscRandom rnd, PetscInt *nfail)
{
  Mat       A, R, E;
  char      auto0[16], named[16], auto1[16], one[16];
  PetscReal ratio;
  PetscBool ok = PETSC_TRUE, ispjds, same, isellg;

  PetscFunctionBeginUser;
  PetscCall(CreateMatCSR(PETSC_COMM_SELF, PETSC_DECIDE, PETSC_DECIDE, c, MATAIJGPU, &A));
  PetscCall(CreateMatCSR(PETSC_COMM_SELF, PETSC_DECIDE, PETSC_DECIDE, c, MATAIJ, &R));
  PetscCall(CreateMatCSR(PETSC_COMM_SELF, PETSC_DECIDE, PETSC_DECIDE, c, MATELLG, &E));
  PetscCall(Chosen(A, auto0, sizeof(auto0), &ratio));
  PetscCall(MatAIJGPUSetFormat(A, MAT_AIJGPU_PJDS));
  PetscCall(Chosen(A, named, sizeof(named), &ratio));
  PetscCall(PetscStrcmp(named, MATPJDS, &ispjds));
  PetscCall(CheckMat(A, R, rnd, "MatAIJGPUSetFormat", &ok));
  PetscCall(MatAIJGPUSetFormat(A, MAT_AIJGPU_AUTO));
  PetscCall(Chosen(A, auto1, sizeof(auto1), &ratio));
  PetscCall(PetscStrcmp(auto0, auto1, &same));
  PetscCall(MatAIJGPUSetFormat(E, MAT_AIJGPU_PJDS));
  PetscCall(Chosen(E, one, sizeof(one), &ratio));
  PetscCall(PetscStrcmp(one, MATELLG, &isellg));
  PetscCall(PrintResult(PETSC_COMM_SELF, WIDTH, "MatAIJGPUSetFormat(pjds): pjds, product as AIJ's", (PetscBool)(ispjds && ok), nfail));
  PetscCall(PrintResult(PETSC_COMM_SELF, WIDTH, "MatAIJGPUSetFormat(auto): auto's format again", same, nfail));
  PetscCall(PrintResult(PETSC_COMM_SELF, WIDTH, "MatAIJGPUSetFormat() of an ellg matrix: still ellg", isellg, nfail));
  /* every format aijgpu knows (MatAIJGPUFormat, from ellg to csrg): chosen when named, the type of that name
     registered, the product AIJ's */
  for (PetscInt f = MAT_AIJGPU_ELLG; f <= MAT_AIJGPU_CSRG; f++) {
    Mat       T;
    PetscBool named_ok, typed = PETSC_TRUE;
    char      line[64];

    PetscCall(MatAIJGPUSetFormat(A, (MatAIJGPUFormat)f));
    PetscCall(Chosen(A, named, sizeof(named), &ratio));
    PetscCall(PetscStrcmp(named, MatAIJGPUFormats[f], &named_ok));
    PetscCall(CheckMat(A, R, rnd, MatAIJGPUFormats[f], &ok));
    PetscCall(MatCreate(PETSC_COMM_SELF, &T));
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    if (MatSetType(T, MatAIJGPUFormats[f])) typed = PETSC_FALSE;
    PetscCall(PetscPopErrorHandler());
    PetscCall(MatDestroy(&T));
    PetscCall(PetscSNPrintf(line, sizeof(line), "MatAIJGPUSetFormat(%s): chosen, a type, AIJ's product", MatAIJGPUFormats[f]));
    PetscCall(PrintResult(PETSC_COMM_SELF, WIDTH, line, (PetscBool)(named_ok && typed && ok), nfail));
  }
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&R));
  PetscCall(MatDestroy(&E));
  PetscFunctionReturn(0);
}

/* on several processes: the blocks are of our seq type, each choosing its own format, and the product is AIJ's */
static PetscErrorCode CheckParallel(const CSR *c, PetscRandom rnd, PetscInt *nfail)
{
  Mat       A, R, Ad, Ao;
  PetscBool ok = PETSC_TRUE, isd, iso;
  int       all;
  char      name[2][16];
  PetscReal ratio;

  PetscFunctionBeginUser;
  PetscCall(CreateMatCSR(PETSC_COMM_WORLD, PETSC_DECIDE, PETSC_DECIDE, c, MATAIJGPU, &A));
  PetscCall(CreateMatCSR(PETSC_COMM_WORLD, PETSC_DECIDE, PETSC_DECIDE, c, MATAIJ, &R));
  PetscCall(MatMPIAIJGetSeqAIJ(A, &Ad, &Ao, NULL));
  PetscCall(PetscObjectTypeCompare((PetscObject)Ad, MATSEQAIJGPU, &isd));
  PetscCall(PetscObjectTypeCompare((PetscObject)Ao, MATSEQAIJGPU, &iso));
  PetscCall(Chosen(Ad, name[0], sizeof(name[0]), &ratio));
  PetscCall(Chosen(Ao, name[1], sizeof(name[1]), &ratio));
  all = (int)(isd && iso && name[0][0] && name[1][0]);
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &all, 1, MPI_INT, MPI_MIN, PETSC_COMM_WORLD));
  PetscCall(PrintResult(PETSC_COMM_WORLD, WIDTH, "parallel: blocks of seqaijgpu, each chose a format", (PetscBool)all, nfail));
  ok = PETSC_TRUE;
  PetscCall(CheckMat(A, R, rnd, "parallel", &ok));
  PetscCall(PrintResult(PETSC_COMM_WORLD, WIDTH, "parallel: product as AIJ's", ok, nfail));
  PetscCall(MatAIJGPUSetFormat(A, MAT_AIJGPU_ELLG)); /* each block's choice */
  PetscCall(Chosen(Ad, name[0], sizeof(name[0]), &ratio));
  PetscCall(Chosen(Ao, name[1], sizeof(name[1]), &ratio));
  all = (int)(!strcmp(name[0], MATELLG) && !strcmp(name[1], MATELLG));
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &all, 1, MPI_INT, MPI_MIN, PETSC_COMM_WORLD));
  ok = PETSC_TRUE;
  PetscCall(CheckMat(A, R, rnd, "parallel ellg", &ok));
  PetscCall(PrintResult(PETSC_COMM_WORLD, WIDTH, "parallel MatAIJGPUSetFormat(ellg): both blocks", (PetscBool)(all && ok), nfail));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&R));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  PetscMPIInt size;
  PetscRandom rnd;
  PetscInt    g = 300, nfail = 0, *len;
  PetscBool   scatter = PETSC_FALSE;
  CSR         equal, lap, small, dense, bigdense, pl, padded, scattered;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscELLGInitializePackage());
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &g, NULL));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(RandomCreate(PETSC_COMM_WORLD, 15, &rnd));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-scattered", &scatter, NULL));
  PetscCall(CSRLaplacian("laplacian", g, &lap));
  if (scatter) { /* 2^21 rows: a test of its own */
    PetscCall(CSRScattered("scattered columns", 1 << 21, &scattered));
    PetscCall(CheckChoice(&scattered, NULL, MATCSRG, rnd, &nfail));
    PetscCall(CSRDestroy(&scattered));
  } else if (size == 1) {
    PetscCall(PetscMalloc1(g * g, &len));
    for (PetscInt i = 0; i < g * g; i++) len[i] = 7;
    PetscCall(CSRRandom("equal rows", g * g, g * g, 0.0, 0.0, len, 3, &equal));
    PetscCall(PetscFree(len));
    PetscCall(CSRLaplacianDenseRow(g, &dense));
    PetscCall(CSRPowerLaw("power law", g * g, 2, 1.2, 5, &pl));
    PetscCall(CheckChoice(&equal, NULL, MATELLG, rnd, &nfail));
    PetscCall(CheckChoice(&lap, NULL, MATCSRG, rnd, &nfail));
    PetscCall(CheckChoice(&dense, NULL, MATPJDS, rnd, &nfail));
    PetscCall(CSRLaplacianDenseRow(440, &bigdense)); /* over 2^20 entries: its long row alone does not make it pjds */
    PetscCall(PetscStrncpy(bigdense.name, "large laplacian with a dense row", sizeof(bigdense.name)));
    PetscCall(CheckChoice(&bigdense, NULL, MATSLICEDELL, rnd, &nfail));
    PetscCall(CSRDestroy(&bigdense));
    PetscCall(CheckChoice(&pl, NULL, MATPJDS, rnd, &nfail));
    PetscCall(CheckChoice(&lap, "ellg", MATELLG, rnd, &nfail));
    PetscCall(CheckChoice(&pl, "slicedell", MATSLICEDELL, rnd, &nfail));
    PetscCall(CheckChoice(&lap, "csrg", MATCSRG, rnd, &nfail));
    /* 12 rows of 1000 entries among 12000 of 8, none split out, pjds padding blocks of 1024 rows and slicedell
       slices of 32 unsorted rows: every padded format stores over 1.5 times CSR (1.3 MB), and csrg is taken */
    PetscCall(PetscMalloc1(12000, &len));
    for (PetscInt i = 0; i < 12000; i++) len[i] = i % 1000 == 500 ? 1000 : 8;
    PetscCall(CSRRandom("rows padded far", 12000, 12000, 0.0, 0.0, len, 5, &padded));
    PetscCall(PetscFree(len));
    PetscCall(PetscOptionsInsertString(NULL, "-mat_ellg_long_row_threshold -1 -mat_pjds_long_row_threshold -1 -mat_slicedell_long_row_threshold -1 -mat_pjds_block_rows 1024 -mat_slicedell_slice_height 32 -mat_slicedell_sigma 1"));
    PetscCall(CheckChoice(&padded, NULL, MATCSRG, rnd, &nfail));
    PetscCall(PetscOptionsClearValue(NULL, "-mat_ellg_long_row_threshold"));
    PetscCall(PetscOptionsClearValue(NULL, "-mat_pjds_long_row_threshold"));
    PetscCall(PetscOptionsClearValue(NULL, "-mat_slicedell_long_row_threshold"));
    PetscCall(PetscOptionsClearValue(NULL, "-mat_pjds_block_rows"));
    PetscCall(PetscOptionsClearValue(NULL, "-mat_slicedell_slice_height"));
    PetscCall(PetscOptionsClearValue(NULL, "-mat_slicedell_sigma"));
    PetscCall(CSRDestroy(&padded));
    PetscCall(CheckChoice(&lap, "time", NULL, rnd, &nfail));
    PetscCall(CSRLaplacian("small laplacian", 60, &small));
    PetscCall(CheckChoice(&small, NULL, MATCSRG, rnd, &nfail));
    PetscCall(CheckReassembly(&small, rnd, &nfail));
    PetscCall(CheckSetFormat(&small, rnd, &nfail));
    PetscCall(CSRDestroy(&small));
    PetscCall(CSRDestroy(&equal));
    PetscCall(CSRDestroy(&dense));
    PetscCall(CSRDestroy(&pl));
  } else PetscCall(CheckParallel(&lap, rnd, &nfail));
  PetscCall(CSRDestroy(&lap));
  PetscCall(PetscRandomDestroy(&rnd));
  if (nfail) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%" PetscInt_FMT " FAILED\n", nfail));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   # timeoutfactor: the time mode builds every format, and a matrix of over 2^20 entries is chosen for; on a GPU
   # shared by the other tests that can pass a minute
   test:
      suffix: 1
      args: -n 300
      output_file: output/ex15_1.out
      timeoutfactor: 3

   test:
      suffix: mpi
      nsize: {{2 3}}
      args: -n 60
      output_file: output/ex15_mpi.out

   test:
      suffix: scattered
      args: -scattered
      output_file: output/ex15_scattered.out

TEST*/
