// The sweep kernels. Each thread owns one (y, z) column and walks a chunk of x planes;
// a warp spans 32 consecutive z, so every access to a plane is coalesced. The x and y
// neighbours of consecutive planes are re-read from L1/L2 rather than DRAM.
#include <algorithm>
#include <stdexcept>

#include "cuda_error.hpp"
#include "sweep_kernels.hpp"

namespace revwave {
namespace {

constexpr int block_z = 32;
constexpr int block_y = 8;
constexpr int chunk_x = 16;

template <class T, int R, bool Imaging>
__global__ void __launch_bounds__(block_z * block_y) sweep_kernel(const SweepArgs<T> a) {
  const index_t k = static_cast<index_t>(blockIdx.x) * block_z + threadIdx.x;
  const index_t j = static_cast<index_t>(blockIdx.y) * block_y + threadIdx.y;
  if (k >= a.nz || j >= a.ny) return;
  const index_t i_begin = static_cast<index_t>(blockIdx.z) * chunk_x;
  const index_t i_end = i_begin + chunk_x < a.nx ? i_begin + chunk_x : a.nx;
  T w[R + 1];
#pragma unroll
  for (int q = 0; q <= R; ++q) w[q] = a.w[q];
  const T* __restrict__ m = a.m;
  const T* __restrict__ kx = a.kx;
  const T kyj = a.ky[j], kzk = a.kz[k];
  const index_t sx = a.sx, sy = a.sy;
  index_t idx = (i_begin + R) * sx + (j + R) * sy + (k + R);
  for (index_t i = i_begin; i < i_end; ++i, idx += sx) {
    const T* uc = a.u + idx;
    const T v = leapfrog_update(a.c, uc[0], a.u_prev[idx], laplacian<T, R>(w, uc, sy, sx), m[idx],
                                damping_eta(a.c, kx[i], kyj, kzk));
    if constexpr (Imaging) a.grad[idx] += imaging_term(a.c, v, a.fwd_next[idx], a.fwd[idx], a.fwd_prev[idx]);
    a.out[idx] = v;
  }
}

template <class T, int R>
void launch_radius(const SweepArgs<T>& a, cudaStream_t stream) {
  const dim3 block(block_z, block_y, 1);
  const dim3 grid(static_cast<unsigned>((a.nz + block_z - 1) / block_z),
                  static_cast<unsigned>((a.ny + block_y - 1) / block_y),
                  static_cast<unsigned>((a.nx + chunk_x - 1) / chunk_x));
  if (a.grad != nullptr) sweep_kernel<T, R, true><<<grid, block, 0, stream>>>(a);
  else sweep_kernel<T, R, false><<<grid, block, 0, stream>>>(a);
  REVWAVE_CUDA_CHECK(cudaGetLastError());
}

}  // namespace

template <class T>
void launch_sweep(const SweepArgs<T>& a, int radius, cudaStream_t stream) {
  if (a.nx <= 0 || a.ny <= 0 || a.nz <= 0) return;
  if (a.ny > 65535L * block_y || a.nx > 65535L * chunk_x) throw std::logic_error("grid too large for the sweep launch");
  switch (radius) {
    case 1: return launch_radius<T, 1>(a, stream);
    case 2: return launch_radius<T, 2>(a, stream);
    case 3: return launch_radius<T, 3>(a, stream);
    case 4: return launch_radius<T, 4>(a, stream);
    case 5: return launch_radius<T, 5>(a, stream);
    case 6: return launch_radius<T, 6>(a, stream);
    case 7: return launch_radius<T, 7>(a, stream);
    case 8: return launch_radius<T, 8>(a, stream);
    default: throw std::logic_error("stencil radius out of range");
  }
}

template void launch_sweep<float>(const SweepArgs<float>&, int, cudaStream_t);
template void launch_sweep<double>(const SweepArgs<double>&, int, cudaStream_t);

}  // namespace revwave
