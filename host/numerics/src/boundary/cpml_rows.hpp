// The C-PML's CPU passes walked by z rows (private to host/numerics). Along a row (x, y) whether x
// and y lie near or in a slab is constant and their slabs' rows are contiguous in z; along z the
// row splits into a few spans on which the same holds for z. So the inner loops run over z without
// branches and vectorise. Every value is cpml_formulas.hpp's, summed in the order of the per-point
// form (cpml_physics.cpp's next_at): axes x, y, z, q = 1..R; a neighbour outside the slabs adds
// the T(0) the per-point form adds (zero rows and columns hold +0, their coefficient is +0).
// The z loops are `ivdep`: what one writes (scratch, the row's own psi, zeta, nu or mu) never
// overlaps what it reads, and with this many streams GCC's run-time alias checks would give up.
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "../sweep_rows.hpp"
#include "revwave/numerics/acoustic/cpu_sweep.hpp"
#include "revwave/numerics/acoustic/point_formulas.hpp"
#include "revwave/numerics/boundary/cpml_formulas.hpp"
#include "revwave/numerics/cpu_physics.hpp"
#include "revwave/numerics/problem.hpp"

namespace revwave::cpml_rows {

// Passes over fewer points run on one thread: on small grids a team's start and barrier cost
// more than the pass (and much more where another process holds a core).
constexpr std::int64_t parallel_from = 32768;

// A part [begin, end) of every row on which z's nearness to (within R of) and membership in the
// z slabs are constant.
struct Span {
  index_t begin, end;
  bool near, slab;
};

// Per-thread rows: the share summed per z, a row of zeros, a sink for unwanted zeta, and columns
// of R + pz + R values (+0 outside the z slabs, which every row fills at the same places).
template <class T>
struct Scratch {
  std::vector<T> sum, sum2, zeros, sink, col, col2;
  Scratch(index_t pz, int r)
      : sum(pz), sum2(pz), zeros(pz + 2 * r, T(0)), sink(pz), col(pz + 2 * r, T(0)), col2(pz + 2 * r, T(0)) {}
};

template <class T, int R>
struct Rows {
  const Grid& g;
  const CpmlProfile<T>& c;
  const CpmlLayout& l;
  index_t px, py, pz, sx, sy;
  std::vector<Span> spans;  // the row's z in order, the plane z = 0 left out under a free surface
  // The region's z in a row, as few ranges [begin, end) as can be (long loops vectorise well):
  // in a whole row, and in a row near no x or y slab (the spans near z's slabs, merged).
  std::vector<std::array<index_t, 2>> whole_ranges, near_ranges;

  explicit Rows(const Problem<T>& p)
      : g(p.grid),
        c(*p.cpml),
        l(c.layout),
        px(l.padded[0]),
        py(l.padded[1]),
        pz(l.padded[2]),
        sx(g.stride_x()),
        sy(g.stride_y()) {
    const index_t z0 = g.free_surface ? 1 : 0;
    std::vector<index_t> cut{z0, l.lo[2], l.lo[2] + R, pz - l.hi[2] - R, pz - l.hi[2], pz};
    for (auto& z : cut) z = std::clamp(z, z0, pz);
    std::sort(cut.begin(), cut.end());
    for (std::size_t k = 0; k + 1 < cut.size(); ++k)
      if (cut[k] < cut[k + 1]) spans.push_back({cut[k], cut[k + 1], near(2, cut[k]), local(2, cut[k]) >= 0});
    if (z0 < pz) whole_ranges.push_back({z0, pz});
    for (const Span& sp : spans) {
      if (!sp.near) continue;
      if (!near_ranges.empty() && near_ranges.back()[1] == sp.begin)
        near_ranges.back()[1] = sp.end;
      else
        near_ranges.push_back({sp.begin, sp.end});
    }
  }

