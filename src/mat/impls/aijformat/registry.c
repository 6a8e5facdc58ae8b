/* The registration of our matrix types (each a storage format under an AIJ subclass) and their manual pages */
#include "aijformat.h"

/* the seq and mpi constructors of the type of entry i of MatELLGFormats[] */
#define MAT_ELLG_FORMAT_CONSTRUCTORS(i) \
  static PetscErrorCode MatCreate_SeqAIJFormat_##i(Mat A) \
  { \
    PetscFunctionBegin; \
    PetscCall(MatCreate_SeqAIJFormat(A, MatELLGFormats[i].seqtype)); \
    PetscFunctionReturn(PETSC_SUCCESS); \
  } \
  static PetscErrorCode MatCreate_MPIAIJFormat_##i(Mat A) \
  { \
    PetscFunctionBegin; \
    PetscCall(MatCreate_MPIAIJFormat(A, MatELLGFormats[i].mpitype)); \
    PetscFunctionReturn(PETSC_SUCCESS); \
  }

/*MC
   MATELLG - MATELLG = "ellg" - A sparse matrix type assembled like `MATAIJ` whose products run on the GPU in
   the ELLG format (ELLPACK-R with T threads per row): `MATSEQAIJELLG` on one MPI process, `MATMPIAIJELLG` on
   more.

   Options Database Keys:
+  -mat_type ellg - sets the matrix type to `MATELLG` during a call to `MatSetFromOptions()`
.  -mat_ellg_threads_per_row <T> - threads per row: 1, 2, 4, 8, 16 or 32 (0, the default: chosen from the row
     lengths)
.  -mat_ellg_block_size <b> - threads per CUDA block: a multiple of 32 up to 1024 (0, the default: automatic)
.  -mat_ellg_compact_indices <true,false> - store the column indices as 16-bit offsets from the row when every
     column is within 16 bits of its row (default true)
.  -mat_ellg_long_row_threshold <n> - rows of more than n entries are multiplied apart (0, the default:
     automatic; -1: never)
.  -mat_ellg_update_buffers <none,values,all> - what a values-only update keeps in device memory for the next
     one (default values)
.  -mat_ellg_spmm_columns <L_c> - `MatMatMult()` with a dense matrix: columns of C per pass over a row, 1 to
     32 (0, the default: automatic)
.  -mat_ellg_spmm_chunk_columns <w> - columns of B and C that move between host and device at a time (0, the
     default: automatic)
.  -mat_ellg_spmm_streams <S> - CUDA streams the chunks go round, 1 to 16 (0, the default: 3)
.  -mat_gpu_sor <multicolor,host> - `MatSOR()` of the seq type: multicolor SOR on the GPU (default) or
     SeqAIJ's SOR on the host copy
.  -mat_gpu_halo_overlap <true,false> - parallel type: multiply by the diagonal block during the halo exchange
     (default true)
.  -mat_gpu_aware_mpi <true,false> - parallel type: give MPI the device buffers of the halo exchange (needs a
     CUDA-aware MPI; default false)
-  -ellg_backend <host,cuda> - where the products run (see `PetscELLGGetBackend()`)

   Level: beginner

   Notes:
   An AIJ subclass: PETSc assembles the matrix as `MATAIJ`, and at its first use on the GPU after an assembly
   it is also stored in the format, in which `MatMult()`, `MatMultAdd()`, `MatMultTranspose()`, `MatMultTransposeAdd()` and
   `MatGetDiagonal()` run on the GPU; the other operations work on the host copy. The sparse products
   (`MatProduct`) and `MatSOR()` of the seq type run on the GPU too, and its factors are those of
   `MATSOLVERELLG`. On more than one process the diagonal and off-diagonal blocks (`MATMPIAIJ`'s split) are
   both stored in the format, and the ghost values are exchanged while the diagonal block multiplies. Use it
   with `VECGPU` vectors (`-vec_type gpu`), or PETSc's CUDA vectors with a PETSc built with CUDA;
   `MatCreateVecs()` gives such vectors. `-mat_view ::ascii_info` shows the format and the backend.

   ELLG pads every row to the longest one: it suits matrices of nearly equal row lengths, where it matches
   `MATSLICEDELL`, the type to choose by default.

.seealso: `MATPJDS`, `MATSLICEDELL`, `MATSEQAIJELLG`, `MATMPIAIJELLG`, `MatCreateSeqAIJELLG()`,
          `MatELLGGetBackend()`, `MATSOLVERELLG`, `VECGPU`, `MATDENSEGPU`, `MATAIJ`
M*/
MAT_ELLG_FORMAT_CONSTRUCTORS(0)

