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
CudaPropagator<T>::CudaPropagator(const Problem<T>& problem, const DeviceBudgets& budgets)
    : select_(budgets.device),
      p_(problem),
      budgets_(budgets),
      dev_(problem),
      pool_(problem.grid.template field_bytes<T>()),
      reducer_(static_cast<std::size_t>(problem.grid.alloc_points())) {
  const std::size_t bytes = field_bytes();
  pool_.ensure_capacity(2);
  state_ = DeviceState{pool_.acquire(), pool_.acquire()};
  adjoint_ = DeviceAdjoint(bytes);
  size_buffers();
  assign_physics();
  folded_ = DeviceBuffer(static_cast<std::size_t>(p_.grid.interior_points()) * sizeof(double), "the interior gradient");
  energy_ = DeviceBuffer(sizeof(double), "the wavefield energy");
  energy_host_ = PinnedBuffer(sizeof(double), "the wavefield energy");
}

template <class T>
CudaPropagator<T>::CudaPropagator(const Problem<T>& problem, const DeviceBudgets& budgets, std::size_t field_capacity,
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
  adjoint_ = DeviceAdjoint(bytes);
  size_buffers();
  assign_physics();
  energy_ = DeviceBuffer(sizeof(double), "the wavefield energy");
  energy_host_ = PinnedBuffer(sizeof(double), "the wavefield energy");
  const Grid& g = p_.grid;
  layout_ = {g.alloc(0), g.alloc(1), g.alloc(2), g.padded(0), g.padded(1), g.padded(2)};
}

template <class T>
void CudaPropagator<T>::assign_physics() {
  const std::array<bool, 4> kind{p_.density.has_value(), p_.vti.has_value(), p_.visco.has_value(), p_.cpml.has_value()};
  if (physics_ && kind == physics_kind_ && physics_->retarget(ring_, streams_.compute)) return;
  if (physics_) streams_.compute.synchronize();  // the last steps may still read its buffers
  // Made before the last one goes: a failed allocation leaves the propagator as it was.
  std::unique_ptr<DevicePhysics<T>> next = make_device_physics(p_, dev_, pool_.field_bytes(), ring_, streams_.compute);
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
  assign_physics();
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
void CudaPropagator<T>::record_trace(index_t n) {
  settle_state();
  launch_sample(dev_.rec(), state_.u.template as<const T>(), records_.trace_row(n), T(1), streams_.compute);
}

template <class T>
void CudaPropagator<T>::record_next_trace(index_t n) {
  settle_state();
  T* out = records_.trace_row(n);
  next_at_probes(n - 1, state_.u.template as<T>(), state_.u_prev.template as<T>(), false);
  launch_sample_probes(dev_.rec(), dev_.probes(), records_.next(), out, streams_.compute);
}

template class CudaPropagator<float>;
template class CudaPropagator<double>;

}  // namespace revwave
