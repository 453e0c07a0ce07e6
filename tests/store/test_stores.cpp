// Tests of the host-memory and disk checkpoint stores.
#include <gtest/gtest.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>

#include "revwave/core/errors.hpp"
#include "revwave/store/disk_store.hpp"
#include "revwave/store/memory_store.hpp"
#include "temp_dir.hpp"

namespace fs = std::filesystem;
using revwave::CheckpointStore;
using revwave::DiskStore;
using revwave::HostFieldPool;
using revwave::HostState;
using revwave::InputError;
using revwave::IoError;
using revwave::MemoryStore;

namespace {

// A state of two fields of the pool, filled with random bytes.
HostState random_state(HostFieldPool& pool, std::uint32_t seed) {
  HostState s{pool.acquire(), pool.acquire()};
  std::mt19937 gen(seed);
  for (std::size_t i = 0; i < pool.field_bytes(); ++i) {
    s.u.data()[i] = static_cast<std::byte>(gen());
    s.u_prev.data()[i] = static_cast<std::byte>(gen());
  }
  return s;
}

// A state's bytes, kept apart from the pool: what it held when the snapshot was taken.
struct Bytes {
  std::vector<std::byte> u, u_prev;
};
Bytes bytes_of(const HostState& s) {
  return {std::vector<std::byte>(s.u.data(), s.u.data() + s.u.bytes()),
          std::vector<std::byte>(s.u_prev.data(), s.u_prev.data() + s.u_prev.bytes())};
}

bool same(const HostState& a, const Bytes& b) {
  return a.u.bytes() == b.u.size() && a.u_prev.bytes() == b.u_prev.size() &&
         std::memcmp(a.u.data(), b.u.data(), b.u.size()) == 0 &&
         std::memcmp(a.u_prev.data(), b.u_prev.data(), b.u_prev.size()) == 0;
}

// Overwrites a state's fields the way a step may: only those nobody else holds.
void scribble(HostState& s, std::uint32_t seed) {
  for (revwave::HostField* f : {&s.u, &s.u_prev}) {
    ASSERT_FALSE(f->shared()) << "a field a slot holds would be overwritten";
    std::memset(f->data(), static_cast<int>(seed), f->bytes());
  }
}

using Factory = std::function<std::unique_ptr<CheckpointStore>(std::int64_t, HostFieldPool&, const std::string&)>;
struct StoreKind {
  const char* name;
  Factory make;
};

// The behaviour every CheckpointStore must have, run once per kind. The pool outlives the stores.
class AnyStoreTest : public ::testing::TestWithParam<StoreKind> {
 protected:
  // A store of `slots` on the pool of `bytes` fields, sized for it and for `states` more states.
  std::unique_ptr<CheckpointStore> make(std::int64_t slots, std::size_t bytes, std::int64_t states) {
    if (!pool_) pool_ = std::make_unique<HostFieldPool>(bytes);
    auto store = GetParam().make(slots, *pool_, dir_);
    pool_->ensure_capacity(pool_->capacity() + store->held_fields() + 2 * states);
    return store;
  }
  const revwave::testing::TempDir tmp_{"revwave_store"};
  const std::string dir_ = tmp_.path().string();
  std::unique_ptr<HostFieldPool> pool_;
};

}  // namespace

TEST_P(AnyStoreTest, StoreThenRestoreGivesIdenticalBytes) {
  const std::size_t bytes = 4096 * 3 + 17;  // not a multiple of a page or a block
  auto store = make(3, bytes, 6);
  EXPECT_EQ(store->slots(), 3);
  EXPECT_EQ(store->slot_bytes(), 2 * bytes);
  std::vector<Bytes> saved;
  for (int s = 0; s < 3; ++s) {
    HostState st = random_state(*pool_, 100 + s);
    saved.push_back(bytes_of(st));
    store->store(s, st);
  }  // the states let go: memory slots are now the only holders
  HostState state = random_state(*pool_, 5);
  for (int round = 0; round < 2; ++round) {  // a plain restore leaves the slot intact...
    for (int s = 2; s >= 0; --s) {
      store->restore(s, state, false);
      EXPECT_TRUE(same(state, saved[s])) << "slot " << s << " round " << round;
    }
  }
  // ...and what a restored state may be overwritten with never reaches the slot.
  store->restore(2, state, false);
  if (state.u.shared()) state = HostState{pool_->acquire(), pool_->acquire()};
  scribble(state, 0x5a);
  store->restore(2, state, false);
  EXPECT_TRUE(same(state, saved[2]));
  // Overwriting a slot replaces its content.
  const HostState other = random_state(*pool_, 999);
  const Bytes other_bytes = bytes_of(other);
  store->store(1, other);
  store->restore(1, state, false);
  EXPECT_TRUE(same(state, other_bytes));
}

