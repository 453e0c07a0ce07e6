// The leapfrog sweeps on the device: the forward sweep, and the reverse step's fused sweep, which
// recomputes u[n+1] in registers, steps the adjoint and images in one pass (never writing u[n+1]).
// Same contracts as cpu_leapfrog_sweep and cpu_reverse_sweep: every padded point, the halo and
// the row gaps untouched; `out` may alias `u_prev` (forward) or `lam_prev` (reverse).
#pragma once
#include <cuda_runtime_api.h>

#include <cmath>

#include "revwave/numerics/acoustic/point_formulas.hpp"

namespace revwave {

inline constexpr int max_radius = 8;

// The fused codec, forward only (sweep_encode.hpp): where the sweep of step n writes the encoding
// of the state it reads, u[n] and u[n-1] (each packed as the cast kernels pack a field: the fp16
// header, then a value per padded point), and for fp16 the two fields' peaks on the device.
struct SweepEncode {
  unsigned char* u = nullptr;  // null: no encoding
  unsigned char* u_prev = nullptr;
  const double* u_peak = nullptr;
  const double* u_prev_peak = nullptr;
  bool bf16 = false;
  bool enabled() const { return u != nullptr; }
};

// The illumination in passing, forward only (sweep_illuminate.hpp): where the sweep of step n adds
// the square of the state it reads, u[n], into a sum over the interior points (x, y, z; z fastest),
// as the square-add kernel of the shot engine does after each step.
struct SweepIlluminate {
  double* sum = nullptr;  // null: none
  index_t lo[3] = {};     // the interior's first padded point (Grid::layer_lo)
  index_t shape[3] = {};  // interior points
  bool enabled() const { return sum != nullptr; }
};

// The illumination's running sum at a point after adding u^2: in double, with one rounding, so that
// the sweep adding it in passing and the square-add kernel give the same bits.
REVWAVE_HD double add_square(double sum, double u) { return fma(u, u, sum); }

// Kernel arguments, passed by value. Forward: u, u_prev -> out. Reverse (grad set): u, u_prev
// are u[n], u[n-1]; lam, lam_prev are lam[n+2], lam[n+3]; out receives lam[n+1];
// grad += imaging_term(lam[n+1], u[n+1], u[n], u[n-1]) with u[n+1] from u, u_prev.
template <class T>
struct SweepArgs {
  const T* u = nullptr;
  const T* u_prev = nullptr;
  T* out = nullptr;
  const T* lam = nullptr;
  const T* lam_prev = nullptr;
  T* grad = nullptr;
  const T* m = nullptr;   // allocated grid
  const T* kx = nullptr;  // damping rates per padded index
  const T* ky = nullptr;
  const T* kz = nullptr;
  StepCoefficients<T> c{};
  T w[max_radius + 1] = {};        // Laplacian weights, w[0] the centre
  index_t nx = 0, ny = 0, nz = 0;  // padded extents
  index_t sx = 0, sy = 0;          // strides of the allocated grid (Grid::index)
  SweepEncode encode{};            // forward: the state's encoding written in passing
  SweepIlluminate illuminate{};    // forward: u[n]^2 added in passing (the column sweep only)
  bool reverse() const { return grad != nullptr; }
};

// Kernels with the same contract and the same results: columns (sweep_columns.hpp) leaves
// neighbour re-reads to the caches, shuffle takes the column sweep's z neighbours from the warp's
// other lanes (sweep_z_window.hpp), vector (sweep_pairs.hpp) gives each thread two z points and
// loads them in aligned pairs (forward; its reverse is the columns sweep), tiled (sweep_tiled.hpp)
// stages them in shared memory and registers. Columns stays the default until a GPU has measured
// them all (profiling/gpu_bench.cu, --sweep-variant;
// profiling/figures/gpu_h200/column_sweep_variants.md).
enum class SweepKernel { columns, tiled, shuffle, vector };
inline constexpr SweepKernel sweep_kernels[] = {SweepKernel::columns, SweepKernel::tiled, SweepKernel::shuffle,
                                                SweepKernel::vector};
inline const char* to_string(SweepKernel k) {
  switch (k) {
    case SweepKernel::columns: return "columns";
    case SweepKernel::tiled: return "tiled";
    case SweepKernel::shuffle: return "shuffle";
    case SweepKernel::vector: return "vector";
  }
  return "?";
}
// Whether a kernel can write the state's encoding in passing (SweepEncode): the columns and shuffle sweeps.
inline bool encodes_in_passing(SweepKernel k) { return k == SweepKernel::columns || k == SweepKernel::shuffle; }
// Whether a kernel can add the illumination in passing (SweepIlluminate): the column sweep.
inline bool illuminates_in_passing(SweepKernel k) { return k == SweepKernel::columns; }

// Launches on `stream`; radius 1..8 (std::logic_error otherwise, for planes too large for 32-bit
// in-plane offsets, and for an encoding or an illumination asked of a kernel that cannot do it).
template <class T>
void launch_sweep(const SweepArgs<T>& args, int radius, cudaStream_t stream, SweepKernel kernel = SweepKernel::columns);

// In-plane offsets (a point's row and column within its x plane, and R planes on) fit in 32 bits.
template <class T>
bool in_plane_offsets_fit_32_bits(const SweepArgs<T>& a, int radius) {
  return a.sx * static_cast<index_t>(radius + 1) < (index_t(1) << 31);
}

}  // namespace revwave
