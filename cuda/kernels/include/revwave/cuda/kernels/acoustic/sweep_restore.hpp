// The fused codec's decode: the first forward step after a restore from encoded device slots reads
// the slot's two encoded fields (u[n], u[n-1]) directly, instead of a cast kernel decoding them
// into two fields first (a read of 4 bytes a point and a write of 8, float). A thread per padded
// point decodes its stencil's values (zero outside the padded box, as the fields' halos are),
// writes u[n] decoded (the next step's u_prev) and u[n+1]. The values are cast_kernels.hpp's
// decode_value, handed to laplacian_axes in the sweeps' order, so the bits are those of a decode
// followed by a sweep. Rare (one step a restore): plain rather than fast.
#pragma once
#include <cstdint>

#include <cuda_runtime_api.h>

#include "revwave/cuda/kernels/acoustic/sweep_kernels.hpp"
#include "revwave/cuda/kernels/cast_kernels.hpp"
#include "revwave/cuda/kernels/launch/launch_shape.hpp"

namespace revwave {

template <class T>
struct RestoreStep {
  SweepArgs<T> sweep;                          // m, damping, coefficients, extents; out receives u[n+1]
  const unsigned char* u_code = nullptr;       // u[n] encoded
  const unsigned char* u_prev_code = nullptr;  // u[n-1] encoded
  bool bf16 = false;
  T* u_decoded = nullptr;  // receives u[n] at the padded points
};

// Enqueued on `stream`; radius 1..8.
template <class T>
void launch_restore_step(const RestoreStep<T>& args, int radius, cudaStream_t stream);

namespace restore {

// One encoded field of the padded box.
template <class T>
struct Code {
  const std::uint16_t* values;
  T scale;  // scale_of(-shift)
  bool bf16;
  index_t nx, ny, nz;
  REVWAVE_HD Code(const unsigned char* bytes, bool b, index_t x, index_t y, index_t z) : bf16(b), nx(x), ny(y), nz(z) {
    values = reinterpret_cast<const std::uint16_t*>(bytes + (b ? 0 : 8));
    scale = cast::scale_of<T>(b ? 0 : -reinterpret_cast<const std::int32_t*>(bytes)[0]);
  }
  // The decoded value at padded (i, j, k), zero outside the box.
  REVWAVE_HD T at(index_t i, index_t j, index_t k) const {
    if (i < 0 || i >= nx || j < 0 || j >= ny || k < 0 || k >= nz) return T(0);
    return cast::decode_value(bf16, scale, values[(i * ny + j) * nz + k]);
  }
};

template <class T, int R>
REVWAVE_HD void step_thread(const RestoreStep<T>& r, const ThreadPlace& t, unsigned block_z, unsigned block_y) {
  const SweepArgs<T>& a = r.sweep;
  const index_t k = index_t(t.block.x) * block_z + t.thread.x, j = index_t(t.block.y) * block_y + t.thread.y;
  const index_t i = t.block.z;
  if (k >= a.nz || j >= a.ny) return;
  const Code<T> u(r.u_code, r.bf16, a.nx, a.ny, a.nz), up(r.u_prev_code, r.bf16, a.nx, a.ny, a.nz);
  T z[2 * R + 1], y[2 * R + 1], x[2 * R + 1], w[R + 1];
  for (int q = 0; q <= R; ++q) w[q] = a.w[q];
  const index_t dy = a.sy == 0 ? 0 : 1;  // a plane's y neighbours are the point itself (Grid::stride_y)
  for (int d = -R; d <= R; ++d) {
    z[R + d] = u.at(i, j, k + d);
    y[R + d] = u.at(i, j + d * dy, k);
    x[R + d] = u.at(i + d, j, k);
  }
  const T u0 = z[R];
  const index_t idx = (i + R) * a.sx + (j + R) * a.sy + k;  // Grid::index
  const T lap = laplacian_axes<T, R, index_t>(w, u0, z + R, 1, y + R, 1, x + R, 1);
  a.out[idx] = leapfrog_update(a.c, u0, up.at(i, j, k), lap, a.m[idx], damping_eta(a.c, a.kx[i], a.ky[j], a.kz[k]));
  r.u_decoded[idx] = u0;
}

}  // namespace restore
}  // namespace revwave
