// cudasim's block executor (sim_thread.hpp): a block's threads as fibers (Boost.Context) that run
// until they reach a collective, resumed in a shuffled order once it resolves: a __syncthreads when
// every thread still running has reached one, a warp collective when every lane its mask names has
// reached one (an exited lane is reported and left out).
#include <algorithm>
#include <cstdlib>
#include <deque>
#include <memory>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <sys/mman.h>

#include <boost/context/fiber.hpp>

#include "cudasim.hpp"
#include "sim_thread.hpp"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#define REVWAVE_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION(p, n)
#else
#define REVWAVE_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

namespace revwave::cudasim {
namespace {

namespace ctx = boost::context;

// Fiber stacks, reused from block to block on each host thread; the lowest page of each is a guard.
class StackPool {
 public:
  static constexpr std::size_t page = 4096;
  static constexpr std::size_t size = 256 * 1024;
  ~StackPool() {
    for (void* p : free_) {
      mprotect(p, page, PROT_READ | PROT_WRITE);
      std::free(p);
    }
  }
  ctx::stack_context allocate() {
    void* p = nullptr;
    if (!free_.empty()) {
      p = free_.back();
      free_.pop_back();
    } else {
      if (posix_memalign(&p, page, size) != 0) throw std::bad_alloc();
      mprotect(p, page, PROT_NONE);
    }
    ctx::stack_context sc;
    sc.size = size - page;
    sc.sp = static_cast<char*>(p) + size;
    return sc;
  }
  void deallocate(ctx::stack_context& sc) {
    char* base = static_cast<char*>(sc.sp) - size;
    REVWAVE_UNPOISON(base + page, size - page);  // frames a forced unwind left poisoned
    free_.push_back(base);
  }

 private:
  std::vector<void*> free_;
};

StackPool& stacks() {
  thread_local StackPool pool;
  return pool;
}

// The StackAllocator Boost.Context copies into each fiber; it notes the stack it gave last.
thread_local ctx::stack_context last_stack;
struct PooledStack {
  ctx::stack_context allocate() { return last_stack = stacks().allocate(); }
  void deallocate(ctx::stack_context& sc) { stacks().deallocate(sc); }
};

// AddressSanitizer cannot see Boost.Context's stack switches: each is announced (its
// start_switch_fiber / finish_switch_fiber), as Boost does for its ucontext fibers. Nothing without ASan.
struct StackSpan {
  const void* bottom = nullptr;
  std::size_t size = 0;
};
inline void switch_start(void** fake, const StackSpan& to) {
#if defined(__SANITIZE_ADDRESS__)
  __sanitizer_start_switch_fiber(fake, to.bottom, to.size);
#else
  (void)fake, (void)to;
#endif
}
inline void switch_finish(void* fake, StackSpan* from) {
#if defined(__SANITIZE_ADDRESS__)
  __sanitizer_finish_switch_fiber(fake, from != nullptr ? &from->bottom : nullptr,
                                  from != nullptr ? &from->size : nullptr);
#else
  (void)fake, (void)from;
#endif
}

std::string dim_text(const Dim& d) {
  return "(" + std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z) + ")";
}

const char* op_name(WarpOp op) {
  switch (op) {
    case WarpOp::sync: return "__syncwarp";
    case WarpOp::shfl: return "__shfl_sync";
    case WarpOp::shfl_up: return "__shfl_up_sync";
    case WarpOp::shfl_down: return "__shfl_down_sync";
    case WarpOp::shfl_xor: return "__shfl_xor_sync";
    case WarpOp::vote: return "a vote (__ballot_sync, __any_sync, __all_sync)";
  }
  return "a warp collective";
}

std::string hex(unsigned v) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%08x", v);
  return b;
}

}  // namespace

class BlockRun {
 public:
  BlockRun(const char* what, const LaunchShape& shape, const Dim& block, std::size_t shared_bytes,
           const std::function<void(SimThread&)>& body)
      : what_(what),
        block_(block),
        body_(body),
        rng_(block.x * 7919u + block.y * 104729u + block.z * 1299709u),
        shared_(std::max<std::size_t>(shared_bytes, 1) / 8 + 1, ~std::uint64_t(0)),  // NaN in every float type
        shared_bytes_(shared_bytes) {
    const Dim b = shape.block;
    n_ = b.x * b.y * b.z;
    slots_.resize(n_);
    for (unsigned t = 0; t < n_; ++t) {
      const ThreadPlace p{block, {t % b.x, (t / b.x) % b.y, t / (b.x * b.y)}};
      slots_[t].thread = SimThread(this, p, t);
    }
    warp_events_.resize((n_ + 31) / 32);
    waiting_lanes_.assign(warp_events_.size(), 0u);
    done_lanes_.assign(warp_events_.size(), 0u);
  }

