// The propagator concept and the shared drivers, with no wavefield in sight: a mock propagator
// whose state is the position it stands for runs through run_gradient under every strategy,
// and the drivers must ask of it exactly what the seams promise: every trace recorded once
// (the last one from the state before it), the misfit called once between the sweeps with
// those traces, its adjoint source given once and injected sample n + 1 by reverse step n.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <vector>

#include "revwave/driver/gradient_strategy.hpp"
#include "revwave/driver/propagator.hpp"
#include "revwave/driver/verification.hpp"
#include "revwave/numerics/acoustic/cpu_propagator.hpp"
#include "revwave/schedule/multilevel.hpp"
#include "revwave/schedule/revolve.hpp"
#include "revwave/schedule/schedule_counts.hpp"
#include "test_helpers.hpp"

namespace revwave {
namespace {

struct MockState {
  index_t u = 0, u_prev = -1;  // the positions the state's fields stand for
};

class MockStore {
 public:
  explicit MockStore(std::int64_t slots) : held_(static_cast<std::size_t>(slots)) {}
  std::int64_t slots() const { return static_cast<std::int64_t>(held_.size()); }
  std::size_t slot_bytes() const { return sizeof(MockState); }
  std::int64_t held_fields() const { return 2 * slots(); }
  std::uint64_t copy_bytes() const { return 0; }
  CompressionStats compression() const { return {}; }
  void store(std::int64_t slot, const MockState& s) { held_.at(static_cast<std::size_t>(slot)) = s; }
  void restore(std::int64_t slot, MockState& s, bool) { s = held_.at(static_cast<std::size_t>(slot)); }

 private:
  std::vector<MockState> held_;
};

// One receiver; the trace at position n is n + 0.5, so the misfit can tell which sample it got.
class MockPropagator {
 public:
  using value_type = double;
  using State = MockState;
  explicit MockPropagator(index_t steps) {
    problem_.time.steps = steps;
    problem_.time.dt = 1e-3;
    problem_.rec.count = 1;
    recorded.assign(static_cast<std::size_t>(steps + 1), 0);
  }
  static int working_fields(Workload) { return 0; }
  const Problem<double>& problem() const { return problem_; }

  void reset_forward() { state_ = MockState{}; }
  void forward_step(index_t n) {
    EXPECT_EQ(state_.u, n) << "forward step " << n;
    state_ = MockState{n + 1, n};
    ++forward_steps;
  }
  void record_trace(index_t n) {
    EXPECT_EQ(state_.u, n) << "trace " << n;
    record(n);
  }
  void record_next_trace(index_t n) {
    EXPECT_EQ(state_.u, n - 1) << "next trace " << n;
    record(n);
    ++next_traces;
  }
  std::vector<double> traces(index_t samples) {
    ++trace_reads;
    return std::vector<double>(traces_.begin(), traces_.begin() + samples);
  }
  void set_adjoint_source(std::vector<double> r) {
    adjoint_ = std::move(r);
    ++sources_given;
  }
  MockState& state() { return state_; }
  void reserve_fields(std::int64_t) {}
  void reset_adjoint() { injected.clear(); }
  void reverse_step(index_t n) {
    EXPECT_EQ(state_.u, n) << "reverse step " << n;
    reversed.push_back(n);
    injected.push_back(adjoint_.at(static_cast<std::size_t>(n + 1)));
  }
  std::vector<double> interior_gradient() const { return injected; }
  double wavefield_energy() const { return 1.0; }

  std::size_t allocate_history(index_t steps, const std::function<void()>& /*between*/ = {}) {
    history_.assign(static_cast<std::size_t>(steps + 1), MockState{});
    return 0;
  }
  void record_history(index_t n) { history_.at(static_cast<std::size_t>(n)) = state_; }
  void reverse_step_from_history(index_t n) {
    state_ = history_.at(static_cast<std::size_t>(n));
    reverse_step(n);
  }
  void release_history() { history_.clear(); }
  std::uint64_t history_copy_bytes() const { return 0; }

  void adjoint_data_step(index_t) {}
  std::vector<double> source_traces(index_t samples) const {
    return std::vector<double>(static_cast<std::size_t>(samples));
  }

  // What the drivers asked for.
  index_t forward_steps = 0, next_traces = 0, trace_reads = 0, sources_given = 0, checkpoint_sets = 0;
  std::vector<int> recorded;      // per sample: how many times
  std::vector<index_t> reversed;  // in order
  std::vector<double> injected;   // the adjoint source sample each reverse step got

