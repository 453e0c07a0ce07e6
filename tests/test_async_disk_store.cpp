// The asynchronous disk store: bytes round-trip through write-behind and prefetch, prefetches
// hit on real schedules (global slot ids included), worker failures reach the caller.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

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

namespace fs = std::filesystem;

namespace revwave {
namespace {

class AsyncDiskStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "revwave_async_XXXXXX").string();
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string dir_;
};

HostState make_state(std::size_t bytes) { return HostState{HostBuffer(bytes), HostBuffer(bytes)}; }

// The state at forward position n of a mock propagator: every word says which position and
// which field it belongs to, so a restore of the wrong slot or a torn write shows.
void fill(HostState& s, std::int64_t n) {
  auto* u = s.u.as<std::uint32_t>();
  auto* up = s.u_prev.as<std::uint32_t>();
  for (std::size_t i = 0; i < s.u.bytes() / 4; ++i) {
    u[i] = static_cast<std::uint32_t>(n * 1000003 + static_cast<std::int64_t>(i));
    up[i] = ~u[i];
  }
}

bool holds(const HostState& s, std::int64_t n) {
  HostState want = make_state(s.u.bytes());
  fill(want, n);
  return std::memcmp(s.u.data(), want.u.data(), s.u.bytes()) == 0 &&
         std::memcmp(s.u_prev.data(), want.u_prev.data(), s.u_prev.bytes()) == 0;
}

// Executes a schedule against a store the way the gradient driver does, with a counting mock
// state instead of a wavefield; expects every restore to give the stored position's bytes.
std::int64_t drive(LookaheadSchedule& schedule, CheckpointStore& store, std::size_t field_bytes) {
  HostState state = make_state(field_bytes);
  std::int64_t restores = 0;
  for (Action a = schedule.next(); a.kind != ActionKind::end; a = schedule.next()) {
    if (a.kind == ActionKind::advance) {
      fill(state, a.step);
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
  AsyncDiskStore store(slots, bytes, dir_);
  std::vector<std::int64_t> held(slots, -1);  // the position each slot holds
  HostState state = make_state(bytes);
  std::mt19937 gen(7);
  std::int64_t writes = 0, reads = 0;
  for (std::int64_t n = 0; n < 400; ++n) {
    const auto slot = static_cast<std::int64_t>(gen() % slots);
    if (held[slot] < 0 || gen() % 2 == 0) {
      fill(state, n);
      store.store(slot, state);
      held[slot] = n;
      ++writes;
      if (gen() % 3 == 0) {  // at once: the write is most likely still queued
        fill(state, -1);
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
}

TEST_F(AsyncDiskStoreTest, RestoreRightAfterStoreWaitsForTheWrite) {
  const std::size_t bytes = 8 << 20;  // large enough that the write is still running
  AsyncDiskStore store(2, bytes, dir_);
  HostState state = make_state(bytes);
  for (std::int64_t n = 1; n <= 3; ++n) {
    fill(state, n);
    store.store(0, state);
    store.store(1, state);  // both staging buffers busy
    fill(state, 100);
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
    AsyncDiskStore store(revolve.slots(), bytes, dir_, &hint);
    const std::int64_t restores = drive(lookahead, store, bytes);
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
  stores.push_back(std::make_unique<MemoryStore>(2, bytes));
  auto disk = std::make_unique<AsyncDiskStore>(6, bytes, dir_, &hint, 2);
  AsyncDiskStore* disk_tier = disk.get();
  stores.push_back(std::move(disk));
  TieredStore store(std::move(stores));
  drive(lookahead, store, bytes);
  const AsyncDiskStore::Counters c = disk_tier->counters();
  ASSERT_GT(c.writes, 0) << "the schedule never used the disk tier";
  EXPECT_GT(c.prefetch_hits, 0);
  EXPECT_GE(c.prefetch_hits, c.prefetch_misses);
}

TEST_F(AsyncDiskStoreTest, WorkerFailureIsAnIoErrorOnTheCallersThread) {
  const std::size_t bytes = 64 * 1024;
  AsyncDiskStore store(2, bytes, dir_);
  HostState state = make_state(bytes);
  fill(state, 1);
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
    AsyncDiskStore store(4, bytes, dir_);
    HostState state = make_state(bytes);
    for (std::int64_t s = 0; s < 4; ++s) {
      fill(state, s);
      store.store(s, state);
    }
    EXPECT_TRUE(fs::is_empty(dir_));  // unlinked at once
  }
  EXPECT_TRUE(fs::is_empty(dir_));
  EXPECT_EQ(open_fds(), fds_before);
}

TEST_F(AsyncDiskStoreTest, ProgrammingErrorsAreLogicErrorsAndDirectoryRulesHold) {
  AsyncDiskStore store(2, 64, dir_);
  HostState ok = make_state(64);
  HostState wrong{HostBuffer(64), HostBuffer(32)};
  EXPECT_THROW(store.store(2, ok), std::out_of_range);
  EXPECT_THROW(store.restore(-1, ok, false), std::out_of_range);
  EXPECT_THROW(store.store(0, wrong), std::invalid_argument);
  EXPECT_THROW(AsyncDiskStore(1, 64, dir_ + "/missing"), InputError);
}

}  // namespace revwave
