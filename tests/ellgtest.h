#ifndef ELLGTEST_H
#define ELLGTEST_H

/* Helpers shared by the tests of this folder (#include "ellgtest.h"): matrices in a global CSR form
   (random, power-law, Laplacian) and assembled from it, or as a Laplacian, vectors created, copied and
   compared through their arrays. Static inline, so that a test may leave some of them unused. */

#include <petscellg.h>
#include <ellgconf.h>
#include "../src/include/ellgcompat.h"

/* RTOL - relative tolerance of CheckClose() */
#define RTOL 1e-12

/* TestType - the matrix type under test from -type <root> (default ellg): a type of this package by its root
   name (ellg, pjds, slicedell, aijgpu); root gets it, seq and mpi (when not NULL) its sequential and parallel
   types: "seqaij" and "mpiaij" followed by the root name, or "seq" and "mpi" followed by a root name that starts
   with "aij", as PETSc names its types. Each buffer holds TYPE_LEN characters */
#define TYPE_LEN 64
static inline PetscErrorCode TestType(char root[], char seq[], char mpi[])
{
  PetscBool aij;

  PetscFunctionBeginUser;
  PetscCall(PetscStrncpy(root, MATELLG, TYPE_LEN));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-type", root, TYPE_LEN, NULL));
  PetscCall(PetscStrncmp(root, "aij", 3, &aij));
  if (seq) PetscCall(PetscSNPrintf(seq, TYPE_LEN, "seq%s%s", aij ? "" : "aij", root));
  if (mpi) PetscCall(PetscSNPrintf(mpi, TYPE_LEN, "mpi%s%s", aij ? "" : "aij", root));
  PetscFunctionReturn(0);
}

/* IsAIJType - whether type is PETSc's own AIJ (the reference), not one of the types under test */
static inline PetscErrorCode IsAIJType(MatType type, PetscBool *isaij)
{
  PetscFunctionBeginUser;
  PetscCall(PetscStrInList(type, MATAIJ "," MATSEQAIJ "," MATMPIAIJ, ',', isaij));
  PetscFunctionReturn(0);
}

/* CSR - a matrix in global CSR form, the same on every process */
typedef struct {
  char         name[64];
  PetscInt     M, N;
  PetscInt     bs; /* the block size of matrices made from it (CreateMatCSR()), 1 by default */
  PetscInt    *ia, *ja;
  PetscScalar *va;
} CSR;

/* CSRCreate - an M x N matrix named name with room for nzmax entries; sets ia[0], the caller fills the rows */
static inline PetscErrorCode CSRCreate(const char *name, PetscInt M, PetscInt N, PetscInt nzmax, CSR *c)
{
  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(c->name, sizeof(c->name), "%s", name));
  c->M  = M;
  c->N  = N;
  c->bs = 1;
  PetscCall(PetscMalloc3(M + 1, &c->ia, nzmax, &c->ja, nzmax, &c->va));
  c->ia[0] = 0;
  PetscFunctionReturn(0);
}

/* CSRDestroy - frees the arrays of a CSR matrix */
static inline PetscErrorCode CSRDestroy(CSR *c)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree3(c->ia, c->ja, c->va));
  PetscFunctionReturn(0);
}

/* Assemble - MatAssemblyBegin() and MatAssemblyEnd() */
static inline PetscErrorCode Assemble(Mat A, MatAssemblyType type)
{
  PetscFunctionBeginUser;
  PetscCall(MatAssemblyBegin(A, type));
  PetscCall(MatAssemblyEnd(A, type));
  PetscFunctionReturn(0);
}

