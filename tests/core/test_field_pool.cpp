// Zero-copy checkpoints: the pool of forward fields that the state and the memory slots share.
//   - a mock propagator whose fields hold their position runs every schedule (Revolve, online,
//     multilevel, two-level) over a sweep of (N, S) on a pool of exactly 2 + held fields: the
//     pool never runs out (acquire throws), and every restore gives the stored position;
//   - the CPU backend never writes a field a slot holds (each restore gives the bytes the slot
//     was stored with), and a restore followed by two steps leaves the slot intact.
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <memory>
#include <vector>

#include "revwave/driver/gradient_driver.hpp"
#include "revwave/numerics/acoustic/cpu_propagator.hpp"
#include "revwave/schedule/multilevel.hpp"
#include "revwave/schedule/online.hpp"
#include "revwave/schedule/revolve.hpp"
#include "revwave/schedule/two_level.hpp"
#include "revwave/store/memory_store.hpp"
#include "revwave/store/tiered_store.hpp"
#include "test_helpers.hpp"

namespace revwave {
namespace {

TEST(FieldPool, HandlesShareFieldsAndReturnThemWithTheLastHolder) {
  HostFieldPool pool(64);
  pool.ensure_capacity(2);
  HostField a = pool.acquire();
  EXPECT_EQ(a.holders(), 1);
  HostField b = a;  // another holder of the same field
  EXPECT_TRUE(b.same_field(a));
  EXPECT_EQ(a.holders(), 2);
  EXPECT_TRUE(a.shared());
  EXPECT_EQ(pool.in_use(), 1);
  a.reset();
  EXPECT_EQ(b.holders(), 1);
  EXPECT_EQ(pool.in_use(), 1);
  HostField c = pool.acquire();
  EXPECT_THROW(pool.acquire(), std::logic_error);  // both held: a sized pool never gets here
  b.reset();
  EXPECT_EQ(pool.in_use(), 1);
  HostField d = pool.acquire();  // b's field, back in the pool
  EXPECT_EQ(pool.peak_in_use(), 2);
  c.reset();
  d.reset();
  pool.release_unused();
  EXPECT_EQ(pool.capacity(), 0);
}

// A propagator whose fields hold the position they stand for (u[n] holds n, u[n-1] holds n-1),
// with the backend's rule for where a step writes. Every step and reverse step checks that the
// state holds what the schedule says it does.
class PositionPropagator {
 public:
  using value_type = float;
  using State = HostState;
  explicit PositionPropagator(index_t steps) : pool_(sizeof(std::int64_t)) {
    problem_.time.steps = steps;
    problem_.rec.count = 0;
  }
  const Problem<float>& problem() const { return problem_; }
  HostState& state() { return state_; }
  HostFieldPool& pool() { return pool_; }
  void reserve_fields(std::int64_t held) { pool_.ensure_capacity(2 + held); }
  void reset_forward() {
    state_ = HostState{};
    state_ = HostState{pool_.acquire(), pool_.acquire()};
    *state_.u.as<std::int64_t>() = 0;
    *state_.u_prev.as<std::int64_t>() = -1;
  }
  void forward_step(index_t n) {
    expect_at(n);
    HostField out = state_.u_prev.shared() ? pool_.acquire() : state_.u_prev;
    ASSERT_LE(out.holders(), 2) << "step " << n << " writes a field a slot holds";
    *out.as<std::int64_t>() = n + 1;
    state_.u_prev = std::move(state_.u);
    state_.u = std::move(out);
  }
  // No receivers: the traces are empty, and so is the adjoint source.
  void record_trace(index_t) {}
  void record_next_trace(index_t) {}
  std::vector<float> traces(index_t) const { return {}; }
  void set_adjoint_source(std::vector<float>) {}
  void reset_adjoint() {}
  void reverse_step(index_t n) {
    expect_at(n);
    ++reversed_;
  }
  std::vector<double> interior_gradient() const { return {}; }
  index_t reversed() const { return reversed_; }

