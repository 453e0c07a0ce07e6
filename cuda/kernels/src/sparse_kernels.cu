// The sparse kernels: __global__ wrappers around sparse_threads.hpp, and their launches.
#include <algorithm>

#include "revwave/cuda/runtime/cuda_error.hpp"
#include "revwave/cuda/kernels/launch_shape.hpp"
#include "revwave/cuda/kernels/sparse_kernels.hpp"
#include "revwave/cuda/kernels/sparse_threads.hpp"

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

template <class T, int R>
__global__ void probe_kernel(const ProbeStep<T> a) {
  sparse::probe_thread<T, R>(a, global_index(this_thread()));
}

template <class T>
__global__ void sample_probes_kernel(const PointsView<T> rec, const ProbesView probes, const T* next, T* out) {
  sparse::sample_probes_thread(rec, probes, next, out, global_index(this_thread()));
}

template <class T>
__global__ void reimage_kernel(const ProbesView probes, const SourceReimage<T> a) {
  sparse::reimage_thread(probes, a, global_index(this_thread()));
}

template <class T>
__global__ void inject_adjoint_source_kernel(const PointsView<T> rec, const AdjointSourceInjection<T> a) {
  sparse::inject_adjoint_source_thread(rec, a, global_index(this_thread()));
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
void launch_probes(const ProbeStep<T>& a, int radius, cudaStream_t stream) {
  if (a.probes.count == 0) return;
  dispatch_radius(radius, [&](auto r) {
    probe_kernel<T, decltype(r)::value><<<blocks_for(a.probes.count), sparse_block, 0, stream>>>(a);
  });
  REVWAVE_CUDA_CHECK(cudaGetLastError());
}

template <class T>
void launch_sample_probes(const PointsView<T>& rec, const ProbesView& probes, const T* next, T* out, cudaStream_t stream) {
  if (rec.count == 0) return;
  sample_probes_kernel<T><<<blocks_for(rec.count), sparse_block, 0, stream>>>(rec, probes, next, out);
  REVWAVE_CUDA_CHECK(cudaGetLastError());
}

template <class T>
void launch_reimage_sources(const ProbesView& probes, const SourceReimage<T>& a, cudaStream_t stream) {
  if (probes.count == 0) return;
  reimage_kernel<T><<<blocks_for(probes.count), sparse_block, 0, stream>>>(probes, a);
  REVWAVE_CUDA_CHECK(cudaGetLastError());
}

template <class T>
void launch_inject_adjoint_source(const PointsView<T>& rec, const AdjointSourceInjection<T>& args, cudaStream_t stream) {
  if (rec.targets == 0) return;
  inject_adjoint_source_kernel<T><<<blocks_for(rec.targets), sparse_block, 0, stream>>>(rec, args);
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
  template void launch_probes<T>(const ProbeStep<T>&, int, cudaStream_t);                                    \
  template void launch_sample_probes<T>(const PointsView<T>&, const ProbesView&, const T*, T*, cudaStream_t);     \
  template void launch_reimage_sources<T>(const ProbesView&, const SourceReimage<T>&, cudaStream_t);         \
  template void launch_inject_adjoint_source<T>(const PointsView<T>&, const AdjointSourceInjection<T>&,        \
                                                cudaStream_t);                                                \
  template void launch_fold<T>(const FoldShape&, const T*, double*, cudaStream_t);
REVWAVE_INSTANTIATE(float)
REVWAVE_INSTANTIATE(double)
#undef REVWAVE_INSTANTIATE

}  // namespace revwave
