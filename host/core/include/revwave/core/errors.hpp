// Typed exceptions of the library. The app maps each to one line and an exit code.
#pragma once
#include <stdexcept>
#include <string>

namespace revwave {

// Bad user input: a value that breaks a rule. what() names the value and the rule.
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A file that cannot be read, written or parsed.
class IoError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Not enough memory for what was asked (host or device).
class OutOfMemoryError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A result (objective, gradient, traces) that is not finite although every input passed its
// checks: float overflow on extreme data, or a bug. Never written as a success.
class NonFiniteError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A run stopped by the growth guard of its first forward sweep (revwave/driver/growth_guard.hpp):
// the wavefield grew without bound after the source ended, or became not finite. An operator
// unstable at the run's dt (a bug, or a case the input checks do not cover) or float overflow;
// what() names the physics, the boundary and the space order. Nothing of the run is written.
class UnstableRunError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A backend that failed: a device fault (a CUDA error: an illegal address, a lost device, a
// launch that failed) or, as NotCompiledError, a backend this build does not contain.
class BackendError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A backend that this build does not contain.
class NotCompiledError : public BackendError {
 public:
  using BackendError::BackendError;
};

}  // namespace revwave
