#include "revwave/numerics/boundary/cpml_physics.hpp"

#include <algorithm>
#include <stdexcept>

#include "../sweep_rows.hpp"
#include "cpml_rows.hpp"
#include "revwave/core/dispatch_radius.hpp"
#include "revwave/numerics/boundary/cpml_formulas.hpp"

namespace revwave {
namespace {

// next_at's per-point form of the C-PML's share (the row passes, cpml_rows.hpp, are its bits).
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
};

template <class T>
const T* tail_of(const T* field, const Problem<T>& p) {
  return field + p.cpml->layout.tail;
}
template <class T>
T* tail_of(T* field, const Problem<T>& p) {
  return field + p.cpml->layout.tail;
}

}  // namespace

template <class T>
CpmlCpuPhysics<T>::CpmlCpuPhysics(const Problem<T>& problem, std::unique_ptr<CpuPhysics<T>> inner)
    : p_(problem), inner_(std::move(inner)) {
  if (!p_.cpml) throw std::logic_error("the C-PML physics on a problem without a C-PML");
  const Grid& g = p_.grid;
  dispatch_radius(g.radius(), [&](auto r) {
    const Cpml<T, decltype(r)::value> k(p_);
    for (index_t i = 0; i < g.padded(0); ++i)
      for (index_t j = 0; j < g.padded(1); ++j) {
        row_first_.push_back(static_cast<index_t>(region_.size()));
        for (index_t z = 0; z < g.padded(2); ++z)
          if (k.in_region({i, j, z})) region_.push_back(g.index(i, j, z));
      }
    row_first_.push_back(static_cast<index_t>(region_.size()));
  });
  divisor_.resize(region_.size());
  for (std::size_t r = 0; r < region_.size(); ++r) divisor_[r] = leapfrog_a_at(p_, region_[r]);
  psi_.assign(static_cast<std::size_t>(p_.cpml->layout.values), T(0));
  adjoint_.assign(psi_.size(), T(0));
  grad0_.resize(region_.size());
  next_.resize(static_cast<std::size_t>(p_.cpml->layout.tail + p_.cpml->layout.values));
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
  const auto points = static_cast<std::int64_t>(region_.size());
  dispatch_radius(p_.grid.radius(), [&](auto r) {
    const cpml_rows::Rows<T, decltype(r)::value> k(p_);
    k.for_each_row(points, [&](index_t x, index_t y, auto&) { k.psi_row(x, y, u, old, tail); });
    k.for_each_row(points, [&](index_t x, index_t y, auto& s) {
      const auto row = static_cast<std::size_t>(x * k.py + y);
      k.forward_row(x, y, u, tail, old, tail, s);
      T* o = out + p_.grid.index(x, y, 0);
      const T* a = divisor_.data() + row_first_[row];
      for (const auto& [b, e] : k.ranges(x, y)) {
        for (index_t z = b; z < e; ++z, ++a) o[z] = cpml_value(o[z], s.sum[z], *a);
      }
    });
  });
}

template <class T>
void CpmlCpuPhysics<T>::adjoint_sweep(const T* lam, const T* lam_prev, T* out) {
  inner_->adjoint_sweep(lam, lam_prev, out);
  T* adj = adjoint_.data();
  const auto points = static_cast<std::int64_t>(region_.size());
  dispatch_radius(p_.grid.radius(), [&](auto r) {
    const cpml_rows::Rows<T, decltype(r)::value> k(p_);
    k.for_each_row(points, [&](index_t x, index_t y, auto&) { k.nu_row(x, y, lam, adj); });
    k.for_each_row(points, [&](index_t x, index_t y, auto& s) { k.mu_row(x, y, lam, adj, s); });
    k.for_each_row(points, [&](index_t x, index_t y, auto& s) {
      const auto row = static_cast<std::size_t>(x * k.py + y);
      k.adjoint_row(x, y, lam, adj, s);
      T* o = out + p_.grid.index(x, y, 0);
      const T* a = divisor_.data() + row_first_[row];
      for (const auto& [b, e] : k.ranges(x, y)) {
        for (index_t z = b; z < e; ++z, ++a) o[z] = cpml_value(o[z], s.sum2[z], *a);
      }
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
  const StepCoefficients<T> c = p_.coeffs;
  T* adj = adjoint_.data();
  T* psi = psi_.data();
  T* next = next_.data();
  const auto points = static_cast<std::int64_t>(region_.size());
  dispatch_radius(p_.grid.radius(), [&](auto r) {
    const cpml_rows::Rows<T, decltype(r)::value> k(p_);
    k.for_each_row(points, [&](index_t x, index_t y, auto&) {
      const T* g = v.grad + p_.grid.index(x, y, 0);
      T* saved = grad0_.data() + row_first_[static_cast<std::size_t>(x * k.py + y)];
      for (const auto& [b, e] : k.ranges(x, y)) saved = std::copy(g + b, g + e, saved);
    });
    const bool images = inner_->keep_images_at(region_.data(), region_.size());
    if (images) next_region_.resize(region_.size());
    inner_->reverse_sweep(v);
    // u[n+1] less C / a: the physics' whole sweep (its vector loop) is cheaper than next_at at
    // the region's points, and gives the same bits.
    inner_->forward_sweep(v.u, v.u_prev, next);
    k.for_each_row(points, [&](index_t x, index_t y, auto&) {
      k.psi_row(x, y, v.u, old, psi);
      k.nu_row(x, y, v.lam, adj);
    });
    k.for_each_row(points, [&](index_t x, index_t y, auto& s) { k.mu_row(x, y, v.lam, adj, s); });
    k.for_each_row(points, [&](index_t x, index_t y, auto& s) {
      const auto row = static_cast<std::size_t>(x * k.py + y);
      k.forward_row(x, y, v.u, psi, old, nullptr, s);
      k.adjoint_row(x, y, v.lam, adj, s);
      const index_t base = p_.grid.index(x, y, 0);
      auto i = static_cast<std::size_t>(row_first_[row]);
      for (const auto& [b, e] : k.ranges(x, y)) {
        for (index_t z = b; z < e; ++z, ++i) {
          const index_t idx = base + z;
          const T u_next = cpml_value(next[idx], s.sum[z], divisor_[i]);
          const T lam = cpml_value(v.lam_out[idx], s.sum2[z], divisor_[i]);
          v.grad[idx] = grad0_[i] + imaging_term(c, lam, u_next, v.u[idx], v.u_prev[idx]);
          v.lam_out[idx] = lam;
          if (images) next_region_[i] = u_next;
        }
      }
    });
    if (images) inner_->reimage_at(v, next_region_.data());
  });
}

template class CpmlCpuPhysics<float>;
template class CpmlCpuPhysics<double>;

}  // namespace revwave
