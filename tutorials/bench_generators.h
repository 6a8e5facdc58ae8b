/*
   Matrix generators of bench_spmv, each building its CSR directly. A matrix is named
   <generator>-<n>[-<p>]: lap3d7-100, powerlaw-1000000, band-10000-8. The random ones use their own
   fixed-seed generator (splitmix64), so a name gives the same matrix on every machine.
*/
#pragma once
#include <stdint.h>
#include "bench_csr.h"

/* ---------------------------------------------------------------- pseudo-random numbers */
typedef struct {
  uint64_t s;
} BenchRNG;

static inline uint64_t BenchRNGNext(BenchRNG *r)
{
  uint64_t z = (r->s += 0x9E3779B97F4A7C15ULL);

  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

/* uniform in [0, 1) */
static inline double BenchRNGUniform(BenchRNG *r)
{
  return (double)(BenchRNGNext(r) >> 11) * (1.0 / 9007199254740992.0);
}

/* uniform in [0, n) */
static inline PetscInt BenchRNGInt(BenchRNG *r, PetscInt n)
{
  return (PetscInt)((BenchRNGNext(r) >> 11) % (uint64_t)n);
}

/* uniform in [0, 1), a function of (a, b) alone: entries that do not depend on the order they are made in */
static inline double BenchHash(uint64_t a, uint64_t b)
{
  BenchRNG r = {a * 0xD1B54A32D192ED03ULL + b};

  return BenchRNGUniform(&r);
}

/* index c with probability (cdf[c] - cdf[c-1]) / cdf[n-1] */
static inline PetscInt BenchSampleCDF(BenchRNG *r, const double *cdf, PetscInt n)
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

/* L distinct sorted columns in [0, ncols), L <= ncols: drawn with the weights of cdf (uniformly
   when NULL) until L are distinct; after 8 rounds uniformly, so that rows that need nearly every
   column finish */
static PetscErrorCode BenchDrawColumns(BenchRNG *r, PetscInt L, PetscInt ncols, const double *cdf, PetscInt *cols)
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

/* ---------------------------------------------------------------- the generators */
/* n: the size; p: the second parameter, negative when not given */
typedef PetscErrorCode (*Generator)(PetscInt n, PetscInt p, CSR *A);

/* 2D 5-point Laplacian, Dirichlet boundary, on an n^2 grid */
static PetscErrorCode GenerateLaplacian2D5(PetscInt n, PetscInt p, CSR *A)
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

/* 3D 7-point Laplacian, Dirichlet boundary, on an n^3 grid */
static PetscErrorCode GenerateLaplacian3D7(PetscInt n, PetscInt p, CSR *A)
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

/* 3D 27-point stencil (all neighbours of the 3x3x3 cube), Dirichlet boundary, on an n^3 grid */
static PetscErrorCode GenerateLaplacian3D27(PetscInt n, PetscInt p, CSR *A)
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

/* 5x5 dense blocks on the 3D 7-point pattern of an n^3 grid: 5 n^3 rows of 35 or fewer entries */
static PetscErrorCode GenerateBlock5(PetscInt n, PetscInt p, CSR *A)
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

/* n x n, row lengths uniform in [1, 2 avg] (avg = p, default 16), distinct uniformly random
   columns, values uniform in [-1, 1) */
static PetscErrorCode GenerateRandom(PetscInt n, PetscInt p, CSR *A)
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

/* n x n power-law matrix, Chung-Lu style: vertex v gets the weight w = (rank(v) + 1)^(-2/3) (ranks a
   random permutation), so the row lengths follow a power law with exponent 2.5, like the degrees
   of web and social graphs; row v gets about avg n w / sum(w) entries (avg = p, default 16; at
   least 1), in distinct columns drawn with probability proportional to their weights. The longest
   row holds about avg n^(2/3) / 3 entries (53000 at n = 10^6). Values uniform in [-1, 1). */
static PetscErrorCode PowerLawRows(PetscInt n, PetscInt avg, PetscInt *rank, double *cdf, CSR *A)
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

static PetscErrorCode GeneratePowerLaw(PetscInt n, PetscInt p, CSR *A)
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

/* n x n circuit-like matrix: each row has its diagonal, its two neighbours and one random
   coupling; d dense nodes (d = p, default 4), spread over the range, are each coupled to a random
   half, quarter, eighth, ... of all nodes, in their row and their column. Off-diagonal values
   -g, g in [0.1, 1); the diagonal 1 + the sum of the row's |g|. */
static PetscErrorCode CircuitRows(PetscInt n, PetscInt d, PetscInt *row, PetscInt *dense, CSR *A)
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

static PetscErrorCode GenerateCircuit(PetscInt n, PetscInt p, CSR *A)
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

/* n x n band of half-width bw (p, default 4): entries |i - j| <= bw */
static PetscErrorCode GenerateBand(PetscInt n, PetscInt p, CSR *A)
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

/* for the help text, indented as the descriptions of options */
#define GENERATOR_HELP \
  "                           lap2d5-N: 2D 5-point Laplacian on an N^2 grid\n\
                           lap3d7-N: 3D 7-point Laplacian on an N^3 grid\n\
                           lap3d27-N: 3D 27-point stencil on an N^3 grid\n\
                           block5-N: 5x5 dense blocks on the 3D 7-point pattern of an N^3 grid (5 N^3 rows)\n\
                           random-N[-avg]: row lengths uniform in [1, 2 avg] (avg 16), random columns\n\
                           powerlaw-N[-avg]: Chung-Lu style power law, degree exponent 2.5, mean row length\n\
                             about avg (16): a few rows and columns with very many entries, like web graphs\n\
                           circuit-N[-d]: diagonal, neighbours and a random coupling in each row, and d (4)\n\
                             dense rows and columns coupled to 1/2, 1/4, ... of all nodes\n\
                           band-N[-bw]: band of half-width bw (4)\n"

/* *found: spec is <generator>-<n>[-<p>] with a known generator; then *g, *n and *p (-1 when not
   given) are set. Errors for a known generator with a bad size or parameter. */
static PetscErrorCode ParseGeneratorSpec(const char *spec, PetscBool *found, PetscInt *g, PetscInt *n, PetscInt *p)
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

/* the matrix of a generator spec, named after it */
static PetscErrorCode GenerateMatrix(PetscInt g, PetscInt n, PetscInt p, CSR *A)
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
