// The CUDA backend's propagator: the propagator concept
// (revwave/driver/propagator.hpp) as CpuPropagator implements it, over the problem's physics
// (DevicePhysics, chosen once by make_device_physics), with the fields in device memory
// (the forward ones from a pool that checkpoints share, the adjoint ones in DeviceAdjoint), the
// traces and the adjoint source too (DeviceRecords), and the work on a compute stream. No step
// waits for the device: the traces are read back once (traces()), the adjoint source copied once,
// the gradient read back once; wavefield_energy() waits. Its parts live in four sources:
// cuda_propagator.cpp (set-up and the forward), cuda_propagator_reverse.cpp (the reverse and
// the linear adjoint), cuda_propagator_stores.cpp (slots and stores), cuda_checkpoints.cpp (the
// history and a strategy's checkpoints).
#pragma once
#include <array>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "revwave/cuda/backend/device_adjoint.hpp"
#include "revwave/cuda/backend/device_physics.hpp"
#include "revwave/cuda/backend/device_problem.hpp"
#include "revwave/cuda/backend/device_records.hpp"
#include "revwave/cuda/backend/upload_ring.hpp"
#include "revwave/cuda/kernels/reductions.hpp"
#include "revwave/cuda/runtime/cuda_streams.hpp"
#include "revwave/cuda/runtime/device_buffer.hpp"
#include "revwave/cuda/runtime/device_selection.hpp"
#include "revwave/cuda/runtime/write_fences.hpp"
#include "revwave/cuda/store/device_checkpoint_store.hpp"
#include "revwave/cuda/store/device_store_factory.hpp"
#include "revwave/cuda/store/field_history.hpp"
#include "revwave/cuda/store/fused_codec.hpp"
#include "revwave/driver/cuda_backend.hpp"
#include "revwave/driver/gradient_strategy.hpp"
#include "revwave/driver/propagator.hpp"
#include "revwave/numerics/acoustic/acoustic_state.hpp"
#include "revwave/schedule/tier_split.hpp"

namespace revwave {

template <class T>
class CudaPropagator {
 public:
  using value_type = T;
  using State = DeviceState;

  explicit CudaPropagator(const Problem<T>& problem, const DeviceBudgets& budgets = {});
  // A shot engine's: fields of `field_capacity` bytes, the problem's m cut from the resident model
  // on the device, every upload through `ring`; re-targeted to each shot (retarget) without
  // reallocating, its gradient left on the device (adjoint().grad), and no wait between shots.
  CudaPropagator(const Problem<T>& problem, const DeviceBudgets& budgets, std::size_t field_capacity,
                 const ResidentWindow<T>& window, UploadRing& ring);
  // The problem it holds a reference to now describes another shot (engine only): the device
  // problem refilled, buffers grown only where the new shot needs more, the pool's fields zeroed on
  // the compute stream where the grid's layout changed.
  void retarget(const ResidentWindow<T>& window);
  ~CudaPropagator();
  CudaPropagator(const CudaPropagator&) = delete;
  CudaPropagator& operator=(const CudaPropagator&) = delete;

  const Problem<T>& problem() const { return p_; }
  static const char* backend_name() { return "cuda"; }
  static constexpr const BackendCapabilities& capabilities = cuda_capabilities;
  static constexpr StateShape state_shape() { return acoustic_state; }
  // Fields of the grid's size the run holds in host memory: the gradient's interior copies, or
  // the traces' staging; the rest lives on the device.
  static int working_fields(Workload w) { return cuda_working_fields(w); }

  // ---- forward state ----
  void reset_forward();
  // Position n -> n+1: into u[n-1]'s field when the state alone holds it, else into a free one.
  // With --compress fp16|bf16 on device slots, the step also does what a store or restore of the
  // state left to it (fused_codec.hpp): its sweep writes the state's encoding, or the step reads
  // the restored encoded fields directly.
  void forward_step(index_t n);
  // Whether a forward step's sweep can add u[n]^2 into an illumination sum in passing: the
  // constant-density column sweep (a density's sweeps are its own).
  bool illuminates_in_passing() const { return physics_->illuminates_in_passing(); }
  // The next forward_step's sweep adds u[n]^2 (the state it steps from) at every interior point into
  // sum (interior points, z fastest, doubles): as launch_square_add on u[n] before the step would.
  void illuminate_next_step(double* sum) { illuminate_ = sum; }
  // The forward state u[n], u[n-1]: its fields hold their values once the compute stream has
  // done what was asked before (synchronize()), unless a restore's decode is left to the next step.
  DeviceState& state() { return state_; }
  DeviceFieldPool& field_pool() { return pool_; }
  // Sizes the pool for a store or history that holds up to `held` fields at once: 2 + held;
  // `between` hears each field allocated (a progress callback may cancel the run there).
  void reserve_fields(std::int64_t held, const std::function<void()>& between = {}) {
    pool_.ensure_capacity(2 + held, between);
  }

