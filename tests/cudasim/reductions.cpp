// The device reductions (reductions.hpp wraps CUB on a GPU) on cudasim: in a fixed (sequential)
// order, as one operation on the stream for the race checker. The only kernels not compiled from
// cuda/*/src (a library's, not ours); every other launch is the .cu files' own (launch layer).
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "cudasim.hpp"
#include "revwave/cuda/kernels/reductions.hpp"

namespace revwave {

using cudasim::reads;
using cudasim::writes;

// No scratch is needed.
template <class T>
DeviceReducer<T>::DeviceReducer(std::size_t max_items) : max_items_(max_items) {}

template <class T>
void DeviceReducer<T>::sum_squares(const T* data, std::size_t n, double* out, cudaStream_t stream) {
  if (n > max_items_) throw std::logic_error("reduction larger than its scratch");
  cudasim::run_on_stream(stream, "a reduction", {reads(data, n * sizeof(T)), writes(out, sizeof(double))}, [&] {
    double sum = 0;
    for (std::size_t i = 0; i < n; ++i) sum += static_cast<double>(data[i]) * static_cast<double>(data[i]);
    *out = sum;
  });
}

template <class T>
void DeviceReducer<T>::max_abs(const T* data, std::size_t n, double* out, cudaStream_t stream) {
  if (n > max_items_) throw std::logic_error("reduction larger than its scratch");
  cudasim::run_on_stream(stream, "a reduction", {reads(data, n * sizeof(T)), writes(out, sizeof(double))}, [&] {
    double m = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const double v = std::fabs(static_cast<double>(data[i]));
      if (std::isnan(v)) {
        m = v;
        break;
      }
      m = std::max(m, v);
    }
    *out = m;
  });
}

template class DeviceReducer<float>;
template class DeviceReducer<double>;

}  // namespace revwave
