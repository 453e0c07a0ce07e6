#include "revwave/numerics/density/cpu_sweep.hpp"

#include <algorithm>
#include <stdexcept>
#include <type_traits>

#include "../sweep_rows.hpp"
#include "revwave/numerics/density/point_formulas.hpp"
#include "revwave/numerics/density/surface_formulas.hpp"

namespace revwave {
namespace {

// What every density sweep reads besides its fields.
//
// With a free surface the top `top` rows of every column (depth k < R) take the mirrored formulas
// (density/surface_formulas.hpp) after the row's vector loop, computed before it while the inputs
// are whole (out may alias the previous field).
template <class T, int R>
struct DensityConstants : sweep_rows::StepConstants<T, R> {
  using Base = sweep_rows::StepConstants<T, R>;
  using Base::c;
  using Base::m;
  using Base::sx;
  using Base::sy;
  using Base::w;
  T d[stagger_radius<R> + 1] = {};
  const T *s, *t, *bz, *by, *bx;

  explicit DensityConstants(const Problem<T>& p) : Base(p) {
    if (!p.density) throw std::logic_error("a density sweep on a problem without a density");
    const DensityFields& f = *p.density;
    s = f.s.template as<T>();
    t = f.t.template as<T>();
    bz = f.b[0].template as<T>();
    by = f.b[1].template as<T>();
    bx = f.b[2].template as<T>();
    for (int q = 1; q <= stagger_radius<R>; ++q) d[q] = static_cast<T>(f.stagger.at(static_cast<std::size_t>(q)));
  }
  DensityPoint<T> at(index_t idx) const { return {s + idx, t + idx, bz + idx, by + idx, bx + idx}; }