/*MC
   MATPJDS - MATPJDS = "pjds" - A sparse matrix type assembled like `MATAIJ` whose products run on the GPU in
   the pJDS format (padded jagged diagonals, Kreutzer et al.: the rows sorted by length, in blocks each padded
   to its longest row): `MATSEQAIJPJDS` on one MPI process, `MATMPIAIJPJDS` on more.

   Options Database Keys:
+  -mat_type pjds - sets the matrix type to `MATPJDS` during a call to `MatSetFromOptions()`
.  -mat_pjds_block_rows <b_r> - rows per block, each padded to its longest: a power of two from 1 to 1024 (0,
     the default: automatic)
.  -mat_pjds_entries_per_thread <e> - the CUDA SpMV gives a row the threads that keep each at most e of its
     entries (0, the default: automatic)
.  -mat_pjds_block_size <b> - threads per CUDA block: a multiple of 32 up to 1024 (0, the default: automatic)
.  -mat_pjds_compact_indices <true,false> - store the column indices as 16-bit offsets from the row when every
     column is within 16 bits of its row (default true)
.  -mat_pjds_long_row_threshold <n> - rows of more than n entries are multiplied apart (0, the default:
     automatic; -1: never)
.  -mat_pjds_update_buffers <none,values,all> - what a values-only update keeps in device memory for the next
     one (default values)
.  -mat_pjds_spmm_columns <L_c> - `MatMatMult()` with a dense matrix: columns of C per pass over a row, 1 to
     32 (0, the default: automatic)
.  -mat_pjds_spmm_chunk_columns <w> - columns of B and C that move between host and device at a time (0, the
     default: automatic)
.  -mat_pjds_spmm_streams <S> - CUDA streams the chunks go round, 1 to 16 (0, the default: 3)
.  -mat_gpu_sor <multicolor,host> - `MatSOR()` of the seq type: multicolor SOR on the GPU (default) or
     SeqAIJ's SOR on the host copy
.  -mat_gpu_halo_overlap <true,false> - parallel type: multiply by the diagonal block during the halo exchange
     (default true)
.  -mat_gpu_aware_mpi <true,false> - parallel type: give MPI the device buffers of the halo exchange (needs a
     CUDA-aware MPI; default false)
-  -ellg_backend <host,cuda> - where the products run (see `PetscELLGGetBackend()`)

   Level: beginner

   Notes:
   An AIJ subclass: PETSc assembles the matrix as `MATAIJ`, and at its first use on the GPU after an assembly
   it is also stored in the format, in which `MatMult()`, `MatMultAdd()`, `MatMultTranspose()`, `MatMultTransposeAdd()` and
   `MatGetDiagonal()` run on the GPU; the other operations work on the host copy. The sparse products
   (`MatProduct`) and `MatSOR()` of the seq type run on the GPU too, and its factors are those of
   `MATSOLVERELLG`. On more than one process the diagonal and off-diagonal blocks (`MATMPIAIJ`'s split) are
   both stored in the format, and the ghost values are exchanged while the diagonal block multiplies. Use it
   with `VECGPU` vectors (`-vec_type gpu`), or PETSc's CUDA vectors with a PETSc built with CUDA;
   `MatCreateVecs()` gives such vectors. `-mat_view ::ascii_info` shows the format and the backend.

   The type for graphs whose row lengths spread over orders of magnitude (social, citation, peer-to-peer and
   similar networks); `MATSLICEDELL` is the type to choose by default.

.seealso: `MATSLICEDELL`, `MATELLG`, `MATSEQAIJPJDS`, `MATMPIAIJPJDS`, `MatELLGGetBackend()`, `MATSOLVERELLG`,
          `VECGPU`, `MATAIJ`
M*/
MAT_ELLG_FORMAT_CONSTRUCTORS(1)