  // ---- traces, in device memory (nt x nrec) until traces() reads them back ----
  void record_trace(index_t n);
  // S u[n] from the state at n - 1 without stepping: u[n] at the receivers' corners by the probe
  // kernel (the sweep's point formula and the source terms).
  void record_next_trace(index_t n);
  std::vector<T> traces(index_t samples) { return records_.traces(samples, streams_.compute); }  // one wait

  // ---- reverse ----
  void reset_adjoint();
  void set_adjoint_source(const std::vector<T>& r) {  // copied to the device once
    records_.set_adjoint_source(r, ring_, streams_.compute);
  }
  // One pass: u[n+1] recomputed in registers (never stored), lam[n+1] with S^T r[n+1] injected,
  // and the imaging.
  void reverse_step(index_t n);
  // lam and the gradient's accumulator (an engine folds grad into its tiles on the device).
  const DeviceAdjoint& adjoint() const { return adjoint_; }

  // ---- the stored history (strategy full) ----
  std::size_t allocate_history(index_t steps, const std::function<void()>& between = {});
  void record_history(index_t n);
  void reverse_step_from_history(index_t n);
  void release_history();
  const std::string& history_tier() const { return placement_.history_tier; }
  std::uint64_t history_copy_bytes() const { return history_ ? history_->copy_bytes() : 0; }

  // ---- checkpoint stores: every plan's through one factory (make_device_store) ----
  // --compress: the stores made from now on hold encoded slots (fp16 or bf16: every memory and
  // pinned slot, encoded on the device; zfp-rate or zfp-accuracy: the pinned slots only, encoded on
  // the host; none: handles). Disk slots stay raw.
  void set_compression(const Compression& c);
  // Bytes one device checkpoint slot takes: the state's fields, or their encoding.
  std::size_t slot_bytes() const;
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
  // The store of a placement; the pool is sized for it here, and the placement is what placement()
  // reports. An allocation the device or the host cannot give is an OutOfMemoryError saying what
  // would fit.
  std::unique_ptr<DeviceCheckpointStore> make_store(const DeviceStorePlan& where, PrefetchHint* hint);
  std::unique_ptr<DeviceCheckpointStore> make_store(const TierSplit& split, PrefetchHint* hint) {
    return make_store(store_plan(split), hint);
  }
  std::unique_ptr<DeviceCheckpointStore> make_store(index_t slots, PrefetchHint* hint) {
    return make_store(split_slots(slots), hint);
  }
  // A strategy's checkpoints (the propagator concept's make_checkpoints), every store through
  // make_device_store: revolve on the slots the device holds, or two levels with pinned host
  // checkpoints (plan_device_checkpoints, which replaces the planned schedule); online on device
  // slots and then pinned ones; multilevel's tiers (device, pinned, disk) and --store disk's files
  // as the plan places them, under the planned schedule.
  CheckpointSet<DeviceCheckpointStore> make_checkpoints(const StrategyPlan& plan, const StrategyOptions& options,
                                                        std::unique_ptr<Schedule> planned, PrefetchHint* hint);
  // Where the last run's slots or history went, and the time the compute stream waited on copies.
  TierReport placement();
  // dJ/dm at the interior points, read back (an engine's: empty, the gradient stays on the device).
  std::vector<double> interior_gradient();
  // dJ/drho at the interior points when the problem images it (--density-gradient: its accumulator
  // read back once, finished on the host as the CPU backend finishes it); else empty.
  std::vector<double> density_gradient();

  // ---- linear adjoint (dot-product test): the adjoint source as the data ----
  void adjoint_data_step(index_t j);
  std::vector<T> source_traces(index_t samples) { return records_.source_traces(samples, streams_.compute); }

