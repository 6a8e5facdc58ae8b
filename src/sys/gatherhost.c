/* The host backend's versions of the gather and scatter functions of ellgcuda.h: plain loops */
#include <ellgimpl.h>

void ELLGHostGather(void *stream, int n, const int *idx, const double *x, double *buf)
{
  (void)stream;
  for (int i = 0; i < n; i++) buf[i] = x[idx[i]];
}

void ELLGHostScatterColumns(void *stream, int n, int ncols, const int *idx, const double *buf, int ldb, double *y, int ldy, int add)
{
  (void)stream;
  for (int j = 0; j < ncols; j++) {
    const double *b = buf + (size_t)j * ldb;
    double       *c = y + (size_t)j * ldy;

    if (add)
      for (int i = 0; i < n; i++) c[idx[i]] += b[i];
    else
      for (int i = 0; i < n; i++) c[idx[i]] = b[i];
  }
}

void ELLGHostScatter(void *stream, int n, const int *idx, const double *buf, double *y, int add)
{
  ELLGHostScatterColumns(stream, n, 1, idx, buf, 0, y, 0, add);
}
