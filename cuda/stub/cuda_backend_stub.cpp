// Linked instead of the CUDA backend when the build has no CUDA: it reports "not compiled".
#include "revwave/cuda_info.hpp"

namespace revwave {

bool cuda_compiled() { return false; }
std::vector<CudaDeviceInfo> cuda_devices() { return {}; }
std::string cuda_unavailable_reason() { return "this build of revwave has no CUDA backend (configure with -DREVWAVE_CUDA=ON)"; }

}  // namespace revwave
