// The checkpoint casts' launches (cast_launch.hpp): on a GPU, or on cudasim when it compiles this file.
#include "revwave/cuda/kernels/cast_kernels.hpp"
#include "revwave/cuda/kernels/cast_launch.hpp"

namespace revwave {

template <class T>
void launch_encode(const CastShape& s, const T* field, const double* peak, void* out, cudaStream_t stream) {
  launch::enqueue(cast::EncodeKernel<T>(s, field, peak, static_cast<unsigned char*>(out)), stream);
}

template <class T>
void launch_decode(const CastShape& s, const void* in, T* field, cudaStream_t stream) {
  launch::enqueue(cast::DecodeKernel<T>(s, static_cast<const unsigned char*>(in), field), stream);
}

#define REVWAVE_INSTANTIATE(T)                                                                    \
  template void launch_encode<T>(const CastShape&, const T*, const double*, void*, cudaStream_t); \
  template void launch_decode<T>(const CastShape&, const void*, T*, cudaStream_t);
REVWAVE_INSTANTIATE(float)
REVWAVE_INSTANTIATE(double)
#undef REVWAVE_INSTANTIATE

}  // namespace revwave
