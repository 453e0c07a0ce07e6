// Where a C-PML's auxiliary values live, and its coefficients. The values follow the allocated
// grid in every field (Grid::cpml_values): per axis a, psi_a at the points of a's two slabs (the
// layer_lo(a) planes before the interior along a and the layer_hi(a) after it, over the whole
// padded extent of the other two axes), then zeta_a at the same points. The adjoint's nu and mu
// use the same layout in a buffer of their own (zeta's place and psi's).
#pragma once
#include <array>
#include <vector>

#include "revwave/numerics/boundary/cpml_point.hpp"
#include "revwave/numerics/grid.hpp"

namespace revwave {

struct CpmlLayout {
  std::array<index_t, 3> padded{}, lo{}, hi{};
  std::array<index_t, 3> psi{}, zeta{};  // offsets into the tail
  index_t tail = 0;                      // the tail's offset in a field: alloc_points
  index_t values = 0;                    // the tail's length: Grid::cpml_values

  bool has_layer(int a) const { return lo[a] + hi[a] > 0; }
  // The offset of padded point c in axis a's slabs, relative to psi[a] (zeta[a] alike); -1 when
  // the point lies in neither slab.
  index_t slab_offset(int a, const std::array<index_t, 3>& c) const {
    index_t local = c[a], side_base = 0;
    if (c[a] >= lo[a]) {
      if (c[a] < padded[a] - hi[a]) return -1;
      local = c[a] - (padded[a] - hi[a]);
      side_base = lo[a];
    }
    // Slab-local coordinates, x slowest, z fastest, with extent lo[a] + hi[a] along a.
    std::array<index_t, 3> ext = padded, at = c;
    ext[a] = lo[a] + hi[a];
    at[a] = side_base + local;
    return (at[0] * ext[1] + at[1]) * ext[2] + at[2];
  }
  // Padded coordinates of slab offset o of axis a (slab_offset's inverse).
  std::array<index_t, 3> slab_point(int a, index_t o) const {
    std::array<index_t, 3> c{};
    cpml_slab_point(padded.data(), lo.data(), hi.data(), a, o, c.data());
    return c;
  }
  index_t slab_points(int a) const { return (values == 0) ? 0 : (zeta[a] - psi[a]); }
};

CpmlLayout cpml_layout(const Grid& g);

// The coefficients a C-PML's formulas (cpml_formulas.hpp) read.
template <class T>
struct CpmlProfile {
  CpmlLayout layout;
  std::array<std::vector<T>, 3> a, b;  // per padded index on each axis; 0 outside the layer
  std::vector<T> d1;                   // first-derivative weights / h, [0] unused
  std::vector<T> d2;                   // one axis's second-derivative weights / h^2
  double d_max = 0, alpha_max = 0;     // the profile's peak damping and shift, 1/s
};

// The per-point tables of grid g's C-PML over the profile's host vectors (a device copy keeps the
// layout and points a, b, d1 and d2 at its own).
template <class T>
CpmlPointTables<T> cpml_point_tables(const Grid& g, const CpmlProfile<T>& c) {
  CpmlPointTables<T> t;
  const CpmlLayout& l = c.layout;
  for (int a = 0; a < 3; ++a) {
    t.padded[a] = l.padded[a];
    t.lo[a] = l.lo[a];
    t.hi[a] = l.hi[a];
    t.psi[a] = l.psi[a];
    t.zeta[a] = l.zeta[a];
    t.a[a] = c.a[a].data();
    t.b[a] = c.b[a].data();
  }
  t.stride[0] = g.stride_x();
  t.stride[1] = g.stride_y();
  t.stride[2] = 1;
  t.tail = l.tail;
  t.free_surface = g.free_surface;
  t.d1 = c.d1.data();
  t.d2 = c.d2.data();
  return t;
}

// The profile's peak damping d_max and shift alpha_max in units of 1 / (nbl dt) (cpml_profile.cpp).
inline constexpr double cpml_d_scale = 4.0, cpml_alpha_scale = 0.75;

// Weights of the central first derivative of order 2k on unit spacing, d[1..k] (d[0] = 0).
std::vector<double> first_derivative_weights(int space_order);

// The profile of grid g at dt, f0 the wavelet's peak frequency. d rises as (depth / nbl)^2 to
// d_max, alpha falls linearly from alpha_max; both depend on the grid and dt only, never on m.
template <class T>
CpmlProfile<T> make_cpml_profile(const Grid& g, double dt);

}  // namespace revwave
