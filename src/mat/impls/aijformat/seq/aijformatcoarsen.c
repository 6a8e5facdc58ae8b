/*
   PCGAMG's coarsener (MATCOARSENMISK, PETSc's default) on the graphs of our seq types: the aggregates are made in
   the backend (ellggraph.h) and handed to PCGAMG as PETSc's MISK hands them, the same aggregates in the same order.
   The package registers this coarsener in place of PETSc's MISK, whose code it keeps for every other graph: of
   other types, bound to the CPU, not known to be structurally symmetric (the rounds on the device read each vertex's
   own row), or with 64-bit indices.
*/
#include "../aijformat.h"
#include <ellggraph.h>

PETSC_EXTERN PetscErrorCode MatCoarsenCreate_MISK(MatCoarsen);

static PetscErrorCode (*MatCoarsenApply_PETScMISK)(MatCoarsen); /* PETSc's own, for the graphs left to it */

/* why the backend does not aggregate G, or NULL */
static PetscErrorCode MatCoarsenRefusal_SeqAIJFormat(Mat G, const char **why)
{
  PetscBool seq, mpi, bound;

  PetscFunctionBegin;
  *why = NULL;
  PetscCall(MatELLGGetKind(G, &seq, &mpi));
  if (!seq) {
    *why = "not of our seq types";
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(MatELLGBoundToCPU(G, &bound));
  if (bound) *why = "bound to the CPU";
  else if (G->rmap->n != G->cmap->n) *why = "not square";
  else if (G->symmetric != PETSC_BOOL3_TRUE && G->structurally_symmetric != PETSC_BOOL3_TRUE) *why = "not known to be structurally symmetric";
  else if (sizeof(PetscInt) != sizeof(int)) *why = "64-bit indices";
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PETSc's MISK output: the list of each aggregate's rows (global numbers, increasing), and the matrix of the
   aggregates' off-process rows, which one process has none of */
static PetscErrorCode MatCoarsenSetLists(MatCoarsen crs, const PetscInt *agg)
{
  Mat               G = crs->graph, ghosts;
  PetscInt          m = G->rmap->n, rstart;
  PetscCoarsenData *lists;

  PetscFunctionBegin;
  PetscCall(MatGetOwnershipRange(G, &rstart, NULL));
  PetscCall(PetscCDCreate(m, &lists));
  for (PetscInt r = 0; r < m; r++)
    if (agg[r] >= 0) PetscCall(PetscCDAppendID(lists, agg[r], rstart + r));
  PetscCall(MatCreateAIJ(PetscObjectComm((PetscObject)G), m, m, PETSC_DETERMINE, PETSC_DETERMINE, 0, NULL, 0, NULL, &ghosts));
  PetscCall(MatAssemblyBegin(ghosts, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(ghosts, MAT_FINAL_ASSEMBLY));
  PetscCall(PetscCDSetMat(lists, ghosts));
  crs->agg_lists = lists;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatCoarsenApply_SeqAIJFormat(MatCoarsen crs)
{
  Mat             G = crs->graph;
  const char     *why;
  PetscInt        k, m, nagg, *agg;
  const PetscInt *order = NULL;
  ELLGCsrInput    in;
  PetscELLGBackend be;
  PetscErrorCode  ierr;

  PetscFunctionBegin;
  PetscCall(MatCoarsenMISKGetDistance(crs, &k));
  PetscCall(MatCoarsenRefusal_SeqAIJFormat(G, &why));
  if (!why && (k < 1 || k > 4)) why = "a distance PETSc refuses";
  if (why) {
    PetscCall(PetscInfo(G, "MISK of a %s graph: PETSc's host code (%s)\n", ((PetscObject)G)->type_name, why));
    PetscCall(MatCoarsenApply_PETScMISK(crs));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  m = G->rmap->n;
  PetscCall(MatELLGGetBackend(G, &be));
  PetscCall(PetscLogEventBegin(MATGPU_Coarsen, G, 0, 0, 0));
  PetscCall(MatSeqAIJFormatGetCsrInput(G, &in));
  if (crs->perm) PetscCall(ISGetIndices(crs->perm, &order));
  PetscCall(PetscMalloc1(m, &agg));
  ierr = ELLGGraphAggregate(be, m, in.i, in.j, order, k, agg, &nagg);
  if (crs->perm) PetscCall(ISRestoreIndices(crs->perm, &order));
  PetscCall(MatSeqAIJFormatRestoreCsrInput(G, &in));
  if (!ierr) ierr = MatCoarsenSetLists(crs, agg);
  PetscCall(PetscFree(agg));
  PetscCall(ierr);
  PetscCall(PetscLogEventEnd(MATGPU_Coarsen, G, 0, 0, 0));
  PetscCall(PetscInfo(G, "MISK at distance %" PetscInt_FMT " of a %s graph in the %s backend: %" PetscInt_FMT " rows, %" PetscInt_FMT " aggregates\n", k, ((PetscObject)G)->type_name, PetscELLGBackends[be], m, nagg));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatCoarsenCreate_SeqAIJFormat(MatCoarsen crs)
{
  PetscFunctionBegin;
  PetscCall(MatCoarsenCreate_MISK(crs));
  MatCoarsenApply_PETScMISK = crs->ops->apply;
  crs->ops->apply           = MatCoarsenApply_SeqAIJFormat;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* registers our MISK in place of PETSc's (after PETSc's own registrations, which would replace it) */
PetscErrorCode MatELLGRegisterCoarsen(void)
{
  PetscFunctionBegin;
  PetscCall(MatCoarsenRegisterAll());
  PetscCall(MatCoarsenRegister(MATCOARSENMISK, MatCoarsenCreate_SeqAIJFormat));
  PetscFunctionReturn(PETSC_SUCCESS);
}
