// No forward or reverse step of the CUDA backend makes the host wait for the device: a gradient
// on the emulated runtime, counted call by call (cudasim::host_blocking_calls), for every
// strategy and tier: Revolve on device slots, two levels with pinned checkpoints (prefetched
// and not), multilevel over device, pinned and disk tiers, --store disk, online, and full with
// its history on the device and in pinned host memory. The waits of a gradient are between the
// sweeps (the traces read back for the misfit, its adjoint source copied to the device) and the
// read-back of the gradient at the end.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstring>
#include <filesystem>

#include "../cuda/cuda_test_support.hpp"
#include "cudasim.hpp"
#include "revwave/cuda/backend/cuda_propagator.hpp"
#include "revwave/driver/cuda_backend.hpp"
#include "revwave/driver/lookahead_prefetch.hpp"
#include "revwave/schedule/online.hpp"
#include "revwave/schedule/revolve.hpp"
#include "revwave/schedule/two_level.hpp"

namespace fs = std::filesystem;

namespace revwave {
namespace {

using namespace cuda_testing;
using T = float;

// Counts the host-blocking calls made inside each step, store and restore, and between the sweeps.
struct Waits {
  std::uint64_t forward = 0, reverse = 0, stores = 0, restores = 0, history = 0, misfit = 0;
  index_t steps = 0;
};

template <class Fn>
void counted(std::uint64_t& into, Fn&& fn) {
  const std::uint64_t before = cudasim::host_blocking_calls();
  fn();
  into += cudasim::host_blocking_calls() - before;
}

class CountingPropagator {
 public:
  using value_type = T;
  using State = DeviceState;
  CountingPropagator(CudaPropagator<T>& p, Waits& w) : p_(p), w_(w) {}
  const Problem<T>& problem() const { return p_.problem(); }
  DeviceState& state() { return p_.state(); }
  void reserve_fields(std::int64_t held) { p_.reserve_fields(held); }
  void reset_forward() { p_.reset_forward(); }
  void reset_adjoint() { p_.reset_adjoint(); }
  void forward_step(index_t n) {
    counted(w_.forward, [&] { p_.forward_step(n); });
    ++w_.steps;
  }
  void record_trace(index_t n) {
    counted(w_.forward, [&] { p_.record_trace(n); });
  }
  void record_next_trace(index_t n) {
    counted(w_.forward, [&] { p_.record_next_trace(n); });
  }
  std::vector<T> traces(index_t samples) {
    std::vector<T> out;
    counted(w_.misfit, [&] { out = p_.traces(samples); });
    return out;
  }
  void set_adjoint_source(std::vector<T> r) {
    counted(w_.misfit, [&] { p_.set_adjoint_source(std::move(r)); });
  }
  void reverse_step(index_t n) {
    counted(w_.reverse, [&] { p_.reverse_step(n); });
  }
  std::size_t allocate_history(index_t steps, const std::function<void()>& between = {}) {
    return p_.allocate_history(steps, between);
  }
  void record_history(index_t n) {
    counted(w_.history, [&] { p_.record_history(n); });
  }
  void reverse_step_from_history(index_t n) {
    counted(w_.reverse, [&] { p_.reverse_step_from_history(n); });
  }
  void release_history() { p_.release_history(); }
  std::uint64_t history_copy_bytes() const { return p_.history_copy_bytes(); }
  std::vector<double> interior_gradient() { return p_.interior_gradient(); }

 private:
  CudaPropagator<T>& p_;
  Waits& w_;
};

class CountingStore {
 public:
  CountingStore(DeviceCheckpointStore& s, Waits& w) : s_(s), w_(w) {}
  std::int64_t slots() const { return s_.slots(); }
  std::size_t slot_bytes() const { return s_.slot_bytes(); }
  std::int64_t held_fields() const { return s_.held_fields(); }
  std::uint64_t copy_bytes() const { return s_.copy_bytes(); }
  CompressionStats compression() const { return s_.compression(); }
  void store(std::int64_t slot, const DeviceState& st) {
    counted(w_.stores, [&] { s_.store(slot, st); });
  }
  void restore(std::int64_t slot, DeviceState& st, bool last) {
    counted(w_.restores, [&] { s_.restore(slot, st, last); });
  }

