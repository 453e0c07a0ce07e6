// The shot engine's launches (engine_launch.hpp): on a GPU, or on cudasim when it compiles this file.
#include "revwave/cuda/backend/engine_launch.hpp"

namespace revwave {

template <class T>
void launch_window_cut(const WindowCut<T>& a, cudaStream_t stream) {
  launch::enqueue(engine::WindowCutKernel<T>(a), stream);
}
template <class T>
void launch_tile_fill(const TileFill<T>& a, cudaStream_t stream) {
  launch::enqueue(engine::TileFillKernel<T>(a), stream);
}
void launch_block_adds(const BlockAdds& a, cudaStream_t stream) { launch::enqueue(engine::BlockAddKernel(a), stream); }
void launch_tile_dense(const TileDense& a, cudaStream_t stream) { launch::enqueue(engine::TileDenseKernel(a), stream); }
void launch_block_copy(const BlockCopy& a, cudaStream_t stream) { launch::enqueue(engine::BlockCopyKernel(a), stream); }
template <class T>
void launch_square_add(const SquareAdd<T>& a, cudaStream_t stream) {
  launch::enqueue(engine::SquareAddKernel<T>(a), stream);
}

#define REVWAVE_INSTANTIATE(T)                                           \
  template void launch_window_cut<T>(const WindowCut<T>&, cudaStream_t); \
  template void launch_tile_fill<T>(const TileFill<T>&, cudaStream_t);   \
  template void launch_square_add<T>(const SquareAdd<T>&, cudaStream_t);
REVWAVE_INSTANTIATE(float)
REVWAVE_INSTANTIATE(double)
#undef REVWAVE_INSTANTIATE

}  // namespace revwave
