#include "revwave/cuda/kernels/cast_kernels.hpp"
#include "revwave/cuda/runtime/cuda_error.hpp"

namespace revwave {
namespace {

template <class T>
__global__ void encode_kernel(CastShape s, const T* field, const double* peak, unsigned char* out) {
  cast::encode_thread(s, field, peak, out, cast::global_index(this_thread()));
}

template <class T>
__global__ void decode_kernel(CastShape s, const unsigned char* in, T* field) {
  cast::decode_thread(s, in, field, cast::global_index(this_thread()));
}

}  // namespace

template <class T>
void launch_encode(const CastShape& s, const T* field, const double* peak, void* out, cudaStream_t stream) {
  if (s.points() == 0) return;
  encode_kernel<T><<<cast::launch_shape(s.points()).grid.x, cast::cast_block, 0, stream>>>(
      s, field, peak, static_cast<unsigned char*>(out));
  REVWAVE_CUDA_CHECK(cudaGetLastError());
}

template <class T>
void launch_decode(const CastShape& s, const void* in, T* field, cudaStream_t stream) {
  if (s.points() == 0) return;
  decode_kernel<T><<<cast::launch_shape(s.points()).grid.x, cast::cast_block, 0, stream>>>(
      s, static_cast<const unsigned char*>(in), field);
  REVWAVE_CUDA_CHECK(cudaGetLastError());
}

#define REVWAVE_INSTANTIATE(T)                                                                     \
  template void launch_encode<T>(const CastShape&, const T*, const double*, void*, cudaStream_t); \
  template void launch_decode<T>(const CastShape&, const void*, T*, cudaStream_t);
REVWAVE_INSTANTIATE(float)
REVWAVE_INSTANTIATE(double)
#undef REVWAVE_INSTANTIATE

}  // namespace revwave
