// The CUDA runtime API calls revwave makes, on the CPU, with the happens-before checker
// described in cudasim.hpp.
//
// Actors: the host (0), the legacy default stream (1) and each created stream. Each has a
// vector clock. An operation enqueued on a stream first inherits what the host knows (work the
// host enqueues comes after everything the host has seen complete), then ticks the stream's own
// entry; an event copies its stream's clock; waits and synchronisations join clocks. An access
// is ordered after an earlier one when the accessing actor's clock covers the earlier tick.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <cuda.h>

#include "cudasim.hpp"

namespace {

using Clock = std::vector<std::uint64_t>;

void join(Clock& into, const Clock& other) {
  if (into.size() < other.size()) into.resize(other.size(), 0);
  for (std::size_t i = 0; i < other.size(); ++i) into[i] = std::max(into[i], other[i]);
}

bool covers(const Clock& c, int actor, std::uint64_t tick) {
  return static_cast<std::size_t>(actor) < c.size() && c[static_cast<std::size_t>(actor)] >= tick;
}

}  // namespace

struct CUstream_st {
  int actor;
};

struct CUevent_st {
  Clock clock;
  bool timing = true;
  bool recorded = false;
  std::chrono::steady_clock::time_point when{};
};

namespace revwave::cudasim {
namespace {

constexpr int host_actor = 0;
constexpr int legacy_actor = 1;

struct Record {
  std::size_t offset, bytes;
  int actor;
  std::uint64_t tick;
  bool write;
  std::string what;
};

struct Allocation {
  std::size_t bytes;
  bool pinned;
  std::vector<Record> records;
};

struct Simulator {
  std::vector<Clock> clocks{Clock{}, Clock{}};
  std::vector<std::string> names{"the host", "the legacy default stream"};
  std::map<std::uintptr_t, Allocation> allocations;
  std::size_t device_total = std::size_t(4) << 30, device_used = 0;
  std::size_t pinned_limit = SIZE_MAX, pinned_used = 0;
  std::vector<std::string> reports;
  std::set<std::string> reported;
  cudaError_t last_error = cudaSuccess;
  int device = 0;
  int device_count = 1;
  std::set<int> contexts;  // the devices a CUDA context was made on (CUDA 12: cudaSetDevice makes one)
  bool exit_with_reports = false;
  std::uint64_t blocking = 0;

  // REVWAVE_CUDASIM_FAULT_AT_SYNC=K: the K-th wait for the device (a stream, event or device
  // synchronisation) reports an illegal address, as a kernel fault on a GPU surfaces; 0: never.
  std::uint64_t fault_at_sync = 0;

  Simulator() {
    if (const char* m = std::getenv("REVWAVE_CUDASIM_DEVICE_MEMORY")) device_total = std::strtoull(m, nullptr, 10);
    if (const char* f = std::getenv("REVWAVE_CUDASIM_FAULT_AT_SYNC")) fault_at_sync = std::strtoull(f, nullptr, 10);
  }
  // One wait for the device; the fault, when this is the one that reports it.
  cudaError_t wait() {
    ++blocking;
    if (fault_at_sync != 0 && blocking >= fault_at_sync) return last_error = cudaErrorIllegalAddress;
    return cudaSuccess;
  }
  // A program (not a test, which takes its reports) ends: what was found must not go unseen.
  ~Simulator() {
    if (!exit_with_reports || reports.empty()) return;
    for (const std::string& r : reports) std::fprintf(stderr, "cudasim: %s\n", r.c_str());
    std::_Exit(70);
  }

  std::mutex report_mutex;  // blocks run in parallel, and report what they find
  void report(const std::string& line) {
    const std::lock_guard<std::mutex> lock(report_mutex);
    if (reported.insert(line).second && reports.size() < 200) reports.push_back(line);
  }

  Allocation* find(const void* p, std::size_t* offset) {
    const auto a = reinterpret_cast<std::uintptr_t>(p);
    auto it = allocations.upper_bound(a);
    if (it == allocations.begin()) return nullptr;
    --it;
    if (a >= it->first + std::max<std::size_t>(it->second.bytes, 1)) return nullptr;
    *offset = a - it->first;
    return &it->second;
  }

