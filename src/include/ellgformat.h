/*
   The interface every GPU storage format implements (one folder per format under
   src/mat/formats). The matrix glue in src/mat/impls/aijformat knows formats only through the
   ELLGFormat* functions below.

   Building and updating: the shared code uploads the host CSR of the AIJ master copy into the
   backend's memory (ELLGCSR) and hands it to the format, which packs its own arrays from it on the
   backend, then the upload is freed. A values-only update (same pattern as the build) loops over no
   rows on the host: the row starts and lengths of the build's pattern are kept from the first update
   to the next build, and the values are copied (or computed: COO assembly) into a buffer the format
   packs from (-mat_<format>_update_buffers: what stays in the backend's memory from one update to the
   next).
   Rows far longer than the typical row are split out first (src/mat/formats/longrows): the format
   sees them as empty, so it neither pads to them nor gives them to one thread.

   Sparse times dense (ellgspmmargs.h): the format's kernel writes every row of C (0 for the rows it
   stores nothing of), then the long rows add theirs.
*/
#pragma once
#include <ellgimpl.h>
#include <ellgspmmargs.h>
#include <ellglongrows.h>

typedef struct _p_ELLGFormat *ELLGFormat;

/* the lengths of a set of rows (ELLGRowStatsCompute()); a build computes those of the rows a format stores once, which the
   long rows' rule and ELLGFormatOps.multlongrows read, and those of the rows it stores less the long ones (ELLGCSR.stats) */
typedef struct {
  PetscInt rows;          /* the rows counted */
  PetscInt stored;        /* their entries */
  PetscInt minlen, width; /* the shortest and the longest */
  double   mean, sd;      /* their mean and standard deviation */
  double   wmean;         /* their mean weighted by the entries (sum of the squares / stored): the length of an entry's row */
} ELLGRowStats;

/* the CSR a format is built from */
typedef struct {
  PetscInt           m, n, nnz;
  const PetscInt    *ai, *aj; /* host structure */
  const PetscInt    *len;     /* host: entries of each row the format stores (0 for rows split out); NULL for updates */
  PetscInt           nlong;   /* rows split out (long rows), for a build */
  const PetscInt    *longrows; /* host: those rows, ascending, for a build */
  const int         *rowptr;  /* backend: row starts, m+1 */
  const int         *rowlen;  /* backend: the entries of each row the format stores, as len */
  const int         *col;     /* backend: column indices; NULL for a values-only update */
  const PetscScalar *val;     /* backend: values */
  ELLGRowStats       stats;    /* host: of len, for a build */
} ELLGCSR;

/* The kernel options of the formats that take them (ELLGFormatOps.kernel says which), read and kept by the shared
   code: -mat_<format>_threads_per_row, -mat_<format>_block_size, -mat_<format>_compact_indices */
#define ELLG_KERNEL_THREADS_PER_ROW 0x1
#define ELLG_KERNEL_BLOCK_SIZE      0x2
#define ELLG_KERNEL_COMPACT_INDICES 0x4
typedef struct {
  PetscInt  threads_per_row; /* 0: automatic, else a power of two up to 32 */
  PetscInt  block_size;      /* threads per CUDA block; 0: automatic, else a multiple of 32 up to 1024 */
  PetscBool compact_indices; /* 16-bit offsets from the row where every column fits (default) */
} ELLGKernelOptions;

