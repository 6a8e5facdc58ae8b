/* The settings bench_spmv runs each format with (bench_spmv_settings.h) */
#include "bench_spmv_settings.h"

/* -sweep: settings of our formats' options that their automatic choices do not always make, each run
   as a row of its own named by its variant */
static const struct {
  const char *format, *variant, *options;
} sweeps[] = {
  {MATELLG,      "T=1",          "-mat_ellg_threads_per_row 1"                          }, /* a thread per row */
  {MATELLG,      "T=2",          "-mat_ellg_threads_per_row 2"                          },
  {MATELLG,      "T=4",          "-mat_ellg_threads_per_row 4"                          },
  {MATELLG,      "T=16",         "-mat_ellg_threads_per_row 16"                         },
  {MATELLG,      "bs=1024",      "-mat_ellg_block_size 1024"                            },
  {MATELLG,      "idx32",        "-mat_ellg_compact_indices false"                      }, /* 32-bit column indices */
  {MATPJDS,      "br=1",         "-mat_pjds_block_rows 1"                               }, /* no padding */
  {MATPJDS,      "br=8",         "-mat_pjds_block_rows 8"                               },
  {MATPJDS,      "br=128",       "-mat_pjds_block_rows 128"                             },
  {MATPJDS,      "bs=1024",      "-mat_pjds_block_size 1024"                            },
  {MATPJDS,      "ept=4",        "-mat_pjds_entries_per_thread 4"                       }, /* more threads on long rows */
  {MATPJDS,      "ept=16",       "-mat_pjds_entries_per_thread 16"                      },
  {MATPJDS,      "ept=64",       "-mat_pjds_entries_per_thread 64"                      }, /* fewer */
  {MATPJDS,      "idx32",        "-mat_pjds_compact_indices false"                      },
  {MATSLICEDELL, "C=32,sigma=1", "-mat_slicedell_slice_height 32 -mat_slicedell_sigma 1"}, /* unsorted, as cusparse/SELL */
  {MATSLICEDELL, "C=8",          "-mat_slicedell_slice_height 8"                        },
  {MATSLICEDELL, "C=128",        "-mat_slicedell_slice_height 128"                      },
  {MATSLICEDELL, "T=1",          "-mat_slicedell_threads_per_row 1"                     },
  {MATSLICEDELL, "T=2",          "-mat_slicedell_threads_per_row 2"                     },
  {MATSLICEDELL, "T=4",          "-mat_slicedell_threads_per_row 4"                     },
  {MATSLICEDELL, "idx32",        "-mat_slicedell_compact_indices false"                 },
  {MATSLICEDELL, "unshared",     "-mat_slicedell_shared_indices false"                  }, /* each slice its own columns */
  {MATCSRG,      "T=2",          "-mat_csrg_threads_per_row 2"                          },
  {MATCSRG,      "T=8",          "-mat_csrg_threads_per_row 8"                          },
  {MATCSRG,      "T=32",         "-mat_csrg_threads_per_row 32"                         },
  {MATCSRG,      "idx32",        "-mat_csrg_compact_indices false"                      },
  {MATCSRG,      "vector",       "-mat_csrg_kernel vector"                              }, /* CSR-vector on scattered columns too */
  {MATCSRG,      "stream",       "-mat_csrg_kernel stream"                              }, /* CSR-stream on local columns too */
};

PetscErrorCode CreateSettings(PetscBool sweep, PetscBool fp32, PetscInt nformats, char *formats[], PetscInt *n, Setting **settings)
{
  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(nformats * (2 + PETSC_STATIC_ARRAY_LENGTH(sweeps)), settings));
  *n = 0;
  for (PetscInt f = 0; f < nformats; f++) {
    const char *root = strncmp(formats[f], "seqaij", 6) ? formats[f] : formats[f] + 6;
    PetscBool   ours;

    (*settings)[(*n)++] = (Setting){formats[f], NULL, NULL, PETSC_FALSE};
    PetscCall(PetscStrInList(root, MATELLG "," MATPJDS "," MATSLICEDELL "," MATCSRG "," MATAIJGPU, ',', &ours));
    if (fp32 && ours) {
      Setting *s = &(*settings)[(*n)++];

      *s = (Setting){formats[f], "fp32", NULL, PETSC_TRUE};
      PetscCall(PetscOptionsCreate(&s->options));
      PetscCall(PetscOptionsInsertString(s->options, "-mat_gpu_value_precision single"));
    }
    for (size_t k = 0; sweep && k < PETSC_STATIC_ARRAY_LENGTH(sweeps); k++) {
      Setting *s = &(*settings)[*n];

      if (strcmp(root, sweeps[k].format)) continue;
      s->format  = formats[f];
      s->variant = sweeps[k].variant;
      PetscCall(PetscOptionsCreate(&s->options));
      PetscCall(PetscOptionsInsertString(s->options, sweeps[k].options));
      (*n)++;
    }
  }
  PetscFunctionReturn(0);
}

PetscErrorCode DestroySettings(PetscInt n, Setting **settings)
{
  PetscFunctionBeginUser;
  for (PetscInt s = 0; s < n; s++)
    if ((*settings)[s].options) PetscCall(PetscOptionsDestroy(&(*settings)[s].options));
  PetscCall(PetscFree(*settings));
  PetscFunctionReturn(0);
}
