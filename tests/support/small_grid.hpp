// Grids for tests, 10 m apart on every axis: the interior shape, the absorbing layer, the space order.
#pragma once
#include <array>

#include "revwave/numerics/grid.hpp"

namespace revwave::testing {

inline Grid small_grid(const std::array<index_t, 3>& shape, index_t nbl, int space_order) {
  Grid g;
  g.shape = shape;
  g.nbl = nbl;
  g.spacing = 10.0;
  g.space_order = space_order;
  return g;
}

}  // namespace revwave::testing
