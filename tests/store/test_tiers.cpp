// Checkpoint tiers: --tier specs parsed once into kinds (per backend, with the CLI's sentences),
// the composition (global ids per tier, every other tier given its chance to read ahead, the
// counters summed), the scratch file under the disk tiers, and multilevel plans on each backend.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "revwave/core/errors.hpp"
#include "revwave/driver/backend_registry.hpp"
#include "revwave/driver/gradient_strategy.hpp"
#include "revwave/store/disk_slot_file.hpp"
#include "revwave/store/memory_store.hpp"
#include "revwave/store/tier_spec.hpp"
#include "revwave/store/tiered_store.hpp"

namespace fs = std::filesystem;

namespace revwave {
namespace {

std::string refusal(const std::string& spec, Backend backend) {
  try {
    parse_tier_spec(spec, backend_capabilities(backend));
  } catch (const InputError& e) {
    return e.what();
  }
  return "(accepted)";
}

TEST(TierSpec, NamesSlotsAndCostsBecomeAKindAndNumbers) {
  const TierSpec m = parse_tier_spec("memory:4", backend_capabilities(Backend::cpu));
  EXPECT_EQ(m.kind, TierKind::memory);
  EXPECT_EQ(m.slots, 4);
  EXPECT_FALSE(m.costs_given);
  const TierSpec d = parse_tier_spec("disk:0:1.5:2", backend_capabilities(Backend::cpu));
  EXPECT_EQ(d.kind, TierKind::disk);
  EXPECT_EQ(d.slots, 0);
  EXPECT_TRUE(d.costs_given);
  EXPECT_EQ(d.store_cost, 1.5);
  EXPECT_EQ(d.restore_cost, 2.0);
  EXPECT_EQ(parse_tier_spec("pinned:3", backend_capabilities(Backend::cuda)).kind, TierKind::pinned);
  for (TierKind k : {TierKind::memory, TierKind::pinned, TierKind::disk})
    EXPECT_EQ(parse_tier_spec(std::string(to_string(k)) + ":1", backend_capabilities(Backend::cuda)).kind, k);
}

TEST(TierSpec, BadSpecsAreOneSentenceNamingTheSpecAndTheRule) {
  EXPECT_EQ(refusal("memory", Backend::cpu),
            "--tier 'memory' is invalid: NAME:SLOTS or NAME:SLOTS:STORE_COST:RESTORE_COST");
  EXPECT_EQ(refusal("memory:1:2", Backend::cpu),
            "--tier 'memory:1:2' is invalid: NAME:SLOTS or NAME:SLOTS:STORE_COST:RESTORE_COST");
  EXPECT_EQ(refusal("tape:2", Backend::cpu),
            "--tier 'tape:2': tier 'tape' is unknown on the CPU backend: memory or disk");
  EXPECT_EQ(refusal("tape:2", Backend::cuda),
            "--tier 'tape:2': tier 'tape' is unknown on the CUDA backend: memory (device memory), pinned (pinned host "
            "memory) or disk");
  EXPECT_EQ(refusal("pinned:2", Backend::cpu),
            "--tier 'pinned:2': tier 'pinned' is pinned host memory, which only the CUDA backend has: use memory or "
            "disk on the CPU backend");
  EXPECT_EQ(refusal("memory:-1", Backend::cpu), "--tier 'memory:-1': slots '-1' is invalid: an integer >= 0");
  EXPECT_EQ(refusal("memory:2x", Backend::cpu), "--tier 'memory:2x': slots '2x' is invalid: an integer >= 0");
  EXPECT_EQ(refusal("memory:2:nan:0", Backend::cpu),
            "--tier 'memory:2:nan:0': cost 'nan' is invalid: a finite number >= 0 (in forward steps)");
  EXPECT_EQ(refusal("disk:2:1:-3", Backend::cuda),
            "--tier 'disk:2:1:-3': cost '-3' is invalid: a finite number >= 0 (in forward steps)");
}

// A tier that records what the composition asked of it.
class RecordingTier final : public CheckpointStore {
 public:
  RecordingTier(std::int64_t slots, std::int64_t hits) : slots_(slots), hits_(hits) {}
  std::int64_t slots() const override { return slots_; }
  std::size_t slot_bytes() const override { return 8; }
  std::int64_t held_fields() const override { return 1; }
  std::uint64_t copy_bytes() const override { return 100; }
  std::int64_t prefetch_hits() const override { return hits_; }
  void store(std::int64_t slot, const HostState&) override { calls.push_back("store " + std::to_string(slot)); }
  void restore(std::int64_t slot, HostState&, bool) override { calls.push_back("restore " + std::to_string(slot)); }
  void look_ahead() override { calls.push_back("look ahead"); }
  std::vector<std::string> calls;