/*MC
   MATSLICEDELL - MATSLICEDELL = "slicedell" - A sparse matrix type assembled like `MATAIJ` whose products run
   on the GPU in the sliced ELL format (slices of C rows, each padded to its longest row, the rows sorted by
   length within windows of sigma rows): `MATSEQAIJSLICEDELL` on one MPI process, `MATMPIAIJSLICEDELL` on
   more.

   Options Database Keys:
+  -mat_type slicedell - sets the matrix type to `MATSLICEDELL` during a call to `MatSetFromOptions()`
.  -mat_slicedell_slice_height <C> - rows per slice: a power of two up to 1024 (0, the default: automatic)
.  -mat_slicedell_sigma <s> - sorting window: 1 (no sorting) or a multiple of C (0, the default: automatic)
.  -mat_slicedell_threads_per_row <T> - threads per row: 1, 2, 4, 8, 16 or 32 (0, the default: automatic)
.  -mat_slicedell_block_size <b> - threads per CUDA block: a multiple of 32 up to 1024 (0, the default:
     automatic)
.  -mat_slicedell_compact_indices <true,false> - store the column indices as 16-bit offsets from the row when
     every column is within 16 bits of its row (default true)
.  -mat_slicedell_shared_indices <true,false> - slices whose offsets from their rows are equal (a stencil's rows away
     from the boundaries) read one stored block of them, and products read no index beside each value (default
     true; kept when the distinct blocks hold at most half the slots)
.  -mat_slicedell_long_row_threshold <n> - rows of more than n entries are multiplied apart (0, the default:
     automatic; -1: never)
.  -mat_slicedell_update_buffers <none,values,all> - what a values-only update keeps in device memory for the
     next one (default values)
.  -mat_slicedell_spmm_columns <L_c> - `MatMatMult()` with a dense matrix: columns of C per pass over a row, 1
     to 32 (0, the default: automatic)
.  -mat_slicedell_spmm_chunk_columns <w> - columns of B and C that move between host and device at a time (0,
     the default: automatic)
.  -mat_slicedell_spmm_streams <S> - CUDA streams the chunks go round, 1 to 16 (0, the default: 3)
.  -mat_gpu_sor <multicolor,host> - `MatSOR()` of the seq type: multicolor SOR on the GPU (default) or
     SeqAIJ's SOR on the host copy
.  -mat_gpu_halo_overlap <true,false> - parallel type: multiply by the diagonal block during the halo exchange
     (default true)
.  -mat_gpu_aware_mpi <true,false> - parallel type: give MPI the device buffers of the halo exchange (needs a
     CUDA-aware MPI; default false)
-  -ellg_backend <host,cuda> - where the products run (see `PetscELLGGetBackend()`)

   Level: beginner

   Notes:
   An AIJ subclass: PETSc assembles the matrix as `MATAIJ`, and at its first use on the GPU after an assembly
   it is also stored in the format, in which `MatMult()`, `MatMultAdd()`, `MatMultTranspose()`, `MatMultTransposeAdd()` and
   `MatGetDiagonal()` run on the GPU; the other operations work on the host copy. The sparse products
   (`MatProduct`) and `MatSOR()` of the seq type run on the GPU too, and its factors are those of
   `MATSOLVERELLG`. On more than one process the diagonal and off-diagonal blocks (`MATMPIAIJ`'s split) are
   both stored in the format, and the ghost values are exchanged while the diagonal block multiplies. Use it
   with `VECGPU` vectors (`-vec_type gpu`), or PETSc's CUDA vectors with a PETSc built with CUDA;
   `MatCreateVecs()` gives such vectors. `-mat_view ::ascii_info` shows the format and the backend.

   The type to choose by default: on meshes, stencils, finite elements, road networks, circuits and small
   matrices it was the fastest of the three, or close to it; `MATPJDS` for graphs whose row lengths spread
   over orders of magnitude.

.seealso: `MATPJDS`, `MATELLG`, `MATSEQAIJSLICEDELL`, `MATMPIAIJSLICEDELL`, `MatELLGGetBackend()`,
          `MATSOLVERELLG`, `VECGPU`, `MATAIJ`
M*/
MAT_ELLG_FORMAT_CONSTRUCTORS(2)

