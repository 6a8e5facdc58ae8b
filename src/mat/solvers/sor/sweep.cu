/* The sweep over a set of rows on the device (ellgsweep.h) */
#include <cuda_runtime.h>
#include <ellgsweep.h>

/* xold and xnew may be the same array (a color of the multicolor SOR, whose rows read other rows only) */
template <class V>
static __global__ void SweepRows(int n, const int *__restrict__ perm, const int *__restrict__ rowptr, const int *__restrict__ colidx, const V *__restrict__ val, const double *__restrict__ dinv, double omega, const double *__restrict__ b, const double *xold, double *xnew)
{
  const int p = blockIdx.x * blockDim.x + threadIdx.x;

  if (p >= n) return;
  const int i = perm[p];
  double    s = b[i];

  if (xold)
    for (int k = rowptr[p]; k < rowptr[p + 1]; k++) s -= (double)val[k] * xold[colidx[k]];
  s = omega * (dinv ? dinv[p] * s : s);
  if (xold && omega != 1.0) s += (1.0 - omega) * xold[i];
  xnew[i] = s;
}

extern "C" int ELLGCudaSweepRows(void *stream, int n, const int *perm, const int *rowptr, const int *colidx, const double *val, const float *sval, const double *dinv, double omega, const double *b, const double *xold, double *xnew)
{
  if (n <= 0) return 0;
  if (sval) SweepRows<<<(n + 255) / 256, 256, 0, (cudaStream_t)stream>>>(n, perm, rowptr, colidx, sval, dinv, omega, b, xold, xnew);
  else SweepRows<<<(n + 255) / 256, 256, 0, (cudaStream_t)stream>>>(n, perm, rowptr, colidx, val, dinv, omega, b, xold, xnew);
  return (int)cudaGetLastError();
}
