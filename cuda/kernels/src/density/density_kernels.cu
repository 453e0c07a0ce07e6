// The density kernels: __global__ wrappers around density_threads.hpp, and their launches.
#include "revwave/cuda/kernels/density/density_kernels.hpp"
#include "revwave/cuda/kernels/density/density_threads.hpp"
#include "revwave/cuda/kernels/launch_shape.hpp"
#include "revwave/cuda/runtime/cuda_error.hpp"

namespace revwave {
namespace {

using density_threads::Mode;
using sparse::global_index;
using sparse::sparse_block;

template <class T, int R, Mode M>
__global__ void __launch_bounds__(density_threads::block_z * density_threads::block_y)
    density_sweep_kernel(const DensitySweepArgs<T> a) {
  density_threads::sweep_thread<T, R, M>(a, this_thread());
}

template <class T, int R>
__global__ void density_probe_kernel(const DensityProbeStep<T> a) {
  density_threads::probe_thread<T, R>(a, global_index(this_thread()));
}

template <class T>
__global__ void density_reimage_kernel(const ProbesView probes, const DensityReimage<T> a) {
  density_threads::reimage_thread(probes, a, global_index(this_thread()));
}

template <class T>
__global__ void density_adjoint_source_kernel(const PointsView<T> rec, const DensityAdjointSourceImages<T> a) {
  density_threads::adjoint_source_thread(rec, a, global_index(this_thread()));
}

dim3 to_dim3(const Dim& d) { return dim3(d.x, d.y, d.z); }
dim3 blocks_for(index_t n) { return dim3(sparse::launch_shape(n).grid.x); }

template <class T, int R, Mode M>
void launch_mode(const DensitySweepArgs<T>& a, cudaStream_t stream) {
  const LaunchShape s = density_threads::launch_shape(a);
  density_sweep_kernel<T, R, M><<<to_dim3(s.grid), to_dim3(s.block), 0, stream>>>(a);
}

}  // namespace

template <class T>
void launch_density_sweep(const DensitySweepArgs<T>& a, int radius, cudaStream_t stream) {
  const SweepArgs<T>& b = a.base;
  if (b.nx <= 0 || b.ny <= 0 || b.nz <= 0) return;
  if (!in_plane_offsets_fit_32_bits(b, radius)) throw std::logic_error("grid planes too large for 32-bit offsets");
  dispatch_radius(radius, [&](auto r) {
    constexpr int R = decltype(r)::value;
    if (!b.reverse()) {
      if (a.adjoint) launch_mode<T, R, Mode::adjoint>(a, stream);
      else launch_mode<T, R, Mode::forward>(a, stream);
    } else if (a.image_g != nullptr) {
      launch_mode<T, R, Mode::reverse_imaging>(a, stream);
    } else {
      launch_mode<T, R, Mode::reverse>(a, stream);
    }
  });
  REVWAVE_CUDA_CHECK(cudaGetLastError());
}

template <class T>
void launch_density_probes(const DensityProbeStep<T>& a, int radius, cudaStream_t stream) {
  if (a.base.probes.count == 0) return;
  dispatch_radius(radius, [&](auto r) {
    density_probe_kernel<T, decltype(r)::value><<<blocks_for(a.base.probes.count), sparse_block, 0, stream>>>(a);
  });
  REVWAVE_CUDA_CHECK(cudaGetLastError());
}

template <class T>
void launch_density_reimage(const ProbesView& probes, const DensityReimage<T>& a, cudaStream_t stream) {
  if (probes.count == 0) return;
  density_reimage_kernel<T><<<blocks_for(probes.count), sparse_block, 0, stream>>>(probes, a);
  REVWAVE_CUDA_CHECK(cudaGetLastError());
}

template <class T>
void launch_density_adjoint_source(const PointsView<T>& rec, const DensityAdjointSourceImages<T>& a,
                                   cudaStream_t stream) {
  if (rec.targets == 0) return;
  density_adjoint_source_kernel<T><<<blocks_for(rec.targets), sparse_block, 0, stream>>>(rec, a);
  REVWAVE_CUDA_CHECK(cudaGetLastError());
}

#define REVWAVE_INSTANTIATE(T)                                                                             \
  template void launch_density_sweep<T>(const DensitySweepArgs<T>&, int, cudaStream_t);                    \
  template void launch_density_probes<T>(const DensityProbeStep<T>&, int, cudaStream_t);                   \
  template void launch_density_reimage<T>(const ProbesView&, const DensityReimage<T>&, cudaStream_t);      \
  template void launch_density_adjoint_source<T>(const PointsView<T>&, const DensityAdjointSourceImages<T>&, \
                                                 cudaStream_t);
REVWAVE_INSTANTIATE(float)
REVWAVE_INSTANTIATE(double)
#undef REVWAVE_INSTANTIATE

}  // namespace revwave