  // Checks one access by `actor` (whose clock is already ticked) and records it; false when it
  // is not inside a live allocation (a copy then moves nothing).
  bool access(int actor, const Access& acc, const std::string& what) {
    std::size_t offset = 0;
    Allocation* alloc = find(acc.ptr, &offset);
    if (alloc == nullptr) {
      report(what + " on " + names[actor] + " touches memory that is no live device or pinned allocation");
      return false;
    }
    std::size_t bytes = acc.bytes != 0 ? acc.bytes : alloc->bytes - offset;
    const bool inside = offset + bytes <= alloc->bytes;
    if (!inside) {
      report(what + " on " + names[actor] + " runs past the end of a " + std::to_string(alloc->bytes) +
             "-byte allocation (bytes " + std::to_string(offset) + ".." + std::to_string(offset + bytes) + ")");
      bytes = alloc->bytes - offset;
    }
    const Clock& c = clocks[static_cast<std::size_t>(actor)];
    auto& recs = alloc->records;
    for (const Record& r : recs) {
      const bool overlap = r.offset < offset + bytes && offset < r.offset + r.bytes;
      if (!overlap || !(r.write || acc.write) || covers(c, r.actor, r.tick)) continue;
      report(std::string("race: ") + what + " on " + names[actor] + (acc.write ? " writes" : " reads") +
             " bytes that " + r.what + " on " + names[r.actor] + (r.write ? " writes" : " reads") +
             ", with no stream order, event or synchronisation between them (" +
             (alloc->pinned ? "pinned host" : "device") + " allocation of " + std::to_string(alloc->bytes) + " bytes)");
    }
    // An earlier access this one is ordered after and covers need not be kept: a later access
    // ordered after this one is ordered after it too. Except an earlier write under a read:
    // a later read races with the write, not with this read.
    recs.erase(std::remove_if(recs.begin(), recs.end(),
                              [&](const Record& r) {
                                return covers(c, r.actor, r.tick) && r.offset >= offset &&
                                       r.offset + r.bytes <= offset + bytes && (acc.write || !r.write);
                              }),
               recs.end());
    recs.push_back({offset, bytes, actor, c[static_cast<std::size_t>(actor)], acc.write, what});
    return inside;
  }

  int actor_of(cudaStream_t s) const {
    if (s == nullptr || s == cudaStreamLegacy || s == cudaStreamPerThread) return legacy_actor;
    return s->actor;
  }

  // Enqueue on `actor`: inherit the host's knowledge, tick.
  Clock& tick(int actor) {
    Clock& c = clocks[static_cast<std::size_t>(actor)];
    join(c, clocks[host_actor]);
    if (c.size() <= static_cast<std::size_t>(actor)) c.resize(static_cast<std::size_t>(actor) + 1, 0);
    ++c[static_cast<std::size_t>(actor)];
    return c;
  }

  void host_joins(int actor) { join(clocks[host_actor], clocks[static_cast<std::size_t>(actor)]); }
  void device_synchronize() {
    for (std::size_t a = 1; a < clocks.size(); ++a) host_joins(static_cast<int>(a));
  }

  cudaError_t fail(cudaError_t e) {
    last_error = e;
    return e;
  }

  void* allocate(std::size_t bytes, bool pinned) {
    // Aligned as cudaMalloc's, and exactly `bytes` long, so that AddressSanitizer sees a kernel overrun.
    void* p = nullptr;
    if (posix_memalign(&p, 256, std::max<std::size_t>(bytes, 1)) != 0) return nullptr;
    std::memset(p, 0xff, bytes);  // NaN in every float type: nothing may count on fresh memory being zero
    allocations[reinterpret_cast<std::uintptr_t>(p)] = Allocation{bytes, pinned, {}};
    return p;
  }