 private:
  void expect_at(index_t n) const {
    ASSERT_EQ(*state_.u.as<std::int64_t>(), n) << "u[n] at position " << n;
    ASSERT_EQ(*state_.u_prev.as<std::int64_t>(), n - 1) << "u[n-1] at position " << n;
  }
  Problem<float> problem_;
  HostFieldPool pool_;
  HostState state_;
  index_t reversed_ = 0;
};

// Runs `schedule` against a memory store of `slots` on a pool of exactly 2 + 2 x slots fields.
void run_offline(index_t steps, Schedule& schedule, index_t slots, const std::string& what) {
  PositionPropagator prop(steps);
  MemoryStore store(std::max<index_t>(slots, 1), prop.pool());
  const std::vector<float> observed(static_cast<std::size_t>(steps + 1), 0.f);
  gradient_checkpointed(prop, observed.data(), schedule, store);
  ASSERT_EQ(prop.reversed(), steps) << what;
  EXPECT_EQ(prop.pool().capacity(), 2 + store.held_fields()) << what;
  EXPECT_LE(prop.pool().peak_in_use(), 2 + 2 * slots) << what;
}

TEST(FieldPool, NeverRunsOutForRevolve) {
  for (index_t n = 1; n <= 70; ++n)
    for (index_t s = 1; s <= n + 2; ++s) {
      RevolveSchedule revolve(n, s);
      run_offline(n, revolve, revolve.slots(), "revolve N=" + std::to_string(n) + " S=" + std::to_string(s));
      if (::testing::Test::HasFatalFailure()) return;
    }
}

TEST(FieldPool, NeverRunsOutForOnline) {
  for (index_t n = 1; n <= 60; ++n)
    for (index_t s = 1; s <= 9; ++s) {
      PositionPropagator prop(n);
      OnlineSchedule schedule(s);
      MemoryStore store(s, prop.pool());
      const std::vector<float> observed(static_cast<std::size_t>(n + 1), 0.f);
      gradient_online(prop, observed.data(), schedule, store, [n](index_t k) { return k + 1 >= n; });
      ASSERT_EQ(prop.reversed(), n) << "online N=" << n << " S=" << s;
      EXPECT_LE(prop.pool().peak_in_use(), 2 + 2 * s) << "online N=" << n << " S=" << s;
    }
}

TEST(FieldPool, NeverRunsOutForMultilevelAndTwoLevel) {
  for (index_t n : {1, 2, 7, 30, 61}) {
    for (const std::vector<Tier>& tiers : {std::vector<Tier>{{"memory", 1, 0.0, 0.0}, {"memory", 3, 2.0, 2.0}},
                                           std::vector<Tier>{{"memory", 2, 0.0, 0.0}, {"memory", 5, 4.0, 1.0}}}) {
      PositionPropagator prop(n);
      MultilevelSchedule schedule(n, tiers);
      std::vector<std::unique_ptr<CheckpointStore>> parts;
      for (const Tier& t : tiers) parts.push_back(std::make_unique<MemoryStore>(t.slots, prop.pool()));
      TieredStore store(std::move(parts));
      const std::vector<float> observed(static_cast<std::size_t>(n + 1), 0.f);
      gradient_checkpointed(prop, observed.data(), schedule, store);
      ASSERT_EQ(prop.reversed(), n) << "multilevel N=" << n;
      EXPECT_LE(prop.pool().peak_in_use(), 2 + store.held_fields());
    }
    for (index_t k : {1, 3, 10}) {
      if (k > n) continue;
      TwoLevelSchedule schedule(TwoLevelShape{n, k, 2});
      run_offline(n, schedule, schedule.slots(), "two-level N=" + std::to_string(n) + " K=" + std::to_string(k));
    }
  }
}

// A memory store that remembers the bytes each slot was stored with and checks, at every
// restore, that the slot still holds them: a step that wrote into a field a slot holds shows.
class GuardedStore final : public CheckpointStore {
 public:
  GuardedStore(std::int64_t slots, HostFieldPool& pool) : inner_(slots, pool) {}
  std::int64_t slots() const override { return inner_.slots(); }
  std::size_t slot_bytes() const override { return inner_.slot_bytes(); }
  std::int64_t held_fields() const override { return inner_.held_fields(); }
  std::uint64_t copy_bytes() const override { return inner_.copy_bytes(); }
  void store(std::int64_t slot, const HostState& state) override {
    saved_[slot] = bytes_of(state);
    inner_.store(slot, state);
  }
  void restore(std::int64_t slot, HostState& state, bool last_use) override {
    inner_.restore(slot, state, last_use);
    EXPECT_TRUE(bytes_of(state) == saved_.at(slot)) << "slot " << slot << " changed while it held the state";
    ++restores_;
  }
  int restores() const { return restores_; }