  void run() {
    for (unsigned t = 0; t < n_; ++t) {
      slots_[t].fiber = ctx::fiber(std::allocator_arg, PooledStack{}, [this, t](ctx::fiber&& sink) {
        switch_finish(nullptr, &scheduler_stack_);
        slots_[t].sink = &sink;
        body_(slots_[t].thread);
        slots_[t].wait = Wait::done;
        switch_start(nullptr, scheduler_stack_);  // this fiber's stack is done with
        return std::move(sink);
      });
      slots_[t].stack = {static_cast<char*>(last_stack.sp) - last_stack.size, last_stack.size};
    }
    std::vector<unsigned> all(n_);
    std::iota(all.begin(), all.end(), 0u);
    make_runnable(all);
    while (!runnable_.empty()) {
      const unsigned t = runnable_.front();
      runnable_.pop_front();
      void* fake = nullptr;
      switch_start(&fake, slots_[t].stack);
      slots_[t].fiber = std::move(slots_[t].fiber).resume();
      switch_finish(fake, nullptr);
      const unsigned w = t / 32, bit = 1u << (t % 32);
      switch (slots_[t].wait) {
        case Wait::done:
          ++done_;
          done_lanes_[w] |= bit;
          resolve_waiting(w);  // a group may have waited for this lane
          break;
        case Wait::warp_op:
          waiting_lanes_[w] |= bit;
          if (arrived(w, slots_[t].mask)) resolve_group(w, slots_[t].mask);
          break;
        case Wait::block_barrier: ++at_barrier_; break;
        case Wait::running: break;
      }
      if (at_barrier_ > 0 && at_barrier_ + done_ == n_) resolve_barrier();
    }
    if (done_ < n_) report_deadlock();
    for (Slot& s : slots_) s.fiber = ctx::fiber();  // a thread left waiting unwinds here
  }

  // ---- called by the threads (their fibers) ----
  void barrier(unsigned t) { suspend(t, Wait::block_barrier); }

  std::uint64_t warp_op(unsigned t, WarpOp op, unsigned mask, std::uint64_t value, int arg, int width) {
    Slot& s = slots_[t];
    s.op = op;
    s.mask = mask;
    s.value = value;
    s.arg = arg;
    s.width = width;
    suspend(t, Wait::warp_op);
    return s.result;
  }

  void* shared_base() { return shared_.data(); }

  void check_shared(unsigned t, const void* p, std::size_t bytes, bool write) {
    const auto* base = reinterpret_cast<const unsigned char*>(shared_.data());
    const auto* q = static_cast<const unsigned char*>(p);
    if (q < base || q + bytes > base + shared_bytes_) {
      report(where(t) + (write ? " writes" : " reads") + " outside the block's " + std::to_string(shared_bytes_) +
             " bytes of shared memory");
      return;
    }
    if (shadow_.empty()) shadow_.resize(shared_bytes_);
    for (std::size_t i = 0; i < bytes; ++i) {
      Shadow& sh = shadow_[static_cast<std::size_t>(q - base) + i];
      if (!ordered(sh.writer, t)) race(t, sh.writer.thread, write ? "writes" : "reads", "wrote");
      if (write && !ordered(sh.reader, t)) race(t, sh.reader.thread, "writes", "read");
      (write ? sh.writer : sh.reader) = {static_cast<int>(t), epoch_,
                                         static_cast<unsigned>(warp_events_[t / 32].size())};
    }
  }

 private:
  enum class Wait { running, block_barrier, warp_op, done };
  struct Slot {
    ctx::fiber fiber;
    ctx::fiber* sink = nullptr;
    Wait wait = Wait::running;
    WarpOp op = WarpOp::sync;
    unsigned mask = 0;
    std::uint64_t value = 0, result = 0;
    int arg = 0, width = 32;
    SimThread thread;
    StackSpan stack;             // its fiber's (for ASan)
    void* fake_stack = nullptr;  // ASan's, while it is switched out
  };
  struct Stamp {
    int thread = -1;
    unsigned epoch = 0, event = 0;
  };
  // A byte of shared memory: its last write, and its last read.
  struct Shadow {
    Stamp writer, reader;
  };

  void suspend(unsigned t, Wait w) {
    Slot& s = slots_[t];
    s.wait = w;
    switch_start(&s.fake_stack, scheduler_stack_);
    *s.sink = std::move(*s.sink).resume();
    switch_finish(s.fake_stack, &scheduler_stack_);
  }

  void make_runnable(std::vector<unsigned> ts) {
    for (unsigned t : ts) slots_[t].wait = Wait::running;
    std::shuffle(ts.begin(), ts.end(), rng_);
    runnable_.insert(runnable_.end(), ts.begin(), ts.end());
  }