  cudaError_t release(void* p, bool pinned) {
    if (p == nullptr) return cudaSuccess;
    ++blocking;
    device_synchronize();  // cudaFree and cudaFreeHost wait for the device
    const auto it = allocations.find(reinterpret_cast<std::uintptr_t>(p));
    if (it == allocations.end() || it->second.pinned != pinned) {
      report(std::string(pinned ? "cudaFreeHost" : "cudaFree") + " of a pointer it did not allocate");
      return fail(cudaErrorInvalidValue);
    }
    (pinned ? pinned_used : device_used) -= it->second.bytes;
    allocations.erase(it);
    std::free(p);
    return cudaSuccess;
  }

  bool is_device(const void* p) {
    std::size_t off = 0;
    const Allocation* a = find(p, &off);
    return a != nullptr && !a->pinned;
  }
  bool is_tracked(const void* p) {
    std::size_t off = 0;
    return find(p, &off) != nullptr;
  }

  cudaError_t copy(void* dst, const void* src, std::size_t n, cudaMemcpyKind kind, int actor, const char* api) {
    const bool dst_dev = is_device(dst), src_dev = is_device(src);
    const bool ok = (kind == cudaMemcpyDeviceToDevice && dst_dev && src_dev) ||
                    (kind == cudaMemcpyHostToDevice && dst_dev && !src_dev) ||
                    (kind == cudaMemcpyDeviceToHost && !dst_dev && src_dev) || kind == cudaMemcpyDefault;
    if (!ok) {
      report(std::string(api) + " of kind " + std::to_string(int(kind)) + " between " + (src_dev ? "device" : "host") +
             " and " + (dst_dev ? "device" : "host") + " memory");
      return fail(cudaErrorInvalidValue);
    }
    if (n == 0) return cudaSuccess;
    const std::string what = std::string(api) + (kind == cudaMemcpyDeviceToDevice ? " device-to-device"
                                                 : kind == cudaMemcpyHostToDevice ? " host-to-device"
                                                                                  : " device-to-host");
    tick(actor);
    const bool src_ok = !is_tracked(src) || access(actor, reads(src, n), what);
    const bool dst_ok = !is_tracked(dst) || access(actor, writes(dst, n), what);
    if (src_ok && dst_ok) std::memmove(dst, src, n);
    // Pageable memory on either side: the call returns only once the copy is complete (a
    // pageable source is staged before the call returns).
    if (!is_tracked(dst)) host_joins(actor);
    if (!is_tracked(dst) || !is_tracked(src)) ++blocking;
    return cudaSuccess;
  }
};

Simulator& sim() {
  static Simulator s;
  return s;
}

}  // namespace

void run_on_stream(cudaStream_t stream, const char* what, const std::vector<Access>& accesses,
                   const std::function<void()>& work) {
  Simulator& s = sim();
  const int actor = s.actor_of(stream);
  s.tick(actor);
  for (const Access& a : accesses) s.access(actor, a, what);
  work();
}

namespace {
std::mutex tally_mutex;
std::vector<KernelTally> tally;
}  // namespace

// Called from the host thread that launches (as run_on_stream is: cudasim's simulator state is the
// host's, issued in order); tally_mutex guards only the tally itself.
void tally_kernel(const char* name, const std::vector<Access>& accesses) {
  Simulator& s = sim();
  KernelTally add;
  add.name = name;
  add.launches = 1;
  for (const Access& a : accesses) {
    std::size_t offset = 0;
    const Allocation* alloc = s.find(a.ptr, &offset);
    if (alloc == nullptr) continue;  // run_on_stream reports it
    const std::size_t bytes = std::min(a.bytes != 0 ? a.bytes : alloc->bytes - offset, alloc->bytes - offset);
    (a.write ? add.bytes_written : add.bytes_read) += bytes;
  }
  const std::lock_guard<std::mutex> lock(tally_mutex);
  for (KernelTally& k : tally) {
    if (k.name != add.name) continue;
    k.launches += 1;
    k.bytes_read += add.bytes_read;
    k.bytes_written += add.bytes_written;
    return;
  }
  tally.push_back(add);
}

std::vector<KernelTally> take_kernel_tally() {
  const std::lock_guard<std::mutex> lock(tally_mutex);
  return std::exchange(tally, {});
}

void host_waits(cudaStream_t stream) {
  Simulator& s = sim();
  ++s.blocking;
  s.host_joins(s.actor_of(stream));
}

std::uint64_t host_blocking_calls() { return sim().blocking; }

void report(const std::string& line) { sim().report(line); }

void for_each_block(const char* what, const LaunchShape& shape, std::size_t shared_bytes,
                    const std::function<void(const Dim&)>& body) {
  const Dim g = shape.grid, b = shape.block;
  const unsigned long threads = static_cast<unsigned long>(b.x) * b.y * b.z;
  if (threads == 0 || threads > 1024 || b.z > 64 || g.x == 0 || g.y == 0 || g.z == 0 || g.y > 65535 || g.z > 65535) {
    sim().report(std::string(what) + ": a GPU refuses this launch shape (grid " + std::to_string(g.x) + "x" +
                 std::to_string(g.y) + "x" + std::to_string(g.z) + ", block " + std::to_string(b.x) + "x" +
                 std::to_string(b.y) + "x" + std::to_string(b.z) + ")");
    return;
  }
  // Past 48 KiB a block needs dynamic shared memory and an opt-in attribute.
  if (shared_bytes > 48 * 1024) {
    sim().report(std::string(what) + ": a GPU refuses " + std::to_string(shared_bytes) +
                 " bytes of static shared memory per block");
    return;
  }
  // Small launches stay on one thread: a parallel region per launch costs more than it saves,
  // and ctest already runs test processes side by side.
  const long blocks = static_cast<long>(g.x) * g.y * g.z;
#pragma omp parallel for schedule(dynamic, 4) if (blocks >= 64)
  for (long id = 0; id < blocks; ++id) {
    body({static_cast<unsigned>(id % g.x), static_cast<unsigned>((id / g.x) % g.y),
          static_cast<unsigned>(id / (static_cast<long>(g.x) * g.y))});
  }
}

void for_each_thread(const char* what, const LaunchShape& shape, const std::function<void(const ThreadPlace&)>& body) {
  const Dim b = shape.block;
  for_each_block(what, shape, 0, [&](const Dim& block) {
    ThreadPlace t;
    t.block = block;
    for (unsigned z = 0; z < b.z; ++z)
      for (unsigned y = 0; y < b.y; ++y)
        for (unsigned x = 0; x < b.x; ++x) {
          t.thread = {x, y, z};
          body(t);
        }
  });
}

std::vector<std::string> take_reports() {
  std::vector<std::string> out;
  const std::lock_guard<std::mutex> lock(sim().report_mutex);
  out.swap(sim().reports);
  sim().reported.clear();
  return out;
}

void set_device_memory(std::size_t bytes) { sim().device_total = bytes; }
void set_device_count(int count) { sim().device_count = count; }
std::vector<int> devices_with_context() {
  const std::set<int>& c = sim().contexts;
  return {c.begin(), c.end()};
}
void forget_contexts() { sim().contexts.clear(); }
void exit_with_reports() { sim().exit_with_reports = true; }
void set_pinned_limit(std::size_t bytes) { sim().pinned_limit = bytes; }

}  // namespace revwave::cudasim

