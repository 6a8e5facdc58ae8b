/*
   Matrix files for bench_spmv: Matrix Market (.mtx, or .mtx.gz read through `gzip -dc`) and
   PETSc binary (MatLoad), read into the bench's CSR.

   Matrix Market: coordinate format; real, integer or pattern values (pattern: 1); general,
   symmetric (the other triangle is added) or skew-symmetric (added with the opposite sign).
   Duplicate entries are summed. Complex or Hermitian matrices, the array (dense) format, a
   malformed header, size line or entry, an index out of range, or fewer or more entries than the
   size line announces are errors naming the file and line. After an error the readers have freed
   what they allocated and closed the file, so that a bench can go on to its next matrix (bench_files.c).
*/
#pragma once
#include <errno.h>
#include <petscmat.h>
#include "bench_csr.h"
#if defined(PETSC_HAVE_POPEN)
  #include <sys/wait.h>
#endif

/* An error handler that keeps the first message instead of printing it: a format that cannot be built (say,
   out of memory) is reported in its row, a matrix that cannot be loaded in its line, instead of ending the
   run. The message is PETSc's text of the error code, then the error's own message from message + detail */
typedef struct {
  char      message[512];
  size_t    detail;
  PetscBool set;
} ErrorCapture;

PetscErrorCode CaptureError(MPI_Comm comm, int line, const char *func, const char *file, PetscErrorCode n, PetscErrorType p, const char *mess, void *ctx);

typedef struct {
  FILE       *fp;
  const char *path;
  PetscInt64  lineno;
  char        line[1024];
} MMReader;

/* the next line, without its end, in r->line; *eof at the end of the file */
PetscErrorCode MMNextLine(MMReader *r, PetscBool *eof);

/* the next line that is neither a comment nor blank; *eof at the end of the file */
PetscErrorCode MMNextDataLine(MMReader *r, PetscBool *eof);

/* an integer token at *s, which moves past it: *ok when there is one, followed by blank or end */
PetscInt64 MMInt(char **s, PetscBool *ok);

double MMReal(char **s, PetscBool *ok);

typedef enum {
  MM_GENERAL,
  MM_SYMMETRIC,
  MM_SKEW
} MMSymmetry;

/* The nnz entries of an m x n matrix after the size line into the triplets (ti, tj, tv), *nt of them
   (symmetric and skew-symmetric: the other triangle's too); ifield 2: pattern */
PetscErrorCode MMReadEntries(MMReader *r, PetscInt64 m, PetscInt64 n, PetscInt64 nnz, PetscInt ifield, PetscInt isym, PetscInt *ti, PetscInt *tj, PetscScalar *tv, PetscInt *nt);

/* Reads the Matrix Market stream r->fp into triplets, then A */
PetscErrorCode MMParse(MMReader *r, CSR *A);

PetscBool BenchEndsWith(const char *s, const char *suffix);

/* the file's name without folder and without .mtx.gz, .mtx or another extension */
PetscErrorCode BenchMatrixNameOfFile(const char *path, char *name, size_t len);

#if defined(PETSC_HAVE_POPEN)
/* path in single quotes for the shell: ' becomes '\'' */
PetscErrorCode BenchShellQuote(const char *path, char *quoted, size_t len);

/* gzip -t on the file: its pclose() status, and gzip's first line of output, its reason when it fails */
PetscErrorCode BenchGzipTest(const char *quoted, int *status, char *reason, size_t len);

/* "exit status N" or "killed by signal N" of a pclose() status */
PetscErrorCode BenchWaitStatus(int status, char *how, size_t len);
#endif

/* A Matrix Market file, .mtx or .mtx.gz. After an error A holds nothing and the file is closed */
PetscErrorCode ReadMatrixMarket(const char *path, CSR *A);

/* A, the CSR of the SEQAIJ matrix M loaded from viewer */
PetscErrorCode CSRLoadSeqAIJ(PetscViewer viewer, Mat M, CSR *A);

/* A PETSc binary matrix file (MatLoad into SEQAIJ). After an error A holds nothing and the file is closed */
PetscErrorCode ReadPetscBinary(const char *path, CSR *A);
