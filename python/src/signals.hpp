// Ctrl-C during a long call (internal to the extension). The library computes without the GIL, so
// Python's own handler only runs once the call returns. The call's progress callback (which the
// library calls between time steps and shots) takes the GIL for a moment every 50 ms and lets Python
// run its signal handlers; when one raises (KeyboardInterrupt), the callback throws RunCancelled, the
// run unwinds (its outputs' temporaries removed on the way) and the call raises the handler's exception.
#pragma once
#include <chrono>

#include "revwave/core/progress.hpp"

namespace revwave::python {

class SignalCheck {
 public:
  // Between time steps: cheap unless 50 ms have passed since the last look.
  Progress progress();
  // Looks now (needs the GIL released; takes it for the look).
  void check();

 private:
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

}  // namespace revwave::python