/*MC
   MATCSRG - MATCSRG = "csrg" - A sparse matrix type assembled like `MATAIJ` whose products run on the GPU in CSR
   (compressed rows, no padding), each row multiplied by a group of T threads (CSR-vector): `MATSEQAIJCSRG` on one
   MPI process, `MATMPIAIJCSRG` on more.

   Options Database Keys:
+  -mat_type csrg - sets the matrix type to `MATCSRG` during a call to `MatSetFromOptions()`
.  -mat_csrg_threads_per_row <T> - threads per row: 1, 2, 4, 8, 16 or 32 (0, the default: automatic, the least
     power of two that gives each thread at most 2 entries of a row of the mean length)
.  -mat_csrg_block_size <b> - threads per CUDA block: a multiple of 32 up to 1024 (0, the default: automatic)
.  -mat_csrg_compact_indices <true,false> - store the column indices as 16-bit offsets from the row when every
     column is within 16 bits of its row (default true)
.  -mat_csrg_long_row_threshold <n> - rows of more than n entries are multiplied apart (0, the default:
     automatic; -1: never)
.  -mat_csrg_update_buffers <none,values,all> - what a values-only update keeps in device memory for the next
     one (default values)
.  -mat_csrg_spmm_columns <L_c> - `MatMatMult()` with a dense matrix: columns of C per pass over a row, 1 to 32
     (0, the default: automatic)
.  -mat_csrg_spmm_chunk_columns <w> - columns of B and C that move between host and device at a time (0, the
     default: automatic)
.  -mat_csrg_spmm_streams <S> - CUDA streams the chunks go round, 1 to 16 (0, the default: 3)
.  -mat_gpu_sor <multicolor,host> - `MatSOR()` of the seq type: multicolor SOR on the GPU (default) or SeqAIJ's
     SOR on the host copy
.  -mat_gpu_halo_overlap <true,false> - parallel type: multiply by the diagonal block during the halo exchange
     (default true)
.  -mat_gpu_aware_mpi <true,false> - parallel type: give MPI the device buffers of the halo exchange (needs a
     CUDA-aware MPI; default false)
-  -ellg_backend <host,cuda> - where the products run (see `PetscELLGGetBackend()`)

   Level: intermediate

   Notes:
   An AIJ subclass like `MATSLICEDELL`, with the same operations on the GPU. It stores the CSR of the matrix
   (rows far longer than the others are multiplied apart, as in the other formats), and so never more bytes than
   CSR; it reads no padding. Measured on an H200 (docs/benchmarks.md), it was a few percent faster than
   `MATSLICEDELL` on some small meshes and graphs, as fast on most matrices, not faster on scattered random
   columns, and slower than `MATPJDS` on power-law graphs. `MATAIJGPU` takes it where every padded format would
   store over 1.5 times the bytes of CSR.

.seealso: `MATSLICEDELL`, `MATPJDS`, `MATELLG`, `MATAIJGPU`, `MATSEQAIJCSRG`, `MATMPIAIJCSRG`,
          `MatELLGGetBackend()`, `MATSOLVERELLG`, `VECGPU`, `MATAIJ`
M*/
MAT_ELLG_FORMAT_CONSTRUCTORS(3)