  bool near(int a, index_t x) const {
    return (l.lo[a] > 0 && x < l.lo[a] + R) || (l.hi[a] > 0 && x >= l.padded[a] - l.hi[a] - R);
  }
  // Whether row (x, y) is in the region whole (x or y near a slab) or only at the spans near z's.
  bool whole(index_t x, index_t y) const { return near(0, x) || near(1, y); }
  // Slab-local coordinate of padded coordinate x on axis a; -1 outside a's slabs.
  index_t local(int a, index_t x) const {
    if (x < 0 || x >= l.padded[a]) return -1;
    if (x < l.lo[a]) return x;
    if (x >= l.padded[a] - l.hi[a]) return l.lo[a] + x - (l.padded[a] - l.hi[a]);
    return -1;
  }
  // Offset of row (x, y) in axis a's slabs (a = 0 or 1; relative to psi[a], zeta[a]); -1 outside.
  index_t slab_row(int a, index_t x, index_t y) const {
    const index_t s = local(a, a == 0 ? x : y);
    if (s < 0) return -1;
    return a == 0 ? (s * py + y) * pz : (x * (l.lo[1] + l.hi[1]) + s) * pz;
  }
  // Offset of column (x, y)'s first value in z's slabs.
  index_t slab_column(index_t x, index_t y) const { return (x * py + y) * (l.lo[2] + l.hi[2]); }
  // Offset of z (in a z slab) from its column's first value.
  index_t column_local(index_t z) const { return z < l.lo[2] ? z : l.lo[2] + z - (pz - l.hi[2]); }
  index_t stride(int a) const { return a == 0 ? sx : sy; }
  T coef(const std::vector<T>& v, index_t x) const { return v[static_cast<std::size_t>(x)]; }

  // sum[z] += axis a's share of C (a = 0 or 1) on [b, e) of row (x, y): D1 psi + zeta, zeta[n]
  // into zeta_out (s.sink when null). u_row, psi, old, zeta_out: the row's u, tail-layout psi[n],
  // the old tail.
  void forward_axis(int a, index_t x, index_t y, index_t b, index_t e, const T* u_row, const T* psi, const T* old,
                    T* zeta_out, Scratch<T>& s) const {
    const T* pp[R];
    const T* pm[R];
    for (int q = 1; q <= R; ++q) {
      const index_t op = a == 0 ? slab_row(0, x + q, y) : slab_row(1, x, y + q);
      const index_t om = a == 0 ? slab_row(0, x - q, y) : slab_row(1, x, y - q);
      pp[q - 1] = op < 0 ? s.zeros.data() : psi + l.psi[a] + op;
      pm[q - 1] = om < 0 ? s.zeros.data() : psi + l.psi[a] + om;
    }
    const T* d1 = c.d1.data();
    T* sum = s.sum.data();
    const index_t o = slab_row(a, x, y);
    if (o < 0) {
#pragma GCC ivdep
      for (index_t z = b; z < e; ++z) {
        T fp[R], fm[R];
        for (int q = 0; q < R; ++q) fp[q] = pp[q][z], fm[q] = pm[q][z];
        sum[z] += cpml_d1<T, R>(d1, fp, fm) + T(0);
      }
      return;
    }
    const index_t st = stride(a), at = a == 0 ? x : y;
    const T bb = coef(c.b[a], at), aa = coef(c.a[a], at);
    const T* zo = old + l.zeta[a] + o;
    T* zn = zeta_out != nullptr ? zeta_out + l.zeta[a] + o : s.sink.data();
    const T* d2 = c.d2.data();
#pragma GCC ivdep
    for (index_t z = b; z < e; ++z) {
      T fp[R], fm[R];
      for (int q = 0; q < R; ++q) fp[q] = pp[q][z], fm[q] = pm[q][z];
      const T d1psi = cpml_d1<T, R>(d1, fp, fm);
      for (int q = 1; q <= R; ++q) fp[q - 1] = u_row[z + q * st], fm[q - 1] = u_row[z - q * st];
      const T zeta = cpml_zeta(bb, aa, zo[z], cpml_d2<T, R>(d2, u_row[z], fp, fm), d1psi);
      zn[z] = zeta;
      sum[z] += d1psi + zeta;
    }
  }

