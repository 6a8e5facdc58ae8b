/*
   Column indices in the formats' arrays: 32-bit indices (col), or 16-bit offsets from the row in the
   matrix's numbering (off: the column of an entry of row i is i + off[p]) when every column, and every
   column a padding entry reads, is within 16 bits of its row (ELLGFormatCompactIndices()). Exactly one
   of col and off is not NULL. Included by host (C) and CUDA files.
*/
#pragma once
#include <stddef.h>

#if defined(__CUDACC__)
  #define ELLG_HOST_DEVICE __host__ __device__
#else
  #define ELLG_HOST_DEVICE
#endif

/* the column the padding of a row i without entries reads: the nearest one, min(i, n - 1) (0 for a matrix
   without columns, whose slices hold no padding) */
static inline ELLG_HOST_DEVICE int ELLGEmptyRowColumn(int i, int n)
{
  return i < n ? i : (n > 0 ? n - 1 : 0);
}

/* the column of entry p of row i, on the host */
static inline int ELLGColumn(const int *col, const short *off, size_t p, int i)
{
  return off ? i + off[p] : col[p];
}

#if defined(__CUDACC__)
  #include <ellgloads.h>

/* the same on the device: () a plain read-only load, stream() the SpMV's streaming load; at() the columns of slice s
   whose slots start at start (a format whose slices share blocks of offsets, ELLGColShared, maps them to the block
   of idx_ptr[s]; the others store each slice's columns at its slots) */
struct ELLGCol32 {
  const int *c;
  __device__ __forceinline__ int       operator()(size_t p, int) const { return __ldg(c + p); }
  __device__ __forceinline__ int       stream(size_t p, int) const { return ELLGLoadMatrix(c + p); }
  __device__ __forceinline__ ELLGCol32 at(const int *, int, int) const { return *this; }
};
struct ELLGCol16 {
  const short *o;
  __device__ __forceinline__ int       operator()(size_t p, int i) const { return i + __ldg(o + p); }
  __device__ __forceinline__ int       stream(size_t p, int i) const { return i + ELLGLoadMatrix(o + p); }
  __device__ __forceinline__ ELLGCol16 at(const int *, int, int) const { return *this; }
};
/* offsets from the row (short or int) in blocks that slices share: few blocks read by many slices, so every load is
   a cached one, the streaming one too */
template <class O>
struct ELLGColShared {
  const O *o;
  __device__ __forceinline__ int              operator()(size_t p, int i) const { return i + __ldg(o + p); }
  __device__ __forceinline__ int              stream(size_t p, int i) const { return i + __ldg(o + p); }
  __device__ __forceinline__ ELLGColShared<O> at(const int *idx_ptr, int s, int start) const { return ELLGColShared<O>{o + ((ptrdiff_t)__ldg(idx_ptr + s) - start)}; }
};

/* f(ELLGCol16 or ELLGCol32), whichever the arrays store; f returns 0 or a cudaError_t */
template <class F>
inline int ELLGWithColumns(const int *col, const short *off, F f)
{
  return off ? f(ELLGCol16{off}) : f(ELLGCol32{col});
}
#endif
