// The CUDA backend's entry points (revwave/driver/cuda_backend.hpp): a CudaPropagator of the
// problem, handed to a call of the shared drivers (backend_calls.hpp). No driver logic lives here.
#include "revwave/driver/cuda_backend.hpp"

#include "revwave/cuda/backend/cuda_propagator.hpp"
#include "revwave/driver/backend_calls.hpp"

namespace revwave {

static_assert(is_propagator_v<CudaPropagator<float>> && is_propagator_v<CudaPropagator<double>>,
              "CudaPropagator implements the propagator concept");

template <class T, class Call>
typename Call::Result run_on_cuda(const Problem<T>& problem, const DeviceBudgets& budgets, const Call& call) {
  CudaPropagator<T> prop(problem, budgets);
  return call(prop);
}

#define REVWAVE_INSTANTIATE(T, Call) \
  template typename Call::Result run_on_cuda<T, Call>(const Problem<T>&, const DeviceBudgets&, const Call&);
REVWAVE_FOR_EACH_BACKEND_CALL(REVWAVE_INSTANTIATE, float)
REVWAVE_FOR_EACH_BACKEND_CALL(REVWAVE_INSTANTIATE, double)
#undef REVWAVE_INSTANTIATE

}  // namespace revwave
