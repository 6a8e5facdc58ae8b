/*
   The matrices of the benchmarks (bench_spmv, bench_spmm): specs from the options (generators, Matrix
   Market and PETSc binary files, folders of Matrix Market files, suite files) loaded into the bench's
   CSR, and matrices of a given type made from it. Header-only, as the other bench headers; static inline, so that a bench may leave some
   unused.
*/
#pragma once
#include <ctype.h>
#include <dirent.h>
#include <petscmat.h>
#include "bench_generators.h"
#include "bench_files.h"

#define BENCH_MAX_LIST     64
#define BENCH_MAX_MATRICES 1024

/* the help text of the options BenchMatrixSpecs() reads, but -n (whose default each bench gives) */
#define BENCH_MATRICES_HELP \
  "  -matrices <spec,...>     matrices (list), each a generator <name>-<n>[-<p>], a file or a folder:\n" GENERATOR_HELP "                           file.mtx, file.mtx.gz: Matrix Market coordinate (real, integer, pattern;\n\
                           general, symmetric, skew-symmetric); any other file: PETSc binary (MatLoad);\n\
                           a folder: each .mtx and .mtx.gz file in it, in sorted order\n\
  -suite <file>            more matrices: one spec per line, # comments; relative file and folder\n\
                           names are looked up next to the suite file first\n\
  -gen <lap3d7>            generators (list) that -n gives sizes to\n"

/* A matrix of the given type with the values of A: assembled like any AIJ matrix, so an AIJ
   subclass builds its format at the final assembly; a type that is no AIJ subclass (which ignores
   the CSR preallocation) is converted from AIJ. options: the options database the matrix reads its
   own options from (NULL: the global one) */
static inline PetscErrorCode CreateFromCSR(const CSR *A, const char *type, PetscOptions options, Mat *B)
{
  PetscBool assembled;

  PetscFunctionBeginUser;
  PetscCall(MatCreate(PETSC_COMM_SELF, B));
  if (options) PetscCall(PetscObjectSetOptions((PetscObject)*B, options));
  PetscCall(MatSetSizes(*B, A->nrows, A->ncols, A->nrows, A->ncols));
  PetscCall(MatSetType(*B, type));
  PetscCall(MatSetFromOptions(*B));
  PetscCall(MatSeqAIJSetPreallocationCSR(*B, A->rowptr, A->colidx, A->val));
  PetscCall(MatAssembled(*B, &assembled));
  if (!assembled) {
    Mat aij;

    PetscCall(MatDestroy(B));
    PetscCall(MatCreateSeqAIJWithArrays(PETSC_COMM_SELF, A->nrows, A->ncols, A->rowptr, A->colidx, A->val, &aij));
    PetscCall(MatConvert(aij, type, MAT_INITIAL_MATRIX, B));
    PetscCall(MatDestroy(&aij));
  }
  PetscFunctionReturn(0);
}

/* *B in the given type (CreateFromCSR()), or NULL with the reason in why */
static inline PetscErrorCode BuildFormat(const CSR *A, const char *type, PetscOptions options, Mat *B, char *why, size_t len)
{
  ErrorCapture   capture = {.set = PETSC_FALSE};
  PetscErrorCode ierr;

  PetscFunctionBeginUser;
  why[0] = 0;
  *B     = NULL;
  PetscCall(PetscPushErrorHandler(CaptureError, &capture));
  ierr = CreateFromCSR(A, type, options, B);
  if (ierr) (void)MatDestroy(B);
  PetscCall(PetscPopErrorHandler());
  if (ierr) {
    *B = NULL;
    PetscCall(PetscSNPrintf(why, len, "building failed: %s", capture.message));
  }
  PetscFunctionReturn(0);
}

typedef struct {
  char   **spec;
  PetscInt n, max;
} SpecList;