  // sum[z] += z's share of C at the spans near z's slabs of row (x, y), with psi[n] of the
  // column's z slab points computed first (into psi and s.col: no other row reads them).
  void forward_column(index_t x, index_t y, const T* u_row, T* psi, const T* old, T* zeta_out, Scratch<T>& s) const {
    if (l.lo[2] + l.hi[2] == 0) return;
    T* col = s.col.data();
    psi_column(x, y, u_row, old, psi, col);
    const T* d1 = c.d1.data();
    const T* d2 = c.d2.data();
    T* sum = s.sum.data();
    const index_t base = slab_column(x, y);
    for (const Span& sp : spans) {
      if (!sp.near) continue;
      if (!sp.slab) {
#pragma GCC ivdep
        for (index_t z = sp.begin; z < sp.end; ++z) {
          T fp[R], fm[R];
          for (int q = 1; q <= R; ++q) fp[q - 1] = col[R + z + q], fm[q - 1] = col[R + z - q];
          sum[z] += cpml_d1<T, R>(d1, fp, fm) + T(0);
        }
        continue;
      }
      const index_t shift = column_local(sp.begin) - sp.begin;  // slab-local minus z, constant on the span
      const T* zo = old + l.zeta[2] + base + shift;
      T* zn = zeta_out != nullptr ? zeta_out + l.zeta[2] + base + shift : s.sink.data();
      const T* bz = c.b[2].data();
      const T* az = c.a[2].data();
#pragma GCC ivdep
      for (index_t z = sp.begin; z < sp.end; ++z) {
        T fp[R], fm[R];
        for (int q = 1; q <= R; ++q) fp[q - 1] = col[R + z + q], fm[q - 1] = col[R + z - q];
        const T d1psi = cpml_d1<T, R>(d1, fp, fm);
        for (int q = 1; q <= R; ++q) fp[q - 1] = u_row[z + q], fm[q - 1] = u_row[z - q];
        const T zeta = cpml_zeta(bz[z], az[z], zo[z], cpml_d2<T, R>(d2, u_row[z], fp, fm), d1psi);
        zn[z] = zeta;
        sum[z] += d1psi + zeta;
      }
    }
  }

  // s.sum over the region's spans of row (x, y): C, psi[n] of the x and y slabs read from psi
  // (tail layout), z's computed into it. Every row runs it where z has a layer (psi_row leaves z's).
  void forward_row(index_t x, index_t y, const T* u, T* psi, const T* old, T* zeta_out, Scratch<T>& s) const {
    const T* u_row = u + g.index(x, y, 0);
    for (const auto& [b, e] : ranges(x, y)) {
      std::fill(s.sum.begin() + b, s.sum.begin() + e, T(0));
      for (int a = 0; a < 2; ++a)
        if (near(a, a == 0 ? x : y)) forward_axis(a, x, y, b, e, u_row, psi, old, zeta_out, s);
    }
    forward_column(x, y, u_row, psi, old, zeta_out, s);
  }

