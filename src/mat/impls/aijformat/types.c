/* The names of our matrix types, their formats, and what PETSc finds by those names: conversions, the functions a
   factor drops, the names PETSc's products know them by */
#include "aijformat.h"
#include <ellgchoose.h>

/* a format of ELLGFormatTable[] without a type here is one a user cannot name: the build stops here until it has one */
_Static_assert(MAT_ELLG_NTYPES - 1 == ELLG_NFORMATS, "every format needs a type in MatELLGFormats[] (aijgpu beside them)");

const MatELLGFormatEntry MatELLGFormats[MAT_ELLG_NTYPES] = {
  {MATELLG, MATSEQAIJELLG, MATMPIAIJELLG, &ELLGFormatOps_ELLG, PETSC_FALSE},
  {MATPJDS, MATSEQAIJPJDS, MATMPIAIJPJDS, &ELLGFormatOps_PJDS, PETSC_FALSE},
  {MATSLICEDELL, MATSEQAIJSLICEDELL, MATMPIAIJSLICEDELL, &ELLGFormatOps_SlicedELL, PETSC_FALSE},
  {MATCSRG, MATSEQAIJCSRG, MATMPIAIJCSRG, &ELLGFormatOps_CSRG, PETSC_FALSE},
  {MATAIJGPU, MATSEQAIJGPU, MATMPIAIJGPU, &ELLGFormatOps_SlicedELL, PETSC_TRUE},
};