/* CheckTypes - an error now for a type MatSetType() does not know, rather than a skipped row per matrix */
static inline PetscErrorCode CheckTypes(PetscInt n, char *const types[])
{
  PetscFunctionBeginUser;
  for (PetscInt f = 0; f < n; f++) {
    Mat A;

    PetscCall(MatCreate(PETSC_COMM_SELF, &A));
    PetscCall(MatSetSizes(A, 1, 1, 1, 1));
    PetscCall(MatSetType(A, types[f]));
    PetscCall(MatDestroy(&A));
  }
  PetscFunctionReturn(0);
}

static inline PetscErrorCode SpecListAdd(SpecList *l, const char *spec)
{
  PetscFunctionBeginUser;
  if (l->n == l->max) {
    l->max = PetscMax(16, 2 * l->max);
    PetscCall(PetscRealloc(l->max * sizeof(char *), &l->spec));
  }
  PetscCall(PetscStrallocpy(spec, &l->spec[l->n++]));
  PetscFunctionReturn(0);
}

static inline PetscErrorCode SpecListDestroy(SpecList *l)
{
  PetscFunctionBeginUser;
  for (PetscInt i = 0; i < l->n; i++) PetscCall(PetscFree(l->spec[i]));
  PetscCall(PetscFree(l->spec));
  PetscFunctionReturn(0);
}

/* spec, or, when it names a folder, each .mtx and .mtx.gz file in it, in sorted order (an error
   when there is none) */