 private:
  DeviceCheckpointStore& s_;
  Waits& w_;
};

class HostWaits : public CudaTest {
 protected:
  void SetUp() override {
    CudaTest::SetUp();
    c_ = awkward_case(4, 48);
    const Problem<T> truth = make_problem<T>(c_.grid, c_.true_model, c_.acq, c_.time);
    observed_ = cuda_forward(truth, DeviceBudgets{}).traces;
    p_ = std::make_unique<Problem<T>>(make_problem<T>(c_.grid, c_.start_model, c_.acq, c_.time));
  }
  static void expect_none(const Waits& w, const std::string& what) {
    EXPECT_GT(w.steps, 0) << what;
    EXPECT_EQ(w.forward, 0u) << what << ": host waits in forward steps";
    EXPECT_EQ(w.reverse, 0u) << what << ": host waits in reverse steps";
    EXPECT_EQ(w.stores, 0u) << what << ": host waits in checkpoint stores";
    EXPECT_EQ(w.restores, 0u) << what << ": host waits in checkpoint restores";
    EXPECT_EQ(w.history, 0u) << what << ": host waits in recording the history";
    // Between the sweeps, once per run: the traces' read-back and the adjoint source's copy, each
    // a copy from or to pageable memory and a wait for the compute stream.
    EXPECT_EQ(w.misfit, 4u) << what << ": host waits between the sweeps";
  }
  std::size_t field_bytes() const { return p_->grid.field_bytes<T>(); }