typedef struct {
  const char *name;                                                                            /* "ellg": options are -mat_<name>_... */
  const char *title;                                                                           /* the heading of its options in -help */
  unsigned    kernel;                                                                          /* the kernel options it reads: ELLG_KERNEL_* */
  PetscInt (*longrowthreads)(PetscInt, PetscInt, PetscReal);                                   /* (m, w, wmean): threads its SpMV gives at least to the longest row (w entries) of m rows of entry-weighted mean length wmean; NULL: pads to the widest row, or fuses its long rows */
  PetscInt (*multlongrows)(ELLGFormat, PetscInt, const PetscInt *, const ELLGRowStats *);      /* (fmt, m, ai, stats): whether its mult computes the long rows of the m rows of starts ai (of those statistics) too (on the GPU in the same launch as its other rows): the default threshold of those long rows, or 0 (not for these rows); NULL: never */
  PetscErrorCode (*create)(ELLGFormat);                                                        /* allocate data, set defaults */
  PetscErrorCode (*setfromoptions)(ELLGFormat, ELLG_OPTION_ITEMS);                             /* its own options, under its heading (NULL: none but the kernel options) */
  void (*parameters)(ELLGFormat);                                                              /* the parameters in use from the options (and the last build's rows): after its options are set or copied */
  PetscErrorCode (*build)(ELLGFormat, const ELLGCSR *);                                        /* structure and values */
  PetscErrorCode (*updatevalues)(ELLGFormat, const ELLGCSR *);                                 /* same pattern as the last build */
  PetscErrorCode (*mult)(ELLGFormat, const PetscScalar *, const PetscScalar *, PetscScalar *); /* y = A x + z (z may be NULL or y) */
  PetscErrorCode (*multtransposeadd)(ELLGFormat, const PetscScalar *, PetscScalar *);          /* y += A^T x */
  PetscErrorCode (*getdiagonal)(ELLGFormat, PetscScalar *);                                    /* d_i = a_ii (0 for rows it stores none of) */
  PetscErrorCode (*spmm)(ELLGFormat, const ELLGSpMMArgs *);                                    /* C = A B (+ C), on the stream of the arguments */
  PetscErrorCode (*copyparameters)(ELLGFormat, ELLGFormat);                                    /* its own options of one matrix to its duplicate (NULL: none) */
  PetscBool (*sameparameters)(ELLGFormat, ELLGFormat);                                         /* whether two have the same own options (NULL: none) */
  PetscErrorCode (*view)(ELLGFormat, PetscViewer);                                             /* ASCII info lines */
  PetscErrorCode (*reset)(ELLGFormat);                                                         /* free the stored matrix, keep parameters */
  PetscErrorCode (*destroy)(ELLGFormat);                                                       /* free data */
} ELLGFormatOps;

typedef struct _p_ELLGLongRows *ELLGLongRows;

#define ELLG_SPMM_MAX_STREAMS 16 /* the most streams (-mat_<format>_spmm_streams) the chunks of B and C go round */

/* Rows from which a thread per row already fills a large GPU (about two waves of an H200's 132
   multiprocessors of 2048 threads): the SpMV kernels then keep a thread per row of up to 64 entries,
   whose loads move more bytes per cycle than several threads sharing a row */
#define ELLG_ROWS_FILL_GPU 524288

/* Threads a small matrix's SpMV spreads its rows over (about a quarter of what an H200 holds at once):
   a product that leaves most of the GPU idle takes as long as the chain of loads of its longest rows,
   which more threads per row shorten (ELLGFormatSmallThreadsPerRow) */
#define ELLG_THREADS_SMALL 65536

/* Threads a large GPU runs at once (an H200: 132 multiprocessors of 2048 threads; a power of two below):
   the most over which pJDS spreads a small matrix's rows (PJDSEntriesPerThread) */
#define ELLG_THREADS_RESIDENT 262144

/* Columns from which an x read at scattered columns (8 bytes each: 16 MB, a third of an H200's L2 cache beside
   the matrix's stream) leaves every layout bound by the L2 cache's request rate: csrg's CSR-stream kernel and
   aijgpu's choice of it read this bound */
#define ELLG_LARGE_X_COLUMNS (1 << 21)

/* What a values-only update keeps in the backend's memory for the next one (-mat_<format>_update_buffers):
   nothing, the values buffer (8 nnz bytes), or that and the row starts and lengths (4 (2m+1) bytes more).
   The row index is kept on the host in every case. */
typedef enum {
  ELLG_UPDATE_KEEP_NONE,
  ELLG_UPDATE_KEEP_VALUES,
  ELLG_UPDATE_KEEP_ALL
} ELLGUpdateBuffers;
PETSC_INTERN const char *const ELLGUpdateBuffersTypes[];