// ---- the runtime API ---------------------------------------------------------------------
using revwave::cudasim::sim;
using revwave::cudasim::writes;

extern "C" {

cudaError_t cudaGetDeviceCount(int* count) {
  *count = sim().device_count;
  return cudaSuccess;
}

cudaError_t cudaSetDevice(int device) {
  if (device < 0 || device >= sim().device_count) return sim().fail(cudaErrorInvalidDevice);
  sim().device = device;
  sim().contexts.insert(device);
  return cudaSuccess;
}

cudaError_t cudaGetDevice(int* device) {
  *device = sim().device;
  return cudaSuccess;
}

// The two driver entry points revwave asks the runtime for (device_selection.cpp): a device's handle
// is its ordinal, and its primary context is active where cudasim recorded a context on it.
namespace {
CUresult sim_device_get(CUdevice* device, int ordinal) {
  if (ordinal < 0 || ordinal >= sim().device_count) return CUDA_ERROR_INVALID_DEVICE;
  *device = ordinal;
  return CUDA_SUCCESS;
}
CUresult sim_primary_context_state(CUdevice device, unsigned int* flags, int* active) {
  if (device < 0 || device >= sim().device_count) return CUDA_ERROR_INVALID_DEVICE;
  *flags = 0;
  *active = sim().contexts.count(device) != 0 ? 1 : 0;
  return CUDA_SUCCESS;
}
}  // namespace

cudaError_t cudaGetDriverEntryPointByVersion(const char* symbol, void** fn, unsigned int, unsigned long long,
                                             cudaDriverEntryPointQueryResult* status) {
  const std::string name = symbol;
  *fn = name == "cuDeviceGet"                  ? reinterpret_cast<void*>(&sim_device_get)
        : name == "cuDevicePrimaryCtxGetState" ? reinterpret_cast<void*>(&sim_primary_context_state)
                                               : nullptr;
  if (status != nullptr) *status = *fn != nullptr ? cudaDriverEntryPointSuccess : cudaDriverEntryPointSymbolNotFound;
  return cudaSuccess;
}

cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device) {
  if (device < 0 || device >= sim().device_count) return sim().fail(cudaErrorInvalidDevice);
  std::memset(prop, 0, sizeof(*prop));
  std::strncpy(prop->name, "cudasim (the CUDA runtime emulated on the CPU)", sizeof(prop->name) - 1);
  prop->totalGlobalMem = sim().device_total;
  prop->major = 9;
  prop->minor = 0;
  prop->multiProcessorCount = 1;
  prop->warpSize = 32;
  prop->maxThreadsPerBlock = 1024;
  return cudaSuccess;
}