TEST_P(AnyStoreTest, LastUseRestoreLeavesStateCorrectAndSlotReusable) {
  const std::size_t bytes = 1000;
  auto store = make(2, bytes, 5);
  HostState a = random_state(*pool_, 1), b = random_state(*pool_, 2);
  const Bytes a_bytes = bytes_of(a), b_bytes = bytes_of(b);
  store->store(0, a);
  store->store(1, b);
  a = b = HostState{};
  HostState state = random_state(*pool_, 3);
  store->restore(0, state, true);
  EXPECT_TRUE(same(state, a_bytes));
  EXPECT_EQ(state.u.bytes(), bytes);
  EXPECT_FALSE(state.u.shared());  // the slot let go: a step may overwrite it in place
  // The slot is free again: store something new and get it back.
  HostState c = random_state(*pool_, 4);
  const Bytes c_bytes = bytes_of(c);
  store->store(0, c);
  c = HostState{};
  store->restore(0, state, true);
  EXPECT_TRUE(same(state, c_bytes));
  store->restore(1, state, false);
  EXPECT_TRUE(same(state, b_bytes));
}

TEST_P(AnyStoreTest, ProgrammingErrorsAreLogicErrors) {
  auto store = make(2, 64, 2);
  HostState ok{pool_->acquire(), pool_->acquire()};
  HostFieldPool other(32);
  other.ensure_capacity(1);
  HostState wrong{pool_->acquire(), other.acquire()};
  EXPECT_THROW(store->store(2, ok), std::out_of_range);
  EXPECT_THROW(store->store(-1, ok), std::out_of_range);
  EXPECT_THROW(store->restore(5, ok, false), std::out_of_range);
  EXPECT_THROW(store->store(0, wrong), std::invalid_argument);
  EXPECT_THROW(store->restore(0, wrong, true), std::invalid_argument);
  EXPECT_THROW(GetParam().make(0, *pool_, dir_), InputError);
}

INSTANTIATE_TEST_SUITE_P(Stores, AnyStoreTest,
                         ::testing::Values(StoreKind{"Memory",
                                                     [](std::int64_t s, HostFieldPool& p,
                                                        const std::string&) -> std::unique_ptr<CheckpointStore> {
                                                       return std::make_unique<MemoryStore>(s, p);
                                                     }},
                                           StoreKind{"Disk",
                                                     [](std::int64_t s, HostFieldPool& p,
                                                        const std::string& d) -> std::unique_ptr<CheckpointStore> {
                                                       return std::make_unique<DiskStore>(s, p, d);
                                                     }}),
                         [](const ::testing::TestParamInfo<StoreKind>& p) { return std::string(p.param.name); });

TEST(MemoryStoreTest, StoreAndRestoreHandOverFieldsWithoutCopying) {
  HostFieldPool pool(256);
  MemoryStore store(1, pool);
  EXPECT_EQ(store.held_fields(), 2);
  pool.ensure_capacity(2 + store.held_fields());
  HostState a = random_state(pool, 7);
  const Bytes a_bytes = bytes_of(a);
  store.store(0, a);
  EXPECT_EQ(a.u.holders(), 2);  // the slot holds the state's own fields
  EXPECT_EQ(a.u_prev.holders(), 2);
  HostState state = random_state(pool, 8);
  store.restore(0, state, false);
  EXPECT_TRUE(state.u.same_field(a.u));  // the slot's fields, not a copy of them
  EXPECT_EQ(state.u.holders(), 3);
  store.restore(0, state, true);
  EXPECT_EQ(state.u.holders(), 2);  // the slot let go (a still holds them)
  a = HostState{};
  EXPECT_FALSE(state.u.shared());
  EXPECT_TRUE(same(state, a_bytes));
  EXPECT_EQ(store.copy_bytes(), 0u);
  EXPECT_THROW(store.restore(0, state, false), std::logic_error);  // the slot is empty
}

#if defined(__SANITIZE_ADDRESS__)
#define REVWAVE_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define REVWAVE_TEST_ASAN 1
#endif
#endif

TEST(FieldPoolTest, AllocationFailureSaysHowManyBytes) {
#ifdef REVWAVE_TEST_ASAN
  GTEST_SKIP() << "AddressSanitizer aborts on impossible allocations instead of returning null";
#endif
  const std::size_t huge = std::size_t{1} << 60;  // no machine has it
  HostFieldPool pool(huge);
  try {
    pool.ensure_capacity(1);
    FAIL() << "allocated 2^60 bytes";
  } catch (const revwave::OutOfMemoryError& e) {
    EXPECT_NE(std::string(e.what()).find(std::to_string(huge)), std::string::npos) << e.what();
  }
  EXPECT_EQ(pool.capacity(), 0);
  HostFieldPool absurd(std::numeric_limits<std::size_t>::max() / 4);
  EXPECT_THROW(absurd.ensure_capacity(1), revwave::OutOfMemoryError);
}

