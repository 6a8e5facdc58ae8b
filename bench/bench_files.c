/* Matrix files for the benchmarks (bench_files.h) */
#include "bench_files.h"

PetscErrorCode CaptureError(MPI_Comm comm, int line, const char *func, const char *file, PetscErrorCode n, PetscErrorType p, const char *mess, void *ctx)
{
  ErrorCapture *c = (ErrorCapture *)ctx;

  if (!c->set) {
    const char *text = NULL, *detail = mess && mess[0] && mess[0] != ' ' ? mess : NULL;

    c->set = PETSC_TRUE;
    PetscErrorMessage(n, &text, NULL);
    snprintf(c->message, sizeof(c->message), "%s%s", text ? text : "error", detail ? ": " : "");
    c->detail = strlen(c->message);
    if (detail) snprintf(c->message + c->detail, sizeof(c->message) - c->detail, "%s", detail);
    for (char *s = c->message; *s; s++)
      if (*s == '\n') *s = ' ';
  }
  return n;
}

PetscErrorCode MMNextLine(MMReader *r, PetscBool *eof)
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

PetscErrorCode MMNextDataLine(MMReader *r, PetscBool *eof)
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

PetscInt64 MMInt(char **s, PetscBool *ok)
{
  char     *end;
  long long v;

  errno = 0;
  v     = strtoll(*s, &end, 10);
  *ok   = (PetscBool)(end != *s && !errno && (!*end || *end == ' ' || *end == '\t'));
  *s    = end;
  return (PetscInt64)v;
}

double MMReal(char **s, PetscBool *ok)
{
  char  *end;
  double v = strtod(*s, &end);

  *ok = (PetscBool)(end != *s && (!*end || *end == ' ' || *end == '\t'));
  *s  = end;
  return v;
}

PetscErrorCode MMReadEntries(MMReader *r, PetscInt64 m, PetscInt64 n, PetscInt64 nnz, PetscInt ifield, PetscInt isym, PetscInt *ti, PetscInt *tj, PetscScalar *tv, PetscInt *nt)
{
  PetscBool eof, ok;
  char     *s;

  PetscFunctionBeginUser;
  *nt = 0;
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
    ti[*nt]     = (PetscInt)(i - 1);
    tj[*nt]     = (PetscInt)(j - 1);
    tv[(*nt)++] = v;
    if (isym != MM_GENERAL && i != j) {
      ti[*nt]     = (PetscInt)(j - 1);
      tj[*nt]     = (PetscInt)(i - 1);
      tv[(*nt)++] = isym == MM_SKEW ? -v : v;
    }
  }
  PetscCall(MMNextDataLine(r, &eof));
  PetscCheck(eof, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s:%" PetscInt64_FMT ": more entries than the %" PetscInt64_FMT " its size line announces: %s", r->path, r->lineno, nnz, r->line);
  PetscFunctionReturn(0);
}

PetscErrorCode MMParse(MMReader *r, CSR *A)
{
  char           banner[64], object[64], format[64], field[64], symmetry[64], extra[2];
  const char    *fields[] = {"real", "integer", "pattern"}, *syms[] = {"general", "symmetric", "skew-symmetric"};
  PetscInt       ifield = -1, isym = -1, nt = 0;
  PetscInt64     m, n, nnz, cap;
  PetscInt      *ti, *tj;
  PetscScalar   *tv;
  PetscBool      eof, ok, match;
  PetscErrorCode ierr;
  char          *s;

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

  /* the triplets are freed after an error too: the bench goes on to its next matrix */
  ierr = MMReadEntries(r, m, n, nnz, ifield, isym, ti, tj, tv, &nt);
  if (!ierr) ierr = CSRFromTriplets((PetscInt)m, (PetscInt)n, nt, ti, tj, tv, A);
  PetscCall(PetscFree3(ti, tj, tv));
  PetscCall(ierr);
  PetscFunctionReturn(0);
}