  unsigned warp_lanes(unsigned w) const { return std::min(32u, n_ - 32 * w); }

  // Have all lanes of `mask` (that the block has) arrived at a warp collective or exited?
  bool arrived(unsigned w, unsigned mask) const {
    const unsigned lanes = warp_lanes(w) == 32 ? ~0u : (1u << warp_lanes(w)) - 1;
    return (mask & lanes & ~(waiting_lanes_[w] | done_lanes_[w])) == 0;
  }

  // After a lane of warp w exited: every collective of the warp whose other lanes have arrived.
  void resolve_waiting(unsigned w) {
    for (unsigned l = 0; l < warp_lanes(w); ++l) {
      const Slot& s = slots_[32 * w + l];
      if (s.wait == Wait::warp_op && arrived(w, s.mask)) resolve_group(w, s.mask);
    }
  }

  void resolve_group(unsigned w, unsigned mask) {
    const unsigned group = mask & waiting_lanes_[w];  // the lanes that take part: named in the mask, waiting
    waiting_lanes_[w] &= ~group;
    const unsigned first = 32 * w + static_cast<unsigned>(__builtin_ctz(group));
    const WarpOp op = slots_[first].op;
    for (unsigned l = 0; l < 32; ++l) {
      if ((mask >> l & 1u) == 0 || (group >> l & 1u) != 0) continue;
      report(where(first) + ": " + op_name(op) + " names lane " + std::to_string(l) + " in its mask " + hex(mask) +
             (l < warp_lanes(w) ? ", which has exited" : ", which the block does not have"));
    }
    unsigned ballot = 0;
    for (unsigned l = 0; l < 32; ++l)
      if ((group >> l & 1u) != 0 && slots_[32 * w + l].value != 0) ballot |= 1u << l;
    std::vector<unsigned> woken;
    for (unsigned l = 0; l < 32; ++l) {
      if ((group >> l & 1u) == 0) continue;
      Slot& s = slots_[32 * w + l];
      if (s.op != op || s.mask != mask) {
        report(where(32 * w + l) + " is at " + op_name(s.op) + " with mask " + hex(s.mask) + " while lane " +
               std::to_string(first % 32) + " is at " + op_name(op) + " with mask " + hex(mask) +
               ": the lanes of a mask must meet at the same collective");
      }
      s.result = s.op == WarpOp::vote ? (std::uint64_t(group) << 32 | ballot) : shuffled(w, l, group);
      woken.push_back(32 * w + l);
    }
    if (op == WarpOp::sync) warp_events_[w].push_back(group);
    make_runnable(std::move(woken));
  }

  // Lane l's result of its shuffle among `group`.
  std::uint64_t shuffled(unsigned w, unsigned l, unsigned group) {
    const Slot& s = slots_[32 * w + l];
    if (s.op == WarpOp::sync) return 0;
    const int width = s.width;
    if (width < 1 || width > 32 || (width & (width - 1)) != 0) {
      report(where(32 * w + l) + ": " + op_name(s.op) + " with width " + std::to_string(width) +
             ", which is no power of two up to 32");
      return ~std::uint64_t(0);
    }
    const int lane = static_cast<int>(l), base = lane & ~(width - 1);
    int src = lane;
    switch (s.op) {
      case WarpOp::shfl: src = base + (s.arg & (width - 1)); break;
      case WarpOp::shfl_up: src = lane - s.arg < base ? lane : lane - s.arg; break;
      case WarpOp::shfl_down: src = lane + s.arg >= base + width ? lane : lane + s.arg; break;
      case WarpOp::shfl_xor: src = (lane ^ s.arg) >= base + width ? lane : (lane ^ s.arg); break;
      default: break;
    }
    if (src < 0 || src > 31 || (group >> src & 1u) == 0) {
      report(where(32 * w + l) + ": " + op_name(s.op) + " reads lane " + std::to_string(src) +
             ", which is outside its mask " + hex(s.mask) + " or not at the shuffle (the value is undefined)");
      return ~std::uint64_t(0);  // NaN in every float type
    }
    return slots_[32 * w + static_cast<unsigned>(src)].value;
  }

  // Every thread still running is at a __syncthreads.
  void resolve_barrier() {
    at_barrier_ = 0;
    ++epoch_;
    std::vector<unsigned> woken;
    for (unsigned t = 0; t < n_; ++t)
      if (slots_[t].wait == Wait::block_barrier) woken.push_back(t);
    make_runnable(std::move(woken));
  }

