// The column sweep: each thread owns one (y, z) column and walks a chunk of x planes; a warp
// spans 32 consecutive z, so every access to a plane is coalesced, and the x and y neighbours
// of consecutive planes are re-read from L1/L2 rather than DRAM. Host+device: the CUDA kernel
// and the CPU emulation in tests/cudasim run this same body.
#pragma once
#include "launch_shape.hpp"
#include "sweep_kernels.hpp"

namespace revwave::columns {

inline constexpr unsigned block_z = 32;
inline constexpr unsigned block_y = 8;
inline constexpr index_t chunk_x = 16;

template <class T>
LaunchShape launch_shape(const SweepArgs<T>& a) {
  if (a.ny > 65535L * block_y || a.nx > 65535L * chunk_x) throw std::logic_error("grid too large for the sweep launch");
  return {{blocks_covering(a.nz, block_z), blocks_covering(a.ny, block_y), blocks_covering(a.nx, unsigned(chunk_x))},
          {block_z, block_y, 1}};
}

template <class T, int R, bool Imaging>
REVWAVE_HD void sweep_thread(const SweepArgs<T>& a, const ThreadPlace& t) {
  const index_t k = static_cast<index_t>(t.block.x) * block_z + t.thread.x;
  const index_t j = static_cast<index_t>(t.block.y) * block_y + t.thread.y;
  if (k >= a.nz || j >= a.ny) return;
  const index_t i_begin = static_cast<index_t>(t.block.z) * chunk_x;
  const index_t i_end = i_begin + chunk_x < a.nx ? i_begin + chunk_x : a.nx;
  T w[R + 1];
#pragma unroll
  for (int q = 0; q <= R; ++q) w[q] = a.w[q];
  const T* __restrict__ m = a.m;
  const T* __restrict__ kx = a.kx;
  const T kyj = a.ky[j], kzk = a.kz[k];
  const index_t sx = a.sx, sy = a.sy;
  index_t idx = (i_begin + R) * sx + (j + R) * sy + k;  // Grid::index
  for (index_t i = i_begin; i < i_end; ++i, idx += sx) {
    const T* uc = a.u + idx;
    const T v = leapfrog_update(a.c, uc[0], a.u_prev[idx], laplacian<T, R>(w, uc, sy, sx), m[idx],
                                damping_eta(a.c, kx[i], kyj, kzk));
    if constexpr (Imaging) a.grad[idx] += imaging_term(a.c, v, a.fwd_next[idx], a.fwd[idx], a.fwd_prev[idx]);
    a.out[idx] = v;
  }
}

}  // namespace revwave::columns
