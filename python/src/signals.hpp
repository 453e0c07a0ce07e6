// Ctrl-C and progress during a long call (internal to the extension). The library computes without
// the GIL, so Python's own handler only runs once the call returns. The call's progress callback
// (which the library calls between time steps and shots) takes the GIL for a moment every 50 ms and
// lets Python run its signal handlers; when one raises (KeyboardInterrupt), the callback throws
// RunCancelled, the run unwinds (its outputs' temporaries removed on the way) and the call raises the
// handler's exception. At the same moments (and at done == total) it calls the progress hook the
// package set for the call (revwave._progress), with (done, total); an exception the hook raises
// ends the run the same way.
#pragma once
#include <chrono>

#include <nanobind/nanobind.h>

#include "revwave/core/progress.hpp"

namespace revwave::python {

// The hook the next calls report to (None: none). Set and cleared by the package around a call.
void set_progress_hook(nanobind::handle hook);

class SignalCheck {
 public:
  // Between time steps: cheap unless 50 ms have passed since the last look, or the work is done.
  Progress progress();
  // The same looks for Ctrl-C, without telling the hook: a call whose hook counts coarser units
  // (invert's iterations) and tells it itself (check).
  Progress signals_only();
  // Looks now (needs the GIL released; takes it for the look) and tells the hook (done, total).
  void check(index_t done = -1, index_t total = -1);

 private:
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

}  // namespace revwave::python