  // sum2[z] += axis a's share of C' (a = 0 or 1) on [b, e) of row (x, y) from adj (nu, mu).
  void adjoint_axis(int a, index_t x, index_t y, index_t b, index_t e, const T* adj, Scratch<T>& s) const {
    const T* np[R + 1];
    const T* nm[R + 1];
    const T* mp[R + 1];
    const T* mm[R + 1];
    T ap[R + 1], am[R + 1];
    const index_t at = a == 0 ? x : y;
    for (int q = 0; q <= R; ++q) {
      const index_t op = a == 0 ? slab_row(0, x + q, y) : slab_row(1, x, y + q);
      const index_t om = a == 0 ? slab_row(0, x - q, y) : slab_row(1, x, y - q);
      np[q] = op < 0 ? s.zeros.data() : adj + l.zeta[a] + op;
      mp[q] = op < 0 ? s.zeros.data() : adj + l.psi[a] + op;
      nm[q] = om < 0 ? s.zeros.data() : adj + l.zeta[a] + om;
      mm[q] = om < 0 ? s.zeros.data() : adj + l.psi[a] + om;
      ap[q] = op < 0 ? T(0) : coef(c.a[a], at + q);
      am[q] = om < 0 ? T(0) : coef(c.a[a], at - q);
    }
    const T* d1 = c.d1.data();
    const T* d2 = c.d2.data();
    T* sum = s.sum2.data();
#pragma GCC ivdep
    for (index_t z = b; z < e; ++z) {
      T fp[R], fm[R], gp[R], gm[R];
      for (int q = 1; q <= R; ++q) {
        fp[q - 1] = ap[q] * np[q][z], fm[q - 1] = am[q] * nm[q][z];
        gp[q - 1] = ap[q] * mp[q][z], gm[q - 1] = am[q] * mm[q][z];
      }
      sum[z] += cpml_d2<T, R>(d2, ap[0] * np[0][z], fp, fm) - cpml_d1<T, R>(d1, gp, gm);
    }
  }

  // nu then mu at column (x, y)'s z slab points (adj), with a nu into cn[R + z] and a mu into
  // cm[R + z]: no other row reads them.
  void nu_mu_column(index_t x, index_t y, const T* l_row, T* adj, T* cn, T* cm) const {
    const T* d1 = c.d1.data();
    const T* bz = c.b[2].data();
    const T* az = c.a[2].data();
    const index_t base = slab_column(x, y);
    const std::array<std::array<index_t, 2>, 2> sides{{{0, l.lo[2]}, {pz - l.hi[2], pz}}};
    for (const auto& [b, e] : sides) {
      T* nu = adj + l.zeta[2] + base + (b < e ? column_local(b) - b : 0);
#pragma GCC ivdep
      for (index_t z = b; z < e; ++z) {
        nu[z] = cpml_nu(bz[z], nu[z], l_row[z]);
        cn[R + z] = az[z] * nu[z];
      }
    }
    for (const auto& [b, e] : sides) {
      T* mu = adj + l.psi[2] + base + (b < e ? column_local(b) - b : 0);
#pragma GCC ivdep
      for (index_t z = b; z < e; ++z) {
        T fp[R], fm[R];
        for (int q = 1; q <= R; ++q) fp[q - 1] = l_row[z + q] + cn[R + z + q], fm[q - 1] = l_row[z - q] + cn[R + z - q];
        mu[z] = cpml_mu(bz[z], mu[z], cpml_d1<T, R>(d1, fp, fm));
        cm[R + z] = az[z] * mu[z];
      }
    }
  }

  // sum2[z] += z's share of C' at the spans near z's slabs of row (x, y), nu and mu of the
  // column's z slab points computed first.
  void adjoint_column(index_t x, index_t y, const T* l_row, T* adj, Scratch<T>& s) const {
    if (l.lo[2] + l.hi[2] == 0) return;
    T* cn = s.col.data();
    T* cm = s.col2.data();
    nu_mu_column(x, y, l_row, adj, cn, cm);
    const T* d1 = c.d1.data();
    const T* d2 = c.d2.data();
    T* sum = s.sum2.data();
    for (const Span& sp : spans) {
      if (!sp.near) continue;
#pragma GCC ivdep
      for (index_t z = sp.begin; z < sp.end; ++z) {
        T fp[R], fm[R], gp[R], gm[R];
        for (int q = 1; q <= R; ++q) {
          fp[q - 1] = cn[R + z + q], fm[q - 1] = cn[R + z - q];
          gp[q - 1] = cm[R + z + q], gm[q - 1] = cm[R + z - q];
        }
        sum[z] += cpml_d2<T, R>(d2, cn[R + z], fp, fm) - cpml_d1<T, R>(d1, gp, gm);
      }
    }
  }