/* SetValuesCSR - MatSetValues() of the rows of c that this process owns, one row at a time; no assembly */
static inline PetscErrorCode SetValuesCSR(Mat A, const CSR *c, InsertMode mode)
{
  PetscInt rstart, rend, i;

  PetscFunctionBeginUser;
  PetscCall(MatGetOwnershipRange(A, &rstart, &rend));
  for (i = rstart; i < rend; i++) PetscCall(MatSetValues(A, 1, &i, c->ia[i + 1] - c->ia[i], c->ja + c->ia[i], c->va + c->ia[i], mode));
  PetscFunctionReturn(0);
}

/* CreateMatCSR - a matrix of the given type (one under test, not AIJ: then also MatSetFromOptions(), for the format's
   options) with m local rows and n local columns (PETSC_DECIDE: PETSc's split), preallocated exactly and assembled
   from c */
static inline PetscErrorCode CreateMatCSR(MPI_Comm comm, PetscInt m, PetscInt n, const CSR *c, MatType type, Mat *A)
{
  PetscInt  M = c->M, N = c->N, rstart, rend, cstart, cend, i, k, *dnnz, *onnz;
  PetscBool isaij;

  PetscFunctionBeginUser;
  if (m == PETSC_DECIDE) PetscCall(PetscSplitOwnership(comm, &m, &M));
  if (n == PETSC_DECIDE) PetscCall(PetscSplitOwnership(comm, &n, &N));
  PetscCall(MatCreate(comm, A));
  PetscCall(MatSetSizes(*A, m, n, c->M, c->N));
  if (c->bs > 1) PetscCall(MatSetBlockSize(*A, c->bs));
  PetscCall(MatSetType(*A, type));
  PetscCall(IsAIJType(type, &isaij));
  if (!isaij) PetscCall(MatSetFromOptions(*A));
  PetscCallMPI(MPI_Scan(&m, &rend, 1, MPIU_INT, MPI_SUM, comm));
  PetscCallMPI(MPI_Scan(&n, &cend, 1, MPIU_INT, MPI_SUM, comm));
  rstart = rend - m;
  cstart = cend - n;
  PetscCall(PetscCalloc2(rend - rstart, &dnnz, rend - rstart, &onnz));
  for (i = rstart; i < rend; i++)
    for (k = c->ia[i]; k < c->ia[i + 1]; k++) {
      if (c->ja[k] >= cstart && c->ja[k] < cend) dnnz[i - rstart]++;
      else onnz[i - rstart]++;
    }
  PetscCall(MatXAIJSetPreallocation(*A, 1, dnnz, onnz, NULL, NULL));
  PetscCall(PetscFree2(dnnz, onnz));
  PetscCall(SetValuesCSR(*A, c, INSERT_VALUES));
  PetscCall(Assemble(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

/* LaplacianRow - row of the (2 dim + 1)-point Laplacian on an n^dim grid (dim <= 3, natural ordering, Dirichlet
   boundary): -1 for each neighbour, diag on the diagonal; nc entries, columns sorted */
static inline PetscErrorCode LaplacianRow(PetscInt dim, PetscInt n, PetscInt row, PetscScalar diag, PetscInt *nc, PetscInt cols[], PetscScalar vals[])
{
  PetscInt c[3], stride[3], d, s, k = 0;

  PetscFunctionBeginUser;
  PetscCheck(dim >= 1 && dim <= 3, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "dim must be 1, 2 or 3");
  for (d = 0, s = 1; d < dim; d++, s *= n) {
    stride[d] = s;
    c[d]      = (row / s) % n;
  }
  for (d = dim - 1; d >= 0; d--)
    if (c[d] > 0) {
      cols[k]   = row - stride[d];
      vals[k++] = -1.0;
    }
  cols[k]   = row;
  vals[k++] = diag;
  for (d = 0; d < dim; d++)
    if (c[d] < n - 1) {
      cols[k]   = row + stride[d];
      vals[k++] = -1.0;
    }
  *nc = k;
  PetscFunctionReturn(0);
}

/* FillLaplacian - sizes (n^dim rows, split by PETSc), type (MatSetFromOptions() too if fromoptions), preallocation
   (2 dim + 1 per row, dim off the diagonal block) and the entries of the Laplacian of LaplacianRow() with the
   diagonal diag + shift * row; assembled */
static inline PetscErrorCode FillLaplacian(Mat A, PetscInt dim, PetscInt n, PetscScalar diag, PetscScalar shift, MatType type, PetscBool fromoptions)
{
  PetscInt    N = n, d, rstart, rend, row, nc, cols[7];
  PetscScalar vals[7];

  PetscFunctionBeginUser;
  for (d = 1; d < dim; d++) N *= n;
  PetscCall(MatSetSizes(A, PETSC_DECIDE, PETSC_DECIDE, N, N));
  PetscCall(MatSetType(A, type));
  if (fromoptions) PetscCall(MatSetFromOptions(A));
  PetscCall(MatSeqAIJSetPreallocation(A, 2 * dim + 1, NULL));
  PetscCall(MatMPIAIJSetPreallocation(A, 2 * dim + 1, NULL, dim, NULL));
  PetscCall(MatGetOwnershipRange(A, &rstart, &rend));
  for (row = rstart; row < rend; row++) {
    PetscCall(LaplacianRow(dim, n, row, diag + shift * (PetscReal)row, &nc, cols, vals));
    PetscCall(MatSetValues(A, 1, &row, nc, cols, vals, INSERT_VALUES));
  }
  PetscCall(Assemble(A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

/* RandomCreate - a random generator on comm with values in [-1, 1), seeded with seed (the same numbers every run) */
static inline PetscErrorCode RandomCreate(MPI_Comm comm, unsigned long seed, PetscRandom *rnd)
{
  PetscFunctionBeginUser;
  PetscCall(PetscRandomCreate(comm, rnd));
  PetscCall(PetscRandomSetInterval(*rnd, -1.0, 1.0));
  PetscCall(PetscRandomSetSeed(*rnd, seed));
  PetscCall(PetscRandomSeed(*rnd));
  PetscFunctionReturn(0);
}

/* CSRRandom - random M x N matrix: each entry present with probability density; zerofrac of them stored as explicit zeros.
   len[i] >= 0 forces row i to hold exactly that many entries (first columns of a random shift) */
static inline PetscErrorCode CSRRandom(const char *name, PetscInt M, PetscInt N, PetscReal density, PetscReal zerofrac, const PetscInt len[], unsigned long seed, CSR *c)
{
  PetscRandom rnd;
  PetscInt    i, j, nz = 0, cap = 16;
  PetscReal   r;

  PetscFunctionBeginUser;
  PetscCall(RandomCreate(PETSC_COMM_SELF, seed, &rnd));
  for (i = 0; i < M; i++) cap += len && len[i] >= 0 ? len[i] : (PetscInt)(density * N + 1);
  cap = 2 * cap + M * 4;
  PetscCall(CSRCreate(name, M, N, cap, c));
  for (i = 0; i < M; i++) {
    if (len && len[i] >= 0) {
      PetscInt shift;
      PetscCall(PetscRandomGetValueReal(rnd, &r));
      shift = (PetscInt)((r + 1.0) * 0.5 * N) % PetscMax(N, 1);
      for (j = 0; j < N; j++) {
        PetscInt col = j, k = (j - shift + N) % N; /* keep columns sorted: entry j present when its rotated index is < len */
        if (k >= len[i]) continue;
        PetscCheck(nz < cap, PETSC_COMM_SELF, PETSC_ERR_PLIB, "CSR capacity");
        c->ja[nz] = col;
        PetscCall(PetscRandomGetValue(rnd, &c->va[nz]));
        nz++;
      }
    } else {
      for (j = 0; j < N; j++) {
        PetscCall(PetscRandomGetValueReal(rnd, &r));
        if ((r + 1.0) * 0.5 >= density) continue;
        PetscCheck(nz < cap, PETSC_COMM_SELF, PETSC_ERR_PLIB, "CSR capacity");
        c->ja[nz] = j;
        PetscCall(PetscRandomGetValue(rnd, &c->va[nz]));
        PetscCall(PetscRandomGetValueReal(rnd, &r));
        if ((r + 1.0) * 0.5 < zerofrac) c->va[nz] = 0.0;
        nz++;
      }
    }
    c->ia[i + 1] = nz;
  }
  PetscCall(PetscRandomDestroy(&rnd));
  PetscFunctionReturn(0);
}

/* CSRLaplacian - 2D 5-point Laplacian on a g x g grid, diagonal 4 + 0.001 row */
static inline PetscErrorCode CSRLaplacian(const char *name, PetscInt g, CSR *c)
{
  PetscInt row, nc, n = g * g;

  PetscFunctionBeginUser;
  PetscCall(CSRCreate(name, n, n, 5 * n, c));
  for (row = 0; row < n; row++) {
    PetscCall(LaplacianRow(2, g, row, 4.0 + 0.001 * row, &nc, c->ja + c->ia[row], c->va + c->ia[row]));
    c->ia[row + 1] = c->ia[row] + nc;
  }
  PetscFunctionReturn(0);
}

/* CSRLaplacianDenseRow - the g x g Laplacian of CSRLaplacian() with a full first row (1 off the diagonal), which
   the formats multiply apart as a long row */
static inline PetscErrorCode CSRLaplacianDenseRow(PetscInt g, CSR *c)
{
  PetscInt n = g * g, row, nc, nz = 0;

  PetscFunctionBeginUser;
  PetscCall(CSRCreate("laplacian with a dense row", n, n, 6 * n, c));
  for (PetscInt j = 0; j < n; j++) {
    c->ja[nz]   = j;
    c->va[nz++] = j ? 1.0 : 4.0;
  }
  c->ia[1] = nz;
  for (row = 1; row < n; row++) {
    PetscCall(LaplacianRow(2, g, row, 4.0 + 0.001 * row, &nc, c->ja + c->ia[row], c->va + c->ia[row]));
    c->ia[row + 1] = c->ia[row] + nc;
  }
  PetscFunctionReturn(0);
}

/* CSRPowerLaw - random n x n matrix with heavy-tailed (power-law) row lengths: row i has min(n, floor(minlen / u^(1/alpha)))
   entries for u uniform in (0, 1] (a Pareto tail: most rows short, a few with hundreds or thousands of entries),
   in columns drawn with a skew towards the first ones (their columns are long too), without repeats */
static inline PetscErrorCode CSRPowerLaw(const char *name, PetscInt n, PetscInt minlen, PetscReal alpha, unsigned long seed, CSR *c)
{
  PetscRandom rnd;
  PetscInt    i, j, k, nz = 0, cap = 0, *len;
  PetscBool  *mark;
  PetscReal   r;

  PetscFunctionBeginUser;
  PetscCall(PetscRandomCreate(PETSC_COMM_SELF, &rnd));
  PetscCall(PetscRandomSetInterval(rnd, 0.0, 1.0));
  PetscCall(PetscRandomSetSeed(rnd, seed));
  PetscCall(PetscRandomSeed(rnd));
  PetscCall(PetscMalloc2(n, &len, n, &mark));
  for (i = 0; i < n; i++) {
    PetscCall(PetscRandomGetValueReal(rnd, &r));
    r      = PetscMax(1.0 - r, 1e-12); /* in (0, 1] */
    len[i] = (PetscInt)PetscMin((PetscReal)n, PetscFloorReal((PetscReal)minlen / PetscPowReal(r, 1.0 / alpha)));
    cap += len[i];
    mark[i] = PETSC_FALSE;
  }
  PetscCall(CSRCreate(name, n, n, PetscMax(cap, 1), c));
  for (i = 0; i < n; i++) {
    /* skewed draws (column n r^2); the draws that are left, if any, fill the row in order of columns */
    for (j = 0, k = 0; j < 8 * len[i] && k < len[i]; j++) {
      PetscInt col;

      PetscCall(PetscRandomGetValueReal(rnd, &r));
      col = PetscMin(n - 1, (PetscInt)((PetscReal)n * r * r));
      if (!mark[col]) {
        mark[col] = PETSC_TRUE;
        k++;
      }
    }
    for (j = 0; j < n && k < len[i]; j++)
      if (!mark[j]) {
        mark[j] = PETSC_TRUE;
        k++;
      }
    for (j = 0; j < n; j++)
      if (mark[j]) {
        mark[j]   = PETSC_FALSE;
        c->ja[nz] = j;
        PetscCall(PetscRandomGetValueReal(rnd, &r));
        c->va[nz++] = 2.0 * r - 1.0;
      }
    c->ia[i + 1] = nz;
  }
  PetscCall(PetscFree2(len, mark));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscFunctionReturn(0);
}

/* How rows and columns are spread over the processes */
typedef enum {
  LAYOUT_EVEN,       /* PETSC_DECIDE */
  LAYOUT_EMPTY_RANK, /* -empty_rank: none on the last process, the rest spread evenly */
  LAYOUT_UNEVEN      /* -uneven: process r owns a share proportional to r + 1 (rows) or size - r (columns) */
} Layout;

/* GetLayout - the layout the options ask for */
static inline PetscErrorCode GetLayout(Layout *layout)
{
  PetscBool emptyrank = PETSC_FALSE, uneven = PETSC_FALSE;

  PetscFunctionBeginUser;
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-empty_rank", &emptyrank, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-uneven", &uneven, NULL));
  *layout = emptyrank ? LAYOUT_EMPTY_RANK : uneven ? LAYOUT_UNEVEN : LAYOUT_EVEN;
  PetscFunctionReturn(0);
}

/* LocalSize - local size of a dimension (rows: dim 0, columns: dim 1) of global size N */
static inline PetscErrorCode LocalSize(MPI_Comm comm, Layout layout, PetscInt dim, PetscInt N, PetscInt *n)
{
  PetscMPIInt rank, size;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  *n = PETSC_DECIDE;
  if (layout == LAYOUT_EMPTY_RANK && size > 1) {
    if (rank == size - 1) *n = 0;
    else *n = N / (size - 1) + ((N % (size - 1)) > rank);
  } else if (layout == LAYOUT_UNEVEN) {
    PetscInt total = (PetscInt)size * (size + 1) / 2, before = 0, w;

    for (PetscMPIInt r = 0; r < rank; r++) before += dim ? size - r : r + 1;
    w  = dim ? size - rank : rank + 1;
    *n = N * (before + w) / total - N * before / total;
  }
  PetscFunctionReturn(0);
}

/* CreateMatSplit - CreateMatCSR() with the local sizes of LocalSize() */
static inline PetscErrorCode CreateMatSplit(MPI_Comm comm, Layout layout, const CSR *c, MatType type, Mat *A)
{
  PetscInt m = PETSC_DECIDE, n = PETSC_DECIDE;

  PetscFunctionBeginUser;
  PetscCall(LocalSize(comm, layout, 0, c->M, &m));
  PetscCall(LocalSize(comm, layout, 1, c->N, &n));
  PetscCall(CreateMatCSR(comm, m, n, c, type, A));
  PetscFunctionReturn(0);
}

/* CreateVec - a vector of the given type with n local (or PETSC_DECIDE) and N global (or PETSC_DETERMINE) entries */
static inline PetscErrorCode CreateVec(MPI_Comm comm, PetscInt n, PetscInt N, VecType type, Vec *v)
{
  PetscFunctionBeginUser;
  PetscCall(VecCreate(comm, v));
  PetscCall(VecSetSizes(*v, n, N));
  PetscCall(VecSetType(*v, type));
  PetscFunctionReturn(0);
}

/* IsDeviceVec - whether v is of the type MatCreateVecs() gives for the matrix A of one of our types: PETSc's CUDA
   vectors with a PETSc built with CUDA when A uses the cuda backend, else our device vectors */
static inline PetscErrorCode IsDeviceVec(Mat A, Vec v, PetscBool *flg)
{
  PetscELLGBackend be;

  PetscFunctionBeginUser;
  PetscCall(MatELLGGetBackend(A, &be));
#if defined(ELLG_HAVE_PETSC_CUDA)
  if (be == PETSCELLG_BACKEND_CUDA) {
    PetscCall(PetscObjectTypeCompareAny((PetscObject)v, flg, VECSEQCUDA, VECMPICUDA, ""));
    PetscFunctionReturn(0);
  }
#endif
  PetscCall(PetscObjectTypeCompareAny((PetscObject)v, flg, VECSEQGPU, VECMPIGPU, ""));
  PetscFunctionReturn(0);
}

/* BackendValues - a seqgpu vector holding the n values v: its array (VecGPUGetArrayRead()) is in the backend's memory,
   device memory with the cuda backend, as a GPU code's values are */
static inline PetscErrorCode BackendValues(PetscCount n, const PetscScalar v[], Vec *dv)
{
  PetscScalar *a;

  PetscFunctionBeginUser;
  PetscCall(VecCreateSeqGPU(PETSC_COMM_SELF, (PetscInt)n, dv));
  PetscCall(VecGetArrayWrite(*dv, &a));
  PetscCall(PetscArraycpy(a, v, n));
  PetscCall(VecRestoreArrayWrite(*dv, &a));
  PetscFunctionReturn(0);
}

/* SetValuesCOOFrom - MatSetValuesCOO() of A, or VecSetValuesCOO() of x when A is NULL, with the values v on the host or
   (backend) those of BackendValues()' vector dv, in the backend's memory */
static inline PetscErrorCode SetValuesCOOFrom(Mat A, Vec x, const PetscScalar v[], Vec dv, PetscBool backend, InsertMode mode)
{
  const PetscScalar *a = v;

  PetscFunctionBeginUser;
  if (backend) PetscCall(VecGPUGetArrayRead(dv, &a));
  if (A) PetscCall(MatSetValuesCOO(A, a, mode));
  else PetscCall(VecSetValuesCOO(x, a, mode));
  if (backend) PetscCall(VecGPURestoreArrayRead(dv, &a));
  PetscFunctionReturn(0);
}

/* PrintResult - a line "what ... ok" (what padded to width characters), or FAILED, counted in *nfail */
static inline PetscErrorCode PrintResult(MPI_Comm comm, int width, const char *what, PetscBool ok, PetscInt *nfail)
{
  PetscFunctionBeginUser;
  PetscCall(PetscPrintf(comm, "%-*s %s\n", width, what, ok ? "ok" : "FAILED"));
  if (!ok) (*nfail)++;
  PetscFunctionReturn(0);
}

/* PrintNamedResult - PrintResult() of "name: what" */
static inline PetscErrorCode PrintNamedResult(MPI_Comm comm, int width, const char *name, const char *what, PetscBool ok, PetscInt *nfail)
{
  char line[128];

  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(line, sizeof(line), "%s: %s", name, what));
  PetscCall(PrintResult(comm, width, line, ok, nfail));
  PetscFunctionReturn(0);
}

/* CopyValues - dst <- src through the arrays (no vector operation between the two, whatever their kinds) */
static inline PetscErrorCode CopyValues(Vec src, Vec dst)
{
  const PetscScalar *a;
  PetscScalar       *b;
  PetscInt           n;

  PetscFunctionBeginUser;
  PetscCall(VecGetLocalSize(src, &n));
  PetscCall(VecGetArrayRead(src, &a));
  PetscCall(VecGetArrayWrite(dst, &b));
  PetscCall(PetscArraycpy(b, a, n));
  PetscCall(VecRestoreArrayWrite(dst, &b));
  PetscCall(VecRestoreArrayRead(src, &a));
  PetscFunctionReturn(0);
}

/* MaxDifference - err = max_i |y_i - yref_i| and, when nrm is not NULL, nrm = max_i |yref_i|, over all processes,
   from the arrays (independent of vector operations) */
static inline PetscErrorCode MaxDifference(Vec y, Vec yref, PetscReal *err, PetscReal *nrm)
{
  MPI_Comm           comm = PetscObjectComm((PetscObject)y);
  const PetscScalar *a, *b;
  PetscInt           i, n;

  PetscFunctionBeginUser;
  *err = 0.0;
  if (nrm) *nrm = 0.0;
  PetscCall(VecGetLocalSize(y, &n));
  PetscCall(VecGetArrayRead(y, &a));
  PetscCall(VecGetArrayRead(yref, &b));
  for (i = 0; i < n; i++) {
    const PetscReal d = PetscAbsScalar(a[i] - b[i]);

    if (!(d <= *err)) *err = d; /* a NaN stays: no comparison passes it */
    if (nrm) *nrm = PetscMax(*nrm, PetscAbsScalar(b[i]));
  }
  PetscCall(VecRestoreArrayRead(y, &a));
  PetscCall(VecRestoreArrayRead(yref, &b));
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, err, 1, MPIU_REAL, MPIU_MAX, comm));
  if (nrm) PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, nrm, 1, MPIU_REAL, MPIU_MAX, comm));
  PetscFunctionReturn(0);
}