PetscBool BenchEndsWith(const char *s, const char *suffix)
{
  size_t ls = strlen(s), lx = strlen(suffix);

  return (PetscBool)(ls >= lx && !strcmp(s + ls - lx, suffix));
}

PetscErrorCode BenchMatrixNameOfFile(const char *path, char *name, size_t len)
{
  const char *base = strrchr(path, '/');
  char       *dot;

  PetscFunctionBeginUser;
  PetscCall(PetscStrncpy(name, base ? base + 1 : path, len));
  if (BenchEndsWith(name, ".mtx.gz")) name[strlen(name) - 7] = 0;
  else if ((dot = strrchr(name, '.')) && dot != name) *dot = 0;
  PetscFunctionReturn(0);
}

#if defined(PETSC_HAVE_POPEN)
PetscErrorCode BenchShellQuote(const char *path, char *quoted, size_t len)
{
  size_t k = 0;

  PetscFunctionBeginUser;
  quoted[k++] = '\'';
  for (const char *c = path; *c; c++) {
    PetscCheck(k + 8 < len, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "File name too long: %s", path);
    if (*c == '\'') {
      memcpy(quoted + k, "'\\''", 4);
      k += 4;
    } else quoted[k++] = *c;
  }
  quoted[k++] = '\'';
  quoted[k]   = 0;
  PetscFunctionReturn(0);
}

