#include "revwave/setup/verification_runs.hpp"

#include <cmath>

#include "revwave/core/checks.hpp"
#include "revwave/core/errors.hpp"
#include "revwave/core/system_memory.hpp"
#include "revwave/driver/backend_registry.hpp"
#include "revwave/misfit/record_resampling.hpp"

namespace revwave {

template <class T>
AdjtestRun run_adjtest(const ProblemOptions& o, std::uint32_t seed, std::optional<double> tolerance) {
  AdjtestRun r;
  r.backend = resolve_backend(o.backend);
  refuse_cuda_options_on_cpu(o, r.backend.kind);
  const ProblemSetup s = make_setup(o);
  r.time = make_time(o, s);
  r.grid = s.grid;
  apply_threads(o.threads);
  require_run_memory(s, r.time, sizeof(T), working_fields(r.backend.kind, Workload::dot_product_test), 3,
                     "the dot-product test");
  r.result = dot_product_test<T>(s.grid, s.model, s.acquisition, r.time, seed, r.backend.kind, device_budgets(o));
  check_finite_result(&r.result.forward_product, 1, "<F w, d>");
  check_finite_result(&r.result.adjoint_product, 1, "<w, F^T d>");
  r.tolerance = tolerance.value_or(sizeof(T) == 8 ? 1e-12 : 1e-5);
  r.pass = r.result.relative_error <= r.tolerance;
  return r;
}

nlohmann::json adjtest_summary(const AdjtestRun& r, Precision precision) {
  nlohmann::json j = {{"forward_product", r.result.forward_product},
                      {"adjoint_product", r.result.adjoint_product},
                      {"relative_error", r.result.relative_error},
                      {"tolerance", r.tolerance},
                      {"pass", r.pass},
                      {"precision", to_string(precision)},
                      {"steps", r.time.steps},
                      {"shape", r.grid.shape},
                      {"peak_rss_bytes", peak_rss_bytes()},
                      {"peak_rss_counts", peak_rss_counts()}};
  put_backend(j, r.backend);
  return j;
}

template <class T>
GradtestRun run_gradtest(GradientJobOptions& o, int halvings, double scale) {
  // On the backend the run chose (--backend auto: the GPU where one is usable), so that a GPU
  // runner's CI can take the Taylor test of the gradient it ships.
  GradtestRun r;
  r.backend = resolve_backend(o.problem.backend);
  refuse_cuda_options_on_cpu(o.problem, r.backend.kind);
  refuse_shots_at_once_for_one_shot(o.problem, "gradtest");
  o.strategy.backend = r.backend.kind;
  const DeviceBudgets budgets = device_budgets(o.problem);
  apply_threads(o.problem.threads);
  GradientJob<T> job = prepare_gradient_job<T>(o);
  // The gradient's working set and the direction dm.
  const int fields = working_fields(r.backend.kind, Workload::gradient) + 1;
  const TimeAxis run_time = simulation_time(job);  // the record's axis unless it takes substeps
  require_run_memory(job.start, run_time, sizeof(T), fields, 3, "the Taylor test");
  plan_strategy(o.strategy, run_time.steps, physics_state(job.start.grid, job.start.model.physics()),
                field_layout<T>(job.start.grid), run_bytes(job.start, run_time, sizeof(T), fields, 3));  // refuse early
  model_observed(job, r.backend.kind, budgets);
  const ProblemSetup& start = job.start;
  const std::vector<double> dm = taylor_direction(start.model, start.grid.spacing, scale);
  const ResampledMisfit<T> misfit(o.misfit.get<T>(), job.substeps);  // J of the traces at the record's samples
  r.result = taylor_test<T>(start.grid, start.model, dm, simulation_acquisition(job), run_time, job.observed,
                            o.strategy, halvings, r.backend.kind, budgets, misfit);
  r.steps = run_time.steps;
  const TaylorResult& t = r.result;
  check_finite_result(&t.objective, 1, "J(m)");
  check_finite_result(&t.directional, 1, "<g, dm>");
  check_finite_result(t.first.data(), t.first.size(), "|J(m + h dm) - J(m)|");
  r.pass = std::abs(t.rate_first - 1.0) <= 0.1 && t.rate_second >= 1.9;
  return r;
}

nlohmann::json gradtest_summary(const GradtestRun& r, const GradientJobOptions& o) {
  const TaylorResult& t = r.result;
  nlohmann::json j = {{"objective", t.objective},
                      {"directional_derivative", t.directional},
                      {"h", t.h},
                      {"first_order", t.first},
                      {"second_order", t.second},
                      {"rate_first", t.rate_first},
                      {"rate_second", t.rate_second},
                      {"pass", r.pass},
                      {"strategy", to_string(o.strategy.strategy)},
                      {"precision", to_string(o.problem.precision)},
                      {"steps", r.steps}};
  put_backend(j, r.backend);
  if (o.misfit.kind != MisfitKind::l2) j["misfit"] = to_string(o.misfit.kind);  // only where chosen: L2's fields stay
  return j;
}

template AdjtestRun run_adjtest<float>(const ProblemOptions&, std::uint32_t, std::optional<double>);
template AdjtestRun run_adjtest<double>(const ProblemOptions&, std::uint32_t, std::optional<double>);
template GradtestRun run_gradtest<float>(GradientJobOptions&, int, double);
template GradtestRun run_gradtest<double>(GradientJobOptions&, int, double);

}  // namespace revwave