  // s.sum2 over the region's spans of row (x, y): C' from lam[k+1] and adj (nu, mu; z's computed
  // here). Every row runs it where z has a layer (nu_row and mu_row leave z's).
  void adjoint_row(index_t x, index_t y, const T* lam, T* adj, Scratch<T>& s) const {
    for (const auto& [b, e] : ranges(x, y)) {
      std::fill(s.sum2.begin() + b, s.sum2.begin() + e, T(0));
      for (int a = 0; a < 2; ++a)
        if (near(a, a == 0 ? x : y)) adjoint_axis(a, x, y, b, e, adj, s);
    }
    adjoint_column(x, y, lam + g.index(x, y, 0), adj, s);
  }

  // The region's z in row (x, y), in order.
  const std::vector<std::array<index_t, 2>>& ranges(index_t x, index_t y) const {
    return whole(x, y) ? whole_ranges : near_ranges;
  }

  // psi[n] at row (x, y)'s x and y slab points into out (tail layout) from u[n] and the old tail
  // (z's: psi_column, in forward_row).
  void psi_row(index_t x, index_t y, const T* u, const T* old, T* out) const {
    const T* u_row = u + g.index(x, y, 0);
    const T* d1 = c.d1.data();
    for (int a = 0; a < 2; ++a) {
      const index_t o = slab_row(a, x, y);
      if (o < 0) continue;
      const index_t st = stride(a), at = a == 0 ? x : y;
      const T bb = coef(c.b[a], at), aa = coef(c.a[a], at);
      const T* po = old + l.psi[a] + o;
      T* pn = out + l.psi[a] + o;
#pragma GCC ivdep
      for (index_t z = 0; z < pz; ++z) {
        T fp[R], fm[R];
        for (int q = 1; q <= R; ++q) fp[q - 1] = u_row[z + q * st], fm[q - 1] = u_row[z - q * st];
        pn[z] = cpml_psi(bb, aa, po[z], cpml_d1<T, R>(d1, fp, fm));
      }
    }
  }

  // psi[n] at column (x, y)'s z slab points into out (tail layout) and into col[R + z].
  void psi_column(index_t x, index_t y, const T* u_row, const T* old, T* out, T* col) const {
    const T* d1 = c.d1.data();
    const T* bz = c.b[2].data();
    const T* az = c.a[2].data();
    const index_t base = l.psi[2] + slab_column(x, y);
    const auto span = [&](index_t b, index_t e) {
      const index_t shift = b < e ? column_local(b) - b : 0;
      const T* po = old + base + shift;
      T* pn = out + base + shift;
#pragma GCC ivdep
      for (index_t z = b; z < e; ++z) {
        T fp[R], fm[R];
        for (int q = 1; q <= R; ++q) fp[q - 1] = u_row[z + q], fm[q - 1] = u_row[z - q];
        pn[z] = cpml_psi(bz[z], az[z], po[z], cpml_d1<T, R>(d1, fp, fm));
        col[R + z] = pn[z];
      }
    };
    span(0, l.lo[2]);
    span(pz - l.hi[2], pz);
  }

  // nu[k] = b nu[k+1] + lam[k+1] at row (x, y)'s x and y slab points (adj: zeta's places; z's:
  // nu_mu_column, in adjoint_row).
  void nu_row(index_t x, index_t y, const T* lam, T* adj) const {
    const T* l_row = lam + g.index(x, y, 0);
    for (int a = 0; a < 2; ++a) {
      const index_t o = slab_row(a, x, y);
      if (o < 0) continue;
      const T bb = coef(c.b[a], a == 0 ? x : y);
      T* nu = adj + l.zeta[a] + o;
#pragma GCC ivdep
      for (index_t z = 0; z < pz; ++z) nu[z] = cpml_nu(bb, nu[z], l_row[z]);
    }
  }

