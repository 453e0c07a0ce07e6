// The column sweep's launches (acoustic/sweep_launch.hpp), forward with or without the state's
// encoding or the illumination, and reverse.
#include "revwave/cuda/kernels/acoustic/sweep_launch.hpp"
#include "revwave/cuda/kernels/acoustic/sweep_variants.hpp"

namespace revwave::acoustic {

template <class T>
void launch_columns_sweep(const SweepArgs<T>& a, int radius, cudaStream_t stream) {
  dispatch_radius(radius, [&](auto r) {
    constexpr int R = decltype(r)::value;
    if (a.reverse())
      launch::enqueue(ColumnsSweep<T, R, true>(a), stream);
    else if (a.encode.enabled())
      launch::enqueue(ColumnsSweep<T, R, false, true>(a), stream);
    else if (a.illuminate.enabled())
      launch::enqueue(ColumnsSweep<T, R, false, false, true>(a), stream);
    else
      launch::enqueue(ColumnsSweep<T, R, false>(a), stream);
  });
}

template void launch_columns_sweep<float>(const SweepArgs<float>&, int, cudaStream_t);
template void launch_columns_sweep<double>(const SweepArgs<double>&, int, cudaStream_t);

}  // namespace revwave::acoustic
