// Linked instead of the CUDA backend when the build has no CUDA: it reports "not compiled".
#include "revwave/core/errors.hpp"
#include "revwave/driver/cuda_backend.hpp"
#include "revwave/core/cuda_info.hpp"

namespace revwave {

bool cuda_compiled() { return false; }
std::vector<CudaDeviceInfo> cuda_devices() { return {}; }
std::string cuda_unavailable_reason() { return "this build of revwave has no CUDA backend (configure with -DREVWAVE_CUDA=ON)"; }


// ---- the backend entry points: each throws NotCompiledError ----
namespace {
[[noreturn]] void not_compiled() {
  throw NotCompiledError("the CUDA backend is not compiled into this build of revwave "
                         "(configure with -DREVWAVE_CUDA=ON where nvcc is installed)");
}
}  // namespace

template <class T>
ShotData<T> cuda_forward(const Problem<T>&, const CudaBudgets&, const Progress&) {
  not_compiled();
}
template <class T>
GradientOutput cuda_gradient(const Problem<T>&, const T*, const StrategyOptions&, const StrategyPlan&,
                             const CudaBudgets&, CudaRunInfo*, const Progress&) {
  not_compiled();
}
template <class T>
DotProductResult cuda_dot_product_test(const Grid&, const VelocityModel&, const Acquisition&, const TimeAxis&, unsigned,
                                       const CudaBudgets&) {
  not_compiled();
}

#define REVWAVE_INSTANTIATE(T)                                                                                      \
  template ShotData<T> cuda_forward<T>(const Problem<T>&, const CudaBudgets&, const Progress&);                     \
  template GradientOutput cuda_gradient<T>(const Problem<T>&, const T*, const StrategyOptions&, const StrategyPlan&, \
                                           const CudaBudgets&, CudaRunInfo*, const Progress&);                      \
  template DotProductResult cuda_dot_product_test<T>(const Grid&, const VelocityModel&, const Acquisition&,         \
                                                     const TimeAxis&, unsigned, const CudaBudgets&);
REVWAVE_INSTANTIATE(float)
REVWAVE_INSTANTIATE(double)
#undef REVWAVE_INSTANTIATE

}  // namespace revwave
