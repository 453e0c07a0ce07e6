#include "revwave/cuda/backend/cuda_propagator.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

#include "revwave/core/errors.hpp"
#include "revwave/core/system_memory.hpp"
#include "revwave/cuda/kernels/reductions.hpp"
#include "revwave/cuda/runtime/nvtx_range.hpp"

namespace revwave {
namespace {

void copy_sync(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind, const Stream& stream) {
  REVWAVE_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, kind, stream));
  stream.synchronize();
}

}  // namespace

template <class T>
CudaPropagator<T>::CudaPropagator(const Problem<T>& problem, const CudaBudgets& budgets)
    : select_(budgets.device),
      p_(problem),
      budgets_(budgets),
      dev_(problem),
      pool_(problem.grid.template field_bytes<T>()),
      reducer_(static_cast<std::size_t>(problem.grid.alloc_points())) {
  const std::size_t bytes = field_bytes();
  pool_.ensure_capacity(2);
  state_ = DeviceState{pool_.acquire(), pool_.acquire()};
  lam_ = DeviceBuffer(bytes, "an adjoint wavefield");
  lam_prev_ = DeviceBuffer(bytes, "an adjoint wavefield");
  grad_ = DeviceBuffer(bytes, "the gradient");
  size_buffers();
  assign_physics([this](index_t idx) { return leapfrog_a_at(p_, idx); });
  folded_ = DeviceBuffer(static_cast<std::size_t>(p_.grid.interior_points()) * sizeof(double), "the interior gradient");
  energy_ = DeviceBuffer(sizeof(double), "the wavefield energy");
  energy_host_ = PinnedBuffer(sizeof(double), "the wavefield energy");
}

template <class T>
CudaPropagator<T>::CudaPropagator(const Problem<T>& problem, const CudaBudgets& budgets, std::size_t field_capacity,
                                  const ResidentWindow<T>& window, UploadRing& ring)
    : select_(budgets.device),
      p_(problem),
      budgets_(budgets),
      pool_(std::max(field_capacity, problem.grid.template field_bytes<T>())),
      reducer_(pool_.field_bytes() / sizeof(T)) {
  ring_ = &ring;
  dev_.assign(problem, window, ring, streams_.compute);
  const std::size_t bytes = pool_.field_bytes();
  pool_.ensure_capacity(2);
  state_ = DeviceState{pool_.acquire(), pool_.acquire()};
  lam_ = DeviceBuffer(bytes, "an adjoint wavefield");
  lam_prev_ = DeviceBuffer(bytes, "an adjoint wavefield");
  grad_ = DeviceBuffer(bytes, "the gradient");
  size_buffers();
  assign_physics(window.a_at);
  energy_ = DeviceBuffer(sizeof(double), "the wavefield energy");
  energy_host_ = PinnedBuffer(sizeof(double), "the wavefield energy");
  const Grid& g = p_.grid;
  layout_ = {g.alloc(0), g.alloc(1), g.alloc(2), g.padded(0), g.padded(1), g.padded(2)};
}

template <class T>
void CudaPropagator<T>::size_buffers() {
  // Allocated now: an allocation waits for the device, and no step may. An engine grows them with
  // room to spare, after the work that still reads them.
  const std::size_t nt = static_cast<std::size_t>(p_.time.nt());
  const std::size_t nrec = static_cast<std::size_t>(std::max<index_t>(p_.rec.count, 1));
  const std::size_t nsrc = static_cast<std::size_t>(std::max<index_t>(p_.src.count, 1));
  const std::size_t probes = static_cast<std::size_t>(std::max<index_t>(dev_.probes().count, 1));
  auto size = [this](DeviceBuffer& b, std::size_t bytes, const char* what) {
    if (b.bytes() >= bytes) return;
    if (ring_ != nullptr && b.bytes() > 0) streams_.compute.synchronize();
    b = DeviceBuffer(ring_ != nullptr ? bytes + bytes / 4 : bytes, what);
  };
  size(next_, probes * sizeof(T), "u[n+1] at the probes");
  size(saved_, probes * sizeof(T), "the gradient at the probes");
  size(traces_, nt * nrec * sizeof(T), "the traces");
  size(adjoint_source_, nt * nrec * sizeof(T), "the adjoint source");
  size(source_traces_, nt * nsrc * sizeof(T), "the source traces");
  size(sample_, nrec * sizeof(T), "a sample of the receivers");
}

