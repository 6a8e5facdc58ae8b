/*
   The strength graph of a matrix with a symmetric nonzero pattern (PCGAMG's MatCreateGraph()), computed in the
   backend's memory (plain C, nothing of PETSc; ellggraph.h for the PETSc side). The graph keeps the matrix's pattern
   (m rows of starts ai and sorted columns aj); each function takes the arithmetic of PETSc's host code, operation
   for operation, so that the values are the same to the bit:

     g_ij = |a_ij| + |a_ji|      (absval and mirror; without absval the signed values, without mirror a_ij alone)
     s_i  = sqrt(|1 / g_ii|)     (0 where g_ii is 0 or absent: VecReciprocal() keeps a 0)
     g_ij = (g_ij s_i) s_j       (MatDiagonalScale(): rows first)

   Every function returns 0 or an error code of ellgcuda.h.
*/
#pragma once

#ifdef __cplusplus
extern "C" {
#endif

/* g as above; missing[0] counts the entries (i, j) whose mirror (j, i) is not in the pattern (mirror only: the
   caller then takes another way, and g is not defined) */
int  ELLGCudaGraphValues(int m, const int *ai, const int *aj, const double *a, int absval, int mirror, double *g, int *missing);
void ELLGHostGraphValues(int m, const int *ai, const int *aj, const double *a, int absval, int mirror, double *g, int *missing);

/* s_i from the diagonal of g, then g scaled by s on both sides; s has room for m values */
int  ELLGCudaGraphScale(int m, const int *ai, const int *aj, double *s, double *g);
void ELLGHostGraphScale(int m, const int *ai, const int *aj, double *s, double *g);

/*
   One level of greedy aggregation (PETSc's MIS of MATCOARSENMISK, one pass of its k): the vertices are 0 .. nv - 1,
   vertex map[r] for row r of the m x m pattern (ai, aj) (map NULL: row r is vertex r, nv = m; map[r] < 0: a row of
   no vertex), two vertices adjacent where an entry joins rows of theirs; a vertex whose rows reach fewer than two
   distinct vertices (itself counted) is a singleton. Taken in the order order[0 .. nv - 1] (NULL: by index), each
   vertex that is neither a singleton nor taken becomes a root and takes every adjacent vertex not yet taken
   (singletons too). root[v] is v's root (v for a root), -1 for a singleton no root took. The pattern must be
   symmetric. The device's rounds (a vertex is a root once no earlier undecided vertex and no root is adjacent)
   give the sequential pass's roots: the earliest-first maximal independent set, each vertex taken by its earliest
   adjacent root. *rounds: how many the device took, -1 (root undefined) when maxrounds did not decide every vertex.
*/
int  ELLGCudaGraphMIS(int m, const int *ai, const int *aj, const int *map, int nv, const int *order, int maxrounds, int *root, int *rounds);
void ELLGHostGraphMIS(int m, const int *ai, const int *aj, const int *map, int nv, const int *order, int *root, int *work);
/* the ints of work ELLGHostGraphMIS() takes */
#define ELLG_HOST_GRAPH_MIS_WORK(m, nv) (5 * (size_t)(nv) + 1 + (size_t)(m))

#ifdef __cplusplus
}
#endif
