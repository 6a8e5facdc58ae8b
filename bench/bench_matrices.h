/*
   The matrices of the benchmarks (bench_spmv, bench_spmm): specs from the options (generators, Matrix
   Market and PETSc binary files, folders of Matrix Market files, suite files) loaded into the bench's
   CSR, and matrices of a given type made from it (bench_matrices.c).
*/
#pragma once
#include <ctype.h>
#include <dirent.h>
#include <petscellg.h>
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
PetscErrorCode CreateFromCSR(const CSR *A, const char *type, PetscOptions options, Mat *B);

/* *B in the given type (CreateFromCSR()), or NULL with the reason in why */
PetscErrorCode BuildFormat(const CSR *A, const char *type, PetscOptions options, Mat *B, char *why, size_t len);

typedef struct {
  char   **spec;
  PetscInt n, max;
} SpecList;

/* CheckTypes - an error now for a type MatSetType() does not know, rather than a skipped row per matrix */
PetscErrorCode CheckTypes(PetscInt n, char *const types[]);

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
PetscErrorCode SpecListAddEntry(SpecList *l, const char *spec);

/* Matrix Market by name (.mtx, .mtx.gz), or named with a folder: a file, not a generator */
static inline PetscBool IsFileSpec(const char *spec)
{
  return (PetscBool)(strchr(spec, '/') || BenchEndsWith(spec, ".mtx") || BenchEndsWith(spec, ".mtx.gz"));
}

/* The lines of a suite file: one matrix spec each (a folder too), # starts a comment. A relative
   file or folder name is taken from the suite's folder when it is there. */
PetscErrorCode ReadSuite(const char *path, SpecList *l);

/* The matrix of a spec: a generator, a Matrix Market file or a PETSc binary file. After an error A holds
   nothing */
PetscErrorCode LoadMatrix(const char *spec, CSR *A);

/* LoadMatrix(), but a matrix that cannot be loaded does not end the run: then *err is the PETSc error code
   (PETSC_ERR_SUP: a matrix the readers do not support, complex, Hermitian or dense; else a malformed,
   missing or unreadable file, or a bad spec), why says why in PETSc's words, and A holds nothing, as
   LoadMatrix() frees what it allocated; *err is 0 when the matrix was loaded */
PetscErrorCode TryLoadMatrix(const char *spec, CSR *A, PetscErrorCode *err, char *why, size_t len);

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
PetscErrorCode BenchMatrixSpecs(PetscInt ndef, const PetscInt defsizes[], SpecList *specs);
