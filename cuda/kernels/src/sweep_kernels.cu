// launch_sweep: the checks every sweep variant shares, then the variant's launch (its own .cu
// file); and the first step after a restore from encoded slots.
#include <stdexcept>

#include "revwave/cuda/kernels/acoustic/sweep_kernels.hpp"
#include "revwave/cuda/kernels/acoustic/sweep_launch.hpp"
#include "revwave/cuda/kernels/acoustic/sweep_restore.hpp"
#include "revwave/cuda/kernels/acoustic/sweep_variants.hpp"

namespace revwave {

template <class T>
void launch_sweep(const SweepArgs<T>& a, int radius, cudaStream_t stream, SweepKernel kernel) {
  if (a.nx <= 0 || a.ny <= 0 || a.nz <= 0) return;
  if (!in_plane_offsets_fit_32_bits(a, radius)) throw std::logic_error("grid planes too large for 32-bit offsets");
  if (a.encode.enabled() && (a.reverse() || !encodes_in_passing(kernel))) {
    throw std::logic_error(std::string("the ") + to_string(kernel) + " sweep cannot encode the state in passing");
  }
  if (a.illuminate.enabled() && (a.reverse() || a.encode.enabled() || !illuminates_in_passing(kernel))) {
    throw std::logic_error(std::string("the ") + to_string(kernel) + " sweep cannot add the illumination in passing" +
                           (a.encode.enabled() ? " while it encodes the state" : ""));
  }
  switch (kernel) {
    case SweepKernel::columns: return acoustic::launch_columns_sweep(a, radius, stream);
    case SweepKernel::shuffle: return acoustic::launch_shuffle_sweep(a, radius, stream);
    case SweepKernel::tiled: return acoustic::launch_tiled_sweep(a, radius, stream);
    case SweepKernel::vector: return acoustic::launch_pair_sweep(a, radius, stream);
  }
  throw std::logic_error("launch_sweep: unknown sweep kernel");
}

template <class T>
void launch_restore_step(const RestoreStep<T>& r, int radius, cudaStream_t stream) {
  const SweepArgs<T>& a = r.sweep;
  if (a.nx <= 0 || a.ny <= 0 || a.nz <= 0) return;
  dispatch_radius(radius, [&](auto q) { launch::enqueue(acoustic::RestoreKernel<T, decltype(q)::value>(r), stream); });
}

#define REVWAVE_INSTANTIATE(T)                                                        \
  template void launch_sweep<T>(const SweepArgs<T>&, int, cudaStream_t, SweepKernel); \
  template void launch_restore_step<T>(const RestoreStep<T>&, int, cudaStream_t);
REVWAVE_INSTANTIATE(float)
REVWAVE_INSTANTIATE(double)
#undef REVWAVE_INSTANTIATE

}  // namespace revwave