template <class T>
void CudaPropagator<T>::assign_physics(const std::function<T(index_t)>& a_at) {
  const std::array<bool, 2> kind{static_cast<bool>(p_.density), p_.cpml.has_value()};
  if (physics_ && kind == physics_kind_ && physics_->retarget(a_at, ring_, streams_.compute)) return;
  if (physics_) streams_.compute.synchronize();  // the last steps may still read its buffers
  // Made before the last one goes: a failed allocation leaves the propagator as it was.
  std::unique_ptr<DevicePhysics<T>> next =
      make_device_physics(p_, dev_, pool_.field_bytes(), a_at, ring_, streams_.compute);
  next->set_sweep_kernel(sweep_kernel_);
  physics_ = std::move(next);
  physics_kind_ = kind;
}

template <class T>
void CudaPropagator<T>::retarget(const ResidentWindow<T>& window) {
  if (ring_ == nullptr) throw std::logic_error("CudaPropagator::retarget: not an engine's propagator");
  if (field_bytes() > pool_.field_bytes())
    throw std::logic_error("CudaPropagator::retarget: the window exceeds the fields' capacity");
  history_.reset();
  placement_ = TierReport{};
  dev_.assign(p_, window, *ring_, streams_.compute);
  size_buffers();
  assign_physics(window.a_at);
  const Grid& g = p_.grid;
  const std::array<index_t, 6> layout{g.alloc(0), g.alloc(1), g.alloc(2), g.padded(0), g.padded(1), g.padded(2)};
  if (layout == layout_) return;
  layout_ = layout;
  // Halos and row gaps lie elsewhere now: every free field zeroed once (the state's two are by reset_forward).
  fences_.before_any_write(streams_.compute);
  std::vector<DeviceField> fields;
  while (pool_.in_use() < pool_.capacity()) fields.push_back(pool_.acquire());
  for (DeviceField& f : fields) REVWAVE_CUDA_CHECK(cudaMemsetAsync(f.data(), 0, field_bytes(), streams_.compute));
}

template <class T>
CudaPropagator<T>::~CudaPropagator() {
  cudaDeviceSynchronize();  // pending work may still use the buffers; errors ignored here
  cudaGetLastError();
}

template <class T>
void CudaPropagator<T>::synchronize() {
  if (fused_) fused_->flush();  // what the device has to do, done
  REVWAVE_CUDA_CHECK(cudaDeviceSynchronize());
}

template <class T>
double CudaPropagator<T>::wavefield_energy() {
  settle_state();
  reducer_.sum_squares(state_.u.template as<const T>(), static_cast<std::size_t>(p_.grid.alloc_points()),
                       energy_.template as<double>(), streams_.compute);
  copy_sync(energy_host_.data(), energy_.data(), sizeof(double), cudaMemcpyDeviceToHost, streams_.compute);
  return *energy_host_.template as<double>();
}

template <class T>
std::size_t CudaPropagator<T>::device_budget() const {
  if (budgets_.device_memory > 0) return budgets_.device_memory;
  const std::size_t free_b = cuda_free_memory();
  return device_budget_from_free(free_b);
}

template <class T>
std::size_t CudaPropagator<T>::host_budget() const {
  return budgets_.host_memory > 0 ? budgets_.host_memory : available_memory_bytes() / 2;
}

template <class T>
void CudaPropagator<T>::reset_forward() {
  illuminate_ = nullptr;
  if (fused_) fused_->drop_decode();  // the state is replaced unread
  state_ = DeviceState{};
  state_ = DeviceState{pool_.acquire(), pool_.acquire()};
  for (DeviceField* f : {&state_.u, &state_.u_prev}) {
    fences_.before_write(f->data(), streams_.compute, &clock_);
    REVWAVE_CUDA_CHECK(cudaMemsetAsync(f->data(), 0, f->bytes(), streams_.compute));
  }
}

template <class T>
void CudaPropagator<T>::forward_step(index_t n) {
  NvtxRange range("forward");
  FusedCodec::Decode restored;
  SweepEncode encode;
  if (fused_ && !encodes_in_passing(sweep_kernel_)) fused_->flush();
  const bool decode = fused_ && fused_->take_decode(state_, restored);
  const bool encoded = !decode && fused_ && fused_->take_encode(state_, encode);
  if (illuminate_ != nullptr && (decode || encoded || !illuminates_in_passing())) {
    illuminate_ = nullptr;
    throw std::logic_error("forward_step: this step cannot add the illumination in passing");
  }
  // In place (the update is point-wise in u[n-1]) unless u[n-1] is also a checkpoint's or the history's.
  DeviceField out = state_.u_prev.shared() ? pool_.acquire() : state_.u_prev;
  fences_.before_write(out.data(), streams_.compute, &clock_);  // a copy out of it may still run
  DeviceForwardSweep<T> sweep;
  sweep.u = state_.u.template as<T>();
  sweep.u_prev = state_.u_prev.template as<T>();
  sweep.out = out.template as<T>();
  if (decode) {  // the restored state's u_prev field holds nothing yet; u[n] decoded into u's
    sweep.decode_u = restored.u;
    sweep.decode_u_prev = restored.u_prev;
    sweep.decode_bf16 = restored.bf16;
    sweep.u_decoded = state_.u.template as<T>();
  } else if (encoded) {
    sweep.encode = &encode;
  } else {
    sweep.illuminate = std::exchange(illuminate_, nullptr);
  }
  physics_->forward_sweep(sweep, streams_.compute);
  launch_inject(dev_.src(), dev_.wavelet() + n, 0, dev_.src_scale(), out.template as<T>(), streams_.compute);
  state_.u_prev = std::move(state_.u);
  state_.u = std::move(out);
}