 private:
  std::int64_t slots_, hits_;
};

TEST(TieredStoreTest, MapsGlobalIdsAndLetsEveryOtherTierLookAhead) {
  std::vector<std::unique_ptr<CheckpointStore>> tiers;
  tiers.push_back(std::make_unique<RecordingTier>(2, 1));
  tiers.push_back(nullptr);  // a tier without slots
  tiers.push_back(std::make_unique<RecordingTier>(3, 4));
  auto* fast = static_cast<RecordingTier*>(tiers[0].get());
  auto* slow = static_cast<RecordingTier*>(tiers[2].get());
  TieredStore store(std::move(tiers));
  EXPECT_EQ(store.slots(), 5);
  EXPECT_EQ(store.held_fields(), 2);
  EXPECT_EQ(store.copy_bytes(), 200u);
  EXPECT_EQ(store.prefetch_hits(), 5);
  EXPECT_EQ(store.first_slot(2), 2);
  HostState state;
  store.store(1, state);
  store.restore(4, state, false);
  store.look_ahead();
  EXPECT_EQ(fast->calls, (std::vector<std::string>{"store 1", "look ahead", "look ahead"}));
  EXPECT_EQ(slow->calls, (std::vector<std::string>{"look ahead", "restore 2", "look ahead"}));
  EXPECT_THROW(store.store(5, state), std::out_of_range);
  EXPECT_THROW(store.restore(-1, state, false), std::out_of_range);
}

class DiskSlotFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "revwave_slot_file_XXXXXX").string();
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string dir_;
};

TEST_F(DiskSlotFileTest, RawFieldsRoundTripAndEveryMoveIsCounted) {
  const std::size_t bytes = 4096 + 13;
  DiskSlotFile file(3, bytes, dir_);
  EXPECT_TRUE(fs::is_empty(dir_)) << "the scratch file is unlinked at once";
  std::vector<std::byte> u(bytes), up(bytes), back(bytes), back_prev(bytes);
  for (std::size_t i = 0; i < bytes; ++i) {
    u[i] = static_cast<std::byte>(i * 7);
    up[i] = static_cast<std::byte>(i * 13 + 1);
  }
  file.write(2, u.data(), up.data());
  file.write(0, up.data(), u.data());
  file.read(2, back.data(), back_prev.data());
  EXPECT_EQ(std::memcmp(back.data(), u.data(), bytes), 0);
  EXPECT_EQ(std::memcmp(back_prev.data(), up.data(), bytes), 0);
  EXPECT_EQ(file.copy_bytes(), 3 * 2 * bytes);
  EXPECT_THROW(file.write(3, u.data(), up.data()), std::out_of_range);
  EXPECT_THROW(DiskSlotFile(1, bytes, dir_ + "/missing"), InputError);
  EXPECT_THROW(DiskSlotFile(0, bytes, dir_), InputError);
}

// Multilevel plans: pinned tiers on CUDA only; the host memory a plan needs is its tiers in host
// memory (the memory tiers on the CPU, the pinned tiers on CUDA); --checkpoint-dir only with a disk tier.
TEST_F(DiskSlotFileTest, MultilevelPlansPlaceTiersPerBackend) {
  StrategyOptions o;
  o.strategy = Strategy::multilevel;
  o.tiers = {"memory:2:0.1:0.1", "pinned:3:1:1", "disk:4:2:2"};
  o.checkpoint_dir = dir_;
  o.backend = Backend::cpu;
  EXPECT_THROW(plan_strategy(o, 100, 1000), InputError);
  o.backend = Backend::cuda;
  const StrategyPlan plan = plan_strategy(o, 100, 1000);
  EXPECT_EQ(plan.tier_kinds, (std::vector<TierKind>{TierKind::memory, TierKind::pinned, TierKind::disk}));
  ASSERT_EQ(plan.tiers.size(), 3u);
  EXPECT_EQ(plan.tiers[1].name, "pinned");
  EXPECT_EQ(plan.tiers[2].restore_cost, 2.0);
  EXPECT_EQ(plan.snaps, 9);
  EXPECT_EQ(plan.storage_bytes, 9u * 2000u);
  EXPECT_FALSE(plan.measure_costs);
  o.tiers = {"memory:2", "pinned:3"};  // no disk tier: the directory would be ignored
  try {
    plan_strategy(o, 100, 1000);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "--checkpoint-dir does not apply: only --store disk or a disk tier writes checkpoints to a directory");
  }
  o.checkpoint_dir.clear();
  EXPECT_TRUE(plan_strategy(o, 100, 1000).measure_costs);
  o.tiers = {"memory:2", "disk:3"};
  try {
    plan_strategy(o, 100, 1000);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "--tier disk needs --checkpoint-dir DIR");
  }
}

}  // namespace
}  // namespace revwave
