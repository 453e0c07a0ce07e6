// Whole fields of a CUDA propagator to and from host memory, for tests that compare them with the
// CPU backend's: through the propagator's public parts (state(), adjoint()) once all it asked of
// the device is done (synchronize), so the propagator carries no test-only access.
#pragma once
#include <cstddef>
#include <stdexcept>
#include <vector>

#include "revwave/cuda/backend/cuda_propagator.hpp"

namespace revwave::cuda_testing {

// `values` values of a device field, read back.
template <class T>
std::vector<T> download_field(CudaPropagator<T>& prop, const void* field, std::size_t values) {
  prop.synchronize();
  std::vector<T> out(values);
  REVWAVE_CUDA_CHECK(cudaMemcpy(out.data(), field, values * sizeof(T), cudaMemcpyDeviceToHost));
  return out;
}

// u[n] and u[n-1] of the state from host memory (the leading values of each field: the C-PML's
// tail, where there is one, left as it is). The state must own its fields (no checkpoint shares them).
template <class T>
void upload_state(CudaPropagator<T>& prop, const std::vector<T>& u, const std::vector<T>& u_prev) {
  prop.synchronize();
  DeviceState& s = prop.state();
  if (s.u.shared() || s.u_prev.shared()) throw std::logic_error("upload_state: a checkpoint shares the state's fields");
  for (const std::vector<T>* v : {&u, &u_prev})
    if (v->size() * sizeof(T) > s.u.bytes()) throw std::logic_error("upload_state: more values than a field holds");
  REVWAVE_CUDA_CHECK(cudaMemcpy(s.u.data(), u.data(), u.size() * sizeof(T), cudaMemcpyHostToDevice));
  REVWAVE_CUDA_CHECK(cudaMemcpy(s.u_prev.data(), u_prev.data(), u_prev.size() * sizeof(T), cudaMemcpyHostToDevice));
}

template <class T>
std::vector<T> download_u(CudaPropagator<T>& prop, std::size_t values) {
  return download_field(prop, prop.state().u.data(), values);
}
template <class T>
std::vector<T> download_u_prev(CudaPropagator<T>& prop, std::size_t values) {
  return download_field(prop, prop.state().u_prev.data(), values);
}
// lam[n+1] after the last reverse step, and the gradient's accumulator.
template <class T>
std::vector<T> download_lam(CudaPropagator<T>& prop, std::size_t values) {
  return download_field(prop, prop.adjoint().lam.data(), values);
}
template <class T>
std::vector<T> download_grad(CudaPropagator<T>& prop, std::size_t values) {
  return download_field(prop, prop.adjoint().grad.data(), values);
}

}  // namespace revwave::cuda_testing
