// `revwave adjtest` and `revwave gradtest` (and revwave.adjtest, revwave.gradtest) from their
// options: the dot-product test of the modelling operator and the Taylor test of J and its gradient,
// with their checks and the fields of their JSON summaries, shared by both front ends.
#pragma once
#include <cstdint>
#include <optional>

#include <nlohmann/json.hpp>

#include "revwave/driver/verification.hpp"
#include "revwave/setup/gradient_job.hpp"
#include "revwave/setup/problem_setup.hpp"

namespace revwave {

struct AdjtestRun {
  BackendChoice backend;
  TimeAxis time;
  Grid grid;
  DotProductResult result;  // checked finite
  double tolerance = 0;     // the one given, else 1e-12 in double and 1e-5 in float
  bool pass = false;
};
template <class T>
AdjtestRun run_adjtest(const ProblemOptions& o, std::uint32_t seed, std::optional<double> tolerance);
// forward_product, adjoint_product, relative_error, tolerance, pass, precision, backend, steps,
// shape, memory.
nlohmann::json adjtest_summary(const AdjtestRun& r, Precision precision);

struct GradtestRun {
  BackendChoice backend;
  index_t steps = 0;
  TaylorResult result;  // checked finite
  bool pass = false;    // first-order rate within 0.1 of 1, second-order rate >= 1.9
};
// On the CPU reference backend (InputError for --backend cuda).
template <class T>
GradtestRun run_gradtest(GradientJobOptions& o, int halvings, double scale);
// objective, directional_derivative, h, the two error series and their rates, pass, strategy,
// precision, backend, steps.
nlohmann::json gradtest_summary(const GradtestRun& r, const GradientJobOptions& o);

}  // namespace revwave
