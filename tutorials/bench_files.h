/*
   Matrix files for bench_spmv: Matrix Market (.mtx, or .mtx.gz read through `gzip -dc`) and
   PETSc binary (MatLoad), read into the bench's CSR.

   Matrix Market: coordinate format; real, integer or pattern values (pattern: 1); general,
   symmetric (the other triangle is added) or skew-symmetric (added with the opposite sign).
   Duplicate entries are summed. Complex or Hermitian matrices, the array (dense) format, a
   malformed header, size line or entry, an index out of range, or fewer or more entries than the
   size line announces are errors naming the file and line.
*/
#pragma once
#include <errno.h>
#include "bench_csr.h"

typedef struct {
  FILE       *fp;
  const char *path;
  PetscInt64  lineno;
  char        line[1024];
} MMReader;

/* the next line, without its end, in r->line; *eof at the end of the file */
static PetscErrorCode MMNextLine(MMReader *r, PetscBool *eof)
{
  size_t len;

  PetscFunctionBeginUser;
  *eof = PETSC_FALSE;
  if (!fgets(r->line, sizeof(r->line), r->fp)) {
    PetscCheck(!ferror(r->fp), PETSC_COMM_SELF, PETSC_ERR_FILE_READ, "%s: read error after line %" PetscInt64_FMT, r->path, r->lineno);
    *eof = PETSC_TRUE;
    PetscFunctionReturn(0);
  }
  r->lineno++;
  len = strlen(r->line);
  if (len && r->line[len - 1] == '\n') r->line[--len] = 0;
  else if (!feof(r->fp)) {
    int c;

    /* longer than the buffer: only comments may be */
    PetscCheck(r->line[0] == '%', PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s:%" PetscInt64_FMT ": line longer than %d characters", r->path, r->lineno, (int)sizeof(r->line) - 2);
    while ((c = fgetc(r->fp)) != EOF && c != '\n') { }
  }
  if (len && r->line[len - 1] == '\r') r->line[--len] = 0;
  PetscFunctionReturn(0);
}

/* the next line that is neither a comment nor blank; *eof at the end of the file */
static PetscErrorCode MMNextDataLine(MMReader *r, PetscBool *eof)
{
  PetscFunctionBeginUser;
  for (;;) {
    const char *s = r->line;

    PetscCall(MMNextLine(r, eof));
    if (*eof) break;
    while (*s == ' ' || *s == '\t') s++;
    if (*s && *s != '%') break;
  }
  PetscFunctionReturn(0);
}

/* an integer token at *s, which moves past it: *ok when there is one, followed by blank or end */
static PetscInt64 MMInt(char **s, PetscBool *ok)
{
  char     *end;
  long long v;

  errno = 0;
  v     = strtoll(*s, &end, 10);
  *ok   = (PetscBool)(end != *s && !errno && (!*end || *end == ' ' || *end == '\t'));
  *s    = end;
  return (PetscInt64)v;
}

static double MMReal(char **s, PetscBool *ok)
{
  char  *end;
  double v = strtod(*s, &end);

  *ok = (PetscBool)(end != *s && (!*end || *end == ' ' || *end == '\t'));
  *s  = end;
  return v;
}

typedef enum {
  MM_GENERAL,
  MM_SYMMETRIC,
  MM_SKEW
} MMSymmetry;

/* Reads the Matrix Market stream r->fp into triplets, then A */
static PetscErrorCode MMParse(MMReader *r, CSR *A)
{
  char         banner[64], object[64], format[64], field[64], symmetry[64], extra[2];
  const char  *fields[] = {"real", "integer", "pattern"}, *syms[] = {"general", "symmetric", "skew-symmetric"};
  PetscInt     ifield = -1, isym = -1, nt = 0;
  PetscInt64   m, n, nnz, cap;
  PetscInt    *ti, *tj;
  PetscScalar *tv;
  PetscBool    eof, ok, match;
  char        *s;

  PetscFunctionBeginUser;
  PetscCall(MMNextLine(r, &eof));
  PetscCheck(!eof, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s: empty file: no Matrix Market header", r->path);
  PetscCheck(sscanf(r->line, "%63s %63s %63s %63s %63s %1s", banner, object, format, field, symmetry, extra) == 5, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s:1: not a Matrix Market header \"%%%%MatrixMarket matrix coordinate <field> <symmetry>\": %s", r->path, r->line);
  PetscCall(PetscStrcasecmp(banner, "%%MatrixMarket", &match));
  PetscCheck(match, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s:1: not a Matrix Market header \"%%%%MatrixMarket matrix coordinate <field> <symmetry>\": %s", r->path, r->line);
  PetscCall(PetscStrcasecmp(object, "matrix", &match));
  PetscCheck(match, PETSC_COMM_SELF, PETSC_ERR_SUP, "%s:1: Matrix Market object '%s' is not supported: only 'matrix'", r->path, object);
  PetscCall(PetscStrcasecmp(format, "array", &match));
  PetscCheck(!match, PETSC_COMM_SELF, PETSC_ERR_SUP, "%s:1: Matrix Market array (dense) format is not supported: only 'coordinate'", r->path);
  PetscCall(PetscStrcasecmp(format, "coordinate", &match));
  PetscCheck(match, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s:1: unknown Matrix Market format '%s': only 'coordinate' is supported", r->path, format);
  for (PetscInt k = 0; k < 3; k++) {
    PetscCall(PetscStrcasecmp(field, fields[k], &match));
    if (match) ifield = k;
    PetscCall(PetscStrcasecmp(symmetry, syms[k], &match));
    if (match) isym = k;
  }
  PetscCall(PetscStrcasecmp(field, "complex", &match));
  PetscCheck(!match, PETSC_COMM_SELF, PETSC_ERR_SUP, "%s:1: complex Matrix Market matrices are not supported: only real, integer or pattern", r->path);
  PetscCheck(ifield >= 0, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s:1: unknown Matrix Market field '%s': real, integer or pattern are supported", r->path, field);
  PetscCall(PetscStrcasecmp(symmetry, "hermitian", &match));
  PetscCheck(!match, PETSC_COMM_SELF, PETSC_ERR_SUP, "%s:1: Hermitian Matrix Market matrices are not supported: only general, symmetric or skew-symmetric", r->path);
  PetscCheck(isym >= 0, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s:1: unknown Matrix Market symmetry '%s': general, symmetric or skew-symmetric are supported", r->path, symmetry);

  PetscCall(MMNextDataLine(r, &eof));
  PetscCheck(!eof, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s: no size line \"<rows> <columns> <entries>\" after the header", r->path);
  s = r->line;
  m = MMInt(&s, &ok);
  if (ok) n = MMInt(&s, &ok);
  if (ok) nnz = MMInt(&s, &ok);
  if (ok) s += strspn(s, " \t");
  PetscCheck(ok && !*s, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s:%" PetscInt64_FMT ": malformed size line, \"<rows> <columns> <entries>\" expected: %s", r->path, r->lineno, r->line);
  PetscCheck(m >= 0 && n >= 0 && nnz >= 0 && m <= PETSC_MAX_INT && n <= PETSC_MAX_INT, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s:%" PetscInt64_FMT ": sizes %" PetscInt64_FMT " x %" PetscInt64_FMT " with %" PetscInt64_FMT " entries: negative, or more than PetscInt holds", r->path, r->lineno, m, n, nnz);
  PetscCheck(isym == MM_GENERAL || m == n, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s:%" PetscInt64_FMT ": a %s matrix must be square, not %" PetscInt64_FMT " x %" PetscInt64_FMT, r->path, r->lineno, syms[isym], m, n);
  cap = isym == MM_GENERAL ? nnz : 2 * nnz;
  PetscCall(CSRCheckSize(r->path, cap));
  PetscCall(PetscMalloc3(cap, &ti, cap, &tj, cap, &tv));

  for (PetscInt64 e = 0; e < nnz; e++) {
    PetscInt64 i, j;
    double     v = 1.0;

    PetscCall(MMNextDataLine(r, &eof));
    PetscCheck(!eof, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s: ends after %" PetscInt64_FMT " of the %" PetscInt64_FMT " entries its size line announces", r->path, e, nnz);
    s = r->line;
    i = MMInt(&s, &ok);
    if (ok) j = MMInt(&s, &ok);
    if (ok && ifield != 2) v = MMReal(&s, &ok);
    if (ok) s += strspn(s, " \t");
    PetscCheck(ok && !*s, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s:%" PetscInt64_FMT ": malformed entry, \"<row> <column>%s\" expected: %s", r->path, r->lineno, ifield == 2 ? "" : " <value>", r->line);
    PetscCheck(i >= 1 && i <= m && j >= 1 && j <= n, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s:%" PetscInt64_FMT ": entry (%" PetscInt64_FMT ", %" PetscInt64_FMT ") is outside the %" PetscInt64_FMT " x %" PetscInt64_FMT " matrix (indices start at 1)", r->path, r->lineno, i, j, m, n);
    PetscCheck(isym != MM_SKEW || i != j || v == 0, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s:%" PetscInt64_FMT ": nonzero diagonal entry (%" PetscInt64_FMT ", %" PetscInt64_FMT ") in a skew-symmetric matrix", r->path, r->lineno, i, j);
    ti[nt]   = (PetscInt)(i - 1);
    tj[nt]   = (PetscInt)(j - 1);
    tv[nt++] = v;
    if (isym != MM_GENERAL && i != j) {
      ti[nt]   = (PetscInt)(j - 1);
      tj[nt]   = (PetscInt)(i - 1);
      tv[nt++] = isym == MM_SKEW ? -v : v;
    }
  }
  PetscCall(MMNextDataLine(r, &eof));
  PetscCheck(eof, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s:%" PetscInt64_FMT ": more entries than the %" PetscInt64_FMT " its size line announces: %s", r->path, r->lineno, nnz, r->line);
  PetscCall(CSRFromTriplets((PetscInt)m, (PetscInt)n, nt, ti, tj, tv, A));
  PetscCall(PetscFree3(ti, tj, tv));
  PetscFunctionReturn(0);
}

static PetscBool BenchEndsWith(const char *s, const char *suffix)
{
  size_t ls = strlen(s), lx = strlen(suffix);

  return (PetscBool)(ls >= lx && !strcmp(s + ls - lx, suffix));
}

/* the file's name without folder and without .mtx.gz, .mtx or another extension */
static PetscErrorCode BenchMatrixNameOfFile(const char *path, char *name, size_t len)
{
  const char *base = strrchr(path, '/');
  char       *dot;

  PetscFunctionBeginUser;
  PetscCall(PetscStrncpy(name, base ? base + 1 : path, len));
  if (BenchEndsWith(name, ".mtx.gz")) name[strlen(name) - 7] = 0;
  else if ((dot = strrchr(name, '.')) && dot != name) *dot = 0;
  PetscFunctionReturn(0);
}

/* A Matrix Market file, .mtx or .mtx.gz */
static PetscErrorCode ReadMatrixMarket(const char *path, CSR *A)
{
  MMReader       r  = {.path = path};
  PetscBool      gz = BenchEndsWith(path, ".gz"), readable;
  PetscErrorCode ierr;

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(A, sizeof(*A)));
  PetscCall(PetscTestFile(path, 'r', &readable));
  PetscCheck(readable, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot read the matrix file %s", path);
  if (gz) {
#if defined(PETSC_HAVE_POPEN)
    static const char prefix[] = "gzip -dc < '";
    char              cmd[4 * PETSC_MAX_PATH_LEN + 32];
    unsigned char     magic[2] = {0, 0};
    FILE             *fp       = fopen(path, "rb");
    size_t            k        = sizeof(prefix) - 1;

    memcpy(cmd, prefix, sizeof(prefix));
    PetscCheck(fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot open %s", path);
    if (fread(magic, 1, 2, fp) < 2) magic[0] = 0; /* too short to be gzip */
    fclose(fp);
    PetscCheck(magic[0] == 0x1f && magic[1] == 0x8b, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s: not a gzip file (the name ends in .gz)", path);

    for (const char *c = path; *c; c++) { /* quoted for the shell: ' becomes '\'' */
      PetscCheck(k + 8 < sizeof(cmd), PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "File name too long: %s", path);
      if (*c == '\'') {
        memcpy(cmd + k, "'\\''", 4);
        k += 4;
      } else cmd[k++] = *c;
    }
    cmd[k++] = '\'';
    cmd[k]   = 0;
    r.fp     = popen(cmd, "r");
    PetscCheck(r.fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot run gzip to read %s", path);
#else
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "%s: reading .gz files needs popen() and gzip; decompress it first", path);
#endif
  } else {
    r.fp = fopen(path, "r");
    PetscCheck(r.fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot open %s", path);
  }
  ierr = MMParse(&r, A);
  if (gz) {
#if defined(PETSC_HAVE_POPEN)
    int status = pclose(r.fp);

    if (ierr) PetscCall(CSRDestroy(A));
    PetscCall(ierr);
    PetscCheck(status == 0, PETSC_COMM_SELF, PETSC_ERR_FILE_READ, "%s: gzip -dc failed (exit status %d)", path, status);
#endif
  } else {
    fclose(r.fp);
    if (ierr) PetscCall(CSRDestroy(A));
    PetscCall(ierr);
  }
  PetscCall(BenchMatrixNameOfFile(path, A->name, sizeof(A->name)));
  PetscFunctionReturn(0);
}

/* A PETSc binary matrix file (MatLoad into SEQAIJ) */
static PetscErrorCode ReadPetscBinary(const char *path, CSR *A)
{
  PetscViewer        viewer;
  Mat                M;
  PetscInt           m, n, nr;
  const PetscInt    *ia, *ja;
  const PetscScalar *a;
  PetscBool          done, readable;

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(A, sizeof(*A)));
  PetscCall(PetscTestFile(path, 'r', &readable));
  PetscCheck(readable, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot read the matrix file %s", path);
  PetscCall(PetscViewerBinaryOpen(PETSC_COMM_SELF, path, FILE_MODE_READ, &viewer));
  PetscCall(MatCreate(PETSC_COMM_SELF, &M));
  PetscCall(MatSetType(M, MATSEQAIJ));
  PetscCall(MatLoad(M, viewer));
  PetscCall(PetscViewerDestroy(&viewer));
  PetscCall(MatGetSize(M, &m, &n));
  PetscCall(MatGetRowIJ(M, 0, PETSC_FALSE, PETSC_FALSE, &nr, &ia, &ja, &done));
  PetscCheck(done && nr == m, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: MatGetRowIJ() failed", path);
  PetscCall(MatSeqAIJGetArrayRead(M, &a));
  PetscCall(CSRAllocate(A, m, n, ia[m]));
  PetscCall(PetscArraycpy(A->rowptr, ia, m + 1));
  PetscCall(PetscArraycpy(A->colidx, ja, ia[m]));
  PetscCall(PetscArraycpy(A->val, a, ia[m]));
  PetscCall(MatSeqAIJRestoreArrayRead(M, &a));
  PetscCall(MatRestoreRowIJ(M, 0, PETSC_FALSE, PETSC_FALSE, &nr, &ia, &ja, &done));
  PetscCall(MatDestroy(&M));
  PetscCall(BenchMatrixNameOfFile(path, A->name, sizeof(A->name)));
  PetscFunctionReturn(0);
}
