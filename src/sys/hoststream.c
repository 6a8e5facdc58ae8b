/* The host backend's versions of the stream functions of ellgcuda.h: plain loops, done on return */
#include <ellgimpl.h>

void ELLGHostCopyAsync(void *stream, void *dst, const void *src, size_t bytes)
{
  (void)stream;
  if (bytes) memcpy(dst, src, bytes);
}

void ELLGHostGather(void *stream, int n, const int *idx, const double *x, double *buf)
{
  (void)stream;
  for (int i = 0; i < n; i++) buf[i] = x[idx[i]];
}

void ELLGHostScatter(void *stream, int n, const int *idx, const double *buf, double *y, int add)
{
  (void)stream;
  if (add)
    for (int i = 0; i < n; i++) y[idx[i]] += buf[i];
  else
    for (int i = 0; i < n; i++) y[idx[i]] = buf[i];
}
