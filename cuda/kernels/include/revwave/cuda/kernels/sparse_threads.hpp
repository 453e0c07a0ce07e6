// One thread's work in each sparse kernel (sampling, gather injection, the reverse step's probes
// and re-imaging, the probes' trace, adjoint-source injection, fold), host+device: their launch
// structs (sparse_launch.hpp) run these bodies on a GPU and on cudasim alike. All are 1D launches;
// t is the global thread index.
#pragma once
#include "revwave/cuda/kernels/sparse_kernels.hpp"
#include "revwave/numerics/boundary/free_surface.hpp"

namespace revwave::sparse {

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

// u[n+1] at probe p (and the gradient there, where a source term makes it to be re-imaged).
template <class T, int R>
REVWAVE_HD void probe_thread(const ProbeStep<T>& a, index_t p) {
  if (p >= a.probes.count) return;
  const SweepArgs<T>& g = a.sweep;
  const index_t idx = a.probes.index[p];
  // Grid::coordinates (a plane's sy is 0: its one row is j = 0)
  const index_t i = idx / g.sx - R, in_plane = idx % g.sx;
  const index_t j = g.sy ? in_plane / g.sy - R : 0, k = g.sy ? in_plane % g.sy : in_plane;
  T w[R + 1];
  for (int q = 0; q <= R; ++q) w[q] = g.w[q];
  const T eta = damping_eta(g.c, g.kx[i], g.ky[j], g.kz[k]);
  T v = leapfrog_update(g.c, g.u[idx], g.u_prev[idx], laplacian<T, R>(w, g.u + idx, g.sy, g.sx), g.m[idx], eta);
  // The free surface's share before the sources, as the CPU's next_at and the forward step add it.
  if (a.free_surface && k < R) v = free_surface_value<T, R>(g.w, g.u + (idx - k), k, v, leapfrog_a(g.c, g.m[idx], eta));
  if (a.boundary_share != nullptr && a.boundary_probe[p] >= 0) v += a.boundary_share[p];
  const index_t e0 = a.probes.source_begin[p], e1 = a.probes.source_begin[p + 1];
  if (e0 == e1) {
    a.next[p] = v;
    return;
  }
  const T q = a.wavelet[a.n];
  for (index_t e = e0; e < e1; ++e) {
    const index_t c = a.probes.source_corner[e];
    v += a.src_weight[c] * q * a.src_scale[c];
  }
  a.next[p] = v;
  if (a.grad != nullptr) a.saved[p] = a.grad[idx];
}

// u[n+1] at probe p read from a stored history's field (its source terms in: the bits probe_thread
// gives), and the gradient there where a source term makes it to be re-imaged.
template <class T>
REVWAVE_HD void read_probe_thread(const ProbesView& pr, const T* u_next, const T* grad, T* next, T* saved, index_t p) {
  if (p >= pr.count) return;
  const index_t idx = pr.index[p];
  next[p] = u_next[idx];
  if (grad != nullptr && pr.source_begin[p] != pr.source_begin[p + 1]) saved[p] = grad[idx];
}

// Receiver r's trace from the probes: its corners in sample_one's order.
template <class T>
REVWAVE_HD void sample_probes_thread(const PointsView<T>& rec, const ProbesView& pr, const T* next, T* out, index_t r) {
  if (r >= rec.count) return;
  T s = 0;
  for (index_t c = 8 * r; c < 8 * r + 8; ++c) s += rec.weight[c] * next[pr.receiver_probe[c]];
  out[r] = s;
}

template <class T>
REVWAVE_HD void reimage_thread(const ProbesView& pr, const SourceReimage<T>& a, index_t p) {
  if (p >= pr.count || pr.source_begin[p] == pr.source_begin[p + 1]) return;
  const index_t idx = pr.index[p];
  a.grad[idx] = a.saved[p] + imaging_term(a.c, a.lam[idx], a.next[p], a.u[idx], a.u_prev[idx]);
}

template <class T>
REVWAVE_HD void inject_adjoint_source_thread(const PointsView<T>& rec, const AdjointSourceInjection<T>& a, index_t t) {
  if (t >= rec.targets) return;
  const index_t idx = rec.target_index[t];
  T lam = a.lam[idx], grad = a.grad[idx];
  const T un = a.next[a.target_probe[t]], uc = a.u[idx], up = a.u_prev[idx];
  for (index_t e = rec.target_begin[t]; e < rec.target_begin[t + 1]; ++e) {
    const index_t k = rec.corner[e];
    const T delta = rec.weight[k] * a.source[k / 8] * a.scale[k];
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
  const index_t nbl = s.nbl, top = s.nbl_top, side = s.nbl_y;
  auto lo = [](index_t i, index_t layer) { return i == 0 ? index_t(0) : i + layer; };
  auto hi = [](index_t i, index_t n, index_t layer, index_t layer_hi) {
    return i == n - 1 ? n + layer + layer_hi - 1 : i + layer;
  };
  double sum = 0;
  for (index_t i = lo(ix, nbl); i <= hi(ix, s.nx, nbl, nbl); ++i)
    for (index_t j = lo(iy, side); j <= hi(iy, s.ny, side, side); ++j)
      for (index_t k = lo(iz, top); k <= hi(iz, s.nz, top, nbl); ++k)
        sum += static_cast<double>(padded[(i + s.radius) * s.sx + (j + s.radius) * s.sy + k]);  // Grid::index
  out[t] = sum;
}

}  // namespace revwave::sparse