  std::size_t field_bytes() const { return p_.grid.template field_bytes<T>(); }
  // Checkpoint budgets: as given, or derived (device: free memory now less a margin; host: half of what is available).
  std::size_t device_budget() const;
  std::size_t host_budget() const;
  // The device budget from now on (an engine fixes its lanes' once: what is free depends on the
  // fields its pool keeps between shots).
  void set_device_budget(std::size_t bytes) { budgets_.device_memory = bytes; }
  double spill_seconds() { return clock_.seconds(); }
  void synchronize();
  // sum u[n]^2 over the grid, for the online stop rule (waits for the device).
  double wavefield_energy();
  // Which sweep kernel every step launches (all give the same results; see sweep_kernels.hpp).
  void set_sweep_kernel(SweepKernel k) {
    sweep_kernel_ = k;
    physics_->set_sweep_kernel(k);
  }
  // Whether stores and restores in encoded device slots leave their casts to the steps (default:
  // yes, but with a density, whose sweeps neither encode nor decode); off, the cast kernels run at
  // once. The bytes and the gradient are the same either way.
  void set_fused_codec(bool on) { fuse_codec_ = on; }
  CudaStreams& streams() { return streams_; }

 private:
  // The reverse step from u[n], u[n-1] wherever they live, and u[n+1] where a history holds it
  // (read only where the physics reads_next_field(), which makes it otherwise: DevicePhysics).
  void reverse_from(index_t n, const T* u, const T* u_prev, const T* u_next = nullptr);
  void size_buffers() { records_.size_for(p_, dev_.probes().count, ring_, streams_.compute); }
  // The state's fields hold their values (a restore's decode left to the next step is done now).
  void settle_state();
  // u[n+1] at the probes from u[n], u[n-1]; with `save_gradient` the gradient there too (reverse steps).
  void next_at_probes(index_t n, const T* u, const T* u_prev, bool save_gradient);
  // The problem's physics: the last one re-derived where it is of the same kind (an engine's
  // next window, after dev_ took it), else made anew.
  void assign_physics();

  SelectDevice select_;  // first made, last ended: the caller's device given back after every buffer is freed
  const Problem<T>& p_;
  DeviceBudgets budgets_;
  DeviceProblem<T> dev_;
  CudaStreams streams_;
  std::unique_ptr<DevicePhysics<T>> physics_;  // the problem's operator (after dev_, which it reads)
  std::array<bool, 4> physics_kind_{};         // what make_device_physics chose it by: density, VTI, Q, C-PML
  WriteFences fences_;
  SpillClock clock_;
  DeviceFieldPool pool_;  // before every handle to its fields
  DeviceState state_;
  DeviceAdjoint adjoint_;
  DeviceRecords<T> records_;
  DeviceBuffer folded_;
  DeviceReducer<T> reducer_;
  DeviceBuffer energy_;
  PinnedBuffer energy_host_;
  std::unique_ptr<FieldHistory> history_;
  UploadRing* ring_ = nullptr;  // engine mode: uploads through it, nothing between shots waits
  std::array<index_t, 6> layout_{};
  TierReport placement_;
  SweepKernel sweep_kernel_ = SweepKernel::columns;
  std::unique_ptr<DeviceCodec> codec_;  // --compress fp16|bf16 (outlives the stores made with it)
  std::unique_ptr<FusedCodec> fused_;   // its casts left to the steps (before codec_'s end)
  bool fuse_codec_ = true;
  double* illuminate_ = nullptr;            // the next forward sweep's illumination sum (illuminate_next_step)
  std::unique_ptr<FieldCodec> host_codec_;  // --compress zfp-...: the pinned slots' (each store copies it)
};

// The propagator concept's customization points (found by argument-dependent lookup).
template <class T>
CheckpointSet<DeviceCheckpointStore> make_checkpoints(CudaPropagator<T>& prop, const StrategyPlan& plan,
                                                      const StrategyOptions& options, std::unique_ptr<Schedule> planned,
                                                      PrefetchHint* hint) {
  return prop.make_checkpoints(plan, options, std::move(planned), hint);
}
template <class T>
TierReport checkpoint_placement(CudaPropagator<T>& prop) {
  return prop.placement();
}

}  // namespace revwave