  // Inline in the rows' vector loops: a call per point keeps them scalar.
  template <bool Adjoint>
  [[gnu::always_inline]] T apply(index_t idx, const T* f) const {
    return density_apply<T, R, Adjoint>(w, d, at(idx), f + idx, sy, sx);
  }
  // The new value at depth k < top of the column at `col` (f, f_prev: the fields at the column's depth 0).
  template <bool Adjoint>
  T top_update(index_t col, const T* f, const T* f_prev, index_t k, T eta) const {
    const index_t idx = col + k;
    const DensityTopValue<T> v = density_top_apply<T, R, Adjoint>(w, d, at(idx), f + k, k, sy, sx);
    return density_top_update(c, f[k], f_prev[k], k, v, m[idx], eta);
  }
};

template <class T, int R, bool Adjoint>
void sweep(const Problem<T>& p, const T* u, const T* u_prev, T* out) {
  const DensityConstants<T, R> k(p);
  sweep_rows::for_each_row(k.g, sizeof(T), Adjoint ? 3 : 2, [&](index_t i, index_t j, index_t base) {
    const StepCoefficients<T> c = k.c;
    const index_t nz = k.nz;
    const T* up = u_prev + base;
    const T* mm = k.m + base;
    const T* kz = k.kz;
    T* o = out + base;
    const T kxi = k.kx[i], kyj = k.ky[j];
    // The free surface's rows first, while u_prev is whole (out may alias it).
    T top[R] = {};
    for (index_t z = 0; z < k.top; ++z)
      top[z] = k.template top_update<Adjoint>(base, u + base, up, z, damping_eta(c, kxi, kyj, kz[z]));
#pragma omp simd
    for (index_t z = 0; z < nz; ++z) {
      const T op = k.template apply<Adjoint>(base + z, u);
      o[z] = leapfrog_update(c, u[base + z], up[z], op, mm[z], damping_eta(c, kxi, kyj, kz[z]));
    }
    for (index_t z = 0; z < k.top; ++z) o[z] = top[z];
  });
}

template <class T, int R>
void reverse_sweep(const Problem<T>& p, const ReverseSweepFields<T>& f) {
  const DensityConstants<T, R> k(p);
  sweep_rows::for_each_row(k.g, sizeof(T), 4, [&](index_t i, index_t j, index_t base) {
    const StepCoefficients<T> c = k.c;
    const index_t nz = k.nz;
    const T* uc = f.u + base;
    const T* up = f.u_prev + base;
    const T* lc = f.lam + base;
    const T* lp = f.lam_prev + base;
    const T* mm = k.m + base;
    const T* kz = k.kz;
    T* lo = f.lam_out + base;
    T* gr = f.grad + base;
    const T kxi = k.kx[i], kyj = k.ky[j];
    // The free surface's rows first (lam_out may alias lam_prev): u[n+1] and lam[n+1] completed.
    struct {
      T lam, grad;
    } top[R] = {};
    for (index_t z = 0; z < k.top; ++z) {
      const T eta = damping_eta(c, kxi, kyj, kz[z]);
      const T u_next = k.template top_update<false>(base, uc, up, z, eta);
      const T lam = k.template top_update<true>(base, lc, lp, z, eta);
      top[z].lam = lam;
      top[z].grad = gr[z] + imaging_term(c, lam, u_next, uc[z], up[z]);
    }
#pragma omp simd
    for (index_t z = 0; z < nz; ++z) {
      const T eta = damping_eta(c, kxi, kyj, kz[z]);
      const T u_next = leapfrog_update(c, uc[z], up[z], k.template apply<false>(base + z, f.u), mm[z], eta);
      const T lam = leapfrog_update(c, lc[z], lp[z], k.template apply<true>(base + z, f.lam), mm[z], eta);
      gr[z] += imaging_term(c, lam, u_next, uc[z], up[z]);
      lo[z] = lam;
    }
    for (index_t z = 0; z < k.top; ++z) {
      lo[z] = top[z].lam;
      gr[z] = top[z].grad;
    }
  });
}

template <class T, int R>
void image_step(const Problem<T>& p, const T* u, const T* lam, T* image) {
  const DensityConstants<T, R> k(p);
  const Grid& g = k.g;
  const index_t n_z = g.padded(2), n_y = g.padded(1), n_x = g.padded(0);
  // One point's share; Mirrored: the rows within the free surface's mirror's reach (z < top);
  // Inner: a point at least RD from every end of every axis (density_image's Inner).
  const auto point = [&](index_t i, index_t j, index_t z, index_t idx, auto mirrored, auto inner)
      __attribute__((always_inline)) {
    constexpr bool Inner = decltype(inner)::value;
    const DensityPlace place{{z, j, i}, {n_z, n_y, n_x}, g.free_surface};
    const DensityTaps<T, false> tu{u + idx, k.s + idx, k.t + idx};
    const DensityTaps<T, true> tl{lam + idx, k.s + idx, k.t + idx};
    const DensityAxis<T, false> uy{tu, k.by + idx, k.sy}, ux{tu, k.bx + idx, k.sx};
    const DensityAxis<T, true> ly{tl, k.by + idx, k.sy}, lx{tl, k.bx + idx, k.sx};
    if constexpr (decltype(mirrored)::value) {
      const MirroredDensityZ<T, false> uz{tu, k.bz + idx, z};
      const MirroredDensityZ<T, true> lz{tl, k.bz + idx, z};
      return density_image<T, R, Inner>(k.w, k.d, k.s[idx], u[idx], lam[idx], uz, uy, ux, lz, ly, lx, place);
    } else {
      const DensityAxis<T, false> uz{tu, k.bz + idx, 1};
      const DensityAxis<T, true> lz{tl, k.bz + idx, 1};
      return density_image<T, R, Inner>(k.w, k.d, k.s[idx], u[idx], lam[idx], uz, uy, ux, lz, ly, lx, place);
    }
  };
  constexpr index_t rd = stagger_radius<R>;
  const std::false_type no;
  const std::true_type yes;
  sweep_rows::for_each_row(g, sizeof(T), 4, [&](index_t i, index_t j, index_t base) {
    const index_t top = std::min(k.top, n_z);
    for (index_t z = 0; z < top; ++z) image[base + z] += point(i, j, z, base + z, yes, no);
    // The row's inner z [z0, z1) when its x and y are inner too (never on a plane: ny is 1).
    const bool inner_row = i >= rd && i < n_x - rd && j >= rd && j < n_y - rd;
    const index_t z0 = inner_row ? std::min(n_z, std::max(top, rd)) : n_z;
    const index_t z1 = inner_row ? std::max(z0, n_z - rd) : n_z;
    for (index_t z = top; z < z0; ++z) image[base + z] += point(i, j, z, base + z, no, no);
#pragma omp simd
    for (index_t z = z0; z < z1; ++z) image[base + z] += point(i, j, z, base + z, no, yes);
    for (index_t z = z1; z < n_z; ++z) image[base + z] += point(i, j, z, base + z, no, no);
  });
}

}  // namespace

template <class T>
void density_forward_sweep(const Problem<T>& problem, const T* u, const T* u_prev, T* out) {
  dispatch_radius(problem.grid.radius(), [&](auto r) { sweep<T, decltype(r)::value, false>(problem, u, u_prev, out); });
}

template <class T>
void density_adjoint_sweep(const Problem<T>& problem, const T* lam, const T* lam_prev, T* out) {
  dispatch_radius(problem.grid.radius(),
                  [&](auto r) { sweep<T, decltype(r)::value, true>(problem, lam, lam_prev, out); });
}

template <class T>
void density_reverse_sweep(const Problem<T>& problem, const ReverseSweepFields<T>& fields) {
  if (fields.hook != nullptr) throw std::logic_error("density_reverse_sweep: the density's sweep takes no row hook");
  dispatch_radius(problem.grid.radius(), [&](auto r) { reverse_sweep<T, decltype(r)::value>(problem, fields); });
}

template <class T>
void density_image_step(const Problem<T>& problem, const T* u, const T* lam, T* image) {
  dispatch_radius(problem.grid.radius(), [&](auto r) { image_step<T, decltype(r)::value>(problem, u, lam, image); });
}

template <class T>
void density_next_at(const Problem<T>& problem, const T* u, const T* u_prev, const index_t* index, std::size_t count,
                     T* out) {
  dispatch_radius(problem.grid.radius(), [&](auto r) {
    constexpr int R = decltype(r)::value;
    const DensityConstants<T, R> k(problem);
    sweep_rows::for_each_point(count, 1024, [&](std::size_t q) {
      const index_t idx = index[q];
      const auto [i, j, z] = k.g.coordinates(idx);
      const T eta = damping_eta(k.c, k.kx[i], k.ky[j], k.kz[z]);
      if (z < k.top) {
        out[q] = k.template top_update<false>(idx - z, u + (idx - z), u_prev + (idx - z), z, eta);
      } else {
        out[q] = leapfrog_update(k.c, u[idx], u_prev[idx], k.template apply<false>(idx, u), k.m[idx], eta);
      }
    });
  });
}

#define REVWAVE_INSTANTIATE(T)                                                                              \
  template void density_forward_sweep<T>(const Problem<T>&, const T*, const T*, T*);                        \
  template void density_adjoint_sweep<T>(const Problem<T>&, const T*, const T*, T*);                        \
  template void density_reverse_sweep<T>(const Problem<T>&, const ReverseSweepFields<T>&);                  \
  template void density_next_at<T>(const Problem<T>&, const T*, const T*, const index_t*, std::size_t, T*); \
  template void density_image_step<T>(const Problem<T>&, const T*, const T*, T*);
REVWAVE_INSTANTIATE(float)
REVWAVE_INSTANTIATE(double)
#undef REVWAVE_INSTANTIATE

}  // namespace revwave
