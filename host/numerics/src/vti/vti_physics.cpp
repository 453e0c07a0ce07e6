#include "revwave/numerics/vti/vti_physics.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "../sweep_rows.hpp"
#include "revwave/numerics/boundary/free_surface.hpp"
#include "revwave/numerics/fd_coefficients.hpp"
#include "revwave/numerics/vti/point_formulas.hpp"

namespace revwave {
namespace {

// What every VTI sweep reads besides its fields.
template <class T, int R>
struct VtiConstants : sweep_rows::StepConstants<T, R> {
  using Base = sweep_rows::StepConstants<T, R>;
  using Base::c;
  using Base::g;
  using Base::m;
  using Base::sx;
  using Base::sy;
  using Base::top;
  using Base::w;
  index_t f;  // d's offset in a field (Grid::extra_offset)
  VtiWeights<T> cw;
  const T *c1, *c2;

  explicit VtiConstants(const Problem<T>& p)
      : Base(p), f(p.grid.extra_offset()), c1(p.vti->c1.template as<T>()), c2(p.vti->c2.template as<T>()) {
    const double c0 = second_derivative_weights(p.grid.space_order)[0] / (p.grid.spacing * p.grid.spacing);
    cw = {static_cast<T>(2.0 * c0), static_cast<T>(c0)};
  }
  // The forward pair's new values at allocated index idx (padded (i, j, k)).
  VtiPair<T> next(const T* u, const T* up, index_t idx, T eta) const {
    const VtiPair<T> op = vti_operator<T, R>(w, cw, u + idx, u + f + idx, sy, sx, c1[idx], c2[idx]);
    return {leapfrog_update(c, u[idx], up[idx], op.p, m[idx], eta),
            leapfrog_update(c, u[f + idx], up[f + idx], op.d, m[idx], eta)};
  }
  // The free surface's completion of row k < top of the column through idx (boundary/free_surface.hpp):
  // the z parts of the pair's rows are (1 + C2)(Hz p - Hz d) and C2 (Hz p - Hz d), so the mirror's
  // shares are those of p's column less d's, weighted so, over the update's divisor; 0 on the plane.
  VtiPair<T> surface(const T* u, index_t idx, index_t k, VtiPair<T> v, T eta) const {
    if (k == 0) return {T(0), T(0)};
    const T mirror = free_surface_mirror<T, R>(w, u + idx - k, k) - free_surface_mirror<T, R>(w, u + f + idx - k, k);
    const T a = leapfrog_a(c, m[idx], eta);
    return {v.p + ((T(1) + c2[idx]) * mirror) / a, v.d + (c2[idx] * mirror) / a};
  }
  // The transpose's: its z parts are Hz lp + Hz g2 and -Hz g3.
  VtiPair<T> adjoint_surface(const T* lam, const T* const* g3, index_t idx, index_t k, VtiPair<T> v, T eta) const {
    if (k == 0) return {T(0), T(0)};
    const index_t col = idx - k;
    const T a = leapfrog_a(c, m[idx], eta);
    return {v.p + (free_surface_mirror<T, R>(w, lam + col, k) + free_surface_mirror<T, R>(w, g3[1] + col, k)) / a,
            v.d + -free_surface_mirror<T, R>(w, g3[2] + col, k) / a};
  }
  // The forward pair's new values at idx, the free surface's rows completed.
  VtiPair<T> next_completed(const T* u, const T* up, index_t idx, index_t k, T eta) const {
    const VtiPair<T> v = next(u, up, idx, eta);
    return k < top ? surface(u, idx, k, v, eta) : v;
  }
  // The adjoint pair's new values at idx from the combinations g.
  VtiPair<T> adjoint_next(const T* lam, const T* lp, const T* const* g3, index_t idx, T eta) const {
    const VtiPair<T> op = vti_adjoint_operator<T, R>(w, cw, lam + idx, g3[0] + idx, g3[1] + idx, g3[2] + idx, sy, sx);
    return {leapfrog_update(c, lam[idx], lp[idx], op.p, m[idx], eta),
            leapfrog_update(c, lam[f + idx], lp[f + idx], op.d, m[idx], eta)};
  }
};

template <class T, int R>
void forward(const Problem<T>& p, const T* u, const T* up, T* out) {
  const VtiConstants<T, R> s(p);
  sweep_rows::for_each_row(s.g, sizeof(T), 2, [&](index_t i, index_t j, index_t base) {
    const VtiConstants<T, R> r = s;  // a local copy: its values are no stores' aliases, so the loop vectorises
    const index_t f = r.f, nz = r.nz;
#pragma omp simd
    for (index_t k = 0; k < nz; ++k) {
      const VtiPair<T> v = r.next(u, up, base + k, r.eta(i, j, k));
      out[base + k] = v.p;
      out[f + base + k] = v.d;
    }
    // The free surface's rows: the sweep's values completed (in place: u_prev there is read already).
    for (index_t k = 0; k < r.top; ++k) {
      const VtiPair<T> v = r.surface(u, base + k, k, {out[base + k], out[f + base + k]}, r.eta(i, j, k));
      out[base + k] = v.p;
      out[f + base + k] = v.d;
    }
  });
}

template <class T, int R>
void adjoint(const Problem<T>& p, const T* lam, const T* lp, const std::array<const T*, 3>& g, T* out) {
  const VtiConstants<T, R> s(p);
  const T* const gs[3] = {g[0], g[1], g[2]};  // local: the vector loop reads them through no store's alias
  sweep_rows::for_each_row(s.g, sizeof(T), 4, [&](index_t i, index_t j, index_t base) {
    const VtiConstants<T, R> r = s;  // as forward's
    const index_t f = r.f, nz = r.nz;
#pragma omp simd
    for (index_t k = 0; k < nz; ++k) {
      const VtiPair<T> v = r.adjoint_next(lam, lp, gs, base + k, r.eta(i, j, k));
      out[base + k] = v.p;
      out[f + base + k] = v.d;
    }
    for (index_t k = 0; k < r.top; ++k) {
      const VtiPair<T> v = r.adjoint_surface(lam, gs, base + k, k, {out[base + k], out[f + base + k]}, r.eta(i, j, k));
      out[base + k] = v.p;
      out[f + base + k] = v.d;
    }
  });
}

template <class T, int R>
void reverse(const Problem<T>& p, const ReverseStepView<T>& v, const std::array<const T*, 3>& g) {
  const VtiConstants<T, R> s(p);
  // Every pointer a local: the vector loop then reads no pointer through another it writes.
  const T *u = v.u, *up = v.u_prev, *lam = v.lam, *lp = v.lam_prev;
  const T* const gs[3] = {g[0], g[1], g[2]};
  T* lo = v.lam_out;
  T* gr = v.grad;
  sweep_rows::for_each_row(s.g, sizeof(T), 6, [&](index_t i, index_t j, index_t base) {
    const VtiConstants<T, R> r = s;  // as forward's
    const index_t f = r.f, nz = r.nz;
    const StepCoefficients<T> c = r.c;
    T saved[R] = {};  // the gradient at the free surface's rows, imaged again below
    for (index_t k = 0; k < r.top; ++k) saved[k] = gr[base + k];
#pragma omp simd
    for (index_t k = 0; k < nz; ++k) {
      const index_t idx = base + k;
      const T eta = r.eta(i, j, k);
      const VtiPair<T> next = r.next(u, up, idx, eta);
      const VtiPair<T> adj = r.adjoint_next(lam, lp, gs, idx, eta);
      gr[idx] +=
          imaging_term(c, adj.p, next.p, u[idx], up[idx]) + imaging_term(c, adj.d, next.d, u[f + idx], up[f + idx]);
      lo[idx] = adj.p;
      lo[f + idx] = adj.d;
    }
    // The free surface's rows, after the vector loop: both pairs completed, imaged again from the
    // gradient saved before the sweep.
    for (index_t k = 0; k < r.top; ++k) {
      const index_t idx = base + k;
      const T eta = r.eta(i, j, k);
      const VtiPair<T> next = r.next_completed(u, up, idx, k, eta);
      const VtiPair<T> adj = r.adjoint_surface(lam, gs, idx, k, {lo[idx], lo[f + idx]}, eta);
      gr[idx] = saved[k] + (imaging_term(c, adj.p, next.p, u[idx], up[idx]) +
                            imaging_term(c, adj.d, next.d, u[f + idx], up[f + idx]));
      lo[idx] = adj.p;
      lo[f + idx] = adj.d;
    }
  });
}

}  // namespace

template <class T>
VtiCpuPhysics<T>::VtiCpuPhysics(const Problem<T>& problem) : p_(problem) {
  if (!p_.vti) throw std::logic_error("the VTI physics on a problem without epsilon and delta");
  if (p_.grid.extra_fields != 1) throw std::logic_error("the VTI physics on a grid whose fields carry no second field");
  if (p_.cpml || p_.density) throw std::logic_error("the VTI physics with a C-PML or a density");
}

template <class T>
bool VtiCpuPhysics<T>::retarget() {
  return p_.vti.has_value() && p_.grid.extra_fields == 1;
}

template <class T>
void VtiCpuPhysics<T>::forward_sweep(const T* u, const T* u_prev, T* out) {
  dispatch_radius(p_.grid.radius(), [&](auto r) { forward<T, decltype(r)::value>(p_, u, u_prev, out); });
}

template <class T>
std::array<const T*, 3> VtiCpuPhysics<T>::combine(const T* lam) {
  const Grid& g = p_.grid;
  const std::size_t bytes = static_cast<std::size_t>(g.alloc_points()) * sizeof(T);
  for (HostBuffer& b : g_)
    if (b.bytes() < bytes) b = HostBuffer(bytes);
  const T* c1 = p_.vti->c1.template as<T>();
  const T* c2 = p_.vti->c2.template as<T>();
  const index_t f = g.extra_offset(), plane = g.stride_x();
  T *g1 = g_[0].template as<T>(), *g2 = g_[1].template as<T>(), *g3 = g_[2].template as<T>();
#pragma omp parallel for schedule(static)
  for (index_t i = 0; i < g.alloc(0); ++i) {
    const sweep_rows::FlushSubnormals flush;
#pragma omp simd
    for (index_t idx = i * plane; idx < (i + 1) * plane; ++idx)
      vti_adjoint_combinations(lam[idx], lam[f + idx], c1[idx], c2[idx], g1[idx], g2[idx], g3[idx]);
  }
  return {g1, g2, g3};
}

template <class T>
void VtiCpuPhysics<T>::adjoint_sweep(const T* lam, const T* lam_prev, T* out) {
  const std::array<const T*, 3> g = combine(lam);
  dispatch_radius(p_.grid.radius(), [&](auto r) { adjoint<T, decltype(r)::value>(p_, lam, lam_prev, g, out); });
}

template <class T>
void VtiCpuPhysics<T>::next_at(const T* u, const T* u_prev, const index_t* index, std::size_t count, T* out) {
  dispatch_radius(p_.grid.radius(), [&](auto r) {
    const VtiConstants<T, decltype(r)::value> s(p_);
    sweep_rows::for_each_point(count, 1024, [&](std::size_t q) {
      const index_t idx = index[q];
      const auto [i, j, k] = s.g.coordinates(idx);
      out[q] = s.next_completed(u, u_prev, idx, k, s.eta(i, j, k)).p;
    });
  });
}

template <class T>
void VtiCpuPhysics<T>::reverse_sweep(const ReverseStepView<T>& v) {
  const std::array<const T*, 3> g = combine(v.lam);
  dispatch_radius(p_.grid.radius(), [&](auto r) { reverse<T, decltype(r)::value>(p_, v, g); });
}

// The propagator imaged p's share again at the sources' points (its u[n+1] has the source term);
// d's, which the sweep added there too, is added again, the same formula.
template <class T>
void VtiCpuPhysics<T>::after_adjoint_source(const ReverseStepView<T>& v) {
  if (v.probes == nullptr) return;
  dispatch_radius(p_.grid.radius(), [&](auto r) {
    const VtiConstants<T, decltype(r)::value> s(p_);
    const sweep_rows::FlushSubnormals flush;
    const index_t f = s.f;
    for (index_t t : v.probes->source_targets) {
      const index_t idx = v.probes->index[static_cast<std::size_t>(t)];
      const auto [i, j, k] = s.g.coordinates(idx);
      const T d_next = s.next_completed(v.u, v.u_prev, idx, k, s.eta(i, j, k)).d;
      v.grad[idx] += imaging_term(s.c, v.lam_out[f + idx], d_next, v.u[f + idx], v.u_prev[f + idx]);
    }
  });
}

template class VtiCpuPhysics<float>;
template class VtiCpuPhysics<double>;

}  // namespace revwave