 private:
  void record(index_t n) {
    ++recorded.at(static_cast<std::size_t>(n));
    traces_.resize(recorded.size());
    traces_[static_cast<std::size_t>(n)] = double(n) + 0.5;
  }
  Problem<double> problem_;
  MockState state_;
  std::vector<double> traces_, adjoint_;
  std::vector<MockState> history_;
};

CheckpointSet<MockStore> make_checkpoints(MockPropagator& p, const StrategyPlan& plan, const StrategyOptions&,
                                          std::unique_ptr<Schedule> planned, PrefetchHint*) {
  ++p.checkpoint_sets;
  CheckpointSet<MockStore> set;
  set.schedule = std::move(planned);
  set.predicted_forward_steps = plan.predicted_forward_steps;
  set.store = std::make_unique<MockStore>(std::max<index_t>(plan.slots, 1));
  return set;
}
TierReport checkpoint_placement(MockPropagator&) { return {}; }

// A forward-only propagator, and one that lacks the reverse step.
struct ForwardOnly {
  using value_type = float;
  const Problem<float>& problem() const;
  void reset_forward();
  void forward_step(index_t);
  void record_trace(index_t);
  std::vector<float> traces(index_t);
};

static_assert(is_propagator_v<MockPropagator>, "the mock implements the whole concept");
static_assert(is_forward_propagator_v<ForwardOnly> && !is_gradient_propagator_v<ForwardOnly> &&
                  !is_propagator_v<ForwardOnly>,
              "a forward-only propagator runs forward modelling only");
static_assert(is_propagator_v<CpuPropagator<float>> && is_propagator_v<CpuPropagator<double>>);

// Checks every sample it gets and answers with r[n] = 10 n.
class CountingMisfit final : public Misfit<double> {
 public:
  MisfitKind kind() const override { return MisfitKind::l2; }
  double evaluate(const Traces<double>& syn, const Traces<double>& obs, double* r) const override {
    ++calls;
    EXPECT_EQ(syn.nt, obs.nt);
    EXPECT_EQ(syn.nrec, 1);
    for (index_t n = 0; n < syn.nt; ++n) {
      EXPECT_EQ(syn.sample(n)[0], double(n) + 0.5) << "synthetic sample " << n;
      EXPECT_EQ(obs.sample(n)[0], -double(n)) << "observed sample " << n;
      if (r != nullptr) r[n] = 10.0 * double(n);
    }
    samples = syn.nt;
    return 42.0;
  }
  mutable int calls = 0;
  mutable index_t samples = 0;
};

void expect_seams_kept(const MockPropagator& prop, const CountingMisfit& misfit, const GradientOutput& g, index_t steps,
                       const std::string& what) {
  EXPECT_EQ(misfit.calls, 1) << what;
  EXPECT_EQ(misfit.samples, steps + 1) << what;
  EXPECT_EQ(g.stats.objective, 42.0) << what;
  EXPECT_EQ(prop.sources_given, 1) << what;
  EXPECT_EQ(prop.trace_reads, 1) << what;
  EXPECT_EQ(prop.next_traces, 1) << what;
  for (index_t n = 0; n <= steps; ++n)
    EXPECT_EQ(prop.recorded[static_cast<std::size_t>(n)], 1) << what << ": sample " << n;
  ASSERT_EQ(prop.reversed.size(), static_cast<std::size_t>(steps)) << what;
  for (index_t k = 0; k < steps; ++k) {
    const index_t n = steps - 1 - k;
    EXPECT_EQ(prop.reversed[static_cast<std::size_t>(k)], n) << what;
    EXPECT_EQ(prop.injected[static_cast<std::size_t>(k)], 10.0 * double(n + 1)) << what << ": reverse step " << n;
  }
  EXPECT_EQ(g.stats.reverse_steps, steps) << what;
}

TEST(PropagatorConcept, AMockRunsThroughTheSharedDriversUnderEveryStrategy) {
  for (index_t steps : {1, 2, 7, 25}) {
    std::vector<double> observed(static_cast<std::size_t>(steps + 1));
    for (index_t n = 0; n <= steps; ++n) observed[static_cast<std::size_t>(n)] = -double(n);
    std::vector<StrategyOptions> runs = {testing::strategy("full"), testing::strategy("revolve", 1),
                                         testing::strategy("revolve", 3), testing::strategy("online", 2)};
    StrategyOptions given = testing::strategy("multilevel"), measured = given;
    given.tiers = {"memory:1:0:0", "memory:2:1:1"};
    measured.tiers = {"memory:1", "memory:2"};
    runs.push_back(given);
    runs.push_back(measured);
    for (const StrategyOptions& s : runs) {
      const std::string what = std::string(to_string(s.strategy)) + " N=" + std::to_string(steps) +
                               (s.snaps ? " S=" + std::to_string(*s.snaps) : "") +
                               (s.tiers.size() ? " " + s.tiers[1] : "");
      MockPropagator prop(steps);
      CountingMisfit misfit;
      StrategyReport report;
      const StrategyPlan plan = plan_strategy(s, steps, std::size_t(8));
      const GradientOutput g = run_gradient(prop, misfit, observed.data(), s, plan, {}, &report);
      expect_seams_kept(prop, misfit, g, steps, what);
      if (s.strategy == Strategy::full) {
        EXPECT_EQ(prop.forward_steps, steps) << what;
      }
      if (s.strategy == Strategy::revolve) {
        EXPECT_EQ(g.stats.forward_steps, optimal_forward_steps(steps, std::min<index_t>(*s.snaps, steps))) << what;
        EXPECT_EQ(report.predicted_forward_steps, g.stats.forward_steps) << what;
      }
      if (s.strategy == Strategy::online) {
        EXPECT_EQ(g.stats.forward_steps, count_online(steps, plan.snaps).forward_steps) << what;
      }
      if (s.strategy == Strategy::multilevel) {
        MultilevelSchedule again(steps, report.tiers);
        EXPECT_EQ(g.stats.forward_steps, count_schedule(again).forward_steps) << what;
        EXPECT_EQ(prop.checkpoint_sets, s.tiers[0] == "memory:1" ? 2 : 1)
            << what << ": a probe store to measure costs on";
      }
    }
  }
}

// The forward driver and the dot-product test take the same propagator.
TEST(PropagatorConcept, ForwardModellingRecordsEverySampleOnce) {
  MockPropagator prop(9);
  const ShotData<double> shot = run_forward(prop);
  ASSERT_EQ(shot.traces.size(), 10u);
  for (index_t n = 0; n <= 9; ++n) {
    EXPECT_EQ(shot.traces[static_cast<std::size_t>(n)], double(n) + 0.5);
    EXPECT_EQ(prop.recorded[static_cast<std::size_t>(n)], 1);
  }
  EXPECT_EQ(prop.next_traces, 0) << "forward modelling steps to u[N]";
  EXPECT_EQ(prop.forward_steps, 9);
}

}  // namespace
}  // namespace revwave
