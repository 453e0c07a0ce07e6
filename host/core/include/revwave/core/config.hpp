// Build-wide basics: the host+device marker and the index type.
#pragma once
#include <cstdint>

#if defined(__CUDACC__)
#define REVWAVE_HD __host__ __device__ __forceinline__
#define REVWAVE_HD_INLINE __host__ __device__ __forceinline__
#elif defined(REVWAVE_HD_FORCE_INLINE)
// cudasim's kernels built to contract as nvcc does (tests/CMakeLists.txt,
// REVWAVE_CUDASIM_FP_CONTRACT): forced inline, as nvcc's __forceinline__, so that no out-of-line
// copy of a formula, contracted, is what the linker keeps for the CPU's calls of it too.
#define REVWAVE_HD inline __attribute__((always_inline))
#define REVWAVE_HD_INLINE inline __attribute__((always_inline))
#else
#define REVWAVE_HD inline
// Inlined on the host too: the small stencil pieces a per-point formula calls many times
// (GCC leaves them calls there, at twice the cost; the bits do not change: contraction is off).
#define REVWAVE_HD_INLINE inline __attribute__((always_inline))
#endif

namespace revwave {
using index_t = std::int64_t;
}  // namespace revwave