struct _p_ELLGFormat {
  const ELLGFormatOps *ops;
  PetscELLGBackend     backend;
  PetscInt             m, n, nnz;      /* local rows, columns, stored nonzeros of the CSR it was built from */
  PetscInt             nzrows;         /* rows with at least one stored entry (for flop counts) */
  PetscBool            compress_rows;  /* store only the nonempty rows when they are few (off-diagonal blocks of the parallel types) */
  PetscBool            chosen;         /* built by aijgpu's choice (ELLGFormatChoose()), which weighs its bytes itself */
  PetscBool            single;         /* option: the values in single precision (-mat_gpu_value_precision single), summed in double */
  PetscInt             mstored;        /* rows the format and the long rows store: m, or nzrows when compressed */
  int                 *rows;           /* host: the row of each stored row when compressed, else NULL */
  int                 *rows_d;         /* backend: the same */
  PetscScalar         *rows_work;      /* backend: the product of the stored rows (mstored) when compressed */
  size_t               bytes;          /* bytes the format holds in the backend's memory */
  PetscInt             long_threshold; /* option: rows longer than this are split out; 0 automatic, -1 never */
  PetscInt             long_applied;   /* the threshold of the last build */
  PetscBool            long_fused;     /* whether the format's mult computes the long rows of the last build (ELLGFormatOps.multlongrows) */
  ELLGLongRows         longrows;       /* the rows split out, NULL when none */
  ELLGUpdateBuffers    update_keep;    /* option: the buffers of values-only updates kept from one to the next */
  int                 *update_index;   /* host: row starts (m+1) and stored row lengths (m) of the last build's pattern */
  int                 *update_dindex;  /* backend: the same, kept (ELLG_UPDATE_KEEP_ALL) */
  int                 *update_pending; /* backend: the row index of the update begun (ELLGFormatUpdateValuesBegin()) */
  PetscScalar         *update_val;     /* backend: room for the values, kept (ELLG_UPDATE_KEEP_VALUES or _ALL) */
  PetscInt             spmm_columns;   /* option: columns of C a row's threads accumulate per pass over the row; 0 automatic */
  PetscInt             spmm_chunk;     /* option: columns of B and C that move between host and backend at a time; 0 automatic */
  PetscInt             spmm_streams;   /* option: CUDA streams the chunks go round; 0 automatic */
  ELLGKernelOptions    kernel;         /* options: those of ops->kernel */
  void                *data;
};

PETSC_INTERN const ELLGFormatOps ELLGFormatOps_ELLG;
PETSC_INTERN const ELLGFormatOps ELLGFormatOps_PJDS;
PETSC_INTERN const ELLGFormatOps ELLGFormatOps_SlicedELL;
PETSC_INTERN const ELLGFormatOps ELLGFormatOps_CSRG;

PETSC_INTERN void           ELLGRowStatsCompute(PetscInt, const PetscInt *, const PetscInt *, PetscBool, PetscInt, ELLGRowStats *);
PETSC_INTERN PetscErrorCode ELLGFormatCreate(const ELLGFormatOps *, PetscELLGBackend, ELLGFormat *);
PETSC_INTERN PetscErrorCode ELLGFormatDestroy(ELLGFormat *);
PETSC_INTERN PetscErrorCode ELLGFormatSetFromOptions(ELLGFormat, ELLG_OPTION_ITEMS);
PETSC_INTERN PetscErrorCode ELLGFormatCopyParameters(ELLGFormat, ELLGFormat);
PETSC_INTERN PetscBool      ELLGFormatSameParameters(ELLGFormat, ELLGFormat);
PETSC_INTERN PetscInt       ELLGFormatSmallThreadsPerRow(PetscInt, PetscInt);
PETSC_INTERN PetscBool      ELLGFormatCompactIndices(const ELLGCSR *);
PETSC_INTERN PetscErrorCode ELLGFormatViewCompactIndices(ELLGFormat, PetscViewer, PetscBool);
PETSC_INTERN PetscErrorCode ELLGFormatBuild(ELLGFormat, PetscInt, PetscInt, const PetscInt *, const PetscInt *, const PetscScalar *);
PETSC_INTERN PetscErrorCode ELLGFormatUpdateValues(ELLGFormat, const PetscInt *, const PetscScalar *);
PETSC_INTERN PetscErrorCode ELLGFormatUpdateValuesBegin(ELLGFormat, const PetscInt *, PetscScalar **);
PETSC_INTERN PetscErrorCode ELLGFormatUpdateValuesEnd(ELLGFormat, PetscBool, PetscScalar **);
PETSC_INTERN PetscErrorCode ELLGFormatMult(ELLGFormat, const PetscScalar *, const PetscScalar *, PetscScalar *);
PETSC_INTERN PetscErrorCode ELLGFormatMultTransposeAdd(ELLGFormat, const PetscScalar *, PetscScalar *);
PETSC_INTERN PetscErrorCode ELLGFormatGetDiagonal(ELLGFormat, PetscScalar *);
PETSC_INTERN PetscErrorCode ELLGFormatSpMM(ELLGFormat, const ELLGSpMMArgs *);
PETSC_INTERN size_t         ELLGFormatSpMMWorkSize(ELLGFormat, PetscInt);
PETSC_INTERN PetscErrorCode ELLGFormatView(ELLGFormat, PetscViewer);
PETSC_INTERN void           ELLGFormatGetBytes(ELLGFormat, double *, double *);
PETSC_INTERN PetscErrorCode ELLGFormatMallocValues(ELLGFormat, size_t, double **, float **);

