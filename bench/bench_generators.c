/* Matrix generators of the benchmarks (bench_generators.h) */
#include "bench_generators.h"

PetscInt BenchSampleCDF(BenchRNG *r, const double *cdf, PetscInt n)
{
  const double u  = BenchRNGUniform(r) * cdf[n - 1];
  PetscInt     lo = 0, hi = n - 1;

  while (lo < hi) {
    const PetscInt mid = lo + (hi - lo) / 2;

    if (cdf[mid] > u) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

PetscErrorCode BenchDrawColumns(BenchRNG *r, PetscInt L, PetscInt ncols, const double *cdf, PetscInt *cols)
{
  PetscInt have = 0;

  PetscFunctionBeginUser;
  for (PetscInt round = 0; have < L; round++) {
    for (PetscInt k = have; k < L; k++) cols[k] = cdf && round < 8 ? BenchSampleCDF(r, cdf, ncols) : BenchRNGInt(r, ncols);
    have = L;
    PetscCall(PetscSortRemoveDupsInt(&have, cols));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode GenerateLaplacian2D5(PetscInt n, PetscInt p, CSR *A)
{
  PetscInt k = 0;

  PetscFunctionBeginUser;
  PetscCall(CSRCheckSize("lap2d5", 5 * (PetscInt64)n * n));
  PetscCall(CSRAllocate(A, n * n, n * n, 5 * n * n - 4 * n));
  for (PetscInt row = 0; row < A->nrows; row++) {
    const PetscInt  i = row % n, j = row / n;
    const PetscInt  cols[5]   = {row - n, row - 1, row, row + 1, row + n};
    const PetscBool inside[5] = {j > 0, i > 0, PETSC_TRUE, i < n - 1, j < n - 1};

    for (PetscInt c = 0; c < 5; c++) {
      if (!inside[c]) continue;
      A->colidx[k] = cols[c];
      A->val[k++]  = cols[c] == row ? 4.0 : -1.0;
    }
    A->rowptr[row + 1] = k;
  }
  PetscFunctionReturn(0);
}

PetscErrorCode GenerateLaplacian3D7(PetscInt n, PetscInt p, CSR *A)
{
  PetscInt k = 0;

  PetscFunctionBeginUser;
  PetscCall(CSRCheckSize("lap3d7", 7 * (PetscInt64)n * n * n));
  PetscCall(CSRAllocate(A, n * n * n, n * n * n, 7 * n * n * n - 6 * n * n));
  for (PetscInt row = 0; row < A->nrows; row++) {
    const PetscInt  i = row % n, j = (row / n) % n, l = row / (n * n);
    const PetscInt  cols[7]   = {row - n * n, row - n, row - 1, row, row + 1, row + n, row + n * n};
    const PetscBool inside[7] = {l > 0, j > 0, i > 0, PETSC_TRUE, i < n - 1, j < n - 1, l < n - 1};

    for (PetscInt c = 0; c < 7; c++) {
      if (!inside[c]) continue;
      A->colidx[k] = cols[c];
      A->val[k++]  = cols[c] == row ? 6.0 : -1.0;
    }
    A->rowptr[row + 1] = k;
  }
  PetscFunctionReturn(0);
}

PetscErrorCode GenerateLaplacian3D27(PetscInt n, PetscInt p, CSR *A)
{
  PetscInt k = 0;

  PetscFunctionBeginUser;
  PetscCall(CSRCheckSize("lap3d27", 27 * (PetscInt64)n * n * n));
  PetscCall(CSRAllocate(A, n * n * n, n * n * n, (3 * n - 2) * (3 * n - 2) * (3 * n - 2)));
  for (PetscInt row = 0; row < A->nrows; row++) {
    const PetscInt i = row % n, j = (row / n) % n, l = row / (n * n);

    for (PetscInt dl = -1; dl <= 1; dl++) /* (dl, dj, di) in this order gives sorted columns */
      for (PetscInt dj = -1; dj <= 1; dj++)
        for (PetscInt di = -1; di <= 1; di++) {
          if (l + dl < 0 || l + dl >= n || j + dj < 0 || j + dj >= n || i + di < 0 || i + di >= n) continue;
          A->colidx[k] = row + dl * n * n + dj * n + di;
          A->val[k++]  = dl || dj || di ? -1.0 : 26.0;
        }
    A->rowptr[row + 1] = k;
  }
  PetscFunctionReturn(0);
}

PetscErrorCode GenerateBlock5(PetscInt n, PetscInt p, CSR *A)
{
  const PetscInt B = 5, nb = n * n * n;
  PetscInt       k = 0;

  PetscFunctionBeginUser;
  PetscCall(CSRCheckSize("block5", 25 * 7 * (PetscInt64)n * n * n));
  PetscCall(CSRAllocate(A, B * nb, B * nb, B * B * (7 * nb - 6 * n * n)));
  for (PetscInt row = 0; row < A->nrows; row++) {
    const PetscInt  blk = row / B, a = row % B, i = blk % n, j = (blk / n) % n, l = blk / (n * n);
    const PetscInt  cols[7]   = {blk - n * n, blk - n, blk - 1, blk, blk + 1, blk + n, blk + n * n};
    const PetscBool inside[7] = {l > 0, j > 0, i > 0, PETSC_TRUE, i < n - 1, j < n - 1, l < n - 1};

    for (PetscInt c = 0; c < 7; c++) {
      if (!inside[c]) continue;
      for (PetscInt b = 0; b < B; b++) { /* entries differ within a block: a transposed block shows */
        A->colidx[k] = B * cols[c] + b;
        A->val[k++]  = cols[c] == blk ? (a == b ? 30.0 : -0.5) : -1.0 - 0.04 * (B * a + b);
      }
    }
    A->rowptr[row + 1] = k;
  }
  PetscFunctionReturn(0);
}

PetscErrorCode GenerateRandom(PetscInt n, PetscInt p, CSR *A)
{
  const PetscInt avg  = p < 0 ? 16 : p;
  BenchRNG       rlen = {1}, rcol = {2};
  PetscInt64     nnz = 0;

  PetscFunctionBeginUser;
  PetscCheck(avg > 0 && avg <= PETSC_MAX_INT / 2, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "random-%" PetscInt_FMT "-%" PetscInt_FMT ": the mean row length must be positive (and fit twice in PetscInt)", n, avg);
  A->nrows = A->ncols = n;
  PetscCall(PetscMalloc1(n + 1, &A->rowptr));
  A->rowptr[0] = 0;
  for (PetscInt i = 0; i < n; i++) {
    nnz += PetscMin(n, 1 + BenchRNGInt(&rlen, 2 * avg));
    PetscCall(CSRCheckSize("random", nnz));
    A->rowptr[i + 1] = (PetscInt)nnz;
  }
  A->nnz = (PetscInt)nnz;
  PetscCall(PetscMalloc1(A->nnz, &A->colidx));
  PetscCall(PetscMalloc1(A->nnz, &A->val));
  for (PetscInt i = 0; i < n; i++) {
    PetscCall(BenchDrawColumns(&rcol, A->rowptr[i + 1] - A->rowptr[i], n, NULL, A->colidx + A->rowptr[i]));
    for (PetscInt k = A->rowptr[i]; k < A->rowptr[i + 1]; k++) A->val[k] = 2 * BenchRNGUniform(&rcol) - 1;
  }
  PetscFunctionReturn(0);
}

PetscErrorCode PowerLawRows(PetscInt n, PetscInt avg, PetscInt *rank, double *cdf, CSR *A)
{
  const double alpha = 2.0 / 3.0;
  BenchRNG     r     = {3};
  double       sum   = 0;
  PetscInt64   nnz   = 0;

  PetscFunctionBeginUser;
  A->nrows = A->ncols = n;
  for (PetscInt v = 0; v < n; v++) rank[v] = v;
  for (PetscInt v = n - 1; v > 0; v--) { /* Fisher-Yates */
    const PetscInt u = BenchRNGInt(&r, v + 1), t = rank[v];

    rank[v] = rank[u];
    rank[u] = t;
  }
  for (PetscInt v = 0; v < n; v++) {
    sum += PetscPowReal((double)rank[v] + 1, -alpha);
    cdf[v] = sum;
  }
  PetscCall(PetscMalloc1(n + 1, &A->rowptr));
  A->rowptr[0] = 0;
  for (PetscInt v = 0; v < n; v++) {
    const double expected = (double)avg * n * PetscPowReal((double)rank[v] + 1, -alpha) / sum;

    nnz += (PetscInt)PetscMin((double)n, PetscMax(1.0, PetscFloorReal(expected + BenchRNGUniform(&r)))); /* rounded at random: the mean is kept */
    PetscCall(CSRCheckSize("powerlaw", nnz));
    A->rowptr[v + 1] = (PetscInt)nnz;
  }
  A->nnz = (PetscInt)nnz;
  PetscCall(PetscMalloc1(A->nnz, &A->colidx));
  PetscCall(PetscMalloc1(A->nnz, &A->val));
  for (PetscInt v = 0; v < n; v++) {
    PetscCall(BenchDrawColumns(&r, A->rowptr[v + 1] - A->rowptr[v], n, cdf, A->colidx + A->rowptr[v]));
    for (PetscInt k = A->rowptr[v]; k < A->rowptr[v + 1]; k++) A->val[k] = 2 * BenchRNGUniform(&r) - 1;
  }
  PetscFunctionReturn(0);
}

PetscErrorCode GeneratePowerLaw(PetscInt n, PetscInt p, CSR *A)
{
  const PetscInt avg = p < 0 ? 16 : p;
  PetscInt      *rank;
  double        *cdf;
  PetscErrorCode ierr;

  PetscFunctionBeginUser;
  PetscCheck(avg > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "powerlaw-%" PetscInt_FMT "-%" PetscInt_FMT ": the mean row length must be positive", n, avg);
  PetscCall(PetscMalloc2(n, &rank, n, &cdf));
  ierr = PowerLawRows(n, avg, rank, cdf, A);
  PetscCall(PetscFree2(rank, cdf)); /* after an error too: the bench goes on to its next matrix */
  PetscCall(ierr);
  PetscFunctionReturn(0);
}

PetscErrorCode CircuitRows(PetscInt n, PetscInt d, PetscInt *row, PetscInt *dense, CSR *A)
{
  PetscInt cap = 8 * n + 8, nz = 0;

  PetscFunctionBeginUser;
  A->nrows = A->ncols = n;
  PetscCall(PetscMalloc1(n + 1, &A->rowptr));
  PetscCall(PetscMalloc1(cap, &A->colidx));
  PetscCall(PetscMalloc1(cap, &A->val));
  for (PetscInt k = 0; k < d; k++) dense[k] = (PetscInt)((2 * (PetscInt64)k + 1) * n / (2 * d));
  A->rowptr[0] = 0;
  for (PetscInt i = 0; i < n; i++) {
    PetscInt    len  = 0;
    PetscScalar diag = 1;

    if (i > 0) row[len++] = i - 1;
    row[len++] = i;
    if (i < n - 1) row[len++] = i + 1;
    row[len++] = (PetscInt)(BenchHash(0, (uint64_t)i) * n);
    for (PetscInt k = 0; k < d; k++) {
      const double frac = 1.0 / (double)((PetscInt64)2 << k);

      if (i != dense[k]) {
        if (BenchHash(k + 1, (uint64_t)i) < frac) row[len++] = dense[k];
      } else
        for (PetscInt j = 0; j < n; j++)
          if (j != i && BenchHash(k + 1, (uint64_t)j) < frac) row[len++] = j;
    }
    PetscCall(PetscSortRemoveDupsInt(&len, row));
    if (nz + len > cap) {
      PetscCall(CSRCheckSize("circuit", 2 * (PetscInt64)cap + len));
      cap = 2 * cap + len;
      PetscCall(PetscRealloc(sizeof(PetscInt) * cap, &A->colidx));
      PetscCall(PetscRealloc(sizeof(PetscScalar) * cap, &A->val));
    }
    for (PetscInt k = 0; k < len; k++) {
      A->colidx[nz + k] = row[k];
      if (row[k] == i) continue;
      A->val[nz + k] = -(0.1 + 0.9 * BenchHash(((uint64_t)1 << 40) + i, (uint64_t)row[k]));
      diag -= A->val[nz + k];
    }
    for (PetscInt k = 0; k < len; k++)
      if (row[k] == i) A->val[nz + k] = diag;
    nz += len;
    A->rowptr[i + 1] = nz;
  }
  A->nnz = nz;
  PetscFunctionReturn(0);
}

PetscErrorCode GenerateCircuit(PetscInt n, PetscInt p, CSR *A)
{
  const PetscInt d = p < 0 ? 4 : p;
  PetscInt      *row, *dense;
  PetscErrorCode ierr;

  PetscFunctionBeginUser;
  PetscCheck(d >= 0 && d <= PetscMin(n, 30), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "circuit-%" PetscInt_FMT "-%" PetscInt_FMT ": the number of dense rows must be in [0, min(n, 30)]", n, d);
  PetscCall(CSRCheckSize("circuit", 8 * (PetscInt64)n + 8));
  PetscCall(PetscMalloc2(n + 4 + d, &row, d + 1, &dense));
  ierr = CircuitRows(n, d, row, dense, A);
  PetscCall(PetscFree2(row, dense)); /* after an error too: the bench goes on to its next matrix */
  PetscCall(ierr);
  PetscFunctionReturn(0);
}

PetscErrorCode GenerateBand(PetscInt n, PetscInt p, CSR *A)
{
  const PetscInt bw  = p < 0 ? 4 : p;
  PetscInt64     nnz = 0;
  PetscInt       k   = 0;

  PetscFunctionBeginUser;
  for (PetscInt i = 0; i < n; i++) nnz += PetscMin(n - 1, i + (PetscInt64)bw) - PetscMax(0, i - (PetscInt64)bw) + 1;
  PetscCall(CSRCheckSize("band", nnz));
  PetscCall(CSRAllocate(A, n, n, (PetscInt)nnz));
  for (PetscInt i = 0; i < n; i++) {
    for (PetscInt j = PetscMax(0, i - bw); j <= PetscMin(n - 1, i + (PetscInt64)bw); j++) {
      A->colidx[k] = j;
      A->val[k++]  = i == j ? 2.0 * bw + 1 : -1.0 / (1 + PetscAbsInt(i - j));
    }
    A->rowptr[i + 1] = k;
  }
  PetscFunctionReturn(0);
}

static const struct {
  const char *name;
  Generator   generate;
  const char *param; /* the name of the optional second parameter, NULL when none */
} generators[] = {
  {"lap2d5",   GenerateLaplacian2D5,  NULL },
  {"lap3d7",   GenerateLaplacian3D7,  NULL },
  {"lap3d27",  GenerateLaplacian3D27, NULL },
  {"block5",   GenerateBlock5,        NULL },
  {"random",   GenerateRandom,        "avg"},
  {"powerlaw", GeneratePowerLaw,      "avg"},
  {"circuit",  GenerateCircuit,       "d"  },
  {"band",     GenerateBand,          "bw" },
};

PetscErrorCode GeneratorKnown(const char *name, PetscBool *known)
{
  PetscFunctionBeginUser;
  *known = PETSC_FALSE;
  for (size_t k = 0; k < PETSC_STATIC_ARRAY_LENGTH(generators) && !*known; k++) PetscCall(PetscStrcmp(name, generators[k].name, known));
  PetscFunctionReturn(0);
}

PetscErrorCode ParseGeneratorSpec(const char *spec, PetscBool *found, PetscInt *g, PetscInt *n, PetscInt *p)
{
  char       buf[128], *dash, *numbers[3] = {NULL, NULL, NULL};
  PetscInt64 values[2];
  PetscInt   nnum = 0;
  size_t     len;

  PetscFunctionBeginUser;
  *found = PETSC_FALSE;
  *p     = -1;
  PetscCall(PetscStrlen(spec, &len));
  if (len >= sizeof(buf)) PetscFunctionReturn(0);
  PetscCall(PetscStrncpy(buf, spec, sizeof(buf)));
  dash = strchr(buf, '-');
  if (!dash) PetscFunctionReturn(0);
  *dash = 0;
  for (*g = 0; *g < (PetscInt)PETSC_STATIC_ARRAY_LENGTH(generators); (*g)++) {
    PetscBool match;

    PetscCall(PetscStrcmp(buf, generators[*g].name, &match));
    if (match) break;
  }
  if (*g == (PetscInt)PETSC_STATIC_ARRAY_LENGTH(generators)) PetscFunctionReturn(0);
  *found = PETSC_TRUE;
  for (char *s = dash + 1; s && nnum < 3; nnum++) {
    numbers[nnum] = s;
    s             = strchr(s, '-');
    if (s) *s++ = 0;
  }
  PetscCheck(nnum == 1 || (nnum == 2 && generators[*g].param), PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "matrix %s: expected %s-<n>%s%s%s", spec, generators[*g].name, generators[*g].param ? "[-<" : "", generators[*g].param ? generators[*g].param : "",
             generators[*g].param ? ">]" : "");
  for (PetscInt k = 0; k < nnum; k++) {
    char *end;

    values[k] = strtoll(numbers[k], &end, 10);
    PetscCheck(numbers[k][0] >= '0' && numbers[k][0] <= '9' && !*end && values[k] >= 0 && values[k] <= PETSC_MAX_INT, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "matrix %s: '%s' is not a size: a nonnegative integer is expected", spec, numbers[k]);
  }
  *n = (PetscInt)values[0];
  PetscCheck(*n > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "matrix %s: the size must be positive", spec);
  if (nnum == 2) *p = (PetscInt)values[1];
  PetscFunctionReturn(0);
}

PetscErrorCode GenerateMatrix(PetscInt g, PetscInt n, PetscInt p, CSR *A)
{
  PetscErrorCode ierr;

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(A, sizeof(*A)));
  ierr = generators[g].generate(n, p, A);
  if (ierr) PetscCall(CSRDestroy(A)); /* A holds nothing after an error, as after the file readers' */
  PetscCall(ierr);
  if (p < 0) PetscCall(PetscSNPrintf(A->name, sizeof(A->name), "%s-%" PetscInt_FMT, generators[g].name, n));
  else PetscCall(PetscSNPrintf(A->name, sizeof(A->name), "%s-%" PetscInt_FMT "-%" PetscInt_FMT, generators[g].name, n, p));
  PetscFunctionReturn(0);
}
