// Arrays whose size comes from the user (an option, a file's header): their byte count in checked
// arithmetic, held against the memory available, and an allocation that still fails named by what
// it was for and the value that sized it, never a bare "bad_alloc".
#pragma once
#include <cstddef>
#include <new>
#include <string>
#include <vector>

#include "revwave/core/checks.hpp"
#include "revwave/core/errors.hpp"
#include "revwave/core/system_memory.hpp"

namespace revwave {

// `count` values of T for `what` ("the low-passed data of shot 3"), sized by `sized_by`
// ("--bands 0.001: a lead of 3000000 samples"). OutOfMemoryError naming both when they cannot fit.
template <class T>
std::vector<T> allocate_values(std::size_t count, const std::string& what, const std::string& sized_by,
                               const T& value = T()) {
  const std::size_t bytes = checked_bytes({count, sizeof(T)}, what + " (" + sized_by + ")");
  require_memory(bytes, what + " (" + sized_by + ")");
  try {
    return std::vector<T>(count, value);
  } catch (const std::bad_alloc&) {
    throw OutOfMemoryError("cannot allocate " + format_bytes(double(bytes)) + " for " + what + " (" + sized_by + ")");
  } catch (const std::length_error&) {
    throw OutOfMemoryError("cannot allocate " + std::to_string(count) + " values for " + what + " (" + sized_by + ")");
  }
}

}  // namespace revwave