  Case c_;
  std::vector<T> observed_;
  std::unique_ptr<Problem<T>> p_;
};

TEST_F(HostWaits, NoneInAnyStepStoreOrRestore) {
  GradientOutput reference;
  {  // full, history on the device
    Waits w;
    CudaPropagator<T> prop(*p_);
    CountingPropagator counting(prop, w);
    reference = gradient_full(counting, observed_.data());
    expect_none(w, "full, device history");
  }
  {  // full, history in pinned host memory
    Waits w;
    DeviceBudgets b;
    b.device_memory = 1;
    b.host_memory = std::size_t(1) << 30;
    CudaPropagator<T> prop(*p_, b);
    CountingPropagator counting(prop, w);
    const GradientOutput g = gradient_full(counting, observed_.data());
    EXPECT_EQ(prop.history_tier(), "pinned-host");
    EXPECT_GT(g.stats.checkpoint_copy_bytes, 0u);
    expect_none(w, "full, pinned history");
    EXPECT_EQ(std::memcmp(g.gradient.data(), reference.gradient.data(), g.gradient.size() * sizeof(double)), 0);
  }
  for (bool prefetch : {true, false}) {  // revolve on device slots; two levels with pinned checkpoints
    for (index_t host_slots : {index_t(0), index_t(4)}) {
      const std::string what =
          std::string(host_slots ? "two levels, pinned" : "revolve, device") + (prefetch ? ", prefetched" : "");
      Waits w;
      CudaPropagator<T> prop(*p_);
      std::unique_ptr<Schedule> schedule;
      TierSplit split;
      if (host_slots == 0) {
        schedule = std::make_unique<RevolveSchedule>(p_->time.steps, 5);
        split.device_slots = schedule->slots();
      } else {
        auto s = std::make_unique<TwoLevelSchedule>(TwoLevelShape{p_->time.steps, 10, 3});
        split.host_slots = s->shape().outer_slots();
        split.device_slots = s->slots() - split.host_slots;
        schedule = std::move(s);
      }
      LookaheadSchedule lookahead(*schedule);
      LookaheadPrefetch hint(lookahead);
      auto store = prop.make_store(split, prefetch ? &hint : nullptr);
      CountingPropagator counting(prop, w);
      CountingStore counting_store(*store, w);
      const GradientOutput g = gradient_checkpointed(counting, observed_.data(), lookahead, counting_store);
      expect_none(w, what);
      EXPECT_EQ(g.stats.checkpoint_copy_bytes > 0, host_slots > 0) << what;
      EXPECT_EQ(std::memcmp(g.gradient.data(), reference.gradient.data(), g.gradient.size() * sizeof(double)), 0)
          << what;
    }
  }
  {  // two levels, the pinned checkpoints ZFP-encoded by the host worker: no CUDA call waits
    // (the host waits for the worker only when it needs the staging again), and the prefetches
    // are as many as without compression.
    index_t raw_hits = 0;
    for (const char* mode : {"none", "zfp-rate:16"}) {
      Waits w;
      CudaPropagator<T> prop(*p_);
      prop.set_compression(parse_compression(mode));
      auto s = std::make_unique<TwoLevelSchedule>(TwoLevelShape{p_->time.steps, 10, 3});
      TierSplit split;
      split.host_slots = s->shape().outer_slots();
      split.device_slots = s->slots() - split.host_slots;
      LookaheadSchedule lookahead(*s);
      LookaheadPrefetch hint(lookahead);
      auto store = prop.make_store(split, &hint);
      CountingPropagator counting(prop, w);
      CountingStore counting_store(*store, w);
      const GradientOutput g = gradient_checkpointed(counting, observed_.data(), lookahead, counting_store);
      expect_none(w, std::string("two levels, pinned, ") + mode);
      if (std::string(mode) == "none") {
        raw_hits = store->prefetch_hits();
        EXPECT_GT(raw_hits, 0);
        continue;
      }
      EXPECT_EQ(store->prefetch_hits(), raw_hits);
      EXPECT_EQ(g.stats.compression.fields_compressed, 2u * static_cast<std::uint64_t>(split.host_slots));
      EXPECT_EQ(g.stats.compression.fields_decompressed, 2u * static_cast<std::uint64_t>(raw_hits));
      EXPECT_GT(g.stats.compression.ratio(), 1.5);
    }
  }
  {  // multilevel over device, pinned and disk tiers, and revolve with every slot on disk: the disk
    // tier's worker moves the files behind pinned staging, no CUDA call waits
    const fs::path dir = fs::temp_directory_path() / ("revwave-host-waits-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    for (const char* what : {"multilevel memory + pinned + disk", "revolve --store disk"}) {
      StrategyOptions o;
      o.backend = Backend::cuda;
      o.checkpoint_dir = dir.string();
      if (std::string(what) == "revolve --store disk") {
        o.snaps = 5;
        o.store = StoreKind::disk;
      } else {
        o.strategy = Strategy::multilevel;
        o.tiers = {"memory:2:0.1:0.1", "pinned:2:0.5:0.5", "disk:3:2:2"};
      }
      const StrategyPlan plan = plan_strategy(o, p_->time.steps, field_bytes());
      Waits w;
      CudaPropagator<T> prop(*p_);
      auto schedule = make_schedule(plan);
      LookaheadSchedule lookahead(*schedule);
      LookaheadPrefetch hint(lookahead);
      auto store = prop.make_store(prop.store_plan(o, plan), &hint);
      CountingPropagator counting(prop, w);
      CountingStore counting_store(*store, w);
      const GradientOutput g = gradient_checkpointed(counting, observed_.data(), lookahead, counting_store);
      expect_none(w, what);
      EXPECT_GT(store->prefetch_hits(), 0) << what;
      EXPECT_EQ(std::memcmp(g.gradient.data(), reference.gradient.data(), g.gradient.size() * sizeof(double)), 0)
          << what;
    }
    fs::remove_all(dir);
  }
  {  // online on device slots
    Waits w;
    CudaPropagator<T> prop(*p_);
    auto store = prop.make_store(4, nullptr);
    CountingPropagator counting(prop, w);
    CountingStore counting_store(*store, w);
    OnlineSchedule schedule(4);
    const index_t steps = p_->time.steps;
    const GradientOutput g = gradient_online(counting, observed_.data(), schedule, counting_store,
                                             [steps](index_t n) { return n + 1 >= steps; });
    expect_none(w, "online");
    EXPECT_EQ(std::memcmp(g.gradient.data(), reference.gradient.data(), g.gradient.size() * sizeof(double)), 0);
  }
}

}  // namespace
}  // namespace revwave