cudaError_t cudaMemGetInfo(size_t* free_bytes, size_t* total) {
  sim().contexts.insert(sim().device);
  *total = sim().device_total;
  *free_bytes = sim().device_total > sim().device_used ? sim().device_total - sim().device_used : 0;
  return cudaSuccess;
}

cudaError_t cudaGetLastError(void) {
  const cudaError_t e = sim().last_error;
  sim().last_error = cudaSuccess;
  return e;
}

cudaError_t cudaPeekAtLastError(void) { return sim().last_error; }

const char* cudaGetErrorName(cudaError_t error) {
  switch (error) {
    case cudaSuccess: return "cudaSuccess";
    case cudaErrorInvalidValue: return "cudaErrorInvalidValue";
    case cudaErrorMemoryAllocation: return "cudaErrorMemoryAllocation";
    case cudaErrorInvalidDevice: return "cudaErrorInvalidDevice";
    case cudaErrorNotReady: return "cudaErrorNotReady";
    case cudaErrorInvalidResourceHandle: return "cudaErrorInvalidResourceHandle";
    case cudaErrorIllegalAddress: return "cudaErrorIllegalAddress";
    default: return "cudaErrorUnknown";
  }
}

const char* cudaGetErrorString(cudaError_t error) {
  switch (error) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidValue: return "invalid argument";
    case cudaErrorMemoryAllocation: return "out of memory";
    case cudaErrorInvalidDevice: return "invalid device ordinal";
    case cudaErrorNotReady: return "device not ready";
    case cudaErrorInvalidResourceHandle: return "invalid resource handle";
    case cudaErrorIllegalAddress: return "an illegal memory access was encountered";
    default: return "unknown error";
  }
}

cudaError_t cudaMalloc(void** ptr, size_t size) {
  auto& s = sim();
  s.contexts.insert(s.device);
  if (size > s.device_total - std::min(s.device_total, s.device_used)) return s.fail(cudaErrorMemoryAllocation);
  *ptr = s.allocate(size, false);
  if (*ptr == nullptr) return s.fail(cudaErrorMemoryAllocation);
  s.device_used += size;
  return cudaSuccess;
}

cudaError_t cudaFree(void* ptr) { return sim().release(ptr, false); }