PetscErrorCode BenchGzipTest(const char *quoted, int *status, char *reason, size_t len)
{
  char  cmd[4 * PETSC_MAX_PATH_LEN + 32];
  FILE *fp;

  PetscFunctionBeginUser;
  reason[0] = 0;
  PetscCall(PetscSNPrintf(cmd, sizeof(cmd), "gzip -t < %s 2>&1", quoted));
  fp = popen(cmd, "r");
  PetscCheck(fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot run gzip -t");
  while (!reason[0] && fgets(reason, (int)len, fp)) reason[strcspn(reason, "\r\n")] = 0;
  while (fgetc(fp) != EOF) { }
  *status = pclose(fp);
  PetscFunctionReturn(0);
}

PetscErrorCode BenchWaitStatus(int status, char *how, size_t len)
{
  PetscFunctionBeginUser;
  if (status != -1 && WIFEXITED(status)) PetscCall(PetscSNPrintf(how, len, "exit status %d", WEXITSTATUS(status)));
  else if (status != -1 && WIFSIGNALED(status)) PetscCall(PetscSNPrintf(how, len, "killed by signal %d", WTERMSIG(status)));
  else PetscCall(PetscSNPrintf(how, len, "wait status %d", status));
  PetscFunctionReturn(0);
}

#endif
PetscErrorCode ReadMatrixMarket(const char *path, CSR *A)
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
    char          quoted[4 * PETSC_MAX_PATH_LEN], cmd[4 * PETSC_MAX_PATH_LEN + 32];
    unsigned char magic[2] = {0, 0};
    FILE         *fp       = fopen(path, "rb");
    ErrorCapture  capture  = {.set = PETSC_FALSE};
    int           status;

    PetscCheck(fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot open %s", path);
    if (fread(magic, 1, 2, fp) < 2) magic[0] = 0; /* too short to be gzip */
    fclose(fp);
    PetscCheck(magic[0] == 0x1f && magic[1] == 0x8b, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s: not a gzip file (the name ends in .gz)", path);
    PetscCall(BenchShellQuote(path, quoted, sizeof(quoted)));
    PetscCall(PetscSNPrintf(cmd, sizeof(cmd), "gzip -dc < %s 2>/dev/null", quoted));
    r.fp = popen(cmd, "r");
    PetscCheck(r.fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot run gzip to read %s", path);
    /* a parse error waits for gzip's verdict: when the data is corrupt or truncated, gzip's error is the reason */
    PetscCall(PetscPushErrorHandler(CaptureError, &capture));
    ierr = MMParse(&r, A);
    PetscCall(PetscPopErrorHandler());
    status = pclose(r.fp); /* after a parse error gzip may have ended on the closed pipe: gzip -t says whether the file is bad */
    if (ierr || status) {
      char reason[256], how[64];
      int  tstatus = 0;

      PetscCall(CSRDestroy(A));
      PetscCall(BenchGzipTest(quoted, &tstatus, reason, sizeof(reason)));
      PetscCall(BenchWaitStatus(tstatus ? tstatus : status, how, sizeof(how)));
      if (tstatus || !ierr) SETERRQ(PETSC_COMM_SELF, PETSC_ERR_FILE_READ, "%s: gzip -dc failed (%s)%s%s", path, how, tstatus && reason[0] ? ": " : "", tstatus ? reason : "");
      SETERRQ(PETSC_COMM_SELF, ierr, "%s", capture.message + capture.detail);
    }
#else
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "%s: reading .gz files needs popen() and gzip; decompress it first", path);
#endif
  } else {
    r.fp = fopen(path, "r");
    PetscCheck(r.fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot open %s", path);
    ierr = MMParse(&r, A);
    fclose(r.fp);
    if (ierr) PetscCall(CSRDestroy(A));
    PetscCall(ierr);
  }
  PetscCall(BenchMatrixNameOfFile(path, A->name, sizeof(A->name)));
  PetscFunctionReturn(0);
}

PetscErrorCode CSRLoadSeqAIJ(PetscViewer viewer, Mat M, CSR *A)
{
  PetscInt           m, n, nr;
  const PetscInt    *ia, *ja;
  const PetscScalar *a;
  PetscBool          done;

  PetscFunctionBeginUser;
  PetscCall(MatSetType(M, MATSEQAIJ));
  PetscCall(MatLoad(M, viewer));
  PetscCall(MatGetSize(M, &m, &n));
  PetscCall(MatGetRowIJ(M, 0, PETSC_FALSE, PETSC_FALSE, &nr, &ia, &ja, &done));
  PetscCheck(done && nr == m, PETSC_COMM_SELF, PETSC_ERR_PLIB, "MatGetRowIJ() failed");
  PetscCall(MatSeqAIJGetArrayRead(M, &a));
  PetscCall(CSRAllocate(A, m, n, ia[m]));
  PetscCall(PetscArraycpy(A->rowptr, ia, m + 1));
  PetscCall(PetscArraycpy(A->colidx, ja, ia[m]));
  PetscCall(PetscArraycpy(A->val, a, ia[m]));
  PetscCall(MatSeqAIJRestoreArrayRead(M, &a));
  PetscCall(MatRestoreRowIJ(M, 0, PETSC_FALSE, PETSC_FALSE, &nr, &ia, &ja, &done));
  PetscFunctionReturn(0);
}

PetscErrorCode ReadPetscBinary(const char *path, CSR *A)
{
  PetscViewer    viewer;
  Mat            M       = NULL;
  ErrorCapture   capture = {.set = PETSC_FALSE};
  PetscBool      readable;
  PetscErrorCode ierr;

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(A, sizeof(*A)));
  PetscCall(PetscTestFile(path, 'r', &readable));
  PetscCheck(readable, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot read the matrix file %s", path);
  PetscCall(PetscViewerBinaryOpen(PETSC_COMM_SELF, path, FILE_MODE_READ, &viewer));
  /* MatLoad's messages do not name the file: its error is raised again below with the name */
  PetscCall(PetscPushErrorHandler(CaptureError, &capture));
  ierr = MatCreate(PETSC_COMM_SELF, &M);
  if (!ierr) ierr = CSRLoadSeqAIJ(viewer, M, A);
  PetscCall(PetscPopErrorHandler());
  PetscCall(MatDestroy(&M));
  PetscCall(PetscViewerDestroy(&viewer));
  if (ierr) {
    PetscCall(CSRDestroy(A));
    SETERRQ(PETSC_COMM_SELF, ierr, "%s: %s", path, capture.message + capture.detail);
  }
  PetscCall(BenchMatrixNameOfFile(path, A->name, sizeof(A->name)));
  PetscFunctionReturn(0);
}
