// Sources and receivers on the device: sampling, injection, the reverse step's sparse work (u[n+1]
// at the probes, the re-imaging at the sources, the adjoint-source injection with its imaging
// share), the last trace sampled from the probes, and the fold of the gradient to the interior.
//
// Injection is a gather: one thread per distinct grid index touched, applying that index's
// contributions in the CPU's (point, corner) order. Deterministic, no atomics, and each
// index sees exactly the sequence of updates the CPU reference applies to it.
#pragma once
#include <cuda_runtime_api.h>

#include "revwave/cuda/kernels/acoustic/sweep_kernels.hpp"
#include "revwave/numerics/acoustic/point_formulas.hpp"

namespace revwave {

template <class T>
struct PointsView {
  index_t count = 0;               // points
  const index_t* index = nullptr;  // 8 per point
  const T* weight = nullptr;       // 8 per point, cast to T as the CPU does
  index_t targets = 0;             // distinct grid indices among the corners
  const index_t* target_index = nullptr;
  const index_t* target_begin = nullptr;  // targets + 1 offsets into `corner`
  const index_t* corner = nullptr;        // corner ids 8 p + c, ascending per target
};

// out[p] = post_scale * sum_c w_pc field[i_pc]
template <class T>
void launch_sample(const PointsView<T>& pts, const T* field, T* out, T post_scale, cudaStream_t stream);

// field[i_pc] += w_pc * values[p * value_stride] * scale[8 p + c]   (value_stride 0: one value for all)
template <class T>
void launch_inject(const PointsView<T>& pts, const T* values, index_t value_stride, const T* scale, T* field,
                   cudaStream_t stream);

// NextFieldProbes on the device: where the reverse step needs u[n+1] outside its sweep.
struct ProbesView {
  index_t count = 0;
  const index_t* index = nullptr;
  const index_t* source_begin = nullptr;    // count + 1 offsets into source_corner
  const index_t* source_corner = nullptr;   // source corner ids, ascending per probe
  const index_t* receiver_probe = nullptr;  // per receiver corner 8 r + c
  const index_t* target_probe = nullptr;    // per receiver injection target (PointsView::target_index order)
};

// next[p] = u[n+1] at probe p: the sweep's point formula from sweep.u = u[n], sweep.u_prev =
// u[n-1], then + weight * wavelet[n] * scale for each source corner there, in the forward step's
// order; saved[p] = grad there for the probes with a source term (re-imaged after the sweep),
// unless grad is null (the probes sampled for a trace only).
template <class T>
struct ProbeStep {
  ProbesView probes;
  SweepArgs<T> sweep;
  const T* src_weight = nullptr;  // per source corner
  const T* src_scale = nullptr;   // per source corner: 1 / (h^3 a)
  const T* wavelet = nullptr;
  index_t n = 0;
  const T* grad = nullptr;
  T* next = nullptr;          // per probe
  T* saved = nullptr;         // per probe
  bool free_surface = false;  // the free surface's pass at probes in the top R rows (boundary/free_surface.hpp)
  // --boundary cpml: share[p] (C / a) added before the sources at the probes with boundary_probe[p] >= 0.
  const T* boundary_share = nullptr;
  const index_t* boundary_probe = nullptr;
};
template <class T>
void launch_probes(const ProbeStep<T>& args, int radius, cudaStream_t stream);

// next[p] = u[n+1] at probe p from a stored history's field u_next (the sources in), and, with grad,
// saved[p] = grad there at the probes a source reaches: what launch_probes gives a reverse step.
template <class T>
void launch_read_probes(const ProbesView& probes, const T* u_next, const T* grad, T* next, T* saved,
                        cudaStream_t stream);

// out[r] = S u[n+1] at receiver r from the probes (each receiver's corners summed in
// launch_sample's order): the trace of a step not taken.
template <class T>
void launch_sample_probes(const PointsView<T>& rec, const ProbesView& probes, const T* next, T* out,
                          cudaStream_t stream);

// Where a source injects, the sweep imaged with u[n+1] less its source term: grad = saved +
// imaging_term(lam[n+1], next, u[n], u[n-1]) at those probes (CpuPropagator's re-imaging).
template <class T>
struct SourceReimage {
  const T* next = nullptr;
  const T* saved = nullptr;
  const T* lam = nullptr;  // lam[n+1], as the sweep wrote it
  T* grad = nullptr;
  const T* u = nullptr;
  const T* u_prev = nullptr;
  StepCoefficients<T> c{};
};
template <class T>
void launch_reimage_sources(const ProbesView& probes, const SourceReimage<T>& args, cudaStream_t stream);

// lam += delta = w r scale at each corner, r the adjoint source's sample n+1, and grad +=
// imaging_term(delta, u[n+1], u, u_prev) there, u[n+1] from the target's probe.
template <class T>
struct AdjointSourceInjection {
  const T* source = nullptr;  // r[n+1], one value per receiver
  const T* scale = nullptr;
  T* lam = nullptr;
  T* grad = nullptr;
  const T* next = nullptr;
  const index_t* target_probe = nullptr;
  const T* u = nullptr;
  const T* u_prev = nullptr;
  StepCoefficients<T> c{};
};
template <class T>
void launch_inject_adjoint_source(const PointsView<T>& rec, const AdjointSourceInjection<T>& args, cudaStream_t stream);

// E^T g: interior gradient (double, C order) from one on the allocated grid, as fold_to_interior.
struct FoldShape {
  index_t nx = 0, ny = 0, nz = 0;  // interior
  index_t nbl = 0, radius = 0;
  index_t sx = 0, sy = 0;
  index_t nbl_top = 0;  // the layer above z = 0 (0 with a free surface: Grid::layer_lo(2))
  index_t nbl_y = 0;    // the layer on both y faces (0 on a plane: Grid::layer_lo(1))
};
template <class T>
void launch_fold(const FoldShape& shape, const T* padded, double* out, cudaStream_t stream);

}  // namespace revwave
