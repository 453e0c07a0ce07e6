#include <cub/block/block_reduce.cuh>

#include "cuda_error.hpp"
#include "sparse_kernels.hpp"

namespace revwave {
namespace {

constexpr int threads = 256;

unsigned blocks_for(index_t n) { return static_cast<unsigned>((n + threads - 1) / threads); }

template <class T>
__device__ T sample_one(const PointsView<T>& pts, const T* field, index_t p) {
  T s = 0;
  for (int c = 0; c < 8; ++c) s += pts.weight[8 * p + c] * field[pts.index[8 * p + c]];
  return s;
}

template <class T>
__global__ void sample_kernel(const PointsView<T> pts, const T* field, T* out, T post_scale) {
  const index_t p = static_cast<index_t>(blockIdx.x) * threads + threadIdx.x;
  if (p >= pts.count) return;
  const T s = sample_one(pts, field, p);
  out[p] = post_scale == T(1) ? s : s * post_scale;
}

template <class T>
__global__ void inject_kernel(const PointsView<T> pts, const T* values, index_t value_stride, const T* scale, T* field) {
  const index_t t = static_cast<index_t>(blockIdx.x) * threads + threadIdx.x;
  if (t >= pts.targets) return;
  const index_t idx = pts.target_index[t];
  T f = field[idx];
  for (index_t e = pts.target_begin[t]; e < pts.target_begin[t + 1]; ++e) {
    const index_t k = pts.corner[e];
    f += pts.weight[k] * values[(k / 8) * value_stride] * scale[k];
  }
  field[idx] = f;
}

template <class T>
__global__ void residual_misfit_kernel(const PointsView<T> rec, const T* u_next, const T* observed, T* residual,
                                       double* misfit) {
  using Reduce = cub::BlockReduce<double, threads>;
  __shared__ typename Reduce::TempStorage temp;
  double local = 0;
  for (index_t r = threadIdx.x; r < rec.count; r += threads) {
    const T res = sample_one(rec, u_next, r) - observed[r];
    residual[r] = res;
    local += 0.5 * static_cast<double>(res) * static_cast<double>(res);
  }
  const double total = Reduce(temp).Sum(local);
  if (threadIdx.x == 0) *misfit = total;
}

template <class T>
__global__ void inject_residual_kernel(const PointsView<T> rec, const ResidualInjection<T> a) {
  const index_t t = static_cast<index_t>(blockIdx.x) * threads + threadIdx.x;
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

template <class T>
__global__ void fold_kernel(const FoldShape s, const T* padded, double* out) {
  const index_t t = static_cast<index_t>(blockIdx.x) * threads + threadIdx.x;
  if (t >= s.nx * s.ny * s.nz) return;
  const index_t iz = t % s.nz, iy = (t / s.nz) % s.ny, ix = t / (s.nz * s.ny);
  const index_t nbl = s.nbl;
  auto lo = [nbl](index_t i) { return i == 0 ? index_t(0) : i + nbl; };
  auto hi = [nbl](index_t i, index_t n) { return i == n - 1 ? n + 2 * nbl - 1 : i + nbl; };
  double sum = 0;
  for (index_t i = lo(ix); i <= hi(ix, s.nx); ++i)
    for (index_t j = lo(iy); j <= hi(iy, s.ny); ++j)
      for (index_t k = lo(iz); k <= hi(iz, s.nz); ++k)
        sum += static_cast<double>(padded[(i + s.radius) * s.sx + (j + s.radius) * s.sy + (k + s.radius)]);
  out[t] = sum;
}

}  // namespace

template <class T>
void launch_sample(const PointsView<T>& pts, const T* field, T* out, T post_scale, cudaStream_t stream) {
  if (pts.count == 0) return;
  sample_kernel<T><<<blocks_for(pts.count), threads, 0, stream>>>(pts, field, out, post_scale);
  REVWAVE_CUDA_CHECK(cudaGetLastError());
}

template <class T>
void launch_inject(const PointsView<T>& pts, const T* values, index_t value_stride, const T* scale, T* field,
                   cudaStream_t stream) {
  if (pts.targets == 0) return;
  inject_kernel<T><<<blocks_for(pts.targets), threads, 0, stream>>>(pts, values, value_stride, scale, field);
  REVWAVE_CUDA_CHECK(cudaGetLastError());
}

template <class T>
void launch_residual_misfit(const PointsView<T>& rec, const T* u_next, const T* observed, T* residual, double* misfit,
                            cudaStream_t stream) {
  residual_misfit_kernel<T><<<1, threads, 0, stream>>>(rec, u_next, observed, residual, misfit);
  REVWAVE_CUDA_CHECK(cudaGetLastError());
}

template <class T>
void launch_inject_residual(const PointsView<T>& rec, const ResidualInjection<T>& args, cudaStream_t stream) {
  if (rec.targets == 0) return;
  inject_residual_kernel<T><<<blocks_for(rec.targets), threads, 0, stream>>>(rec, args);
  REVWAVE_CUDA_CHECK(cudaGetLastError());
}

template <class T>
void launch_fold(const FoldShape& shape, const T* padded, double* out, cudaStream_t stream) {
  const index_t n = shape.nx * shape.ny * shape.nz;
  if (n == 0) return;
  fold_kernel<T><<<blocks_for(n), threads, 0, stream>>>(shape, padded, out);
  REVWAVE_CUDA_CHECK(cudaGetLastError());
}

#define REVWAVE_INSTANTIATE(T)                                                                               \
  template void launch_sample<T>(const PointsView<T>&, const T*, T*, T, cudaStream_t);                        \
  template void launch_inject<T>(const PointsView<T>&, const T*, index_t, const T*, T*, cudaStream_t);        \
  template void launch_residual_misfit<T>(const PointsView<T>&, const T*, const T*, T*, double*, cudaStream_t); \
  template void launch_inject_residual<T>(const PointsView<T>&, const ResidualInjection<T>&, cudaStream_t);   \
  template void launch_fold<T>(const FoldShape&, const T*, double*, cudaStream_t);
REVWAVE_INSTANTIATE(float)
REVWAVE_INSTANTIATE(double)
#undef REVWAVE_INSTANTIATE

}  // namespace revwave
