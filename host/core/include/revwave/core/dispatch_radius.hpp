// The stencil radius as a compile-time constant: one switch for the CPU sweeps (host/numerics) and
// the CUDA launches (cuda/kernels), which instantiate their loops for each radius.
#pragma once
#include <stdexcept>
#include <type_traits>

#include "revwave/core/config.hpp"

namespace revwave {

// Calls f(std::integral_constant<int, R>{}) for the stencil radius R = radius (1..8).
template <class F>
void dispatch_radius(index_t radius, F&& f) {
  switch (radius) {
    case 1: return f(std::integral_constant<int, 1>{});
    case 2: return f(std::integral_constant<int, 2>{});
    case 3: return f(std::integral_constant<int, 3>{});
    case 4: return f(std::integral_constant<int, 4>{});
    case 5: return f(std::integral_constant<int, 5>{});
    case 6: return f(std::integral_constant<int, 6>{});
    case 7: return f(std::integral_constant<int, 7>{});
    case 8: return f(std::integral_constant<int, 8>{});
    default: throw std::logic_error("stencil radius out of range");
  }
}

}  // namespace revwave
