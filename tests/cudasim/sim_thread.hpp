// cudasim's view of one GPU thread, handed to a kernel's body by the launch layer
// (revwave/cuda/kernels/launch/kernel_launch.hpp): its place, and the collectives a warp or block
// kernel uses, which the block executor (block_executor.cpp) implements by running the block's
// threads as fibers that meet at them. Shuffles and votes exchange values between lanes that have
// all arrived; the executor reports what a GPU leaves undefined (a source lane outside the mask
// or exited, lanes meeting at different collectives, a barrier some thread never reaches) and a
// lane reading another thread's shared-memory write with no __syncwarp (over both lanes) or
// __syncthreads between them.
#pragma once
#include <cstdint>
#include <cstring>
#include <functional>
#include <type_traits>

#include "revwave/cuda/kernels/launch/launch_shape.hpp"

namespace revwave::cudasim {

class BlockRun;

enum class WarpOp { sync, shfl, shfl_up, shfl_down, shfl_xor, vote };

class SimThread {
 public:
  SimThread() = default;
  SimThread(BlockRun* block, const ThreadPlace& place, unsigned linear)
      : block_(block), place_(place), linear_(linear) {}

  ThreadPlace place() const { return place_; }
  unsigned lane() const { return linear_ % 32; }

  void sync_block();
  void sync_warp(unsigned mask = 0xffffffffu) { warp_op(WarpOp::sync, mask, 0, 0, 32); }
  template <class V>
  V shfl(unsigned mask, V v, int src, int width = 32) {
    return exchange(WarpOp::shfl, mask, v, src, width);
  }
  template <class V>
  V shfl_up(unsigned mask, V v, unsigned delta, int width = 32) {
    return exchange(WarpOp::shfl_up, mask, v, static_cast<int>(delta), width);
  }
  template <class V>
  V shfl_down(unsigned mask, V v, unsigned delta, int width = 32) {
    return exchange(WarpOp::shfl_down, mask, v, static_cast<int>(delta), width);
  }
  template <class V>
  V shfl_xor(unsigned mask, V v, int lane_mask, int width = 32) {
    return exchange(WarpOp::shfl_xor, mask, v, lane_mask, width);
  }
  unsigned ballot(unsigned mask, bool p) { return static_cast<unsigned>(warp_op(WarpOp::vote, mask, p, 0, 32)); }
  bool any(unsigned mask, bool p) { return ballot(mask, p) != 0; }
  // Over the lanes of the mask that take part (an exited lane does not).
  bool all(unsigned mask, bool p) {
    const std::uint64_t r = warp_op(WarpOp::vote, mask, p, 0, 32);
    return static_cast<unsigned>(r) == static_cast<unsigned>(r >> 32);
  }

  template <class S>
  S& shared() {
    return *static_cast<S*>(shared_base());
  }
  template <class V>
  V shared_load(const V* p) {
    check_shared(p, sizeof(V), false);
    return *p;
  }
  template <class V>
  void shared_store(V* p, V v) {
    check_shared(p, sizeof(V), true);
    *p = v;
  }

 private:
  template <class V>
  V exchange(WarpOp op, unsigned mask, V v, int arg, int width) {
    static_assert(std::is_trivially_copyable_v<V> && sizeof(V) <= 8, "a shuffle moves up to 8 bytes");
    std::uint64_t bits = 0;
    std::memcpy(&bits, &v, sizeof(V));
    const std::uint64_t r = warp_op(op, mask, bits, arg, width);
    V out;
    std::memcpy(&out, &r, sizeof(V));
    return out;
  }
  // The collective's result for this lane (a vote: the ballot, and the lanes that took part above bit 32).
  std::uint64_t warp_op(WarpOp op, unsigned mask, std::uint64_t value, int arg, int width);
  void* shared_base();
  void check_shared(const void* p, std::size_t bytes, bool write);

  BlockRun* block_ = nullptr;  // null: a kernel that declared no collectives
  ThreadPlace place_{};
  unsigned linear_ = 0;  // threadIdx linearised, x fastest: warp linear_ / 32, lane linear_ % 32
};

// Runs a launch's blocks (in parallel): with sync none every thread runs `body` in turn; with
// warp or block sync the block's threads run as fibers that meet at their collectives, resumed in
// a shuffled order, on shared memory poisoned with NaN (shared_bytes of it). Reports a launch
// shape, or static shared memory, a GPU would refuse.
void run_grid(const char* what, const LaunchShape& shape, std::size_t shared_bytes, bool collectives,
              const std::function<void(SimThread&)>& body);

}  // namespace revwave::cudasim
