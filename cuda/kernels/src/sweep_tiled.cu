// The tiled sweep's launches (acoustic/sweep_launch.hpp), forward and reverse.
#include "revwave/cuda/kernels/acoustic/sweep_launch.hpp"
#include "revwave/cuda/kernels/acoustic/sweep_variants.hpp"

namespace revwave::acoustic {

template <class T>
void launch_tiled_sweep(const SweepArgs<T>& a, int radius, cudaStream_t stream) {
  dispatch_radius(radius, [&](auto r) {
    constexpr int R = decltype(r)::value;
    if (a.reverse())
      launch::enqueue(TiledSweep<T, R, true>(a), stream);
    else
      launch::enqueue(TiledSweep<T, R, false>(a), stream);
  });
}

template void launch_tiled_sweep<float>(const SweepArgs<float>&, int, cudaStream_t);
template void launch_tiled_sweep<double>(const SweepArgs<double>&, int, cudaStream_t);

}  // namespace revwave::acoustic