  // mu[k] = b mu[k+1] - D1 (lam[k+1] + a nu[k]) at row (x, y)'s x and y slab points (adj: psi's
  // places), every nu done.
  void mu_row(index_t x, index_t y, const T* lam, T* adj, const Scratch<T>& s) const {
    const T* l_row = lam + g.index(x, y, 0);
    const T* d1 = c.d1.data();
    for (int a = 0; a < 2; ++a) {
      const index_t o = slab_row(a, x, y);
      if (o < 0) continue;
      const index_t st = stride(a), at = a == 0 ? x : y;
      const T* np[R];
      const T* nm[R];
      T ap[R], am[R];
      for (int q = 1; q <= R; ++q) {
        const index_t op = a == 0 ? slab_row(0, x + q, y) : slab_row(1, x, y + q);
        const index_t om = a == 0 ? slab_row(0, x - q, y) : slab_row(1, x, y - q);
        np[q - 1] = op < 0 ? s.zeros.data() : adj + l.zeta[a] + op;
        nm[q - 1] = om < 0 ? s.zeros.data() : adj + l.zeta[a] + om;
        ap[q - 1] = op < 0 ? T(0) : coef(c.a[a], at + q);
        am[q - 1] = om < 0 ? T(0) : coef(c.a[a], at - q);
      }
      const T bb = coef(c.b[a], at);
      T* mu = adj + l.psi[a] + o;
#pragma GCC ivdep
      for (index_t z = 0; z < pz; ++z) {
        T fp[R], fm[R];
        for (int q = 1; q <= R; ++q) {
          fp[q - 1] = l_row[z + q * st] + ap[q - 1] * np[q - 1][z];
          fm[q - 1] = l_row[z - q * st] + am[q - 1] * nm[q - 1][z];
        }
        mu[z] = cpml_mu(bb, mu[z], cpml_d1<T, R>(d1, fp, fm));
      }
    }
  }

  // f(x, y, s) for every row of the padded grid, threaded over the rows when `points` (the
  // points the pass touches) are many, each thread with its scratch and subnormals flushed.
  template <class F>
  void for_each_row(std::int64_t points, F&& f) const {
    const std::int64_t rows = static_cast<std::int64_t>(px) * py;
#pragma omp parallel if (points > parallel_from)
    {
      const sweep_rows::FlushSubnormals flush;
      Scratch<T> s(pz, R);
#pragma omp for schedule(static)
      for (std::int64_t r = 0; r < rows; ++r) f(static_cast<index_t>(r / py), static_cast<index_t>(r % py), s);
    }
  }
};

// What one sweep's rows of the C-PML read and write when the physics' sweep takes them (RowHook):
// the decorator's (boundary/cpml_physics.hpp) current call.
template <class T>
struct Call {
  enum class Mode { forward, adjoint, reverse };
  Mode mode = Mode::forward;
  const Problem<T>* p = nullptr;
  const T* divisor = nullptr;             // the update's a at each region point, in the rows' order
  const index_t* row_first = nullptr;     // per padded row, then the end: where its points start there
  const T* u = nullptr;                   // forward: u[n]; adjoint: lam[k+1]
  const T* old = nullptr;                 // forward and reverse: u[n]'s tail (psi[n-1], zeta[n-1])
  T* tail = nullptr;                      // forward: the new field's tail, psi[n] of the x and y slabs in already
  T* out = nullptr;                       // forward and adjoint: the new field, the physics' values in
  T* adj = nullptr;                       // adjoint and reverse: nu and mu, the x and y slabs' done
  T* psi = nullptr;                       // reverse: psi[n] (tail layout), the x and y slabs' done
  const ReverseStepView<T>* v = nullptr;  // reverse
};

// One thread's rows of a sweep that takes the C-PML's share (Call): the region's part of each row
// completed right after the physics wrote it. The values and their order are those of the
// decorator's separate passes, so the bits are theirs.
template <class T, int R>
class HookRows final : public RowHook<T>::Rows {
 public:
  explicit HookRows(const Call<T>& call) : c_(call), k_(*call.p), s_(k_.pz, R), next_(k_.pz), grad0_(k_.pz) {}

