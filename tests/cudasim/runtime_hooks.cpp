// The GPU suites' hooks on cudasim: what its checker found fails the test that caused it.
#include "../cuda/cuda_test_support.hpp"
#include "cudasim.hpp"

namespace revwave::cuda_testing {

bool on_emulated_runtime() { return true; }
std::vector<std::string> take_runtime_reports() { return cudasim::take_reports(); }

}  // namespace revwave::cuda_testing
