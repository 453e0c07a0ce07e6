// The shuffle sweep's launches (acoustic/sweep_launch.hpp), forward with or without the state's
// encoding, and reverse.
#include "revwave/cuda/kernels/acoustic/sweep_launch.hpp"
#include "revwave/cuda/kernels/acoustic/sweep_variants.hpp"

namespace revwave::acoustic {

template <class T>
void launch_shuffle_sweep(const SweepArgs<T>& a, int radius, cudaStream_t stream) {
  dispatch_radius(radius, [&](auto r) {
    constexpr int R = decltype(r)::value;
    if (a.reverse())
      launch::enqueue(ShuffleSweep<T, R, true>(a), stream);
    else if (a.encode.enabled())
      launch::enqueue(ShuffleSweep<T, R, false, true>(a), stream);
    else
      launch::enqueue(ShuffleSweep<T, R, false>(a), stream);
  });
}

template void launch_shuffle_sweep<float>(const SweepArgs<float>&, int, cudaStream_t);
template void launch_shuffle_sweep<double>(const SweepArgs<double>&, int, cudaStream_t);

}  // namespace revwave::acoustic
