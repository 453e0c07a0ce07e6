// The CUDA backend's propagator: the same operations and semantics as CpuPropagator
// (forward step, sample, fused reverse step, stored history, adjoint data step), with the fields
// in device memory (the forward ones from a pool that checkpoints share) and the work on a
// compute stream. No step waits for the device: the reverse steps' misfits stay in a device array
// until sample_misfits(); sample() to host memory, wavefield_energy() and interior_gradient() wait.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "revwave/cuda/runtime/cuda_streams.hpp"
#include "revwave/cuda/runtime/device_buffer.hpp"
#include "revwave/cuda/store/device_checkpoint_store.hpp"
#include "revwave/cuda/store/device_store_factory.hpp"
#include "revwave/cuda/backend/device_problem.hpp"
#include "revwave/cuda/store/field_history.hpp"
#include "revwave/cuda/kernels/reductions.hpp"
#include "revwave/driver/cuda_backend.hpp"
#include "revwave/schedule/tier_split.hpp"
#include "revwave/cuda/runtime/write_fences.hpp"

namespace revwave {

namespace detail {
struct SelectDevice {
  explicit SelectDevice(int device) { REVWAVE_CUDA_CHECK(cudaSetDevice(device)); }
};
}  // namespace detail

template <class T>
class CudaPropagator {
 public:
  using value_type = T;
  using State = DeviceState;

  explicit CudaPropagator(const Problem<T>& problem, const CudaBudgets& budgets = {});
  ~CudaPropagator();
  CudaPropagator(const CudaPropagator&) = delete;
  CudaPropagator& operator=(const CudaPropagator&) = delete;

  const Problem<T>& problem() const { return p_; }
  static const char* backend_name() { return "cuda"; }

  // ---- forward state ----
  void reset_forward();
  // Position n -> n+1: into u[n-1]'s field when the state alone holds it, else into a free one.
  void forward_step(index_t n);
  void sample(T* host_out);             // waits for the device
  void sample_device(T* device_out);    // asynchronous
  DeviceState& state() { return state_; }
  DeviceFieldPool& field_pool() { return pool_; }
  // Sizes the pool for a store or history that holds up to `held` fields at once: 2 + held.
  void reserve_fields(std::int64_t held) { pool_.ensure_capacity(2 + held); }

  // ---- reverse ----
  void reset_adjoint();
  // One pass: u[n+1] recomputed in registers (never stored), the residual and its misfit (kept on
  // the device as sample n+1's), lam[n+1] and the imaging. observed_next: host pointer; inside the
  // array given to upload_observed it is read from the device copy.
  void reverse_step(index_t n, const T* observed_next);
  void upload_observed(const T* host, std::size_t count);
  // The misfits of samples 0..count-1 as the reverse steps recorded them: one copy, one wait.
  std::vector<double> sample_misfits(index_t count);

  // ---- the stored history (strategy full) ----
  std::size_t allocate_history(index_t steps);
  void record_history(index_t n);
  void reverse_step_from_history(index_t n, const T* observed_next);
  void release_history();
  const std::string& history_tier() const { return history_tier_; }
  std::uint64_t history_copy_bytes() const { return history_ ? history_->copy_bytes() : 0; }

  // ---- checkpoint stores: every plan's through one factory (make_device_store) ----
  // --compress: the stores made from now on hold encoded slots (fp16 or bf16: every memory and
  // pinned slot, encoded on the device; zfp-rate or zfp-accuracy: the pinned slots only, encoded on
  // the host; none: handles). Disk slots stay raw.
  void set_compression(const Compression& c);
  // Bytes one device checkpoint slot takes: two fields, or their encoding.
  std::size_t slot_bytes() const { return codec_ ? codec_->slot_bytes() : 2 * field_bytes(); }
  // What a pinned host slot takes where it differs (ZFP): for split_slots and plan_device_checkpoints.
  HostSlotCost host_slot_cost() const;
  // `slots` Revolve-ordered slots: all in device memory when they fit the device budget, else the
  // lowest spilled to pinned host memory (split_slots).
  TierSplit split_slots(index_t slots) const;
  // Where the slots of a split (plan_device_checkpoints, split_slots) live: pinned ids first.
  DeviceStorePlan store_plan(const TierSplit& split) const;
  // Where the slots of a plan live: multilevel's tiers (memory is device memory), --store disk's
  // one tier of files, or revolve's and online's slots split by the budgets (split_slots).
  DeviceStorePlan store_plan(const StrategyOptions& options, const StrategyPlan& plan) const;
  // The store of a placement; the pool is sized for it here. An allocation the device or the host
  // cannot give is an OutOfMemoryError saying what would fit.
  std::unique_ptr<DeviceCheckpointStore> make_store(const DeviceStorePlan& where, PrefetchHint* hint);
  std::unique_ptr<DeviceCheckpointStore> make_store(const TierSplit& split, PrefetchHint* hint) {
    return make_store(store_plan(split), hint);
  }
  std::unique_ptr<DeviceCheckpointStore> make_store(index_t slots, PrefetchHint* hint) {
    return make_store(split_slots(slots), hint);
  }
  std::vector<double> interior_gradient();

  // ---- linear adjoint (dot-product test); device pointers ----
  void adjoint_data_step(const T* data_j, T* source_out);

  std::size_t field_bytes() const { return p_.grid.template field_bytes<T>(); }
  // Checkpoint budgets: as given, or derived (device: free memory now less a margin; host: half of what is available).
  std::size_t device_budget() const;
  std::size_t host_budget() const;
  double spill_seconds() { return clock_.seconds(); }
  void synchronize();
  // sum u[n]^2 over the grid, for the online stop rule (waits for the device).
  double wavefield_energy();
  // Which sweep kernel every step launches (both give the same results; see sweep_kernels.hpp).
  void set_sweep_kernel(SweepKernel k) { sweep_kernel_ = k; }

  // ---- test access: whole allocated-grid fields to and from host memory (synchronous) ----
  double misfit(index_t sample);  // one recorded misfit
  void upload_state(const T* u, const T* u_prev);
  void download_state(T* u, T* u_prev);
  void download_adjoint(T* lam, T* grad);
  CudaStreams& streams() { return streams_; }

 private:
  void reverse_from(index_t n, const T* u, const T* u_prev, const T* observed_next);
  const T* observed_on_device(const T* host);

  detail::SelectDevice select_;
  const Problem<T>& p_;
  CudaBudgets budgets_;
  DeviceProblem<T> dev_;
  CudaStreams streams_;
  WriteFences fences_;
  SpillClock clock_;
  DeviceFieldPool pool_;  // before every handle to its fields
  DeviceState state_;
  DeviceBuffer lam_, lam_prev_, grad_;
  DeviceBuffer next_, saved_;             // u[n+1] at the probes; the gradient there before the sweep
  DeviceBuffer residual_, partials_, misfits_, observed_, observed_step_, folded_;
  DeviceReducer<T> reducer_;
  DeviceBuffer energy_;
  PinnedBuffer energy_host_;
  const T* observed_host_ = nullptr;
  std::size_t observed_count_ = 0;
  std::unique_ptr<FieldHistory> history_;
  std::string history_tier_;
  SweepKernel sweep_kernel_ = SweepKernel::columns;
  std::unique_ptr<DeviceCodec> codec_;  // --compress fp16|bf16 (outlives the stores made with it)
  std::unique_ptr<FieldCodec> host_codec_;  // --compress zfp-...: the pinned slots' (each store copies it)
};

}  // namespace revwave
