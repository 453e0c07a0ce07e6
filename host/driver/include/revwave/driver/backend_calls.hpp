// The shared drivers as values that run on a propagator: forward modelling, the gradient, the
// dot-product test.
// A closed set, so that the CUDA backend, whose propagator the host cannot name, instantiates
// each once (cuda/backend/src/cuda_backend.cpp) while the drivers stay written once.
#pragma once
#include <vector>

#include "revwave/core/progress.hpp"
#include "revwave/driver/dot_product.hpp"
#include "revwave/driver/forward_modelling.hpp"
#include "revwave/driver/gradient_strategy.hpp"
#include "revwave/misfit/misfit.hpp"

namespace revwave {

template <class T>
struct ForwardCall {
  using Result = ShotData<T>;
  Progress progress;
  template <class P>
  Result operator()(P& prop) const {
    return run_forward(prop, progress);
  }
};

// J and dJ/dm of `misfit` against `observed` (nt x nrec) under `plan`; the pointed-to inputs
// outlive the run.
template <class T>
struct GradientCall {
  using Result = GradientOutput;
  const Misfit<T>* misfit = nullptr;
  const T* observed = nullptr;
  const StrategyOptions* options = nullptr;
  const StrategyPlan* plan = nullptr;
  Progress progress;
  StrategyReport* report = nullptr;
  template <class P>
  Result operator()(P& prop) const {
    return run_gradient(prop, *misfit, observed, *options, *plan, progress, report);
  }
};

// The dot-product test with the random data d, the problem already randomized (randomize_dot_test).
template <class T>
struct DotProductCall {
  using Result = DotProductResult;
  const std::vector<T>* data = nullptr;
  template <class P>
  Result operator()(P& prop) const {
    return dot_product(prop, *data);
  }
};

// Every call, for the explicit instantiations of a backend that the host cannot name.
#define REVWAVE_FOR_EACH_BACKEND_CALL(X, T) \
  X(T, ForwardCall<T>)                      \
  X(T, GradientCall<T>)                     \
  X(T, DotProductCall<T>)

}  // namespace revwave