  static std::vector<std::byte> bytes_of(const HostState& s) {
    std::vector<std::byte> b(s.u.data(), s.u.data() + s.u.bytes());
    b.insert(b.end(), s.u_prev.data(), s.u_prev.data() + s.u_prev.bytes());
    return b;
  }

 private:
  MemoryStore inner_;
  std::map<std::int64_t, std::vector<std::byte>> saved_;
  int restores_ = 0;
};

TEST(ZeroCopyCheckpoints, NoStepWritesAFieldASlotHolds) {
  const index_t steps = 41;
  testing::SmallCase c = testing::small_case(13, 11, 9, steps, 4);
  const std::vector<float> d = testing::observed_in<float>(c, c.true_model);
  const Problem<float> p = make_problem<float>(c.grid, c.start_model, c.acq, c.time);
  CpuPropagator<float> prop(p);
  const GradientOutput full = gradient_full(prop, d.data());
  for (index_t snaps : {1, 3, 8}) {
    RevolveSchedule revolve(steps, snaps);
    GuardedStore store(revolve.slots(), prop.field_pool());
    const GradientOutput g = gradient_checkpointed(prop, d.data(), revolve, store);
    EXPECT_GT(store.restores(), 0) << "S=" << snaps;
    EXPECT_EQ(g.stats.checkpoint_copy_bytes, 0u);
    EXPECT_EQ(0, std::memcmp(g.gradient.data(), full.gradient.data(), full.gradient.size() * sizeof(double)))
        << "S=" << snaps;
  }
}

TEST(ZeroCopyCheckpoints, ARestoreFollowedByTwoStepsLeavesTheSlotIntact) {
  testing::SmallCase c = testing::small_case(13, 11, 9, 20, 4);
  const Problem<double> p = make_problem<double>(c.grid, c.start_model, c.acq, c.time);
  CpuPropagator<double> prop(p);
  MemoryStore store(1, prop.field_pool());
  prop.reserve_fields(store.held_fields());
  prop.reset_forward();
  for (index_t n = 0; n < 5; ++n) prop.forward_step(n);
  store.store(0, prop.state());
  const std::vector<std::byte> stored = GuardedStore::bytes_of(prop.state());
  prop.forward_step(5);  // the slot holds u[5], u[4]: these steps write elsewhere
  prop.forward_step(6);
  const std::vector<std::byte> at7 = GuardedStore::bytes_of(prop.state());
  store.restore(0, prop.state(), false);
  EXPECT_TRUE(prop.state().u.shared());  // the slot's own fields, read-only while it holds them
  EXPECT_TRUE(GuardedStore::bytes_of(prop.state()) == stored);
  prop.forward_step(5);
  prop.forward_step(6);
  EXPECT_TRUE(GuardedStore::bytes_of(prop.state()) == at7) << "the steps after a restore recompute the same state";
  store.restore(0, prop.state(), true);
  EXPECT_TRUE(GuardedStore::bytes_of(prop.state()) == stored) << "the slot changed under two steps";
  EXPECT_FALSE(prop.state().u.shared());
  EXPECT_EQ(prop.field_pool().capacity(), 4);
}

}  // namespace
}  // namespace revwave
