/* The matrices of the benchmarks (bench_matrices.h) */
#include "bench_matrices.h"

PetscErrorCode CreateFromCSR(const CSR *A, const char *type, PetscOptions options, Mat *B)
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
  PetscCall(MatELLGGetFormat(*B, NULL, NULL, NULL)); /* our types store the format at their first use on the device: now */
  PetscFunctionReturn(0);
}

PetscErrorCode BuildFormat(const CSR *A, const char *type, PetscOptions options, Mat *B, char *why, size_t len)
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

PetscErrorCode CheckTypes(PetscInt n, char *const types[])
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

PetscErrorCode SpecListAddEntry(SpecList *l, const char *spec)
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

PetscErrorCode ReadSuite(const char *path, SpecList *l)
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

PetscErrorCode LoadMatrix(const char *spec, CSR *A)
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

PetscErrorCode TryLoadMatrix(const char *spec, CSR *A, PetscErrorCode *err, char *why, size_t len)
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

PetscErrorCode BenchMatrixSpecs(PetscInt ndef, const PetscInt defsizes[], SpecList *specs)
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
      PetscBool known;

      PetscCall(GeneratorKnown(gens[g], &known));
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
