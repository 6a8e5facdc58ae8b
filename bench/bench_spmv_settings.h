/*
   The settings bench_spmv runs each format with: the format's own choices, and with -sweep a few
   settings of its options that those choices do not always make (bench_spmv_settings.c).
*/
#pragma once
#include <petscellg.h>

/* A format as it is run: with its own choices (and the options of the command line), or with a setting
   of -sweep, whose options the matrix reads from a database of their own (so the command line's do not
   apply to it) */
typedef struct {
  const char  *format, *variant; /* variant: NULL for the format's own choices */
  PetscOptions options;          /* NULL: the global database */
  PetscBool    single;           /* the values in single precision (the fp32 setting) */
} Setting;

/* each format, each followed by its -sweep settings (formats named by their root, ellg, or as seqaij<root>) and, with
   fp32, by the setting "fp32" of ours: the format's own choices with single-precision values */
PetscErrorCode CreateSettings(PetscBool sweep, PetscBool fp32, PetscInt nformats, char *formats[], PetscInt *n, Setting **settings);

PetscErrorCode DestroySettings(PetscInt n, Setting **settings);