template <class T>
void CudaPropagator<T>::settle_state() {
  if (fused_ && fused_->decode_pending()) fused_->flush();
}

template <class T>
void CudaPropagator<T>::sample(T* host_out) {
  settle_state();
  launch_sample(dev_.rec(), state_.u.template as<const T>(), sample_.template as<T>(), T(1), streams_.compute);
  copy_sync(host_out, sample_.data(), static_cast<std::size_t>(p_.rec.count) * sizeof(T), cudaMemcpyDeviceToHost,
            streams_.compute);
}

template <class T>
T* CudaPropagator<T>::trace_row(DeviceBuffer& rows, index_t sample, index_t width, const char* what) {
  if (sample < 0 || sample >= p_.time.nt()) throw std::logic_error(std::string(what) + " sample out of range");
  return rows.template as<T>() + sample * width;
}

template <class T>
void CudaPropagator<T>::record_trace(index_t n) {
  settle_state();
  launch_sample(dev_.rec(), state_.u.template as<const T>(), trace_row(traces_, n, p_.rec.count, "trace"), T(1),
                streams_.compute);
}

template <class T>
void CudaPropagator<T>::record_next_trace(index_t n) {
  settle_state();
  T* out = trace_row(traces_, n, p_.rec.count, "trace");
  next_at_probes(n - 1, state_.u.template as<T>(), state_.u_prev.template as<T>(), false);
  launch_sample_probes(dev_.rec(), dev_.probes(), next_.template as<const T>(), out, streams_.compute);
}

template <class T>
std::vector<T> CudaPropagator<T>::traces(index_t samples) {
  if (samples > p_.time.nt()) throw std::logic_error("traces: more samples asked for than a run records");
  std::vector<T> out(static_cast<std::size_t>(samples * p_.rec.count));
  copy_sync(out.data(), traces_.data(), out.size() * sizeof(T), cudaMemcpyDeviceToHost, streams_.compute);
  return out;
}

template <class T>
void CudaPropagator<T>::reset_adjoint() {
  lam_.zero_async(streams_.compute);
  lam_prev_.zero_async(streams_.compute);
  grad_.zero_async(streams_.compute);
  physics_->reset_adjoint(streams_.compute);
}

template <class T>
void CudaPropagator<T>::set_adjoint_source(std::vector<T> r) {
  const std::size_t nrec = static_cast<std::size_t>(std::max<index_t>(p_.rec.count, 1));
  if (r.size() % nrec != 0) throw std::logic_error("set_adjoint_source: not a whole number of samples");
  if (r.size() * sizeof(T) > adjoint_source_.bytes())
    throw std::logic_error("set_adjoint_source: more samples than a run has");
  adjoint_samples_ = static_cast<index_t>(r.size() / nrec);
  // On the compute stream: after any step still reading the previous one.
  if (ring_ != nullptr)
    ring_->upload(adjoint_source_.data(), r.data(), r.size() * sizeof(T), streams_.compute);
  else
    copy_sync(adjoint_source_.data(), r.data(), r.size() * sizeof(T), cudaMemcpyHostToDevice, streams_.compute);
}

template <class T>
const T* CudaPropagator<T>::adjoint_source(index_t sample) const {
  if (sample < 0 || sample >= adjoint_samples_) {
    throw std::logic_error("adjoint source sample " + std::to_string(sample) + " was not given");
  }
  return adjoint_source_.template as<T>() + sample * p_.rec.count;
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
  ps.grad = save_gradient ? grad_.template as<T>() : nullptr;
  ps.next = next_.template as<T>();
  ps.saved = saved_.template as<T>();
  ps.free_surface = p_.grid.free_surface;
  physics_->probes(ps, streams_.compute);
}

