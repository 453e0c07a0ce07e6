// Build-wide basics: the host+device marker and the index type.
#pragma once
#include <cstdint>

#if defined(__CUDACC__)
#define REVWAVE_HD __host__ __device__ __forceinline__
#else
#define REVWAVE_HD inline
#endif

namespace revwave {
using index_t = std::int64_t;
}  // namespace revwave
