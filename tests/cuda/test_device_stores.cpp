// Each device checkpoint tier alone (cuda/store): a restore gives the bytes the tier's codec makes
// of what was stored (the same bytes for a raw tier), whether read ahead or not; a last use of a
// device slot hands its fields over; copies and read-aheads are counted; and on cudasim the race
// checker sees every stream, event and fence the tier uses.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstring>
#include <deque>
#include <filesystem>
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "cuda_test_support.hpp"
#include "revwave/core/errors.hpp"
#include "revwave/cuda/runtime/cuda_error.hpp"
#include "revwave/cuda/store/device_slots.hpp"
#include "revwave/cuda/store/device_store_factory.hpp"
#include "revwave/cuda/store/disk_host_slots.hpp"
#include "revwave/cuda/store/encoded_device_slots.hpp"
#include "revwave/cuda/store/encoded_host_slots.hpp"
#include "revwave/cuda/store/encoded_pinned_slots.hpp"
#include "revwave/cuda/store/pinned_slots.hpp"
#include "revwave/cuda/store/staged_host_tier.hpp"
#include "revwave/store/compressed_store.hpp"

namespace fs = std::filesystem;

namespace revwave {
namespace {

using namespace cuda_testing;
using T = float;

// The restores to come, as the driver's lookahead would answer: the next one among a tier's
// slots (global ids). The test pops each restore as it happens.
class ScriptedHint final : public PrefetchHint {
 public:
  std::deque<std::int64_t> restores;
  std::int64_t next_restore(std::int64_t first, std::int64_t count, std::size_t) override {
    for (std::int64_t s : restores)
      if (s >= first && s < first + count) return s;
    return -1;
  }
};

struct Kind {
  const char* name;
  TierKind tier;
  const char* compression;  // "none", "fp16", "zfp-rate:16"
  bool copies;              // the tier copies over PCIe (else it holds handles or device bytes)
  bool reads_ahead;
};
void PrintTo(const Kind& k, std::ostream* os) { *os << k.name; }  // the test's name says it (CTest lists it)

// A pool of small awkward fields, the streams, fences and clock the tiers share, and the test's
// own reads and writes of fields (ordered as the propagator orders its own).
class DeviceStoreFences : public CudaTest {
 protected:
  void SetUp() override {
    CudaTest::SetUp();
    if (IsSkipped()) return;
    grid_ = awkward_case(4, 4, {13, 11, 9}).grid;
    pool_ = std::make_unique<DeviceFieldPool>(grid_.field_bytes<T>());
    streams_ = std::make_unique<CudaStreams>();  // here, not in the constructor: without a device the test skips
  }
  void TearDown() override {
    if (pool_) REVWAVE_CUDA_CHECK(cudaDeviceSynchronize());
    CudaTest::TearDown();
  }
  DeviceStoreContext context() { return {*pool_, *streams_, fences_, clock_}; }

  // A state of two free fields holding random values on the padded points (zero halo), as a step
  // writes them: after the fences on those fields.
  DeviceState random_state(unsigned seed) {
    DeviceState s{pool_->acquire(), pool_->acquire()};
    write(s.u, random_field<T>(grid_, seed));
    write(s.u_prev, random_field<T>(grid_, seed + 1000));
    return s;
  }
  void write(DeviceField& f, const std::vector<T>& values) {
    ASSERT_FALSE(f.shared()) << "a field a slot holds would be overwritten";
    fences_.before_write(f.data(), streams_->compute);
    REVWAVE_CUDA_CHECK(cudaMemcpyAsync(f.data(), values.data(), f.bytes(), cudaMemcpyHostToDevice, streams_->compute));
    streams_->compute.synchronize();
  }
  // What the state's fields hold once the compute stream has reached this point.
  std::vector<T> read(const DeviceField& f) {
    std::vector<T> out(f.bytes() / sizeof(T));
    REVWAVE_CUDA_CHECK(cudaMemcpyAsync(out.data(), f.data(), f.bytes(), cudaMemcpyDeviceToHost, streams_->compute));
    streams_->compute.synchronize();
    return out;
  }