PetscErrorCode MatELLGFormatFind(MatType type, const MatELLGFormatEntry **entry)
{
  PetscBool match;

  PetscFunctionBegin;
  for (size_t i = 0; i < MAT_ELLG_NTYPES; i++) {
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
  for (size_t i = 0; i < MAT_ELLG_NTYPES && !*ours; i++) {
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
   of our types (MatConvert_<from>_<to>_C, the names of types holding no "_"), our queries (MatELLG*_C), aijgpu's
   choice (MatAIJGPU*_C), the value precision (MatGPU*_C) and the product handler MatProductSetFromOptions_anytype_C */
PetscErrorCode MatELLGFactorRemoveFunctions(Mat F)
{
  const char **names;
  int          n;

  PetscFunctionBegin;
  PetscCall(PetscFunctionListGet(((PetscObject)F)->qlist, &names, &n));
  /* n names (hash-map lists of later PETSc), or n - 1 names and a NULL (3.18) */
  for (int i = 0; i < n && names[i]; i++) {
    PetscBool ours, query, choice, precision, conv;

    PetscCall(PetscStrbeginswith(names[i], "MatELLG", &query));
    PetscCall(PetscStrbeginswith(names[i], "MatAIJGPU", &choice));
    PetscCall(PetscStrbeginswith(names[i], "MatGPU", &precision));
    PetscCall(PetscStrcmp(names[i], "MatProductSetFromOptions_anytype_C", &ours));
    PetscCall(PetscStrbeginswith(names[i], "MatConvert_", &conv));
    ours = (PetscBool)(ours || query || choice || precision);
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
PetscErrorCode MatELLGProductTypeName(Mat A, const char **name)
{
  PetscBool match;

  PetscFunctionBegin;
  *name = ((PetscObject)A)->type_name;
  for (size_t i = 0; i < MAT_ELLG_NTYPES; i++) {
    PetscCall(PetscStrcmp(*name, MatELLGFormats[i].seqtype, &match));
    if (match) *name = MATSEQAIJ;
    PetscCall(PetscStrcmp(*name, MatELLGFormats[i].mpitype, &match));
    if (match) *name = MATMPIAIJ;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* whether A is of one of our seq types, or of one of our mpi types */
/* the title of the -help block of A's options: one per type and options prefix */
PetscErrorCode MatELLGOptionsTitle(Mat A, char title[], size_t len)
{
  const MatELLGFormatEntry *entry;

  PetscFunctionBegin;
  PetscCall(MatELLGFormatFind(((PetscObject)A)->type_name, &entry));
  PetscCall(PetscSNPrintf(title, len, "PETSc-ELLG %s matrix options", entry->root));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatELLGGetKind(Mat A, PetscBool *seq, PetscBool *mpi)
{
  PetscBool match;

  PetscFunctionBegin;
  *seq = *mpi = PETSC_FALSE;
  for (size_t i = 0; i < MAT_ELLG_NTYPES; i++) {
    PetscCall(PetscObjectTypeCompare((PetscObject)A, MatELLGFormats[i].seqtype, &match));
    *seq = (PetscBool)(*seq || match);
    PetscCall(PetscObjectTypeCompare((PetscObject)A, MatELLGFormats[i].mpitype, &match));
    *mpi = (PetscBool)(*mpi || match);
  }
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
+  format - the name of the format ("ellg", "pjds", "slicedell" or "csrg": for `MATAIJGPU` the one it chose; on more than
            one process, that of the diagonal block; `NULL` for a matrix of another type), or `NULL` if not wanted
.  bytes - the bytes the stored matrix takes in the backend's memory (for a parallel matrix, both blocks of this
           process), as `-mat_view ::ascii_info` reports them, or `NULL`
-  updatebytes - the bytes kept for values-only updates (`-mat_<type>_update_buffers`), or `NULL`

   Level: intermediate

   Notes:
   The bytes are 0 for a matrix of another type.

   The format is stored at the first device operation after an assembly (a product, a factorization, a view);
   this function brings it up to date first, building it if the matrix has not been used on the device since.

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

/*@
   MatAIJGPUSetFormat - how a `MATAIJGPU` matrix chooses its storage format, as `-mat_aijgpu_format` says it

   Logically Collective

   Input Parameters:
+  A - the matrix (nothing is done for a matrix of another type)
-  format - `MAT_AIJGPU_AUTO` (from the row lengths, the default), `MAT_AIJGPU_ELLG`, `MAT_AIJGPU_PJDS`,
            `MAT_AIJGPU_SLICEDELL`, `MAT_AIJGPU_CSRG` (that format), or `MAT_AIJGPU_TIME` (the fastest of a few products
            of each)

   Options Database Key:
.  -mat_aijgpu_format <auto,ellg,pjds,slicedell,csrg,time> - the same, in `MatSetFromOptions()`

   Level: intermediate

   Note:
   A matrix whose choice changes chooses again at its next use on the device; on several processes each block
   chooses its own.

.seealso: `MATAIJGPU`, `MatELLGGetFormat()`, `MatAIJGPUFormat`
@*/
PetscErrorCode MatAIJGPUSetFormat(Mat A, MatAIJGPUFormat format)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscValidLogicalCollectiveEnum(A, format, 2);
  PetscTryMethod(A, "MatAIJGPUSetFormat_C", (Mat, MatAIJGPUFormat), (A, format));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -mat_gpu_value_precision, in the options block of A (MatSetFromOptions() of the seq and mpi types: a matrix's
   precision is its own, not its format's, and a format aijgpu chooses takes the matrix's) */
PetscErrorCode MatELLGValuePrecisionOption(Mat A, ELLG_OPTION_ITEMS PetscOptionsObject)
{
  MatGPUValuePrecision p;
  PetscBool            set;

  PetscFunctionBegin;
  PetscCall(MatGPUGetValuePrecision(A, &p));
  PetscCall(PetscOptionsEnum("-mat_gpu_value_precision", "Precision of the values on the device: double, or single for a matrix that only preconditions (half the bytes of its values; products summed in double; the host copy stays double)", "MatGPUSetValuePrecision", MatGPUValuePrecisions, (PetscEnum)p, (PetscEnum *)&p, &set));
  if (set) PetscCall(MatGPUSetValuePrecision(A, p));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* B, made from A (a product, submatrix or duplicate), takes A's value precision (nothing for double, the default of
   every matrix, or for a B of another type) */
PetscErrorCode MatELLGInheritValuePrecision(Mat A, Mat B)
{
  MatGPUValuePrecision precision;

  PetscFunctionBegin;
  PetscCall(MatGPUGetValuePrecision(A, &precision));
  if (precision != MAT_GPU_VALUES_DOUBLE) PetscCall(MatGPUSetValuePrecision(B, precision));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   MatGPUSetValuePrecision - the precision of the values that the device copy of one of our matrices keeps, as
   `-mat_gpu_value_precision` says it

   Logically Collective

   Input Parameters:
+  A - the matrix, of any of our types (nothing is done for a matrix of another type)
-  precision - `MAT_GPU_VALUES_DOUBLE` (the default) or `MAT_GPU_VALUES_SINGLE`

   Options Database Key:
.  -mat_gpu_value_precision <double,single> - the same, in `MatSetFromOptions()`

   Level: intermediate

   Notes:
   In single precision the device keeps the matrix's values as floats: half the bytes of the values, a third
   less of the whole format, which the products read; the layout and the column indices do not change, the
   products convert each value to double and sum in double on double vectors, and the host copy (`MATAIJ`'s
   arrays, which `MatGetValues()`, `MatView()` and the host operations read) stays double and exact. Each value
   is rounded to single precision, a relative change of at most 2^-24 (about 6e-8), so a product's error grows to
   about that times the sum of the magnitudes in the row. That suits a matrix that only preconditions (the
   `Pmat` of `KSPSetOperators()` apart from its `Amat`, which stays double so that the Krylov method is exact);
   a matrix whose values are beyond single precision's range (about 3.4e38) refuses it with an error when it is
   stored.

   A matrix whose precision changes is stored again at its next use on the device.

.seealso: `MatGPUGetValuePrecision()`, `MatGPUValuePrecision`, `MATAIJGPU`, `KSPSetOperators()`
@*/
PetscErrorCode MatGPUSetValuePrecision(Mat A, MatGPUValuePrecision precision)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscValidLogicalCollectiveEnum(A, precision, 2);
  PetscTryMethod(A, "MatGPUSetValuePrecision_C", (Mat, MatGPUValuePrecision), (A, precision));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   MatGPUGetValuePrecision - the precision of the values that the device copy of one of our matrices keeps

   Not Collective

   Input Parameter:
.  A - the matrix

   Output Parameter:
.  precision - `MAT_GPU_VALUES_DOUBLE` or `MAT_GPU_VALUES_SINGLE` (`MAT_GPU_VALUES_DOUBLE` for a matrix of another
               type)

   Level: intermediate

.seealso: `MatGPUSetValuePrecision()`, `MatGPUValuePrecision`
@*/
PetscErrorCode MatGPUGetValuePrecision(Mat A, MatGPUValuePrecision *precision)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscAssertPointer(precision, 2);
  *precision = MAT_GPU_VALUES_DOUBLE;
  PetscTryMethod(A, "MatGPUGetValuePrecision_C", (Mat, MatGPUValuePrecision *), (A, precision));
  PetscFunctionReturn(PETSC_SUCCESS);
}
