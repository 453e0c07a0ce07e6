// Tests of the host-memory and disk checkpoint stores.
#include <gtest/gtest.h>
#include <sys/mount.h>
#include <sys/statvfs.h>
#include <sys/stat.h>
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

namespace fs = std::filesystem;
using revwave::CheckpointStore;
using revwave::DiskStore;
using revwave::HostBuffer;
using revwave::HostState;
using revwave::InputError;
using revwave::IoError;
using revwave::MemoryStore;

namespace {

std::string make_temp_dir(const char* stem) {
  std::string tmpl = (fs::temp_directory_path() / (std::string(stem) + "_XXXXXX")).string();
  if (::mkdtemp(tmpl.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
  return tmpl;
}

HostState random_state(std::size_t bytes, std::uint32_t seed) {
  HostState s{HostBuffer(bytes), HostBuffer(bytes)};
  std::mt19937 gen(seed);
  for (std::size_t i = 0; i < bytes; ++i) {
    s.u.data()[i] = static_cast<std::byte>(gen());
    s.u_prev.data()[i] = static_cast<std::byte>(gen());
  }
  return s;
}

bool same(const HostState& a, const HostState& b) {
  return a.u.bytes() == b.u.bytes() && a.u_prev.bytes() == b.u_prev.bytes() &&
         std::memcmp(a.u.data(), b.u.data(), a.u.bytes()) == 0 &&
         std::memcmp(a.u_prev.data(), b.u_prev.data(), a.u_prev.bytes()) == 0;
}

using Factory = std::function<std::unique_ptr<CheckpointStore>(std::int64_t, std::size_t, const std::string&)>;
struct StoreKind {
  const char* name;
  Factory make;
};

// The behaviour every CheckpointStore must have, run once per kind.
class AnyStoreTest : public ::testing::TestWithParam<StoreKind> {
 protected:
  void SetUp() override { dir_ = make_temp_dir("revwave_store"); }
  void TearDown() override { fs::remove_all(dir_); }
  std::unique_ptr<CheckpointStore> make(std::int64_t slots, std::size_t bytes) { return GetParam().make(slots, bytes, dir_); }
  std::string dir_;
};

}  // namespace

TEST_P(AnyStoreTest, StoreThenRestoreGivesIdenticalBytes) {
  const std::size_t bytes = 4096 * 3 + 17;  // not a multiple of a page or a block
  auto store = make(3, bytes);
  EXPECT_EQ(store->slots(), 3);
  EXPECT_EQ(store->slot_bytes(), 2 * bytes);
  std::vector<HostState> saved;
  for (int s = 0; s < 3; ++s) {
    saved.push_back(random_state(bytes, 100 + s));
    store->store(s, saved.back());
  }
  HostState state{HostBuffer(bytes), HostBuffer(bytes)};
  for (int round = 0; round < 2; ++round) {  // a plain restore leaves the slot intact
    for (int s = 2; s >= 0; --s) {
      store->restore(s, state, false);
      EXPECT_TRUE(same(state, saved[s])) << "slot " << s << " round " << round;
    }
  }
  // Overwriting a slot replaces its content.
  const HostState other = random_state(bytes, 999);
  store->store(1, other);
  store->restore(1, state, false);
  EXPECT_TRUE(same(state, other));
}

TEST_P(AnyStoreTest, LastUseRestoreLeavesStateCorrectAndSlotReusable) {
  const std::size_t bytes = 1000;
  auto store = make(2, bytes);
  const HostState a = random_state(bytes, 1), b = random_state(bytes, 2);
  store->store(0, a);
  store->store(1, b);
  HostState state = random_state(bytes, 3);
  store->restore(0, state, true);
  EXPECT_TRUE(same(state, a));
  EXPECT_EQ(state.u.bytes(), bytes);
  // The slot is free again: store something new and get it back.
  const HostState c = random_state(bytes, 4);
  store->store(0, c);
  store->restore(0, state, true);
  EXPECT_TRUE(same(state, c));
  store->restore(1, state, false);
  EXPECT_TRUE(same(state, b));
}

TEST_P(AnyStoreTest, ProgrammingErrorsAreLogicErrors) {
  auto store = make(2, 64);
  HostState ok{HostBuffer(64), HostBuffer(64)};
  HostState wrong{HostBuffer(64), HostBuffer(32)};
  EXPECT_THROW(store->store(2, ok), std::out_of_range);
  EXPECT_THROW(store->store(-1, ok), std::out_of_range);
  EXPECT_THROW(store->restore(5, ok, false), std::out_of_range);
  EXPECT_THROW(store->store(0, wrong), std::invalid_argument);
  EXPECT_THROW(store->restore(0, wrong, true), std::invalid_argument);
  EXPECT_THROW(make(0, 64), InputError);
}

INSTANTIATE_TEST_SUITE_P(
    Stores, AnyStoreTest,
    ::testing::Values(StoreKind{"Memory",
                                [](std::int64_t s, std::size_t b, const std::string&) -> std::unique_ptr<CheckpointStore> {
                                  return std::make_unique<MemoryStore>(s, b);
                                }},
                      StoreKind{"Disk",
                                [](std::int64_t s, std::size_t b, const std::string& d) -> std::unique_ptr<CheckpointStore> {
                                  return std::make_unique<DiskStore>(s, b, d);
                                }}),
    [](const ::testing::TestParamInfo<StoreKind>& p) { return std::string(p.param.name); });

TEST(MemoryStoreTest, LastUseRestoreSwapsBuffersWithoutCopy) {
  MemoryStore store(1, 256);
  const HostState a = random_state(256, 7);
  store.store(0, a);
  HostState state{HostBuffer(256), HostBuffer(256)};
  const std::byte* before = state.u.data();
  store.restore(0, state, true);
  EXPECT_NE(state.u.data(), before);  // got the slot's buffer, not a copy into its own
  EXPECT_TRUE(same(state, a));
  // and the slot now owns the state's old buffer: storing into it does not touch the state
  const HostState b = random_state(256, 8);
  store.store(0, b);
  EXPECT_TRUE(same(state, a));
}

#if defined(__SANITIZE_ADDRESS__)
#define REVWAVE_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define REVWAVE_TEST_ASAN 1
#endif
#endif

TEST(MemoryStoreTest, AllocationFailureSaysHowManyBytes) {
#ifdef REVWAVE_TEST_ASAN
  GTEST_SKIP() << "AddressSanitizer aborts on impossible allocations instead of returning null";
#endif
  const std::size_t huge = std::size_t{1} << 60;  // 2^61 bytes per slot: no machine has it
  try {
    MemoryStore store(1, huge);
    FAIL() << "allocated 2^61 bytes";
  } catch (const revwave::OutOfMemoryError& e) {
    EXPECT_NE(std::string(e.what()).find(std::to_string(2 * huge)), std::string::npos) << e.what();
  }
  EXPECT_THROW(MemoryStore(4, std::numeric_limits<std::size_t>::max() / 4), revwave::OutOfMemoryError);
}

namespace {

class DiskStoreTest : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = make_temp_dir("revwave_disk"); }
  void TearDown() override { fs::remove_all(dir_); }
  static void expect_input_error(const std::string& dir, const std::string& rule) {
    try {
      DiskStore store(1, 64, dir);
      FAIL() << "no InputError for " << dir;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(dir), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(rule), std::string::npos) << e.what();
    }
  }
  std::string dir_;
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
    DiskStore store(2, 1024, dir_);
    const HostState a = random_state(1024, 5);
    store.store(1, a);
    // The scratch file is unlinked as soon as it is open, so nothing shows even now.
    EXPECT_TRUE(fs::is_empty(dir_));
  }
  EXPECT_TRUE(fs::is_empty(dir_));
}

TEST_F(DiskStoreTest, NoFilesRemainAfterExceptionMidRun) {
  try {
    DiskStore store(2, 1024, dir_);
    const HostState a = random_state(1024, 5);
    store.store(0, a);
    throw std::runtime_error("something failed mid-run");
  } catch (const std::runtime_error&) {
  }
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
    DiskStore store(4, 256 * 1024, mnt);
    FAIL() << "2 MiB of checkpoints fitted on a 1 MiB tmpfs";
  } catch (const IoError& e) {
    EXPECT_NE(std::string(e.what()).find(mnt), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(std::strerror(ENOSPC)), std::string::npos) << e.what();
  }
  EXPECT_TRUE(fs::is_empty(mnt));
  EXPECT_EQ(free_bytes(), free_before);

  {
    DiskStore store(1, 256 * 1024, mnt);  // 512 KiB fits, and is reserved up front
    EXPECT_LE(free_bytes() + 512 * 1024, free_before);
    const HostState a = random_state(256 * 1024, 6);
    HostState b{HostBuffer(256 * 1024), HostBuffer(256 * 1024)};
    store.store(0, a);
    store.restore(0, b, true);
    EXPECT_TRUE(same(a, b));
  }
  EXPECT_EQ(free_bytes(), free_before);
}
