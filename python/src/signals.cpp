#include "signals.hpp"

#include <nanobind/nanobind.h>

#include "revwave/core/cancellation.hpp"

namespace revwave::python {

namespace nb = nanobind;

void SignalCheck::check() {
  last_ = std::chrono::steady_clock::now();
  nb::gil_scoped_acquire held;
  // The handler's exception stays set on this thread's state: the binding raises it once the run has
  // unwound (nb::python_error).
  if (PyErr_CheckSignals() != 0) throw RunCancelled{};
}

Progress SignalCheck::progress() {
  return [this](index_t, index_t) {
    if (std::chrono::steady_clock::now() - last_ >= std::chrono::milliseconds(50)) check();
  };
}

}  // namespace revwave::python
