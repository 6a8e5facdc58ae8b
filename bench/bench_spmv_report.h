/*
   The results of bench_spmv and how they are reported: a row per product, the progress line of each
   matrix, the checks of -check_only, the final table and the JSON (bench_spmv_report.c).
*/
#pragma once
#include <petscellg.h>
#include "bench_common.h"
#include "bench_matrices.h"
#include "bench_cusparse.h"

/* Bytes one product moves in the bandwidth model (the README's benchmark section): double values and 32-bit column
   indices, row lengths or offsets, x read once, y written */
#define MODEL_BYTES(nrows, nnz) (12.0 * (nnz) + 20.0 * (nrows))

/* One row of the results: a product of one matrix in one format (one setting of it), with one kind of vectors */
typedef struct {
  char      matrix[64], format[32], variant[32], mode[8], vectors[16], backend[8];
  char      skipped[160]; /* why it was not run, empty when it was */
  PetscBool reference;    /* AIJ on the host: the product the others are checked against */
  PetscBool failed;       /* the format could not be built (skipped says why) */
  PetscInt  imatrix;      /* the matrix's place in the run, from 0 */
  PetscInt  nrows, ncols, nnz, reps;
  PetscReal bytes;       /* the matrix's bytes on the device (our types: as they report them; cuSPARSE: its arrays), -1 when none */
  PetscReal conv_ms;     /* wall clock from the host CSR to the matrix ready on the device, -1 when none */
  PetscReal ms, wall_ms; /* medians of one product: device events (BenchTime(); host: wall clock), wall clock (0: not measured) */
  PetscReal relerr;      /* ||y - y_aij|| / ||y_aij|| */
  PetscReal tol;         /* the relerr it must stay below: REL_TOL, REL_TOL_SINGLE for single-precision values */
} Result;

typedef struct {
  PetscInt         reps, warmup;
  PetscBool        check_only, bytes_only, print_matrices, sweep;
  PetscBool        queued; /* device products timed with their launch queued (BenchTime()) */
  PetscELLGBackend backend; /* of PETSc-ELLG objects */
  BenchDevice      dev;
  PetscReal        memcpy_GBs, kernel_GBs, copy_GBs;
  PetscReal        floor_ms; /* an empty kernel, timed as the products with device vectors (0: not timed) */
  PetscInt         imatrix, nmatrices; /* the matrix being run (from 0), of how many */
  Result          *results;
  PetscInt         nresults, maxresults;
  SpecList         unloaded, unloaded_why; /* the matrices that were not loaded, and why */
  PetscErrorCode   load_error;             /* of the first matrix that failed to load (not merely unsupported), 0 if none */
} Bench;

/* a new row for matrix A of the current matrix, in format/variant (variant NULL: none), mode */
PetscErrorCode BenchAddResult(Bench *b, const CSR *A, const char *format, const char *variant, const char *mode, Result **r);

/* bytes of CSR with 32-bit indices: values and columns, row offsets */
PetscReal CSRBytes(PetscInt nrows, PetscInt nnz);

/* format/variant, or format alone */
PetscErrorCode RowName(const Result *r, char *name, size_t len);

PetscBool IsCusparse(const Result *r);

/* a row of one of PETSc's own GPU types, petsc/<type> (bench_spmv_petsccuda.h) */
PetscBool IsPetsc(const Result *r);

PetscBool AnyPetsc(const Bench *b);

PetscBool Timed(const Result *r);

/* the lowest time of the cuSPARSE rows of matrix m (CSR and SELL), 0 when none ran */
PetscReal BestCusparseMs(const Bench *b, PetscInt m);

PetscReal GBs(const Result *r);

/* -check_only: the matrix, then whether the product of each of its rows [first, b->nresults) agrees with
   AIJ's, the names in a column as wide as the longest */
PetscErrorCode PrintChecks(Bench *b, const CSR *A, PetscInt first);

/* "[i/N] matrix: R rows, N nonzeros: " and how the matrix's rows [first, b->nresults) went: our fastest
   with device vectors (any setting) against the best cuSPARSE row, or why there is no comparison; and
   against the fastest of PETSc's own GPU types when one was timed */
PetscErrorCode PrintProgress(Bench *b, const CSR *A, PetscInt first);

/* a matrix that could not be loaded: recorded, and said in its progress line (or its check line) */
PetscErrorCode BenchNotLoaded(Bench *b, const char *spec, const char *why);

/* What the columns mean, the header, and a row per result: speedups against the best cuSPARSE row of the
   same matrix */
PetscErrorCode PrintTable(Bench *b);

PetscErrorCode WriteJSON(Bench *b, const char *path);
