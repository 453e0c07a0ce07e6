// Results as files and arrays hold them: in the run's precision, checked finite there (a value that
// overflows float is never written as a success).
#pragma once
#include <string>
#include <vector>

#include "revwave/core/checks.hpp"

namespace revwave {

template <class T>
std::vector<T> values_in_precision(const std::vector<double>& values, const std::string& what) {
  std::vector<T> out(values.begin(), values.end());
  check_finite_result(out.data(), out.size(), what + " in " + (sizeof(T) == 4 ? "float" : "double"));
  return out;
}

}  // namespace revwave
