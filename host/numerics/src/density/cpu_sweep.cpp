#include "revwave/numerics/density/cpu_sweep.hpp"

#include <algorithm>
#include <stdexcept>

#include "../sweep_rows.hpp"
#include "revwave/numerics/density/point_formulas.hpp"
#include "revwave/numerics/density/surface_formulas.hpp"

namespace revwave {
namespace {

// What every density sweep reads besides its fields.
//
// With a free surface the top `top` rows of every column (depth k < R) read their z pairs from the
// column mirrored across z = 0 (boundary/free_surface.hpp): u and lam odd, s and t even. That is K
// and K^T of the odd extension, restricted to the points below the plane, and K_eff = diag(t^2)
// S_eff with S_eff symmetric, so the adjoint stays the transpose (docs/physics/density.md). The
// Laplacian part reads the row gap's zeros, as the constant-density sweeps do, and
// free_surface_value adds its mirror share: a constant density gives their bits.
template <class T, int R>
struct DensityConstants {
  const Grid& g;
  index_t nz, sx, sy;
  StepCoefficients<T> c;
  T w[R + 1];
  const T *kx, *ky, *kz, *m, *s, *t;
  index_t top;  // the free surface's rows at the start of each column; 0 without

  explicit DensityConstants(const Problem<T>& p)
      : g(p.grid),
        nz(g.padded(2)),
        sx(g.stride_x()),
        sy(g.stride_y()),
        c(p.coeffs),
        kx(p.kappa[0].data()),
        ky(p.kappa[1].data()),
        kz(p.kappa[2].data()),
        m(p.m.template as<T>()),
        top(g.free_surface ? std::min<index_t>(R, nz) : 0) {
    if (!p.density) throw std::logic_error("a density sweep on a problem without a density");
    s = p.density->s.template as<T>();
    t = p.density->t.template as<T>();
    for (int q = 0; q <= R; ++q) w[q] = p.weights[static_cast<std::size_t>(q)];
  }

