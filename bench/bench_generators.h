/*
   Matrix generators of bench_spmv, each building its CSR directly. A matrix is named
   <generator>-<n>[-<p>]: lap3d7-100, powerlaw-1000000, band-10000-8. The random ones use their own
   fixed-seed generator (splitmix64), so a name gives the same matrix on every machine (bench_generators.c).
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
PetscInt BenchSampleCDF(BenchRNG *r, const double *cdf, PetscInt n);

/* L distinct sorted columns in [0, ncols), L <= ncols: drawn with the weights of cdf (uniformly
   when NULL) until L are distinct; after 8 rounds uniformly, so that rows that need nearly every
   column finish */
PetscErrorCode BenchDrawColumns(BenchRNG *r, PetscInt L, PetscInt ncols, const double *cdf, PetscInt *cols);

/* ---------------------------------------------------------------- the generators */
/* n: the size; p: the second parameter, negative when not given */
typedef PetscErrorCode (*Generator)(PetscInt n, PetscInt p, CSR *A);

/* 2D 5-point Laplacian, Dirichlet boundary, on an n^2 grid */
PetscErrorCode GenerateLaplacian2D5(PetscInt n, PetscInt p, CSR *A);

/* 3D 7-point Laplacian, Dirichlet boundary, on an n^3 grid */
PetscErrorCode GenerateLaplacian3D7(PetscInt n, PetscInt p, CSR *A);

/* 3D 27-point stencil (all neighbours of the 3x3x3 cube), Dirichlet boundary, on an n^3 grid */
PetscErrorCode GenerateLaplacian3D27(PetscInt n, PetscInt p, CSR *A);

/* 5x5 dense blocks on the 3D 7-point pattern of an n^3 grid: 5 n^3 rows of 35 or fewer entries */
PetscErrorCode GenerateBlock5(PetscInt n, PetscInt p, CSR *A);

/* n x n, row lengths uniform in [1, 2 avg] (avg = p, default 16), distinct uniformly random
   columns, values uniform in [-1, 1) */
PetscErrorCode GenerateRandom(PetscInt n, PetscInt p, CSR *A);

/* n x n power-law matrix, Chung-Lu style: vertex v gets the weight w = (rank(v) + 1)^(-2/3) (ranks a
   random permutation), so the row lengths follow a power law with exponent 2.5, like the degrees
   of web and social graphs; row v gets about avg n w / sum(w) entries (avg = p, default 16; at
   least 1), in distinct columns drawn with probability proportional to their weights. The longest
   row holds about avg n^(2/3) / 3 entries (53000 at n = 10^6). Values uniform in [-1, 1). */
PetscErrorCode PowerLawRows(PetscInt n, PetscInt avg, PetscInt *rank, double *cdf, CSR *A);

PetscErrorCode GeneratePowerLaw(PetscInt n, PetscInt p, CSR *A);

/* n x n circuit-like matrix: each row has its diagonal, its two neighbours and one random
   coupling; d dense nodes (d = p, default 4), spread over the range, are each coupled to a random
   half, quarter, eighth, ... of all nodes, in their row and their column. Off-diagonal values
   -g, g in [0.1, 1); the diagonal 1 + the sum of the row's |g|. */
PetscErrorCode CircuitRows(PetscInt n, PetscInt d, PetscInt *row, PetscInt *dense, CSR *A);

PetscErrorCode GenerateCircuit(PetscInt n, PetscInt p, CSR *A);

/* n x n band of half-width bw (p, default 4): entries |i - j| <= bw */
PetscErrorCode GenerateBand(PetscInt n, PetscInt p, CSR *A);

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

/* whether name is the name of a generator (lap3d7, powerlaw, ...) */
PetscErrorCode GeneratorKnown(const char *name, PetscBool *known);

/* *found: spec is <generator>-<n>[-<p>] with a known generator; then *g, *n and *p (-1 when not
   given) are set. Errors for a known generator with a bad size or parameter. */
PetscErrorCode ParseGeneratorSpec(const char *spec, PetscBool *found, PetscInt *g, PetscInt *n, PetscInt *p);

/* the matrix of a generator spec, named after it */
PetscErrorCode GenerateMatrix(PetscInt g, PetscInt n, PetscInt p, CSR *A);
