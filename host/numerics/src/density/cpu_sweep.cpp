#include "revwave/numerics/density/cpu_sweep.hpp"

#include <stdexcept>

#include "../sweep_rows.hpp"
#include "revwave/numerics/density/point_formulas.hpp"

namespace revwave {
namespace {

// What every density sweep reads besides its fields.
template <class T, int R>
struct DensityConstants {
  const Grid& g;
  index_t nz, sx, sy;
  StepCoefficients<T> c;
  T w[R + 1];
  const T *kx, *ky, *kz, *m, *s, *t;

  explicit DensityConstants(const Problem<T>& p)
      : g(p.grid),
        nz(g.padded(2)),
        sx(g.stride_x()),
        sy(g.stride_y()),
        c(p.coeffs),
        kx(p.kappa[0].data()),
        ky(p.kappa[1].data()),
        kz(p.kappa[2].data()),
        m(p.m.template as<T>()) {
    if (!p.density) throw std::logic_error("a density sweep on a problem without a density");
    s = p.density->s.template as<T>();
    t = p.density->t.template as<T>();
    for (int q = 0; q <= R; ++q) w[q] = p.weights[static_cast<std::size_t>(q)];
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
#pragma omp simd
    for (index_t z = 0; z < nz; ++z) {
      T op;
      if constexpr (Adjoint)
        op = density_adjoint_operator<T, R, false>(w, ss + z, tt + z, uc + z, sy, sx).value;
      else
        op = density_operator<T, R>(w, ss + z, tt[z], uc + z, sy, sx);
      o[z] = leapfrog_update(c, uc[z], up[z], op, mm[z], damping_eta(c, kxi, kyj, kz[z]));
    }
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
      const T k_u = density_operator<T, R>(k.w, k.s + idx, k.t[idx], u + idx, k.sy, k.sx);
      out[q] = leapfrog_update(k.c, u[idx], u_prev[idx], k_u, k.m[idx], damping_eta(k.c, k.kx[i], k.ky[j], k.kz[z]));
    });
  });
}

template <class T>
void density_operator_at(const Problem<T>& problem, const T* u, const index_t* index, std::size_t count, T* out) {
  dispatch_radius(problem.grid.radius(), [&](auto r) {
    constexpr int R = decltype(r)::value;
    at_points<T, R>(problem, index, count, [&](const DensityConstants<T, R>& k, index_t idx, std::int64_t q) {
      out[q] = density_operator<T, R>(k.w, k.s + idx, k.t[idx], u + idx, k.sy, k.sx);
    });
  });
}

template <class T>
void density_y_at(const Problem<T>& problem, const T* lam, const index_t* index, std::size_t count, T* out) {
  dispatch_radius(problem.grid.radius(), [&](auto r) {
    constexpr int R = decltype(r)::value;
    at_points<T, R>(problem, index, count, [&](const DensityConstants<T, R>& k, index_t idx, std::int64_t q) {
      out[q] = density_adjoint_operator<T, R, true>(k.w, k.s + idx, k.t + idx, lam + idx, k.sy, k.sx).y;
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
