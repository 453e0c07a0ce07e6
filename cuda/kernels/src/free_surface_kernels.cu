// The free surface's launches (boundary/free_surface_launch.hpp): on a GPU, or on cudasim when it
// compiles this file.
#include "revwave/cuda/kernels/boundary/free_surface_kernels.hpp"
#include "revwave/cuda/kernels/boundary/free_surface_launch.hpp"

namespace revwave {

using launch::enqueue;

template <class T>
void launch_free_surface_step(const FreeSurfacePass<T>& a, int radius, cudaStream_t stream) {
  dispatch_radius(radius, [&](auto r) { enqueue(boundary::StepKernel<T, decltype(r)::value>(a), stream); });
}

template <class T>
void launch_free_surface_save(const FreeSurfacePass<T>& a, cudaStream_t stream) {
  enqueue(boundary::SaveKernel<T>(a), stream);
}

template <class T>
void launch_free_surface_reverse(const FreeSurfacePass<T>& a, int radius, cudaStream_t stream) {
  dispatch_radius(radius, [&](auto r) { enqueue(boundary::ReverseKernel<T, decltype(r)::value>(a), stream); });
}

#define REVWAVE_INSTANTIATE(T)                                                             \
  template void launch_free_surface_step<T>(const FreeSurfacePass<T>&, int, cudaStream_t); \
  template void launch_free_surface_save<T>(const FreeSurfacePass<T>&, cudaStream_t);      \
  template void launch_free_surface_reverse<T>(const FreeSurfacePass<T>&, int, cudaStream_t);
REVWAVE_INSTANTIATE(float)
REVWAVE_INSTANTIATE(double)
#undef REVWAVE_INSTANTIATE

}  // namespace revwave
