// The GPU suites' hooks on the real CUDA runtime: no emulation, nothing to report.
#include "../cuda_test_support.hpp"

namespace revwave::cuda_testing {

bool rounds_as_written() { return false; }  // nvcc contracts where it chooses
bool on_emulated_runtime() { return false; }
std::vector<std::string> take_runtime_reports() { return {}; }

}  // namespace revwave::cuda_testing
