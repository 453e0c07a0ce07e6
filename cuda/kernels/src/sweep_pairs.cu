// The pair sweep's launches (acoustic/sweep_launch.hpp): forward, in float up to radius 4
// (PairPolicy::fits); its reverse, and its forward elsewhere, is the columns sweep.
#include "revwave/cuda/kernels/acoustic/sweep_launch.hpp"
#include "revwave/cuda/kernels/acoustic/sweep_variants.hpp"

namespace revwave::acoustic {

template <class T>
void launch_pair_sweep(const SweepArgs<T>& a, int radius, cudaStream_t stream) {
  if (a.reverse()) return launch_columns_sweep(a, radius, stream);
  dispatch_radius(radius, [&](auto r) {
    constexpr int R = decltype(r)::value;
    if constexpr (tuning::PairPolicy::fits<T, R>)
      launch::enqueue(PairSweep<T, R>(a), stream);
    else
      launch_columns_sweep(a, radius, stream);
  });
}

template void launch_pair_sweep<float>(const SweepArgs<float>&, int, cudaStream_t);
template void launch_pair_sweep<double>(const SweepArgs<double>&, int, cudaStream_t);

}  // namespace revwave::acoustic
