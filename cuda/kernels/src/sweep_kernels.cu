// The sweep kernels: __global__ wrappers around the host+device bodies, and their launches.
#include "revwave/cuda/runtime/cuda_error.hpp"
#include "revwave/cuda/kernels/acoustic/sweep_columns.hpp"
#include "revwave/cuda/kernels/acoustic/sweep_kernels.hpp"
#include "revwave/cuda/kernels/acoustic/sweep_tiled.hpp"

namespace revwave {
namespace {

template <class T, int R, bool Reverse>
__global__ void __launch_bounds__(columns::block_z * columns::block_y, columns::blocks_per_sm)
    columns_kernel(const SweepArgs<T> a) {
  columns::sweep_thread<T, R, Reverse>(a, this_thread());
}

template <class T, int R, bool Reverse>
__global__ void __launch_bounds__(tiled::block_threads, tiled::blocks_per_sm<T, Reverse>)
    tiled_kernel(const SweepArgs<T> a) {
  using Sweep = tiled::Sweep<T, R, Reverse>;
  __shared__ typename Sweep::Shared shared;
  typename Sweep::Thread t;
  const ThreadPlace p = this_thread();
  Sweep::run_block(a, p.block, shared, [&](auto&& phase) { phase(t, p); }, [] { __syncthreads(); });
}

dim3 to_dim3(const Dim& d) { return dim3(d.x, d.y, d.z); }

template <class T, int R>
void launch_radius(const SweepArgs<T>& a, SweepKernel kernel, cudaStream_t stream) {
  const bool reverse = a.reverse();
  if (kernel == SweepKernel::tiled) {
    const LaunchShape s = tiled::launch_shape(a);
    if (reverse) tiled_kernel<T, R, true><<<to_dim3(s.grid), to_dim3(s.block), 0, stream>>>(a);
    else tiled_kernel<T, R, false><<<to_dim3(s.grid), to_dim3(s.block), 0, stream>>>(a);
  } else {
    const LaunchShape s = columns::launch_shape(a);
    if (reverse) columns_kernel<T, R, true><<<to_dim3(s.grid), to_dim3(s.block), 0, stream>>>(a);
    else columns_kernel<T, R, false><<<to_dim3(s.grid), to_dim3(s.block), 0, stream>>>(a);
  }
  REVWAVE_CUDA_CHECK(cudaGetLastError());
}

}  // namespace

template <class T>
void launch_sweep(const SweepArgs<T>& a, int radius, cudaStream_t stream, SweepKernel kernel) {
  if (a.nx <= 0 || a.ny <= 0 || a.nz <= 0) return;
  if (!in_plane_offsets_fit_32_bits(a, radius)) throw std::logic_error("grid planes too large for 32-bit offsets");
  dispatch_radius(radius, [&](auto r) { launch_radius<T, decltype(r)::value>(a, kernel, stream); });
}

template void launch_sweep<float>(const SweepArgs<float>&, int, cudaStream_t, SweepKernel);
template void launch_sweep<double>(const SweepArgs<double>&, int, cudaStream_t, SweepKernel);

}  // namespace revwave
