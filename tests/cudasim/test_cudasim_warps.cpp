// cudasim's warps: 32 lanes that meet at shuffles, votes and __syncwarp, with the checker reporting
// what a GPU leaves undefined. The kernels here are launch structs (the launch layer's concept) run
// through launch::enqueue, as the backend's own are.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "cudasim.hpp"
#include "revwave/cuda/kernels/launch/kernel_launch.hpp"
#include "revwave/cuda/runtime/device_buffer.hpp"

namespace revwave {
namespace {

constexpr unsigned full = launch::full_mask;

// What one thread of a two-warp block saw.
struct LaneResults {
  float idx, up, down, xor1, sum;
  unsigned ballot;
  int any, all;
};

struct WarpKernelBase {
  static constexpr const char* name = "a warp test kernel";
  static constexpr launch::Sync sync = launch::Sync::warp;
  static constexpr unsigned max_threads = 64;
  static constexpr int min_blocks = 1;
  using Shared = launch::NoShared;
  LaunchShape shape() const { return {{1, 1, 1}, {32, 2, 1}}; }
};

struct LaneExchange : WarpKernelBase {
  LaneResults* out;
  void accesses(launch::MemoryAccesses& acc) const { acc = {launch::writes(out, 64 * sizeof(LaneResults))}; }
  template <class Thread>
  void operator()(Thread& t) const {
    const ThreadPlace p = t.place();
    const unsigned lane = t.lane(), id = p.thread.x + 32 * p.thread.y;
    const float v = float(100 * p.thread.y + lane);
    LaneResults r;
    r.idx = t.shfl(full, v, int(lane + 3) % 32);
    r.up = t.shfl_up(full, v, 2u);
    r.down = t.shfl_down(full, v, 5u);
    r.xor1 = t.shfl_xor(full, v, 1);
    float s = v;  // a butterfly: every lane ends with the warp's sum
    for (int d = 16; d >= 1; d /= 2) s += t.shfl_xor(full, s, d);
    r.sum = s;
    r.ballot = t.ballot(full, lane % 3 == 0);
    r.any = t.any(full, lane == 7 && p.thread.y == 1);
    r.all = t.all(full, lane < 32);
    out[id] = r;
  }
};

class CudasimWarps : public ::testing::Test {
 protected:
  void SetUp() override { cudasim::take_reports(); }
  static bool reported(const std::string& fragment) {
    bool found = false;
    for (const std::string& r : cudasim::take_reports()) found = found || r.find(fragment) != std::string::npos;
    return found;
  }
  template <class V>
  static std::vector<V> download(const DeviceBuffer& b, std::size_t n) {
    std::vector<V> v(n);
    REVWAVE_CUDA_CHECK(cudaMemcpy(v.data(), b.data(), n * sizeof(V), cudaMemcpyDeviceToHost));
    return v;
  }
};

TEST_F(CudasimWarps, ShufflesAndVotesExchangeTheLanesValues) {
  DeviceBuffer out(64 * sizeof(LaneResults));
  LaneExchange k;
  k.out = out.as<LaneResults>();
  launch::enqueue(k, nullptr);
  const std::vector<LaneResults> r = download<LaneResults>(out, 64);
  EXPECT_EQ(cudasim::take_reports(), std::vector<std::string>{});
  for (unsigned w = 0; w < 2; ++w) {
    for (unsigned l = 0; l < 32; ++l) {
      SCOPED_TRACE("warp " + std::to_string(w) + " lane " + std::to_string(l));
      const LaneResults& x = r[32 * w + l];
      const auto value = [w](unsigned lane) { return float(100 * w + lane); };
      EXPECT_EQ(x.idx, value((l + 3) % 32));
      EXPECT_EQ(x.up, value(l >= 2 ? l - 2 : l));  // below the segment: the lane's own value
      EXPECT_EQ(x.down, value(l + 5 < 32 ? l + 5 : l));
      EXPECT_EQ(x.xor1, value(l ^ 1u));
      EXPECT_EQ(x.sum, float(32 * 100 * w + 496));
      EXPECT_EQ(x.ballot, 0x49249249u);  // lanes 0, 3, 6, ..., 30
      EXPECT_EQ(x.any, w == 1);
      EXPECT_EQ(x.all, 1);
    }
  }
}

// Lanes exchange through shared memory: each writes its slot, then reads its neighbour's.
struct SharedExchange {
  static constexpr const char* name = "a shared-memory test kernel";
  static constexpr launch::Sync sync = launch::Sync::block;
  static constexpr unsigned max_threads = 64;
  static constexpr int min_blocks = 1;
  struct Shared {
    float v[64];
  };
  float* out;
  bool sync_warp;   // a __syncwarp between the write and the read
  bool sync_block;  // a __syncthreads there instead
  bool same_warp;   // the neighbour read: lane + step of the same warp (mod 32), else thread id + step (mod 64)
  unsigned step;
  LaunchShape shape() const { return {{1, 1, 1}, {32, 2, 1}}; }
  void accesses(launch::MemoryAccesses& acc) const { acc = {launch::writes(out, 64 * sizeof(float))}; }
  template <class Thread>
  void operator()(Thread& t) const {
    Shared& s = t.template shared<Shared>();
    const ThreadPlace p = t.place();
    const unsigned id = p.thread.x + 32 * p.thread.y;
    t.shared_store(&s.v[id], float(id));
    if (sync_warp) t.sync_warp(full);
    if (sync_block) t.sync_block();
    const unsigned lane = t.lane(), warp = id / 32;
    out[id] = t.shared_load(&s.v[same_warp ? 32 * warp + (lane + step) % 32 : (id + step) % 64]);
  }
};

TEST_F(CudasimWarps, SharedMemoryBetweenLanesNeedsAWarpBarrier) {
  DeviceBuffer out(64 * sizeof(float));
  const auto run = [&](bool warp, bool block, bool same_warp, unsigned step) {
    launch::enqueue(SharedExchange{out.as<float>(), warp, block, same_warp, step}, nullptr);
    return download<float>(out, 64);
  };
  // Within a warp, with __syncwarp: ordered, and every lane reads its neighbour's value.
  std::vector<float> got = run(true, false, true, 1);
  EXPECT_EQ(cudasim::take_reports(), std::vector<std::string>{});
  for (unsigned id = 0; id < 64; ++id) EXPECT_EQ(got[id], float(id / 32 * 32 + (id % 32 + 1) % 32)) << id;
  run(true, false, false, 1);  // lane 31 reads the other warp's lane 0: a __syncwarp does not order that
  EXPECT_TRUE(reported("race in shared memory")) << "a read across warps after a __syncwarp";
  got = run(false, true, false, 1);  // a __syncthreads orders everything
  EXPECT_EQ(cudasim::take_reports(), std::vector<std::string>{});
  for (unsigned id = 0; id < 64; ++id) EXPECT_EQ(got[id], float((id + 1) % 64)) << id;
  run(false, false, true, 1);  // no barrier at all: a lane reads what its neighbour writes
  EXPECT_TRUE(reported("race in shared memory")) << "a read of another lane's write with no barrier";
  run(false, false, true, 0);  // each lane its own slot: no exchange, no race
  EXPECT_EQ(cudasim::take_reports(), std::vector<std::string>{});
}

// Lanes 0..15 shuffle among themselves (mask 0x0000ffff) but read lanes 16..31.
struct ShuffleOutsideTheMask : WarpKernelBase {
  float* out;
  bool exit_upper;  // lanes 16..31 leave instead of idling, and the mask names the whole warp
  void accesses(launch::MemoryAccesses& acc) const { acc = {launch::writes(out, 64 * sizeof(float))}; }
  template <class Thread>
  void operator()(Thread& t) const {
    const unsigned lane = t.lane(), id = t.place().thread.x + 32 * t.place().thread.y;
    if (lane >= 16) {
      if (!exit_upper) out[id] = 0;
      return;
    }
    out[id] = t.shfl(exit_upper ? full : 0x0000ffffu, float(lane), int(lane) + 16);
  }
};

TEST_F(CudasimWarps, AShuffleFromALaneOutsideTheMaskOrExitedIsReported) {
  DeviceBuffer out(64 * sizeof(float));
  launch::enqueue(ShuffleOutsideTheMask{{}, out.as<float>(), false}, nullptr);
  EXPECT_TRUE(reported("outside its mask 0x0000ffff"));
  const std::vector<float> got = download<float>(out, 64);
  EXPECT_TRUE(std::isnan(got[3])) << "an undefined shuffle reads NaN on cudasim";
  launch::enqueue(ShuffleOutsideTheMask{{}, out.as<float>(), true}, nullptr);
  const std::vector<std::string> r = cudasim::take_reports();
  const auto any_has = [&r](const char* f) {
    for (const std::string& s : r)
      if (s.find(f) != std::string::npos) return true;
    return false;
  };
  EXPECT_TRUE(any_has("which has exited")) << "the mask names lanes that left";
  EXPECT_TRUE(any_has("not at the shuffle")) << "the source lane left";
}

// Lanes of one mask at different collectives.
struct MismatchedCollectives : WarpKernelBase {
  float* out;
  void accesses(launch::MemoryAccesses& acc) const { acc = {launch::writes(out, 64 * sizeof(float))}; }
  template <class Thread>
  void operator()(Thread& t) const {
    const unsigned lane = t.lane(), id = t.place().thread.x + 32 * t.place().thread.y;
    if (lane == 5)
      t.sync_warp(full);
    else
      out[id] = t.shfl_down(full, float(lane), 1u);
  }
};

TEST_F(CudasimWarps, LanesOfAMaskAtDifferentCollectivesAreReported) {
  DeviceBuffer out(64 * sizeof(float));
  launch::enqueue(MismatchedCollectives{{}, out.as<float>()}, nullptr);
  EXPECT_TRUE(reported("must meet at the same collective"));
}

// A kernel that declares no collectives may not use one.
struct UndeclaredShuffle : WarpKernelBase {
  static constexpr launch::Sync sync = launch::Sync::none;
  float* out;
  void accesses(launch::MemoryAccesses& acc) const { acc = {launch::writes(out, 64 * sizeof(float))}; }
  template <class Thread>
  void operator()(Thread& t) const {
    out[t.lane()] = t.shfl(full, 1.0f, 0);
  }
};

TEST_F(CudasimWarps, AKernelWithoutDeclaredCollectivesCannotShuffle) {
  DeviceBuffer out(64 * sizeof(float));
  launch::enqueue(UndeclaredShuffle{{}, out.as<float>()}, nullptr);
  EXPECT_TRUE(reported("declared without collectives (launch::Sync::none) calls __shfl_sync"));
}

}  // namespace
}  // namespace revwave
