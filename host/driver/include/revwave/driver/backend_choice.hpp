// Which backend runs: --backend auto, cpu or cuda resolved once, before anything runs, by the backend
// registry (host/driver/src/backend_registry.cpp), which alone asks whether a CUDA device is usable.
#pragma once
#include <string>

#include "revwave/core/choices.hpp"

namespace revwave {

// The backend that will run (cpu or cuda, never automatic) and, for auto, why it was chosen: `note`
// is what every report prints ("auto" when no GPU is usable: a CPU run says nothing about CUDA
// drivers), `reason` the detail (why no CUDA device is usable) that --verbose and `revwave info` print.
struct BackendChoice {
  Backend kind = host_backend;
  std::string note;
  std::string reason;
};
// NotCompiledError for cuda in a build without it, InputError for cuda without a usable device.
BackendChoice resolve_backend(Backend requested);

}  // namespace revwave
