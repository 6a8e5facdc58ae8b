/*
   The formats aijgpu chooses from and its choice (src/mat/formats/choose.c). A format is one folder under
   src/mat/formats and one entry of ELLGFormatTable[]: aijgpu then builds it by name (-mat_aijgpu_format <name>,
   MatAIJGPUSetFormat()), times it (-mat_aijgpu_format time), and falls back to it in the table's order; its rule
   (ELLGFormatChoose()) names it where the measurements say it is the fastest.
*/
#pragma once
#include <ellgformat.h>

/* the formats, in the order aijgpu falls back to when its first choice stores a large matrix in over
   ELLG_CHOOSE_MAX_CSR times the bytes of CSR; csrg, which stores CSR, last */
#define ELLG_NFORMATS 4
PETSC_INTERN const ELLGFormatOps *const ELLGFormatTable[ELLG_NFORMATS];

PETSC_INTERN PetscErrorCode ELLGFormatTableFind(const char[], const ELLGFormatOps **);
PETSC_INTERN PetscErrorCode ELLGFormatChoose(ELLGFormat *, MatAIJGPUFormat, PetscObject, PetscInt, PetscInt, const PetscInt *, const PetscInt *, const PetscScalar *, char[], size_t);
