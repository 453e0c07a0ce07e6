// The shot engine's kernels: __global__ wrappers around engine_threads.hpp, and their launches.
#include "revwave/cuda/backend/engine_threads.hpp"
#include "revwave/cuda/runtime/cuda_error.hpp"

namespace revwave {
namespace {

using engine::global_index;

template <class T>
__global__ void window_cut_kernel(const WindowCut<T> a) {
  engine::window_cut_thread(a, global_index(this_thread()));
}
template <class T>
__global__ void tile_fill_kernel(const TileFill<T> a) {
  engine::tile_fill_thread(a, global_index(this_thread()));
}
__global__ void block_add_kernel(const BlockAdds a) { engine::block_add_thread(a, global_index(this_thread())); }
__global__ void tile_dense_kernel(const TileDense a) { engine::tile_dense_thread(a, global_index(this_thread())); }
__global__ void block_copy_kernel(const BlockCopy a) { engine::block_copy_thread(a, global_index(this_thread())); }
template <class T>
__global__ void square_add_kernel(const SquareAdd<T> a) {
  engine::square_add_thread(a, global_index(this_thread()));
}

dim3 blocks_for(index_t n) { return dim3(engine::launch_shape(n).grid.x); }

template <class Kernel, class Args>
void launch(Kernel kernel, const Args& a, index_t items, cudaStream_t stream) {
  if (items == 0) return;
  kernel<<<blocks_for(items), engine::block_threads, 0, stream>>>(a);
  REVWAVE_CUDA_CHECK(cudaGetLastError());
}

index_t padded_points(const WindowPlace& w) {
  return (w.shape[0] + 2 * w.nbl) * (w.shape[1] + 2 * w.nbl) * (w.shape[2] + 2 * w.nbl);
}

}  // namespace

template <class T>
void launch_window_cut(const WindowCut<T>& a, cudaStream_t stream) {
  launch(window_cut_kernel<T>, a, padded_points(a.w), stream);
}
template <class T>
void launch_tile_fill(const TileFill<T>& a, cudaStream_t stream) {
  launch(tile_fill_kernel<T>, a, a.tiles.count * engine::tile_points, stream);
}
void launch_block_adds(const BlockAdds& a, cudaStream_t stream) { launch(block_add_kernel, a, a.count * engine::tile_points, stream); }
void launch_tile_dense(const TileDense& a, cudaStream_t stream) {
  launch(tile_dense_kernel, a, a.tiles.count * engine::tile_points, stream);
}
void launch_block_copy(const BlockCopy& a, cudaStream_t stream) {
  launch(block_copy_kernel, a, a.tiles.count * engine::tile_points, stream);
}
template <class T>
void launch_square_add(const SquareAdd<T>& a, cudaStream_t stream) {
  launch(square_add_kernel<T>, a, a.w.shape[0] * a.w.shape[1] * a.w.shape[2], stream);
}

#define REVWAVE_INSTANTIATE(T)                                                 \
  template void launch_window_cut<T>(const WindowCut<T>&, cudaStream_t);      \
  template void launch_tile_fill<T>(const TileFill<T>&, cudaStream_t);        \
  template void launch_square_add<T>(const SquareAdd<T>&, cudaStream_t);
REVWAVE_INSTANTIATE(float)
REVWAVE_INSTANTIATE(double)
#undef REVWAVE_INSTANTIATE

}  // namespace revwave
