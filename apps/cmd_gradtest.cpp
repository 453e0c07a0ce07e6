// revwave gradtest: the Taylor test of J and its gradient.
#include <cmath>
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "gradient_job.hpp"
#include "number_options.hpp"
#include "revwave/driver/verification.hpp"
#include "run_report.hpp"

namespace revwave::app {
namespace {

struct GradtestOptions {
  GradientJobOptions job;
  int halvings = 6;
  double scale = 0.02;  // max |h0 dm| as a fraction of max m
};

template <class T>
bool run(GradtestOptions& o) {
  finish_strategy_options(o.job);
  // The Taylor test runs on the CPU reference backend (the GPU one is checked by its own suite).
  if (o.job.problem.backend == Backend::cuda) {
    throw InputError("gradtest runs on the CPU backend only: use --backend cpu (the GPU Taylor test is in tests/cuda)");
  }
  const BackendChoice backend = resolve_backend(Backend::cpu);
  apply_threads(o.job.problem.threads);
  GradientJob<T> job = prepare_gradient_job<T>(o.job);
  require_run_memory(job.start, job.time, sizeof(T), 10, 3, "the Taylor test");
  plan_strategy(o.job.strategy, job.time.steps, field_layout<T>(job.start.grid),
                run_bytes(job.start, job.time, sizeof(T), 10, 3));  // refuse early
  model_observed(job, Backend::cpu, {});
  const auto& start = job.start;
  const std::vector<double> dm = taylor_direction(start.model, start.grid.spacing, o.scale);
  const TaylorResult t = taylor_test<T>(start.grid, start.model, dm, start.acquisition, job.time, job.observed,
                                        o.job.strategy, o.halvings);
  check_finite_result(&t.objective, 1, "J(m)");
  check_finite_result(&t.directional, 1, "<g, dm>");
  check_finite_result(t.first.data(), t.first.size(), "|J(m + h dm) - J(m)|");
  const bool pass = std::abs(t.rate_first - 1.0) <= 0.1 && t.rate_second >= 1.9;
  if (o.job.problem.json) {
    nlohmann::json j{{"command", "gradtest"}, {"objective", t.objective}, {"directional_derivative", t.directional},
                     {"h", t.h}, {"first_order", t.first}, {"second_order", t.second},
                     {"rate_first", t.rate_first}, {"rate_second", t.rate_second}, {"pass", pass},
                     {"strategy", to_string(o.job.strategy.strategy)}, {"precision", to_string(o.job.problem.precision)},
                     {"backend", to_string(backend.kind)}, {"backend_note", backend.note}, {"steps", job.time.steps}};
    print_json(j);
  } else {
    std::cout.precision(6);
    std::cout << "revwave gradtest (" << to_string(o.job.problem.precision) << ", strategy " << to_string(o.job.strategy.strategy) << ", "
              << job.time.steps << " steps): J(m) = " << t.objective << ", <g, dm> = " << t.directional << "\n"
              << "           h   |J(m+h dm) - J(m)|   |J(m+h dm) - J(m) - h<g,dm>|\n";
    for (std::size_t i = 0; i < t.h.size(); ++i) {
      std::printf("  %10.6f   %18.6e   %28.6e\n", t.h[i], t.first[i], t.second[i]);
    }
    std::printf("  rates: first order %.3f (expect 1), second order %.3f (expect >= 1.9): %s\n", t.rate_first,
                t.rate_second, pass ? "PASS" : "FAIL");
  }
  return pass;
}

}  // namespace

void register_gradtest(CLI::App& app) {
  auto o = std::make_shared<GradtestOptions>();
  o->job.problem.shape = "40,40,40";
  o->job.problem.tn = 0.3;
  o->job.problem.precision = Precision::float64;
  CLI::App* cmd = app.add_subcommand("gradtest", "Taylor test: J(m + h dm) - J(m) - h <g, dm> falls as h^2");
  add_gradient_job_options(cmd, o->job, CudaOptions::none);
  add_integer(cmd, "--halvings", o->halvings, int_within(2, 40), "times h is halved");
  add_number(cmd, "--scale", o->scale, {0.0, 0.5, true, true}, "", "max |dm| at h = 1, as a fraction of max m");
  cmd->callback([o] {
    const bool pass = o->job.problem.precision == Precision::float64 ? run<double>(*o) : run<float>(*o);
    if (!pass) throw CLI::RuntimeError("Taylor test failed", 1);
  });
}

}  // namespace revwave::app
