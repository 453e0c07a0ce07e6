// One thread's work in each density kernel, host+device: the CUDA kernels (density_kernels.cu) and
// the CPU emulation in tests/cudasim run these bodies.
//
// The sweep is the constant-density column sweep's layout (acoustic/sweep_columns.hpp, without its
// register queues): a thread owns one (y, z) column and walks a chunk of x planes, a warp spanning
// 32 consecutive z of a 128-byte aligned row, so each plane access is whole sectors and the
// stencils' neighbours (of u, lam, s and t) come from L1/L2. Every field is read from DRAM about
// once a point: forward 4 + 2 reads (u, u_prev, m, s, t) and a write, 24 bytes a point in float;
// the reverse sweep 40 bytes, 56 with dJ/drho's accumulators (density/cpu_sweep.hpp).
#pragma once
#include "revwave/cuda/kernels/density/density_kernels.hpp"
#include "revwave/cuda/kernels/launch_shape.hpp"
#include "revwave/cuda/kernels/sparse_threads.hpp"

namespace revwave::density_threads {

inline constexpr unsigned block_z = 32;
inline constexpr unsigned block_y = 8;
inline constexpr index_t chunk_x = 16;  // x planes a thread walks

template <class T>
LaunchShape launch_shape(const DensitySweepArgs<T>& a) {
  const SweepArgs<T>& b = a.base;
  if (b.ny > 65535L * block_y || b.nx > 65535L * chunk_x) throw std::logic_error("grid too large for the sweep launch");
  return {{blocks_covering(b.nz, block_z), blocks_covering(b.ny, block_y), blocks_covering(b.nx, unsigned(chunk_x))},
          {block_z, block_y, 1}};
}

enum class Mode { forward, adjoint, reverse, reverse_imaging };

template <class T, int R, Mode M>
REVWAVE_HD void sweep_thread(const DensitySweepArgs<T>& a, const ThreadPlace& p) {
  const SweepArgs<T>& b = a.base;
  const int k = static_cast<int>(p.block.x * block_z + p.thread.x);
  const int j = static_cast<int>(p.block.y * block_y + p.thread.y);
  if (k >= b.nz || j >= b.ny) return;
  const index_t i_begin = static_cast<index_t>(p.block.z) * chunk_x;
  const index_t i_end = i_begin + chunk_x < b.nx ? i_begin + chunk_x : b.nx;
  T w[R + 1];
#pragma unroll
  for (int q = 0; q <= R; ++q) w[q] = b.w[q];
  const int sx = static_cast<int>(b.sx), sy = static_cast<int>(b.sy);
  const int col = (j + R) * sy + k;  // Grid::index within a plane
  const T kyj = b.ky[j], kzk = b.kz[k];
  for (index_t i = i_begin; i < i_end; ++i) {
    const index_t idx = (i + R) * b.sx + col;
    const T eta = damping_eta(b.c, b.kx[i], kyj, kzk);
    const T m0 = b.m[idx];
    if constexpr (M == Mode::forward) {
      const T k_u = density_operator<T, R, int>(w, a.s + idx, a.t[idx], b.u + idx, sy, sx);
      b.out[idx] = leapfrog_update(b.c, b.u[idx], b.u_prev[idx], k_u, m0, eta);
    } else if constexpr (M == Mode::adjoint) {
      const T kt = density_adjoint_operator<T, R, false, int>(w, a.s + idx, a.t + idx, b.u + idx, sy, sx).value;
      b.out[idx] = leapfrog_update(b.c, b.u[idx], b.u_prev[idx], kt, m0, eta);
    } else {
      constexpr bool image = M == Mode::reverse_imaging;
      const T u0 = b.u[idx], up0 = b.u_prev[idx], lp0 = b.lam_prev[idx], g0 = b.grad[idx];
      const T k_u = density_operator<T, R, int>(w, a.s + idx, a.t[idx], b.u + idx, sy, sx);
      const T u_next = leapfrog_update(b.c, u0, up0, k_u, m0, eta);
      const DensityAdjoint<T> adj = density_adjoint_operator<T, R, image, int>(w, a.s + idx, a.t + idx, b.lam + idx, sy, sx);
      const T l = leapfrog_update(b.c, b.lam[idx], lp0, adj.value, m0, eta);
      b.grad[idx] = g0 + imaging_term(b.c, l, u_next, u0, up0);
      if constexpr (image) {
        a.image_g[idx] += density_image_g(l, k_u, a.s[idx], u_next, adj.y);
        a.image_q[idx] += density_image_q(l, u0);
      }
      b.out[idx] = l;
    }
  }
}

// u[n+1] at probe p as sparse::probe_thread gives it, by K; with a.lam, K u, and y and G where a
// source injects.
template <class T, int R>
REVWAVE_HD void probe_thread(const DensityProbeStep<T>& a, index_t p) {
  const ProbeStep<T>& ps = a.base;
  if (p >= ps.probes.count) return;
  const SweepArgs<T>& g = ps.sweep;
  const index_t idx = ps.probes.index[p];
  const index_t i = idx / g.sx - R, j = (idx % g.sx) / g.sy - R, k = idx % g.sy;  // Grid::coordinates
  T w[R + 1];
  for (int q = 0; q <= R; ++q) w[q] = g.w[q];
  const T k_u = density_operator<T, R>(w, a.s + idx, a.t[idx], g.u + idx, g.sy, g.sx);
  T v = leapfrog_update(g.c, g.u[idx], g.u_prev[idx], k_u, g.m[idx], damping_eta(g.c, g.kx[i], g.ky[j], g.kz[k]));
  if (a.lam != nullptr) a.k_u[p] = k_u;
  const index_t e0 = ps.probes.source_begin[p], e1 = ps.probes.source_begin[p + 1];
  if (e0 == e1) {
    ps.next[p] = v;
    return;
  }
  const T q = ps.wavelet[ps.n];
  for (index_t e = e0; e < e1; ++e) {
    const index_t c = ps.probes.source_corner[e];
    v += ps.src_weight[c] * q * ps.src_scale[c];
  }
  ps.next[p] = v;
  if (ps.grad != nullptr) ps.saved[p] = ps.grad[idx];
  if (a.lam != nullptr) {
    a.y[p] = density_adjoint_operator<T, R, true>(w, a.s + idx, a.t + idx, a.lam + idx, g.sy, g.sx).y;
    a.saved_g[p] = a.image_g[idx];
  }
}

template <class T>
REVWAVE_HD void reimage_thread(const ProbesView& pr, const DensityReimage<T>& a, index_t p) {
  if (p >= pr.count || pr.source_begin[p] == pr.source_begin[p + 1]) return;
  const index_t idx = pr.index[p];
  a.image_g[idx] = a.saved_g[p] + density_image_g(a.lam[idx], a.k_u[p], a.s[idx], a.next[p], a.y[p]);
}

template <class T>
REVWAVE_HD void adjoint_source_thread(const PointsView<T>& rec, const DensityAdjointSourceImages<T>& a, index_t t) {
  if (t >= rec.targets) return;
  const index_t idx = rec.target_index[t];
  T g = a.image_g[idx], q = a.image_q[idx];
  const T k_u = a.k_u[a.target_probe[t]], u = a.u[idx];
  for (index_t e = rec.target_begin[t]; e < rec.target_begin[t + 1]; ++e) {
    const index_t c = rec.corner[e];
    const T delta = rec.weight[c] * a.source[c / 8] * a.scale[c];
    g += delta * k_u;
    q += density_image_q(delta, u);
  }
  a.image_g[idx] = g;
  a.image_q[idx] = q;
}

}  // namespace revwave::density_threads
