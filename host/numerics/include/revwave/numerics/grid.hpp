// The computational grid: interior points, an absorbing layer of nbl points per side, and zeros
// around that, so that stencil loops need no bounds checks.
//
// Memory layout (x slowest, z fastest): R = radius() zero planes and rows on each side in x and
// y; along z, each row holds its padded points from element 0 (the first point a sweep computes)
// and then at least R zeros, which are this row's halo at its end and the next row's at its
// start. Rows are a multiple of row_align = 32 elements long, so with a 128-byte aligned base
// every row's first padded point starts on a 128-byte boundary (float: one warp's 32 values are
// four whole 32-byte sectors; CPU: aligned AVX2/AVX-512 loads). The gaps stay zero: sweeps write
// padded points only.
//
// With free_surface the top face (z = 0) has no layer: padded k = 0 is interior z = 0, the
// pressure-free plane (boundary/free_surface.hpp), and the row gap above it is the mirror's.
//
// A model with ny = 1 is planar, a 2D problem in (x, z): y has no layer and no halo (one row per
// plane, alloc(1) = 1) and its stride is 0, so a stencil's y neighbours u[j +- q] are the point
// itself. The Laplacian's y pairs then add 2 u w[q], which the centre weight's third c0 / h^2
// cancels (c0 = -2 sum c_q): the operator is the 2D one, on every sweep unchanged, and a field
// costs a plane's bytes.
#pragma once
#include <array>
#include <cstddef>

#include "revwave/core/config.hpp"

namespace revwave {

struct Grid {
  static constexpr index_t row_align = 32;  // elements

  std::array<index_t, 3> shape{};  // interior points (nx, ny, nz); z is depth, fastest varying
  index_t nbl = 0;                 // absorbing points per side (the free surface's face has none)
  double spacing = 0;              // h, metres (same on all axes)
  int space_order = 8;             // even, 2..16
  bool free_surface = false;       // u = 0 at z = 0, the field odd across it; no layer above
  bool cpml = false;               // the layer is a C-PML (boundary/cpml_layout.hpp), not a sponge
  // Whole fields of the allocated grid's layout a physics carries in every field's tail, before the
  // C-PML's values (PhysicsSpec::extra_fields: VTI's second field), so that whatever copies a field
  // (a checkpoint, a stored history step) copies them with it.
  index_t extra_fields = 0;

  index_t radius() const { return space_order / 2; }
  // ny = 1: a 2D problem in the (x, z) plane (see above).
  bool planar() const { return shape[1] == 1; }
  // The axes the waves travel along: 2 on a plane, else 3.
  int dimensions() const { return planar() ? 2 : 3; }
  // Layer points before the interior (low side) and after it (high side) along an axis.
  index_t layer_lo(int axis) const {
    if (axis == 1 && planar()) return 0;
    return axis == 2 && free_surface ? 0 : nbl;
  }
  index_t layer_hi(int axis) const { return axis == 1 && planar() ? 0 : nbl; }
  index_t padded(int axis) const { return shape[axis] + layer_lo(axis) + layer_hi(axis); }
  // Allocated extent per axis: planes (x), rows (y), elements of a row (z; stride_y() off a plane).
  index_t alloc(int axis) const {
    if (axis == 1 && planar()) return 1;
    if (axis < 2) return padded(axis) + 2 * radius();
    return (padded(2) + radius() + row_align - 1) / row_align * row_align;
  }
  index_t stride_x() const { return alloc(1) * alloc(2); }
  // 0 on a plane: every y neighbour is the point itself.
  index_t stride_y() const { return planar() ? 0 : alloc(2); }
  index_t alloc_points() const { return alloc(0) * alloc(1) * alloc(2); }
  index_t padded_points() const { return padded(0) * padded(1) * padded(2); }
  index_t interior_points() const { return shape[0] * shape[1] * shape[2]; }
  // Linear index of padded point (0, 0, 0); a multiple of row_align.
  index_t origin() const { return radius() * (stride_x() + stride_y()); }
  // Linear index of padded coordinates (0..padded-1 on each axis).
  index_t index(index_t i, index_t j, index_t k) const { return origin() + i * stride_x() + j * stride_y() + k; }
  // Padded coordinates (i, j, k) of a linear index of a padded point: index's inverse.
  std::array<index_t, 3> coordinates(index_t idx) const {
    const index_t r = radius();
    if (planar()) return {idx / stride_x() - r, 0, idx % stride_x()};
    return {idx / stride_x() - r, (idx % stride_x()) / stride_y() - r, idx % stride_y()};
  }
  index_t interior_index(index_t ix, index_t iy, index_t iz) const {
    return index(ix + layer_lo(0), iy + layer_lo(1), iz + layer_lo(2));
  }
  // The volume a point source's unit strength spreads over: h^3, or h^2 on a plane (a line source
  // along y, of unit strength per metre).
  double cell_volume() const { return planar() ? spacing * spacing : spacing * spacing * spacing; }
  // Extent of the interior box, metres: coordinates lie in [0, extent(axis)].
  double extent(int axis) const { return static_cast<double>(shape[axis] - 1) * spacing; }
  // With a C-PML every field carries a tail after its allocated grid: the auxiliary values psi and
  // zeta of each axis at that axis' layer points (boundary/cpml_layout.hpp), so that whatever
  // copies a field (a checkpoint) copies the state of the layer with it. 0 for a sponge.
  index_t cpml_values() const {
    if (!cpml) return 0;
    index_t n = 0;
    for (int a = 0; a < 3; ++a) n += 2 * (layer_lo(a) + layer_hi(a)) * padded((a + 1) % 3) * padded((a + 2) % 3);
    return n;
  }
  // With a C-PML, the padded points within the stencil's radius of a layer along some axis: where
  // the C-PML adds its share to the update (0 for a sponge).
  index_t cpml_region_points() const {
    if (!cpml) return 0;
    index_t away = 1;  // points away from every layer
    for (int a = 0; a < 3; ++a) {
      const index_t lo = layer_lo(a) > 0 ? layer_lo(a) + radius() : 0;
      const index_t hi = layer_hi(a) > 0 ? layer_hi(a) + radius() : 0;
      away *= padded(a) > lo + hi ? padded(a) - lo - hi : 0;
    }
    return padded_points() - away;
  }
  // Where the extra fields' values start in a field (extra field f at f * alloc_points() after it)
  // and where the C-PML's values start.
  index_t extra_offset() const { return alloc_points(); }
  index_t cpml_offset() const { return (1 + extra_fields) * alloc_points(); }
  // Values a field holds after its allocated grid: the extra fields', then the C-PML's.
  index_t tail_values() const { return extra_fields * alloc_points() + cpml_values(); }
  // Values of a coefficient field (m, a physics' parameters) of the grid: one allocated grid, and the
  // C-PML's tail as every field has one (unused), but no extra field.
  index_t coefficient_values() const { return alloc_points() + cpml_values(); }
  template <class T>
  std::size_t field_bytes() const {
    return static_cast<std::size_t>(alloc_points() + tail_values()) * sizeof(T);
  }
};

// Throws InputError unless the grid is usable (positive sizes, even order 2..16, finite h > 0).
void validate(const Grid& grid);

}  // namespace revwave