// CpuPropagator::reverse_from's steps, as kernels on the compute stream, none waited for.
template <class T>
void CudaPropagator<T>::reverse_from(index_t n, const T* u, const T* u_prev, const T* u_next) {
  const T* r_next = adjoint_source(n + 1);
  const ProbesView& probes = dev_.probes();
  if (u_next != nullptr)
    launch_read_probes(probes, u_next, static_cast<const T*>(grad_.template as<T>()), next_.template as<T>(),
                       saved_.template as<T>(), streams_.compute);
  else
    next_at_probes(n, u, u_prev, true);
  const DeviceReverseStep<T> step{u,
                                  u_prev,
                                  lam_.template as<T>(),
                                  lam_prev_.template as<T>(),
                                  lam_prev_.template as<T>(),  // lam[n+3] in, lam[n+1] out
                                  grad_.template as<T>(),
                                  u_next};
  physics_->reverse_sweep(step, streams_.compute);
  SourceReimage<T> ri;
  ri.next = next_.template as<T>();
  ri.saved = saved_.template as<T>();
  ri.lam = lam_prev_.template as<T>();
  ri.grad = grad_.template as<T>();
  ri.u = u;
  ri.u_prev = u_prev;
  ri.c = p_.coeffs;
  launch_reimage_sources(probes, ri, streams_.compute);
  AdjointSourceInjection<T> r;
  r.source = r_next;
  r.scale = dev_.rec_scale();
  r.lam = lam_prev_.template as<T>();
  r.grad = grad_.template as<T>();
  r.next = next_.template as<T>();
  r.target_probe = probes.target_probe;
  r.u = u;
  r.u_prev = u_prev;
  r.c = p_.coeffs;
  launch_inject_adjoint_source(dev_.rec(), r, streams_.compute);
  physics_->after_adjoint_source(step, streams_.compute);  // its own images, lam[n+1] complete
  swap(lam_, lam_prev_);
}

template <class T>
std::vector<double> CudaPropagator<T>::interior_gradient() {
  if (ring_ != nullptr) return {};  // an engine folds gradient_field() into its tiles on the device
  launch_fold(dev_.fold_shape(), grad_.template as<const T>(), folded_.template as<double>(), streams_.compute);
  std::vector<double> out(static_cast<std::size_t>(p_.grid.interior_points()));
  copy_sync(out.data(), folded_.data(), out.size() * sizeof(double), cudaMemcpyDeviceToHost, streams_.compute);
  return out;
}

template <class T>
std::vector<double> CudaPropagator<T>::density_gradient() {
  return physics_->density_gradient(streams_.compute);
}

template <class T>
void CudaPropagator<T>::adjoint_data_step(index_t j) {
  physics_->adjoint_sweep(lam_.template as<T>(), lam_prev_.template as<T>(), lam_prev_.template as<T>(),
                          streams_.compute);
  launch_inject(dev_.rec(), adjoint_source(j), 1, dev_.rec_scale(), lam_prev_.template as<T>(), streams_.compute);
  swap(lam_, lam_prev_);
  // P^T: the source weights w / h^3 (h^2 on a plane), without 1/a (that belongs to A^{-T}).
  const T inv_cell = static_cast<T>(1.0 / p_.grid.cell_volume());
  launch_sample(dev_.src(), lam_.template as<const T>(), trace_row(source_traces_, j, p_.src.count, "source trace"),
                inv_cell, streams_.compute);
}

template <class T>
std::vector<T> CudaPropagator<T>::source_traces(index_t samples) {
  if (samples > p_.time.nt()) throw std::logic_error("source_traces: more samples asked for than a run records");
  std::vector<T> out(static_cast<std::size_t>(samples * p_.src.count));
  copy_sync(out.data(), source_traces_.data(), out.size() * sizeof(T), cudaMemcpyDeviceToHost, streams_.compute);
  return out;
}

template <class T>
void CudaPropagator<T>::upload_state(const T* u, const T* u_prev) {
  if (fused_) fused_->drop_decode();  // the state is replaced unread
  fences_.before_any_write(streams_.compute);
  if (state_.u.shared()) state_.u = pool_.acquire();
  if (state_.u_prev.shared()) state_.u_prev = pool_.acquire();
  copy_sync(state_.u.data(), u, field_bytes(), cudaMemcpyHostToDevice, streams_.compute);
  copy_sync(state_.u_prev.data(), u_prev, field_bytes(), cudaMemcpyHostToDevice, streams_.compute);
}

template <class T>
void CudaPropagator<T>::download_state(T* u, T* u_prev) {
  settle_state();
  fences_.before_any_write(streams_.compute);
  copy_sync(u, state_.u.data(), field_bytes(), cudaMemcpyDeviceToHost, streams_.compute);
  copy_sync(u_prev, state_.u_prev.data(), field_bytes(), cudaMemcpyDeviceToHost, streams_.compute);
}

template <class T>
void CudaPropagator<T>::download_adjoint(T* lam, T* grad) {
  copy_sync(lam, lam_.data(), field_bytes(), cudaMemcpyDeviceToHost, streams_.compute);
  copy_sync(grad, grad_.data(), field_bytes(), cudaMemcpyDeviceToHost, streams_.compute);
}

template class CudaPropagator<float>;
template class CudaPropagator<double>;

}  // namespace revwave
