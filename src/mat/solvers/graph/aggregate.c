/* The aggregates of a graph in the backend (ellggraph.h): each pass's roots are numbered here, and the next pass
   takes the aggregates as its vertices */
#include <ellggraph.h>
#include <ellggraphkernels.h>

/* the most rounds a pass takes on the device before the host takes it over */
#define ELLG_AGG_MAX_ROUNDS 1024

/* the passes of one aggregation */
typedef struct {
  PetscELLGBackend be;
  PetscInt         m;
  const int       *ai, *aj;                  /* host */
  int             *dai, *daj, *dvec, *droot; /* device: the pattern, the order or the map, the roots */
  int             *work;                     /* host passes */
} ELLGAggregation;

/* the pattern on the device, at the first pass there */
static PetscErrorCode ELLGAggregationUpload(ELLGAggregation *g)
{
  const size_t nnz = (size_t)g->ai[g->m];

  PetscFunctionBegin;
  if (g->dai) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscELLGMalloc(g->be, sizeof(int) * (size_t)(g->m + 1), (void **)&g->dai));
  PetscCall(PetscELLGMalloc(g->be, sizeof(int) * PetscMax(nnz, 1), (void **)&g->daj));
  PetscCall(PetscELLGMalloc(g->be, sizeof(int) * (size_t)g->m, (void **)&g->dvec));
  PetscCall(PetscELLGMalloc(g->be, sizeof(int) * (size_t)g->m, (void **)&g->droot));
  PetscCall(PetscELLGMemcpy(g->be, g->dai, g->ai, sizeof(int) * (size_t)(g->m + 1), ELLG_MEMCPY_HTOD));
  PetscCall(PetscELLGMemcpy(g->be, g->daj, g->aj, sizeof(int) * nnz, ELLG_MEMCPY_HTOD));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   one pass: root[v] for the nv vertices. The device takes a pass in rounds: a pass in a random order (PCGAMG's
   first) in a few dozen; a pass by index (the next ones, on the aggregates of the last) in as many as the longest
   chain of vertices each adjacent to the next and later in the order, which on meshes is some hundreds. A pass the
   rounds do not finish runs on the host, as PETSc's does.
*/
static PetscErrorCode ELLGAggregationPass(ELLGAggregation *g, const PetscInt *map, PetscInt nv, const PetscInt *order, PetscInt *root)
{
  PetscFunctionBegin;
#if defined(ELLG_HAVE_CUDA)
  if (g->be != PETSCELLG_BACKEND_HOST) {
    const PetscInt *vec = map ? map : order;
    int             rounds;

    PetscCall(ELLGAggregationUpload(g));
    if (vec) PetscCall(PetscELLGMemcpy(g->be, g->dvec, vec, sizeof(int) * (size_t)(map ? g->m : nv), ELLG_MEMCPY_HTOD));
    PetscCallELLGCuda(ELLGCudaGraphMIS((int)g->m, g->dai, g->daj, map ? g->dvec : NULL, (int)nv, order ? g->dvec : NULL, ELLG_AGG_MAX_ROUNDS, g->droot, &rounds));
    if (rounds >= 0) {
      PetscCall(PetscELLGMemcpy(g->be, root, g->droot, sizeof(int) * (size_t)nv, ELLG_MEMCPY_DTOH));
      PetscCall(PetscInfo(NULL, "Aggregation of %" PetscInt_FMT " vertices on the device in %d rounds\n", nv, rounds));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
    PetscCall(PetscInfo(NULL, "Aggregation of %" PetscInt_FMT " vertices: not done in %d rounds on the device, done on the host\n", nv, ELLG_AGG_MAX_ROUNDS));
  }
#endif
  if (!g->work) PetscCall(PetscMalloc1(ELLG_HOST_GRAPH_MIS_WORK(g->m, g->m), &g->work));
  ELLGHostGraphMIS((int)g->m, g->ai, g->aj, (const int *)map, (int)nv, (const int *)order, (int *)root, g->work);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ELLGAggregationDestroy(ELLGAggregation *g)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(g->work));
  PetscCall(PetscELLGFree(g->be, g->dai));
  PetscCall(PetscELLGFree(g->be, g->daj));
  PetscCall(PetscELLGFree(g->be, g->dvec));
  PetscCall(PetscELLGFree(g->be, g->droot));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ELLGGraphAggregatePasses(ELLGAggregation *g, const PetscInt *order, PetscInt k, PetscInt *agg, PetscInt *nagg, PetscInt *root, PetscInt *num)
{
  PetscInt nv = g->m;

  PetscFunctionBegin;
  for (PetscInt pass = 0; pass < k; pass++) {
    PetscInt n = 0;

    PetscCall(ELLGAggregationPass(g, pass ? agg : NULL, nv, pass ? NULL : order, root));
    for (PetscInt v = 0; v < nv; v++) num[v] = root[v] == v ? n++ : -1; /* the aggregates in the order of their roots */
    for (PetscInt r = 0; r < g->m; r++) {
      const PetscInt v = pass ? agg[r] : r;

      agg[r] = v >= 0 && root[v] >= 0 ? num[root[v]] : -1;
    }
    nv = n;
  }
  *nagg = nv;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ELLGGraphAggregate(PetscELLGBackend be, PetscInt m, const PetscInt *ai, const PetscInt *aj, const PetscInt *order, PetscInt k, PetscInt *agg, PetscInt *nagg)
{
  ELLGAggregation g;
  PetscInt       *root, *num;
  PetscErrorCode  ierr;

  PetscFunctionBegin;
  PetscCheck(sizeof(PetscInt) == sizeof(int), PETSC_COMM_SELF, PETSC_ERR_SUP, "The backend's aggregation takes 32-bit indices");
  PetscCall(PetscMemzero(&g, sizeof(g)));
  g.be = be;
  g.m  = m;
  g.ai = (const int *)ai;
  g.aj = (const int *)aj;
  PetscCall(PetscMalloc2(m, &root, m, &num));
  ierr = ELLGGraphAggregatePasses(&g, order, k, agg, nagg, root, num);
  PetscCall(ELLGAggregationDestroy(&g));
  PetscCall(PetscFree2(root, num));
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}
