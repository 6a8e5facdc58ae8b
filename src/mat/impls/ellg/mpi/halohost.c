/* The halo exchange's device side on the host backend: plain loops, done on return */
#include <string.h>
#include "halokernels.h"

void ELLGHostHaloCopy(void *stream, void *dst, const void *src, size_t bytes)
{
  (void)stream;
  if (bytes) memcpy(dst, src, bytes);
}

void ELLGHostHaloGather(void *stream, int n, const int *idx, const double *x, double *buf)
{
  (void)stream;
  for (int i = 0; i < n; i++) buf[i] = x[idx[i]];
}

void ELLGHostHaloScatter(void *stream, int n, const int *idx, const double *buf, double *y, int add)
{
  (void)stream;
  if (add)
    for (int i = 0; i < n; i++) y[idx[i]] += buf[i];
  else
    for (int i = 0; i < n; i++) y[idx[i]] = buf[i];
}