/* CheckClose - whether MaxDifference(y, yref) <= RTOL * scale; if not, prints what failed and sets *ok to PETSC_FALSE */
static inline PetscErrorCode CheckClose(Vec y, Vec yref, PetscReal scale, const char *what, PetscBool *ok)
{
  PetscReal err;

  PetscFunctionBeginUser;
  PetscCall(MaxDifference(y, yref, &err, NULL));
  if (!(err <= RTOL * scale)) {
    *ok = PETSC_FALSE;
    PetscCall(PetscPrintf(PetscObjectComm((PetscObject)y), "    FAILED %s: max error %g, allowed %g\n", what, (double)err, (double)(RTOL * scale)));
  }
  PetscFunctionReturn(0);
}

/* CheckMat - Y (ours) against Yr (AIJ): || Y - Yr ||_F and MatMult on Y's vectors (through its format); prints
   what failed and clears *ok */
static inline PetscErrorCode CheckMat(Mat Y, Mat Yr, PetscRandom rnd, const char *what, PetscBool *ok)
{
  Mat       D;
  Vec       x, y, xr, yr;
  PetscReal err, nrm;
  char      check[128];

  PetscFunctionBeginUser;
  PetscCall(MatDuplicate(Yr, MAT_COPY_VALUES, &D));
  PetscCall(MatAXPY(D, -1.0, Y, DIFFERENT_NONZERO_PATTERN));
  PetscCall(MatNorm(D, NORM_FROBENIUS, &err));
  PetscCall(MatNorm(Yr, NORM_FROBENIUS, &nrm));
  PetscCall(MatDestroy(&D));
  if (!(err <= RTOL * nrm)) {
    *ok = PETSC_FALSE;
    PetscCall(PetscPrintf(PetscObjectComm((PetscObject)Y), "    FAILED %s: || Y - AIJ's ||_F = %g, allowed %g\n", what, (double)err, (double)(RTOL * nrm)));
  }
  PetscCall(MatCreateVecs(Yr, &xr, &yr));
  PetscCall(MatCreateVecs(Y, &x, &y));
  PetscCall(VecSetRandom(xr, rnd));
  PetscCall(CopyValues(xr, x));
  PetscCall(MatMult(Y, x, y));
  PetscCall(MatMult(Yr, xr, yr));
  PetscCall(MatNorm(Yr, NORM_INFINITY, &nrm));
  PetscCall(PetscSNPrintf(check, sizeof(check), "%s, MatMult", what));
  PetscCall(CheckClose(y, yr, nrm, check, ok));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(VecDestroy(&xr));
  PetscCall(VecDestroy(&yr));
  PetscFunctionReturn(0);
}

