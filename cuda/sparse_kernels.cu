// The sparse kernels: __global__ wrappers around sparse_threads.hpp, and their launches.
#include <cub/block/block_reduce.cuh>

#include "cuda_error.hpp"
#include "sparse_kernels.hpp"
#include "sparse_threads.hpp"

namespace revwave {
namespace {

using sparse::global_index;
using sparse::sparse_block;

template <class T>
__global__ void sample_kernel(const PointsView<T> pts, const T* field, T* out, T post_scale) {
  sparse::sample_thread(pts, field, out, post_scale, global_index(this_thread()));
}

template <class T>
__global__ void inject_kernel(const PointsView<T> pts, const T* values, index_t value_stride, const T* scale, T* field) {
  sparse::inject_thread(pts, values, value_stride, scale, field, global_index(this_thread()));
}

// One block: a fixed-order reduction, so the misfit has the same bits on every run.
template <class T>
__global__ void residual_misfit_kernel(const PointsView<T> rec, const T* u_next, const T* observed, T* residual,
                                       double* misfit) {
  using Reduce = cub::BlockReduce<double, sparse_block>;
  __shared__ typename Reduce::TempStorage temp;
  const double local = sparse::residual_thread(rec, u_next, observed, residual, threadIdx.x, sparse_block);
  const double total = Reduce(temp).Sum(local);
  if (threadIdx.x == 0) *misfit = total;
}

template <class T>
__global__ void inject_residual_kernel(const PointsView<T> rec, const ResidualInjection<T> a) {
  sparse::inject_residual_thread(rec, a, global_index(this_thread()));
}

template <class T>
__global__ void fold_kernel(const FoldShape s, const T* padded, double* out) {
  sparse::fold_thread(s, padded, out, global_index(this_thread()));
}

dim3 blocks_for(index_t n) { return dim3(sparse::launch_shape(n).grid.x); }

}  // namespace

template <class T>
void launch_sample(const PointsView<T>& pts, const T* field, T* out, T post_scale, cudaStream_t stream) {
  if (pts.count == 0) return;
  sample_kernel<T><<<blocks_for(pts.count), sparse_block, 0, stream>>>(pts, field, out, post_scale);
  REVWAVE_CUDA_CHECK(cudaGetLastError());
}

template <class T>
void launch_inject(const PointsView<T>& pts, const T* values, index_t value_stride, const T* scale, T* field,
                   cudaStream_t stream) {
  if (pts.targets == 0) return;
  inject_kernel<T><<<blocks_for(pts.targets), sparse_block, 0, stream>>>(pts, values, value_stride, scale, field);
  REVWAVE_CUDA_CHECK(cudaGetLastError());
}

template <class T>
void launch_residual_misfit(const PointsView<T>& rec, const T* u_next, const T* observed, T* residual, double* misfit,
                            cudaStream_t stream) {
  residual_misfit_kernel<T><<<1, sparse_block, 0, stream>>>(rec, u_next, observed, residual, misfit);
  REVWAVE_CUDA_CHECK(cudaGetLastError());
}

template <class T>
void launch_inject_residual(const PointsView<T>& rec, const ResidualInjection<T>& args, cudaStream_t stream) {
  if (rec.targets == 0) return;
  inject_residual_kernel<T><<<blocks_for(rec.targets), sparse_block, 0, stream>>>(rec, args);
  REVWAVE_CUDA_CHECK(cudaGetLastError());
}

template <class T>
void launch_fold(const FoldShape& shape, const T* padded, double* out, cudaStream_t stream) {
  const index_t n = shape.nx * shape.ny * shape.nz;
  if (n == 0) return;
  fold_kernel<T><<<blocks_for(n), sparse_block, 0, stream>>>(shape, padded, out);
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
