// The variable density's launches (density/density_launch.hpp): on a GPU, or on cudasim when it
// compiles this file.
#include "revwave/cuda/kernels/density/density_kernels.hpp"
#include "revwave/cuda/kernels/density/density_launch.hpp"

namespace revwave {

using launch::enqueue;

template <class T>
void launch_density_sweep(const DensitySweepArgs<T>& a, int radius, cudaStream_t stream) {
  const SweepArgs<T>& b = a.base;
  if (b.nx <= 0 || b.ny <= 0 || b.nz <= 0) return;
  if (!in_plane_offsets_fit_32_bits(b, radius)) throw std::logic_error("grid planes too large for 32-bit offsets");
  using density::Mode;
  dispatch_radius(radius, [&](auto r) {
    constexpr int R = decltype(r)::value;
    if (b.reverse())
      enqueue(density::SweepKernel<T, R, Mode::reverse>(a), stream);
    else if (a.adjoint)
      enqueue(density::SweepKernel<T, R, Mode::adjoint>(a), stream);
    else
      enqueue(density::SweepKernel<T, R, Mode::forward>(a), stream);
  });
}

template <class T>
void launch_density_top_compute(const DensityTopPass<T>& a, int radius, cudaStream_t stream) {
  dispatch_radius(radius, [&](auto r) { enqueue(density::TopComputeKernel<T, decltype(r)::value>(a), stream); });
}

template <class T>
void launch_density_top_write(const DensityTopPass<T>& a, cudaStream_t stream) {
  enqueue(density::TopWriteKernel<T>(a), stream);
}

template <class T>
void launch_density_probes(const DensityProbeStep<T>& a, int radius, cudaStream_t stream) {
  dispatch_radius(radius, [&](auto r) { enqueue(density::ProbeKernel<T, decltype(r)::value>(a), stream); });
}

template <class T>
void launch_density_image(const DensityImageStep<T>& a, int radius, cudaStream_t stream) {
  const SweepArgs<T>& g = a.sweep;
  if (g.nx <= 0 || g.ny <= 0 || g.nz <= 0) return;
  if (!in_plane_offsets_fit_32_bits(g, radius)) throw std::logic_error("grid planes too large for 32-bit offsets");
  dispatch_radius(radius, [&](auto r) { enqueue(density::ImageKernel<T, decltype(r)::value>(a), stream); });
}

#define REVWAVE_INSTANTIATE(T)                                                              \
  template void launch_density_sweep<T>(const DensitySweepArgs<T>&, int, cudaStream_t);     \
  template void launch_density_top_compute<T>(const DensityTopPass<T>&, int, cudaStream_t); \
  template void launch_density_top_write<T>(const DensityTopPass<T>&, cudaStream_t);        \
  template void launch_density_probes<T>(const DensityProbeStep<T>&, int, cudaStream_t);    \
  template void launch_density_image<T>(const DensityImageStep<T>&, int, cudaStream_t);
REVWAVE_INSTANTIATE(float)
REVWAVE_INSTANTIATE(double)
#undef REVWAVE_INSTANTIATE

}  // namespace revwave
