// The launch layer's executor on cudasim (revwave/cuda/kernels/launch/kernel_launch.hpp includes
// it where the build names it, -DREVWAVE_LAUNCH_EXECUTOR=<cudasim_executor.hpp>, as the cudasim
// targets do when they compile the .cu files as C++): the launch is one operation on its
// stream for the stream-order checker, with the accesses its struct declares, and its grid runs
// on the CPU (run_grid).
#pragma once
#include <type_traits>

#include "cudasim.hpp"
#include "sim_thread.hpp"

namespace revwave::launch {

template <class K>
void execute(const K& k, const LaunchShape& s, cudaStream_t stream) {
  MemoryAccesses acc;
  k.accesses(acc);
  constexpr std::size_t shared = std::is_same_v<typename K::Shared, NoShared> ? 0 : sizeof(typename K::Shared);
  cudasim::tally_kernel(K::name, acc);
  cudasim::run_on_stream(stream, K::name, acc, [&] {
    cudasim::run_grid(K::name, s, shared, K::sync != Sync::none, [&](cudasim::SimThread& t) { k(t); });
  });
}

}  // namespace revwave::launch
