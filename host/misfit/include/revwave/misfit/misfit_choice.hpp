// A run's misfit as its options carry it: a built-in one by kind, or one the caller supplies in
// both precisions (the Python bindings' callable). Plain data, copied with the options; the
// drivers take the Misfit<T> it names.
#pragma once
#include <memory>
#include <stdexcept>
#include <type_traits>

#include "revwave/misfit/misfit.hpp"

namespace revwave {

struct MisfitChoice {
  MisfitKind kind = MisfitKind::l2;
  std::shared_ptr<const Misfit<float>> custom_float;  // kind == custom
  std::shared_ptr<const Misfit<double>> custom_double;

  template <class T>
  const Misfit<T>& get() const {
    if (kind != MisfitKind::custom) return builtin_misfit<T>(kind);
    const Misfit<T>* m = nullptr;
    if constexpr (std::is_same_v<T, float>)
      m = custom_float.get();
    else
      m = custom_double.get();
    if (m == nullptr) throw std::logic_error("a custom misfit without its implementation");
    return *m;
  }
};

}  // namespace revwave
