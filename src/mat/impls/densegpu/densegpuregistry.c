/* Device dense matrices: registration, the root type MATDENSEGPU and its constructor */
#include "densegpuimpl.h"

PetscErrorCode MatDenseGPURegisterTypes(void)
{
  PetscFunctionBegin;
  PetscCall(MatRegister(MATSEQDENSEGPU, MatCreate_SeqDenseGPU));
  PetscCall(MatRegister(MATMPIDENSEGPU, MatCreate_MPIDenseGPU));
  PetscCall(MatRegisterRootName(MATDENSEGPU, MATSEQDENSEGPU, MATMPIDENSEGPU));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*MC
   MATDENSEGPU - "densegpu" - a dense matrix with a copy of its values in GPU memory: `MATSEQDENSEGPU`
   on one MPI process, `MATMPIDENSEGPU` on more

   Options Database Keys:
+  -mat_type densegpu - makes `MatSetFromOptions()` create this type
-  -ellg_backend <host,cuda> - where the copy lives and its operations run (see `PetscELLGGetBackend()`)

   Level: beginner

   Notes:
   A `MATSEQDENSE` (`MATMPIDENSE`) matrix whose host array stays PETSc's own, so that every dense
   operation and `MatDenseGetArray()` work, with a copy of the local values in the backend's memory
   (column-major, leading dimension the number of local rows), allocated on first use. Values move
   between the two copies only when the other one is needed: `MatConvert()` to this type puts them on
   the backend; host code of the dense type (`MatSetValues()`, `MatGetValues()`, `MatView()`,
   `MatMult()`, `MatTranspose()`, ..., `MatDenseGetArray()` and friends) brings the host copy up to
   date first, and leaves it the only valid one when it may have written it.

   `MatZeroEntries()`, `MatScale()`, `MatCopy()` and `MatAXPY()` between matrices of this type,
   `MatNorm()` with `NORM_FROBENIUS` and `MatDuplicate()` run on the backend copy when it is valid (no
   host array out); otherwise on the host. `MatMatMult()` of a `MATELLG`, `MATPJDS` or `MATSLICEDELL`
   matrix with a B of this type whose values are on the backend runs on the backend copies of B and
   C, and C (of this type) stays there. Other codes reach the backend copy with
   `MatDenseGPUGetArray()`.

.seealso: `MATSEQDENSEGPU`, `MATMPIDENSEGPU`, `MatCreateDenseGPU()`, `MatDenseGPUGetArray()`, `MatDenseGPUGetBackend()`, `MATDENSE`
M*/

/*MC
   MATSEQDENSEGPU - "seqdensegpu" - `MATDENSEGPU` on one MPI process

   Level: beginner

.seealso: `MATDENSEGPU`, `MATMPIDENSEGPU`, `MATSEQDENSE`
M*/

/*MC
   MATMPIDENSEGPU - "mpidensegpu" - `MATDENSEGPU` on several MPI processes: a `MATMPIDENSE` whose local
   block (`MatDenseGetLocalMatrix()`) is a `MATSEQDENSEGPU`

   Level: beginner

.seealso: `MATDENSEGPU`, `MATSEQDENSEGPU`, `MATMPIDENSE`
M*/

/*@C
   MatCreateDenseGPU - creates a dense matrix with a copy of its values in GPU memory

   Collective

   Input Parameters:
+  comm - MPI communicator
.  m - number of local rows (or `PETSC_DECIDE` to have it calculated if M is given)
.  n - number of local columns (or `PETSC_DECIDE` to have it calculated if N is given)
.  M - number of global rows (or `PETSC_DECIDE` to have it calculated if m is given)
.  N - number of global columns (or `PETSC_DECIDE` to have it calculated if n is given)
-  data - optional host array of the local values, column-major with leading dimension m (`NULL`: PETSc allocates it)

   Output Parameter:
.  A - the matrix, of type `MATSEQDENSEGPU` or `MATMPIDENSEGPU`

   Level: intermediate

   Note:
   As `MatCreateDense()`: the host array is the matrix's; the backend copy is made when needed.

.seealso: `MATDENSEGPU`, `MatCreateDense()`, `MatDenseGPUGetArray()`
@*/
PetscErrorCode MatCreateDenseGPU(MPI_Comm comm, PetscInt m, PetscInt n, PetscInt M, PetscInt N, PetscScalar *data, Mat *A)
{
  PetscFunctionBegin;
  PetscCall(PetscELLGInitializePackage());
  PetscCall(MatCreate(comm, A));
  PetscCall(MatSetSizes(*A, m, n, M, N));
  PetscCall(MatSetType(*A, MATDENSEGPU));
  PetscCall(MatSeqDenseSetPreallocation(*A, data));
  PetscCall(MatMPIDenseSetPreallocation(*A, data));
  PetscFunctionReturn(PETSC_SUCCESS);
}
