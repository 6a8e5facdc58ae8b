/*
   The strength graph of a matrix whose nonzero pattern is symmetric, its values computed in the backend's memory
   (ellggraphkernels.h for the arithmetic): PCGAMG's MatCreateGraph() of our seq types; and the aggregates PCGAMG's
   coarsener makes of a graph
*/
#pragma once
#include <ellgimpl.h>

/* g (host, nnz = ai[m] values) from the m x m CSR (ai, aj, aa) of the host: |a_ij| (absval) or a_ij, plus the same of
   a_ji (mirror), scaled by the diagonal (scale); *symmetric false (g undefined) when mirror finds an entry without
   its mirror in the pattern */
PETSC_INTERN PetscErrorCode ELLGGraphValues(PetscELLGBackend, PetscInt, const PetscInt *, const PetscInt *, const PetscScalar *, PetscBool, PetscBool, PetscBool, PetscScalar *, PetscBool *);

/* the aggregates of MATCOARSENMISK at distance k of the m x m graph of symmetric pattern (ai, aj) (host): k passes of
   greedy aggregation (ellggraphkernels.h), the first in order (NULL: by index), each next one of the aggregates the
   last made, by index; agg[r] the aggregate of row r, numbered as their first roots' rows, -1 for none; *nagg of them */
PETSC_INTERN PetscErrorCode ELLGGraphAggregate(PetscELLGBackend, PetscInt, const PetscInt *, const PetscInt *, const PetscInt *, PetscInt, PetscInt *, PetscInt *);
