// cudasim: the CUDA runtime calls revwave makes, implemented on the CPU, so that the whole CUDA
// backend (its host code and its kernel bodies) runs in CI where no GPU exists.
//
// Every operation runs at once, in issue order, which is a valid order for any correct program.
// Beside it a happens-before checker built from vector clocks finds what a GPU could race on:
// two accesses to the same device or pinned bytes, at least one a write, from different streams
// (or from a stream and a later host call that assumed completion) with no stream order, event
// or synchronisation between them. It also reports accesses outside live allocations, copies
// whose direction does not match their pointers, and kernel launches a GPU would refuse.
// Inside a kernel, the block executor (sim_thread.hpp) runs warps and blocks whose threads meet at
// collectives, and reports misused shuffles and unordered shared-memory accesses; the accesses a
// kernel makes to global memory are checked only at the launch's granularity, against other
// operations. What it cannot see: races between threads on global memory, and anything about speed.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

#include "revwave/cuda/kernels/launch/launch_shape.hpp"
#include "revwave/cuda/kernels/launch/memory_access.hpp"

namespace revwave::cudasim {

using Access = launch::MemoryAccess;
using launch::reads;
using launch::writes;

// One operation on `stream` (a kernel, say): checks `accesses` against what came before, then runs `work`.
void run_on_stream(cudaStream_t stream, const char* what, const std::vector<Access>& accesses,
                   const std::function<void()>& work);
// The launch layer's accounting: each kernel launch (launch::execute) adds its declared accesses
// here before it runs. take_kernel_tally() returns, per kernel name in the order first launched
// since the last call, the launches and the bytes their accesses cover, read and written (an
// access to the end of its allocation resolved against it): an upper bound on a step's DRAM
// traffic (a kernel may touch less than it declares, and no cache is modelled), and the count of
// its launches.
struct KernelTally {
  std::string name;
  std::uint64_t launches = 0, bytes_read = 0, bytes_written = 0;
};
void tally_kernel(const char* name, const std::vector<Access>& accesses);
std::vector<KernelTally> take_kernel_tally();

// A call that returns only when `stream` has finished (a Thrust reduction).
void host_waits(cudaStream_t stream);

// Calls body(place) for every thread of the launch, blocks in parallel: for kernels whose
// threads share nothing. Reports a launch shape a GPU would refuse.
void for_each_thread(const char* what, const LaunchShape& shape, const std::function<void(const ThreadPlace&)>& body);
// Calls body(blockIdx) for every block of the launch, blocks in parallel: for kernels whose
// threads share memory across barriers, the body running each phase over all of the block's
// threads before the next. Reports a launch shape, or static shared memory, a GPU would refuse.
void for_each_block(const char* what, const LaunchShape& shape, std::size_t shared_bytes,
                    const std::function<void(const Dim&)>& body);

// Adds a finding (thread-safe: blocks run in parallel); the same line is kept once.
void report(const std::string& line);

// What the checker found since the last call.
std::vector<std::string> take_reports();

// Calls so far that make the host wait for the device: stream, event and device
// synchronisations, synchronous copies and memsets, copies to or from pageable memory,
// cudaFree/cudaFreeHost/cudaMallocHost, and the reductions that return to the host.
std::uint64_t host_blocking_calls();

// The simulated device's memory (default 4 GiB) and the pinned host memory allowed (default
// unlimited): cudaMalloc / cudaMallocHost fail past them, as on a GPU.
void set_device_memory(std::size_t bytes);
void set_pinned_limit(std::size_t bytes);
// How many devices cudaGetDeviceCount reports (default 1; they share one memory), and the devices
// a CUDA context was made on so far: by cudaSetDevice (as CUDA 12 does), or by an allocation, a
// stream or a free-memory query on the current device.
void set_device_count(int count);
std::vector<int> devices_with_context();
void forget_contexts();
// For programs: at exit, print what the checker found to stderr and exit with status 70.
// The simulated device's memory can also come from REVWAVE_CUDASIM_DEVICE_MEMORY (bytes).
void exit_with_reports();

}  // namespace revwave::cudasim
