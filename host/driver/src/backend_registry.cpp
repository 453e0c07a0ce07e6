// The registry's one decision made at run time: which backend runs (backend_choice.hpp).
#include "revwave/driver/backend_choice.hpp"

#include "revwave/core/cuda_info.hpp"
#include "revwave/core/errors.hpp"

namespace revwave {

BackendChoice resolve_backend(Backend requested) {
  if (requested == Backend::cpu) return {Backend::cpu, "", ""};
  const bool have_gpu = cuda_device_count() > 0;
  if (requested == Backend::cuda) {
    if (!cuda_compiled()) throw NotCompiledError("--backend cuda: " + cuda_unavailable_reason());
    if (!have_gpu) throw InputError("--backend cuda: " + cuda_unavailable_reason());
    return {Backend::cuda, "", ""};
  }
  if (have_gpu) return {Backend::cuda, "auto: a CUDA device is present", ""};
  // The usual case on a laptop or a CPU node: the report says "cpu (auto)"; why no GPU was usable
  // (a driver message, a build without CUDA) is for --verbose and `revwave info`.
  return {Backend::cpu, "auto", "no GPU is usable: " + cuda_unavailable_reason()};
}

}  // namespace revwave
