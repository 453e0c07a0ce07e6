// One thread's work in each sparse kernel (sampling, gather injection, residual, adjoint-source
// injection, fold), host+device: the CUDA kernels and the CPU emulation in tests/cudasim run
// these bodies. All are 1D launches of `sparse_block` threads; t is the global thread index.
#pragma once
#include "launch_shape.hpp"
#include "sparse_kernels.hpp"

namespace revwave::sparse {

inline constexpr unsigned sparse_block = 256;

inline LaunchShape launch_shape(index_t items) { return {{blocks_covering(items, sparse_block), 1, 1}, {sparse_block, 1, 1}}; }

REVWAVE_HD index_t global_index(const ThreadPlace& p) {
  return static_cast<index_t>(p.block.x) * sparse_block + p.thread.x;
}

template <class T>
REVWAVE_HD T sample_one(const PointsView<T>& pts, const T* field, index_t p) {
  T s = 0;
  for (int c = 0; c < 8; ++c) s += pts.weight[8 * p + c] * field[pts.index[8 * p + c]];
  return s;
}

template <class T>
REVWAVE_HD void sample_thread(const PointsView<T>& pts, const T* field, T* out, T post_scale, index_t p) {
  if (p >= pts.count) return;
  const T s = sample_one(pts, field, p);
  out[p] = post_scale == T(1) ? s : s * post_scale;
}

// One distinct target index, its corners applied in the CPU's (point, corner) order.
template <class T>
REVWAVE_HD void inject_thread(const PointsView<T>& pts, const T* values, index_t value_stride, const T* scale, T* field,
                              index_t t) {
  if (t >= pts.targets) return;
  const index_t idx = pts.target_index[t];
  T f = field[idx];
  for (index_t e = pts.target_begin[t]; e < pts.target_begin[t + 1]; ++e) {
    const index_t k = pts.corner[e];
    f += pts.weight[k] * values[(k / 8) * value_stride] * scale[k];
  }
  field[idx] = f;
}

// The residuals of receivers tid, tid + threads, ...; returns this thread's share of the misfit.
template <class T>
REVWAVE_HD double residual_thread(const PointsView<T>& rec, const T* u_next, const T* observed, T* residual,
                                  index_t tid, index_t threads) {
  double local = 0;
  for (index_t r = tid; r < rec.count; r += threads) {
    const T res = sample_one(rec, u_next, r) - observed[r];
    residual[r] = res;
    local += 0.5 * static_cast<double>(res) * static_cast<double>(res);
  }
  return local;
}

template <class T>
REVWAVE_HD void inject_residual_thread(const PointsView<T>& rec, const ResidualInjection<T>& a, index_t t) {
  if (t >= rec.targets) return;
  const index_t idx = rec.target_index[t];
  T lam = a.lam[idx], grad = a.grad[idx];
  const T un = a.u_next[idx], uc = a.u[idx], up = a.u_prev[idx];
  for (index_t e = rec.target_begin[t]; e < rec.target_begin[t + 1]; ++e) {
    const index_t k = rec.corner[e];
    const T delta = rec.weight[k] * a.residual[k / 8] * a.scale[k];
    lam += delta;
    grad += imaging_term(a.c, delta, un, uc, up);
  }
  a.lam[idx] = lam;
  a.grad[idx] = grad;
}

// E^T at interior point t: the sum over the padded points that extend it (edges carry the layer).
template <class T>
REVWAVE_HD void fold_thread(const FoldShape& s, const T* padded, double* out, index_t t) {
  if (t >= s.nx * s.ny * s.nz) return;
  const index_t iz = t % s.nz, iy = (t / s.nz) % s.ny, ix = t / (s.nz * s.ny);
  const index_t nbl = s.nbl;
  auto lo = [nbl](index_t i) { return i == 0 ? index_t(0) : i + nbl; };
  auto hi = [nbl](index_t i, index_t n) { return i == n - 1 ? n + 2 * nbl - 1 : i + nbl; };
  double sum = 0;
  for (index_t i = lo(ix); i <= hi(ix, s.nx); ++i)
    for (index_t j = lo(iy); j <= hi(iy, s.ny); ++j)
      for (index_t k = lo(iz); k <= hi(iz, s.nz); ++k)
        sum += static_cast<double>(padded[(i + s.radius) * s.sx + (j + s.radius) * s.sy + k]);  // Grid::index
  out[t] = sum;
}

}  // namespace revwave::sparse
