// The sweep kernels: __global__ wrappers around the host+device bodies, and their launches.
#include "cuda_error.hpp"
#include "sweep_columns.hpp"
#include "sweep_kernels.hpp"

namespace revwave {
namespace {

template <class T, int R, bool Imaging>
__global__ void __launch_bounds__(columns::block_z * columns::block_y) columns_kernel(const SweepArgs<T> a) {
  columns::sweep_thread<T, R, Imaging>(a, this_thread());
}

template <class T, int R>
void launch_columns(const SweepArgs<T>& a, cudaStream_t stream) {
  const LaunchShape s = columns::launch_shape(a);
  const dim3 grid(s.grid.x, s.grid.y, s.grid.z), block(s.block.x, s.block.y, s.block.z);
  if (a.grad != nullptr) columns_kernel<T, R, true><<<grid, block, 0, stream>>>(a);
  else columns_kernel<T, R, false><<<grid, block, 0, stream>>>(a);
  REVWAVE_CUDA_CHECK(cudaGetLastError());
}

}  // namespace

template <class T>
void launch_sweep(const SweepArgs<T>& a, int radius, cudaStream_t stream) {
  if (a.nx <= 0 || a.ny <= 0 || a.nz <= 0) return;
  dispatch_radius(radius, [&](auto r) { launch_columns<T, decltype(r)::value>(a, stream); });
}

template void launch_sweep<float>(const SweepArgs<float>&, int, cudaStream_t);
template void launch_sweep<double>(const SweepArgs<double>&, int, cudaStream_t);

}  // namespace revwave
