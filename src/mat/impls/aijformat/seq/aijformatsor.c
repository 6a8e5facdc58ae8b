/*
   MatSOR() of our seq types: multicolor SOR in the backend (ellgsor.h), the colors built at the first
   MatSOR() after a change of the nonzero pattern, the values refreshed after a change of values.
   PETSc's SeqAIJ MatSOR() (exact, natural order, on the host copy) with -mat_gpu_sor host, for a matrix
   bound to the CPU, and for what the colored sweeps do not do: Eisenstat's trick and the applications
   of the triangles (SOR_EISENSTAT, SOR_APPLY_UPPER, SOR_APPLY_LOWER).
*/
#include "../aijformat.h"
#include <ellgsor.h>

const char *const MatELLGSorTypes[] = {"multicolor", "host"};

/* -mat_gpu_sor (-mat_ellg_sor before 0.2.0, deprecated), read from the options database with the matrix's prefix:
   in its options block, or, at a MatSOR() since, directly */
PetscErrorCode MatSeqAIJFormatSorOptions(Mat A, ELLG_OPTION_ITEMS PetscOptionsObject)
{
  Mat_SeqAIJFormat *e   = (Mat_SeqAIJFormat *)A->spptr;
  PetscInt          idx = e->sorhost ? 1 : 0;

  PetscFunctionBegin;
  if (PetscOptionsObject) {
    PetscCall(PetscOptionsDeprecated("-mat_ellg_sor", "-mat_gpu_sor", "0.2.0", NULL));
    PetscCall(PetscOptionsEList("-mat_gpu_sor", "MatSOR(): multicolor SOR in the backend, or PETSc's SeqAIJ SOR on the host", "MatSOR", MatELLGSorTypes, 2, MatELLGSorTypes[idx], &idx, NULL));
  } else {
    PetscBool set;

    PetscCall(PetscOptionsGetEList(((PetscObject)A)->options, ((PetscObject)A)->prefix, "-mat_gpu_sor", MatELLGSorTypes, 2, &idx, &set));
    if (!set) PetscCall(PetscOptionsGetEList(((PetscObject)A)->options, ((PetscObject)A)->prefix, "-mat_ellg_sor", MatELLGSorTypes, 2, &idx, NULL));
  }
  e->sorhost = (PetscBool)(idx == 1);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the colored rows matching the host AIJ matrix: built again for a new pattern, refreshed for new values */
static PetscErrorCode MatSeqAIJFormatSorSync(Mat A)
{
  Mat_SeqAIJFormat  *e = (Mat_SeqAIJFormat *)A->spptr;
  const PetscInt    *ai, *aj;
  const PetscScalar *aa;
  PetscInt           m, bs, ncolors;
  PetscBool          done;
  size_t             bytes;

  PetscFunctionBegin;
  if (e->sor && e->sorstate == ((PetscObject)A)->state) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatSeqAIJGetArrayRead(A, &aa));
  if (!e->sor || e->sornzstate != A->nonzerostate || e->sorsingle != e->fmt->single) { /* a new pattern or precision */
    if (!e->sor) PetscCall(ELLGSorCreate(e->fmt->backend, &e->sor));
    PetscCall(MatGetRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &m, &ai, &aj, &done));
    PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Cannot get the CSR structure of the matrix");
    PetscCall(MatGetBlockSize(A, &bs));
    PetscCall(ELLGSorBuild(e->sor, e->fmt->single, m, m % bs ? 1 : bs, ai, aj, aa));
    PetscCall(MatRestoreRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &m, &ai, &aj, &done));
    PetscCall(ELLGSorGetInfo(e->sor, &ncolors, &bytes));
    PetscCall(PetscInfo(A, "Multicolor SOR for %" PetscInt_FMT " rows in blocks of %" PetscInt_FMT ": %" PetscInt_FMT " colors, %.3g MB in the %s backend\n", A->rmap->n, m % bs ? 1 : bs, ncolors, (double)bytes / 1048576.0, PetscELLGBackends[e->fmt->backend]));
    e->sornzstate = A->nonzerostate;
    e->sorsingle  = e->fmt->single;
  } else PetscCall(ELLGSorSetValues(e->sor, aa));
  PetscCall(MatSeqAIJRestoreArrayRead(A, &aa));
  e->sorstate = ((PetscObject)A)->state;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatSOR_SeqAIJFormat(Mat A, Vec b, PetscReal omega, MatSORType flag, PetscReal shift, PetscInt its, PetscInt lits, Vec x)
{
  Mat_SeqAIJFormat  *e    = (Mat_SeqAIJFormat *)A->spptr;
  const PetscBool    keep = (PetscBool)!(flag & SOR_ZERO_INITIAL_GUESS);
  const PetscScalar *pb;
  PetscScalar       *px;
  Vec                bb, xb;
  PetscBool          bound;

  PetscFunctionBegin;
  PetscCall(MatELLGBoundToCPU(A, &bound));
  if (!e->sor) PetscCall(MatSeqAIJFormatSorOptions(A, NULL));
  if (bound || e->sorhost || (flag & (SOR_EISENSTAT | SOR_APPLY_UPPER | SOR_APPLY_LOWER)) || A->rmap->n != A->cmap->n) {
    PetscCall(e->aijops.sor(A, b, omega, flag, shift, its, lits, x));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCheck(its > 0 && lits > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Relaxation requires global its %" PetscInt_FMT " and local its %" PetscInt_FMT " both positive", its, lits);
  PetscCall(MatSeqAIJFormatSorSync(A));
  PetscCall(ELLGSorSetShift(e->sor, shift)); /* a zero diagonal fails here, not with the event begun and the arrays taken */
  PetscCall(PetscLogEventBegin(MATGPU_SOR, A, b, x, 0));
  PetscCall(MatSeqAIJFormatGetInput(A, b, &bb, &pb));
  PetscCall(MatSeqAIJFormatGetOutput(A, x, keep, &xb, &px));
  PetscCall(ELLGSorApply(e->sor, pb, omega, flag, shift, its * lits, px));
  PetscCall(VecGPURestoreBackendArray(bb, ELLG_ACCESS_READ, (PetscScalar **)&pb));
  PetscCall(MatSeqAIJFormatRestoreOutput(x, keep, xb, &px));
  PetscCall(PetscELLGLogSynchronize(e->fmt->backend));
  PetscCall(PetscLogEventEnd(MATGPU_SOR, A, b, x, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the SOR line of MatView()'s info */
PetscErrorCode MatSeqAIJFormatViewSor(Mat A, PetscViewer viewer)
{
  Mat_SeqAIJFormat *e = (Mat_SeqAIJFormat *)A->spptr;
  PetscInt          ncolors;

  PetscFunctionBegin;
  if (e->sorhost) PetscCall(PetscViewerASCIIPrintf(viewer, "MatSOR: PETSc's SeqAIJ SOR on the host (-mat_gpu_sor host)\n"));
  else if (e->sor) {
    PetscCall(ELLGSorGetInfo(e->sor, &ncolors, NULL));
    PetscCall(PetscViewerASCIIPrintf(viewer, "MatSOR: multicolor, %" PetscInt_FMT " colors%s\n", ncolors, e->sorsingle ? ", single-precision values" : ""));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