/*MC
   MATAIJGPU - MATAIJGPU = "aijgpu" - A sparse matrix type assembled like `MATAIJ` whose products run on the GPU in
   the storage format it chooses for the matrix (`MATELLG`, `MATPJDS`, `MATSLICEDELL` or `MATCSRG`):
   `MATSEQAIJGPU` on one MPI process, `MATMPIAIJGPU` on more, where each block chooses its own.

   Options Database Keys:
+  -mat_type aijgpu - sets the matrix type to `MATAIJGPU` during a call to `MatSetFromOptions()`
.  -mat_aijgpu_format <auto,ellg,pjds,slicedell,csrg,time> - how the format is chosen: from the row lengths (auto,
     the default), as named, or by timing a few products in each format (time); `MatAIJGPUSetFormat()` in C
.  -mat_<format>_... - the options of the format chosen (`MATELLG`, `MATPJDS`, `MATSLICEDELL`, `MATCSRG`), read as
     it is chosen
.  -mat_gpu_halo_overlap <true,false> - parallel type: multiply by the diagonal block during the halo exchange
     (default true)
.  -mat_gpu_aware_mpi <true,false> - parallel type: give MPI the device buffers of the halo exchange (needs a
     CUDA-aware MPI; default false)
-  -ellg_backend <host,cuda> - where the products run (see `PetscELLGGetBackend()`)

   Level: beginner

   Notes:
   The format is chosen at each build, that is at the first use on the GPU after the first final assembly and
   after each one that changes the nonzero pattern; a re-assembly with new values in the same pattern keeps it. The rule of auto, the first
   that applies: `MATCSRG` for a small matrix (under 2^17 entries, no row over 256); `MATELLG` when every row has
   the same length; `MATCSRG` (its CSR-stream kernel) when the columns are scattered over a large x (most entries
   more than 2^15 columns from their row, counted in evenly spaced rows, and 2^21 columns or more); `MATPJDS` when
   the lengths of the rows that are not long spread widely (their standard deviation above 1.2 times their mean:
   power-law graphs), or when a matrix of fewer than 2^20 entries has long rows; `MATCSRG` for a matrix under 2^19
   entries of rows of 4 or more on average (none over 256); `MATSLICEDELL` otherwise. A format that stores a
   matrix of 1 MB or more of CSR in over 1.5 times the bytes of CSR is passed over for another that stores it in
   less, and `MATCSRG` (CSR) is taken when each of ellg, pjds and slicedell does. With time, the fastest of the
   four within 1.5 times CSR is kept (the product timed 10 times after one untimed, building each format in turn).
   `-mat_view ::ascii_info` and `-info` say what was chosen, and why.

   Otherwise the type is the format's: an AIJ subclass with the products, `MatSOR()`, factors and sparse
   products of the others on the GPU.

.seealso: `MATELLG`, `MATPJDS`, `MATSLICEDELL`, `MATCSRG`, `MATSEQAIJGPU`, `MATMPIAIJGPU`, `MatELLGGetBackend()`,
          `MATSOLVERELLG`, `VECGPU`, `MATAIJ`
M*/
MAT_ELLG_FORMAT_CONSTRUCTORS(4)

static PetscErrorCode (*const MatELLGCreateSeq[MAT_ELLG_NTYPES])(Mat) = {MatCreate_SeqAIJFormat_0, MatCreate_SeqAIJFormat_1, MatCreate_SeqAIJFormat_2, MatCreate_SeqAIJFormat_3, MatCreate_SeqAIJFormat_4};
static PetscErrorCode (*const MatELLGCreateMPI[MAT_ELLG_NTYPES])(Mat) = {MatCreate_MPIAIJFormat_0, MatCreate_MPIAIJFormat_1, MatCreate_MPIAIJFormat_2, MatCreate_MPIAIJFormat_3, MatCreate_MPIAIJFormat_4};

/* registers the seq, mpi and root type names of every format, and the factors of the seq types */
PetscErrorCode MatELLGRegisterTypes(void)
{
  PetscFunctionBegin;
  for (size_t i = 0; i < MAT_ELLG_NTYPES; i++) {
    const MatELLGFormatEntry *f = &MatELLGFormats[i];

    PetscCall(MatRegister(f->seqtype, MatELLGCreateSeq[i]));
    PetscCall(MatRegister(f->mpitype, MatELLGCreateMPI[i]));
    PetscCall(MatRegisterRootName(f->root, f->seqtype, f->mpitype));
    for (MatFactorType t = MAT_FACTOR_LU; t <= MAT_FACTOR_ICC; t++) PetscCall(MatSolverTypeRegister(MATSOLVERELLG, f->seqtype, t, MatGetFactor_SeqAIJFormat_ELLG));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
   MatCreateSeqAIJELLG - creates a sequential sparse matrix that is assembled like `MATSEQAIJ` and
   multiplied in ELLG format on the GPU

   Collective

   Input Parameters:
+  comm - MPI communicator of size 1
.  m - number of rows
.  n - number of columns
.  nz - number of nonzeros per row (same for all rows)
-  nnz - array containing the number of nonzeros in the various rows (or NULL)

   Output Parameter:
.  A - the matrix

   Level: beginner

.seealso: `MATELLG`, `MatCreateSeqAIJ()`, `MatSetValues()`
@*/
PetscErrorCode MatCreateSeqAIJELLG(MPI_Comm comm, PetscInt m, PetscInt n, PetscInt nz, const PetscInt nnz[], Mat *A)
{
  PetscFunctionBegin;
  PetscCall(PetscELLGInitializePackage());
  PetscCall(MatCreate(comm, A));
  PetscCall(MatSetSizes(*A, m, n, m, n));
  PetscCall(MatSetType(*A, MATSEQAIJELLG));
  PetscCall(MatSeqAIJSetPreallocation(*A, nz, nnz));
  PetscFunctionReturn(PETSC_SUCCESS);
}
