/*
   Values in the formats' arrays: double (val), or single precision (sval) for a matrix that only preconditions
   (-mat_gpu_value_precision single), converted to double where they are read and summed in double either way.
   Exactly one of val and sval is not NULL. Included by host (C) and CUDA files.
*/
#pragma once
#include <stddef.h>

/* value p, on the host */
static inline double ELLGValue(const double *val, const float *sval, size_t p)
{
  return sval ? (double)sval[p] : val[p];
}

/* value p := v, on the host (rounded to single precision in sval) */
static inline void ELLGSetValue(double *val, float *sval, size_t p, double v)
{
  if (sval) sval[p] = (float)v;
  else val[p] = v;
}

#if defined(__CUDACC__)
/* f(val or sval), whichever the arrays store; f returns 0 or a cudaError_t */
template <class F>
inline int ELLGWithValues(double *val, float *sval, F f)
{
  return sval ? f(sval) : f(val);
}
#endif
