/*
   Kernels of the device vectors behind a plain C interface (no PETSc here): one table per backend,
   with the same semantics. The host table is plain C loops (src/vec/impls/gpu/host), the cuda table
   cuBLAS and CUDA kernels (src/vec/impls/gpu/cuda). The device dense matrices run them too, on their
   backend copies (contiguous, so a vector of rows x columns entries); vecgpubackend.h is their PETSc side.

   Vector arguments are in the backend's memory (device memory for cuda); scalar results,
   coefficient arrays and arrays of vector pointers are host memory. Results of reductions are
   local: the caller reduces them over MPI. Every function returns 0 on success, or (cuda) a
   cudaError_t value or ELLG_CUDA_CUBLAS_BASE + cublasStatus_t, as the functions of ellgcuda.h do.

   A zero coefficient drops its term, so that the vector it multiplies is not read (Inf or NaN in it
   do not propagate), as in PETSc's host kernels: scale by 0 sets 0, axpby with beta 0 does not read y.
*/
#pragma once

#ifdef __cplusplus
extern "C" {
#endif

/* x[i] = f(x[i]) */
typedef enum {
  VECGPU_UNARY_ABS,        /* |x| */
  VECGPU_UNARY_RECIPROCAL, /* 1/x, entries equal to 0 are left alone */
  VECGPU_UNARY_SQRTABS,    /* sqrt(|x|) */
  VECGPU_UNARY_EXP,
  VECGPU_UNARY_LOG
} VecGPUUnaryOp;

/* w[i] = f(x[i], y[i]); w may be x or y */
typedef enum {
  VECGPU_BINARY_MULT,
  VECGPU_BINARY_DIVIDE, /* x/y, 0 where y is 0 */
  VECGPU_BINARY_MAX,
  VECGPU_BINARY_MIN,
  VECGPU_BINARY_MAXABS /* max(|x|,|y|) */
} VecGPUBinaryOp;

typedef struct {
  int (*set)(int n, double alpha, double *x);                                                                   /* x = alpha */
  int (*scale)(int n, double alpha, double *x);                                                                 /* x = alpha x */
  int (*shift)(int n, double alpha, double *x);                                                                 /* x = x + alpha */
  int (*copy)(int n, const double *x, double *y);                                                               /* y = x */
  int (*swap)(int n, double *x, double *y);                                                                     /* x <-> y */
  int (*axpy)(int n, double alpha, const double *x, double *y);                                                 /* y = y + alpha x */
  int (*axpby)(int n, double alpha, double beta, const double *x, double *y);                                   /* y = alpha x + beta y */
  int (*axpbypcz)(int n, double alpha, double beta, double gamma, const double *x, const double *y, double *z); /* z = alpha x + beta y + gamma z */
  int (*waxpy)(int n, double alpha, const double *x, const double *y, double *w);                               /* w = alpha x + y */
  int (*maxpy)(int n, int nv, const double *alpha, const double *const *x, double *y);                          /* y = y + sum_j alpha[j] x[j] */
  int (*unary)(VecGPUUnaryOp op, int n, double *x);
  int (*binary)(VecGPUBinaryOp op, int n, const double *x, const double *y, double *w);
  int (*dot)(int n, const double *x, const double *y, double *r);                   /* r = y^T x */
  int (*mdot)(int n, int nv, const double *x, const double *const *y, double *r);   /* r[j] = y[j]^T x */
  int (*dotnorm2)(int n, const double *s, const double *t, double *dp, double *nm); /* dp = t^T s, nm = t^T t */
  int (*norm1)(int n, const double *x, double *r);                                  /* sum |x| */
  int (*norm2)(int n, const double *x, double *r);                                  /* sqrt(sum x^2) */
  int (*norminf)(int n, const double *x, double *r);                                /* max |x|, NaN if an entry is NaN */
  int (*sum)(int n, const double *x, double *r);
  int (*maxloc)(int n, int min, const double *x, double *val, int *idx);         /* largest (min: smallest) entry and its first index; n > 0 */
  int (*maxpointwisedivide)(int n, const double *x, const double *y, double *r); /* max |x/y|, |x| where y is 0 */
} VecGPUKernels;

extern const VecGPUKernels VecGPUKernelsHost;
extern const VecGPUKernels VecGPUKernelsCuda;

#ifdef __cplusplus
}
#endif