static inline PetscErrorCode SpecListAddEntry(SpecList *l, const char *spec)
{
  const char    *sep   = BenchEndsWith(spec, "/") ? "" : "/";
  SpecList       files = {NULL, 0, 0};
  PetscInt      *perm;
  PetscBool      folder;
  DIR           *dir;
  struct dirent *e;

  PetscFunctionBeginUser;
  PetscCall(PetscTestDirectory(spec, 'r', &folder));
  if (!folder) {
    PetscCall(SpecListAdd(l, spec));
    PetscFunctionReturn(0);
  }
  dir = opendir(spec);
  PetscCheck(dir, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot read the folder %s", spec);
  while ((e = readdir(dir))) {
    char path[2 * PETSC_MAX_PATH_LEN];

    if (!BenchEndsWith(e->d_name, ".mtx") && !BenchEndsWith(e->d_name, ".mtx.gz")) continue;
    PetscCall(PetscSNPrintf(path, sizeof(path), "%s%s%s", spec, sep, e->d_name));
    PetscCall(SpecListAdd(&files, path));
  }
  closedir(dir);
  PetscCheck(files.n, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "matrix folder %s holds no Matrix Market file (.mtx, .mtx.gz)", spec);
  PetscCall(PetscMalloc1(files.n, &perm));
  for (PetscInt i = 0; i < files.n; i++) perm[i] = i;
  PetscCall(PetscSortStrWithPermutation(files.n, (const char **)files.spec, perm));
  for (PetscInt i = 0; i < files.n; i++) PetscCall(SpecListAdd(l, files.spec[perm[i]]));
  PetscCall(PetscFree(perm));
  PetscCall(SpecListDestroy(&files));
  PetscFunctionReturn(0);
}

/* Matrix Market by name (.mtx, .mtx.gz), or named with a folder: a file, not a generator */
static inline PetscBool IsFileSpec(const char *spec)
{
  return (PetscBool)(strchr(spec, '/') || BenchEndsWith(spec, ".mtx") || BenchEndsWith(spec, ".mtx.gz"));
}

/* The lines of a suite file: one matrix spec each (a folder too), # starts a comment. A relative
   file or folder name is taken from the suite's folder when it is there. */
static inline PetscErrorCode ReadSuite(const char *path, SpecList *l)
{
  FILE       *fp;
  char        line[PETSC_MAX_PATH_LEN], dir[PETSC_MAX_PATH_LEN];
  const char *slash  = strrchr(path, '/');
  PetscInt    lineno = 0;

  PetscFunctionBeginUser;
  fp = fopen(path, "r");
  PetscCheck(fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "-suite %s: cannot open the file", path);
  PetscCall(PetscStrncpy(dir, path, sizeof(dir)));
  dir[slash ? slash - path : 0] = 0;
  while (fgets(line, sizeof(line), fp)) {
    char     *s = line, *e, resolved[2 * PETSC_MAX_PATH_LEN];
    PetscBool found, readable = PETSC_FALSE;
    PetscInt  g, n, p;

    lineno++;
    PetscCheck(strchr(line, '\n') || feof(fp), PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s:%" PetscInt_FMT ": line too long", path, lineno);
    if ((e = strchr(s, '#'))) *e = 0;
    while (*s && isspace((unsigned char)*s)) s++;
    for (e = s + strlen(s); e > s && isspace((unsigned char)e[-1]); e--) e[-1] = 0;
    if (!*s) continue;
    if (s[0] != '/' && dir[0]) {
      PetscCall(ParseGeneratorSpec(s, &found, &g, &n, &p));
      if (IsFileSpec(s) || !found) {
        PetscCall(PetscSNPrintf(resolved, sizeof(resolved), "%s/%s", dir, s));
        PetscCall(PetscTestFile(resolved, 'r', &readable));
        if (!readable) PetscCall(PetscTestDirectory(resolved, 'r', &readable));
      }
    }
    PetscCall(SpecListAddEntry(l, readable ? resolved : s));
  }
  fclose(fp);
  PetscFunctionReturn(0);
}

/* The matrix of a spec: a generator, a Matrix Market file or a PETSc binary file. After an error A holds
   nothing */
static inline PetscErrorCode LoadMatrix(const char *spec, CSR *A)
{
  PetscBool found = PETSC_FALSE, readable;
  PetscInt  g, n, p;

  PetscFunctionBeginUser;
  if (!IsFileSpec(spec)) PetscCall(ParseGeneratorSpec(spec, &found, &g, &n, &p));
  if (found) PetscCall(GenerateMatrix(g, n, p, A));
  else if (BenchEndsWith(spec, ".mtx") || BenchEndsWith(spec, ".mtx.gz")) PetscCall(ReadMatrixMarket(spec, A));
  else {
    PetscCall(PetscTestFile(spec, 'r', &readable));
    PetscCheck(readable, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "matrix %s: neither a generator <name>-<n>[-<p>] (lap2d5, lap3d7, lap3d27, block5, random, powerlaw, circuit, band) nor a readable file", spec);
    PetscCall(ReadPetscBinary(spec, A));
  }
  PetscFunctionReturn(0);
}

/* LoadMatrix(), but a matrix that cannot be loaded does not end the run: then *err is the PETSc error code
   (PETSC_ERR_SUP: a matrix the readers do not support, complex, Hermitian or dense; else a malformed,
   missing or unreadable file, or a bad spec), why says why in PETSc's words, and A holds nothing, as
   LoadMatrix() frees what it allocated; *err is 0 when the matrix was loaded */
static inline PetscErrorCode TryLoadMatrix(const char *spec, CSR *A, PetscErrorCode *err, char *why, size_t len)
{
  ErrorCapture capture = {.set = PETSC_FALSE};

  PetscFunctionBeginUser;
  *err   = 0;
  why[0] = 0;
  PetscCall(PetscPushErrorHandler(CaptureError, &capture));
  *err = LoadMatrix(spec, A);
  PetscCall(PetscPopErrorHandler());
  if (!*err) PetscFunctionReturn(0);
  if (!capture.set) PetscCall(PetscSNPrintf(why, len, "error %d", (int)*err));
  else if (*err == PETSC_ERR_SUP && capture.message[capture.detail]) PetscCall(PetscStrncpy(why, capture.message + capture.detail, len)); /* says what is not supported */
  else PetscCall(PetscStrncpy(why, capture.message, len));
  PetscFunctionReturn(0);
}

/* "name: R rows, N nonzeros" (and the columns when not square) */
static inline PetscErrorCode MatrixDescription(const CSR *A, char *s, size_t len)
{
  PetscFunctionBeginUser;
  if (A->nrows == A->ncols) PetscCall(PetscSNPrintf(s, len, "%s: %" PetscInt_FMT " rows, %" PetscInt_FMT " nonzeros", A->name, A->nrows, A->nnz));
  else PetscCall(PetscSNPrintf(s, len, "%s: %" PetscInt_FMT " rows, %" PetscInt_FMT " columns, %" PetscInt_FMT " nonzeros", A->name, A->nrows, A->ncols, A->nnz));
  PetscFunctionReturn(0);
}

/* the matrix's description on a line */
static inline PetscErrorCode PrintMatrixLine(const CSR *A)
{
  char line[256];

  PetscFunctionBeginUser;
  PetscCall(MatrixDescription(A, line, sizeof(line)));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s\n", line));
  PetscFunctionReturn(0);
}

/* BenchMatrixSpecs - the matrices of the options: -gen x -n (when either is given, or neither -matrices nor
   -suite is), -matrices, the lines of -suite, with folders replaced by their files; without -n, the ndef
   sizes defsizes[], and without -gen, lap3d7 */
static inline PetscErrorCode BenchMatrixSpecs(PetscInt ndef, const PetscInt defsizes[], SpecList *specs)
{
  PetscInt  sizes[BENCH_MAX_LIST], nsizes = BENCH_MAX_LIST, ngens = BENCH_MAX_LIST, nmatrices = BENCH_MAX_MATRICES;
  char     *gens[BENCH_MAX_LIST], *matrices[BENCH_MAX_MATRICES], suite[PETSC_MAX_PATH_LEN] = "";
  PetscBool setn, setgen, setmatrices;

  PetscFunctionBeginUser;
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Matrices", NULL);
  PetscCall(PetscOptionsStringArray("-matrices", "matrices: generators <name>-<n>[-<p>] or files", NULL, matrices, &nmatrices, &setmatrices));
  PetscCall(PetscOptionsString("-suite", "a file of matrices, one per line", NULL, suite, suite, sizeof(suite), NULL));
  PetscCall(PetscOptionsStringArray("-gen", "matrix generators for the sizes of -n", NULL, gens, &ngens, &setgen));
  PetscCall(PetscOptionsIntArray("-n", "sizes", NULL, sizes, &nsizes, &setn));
  PetscOptionsEnd();
  if (!setmatrices) nmatrices = 0;
  if (!setn) {
    nsizes = ndef;
    PetscCall(PetscArraycpy(sizes, defsizes, ndef));
  }
  if (!setgen) {
    ngens = 1;
    PetscCall(PetscStrallocpy("lap3d7", &gens[0]));
  }
  if (setgen || setn || (!setmatrices && !suite[0])) {
    for (PetscInt g = 0; g < ngens; g++) {
      PetscBool known = PETSC_FALSE;

      for (size_t k = 0; k < PETSC_STATIC_ARRAY_LENGTH(generators); k++) {
        PetscBool match;

        PetscCall(PetscStrcmp(gens[g], generators[k].name, &match));
        known = (PetscBool)(known || match);
      }
      PetscCheck(known, PETSC_COMM_WORLD, PETSC_ERR_ARG_UNKNOWN_TYPE, "-gen %s: unknown generator (known: lap2d5, lap3d7, lap3d27, block5, random, powerlaw, circuit, band)", gens[g]);
      for (PetscInt s = 0; s < nsizes; s++) {
        char spec[128];

        PetscCall(PetscSNPrintf(spec, sizeof(spec), "%s-%" PetscInt_FMT, gens[g], sizes[s]));
        PetscCall(SpecListAdd(specs, spec));
      }
    }
  }
  for (PetscInt m = 0; m < nmatrices; m++) PetscCall(SpecListAddEntry(specs, matrices[m]));
  if (suite[0]) PetscCall(ReadSuite(suite, specs));
  for (PetscInt g = 0; g < ngens; g++) PetscCall(PetscFree(gens[g]));
  for (PetscInt m = 0; m < nmatrices; m++) PetscCall(PetscFree(matrices[m]));
  PetscFunctionReturn(0);
}
