// The asynchronous disk store: bytes round-trip through write-behind and prefetch, prefetches
// hit on real schedules (global slot ids included), worker failures reach the caller.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <csignal>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "revwave/core/errors.hpp"
#include "revwave/driver/lookahead_prefetch.hpp"
#include "revwave/schedule/lookahead_schedule.hpp"
#include "revwave/schedule/multilevel.hpp"
#include "revwave/schedule/revolve.hpp"
#include "revwave/store/async_disk_store.hpp"
#include "revwave/store/memory_store.hpp"
#include "revwave/store/tiered_store.hpp"
#include "temp_dir.hpp"

namespace fs = std::filesystem;

namespace revwave {
namespace {

// The pool lives in the fixture: it outlives the stores and states of each test.
class AsyncDiskStoreTest : public ::testing::Test {
 protected:
  HostFieldPool& pool(std::size_t field_bytes) {
    if (!pool_) pool_ = std::make_unique<HostFieldPool>(field_bytes);
    return *pool_;
  }
  const testing::TempDir tmp_{"revwave_async"};
  const std::string dir_ = tmp_.path().string();
  std::unique_ptr<HostFieldPool> pool_;
};

// The state at forward position n of a mock propagator: every word says which position and
// which field it belongs to, so a restore of the wrong slot or a torn write shows. Like a step,
// it writes only fields nobody else holds: a shared one is replaced by a free one of the pool.
void fill(HostState& s, std::int64_t n, HostFieldPool& pool) {
  if (!s.u || s.u.shared()) s.u = pool.acquire();
  if (!s.u_prev || s.u_prev.shared()) s.u_prev = pool.acquire();
  auto* u = s.u.as<std::uint32_t>();
  auto* up = s.u_prev.as<std::uint32_t>();
  for (std::size_t i = 0; i < s.u.bytes() / 4; ++i) {
    u[i] = static_cast<std::uint32_t>(n * 1000003 + static_cast<std::int64_t>(i));
    up[i] = ~u[i];
  }
}

bool holds(const HostState& s, std::int64_t n) {
  const auto* u = s.u.as<std::uint32_t>();
  const auto* up = s.u_prev.as<std::uint32_t>();
  for (std::size_t i = 0; i < s.u.bytes() / 4; ++i)
    if (u[i] != static_cast<std::uint32_t>(n * 1000003 + static_cast<std::int64_t>(i)) || up[i] != ~u[i]) return false;
  return true;
}

// Executes a schedule against a store the way the gradient driver does, with a counting mock
// state instead of a wavefield; expects every restore to give the stored position's bytes.
std::int64_t drive(LookaheadSchedule& schedule, CheckpointStore& store, HostFieldPool& pool) {
  HostState state;
  fill(state, 0, pool);
  std::int64_t restores = 0;
  for (Action a = schedule.next(); a.kind != ActionKind::end; a = schedule.next()) {
    if (a.kind == ActionKind::advance) {
      fill(state, a.step, pool);
    } else if (a.kind == ActionKind::store) {
      store.store(a.slot, state);
    } else if (a.kind == ActionKind::restore && a.slot != initial_slot) {
      store.restore(a.slot, state, schedule.restore_is_last_use());
      EXPECT_TRUE(holds(state, a.step)) << to_string(a);
      ++restores;
    }
  }
  return restores;
}

}  // namespace

TEST_F(AsyncDiskStoreTest, InterleavedStoresAndRestoresRoundTripBytes) {
  const std::size_t bytes = 4 * (3 * 1024 + 5);  // not a multiple of a page
  const std::int64_t slots = 5;
  AsyncDiskStore store(slots, pool(bytes), dir_);
  pool_->ensure_capacity(2 + store.held_fields());
  std::vector<std::int64_t> held(slots, -1);  // the position each slot holds
  HostState state;
  std::mt19937 gen(7);
  std::int64_t writes = 0, reads = 0;
  for (std::int64_t n = 0; n < 400; ++n) {
    const auto slot = static_cast<std::int64_t>(gen() % slots);
    if (held[slot] < 0 || gen() % 2 == 0) {
      fill(state, n, *pool_);
      store.store(slot, state);
      held[slot] = n;
      ++writes;
      if (gen() % 3 == 0) {  // at once: the write is most likely still queued
        fill(state, -1, *pool_);
        store.restore(slot, state, false);
        EXPECT_TRUE(holds(state, n)) << "slot " << slot << " read right after its store";
        ++reads;
      }
    } else {
      store.restore(slot, state, gen() % 2 == 0);
      EXPECT_TRUE(holds(state, held[slot])) << "slot " << slot << " at " << n;
      ++reads;
    }
  }
  const AsyncDiskStore::Counters c = store.counters();
  EXPECT_EQ(c.writes, writes);
  EXPECT_EQ(c.reads, reads);  // no lookahead, so no prefetch
  EXPECT_EQ(c.prefetch_hits, 0);
  EXPECT_EQ(c.prefetch_misses, reads);
  EXPECT_EQ(store.copy_bytes(), std::uint64_t(writes + reads) * 2 * bytes);
  EXPECT_LE(pool_->peak_in_use(), 2 + store.held_fields());
}

TEST_F(AsyncDiskStoreTest, RestoreRightAfterStoreWaitsForTheWrite) {
  const std::size_t bytes = 8 << 20;  // large enough that the write is still running
  AsyncDiskStore store(2, pool(bytes), dir_);
  pool_->ensure_capacity(2 + store.held_fields());
  HostState state;
  for (std::int64_t n = 1; n <= 3; ++n) {
    fill(state, n, *pool_);
    store.store(0, state);
    store.store(1, state);  // both writes in flight, both holding the state's fields
    EXPECT_TRUE(state.u.shared());
    fill(state, 100, *pool_);  // so this goes elsewhere
    store.restore(0, state, false);
    EXPECT_TRUE(holds(state, n));
    store.restore(1, state, true);
    EXPECT_TRUE(holds(state, n));
  }
}

TEST_F(AsyncDiskStoreTest, RevolveThroughLookaheadPrefetchesAndRestoresExactBytes) {
  const std::size_t bytes = 4 * 4099;
  for (const auto& [steps, snaps] : std::vector<std::pair<std::int64_t, std::int64_t>>{{60, 4}, {200, 7}, {33, 1}}) {
    RevolveSchedule revolve(steps, snaps);
    LookaheadSchedule lookahead(revolve);
    LookaheadPrefetch hint(lookahead);
    AsyncDiskStore store(revolve.slots(), pool(bytes), dir_, &hint);
    pool_->ensure_capacity(2 + store.held_fields());
    const std::int64_t restores = drive(lookahead, store, *pool_);
    const AsyncDiskStore::Counters c = store.counters();
    EXPECT_EQ(c.prefetch_hits + c.prefetch_misses, restores) << steps << "," << snaps;
    EXPECT_GT(c.prefetch_hits, restores / 2) << steps << "," << snaps;
    EXPECT_GE(c.reads, restores);
  }
}

TEST_F(AsyncDiskStoreTest, DiskTierOfTieredStoreMapsGlobalSlotIds) {
  const std::size_t bytes = 4 * 2053;
  const std::vector<Tier> tiers{{"memory", 2, 0.0, 0.0}, {"disk", 6, 2.0, 2.0}};
  MultilevelSchedule schedule(300, tiers);
  LookaheadSchedule lookahead(schedule);
  LookaheadPrefetch hint(lookahead);
  std::vector<std::unique_ptr<CheckpointStore>> stores;
  stores.push_back(std::make_unique<MemoryStore>(2, pool(bytes)));
  auto disk = std::make_unique<AsyncDiskStore>(6, *pool_, dir_, &hint, 2);
  AsyncDiskStore* disk_tier = disk.get();
  stores.push_back(std::move(disk));
  TieredStore store(std::move(stores));
  EXPECT_EQ(store.held_fields(), 4 + 6);
  pool_->ensure_capacity(2 + store.held_fields());  // the pool never runs dry: acquire would throw
  drive(lookahead, store, *pool_);
  const AsyncDiskStore::Counters c = disk_tier->counters();
  ASSERT_GT(c.writes, 0) << "the schedule never used the disk tier";
  EXPECT_GT(c.prefetch_hits, 0);
  EXPECT_GE(c.prefetch_hits, c.prefetch_misses);
}

TEST_F(AsyncDiskStoreTest, WorkerFailureIsAnIoErrorOnTheCallersThread) {
  const std::size_t bytes = 64 * 1024;
  AsyncDiskStore store(2, pool(bytes), dir_);
  pool_->ensure_capacity(2 + store.held_fields());
  HostState state;
  fill(state, 1, *pool_);
  store.store(0, state);
  store.restore(0, state, false);  // slot 0 is on disk
  // The space is reserved up front, so a full disk cannot happen any more; a file-size limit
  // below slot 1's offset makes its background pwrite fail (EFBIG) instead.
  rlimit old{};
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &old), 0);
  rlimit low = old;
  low.rlim_cur = 2 * bytes;
  auto* old_handler = std::signal(SIGXFSZ, SIG_IGN);
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &low), 0);
  store.store(1, state);  // returns before the write runs
  bool thrown = false;
  try {
    store.restore(1, state, false);
  } catch (const IoError& e) {
    thrown = true;
    EXPECT_NE(std::string(e.what()).find(dir_), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("slot 1"), std::string::npos) << e.what();
  }
  ::setrlimit(RLIMIT_FSIZE, &old);
  std::signal(SIGXFSZ, old_handler);
  EXPECT_TRUE(thrown);
  EXPECT_THROW(store.store(0, state), IoError);  // sticky: the checkpoints are lost
  EXPECT_THROW(store.restore(0, state, false), IoError);
}

