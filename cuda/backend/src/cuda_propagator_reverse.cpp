#include <vector>

#include "revwave/cuda/backend/cuda_propagator.hpp"
#include "revwave/cuda/runtime/nvtx_range.hpp"

// CudaPropagator's reverse: the fused reverse step (from the state or from a stored history's
// fields), the gradients read back, and the linear adjoint of the dot-product test.
namespace revwave {

template <class T>
void CudaPropagator<T>::reset_adjoint() {
  adjoint_.reset(streams_.compute);
  physics_->reset_adjoint(streams_.compute);
}

template <class T>
void CudaPropagator<T>::reverse_step(index_t n) {
  settle_state();
  NvtxRange range("reverse");
  reverse_from(n, state_.u.template as<T>(), state_.u_prev.template as<T>());
}

template <class T>
void CudaPropagator<T>::next_at_probes(index_t n, const T* u, const T* u_prev, bool save_gradient) {
  ProbeStep<T> ps;
  ps.probes = dev_.probes();
  ps.sweep = dev_.sweep_base();
  ps.sweep.u = u;
  ps.sweep.u_prev = u_prev;
  ps.src_weight = dev_.src().weight;
  ps.src_scale = dev_.src_scale();
  ps.wavelet = dev_.wavelet();
  ps.n = n;
  ps.grad = save_gradient ? adjoint_.grad.template as<T>() : nullptr;
  ps.next = records_.next();
  ps.saved = records_.saved();
  ps.free_surface = p_.grid.free_surface;
  physics_->probes(ps, streams_.compute);
}

// CpuPropagator::reverse_from's steps, as kernels on the compute stream, none waited for.
template <class T>
void CudaPropagator<T>::reverse_from(index_t n, const T* u, const T* u_prev, const T* u_next) {
  const T* r_next = records_.adjoint_source(n + 1);
  const ProbesView& probes = dev_.probes();
  // u[n+1] as a field where the physics images from one (the C-PML): the history's, else made by
  // the forward step's kernels; the probes read it there. Else the probe kernel recomputes u[n+1]
  // at the probes from u[n], u[n-1], and the history's u[n+1] is not read: every strategy runs the
  // same kernels on the same inputs, so all give full's bits on a GPU too.
  const T* next = nullptr;
  if (physics_->reads_next_field())
    next = u_next != nullptr ? u_next : physics_->next_field(n, u, u_prev, streams_.compute);
  if (next != nullptr)
    launch_read_probes(probes, next, static_cast<const T*>(adjoint_.grad.template as<T>()), records_.next(),
                       records_.saved(), streams_.compute);
  else
    next_at_probes(n, u, u_prev, true);
  const DeviceReverseStep<T> step{u,
                                  u_prev,
                                  adjoint_.lam.template as<T>(),
                                  adjoint_.lam_prev.template as<T>(),
                                  adjoint_.lam_prev.template as<T>(),  // lam[n+3] in, lam[n+1] out
                                  adjoint_.grad.template as<T>(),
                                  next};
  physics_->reverse_sweep(step, streams_.compute);
  SourceReimage<T> ri;
  ri.next = records_.next();
  ri.saved = records_.saved();
  ri.lam = adjoint_.lam_prev.template as<T>();
  ri.grad = adjoint_.grad.template as<T>();
  ri.u = u;
  ri.u_prev = u_prev;
  ri.c = p_.coeffs;
  launch_reimage_sources(probes, ri, streams_.compute);
  AdjointSourceInjection<T> r;
  r.source = r_next;
  r.scale = dev_.rec_scale();
  r.lam = adjoint_.lam_prev.template as<T>();
  r.grad = adjoint_.grad.template as<T>();
  r.next = records_.next();
  r.target_probe = probes.target_probe;
  r.u = u;
  r.u_prev = u_prev;
  r.c = p_.coeffs;
  launch_inject_adjoint_source(dev_.rec(), r, streams_.compute);
  physics_->after_adjoint_source(step, streams_.compute);  // its own images, lam[n+1] complete
  adjoint_.advance();
}

template <class T>
std::vector<double> CudaPropagator<T>::interior_gradient() {
  if (ring_ != nullptr) return {};  // an engine folds adjoint().grad into its tiles on the device
  launch_fold(dev_.fold_shape(), adjoint_.grad.template as<const T>(), folded_.template as<double>(), streams_.compute);
  std::vector<double> out(static_cast<std::size_t>(p_.grid.interior_points()));
  REVWAVE_CUDA_CHECK(cudaMemcpyAsync(out.data(), folded_.data(), out.size() * sizeof(double), cudaMemcpyDeviceToHost,
                                     streams_.compute));
  streams_.compute.synchronize();
  return out;
}

template <class T>
std::vector<double> CudaPropagator<T>::density_gradient() {
  return physics_->density_gradient(streams_.compute);
}

template <class T>
void CudaPropagator<T>::adjoint_data_step(index_t j) {
  physics_->adjoint_sweep(adjoint_.lam.template as<T>(), adjoint_.lam_prev.template as<T>(),
                          adjoint_.lam_prev.template as<T>(), streams_.compute);
  launch_inject(dev_.rec(), records_.adjoint_source(j), 1, dev_.rec_scale(), adjoint_.lam_prev.template as<T>(),
                streams_.compute);
  adjoint_.advance();
  // P^T: the source weights w / h^3 (h^2 on a plane), without 1/a (that belongs to A^{-T}).
  const T inv_cell = static_cast<T>(1.0 / p_.grid.cell_volume());
  launch_sample(dev_.src(), adjoint_.lam.template as<const T>(), records_.source_trace_row(j), inv_cell,
                streams_.compute);
}

template class CudaPropagator<float>;
template class CudaPropagator<double>;

}  // namespace revwave
