// revwave adjtest: the dot-product test <F w, d> = <w, F^T d> of the modelling operator.
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "number_options.hpp"
#include "problem_options.hpp"
#include "revwave/core/checks.hpp"
#include "revwave/core/system_memory.hpp"
#include "revwave/driver/backend_registry.hpp"
#include "revwave/driver/verification.hpp"
#include "run_report.hpp"

namespace revwave::app {
namespace {

struct AdjtestOptions {
  ProblemOptions problem;
  std::uint32_t seed = 1234;
  std::optional<double> tolerance;  // unset: by precision
};

template <class T>
bool run(const AdjtestOptions& o) {
  const BackendChoice backend = resolve_backend(o.problem.backend);
  refuse_cuda_options_on_cpu(o.problem, backend.kind);
  const ProblemSetup s = make_setup(o.problem);
  const TimeAxis time = make_time(o.problem, s);
  apply_threads(o.problem.threads);
  require_run_memory(s, time, sizeof(T), working_fields(backend.kind, Workload::dot_product_test), 3, "the dot-product test");
  const DotProductResult r =
      dot_product_test<T>(s.grid, s.model, s.acquisition, time, o.seed, backend.kind, cuda_budgets(o.problem));
  check_finite_result(&r.forward_product, 1, "<F w, d>");
  check_finite_result(&r.adjoint_product, 1, "<w, F^T d>");
  const double tol = o.tolerance.value_or(sizeof(T) == 8 ? 1e-12 : 1e-5);
  const bool pass = r.relative_error <= tol;
  if (o.problem.json) {
    nlohmann::json j{{"command", "adjtest"},       {"forward_product", r.forward_product},
                     {"adjoint_product", r.adjoint_product}, {"relative_error", r.relative_error},
                     {"tolerance", tol},           {"pass", pass},
                     {"precision", to_string(o.problem.precision)}, {"backend", to_string(backend.kind)}, {"backend_note", backend.note},
                     {"steps", time.steps},        {"shape", s.grid.shape},
                     {"peak_rss_bytes", peak_rss_bytes()}};
    print_json(j);
  } else {
    std::cout.precision(17);
    std::cout << "revwave adjtest (" << to_string(o.problem.precision) << ", " << time.steps << " steps)\n"
              << "  <F w, d>       " << r.forward_product << "\n"
              << "  <w, F^T d>     " << r.adjoint_product << "\n";
    std::cout.precision(3);
    std::cout << "  relative error " << r.relative_error << " (tolerance " << tol << "): " << (pass ? "PASS" : "FAIL") << "\n";
  }
  return pass;
}

}  // namespace

void register_adjtest(CLI::App& app) {
  auto o = std::make_shared<AdjtestOptions>();
  o->problem.shape = "40,40,40";
  o->problem.tn = 0.25;
  o->problem.precision = Precision::float64;
  CLI::App* cmd = app.add_subcommand("adjtest", "dot-product test of the forward modelling operator and its adjoint");
  add_problem_options(cmd, o->problem, CudaOptions::device);
  add_integer(cmd, "--seed", o->seed, int_within(0, 4294967295), "random seed of w and d");
  add_number(cmd, "--tolerance", o->tolerance, positive(), "", "relative tolerance (default 1e-12 double, 1e-5 float)");
  cmd->callback([o] {
    const bool pass = o->problem.precision == Precision::float64 ? run<double>(*o) : run<float>(*o);
    if (!pass) throw CLI::RuntimeError("adjoint test failed", 1);
  });
}

}  // namespace revwave::app
