#include "revwave/numerics/boundary/cpml_physics.hpp"

#include <stdexcept>

#include "../sweep_rows.hpp"
#include "revwave/core/dispatch_radius.hpp"
#include "revwave/core/errors.hpp"
#include "revwave/numerics/boundary/cpml_formulas.hpp"

namespace revwave {
namespace {

// Passes over fewer points run on one thread: on small grids a team's start and barrier cost
// more than the pass (and much more where another process holds a core).
constexpr std::int64_t parallel_from = 32768;

// What the passes read: the grid's strides and the profile, with the radius fixed.
template <class T, int R>
struct Cpml {
  const Grid& g;
  const CpmlProfile<T>& c;
  const CpmlLayout& l;
  std::array<index_t, 3> stride;

  explicit Cpml(const Problem<T>& p) : g(p.grid), c(*p.cpml), l(c.layout), stride{g.stride_x(), g.stride_y(), 1} {}

  // Whether padded coordinate x of axis a lies within R of one of a's slabs.
  bool near(int a, index_t x) const {
    return (l.lo[a] > 0 && x < l.lo[a] + R) || (l.hi[a] > 0 && x >= l.padded[a] - l.hi[a] - R);
  }
  bool in_region(const std::array<index_t, 3>& at) const {
    if (g.free_surface && at[2] == 0) return false;
    return near(0, at[0]) || near(1, at[1]) || near(2, at[2]);
  }
  // Axis a's slab offsets along the line through a point: that of coordinate x on the axis, -1
  // outside the slabs (CpmlLayout::slab_offset, which is linear in the coordinate along a).
  struct Line {
    index_t base, step, lo, hi, n;
    index_t at(index_t x) const {
      if (x < 0 || x >= n) return -1;
      if (x < lo) return base + x * step;
      if (x >= n - hi) return base + (lo + x - (n - hi)) * step;
      return -1;
    }
  };
  Line line(int a, std::array<index_t, 3> at) const {
    std::array<index_t, 3> ext = l.padded;
    ext[a] = l.lo[a] + l.hi[a];
    at[a] = 0;
    const index_t step = a == 0 ? ext[1] * ext[2] : a == 1 ? ext[2] : 1;
    return {(at[0] * ext[1] + at[1]) * ext[2] + at[2], step, l.lo[a], l.hi[a], l.padded[a]};
  }
  T coef_a(int a, index_t x) const { return x < 0 || x >= l.padded[a] ? T(0) : c.a[a][static_cast<std::size_t>(x)]; }
  // D1 of field f along axis a at grid index idx.
  T d1_field(int a, const T* f, index_t idx) const {
    T fp[R], fm[R];
    for (int q = 1; q <= R; ++q) {
      fp[q - 1] = f[idx + q * stride[a]];
      fm[q - 1] = f[idx - q * stride[a]];
    }
    return cpml_d1<T, R>(c.d1.data(), fp, fm);
  }
  // psi[n] at slab offset o of axis a (coordinate x on a, grid index idx) from u[n] and psi[n-1].
  T psi_new(int a, const T* u, const T* tail_old, index_t o, index_t x, index_t idx) const {
    const auto i = static_cast<std::size_t>(x);
    return cpml_psi(c.b[a][i], c.a[a][i], tail_old[l.psi[a] + o], d1_field(a, u, idx));
  }
  // C at the point (at, idx): psi(a, offset, x, idx) gives psi[n]; zeta[n] goes to zeta_out if set.
  template <class Psi>
  T correction(const T* u, const T* tail_old, const std::array<index_t, 3>& at, index_t idx, Psi&& psi,
               T* zeta_out) const {
    T sum = T(0);
    for (int a = 0; a < 3; ++a) {
      if (!near(a, at[a])) continue;
      const Line ln = line(a, at);
      const index_t x = at[a];
      T fp[R], fm[R];
      for (int q = 1; q <= R; ++q) {
        const index_t op = ln.at(x + q), om = ln.at(x - q);
        fp[q - 1] = op < 0 ? T(0) : psi(a, op, x + q, idx + q * stride[a]);
        fm[q - 1] = om < 0 ? T(0) : psi(a, om, x - q, idx - q * stride[a]);
      }
      const T d1psi = cpml_d1<T, R>(c.d1.data(), fp, fm);
      const index_t o = ln.at(x);
      T zeta = T(0);
      if (o >= 0) {
        for (int q = 1; q <= R; ++q) {
          fp[q - 1] = u[idx + q * stride[a]];
          fm[q - 1] = u[idx - q * stride[a]];
        }
        const T d2u = cpml_d2<T, R>(c.d2.data(), u[idx], fp, fm);
        const auto i = static_cast<std::size_t>(x);
        zeta = cpml_zeta(c.b[a][i], c.a[a][i], tail_old[l.zeta[a] + o], d2u, d1psi);
        if (zeta_out != nullptr) zeta_out[l.zeta[a] + o] = zeta;
      }
      sum += d1psi + zeta;
    }
    return sum;
  }
  // C' at the point from nu and mu (adj: the adjoint's tail).
  T adjoint_correction(const T* adj, const std::array<index_t, 3>& at) const {
    T sum = T(0);
    for (int a = 0; a < 3; ++a) {
      if (!near(a, at[a])) continue;
      const Line ln = line(a, at);
      T np[R], nm[R], mp[R], mm[R];
      for (int q = 1; q <= R; ++q) {
        const index_t op = ln.at(at[a] + q), om = ln.at(at[a] - q);
        const T ap = coef_a(a, at[a] + q), am = coef_a(a, at[a] - q);
        np[q - 1] = op < 0 ? T(0) : ap * adj[l.zeta[a] + op];
        nm[q - 1] = om < 0 ? T(0) : am * adj[l.zeta[a] + om];
        mp[q - 1] = op < 0 ? T(0) : ap * adj[l.psi[a] + op];
        mm[q - 1] = om < 0 ? T(0) : am * adj[l.psi[a] + om];
      }
      const index_t o = ln.at(at[a]);
      const T centre = o < 0 ? T(0) : coef_a(a, at[a]) * adj[l.zeta[a] + o];
      sum += cpml_d2<T, R>(c.d2.data(), centre, np, nm) - cpml_d1<T, R>(c.d1.data(), mp, mm);
    }
    return sum;
  }
  // f(a, o, at, idx) at every point of every slab (o its slab offset, at its padded coordinates),
  // in slab order, threaded over the slab's first axis.
  template <class F>
  void for_each_slab_point(F&& f) const {
    for (int a = 0; a < 3; ++a) {
      std::array<index_t, 3> ext = l.padded;
      ext[a] = l.lo[a] + l.hi[a];
      if (ext[a] == 0) continue;
      const index_t shift = l.padded[a] - l.hi[a] - l.lo[a];  // from slab-local to padded, past lo
#pragma omp parallel if (ext[0] * ext[1] * ext[2] > parallel_from)
      {
        const sweep_rows::FlushSubnormals flush;
#pragma omp for schedule(static)
        for (std::int64_t i = 0; i < ext[0]; ++i)
          for (index_t j = 0; j < ext[1]; ++j)
            for (index_t z = 0; z < ext[2]; ++z) {
              std::array<index_t, 3> at{static_cast<index_t>(i), j, z};
              const index_t o = (at[0] * ext[1] + at[1]) * ext[2] + at[2];
              if (at[a] >= l.lo[a]) at[a] += shift;
              f(a, o, at, g.index(at[0], at[1], at[2]));
            }
      }
    }
  }
  // f(r, at, idx) at every region point (its index and padded coordinates).
  template <class F>
  void for_each_region_point(const std::vector<index_t>& region, const std::vector<std::array<index_t, 3>>& at,
                             F&& f) const {
    const auto n = static_cast<std::int64_t>(region.size());
#pragma omp parallel if (n > parallel_from)
    {
      const sweep_rows::FlushSubnormals flush;
#pragma omp for schedule(static)
      for (std::int64_t r = 0; r < n; ++r) {
        const auto i = static_cast<std::size_t>(r);
        f(i, at[i], region[i]);
      }
    }
  }
};

template <class T>
const T* tail_of(const T* field, const Problem<T>& p) {
  return field + p.cpml->layout.tail;
}
template <class T>
T* tail_of(T* field, const Problem<T>& p) {
  return field + p.cpml->layout.tail;
}

// psi[n] of every slab point into psi_out (tail layout).
template <class T, int R>
void psi_pass(const Cpml<T, R>& k, const T* u, const T* tail_old, T* psi_out) {
  k.for_each_slab_point([&](int a, index_t o, const std::array<index_t, 3>& at, index_t idx) {
    psi_out[k.l.psi[a] + o] = k.psi_new(a, u, tail_old, o, at[a], idx);
  });
}

// nu[k] then mu[k] from lam[k+1], in place.
template <class T, int R>
void adjoint_passes(const Cpml<T, R>& k, const T* lam, T* adj) {
  k.for_each_slab_point([&](int a, index_t o, const std::array<index_t, 3>& at, index_t idx) {
    T& nu = adj[k.l.zeta[a] + o];
    nu = cpml_nu(k.c.b[a][static_cast<std::size_t>(at[a])], nu, lam[idx]);
  });
  k.for_each_slab_point([&](int a, index_t o, const std::array<index_t, 3>& at, index_t idx) {
    const auto ln = k.line(a, at);
    T fp[R], fm[R];
    for (int q = 1; q <= R; ++q) {
      const index_t op = ln.at(at[a] + q), om = ln.at(at[a] - q);
      fp[q - 1] = lam[idx + q * k.stride[a]] + (op < 0 ? T(0) : k.coef_a(a, at[a] + q) * adj[k.l.zeta[a] + op]);
      fm[q - 1] = lam[idx - q * k.stride[a]] + (om < 0 ? T(0) : k.coef_a(a, at[a] - q) * adj[k.l.zeta[a] + om]);
    }
    T& mu = adj[k.l.psi[a] + o];
    mu = cpml_mu(k.c.b[a][static_cast<std::size_t>(at[a])], mu, cpml_d1<T, R>(k.c.d1.data(), fp, fm));
  });
}

}  // namespace

template <class T>
CpmlCpuPhysics<T>::CpmlCpuPhysics(const Problem<T>& problem, std::unique_ptr<CpuPhysics<T>> inner)
    : p_(problem), inner_(std::move(inner)) {
  if (!p_.cpml) throw std::logic_error("the C-PML physics on a problem without a C-PML");
  if (p_.density && p_.density->image) {
    throw InputError("--density-gradient is not imaged with --boundary cpml yet: use --boundary sponge for dJ/drho");
  }
  const Grid& g = p_.grid;
  dispatch_radius(g.radius(), [&](auto r) {
    const Cpml<T, decltype(r)::value> k(p_);
    for (index_t i = 0; i < g.padded(0); ++i)
      for (index_t j = 0; j < g.padded(1); ++j)
        for (index_t z = 0; z < g.padded(2); ++z)
          if (k.in_region({i, j, z})) {
            region_.push_back(g.index(i, j, z));
            region_at_.push_back({i, j, z});
          }
  });
  divisor_.resize(region_.size());
  for (std::size_t r = 0; r < region_.size(); ++r) divisor_[r] = leapfrog_a_at(p_, region_[r]);
  psi_.assign(static_cast<std::size_t>(p_.cpml->layout.values), T(0));
  adjoint_.assign(psi_.size(), T(0));
  grad0_.resize(region_.size());
  next_.resize(region_.size());
}

template <class T>
void CpmlCpuPhysics<T>::reset_images() {
  inner_->reset_images();
  std::fill(adjoint_.begin(), adjoint_.end(), T(0));
}

template <class T>
void CpmlCpuPhysics<T>::forward_sweep(const T* u, const T* u_prev, T* out) {
  inner_->forward_sweep(u, u_prev, out);
  const T* old = tail_of(u, p_);
  T* tail = tail_of(out, p_);
  dispatch_radius(p_.grid.radius(), [&](auto r) {
    const Cpml<T, decltype(r)::value> k(p_);
    psi_pass(k, u, old, tail);
    const auto psi = [&](int a, index_t o, index_t, index_t) { return tail[k.l.psi[a] + o]; };
    k.for_each_region_point(region_, region_at_, [&](std::size_t i, const std::array<index_t, 3>& at, index_t idx) {
      out[idx] = cpml_value(out[idx], k.correction(u, old, at, idx, psi, tail), divisor_[i]);
    });
  });
}

template <class T>
void CpmlCpuPhysics<T>::adjoint_sweep(const T* lam, const T* lam_prev, T* out) {
  inner_->adjoint_sweep(lam, lam_prev, out);
  dispatch_radius(p_.grid.radius(), [&](auto r) {
    const Cpml<T, decltype(r)::value> k(p_);
    adjoint_passes(k, lam, adjoint_.data());
    k.for_each_region_point(region_, region_at_, [&](std::size_t i, const std::array<index_t, 3>& at, index_t idx) {
      out[idx] = cpml_value(out[idx], k.adjoint_correction(adjoint_.data(), at), divisor_[i]);
    });
  });
}

template <class T>
void CpmlCpuPhysics<T>::next_at(const T* u, const T* u_prev, const index_t* index, std::size_t count, T* out) {
  inner_->next_at(u, u_prev, index, count, out);
  const T* old = tail_of(u, p_);
  dispatch_radius(p_.grid.radius(), [&](auto r) {
    const Cpml<T, decltype(r)::value> k(p_);
    const sweep_rows::FlushSubnormals flush;
    const auto psi = [&](int a, index_t o, index_t x, index_t idx) { return k.psi_new(a, u, old, o, x, idx); };
    for (std::size_t q = 0; q < count; ++q) {
      const index_t idx = index[q];
      const std::array<index_t, 3> at = p_.grid.coordinates(idx);
      if (!k.in_region(at)) continue;
      out[q] = cpml_value(out[q], k.correction(u, old, at, idx, psi, static_cast<T*>(nullptr)), leapfrog_a_at(p_, idx));
    }
  });
}

template <class T>
void CpmlCpuPhysics<T>::reverse_sweep(const ReverseStepView<T>& v) {
  const T* old = tail_of(v.u, p_);
  for (std::size_t r = 0; r < region_.size(); ++r) grad0_[r] = v.grad[region_[r]];
  inner_->reverse_sweep(v);
  inner_->next_at(v.u, v.u_prev, region_.data(), region_.size(), next_.data());
  const StepCoefficients<T> c = p_.coeffs;
  dispatch_radius(p_.grid.radius(), [&](auto r) {
    const Cpml<T, decltype(r)::value> k(p_);
    psi_pass(k, v.u, old, psi_.data());
    adjoint_passes(k, v.lam, adjoint_.data());
    const auto psi = [&](int a, index_t o, index_t, index_t) { return psi_[k.l.psi[a] + o]; };
    k.for_each_region_point(region_, region_at_, [&](std::size_t i, const std::array<index_t, 3>& at, index_t idx) {
      const T u_next =
          cpml_value(next_[i], k.correction(v.u, old, at, idx, psi, static_cast<T*>(nullptr)), divisor_[i]);
      const T lam = cpml_value(v.lam_out[idx], k.adjoint_correction(adjoint_.data(), at), divisor_[i]);
      v.grad[idx] = grad0_[i] + imaging_term(c, lam, u_next, v.u[idx], v.u_prev[idx]);
      v.lam_out[idx] = lam;
    });
  });
}

template class CpmlCpuPhysics<float>;
template class CpmlCpuPhysics<double>;

}  // namespace revwave
