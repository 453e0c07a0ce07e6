// The sparse kernels' launches (sparse_launch.hpp): on a GPU, or on cudasim when it compiles this file.
#include "revwave/cuda/kernels/sparse_kernels.hpp"
#include "revwave/cuda/kernels/sparse_launch.hpp"

namespace revwave {

using launch::enqueue;

template <class T>
void launch_sample(const PointsView<T>& pts, const T* field, T* out, T post_scale, cudaStream_t stream) {
  enqueue(sparse::SampleKernel<T>(pts, field, out, post_scale), stream);
}

template <class T>
void launch_inject(const PointsView<T>& pts, const T* values, index_t value_stride, const T* scale, T* field,
                   cudaStream_t stream) {
  enqueue(sparse::InjectKernel<T>(pts, values, value_stride, scale, field), stream);
}

template <class T>
void launch_probes(const ProbeStep<T>& a, int radius, cudaStream_t stream) {
  if (a.probes.count == 0) return;
  dispatch_radius(radius, [&](auto r) { enqueue(sparse::ProbeKernel<T, decltype(r)::value>(a), stream); });
}

template <class T>
void launch_read_probes(const ProbesView& probes, const T* u_next, const T* grad, T* next, T* saved,
                        cudaStream_t stream) {
  if (probes.count == 0) return;
  enqueue(sparse::ReadProbesKernel<T>(probes, u_next, grad, next, saved), stream);
}

template <class T>
void launch_sample_probes(const PointsView<T>& rec, const ProbesView& probes, const T* next, T* out,
                          cudaStream_t stream) {
  enqueue(sparse::SampleProbesKernel<T>(rec, probes, next, out), stream);
}

template <class T>
void launch_reimage_sources(const ProbesView& probes, const SourceReimage<T>& a, cudaStream_t stream) {
  enqueue(sparse::ReimageKernel<T>(probes, a), stream);
}

template <class T>
void launch_inject_adjoint_source(const PointsView<T>& rec, const AdjointSourceInjection<T>& args,
                                  cudaStream_t stream) {
  enqueue(sparse::AdjointSourceKernel<T>(rec, args), stream);
}

template <class T>
void launch_fold(const FoldShape& shape, const T* padded, double* out, cudaStream_t stream) {
  enqueue(sparse::FoldKernel<T>(shape, padded, out), stream);
}

#define REVWAVE_INSTANTIATE(T)                                                                                         \
  template void launch_sample<T>(const PointsView<T>&, const T*, T*, T, cudaStream_t);                                 \
  template void launch_inject<T>(const PointsView<T>&, const T*, index_t, const T*, T*, cudaStream_t);                 \
  template void launch_probes<T>(const ProbeStep<T>&, int, cudaStream_t);                                              \
  template void launch_sample_probes<T>(const PointsView<T>&, const ProbesView&, const T*, T*, cudaStream_t);          \
  template void launch_read_probes<T>(const ProbesView&, const T*, const T*, T*, T*, cudaStream_t);                    \
  template void launch_reimage_sources<T>(const ProbesView&, const SourceReimage<T>&, cudaStream_t);                   \
  template void launch_inject_adjoint_source<T>(const PointsView<T>&, const AdjointSourceInjection<T>&, cudaStream_t); \
  template void launch_fold<T>(const FoldShape&, const T*, double*, cudaStream_t);
REVWAVE_INSTANTIATE(float)
REVWAVE_INSTANTIATE(double)
#undef REVWAVE_INSTANTIATE

}  // namespace revwave
