// Stopping a run from outside. A front end that must end a long call (the Python package on
// Ctrl-C) passes a progress callback that throws RunCancelled; the library calls its progress
// callbacks between time steps and between shots, so the run unwinds from there, and the
// temporaries of its unfinished outputs go with it (OutputTransaction).
#pragma once
#include <exception>

namespace revwave {

// Not an error of the run: nothing is reported, nothing is written. Deliberately not a
// std::exception, so that no handler that maps errors to messages or exit codes swallows it.
class RunCancelled {
 public:
  const char* what() const noexcept { return "the run was cancelled"; }
};

}  // namespace revwave
