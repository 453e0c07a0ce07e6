#include "revwave/numerics/boundary/cpml_physics.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <type_traits>

#include "../sweep_rows.hpp"
#include "cpml_rows.hpp"
#include "revwave/core/dispatch_radius.hpp"
#include "revwave/numerics/boundary/cpml_formulas.hpp"
#include "revwave/numerics/boundary/cpml_point.hpp"

namespace revwave {
namespace {

template <class T>
const T* tail_of(const T* field, const Problem<T>& p) {
  return field + p.cpml->layout.tail;
}
template <class T>
T* tail_of(T* field, const Problem<T>& p) {
  return field + p.cpml->layout.tail;
}

// Around a density: x's or y's (a = 0, 1) share of C along [b, e) of row (x, y), added to s[z], by
// CpmlPoint::axis_share's formulas. Along a row the line's slab offsets move with z alone, so which
// neighbours lie in the slabs, and where, is found once for the row, and the loop over z has no
// branch (psi[n] from `tail`, +0 from `zeros` outside the slabs; zeta[n] into `tail`).
template <class T, int R, bool WriteZeta = true>
void density_axis_row(const CpmlPoint<T, R>& k, int a, index_t x, index_t y, index_t base, index_t b, index_t e,
                      const T* u, const T* old, T* tail, const T* zeros, T* s) {
  const CpmlPointTables<T>& t = k.t;
  const index_t at[3] = {x, y, 0};
  const CpmlLine ln = k.line(a, at);  // the offsets at z = 0: at z they are z more
  const index_t xa = at[a];
  const T* pp[R];
  const T* pm[R];
  for (int q = 1; q <= R; ++q) {
    const index_t op = ln.at(xa + q), om = ln.at(xa - q);
    pp[q - 1] = op < 0 ? zeros : tail + t.psi[a] + op;
    pm[q - 1] = om < 0 ? zeros : tail + t.psi[a] + om;
  }
  const index_t o = ln.at(xa);
  if (o < 0) {
#pragma omp simd
    for (index_t z = b; z < e; ++z) {
      T fp[R], fm[R];
      for (int q = 0; q < R; ++q) fp[q] = pp[q][z], fm[q] = pm[q][z];
      s[z] += k.stretch_flux(a, base + z, fp, fm) + T(0);  // axis_share's d1psi + zeta, zeta = +0
    }
    return;
  }
  const T bz = t.b[a][xa], az = t.a[a][xa];
  const T* zeta_old = old + t.zeta[a] + o;
  T* zeta_new = tail + t.zeta[a] + o;
#pragma omp simd
  for (index_t z = b; z < e; ++z) {
    T fp[R], fm[R];
    for (int q = 0; q < R; ++q) fp[q] = pp[q][z], fm[q] = pm[q][z];
    const T d1psi = k.stretch_flux(a, base + z, fp, fm);
    const T zeta = cpml_zeta(bz, az, zeta_old[z], k.axis_operator(a, u, base + z), d1psi);
    if constexpr (WriteZeta) zeta_new[z] = zeta;
    s[z] += d1psi + zeta;
  }
}

// Around a density: x's or y's (a = 0, 1) share of C' along [b, e) of row (x, y), added to s[z], by
// CpmlPoint::adjoint_axis_share's formulas, the row's slab offsets and coefficients taken once (a
// neighbour outside the slabs reads +0 from `zeros` with coefficient +0: the per-point form's +0).
template <class T, int R>
void density_adjoint_axis_row(const CpmlPoint<T, R>& k, int a, index_t x, index_t y, index_t base, index_t b, index_t e,
                              const T* adj, const T* zeros, T* s) {
  const CpmlPointTables<T>& t = k.t;
  const index_t at[3] = {x, y, 0};
  const CpmlLine ln = k.line(a, at);
  const index_t xa = at[a];
  const T* nu[2 * R + 1];  // f[R + q]'s nu, q = -R..R
  const T* mu[2 * R + 1];  // mp, mm's mu (q != 0)
  T coef[2 * R + 1];
  for (int q = -R; q <= R; ++q) {
    const index_t o = ln.at(xa + q);
    nu[R + q] = o < 0 ? zeros : adj + t.zeta[a] + o;
    mu[R + q] = o < 0 ? zeros : adj + t.psi[a] + o;
    coef[R + q] = o < 0 ? T(0) : k.coef_a(a, xa + q);
  }
#pragma omp simd
  for (index_t z = b; z < e; ++z) {
    T f[2 * R + 1], mp[R], mm[R];
    for (int j = 0; j <= 2 * R; ++j) f[j] = coef[j] * nu[j][z];
    for (int q = 1; q <= R; ++q) mp[q - 1] = coef[R + q] * mu[R + q][z], mm[q - 1] = coef[R - q] * mu[R - q][z];
    s[z] += k.axis_adjoint(a, f, base + z) - cpml_d1<T, R>(t.d1, mp, mm);
  }
}

// Around a density: C along [b, e) of row (x, y) into s[z], summed x, y, z as
// CpmlPoint::correction sums it: x's and y's shares by density_axis_row, z's a point at a time
// (psi[n] from `tail`; zeta[n] into it with WriteZeta).
template <class T, int R, bool WriteZeta = true>
void density_correction_range(const CpmlPoint<T, R>& k, index_t x, index_t y, index_t base, index_t b, index_t e,
                              const T* u, const T* old, T* tail, const T* zeros, T* s) {
  std::fill(s + b, s + e, T(0));
  for (int a = 0; a < 2; ++a)
    if (k.near(a, a == 0 ? x : y)) density_axis_row<T, R, WriteZeta>(k, a, x, y, base, b, e, u, old, tail, zeros, s);
  for (index_t z = b; z < e; ++z)
    if (k.near(2, z)) {
      const index_t at[3] = {x, y, z};
      s[z] += k.axis_share(2, u, old, at, base + z, tail, WriteZeta ? tail : nullptr);
    }
}

// Around a density: C' along [b, e) of row (x, y) into s[z], summed as adjoint_correction sums it.
template <class T, int R>
void density_adjoint_correction_range(const CpmlPoint<T, R>& k, index_t x, index_t y, index_t base, index_t b,
                                      index_t e, const T* adj, const T* zeros, T* s) {
  std::fill(s + b, s + e, T(0));
  for (int a = 0; a < 2; ++a)
    if (k.near(a, a == 0 ? x : y)) density_adjoint_axis_row<T, R>(k, a, x, y, base, b, e, adj, zeros, s);
  for (index_t z = b; z < e; ++z)
    if (k.near(2, z)) {
      const index_t at[3] = {x, y, z};
      s[z] += k.adjoint_axis_share(2, adj, at, base + z);
    }
}

// Around a density: x's or y's (a = 0, 1) share of the layer's dJ/drho along [b, e) of row (x, y),
// added to s[z], by CpmlPoint::axis_image; the line's a nu[n] and psi[n] gathered as
// layer_density_image gathers them (+0 outside the slabs), their slab offsets taken once.
template <class T, int R>
void density_image_axis_row(const CpmlPoint<T, R>& k, int a, index_t x, index_t y, index_t base, index_t b, index_t e,
                            const T* u, const T* lam, const T* adj, const T* psi, index_t n_a, T* s) {
  const CpmlPointTables<T>& t = k.t;
  const index_t at[3] = {x, y, 0};
  const CpmlLine ln = k.line(a, at);
  const index_t xa = at[a], st = t.stride[a];
  index_t off[2 * R + 1];  // each neighbour's slab offset at z = 0, -1 outside the slabs
  T ca[2 * R + 1], cb[2 * R + 1];
  for (int q = -R; q <= R; ++q) {
    off[R + q] = ln.at(xa + q);
    ca[R + q] = off[R + q] < 0 ? T(0) : t.a[a][xa + q];
    cb[R + q] = off[R + q] < 0 ? T(0) : t.b[a][xa + q];
  }
#pragma omp simd
  for (index_t z = b; z < e; ++z) {
    const index_t idx = base + z;
    T f[2 * R + 1], ps[2 * R + 1];
    for (int j = 0; j <= 2 * R; ++j) {
      const bool in = off[j] >= 0;
      f[j] = in ? ca[j] * cpml_nu(cb[j], adj[t.zeta[a] + off[j] + z], lam[idx + (j - R) * st]) : T(0);
      ps[j] = in ? psi[t.psi[a] + off[j] + z] : T(0);
    }
    s[z] += k.axis_image(a, u, lam, f, ps, xa, idx, n_a);
  }
}

// The region's points, their grid indices and the buffers' sizes depend on these only.
template <class T>
std::array<index_t, 15> region_key(const Problem<T>& p) {
  const Grid& g = p.grid;
  const CpmlLayout& l = p.cpml->layout;
  return {l.padded[0], l.padded[1], l.padded[2], l.lo[0],    l.lo[1],
          l.lo[2],     l.hi[0],     l.hi[1],     l.hi[2],    g.alloc(1),
          g.alloc(2),  l.tail,      l.values,    g.radius(), g.free_surface ? 1 : 0};
}

}  // namespace

// The region's rows of the current sweep (cpml_rows::Call), handed to the inner physics' sweeps.
template <class T>
class CpmlCpuPhysics<T>::Hook final : public RowHook<T> {
 public:
  std::unique_ptr<typename RowHook<T>::Rows> rows() const override {
    std::unique_ptr<typename RowHook<T>::Rows> rows;
    dispatch_radius(call.p->grid.radius(),
                    [&](auto r) { rows = std::make_unique<cpml_rows::HookRows<T, decltype(r)::value>>(call); });
    return rows;
  }
  // A new call of the given mode, its pointers but the region's null.
  cpml_rows::Call<T>& start(typename cpml_rows::Call<T>::Mode mode, const std::vector<T>& divisor,
                            const std::vector<index_t>& row_first) {
    const Problem<T>* p = call.p;
    call = {};
    call.mode = mode;
    call.p = p;
    call.divisor = divisor.data();
    call.row_first = row_first.data();
    return call;
  }
  cpml_rows::Call<T> call;
};

template <class T>
CpmlCpuPhysics<T>::~CpmlCpuPhysics() = default;

template <class T>
CpmlCpuPhysics<T>::CpmlCpuPhysics(const Problem<T>& problem, std::unique_ptr<CpuPhysics<T>> inner)
    : p_(problem), inner_(std::move(inner)), hook_(std::make_unique<Hook>()) {
  if (!p_.cpml) throw std::logic_error("the C-PML physics on a problem without a C-PML");
  const Grid& g = p_.grid;
  region_key_ = region_key(p_);
  density_ = p_.density.has_value();
  if (density_) {
    for (double w : p_.density->stagger) stagger_.push_back(static_cast<T>(w));
    const CpmlLayout& l = p_.cpml->layout;
    for (int a = 0; a < 3; ++a)
      for (index_t o = 0; o < l.slab_points(a); ++o) {
        const std::array<index_t, 3> at = l.slab_point(a, o);
        slab_.push_back({a, o, g.index(at[0], at[1], at[2]), at[a]});
      }
  }
  // The region a row at a time, in the rows' ranges (the passes walk it in their order). The
  // points' indices are listed only for the density's per-point passes: the rows find them from
  // the ranges (at 256^3 with nbl 10 the list was 46 MB, built on one thread for every run).
  index_t count = 0;
  dispatch_radius(g.radius(), [&](auto r) {
    const cpml_rows::Rows<T, decltype(r)::value> k(p_);
    row_first_.reserve(static_cast<std::size_t>(g.padded(0) * g.padded(1) + 1));
    for (index_t i = 0; i < g.padded(0); ++i)
      for (index_t j = 0; j < g.padded(1); ++j) {
        row_first_.push_back(count);
        const index_t base = g.index(i, j, 0);
        for (const auto& [b, e] : k.ranges(i, j)) {
          if (density_)
            for (index_t z = b; z < e; ++z) region_.push_back(base + z);
          count += e - b;
        }
      }
    row_first_.push_back(count);
  });
  divisor_.resize(static_cast<std::size_t>(count));
  take_divisors();
  hook_->call.p = &p_;
  if (!density_ && !inner_->take_row_hook(hook_.get()))
    throw std::logic_error("the C-PML around a physics whose sweeps take no row hook");
}

// The adjoint's and the reverse step's buffers, made when first needed: a forward run holds none.
template <class T>
void CpmlCpuPhysics<T>::adjoint_buffer() {
  if (adjoint_.empty()) adjoint_.assign(static_cast<std::size_t>(p_.cpml->layout.values), T(0));
}

template <class T>
void CpmlCpuPhysics<T>::reverse_buffers() {
  adjoint_buffer();
  if (!psi_.empty()) return;
  psi_.assign(static_cast<std::size_t>(p_.cpml->layout.values), T(0));
  if (!density_) return;  // the rows inside the sweep keep their own
  grad0_.resize(region_.size());
  next_.resize(static_cast<std::size_t>(p_.cpml->layout.tail + p_.cpml->layout.values));
}

// The per-point tables, the density's coefficients in when the problem has one.
template <class T>
CpmlPointTables<T> CpmlCpuPhysics<T>::tables() const {
  CpmlPointTables<T> t = cpml_point_tables(p_.grid, *p_.cpml);
  if (p_.density) {
    const DensityFields& f = *p_.density;
    t.ds = f.s.template as<T>();
    t.dt = f.t.template as<T>();
    for (int a = 0; a < 3; ++a) t.db[a] = f.b[2 - a].template as<T>();  // x, y, z from z, y, x
    t.dstag = stagger_.data();
  }
  return t;
}

// f(k, point) at every slab point (k: the per-point form), then, when given, g(k, point) at every
// one; threaded when they are many, subnormals flushed.
template <class T>
template <class F, class G>
void CpmlCpuPhysics<T>::each_slab_point(F&& f, G&& g) const {
  const CpmlPointTables<T> t = tables();
  const auto n = static_cast<std::int64_t>(slab_.size());
  dispatch_radius(p_.grid.radius(), [&](auto r) {
    const CpmlPoint<T, decltype(r)::value> k{t};
#pragma omp parallel if (n > cpml_rows::parallel_from)
    {
      const sweep_rows::FlushSubnormals flush;
#pragma omp for schedule(static)
      for (std::int64_t i = 0; i < n; ++i) f(k, slab_[static_cast<std::size_t>(i)]);
      if constexpr (!std::is_same_v<std::decay_t<G>, std::nullptr_t>) {
#pragma omp for schedule(static)
        for (std::int64_t i = 0; i < n; ++i) g(k, slab_[static_cast<std::size_t>(i)]);
      }
    }
  });
}

// f(k, q, idx, at) at every region point (q its place in region_, idx its grid index, at its
// padded coordinates); threaded when they are many, subnormals flushed.
template <class T>
template <class F>
void CpmlCpuPhysics<T>::each_region_point(F&& f) const {
  const CpmlPointTables<T> t = tables();
  dispatch_radius(p_.grid.radius(), [&](auto r) {
    const CpmlPoint<T, decltype(r)::value> k{t};
    sweep_rows::for_each_point(region_.size(), cpml_rows::parallel_from, [&](std::size_t q) {
      const index_t idx = region_[q];
      const std::array<index_t, 3> at = p_.grid.coordinates(idx);
      f(k, q, idx, at.data());
    });
  });
}

template <class T>
template <class F>
void CpmlCpuPhysics<T>::each_region_range(F&& f) const {
  const CpmlPointTables<T> t = tables();
  const Grid& g = p_.grid;
  dispatch_radius(g.radius(), [&](auto r) {
    constexpr int R = decltype(r)::value;
    const cpml_rows::Rows<T, R> rows(p_);
    const CpmlPoint<T, R> k{t};
    rows.for_each_row(static_cast<std::int64_t>(divisor_.size()), [&](index_t x, index_t y, auto& scratch) {
      const index_t base = g.index(x, y, 0);
      auto q = static_cast<std::size_t>(row_first_[static_cast<std::size_t>(x * g.padded(1) + y)]);
      for (const auto& [b, e] : rows.ranges(x, y)) {
        f(k, x, y, base, b, e, q, scratch);
        q += static_cast<std::size_t>(e - b);
      }
    });
  });
}

template <class T>
void CpmlCpuPhysics<T>::density_psi(const T* u, const T* old, T* psi_out) const {
  each_slab_point(
      [&](const auto& k, const SlabPoint& sp) {
        psi_out[k.t.psi[sp.a] + sp.o] = k.psi_new(sp.a, u, old, sp.o, sp.x, sp.idx);
      },
      nullptr);
}

// nu at every slab point, then mu (which reads its neighbours' nu).
template <class T>
void CpmlCpuPhysics<T>::density_nu_mu(const T* lam, T* adj) const {
  each_slab_point(
      [&](const auto& k, const SlabPoint& sp) {
        T& nu = adj[k.t.zeta[sp.a] + sp.o];
        nu = cpml_nu(k.t.b[sp.a][sp.x], nu, lam[sp.idx]);
      },
      [&](const auto& k, const SlabPoint& sp) {
        adj[k.t.psi[sp.a] + sp.o] = k.mu_new(sp.a, lam, adj, sp.o, sp.x, sp.idx);
      });
}

// leapfrog_a_at at each region point, a row at a time (its x and y known, z its offset in the row).
template <class T>
void CpmlCpuPhysics<T>::take_divisors() {
  const Grid& g = p_.grid;
  const T* m = p_.m.template as<T>();
  const index_t py = g.padded(1), rows = g.padded(0) * py;
  dispatch_radius(g.radius(), [&](auto r) {
    const cpml_rows::Rows<T, decltype(r)::value> k(p_);
#pragma omp parallel for schedule(static) if (static_cast <std::int64_t>(divisor_.size()) >= cpml_rows::parallel_from)
    for (index_t row = 0; row < rows; ++row) {
      const index_t x = row / py, y = row % py, base = g.index(x, y, 0);
      auto q = static_cast<std::size_t>(row_first_[static_cast<std::size_t>(row)]);
      for (const auto& [b, e] : k.ranges(x, y))
        for (index_t z = b; z < e; ++z, ++q) {
          const T eta = damping_eta(p_.coeffs, p_.kappa[0][x], p_.kappa[1][y], p_.kappa[2][z]);
          divisor_[q] = leapfrog_a(p_.coeffs, m[base + z], eta);
        }
    }
  });
}

template <class T>
bool CpmlCpuPhysics<T>::retarget() {
  if (!p_.cpml || region_key(p_) != region_key_ || p_.density.has_value() != density_ || !inner_->retarget())
    return false;
  take_divisors();
  stagger_.clear();
  if (p_.density)
    for (double w : p_.density->stagger) stagger_.push_back(static_cast<T>(w));
  // psi_ and next_ are scratch that every reverse step writes before it reads them, and adjoint_
  // is cleared by reset_images() before every adjoint run: none is cleared here (85 MB for a
  // 128^3 window; filled with NaN instead, every test still passes). Made or not, they stay.
  return true;
}

template <class T>
void CpmlCpuPhysics<T>::reset_images() {
  inner_->reset_images();
  adjoint_buffer();
  std::fill(adjoint_.begin(), adjoint_.end(), T(0));
}

template <class T>
void CpmlCpuPhysics<T>::forward_sweep(const T* u, const T* u_prev, T* out) {
  const T* old = tail_of(u, p_);
  T* tail = tail_of(out, p_);
  const auto points = static_cast<std::int64_t>(divisor_.size());  // the region's points
  if (p_.density) {
    // The sweep, psi[n] of every slab, then C / a a row at a time: x's and y's shares as vector
    // loops over z (density_axis_row), z's a point at a time, summed in correction()'s order.
    inner_->forward_sweep(u, u_prev, out);
    density_psi(u, old, tail);
    each_region_range(
        [&](const auto& k, index_t x, index_t y, index_t base, index_t b, index_t e, std::size_t q, auto& scratch) {
          T* sum = scratch.sum.data();
          density_correction_range(k, x, y, base, b, e, u, old, tail, scratch.zeros.data(), sum);
          for (index_t z = b; z < e; ++z, ++q) out[base + z] = cpml_value(out[base + z], sum[z], divisor_[q]);
        });
    return;
  }
  // psi[n] of the x and y slabs, then the physics' sweep with the region's rows inside it.
  dispatch_radius(p_.grid.radius(), [&](auto r) {
    const cpml_rows::Rows<T, decltype(r)::value> k(p_);
    k.for_each_row(points, [&](index_t x, index_t y, auto&) { k.psi_row(x, y, u, old, tail); });
  });
  cpml_rows::Call<T>& c = hook_->start(cpml_rows::Call<T>::Mode::forward, divisor_, row_first_);
  c.u = u;
  c.old = old;
  c.tail = tail;
  c.out = out;
  inner_->forward_sweep(u, u_prev, out);
}

template <class T>
void CpmlCpuPhysics<T>::adjoint_sweep(const T* lam, const T* lam_prev, T* out) {
  adjoint_buffer();
  T* adj = adjoint_.data();
  if (p_.density) {
    inner_->adjoint_sweep(lam, lam_prev, out);
    density_nu_mu(lam, adj);
    // C' / a a row at a time, as reverse_sweep takes it.
    each_region_range(
        [&](const auto& k, index_t x, index_t y, index_t base, index_t b, index_t e, std::size_t q, auto& scratch) {
          T* sum = scratch.sum2.data();
          density_adjoint_correction_range(k, x, y, base, b, e, adj, scratch.zeros.data(), sum);
          for (index_t z = b; z < e; ++z, ++q) out[base + z] = cpml_value(out[base + z], sum[z], divisor_[q]);
        });
    return;
  }
  // nu, then mu, of the x and y slabs, then the physics' sweep with the region's rows inside it.
  const auto points = static_cast<std::int64_t>(divisor_.size());  // the region's points
  dispatch_radius(p_.grid.radius(), [&](auto r) {
    const cpml_rows::Rows<T, decltype(r)::value> k(p_);
    k.for_each_row(points, [&](index_t x, index_t y, auto&) { k.nu_row(x, y, lam, adj); });
    k.for_each_row(points, [&](index_t x, index_t y, auto& s) { k.mu_row(x, y, lam, adj, s); });
  });
  cpml_rows::Call<T>& c = hook_->start(cpml_rows::Call<T>::Mode::adjoint, divisor_, row_first_);
  c.u = lam;
  c.out = out;
  c.adj = adj;
  inner_->adjoint_sweep(lam, lam_prev, out);
}

template <class T>
void CpmlCpuPhysics<T>::next_at(const T* u, const T* u_prev, const index_t* index, std::size_t count, T* out) {
  inner_->next_at(u, u_prev, index, count, out);
  const T* old = tail_of(u, p_);
  const CpmlPointTables<T> tables = this->tables();
  dispatch_radius(p_.grid.radius(), [&](auto r) {
    const CpmlPoint<T, decltype(r)::value> k{tables};
    const sweep_rows::FlushSubnormals flush;
    for (std::size_t q = 0; q < count; ++q) {
      const index_t idx = index[q];
      const std::array<index_t, 3> at = p_.grid.coordinates(idx);
      if (!k.in_region(at.data())) continue;
      out[q] = cpml_value(out[q], k.correction(u, old, at.data(), idx, nullptr, nullptr), leapfrog_a_at(p_, idx));
    }
  });
}

template <class T>
void CpmlCpuPhysics<T>::reverse_sweep(const ReverseStepView<T>& v) {
  reverse_buffers();
  const T* old = tail_of(v.u, p_);
  T* adj = adjoint_.data();
  T* psi = psi_.data();
  if (p_.density) {
    const StepCoefficients<T> c = p_.coeffs;
    T* next = next_.data();
    for (std::size_t q = 0; q < region_.size(); ++q) grad0_[q] = v.grad[region_[q]];
    inner_->reverse_sweep(v);
    if (v.u_next == nullptr) inner_->forward_sweep(v.u, v.u_prev, next);
    density_psi(v.u, old, psi);  // after_adjoint_source's too: a history keeps u[n]'s tail here
    density_nu_mu(v.lam, adj);
    // C (where no history holds u[n+1]) and C' a row at a time, as forward_sweep takes C.
    const bool stored = v.u_next != nullptr;
    each_region_range(
        [&](const auto& k, index_t x, index_t y, index_t base, index_t b, index_t e, std::size_t q, auto& scratch) {
          constexpr int R = std::decay_t<decltype(k)>::radius;
          T* sum = scratch.sum.data();
          T* sum2 = scratch.sum2.data();
          const T* zeros = scratch.zeros.data();
          if (!stored) density_correction_range<T, R, false>(k, x, y, base, b, e, v.u, old, psi, zeros, sum);
          density_adjoint_correction_range(k, x, y, base, b, e, adj, zeros, sum2);
          for (index_t z = b; z < e; ++z, ++q) {
            const index_t idx = base + z;
            const T u_next = stored ? v.u_next[idx] : cpml_value(next[idx], sum[z], divisor_[q]);
            const T lam = cpml_value(v.lam_out[idx], sum2[z], divisor_[q]);
            v.grad[idx] = grad0_[q] + imaging_term(c, lam, u_next, v.u[idx], v.u_prev[idx]);
            v.lam_out[idx] = lam;
          }
        });
    return;
  }
  // psi[n] (from u[n], where u[n+1] is not read from a stored history, which keeps no tail:
  // StateShape), nu and mu of the x and y slabs, then the physics' fused sweep with the region's
  // rows inside it: it hands them u[n+1] less C / a, a row at a time.
  const bool stored = v.u_next != nullptr;
  const auto points = static_cast<std::int64_t>(divisor_.size());  // the region's points
  dispatch_radius(p_.grid.radius(), [&](auto r) {
    const cpml_rows::Rows<T, decltype(r)::value> k(p_);
    k.for_each_row(points, [&](index_t x, index_t y, auto&) {
      if (!stored) k.psi_row(x, y, v.u, old, psi);
      k.nu_row(x, y, v.lam, adj);
    });
    k.for_each_row(points, [&](index_t x, index_t y, auto& s) { k.mu_row(x, y, v.lam, adj, s); });
  });
  cpml_rows::Call<T>& c = hook_->start(cpml_rows::Call<T>::Mode::reverse, divisor_, row_first_);
  c.old = old;
  c.adj = adj;
  c.psi = psi;
  c.v = &v;
  inner_->reverse_sweep(v);
}

// The layer's share of dJ/drho (boundary/cpml_point.hpp's layer_density_image), after the
// density's own: lam[n+1] complete, adjoint_'s nu still nu[n+1], psi_ the step's psi[n].
template <class T>
void CpmlCpuPhysics<T>::after_adjoint_source(const ReverseStepView<T>& v) {
  inner_->after_adjoint_source(v);
  T* image = inner_->density_image();
  if (!p_.density || image == nullptr) return;
  reverse_buffers();
  const index_t n[3] = {p_.grid.padded(0), p_.grid.padded(1), p_.grid.padded(2)};
  const T* adj = adjoint_.data();
  const T* psi = psi_.data();
  const T* lam = v.lam_out;
  // A row at a time, as the reverse step's C and C': x's and y's shares by density_image_axis_row,
  // z's a point at a time, summed x, y, z as layer_density_image sums them.
  each_region_range(
      [&](const auto& k, index_t x, index_t y, index_t base, index_t b, index_t e, std::size_t, auto& scratch) {
        constexpr int R = std::decay_t<decltype(k)>::radius;
        T* sum = scratch.sum.data();
        std::fill(sum + b, sum + e, T(0));
        for (int a = 0; a < 2; ++a)
          if (k.near(a, a == 0 ? x : y))
            density_image_axis_row<T, R>(k, a, x, y, base, b, e, v.u, lam, adj, psi, n[a], sum);
        for (index_t z = b; z < e; ++z) {
          const index_t idx = base + z;
          if (k.near(2, z)) {
            const index_t at[3] = {x, y, z};
            sum[z] += k.layer_density_image_axis(2, v.u, lam, adj, psi, at, idx, n[2]);
          }
          image[idx] += sum[z];
        }
      });
}

template class CpmlCpuPhysics<float>;
template class CpmlCpuPhysics<double>;

}  // namespace revwave
