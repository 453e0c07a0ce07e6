// The C-PML's launches (boundary/cpml_kernels.hpp): on a GPU, or on cudasim when it compiles this file.
#include "revwave/core/dispatch_radius.hpp"
#include "revwave/cuda/kernels/boundary/cpml_kernels.hpp"
#include "revwave/cuda/kernels/boundary/cpml_launch.hpp"

namespace revwave {

using launch::enqueue;

template <class T>
void launch_cpml_psi(const CpmlTables<T>& t, const T* u, T* psi_out, int radius, cudaStream_t stream) {
  dispatch_radius(radius, [&](auto r) {
    enqueue(cpml::SlabKernel<T, decltype(r)::value, cpml::SlabPass::psi>(t, u, psi_out), stream);
  });
}

template <class T>
void launch_cpml_forward(const CpmlTables<T>& t, const T* u, T* out, int radius, cudaStream_t stream) {
  launch_cpml_psi(t, u, out + t.tail, radius, stream);
  dispatch_radius(radius, [&](auto r) { enqueue(cpml::ForwardKernel<T, decltype(r)::value>(t, u, out), stream); });
}

template <class T>
void launch_cpml_adjoint_passes(const CpmlTables<T>& t, const T* lam, T* adj, int radius, cudaStream_t stream) {
  dispatch_radius(radius, [&](auto r) {
    constexpr int R = decltype(r)::value;
    enqueue(cpml::SlabKernel<T, R, cpml::SlabPass::nu>(t, lam, adj), stream);
    enqueue(cpml::SlabKernel<T, R, cpml::SlabPass::mu>(t, lam, adj), stream);
  });
}

template <class T>
void launch_cpml_adjoint(const CpmlTables<T>& t, const T* adj, T* out, int radius, cudaStream_t stream) {
  dispatch_radius(radius, [&](auto r) { enqueue(cpml::AdjointKernel<T, decltype(r)::value>(t, adj, out), stream); });
}

template <class T>
void launch_cpml_probe_share(const CpmlTables<T>& t, index_t probes, const index_t* probe_region, const T* u, T* share,
                             int radius, cudaStream_t stream) {
  dispatch_radius(radius, [&](auto r) {
    enqueue(cpml::ProbeShareKernel<T, decltype(r)::value>(t, probes, probe_region, u, share), stream);
  });
}

template <class T>
void launch_cpml_density_image(const CpmlTables<T>& t, const T* u, const T* lam, const T* adj, const T* psi, T* image,
                               int radius, cudaStream_t stream) {
  dispatch_radius(radius, [&](auto r) {
    enqueue(cpml::DensityImageKernel<T, decltype(r)::value>(t, u, lam, adj, psi, image), stream);
  });
}

template <class T>
void launch_cpml_save_gradient(const CpmlTables<T>& t, const T* grad, T* grad0, cudaStream_t stream) {
  enqueue(cpml::SaveGradientKernel<T>(t, grad, grad0), stream);
}

template <class T>
void launch_cpml_reverse(const CpmlTables<T>& t, const CpmlReverse<T>& v, int radius, cudaStream_t stream) {
  dispatch_radius(radius, [&](auto r) { enqueue(cpml::ReverseKernel<T, decltype(r)::value>(t, v), stream); });
}

#define REVWAVE_INSTANTIATE(T)                                                                                      \
  template void launch_cpml_psi<T>(const CpmlTables<T>&, const T*, T*, int, cudaStream_t);                          \
  template void launch_cpml_density_image<T>(const CpmlTables<T>&, const T*, const T*, const T*, const T*, T*, int, \
                                             cudaStream_t);                                                         \
  template void launch_cpml_forward<T>(const CpmlTables<T>&, const T*, T*, int, cudaStream_t);                      \
  template void launch_cpml_adjoint_passes<T>(const CpmlTables<T>&, const T*, T*, int, cudaStream_t);               \
  template void launch_cpml_adjoint<T>(const CpmlTables<T>&, const T*, T*, int, cudaStream_t);                      \
  template void launch_cpml_probe_share<T>(const CpmlTables<T>&, index_t, const index_t*, const T*, T*, int,        \
                                           cudaStream_t);                                                           \
  template void launch_cpml_save_gradient<T>(const CpmlTables<T>&, const T*, T*, cudaStream_t);                     \
  template void launch_cpml_reverse<T>(const CpmlTables<T>&, const CpmlReverse<T>&, int, cudaStream_t);
REVWAVE_INSTANTIATE(float)
REVWAVE_INSTANTIATE(double)
#undef REVWAVE_INSTANTIATE

}  // namespace revwave