  void before(index_t x, index_t y) override {
    if (c_.mode != Call<T>::Mode::reverse) return;
    const T* g = c_.v->grad + k_.g.index(x, y, 0);
    for (const auto& [b, e] : k_.ranges(x, y)) std::copy(g + b, g + e, grad0_.data() + b);
  }

  T* next_row() override {
    return c_.mode == Call<T>::Mode::reverse && c_.v->u_next == nullptr ? next_.data() : nullptr;
  }

  void after(index_t x, index_t y) override {
    const index_t base = k_.g.index(x, y, 0);
    const T* a = c_.divisor + c_.row_first[static_cast<std::size_t>(x * k_.py + y)];
    if (c_.mode == Call<T>::Mode::forward) {
      k_.forward_row(x, y, c_.u, c_.tail, c_.old, c_.tail, s_);
      return complete(x, y, base, s_.sum.data(), a);
    }
    if (c_.mode == Call<T>::Mode::adjoint) {
      k_.adjoint_row(x, y, c_.u, c_.adj, s_);
      return complete(x, y, base, s_.sum2.data(), a);
    }
    const ReverseStepView<T>& v = *c_.v;
    const StepCoefficients<T> cf = c_.p->coeffs;
    const bool stored = v.u_next != nullptr;
    if (!stored) k_.forward_row(x, y, v.u, c_.psi, c_.old, nullptr, s_);
    k_.adjoint_row(x, y, v.lam, c_.adj, s_);
    // u[n+1] completed into next_ (or read from the history), then lam[n+1] and dJ/dm: loops over
    // distinct rows, which vectorise.
    const T* un = stored ? v.u_next + base : next_.data();
    if (!stored) {
      const T* d = a;
      for (const auto& [b, e] : k_.ranges(x, y)) {
#pragma GCC ivdep
        for (index_t z = b; z < e; ++z) next_[static_cast<std::size_t>(z)] = cpml_value(un[z], s_.sum[z], d[z - b]);
        d += e - b;
      }
    }
    const T* u = v.u + base;
    const T* up = v.u_prev + base;
    T* lo = v.lam_out + base;
    T* g = v.grad + base;
    const T* g0 = grad0_.data();
    const T* s2 = s_.sum2.data();
    for (const auto& [b, e] : k_.ranges(x, y)) {
#pragma GCC ivdep
      for (index_t z = b; z < e; ++z) {
        const T lam = cpml_value(lo[z], s2[z], a[z - b]);
        g[z] = g0[z] + imaging_term(cf, lam, un[z], u[z], up[z]);
        lo[z] = lam;
      }
      a += e - b;
    }
  }

 private:
  // out = v + share / a over row (x, y)'s region (the forward's C or the adjoint's C').
  void complete(index_t x, index_t y, index_t base, const T* share, const T* a) const {
    T* o = c_.out + base;
    for (const auto& [b, e] : k_.ranges(x, y))
      for (index_t z = b; z < e; ++z, ++a) o[z] = cpml_value(o[z], share[z], *a);
  }

  const Call<T>& c_;
  const Rows<T, R> k_;
  Scratch<T> s_;
  std::vector<T> next_;   // the row's u[n+1] before the C-PML's share (the sweep's)
  std::vector<T> grad0_;  // the row's dJ/dm before the sweep, at the region's z
};

}  // namespace revwave::cpml_rows
