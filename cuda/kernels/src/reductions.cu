#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <cub/device/device_reduce.cuh>

#include "revwave/cuda/kernels/reductions.hpp"

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

struct Plus {
  __host__ __device__ double operator()(double a, double b) const { return a + b; }
};

// max that keeps NaN, so a blown-up field is never reported as finite.
struct MaxKeepNan {
  __host__ __device__ double operator()(double a, double b) const {
    if (a != a) return a;
    if (b != b) return b;
    return a > b ? a : b;
  }
};

template <class T>
std::size_t scratch_bytes(std::size_t n) {
  std::size_t a = 0, b = 0;
  REVWAVE_CUDA_CHECK(cub::DeviceReduce::TransformReduce(nullptr, a, static_cast<const T*>(nullptr),
                                                        static_cast<double*>(nullptr), n, Plus{}, Square<T>{}, 0.0));
  REVWAVE_CUDA_CHECK(cub::DeviceReduce::TransformReduce(
      nullptr, b, static_cast<const T*>(nullptr), static_cast<double*>(nullptr), n, MaxKeepNan{}, AbsValue<T>{}, 0.0));
  return a > b ? a : b;
}

}  // namespace

template <class T>
DeviceReducer<T>::DeviceReducer(std::size_t max_items)
    : max_items_(max_items), scratch_(std::max<std::size_t>(scratch_bytes<T>(max_items), 16), "reduction scratch") {}

template <class T>
void DeviceReducer<T>::sum_squares(const T* data, std::size_t n, double* out, cudaStream_t stream) {
  if (n > max_items_) throw std::logic_error("reduction larger than its scratch");
  std::size_t bytes = scratch_.bytes();
  REVWAVE_CUDA_CHECK(
      cub::DeviceReduce::TransformReduce(scratch_.data(), bytes, data, out, n, Plus{}, Square<T>{}, 0.0, stream));
}

template <class T>
void DeviceReducer<T>::max_abs(const T* data, std::size_t n, double* out, cudaStream_t stream) {
  if (n > max_items_) throw std::logic_error("reduction larger than its scratch");
  std::size_t bytes = scratch_.bytes();
  REVWAVE_CUDA_CHECK(cub::DeviceReduce::TransformReduce(scratch_.data(), bytes, data, out, n, MaxKeepNan{},
                                                        AbsValue<T>{}, 0.0, stream));
}

template class DeviceReducer<float>;
template class DeviceReducer<double>;

}  // namespace revwave