TEST_F(AsyncDiskStoreTest, DestructorWithWritesPendingLeavesNoFile) {
  auto open_fds = [] {
    std::size_t n = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator("/proc/self/fd")) ++n;
    return n;
  };
  const std::size_t fds_before = open_fds();
  {
    const std::size_t bytes = 4 << 20;
    AsyncDiskStore store(4, pool(bytes), dir_);
    pool_->ensure_capacity(2 + store.held_fields());
    HostState state;
    for (std::int64_t s = 0; s < 4; ++s) {
      fill(state, s, *pool_);
      store.store(s, state);
    }
    EXPECT_TRUE(fs::is_empty(dir_));  // unlinked at once
  }
  EXPECT_TRUE(fs::is_empty(dir_));
  EXPECT_EQ(open_fds(), fds_before);
}

TEST_F(AsyncDiskStoreTest, ProgrammingErrorsAreLogicErrorsAndDirectoryRulesHold) {
  AsyncDiskStore store(2, pool(64), dir_);
  pool_->ensure_capacity(3);
  HostFieldPool other(32);
  other.ensure_capacity(1);
  HostState ok{pool_->acquire(), pool_->acquire()};
  HostState wrong{pool_->acquire(), other.acquire()};
  EXPECT_THROW(store.store(2, ok), std::out_of_range);
  EXPECT_THROW(store.restore(-1, ok, false), std::out_of_range);
  EXPECT_THROW(store.store(0, wrong), std::invalid_argument);
  EXPECT_THROW(AsyncDiskStore(1, *pool_, dir_ + "/missing"), InputError);
}

}  // namespace revwave