/* DenseRandom - an M x L dense matrix of the given type with mloc local rows (with leading dimension mloc + extra when
   extra > 0) and entries in [-1, 1) */
static inline PetscErrorCode DenseRandom(MPI_Comm comm, MatType type, PetscInt mloc, PetscInt M, PetscInt L, PetscInt extra, PetscRandom rnd, Mat *B)
{
  PetscFunctionBeginUser;
  PetscCall(MatCreate(comm, B));
  PetscCall(MatSetSizes(*B, mloc, PETSC_DECIDE, M, L));
  PetscCall(MatSetType(*B, type));
  if (extra) PetscCall(MatDenseSetLDA(*B, mloc + extra));
  PetscCall(MatSetUp(*B));
  PetscCall(MatSetRandom(*B, rnd));
  PetscFunctionReturn(0);
}

/* MaxDenseDifference - err = max |C - Cref| and, when nrm is not NULL, nrm = max |Cref|, over all processes, from the
   arrays of the local blocks of the dense matrices C and Cref (of any dense types and leading dimensions) */
static inline PetscErrorCode MaxDenseDifference(Mat C, Mat Cref, PetscReal *err, PetscReal *nrm)
{
  MPI_Comm           comm = PetscObjectComm((PetscObject)C);
  Mat                Cl, Rl;
  const PetscScalar *c, *r;
  PetscInt           m, n, ldc, ldr;

  PetscFunctionBeginUser;
  *err = 0.0;
  if (nrm) *nrm = 0.0;
  PetscCall(MatDenseGetLocalMatrix(C, &Cl));
  PetscCall(MatDenseGetLocalMatrix(Cref, &Rl));
  PetscCall(MatGetSize(Rl, &m, &n));
  PetscCall(MatDenseGetLDA(Cl, &ldc));
  PetscCall(MatDenseGetLDA(Rl, &ldr));
  PetscCall(MatDenseGetArrayRead(Cl, &c));
  PetscCall(MatDenseGetArrayRead(Rl, &r));
  for (PetscInt j = 0; j < n; j++)
    for (PetscInt i = 0; i < m; i++) {
      *err = PetscMax(*err, PetscAbsScalar(c[i + j * ldc] - r[i + j * ldr]));
      if (nrm) *nrm = PetscMax(*nrm, PetscAbsScalar(r[i + j * ldr]));
    }
  PetscCall(MatDenseRestoreArrayRead(Cl, &c));
  PetscCall(MatDenseRestoreArrayRead(Rl, &r));
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, err, 1, MPIU_REAL, MPIU_MAX, comm));
  if (nrm) PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, nrm, 1, MPIU_REAL, MPIU_MAX, comm));
  PetscFunctionReturn(0);
}

/* EventCount - times the log event name has run on this process (PetscLogDefaultBegin() first); 0 for an event
   that is not registered */
static inline PetscErrorCode EventCount(const char *name, PetscLogDouble *count)
{
  PetscLogEvent      event;
  PetscEventPerfInfo info;

  PetscFunctionBeginUser;
  *count = 0;
  PetscCall(PetscLogEventGetId(name, &event));
  if (event < 0) PetscFunctionReturn(0);
  PetscCall(PetscLogEventGetPerfInfo(PETSC_DETERMINE, event, &info));
  *count = info.count;
  PetscFunctionReturn(0);
}

#endif
