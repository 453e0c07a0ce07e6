// Norms of device arrays (Thrust reductions in double): for checks and benchmarks, not the time loop.
#pragma once
#include <cstddef>

#include <cuda_runtime_api.h>

namespace revwave {

// sum_i x_i^2 in double; synchronises `stream`.
template <class T>
double device_sum_squares(const T* data, std::size_t n, cudaStream_t stream);

// max_i |x_i| (NaN propagates as NaN); synchronises `stream`.
template <class T>
double device_max_abs(const T* data, std::size_t n, cudaStream_t stream);

}  // namespace revwave