namespace {

class DiskStoreTest : public ::testing::Test {
 protected:
  static void expect_input_error(const std::string& dir, const std::string& rule) {
    try {
      HostFieldPool pool(64);
      DiskStore store(1, pool, dir);
      FAIL() << "no InputError for " << dir;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(dir), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(rule), std::string::npos) << e.what();
    }
  }
  const revwave::testing::TempDir tmp_{"revwave_disk"};
  const std::string dir_ = tmp_.path().string();
};

}  // namespace

TEST_F(DiskStoreTest, MissingDirectoryIsInputError) { expect_input_error(dir_ + "/missing", "must exist"); }

TEST_F(DiskStoreTest, RegularFileIsNotADirectory) {
  const std::string file = dir_ + "/file";
  std::ofstream(file) << "x";
  expect_input_error(file, "must be a directory");
  expect_input_error(file + "/sub", "must exist");  // a path under a regular file
}

TEST_F(DiskStoreTest, NotWritableIsInputError) {
  if (::geteuid() != 0) {
    const std::string ro = dir_ + "/ro";
    fs::create_directory(ro);
    ::chmod(ro.c_str(), 0555);
    expect_input_error(ro, "must be writable");
    ::chmod(ro.c_str(), 0755);
    return;
  }
  // Root passes permission checks on a 0555 directory, so use a directory in which even
  // root cannot create files: /sys (read-only sysfs) or /proc (no regular files).
  for (const char* d : {"/sys", "/proc"}) {
    const std::string probe = std::string(d) + "/revwave_probe";
    std::FILE* f = std::fopen(probe.c_str(), "w");
    if (f != nullptr) {
      std::fclose(f);
      std::remove(probe.c_str());
      continue;
    }
    expect_input_error(d, "must be writable");
    return;
  }
  GTEST_SKIP() << "running as root and neither /sys nor /proc refuses file creation";
}

TEST_F(DiskStoreTest, NoFilesRemainDuringOrAfterUse) {
  {
    HostFieldPool pool(1024);
    pool.ensure_capacity(2);
    DiskStore store(2, pool, dir_);
    const HostState a = random_state(pool, 5);
    store.store(1, a);
    // The scratch file is unlinked as soon as it is open, so nothing shows even now.
    EXPECT_TRUE(fs::is_empty(dir_));
  }
  EXPECT_TRUE(fs::is_empty(dir_));
}

TEST_F(DiskStoreTest, NoFilesRemainAfterExceptionMidRun) {
  try {
    HostFieldPool pool(1024);
    pool.ensure_capacity(2);
    DiskStore store(2, pool, dir_);
    const HostState a = random_state(pool, 5);
    store.store(0, a);
    throw std::runtime_error("something failed mid-run");
  } catch (const std::runtime_error&) {}
  EXPECT_TRUE(fs::is_empty(dir_));
}

TEST_F(DiskStoreTest, FullDiskFailsUpFrontAndSpaceIsReturned) {
  const std::string mnt = dir_ + "/tmpfs";
  fs::create_directory(mnt);
  if (::mount("tmpfs", mnt.c_str(), "tmpfs", 0, "size=1M") != 0) {
    GTEST_SKIP() << "cannot mount a 1 MiB tmpfs to fill (" << std::strerror(errno) << "); needs root and mount rights";
  }
  struct Unmount {
    std::string p;
    ~Unmount() { ::umount(p.c_str()); }
  } unmount{mnt};
  auto free_bytes = [&] {
    struct statvfs v {};
    ::statvfs(mnt.c_str(), &v);
    return static_cast<std::uint64_t>(v.f_bavail) * v.f_frsize;
  };
  const std::uint64_t free_before = free_bytes();

  // 4 slots x 2 x 256 KiB = 2 MiB on a 1 MiB file system.
  try {
    HostFieldPool pool(256 * 1024);
    DiskStore store(4, pool, mnt);
    FAIL() << "2 MiB of checkpoints fitted on a 1 MiB tmpfs";
  } catch (const IoError& e) {
    EXPECT_NE(std::string(e.what()).find(mnt), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(std::strerror(ENOSPC)), std::string::npos) << e.what();
  }
  EXPECT_TRUE(fs::is_empty(mnt));
  EXPECT_EQ(free_bytes(), free_before);

  {
    HostFieldPool pool(256 * 1024);
    pool.ensure_capacity(4);
    DiskStore store(1, pool, mnt);  // 512 KiB fits, and is reserved up front
    EXPECT_LE(free_bytes() + 512 * 1024, free_before);
    const HostState a = random_state(pool, 6);
    HostState b = random_state(pool, 7);
    store.store(0, a);
    store.restore(0, b, true);
    EXPECT_TRUE(same(b, bytes_of(a)));
    EXPECT_EQ(store.copy_bytes(), 4u * 256 * 1024);
  }
  EXPECT_EQ(free_bytes(), free_before);
}
