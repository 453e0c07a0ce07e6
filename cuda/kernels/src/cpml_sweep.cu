// The column sweep with the C-PML's share inside it (boundary/cpml_sweep.hpp): on a GPU, or on
// cudasim when it compiles this file.
#include <stdexcept>
#include <string>

#include "revwave/core/dispatch_radius.hpp"
#include "revwave/cuda/kernels/boundary/cpml_sweep.hpp"

namespace revwave {

template <class T>
void launch_cpml_sweep(const SweepArgs<T>& a, const CpmlTables<T>& t, const CpmlSweepFields<T>& f, CpmlSweepMode mode,
                       int radius, cudaStream_t stream) {
  if (a.nx <= 0 || a.ny <= 0 || a.nz <= 0) return;
  if (!in_plane_offsets_fit_32_bits(a, radius)) throw std::logic_error("grid planes too large for 32-bit offsets");
  if (t.free_surface) throw std::logic_error("launch_cpml_sweep: the free surface's rows complete after the sweep");
  if (a.encode.enabled()) throw std::logic_error("the sweep with the C-PML cannot encode the state in passing");
  if (a.reverse() != (mode == CpmlSweepMode::reverse))
    throw std::logic_error("launch_cpml_sweep: a reverse step's fields with another mode, or the reverse without them");
  if (a.illuminate.enabled()) throw std::logic_error("the sweep with the C-PML cannot add the illumination in passing");
  if (!cpml_sweep_takes(radius))
    throw std::logic_error("launch_cpml_sweep: no sweep with the C-PML inside it at radius " + std::to_string(radius));
  dispatch_radius(radius, [&](auto r) {
    constexpr int R = decltype(r)::value;
    if constexpr (R <= cpml_sweep_max_radius) {
      using M = CpmlSweepMode;
      switch (mode) {
        case M::forward: launch::enqueue(cpml::ColumnsSweep<T, R, M::forward>(a, {t, f}), stream); return;
        case M::adjoint: launch::enqueue(cpml::ColumnsSweep<T, R, M::adjoint>(a, {t, f}), stream); return;
        case M::reverse: launch::enqueue(cpml::ColumnsSweep<T, R, M::reverse>(a, {t, f}), stream); return;
      }
    }
  });
}

template void launch_cpml_sweep<float>(const SweepArgs<float>&, const CpmlTables<float>&, const CpmlSweepFields<float>&,
                                       CpmlSweepMode, int, cudaStream_t);
template void launch_cpml_sweep<double>(const SweepArgs<double>&, const CpmlTables<double>&,
                                        const CpmlSweepFields<double>&, CpmlSweepMode, int, cudaStream_t);

}  // namespace revwave
