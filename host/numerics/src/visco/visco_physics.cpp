#include "revwave/numerics/visco/visco_physics.hpp"

#include <stdexcept>

#include "../sweep_rows.hpp"
#include "revwave/numerics/boundary/free_surface.hpp"
#include "revwave/numerics/visco/point_formulas.hpp"

namespace revwave {
namespace {

constexpr int V = visco_mechanisms;
static_assert(V == sls_mechanisms, "the point formulas and the model fit the same mechanisms");

// What every visco-acoustic sweep reads besides its fields.
template <class T, int R>
struct ViscoConstants : sweep_rows::StepConstants<T, R> {
  using Base = sweep_rows::StepConstants<T, R>;
  using Base::c;
  using Base::m;
  using Base::sx;
  using Base::sy;
  using Base::w;
  index_t f;      // the memory variables' offset in a field (Grid::extra_offset), three per point
  const T* coef;  // the grids e1, e2, beta_1..3, cs apart (visco_model.hpp)
  index_t cs;
  ViscoTriple<T> alpha;

  explicit ViscoConstants(const Problem<T>& p)
      : Base(p),
        f(p.grid.extra_offset()),
        coef(p.visco->coefficients.template as<T>()),
        cs(coefficient_stride(p.grid)),
        alpha{static_cast<T>(p.visco->alpha[0]), static_cast<T>(p.visco->alpha[1]), static_cast<T>(p.visco->alpha[2])} {
  }
  // (Every member inlined: the sweeps' vector loops call them per point.)
  // The memory variables (or their adjoints) of field x at idx, side by side in its tail (one
  // stream, as the coefficients are), and their store.
  [[gnu::always_inline]] ViscoTriple<T> memory(const T* x, index_t idx) const {
    const T* r = x + f + 3 * idx;
    return {r[0], r[1], r[2]};
  }
  [[gnu::always_inline]] void store(T* x, index_t idx, ViscoTriple<T> r) const {
    T* out = x + f + 3 * idx;
    out[0] = r.a;
    out[1] = r.b;
    out[2] = r.c;
  }
  // Coefficient q (0: e1, 1: e2, 2..4: beta) at idx.
  [[gnu::always_inline]] T at(int q, index_t idx) const { return coef[q * cs + idx]; }
  // L u at idx; on the free surface's rows (k < top) completed by the mirror, 0 on the plane, whose
  // rows apply no operator (boundary/free_surface.hpp).
  [[gnu::always_inline]] T lap(const T* u, index_t idx) const { return laplacian<T, R>(w, u + idx, sy, sx); }
  [[gnu::always_inline]] T surface_lap(const T* u, index_t idx, index_t k) const {
    return k == 0 ? T(0) : lap(u, idx) + free_surface_mirror<T, R>(w, u + idx - k, k);
  }
  // The new u at idx from its Laplacian l there, the new memory variables into rn.
  [[gnu::always_inline]] T next(const T* u, const T* up, index_t idx, T l, T eta, ViscoTriple<T>& rn) const {
    const T op =
        visco_operator<T>(l, memory(u, idx), at(0, idx), at(1, idx), alpha, {at(2, idx), at(3, idx), at(4, idx)}, rn);
    return leapfrog_update(c, u[idx], up[idx], op, m[idx], eta);
  }
  // The same on a free surface's row k < top: the plane's u is 0 and its memory variables decay.
  [[gnu::always_inline]] T next_surface(const T* u, const T* up, index_t idx, index_t k, T eta,
                                        ViscoTriple<T>& rn) const {
    const T v = next(u, up, idx, surface_lap(u, idx, k), eta, rn);
    return k == 0 ? T(0) : v;
  }
  [[gnu::always_inline]] T next_completed(const T* u, const T* up, index_t idx, index_t k, T eta,
                                          ViscoTriple<T>& rn) const {
    return k < this->top ? next_surface(u, up, idx, k, eta, rn) : next(u, up, idx, lap(u, idx), eta, rn);
  }
  // The adjoint field's new value at idx from g's Laplacian there (lap_g), its memory variables' into rn.
  [[gnu::always_inline]] T adjoint_next(const T* lam, const T* lp, index_t idx, T lap_g, T eta,
                                        ViscoTriple<T>& rn) const {
    rn = visco_adjoint_memory<T>(lam[idx], memory(lam, idx), at(1, idx), alpha);
    return leapfrog_update(c, lam[idx], lp[idx], lap_g, m[idx], eta);
  }
  // The same on a free surface's row k < top from the combination gc: 0 on the plane, where no
  // row reads lam (its u row is u = 0), so the memory variables only decay.
  [[gnu::always_inline]] T adjoint_surface(const T* lam, const T* lp, const T* gc, index_t idx, index_t k, T eta,
                                           ViscoTriple<T>& rn) const {
    if (k != 0)
      return adjoint_next(lam, lp, idx, lap(gc, idx) + free_surface_mirror<T, R>(w, gc + idx - k, k), eta, rn);
    const ViscoTriple<T> rho = memory(lam, idx);
    rn = {alpha.a * rho.a, alpha.b * rho.b, alpha.c * rho.c};
    return T(0);
  }
};

template <class T, int R>
void forward(const Problem<T>& p, const T* u, const T* up, T* out) {
  const ViscoConstants<T, R> s(p);
  sweep_rows::for_each_row(s.g, sizeof(T), 1, [&](index_t i, index_t j, index_t base) {
    const ViscoConstants<T, R> r = s;  // a local copy: its values are no stores' aliases, so the loop vectorises
    const index_t nz = r.nz;
    // The free surface's rows first, completed: out may alias up, which every point reads at itself only.
    for (index_t k = 0; k < r.top; ++k) {
      ViscoTriple<T> rn;
      out[base + k] = r.next_surface(u, up, base + k, k, r.eta(i, j, k), rn);
      r.store(out, base + k, rn);
    }
    // The row's pointers and constants as locals, the formulas of next() written out: GCC
    // vectorises the loop over k only when it sees every load's base invariant.
    const T *uc = u + base, *pc = up + base, *mm = r.m + base, *kz = r.kz, *w = r.w;
    const T *e1 = r.coef + base, *e2 = e1 + r.cs, *b1 = e2 + r.cs, *b2 = b1 + r.cs, *b3 = b2 + r.cs;
    const T* ru = u + r.f + 3 * base;
    T* o = out + base;
    T* ro = out + r.f + 3 * base;
    const T kxi = r.kx[i], kyj = r.ky[j];
    const StepCoefficients<T> c = r.c;
    const ViscoTriple<T> alpha = r.alpha;
    const index_t sy = r.sy, sx = r.sx;
#pragma omp simd
    for (index_t k = r.top; k < nz; ++k) {
      ViscoTriple<T> rn;
      const T op = visco_operator<T>(laplacian<T, R>(w, uc + k, sy, sx), {ru[3 * k], ru[3 * k + 1], ru[3 * k + 2]},
                                     e1[k], e2[k], alpha, {b1[k], b2[k], b3[k]}, rn);
      o[k] = leapfrog_update(c, uc[k], pc[k], op, mm[k], damping_eta(c, kxi, kyj, kz[k]));
      ro[3 * k] = rn.a;
      ro[3 * k + 1] = rn.b;
      ro[3 * k + 2] = rn.c;
    }
  });
}

template <class T, int R>
void adjoint(const Problem<T>& p, const T* lam, const T* lp, const T* g, T* out) {
  const ViscoConstants<T, R> s(p);
  sweep_rows::for_each_row(s.g, sizeof(T), 1, [&](index_t i, index_t j, index_t base) {
    const ViscoConstants<T, R> r = s;  // as forward's
    const index_t nz = r.nz;
    for (index_t k = 0; k < r.top; ++k) {  // as forward's
      ViscoTriple<T> rn;
      out[base + k] = r.adjoint_surface(lam, lp, g, base + k, k, r.eta(i, j, k), rn);
      r.store(out, base + k, rn);
    }
    // As forward's vector loop: locals, adjoint_next() written out.
    const T *lc = lam + base, *lpc = lp + base, *gc = g + base, *mm = r.m + base, *kz = r.kz, *w = r.w;
    const T* e2 = r.coef + r.cs + base;
    const T* rl = lam + r.f + 3 * base;
    T* o = out + base;
    T* ro = out + r.f + 3 * base;
    const T kxi = r.kx[i], kyj = r.ky[j];
    const StepCoefficients<T> c = r.c;
    const ViscoTriple<T> alpha = r.alpha;
    const index_t sy = r.sy, sx = r.sx;
#pragma omp simd
    for (index_t k = r.top; k < nz; ++k) {
      const ViscoTriple<T> an = visco_adjoint_memory<T>(lc[k], {rl[3 * k], rl[3 * k + 1], rl[3 * k + 2]}, e2[k], alpha);
      o[k] =
          leapfrog_update(c, lc[k], lpc[k], laplacian<T, R>(w, gc + k, sy, sx), mm[k], damping_eta(c, kxi, kyj, kz[k]));
      ro[3 * k] = an.a;
      ro[3 * k + 1] = an.b;
      ro[3 * k + 2] = an.c;
    }
  });
}

template <class T, int R>
void reverse(const Problem<T>& p, const ReverseStepView<T>& v, const T* g) {
  const ViscoConstants<T, R> s(p);
  // Every pointer a local: the vector loop then reads no pointer through another it writes.
  const T *u = v.u, *up = v.u_prev, *lam = v.lam, *lp = v.lam_prev;
  T* lo = v.lam_out;
  T* gr = v.grad;
  sweep_rows::for_each_row(s.g, sizeof(T), 2, [&](index_t i, index_t j, index_t base) {
    const ViscoConstants<T, R> r = s;  // as forward's
    const index_t nz = r.nz;
    const StepCoefficients<T> c = r.c;
    // The free surface's rows first, both values completed (lo may alias lp, read at each point only).
    for (index_t k = 0; k < r.top; ++k) {
      const index_t idx = base + k;
      const T eta = r.eta(i, j, k);
      ViscoTriple<T> rn, an;
      const T next = r.next_surface(u, up, idx, k, eta, rn);
      const T adj = r.adjoint_surface(lam, lp, g, idx, k, eta, an);
      gr[idx] += imaging_term(c, adj, next, u[idx], up[idx]);
      lo[idx] = adj;
      r.store(lo, idx, an);
    }
    // As forward's vector loop: locals, next() and adjoint_next() written out.
    const T *uc = u + base, *pc = up + base, *lc = lam + base, *lpc = lp + base, *gc = g + base;
    const T *mm = r.m + base, *kz = r.kz, *w = r.w;
    const T *e1 = r.coef + base, *e2 = e1 + r.cs, *b1 = e2 + r.cs, *b2 = b1 + r.cs, *b3 = b2 + r.cs;
    const T *ru = u + r.f + 3 * base, *rl = lam + r.f + 3 * base;
    T* o = lo + base;
    T* ro = lo + r.f + 3 * base;
    T* gk = gr + base;
    const T kxi = r.kx[i], kyj = r.ky[j];
    const ViscoTriple<T> alpha = r.alpha;
    const index_t sy = r.sy, sx = r.sx;
#pragma omp simd
    for (index_t k = r.top; k < nz; ++k) {
      const T eta = damping_eta(c, kxi, kyj, kz[k]);
      ViscoTriple<T> rn;
      const T op = visco_operator<T>(laplacian<T, R>(w, uc + k, sy, sx), {ru[3 * k], ru[3 * k + 1], ru[3 * k + 2]},
                                     e1[k], e2[k], alpha, {b1[k], b2[k], b3[k]}, rn);
      const T next = leapfrog_update(c, uc[k], pc[k], op, mm[k], eta);
      const ViscoTriple<T> an = visco_adjoint_memory<T>(lc[k], {rl[3 * k], rl[3 * k + 1], rl[3 * k + 2]}, e2[k], alpha);
      const T adj = leapfrog_update(c, lc[k], lpc[k], laplacian<T, R>(w, gc + k, sy, sx), mm[k], eta);
      gk[k] += imaging_term(c, adj, next, uc[k], pc[k]);
      o[k] = adj;
      ro[3 * k] = an.a;
      ro[3 * k + 1] = an.b;
      ro[3 * k + 2] = an.c;
    }
  });
}

}  // namespace

template <class T>
ViscoCpuPhysics<T>::ViscoCpuPhysics(const Problem<T>& problem) : p_(problem) {
  if (!retarget()) throw std::logic_error("the visco-acoustic physics on a problem without Q's fields and memory");
  if (p_.cpml || p_.density || p_.vti)
    throw std::logic_error("the visco-acoustic physics with a C-PML, density or VTI");
}

template <class T>
bool ViscoCpuPhysics<T>::retarget() {
  return p_.visco.has_value() && p_.grid.extra_fields == V;
}

template <class T>
void ViscoCpuPhysics<T>::forward_sweep(const T* u, const T* u_prev, T* out) {
  dispatch_radius(p_.grid.radius(), [&](auto r) { forward<T, decltype(r)::value>(p_, u, u_prev, out); });
}

template <class T>
const T* ViscoCpuPhysics<T>::combine(const T* lam) {
  const Grid& g = p_.grid;
  const std::size_t bytes = static_cast<std::size_t>(g.alloc_points()) * sizeof(T);
  if (g_.bytes() < bytes) g_ = HostBuffer(bytes);
  const T* coef = p_.visco->coefficients.template as<T>();
  const index_t cs = coefficient_stride(g);
  const index_t f = g.extra_offset(), plane = g.stride_x();
  T* out = g_.template as<T>();
#pragma omp parallel for schedule(static)
  for (index_t i = 0; i < g.alloc(0); ++i) {
    const sweep_rows::FlushSubnormals flush;
#pragma omp simd
    for (index_t idx = i * plane; idx < (i + 1) * plane; ++idx) {
      const T* rho = lam + f + 3 * idx;
      out[idx] = visco_adjoint_combination<T>(lam[idx], {rho[0], rho[1], rho[2]}, coef[idx], coef[cs + idx],
                                              {coef[2 * cs + idx], coef[3 * cs + idx], coef[4 * cs + idx]});
    }
  }
  if (g.free_surface)  // the plane's rows apply no operator: nothing of lam reaches L^T from there
    for (index_t i = 0; i < g.padded(0); ++i)
      for (index_t j = 0; j < g.padded(1); ++j) out[g.index(i, j, 0)] = T(0);
  return out;
}

template <class T>
void ViscoCpuPhysics<T>::adjoint_sweep(const T* lam, const T* lam_prev, T* out) {
  const T* g = combine(lam);
  dispatch_radius(p_.grid.radius(), [&](auto r) { adjoint<T, decltype(r)::value>(p_, lam, lam_prev, g, out); });
}

template <class T>
void ViscoCpuPhysics<T>::next_at(const T* u, const T* u_prev, const index_t* index, std::size_t count, T* out) {
  dispatch_radius(p_.grid.radius(), [&](auto r) {
    const ViscoConstants<T, decltype(r)::value> s(p_);
    sweep_rows::for_each_point(count, 1024, [&](std::size_t q) {
      const index_t idx = index[q];
      const auto [i, j, k] = s.g.coordinates(idx);
      ViscoTriple<T> rn;
      out[q] = s.next_completed(u, u_prev, idx, k, s.eta(i, j, k), rn);
    });
  });
}

template <class T>
void ViscoCpuPhysics<T>::reverse_sweep(const ReverseStepView<T>& v) {
  const T* g = combine(v.lam);
  dispatch_radius(p_.grid.radius(), [&](auto r) { reverse<T, decltype(r)::value>(p_, v, g); });
}

template class ViscoCpuPhysics<float>;
template class ViscoCpuPhysics<double>;

}  // namespace revwave