cudaError_t cudaMallocHost(void** ptr, size_t size) {
  auto& s = sim();
  ++s.blocking;
  if (size > s.pinned_limit - std::min(s.pinned_limit, s.pinned_used)) return s.fail(cudaErrorMemoryAllocation);
  *ptr = s.allocate(size, true);
  if (*ptr == nullptr) return s.fail(cudaErrorMemoryAllocation);
  s.pinned_used += size;
  return cudaSuccess;
}

cudaError_t cudaFreeHost(void* ptr) { return sim().release(ptr, true); }

cudaError_t cudaMemsetAsync(void* ptr, int value, size_t count, cudaStream_t stream) {
  auto& s = sim();
  if (count == 0) return cudaSuccess;
  const int actor = s.actor_of(stream);
  s.tick(actor);
  if (s.access(actor, writes(ptr, count), "cudaMemsetAsync")) std::memset(ptr, value, count);
  return cudaSuccess;
}

cudaError_t cudaMemset(void* ptr, int value, size_t count) {
  ++sim().blocking;
  return cudaMemsetAsync(ptr, value, count, nullptr);
}

cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t count, cudaMemcpyKind kind, cudaStream_t stream) {
  return sim().copy(dst, src, count, kind, sim().actor_of(stream), "cudaMemcpyAsync");
}

cudaError_t cudaMemcpy(void* dst, const void* src, size_t count, cudaMemcpyKind kind) {
  auto& s = sim();
  const int legacy = s.actor_of(nullptr);
  const cudaError_t e = s.copy(dst, src, count, kind, legacy, "cudaMemcpy");
  ++s.blocking;
  s.host_joins(legacy);  // synchronous
  return e;
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned int flags) {
  auto& s = sim();
  s.contexts.insert(s.device);
  if ((flags & cudaStreamNonBlocking) == 0) {
    s.report("a blocking stream: revwave's streams must not synchronise with the legacy stream");
  }
  const int actor = static_cast<int>(s.clocks.size());
  s.clocks.emplace_back();
  s.names.push_back("stream " + std::to_string(actor - 1));
  *stream = new CUstream_st{actor};
  return cudaSuccess;
}

cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  delete stream;  // its clock stays: work already enqueued still completes
  return cudaSuccess;
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
  sim().host_joins(sim().actor_of(stream));
  return sim().wait();
}

cudaError_t cudaDeviceSynchronize(void) {
  sim().device_synchronize();
  return sim().wait();
}

// A host function runs when its stream gets there: here, as everything, at once (on the host
// thread, which then knows what the stream had done).
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void* user_data) {
  auto& s = sim();
  s.tick(s.actor_of(stream));
  fn(user_data);
  return cudaSuccess;
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int flags) {
  *event = new CUevent_st;
  (*event)->timing = (flags & cudaEventDisableTiming) == 0;
  return cudaSuccess;
}

cudaError_t cudaEventDestroy(cudaEvent_t event) {
  delete event;
  return cudaSuccess;
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
  auto& s = sim();
  const int actor = s.actor_of(stream);
  event->clock = s.tick(actor);
  event->recorded = true;
  event->when = std::chrono::steady_clock::now();
  return cudaSuccess;
}

cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int) {
  auto& s = sim();
  join(s.clocks[static_cast<std::size_t>(s.actor_of(stream))], event->clock);
  return cudaSuccess;
}

cudaError_t cudaEventSynchronize(cudaEvent_t event) {
  join(sim().clocks[0], event->clock);
  return sim().wait();
}

cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
  auto& s = sim();
  if (!start->timing || !end->timing || !start->recorded || !end->recorded) {
    return s.fail(cudaErrorInvalidResourceHandle);
  }
  // Not known complete to the host: a GPU may well still be running it.
  for (std::size_t a = 0; a < end->clock.size(); ++a)
    if (!covers(s.clocks[0], static_cast<int>(a), end->clock[a])) return s.fail(cudaErrorNotReady);
  *ms = std::chrono::duration<float, std::milli>(end->when - start->when).count();
  return cudaSuccess;
}

}  // extern "C"
