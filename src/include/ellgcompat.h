/*
   The differences between the PETSc versions PETSc-ELLG builds against (3.18 to 3.26), in one place.
   Self-contained (PETSc's headers only), so that the tests and benchmarks use it too.
*/
#pragma once

#include <petscsys.h>

#if !defined(PETSC_SUCCESS) /* PETSc < 3.19 */
  #define PETSC_SUCCESS 0
#endif

/* a PETSc built with CUDA: from 3.20 (PetscDeviceContextGetStreamHandle(), MATSELLCUDA) */
#if defined(PETSC_HAVE_CUDA) && PETSC_VERSION_LT(3, 20, 0)
  #error "PETSc-ELLG needs PETSc 3.20 or later when PETSc is built with CUDA"
#endif

/* PetscAssertPointer() replaced PetscValidPointer() in 3.20 */
#if PETSC_VERSION_LT(3, 20, 0)
  #define PetscAssertPointer(h, arg) PetscValidPointer(h, arg)
#endif

/* the MPI datatype of PetscBool: an enum (MPIU_BOOL) until 3.24, C's bool since */
#if PETSC_VERSION_LT(3, 24, 0)
  #define ELLG_MPI_BOOL MPIU_BOOL
#else
  #define ELLG_MPI_BOOL MPI_C_BOOL
#endif

/* setfromoptions takes a PetscOptionItems pointer until 3.23, the (pointer) type itself since */
#if PETSC_VERSION_LT(3, 23, 0)
  #define ELLG_OPTION_ITEMS PetscOptionItems *
#else
  #define ELLG_OPTION_ITEMS PetscOptionItems
#endif

/* a pointer to a function of any type, as composed functions are passed: PetscVoidFunction until
   3.26 deprecated it for PetscVoidFn * */
#if PETSC_VERSION_LT(3, 26, 0)
typedef PetscVoidFunction ELLGVoidFunction;
#else
typedef PetscVoidFn *ELLGVoidFunction;
#endif

/*
   Destroy callbacks of contexts of C type `type *`, which call destroy(type **) on them. PETSc gives a
   PetscContainer's callback the context until 3.23, and a MatProduct's until 3.25; since, a pointer to
   it (PetscCtxDestroyFn: void ** until 3.25, PetscCtxRt since), which the callback clears.
   ELLG_CONTAINER_DESTROY(name, type, destroy) and ELLG_PRODUCT_DESTROY(name, type, destroy) define
   name() in the form PETSc calls; ELLGContainerSetCtxDestroy() sets one on a container.
*/
#if PETSC_VERSION_LT(3, 25, 0)
typedef void **ELLGCtxRt;
#else
typedef PetscCtxRt ELLGCtxRt;
#endif
#define ELLG_CTX_DESTROY_BY_VALUE(name, type, destroy) \
  static PetscErrorCode name(void *ctx) \
  { \
    type *c = (type *)ctx; \
\
    PetscFunctionBegin; \
    PetscCall(destroy(&c)); \
    PetscFunctionReturn(PETSC_SUCCESS); \
  }
#define ELLG_CTX_DESTROY_BY_REFERENCE(name, type, destroy) \
  static PetscErrorCode name(ELLGCtxRt ctx) \
  { \
    PetscFunctionBegin; \
    PetscCall(destroy((type **)ctx)); \
    PetscFunctionReturn(PETSC_SUCCESS); \
  }
#if PETSC_VERSION_LT(3, 23, 0)
  #define ELLG_CONTAINER_DESTROY(name, type, destroy) ELLG_CTX_DESTROY_BY_VALUE(name, type, destroy)
  #define ELLGContainerSetCtxDestroy(c, f)            PetscContainerSetUserDestroy(c, f)
#else
  #define ELLG_CONTAINER_DESTROY(name, type, destroy) ELLG_CTX_DESTROY_BY_REFERENCE(name, type, destroy)
  #define ELLGContainerSetCtxDestroy(c, f)            PetscContainerSetCtxDestroy(c, f)
#endif
#if PETSC_VERSION_LT(3, 25, 0)
  #define ELLG_PRODUCT_DESTROY(name, type, destroy) ELLG_CTX_DESTROY_BY_VALUE(name, type, destroy)
#else
  #define ELLG_PRODUCT_DESTROY(name, type, destroy) ELLG_CTX_DESTROY_BY_REFERENCE(name, type, destroy)
#endif

/* ELLG_IF_MATOP_MISSINGDIAGONAL(x): x where struct _MatOps has missingdiagonal (removed in 3.25) */
#if PETSC_VERSION_LT(3, 25, 0)
  #define ELLG_IF_MATOP_MISSINGDIAGONAL(...) __VA_ARGS__
#else
  #define ELLG_IF_MATOP_MISSINGDIAGONAL(...)
#endif

/* PetscErrorMessage(): its third argument is char ** until 3.25, const char ** since; a void * converts
   to either */
#define ELLGErrorMessage(n, text, specific) PetscErrorMessage(n, text, (void *)(specific))

/* whether a factorization is asked to run on the host (-pc_factor_mat_factor_on_host): a field of MatFactorInfo in
   3.26 (earlier versions that lack it leave the option to the factor's own options) */
#if PETSC_VERSION_GE(3, 26, 0)
  #define ELLGFactorInfoOnHost(info) ((info)->factoronhost)
#else
  #define ELLGFactorInfoOnHost(info) ((void)(info), PETSC_FALSE)
#endif
