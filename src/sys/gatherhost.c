/* The host backend's versions of the gather and scatter functions of ellgcuda.h: plain loops */
#include <ellgimpl.h>

void ELLGHostGatherColumns(void *stream, int n, int ncols, const int *idx, const double *x, int ldx, double *buf, int ldb)
{
  (void)stream;
  for (int j = 0; j < ncols; j++) {
    const double *c = x + (size_t)j * ldx;
    double       *b = buf + (size_t)j * ldb;

    for (int i = 0; i < n; i++) b[i] = c[idx[i]];
  }
}

void ELLGHostGather(void *stream, int n, const int *idx, const double *x, double *buf)
{
  ELLGHostGatherColumns(stream, n, 1, idx, x, 0, buf, 0);
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