  Grid grid_;
  std::unique_ptr<DeviceFieldPool> pool_;  // before every field and store
  std::unique_ptr<CudaStreams> streams_;
  WriteFences fences_;
  SpillClock clock_;
};

class DeviceStores : public DeviceStoreFences, public ::testing::WithParamInterface<Kind> {
 protected:
  void SetUp() override {
    DeviceStoreFences::SetUp();
    if (IsSkipped()) return;
    dir_ = fs::temp_directory_path() / ("revwave-device-stores-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
    const Compression c = parse_compression(GetParam().compression);
    if (c.enabled()) host_codec_ = std::make_unique<FieldCodec>(c, field_layout<T>(grid_));
    if (c.mode == CompressionMode::fp16) device_codec_ = std::make_unique<CastCodec<T>>(c, grid_);
  }
  void TearDown() override {
    store_.reset();
    state_ = DeviceState{};
    fs::remove_all(dir_);
    DeviceStoreFences::TearDown();
  }
  // The tier of this kind alone, through the factory (its slot ids start at 0), with room in the
  // pool for it and for `states` more states.
  DeviceCheckpointStore& make(std::int64_t slots, std::int64_t states, PrefetchHint* hint) {
    DeviceStorePlan plan;
    plan.tiers = {{GetParam().tier, slots}};
    plan.codec = device_codec_.get();
    plan.host_codec = device_codec_ ? nullptr : host_codec_.get();
    plan.checkpoint_dir = dir_.string();
    store_ = make_device_store(plan, context(), hint);
    pool_->ensure_capacity(pool_->in_use() + store_->held_fields() + 2 * states);
    return *store_;
  }
  // What this kind's restore gives for a stored field: the field itself, or the CPU codec's round trip.
  std::vector<T> expected(const std::vector<T>& field) const {
    if (!host_codec_) return field;
    std::vector<std::byte> encoded(host_codec_->max_bytes());
    const std::size_t n = host_codec_->encode(reinterpret_cast<const std::byte*>(field.data()), encoded.data());
    std::vector<T> back(field.size(), T(0));
    host_codec_->decode(encoded.data(), n, reinterpret_cast<std::byte*>(back.data()));
    return back;
  }
  void expect_holds(const DeviceState& s, unsigned seed, const std::string& what) {
    const std::vector<T> u = read(s.u), u_prev = read(s.u_prev);
    const std::vector<T> want = expected(random_field<T>(grid_, seed)),
                         want_prev = expected(random_field<T>(grid_, seed + 1000));
    EXPECT_EQ(std::memcmp(u.data(), want.data(), u.size() * sizeof(T)), 0) << what << ": u";
    EXPECT_EQ(std::memcmp(u_prev.data(), want_prev.data(), u_prev.size() * sizeof(T)), 0) << what << ": u_prev";
  }
  // Bytes one store or one restore of this kind moves over PCIe.
  std::uint64_t copied_per_use() const {
    if (!GetParam().copies) return 0;
    return device_codec_ ? device_codec_->slot_bytes() : 2 * pool_->field_bytes();
  }

  fs::path dir_;
  std::unique_ptr<FieldCodec> host_codec_;
  std::unique_ptr<DeviceCodec> device_codec_;
  std::unique_ptr<DeviceTieredStore> store_;
  DeviceState state_;
};

TEST_P(DeviceStores, RestoresGiveWhatWasStoredReadAheadOrNot) {
  for (bool ahead : {false, true}) {
    ScriptedHint hint;
    DeviceCheckpointStore& store = make(3, 6, ahead ? &hint : nullptr);
    EXPECT_EQ(store.slots(), 3);
    // As the driver's lookahead answers: a slot is read ahead once it is not stored again before
    // its restore, so from the store of slot 2 on (right after its spill is enqueued).
    for (int s = 0; s < 3; ++s) {
      if (ahead && s == 2) hint.restores = {2, 1, 0};
      store.store(s, random_state(100 + 10 * s));  // the states let go
    }
    state_ = random_state(7);
    for (std::int64_t s : {2, 1, 0}) {
      if (ahead) hint.restores.pop_front();  // the driver's lookahead is past a restore when it runs it
      store.restore(s, state_, false);
      expect_holds(state_, 100 + 10 * static_cast<unsigned>(s),
                   std::string(ahead ? "read ahead" : "not read ahead") + ", slot " + std::to_string(s));
      if (state_.u.shared()) state_ = DeviceState{pool_->acquire(), pool_->acquire()};
      write(state_.u, random_field<T>(grid_, 55));  // what a step writes never reaches the slot
    }
    // Storing again replaces the content.
    if (ahead) hint.restores = {2};
    store.store(2, random_state(900));
    if (ahead) hint.restores.clear();
    store.restore(2, state_, true);
    expect_holds(state_, 900, "slot 2 stored again");
    EXPECT_EQ(store.prefetch_hits(), ahead && GetParam().reads_ahead ? 4 : 0);
    EXPECT_EQ(store.copy_bytes(), 8 * copied_per_use());  // four stores, four restores
    const CompressionStats c = store.compression();
    if (device_codec_ || host_codec_) {
      EXPECT_EQ(c.fields_compressed, 8u);
      EXPECT_EQ(c.fields_decompressed, 8u);
      EXPECT_GT(c.ratio(), 1.5);
    } else {
      EXPECT_EQ(c.fields_compressed, 0u);
    }
    state_ = DeviceState{};
    store_.reset();
  }
}

TEST_P(DeviceStores, ALastUseOfADeviceSlotHandsItsFieldsOver) {
  DeviceCheckpointStore& store = make(2, 3, nullptr);
  DeviceState a = random_state(1);
  store.store(0, a);
  const bool handles = GetParam().tier == TierKind::memory && !device_codec_;
  if (handles) {
    EXPECT_TRUE(a.u.shared()) << "a device slot holds the state's fields";
  }
  a = DeviceState{};
  state_ = random_state(2);
  store.restore(0, state_, true);
  expect_holds(state_, 1, "last use");
  EXPECT_FALSE(state_.u.shared()) << "after a last use the state alone holds its fields";
  if (handles) {
    EXPECT_EQ(store.held_fields(), 4);
    EXPECT_THROW(store.restore(0, state_, false), std::logic_error);  // the slot let go
  }
  EXPECT_THROW(store.store(2, state_), std::out_of_range);
  EXPECT_THROW(store.restore(-1, state_, false), std::out_of_range);
}

INSTANTIATE_TEST_SUITE_P(Tiers, DeviceStores,
                         ::testing::Values(Kind{"Device", TierKind::memory, "none", false, false},
                                           Kind{"Pinned", TierKind::pinned, "none", true, true},
                                           Kind{"Disk", TierKind::disk, "none", true, true},
                                           Kind{"EncodedDevice", TierKind::memory, "fp16", false, false},
                                           Kind{"EncodedPinned", TierKind::pinned, "fp16", true, true},
                                           Kind{"ZfpPinned", TierKind::pinned, "zfp-rate:16", true, true}),
                         [](const ::testing::TestParamInfo<Kind>& p) { return std::string(p.param.name); });

// A decode writes free fields of the pool on the compute stream; a raw tier's spill may still be
// reading one of them on the transfer stream (its fields go back to the pool at the next spill,
// fenced, not waited for). The decode waits for those fences as a step does: on cudasim a missing
// wait is a race the checker reports.
TEST_F(DeviceStoreFences, ADecodeWaitsForTheSpillStillReadingItsFields) {
  const Compression fp16 = parse_compression("fp16");
  CastCodec<T> codec(fp16, grid_);
  EncodedDeviceSlots encoded(1, context(), codec);
  PinnedSlots pinned(2, context());
  pool_->ensure_capacity(2 + pinned.held_fields() + 8);
  encoded.store(0, random_state(1));
  pinned.store(0, random_state(2));
  pinned.store(1, random_state(3));  // slot 0's spill lets go of its fields: the next ones acquired
  DeviceState state;
  encoded.restore(0, state, false);
  const std::vector<T> u = read(state.u);
  const FieldCodec cpu(fp16, field_layout<T>(grid_));
  const std::vector<T> field = random_field<T>(grid_, 1);
  std::vector<std::byte> bytes(cpu.max_bytes());
  std::vector<T> want(field.size(), T(0));
  cpu.decode(bytes.data(), cpu.encode(reinterpret_cast<const std::byte*>(field.data()), bytes.data()),
             reinterpret_cast<std::byte*>(want.data()));
  EXPECT_EQ(std::memcmp(u.data(), want.data(), u.size() * sizeof(T)), 0);
}

// The disk tier's directory rules are the CPU's (DiskSlotFile): one InputError naming the directory.
class DeviceDiskTier : public CudaTest {};

TEST_F(DeviceDiskTier, AMissingDirectoryIsAnInputErrorNamingIt) {
  DeviceFieldPool pool(4096);
  CudaStreams streams;
  WriteFences fences;
  SpillClock clock;
  DeviceStorePlan plan;
  plan.tiers = {{TierKind::memory, 2}, {TierKind::disk, 2}};
  plan.checkpoint_dir = "/nonexistent/revwave-checkpoints";
  try {
    make_device_store(plan, DeviceStoreContext{pool, streams, fences, clock}, nullptr);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/revwave-checkpoints"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace revwave