/* the bytes of a stored value: 4 in single precision, else 8 */
static inline size_t ELLGFormatValueSize(ELLGFormat fmt)
{
  return fmt->single ? sizeof(float) : sizeof(double);
}
PETSC_INTERN size_t         ELLGFormatUpdateBytes(ELLGFormat); /* what values-only updates keep in the backend's memory */

/* the rows split out of a format, stored as CSR and multiplied a thread block per row */
PETSC_INTERN PetscErrorCode ELLGLongRowsBuild(PetscELLGBackend, PetscBool, const ELLGCSR *, ELLGLongRows *);
PETSC_INTERN PetscErrorCode ELLGLongRowsUpdateValues(ELLGLongRows, const ELLGCSR *);
PETSC_INTERN PetscErrorCode ELLGLongRowsMultAdd(ELLGLongRows, const PetscScalar *, PetscScalar *);
PETSC_INTERN const LongRowsArrays *ELLGLongRowsArrays(ELLGLongRows);
PETSC_INTERN PetscErrorCode ELLGLongRowsMultTransposeAdd(ELLGLongRows, const PetscScalar *, PetscScalar *);
PETSC_INTERN PetscErrorCode ELLGLongRowsGetDiagonal(ELLGLongRows, PetscScalar *);
PETSC_INTERN PetscErrorCode ELLGLongRowsSpMMAdd(ELLGLongRows, PetscInt, const ELLGSpMMArgs *);
PETSC_INTERN size_t         ELLGLongRowsSpMMWorkSize(ELLGLongRows, PetscInt);
PETSC_INTERN PetscErrorCode ELLGLongRowsView(ELLGLongRows, PetscViewer);
PETSC_INTERN PetscErrorCode ELLGLongRowsDestroy(ELLGLongRows *);
PETSC_INTERN size_t         ELLGLongRowsBytes(ELLGLongRows);

/* the exponent of v, a power of two */
static inline int ELLGFormatLog2(PetscInt v)
{
  int e = 0;

  while (((PetscInt)1 << e) < v) e++;
  return e;
}

/*
   The columns of C that a group of threads accumulates per pass over its row (FastSpMM's L_c), for ncols
   columns and a kernel of threads threads per pass: the option (-mat_<format>_spmm_columns) if given,
   else 8, halved while the passes would run fewer than 2^17 threads (about a thousand per multiprocessor:
   a small matrix keeps the GPU busy with more, narrower passes); never more than ncols. With 8, A's
   values and indices (12 bytes an entry) are read once per 8 columns of C, against the 64 bytes of B an
   entry reads for them: A's share of the traffic is below a fifth, and the partial sums take 16 registers.
*/
static inline int ELLGSpMMColumns(PetscInt option, PetscInt64 threads, PetscInt ncols)
{
  PetscInt lc = option;

  if (!lc) {
    lc = 8;
    while (lc > 1 && threads * ((ncols + lc - 1) / lc) < ((PetscInt64)1 << 17)) lc /= 2;
  }
  return (int)PetscMax(1, PetscMin(lc, ncols));
}
