// Linked instead of the CUDA backend when the build has no CUDA: it reports "not compiled".
#include "revwave/core/cuda_info.hpp"
#include "revwave/core/errors.hpp"
#include "revwave/driver/backend_calls.hpp"
#include "revwave/driver/cuda_backend.hpp"
#include "revwave/driver/shot_engine.hpp"

namespace revwave {

bool cuda_compiled() { return false; }
int cuda_device_count() { return 0; }
std::vector<CudaDeviceInfo> cuda_devices() { return {}; }
std::string cuda_unavailable_reason() {
  return "this build of revwave has no CUDA backend (configure with -DREVWAVE_CUDA=ON)";
}

// ---- the backend entry points: each throws NotCompiledError ----
namespace {
[[noreturn]] void not_compiled() {
  throw NotCompiledError(
      "the CUDA backend is not compiled into this build of revwave "
      "(configure with -DREVWAVE_CUDA=ON where nvcc is installed)");
}
}  // namespace

template <class T, class Call>
typename Call::Result run_on_cuda(const Problem<T>&, const DeviceBudgets&, const Call&) {
  not_compiled();
}

template <class T>
std::unique_ptr<ShotEngine<T>> make_cuda_shot_engine(const EngineOptions&) {
  not_compiled();
}
template std::unique_ptr<ShotEngine<float>> make_cuda_shot_engine<float>(const EngineOptions&);
template std::unique_ptr<ShotEngine<double>> make_cuda_shot_engine<double>(const EngineOptions&);

#define REVWAVE_INSTANTIATE(T, Call) \
  template typename Call::Result run_on_cuda<T, Call>(const Problem<T>&, const DeviceBudgets&, const Call&);
REVWAVE_FOR_EACH_BACKEND_CALL(REVWAVE_INSTANTIATE, float)
REVWAVE_FOR_EACH_BACKEND_CALL(REVWAVE_INSTANTIATE, double)
#undef REVWAVE_INSTANTIATE

}  // namespace revwave
