#include "revwave/numerics/acoustic/cpu_sweep.hpp"

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <utility>
#include <vector>

#include "../sweep_rows.hpp"
#include "revwave/numerics/boundary/free_surface.hpp"

namespace revwave {
namespace {

// What every sweep reads besides its fields (sweep_rows::StepConstants), and the free surface's rows.
template <class T, int R>
struct SweepConstants : sweep_rows::StepConstants<T, R> {
  using sweep_rows::StepConstants<T, R>::StepConstants;
  using sweep_rows::StepConstants<T, R>::w;
  using sweep_rows::StepConstants<T, R>::c;
  // The new value at row k < top of a column whose z = 0 value is column[0], from the sweep's v.
  T surface(const T* column, index_t k, T v, T mk, T eta) const {
    return free_surface_value<T, R>(w, column, k, v, leapfrog_a(c, mk, eta));
  }
};

// The padded grid's rows, blocked and threaded (sweep_rows.hpp), each thread with its rows of the
// hook (RowHook) when there is one: row(i, j, base, rows), rows null without a hook.
template <class T, int R, class Row>
void for_each_row(const SweepConstants<T, R>& k, int stencil_fields, const RowHook<T>* hook, Row&& row) {
  sweep_rows::for_each_row_local(
      k.g, sizeof(T), stencil_fields,
      [&] { return hook != nullptr ? hook->rows() : std::unique_ptr<typename RowHook<T>::Rows>(); },
      std::forward<Row>(row));
}

template <class T, int R, bool Imaging>
void sweep(const Problem<T>& p, const SweepFields<T>& f) {
  const SweepConstants<T, R> s(p);
  for_each_row<T, R>(s, 1, f.hook, [&](index_t i, index_t j, index_t base, const auto& rows) {
    const StepCoefficients<T> c = s.c;
    const T* w = s.w;
    const index_t sx = s.sx, sy = s.sy, nz = s.nz;
    const T* uc = f.u + base;
    const T* up = f.u_prev + base;
    const T* mm = s.m + base;
    const T* kz = s.kz;
    T* o = f.out + base;
    const T kxi = s.kx[i], kyj = s.ky[j];
    const index_t top = s.top;
    if constexpr (Imaging) {
      const T* fn = f.fwd_next + base;
      const T* fc = f.fwd + base;
      const T* fp = f.fwd_prev + base;
      T* gr = f.grad + base;
      T saved[R] = {};  // the gradient at the free surface's rows, imaged again below
      for (index_t k = 0; k < top; ++k) saved[k] = gr[k];
#pragma omp simd
      for (index_t k = 0; k < nz; ++k) {
        const T v = leapfrog_update(c, uc[k], up[k], laplacian<T, R>(w, uc + k, sy, sx), mm[k],
                                    damping_eta(c, kxi, kyj, kz[k]));
        gr[k] += imaging_term(c, v, fn[k], fc[k], fp[k]);
        o[k] = v;
      }
      for (index_t k = 0; k < top; ++k) {
        const T v = s.surface(uc, k, o[k], mm[k], damping_eta(c, kxi, kyj, kz[k]));
        gr[k] = saved[k] + imaging_term(c, v, fn[k], fc[k], fp[k]);
        o[k] = v;
      }
    } else {
#pragma omp simd
      for (index_t k = 0; k < nz; ++k)
        o[k] = leapfrog_update(c, uc[k], up[k], laplacian<T, R>(w, uc + k, sy, sx), mm[k],
                               damping_eta(c, kxi, kyj, kz[k]));
      // The free surface's rows: the sweep's value completed (in place: u_prev there is read already).
      for (index_t k = 0; k < top; ++k) o[k] = s.surface(uc, k, o[k], mm[k], damping_eta(c, kxi, kyj, kz[k]));
    }
    if (rows) rows->after(i, j);
  });
}

// The reverse sweep's vector loop over row (i, j); Next: u[n+1] also into next (the hook's row).
template <class T, int R, bool Next>
void reverse_row(const SweepConstants<T, R>& s, const ReverseSweepFields<T>& f, index_t i, index_t j, index_t base,
                 T* next) {
  const StepCoefficients<T> c = s.c;
  const T* w = s.w;
  const index_t sx = s.sx, sy = s.sy, nz = s.nz;
  const T* uc = f.u + base;
  const T* up = f.u_prev + base;
  const T* lc = f.lam + base;
  const T* lp = f.lam_prev + base;
  const T* mm = s.m + base;
  const T* kz = s.kz;
  T* lo = f.lam_out + base;
  T* gr = f.grad + base;
  const T kxi = s.kx[i], kyj = s.ky[j];
  T saved[R] = {};  // the gradient at the free surface's rows, imaged again below
  for (index_t k = 0; k < s.top; ++k) saved[k] = gr[k];
#pragma omp simd
  for (index_t k = 0; k < nz; ++k) {
    const T eta = damping_eta(c, kxi, kyj, kz[k]);
    const T u_next = leapfrog_update(c, uc[k], up[k], laplacian<T, R>(w, uc + k, sy, sx), mm[k], eta);
    const T lam = leapfrog_update(c, lc[k], lp[k], laplacian<T, R>(w, lc + k, sy, sx), mm[k], eta);
    gr[k] += imaging_term(c, lam, u_next, uc[k], up[k]);
    lo[k] = lam;
    if constexpr (Next) next[k] = u_next;
  }
  // The free surface's rows, after the vector loop (which keeps its alignment): u[n+1] recomputed
  // and both fields completed with the mirror's share, imaged again from the saved gradient (the
  // CUDA backend's reverse pass does the same).
  for (index_t k = 0; k < s.top; ++k) {
    const T eta = damping_eta(c, kxi, kyj, kz[k]);
    const T u_next =
        s.surface(uc, k, leapfrog_update(c, uc[k], up[k], laplacian<T, R>(w, uc + k, sy, sx), mm[k], eta), mm[k], eta);
    const T lam = s.surface(lc, k, lo[k], mm[k], eta);
    gr[k] = saved[k] + imaging_term(c, lam, u_next, uc[k], up[k]);
    lo[k] = lam;
    if constexpr (Next) next[k] = u_next;
  }
}

template <class T, int R>
void reverse_sweep(const Problem<T>& p, const ReverseSweepFields<T>& f) {
  const SweepConstants<T, R> s(p);
  for_each_row<T, R>(s, 2, f.hook, [&](index_t i, index_t j, index_t base, const auto& rows) {
    if (!rows) return reverse_row<T, R, false>(s, f, i, j, base, nullptr);
    rows->before(i, j);
    T* next = rows->next_row();
    if (next != nullptr)
      reverse_row<T, R, true>(s, f, i, j, base, next);
    else
      reverse_row<T, R, false>(s, f, i, j, base, nullptr);
    rows->after(i, j);
  });
}

template <class T, int R>
void next_at(const Problem<T>& p, const T* u, const T* up, const index_t* index, std::size_t count, T* out) {
  const SweepConstants<T, R> s(p);
  sweep_rows::for_each_point(count, 1024, [&](std::size_t q) {
    const index_t idx = index[q];
    const auto [i, j, k] = s.g.coordinates(idx);
    const T eta = s.eta(i, j, k);
    const T v = leapfrog_update(s.c, u[idx], up[idx], laplacian<T, R>(s.w, u + idx, s.sy, s.sx), s.m[idx], eta);
    out[q] = k < s.top ? s.surface(u + (idx - k), k, v, s.m[idx], eta) : v;
  });
}

}  // namespace

template <class T>
void cpu_leapfrog_sweep(const Problem<T>& problem, const SweepFields<T>& fields) {
  dispatch_radius(problem.grid.radius(), [&](auto r) {
    if (fields.grad != nullptr && fields.hook != nullptr)
      throw std::logic_error("the two-pass imaging sweep takes no row hook");
    if (fields.grad != nullptr)
      sweep<T, decltype(r)::value, true>(problem, fields);
    else
      sweep<T, decltype(r)::value, false>(problem, fields);
  });
}

template <class T>
void cpu_reverse_sweep(const Problem<T>& problem, const ReverseSweepFields<T>& fields) {
  dispatch_radius(problem.grid.radius(), [&](auto r) { reverse_sweep<T, decltype(r)::value>(problem, fields); });
}

template <class T>
void cpu_next_at(const Problem<T>& problem, const T* u, const T* u_prev, const index_t* index, std::size_t count,
                 T* out) {
  dispatch_radius(problem.grid.radius(),
                  [&](auto r) { next_at<T, decltype(r)::value>(problem, u, u_prev, index, count, out); });
}

#define REVWAVE_INSTANTIATE(T)                                                                     \
  template void cpu_leapfrog_sweep<T>(const Problem<T>&, const SweepFields<T>&);                   \
  template void cpu_reverse_sweep<T>(const Problem<T>&, const ReverseSweepFields<T>&);             \
  template void cpu_next_at<T>(const Problem<T>&, const T*, const T*, const index_t*, std::size_t, \
                               T*);  // NOLINT(bugprone-macro-parentheses): T is a type
REVWAVE_INSTANTIATE(float)
REVWAVE_INSTANTIATE(double)
#undef REVWAVE_INSTANTIATE

}  // namespace revwave
