#include "revwave/numerics/acoustic/cpu_free_surface.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>

#include "revwave/numerics/acoustic/point_formulas.hpp"
#include "revwave/numerics/boundary/free_surface.hpp"
#include "revwave/numerics/flush_subnormals.hpp"

namespace revwave {
namespace {

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

// Rows a pass covers: the top R of each column (fewer on a shallow grid).
index_t top_rows(const Grid& g) { return std::min(g.radius(), g.padded(2)); }

template <class T>
T divisor_at(const Problem<T>& p, index_t i, index_t j, index_t k, index_t idx) {
  const T eta = damping_eta(p.coeffs, p.kappa[0][i], p.kappa[1][j], p.kappa[2][k]);
  return leapfrog_a(p.coeffs, p.m.template as<T>()[idx], eta);
}

// Calls f(i, j, k, idx, slot) for every top-row point on all threads, subnormals flushed as the
// sweeps flush them; slot numbers the points for the saved gradient.
template <class T, class F>
void for_each_top_point(const Problem<T>& p, F&& f) {
  const Grid& g = p.grid;
  const index_t nx = g.padded(0), ny = g.padded(1), rows = top_rows(g);
#pragma omp parallel
  {
    const FlushSubnormals flush;
#pragma omp for schedule(static)
    for (index_t i = 0; i < nx; ++i)
      for (index_t j = 0; j < ny; ++j)
        for (index_t k = 0; k < rows; ++k) f(i, j, k, g.index(i, j, k), (i * ny + j) * rows + k);
  }
}

}  // namespace

template <class T>
void cpu_free_surface_step(const Problem<T>& p, const T* u, T* out) {
  if (!p.grid.free_surface) return;
  dispatch_radius(p.grid.radius(), [&](auto r) {
    constexpr int R = decltype(r)::value;
    const T* w = p.weights.data();
    for_each_top_point(p, [&](index_t i, index_t j, index_t k, index_t idx, index_t) {
      out[idx] = free_surface_value<T, R>(w, u + (idx - k), k, out[idx], divisor_at(p, i, j, k, idx));
    });
  });
}

template <class T>
void cpu_free_surface_at(const Problem<T>& p, const T* u, const index_t* index, std::size_t count, T* values) {
  if (!p.grid.free_surface) return;
  dispatch_radius(p.grid.radius(), [&](auto r) {
    constexpr int R = decltype(r)::value;
    const FlushSubnormals flush;
    for (std::size_t q = 0; q < count; ++q) {
      const auto [i, j, k] = p.grid.coordinates(index[q]);
      if (k >= R) continue;
      values[q] = free_surface_value<T, R>(p.weights.data(), u + (index[q] - k), k, values[q],
                                           divisor_at(p, i, j, k, index[q]));
    }
  });
}

template <class T>
void cpu_free_surface_save(const Problem<T>& p, const T* grad, std::vector<T>& saved) {
  if (!p.grid.free_surface) return;
  saved.resize(static_cast<std::size_t>(p.grid.padded(0) * p.grid.padded(1) * top_rows(p.grid)));
  for_each_top_point(p, [&](index_t, index_t, index_t, index_t idx, index_t slot) {
    saved[static_cast<std::size_t>(slot)] = grad[idx];
  });
}

template <class T>
void cpu_free_surface_reverse(const Problem<T>& p, const T* u, const T* u_prev, const T* lam, T* lam_out, T* grad,
                              const std::vector<T>& saved) {
  if (!p.grid.free_surface) return;
  dispatch_radius(p.grid.radius(), [&](auto r) {
    constexpr int R = decltype(r)::value;
    const T* w = p.weights.data();
    const T* m = p.m.template as<T>();
    const StepCoefficients<T> c = p.coeffs;
    const index_t sy = p.grid.stride_y(), sx = p.grid.stride_x();
    for_each_top_point(p, [&](index_t i, index_t j, index_t k, index_t idx, index_t slot) {
      // The sweep's u[n+1] there, by its formula (cpu_sweep.cpp), then the mirror's share.
      const T eta = damping_eta(c, p.kappa[0][i], p.kappa[1][j], p.kappa[2][k]);
      const T u_sweep = leapfrog_update(c, u[idx], u_prev[idx], laplacian<T, R>(w, u + idx, sy, sx), m[idx], eta);
      const T a = leapfrog_a(c, m[idx], eta);
      const T u_next = free_surface_value<T, R>(w, u + (idx - k), k, u_sweep, a);
      const T lam_next = free_surface_value<T, R>(w, lam + (idx - k), k, lam_out[idx], a);
      grad[idx] = saved[static_cast<std::size_t>(slot)] + imaging_term(c, lam_next, u_next, u[idx], u_prev[idx]);
      lam_out[idx] = lam_next;
    });
  });
}

#define REVWAVE_INSTANTIATE(T)                                                                        \
  template void cpu_free_surface_step<T>(const Problem<T>&, const T*, T*);                            \
  template void cpu_free_surface_at<T>(const Problem<T>&, const T*, const index_t*, std::size_t, T*); \
  template void cpu_free_surface_save<T>(const Problem<T>&, const T*, std::vector<T>&);               \
  template void cpu_free_surface_reverse<T>(const Problem<T>&, const T*, const T*, const T*, T*, T*,  \
                                            const std::vector<T>&);  // NOLINT(bugprone-macro-parentheses)
REVWAVE_INSTANTIATE(float)
REVWAVE_INSTANTIATE(double)
#undef REVWAVE_INSTANTIATE

}  // namespace revwave