  // Is thread t's access ordered after the access (stamp) of thread u: the same thread, a
  // __syncthreads since, or a __syncwarp since over both lanes?
  bool ordered(const Stamp& s, unsigned t) const {
    const int u = s.thread;
    if (u < 0 || static_cast<unsigned>(u) == t || epoch_ > s.epoch) return true;
    const unsigned w = static_cast<unsigned>(u) / 32;
    if (w != t / 32) return false;
    const std::vector<unsigned>& ev = warp_events_[w];
    const unsigned both = (1u << (static_cast<unsigned>(u) % 32)) | (1u << (t % 32));
    for (std::size_t e = s.event; e < ev.size(); ++e)
      if ((ev[e] & both) == both) return true;
    return false;
  }

  void race(unsigned t, int u, const char* does, const char* did) {
    if (raced_) return;  // one report a block: the first race says what is missing
    raced_ = true;
    report("race in shared memory: " + where(t) + " " + does + " bytes that " + place_text(static_cast<unsigned>(u)) +
           " " + did + ", with no __syncwarp over both lanes or __syncthreads between them");
  }

  std::string place_text(unsigned t) const {
    const ThreadPlace p = slots_[t].thread.place();
    return "thread " + dim_text(p.thread) + " (warp " + std::to_string(t / 32) + ", lane " + std::to_string(t % 32) +
           ")";
  }
  std::string where(unsigned t) const {
    return std::string(what_) + ", block " + dim_text(block_) + ", " + place_text(t);
  }

  void report_deadlock() {
    unsigned barrier = 0, warp = 0;
    for (const Slot& s : slots_) {
      barrier += s.wait == Wait::block_barrier;
      warp += s.wait == Wait::warp_op;
    }
    report(std::string(what_) + ", block " + dim_text(block_) + ": its threads wait for each other forever (" +
           std::to_string(barrier) + " at __syncthreads, " + std::to_string(warp) +
           " at warp collectives whose lanes never all arrive)");
  }

  const char* what_;
  Dim block_;
  const std::function<void(SimThread&)>& body_;
  unsigned n_ = 0, done_ = 0, epoch_ = 0;
  std::vector<Slot> slots_;
  std::deque<unsigned> runnable_;
  std::mt19937 rng_;
  std::vector<std::uint64_t> shared_;
  std::size_t shared_bytes_;
  std::vector<Shadow> shadow_;
  std::vector<std::vector<unsigned>> warp_events_;    // per warp: the lanes of each __syncwarp resolved
  std::vector<unsigned> waiting_lanes_, done_lanes_;  // per warp: lanes at a warp collective, lanes exited
  unsigned at_barrier_ = 0;
  StackSpan scheduler_stack_;  // the host thread's stack the fibers switch back to (for ASan)
  bool raced_ = false;
};

// ---- SimThread's collectives: into its block's run ----
// A kernel that declared no collectives runs its threads one after another: a collective there is
// reported (and reads NaN), never waited for. (Nothing may throw out of a kernel: blocks run under OpenMP.)
namespace {
bool declared(BlockRun* b, const ThreadPlace& p, const char* what) {
  if (b != nullptr) return true;
  report("a kernel declared without collectives (launch::Sync::none) calls " + std::string(what) + " in block " +
         dim_text(p.block) + ", thread " + dim_text(p.thread));
  return false;
}
}  // namespace

void SimThread::sync_block() {
  if (declared(block_, place_, "__syncthreads")) block_->barrier(linear_);
}
std::uint64_t SimThread::warp_op(WarpOp op, unsigned mask, std::uint64_t value, int arg, int width) {
  if (!declared(block_, place_, op_name(op))) return ~std::uint64_t(0);
  return block_->warp_op(linear_, op, mask, value, arg, width);
}
void* SimThread::shared_base() {
  static thread_local std::uint64_t none[8];  // a kernel without collectives has no shared memory either
  return declared(block_, place_, "shared memory") ? block_->shared_base() : none;
}
void SimThread::check_shared(const void* p, std::size_t bytes, bool write) {
  if (declared(block_, place_, "shared memory")) block_->check_shared(linear_, p, bytes, write);
}

void run_grid(const char* what, const LaunchShape& shape, std::size_t shared_bytes, bool collectives,
              const std::function<void(SimThread&)>& body) {
  if (!collectives) {
    const Dim b = shape.block;
    for_each_thread(what, shape, [&](const ThreadPlace& p) {
      SimThread t(nullptr, p, p.thread.x + b.x * (p.thread.y + b.y * p.thread.z));
      body(t);
    });
    return;
  }
  for_each_block(what, shape, shared_bytes, [&](const Dim& block) {
    BlockRun run(what, shape, block, shared_bytes, body);
    run.run();
  });
}

}  // namespace revwave::cudasim
