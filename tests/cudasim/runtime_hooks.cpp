// The GPU suites' hooks on cudasim: what its checker found fails the test that caused it.
#include "../cuda/cuda_test_support.hpp"
#include "cudasim.hpp"

namespace revwave::cuda_testing {

// cudasim's kernel bodies round as the CPU's code unless built to contract (tests/CMakeLists.txt).
#ifdef REVWAVE_CUDASIM_CONTRACTS
bool rounds_as_written() { return false; }
#else
bool rounds_as_written() { return true; }
#endif
bool on_emulated_runtime() { return true; }
std::vector<std::string> take_runtime_reports() { return cudasim::take_reports(); }

}  // namespace revwave::cuda_testing
