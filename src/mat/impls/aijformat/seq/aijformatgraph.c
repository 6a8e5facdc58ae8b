/*
   MatCreateGraph() of our seq types: PCGAMG's strength graph, which it coarsens. For a square matrix of block size 1
   whose nonzero pattern is symmetric (stencils, most meshes), the graph keeps the matrix's pattern and its values
   (absolute values, the transpose's added, scaled by the diagonal) are computed in the backend in one pass
   (ellggraph.h), in place of SeqAIJ's duplicate, transpose, sum with a new pattern and diagonal scaling on the host.
   The values are PETSc's to the bit. A filter (threshold 0 or more) is PETSc's MatFilter() on the host copy.

   The graph is of the matrix's type, so that PCGAMG's square of it (aggressive coarsening) is a product in the
   backend; nothing builds its format but a product with vectors. Block sizes above 1, the strength index of
   PCGAMG, a pattern that is not symmetric, a matrix bound to the CPU and 64-bit indices take SeqAIJ's code (and
   a filter, before PETSc 3.21), whose graph then gets the matrix's type; -info says which ran.
*/
#include "../aijformat.h"
#include <ellggraph.h>

/* why the backend does not make the graph of A, or NULL */
static PetscErrorCode MatCreateGraphRefusal(Mat A, PetscBool indexed, PetscReal filter, const char **why)
{
  PetscBool bound;

  PetscFunctionBegin;
  *why = NULL;
  (void)filter;
  PetscCall(MatELLGBoundToCPU(A, &bound));
  if (bound) *why = "bound to the CPU";
  else if (A->rmap->bs > 1) *why = "block size above 1";
  else if (indexed) *why = "a strength index";
  else if (A->rmap->n != A->cmap->n) *why = "not square";
  else if (sizeof(PetscInt) != sizeof(int)) *why = "64-bit indices";
#if PETSC_VERSION_LT(3, 21, 0)
  else if (filter >= 0) *why = "a filter";
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the graph in the backend, or NULL with the reason */
static PetscErrorCode MatCreateGraphBackend(Mat A, PetscBool sym, PetscBool scale, PetscReal filter, Mat *G, const char **why)
{
  Mat_SeqAIJFormat *e = (Mat_SeqAIJFormat *)A->spptr;
  PetscBool         isset, issym, mirror, symmetric;
  ELLGCsrInput      in;
  PetscScalar      *g;
  PetscInt          nnz;
  Mat               Gmat;
  PetscErrorCode    ierr;

  PetscFunctionBegin;
  *G = NULL;
  PetscCall(MatIsSymmetricKnown(A, &isset, &issym));
  mirror = (PetscBool)(sym && !(isset && issym));
  PetscCall(MatDuplicate(A, MAT_DO_NOT_COPY_VALUES, &Gmat));
  PetscCall(PetscLogEventBegin(MATGPU_CreateGraph, A, 0, 0, 0));
  PetscCall(MatSeqAIJFormatGetCsrInput(A, &in));
  nnz = in.i[in.m];
  PetscCall(MatSeqAIJGetArrayWrite(Gmat, &g));
  ierr = ELLGGraphValues(e->fmt->backend, in.m, in.i, in.j, in.a, (PetscBool)(filter >= 0 || scale), mirror, scale, g, &symmetric);
  PetscCall(MatSeqAIJRestoreArrayWrite(Gmat, &g));
  PetscCall(MatSeqAIJFormatRestoreCsrInput(A, &in));
  PetscCall(PetscLogEventEnd(MATGPU_CreateGraph, A, 0, 0, 0));
  if (ierr || !symmetric) PetscCall(MatDestroy(&Gmat));
  PetscCall(ierr);
  if (!symmetric) {
    *why = "a nonzero pattern that is not symmetric";
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (sym) PetscCall(MatSetOption(Gmat, MAT_SYMMETRIC, PETSC_TRUE));
  else PetscCall(MatPropagateSymmetryOptions(A, Gmat));
  PetscCall(MatViewFromOptions(Gmat, NULL, "-mat_graph_view"));
#if PETSC_VERSION_GE(3, 21, 0)
  if (filter >= 0) {
    PetscCall(MatFilter(Gmat, filter, PETSC_TRUE, PETSC_TRUE));
    PetscCall(MatViewFromOptions(Gmat, NULL, "-mat_filter_graph_view"));
  }
#endif
  PetscCall(PetscInfo(A, "MatCreateGraph of %s in the %s backend: %" PetscInt_FMT " rows, %" PetscInt_FMT " entries%s%s\n", ((PetscObject)A)->type_name, PetscELLGBackends[e->fmt->backend], A->rmap->n, nnz, mirror ? ", symmetrized" : "", scale ? ", scaled" : ""));
  *G = Gmat;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* SeqAIJ's graph of A (made by SeqAIJ's code, *G may be A itself) given A's type if it is plain SeqAIJ */
static PetscErrorCode MatCreateGraphTakeType(Mat A, Mat G)
{
  Mat_SeqAIJFormat *e = (Mat_SeqAIJFormat *)A->spptr;
  PetscBool         seqaij;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)G, MATSEQAIJ, &seqaij));
  if (!seqaij) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatConvertInPlace_SeqAIJ_SeqAIJFormat(G, ((PetscObject)A)->type_name, e->fmt));
  if (e->choice) PetscCall(MatSeqAIJGPUChoiceCopy(e->choice, G));
  PetscFunctionReturn(PETSC_SUCCESS);
}

#if PETSC_VERSION_GE(3, 21, 0)
static PetscErrorCode MatCreateGraph_SeqAIJFormat(Mat A, PetscBool sym, PetscBool scale, PetscReal filter, PetscInt index_size, PetscInt index[], Mat *G)
#else
static PetscErrorCode MatCreateGraph_SeqAIJFormat(Mat A, PetscBool sym, PetscBool scale, PetscReal filter, Mat *G)
#endif
{
  Mat_SeqAIJFormat *e = (Mat_SeqAIJFormat *)A->spptr;
  const char       *why;

  PetscFunctionBegin;
#if PETSC_VERSION_GE(3, 21, 0)
  PetscCall(MatCreateGraphRefusal(A, (PetscBool)(index_size > 0), filter, &why));
#else
  PetscCall(MatCreateGraphRefusal(A, PETSC_FALSE, filter, &why));
#endif
  *G = NULL;
  if (!why && (sym || scale || filter >= 0)) PetscCall(MatCreateGraphBackend(A, sym, scale, filter, G, &why));
  if (*G) PetscFunctionReturn(PETSC_SUCCESS);
  if (why) PetscCall(PetscInfo(A, "MatCreateGraph of %s: SeqAIJ's host code (%s)\n", ((PetscObject)A)->type_name, why));
#if PETSC_VERSION_GE(3, 21, 0)
  PetscCall(e->aijops.creategraph(A, sym, scale, filter, index_size, index, G));
#else
  PetscCall(e->aijops.creategraph(A, sym, scale, filter, G));
#endif
  if (*G != A) PetscCall(MatCreateGraphTakeType(A, *G));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the operation of our seq types (MatConvertInPlace_SeqAIJ_SeqAIJFormat()) */
void MatSeqAIJFormatSetGraphOp(Mat A)
{
  A->ops->creategraph = MatCreateGraph_SeqAIJFormat;
}