  // At depth k < top of the column starting at linear index col (u: that column's field), the
  // point formulas of density/surface_formulas.hpp: K u as the sweep computes it ...
  T top_operator(index_t col, const T* u, index_t k) const {
    return density_top_operator<T, R>(w, s, t, col, u, k, sy, sx);
  }
  // ... the whole (K_eff u)_k, what dJ/drho images ...
  T top_full_operator(index_t col, const T* u, index_t k) const {
    return density_top_full_operator<T, R>(w, s, t, col, u, k, sy, sx);
  }
  // ... and K^T lam with y(lam).
  template <bool WithY>
  DensityAdjoint<T> top_adjoint(index_t col, const T* l, index_t k) const {
    return density_top_adjoint<T, R, WithY>(w, s, t, col, l, k, sy, sx);
  }
  // The new value at depth k < top from the column's current and previous values and its operator.
  T top_update(const T* column, const T* previous, index_t k, T op, T mk, T eta) const {
    return density_top_update<T, R>(c, w, column, previous, k, op, mk, eta);
  }
};

template <class T, int R, bool Adjoint>
void sweep(const Problem<T>& p, const T* u, const T* u_prev, T* out) {
  const DensityConstants<T, R> k(p);
  sweep_rows::for_each_row(k.g, sizeof(T), Adjoint ? 3 : 2, [&](index_t i, index_t j, index_t base) {
    const StepCoefficients<T> c = k.c;
    const T* w = k.w;
    const index_t sx = k.sx, sy = k.sy, nz = k.nz;
    const T* uc = u + base;
    const T* up = u_prev + base;
    const T* mm = k.m + base;
    const T* ss = k.s + base;
    const T* tt = k.t + base;
    const T* kz = k.kz;
    T* o = out + base;
    const T kxi = k.kx[i], kyj = k.ky[j];
    // The free surface's rows first, while u_prev is whole (out may alias it).
    T top[R] = {};
    for (index_t z = 0; z < k.top; ++z) {
      const T op = Adjoint ? k.template top_adjoint<false>(base, uc, z).value : k.top_operator(base, uc, z);
      top[z] = k.top_update(uc, up, z, op, mm[z], damping_eta(c, kxi, kyj, kz[z]));
    }
#pragma omp simd
    for (index_t z = 0; z < nz; ++z) {
      T op;
      if constexpr (Adjoint)
        op = density_adjoint_operator<T, R, false>(w, ss + z, tt + z, uc + z, sy, sx).value;
      else
        op = density_operator<T, R>(w, ss + z, tt[z], uc + z, sy, sx);
      o[z] = leapfrog_update(c, uc[z], up[z], op, mm[z], damping_eta(c, kxi, kyj, kz[z]));
    }
    for (index_t z = 0; z < k.top; ++z) o[z] = top[z];
  });
}

template <class T, int R, bool Image>
void reverse_sweep(const Problem<T>& p, const DensityReverseFields<T>& f) {
  const DensityConstants<T, R> k(p);
  sweep_rows::for_each_row(k.g, sizeof(T), 4, [&](index_t i, index_t j, index_t base) {
    const StepCoefficients<T> c = k.c;
    const T* w = k.w;
    const index_t sx = k.sx, sy = k.sy, nz = k.nz;
    const T* uc = f.u + base;
    const T* up = f.u_prev + base;
    const T* lc = f.lam + base;
    const T* lp = f.lam_prev + base;
    const T* mm = k.m + base;
    const T* ss = k.s + base;
    const T* tt = k.t + base;
    const T* kz = k.kz;
    T* lo = f.lam_out + base;
    T* gr = f.grad + base;
    T* ig = Image ? f.image_g + base : nullptr;
    T* iq = Image ? f.image_q + base : nullptr;
    const T kxi = k.kx[i], kyj = k.ky[j];
    // The free surface's rows first (lam_out may alias lam_prev): u[n+1] and lam[n+1] completed,
    // imaged from the accumulators' values before the sweep.
    struct {
      T lam, grad, g, q;
    } top[R] = {};
    for (index_t z = 0; z < k.top; ++z) {
      const T eta = damping_eta(c, kxi, kyj, kz[z]);
      const T k_u = k.top_operator(base, uc, z);
      const T u_next = k.top_update(uc, up, z, k_u, mm[z], eta);
      const DensityAdjoint<T> adj = k.template top_adjoint<Image>(base, lc, z);
      const T lam = k.top_update(lc, lp, z, adj.value, mm[z], eta);
      top[z].lam = lam;
      top[z].grad = gr[z] + imaging_term(c, lam, u_next, uc[z], up[z]);
      if constexpr (Image) {
        top[z].g = ig[z] + density_image_g(lam, k_u + free_surface_mirror<T, R>(w, uc, z), ss[z], u_next, adj.y);
        top[z].q = iq[z] + density_image_q(lam, uc[z]);
      }
    }
#pragma omp simd
    for (index_t z = 0; z < nz; ++z) {
      const T eta = damping_eta(c, kxi, kyj, kz[z]);
      const T k_u = density_operator<T, R>(w, ss + z, tt[z], uc + z, sy, sx);
      const T u_next = leapfrog_update(c, uc[z], up[z], k_u, mm[z], eta);
      const DensityAdjoint<T> adj = density_adjoint_operator<T, R, Image>(w, ss + z, tt + z, lc + z, sy, sx);
      const T lam = leapfrog_update(c, lc[z], lp[z], adj.value, mm[z], eta);
      gr[z] += imaging_term(c, lam, u_next, uc[z], up[z]);
      if constexpr (Image) {
        ig[z] += density_image_g(lam, k_u, ss[z], u_next, adj.y);
        iq[z] += density_image_q(lam, uc[z]);
      }
      lo[z] = lam;
    }
    for (index_t z = 0; z < k.top; ++z) {
      lo[z] = top[z].lam;
      gr[z] = top[z].grad;
      if constexpr (Image) {
        ig[z] = top[z].g;
        iq[z] = top[z].q;
      }
    }
  });
}

// op(k, idx, q) at each of `count` indices, on all threads when there are many, subnormals flushed.
template <class T, int R, class Op>
void at_points(const Problem<T>& p, const index_t* index, std::size_t count, Op&& op) {
  const DensityConstants<T, R> k(p);
  const auto n = static_cast<std::int64_t>(count);
#pragma omp parallel if (n > 1024)
  {
    const sweep_rows::FlushSubnormals flush;
#pragma omp for schedule(static)
    for (std::int64_t q = 0; q < n; ++q) op(k, index[q], q);
  }
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
void density_reverse_sweep(const Problem<T>& problem, const DensityReverseFields<T>& fields) {
  dispatch_radius(problem.grid.radius(), [&](auto r) {
    if (fields.image_g != nullptr)
      reverse_sweep<T, decltype(r)::value, true>(problem, fields);
    else
      reverse_sweep<T, decltype(r)::value, false>(problem, fields);
  });
}

template <class T>
void density_next_at(const Problem<T>& problem, const T* u, const T* u_prev, const index_t* index, std::size_t count,
                     T* out) {
  dispatch_radius(problem.grid.radius(), [&](auto r) {
    constexpr int R = decltype(r)::value;
    at_points<T, R>(problem, index, count, [&](const DensityConstants<T, R>& k, index_t idx, std::int64_t q) {
      const auto [i, j, z] = k.g.coordinates(idx);
      const T eta = damping_eta(k.c, k.kx[i], k.ky[j], k.kz[z]);
      if (z < k.top) {
        const index_t col = idx - z;
        out[q] = k.top_update(u + col, u_prev + col, z, k.top_operator(col, u + col, z), k.m[idx], eta);
        return;
      }
      const T k_u = density_operator<T, R>(k.w, k.s + idx, k.t[idx], u + idx, k.sy, k.sx);
      out[q] = leapfrog_update(k.c, u[idx], u_prev[idx], k_u, k.m[idx], eta);
    });
  });
}

template <class T>
void density_operator_at(const Problem<T>& problem, const T* u, const index_t* index, std::size_t count, T* out) {
  dispatch_radius(problem.grid.radius(), [&](auto r) {
    constexpr int R = decltype(r)::value;
    at_points<T, R>(problem, index, count, [&](const DensityConstants<T, R>& k, index_t idx, std::int64_t q) {
      const index_t z = k.g.coordinates(idx)[2];
      out[q] = z < k.top ? k.top_full_operator(idx - z, u + (idx - z), z)
                         : density_operator<T, R>(k.w, k.s + idx, k.t[idx], u + idx, k.sy, k.sx);
    });
  });
}

template <class T>
void density_y_at(const Problem<T>& problem, const T* lam, const index_t* index, std::size_t count, T* out) {
  dispatch_radius(problem.grid.radius(), [&](auto r) {
    constexpr int R = decltype(r)::value;
    at_points<T, R>(problem, index, count, [&](const DensityConstants<T, R>& k, index_t idx, std::int64_t q) {
      const index_t z = k.g.coordinates(idx)[2];
      out[q] = z < k.top ? k.template top_adjoint<true>(idx - z, lam + (idx - z), z).y
                         : density_adjoint_operator<T, R, true>(k.w, k.s + idx, k.t + idx, lam + idx, k.sy, k.sx).y;
    });
  });
}

#define REVWAVE_INSTANTIATE(T)                                                                              \
  template void density_forward_sweep<T>(const Problem<T>&, const T*, const T*, T*);                        \
  template void density_adjoint_sweep<T>(const Problem<T>&, const T*, const T*, T*);                        \
  template void density_reverse_sweep<T>(const Problem<T>&, const DensityReverseFields<T>&);                \
  template void density_next_at<T>(const Problem<T>&, const T*, const T*, const index_t*, std::size_t, T*); \
  template void density_operator_at<T>(const Problem<T>&, const T*, const index_t*, std::size_t, T*);       \
  template void density_y_at<T>(const Problem<T>&, const T*, const index_t*, std::size_t, T*);
REVWAVE_INSTANTIATE(float)
REVWAVE_INSTANTIATE(double)
#undef REVWAVE_INSTANTIATE

}  // namespace revwave
