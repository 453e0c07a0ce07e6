#include <cmath>

#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/transform_reduce.h>

#include "reductions.hpp"

namespace revwave {
namespace {

template <class T>
struct Square {
  __host__ __device__ double operator()(T x) const { return static_cast<double>(x) * static_cast<double>(x); }
};

template <class T>
struct AbsValue {
  __host__ __device__ double operator()(T x) const { return fabs(static_cast<double>(x)); }
};

// max that keeps NaN, so a blown-up field is never reported as finite.
struct MaxKeepNan {
  __host__ __device__ double operator()(double a, double b) const {
    if (a != a) return a;
    if (b != b) return b;
    return a > b ? a : b;
  }
};

}  // namespace

template <class T>
double device_sum_squares(const T* data, std::size_t n, cudaStream_t stream) {
  return thrust::transform_reduce(thrust::cuda::par.on(stream), data, data + n, Square<T>{}, 0.0,
                                  thrust::plus<double>{});
}

template <class T>
double device_max_abs(const T* data, std::size_t n, cudaStream_t stream) {
  return thrust::transform_reduce(thrust::cuda::par.on(stream), data, data + n, AbsValue<T>{}, 0.0, MaxKeepNan{});
}

template double device_sum_squares<float>(const float*, std::size_t, cudaStream_t);
template double device_sum_squares<double>(const double*, std::size_t, cudaStream_t);
template double device_max_abs<float>(const float*, std::size_t, cudaStream_t);
template double device_max_abs<double>(const double*, std::size_t, cudaStream_t);

}  // namespace revwave
