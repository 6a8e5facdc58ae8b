/* Kernels of the host backend: plain C loops over the backend copy, the reference for the cuda ones */
#include <math.h>
#include "vecgpukernels.h"

static int Set(int n, double alpha, double *x)
{
  for (int i = 0; i < n; i++) x[i] = alpha;
  return 0;
}

static int Scale(int n, double alpha, double *x)
{
  if (alpha == 0.0) return Set(n, 0.0, x);
  for (int i = 0; i < n; i++) x[i] *= alpha;
  return 0;
}

static int Shift(int n, double alpha, double *x)
{
  for (int i = 0; i < n; i++) x[i] += alpha;
  return 0;
}

static int Copy(int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++) y[i] = x[i];
  return 0;
}

static int Swap(int n, double *x, double *y)
{
  for (int i = 0; i < n; i++) {
    double t = x[i];

    x[i] = y[i];
    y[i] = t;
  }
  return 0;
}

static int AXPY(int n, double alpha, const double *x, double *y)
{
  for (int i = 0; i < n; i++) y[i] += alpha * x[i];
  return 0;
}

static int AXPBY(int n, double alpha, double beta, const double *x, double *y)
{
  for (int i = 0; i < n; i++) y[i] = (alpha != 0.0 ? alpha * x[i] : 0.0) + (beta != 0.0 ? beta * y[i] : 0.0);
  return 0;
}

static int AXPBYPCZ(int n, double alpha, double beta, double gamma, const double *x, const double *y, double *z)
{
  for (int i = 0; i < n; i++) z[i] = (alpha != 0.0 ? alpha * x[i] : 0.0) + (beta != 0.0 ? beta * y[i] : 0.0) + (gamma != 0.0 ? gamma * z[i] : 0.0);
  return 0;
}

static int WAXPY(int n, double alpha, const double *x, const double *y, double *w)
{
  for (int i = 0; i < n; i++) w[i] = (alpha != 0.0 ? alpha * x[i] : 0.0) + y[i];
  return 0;
}

static int MAXPY(int n, int nv, const double *alpha, const double *const *x, double *y)
{
  for (int j = 0; j < nv; j++) AXPY(n, alpha[j], x[j], y);
  return 0;
}

static int Unary(VecGPUUnaryOp op, int n, double *x)
{
  for (int i = 0; i < n; i++) {
    switch (op) {
    case VECGPU_UNARY_ABS:
      x[i] = fabs(x[i]);
      break;
    case VECGPU_UNARY_RECIPROCAL:
      if (x[i] != 0.0) x[i] = 1.0 / x[i];
      break;
    case VECGPU_UNARY_SQRTABS:
      x[i] = sqrt(fabs(x[i]));
      break;
    case VECGPU_UNARY_EXP:
      x[i] = exp(x[i]);
      break;
    case VECGPU_UNARY_LOG:
      x[i] = log(x[i]);
      break;
    }
  }
  return 0;
}

static int Binary(VecGPUBinaryOp op, int n, const double *x, const double *y, double *w)
{
  for (int i = 0; i < n; i++) {
    const double a = x[i], b = y[i];

    switch (op) {
    case VECGPU_BINARY_MULT:
      w[i] = a * b;
      break;
    case VECGPU_BINARY_DIVIDE:
      w[i] = b != 0.0 ? a / b : 0.0;
      break;
    case VECGPU_BINARY_MAX:
      w[i] = a < b ? b : a;
      break;
    case VECGPU_BINARY_MIN:
      w[i] = a < b ? a : b;
      break;
    case VECGPU_BINARY_MAXABS:
      w[i] = fabs(a) < fabs(b) ? fabs(b) : fabs(a);
      break;
    }
  }
  return 0;
}

static int Dot(int n, const double *x, const double *y, double *r)
{
  double s = 0.0;

  for (int i = 0; i < n; i++) s += x[i] * y[i];
  *r = s;
  return 0;
}

static int MDot(int n, int nv, const double *x, const double *const *y, double *r)
{
  for (int j = 0; j < nv; j++) Dot(n, x, y[j], &r[j]);
  return 0;
}

static int DotNorm2(int n, const double *s, const double *t, double *dp, double *nm)
{
  Dot(n, s, t, dp);
  return Dot(n, t, t, nm);
}

static int Norm1(int n, const double *x, double *r)
{
  double s = 0.0;

  for (int i = 0; i < n; i++) s += fabs(x[i]);
  *r = s;
  return 0;
}

static int Norm2(int n, const double *x, double *r)
{
  Dot(n, x, x, r);
  *r = sqrt(*r);
  return 0;
}

static int NormInf(int n, const double *x, double *r)
{
  double m = 0.0;

  for (int i = 0; i < n; i++) {
    const double a = fabs(x[i]);

    if (a != a) {
      m = a;
      break;
    }
    if (a > m) m = a;
  }
  *r = m;
  return 0;
}

static int Sum(int n, const double *x, double *r)
{
  double s = 0.0;

  for (int i = 0; i < n; i++) s += x[i];
  *r = s;
  return 0;
}

static int MaxLoc(int n, int min, const double *x, double *val, int *idx)
{
  double m = x[0];
  int    k = 0;

  for (int i = 1; i < n; i++) {
    if (min ? x[i] < m : x[i] > m) {
      m = x[i];
      k = i;
    }
  }
  *val = m;
  *idx = k;
  return 0;
}

static int MaxPointwiseDivide(int n, const double *x, const double *y, double *r)
{
  double m = 0.0;

  for (int i = 0; i < n; i++) {
    const double a = y[i] != 0.0 ? fabs(x[i] / y[i]) : fabs(x[i]);

    m = a < m ? m : a;
  }
  *r = m;
  return 0;
}

const VecGPUKernels VecGPUKernelsHost = {
  .set                = Set,
  .scale              = Scale,
  .shift              = Shift,
  .copy               = Copy,
  .swap               = Swap,
  .axpy               = AXPY,
  .axpby              = AXPBY,
  .axpbypcz           = AXPBYPCZ,
  .waxpy              = WAXPY,
  .maxpy              = MAXPY,
  .unary              = Unary,
  .binary             = Binary,
  .dot                = Dot,
  .mdot               = MDot,
  .dotnorm2           = DotNorm2,
  .norm1              = Norm1,
  .norm2              = Norm2,
  .norminf            = NormInf,
  .sum                = Sum,
  .maxloc             = MaxLoc,
  .maxpointwisedivide = MaxPointwiseDivide,
};
