// What an action's exception says, for tests of the wording of one-line errors.
#pragma once
#include <exception>
#include <functional>
#include <string>

namespace revwave::testing {

// The message of what `f` throws, or "(no exception)" (which no expected wording contains).
inline std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "(no exception)";
}

}  // namespace revwave::testing
