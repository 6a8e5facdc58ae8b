/* The matrix types of the package, each a storage format under an AIJ subclass */
#include "aijellg.h"

/* the seq and mpi constructors of a format type */
#define MAT_ELLG_FORMAT_CONSTRUCTORS(Name, seqtype, mpitype) \
  static PetscErrorCode MatCreate_SeqAIJ##Name(Mat A) \
  { \
    PetscFunctionBegin; \
    PetscCall(MatCreate_SeqAIJFormat(A, seqtype)); \
    PetscFunctionReturn(PETSC_SUCCESS); \
  } \
  static PetscErrorCode MatCreate_MPIAIJ##Name(Mat A) \
  { \
    PetscFunctionBegin; \
    PetscCall(MatCreate_MPIAIJFormat(A, mpitype)); \
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
.  -mat_ellg_sor <multicolor,host> - `MatSOR()` of the seq type: multicolor SOR on the GPU (default) or
     SeqAIJ's SOR on the host copy
.  -ellg_halo_overlap <true,false> - parallel type: multiply by the diagonal block during the halo exchange
     (default true)
.  -ellg_gpu_aware_mpi <true,false> - parallel type: give MPI the device buffers of the halo exchange (needs a
     CUDA-aware MPI; default false)
-  -ellg_backend <host,cuda> - where the products run (see `PetscELLGGetBackend()`)

   Level: beginner

   Notes:
   An AIJ subclass: PETSc assembles the matrix as `MATAIJ`, and at final assembly it is also stored in the
   format, in which `MatMult()`, `MatMultAdd()`, `MatMultTranspose()`, `MatMultTransposeAdd()` and
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
MAT_ELLG_FORMAT_CONSTRUCTORS(ELLG, MATSEQAIJELLG, MATMPIAIJELLG)

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
.  -mat_ellg_sor <multicolor,host> - `MatSOR()` of the seq type: multicolor SOR on the GPU (default) or
     SeqAIJ's SOR on the host copy
.  -ellg_halo_overlap <true,false> - parallel type: multiply by the diagonal block during the halo exchange
     (default true)
.  -ellg_gpu_aware_mpi <true,false> - parallel type: give MPI the device buffers of the halo exchange (needs a
     CUDA-aware MPI; default false)
-  -ellg_backend <host,cuda> - where the products run (see `PetscELLGGetBackend()`)

   Level: beginner

   Notes:
   An AIJ subclass: PETSc assembles the matrix as `MATAIJ`, and at final assembly it is also stored in the
   format, in which `MatMult()`, `MatMultAdd()`, `MatMultTranspose()`, `MatMultTransposeAdd()` and
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
MAT_ELLG_FORMAT_CONSTRUCTORS(PJDS, MATSEQAIJPJDS, MATMPIAIJPJDS)

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
.  -mat_slicedell_long_row_threshold <n> - rows of more than n entries are multiplied apart (0, the default:
     automatic; -1: never)
.  -mat_slicedell_update_buffers <none,values,all> - what a values-only update keeps in device memory for the
     next one (default values)
.  -mat_slicedell_spmm_columns <L_c> - `MatMatMult()` with a dense matrix: columns of C per pass over a row, 1
     to 32 (0, the default: automatic)
.  -mat_slicedell_spmm_chunk_columns <w> - columns of B and C that move between host and device at a time (0,
     the default: automatic)
.  -mat_slicedell_spmm_streams <S> - CUDA streams the chunks go round, 1 to 16 (0, the default: 3)
.  -mat_ellg_sor <multicolor,host> - `MatSOR()` of the seq type: multicolor SOR on the GPU (default) or
     SeqAIJ's SOR on the host copy
.  -ellg_halo_overlap <true,false> - parallel type: multiply by the diagonal block during the halo exchange
     (default true)
.  -ellg_gpu_aware_mpi <true,false> - parallel type: give MPI the device buffers of the halo exchange (needs a
     CUDA-aware MPI; default false)
-  -ellg_backend <host,cuda> - where the products run (see `PetscELLGGetBackend()`)

   Level: beginner

   Notes:
   An AIJ subclass: PETSc assembles the matrix as `MATAIJ`, and at final assembly it is also stored in the
   format, in which `MatMult()`, `MatMultAdd()`, `MatMultTranspose()`, `MatMultTransposeAdd()` and
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
MAT_ELLG_FORMAT_CONSTRUCTORS(SlicedELL, MATSEQAIJSLICEDELL, MATMPIAIJSLICEDELL)

/*MC
   MATAIJGPU - MATAIJGPU = "aijgpu" - A sparse matrix type assembled like `MATAIJ` whose products run on the GPU in
   the storage format it chooses for the matrix at final assembly (`MATELLG`, `MATPJDS` or `MATSLICEDELL`):
   `MATSEQAIJGPU` on one MPI process, `MATMPIAIJGPU` on more, where each block chooses its own.

   Options Database Keys:
+  -mat_type aijgpu - sets the matrix type to `MATAIJGPU` during a call to `MatSetFromOptions()`
.  -mat_aijgpu_format <auto,ellg,pjds,slicedell,time> - how the format is chosen: from the row lengths (auto, the
     default), as named, or by timing a few products in each format (time)
.  -mat_<format>_... - the options of the format chosen (`MATELLG`, `MATPJDS`, `MATSLICEDELL`), read as it is chosen
.  -ellg_halo_overlap <true,false> - parallel type: multiply by the diagonal block during the halo exchange
     (default true)
.  -ellg_gpu_aware_mpi <true,false> - parallel type: give MPI the device buffers of the halo exchange (needs a
     CUDA-aware MPI; default false)
-  -ellg_backend <host,cuda> - where the products run (see `PetscELLGGetBackend()`)

   Level: beginner

   Notes:
   The format is chosen at each build, that is at the first final assembly and whenever the nonzero pattern
   changes; a re-assembly with new values in the same pattern keeps it. The rule of auto: `MATELLG` when every
   row has the same length, `MATPJDS` when the row lengths spread widely (their standard deviation above their
   mean: power-law graphs), `MATSLICEDELL` otherwise; a format that stores a matrix of 1 MB or more of CSR in
   over 1.5 times the bytes of CSR is passed over for the next (slicedell, pjds, ellg), and if every one does,
   the smallest is kept. With time, the fastest of those within 1.5 times CSR is kept (the product timed 10
   times after one untimed, building each format in turn at assembly). `-mat_view ::ascii_info` and `-info` say
   what was chosen, and why.

   Otherwise the type is the format's: an AIJ subclass with the products, `MatSOR()`, factors and sparse
   products of the others on the GPU.

.seealso: `MATELLG`, `MATPJDS`, `MATSLICEDELL`, `MATSEQAIJGPU`, `MATMPIAIJGPU`, `MatELLGGetBackend()`,
          `MATSOLVERELLG`, `VECGPU`, `MATAIJ`
M*/
MAT_ELLG_FORMAT_CONSTRUCTORS(GPU, MATSEQAIJGPU, MATMPIAIJGPU)

static const MatELLGFormatEntry MatELLGFormats[] = {
  {MATELLG, MATSEQAIJELLG, MATMPIAIJELLG, &ELLGFormatOps_ELLG, PETSC_FALSE, MatCreate_SeqAIJELLG, MatCreate_MPIAIJELLG},
  {MATPJDS, MATSEQAIJPJDS, MATMPIAIJPJDS, &ELLGFormatOps_PJDS, PETSC_FALSE, MatCreate_SeqAIJPJDS, MatCreate_MPIAIJPJDS},
  {MATSLICEDELL, MATSEQAIJSLICEDELL, MATMPIAIJSLICEDELL, &ELLGFormatOps_SlicedELL, PETSC_FALSE, MatCreate_SeqAIJSlicedELL, MatCreate_MPIAIJSlicedELL},
  {MATAIJGPU, MATSEQAIJGPU, MATMPIAIJGPU, &ELLGFormatOps_SlicedELL, PETSC_TRUE, MatCreate_SeqAIJGPU, MatCreate_MPIAIJGPU},
};

/* registers the seq, mpi and root type names of every format, and the factors of the seq types */
PetscErrorCode MatELLGRegisterTypes(void)
{
  PetscFunctionBegin;
  for (size_t i = 0; i < PETSC_STATIC_ARRAY_LENGTH(MatELLGFormats); i++) {
    const MatELLGFormatEntry *f = &MatELLGFormats[i];

    PetscCall(MatRegister(f->seqtype, f->createseq));
    PetscCall(MatRegister(f->mpitype, f->creatempi));
    PetscCall(MatRegisterRootName(f->root, f->seqtype, f->mpitype));
    for (MatFactorType t = MAT_FACTOR_LU; t <= MAT_FACTOR_ICC; t++) PetscCall(MatSolverTypeRegister(MATSOLVERELLG, f->seqtype, t, MatGetFactor_SeqAIJFormat_ELLG));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatELLGFormatFind(MatType type, const MatELLGFormatEntry **entry)
{
  PetscBool match;

  PetscFunctionBegin;
  for (size_t i = 0; i < PETSC_STATIC_ARRAY_LENGTH(MatELLGFormats); i++) {
    PetscCall(PetscStrcmp(type, MatELLGFormats[i].seqtype, &match));
    if (!match) PetscCall(PetscStrcmp(type, MatELLGFormats[i].mpitype, &match));
    if (!match) PetscCall(PetscStrcmp(type, MatELLGFormats[i].root, &match));
    if (match) {
      *entry = &MatELLGFormats[i];
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  }
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_UNKNOWN_TYPE, "Not a PETSc-ELLG matrix type: %s", type);
}

/* whether name is the seq, mpi or root type name of one of our formats */
static PetscErrorCode MatELLGIsFormatTypeName(const char name[], size_t len, PetscBool *ours)
{
  PetscFunctionBegin;
  *ours = PETSC_FALSE;
  for (size_t i = 0; i < PETSC_STATIC_ARRAY_LENGTH(MatELLGFormats) && !*ours; i++) {
    const char *names[3] = {MatELLGFormats[i].seqtype, MatELLGFormats[i].mpitype, MatELLGFormats[i].root};

    for (int k = 0; k < 3 && !*ours; k++) {
      size_t l;

      PetscCall(PetscStrlen(names[k], &l));
      if (l == len) PetscCall(PetscStrncmp(name, names[k], len, ours));
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   MatConvert() finds a conversion from a matrix by the names of both types, MatConvert_<from>_<to>_C,
   composed on the matrix (or on one of the target type); SeqAIJ and MPIAIJ compose theirs (to dense,
   BAIJ, IS, HYPRE, the other AIJ subclasses, ...) on every matrix they create. Without a conversion
   of that name MatConvert() copies the matrix entry by entry (MatConvert_Basic()), which some target
   types do not support (MATIS). Our types convert as their AIJ base does: compose (compose = TRUE)
   or remove (FALSE) each conversion from base under the name of type too, but those to AIJ and its
   subclasses: ours are our own, and the others turn a duplicate of the matrix (of our type) into
   theirs in place, which only a matrix that is SeqAIJ or MPIAIJ itself can be.
*/
PetscErrorCode MatELLGComposeBaseConverts(Mat A, const char base[], const char type[], PetscBool compose)
{
  const char **names;
  char         prefix[64], name[256];
  size_t       len, tolen;
  int          n;

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(prefix, sizeof(prefix), "MatConvert_%s_", compose ? base : type));
  PetscCall(PetscStrlen(prefix, &len));
  PetscCall(PetscFunctionListGet(((PetscObject)A)->qlist, &names, &n));
  for (int i = 0; i < n && names[i]; i++) { /* PETSc 3.18 ends the array with a NULL, which n counts; later versions do not */
    const char *to = names[i] + len; /* <to>_C */
    PetscBool   match, ours, isaij;
    PetscErrorCode (*f)(Mat, MatType, MatReuse, Mat *);

    PetscCall(PetscStrncmp(names[i], prefix, len, &match));
    if (!match) continue;
    PetscCall(PetscStrlen(to, &tolen));
    if (tolen < 3) continue;
    PetscCall(MatELLGIsFormatTypeName(to, tolen - 2, &ours));
    PetscCall(PetscStrncmp(to, "seqaij", 6, &isaij));
    if (!isaij) PetscCall(PetscStrncmp(to, "mpiaij", 6, &isaij));
    if (!isaij) PetscCall(PetscStrncmp(to, "aij", 3, &isaij));
    if (ours || isaij) continue;
    if (compose) {
      PetscCall(PetscSNPrintf(name, sizeof(name), "MatConvert_%s_%s", type, to));
      PetscCall(PetscObjectQueryFunction((PetscObject)A, names[i], &f));
      if (f) PetscCall(PetscObjectComposeFunction((PetscObject)A, name, f));
    } else PetscCall(PetscObjectComposeFunction((PetscObject)A, names[i], NULL));
  }
  PetscCall(PetscFree(names));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* removes from the factor F the functions of ours that it got from the matrix: conversions from or to one
   of our types (MatConvert_<from>_<to>_C, the names of types holding no "_"), our queries (MatELLG*_C) and
   the product handler MatProductSetFromOptions_anytype_C */
PetscErrorCode MatELLGFactorRemoveFunctions(Mat F)
{
  const char **names;
  int          n;

  PetscFunctionBegin;
  PetscCall(PetscFunctionListGet(((PetscObject)F)->qlist, &names, &n));
  /* n names (hash-map lists of later PETSc), or n - 1 names and a NULL (3.18) */
  for (int i = 0; i < n && names[i]; i++) {
    PetscBool ours, backend, conv;

    PetscCall(PetscStrbeginswith(names[i], "MatELLG", &backend));
    PetscCall(PetscStrcmp(names[i], "MatProductSetFromOptions_anytype_C", &ours));
    PetscCall(PetscStrbeginswith(names[i], "MatConvert_", &conv));
    ours = (PetscBool)(ours || backend);
    if (!ours && conv) {
      const char *from = names[i] + 11; /* <from>_<to>_C */
      char       *sep;
      size_t      len;

      PetscCall(PetscStrchr(from, '_', &sep));
      PetscCall(PetscStrlen(from, &len));
      if (sep && from + len - 2 > sep + 1) {
        PetscCall(MatELLGIsFormatTypeName(from, (size_t)(sep - from), &ours));
        if (!ours) PetscCall(MatELLGIsFormatTypeName(sep + 1, (size_t)(from + len - 2 - (sep + 1)), &ours));
      }
    }
    if (ours) PetscCall(PetscObjectComposeFunction((PetscObject)F, names[i], NULL));
  }
  PetscCall(PetscFree(names));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MatConvert() from an AIJ base to one of our types, done in place on *target: A itself
   (MAT_INPLACE_MATRIX) or a copy of it (MAT_INITIAL_MATRIX, in *B); NULL for MAT_REUSE_MATRIX, where
   *B, already of the type, only takes A's values */
PetscErrorCode MatELLGConvertTarget(Mat A, MatReuse reuse, Mat *B, Mat *target)
{
  PetscFunctionBegin;
  *target = NULL;
  if (reuse == MAT_REUSE_MATRIX) PetscCall(MatCopy(A, *B, SAME_NONZERO_PATTERN));
  else {
    if (reuse == MAT_INITIAL_MATRIX) PetscCall(MatDuplicate(A, MAT_COPY_VALUES, B));
    else *B = A;
    *target = *B;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the name PETSc's product implementations know a matrix by: SeqAIJ's or MPIAIJ's for ours */
static PetscErrorCode MatELLGProductTypeName(Mat A, const char **name)
{
  PetscBool match;

  PetscFunctionBegin;
  *name = ((PetscObject)A)->type_name;
  for (size_t i = 0; i < PETSC_STATIC_ARRAY_LENGTH(MatELLGFormats); i++) {
    PetscCall(PetscStrcmp(*name, MatELLGFormats[i].seqtype, &match));
    if (match) *name = MATSEQAIJ;
    PetscCall(PetscStrcmp(*name, MatELLGFormats[i].mpitype, &match));
    if (match) *name = MATMPIAIJ;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* whether A is of one of our seq types, or of one of our mpi types */
PetscErrorCode MatELLGGetKind(Mat A, PetscBool *seq, PetscBool *mpi)
{
  PetscBool match;

  PetscFunctionBegin;
  *seq = *mpi = PETSC_FALSE;
  for (size_t i = 0; i < PETSC_STATIC_ARRAY_LENGTH(MatELLGFormats); i++) {
    PetscCall(PetscObjectTypeCompare((PetscObject)A, MatELLGFormats[i].seqtype, &match));
    *seq = (PetscBool)(*seq || match);
    PetscCall(PetscObjectTypeCompare((PetscObject)A, MatELLGFormats[i].mpitype, &match));
    *mpi = (PetscBool)(*mpi || match);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The products with a dense matrix that run in our formats: C = A B, A of one of our types, B
   MATSEQDENSE (seq types) or MATMPIDENSE (mpi types), or their subclasses MATSEQDENSEGPU and
   MATMPIDENSEGPU. Sets nothing for the others. */
static PetscErrorCode MatProductSetFromOptions_ELLGDense(Mat D)
{
  Mat_Product *product = D->product;
  PetscBool    seq, mpi, dense = PETSC_FALSE;

  PetscFunctionBegin;
  if (product->type != MATPRODUCT_AB) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatELLGGetKind(product->A, &seq, &mpi));
  if (seq || mpi) PetscCall(PetscObjectBaseTypeCompare((PetscObject)product->B, seq ? MATSEQDENSE : MATMPIDENSE, &dense));
  if (!dense) PetscFunctionReturn(PETSC_SUCCESS);
  if (seq) PetscCall(MatProductSetFromOptions_SeqAIJELLG_SeqDense(D));
  else PetscCall(MatProductSetFromOptions_MPIAIJELLG_MPIDense(D));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* whether every operand of the product is sequential AIJ and the first is not of ours */
static PetscErrorCode MatELLGSeqAIJFirst(Mat D, PetscBool *flg)
{
  Mat_Product *product = D->product;
  Mat          mats[3] = {product->A, product->B, product->type == MATPRODUCT_ABC ? product->C : NULL};
  PetscBool    seq, mpi, aij = PETSC_TRUE;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < 3 && mats[i] && aij; i++) PetscCall(PetscObjectBaseTypeCompare((PetscObject)mats[i], MATSEQAIJ, &aij));
  PetscCall(MatELLGGetKind(mats[0], &seq, &mpi));
  *flg = (PetscBool)(aij && !seq);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   MatProductSetFromOptions_anytype_C of our matrices. C = A B with a dense B runs in our formats
   (MatProductSetFromOptions_ELLGDense()); sparse products with A of our seq types and sequential AIJ
   operands in the backend (MatProductSetFromOptions_SeqAIJELLG_Sparse()); with a SeqAIJ-based A, A's
   handler takes them, as SeqAIJ's did when ours shared it. For the other products: PETSc finds the implementation of
   a product of matrices of different types by their type names: MatProductSetFromOptions_<A>_<B>[_<C>]_C,
   composed on one of them (e.g. MatProductSetFromOptions_seqaij_seqmaij_C on a MAIJ matrix, for the
   PtAP of PCHMG and GAMG). Our types are AIJ subclasses: look for the one of SeqAIJ or MPIAIJ in
   their place. When there is none, the anytype handlers of the other matrices get their turn, as
   they would have without ours.
*/
PetscErrorCode MatProductSetFromOptions_ELLGAnytype(Mat D)
{
  Mat_Product *product = D->product;
  Mat          mats[3] = {product->A, product->B, product->type == MATPRODUCT_ABC ? product->C : NULL};
  char         name[256];
  const char  *tname;
  PetscBool    taken, seqaij = PETSC_FALSE;
  PetscErrorCode (*f)(Mat) = NULL;

  PetscFunctionBegin;
  PetscCall(MatProductSetFromOptions_ELLGDense(D));
  if (D->ops->productsymbolic) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatProductSetFromOptions_SeqAIJELLG_Sparse(D, &taken));
  if (taken) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatELLGSeqAIJFirst(D, &seqaij));
  if (seqaij) { /* SeqAIJ-based A, ours among the others: A's own handler, as before ours had one */
    PetscCall((*mats[0]->ops->productsetfromoptions)(D));
    if (D->ops->productsymbolic) PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscStrncpy(name, "MatProductSetFromOptions", sizeof(name)));
  for (PetscInt i = 0; i < 3 && mats[i]; i++) {
    PetscCall(MatELLGProductTypeName(mats[i], &tname));
    PetscCall(PetscStrlcat(name, "_", sizeof(name)));
    PetscCall(PetscStrlcat(name, tname, sizeof(name)));
  }
  PetscCall(PetscStrlcat(name, "_C", sizeof(name)));
  for (PetscInt i = 0; i < 3 && mats[i] && !f; i++) PetscCall(PetscObjectQueryFunction((PetscObject)mats[i], name, &f));
  PetscCall(PetscInfo(D, "querying %s: %s\n", name, f ? "found" : "not found"));
  if (f) PetscCall((*f)(D));
  for (PetscInt i = 0; i < 3 && mats[i] && !D->ops->productsymbolic; i++) {
    PetscCall(PetscObjectQueryFunction((PetscObject)mats[i], "MatProductSetFromOptions_anytype_C", &f));
    if (f && f != MatProductSetFromOptions_ELLGAnytype) PetscCall((*f)(D));
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

/*@
   MatELLGGetBackend - the backend (host or cuda) a PETSc-ELLG matrix computes its products with

   Not Collective

   Input Parameter:
.  A - a matrix of one of the PETSc-ELLG types

   Output Parameter:
.  backend - the backend

   Level: intermediate

.seealso: `PetscELLGGetBackend()`, `PetscELLGBackend`
@*/
PetscErrorCode MatELLGGetBackend(Mat A, PetscELLGBackend *backend)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscAssertPointer(backend, 2);
  PetscUseMethod(A, "MatELLGGetBackend_C", (Mat, PetscELLGBackend *), (A, backend));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
   MatELLGGetFormat - the storage format of an assembled PETSc-ELLG matrix and the memory it takes in its backend

   Not Collective

   Input Parameter:
.  A - an assembled matrix

   Output Parameters:
+  format - the name of the format ("ellg", "pjds" or "slicedell": for `MATAIJGPU` the one it chose; on more than
            one process, that of the diagonal block; `NULL` for a matrix of another type), or `NULL` if not wanted
.  bytes - the bytes the stored matrix takes in the backend's memory (for a parallel matrix, both blocks of this
           process), as `-mat_view ::ascii_info` reports them, or `NULL`
-  updatebytes - the bytes kept for values-only updates (`-mat_<type>_update_buffers`), or `NULL`

   Level: intermediate

   Note:
   The bytes are 0 for a matrix of another type.

.seealso: `MatELLGGetBackend()`, `MATAIJGPU`, `PetscELLGGetDeviceMemory()`
@*/
PetscErrorCode MatELLGGetFormat(Mat A, const char *format[], PetscLogDouble *bytes, PetscLogDouble *updatebytes)
{
  const char    *f = NULL;
  PetscLogDouble b = 0, u = 0;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscCheck(A->assembled, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "The format of a PETSc-ELLG matrix is known after its final assembly");
  PetscTryMethod(A, "MatELLGGetFormat_C", (Mat, const char **, PetscLogDouble *, PetscLogDouble *), (A, &f, &b, &u));
  if (format) *format = f;
  if (bytes) *bytes = b;
  if (updatebytes) *updatebytes = u;
  PetscFunctionReturn(PETSC_SUCCESS);
}
